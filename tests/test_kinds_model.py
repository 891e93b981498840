"""Every question kind: its model, its catalog fields (msgctxt) and its localization."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import TypeAdapter, ValidationError

from aistack_bank.i18n.fields import question_fields
from aistack_bank.i18n.localize import localize_question
from aistack_bank.model import KINDS, Question

COMMON = {"explanation": "Because.", "tags": ["memory"], "difficulty": 2}
EXAMPLES = {
    "single-choice": {"options": [{"id": "a", "text": "One"}, {"id": "b", "text": "Two", "feedback": "No."}], "correct": "a"},
    "multiple-response": {"options": [{"id": "a", "text": "One"}, {"id": "b", "text": "Two"}, {"id": "c", "text": "Three"}], "correct": ["a", "c"]},
    "true-false": {"answer": False, "feedback_true": "It is not.", "feedback_false": "Right."},
    "numerical": {"answer": 14, "tolerance": 0.05, "tolerance_type": "relative", "units": [{"id": "u1", "name": "GB", "multiplier": 1}, {"id": "u2", "name": "MB", "multiplier": 0.001}],
                  "near_misses": [{"id": "n1", "value": 28, "tolerance": 1, "credit": 0, "feedback": "That is FP32."}], "check": {"script": "answer(14)"}},
    "short-answer": {"answers": [{"id": "a1", "text": "ONNX", "feedback": "Yes."}, {"id": "a2", "text": "onnx runtime", "credit": 0.5}]},
    "matching": {"pairs": [{"id": "a", "prompt": "FP16", "answer": "2 bytes"}, {"id": "b", "prompt": "FP32", "answer": "4 bytes"}], "distractors": [{"id": "c", "text": "3 bytes"}]},
    "ordering": {"items": [{"id": "a", "text": "Registers"}, {"id": "b", "text": "Shared memory"}, {"id": "c", "text": "HBM"}]},
    "essay": {"model_answer": "It reads every weight for each token.", "response_template": "Bytes read per token:"},
}


def question(kind: str, **extra):
    return TypeAdapter(Question).validate_python({"id": "q001", "kind": kind, "stem": "Stem?", **COMMON, **EXAMPLES[kind], **extra})


def test_every_kind_has_an_example():
    assert set(EXAMPLES) == set(KINDS)


@pytest.mark.parametrize("kind", KINDS)
def test_each_field_key_is_unique_and_its_location_holds_its_text(kind):
    q = question(kind)
    fields = question_fields(q, None, Path("q.yaml"))
    assert len({f.key for f in fields}) == len(fields)
    data = q.model_dump()
    for field in fields:
        value = data
        for part in field.loc:
            value = value[part]
        assert value == field.text, field.key


def test_the_keys_of_each_kind():
    keys = {kind: [f.key for f in question_fields(question(kind), None, Path("q.yaml"))] for kind in KINDS}
    assert keys["true-false"] == ["q001.stem", "q001.feedback.true", "q001.feedback.false", "q001.explanation"]
    assert keys["numerical"] == ["q001.stem", "q001.unit.u1", "q001.unit.u2", "q001.near_miss.n1.feedback", "q001.explanation"]
    assert keys["short-answer"] == ["q001.stem", "q001.answer.a1", "q001.answer.a1.feedback", "q001.answer.a2", "q001.explanation"]
    assert keys["matching"] == ["q001.stem", "q001.pair.a.prompt", "q001.pair.a.answer", "q001.pair.b.prompt", "q001.pair.b.answer", "q001.distractor.c", "q001.explanation"]


@pytest.mark.parametrize("kind", KINDS)
def test_localizing_replaces_every_field(kind):
    q = question(kind)
    fields = question_fields(q, None, Path("q.yaml"))
    texts = {f.key: f"FR {f.text}" for f in fields}
    problems: list = []
    localized = localize_question(q, texts, problems)
    assert problems == []
    assert [f.text for f in question_fields(localized, None, Path("q.yaml"))] == [f"FR {f.text}" for f in fields]


def test_a_short_answer_translation_may_accept_several_spellings():
    q = question("short-answer")
    problems: list = []
    localized = localize_question(q, {"q001.answer.a1": "rétropropagation\n rétro-propagation \n"}, problems)
    assert [(a.text, a.credit, a.feedback) for a in localized.answers] == [
        ("rétropropagation", 1.0, "Yes."), ("rétro-propagation", 1.0, "Yes."), ("onnx runtime", 0.5, None)]


def test_a_blank_translation_is_reported_against_its_key():
    problems: list = []
    assert localize_question(question("matching"), {"q001.pair.b.answer": "  "}, problems) is None
    assert [(key, kind) for key, kind, _ in problems] == [("q001.pair.b.answer", "empty_text")]


@pytest.mark.parametrize("kind, bad", [
    ("multiple-response", {"correct": []}),
    ("numerical", {"tolerance": -1}),
    ("numerical", {"check": None}),
    ("short-answer", {"answers": []}),
    ("matching", {"pairs": [{"id": "a", "prompt": "x", "answer": "y"}]}),
])
def test_the_model_refuses(kind, bad):
    with pytest.raises(ValidationError):
        question(kind, **bad)
