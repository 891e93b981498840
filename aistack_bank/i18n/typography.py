"""French typography: a no-break space before ``? ! : ;`` and ``»``, and after ``«``.

The bank writes U+00A0 NO-BREAK SPACE in every one of these places (the Imprimerie nationale
rule; U+202F, the narrow no-break space, is not used, so that one kind is found everywhere and
older fonts and LMS editors that lack U+202F show no gaps). :func:`typography_issues` finds
every place where an ordinary space, a narrow no-break space or no space at all stands instead,
and :func:`fix_typography` changes exactly those spaces and nothing else.

Left alone, because no space belongs there: a colon, semicolon, question or exclamation mark
with no space on either side (``10:30``, ``2:4``, ``a:b``, ``x!=y``, ``std::vector``), anything
inside a URL (``https://…``, ``www.…``) and anything inside backquotes (```code```).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

NBSP = "\u00a0"
"""The space the bank uses before high punctuation and inside guillemets."""

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
    issues = []
    if not _MARKS.search(text):
        return issues
    spans = _protected_spans(text)
    size = len(text)
    for match in _MARKS.finditer(text):  # only these characters can give an issue
        index, ch = match.start(), match.group()
        if spans and _inside(spans, index):
            continue
        if ch in _BEFORE:
            if index == 0:
                continue
            prev = text[index - 1]
            nxt = text[index + 1] if index + 1 < size else ""
            if prev == NBSP:
                continue
            if prev in _WRONG_SPACES:
                # a lone mark between spaces after another mark ("?!" written "? !") still counts
                issues.append(TypographyIssue(index - 1, ch, prev, False))
                continue
            if prev in _BEFORE or prev == "\n":
                continue  # "?!", "!!": the space goes before the first one only
            if nxt and not nxt.isspace() and nxt not in "»)]}\"'’.,":
                continue  # 10:30, 2:4, a:b, x!=y: not punctuation
            if prev in "([{/" or prev.isspace():
                continue
            issues.append(TypographyIssue(index, ch, "", True))
        elif ch == "»":
            prev = text[index - 1] if index else ""
            if prev == NBSP or index == 0:
                continue
            if prev in _WRONG_SPACES:
                issues.append(TypographyIssue(index - 1, ch, prev, False))
            elif not prev.isspace():
                issues.append(TypographyIssue(index, ch, "", True))
        elif ch == "«":
            nxt = text[index + 1] if index + 1 < size else ""
            if nxt == NBSP or not nxt:
                continue
            if nxt in _WRONG_SPACES:
                issues.append(TypographyIssue(index + 1, ch, nxt, False))
            elif not nxt.isspace():
                issues.append(TypographyIssue(index + 1, ch, "", True))
    return issues


def fix_typography(text: str) -> str:
    """``text`` with every issue of :func:`typography_issues` fixed; only spaces change."""
    issues = typography_issues(text)
    if not issues:
        return text
    out = []
    last = 0
    for issue in sorted(issues, key=lambda x: x.offset):
        out.append(text[last:issue.offset])
        out.append(NBSP)
        last = issue.offset if issue.insert else issue.offset + 1
    out.append(text[last:])
    return "".join(out)


def same_but_spaces(first: str, second: str) -> bool:
    """Whether ``a`` and ``b`` differ only in the kind of space at the places French typography governs."""
    return _space_kind_insensitive(first) == _space_kind_insensitive(second)


def _space_kind_insensitive(text: str) -> str:
    text = re.sub(rf"[ {NBSP}\u202f\u2009]([{re.escape(_BEFORE)}»])", rf"{NBSP}\1", text)
    return re.sub(rf"«[ {NBSP}\u202f\u2009]", f"«{NBSP}", text)


# ----------------------------------------------------------------------------- catalogs

def catalog_typography_diagnostics(catalog, active: dict, fields) -> list:
    """W520 for every French msgstr whose spaces break French typography."""
    from .locations import translation_warnings

    if not catalog.language.split("_")[0] == "fr":
        return []
    return translation_warnings(catalog, active, fields, lambda field, msgstr: (
        ("W520", f"{issue.describe()}; run `bank i18n fix-typography --lang fr`", issue.offset) for issue in typography_issues(msgstr)))


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
        write_or_compare(path, render_catalog(catalog.po), check=compare)
    return changed, []
