"""French typography's number patterns (W528) start with a digit, the character before it
looked at after it (``\\d(?<![\\w.,]\\d)`` for ``(?<![\\w.,])\\d``), and the numbers' hint with one
class, so that a search skips to the digits instead of trying every position.

Compared with the patterns before (spelled out here) on random texts of digits of several
scripts, exponents, every kind of space, letters, periods, commas and units: the same matches
(spans and groups) in the same order, the same texts found by the hint, and the same issues
from :func:`~aistack_bank.i18n.typography.number_issues` as the function before gave them."""

from __future__ import annotations

import random
import re

from aistack_bank.i18n import typography as T
from aistack_bank.i18n.typography import NBSP, NNBSP, NumberIssue

_NUMBER_BEFORE = r"\d+(?:,\d+)?[⁰¹²³⁴⁵⁶⁷⁸⁹⁻]*"
UNIT_SPACE_BEFORE = re.compile(
    rf"(?<![\w.,]){_NUMBER_BEFORE}([ \u202f\u2009\u2007])(?=(?:{'|'.join(re.escape(u) for u in sorted(T.UNITS, key=len, reverse=True))})(?![\w]))")
LONG_NUMBER_BEFORE = re.compile(r"(?<![\w.,])\d{1,3}(?:[ \u00a0\u202f\u2009\u2007]\d{3})+(?![\w])|(?<![\w.,])\d{5,}(?![\w])")
DIGIT = re.compile(r"\d")
NUMBER_HINT_BEFORE = re.compile("[\\d⁰¹²³⁴⁵⁶⁷⁸⁹⁻][ \u202f\u2009\u2007]|\\d\u00a0\\d{3}|\\d{5}")


def number_issues_before(text: str) -> list[NumberIssue]:
    """number_issues as it was, with the patterns above."""
    if not DIGIT.search(text) or not NUMBER_HINT_BEFORE.search(text):
        return []
    spans = None
    issues = []
    for match in UNIT_SPACE_BEFORE.finditer(text):
        if match.group(1) != NBSP:
            if spans is None:
                spans = T._protected_spans(text)
            if not T._inside(spans, match.start()):
                issues.append(NumberIssue(match.start(1), "unit", match.group(1), NBSP))
    for match in LONG_NUMBER_BEFORE.finditer(text):
        if spans is None:
            spans = T._protected_spans(text)
        if T._inside(spans, match.start()):
            continue
        digits = [i for i in range(match.start(), match.end()) if text[i].isdigit()]
        if len(digits) < 5:
            continue
        if match.group(0).isdigit():
            size = len(digits)
            issues += [NumberIssue(match.start() + i, "group", "", NNBSP) for i in range(size % 3 or 3, size, 3)]
        else:
            issues += [NumberIssue(i, "group", text[i], NNBSP) for i in range(match.start(), match.end()) if not text[i].isdigit() and text[i] != NNBSP]
    return sorted(issues, key=lambda issue: issue.offset)


PIECES = ["1", "2", "12", "123", "000", "4096", "65504", "1234567", "٣", "٤٥٦", "३", "3,5", ",", ".", "²", "³", "⁻", "¹", "⁰",
          " ", " ", NBSP, NNBSP, "\u2009", "\u2007", "\n", "Go", "Mo/s", "ms", "%", "°C", "bits", "o", "x", "a", "_", "é", "FP",
          "-", "(", "`", "https://h/65 504 ", "www.ex.fr/1 000", "a@b.fr"]


def _text(rng: random.Random) -> str:
    return "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 16)))


def _matches(pattern: re.Pattern, text: str) -> list:
    return [(m.span(), m.groups(), m.group()) for m in pattern.finditer(text)]


def test_the_number_patterns_match_as_before():
    rng = random.Random(2028)
    matched = hinted = 0
    for _ in range(20000):
        text = _text(rng)
        assert _matches(T._UNIT_SPACE, text) == _matches(UNIT_SPACE_BEFORE, text), text
        assert _matches(T._LONG_NUMBER, text) == _matches(LONG_NUMBER_BEFORE, text), text
        # the hint: a match where there was one (only whether a text has one is read)
        hint = T._NUMBER_HINT.search(text) is not None
        assert hint == (NUMBER_HINT_BEFORE.search(text) is not None), text
        matched += bool(UNIT_SPACE_BEFORE.search(text)) + bool(LONG_NUMBER_BEFORE.search(text))
        hinted += hint
    assert matched > 4000 and hinted > 8000, (matched, hinted)


def test_number_issues_are_found_as_before():
    rng = random.Random(2029)
    found = 0
    for _ in range(20000):
        text = _text(rng)
        before = number_issues_before(text)
        assert T.number_issues(text) == before, text
        found += bool(before)
    assert found > 3000, found
