"""A record's document is pickled with nothing of its own remembered (``cache.questionfiles._dumped``:
the pickler's ``fast`` mode for the third pickle only), so that the kept pickler's memo holds
the head's and the model's objects alone (a table a quarter of the size to clear after each
record); what the head and the model hold is still referred to.

Compared with the code before (spelled out here: the document remembered as the rest): on the
question files of the bundled bank and of ``examples/every-kind``, and on their documents changed
at random (objects shared within the document, the same string in its data and its tables,
nesting deeper than the pickler's fast-mode limit, texts beyond ASCII): the head and the model
pickle to the same bytes, each record unpickles (whole, and without its document) to the same
values of the same types in the same order, the document's lines are kept, and the next
record pickles as before (the pickler left as it was)."""

from __future__ import annotations

import copy
import io
import pickle
import random
from pathlib import Path

import pytest

from aistack_bank.cache import questionfiles
from aistack_bank.load import read_question, read_topic
from aistack_bank.rules.validate import question_file_rules

ROOT = Path(__file__).resolve().parent.parent


def _dumped_before(qs) -> tuple[bytes, int]:
    """``_dumped`` as it was (a new pickler, the document remembered as the rest), and where the
    document's pickle starts."""
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
    start = out.tell()
    lines = getattr(doc, "_lines", None)
    if lines is None:
        pickler.dump(doc)
    else:
        doc._lines = None
        try:
            pickler.dump(doc)
        finally:
            doc._lines = lines
    return out.getvalue(), start


def _same(a, b, where="") -> None:
    """The same values of the same types, dictionaries in the same order."""
    assert type(a) is type(b), where
    if isinstance(a, dict):
        assert list(a) == list(b), where
        for key in a:
            _same(a[key], b[key], f"{where}/{key!r}")
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b)):
            _same(x, y, f"{where}[{i}]")
    elif hasattr(a, "__dict__") and not isinstance(a, (Path, type)):
        _same(dict(vars(a)), dict(vars(b)), where)
    elif a != a:  # (NaN)
        assert b != b, where
    else:
        assert a == b, where


def _records():
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


@pytest.fixture(scope="module")
def records():
    return _records()


def _check(qs) -> None:
    lines = getattr(qs.doc, "_lines", None) if qs.doc is not None else None
    blob = questionfiles._dumped(qs)
    before, start = _dumped_before(qs)
    assert blob[:start] == before[:start], qs.path  # (the head and the model: the same bytes)
    if qs.doc is not None:
        assert qs.doc._lines is lines
    for document in (True, False):
        got = questionfiles._loads_uncollected(blob, document=document)
        want = questionfiles._loads_uncollected(before, document=document)
        _same(want.path, got.path)
        _same(want.question, got.question, "question")
        _same(want.derived, got.derived, "derived")
        if document:
            _same(want.doc, got.doc, "doc")
        else:
            assert got.doc is ... and want.doc is ...
    head = pickle.loads(blob)
    _same(pickle.loads(before), head, "head")


def test_records_as_before(records):
    for qs in records:
        _check(qs)
    for qs in reversed(records):  # (each after another record: the pickler as it was left)
        _check(qs)


def _deep(depth: int, leaf):
    value = leaf
    for i in range(depth):
        value = {f"k{i}": [value, i]} if i % 2 else [value, f"s{i}"]
    return value


def test_changed_documents_as_before(records):
    rng = random.Random(17)
    with_doc = [qs for qs in records if qs.doc is not None]
    for round_ in range(300):
        qs = copy.copy(rng.choice(with_doc))
        doc = qs.doc = copy.deepcopy(qs.doc)
        data = doc.data = dict(doc.data)
        shared_list = ["x", "é", 3, 2.5, None, True]
        shared_text = rng.choice([doc.text[: rng.randrange(1, 40)], "Ünïcødé ×²", "a" * rng.randrange(0, 300)])
        for i in range(rng.randrange(1, 5)):
            data[f"extra{i}"] = rng.choice([shared_list, shared_text, (shared_text, shared_text), {"a": shared_list, "b": shared_list},
                                           _deep(rng.randrange(40, 70), shared_text), float("nan"), 10 ** 30, -0.0])
        path_key = next(iter(doc.values), ())
        doc.values = dict(doc.values)
        doc.values[("extra0",)] = doc.values.get(path_key, (1, 1))  # (a position tuple shared by two paths)
        doc.keys = dict(doc.keys)
        doc.keys[("extra0",)] = doc.values[("extra0",)]
        if round_ % 3 == 0:
            doc.line(1)  # (its lines split: left out of the pickle, kept on the document)
        _check(qs)


def test_next_record_after_a_failed_document(records):
    qs = copy.copy(next(qs for qs in records if qs.doc is not None))
    qs.doc = copy.deepcopy(qs.doc)
    qs.doc.data = dict(qs.doc.data, bad=lambda: None)  # (a lambda does not pickle)
    with pytest.raises(Exception):
        questionfiles._dumped(qs)
    for qs in records[:12]:
        _check(qs)
