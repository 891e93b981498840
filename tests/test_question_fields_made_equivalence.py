"""``question_fields`` makes each ``TextField`` without calling the class (``tuple.__new__`` of
the class and its values, in the order of ``TextField.__new__``): the same fields as before (the
function before, kept here, ``_question_fields_before``), equal, of the same type, with the same
values read by name, and pickled to the same bytes, for every question file of the bundled bank
and ``examples/every-kind``, with and without a document. It fails with two values put in the
other order."""

from __future__ import annotations

import pickle
import sys
from pathlib import Path

from aistack_bank.i18n.fields import KEEP_NUMBERS, TextField, question_fields
from aistack_bank.kinds import kind_of

ROOT = Path(__file__).resolve().parent.parent


def _question_fields_before(question, doc, path):
    qid = question.id
    fields = []
    append = fields.append
    values = doc.values if doc is not None else None

    def add(key, text, loc, notes, key_bearing=False):
        if values is None:
            line = 0
        else:
            found = values.get(loc)
            line = found[0] if found is not None else doc.position(loc)[0]
        append(TextField(f"{qid}.{key}", text, path, line, notes, qid, key_bearing, loc))

    kind = kind_of(question)
    base_notes = (question.translator_note,) if question.translator_note else ()
    checked = base_notes + ((KEEP_NUMBERS,) if question.check is not None else ())
    add("stem", question.stem, ("stem",), (kind.stem_note,) + checked, True)
    kind.fields(question, add, checked, base_notes)
    if question.explanation is not None:
        add("explanation", question.explanation, ("explanation",), ("Explanation shown after answering.",) + checked)
    return fields


def test_every_question_file_of_both_banks():
    from aistack_bank.load import read_question

    paths = sorted(ROOT.glob("bank/*/questions/*.yaml")) + sorted(ROOT.glob("examples/every-kind/bank/*/questions/*.yaml"))
    kinds, count = set(), 0
    for path in paths:
        qs, _ = read_question(path, root=path.parent.parent)
        if qs.question is None:
            continue
        kinds.add(qs.question.kind)
        for doc, where in ((qs.doc, qs.path), (None, None)):
            after = question_fields(qs.question, doc, where)
            before = _question_fields_before(qs.question, doc, where)
            assert after == before
            assert [type(field) for field in after] == [TextField] * len(before)
            assert [tuple(field) for field in after] == [tuple(field) for field in before]
            assert [[getattr(field, name) for name in TextField._fields] for field in after] == [
                [getattr(field, name) for name in TextField._fields] for field in before]
            assert [sys.getsizeof(field) for field in after] == [sys.getsizeof(field) for field in before]
            assert pickle.dumps(after, 5) == pickle.dumps(before, 5)
            assert all(hash(a) == hash(b) for a, b in zip(after, before))
            count += len(after)
    assert len(kinds) == 8 and count > 300
