"""The number and formula patterns of :mod:`aistack_bank.rules.quantities` start with a digit (a
token character for formulas), the character before it looked at after it (``\\d(?<![\\w.,]\\d)``
for ``(?<![\\w.,])\\d``), and a formula candidate's two conditions on the token's characters from
its start are asked of its first character or of those after it, so that a search skips to the
characters a match starts with instead of trying every position.

Compared with the patterns before (spelled out here) on random texts of digits of several
scripts, separators of every language, spaces, letters, units, operators and parentheses: the
same matches (spans and groups) in the same order for every language, and the same results from
``numbers``, ``quantities``, ``numbers_and_quantities`` and ``formula_tokens`` (with and without
variables) as the functions before gave them (spelled out here with the patterns before)."""

from __future__ import annotations

import random
import re

from aistack_bank.rules import quantities as Q

NUMBER_BEFORE = {
    "en": r"(?<![\w.,])\d+(?:,\d{3})*(?:\.\d+)?(?![\d])",
    "fr": r"(?<![\w.,])\d+(?:[\u00a0\u202f\u2009 ]\d{3})*(?:,\d+)?(?![\d])",
    "nl": r"(?<![\w.,])\d+(?:\.\d{3})*(?:,\d+)?(?![\d])",
}
NUMBER_RE_BEFORE = {lang: re.compile(number) for lang, number in NUMBER_BEFORE.items()}
QUANTITY_BEFORE = {lang: re.compile(rf"({number})(?:[{Q._SPACES}]|-(?=bits?\b|bytes?\b))?({Q._UNIT_ALTERNATION})(?![\w/])")
                   for lang, number in NUMBER_BEFORE.items()}
CHARS = "0-9A-Z²³⁴·×/^()"
FORMULA_TOKEN_BEFORE = re.compile(rf"(?<![\w])[{CHARS}]+(?![\w])")
FORMULA_CANDIDATE_BEFORE = re.compile(rf"(?<![\w])(?=[{CHARS}]*[A-Z])(?=[{CHARS}]*[0-9²³⁴·×/^])[{CHARS}]+(?![\w])")


def numbers_and_quantities_before(text: str, lang: str):
    if not Q._DIGIT.search(text):
        return [], []
    lang = Q._language(lang)
    found, units = [], []
    for m in NUMBER_RE_BEFORE[lang].finditer(text):
        value = Q.parse_number(m.group(), lang)
        found.append(value)
        u = Q._UNIT_AFTER.match(text, m.end())
        if u is not None:
            dimension, factor = Q.UNITS[u.group(1)]
            units.append((dimension, round(value * factor, 9)))
    return found, units


def quantities_before(text: str, lang: str):
    if not Q._DIGIT.search(text):
        return []
    found = []
    for m in QUANTITY_BEFORE[Q._language(lang)].finditer(text):
        value = Q.parse_number(m.group(1), lang)
        dimension, factor = Q.UNITS[m.group(2)]
        found.append(Q.Quantity(m.group(), value, m.group(2), dimension, value * factor))
    return found


def formula_tokens_before(text: str, variables=None):
    if variables is None and not Q._FORMULA_HINT.search(text):
        return []
    squeezed = Q._SQUEEZE.sub(r"\1", text) if "×" in text or "·" in text else text
    found = []
    for m in (FORMULA_TOKEN_BEFORE if variables is not None else FORMULA_CANDIDATE_BEFORE).finditer(squeezed):
        token = m.group()
        while token and token[-1] == ")" and token.count(")") > token.count("("):
            token = token[:-1]
        while token and token[0] == "(" and token.count("(") > token.count(")"):
            token = token[1:]
        letters = [c for c in token if c.isalpha()]
        if not letters:
            continue
        if variables is not None:
            if all(c in variables for c in letters):
                found.append(token)
        elif token[0].isdigit() or (any(c in token for c in "²³⁴·×/^") and not token[:2].isalpha()):
            found.append(token)
    return found


PIECES = ["1", "2", "12", "123", "000", "4096", "65504", "٣", "٤٥٦", "३", ",", ".", ",5", ".5", "1,000", "1.000", "1 000", "3,5",
          " ", " ", "\u00a0", "\u202f", "\u2009", "\n", "GB", "Go", "MB", "TB/s", "ms", "s", "%", "bits", "-bit", "-bytes", "/s", "µs",
          "FLOP", "FLOP/byte", "k", "o", "a", "x", "_", "é", "FP16", "W4A16", "q003", "M", "N", "K", "D", "2MNK", "N×N", "M × K",
          "6ND", "·", "×", "/", "^", "²", "³", "(", ")", "A", "Z", "MAC×2"]


def _text(rng: random.Random) -> str:
    return "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 14)))


def _matches(pattern: re.Pattern, text: str) -> list:
    return [(m.span(), m.groups(), m.group()) for m in pattern.finditer(text)]


def test_the_patterns_match_as_before():
    rng = random.Random(4242)
    numbers = formulas = 0
    for _ in range(20000):
        text = _text(rng)
        for lang in ("en", "fr", "nl"):
            assert _matches(Q._NUMBER_RE[lang], text) == _matches(NUMBER_RE_BEFORE[lang], text), (lang, text)
            assert _matches(Q._QUANTITY[lang], text) == _matches(QUANTITY_BEFORE[lang], text), (lang, text)
        assert _matches(Q._FORMULA_TOKEN, text) == _matches(FORMULA_TOKEN_BEFORE, text), text
        assert _matches(Q._FORMULA_CANDIDATE, text) == _matches(FORMULA_CANDIDATE_BEFORE, text), text
        numbers += bool(NUMBER_RE_BEFORE["fr"].search(text))
        formulas += bool(FORMULA_CANDIDATE_BEFORE.search(text))
    assert numbers > 8000 and formulas > 3000, (numbers, formulas)


def test_the_functions_find_what_they_found_before():
    rng = random.Random(4343)
    for _ in range(10000):
        text = _text(rng)
        for lang in ("en", "fr", "nl", "de"):
            assert Q.numbers_and_quantities(text, lang) == numbers_and_quantities_before(text, lang), (lang, text)
            assert Q.quantities(text, lang) == quantities_before(text, lang), (lang, text)
            assert Q.numbers(text, lang) == numbers_and_quantities_before(text, lang)[0], (lang, text)
        assert Q.formula_tokens(text) == formula_tokens_before(text), text
        variables = tuple(rng.sample("MNKDAB", rng.randint(1, 4)))
        assert Q.formula_tokens(text, variables) == formula_tokens_before(text, variables), (text, variables)
