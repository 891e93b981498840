"""The layout of a PO string: ``keyword "text"`` broken into lines as GNU msgcat 0.21 writes it.

msgcat, msgmerge, Poedit and Weblate give every string one layout, so a catalog rewritten here
must lay strings out the same way or every save churns a translator's diff. The layout, as the
gettext manual documents it and as msgcat's output shows it:

- the string is escaped (``\\n``, ``\\t``, ``\\"``, ``\\\\``…) and cut after each ``\\n``; a
  string of more than one piece, or one that does not fit after the keyword, starts with
  ``keyword ""`` and puts each piece on lines of its own;
- a piece wider than the page (79 columns, closing quote included) is broken greedily at the
  line-break opportunities of the Unicode line-breaking algorithm (UAX #14), counting screen
  columns: East Asian wide characters take 2, combining marks and format characters 0; a word
  wider than a line stands alone on its line;
- an escape sequence is never broken, nor the space before a ``\\n`` that ends a piece, nor a
  ``c-format`` or ``python-format`` directive before the point where the string stops being a
  valid format string.

The line-break classes are the Unicode Character Database's, as the ``uniseg`` library ships
them; the rules are UAX #14's (its pair-table form), with the tailorings a black-box comparison
with msgcat 0.21 shows: the rules of Unicode 14 (not the later LB15a-d, LB19a, LB20a and
LB28a), no LB29 (msgcat breaks after the ``.`` of ``e.g.`` and ``name.attr``), South-East Asian
letters (Thai, Khmer...) kept together as letters, conditional Japanese starters as
non-starters, no break after the spaces that open a piece, and after a character of mandatory
break (U+2028, U+0085) the columns counted again from the start of a line, without a break.
Columns come from the East Asian width and the general category of Python's ``unicodedata``.

Most strings of a catalog (one-column characters, no line feed, mark, joiner or format
directive) are laid out a word at a time, with break opportunities asked once per distinct word
(see the end of this module); the others a character at a time. The two give the same lines
(tests/test_powrap_words.py), and the time to write a catalog grows with its size only.

Measured with ``benchmarks/msgcat_rate.py`` (docs/performance.md): the catalogs shipped in the
wheels of Django 5.2 (1 179), Wagtail 8.0 (1 013) and Sphinx 9.0 (67) are each written byte
for byte as msgcat writes them (0 of 2 259 differ). On 20 000 strings of the test alphabet
(tests/test_po_msgcat.py) the break opportunities are those of the libunistring 1.0 that msgcat
uses; mixed with random code points of every plane they differ in 23 of 20 000 strings, at a
Dives Akuru digit, the Brahmi punctuation dot, a Greek musical symbol and code points not
assigned in Unicode 14.

Known differences from msgcat: flags GNU does not know are kept (GNU drops them); only C and
Python format directives are kept whole (GNU parses some twenty format languages); in a
``python-brace-format`` string with a ``{name}`` directive, msgcat sometimes does not break
before a word longer than the line, where this writer does.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

# ---------------------------------------------------------------------------------------------
# Columns

# Measured against msgcat: these few spacing-looking marks take a column there.
_ONE_COLUMN_MARKS = frozenset("\u0cbf\u0cc6\U00011a07\U00011a08\U00011c3f")
_WIDTH: dict[str, int] = {}


def char_width(ch: str) -> int:
    """Screen columns of one character: 2 for East Asian wide and fullwidth ones, 0 for
    combining marks, format and control characters and Hangul medial and final jamo, else 1."""
    w = _WIDTH.get(ch)
    if w is None:
        w = _WIDTH[ch] = _char_width(ch)
    return w


def _char_width(ch: str) -> int:
    cat = unicodedata.category(ch)
    if cat == "Cn":  # unassigned: planes 2 and 3 are reserved for ideographs (UAX #11)
        return 2 if 0x20000 <= ord(ch) <= 0x3FFFD else 1
    if cat in ("Mn", "Me", "Cf", "Cc") and ch not in _ONE_COLUMN_MARKS:
        return 0
    if "\u1160" <= ch <= "\u11ff" or "\ud7b0" <= ch <= "\ud7ff":  # Hangul jamo after the initial
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def widths(text: str) -> list[int]:
    """The columns of each character of ``text``."""
    if text.isascii() and text.isprintable():
        return [1] * len(text)
    get = _WIDTH.get
    out = [get(c, -1) for c in text]
    if -1 in out:
        out = [char_width(c) for c in text]
    return out


def text_width(text: str) -> int:
    if text.isascii() and text.isprintable():
        return len(text)
    return sum(widths(text))


# ---------------------------------------------------------------------------------------------
# Line-break opportunities (UAX #14)

_NAMES = ("BK CR LF CM ZW SP ZWJ WJ GL BA BB B2 HY CB CL CP EX IN NS OP QU IS NU PO PR SY "
          "AL HL ID EB EM H2 H3 JL JV JT RI").split()
(BK, CR, LF, CM, ZW, SP, ZWJ, WJ, GL, BA, BB, B2, HY, CB, CL, CP, EX, IN, NS, OP, QU, IS, NU, PO,
 PR, SY, AL, HL, ID, EB, EM, H2, H3, JL, JV, JT, RI) = range(len(_NAMES))
_CODE = dict(zip(_NAMES, range(len(_NAMES))))
# LB1 and the classes newer than Unicode 14, resolved as msgcat resolves them
_CODE.update(AI=AL, SG=AL, XX=AL, SA=AL, CJ=NS, NL=BK, AK=AL, AP=AL, AS=AL, VI=CM, VF=CM)
_CLASS: dict[str, int] = {}

_MANDATORY = frozenset((BK, CR, LF))
_HANGUL = frozenset((JL, JV, JT, H2, H3))
_LETTERS = frozenset((AL, HL))
# LB11, LB13, LB14, LB15 (Unicode 14), LB16, LB17: no break, even after spaces
_NEVER_BEFORE = frozenset((CL, CP, EX, IS, SY, WJ))
_NEVER_AFTER_SPACES = frozenset(((QU, OP), (CL, NS), (CP, NS), (B2, B2)))


def line_break_class(ch: str) -> int:
    cls = _CLASS.get(ch)
    if cls is None:
        from uniseg.linebreak import line_break  # the Unicode Character Database's Line_Break

        cls = _CLASS[ch] = _CODE[line_break(ch).value]
    return cls


def _east_asian(ch: str) -> bool:
    return unicodedata.east_asian_width(ch) in ("F", "W", "H")


_DEPENDS = 2  # LB30: joined unless the parenthesis is East Asian wide


def _joined(before: int, after: int) -> int:
    """Whether UAX #14 keeps ``before after`` together when no space separates them (LB11 to
    LB30b, with LB29 left out): 1 yes, 0 no, ``_DEPENDS`` on the parenthesis's width."""
    if before == GL or before == WJ:
        return True  # LB11, LB12
    if after == GL:
        return before not in (BA, HY)  # LB12a
    if before == QU or after == QU:
        return True  # LB19
    if before == CB or after == CB:
        return False  # LB20
    if after in (BA, HY, NS) or before == BB:
        return True  # LB21
    if before == SY and after == HL:
        return True  # LB21b
    if after == IN:
        return True  # LB22
    if before in _LETTERS:
        if after == NU or after in _LETTERS or after in (PR, PO):
            return True  # LB23, LB28, LB24
        return _DEPENDS if after == OP else False  # LB30
    if before == NU:
        if after in _LETTERS or after in (NU, PO, PR):
            return True  # LB23, LB25
        return _DEPENDS if after == OP else False  # LB30
    if before in (PR, PO):
        if after in _LETTERS or after in (NU, OP):
            return True  # LB24, LB25
        if before == PR:
            return after in (ID, EB, EM) or after in _HANGUL  # LB23a, LB27
        return False
    if before in (ID, EB, EM):
        return after == PO or (before == EB and after == EM)  # LB23a, LB30b
    if before in (CL, CP):
        if after in (PO, PR):
            return True  # LB25
        return _DEPENDS if before == CP and (after in _LETTERS or after == NU) else False  # LB30
    if before in (HY, IS, SY):
        return after == NU  # LB25
    if before in _HANGUL:
        if after == PO:
            return True  # LB27
        if before == JL:
            return after in (JL, JV, H2, H3)  # LB26
        if before in (JV, H2):
            return after in (JV, JT)
        return after == JT
    return False  # LB31


_PAIRS = [[int(_joined(b, a)) for a in range(len(_NAMES))] for b in range(len(_NAMES))]


def _classes(text: str) -> list[int]:
    get = _CLASS.get
    out = [get(c, -1) for c in text]
    if -1 in out:
        out = [line_break_class(c) for c in text]
    return out


def break_opportunities(text: str) -> list[bool]:
    """For each index of ``text``: may a line break before this character."""
    can = [False] * len(text)
    before = -1  # the class of the last character that is not a space; -1: none yet
    bch = ""
    spaces = after_zwj = False
    hl_dash = False  # HL (HY | BA): LB21a
    ri = 0  # regional indicators in a row
    for i, cls in enumerate(_classes(text)):
        if cls in _MANDATORY:  # LB4, LB5: the next line starts here
            before, spaces, after_zwj, ri = -1, False, False, 0
            continue
        if cls == SP:  # LB7
            spaces = before != -1
            continue
        if cls == ZW:  # LB7, LB8
            before, spaces, after_zwj, ri = ZW, False, False, 0
            continue
        if cls == CM or cls == ZWJ:
            if before != -1 and before != ZW and not spaces:
                after_zwj = cls == ZWJ  # LB9: the mark belongs to the character before it
                continue
            can[i] = before == ZW or spaces  # LB10: alone, a mark is a letter
            cls = AL
        elif before == -1:
            pass
        elif before == ZW or (spaces and (before, cls) not in _NEVER_AFTER_SPACES and cls not in _NEVER_BEFORE
                              and before != OP):
            can[i] = True  # LB8, LB18
        elif after_zwj or spaces:
            pass  # LB8a, or a rule that holds across spaces
        elif cls in _NEVER_BEFORE or before == OP:
            pass
        elif before == RI and cls == RI:
            can[i] = ri % 2 == 0  # LB30a
        elif hl_dash:
            pass  # LB21a (Unicode 14: whatever follows)
        else:
            joined = _PAIRS[before][cls]
            if joined == _DEPENDS:
                joined = not _east_asian(text[i] if cls == OP else bch)
            can[i] = not joined
        hl_dash = before == HL and (cls == HY or cls == BA) and not spaces
        ri = ri + 1 if cls == RI and not spaces else (1 if cls == RI else 0)
        before, bch, spaces, after_zwj = cls, text[i], False, False
    return can


# ---------------------------------------------------------------------------------------------
# Format directives: a line is never broken inside one

_C_DIRECTIVE = re.compile(
    r"%(?P<num>[0-9]+\$)?[-+ #0'I]*(?:\*(?:[0-9]+\$)?|[0-9]+)?(?:\.(?:\*(?:[0-9]+\$)?|[0-9]*))?"
    r"[hlLqjzZt]*[diouxXeEfFgGaAcCsSpnm%]")  # msgcat takes any run of size letters
_PY_DIRECTIVE = re.compile(r"%(?P<num>\([^)]*\))?[-+ #0]*(?:\*|[0-9]+)?(?:\.(?:\*|[0-9]+))?[hlL]?[diouxXeEfFgGcrsa%]")
DIRECTIVES = {"c-format": _C_DIRECTIVE, "python-format": _PY_DIRECTIVE}


def directive_spans(value: str, flag: str) -> list[tuple[int, int]]:
    """(start, end) of each directive of ``value`` up to where it stops being a valid format
    string (a ``%`` that starts no directive, or numbered or named arguments mixed with plain
    ones): as msgcat, the directives before that point are kept whole, none after it."""
    pattern = DIRECTIVES[flag]
    spans: list[tuple[int, int]] = []
    numbered = None
    at = value.find("%")
    while at != -1:
        m = pattern.match(value, at)
        if m is None:
            break
        if value[m.end() - 1] != "%":
            if numbered is None:
                numbered = m.group("num") is not None
            elif numbered != (m.group("num") is not None):
                break
        spans.append(m.span())
        at = value.find("%", m.end())
    return spans


# ---------------------------------------------------------------------------------------------
# Layout

_ESCAPES = {"\a": "a", "\b": "b", "\f": "f", "\n": "n", "\r": "r", "\t": "t", "\v": "v", '"': '"', "\\": "\\"}
_ESCAPE_TABLE = str.maketrans({c: "\\" + e for c, e in _ESCAPES.items()})


def wrap(keyword: str, value: str, prefix: str = "", page_width: int = 79, do_wrap: bool = True, flags=()) -> list[str]:
    """The lines of ``prefix keyword "value"`` as msgcat writes them; ``flags``: the entry's
    flags (the first of ``c-format``/``python-format`` protects its directives).

    Laid out a word at a time (:func:`_wrap_words`) when the string allows it, else a character
    at a time (:func:`wrap_by_character`); the two give the same lines."""
    fmt = next((f for f in flags or () if f in DIRECTIVES), "")
    width = page_width if do_wrap else 1 << 62
    if "\n" not in value and not (fmt and "%" in value) and _plain(value):
        return _wrap_words(keyword, value, prefix, width)
    return list(_wrap(keyword, value, prefix, width, fmt))


def wrap_by_character(keyword: str, value: str, prefix: str = "", page_width: int = 79, do_wrap: bool = True,
                      flags=()) -> list[str]:
    """:func:`wrap` computed a character at a time, whatever the string: the reference the
    word-at-a-time layout is compared with (tests/test_powrap_words.py)."""
    fmt = next((f for f in flags or () if f in DIRECTIVES), "")
    return list(_wrap.__wrapped__(keyword, value, prefix, page_width if do_wrap else 1 << 62, fmt))


@lru_cache(maxsize=1 << 12)
def _wrap(keyword: str, value: str, prefix: str, page_width: int, fmt: str) -> tuple[str, ...]:
    # only the strings the word-at-a-time layout leaves here (line feeds, wide characters,
    # marks, format directives...): few in a catalog, and kept while the same ones come again
    head = f"{prefix}{keyword} "
    last = page_width - 1  # the last column a piece may reach: the closing quote ends the line
    if "\n" not in value[:-1]:
        escaped = value.translate(_ESCAPE_TABLE)
        if len(head) + 1 + text_width(escaped) <= last:
            return (f'{head}"{escaped}"',)
    directives = directive_spans(value, fmt) if fmt and "%" in value else []
    pieces = []  # (offset in value, the piece up to and with its "\n")
    start = 0
    while True:
        end = value.find("\n", start) + 1 or len(value)
        pieces.append((start, value[start:end]))
        if end >= len(value):
            break
        start = end
    if len(pieces) == 1:
        first = _break(value, 0, directives, len(head) + 1, last)
        if len(first) == 1:
            return (f'{head}"{first[0]}"',)  # a word too long for the line, alone on it
    lines = [f'{head}""']
    for offset, piece in pieces:
        lines += (f'{prefix}"{line}"' for line in _break(piece, offset, directives, len(prefix) + 1, last))
    return tuple(lines)


_ESCAPE_SEQUENCE = re.compile(r"\\.")


def _break(piece: str, offset: int, directives: list[tuple[int, int]], column: int, last: int) -> list[str]:
    """The escaped ``piece`` (at ``offset`` in its string) in lines, the first starting at
    ``column`` as every other: a line takes runs (from one break opportunity to the next)
    while the run ends by the column ``last``; a run wider than a line stands alone on its line."""
    text = piece.translate(_ESCAPE_TABLE)
    cols = widths(text)
    if column + sum(cols) <= last:
        return [text]
    can = break_opportunities(text)
    for m in _ESCAPE_SEQUENCE.finditer(text):
        can[m.start() + 1] = False  # an escape sequence is never broken
    if piece.endswith("\n"):
        can[-2] = False  # the space before a final "\n" stays on its line
    if directives:
        at = [0] * (len(piece) + 1)  # index in ``text`` of each character of ``piece``
        for k, c in enumerate(piece):
            at[k + 1] = at[k] + (2 if c in _ESCAPES else 1)
        for a, b in directives:
            for k in range(max(a + 1, offset), min(b, offset + len(piece))):
                can[at[k - offset]] = False  # never inside a directive
    # after a character of mandatory break (U+2028, U+2029, U+0085) msgcat counts columns again
    # from the start of a line, without breaking the line there
    hard = [i + 1 for i, c in enumerate(text) if line_break_class(c) in _MANDATORY] if not text.isascii() else []
    lines = []
    start = run = 0
    col = column
    width = 0
    glued = False  # the run after a mandatory break stays on its line
    for i, w in enumerate(cols):
        if i and can[i] or hard and i in hard:
            if run > start and not glued and col + width > last:
                lines.append(text[start:run])
                start, col = run, column
            col += width
            run, width, glued = i, 0, False
            if hard and i in hard:
                col, glued = column, True
        width += w
    if run > start and not glued and col + width > last:
        lines.append(text[start:run])
        start = run
    lines.append(text[start:])
    return lines


# ---------------------------------------------------------------------------------------------
# The same layout a word at a time
#
# In a string without a line feed, whose characters are each one column wide and none a mark,
# a joiner, a character of mandatory break, a zero-width space, a regional indicator, a Hebrew
# letter or a space other than U+0020 (no format directive kept whole either), the break
# opportunities inside a run of non-space characters depend on that run alone, and the one
# before a run on its first character and the last character of the run before (one space or
# several between them, as UAX #14 reads spaces). Both are asked of break_opportunities once per
# distinct run or pair and kept for the process: the cost of a catalog grows with its length,
# not with the number of strings a memo of whole strings would have to hold.

_UNPLAIN = frozenset((BK, CR, LF, CM, ZWJ, ZW, RI, HL, SP))
_PLAIN: dict[str, bool] = {}  # per character: may a string with it be laid out a word at a time
_JOINED = dict.fromkeys(map(ord, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"))
"""Letters and digits (classes AL and NU): never a break between two of them (str.translate
drops them, so a word of only these has no break inside)."""
_INNER: dict[str, tuple[int, ...]] = {}  # run -> the indexes inside it where a line may break
_BEFORE: dict[tuple[str, str], bool] = {}  # (last of a run, first of the next) -> break before the next
_QUOTE_TABLE = str.maketrans({'"': '\\"', "\\": "\\\\"})


def _plain(text: str) -> bool:
    if text.isascii():
        return text.isprintable()
    plain = _PLAIN
    for c in set(text):
        ok = plain.get(c)
        if ok is None:
            cls = line_break_class(c)
            ok = plain[c] = c == " " or (char_width(c) == 1 and unicodedata.category(c)[0] != "C" and cls not in _UNPLAIN)
            if ok and cls in (AL, NU):
                _JOINED[ord(c)] = None
        if not ok:
            return False
    return True


def _word_breaks(text: str) -> list[int]:
    """The indexes of the escaped ``text`` before which a line may break."""
    breaks: list[int] = []
    pos = 0
    last = ""  # the last character of the run before; "": none (no break after opening spaces)
    inner, before = _INNER, _BEFORE
    for word in text.split(" "):
        if word:
            if last:
                ok = before.get((last, word[0]))
                if ok is None:
                    ok = before[last, word[0]] = break_opportunities(f"{last} {word[0]}")[2]
                if ok:
                    breaks.append(pos)
            if word.translate(_JOINED):  # not only letters and digits
                at = inner.get(word)
                if at is None:
                    can = break_opportunities(word)
                    for m in _ESCAPE_SEQUENCE.finditer(word):
                        can[m.start() + 1] = False  # an escape sequence is never broken
                    if len(inner) > 1 << 20:
                        inner.clear()
                    at = inner[word] = tuple(k for k, c in enumerate(can) if c)
                breaks.extend(pos + k for k in at)
            last = word[-1]
        pos += len(word) + 1
    return breaks


def _break_words(text: str, breaks: list[int], column: int, last: int) -> list[str]:
    # _break with every character one column wide and no mandatory break
    if column + len(text) <= last:
        return [text]
    lines = []
    start = run = 0
    col = column
    for b in breaks:
        width = b - run
        if run > start and col + width > last:
            lines.append(text[start:run])
            start, col = run, column
        col += width
        run = b
    if run > start and col + len(text) - run > last:
        lines.append(text[start:run])
        start = run
    lines.append(text[start:])
    return lines


def _wrap_words(keyword: str, value: str, prefix: str, page_width: int) -> list[str]:
    head = f"{prefix}{keyword} "
    last = page_width - 1
    text = value.translate(_QUOTE_TABLE) if '"' in value or "\\" in value else value
    if len(head) + 1 + len(text) <= last:
        return [f'{head}"{text}"']
    breaks = _word_breaks(text)
    first = _break_words(text, breaks, len(head) + 1, last)
    if len(first) == 1:
        return [f'{head}"{first[0]}"']  # a word too long for the line, alone on it
    return [f'{head}""'] + [f'{prefix}"{line}"' for line in _break_words(text, breaks, len(prefix) + 1, last)]
