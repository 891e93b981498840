"""A small bank with a question of every kind, in English, French and Dutch (in memory), and
helpers to write it as a bank folder. Built from ``test_kinds_model.EXAMPLES``."""

from __future__ import annotations

from pathlib import Path

from pydantic import TypeAdapter

from aistack_bank.i18n.localize import localize_question
from aistack_bank.model import Bank, Question, Topic

from banklayout import category, topic_folder
from test_kinds_model import COMMON, EXAMPLES

TOPIC = {"id": "every-kind", "category": "tests", "title": "Every kind", "summary": "One question of each kind.",
         "tags": {"memory": "memory", "precision": "number formats"}}

EXTRA = {
    # a second multiple-response question: all-or-nothing, with per-option feedback
    "q007": {"kind": "multiple-response", "stem": "Which formats are 16-bit?",
             "options": [{"id": "a", "text": "FP16", "feedback": "Yes."}, {"id": "b", "text": "BF16"}, {"id": "c", "text": "FP32", "feedback": "32 bits."}, {"id": "d", "text": "INT8"}],
             "correct": ["a", "b"], "scoring": "all-or-nothing"},
    # true statement without feedback; numerical without units, a near miss with credit
    "q008": {"kind": "true-false", "stem": "BF16 has 8 exponent bits.", "answer": True},
    "q009": {"kind": "numerical", "stem": "How many bytes does an FP32 value take?", "answer": 4, "tolerance": 0,
             "near_misses": [{"id": "n1", "value": 32, "tolerance": 0, "credit": 0.5, "feedback": "That is bits."}], "check": {"script": "answer(4)"}},
    # a case-sensitive short answer with a literal star and Moodle's wildcard
    "q010": {"kind": "short-answer", "stem": "Type the C operator for pointer dereference.",
             "answers": [{"id": "a1", "text": "\\*p"}, {"id": "a2", "text": "*ptr", "credit": 0.5}], "case_sensitive": True},
}

KIND_IDS = {"single-choice": "q001", "multiple-response": "q002", "true-false": "q003", "numerical": "q004", "short-answer": "q005", "matching": "q006"}

FR = {
    "q001": {"stem": "Question ?", "option.a": "Un", "option.b": "Deux", "option.b.feedback": "Non."},
    "q002": {"stem": "Lesquels ?", "option.a": "Un", "option.b": "Deux", "option.c": "Trois"},
    "q003": {"stem": "Affirmation.", "feedback.true": "Ce n’est pas le cas.", "feedback.false": "Exact."},
    "q004": {"stem": "Combien de Go ?", "unit.u1": "Go", "unit.u2": "Mo", "near_miss.n1.feedback": "C’est FP32."},
    "q005": {"stem": "Quel format ?", "answer.a1": "ONNX\nformat ONNX", "answer.a1.feedback": "Oui.", "answer.a2": "moteur onnx"},
    "q006": {"stem": "Associez.", "pair.a.prompt": "FP16", "pair.a.answer": "2 octets", "pair.b.prompt": "FP32", "pair.b.answer": "4 octets", "distractor.c": "3 octets"},
    "q007": {"stem": "Quels formats font 16 bits ?", "option.a.feedback": "Oui.", "option.c.feedback": "32 bits."},
    "q008": {"stem": "BF16 a 8 bits d’exposant."},
    "q009": {"stem": "Combien d’octets prend une valeur FP32 ?", "near_miss.n1.feedback": "Ce sont des bits."},
    "q010": {"stem": "Tapez l’opérateur C de déréférencement."},
}
NL = {
    "q001": {"stem": "Vraag?", "option.a": "Een", "option.b": "Twee", "option.b.feedback": "Nee."},
    "q003": {"stem": "Bewering.", "feedback.true": "Dat klopt niet.", "feedback.false": "Juist."},
    "q005": {"stem": "Welk formaat?", "answer.a1": "ONNX", "answer.a2": "onnx-runtime"},
    "q006": {"stem": "Koppel.", "pair.a.answer": "2 bytes", "pair.b.answer": "4 bytes", "distractor.c": "3 bytes"},
}


def questions() -> list:
    out = []
    for kind, qid in KIND_IDS.items():
        out.append(TypeAdapter(Question).validate_python({"id": qid, "kind": kind, "stem": "Stem?", **COMMON, **EXAMPLES[kind]}))
    for qid, data in EXTRA.items():
        out.append(TypeAdapter(Question).validate_python({"id": qid, **data, "tags": ["precision"], "difficulty": 1}))
    return out


def banks(langs=("en", "fr", "nl")) -> dict[str, Bank]:
    """The bank in each language; a text without a translation stays in English."""
    english = questions()
    topic = Topic(**TOPIC, questions=[q.id for q in english])
    out = {}
    for lang in langs:
        table = {"en": {}, "fr": FR, "nl": NL}[lang]
        localized = []
        for q in english:
            problems: list = []
            texts = {f"{q.id}.{key}": value for key, value in table.get(q.id, {}).items()}
            localized.append(localize_question(q, texts, problems) if texts else q)
            assert not problems, problems
        out[lang] = Bank(topic=topic if lang == "en" else topic.model_copy(update={"title": f"{topic.title} ({lang})"}), questions=tuple(localized), category=category(), lang=lang)
    return out


def write_bank(folder: Path) -> Path:
    """The English bank as a bank folder (topic.yaml and questions/), through the importer's writer."""
    import yaml

    english = questions()
    topic = topic_folder(folder, TOPIC["id"])
    (topic / "topic.yaml").write_text(yaml.safe_dump({**TOPIC, "questions": [q.id for q in english]}, allow_unicode=True, sort_keys=False), encoding="utf-8")
    for q in english:
        data = q.model_dump(mode="json", exclude_none=True, exclude_defaults=False)
        (topic / "questions" / f"{q.id}-question.yaml").write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return folder
