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

from banklayout import category
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
     "near_misses": [{"id": "n1", "value": -25, "tolerance": 0.5, "credit": 0.5, "feedback": "Off by ten."}], "check": {"script": "answer(-2.5)"}},
    {"id": "q008", "kind": "short-answer", "stem": "Which exchange format for models is open?", **COMMON, **EXAMPLES["short-answer"]},
    {"id": "q009", "kind": "short-answer", "stem": "Name the format, as written.", **COMMON, "case_sensitive": True,
     "answers": [{"id": "a1", "text": "GGUF", "feedback": "Yes."}, {"id": "a2", "text": "gguf", "credit": 0.5, "feedback": "Capitals."}]},
    {"id": "q010", "kind": "matching", "stem": "Match each type with its size.", **COMMON, **EXAMPLES["matching"]},
    {"id": "q011", "kind": "matching", "stem": "Match each format with its size.", **COMMON,
     "pairs": [{"id": "a", "prompt": "BF16", "answer": "2 bytes"}, {"id": "b", "prompt": "INT8", "answer": "1 byte"},
               {"id": "c", "prompt": "FP64", "answer": "8 bytes"}, {"id": "d", "prompt": "FP16", "answer": "2 bytes"}]},  # BF16 and FP16 share one answer
    {"id": "q012", "kind": "ordering", "stem": "Put these memory levels in order, fastest first.", **COMMON, **EXAMPLES["ordering"]},
    {"id": "q013", "kind": "essay", "stem": "Why does decoding wait on memory?", **COMMON, **EXAMPLES["essay"]},
]

TOPIC = {"id": "kinds", "category": "tests", "title": "Every kind", "summary": "One or two questions of each kind.",
         "tags": {"memory": "Memory."}, "questions": [q["id"] for q in QUESTIONS]}

EXPLAINED = "general_explanation"
SCORING_CASES = [
    # (language, question, response, score, feedback identifiers shown)
    ("en", "q001", "choice-a", 1, {EXPLAINED}),
    ("en", "q001", "choice-b", 0, {"feedback-b", EXPLAINED}),
    ("en", "q002", ["choice-a", "choice-c"], 1, {"feedback-a", EXPLAINED}),
    ("en", "q002", ["choice-a"], 0.5, {"feedback-a", EXPLAINED}),
    ("en", "q002", ["choice-c", "choice-b"], 0, {"feedback-b", EXPLAINED}),
    ("en", "q002", ["choice-b"], 0, {"feedback-b", EXPLAINED}),
    ("en", "q003", ["choice-a", "choice-c"], 1, {EXPLAINED}),
    ("en", "q003", ["choice-a"], 0, {EXPLAINED}),
    ("en", "q003", ["choice-a", "choice-b", "choice-c"], 0, {EXPLAINED}),
    ("en", "q004", "choice-false", 1, {"feedback-false", EXPLAINED}),
    ("en", "q004", "choice-true", 0, {"feedback-true", EXPLAINED}),
    ("fr", "q004", "choice-false", 1, {"feedback-false", EXPLAINED}),
    ("en", "q005", "choice-true", 1, set()),
    ("en", "q005", "choice-false", 0, set()),
    ("en", "q006", "14", 1, {EXPLAINED}),
    ("en", "q006", "14.6", 1, {EXPLAINED}),  # 5 % of 14 is 0.7
    ("en", "q006", "13.3", 1, {EXPLAINED}),
    ("en", "q006", "14.8", 0, {EXPLAINED}),
    ("en", "q006", "28.5", 0, {"feedback-near-1", EXPLAINED}),  # a near miss: feedback, no credit
    ("fr", "q006", "14,5", 0, {EXPLAINED}),  # a decimal comma is not a float (warned as W661)
    ("en", "q006", None, 0, set()),
    ("en", "q007", "-2.45", 1, {EXPLAINED}),  # a negative key: absolute bounds, never inverted
    ("en", "q007", "-2.65", 0, {EXPLAINED}),
    ("en", "q007", "2.5", 0, {EXPLAINED}),
    ("en", "q007", "-25.3", 0.5, {"feedback-near-1", EXPLAINED}),
    ("en", "q008", "ONNX", 1, {"feedback-answer-1", EXPLAINED}),
    ("en", "q008", "onnx", 1, {"feedback-answer-1", EXPLAINED}),  # case-insensitive
    ("en", "q008", "onnx runtime", 0.5, {EXPLAINED}),
    ("en", "q008", "ONNX-Runtime", 0.5, {EXPLAINED}),  # a spelling the bank's folding accepts
    ("en", "q008", "TensorRT", 0, {EXPLAINED}),
    ("fr", "q008", "format onnx", 1, {"feedback-answer-2", EXPLAINED}),  # the translation's second spelling
    ("en", "q009", "GGUF", 1, {"feedback-answer-1", EXPLAINED}),
    ("en", "q009", "gguf", 0.5, {"feedback-answer-2", EXPLAINED}),  # case-sensitive: another answer
    ("en", "q009", "Gguf", 0, {EXPLAINED}),
    ("en", "q010", ["source-a target-a", "source-b target-b"], 1, {EXPLAINED}),
    ("en", "q010", ["source-a target-a", "source-b target-c"], 0.5, {EXPLAINED}),  # a distractor
    ("en", "q010", ["source-a target-b", "source-b target-a"], 0, {EXPLAINED}),
    ("en", "q011", ["source-a target-a", "source-b target-b", "source-c target-c", "source-d target-a"], 1, {EXPLAINED}),  # the shared target twice
    ("en", "q011", ["source-a target-a", "source-b target-c"], 1 / 4, {EXPLAINED}),
    ("en", "q011", ["source-d target-a"], 1 / 4, {EXPLAINED}),
    ("fr", "q011", ["source-a target-a", "source-d target-a", "source-b target-c"], 2 / 4, {EXPLAINED}),
    ("en", "q012", ["choice-a", "choice-b", "choice-c"], 1, {EXPLAINED}),
    ("en", "q012", ["choice-c", "choice-b", "choice-a"], 0, {EXPLAINED}),  # the same items, another order
    ("en", "q012", ["choice-b", "choice-a", "choice-c"], 0, {EXPLAINED}),  # all or nothing
    ("en", "q013", "Every weight is read for each token.", 0, {EXPLAINED}),  # an essay: no automatic score
    ("en", "q013", None, 0, set()),
]
"""Responses to the QTI items of the bank, with the score and the feedback identifiers each gets
(tests/test_qti_player.py runs them in a QTI player, tests/test_qti_kinds.py in the lms model)."""


TRANSLATED = {
    "fr": {"q008.answer.a1": "ONNX\nformat ONNX", "q006.unit.u1": "Go", "q006.unit.u2": "Mo"},
    "nl": {"q008.answer.a1": "ONNX"},
}


def questions() -> list:
    return [TypeAdapter(Question).validate_python(q) for q in QUESTIONS]


def banks() -> dict[str, Bank]:
    """The bank in every language of :data:`LANGS`."""
    topic = Topic.model_validate(TOPIC)
    out = {"en": Bank(topic=topic, questions=tuple(questions()), category=category(), lang="en")}
    for lang in LANGS[1:]:
        localized = []
        for q in questions():
            texts = {f.key: TRANSLATED[lang].get(f.key, f"{f.text} [{lang}]") for f in question_fields(q, None, Path("q.yaml"))}
            problems: list = []
            localized.append(localize_question(q, texts, problems))
            assert not problems, problems
        out[lang] = Bank(topic=topic.model_copy(update={"title": f"Every kind [{lang}]"}), questions=tuple(localized), category=category(), lang=lang)
    return out
