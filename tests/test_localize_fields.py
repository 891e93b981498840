"""Localization takes each question's fields from the read bank (``bank_fields``, as validation
kept them) instead of making them again per language: they must be the fields the question
itself gives, key for key and place for place, for every kind; and a catalog read as light
entries (as `bank build` reads it) localizes as polib's."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import REPO
from aistack_bank.i18n.catalog import read_catalog
from aistack_bank.i18n.fields import bank_fields, question_fields
from aistack_bank.i18n.localize import localize
from aistack_bank.load import english_library, read_library


@pytest.mark.parametrize("root", [REPO, REPO / "examples" / "every-kind"], ids=["bundled", "every-kind"])
def test_the_read_banks_fields_are_each_questions_own_and_localize_the_same(root):
    source = read_library(root / "bank")
    english = english_library(source)
    fields = bank_fields(source)
    by_question: dict[str, list] = {}
    for field in fields:
        if field.question_id is not None:
            by_question.setdefault(field.question_id, []).append((field.key, field.loc, field.text))
    kinds = set()
    for question in english.questions:
        kinds.add(question.kind)
        assert by_question[question.id] == [(f.key, f.loc, f.text) for f in question_fields(question, None, Path())]
    assert root == REPO or len(kinds) >= 8  # every kind
    for path in sorted((root / "translations").glob("*.po")):
        catalog = read_catalog(path)
        given, given_diags = localize(source, english, catalog, allow_fallback=True, fields=fields)
        made, made_diags = localize(source, english, catalog, allow_fallback=True)
        assert given is not None and given.model_dump_json() == made.model_dump_json() and given_diags == made_diags
        light, light_diags = localize(source, english, read_catalog(path, light=True), allow_fallback=True, fields=fields)  # as `bank build` reads it
        assert light.model_dump_json() == made.model_dump_json() and light_diags == made_diags
