"""A record's pickler is kept and reused, its memo cleared (``cache.questionfiles._dumped``,
``_PICKLERS``): every record pickles to the bytes a new pickler gives (spelled out below, the
code before), in any order, after a record that failed to pickle, and from several threads at
once."""

from __future__ import annotations

import io
import pickle
import random
import threading
from pathlib import Path

import pytest

from aistack_bank.cache import questionfiles
from aistack_bank.load import read_question, read_topic
from aistack_bank.rules.validate import question_file_rules

ROOT = Path(__file__).resolve().parent.parent


def _dumped_new_pickler(qs) -> bytes:
    """``_dumped`` as it was: a new pickler for each record."""
    out = io.BytesIO()
    pickler = pickle.Pickler(out, protocol=pickle.HIGHEST_PROTOCOL)
    table = questionfiles._MODELS_REDUCED
    if (qs.question is not None and type(qs.question) not in table) or len(questionfiles.copyreg.dispatch_table) != questionfiles._COPYREG_SEEN[0]:
        table = questionfiles._models_reduced()
    pickler.dispatch_table = table
    pickler.dump((questionfiles.RECORD_HEAD, qs.path, qs.derived))
    doc = qs.doc
    qs.doc = ...
    try:
        pickler.dump(qs)
    finally:
        qs.doc = doc
    lines = getattr(doc, "_lines", None)
    if lines is not None:
        doc._lines = None
    pickler.fast = True  # (the document with nothing of its own remembered)
    try:
        pickler.dump(doc)
    finally:
        pickler.fast = False
        if lines is not None:
            doc._lines = lines
    return out.getvalue()


@pytest.fixture(scope="module")
def records():
    files = sorted([*ROOT.glob("bank/*/questions/*.yaml"), *ROOT.glob("examples/every-kind/bank/*/questions/*.yaml")])
    topics, found = {}, []
    for path in files:
        root = path.parent.parent
        if root not in topics:
            topics[root] = read_topic(root)[0]
        qs, _ = read_question(path, root=root, project=root.parent.parent)
        found.append(qs)  # (without derived values)
        qs, _ = read_question(path, root=root, project=root.parent.parent)
        question_file_rules(qs, root, topics[root], True)
        qs.summary = None
        found.append(qs)
    assert len(found) > 40
    return found


def test_records_pickle_as_with_a_new_pickler_in_any_order(records):
    rng = random.Random(13)
    for _ in range(6):
        order = rng.sample(records, len(records))
        for qs in order:
            assert questionfiles._dumped(qs) == _dumped_new_pickler(qs), qs.path
    assert len(questionfiles._PICKLERS) >= 1


def test_a_record_that_fails_leaves_no_trace(records):
    broken = records[1]
    derived = broken.derived
    broken.derived = dict(derived, bad=lambda: None)  # a lambda does not pickle
    try:
        with pytest.raises(Exception):
            questionfiles._dumped(broken)
    finally:
        broken.derived = derived
    for qs in records[:12]:
        assert questionfiles._dumped(qs) == _dumped_new_pickler(qs), qs.path


def test_threads_pickle_at_once(records):
    # (each thread its own records: ``_dumped`` sets a record's document aside while it pickles it)
    expected = [_dumped_new_pickler(qs) for qs in records]
    found: list = [None] * 4
    start = threading.Barrier(4)

    def run(i: int) -> None:
        start.wait()
        found[i] = [questionfiles._dumped(qs) for _ in range(3) for qs in records[i::4]]

    threads = [threading.Thread(target=run, args=(i,)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(got == expected[i::4] * 3 for i, got in enumerate(found))
