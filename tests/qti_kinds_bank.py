"""A small bank with every question kind (one or two of each) in English, French and Dutch, for
the exporters' and importers' tests of each kind. Built in memory from test_kinds_model's
EXAMPLES; the French and Dutch texts are the English marked with the language, except a few
real translations the tests look for (a short answer's French spellings, a unit)."""

from __future__ import annotations

from pathlib import Path

from pydantic import TypeAdapter

from aistack_bank.i18n.fields import question_fields
from aistack_bank.i18n.localize import localize_question
from aistack_bank.model import Bank, Question, Topic

from test_kinds_model import COMMON, EXAMPLES

LANGS = ("en", "fr", "nl")

QUESTIONS = [
    {"id": "q001", "kind": "single-choice", "stem": "Which one?", **COMMON, **EXAMPLES["single-choice"]},
    {"id": "q002", "kind": "multiple-response", "stem": "Which are odd?", **COMMON, **EXAMPLES["multiple-response"],
     "options": [{"id": "a", "text": "One", "feedback": "Odd."}, {"id": "b", "text": "Two", "feedback": "Even."}, {"id": "c", "text": "Three"}]},
    {"id": "q003", "kind": "multiple-response", "stem": "Which are even?", **COMMON, "scoring": "all-or-nothing",
     "options": [{"id": "a", "text": "Two"}, {"id": "b", "text": "Three"}, {"id": "c", "text": "Four"}], "correct": ["a", "c"]},
    {"id": "q004", "kind": "true-false", "stem": "FP16 takes 4 bytes.", **COMMON, **EXAMPLES["true-false"]},
    {"id": "q005", "kind": "true-false", "stem": "FP32 takes 4 bytes.", **{**COMMON, "explanation": None}, "answer": True},
    {"id": "q006", "kind": "numerical", "stem": "How many GB do the weights of a 7B model take in FP16?", **COMMON, **EXAMPLES["numerical"]},
    {"id": "q007", "kind": "numerical", "stem": "What is 5 divided by -2?", **COMMON, "answer": -2.5, "tolerance": 0.1,
     "near_misses": [{"value": -25, "tolerance": 0.5, "credit": 0.5, "feedback": "Off by ten."}], "check": {"script": "answer(-2.5)"}},
    {"id": "q008", "kind": "short-answer", "stem": "Which exchange format for models is open?", **COMMON, **EXAMPLES["short-answer"]},
    {"id": "q009", "kind": "short-answer", "stem": "Name the format, as written.", **COMMON, "case_sensitive": True,
     "answers": [{"text": "GGUF", "feedback": "Yes."}, {"text": "gguf", "credit": 0.5, "feedback": "Capitals."}]},
    {"id": "q010", "kind": "matching", "stem": "Match each type with its size.", **COMMON, **EXAMPLES["matching"]},
    {"id": "q011", "kind": "matching", "stem": "Match each format with its size.", **COMMON,
     "pairs": [{"id": "a", "prompt": "BF16", "answer": "2 bytes"}, {"id": "b", "prompt": "INT8", "answer": "1 byte"},
               {"id": "c", "prompt": "FP64", "answer": "8 bytes"}]},
]

TOPIC = {"id": "kinds", "category": "Tests", "title": "Every kind", "summary": "One or two questions of each kind.",
         "tags": {"memory": "Memory."}, "questions": [q["id"] for q in QUESTIONS]}

TRANSLATED = {
    "fr": {"q008.answer.1": "ONNX\nformat ONNX", "q006.unit.1": "Go", "q006.unit.2": "Mo"},
    "nl": {"q008.answer.1": "ONNX"},
}


def questions() -> list:
    return [TypeAdapter(Question).validate_python(q) for q in QUESTIONS]


def banks() -> dict[str, Bank]:
    """The bank in every language of :data:`LANGS`."""
    topic = Topic.model_validate(TOPIC)
    out = {"en": Bank(topic=topic, questions=tuple(questions()), lang="en")}
    for lang in LANGS[1:]:
        localized = []
        for q in questions():
            texts = {f.key: TRANSLATED[lang].get(f.key, f"{f.text} [{lang}]") for f in question_fields(q, None, Path("q.yaml"))}
            problems: list = []
            localized.append(localize_question(q, texts, problems))
            assert not problems, problems
        out[lang] = Bank(topic=topic.model_copy(update={"title": f"Every kind [{lang}]"}), questions=tuple(localized), lang=lang)
    return out
