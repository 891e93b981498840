# SPDX-License-Identifier: GPL-3.0-or-later
# Ported from GNU gettext (write-po.c) and GNU libunistring; Copyright (C) Free Software
# Foundation, Inc. See LICENSE, "Third-party material".
"""GNU gettext's string wrapping, ported: ``wrap()`` of write-po.c over libunistring's
``ulc_width_linebreaks``.

msgcat and msgmerge write one layout of a PO string, which Poedit and Weblate users get back
from every gettext tool: escape it, find the UAX #14 break opportunities of the escaped text
(an escape sequence is never broken), then break greedily before the opportunity at which the
piece would run past the page width, counting each character with ``uc_width`` (combining marks,
ZWNJ and zero-width spaces count 0, East Asian wide characters 2). The tables in
``unicode_tables.py`` are read from the libunistring that gettext uses, so every break point and
column matches the C code. Measured on this project's test alphabet (tests/test_po_msgcat.py):
the port gives libunistring 1.0's own break points on 40 000 random mixed-script strings, and
msgcat's output on thousands of random catalogs and on 236 of 242 real ones of two GNOME
projects (the 6 others: CRLF line ends, which GNU keeps inside comments and we do not, and one
entry with two ``#,`` lines, of which GNU keeps only the fuzzy flag). Third-party libraries were
measured and not used: ``uniseg`` 0.10.1 (plain UAX #14 of Unicode 16) disagrees with
libunistring on 2 679 of 3 000 random strings (for example libunistring may break after the
``.`` of ``e.g.`` and between Hangul syllables, uniseg does not), and ``wcwidth`` 0.7.0 differs
from ``uc_width`` on 682 assigned code points (U+00AD, the Arabic number signs U+0600-U+0605...).

Known differences from msgcat: flags GNU does not know are kept (GNU drops them); a line is kept
whole inside C and Python format directives only (GNU parses some twenty format languages, and
stops at an invalid directive); in a ``python-brace-format`` string that has a ``{name}``
directive, msgcat 0.21 sometimes does not break before a word longer than the line, where this
port does.
"""

from __future__ import annotations

from bisect import bisect_right
from functools import lru_cache

from .unicode_tables import LINE_BREAK, PAIRS, WIDTH

# libunistring 1.0's classes (unilbrk/lbrktables.h).
WJ, GL, B2, BA, BB, HY, CL, CP1, CP2, EX, IN, NS, OP1, OP2, QU, IS, NU, PO, PR, SY = range(20)
AL, H2, H3, ID1, ID2, JL, JV, JT, HL, RI, ZWJ, EB, EM = range(20, 33)
BK, CR, LF, CM, ZW, SP, CB, AI, SA, XX = range(33, 43)
HL_BA = 100

POSSIBLE, PROHIBITED, MANDATORY, UNDEFINED = 1, 2, 3, 0

_LB_STARTS = [r[0] for r in LINE_BREAK]
_W_STARTS = [r[0] for r in WIDTH]
_PAIRS = [[int(c) for c in row] for row in PAIRS]
_D, _I, _P = 1, 2, 3


@lru_cache(maxsize=8192)
def _lookup(uc: int, starts: tuple, table: tuple, default: int) -> int:
    i = bisect_right(starts, uc) - 1
    if i >= 0 and table[i][0] <= uc <= table[i][1]:
        return table[i][2]
    return default


_LB_KEY = tuple(_LB_STARTS)
_W_KEY = tuple(_W_STARTS)
_ASCII_LB = [_lookup(c, _LB_KEY, LINE_BREAK, AL) for c in range(128)]
_ASCII_W = [_lookup(c, _W_KEY, WIDTH, 1) for c in range(128)]


def lb_class(ch: str) -> int:
    uc = ord(ch)
    return _ASCII_LB[uc] if uc < 128 else _lookup(uc, _LB_KEY, LINE_BREAK, AL)


def uc_width(ch: str) -> int:
    """Columns of one character as libunistring's ``uc_width`` counts them (-1: control)."""
    uc = ord(ch)
    return _ASCII_W[uc] if uc < 128 else _lookup(uc, _W_KEY, WIDTH, 1)


_CLASS_OF: dict[str, int] = {}
_WIDTH_OF: dict[str, int] = {}


def _classes(text: str) -> list[int]:
    get = _CLASS_OF.get
    out = [get(c, -1) for c in text]
    if -1 in out:
        for c in set(text):
            _CLASS_OF.setdefault(c, lb_class(c))
        out = [_CLASS_OF[c] for c in text]
    return out


def _widths(text: str) -> list[int]:
    """Columns of each character; control characters (uc_width -1) count 0, as GNU ignores them."""
    get = _WIDTH_OF.get
    out = [get(c, -1) for c in text]
    if -1 in out:
        for c in set(text):
            _WIDTH_OF.setdefault(c, max(uc_width(c), 0))
        out = [_WIDTH_OF[c] for c in text]
    return out


def text_width(text: str) -> int:
    return sum(_widths(text))


def possible_linebreaks(text: str) -> list[int]:
    """For each character: may a line break before it (libunistring ``u8_possible_linebreaks``)."""
    p = [PROHIBITED] * len(text)
    prev_prop = last_prop = BK
    seen_space = False
    ri_count = 0
    for i, prop in enumerate(_classes(text)):
        if prop in (BK, LF, CR):
            p[i] = MANDATORY
            prev_prop = prop
            last_prop = BK
            seen_space = False
        else:
            if prop == AI:
                prop = AL
            elif prop == CB:
                prop = ID1
            elif prop in (SA, XX):
                prop = AL
            if prop == SP:
                p[i] = PROHIBITED
                seen_space = True
            elif prop == ZW:
                p[i] = PROHIBITED
                last_prop = ZW
                seen_space = False
            elif prop in (CM, ZWJ):
                if last_prop == BK:
                    p[i] = PROHIBITED
                    last_prop = AL
                    seen_space = False
                elif last_prop == ZW or seen_space:
                    p[i] = POSSIBLE
                    last_prop = AL
                    seen_space = False
                else:
                    p[i] = PROHIBITED
            else:
                if last_prop == BK:
                    p[i] = PROHIBITED
                elif last_prop == ZW:
                    p[i] = POSSIBLE
                elif prev_prop == ZWJ:
                    p[i] = PROHIBITED
                elif last_prop == RI and prop == RI:
                    p[i] = POSSIBLE if seen_space or ri_count % 2 == 0 else PROHIBITED
                elif prev_prop == HL_BA:
                    p[i] = PROHIBITED
                else:
                    rule = _PAIRS[last_prop][prop]
                    if rule == _D:
                        p[i] = POSSIBLE
                    elif rule == _I:
                        p[i] = POSSIBLE if seen_space else PROHIBITED
                    else:
                        p[i] = PROHIBITED
                last_prop = prop
                seen_space = False
            prev_prop = HL_BA if prev_prop == HL and prop in (HY, BA) else prop
        ri_count = ri_count + 1 if prop == RI else 0
    return p


def width_linebreaks(text: str, width: int, start_column: int, overrides: list[int]) -> list[int]:
    """Indices before which a line is broken (libunistring ``u8_width_linebreaks``)."""
    p = possible_linebreaks(text)
    breaks = []
    last_p = None
    last_column = start_column
    piece_width = 0
    for i, w in enumerate(_widths(text)):
        if overrides[i] != UNDEFINED:
            p[i] = overrides[i]
        if p[i] in (POSSIBLE, MANDATORY):
            if last_p is not None and last_column + piece_width > width:
                breaks.append(last_p)
                last_column = 0
        if p[i] == MANDATORY:
            last_p = None
            last_column = 0
            piece_width = 0
        else:
            if p[i] == POSSIBLE:
                last_p = i
                last_column += piece_width
                piece_width = 0
            piece_width += w
    if last_p is not None and last_column + piece_width > width:
        breaks.append(last_p)
    return breaks


import re

# Directives of the format strings GNU parses while writing (format-c.c, format-python.c): a
# line is never broken inside one. Other format languages are not parsed here.
FORMAT_DIRECTIVES = {
    "c-format": re.compile(r"%(?:[0-9]+\$)?[-+ #0'I]*(?:\*(?:[0-9]+\$)?|[0-9]+)?(?:\.(?:\*(?:[0-9]+\$)?|[0-9]*))?"
                           r"[hlLqjzZt]*[diouxXeEfFgGaAcCsSpnm%]"),
    "python-format": re.compile(r"%(?:\([^)]*\))?[-+ #0]*(?:\*|[0-9]+)?(?:\.(?:\*|[0-9]+))?[hlL]?[diouxXeEfFgGcrsa%]"),
}


def directive_spans(value: str, flags) -> list[tuple[int, int]]:
    """(start, end) of each format directive in ``value`` for the first format flag set; none
    when the string is not a valid format string (GNU then protects nothing)."""
    for flag in flags or ():
        pattern = FORMAT_DIRECTIVES.get(flag)
        if pattern is None:
            continue
        spans, kinds = [], set()
        at = value.find("%")
        while at >= 0:
            m = pattern.match(value, at)
            if m is None:
                return []
            spans.append(m.span())
            if not m.group().endswith("%"):
                if flag == "c-format":
                    kinds.add("$" in m.group())
                else:
                    kinds.add(m.group().startswith("%("))
            at = value.find("%", m.end())
        return [] if len(kinds) > 1 else spans  # numbered with unnumbered, named with unnamed
    return []


_ESCAPES = {"\a": "a", "\b": "b", "\f": "f", "\n": "n", "\r": "r", "\t": "t", "\v": "v", '"': '"', "\\": "\\"}
_ESCAPE_TABLE = str.maketrans({c: "\\" + e for c, e in _ESCAPES.items()})


def wrap(name: str, value: str, prefix: str = "", page_width: int = 79, do_wrap: bool = True, flags=()) -> list[str]:
    """The lines of ``prefix + name "value"`` exactly as GNU gettext 0.21's write-po.c writes them."""
    fmt = tuple(f for f in flags or () if f in FORMAT_DIRECTIVES)[:1]
    return list(_wrap(name, value, prefix, page_width, do_wrap, fmt))


@lru_cache(maxsize=1 << 16)
def _wrap(name: str, value: str, prefix: str, page_width: int, do_wrap: bool, flags: tuple) -> tuple[str, ...]:
    # a catalog and its template share most strings: each is laid out once per process
    return tuple(_layout(name, value, prefix, page_width, do_wrap, flags))


def _layout(name: str, value: str, prefix: str, page_width: int, do_wrap: bool, flags: tuple) -> list[str]:
    lines: list[str] = []
    startcol_after_break = len(prefix) + 1
    width = (page_width if do_wrap else 2**31 - 1) - 1 - startcol_after_break
    if "\n" not in value[:-1]:
        # Fast path: when the whole string fits after the keyword no piece can overflow, so GNU
        # writes one line (the full algorithm below gives the same).
        escaped = value.translate(_ESCAPE_TABLE)
        columns = len(escaped) if escaped.isascii() and escaped.isprintable() else text_width(escaped)
        if len(prefix) + len(name) + 1 + 1 - startcol_after_break + columns <= width:
            return [f'{prefix}{name} "{escaped}"']
    first_line = True
    s = 0
    n = len(value)
    inside = [False] * n
    for a, b in directive_spans(value, flags):
        for k in range(a + 1, b):
            inside[k] = True
    while True:
        es = value.find("\n", s)
        es = n if es < 0 else es + 1
        chars: list[str] = []
        overrides: list[int] = []
        for k in range(s, es):
            c = value[k]
            e = _ESCAPES.get(c)
            if e is not None:
                chars += ("\\", e)
                overrides += (PROHIBITED if inside[k] else UNDEFINED, PROHIBITED)
            else:
                chars.append(c)
                overrides.append(PROHIBITED if inside[k] else UNDEFINED)
        portion = "".join(chars)
        if es > s and value[es - 1] == "\n":
            overrides[len(portion) - 2] = PROHIBITED
        while True:
            startcol = len(prefix)
            if first_line:
                startcol += len(name) + 1
            startcol += 1 - startcol_after_break
            breaks = width_linebreaks(portion, width, startcol, overrides)
            if first_line and portion and (es < n or startcol > width or breaks):
                lines.append(f'{prefix}{name} ""')
                first_line = False
                continue
            break
        bounds = [0] + breaks + [len(portion)]
        for k in range(len(bounds) - 1):
            piece = portion[bounds[k]:bounds[k + 1]]
            if first_line and k == 0:
                lines.append(f'{prefix}{name} "{piece}"')
            else:
                lines.append(f'{prefix}"{piece}"')
        first_line = False
        s = es
        if s >= n:
            break
    return lines
