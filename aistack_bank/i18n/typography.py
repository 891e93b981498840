"""French typography: a no-break space before ``? ! : ;`` and ``»``, and after ``«``.

The bank writes U+00A0 NO-BREAK SPACE in every one of these places (the Imprimerie nationale
rule; U+202F, the narrow no-break space, is not used, so that one kind is found everywhere and
older fonts and LMS editors that lack U+202F show no gaps). :func:`typography_issues` finds
every place where an ordinary space, a narrow no-break space or no space at all stands instead,
and :func:`fix_typography` changes exactly those spaces and nothing else.

Left alone, because no space belongs there: a colon, semicolon, question or exclamation mark
with no space on either side (``10:30``, ``2:4``, ``a:b``, ``x!=y``, ``std::vector``), anything
inside a URL (``https://…``, ``www.…``) and anything inside backquotes (```code```).

Numbers (:func:`number_issues`, W528): a number and the unit symbol after it are joined by the
same U+00A0 (``14 Go``, ``7 ms``, ``50 %``, ``4 bits``); a whole number of five digits or more is
grouped by threes with U+202F NARROW NO-BREAK SPACE (``65 504``, ``10 000``), as the
Imprimerie nationale and the SI write it. Four-digit numbers are written without a space
(``4096``, ``2000``), which both allow, so that years, sizes such as 4096 and product numbers
read alike. Digits glued to letters (``FP16``, ``7B``, ``A100``) and decimals are left alone, and
a unit written without a space is not reported: ``7B`` or ``2N`` cannot be told from it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

NBSP = "\u00a0"
"""The space the bank uses before high punctuation and inside guillemets."""
NNBSP = "\u202f"
"""The narrow no-break space that groups the digits of a large number."""
UNITS = ("o", "Ko", "Mo", "Go", "To", "Po", "Kio", "Mio", "Gio", "Tio", "octet", "octets", "bit", "bits", "s", "ms", "µs", "ns",
         "%", "W", "kW", "mW", "Hz", "kHz", "MHz", "GHz", "FLOP", "FLOPS", "GFLOPS", "TFLOPS", "PFLOPS",
         "TOPS", "Go/s", "To/s", "Mo/s", "FLOP/octet", "°C", "nm", "mm")
"""Unit symbols that a number before them is joined to with U+00A0."""
# A number not glued to a letter, digit, period or comma before it: its first digit, then the
# character before that digit looked at (``(?<![\w.,]\d)``; the same as ``(?<![\w.,])`` before
# the digit), so that each pattern starts with a digit and the search skips to the digits.
_NUMBER = r"\d(?<![\w.,]\d)\d*(?:,\d+)?[⁰¹²³⁴⁵⁶⁷⁸⁹⁻]*"
_UNIT_SPACE = re.compile(
    rf"{_NUMBER}([ \u202f\u2009\u2007])(?=(?:{'|'.join(re.escape(u) for u in sorted(UNITS, key=len, reverse=True))})(?![\w]))")
"""A number and an ordinary, narrow, thin or figure space before a unit symbol."""
_LONG_NUMBER = re.compile(r"\d(?<![\w.,]\d)(?:\d{0,2}(?:[ \u00a0\u202f\u2009\u2007]\d{3})+(?![\w])|\d{4,}(?![\w]))")
"""A number of one to three digits and groups of three after spaces, or of five digits or more."""

_DIGIT = re.compile(r"\d")
_NUMBER_HINT = re.compile("[\\d⁰¹²³⁴⁵⁶⁷⁸⁹⁻](?:[ \u202f\u2009\u2007]|(?<=\\d)\u00a0\\d{3}|(?<=\\d)\\d{4})")
"""What a match of :data:`_UNIT_SPACE` (a digit or an exponent, then a space other than U+00A0)
or of :data:`_LONG_NUMBER` (a digit, a space, three digits; or five digits) holds: a text
without it has no number issue (one class first, so that the search skips to its characters)."""
_WRONG_SPACES = " \u202f\u2009\u2007"
_BEFORE = "?!:;"
_MARKS = re.compile("[?!:;«»]")
_PROTECTED = re.compile(r"`[^`]*`|(?:https?|ftp)://\S+|www\.\S+|\b[\w.+-]+@[\w-]+\.[\w.]+")


@dataclass(frozen=True)
class TypographyIssue:
    """A place where the no-break space is missing or of the wrong kind."""

    offset: int
    """Index in the text of the wrong space, or of the character that needs one before it."""
    mark: str
    """The punctuation concerned: one of ``? ! : ; « »``."""
    found: str
    """The space found (``" "``, U+202F …) or ``""`` when there is none."""
    insert: bool
    """True when a space is missing (the fix inserts one), False when one is replaced."""

    def describe(self) -> str:
        where = f"after {self.mark!r}" if self.mark == "«" else f"before {self.mark!r}"
        if self.insert:
            return f"no space {where}; French needs a no-break space (U+00A0) there"
        name = {" ": "an ordinary space", "\u202f": "a narrow no-break space (U+202F)", "\u2009": "a thin space (U+2009)", "\u2007": "a figure space (U+2007)"}.get(self.found, repr(self.found))
        return f"{name} {where}; the bank uses a no-break space (U+00A0) there"


def _protected_spans(text: str) -> list[tuple[int, int]]:
    return [m.span() for m in _PROTECTED.finditer(text)]


def _inside(spans, index: int) -> bool:
    return any(a <= index < b for a, b in spans)


def typography_issues(text: str) -> list[TypographyIssue]:
    """Every place in a French ``text`` where the no-break space is missing or of the wrong kind."""
    issues: list[TypographyIssue] = []
    # (whether _MARKS finds a mark: one substring test per mark, each a search in C that skips
    # through the text, instead of the pattern's class tested at every character)
    if not ("?" in text or "!" in text or ":" in text or ";" in text or "«" in text or "»" in text):
        return issues
    spans = None  # (the protected spans: looked for only when a mark gives an issue)
    for match in _MARKS.finditer(text):  # only these characters can give an issue
        issue = _mark_issue(text, match.start(), match.group())
        if issue is None:
            continue
        if spans is None:
            spans = _protected_spans(text)
        if spans and _inside(spans, match.start()):
            continue
        issues.append(issue)
    return issues


def _mark_issue(text: str, index: int, ch: str) -> TypographyIssue | None:
    """The issue of the mark ``ch`` at ``index`` of ``text``, were it outside a protected span."""
    size = len(text)
    if ch in _BEFORE:
        if index == 0:
            return None
        prev = text[index - 1]
        nxt = text[index + 1] if index + 1 < size else ""
        if prev == NBSP:
            return None
        if prev in _WRONG_SPACES:
            # a lone mark between spaces after another mark ("?!" written "? !") still counts
            return TypographyIssue(index - 1, ch, prev, False)
        if prev in _BEFORE or prev == "\n":
            return None  # "?!", "!!": the space goes before the first one only
        if nxt and not nxt.isspace() and nxt not in "»)]}\"'’.,":
            return None  # 10:30, 2:4, a:b, x!=y: not punctuation
        if prev in "([{/" or prev.isspace():
            return None
        return TypographyIssue(index, ch, "", True)
    if ch == "»":
        prev = text[index - 1] if index else ""
        if prev == NBSP or index == 0:
            return None
        if prev in _WRONG_SPACES:
            return TypographyIssue(index - 1, ch, prev, False)
        if not prev.isspace():
            return TypographyIssue(index, ch, "", True)
        return None
    nxt = text[index + 1] if index + 1 < size else ""  # «
    if nxt == NBSP or not nxt:
        return None
    if nxt in _WRONG_SPACES:
        return TypographyIssue(index + 1, ch, nxt, False)
    if not nxt.isspace():
        return TypographyIssue(index + 1, ch, "", True)
    return None


@dataclass(frozen=True)
class NumberIssue:
    """A number not joined to its unit by U+00A0, or a large number not grouped by U+202F."""

    offset: int
    """Index of the wrong space, or of the digit a group space goes before."""
    kind: str
    """``"unit"`` or ``"group"``."""
    found: str
    """The space found, or ``""`` when one is missing."""
    want: str
    """The space that belongs there."""

    @property
    def insert(self) -> bool:
        return not self.found

    def describe(self) -> str:
        if self.kind == "unit":
            return f"{_SPACE_NAMES.get(self.found, repr(self.found))} between a number and its unit; French joins them with a no-break space (U+00A0)"
        if self.insert:
            return "a number of five digits or more is not grouped; French groups its digits by threes with a narrow no-break space (U+202F)"
        return f"{_SPACE_NAMES.get(self.found, repr(self.found))} between groups of digits; French groups them with a narrow no-break space (U+202F)"


_SPACE_NAMES = {" ": "an ordinary space", NBSP: "a no-break space (U+00A0)", "\u202f": "a narrow no-break space (U+202F)",
                "\u2009": "a thin space (U+2009)", "\u2007": "a figure space (U+2007)"}


def number_issues(text: str) -> list[NumberIssue]:
    """Every number in a French ``text`` whose unit space or digit grouping is wrong."""
    if not _NUMBER_HINT.search(text) or not _DIGIT.search(text):
        return []  # both patterns start a number with a decimal digit, and hold a hint
    spans = None  # (the protected spans: looked for only when a number could give an issue)
    issues = []
    for match in _UNIT_SPACE.finditer(text):
        if match.group(1) != NBSP:
            if spans is None:
                spans = _protected_spans(text)
            if not _inside(spans, match.start()):
                issues.append(NumberIssue(match.start(1), "unit", match.group(1), NBSP))
    for match in _LONG_NUMBER.finditer(text):
        if spans is None:
            spans = _protected_spans(text)
        if _inside(spans, match.start()):
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


def fix_typography(text: str) -> str:
    """``text`` with every issue of :func:`typography_issues` and :func:`number_issues` fixed;
    only spaces change."""
    issues = [(issue.offset, issue.insert, NBSP) for issue in typography_issues(text)]
    issues += [(issue.offset, issue.insert, issue.want) for issue in number_issues(text)]
    if not issues:
        return text
    out = []
    last = 0
    for offset, insert, space in sorted(set(issues)):
        if offset < last:
            continue
        out.append(text[last:offset])
        out.append(space)
        last = offset if insert else offset + 1
    out.append(text[last:])
    return "".join(out)


def same_but_spaces(first: str, second: str) -> bool:
    """Whether ``a`` and ``b`` differ only in the kind of space at the places French typography governs."""
    return _space_kind_insensitive(first) == _space_kind_insensitive(second)


def _space_kind_insensitive(text: str) -> str:
    text = re.sub(rf"[ {NBSP}\u202f\u2009]([{re.escape(_BEFORE)}»])", rf"{NBSP}\1", text)
    text = re.sub(r"(?<=\d)[ \u00a0\u202f\u2009](?=\d{3}(?!\d))", "", text)  # 65 504, 65504
    text = re.sub(r"(?<=\d)[ \u00a0\u202f\u2009](?=\D)", NBSP, text)  # 14 Go
    return re.sub(rf"«[ {NBSP}\u202f\u2009]", f"«{NBSP}", text)


# ----------------------------------------------------------------------------- catalogs

def catalog_typography_diagnostics(catalog, active: dict, fields, current: list | None = None, hints: list[bool] | None = None) -> list:
    """W520 for every French msgstr whose spaces break French typography (``current``: the
    current translations of ``fields``, :func:`.locations.current_translations`, when the caller
    has them; ``hints``: for each of ``current``, whether
    :func:`~aistack_bank.rules.quantities.has_token_hint` finds a character in its msgstr, when
    the caller asked: one without has no decimal digit, and so no number issue to look for).

    Each distinct text (with its hint) is looked at once: what :func:`_typography_hits` finds
    depends on the text and the hint alone, and a bank's catalog holds the same translation
    many times (56 430 distinct texts among the 100 005 entries of the French catalog of the
    10 000-question benchmark bank). The distinct texts are listed first, in C, by their hint
    (the msgstrs listed by ``map``, those with and without a hint taken by ``compress``, each
    set of texts a map made by ``dict.fromkeys``), and each is looked at; the entries are walked one
    by one, in order, only when some text has a hit (a catalog with none, most of them, is
    answered without that loop). Without ``current``, the current translations are listed here
    as :func:`.locations.translation_warnings` lists them; without ``hints``, each text's
    numbers are looked for."""
    from itertools import compress
    from operator import attrgetter, itemgetter, not_

    from .locations import current_translations, msgstr_offset_location
    from ..errors import warning

    if not catalog.language.split("_")[0] == "fr":
        return []
    if current is None:
        current = current_translations(active, fields)
    elif type(current) is not list:
        current = list(current)  # (read more than once below)
    if hints is None:
        hints = [True] * len(current)
    elif type(hints) is not list:
        hints = list(hints)

    # the hits of each distinct text, by its hint (without, with): None where it has none
    texts = list(map(attrgetter("msgstr"), map(itemgetter(1), current)))
    seen = (dict.fromkeys(compress(texts, map(not_, hints))), dict.fromkeys(compress(texts, hints)))
    del texts
    hit = False
    for digits, kept in enumerate(seen):
        for msgstr in kept:
            hits = _typography_hits(None, msgstr, bool(digits))  # (reads the text and whether it holds a digit alone)
            if hits:
                kept[msgstr] = hits
                hit = True
    if not hit:
        return []
    found: list = []  # (translation_warnings' loop, each text's hint beside it)
    for (field, entry), hint in zip(current, hints):
        hits = seen[1 if hint else 0][entry.msgstr]
        if hits is not None:
            for code, message, offset in hits:
                found.append(warning(code, f"{field.key}: {message}", msgstr_offset_location(catalog, entry, offset)))
    return found


def _typography_hits(field, msgstr: str, digits: bool = True):
    """(code, message, offset) of each W520 and W528 in one French ``msgstr``, marks first
    (nothing made for a text without any: most of them; ``digits`` False: the text holds no
    decimal digit, so no number issue either)."""
    marks, numbers = typography_issues(msgstr), number_issues(msgstr) if digits else ()
    if not marks and not numbers:
        return ()
    return [*(("W520", f"{issue.describe()}; run `bank i18n fix-typography --lang fr`", issue.offset) for issue in marks),
            *(("W528", f"{issue.describe()}; run `bank i18n fix-typography --lang fr`", issue.offset) for issue in numbers)]


def fix_catalog_typography(path, *, compare: bool = False):
    """Fix the French typography of every msgstr in the catalog at ``path``.

    Returns (changed entries, diagnostics); writes atomically unless ``compare``; nothing is
    written when the catalog has errors.
    """
    from ..writing import write_or_compare
    from .catalog import read_catalog, render_catalog

    catalog = read_catalog(path)
    if catalog.po is None or catalog.diagnostics:
        return 0, list(catalog.diagnostics)
    changed = 0
    for entry in catalog.po:
        if entry.msgstr:
            fixed = fix_typography(entry.msgstr)
            if fixed != entry.msgstr:
                entry.msgstr = fixed
                changed += 1
    if changed:
        write_or_compare(path, render_catalog(catalog.po), compare=compare)
    return changed, []
