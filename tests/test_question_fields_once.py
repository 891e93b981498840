"""A question's translatable fields (:func:`aistack_bank.i18n.fields.question_fields`) are made by
one call each (the kind's callback makes the field; its line is the position of its value in the
document, :meth:`~aistack_bank.yamlsource.YamlDocument.position` asked only for a place the
document does not hold), and the kinds' registry is imported once.

Compared with the code before, kept here, on every question file of the bundled bank and of
``examples/every-kind``: with their documents, without one (line 0), and with random value
positions taken out of the document (the field then takes the line of its nearest located
ancestor, or of the document's start); the same fields, attribute by attribute, in the same
order. It fails when a field whose value has no position is given line 0 or another line than
``position`` gives."""

from __future__ import annotations

import copy
import random
from pathlib import Path

from aistack_bank.i18n.fields import KEEP_NUMBERS, TextField, question_fields
from aistack_bank.kinds import kind_of
from aistack_bank.load import read_question

ROOT = Path(__file__).resolve().parent.parent


def question_fields_before(question, doc, path):
    def field(key, text, loc, notes, key_bearing=False):
        line = doc.position(loc)[0] if doc is not None else 0
        return TextField(f"{question.id}.{key}", text, path, line, notes, question.id, key_bearing, loc)

    kind = kind_of(question)
    base_notes = (question.translator_note,) if question.translator_note else ()
    checked = base_notes + ((KEEP_NUMBERS,) if question.check is not None else ())
    fields = [field("stem", question.stem, ("stem",), (kind.stem_note,) + checked, True)]
    kind.fields(question, lambda *args: fields.append(field(*args)), checked, base_notes)
    if question.explanation is not None:
        fields.append(field("explanation", question.explanation, ("explanation",), ("Explanation shown after answering.",) + checked))
    return fields


def _records():
    records = []
    for folder in (ROOT / "bank", ROOT / "examples" / "every-kind" / "bank"):
        for path in sorted(folder.glob("*/questions/*.yaml")):
            qs, _ = read_question(path, root=path.parent.parent)
            if qs.question is not None:
                records.append(qs)
    return records


def _same(got, want):
    assert len(got) == len(want)
    for a, b in zip(got, want):
        assert type(a) is TextField
        assert dict(zip(TextField._fields, a)) == dict(zip(TextField._fields, b))
        assert a == b


def test_same_fields_as_before():
    records = _records()
    kinds = {qs.question.kind for qs in records}
    assert len(records) > 40 and len(kinds) >= 8  # every kind
    for qs in records:
        _same(question_fields(qs.question, qs.doc, qs.path), question_fields_before(qs.question, qs.doc, qs.path))
        _same(question_fields(qs.question, None, qs.path), question_fields_before(qs.question, None, qs.path))


def test_positions_missing_from_the_document():
    rng = random.Random(11)
    records = _records()
    moved = 0
    for round_ in range(30):
        for qs in records:
            doc = copy.copy(qs.doc)
            doc.values = dict(qs.doc.values)
            doc.keys = dict(qs.doc.keys)
            for place in list(doc.values):
                if rng.random() < 0.3:
                    del doc.values[place]
            got = question_fields(qs.question, doc, qs.path)
            want = question_fields_before(qs.question, doc, qs.path)
            _same(got, want)
            moved += sum(field.line != line for field, line in zip(want, (f.line for f in question_fields(qs.question, qs.doc, qs.path))))
    assert moved > 100  # many fields took an ancestor's line
