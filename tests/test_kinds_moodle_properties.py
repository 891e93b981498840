"""Generated questions of every kind survive Moodle XML and GIFT: Moodle's readers (our models of
``qformat_xml`` and ``qformat_gift``) read the same from both, and `bank import` gives them back."""

from __future__ import annotations

import unicodedata
from pathlib import PurePosixPath

import pytest
from hypothesis import given, settings, strategies as st
from pydantic import TypeAdapter

from aistack_bank.exporters import gift, moodle_xml
from aistack_bank.exporters.common import MOODLE_FRACTIONS, plain_field
from aistack_bank.importers import read_questions
from aistack_bank.kinds.short_answer import fold, has_wildcard
from aistack_bank.kinds import normalized
from aistack_bank.lms import lint as lms_lint
from aistack_bank.lms import models
from aistack_bank.model import Bank, Question, Topic
from aistack_bank.options import ExportOptions
from banklayout import category

# GIFT's special characters, HTML's, Moodle's wildcard and a few letters; no "-" (an answer with
# "->" cannot be written in GIFT: that case has its own test).
WORD = st.text(st.sampled_from(list("abcdefghijklmnopqrstuvwxyzÉéèçàßø0123456789<>&\"'{}~=#:]\\%$/×²·*")), min_size=1, max_size=8)
TEXT = st.lists(WORD, min_size=1, max_size=6).map(" ".join).map(lambda s: unicodedata.normalize("NFC", s))
CREDITS = st.sampled_from([f for f in MOODLE_FRACTIONS if 0 < f < 1])
NUMBER = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False, allow_infinity=False).map(lambda x: float(f"{x:.6g}"))


@st.composite
def questions(draw):
    kind = draw(st.sampled_from(["multiple-response", "true-false", "numerical", "short-answer", "matching"]))
    base = {"id": "q001", "kind": kind, "stem": draw(TEXT), "explanation": draw(st.none() | TEXT), "tags": ["t"], "difficulty": 2}
    if kind == "multiple-response":
        n = draw(st.integers(2, 10))
        texts = draw(st.lists(TEXT, min_size=n, max_size=n, unique_by=str.casefold))
        k = draw(st.integers(1, n))
        base |= {"options": [{"id": chr(97 + i), "text": t, "feedback": draw(st.none() | TEXT)} for i, t in enumerate(texts)],
                 "correct": [chr(97 + i) for i in range(k)], "scoring": draw(st.sampled_from(["partial", "all-or-nothing"]))}
    elif kind == "true-false":
        base |= {"answer": draw(st.booleans()), "feedback_true": draw(st.none() | TEXT), "feedback_false": draw(st.none() | TEXT)}
    elif kind == "numerical":
        answer = draw(NUMBER)
        near = [{"id": f"n{i + 1}", "value": draw(NUMBER), "tolerance": abs(draw(NUMBER)), "credit": draw(st.sampled_from([0.0]) | CREDITS), "feedback": draw(TEXT)}
                for i in range(draw(st.integers(0, 2)))]
        base |= {"answer": answer, "tolerance": abs(draw(NUMBER)), "near_misses": near, "check": {"script": "answer(1)"}}
    elif kind == "short-answer":
        # answers the bank takes (none of wildcards only, none equal to another as folded);
        # no apostrophe, which the exports write out in its two spellings (tested on its own)
        texts = draw(st.lists(TEXT.map(lambda t: " ".join(t.replace("'", "").split())).filter(lambda t: t.replace("*", "").strip()), min_size=1, max_size=5, unique_by=fold))
        base |= {"answers": [{"id": f"a{i + 1}", "text": t, "credit": 1.0 if i == 0 else draw(CREDITS), "feedback": draw(st.none() | TEXT)} for i, t in enumerate(texts)]}
    else:
        # what the bank takes: prompts that differ, answers that differ or are the same text (a
        # shared answer), distractors that differ from every answer
        n = draw(st.integers(2, 5))
        prompts = draw(st.lists(TEXT, min_size=n, max_size=n, unique_by=normalized))
        pool = draw(st.lists(TEXT, min_size=n + 2, max_size=n + 2, unique_by=normalized))
        answers = [pool[i] for i in draw(st.lists(st.integers(0, n - 1), min_size=n, max_size=n))]
        extra = [t for t in pool[n:] if t not in answers][:draw(st.integers(0, 2))]
        base |= {"pairs": [{"id": chr(97 + i), "prompt": prompts[i], "answer": answers[i]} for i in range(n)],
                 "distractors": [{"id": chr(97 + n + i), "text": t} for i, t in enumerate(extra)]}
    return TypeAdapter(Question).validate_python(base)


def _bank(q) -> Bank:
    return Bank(topic=Topic(id="gen", category="tests", title="T", summary="S", tags={"t": "x"}, questions=[q.id]), questions=(q,), category=category())


@settings(max_examples=60, deadline=None)
@given(questions())
def test_generated_questions_read_the_same_from_gift_and_moodle_xml_and_import_back(tmp_path_factory, q):
    banks = {"en": _bank(q)}
    xml, gifts = moodle_xml.export(banks, ExportOptions()), gift.export(banks, ExportOptions())
    where = lambda name, line=0: f"{name}:{line}"  # noqa: E731
    assert lms_lint._gift(banks, xml, gifts, where) == []
    # Moodle offers two numeric texts of one value as one answer (PHP's ==), and lint says so
    offered = [plain_field(text) for _, text in q.offered()] if q.kind == "matching" else []
    merged = any(models.php_loose_equal(a, b) for i, a in enumerate(offered) for b in offered[:i])
    assert [d.code for d in lms_lint._moodle(banks, xml, lambda *a: None, where)] == (["W751"] if merged else [])
    folder = tmp_path_factory.mktemp("k")
    for fmt, tree, name in (("moodle", xml, "gen-en.xml"), ("gift", gifts, "gen-en.gift")):
        (folder / name).write_bytes(tree[PurePosixPath(name)])
        (got,), skipped = read_questions(fmt, folder / name)
        assert skipped == []
        assert (got.kind, got.stem, got.explanation or None) == (q.kind, q.stem, q.explanation), fmt
        if q.kind == "multiple-response":
            assert [t for t, _ in got.options] == [o.text for o in q.options] and [f for _, f in got.options] == [o.feedback for o in q.options]
            # with one right option, or no wrong one, both scorings have the same grades in Moodle
            same = len(q.correct) in (1, len(q.options))
            assert got.fields["correct"] == q.correct and got.fields["scoring"] == ("partial" if same else q.scoring)
        elif q.kind == "true-false":
            assert got.fields == {"answer": q.answer, **{f"feedback_{s}": getattr(q, f"feedback_{s}") for s in ("true", "false") if getattr(q, f"feedback_{s}")}}
        elif q.kind == "numerical":
            assert got.fields["answer"] == pytest.approx(q.answer, rel=1e-11) and got.fields["tolerance"] == pytest.approx(q.tolerance, rel=1e-11)
            near = [n for n in q.near_misses]
            assert [(n["value"], n["tolerance"], n["credit"], n["feedback"]) for n in got.fields.get("near_misses", [])] == [
                (pytest.approx(n.value, rel=1e-11), pytest.approx(n.tolerance, rel=1e-11), pytest.approx(n.credit, abs=1e-6), n.feedback) for n in near]
        elif q.kind == "short-answer":
            # with a wildcard, in order of credit (Moodle gives the first matching answer)
            order = sorted(q.answers, key=lambda a: -a.credit) if any(has_wildcard(a.text) for a in q.answers) else q.answers
            assert [(a["text"], a.get("credit", 1.0), a.get("feedback")) for a in got.fields["answers"]] == [
                (a.text, pytest.approx(a.credit, abs=1e-6), a.feedback) for a in order]
        else:
            # matching answers are plain text in Moodle: "<" and ">" are written "‹ ›", as in names
            assert [(p["prompt"], p["answer"]) for p in got.fields["pairs"]] == [(p.prompt, plain_field(p.answer)) for p in q.pairs], fmt
            assert [d["text"] for d in got.fields.get("distractors", [])] == [plain_field(d.text) for d in q.distractors], fmt
