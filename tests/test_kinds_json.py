"""The JSON export of every question kind: contract 2.0, each kind with its own fields."""

from __future__ import annotations

import json

import jsonschema

from aistack_bank.exchange import ExportDocument
from aistack_bank.exporters.json_bank import FORMAT
from aistack_bank.i18n.localize import localize_question
from aistack_bank.model import Bank, Topic
from banklayout import category
from aistack_bank.options import ExportOptions

from conftest import REPO
from test_kinds_model import EXAMPLES, question


def kinds_bank(lang: str = "en", **questions) -> Bank:
    qs = tuple(questions.get(kind) or question(kind).model_copy(update={"id": f"q{i:03d}"}) for i, kind in enumerate(EXAMPLES, 1))
    topic = Topic(id="kinds", category="tests", title="Kinds", summary="Every kind.", tags={"memory": "Memory."}, questions=[q.id for q in qs])
    return Bank(topic=topic, questions=qs, category=category(), lang=lang)


def french(bank: Bank) -> Bank:
    """``bank`` in "French": each text prefixed, the short answer with two spellings of its first answer."""
    from pathlib import Path

    from aistack_bank.i18n.fields import question_fields

    out = []
    for q in bank.questions:
        texts = {f.key: f"FR {f.text}" for f in question_fields(q, None, Path())}
        if q.kind == "short-answer":
            texts[f"{q.id}.answer.a1"] = "ONNX\nformat ONNX"
        problems: list = []
        out.append(localize_question(q, texts, problems))
        assert not problems
    return bank.model_copy(update={"questions": tuple(out), "lang": "fr"})


def export(*banks: Bank) -> dict:
    tree = FORMAT({b.lang: b for b in banks}, ExportOptions())
    return {str(k): json.loads(v) for k, v in tree.items()}


def test_every_kind_validates_against_the_committed_schema_and_loads_back():
    en = kinds_bank()
    docs = export(en, french(en))
    schema = json.loads((REPO / "schema" / "export.schema.json").read_text(encoding="utf-8"))
    for name, document in docs.items():
        jsonschema.Draft202012Validator(schema).validate(document)
        assert ExportDocument.model_validate(document).questions, name
    everything = docs["kinds.json"]
    assert [q["kind"] for q in everything["questions"]] == list(EXAMPLES)
    assert [list(q)[:3] for q in everything["questions"]] == [["id", "kind", "stem"]] * len(EXAMPLES)


def test_each_kind_brings_its_fields_with_texts_by_language():
    en = kinds_bank()
    by_kind = {q["kind"]: q for q in export(en, french(en))["kinds.json"]["questions"]}
    mr = by_kind["multiple-response"]
    assert mr["correct"] == ["a", "c"] and mr["scoring"] == "partial"
    assert [o["correct"] for o in mr["options"]] == [True, False, True]
    tf = by_kind["true-false"]
    assert tf["answer"] is False and tf["feedback_true"] == {"en": "It is not.", "fr": "FR It is not."}
    num = by_kind["numerical"]
    assert (num["answer"], num["tolerance"], num["tolerance_type"], num["absolute_tolerance"]) == (14, 0.05, "relative", 0.7)
    assert num["units"] == [{"name": {"en": "GB", "fr": "FR GB"}, "multiplier": 1}, {"name": {"en": "MB", "fr": "FR MB"}, "multiplier": 0.001}]
    assert num["near_misses"] == [{"value": 28, "tolerance": 1, "credit": 0, "feedback": {"en": "That is FP32.", "fr": "FR That is FP32."}}]
    sa = by_kind["short-answer"]
    assert sa["case_sensitive"] is False and sa["fold_diacritics"] is False
    assert sa["answers"]["en"] == [{"text": "ONNX", "credit": 1, "feedback": "Yes."}, {"text": "onnx runtime", "credit": 0.5}]
    assert sa["answers"]["fr"] == [
        {"text": "ONNX", "credit": 1, "feedback": "FR Yes."}, {"text": "format ONNX", "credit": 1, "feedback": "FR Yes."},
        {"text": "FR onnx runtime", "credit": 0.5}]
    match = by_kind["matching"]
    assert match["pairs"][1] == {"id": "b", "prompt": {"en": "FP32", "fr": "FR FP32"}, "answer": {"en": "4 bytes", "fr": "FR 4 bytes"}}
    assert match["distractors"] == [{"id": "c", "text": {"en": "3 bytes", "fr": "FR 3 bytes"}}]
    assert "options" not in match and "correct" not in match


def test_a_question_without_an_explanation_has_no_explanation_field():
    bare = question("true-false", explanation=None).model_copy(update={"id": "q003"})
    q = export(kinds_bank(**{"true-false": bare}))["kinds-en.json"]["questions"][2]
    assert q["kind"] == "true-false" and "explanation" not in q


def test_english_fallbacks_are_listed_by_pointer_in_every_kind_and_only_under_their_language():
    """The `fallback` list (contract 2.5): each English text shown for want of a translation, by
    JSON Pointer, a short answer's accepted answers included; the tag vocabulary is no text."""
    from types import MappingProxyType

    from aistack_bank.model import KeyPoint

    english = kinds_bank("en")
    first = english.questions[0].model_copy(update={"stem": "A stem only this question has?"})
    english = english.model_copy(update={"topic": english.topic.model_copy(update={"key_points": [KeyPoint(id="k1", text="Weights ~ bytes / value.")]}),
                                         "questions": (first, *english.questions[1:])})
    short = next(i for i, q in enumerate(english.questions) if q.kind == "short-answer")
    answer = english.questions[short].answers[0].text
    german = english.model_copy(update={"lang": "de"})  # nothing translated: every text is the English one
    shown = MappingProxyType({"de": (english.questions[0].stem, answer, "Weights ~ bytes / value.", "Memory.")})
    tree = FORMAT({"en": english, "de": german}, ExportOptions(english=shown))
    names = sorted(str(path) for path in tree)
    assert names == ["kinds-de-with-en.json", "kinds-en.json", "kinds.json"], names
    for name in ("kinds-de-with-en.json", "kinds.json"):
        document = json.loads(tree[next(p for p in tree if str(p) == name)])
        assert document["fallback"] == ["/topic/key_points/0/de", "/questions/0/stem/de", f"/questions/{short}/answers/de/0/text"], name
    assert "fallback" not in json.loads(tree[next(p for p in tree if str(p) == "kinds-en.json")])
