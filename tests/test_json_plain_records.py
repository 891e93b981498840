"""The JSON files are written from plain data checked against the contract in one call
(``exporters/json_bank.py``: ``_plain_document_data``) instead of from the contract's models,
built then dumped: on banks of every kind whose choice and true/false questions have shapes,
texts and ids drawn at random (ids and translations the contract refuses among them), in one
language and in all three, with English fallbacks now and then, a file's bytes are those the
models write (``build_document``, ``_document_data``: the old way, which ``_render`` still takes
when the contract refuses the data), and a bank the contract refuses is refused with the
models' message."""

from __future__ import annotations

import random

import pydantic
import pytest

import qti_kinds_bank
from aistack_bank.exporters import json_bank
from aistack_bank.exporters.common import english_fallback, json_utf8
from aistack_bank.options import ExportOptions
from test_qti_item_templates import shaped


def _old(banks):
    try:
        return json_utf8(json_bank._document_data(json_bank.build_document(banks)))
    except pydantic.ValidationError as error:
        return "refused", str(error)


def _new(banks):
    try:
        return json_bank._render(banks, ExportOptions())
    except pydantic.ValidationError as error:
        return "refused", str(error)


@pytest.mark.parametrize("seed", range(5))
def test_plain_records_are_the_models_bytes(seed):
    rng = random.Random(seed)
    banks = qti_kinds_bank.banks()
    langs = sorted(banks, key=lambda lang: (lang != "en", lang))
    refused = written = 0
    for _ in range(20):
        localized = {lang: list(banks[lang].questions) for lang in langs}
        picks = [n for n, q in enumerate(banks["en"].questions) if q.kind in ("single-choice", "multiple-response", "true-false")]
        for n in rng.sample(picks, len(picks)):
            english = shaped(banks["en"].questions[n], random.Random(rng.random()))
            if english.kind != "true-false" and rng.random() < 0.9:  # (mostly ids the contract takes: one letter)
                english = english.model_copy(update={"options": [o.model_copy(update={"id": "abcdefgh"[k]}) for k, o in enumerate(english.options)],
                                                      "correct": "a" if english.kind == "single-choice" else ["a", "b"][: rng.randint(1, 2)]})
            for lang in langs:
                texts = random.Random(rng.random())
                if lang == "en":
                    other = english
                elif english.kind == "true-false":
                    other = english.model_copy(update={
                        "stem": english.stem + f" [{lang}]",
                        "feedback_true": english.feedback_true if texts.random() < 0.97 else None,
                        "explanation": english.explanation and english.explanation + lang})
                else:
                    other = english.model_copy(update={
                        "stem": english.stem + f" [{lang}]",
                        "options": [o.model_copy(update={"text": o.text + lang,
                                                          "feedback": None if o.feedback is None and texts.random() < 0.9 or texts.random() < 0.02 else f"fb {lang}"})
                                    for o in english.options]})
                localized[lang][n] = other
        order = rng.sample(range(len(localized["en"])), rng.randint(1, len(localized["en"])))
        made = {lang: banks[lang].model_copy(update={"questions": tuple(localized[lang][n] for n in order)}) for lang in langs}
        for selection in ([made["en"]], [made[lang] for lang in langs], [made[rng.choice(langs[1:])]]):
            fallback = {b.lang: frozenset(rng.sample([q.stem for q in b.questions], 1)) for b in selection if b.lang != "en" and rng.random() < 0.3}
            with english_fallback(fallback, [b.lang for b in selection]):
                old, new = _old(selection), _new(selection)
            assert new == old
            refused += isinstance(old, tuple)
            written += isinstance(old, bytes)
    assert refused and written
