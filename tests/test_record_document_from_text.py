"""A record's document read quickly is kept as its path and text (``cache.questionfiles._dumped``
through ``_document_reduced``), its data and tables read again from the text when one of them is
first read (``yamlsource.document_of_text``); any other document is pickled as before.

Compared with the pickler before (kept here: the document pickled with its data and tables), on
every question file of the bundled bank and of ``examples/every-kind`` (every kind), before and
after its rules, and on random and hostile texts (the quick reader's random question-file shapes,
mutated, and a question file's values drawn by hypothesis from any characters): the head and
the model pickle to the same bytes, a document not read quickly (or changed since) to the same
bytes too, and every record unpickles to the same document: the same data (types included), the
same tables in the same order, the same locations of every value and key."""

from __future__ import annotations

import copy
import io
import pickle
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aistack_bank.cache import questionfiles
from aistack_bank.load import QuestionSource, read_question, read_topic
from aistack_bank.rules.validate import question_file_rules
from aistack_bank.yamlsource import YamlDocument, document_of_text, from_text, parse_yaml
from test_yaml_quick_equivalence import _documents

ROOT = Path(__file__).resolve().parent.parent
PATH = Path("bank/t/questions/q00001-x.yaml")


def _dumped_before(qs) -> tuple[bytes, int]:
    """``_dumped`` as it was: the document pickled with its data and tables (nothing of its own
    remembered), and where its pickle starts."""
    out = io.BytesIO()
    pickler = pickle.Pickler(out, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = {cls: reduce for cls, reduce in questionfiles._models_reduced().items() if cls is not YamlDocument}
    pickler.dump((questionfiles.RECORD_HEAD, qs.path, qs.derived))
    doc = qs.doc
    qs.doc = ...
    try:
        pickler.dump(qs)
    finally:
        qs.doc = doc
    start = out.tell()
    lines = getattr(doc, "_lines", None)
    if lines is not None:
        doc._lines = None
    pickler.fast = True
    try:
        pickler.dump(doc)
    finally:
        pickler.fast = False
        if lines is not None:
            doc._lines = lines
    return out.getvalue(), start


def _shape(doc) -> str:
    # repr tells True from 1 and 1.0, and lists the tables in their order
    if doc is None:
        return "None"
    return repr((type(doc), doc.path, doc.text, doc.data, list(doc.values.items()), list(doc.keys.items())))


def _places(doc) -> list:
    """Every location the document gives: each value's and key's, an ancestor's, a scalar's lines."""
    out = []
    for path in [*doc.values, *doc.keys, ("nowhere",), ("options", 99, "text")]:
        out.append((doc.locate(path), doc.locate(path, key=True), doc.locate_in_scalar(path, 1, 1), doc.locate_in_scalar(path, 2, 3)))
    return out


def _check(qs: QuestionSource) -> None:
    doc = qs.doc
    want_shape, want_places = _shape(doc), doc and _places(doc)
    blob = questionfiles._dumped(qs)
    before, start = _dumped_before(qs)
    assert blob[:start] == before[:start], qs.path  # (the head and the model: the same bytes)
    quick = doc is not None and from_text(doc)
    if not quick:
        assert blob == before, qs.path
    else:
        assert len(blob) < len(before), qs.path
    new = questionfiles.loads_record(blob)
    if quick:  # (its data and tables read again only when one of them is first read)
        assert new.doc is not doc and set(new.doc.__dict__) == {"path", "text", "_from_text"} and new.doc.__dict__["_from_text"] is True
    for got in (new, questionfiles.loads_record(before)):
        assert _shape(got.doc) == want_shape, qs.path
        if doc is not None:
            assert _places(got.doc) == want_places, qs.path  # (== would tell a NaN from itself)
    without = questionfiles._loads_uncollected(blob, document=False)
    assert without.doc is ... and repr((without.path, without.question, without.derived)) == repr((qs.path, qs.question, qs.derived))
    assert _shape(doc) == want_shape  # (the document pickled is left as it was)


def _bank_records():
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
    return found


@pytest.fixture(scope="module")
def records():
    found = _bank_records()
    assert len(found) > 40 and sum(qs.doc is not None and from_text(qs.doc) for qs in found) > 30
    assert len({type(qs.question) for qs in found}) >= 8
    return found


def test_every_question_file_as_before(records):
    for qs in records:
        _check(qs)
    for qs in reversed(records):  # (each after another record: the pickler as it was left)
        _check(qs)


def test_documents_changed_after_reading_pickled_whole(records):
    rng = random.Random(5)
    quick = [qs for qs in records if qs.doc is not None and from_text(qs.doc)]
    for round_ in range(60):
        qs = copy.copy(rng.choice(quick))
        doc = qs.doc = copy.deepcopy(qs.doc)
        assert from_text(doc)  # (a copy is read as its text too)
        which = round_ % 3
        if which == 0:
            doc.data = dict(doc.data, extra=["x", 1.5, None])
        elif which == 1:
            doc.values = dict(doc.values)
            doc.values[("extra",)] = (1, 1)
        else:
            doc.keys = {}
        assert not from_text(doc)
        _check(qs)


def test_a_document_read_again_is_read_once_and_pickles_as_one_read(records):
    qs = next(qs for qs in records if qs.doc is not None and from_text(qs.doc))
    lazy = document_of_text(qs.doc.path, qs.doc.text)
    assert type(lazy) is YamlDocument and from_text(lazy) and "data" not in lazy.__dict__
    for other in (pickle.loads(pickle.dumps(lazy)), copy.deepcopy(lazy), copy.copy(lazy)):
        assert _shape(other) == _shape(qs.doc) and from_text(other)
    keys = lazy.keys  # (one read: all three made, and kept)
    assert lazy.__dict__["keys"] is keys and lazy.data is lazy.__dict__["data"] and from_text(lazy)
    assert _shape(lazy) == _shape(qs.doc)
    again = document_of_text(qs.doc.path, qs.doc.text)
    again.data = {"given": 1}  # (given before its data was read: kept, and pickled whole)
    assert again.data == {"given": 1} and not from_text(again)
    assert again.values == qs.doc.values
    with pytest.raises(AttributeError):
        lazy.not_a_field
    assert not hasattr(lazy, "__setstate__") or callable(lazy.__setstate__)


def test_random_texts_as_before():
    rng = random.Random(19)
    read = total = 0
    for text in _documents(rng, 1500):
        doc, _ = parse_yaml(text, PATH)
        total += 1
        if doc is None:
            continue
        read += from_text(doc)
        if from_text(doc):
            assert _shape(document_of_text(PATH, text)) == _shape(doc), text
        _check(QuestionSource(path=PATH, doc=doc))
    assert read > total // 12 and total - read > total // 4, (read, total)


_TEMPLATE = (ROOT / "examples/every-kind/bank").glob("*/questions/*.yaml")


@pytest.fixture(scope="module")
def every_kind_texts():
    return sorted(path.read_text(encoding="utf-8") for path in _TEMPLATE)


@settings(max_examples=150, deadline=None)
@given(data=st.data(), value=st.text(min_size=0, max_size=40), where=st.integers(min_value=0, max_value=10_000))
def test_hostile_values_of_every_kind(every_kind_texts, data, value, where):
    text = every_kind_texts[where % len(every_kind_texts)]
    lines = text.split("\n")
    candidates = [i for i, line in enumerate(lines) if ": " in line and not line.rstrip().endswith(("|", ">", "|-", ">-"))]
    i = candidates[where % len(candidates)]
    key, _, _ = lines[i].partition(": ")
    style = data.draw(st.sampled_from(["plain", "single", "double", "block"]))
    if style == "single":
        value = "'" + value.replace("'", "''") + "'"
    elif style == "double":
        value = '"' + value.replace("\\", "").replace('"', "") + '"'
    elif style == "block":
        indent = " " * (len(key) - len(key.lstrip(" ")) + 2)
        value = ">-\n" + indent + value.replace("\n", "\n" + indent)
    lines[i] = f"{key}: {value}"
    changed = "\n".join(lines)
    doc, _ = parse_yaml(changed, PATH)
    if doc is None:
        return
    if from_text(doc):
        assert _shape(document_of_text(PATH, changed)) == _shape(doc)
    _check(QuestionSource(path=PATH, doc=doc))
