"""With a spill file, the question files' workers write each file's record and texts there
themselves, a task's together in one write (:meth:`aistack_bank.cache.questionfiles.Spill.append_verdicts`),
and send back where they are; the `bank` process gives the store those places, whose bytes it
reads from the spill file only when it writes the store (:meth:`aistack_bank.cache.store.SplitStore.put`).

Compared with the code before (spelled out here: the workers send the bytes back, the `bank`
process writes them to the spill file and holds them for the store), on the bundled bank copied
into three topics, in random tasks of the pool, with random appends failing (in a worker: its
task's verdicts go back with their bytes; in the `bank` process: the record stays in memory):
the same diagnostics, summaries, records and texts read back, and the same stores, entry for
entry, read by a later run; and places read together (:meth:`~aistack_bank.cache.questionfiles.Spilled.read_parts`)
and appended by several processes at once give back the bytes written."""

from __future__ import annotations

import os
import pickle
import random
import shutil
from pathlib import Path

import pytest

from aistack_bank.cache import questionfiles, store
from aistack_bank.load import read_library
from aistack_bank.rules.lints import file_leak_texts
from aistack_bank.rules.validate import question_file_rules
from aistack_bank.safety import folders_settled


def _chunk_before(self, items):
    """QuestionFiles._chunk as it was: every verdict with its record's and texts' bytes."""
    with folders_settled():
        return [pickle.dumps(self._checked(*item, stored=True)[0], protocol=pickle.HIGHEST_PROTOCOL) for item in items]


def _read(cache: Path, monkeypatch) -> tuple:
    """What one cold read of the bank gives (with the stores), and its stores read back."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    files = questionfiles.QuestionFiles(question_file_rules, use_cache=True, spill=True, texts=file_leak_texts)
    source = read_library(Path("bank"), read_topics=files.read_topics)
    assert files.spill is not None
    questions = []
    for qs in source.questions:
        record = qs.__dict__.get("_record")
        if isinstance(record, questionfiles.StoreRecord):  # (a stored verdict's record, in its store's records file)
            blob = bytes(record.records[record.at:record.at + record.length])
        else:
            blob = record.blob() if isinstance(record, questionfiles.Spilled) else bytes(record)
        questions.append((str(qs.path), pickle.dumps(qs.summary), blob, pickle.dumps(qs.texts)))
    diagnostics = [d.as_dict() for d in source.diagnostics + files.rule_diagnostics()]
    files.close()
    stores = {}
    for topic in source.topics:
        kept = store.SplitStore("questions", topic.root)
        stores[str(topic.root)] = {key: (pickle.dumps(kept.get(key)[0]), bytes(kept.get(key)[1])) for key in kept._load()}
    return diagnostics, questions, stores


@pytest.mark.parametrize("seed", range(4))
def test_records_written_by_the_workers_read_back_as_those_the_process_wrote(project, monkeypatch, tmp_path, seed):
    rng = random.Random(seed)
    topic = next(folder for folder in Path("bank").iterdir() if (folder / "topic.yaml").is_file())
    for copy in ("second", "third"):  # (the same files in other topics' folders: read as theirs)
        shutil.copytree(topic, Path("bank") / f"{topic.name}-{copy}")
    monkeypatch.setenv("AISTACK_BANK_JOBS", "2")
    monkeypatch.setattr(questionfiles, "FILE_POOL_MIN", 0)
    monkeypatch.setattr(questionfiles, "SPILL_MIN_FILES", 0)
    monkeypatch.setattr(questionfiles, "FILE_CHUNK_MAX", rng.choice([1, 3, 7, 20, 250]))
    failing = rng.choice([0.0, 0.3])
    real_append = questionfiles.Spill._append

    def append(self, data):
        # (the generator's state is copied into each worker: each process fails its own share)
        return None if rng.random() < failing else real_append(self, data)

    monkeypatch.setattr(questionfiles.Spill, "_append", append)
    after = _read(tmp_path / "after", monkeypatch)
    monkeypatch.setattr(questionfiles.QuestionFiles, "_chunk", _chunk_before)
    before = _read(tmp_path / "before", monkeypatch)
    assert len(after[1]) == len(before[1]) > 100 and sum(len(kept) for kept in after[2].values()) == len(after[1])
    assert after == before


def test_a_later_run_serves_every_verdict_from_the_stores_the_workers_records_went_to(project, monkeypatch, tmp_path):
    monkeypatch.setenv("AISTACK_BANK_JOBS", "2")
    monkeypatch.setattr(questionfiles, "FILE_POOL_MIN", 0)
    monkeypatch.setattr(questionfiles, "SPILL_MIN_FILES", 0)
    monkeypatch.setattr(questionfiles, "FILE_CHUNK_MAX", 5)
    first = _read(tmp_path / "cache", monkeypatch)
    monkeypatch.setattr(questionfiles.QuestionFiles, "_checked", lambda *a, **k: pytest.fail("a stored file read again"))
    again = _read(tmp_path / "cache", monkeypatch)
    assert again[0] == first[0] and [found[:3] for found in again[1]] == [found[:3] for found in first[1]]


def test_places_read_together_give_each_ones_bytes(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    rng = random.Random(3)
    spills = [questionfiles.Spill.create() for _ in range(2)]
    placed = []
    for _ in range(600):
        spill = rng.choice(spills)
        blob = os.urandom(rng.choice([0, 1, 5, 300, 4000]))
        where = spill.add(blob)
        assert isinstance(where, questionfiles.Spilled)
        placed.append((where, blob))
    for _ in range(30):
        chosen = rng.sample(placed, rng.randint(1, len(placed)))
        if rng.random() < 0.5:  # (runs one after the other in the file, as a worker's records are)
            start = rng.randrange(len(placed))
            chosen = placed[start:start + rng.randint(1, 50)]
        parts = [where for where, _ in chosen]
        assert [bytes(found) for found in questionfiles.Spilled.read_parts(parts)] == [blob for _, blob in chosen]


def test_appends_of_several_processes_at_once_land_where_each_says(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    spill = questionfiles.Spill.create()
    spill.add(b"first")  # (the parent's descriptor opened before the fork: not the children's)
    children = []
    for child in range(4):
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                os.close(read)
                rng = random.Random(child)
                verdicts = [(None, [], [], bytes([child]) * rng.randint(1, 3000), bytes([child + 10]) * rng.randint(0, 50) or None, None)
                            for _ in range(300)]
                found = []
                for start in range(0, len(verdicts), 7):
                    found += spill.append_verdicts(verdicts[start:start + 7])
                with os.fdopen(write, "wb") as out:
                    pickle.dump((verdicts, found), out)
                code = 0
            finally:
                os._exit(code)
        os.close(write)
        children.append((pid, read))
    for pid, read in children:
        with os.fdopen(read, "rb") as handle:
            verdicts, found = pickle.load(handle)
        assert os.waitpid(pid, 0)[1] == 0
        for verdict, placed in zip(verdicts, found):
            assert type(placed[3]) is tuple and spill.placed(placed[3]).blob() == verdict[3]
            if verdict[4] is None:
                assert placed[4] is None
            else:
                assert spill.placed(placed[4]).blob() == verdict[4]


def test_an_append_between_anothers_write_and_its_place_does_not_move_that_place(tmp_path, monkeypatch):
    """Process A's write, then B's whole append, then A asks where its write landed: A's place
    is still its own (each process appends through a descriptor of its own, not one inherited)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    spill = questionfiles.Spill.create()
    assert isinstance(spill.add(b"first"), questionfiles.Spilled)  # (the parent's descriptor, inherited by both)
    go_read, go_write = os.pipe()
    done_read, done_write = os.pipe()
    out_read, out_write = os.pipe()

    def child(body) -> int:
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                place = body()
                os.write(out_write, pickle.dumps(place))
                code = 0
            finally:
                os._exit(code)
        return pid

    def b():
        os.read(go_read, 1)
        place = spill.add(b"B" * 100)
        os.write(done_write, b"x")
        return ("B", place.at, place.length)

    def a():
        real = os.lseek

        def lseek(fd, at, how):
            os.lseek = real
            os.write(go_write, b"x")
            os.read(done_read, 1)  # (B has appended since A's write)
            return real(fd, at, how)

        os.lseek = lseek
        place = spill.add(b"A" * 50)
        return ("A", place.at, place.length)

    pids = [child(b), child(a)]
    for pid in pids:
        assert os.waitpid(pid, 0)[1] == 0
    os.close(out_write)
    found = []
    with os.fdopen(out_read, "rb") as handle:
        while True:
            try:
                found.append(pickle.load(handle))
            except EOFError:
                break
    assert sorted(name for name, _, _ in found) == ["A", "B"]
    for name, at, length in found:
        assert questionfiles.Spilled(spill, at, length).blob() == name.encode() * length
