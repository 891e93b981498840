"""A file's texts in a spill file (what the answer-leak rule reads of each question file checked
in a cold run, :attr:`aistack_bank.cache.questionfiles.StoredQuestion.texts`) are read ahead in
the run of texts a worker wrote together (:meth:`~aistack_bank.cache.questionfiles.Spill.texts_placed`,
:meth:`~aistack_bank.cache.questionfiles.Spill.read_texts`), and unpickled by ``pickle.loads``.

Compared with the code before, kept here (each file's texts read alone at its place, unpickled by
an unpickler over a buffer), on random tasks written as the workers write them (records, then
texts, in one write; some appends failed, leaving the texts' bytes in memory; some files without
texts), with other processes' writes landing after each task, read in random orders: the same
bytes and the same values, never a byte read past the run asked about (the bytes after it may be
a write still under way), and fewer reads than texts when they are read in order."""

from __future__ import annotations

import gc
import io
import os
import pickle
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from aistack_bank.cache import questionfiles
from aistack_bank.cache.store import read_at

_texts = st.one_of(
    st.none(),
    st.lists(st.tuples(st.tuples(st.sampled_from(["stem", "options", "feedback"]), st.integers(0, 9)), st.text(max_size=300)), max_size=8).map(tuple),
)
_task = st.lists(st.tuples(st.binary(min_size=1, max_size=400), _texts, st.booleans()), min_size=1, max_size=12)


def _texts_before(place, spill: questionfiles.Spill):
    """StoredQuestion.texts as it was: the texts' bytes read alone, unpickled through an unpickler."""
    blob = read_at(spill.fd, *place) if type(place) is tuple else place
    paused = gc.isenabled()
    gc.disable()
    try:
        return pickle.Unpickler(io.BytesIO(blob)).load()
    finally:
        if paused:
            gc.enable()


@given(tasks=st.lists(_task, min_size=1, max_size=6), ahead=st.sampled_from([1, 40, 700, 1 << 17]), seed=st.integers(0, 2**32 - 1))
def test_texts_read_ahead_read_as_each_alone(tmp_path_factory, monkeypatch, tasks, ahead, seed):
    rng = random.Random(seed)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))
    monkeypatch.setattr(questionfiles, "TEXTS_READ_AHEAD", ahead)
    spill = questionfiles.Spill.create()
    assert spill is not None
    places, expected = [], []
    for task in tasks:
        verdicts = [(None, [], [], record, None if texts is None else pickle.dumps(texts, protocol=pickle.HIGHEST_PROTOCOL), None)
                    for record, texts, _ in task]
        written = spill.append_verdicts(verdicts)
        for (_, texts, failed), verdict in zip(task, written):
            place = verdict[4]
            if failed and type(place) is tuple:  # (an append that failed: the bytes kept in memory)
                place = read_at(spill.fd, *place)
            places.append(place)
            expected.append(texts)
        spill._append(os.urandom(rng.randrange(1, 300)))  # another process's write after the task's
    placed = [spill.texts_placed(place) for place in places]  # (in the order the verdicts come back)
    reads: list[tuple[int, int]] = []
    real_pread = os.pread

    def pread(fd, length, at):
        reads.append((at, length))
        return real_pread(fd, length, at)

    monkeypatch.setattr(os, "pread", pread)
    order = list(range(len(placed)))
    how = rng.choice(["in order", "reversed", "shuffled"])
    if how == "reversed":
        order.reverse()
    elif how == "shuffled":
        rng.shuffle(order)
    for index in order:
        texts, place = placed[index], places[index]
        if texts is None:
            continue
        if isinstance(texts, questionfiles.Spilled):
            assert type(texts) is questionfiles.SpilledTexts
            assert bytes(texts.blob()) == read_at(spill.fd, *place)
            before = _texts_before(place, spill)
            after = questionfiles._loads_uncollected(texts.blob(), record=False)
        else:
            before = _texts_before(texts, spill)
            after = questionfiles._loads_uncollected(texts, record=False)
        assert after == before == expected[index]
    runs: list[list[int]] = []  # (the texts placed one right after the other, as written)
    for place in places:
        if type(place) is tuple:
            if runs and runs[-1][1] == place[0]:
                runs[-1][1] += place[1]
            else:
                runs.append([place[0], place[0] + place[1]])
    for at, length in reads:  # (each read within the run of texts it was made for)
        assert any(start <= at and at + length <= end for start, end in runs)


def test_texts_read_in_order_take_fewer_reads(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    spill = questionfiles.Spill.create()
    assert spill is not None
    values = [((("stem",), 0), f"text {n} " * 20) for n in range(200)]
    written = spill.append_verdicts([(None, [], [], b"record", pickle.dumps(value), None) for value in values])
    placed = [spill.texts_placed(verdict[4]) for verdict in written]
    calls = []
    real_pread = os.pread
    monkeypatch.setattr(os, "pread", lambda fd, length, at: calls.append(length) or real_pread(fd, length, at))
    assert [pickle.loads(texts.blob()) for texts in placed] == values
    assert len(calls) < len(values) // 10


def test_texts_cut_short_say_so(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    spill = questionfiles.Spill.create()
    assert spill is not None
    written = spill.append_verdicts([(None, [], [], b"record", pickle.dumps(("a", n)), None) for n in range(5)])
    placed = [spill.texts_placed(verdict[4]) for verdict in written]
    os.truncate(spill.path, placed[2].at + 1)
    assert pickle.loads(placed[0].blob()) == ("a", 0)  # (whole before the cut)
    with pytest.raises(OSError):
        placed[3].blob()
