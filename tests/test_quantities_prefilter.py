"""The scanners' quick refusals (no digit, no operator, no markup character) never change what they find.

Each scanner is compared, on random texts over the characters that matter to it, with the
same scan spelled out without the refusal (the code before the refusals were added)."""

from __future__ import annotations

import random
import re
from collections import Counter

from aistack_bank.rules.quantities import _FORMULA_TOKEN, _NUMBER_RE, _SQUEEZE, formula_tokens, markup_tokens, numbers, parse_number

ALPHABET = list("aZMNK xy09 5") + ["²", "³", "⁴", "·", "×", "/", "^", "(", ")", "<", ">", "{", "}", "%", "s", "d", "\u00a0", "\u202f", ",", ".", "٣", "½", "GB", "ms"]


def _texts(count: int, seed: int):
    rng = random.Random(seed)
    for _ in range(count):
        yield "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 14)))


def _formula_tokens_spelled_out(text: str) -> list[str]:
    found = []
    for m in _FORMULA_TOKEN.finditer(_SQUEEZE.sub(r"\1", text)):
        token = m.group()
        while token and token[-1] == ")" and token.count(")") > token.count("("):
            token = token[:-1]
        while token and token[0] == "(" and token.count("(") > token.count(")"):
            token = token[1:]
        if [c for c in token if c.isalpha()] and (token[0].isdigit() or (any(c in token for c in "²³⁴·×/^") and not token[:2].isalpha())):
            found.append(token)
    return found


def test_scanners_find_what_they_found_without_the_quick_refusals():
    markup = re.compile(r"</?[A-Za-z][^<>]*>|\{[^{}\s]*\}|%(?:\([a-z_]+\))?[sd]")
    seen = Counter()
    for text in _texts(10_000, 1):
        assert formula_tokens(text) == _formula_tokens_spelled_out(text), text
        assert markup_tokens(text) == sorted(markup.findall(text)), text
        for lang in ("en", "fr", "nl"):
            assert numbers(text, lang) == [parse_number(m.group(), lang) for m in _NUMBER_RE[lang].finditer(text)], (text, lang)
        seen["formula"] += bool(formula_tokens(text))
        seen["markup"] += bool(markup_tokens(text))
    assert seen["formula"] > 50 and seen["markup"] > 50  # the comparison met texts with findings

