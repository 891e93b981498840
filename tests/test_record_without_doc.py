"""A question file's stored record is its head (what its rules derived: its fields, parity
sides and catalog view), then its record without its document, then the document, pickled by
one pickler (:func:`aistack_bank.cache.questionfiles._dumped`): a catalog worker reading the
bank's parts from the spill file (:func:`aistack_bank.i18n.verify._read_part`) unpickles the
head alone (no model), and a question with a numeric check reads the document there only when
a finding in its script is located.

Compared with the code before (spelled out here: the record pickled whole, every document
of a question with a check unpickled and cut at once): on the question files of the bundled
bank and of ``examples/every-kind``, in random parts of a spill file, the same fields, the same
questions (path, derived values, and the model read as the catalog checks read it) and, at
random lines and columns of their scripts (and of other paths), the same locations; the record
read whole by the question files' side (:func:`aistack_bank.cache.questionfiles._loads_uncollected`)
is the record as before."""

from __future__ import annotations

import gc
import os
import pickle
import random
from pathlib import Path

import pytest

from aistack_bank.cache import questionfiles
from aistack_bank.cache.store import read_at
from aistack_bank.i18n import verify
from aistack_bank.i18n.catalogview import CatalogQuestion, catalog_view
from aistack_bank.i18n.fields import question_fields
from aistack_bank.load import QuestionSource, read_topic
from aistack_bank.rules.validate import question_file_rules

ROOT = Path(__file__).resolve().parent.parent


def _read_part_before(fd: int, chunk):
    """verify._read_part as it was: each record unpickled whole, its document cut at once."""
    head, refs = chunk
    fields, questions = list(head), []
    paused = gc.isenabled()
    gc.disable()
    try:
        for _, at, length in refs:
            record = pickle.loads(read_at(fd, at, length))
            known = record.derived.get("fields")
            fields += known if known is not None else question_fields(record.question, record.doc, record.path)
            doc = verify._script_doc(record.doc) if record.question.check is not None else None
            questions.append(QuestionSource(path=record.path, doc=doc, question=record.question, derived=verify._listed(record.derived)))
            del record
    finally:
        if paused:
            gc.enable()
    return fields, questions


def _records(folder: Path) -> list[QuestionSource]:
    """The checked records of every question file of the topics under ``folder``, with their
    derived values, as the question files' side makes them."""
    files = questionfiles.QuestionFiles(question_file_rules, use_cache=False)
    records = []
    for topic_file in sorted(folder.glob("*/topic.yaml")):
        root = topic_file.parent
        topic = read_topic(root, project=folder.parent)[0]
        for path in sorted((root / "questions").glob("*.yaml")):
            found, qs = files._checked(path.relative_to(folder.parent), root.relative_to(folder.parent), topic, None, stored=True)
            if qs.question is not None:
                records.append(qs)
    return records


@pytest.fixture(scope="module")
def records() -> list[QuestionSource]:
    cwd = os.getcwd()
    found = []
    try:
        for project in (ROOT, ROOT / "examples" / "every-kind"):
            os.chdir(project)
            found += _records(Path("bank"))
    finally:
        os.chdir(cwd)
    assert len(found) > 40 and any(qs.question.check is not None for qs in found) and any(qs.question.check is None for qs in found)
    return found


def _spill(path: Path, blobs: list[bytes]) -> list[tuple[int, int]]:
    places, at = [], 0
    with open(path, "wb") as out:
        for blob in blobs:
            out.write(blob)
            places.append((at, len(blob)))
            at += len(blob)
    return places


def _located(doc, rng: random.Random, script_lines: int):
    if doc is None:
        return None
    found = []
    for _ in range(6):
        path = rng.choice([("check", "script"), ("check", "script"), ("check",), ("stem",), ()])
        found.append(doc.locate_in_scalar(path, rng.randint(1, script_lines + 3), rng.randint(1, 40)))
    return found


def test_the_parts_read_as_before(records, tmp_path):
    rng = random.Random(8)
    for trial in range(12):
        chosen = rng.sample(records, rng.randint(1, len(records)))
        before = _spill(tmp_path / f"before-{trial}", [pickle.dumps(qs, protocol=pickle.HIGHEST_PROTOCOL) for qs in chosen])
        after = _spill(tmp_path / f"after-{trial}", [questionfiles._dumped(qs) for qs in chosen])
        cut = sorted(rng.sample(range(1, len(chosen)), min(3, len(chosen) - 1))) if len(chosen) > 1 else []
        bounds = [0, *cut, len(chosen)]
        fd_before = os.open(tmp_path / f"before-{trial}", os.O_RDONLY)
        spill = verify._SpillFile(str(tmp_path / f"after-{trial}"))
        try:
            for start, end in zip(bounds, bounds[1:]):
                head = [] if start else list(chosen[0].derived.get("fields", []))[:1]
                old = _read_part_before(fd_before, (head, [(qs.question.id, *place) for qs, place in zip(chosen[start:end], before[start:end])]))
                new = verify._read_part(spill, (head, [(qs.question.id, *place) for qs, place in zip(chosen[start:end], after[start:end])]))
                assert new[0] == old[0]
                assert len(new[1]) == len(old[1])
                for one, two, qs in zip(old[1], new[1], chosen[start:end]):
                    assert (two.path, two.question, two.derived) == (one.path, CatalogQuestion(catalog_view(one.question)), one.derived)
                    assert (one.doc is None) == (two.doc is None) == (qs.question.check is None)
                    lines = qs.question.check.script.count("\n") + 1 if qs.question.check is not None else 0
                    seed = rng.random()
                    assert _located(two.doc, random.Random(seed), lines) == _located(one.doc, random.Random(seed), lines)
        finally:
            os.close(fd_before)


def test_a_document_is_read_only_when_a_finding_is_located(records, tmp_path, monkeypatch):
    checked = [qs for qs in records if qs.question.check is not None]
    places = _spill(tmp_path / "spill", [questionfiles._dumped(qs) for qs in checked])
    read = []
    real = questionfiles.loads_record
    monkeypatch.setattr(questionfiles, "loads_record", lambda blob: read.append(blob) or real(blob))
    _, questions = verify._read_part(verify._SpillFile(str(tmp_path / "spill")), ([], [(qs.question.id, *place) for qs, place in zip(checked, places)]))
    assert not read
    where = questions[0].doc.locate_in_scalar(("check", "script"), 1, 1)
    assert where == checked[0].doc.locate_in_scalar(("check", "script"), 1, 1)
    assert len(read) == 1
    questions[0].doc.locate_in_scalar(("check", "script"), 2, 3)
    assert len(read) == 1  # (read once)
    # the spill file stays open while a question read from it holds it, closed once none does
    spill = questions[1].doc.spill
    fd = spill.fd
    os.fstat(fd)
    del questions, spill
    with pytest.raises(OSError):
        os.fstat(fd)


def test_the_record_read_whole_is_the_record(records):
    for qs in records:
        blob = questionfiles._dumped(qs)
        whole = questionfiles._loads_uncollected(blob)
        before = pickle.loads(pickle.dumps(qs, protocol=pickle.HIGHEST_PROTOCOL))
        assert type(whole) is QuestionSource
        assert (whole.path, whole.doc, whole.question, whole.derived, whole.summary) == (before.path, before.doc, before.question, before.derived, before.summary)
        assert whole.doc is not None and whole.doc.values == qs.doc.values and whole.doc.text == qs.doc.text
        assert qs.doc is not ...  # (the record dumped is left as it was)
        head = pickle.loads(blob)  # what a catalog worker reads of it
        assert head == (questionfiles.RECORD_HEAD, before.path, before.derived)
        assert head[2]["catalog"] == catalog_view(before.question)
    # what is not a record is read as it was
    texts = pickle.dumps(("a", ["b"], {"c": 1}), protocol=pickle.HIGHEST_PROTOCOL)
    assert questionfiles._loads_uncollected(texts) == ("a", ["b"], {"c": 1})
    no_doc = QuestionSource(path=Path("x.yaml"), doc=None)
    assert questionfiles._loads_uncollected(questionfiles._dumped(no_doc)) == no_doc


def test_the_document_goes_without_its_split_lines(records):
    """A numeric check's inputs split the document's text into lines (``YamlDocument.line``):
    the stored record leaves them out (they were the text a second time), the record checked in
    this process keeps them, and the document read back splits its text again, into the same
    lines, when asked."""
    split = [qs for qs in records if qs.doc._lines is not None]
    assert split and all(qs.question.check is not None for qs in split)
    for qs in split:
        lines = qs.doc._lines
        blob = questionfiles._dumped(qs)
        assert qs.doc._lines is lines  # (left as it was)
        whole = questionfiles._loads_uncollected(blob)
        assert whole.doc._lines is None
        assert [whole.doc.line(n) for n in range(len(lines) + 2)] == [qs.doc.line(n) for n in range(len(lines) + 2)]
        assert len(blob) + len(qs.doc.text) // 2 < len(pickle.dumps(qs, protocol=pickle.HIGHEST_PROTOCOL))
