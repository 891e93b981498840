"""The reference lints' first refusal of a text at the start of
:func:`~aistack_bank.rules.lints.reference_hits` (:func:`~aistack_bank.rules.lints._may_refer_folded`:
a substring test of each needed word, then ``q\\d``) answers as the one search of a pattern of
every needed word and ``q\\d`` it replaced, kept here (as :func:`~aistack_bank.rules.lints.may_refer`
answers too).

Compared on random lowered and unlowered texts made of the needed words of the three languages,
their pieces and neighbours, "q" before every kind of Unicode digit, accents, non-breaking
spaces and the characters lowering treats specially; and on every text of the bundled bank. It
fails when a word is left out of the substring tests, or when ``q`` followed by a digit other
than 0-9 is refused."""

from __future__ import annotations

import random
import re
from pathlib import Path

from aistack_bank.rules.lints import _NEEDS, _folded, _language, _may_refer_folded, may_refer, reference_hits

ROOT = Path(__file__).resolve().parent.parent

MAY_REFER_BEFORE = {lang: re.compile("|".join(sorted({re.escape(word) for table in _NEEDS.values() for word in table[lang]})) + r"|q\d")
                    for lang in _NEEDS["letter"]}
"""The pattern before: one search of the lowered text."""


def may_refer_before(text: str, lang: str = "en") -> bool:
    return MAY_REFER_BEFORE[_language(lang)].search(_folded(text)) is not None


def _pieces() -> list[str]:
    words = sorted({word for table in _NEEDS.values() for lang in table.values() for word in lang})
    pieces = []
    for word in words:
        pieces += [word, word.upper(), word.capitalize(), word[:-1], word[1:], word[: len(word) // 2], word + "s"]
    pieces += ["q", "Q", "q1", "Q7", "q٣", "q５", "q²", "q⁴", "qa", "q ", "q\u00a01", "İ", "ı", "ſ", "é", "É", "\u00a0", "\u202f", " ", "-", ".",
               "the", "la", "de", "vraag", "vra", "gen", "antw", "oord", "réponse", "re\u0301ponse", "OPTİON", "optıon", "queſtion", "ALTERNATİVE"]
    return pieces


def test_random_texts_same_verdict():
    rng = random.Random(9)
    pieces = _pieces()
    found = 0
    for _ in range(40_000):
        text = "".join(rng.choice(pieces) + rng.choice(("", " ", "", "x")) for _ in range(rng.randint(0, 6)))
        for lang in ("en", "fr", "nl", "de"):
            before = may_refer_before(text, lang)
            assert may_refer(text, lang) is before, (text, lang)
            assert _may_refer_folded(_folded(text), _language(lang)) is before, (text, lang)
            found += before
    assert 10_000 < found < 150_000  # both answers are well represented


def test_every_word_alone_and_q_digits():
    for lang, pattern in MAY_REFER_BEFORE.items():
        for table in _NEEDS.values():
            for word in table[lang]:
                for text in (word, f"the {word}.", word.upper(), f"x{word}y"):
                    assert may_refer(text, lang) is may_refer_before(text, lang) is True, (word, lang)
        for digit in ("0", "9", "٣", "５", "߀", "²"):
            text = f"see q{digit} now"
            assert may_refer(text, lang) is may_refer_before(text, lang), (digit, lang)


def test_bundled_bank_texts_and_hits():
    import yaml

    texts = []
    for path in sorted((ROOT / "bank").rglob("*.yaml")) + sorted((ROOT / "examples").rglob("*.yaml")):
        def walk(value):
            if isinstance(value, str):
                texts.append(value)
            elif isinstance(value, dict):
                for item in value.values():
                    walk(item)
            elif isinstance(value, list):
                for item in value:
                    walk(item)
        walk(yaml.safe_load(path.read_text(encoding="utf-8")))
    assert len(texts) > 500
    for text in texts:
        for lang in ("en", "fr", "nl"):
            assert may_refer(text, lang) is may_refer_before(text, lang)
            if not may_refer_before(text, lang):
                assert reference_hits(text, lang) == []
