"""The JSON contract's records take each language's question (and a choice question's options)
once, instead of through a function per text (``exporters/json_bank.py``: ``_question``,
``_choices``): the documents and files of banks of every kind, their choice questions with shapes
and texts drawn at random, in one language and in all three, are those of the functions they
replaced (kept below, verbatim), and a question the contract refuses is refused alike."""

from __future__ import annotations

import random

import pydantic
import pytest

import qti_kinds_bank
from aistack_bank.exchange import ExportedMultipleResponse, ExportedOption, ExportedSingleChoice
from aistack_bank.exporters import json_bank
from test_qti_item_templates import shaped


def old_question(index, q, banks, texts):
    def of(b):
        return b.questions[index]

    def optional(get):
        return texts(lambda b: get(of(b))) if get(q) is not None else None

    common = {
        "id": q.id, "kind": q.kind, "stem": texts(lambda b: of(b).stem),
        "explanation": optional(lambda x: x.explanation), "tags": list(q.tags), "difficulty": q.difficulty,
    }
    return json_bank.FORMAT.writer(q)(q, common, banks, texts, of, optional)


def old_choices(q, common, banks, texts, of, optional, *, multi: bool):
    right = set(q.right_ids())
    options = [
        ExportedOption(
            id=o.id,
            text=texts(lambda b, i=i: of(b).options[i].text),
            correct=o.id in right,
            feedback=optional(lambda x, i=i: x.options[i].feedback),
        )
        for i, o in enumerate(q.options)
    ]
    if not multi:
        return ExportedSingleChoice(**common, options=options, correct=q.correct)
    return ExportedMultipleResponse(**common, options=options, correct=list(q.correct), scoring=q.scoring)


def _made(banks):
    try:
        document = json_bank.build_document(banks)
    except pydantic.ValidationError as error:
        return "refused", str(error)
    return document, json_bank.render_json(document)


@pytest.mark.parametrize("seed", range(4))
def test_the_records_are_the_old_functions(seed, monkeypatch):
    rng = random.Random(seed)
    banks = qti_kinds_bank.banks()
    langs = sorted(banks, key=lambda lang: (lang != "en", lang))
    for _ in range(15):
        chosen = [q for q in banks["en"].questions]
        picks = [n for n, q in enumerate(chosen) if q.kind in ("single-choice", "multiple-response", "true-false")]
        localized = {lang: list(banks[lang].questions) for lang in langs}
        for n in rng.sample(picks, len(picks)):
            english = shaped(banks["en"].questions[n], random.Random(rng.random()))
            if english.kind != "true-false" and rng.random() < 0.8:  # (mostly ids the contract takes: one letter)
                english = english.model_copy(update={"options": [o.model_copy(update={"id": "abcdefgh"[k]}) for k, o in enumerate(english.options)],
                                                      "correct": "a" if english.kind == "single-choice" else ["a"]})
            for lang in langs:
                texts = random.Random(rng.random())
                other = english if lang == "en" else english.model_copy(update={
                    "stem": english.stem + f" [{lang}]",
                    **({"options": [o.model_copy(update={"text": o.text + lang, "feedback": None if o.feedback is None and texts.random() < 0.9 else f"fb {lang}"})
                                    for o in english.options]} if english.kind != "true-false" else {}),
                })
                localized[lang][n] = other
        made = {lang: banks[lang].model_copy(update={"questions": tuple(localized[lang])}) for lang in langs}
        for selection in ([made["en"]], [made[lang] for lang in langs], [made["fr"]]):
            new = _made(selection)
            with monkeypatch.context() as patched:
                patched.setattr(json_bank, "_question", old_question)
                patched.setitem(json_bank.WRITERS, "single-choice", lambda *a: old_choices(*a, multi=False))
                patched.setitem(json_bank.WRITERS, "multiple-response", lambda *a: old_choices(*a, multi=True))
                old = _made(selection)
            assert new == old
