"""The glossary's check finds the terms an English text holds once and keeps them for the next
catalog that checks the same text: on random glossaries, languages and texts, each English
text checked against several translations in several languages (rules for some of them, keys
that a rule's ``published`` exempts), it finds what the check without the memo found
(`test_glossary_prefilter.reference_check`), in the same order and at the same offsets, with
the memo full or not."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from aistack_bank.i18n import glossary as module
from aistack_bank.i18n.glossary import Glossary, Rule, Term
from test_glossary_prefilter import form, phrase, reference_check, text

LANGUAGES = ["fr", "fr_BE", "nl", "de"]


def rule(rng: random.Random) -> Rule:
    return Rule(tuple(form(rng) for _ in range(rng.randint(0, 2))), tuple(form(rng) for _ in range(rng.randint(0, 2))),
                tuple(rng.sample(["k1", "k2", "k3"], rng.randint(0, 1))))


@pytest.mark.parametrize("memo", [20_000, 3])
def test_the_english_terms_kept_for_the_next_catalog_find_what_the_check_found(monkeypatch, memo):
    monkeypatch.setattr(module, "ENGLISH_MEMO_TEXTS", memo)
    rng = random.Random(20261202 + memo)
    differing = 0
    for _ in range(120):
        terms = [Term(tuple(form(rng) for _ in range(rng.randint(1, 3))),
                      rules={lang: rule(rng) for lang in rng.sample(["fr", "fr_BE", "nl"], rng.randint(1, 3))},
                      names=tuple(phrase(rng, 2) for _ in range(rng.randint(0, 2))),
                      unless=tuple(form(rng) for _ in range(rng.randint(0, 1))))
                 for _ in range(rng.randint(1, 5))]
        glossary = Glossary(Path("glossary.yaml"), terms)
        englishes = [text(rng) for _ in range(6)]
        for _ in range(40):  # the same English texts again and again, as each catalog checks them
            english, translation = rng.choice(englishes), text(rng)
            language, key = rng.choice(LANGUAGES), rng.choice([None, "k1", "k2", "k4"])
            expected = reference_check(glossary, english, translation, language, key)
            assert glossary.check(english, translation, language, key) == expected, (terms, english, translation, language, key)
            differing += bool(expected)
        assert len(glossary._in_english) <= memo
    assert differing > 300  # the draws do find breaches, and not only empty results
