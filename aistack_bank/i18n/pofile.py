"""The text of `.po`/`.pot` files: :func:`read_po` reads it, :func:`write_po` writes it.

Babel's ``read_po``/``write_po`` pair is the model, with GNU gettext as the reference for both
directions. :func:`read_po` is strict and single-pass: it checks the grammar as msgfmt does and
locates every error (line and column) while building the entries, and refuses a catalog with any
error instead of guessing (polib's own parser accepts broken escapes, a missing ``msgstr`` and
unterminated strings). :func:`write_po` writes what msgcat 0.21 writes, byte for byte (the layout
of strings is in :mod:`.powrap`). Entries are polib's ``POFile``/``POEntry`` objects, carrying
what the reader saw (line numbers, the header as read, comment lines) so that a catalog read and
written again does not change.
polib is kept for that model, which `bank i18n update` merges and `bank i18n compile` turns
into `.mo` files; its parser and writer are not used.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Mapping
from contextlib import contextmanager
from itertools import compress, count, repeat
from operator import is_, is_not, itemgetter, not_
from pathlib import Path
from typing import TYPE_CHECKING
from unicodedata import is_normalized

from ..errors import Diagnostic, Location, error
from ..safety import FORBIDDEN, character_problem

if TYPE_CHECKING:
    import polib

WRAP_WIDTH = 79
"""Line width of written catalogs: GNU gettext's default, so msgcat, Poedit and Weblate agree."""

_KEYWORD = re.compile(r"^(msgctxt|msgid_plural|msgid|msgstr\[[0-9]+\]|msgstr)[ \t]+(.*)$")
_CONFLICT = re.compile(r"^(<{7}|={7}|>{7})(?: |$)")
_GOOD_STRING = re.compile(r'"((?:[^"\\]|\\(?:[\\"ntrabfv]|[0-7]{1,3}|x[0-9A-Fa-f]+))*)"\s*')
_ESCAPE = re.compile(r'\\(?:[\\"ntrabfv]|[0-7]{1,3}|x[0-9A-Fa-f]+)')
_SIMPLE = {"\\\\": "\\", '\\"': '"', "\\n": "\n", "\\t": "\t", "\\r": "\r", "\\a": "\a", "\\b": "\b", "\\f": "\f", "\\v": "\v"}  # GNU refuses C's \\?


class _EscapeRange(ValueError):
    pass


def _unescape_match(m: re.Match) -> str:
    s = m.group()
    if s in _SIMPLE:
        return _SIMPLE[s]
    value = int(s[2:], 16) if s[1] == "x" and len(s) <= 10 else int(s[1:], 8) if s[1] != "x" else -1
    if not 0 <= value <= 0x10FFFF:
        raise _EscapeRange(s)
    return chr(value)


def _decode(body: str) -> str:
    return _ESCAPE.sub(_unescape_match, body) if "\\" in body else body


def _decode_checked(body: str, lineno: int, col: int, path: Path, diags: list[Diagnostic]) -> str:
    """``_decode`` plus the character rules on the decoded text, errors located at the string."""
    try:
        value = _decode(body)
    except _EscapeRange as exc:
        where = body.find(str(exc))
        diags.append(error("E501", f"escape {str(exc)[:12]!r} is out of range (above U+10FFFF)", Location.of(path, lineno, col + 1 + max(where, 0))))
        return ""
    if not (value.isascii() and value.isprintable()):
        problem = character_problem(value)
        if problem is not None:
            diags.append(error("E540", problem[2].replace("text is", "the string is"), Location.of(path, lineno, col)))
    return value


def _bad_string(text: str, lineno: int, col: int, path: Path) -> Diagnostic:
    """The precise error in a string that failed the fast pattern."""
    if not text.startswith('"'):
        return error("E501", f"expected a quoted string, found {text[:20]!r}", Location.of(path, lineno, col))
    i = 1
    while i < len(text):
        ch = text[i]
        if ch == "\\":
            m = _ESCAPE.match(text, i)
            if not m:
                return error("E501", f"invalid escape sequence {text[i:i + 2]!r} (use \\\\, \\\", \\n or \\t)", Location.of(path, lineno, col + i))
            i = m.end()
            continue
        if ch == '"':
            rest = text[i + 1:].strip()
            return error("E501", f"unexpected text after the closing quote: {rest[:20]!r}", Location.of(path, lineno, col + i + 1))
        i += 1
    return error("E501", "unterminated string (missing closing \")", Location.of(path, lineno, col + len(text)))


class _Entry:
    __slots__ = ("line", "obsolete", "tcomment", "comment", "occurrences", "flags", "previous", "fields", "order", "last", "last_previous", "lines", "has_msgstr")

    def __init__(self, line: int):
        self.line = line
        self.obsolete = False
        self.tcomment: list[str] = []
        self.comment: list[str] = []
        self.occurrences: list[tuple[str, str]] = []
        self.flags: list[str] = []
        self.previous: dict[str, str] = {}
        self.fields: dict[str, str] = {}
        self.order: list[tuple[str, int]] = []
        self.last: str | None = None
        self.last_previous: str | None = None
        self.has_msgstr = False  # a msgstr or msgstr[N] keyword in ``order``


_OWN = "+" if sys.version_info >= (3, 11) else ""
"""Makes the repeats of the patterns below possessive where Python has them (3.11): each is
followed by what its repeated part cannot start with (a class without the quote before a
quote, lines of one keyword before another), so giving a repeat back never lets a pattern
match; possessive, they match the same, without keeping the places to go back to."""

_STR = r'[^"\\\n\r]*' + _OWN + r'(?:\\(?:[\\"ntrabfv]|[0-7]{1,3}|x[0-9A-Fa-f]+)[^"\\\n\r]*' + _OWN + r')*' + _OWN
_FAST_BLOCK = re.compile(
    r'((?:#(?![~|])[^\n\r]*' + _OWN + r'\n)*' + _OWN + r')'
    r'(?:msgctxt "(' + _STR + r')"\n((?:"' + _STR + r'"\n)*' + _OWN + r'))?'
    r'msgid "(' + _STR + r')"\n((?:"' + _STR + r'"\n)*' + _OWN + r')'
    r'msgstr "(' + _STR + r')"\n((?:"' + _STR + r'"\n)*' + _OWN + r')'
    r'(\n*' + _OWN + r')')
"""One entry as msgcat, Poedit and this project write it: comments other than ``#|`` and
``#~``, an optional msgctxt, msgid and msgstr (each a keyword line and continuation lines, no
spaces around them), then blank lines."""
_FAST_PIECE = re.compile(r'"(' + _STR + r')"\n')


def read_entries(text: str, path: Path) -> tuple[list[_Entry] | None, list[Diagnostic]]:
    """The entries of ``text`` (None and every error located when it has any).

    A catalog made only of entries of the common shape (:data:`_FAST_BLOCK`) is read block by
    block with one pattern; the first block that has another shape (obsolete entries, previous
    msgids, plurals, stray spaces, carriage returns, errors), and any string a character rule
    refuses, sends the whole text to the line-by-line reader, which gives the same entries for
    every text both accept and locates every error."""
    entries = _read_entries_by_block(text if text.endswith("\n") else text + "\n", path)
    if entries is not None:
        return entries, []
    return _read_entries_by_line(text, path)


def _read_entries_by_block(text: str, path: Path) -> list[_Entry] | None:
    """The entries of ``text`` (which ends with a newline) when every block has the common
    shape and no string breaks a character rule; otherwise None."""
    pos = len(text) - len(text.lstrip("\n"))
    found = read_blocks(text, pos, pos + 1, path)
    return None if found is None else found[0]


def read_blocks(text: str, pos: int, lineno: int, path: Path) -> tuple[list[_Entry], list[int], int] | None:
    """The entries of ``text[pos:]`` (which starts a block, at line ``lineno``, and ends with a
    newline), where each block starts in ``text`` and the line after the last, when every block has the common shape
    (:data:`_FAST_BLOCK`) and no string breaks a character rule; otherwise None.

    A block's match reads nothing past the first character of the next block, so the blocks
    of a text are those of any text that shares its bytes up to that character (what
    :func:`aistack_bank.i18n.catalog.read_catalog` relies on to read again only the blocks
    an edit touched)."""
    entries: list[_Entry] = []
    starts: list[int] = []
    match = _FAST_BLOCK.match
    end = len(text)
    while pos < end:
        m = match(text, pos)
        if m is None or m.end() == pos:
            return None
        starts.append(pos)
        pos = m.end()
        e, lineno = _block(m, lineno, path)
        if e is None:
            return None
        entries.append(e)
    return entries, starts, lineno


def _block(m: re.Match, lineno: int, path: Path) -> tuple[_Entry | None, int]:
    """The entry of a match of :data:`_FAST_BLOCK` that starts at line ``lineno`` (None when a
    string breaks a character rule), and the line after the block."""
    diags: list[Diagnostic] = []
    pieces = _FAST_PIECE.findall
    comments, ctxt, ctxt_more, msgid, msgid_more, msgstr, msgstr_more, blank = m.groups()
    e = _Entry(lineno)
    if comments:
        for line in comments[:-1].split("\n"):
            _comment(e, line)
        lineno += comments.count("\n")
    for keyword, first, more in (("msgctxt", ctxt, ctxt_more), ("msgid", msgid, msgid_more), ("msgstr", msgstr, msgstr_more)):
        if first is None:
            continue
        e.order.append((keyword, lineno))
        # plain printable ASCII is its own value; the rest as the line reader decodes it
        value = first if first.isascii() and first.isprintable() and "\\" not in first else _decode_checked(first, lineno, 0, path, diags)
        lineno += 1
        if more:
            for piece in pieces(more):
                value += piece if piece.isascii() and piece.isprintable() and "\\" not in piece else _decode_checked(piece, lineno, 0, path, diags)
                lineno += 1
        e.fields[keyword] = value
    if diags:
        return None, lineno
    e.last = "msgstr"
    e.has_msgstr = True
    return e, lineno + len(blank)


_COMMON_BLOCK = re.compile(
    r'((?:#\. [^\n\r]*' + _OWN + r'\n)*' + _OWN + r')'
    r'#: ([!-9;-~]+' + _OWN + r'):([0-9]+' + _OWN + r')\n'
    r'(#, fuzzy\n)?'
    r'msgctxt "(' + _STR + r')"\n((?:"' + _STR + r'"\n)*' + _OWN + r')'
    r'msgid "(' + _STR + r')"\n((?:"' + _STR + r'"\n)*' + _OWN + r')'
    r'msgstr "(' + _STR + r')"\n((?:"' + _STR + r'"\n)*' + _OWN + r')'
    r'(\n*' + _OWN + r')')
"""The entry of a bank's catalog as written: notes (``#.`` and a space), one reference
(``path:line``, printable ASCII without a colon or space in the path), maybe ``#, fuzzy``, a
msgctxt, msgid and msgstr: a block of :data:`_FAST_BLOCK` whose comment lines need no reading one by one."""


def read_rows(text: str, pos: int, lineno: int, path: Path) -> tuple[list[tuple], list[int], int] | None:
    """:func:`read_blocks` with the entries as the rows :func:`light_rows` makes of them
    (the same rows, without an entry object per block of the bank's shape,
    :data:`_COMMON_BLOCK`): the rows of ``text[pos:]``, where each block starts and the line
    after the last, or None where :func:`read_blocks` gives None.

    The character rules and the escapes are looked for in the whole text once: when no
    character of it breaks a rule (:func:`_allowed_throughout`), no block's strings are
    checked one by one (see :func:`_unescaped_refused`); a block's strings are decoded only
    when a backslash is in them (the next backslash of the text is kept, so a block without
    one costs a comparison)."""
    rows: list[tuple] = []
    starts: list[int] = []
    append = rows.append
    mark = starts.append
    common = _COMMON_BLOCK.match
    match = _FAST_BLOCK.match
    count = text.count
    shared: dict[str, str] = {}
    share = shared.setdefault
    notes_read: dict[str, tuple[str, tuple[list, list[str]]]] = {}
    end = len(text)
    checked = _allowed_throughout(text)  # (then no block's strings break a rule)
    backslash = text.find("\\", pos)
    if backslash < 0:
        backslash = end
    while pos < end:
        m = common(text, pos)
        if m is None:
            m = match(text, pos)
            if m is None or m.end() == pos:
                return None
            mark(pos)
            pos = m.end()
            e, lineno = _block(m, lineno, path)
            if e is None:
                return None
            append(_row(e, shared))
            if backslash < pos:
                backslash = text.find("\\", pos)
                if backslash < 0:
                    backslash = end
            continue
        mark(pos)
        line = lineno
        notes, ref, number, fuzzy, ctxt, ctxt_more, msgid, msgid_more, msgstr, msgstr_more, _ = m.groups()
        start = pos
        pos = m.end()
        if backslash < pos and text.find("\\", m.start(5), m.end(10)) >= 0:
            # the strings with an escape: decoded and checked one by one
            found = _strings(((ctxt, ctxt_more), (msgid, msgid_more), (msgstr, msgstr_more)), 0, path)
            if found is None:
                return None
            ctxt, msgid, msgstr, _ = found
        else:
            # no escape: each string is its value, checked as _strings checks it
            if not checked and _unescaped_refused(text[m.start(5):m.end(10)]):
                return None
            if ctxt_more:
                ctxt += ctxt_more[1:-2].replace('"\n"', "")
            if msgid_more:
                msgid += msgid_more[1:-2].replace('"\n"', "")
            if msgstr_more:
                msgstr += msgstr_more[1:-2].replace('"\n"', "")
        lineno += count("\n", start, pos)
        if backslash < pos:
            backslash = text.find("\\", pos)
            if backslash < 0:
                backslash = end
        if notes:
            found_notes = notes_read.get(notes)
            if found_notes is None:
                comment = notes[3:-1].replace("\n#. ", "\n")
                found_notes = notes_read[notes] = (share(comment, comment), ([], comment.split("\n")))
            comment, comment_lines = found_notes
        else:
            comment, comment_lines = "", _NO_COMMENT_LINES
        append((ctxt, msgid, msgstr, "", _NO_PLURALS, [(share(ref, ref), number)], comment, "",
                _FUZZY if fuzzy else _NO_FLAGS, None, None, None, False, comment_lines, _NO_LINES, line))
    return rows, starts, lineno


_NO_PLURALS: dict = {}
"""The msgstr_plural of every stored entry without plural forms (one object: light entries are read, never changed)."""
_NO_FLAGS: list[str] = []
_FUZZY = ["fuzzy"]
_NO_LINES: list = []
_NO_COMMENT_LINES: tuple[list[str], list[str]] = ([], [])
"""The flags, plural lines and comment lines (no translator comment, no note) that many rows of
:func:`read_rows` and :func:`read_rows_bytes` hold, one object each, as :data:`_NO_PLURALS`
(and a block's comment lines one object per notes: those of the same notes are equal): the
checks never read most of them, and a row of the bank's shape is then three fresh objects (its
entry, its reference's list and pair) instead of nine. Nothing changes a light entry's values."""


def _unescaped_refused(strings: str) -> bool:
    """Whether strings written without an escape (their keywords, quotes and the newlines
    between them included) break a character rule as :func:`_strings` checks it: a text is
    free of forbidden characters and NFC iff each of its parts between them is."""
    if strings.isascii():
        return not strings.isprintable() and FORBIDDEN.search(strings) is not None
    return FORBIDDEN.search(strings) is not None or not is_normalized("NFC", strings)


_PLAIN_ASCII = bytes(range(0x20, 0x7F)) + b"\t\n"
"""The characters a string may hold that need no look at their neighbours (as bytes)."""

_INERT_RANGES = ((0xA0, 0x300), (0x2010, 0x2028), (0x202F, 0x2060), (0x20A0, 0x20C0))
_INERT = frozenset(map(chr, [c for first, after in _INERT_RANGES for c in range(first, after)]))
"""Characters that are their own NFC, combine with no other (not one a composition takes as its
second) and have no combining class: a text of them and printable ASCII, tab and newline is NFC
whatever their order (`tests/test_catalog_read_text.py` checks each against unicodedata). Kept
by the Unicode stability policy in every later version."""
_NOT_INERT = re.compile("[^" + "".join(f"\\u{first:04x}-\\u{after - 1:04x}" for first, after in _INERT_RANGES) + "]")
"""Any character not of :data:`_INERT`. None of :data:`_INERT` is forbidden
(:data:`~aistack_bank.safety.FORBIDDEN` is a class of single characters, and a test checks each),
so a text whose characters are all of :data:`_INERT` holds no forbidden one."""


def _allowed_throughout(text: str) -> bool:
    """Whether no character of ``text`` is forbidden and ``text`` is NFC: then no string of it
    breaks a rule :func:`_unescaped_refused` checks (each is a part of the text between quotes
    and newlines, which compose with nothing). False when that is not certain: the strings are
    then checked one by one.

    In C over the text's bytes, a piece of :data:`_PIECE` characters at a time (no copy of
    the whole text is made): its printable ASCII, tabs and newlines left out, the characters
    that remain (about 2 % of a bank's catalog) are searched for forbidden ones, and when all
    are :data:`_INERT`, the text is NFC without asking unicodedata for the whole text. A piece
    of characters up to U+00FF (a template's, most often) is looked at as its Latin-1 bytes,
    without encoding it as UTF-8 (:data:`_PLAIN_LATIN_1`)."""
    found: set[str] = set()
    for at in range(0, len(text), _PIECE):
        piece = text[at:at + _PIECE]
        try:
            # a piece of characters up to U+00FF, copied as such: its characters other than
            # printable ASCII, tabs and newlines are forbidden (controls) or of _INERT (the others)
            if piece.encode("latin-1").translate(None, _PLAIN_LATIN_1):
                return False
            continue
        except UnicodeEncodeError:
            pass
        # (a lone surrogate is encoded and decoded back as itself: FORBIDDEN holds it)
        rest = piece.encode("utf-8", "surrogatepass").translate(None, _PLAIN_ASCII).decode("utf-8", "surrogatepass")
        del piece
        if rest and _NOT_INERT.search(rest) is not None:  # (else none is forbidden, and each is of _INERT)
            if FORBIDDEN.search(rest) is not None:
                return False
            found.update(rest)
    return found <= _INERT or is_normalized("NFC", text)


_PIECE = 1 << 20
"""Characters of a text encoded at a time by :func:`_allowed_throughout`."""
_PLAIN_LATIN_1 = _PLAIN_ASCII + bytes(range(0xA0, 0x100))
"""The characters up to U+00FF that are printable ASCII, tab, newline or of :data:`_INERT`
(the others, C0 and C1 controls and delete, are forbidden), as Latin-1 bytes: a text of
characters up to U+00FF is encoded as Latin-1 by a copy (it is held one byte a character)."""


_COMMON_BYTES = re.compile(_COMMON_BLOCK.pattern.encode("ascii"))
_FAST_BYTES = re.compile(_FAST_BLOCK.pattern.encode("ascii"))
""":data:`_COMMON_BLOCK` and :data:`_FAST_BLOCK` over UTF-8 bytes: each of their classes holds
or leaves out only ASCII characters, so over valid UTF-8 they match where the patterns match
over the decoded text (the spans the same in bytes)."""
_QUICK_BLOCK = re.compile(_COMMON_BLOCK.pattern.replace(_STR, '[^"]*' + _OWN).replace(r"[^\n\r]", r"[^\n]"))
""":data:`_QUICK_BYTES` over text, for :func:`read_template_rows` (taken on the same conditions)."""
_QUICK_BYTES = re.compile(_QUICK_BLOCK.pattern.encode("ascii"))
""":data:`_COMMON_BYTES` with each string any characters but a quote, and each note line any
but a newline: the regular expression engine runs through a class of one character left out
several times as fast as through one of four (the strings) or two (the notes). Over bytes
without a carriage return, a match that holds no backslash, whose strings hold no newline and
that ends at a blank line or the end of the bytes is the match of :data:`_COMMON_BYTES` there:
each class then meets only what both leave in, and the last string's continuation lines stop
where both stop (a line that one of them reads past, the other not, holds a backslash, and only
the msgstr's continuation lines can end a match early, before no blank line).
:func:`read_rows_bytes` takes it only then (a string holds a newline iff a value it decodes
holds one: joining continuation lines takes out only the quotes and the newline between two of
them, at most as many newlines as the lines' ends); else, as before."""
assert _QUICK_BYTES.pattern.count(b'[^"]*') == 6 and b"\\r" not in _QUICK_BYTES.pattern


def read_rows_bytes(raw: bytes, pos: int, lineno: int, path: Path, packed: list | None = None) -> tuple[list[LightEntry], list[int], int] | None:
    """:func:`read_rows` of ``raw.decode("utf-8")`` read from the UTF-8 bytes: the same rows,
    each made a :class:`LightEntry` (for :func:`light_catalog` with ``entries``), where each
    block starts in ``raw`` (the byte offsets of :func:`read_rows`' starts) and the line after
    the last; None where :func:`read_rows` gives None, and where a piece of ``raw`` is not
    UTF-8 (the caller decodes the text, which reports where).

    The text is never decoded whole (a catalog's text is once or twice its bytes, and their
    byte offsets need no counting): a block's strings, notes and reference are decoded
    from their bytes, a block of another shape than :data:`_COMMON_BLOCK` from its own bytes
    (each of these pieces is cut at an ASCII character, so the bytes are UTF-8 iff every
    piece is). The rules are looked for in the bytes once (:func:`_bytes_allowed_throughout`).

    With ``packed`` (a list), the rows' :func:`pack_rows` columns are put in it too, made as the
    rows are read (see :func:`_packed_as_read`)."""
    rows: list[tuple] = []
    starts: list[int] = []
    append = rows.append
    mark = starts.append
    common = _COMMON_BYTES.match
    match = _FAST_BYTES.match
    count = raw.count
    shared: dict[str, str] = {}
    share = shared.setdefault
    notes_read: dict[bytes, tuple[str, tuple[list, list[str]], int]] = {}
    refs_read: dict[bytes, str] = {}
    numbers_read: dict[bytes, str] = {}
    last_ref = found_ref = None  # (the latest reference's bytes of the quick path, and its string)
    length = len
    entry = LightEntry
    if packed is not None:
        # the columns of pack_rows (contexts, msgids, msgstrs, paths, lines, notes, flags, line
        # numbers): each row's eight one after the other, cut into columns at the end (one
        # list extended by a row's tuple instead of eight lists appended to one by one)
        flat: list = []
        looked: list[int] = []  # (the rows pack_rows looks at one by one, their columns put in place after)
        look = looked.append
    end = len(raw)
    checked = _bytes_allowed_throughout(raw)
    quick = _QUICK_BYTES.match if raw.find(b"\r") < 0 else None
    backslash = raw.find(b"\\", pos)
    if backslash < 0:
        backslash = end
    try:
        while pos < end:
            m = quick(raw, pos) if quick is not None else None
            if m is not None:
                notes, ref, number, fuzzy, ctxt, ctxt_more, msgid, msgid_more, msgstr, msgstr_more, blank = m.groups()
                last = m.end()
                if backslash < last or (not blank and last < end):
                    m = None  # (a backslash in the block, or no blank line after it: read as before)
                else:
                    # no escape: each string is its value (each string's bytes decoded apart:
                    # bytes that are not UTF-8 must not be joined into a character; a first
                    # string left empty before its lines adds nothing). Each string's
                    # continuation lines are k lines of '"..."\n' without a quote inside: their
                    # join takes out 3 k characters (the first quote, the last quote and newline,
                    # and each '"\n"' between two lines), so `taken` // 3 is their lines.
                    if ctxt_more:
                        more = ctxt_more.decode()
                        joined = more[1:-2].replace('"\n"', "")
                        taken = length(more) - length(joined)
                        ctxt = ctxt.decode() + joined
                    else:
                        taken = 0
                        ctxt = ctxt.decode()
                    if msgid_more:
                        more = msgid_more.decode()
                        joined = more[1:-2].replace('"\n"', "")
                        taken += length(more) - length(joined)
                        msgid = msgid.decode() + joined if msgid else joined
                    else:
                        msgid = msgid.decode()
                    if msgstr_more:
                        more = msgstr_more.decode()
                        joined = more[1:-2].replace('"\n"', "")
                        taken += length(more) - length(joined)
                        msgstr = msgstr.decode() + joined if msgstr else joined
                    else:
                        msgstr = msgstr.decode()
                    if "\n" in ctxt or "\n" in msgid or "\n" in msgstr:
                        m = None  # (a newline in a string: read as before; see _QUICK_BYTES)
                    else:
                        if not checked and _unescaped_refused(raw[m.start(5):m.end(10)].decode()):
                            return None
                        mark(pos)
                        line = lineno
                        pos = last
                        if notes:
                            found_notes = notes_read.get(notes)
                            if found_notes is None:
                                comment = notes[3:-1].replace(b"\n#. ", b"\n").decode()
                                found_notes = notes_read[notes] = (share(comment, comment), ([], comment.split("\n")), notes.count(b"\n"))
                            comment, comment_lines, lines = found_notes
                        else:
                            comment, comment_lines, lines = "", _NO_COMMENT_LINES, 0
                        # the block's lines: its notes', the reference's, the fuzzy flag's, the
                        # keywords' and their strings' lines (no string holds a newline), the blank ones
                        lineno += lines + (5 if fuzzy else 4) + length(blank) + taken // 3
                        if ref != last_ref:  # (the rows of one file's fields follow each other)
                            found_ref = refs_read.get(ref)
                            if found_ref is None:
                                found_ref = ref.decode()
                                found_ref = refs_read[ref] = share(found_ref, found_ref)
                            last_ref = ref
                        found_number = numbers_read.get(number)
                        if found_number is None:
                            found_number = numbers_read[number] = number.decode()
                        number = found_number
                        if packed is not None:
                            if not comment and comment_lines is not _NO_COMMENT_LINES:
                                look(len(rows))
                            flat += (ctxt, msgid, msgstr, found_ref, number, comment, "fuzzy" if fuzzy else "", line)
                        append(entry((ctxt, msgid, msgstr, "", _NO_PLURALS, [(found_ref, number)], comment, "",
                                      _FUZZY if fuzzy else _NO_FLAGS, None, None, None, False, comment_lines, _NO_LINES, line)))
                        continue
            if m is None:
                m = common(raw, pos)
            if m is None:
                m = match(raw, pos)
                if m is None or m.end() == pos:
                    return None
                mark(pos)
                block = raw[pos:m.end()].decode()
                pos = m.end()
                m = _FAST_BLOCK.match(block)
                if m is None or m.end() != len(block):
                    return None
                e, lineno = _block(m, lineno, path)
                if e is None:
                    return None
                if packed is not None:  # (its columns put in place after)
                    look(len(rows))
                    flat += _NO_COLUMNS
                append(entry(_row(e, shared)))
                if backslash < pos:
                    backslash = raw.find(b"\\", pos)
                    if backslash < 0:
                        backslash = end
                continue
            mark(pos)
            line = lineno
            notes, ref, number, fuzzy, ctxt, ctxt_more, msgid, msgid_more, msgstr, msgstr_more, _ = m.groups()
            start = pos
            pos = m.end()
            if backslash < pos and raw.find(b"\\", m.start(5), m.end(10)) >= 0:
                # the strings with an escape: decoded and checked one by one
                found = _strings(((ctxt.decode(), ctxt_more.decode()), (msgid.decode(), msgid_more.decode()),
                                  (msgstr.decode(), msgstr_more.decode())), 0, path)
                if found is None:
                    return None
                ctxt, msgid, msgstr, _ = found
                backslash = raw.find(b"\\", pos)
                if backslash < 0:
                    backslash = end
            else:
                # no escape: each string is its value, checked as _strings checks it
                if not checked and _unescaped_refused(raw[m.start(5):m.end(10)].decode()):
                    return None
                # (each string's bytes decoded apart: bytes that are not UTF-8 must not be
                # joined into a character)
                ctxt = ctxt.decode() + ctxt_more.decode()[1:-2].replace('"\n"', "") if ctxt_more else ctxt.decode()
                msgid = msgid.decode() + msgid_more.decode()[1:-2].replace('"\n"', "") if msgid_more else msgid.decode()
                msgstr = msgstr.decode() + msgstr_more.decode()[1:-2].replace('"\n"', "") if msgstr_more else msgstr.decode()
                if backslash < pos:  # (in a comment or the reference)
                    backslash = raw.find(b"\\", pos)
                    if backslash < 0:
                        backslash = end
            lineno += count(b"\n", start, pos)
            if notes:
                found_notes = notes_read.get(notes)
                if found_notes is None:
                    comment = notes[3:-1].replace(b"\n#. ", b"\n").decode()
                    found_notes = notes_read[notes] = (share(comment, comment), ([], comment.split("\n")), notes.count(b"\n"))
                comment, comment_lines, _ = found_notes
            else:
                comment, comment_lines = "", _NO_COMMENT_LINES
            ref = ref.decode()
            ref = share(ref, ref)
            found_number = numbers_read.get(number)
            if found_number is None:
                found_number = numbers_read[number] = number.decode()
            number = found_number
            if packed is not None:
                if not comment and comment_lines is not _NO_COMMENT_LINES:
                    look(len(rows))
                flat += (ctxt, msgid, msgstr, ref, number, comment, "fuzzy" if fuzzy else "", line)
            append(entry((ctxt, msgid, msgstr, "", _NO_PLURALS, [(ref, number)], comment, "",
                          _FUZZY if fuzzy else _NO_FLAGS, None, None, None, False, comment_lines, _NO_LINES, line)))
    except UnicodeDecodeError:
        return None
    if packed is not None:
        columns = tuple(flat[place::8] for place in range(8))
        del flat
        packed.append(_packed_as_read(rows, columns, looked))
    return rows, starts, lineno


_NO_COLUMNS = (None,) * 8
"""The eight columns of a row :func:`read_rows_bytes` reads by its block, put in place after."""


def _packed_as_read(rows: list, columns: tuple[list, ...], looked: list[int]) -> tuple:
    """:func:`pack_rows` of ``rows``, from ``columns`` (the contexts, msgids, msgstrs, reference
    paths and lines, notes, flags and line numbers of each row of the bank's shape, as
    :func:`read_rows_bytes` read it) and the rows ``looked`` at one by one (the others, and those
    of the bank's shape whose notes are an empty line), whose columns are taken from the row
    here, as :func:`pack_rows` takes them; the translator comments are all empty but theirs."""
    ctx, ids, strs, paths, numbers, comments, flags, lines = columns
    tcomments = [""] * len(rows)
    other = {}
    for index in looked:
        r = rows[index]
        msgctxt, msgid, msgstr, _, _, occurrences, comment, tcomment, flag, _, _, _, _, _, _, line = r
        if _usual_shape(r):
            paths[index], numbers[index] = occurrences[0]
        else:
            other[index] = r if type(r) is tuple else tuple(r)  # (a LightEntry's row kept as a row)
            paths[index], numbers[index] = _NO_PLACE[0]
        ctx[index], ids[index], strs[index], comments[index], tcomments[index], flags[index], lines[index] = (
            msgctxt, msgid, msgstr, comment, tcomment, ",".join(flag), line)
    return ctx, ids, strs, paths, numbers, comments, tcomments, flags, lines, other


def _bytes_allowed_throughout(raw: bytes) -> bool:
    """:func:`_allowed_throughout` of the text whose UTF-8 bytes are ``raw`` (False when they
    are not UTF-8), without the text: True only when the characters other than printable ASCII,
    tab and newline are all :data:`_INERT`."""
    rest = raw.translate(None, _PLAIN_ASCII)
    if not rest:
        return True
    try:
        chars = rest.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return _NOT_INERT.search(chars) is None  # (then none is forbidden)


def read_template_rows(text: str, lineno: int, path: Path, *, lines: bool = True) -> tuple[list[tuple | None], int] | None:
    """What the template's freshness compares of each block of ``text`` (a template, or a piece
    of one cut where a block starts), without making its rows: of a block of the bank's shape
    (:data:`_COMMON_BLOCK`) its (msgctxt, msgid, notes, reference path, reference line), each
    as :func:`read_rows` reads it; None for a block without a context and with an empty msgid
    (a header); and the line after the text; a string with an escape decoded as
    :func:`read_rows` decodes it. None when a block is of another shape (the caller reads the
    text with :func:`read_rows`), or when a string breaks a character rule or holds an escape
    it refuses (:func:`read_rows` gives None there too).

    Without ``lines``, ``lineno`` is given back as the line after the text: for a reader whose
    lines nobody reads (each block's line is not compared), the text's newlines are not
    counted (a pass over every character, about a thirteenth of the read)."""
    items: list[tuple | None] = []
    append = items.append
    common = _COMMON_BLOCK.match
    pos, end = 0, len(text)
    checked = _allowed_throughout(text)  # (as read_rows looks for the rules and the escapes)
    backslash = text.find("\\")
    if backslash < 0:
        backslash = end
    notes_read: dict[str, str] = {}
    quick = _QUICK_BLOCK.match if text.find("\r") < 0 else None
    while pos < end:
        m = quick(text, pos) if quick is not None else None
        if m is not None:
            # taken where it is the block pattern's match, as read_rows_bytes takes it
            notes, ref, number, _, ctxt, ctxt_more, msgid, msgid_more, msgstr, msgstr_more, blank = m.groups()
            last = m.end()
            if backslash < last or (not blank and last < end):
                m = None
            else:
                if ctxt_more:
                    ctxt += ctxt_more[1:-2].replace('"\n"', "")
                if msgid_more:
                    msgid += msgid_more[1:-2].replace('"\n"', "")
                if "\n" in ctxt or "\n" in msgid or "\n" in msgstr or (msgstr_more and "\n" in msgstr_more[1:-2].replace('"\n"', "")):
                    m = None  # (a newline in a string)
                elif not checked and _unescaped_refused(text[m.start(5):m.end(10)]):
                    return None
                else:
                    pos = last
                    if notes:
                        comment = notes_read.get(notes)
                        if comment is None:
                            comment = notes_read[notes] = notes[3:-1].replace("\n#. ", "\n")
                    else:
                        comment = ""
                    append((ctxt, msgid, comment, ref, number))
                    continue
        if m is None:
            m = common(text, pos)
        if m is None:
            m = _FAST_BLOCK.match(text, pos)
            if m is None or m.end() == pos:
                return None
            e, _ = _block(m, lineno, path)  # (its line is not compared: only its strings' rules matter)
            if e is None or "msgctxt" in e.fields or e.fields.get("msgid", "") != "":
                return None
            append(None)
            pos = m.end()
        else:
            pos = m.end()
            notes, ref, number, _, ctxt, ctxt_more, msgid, msgid_more = m.group(1, 2, 3, 4, 5, 6, 7, 8)
            if backslash < pos and text.find("\\", m.start(5), m.end(10)) >= 0:  # decoded and checked as read_rows does it
                found = _strings(((ctxt, ctxt_more), (msgid, msgid_more), m.group(9, 10)), 0, path)
                if found is None:
                    return None
                ctxt, msgid = found[0], found[1]
            elif not checked and _unescaped_refused(text[m.start(5):m.end(10)]):
                return None
            else:
                if ctxt_more:
                    ctxt += ctxt_more[1:-2].replace('"\n"', "")
                if msgid_more:
                    msgid += msgid_more[1:-2].replace('"\n"', "")
            if notes:
                comment = notes_read.get(notes)
                if comment is None:
                    comment = notes_read[notes] = notes[3:-1].replace("\n#. ", "\n")
            else:
                comment = ""
            append((ctxt, msgid, comment, ref, number))
        if backslash < pos:
            backslash = text.find("\\", pos)
            if backslash < 0:
                backslash = end
    return items, (lineno + text.count("\n")) if lines else lineno


def _strings(strings, lineno: int, path: Path) -> tuple[str, str, str, int] | None:
    """The values of a block's msgctxt, msgid and msgstr (each its keyword's string and its
    continuation lines) and the line after them, each string decoded and checked as
    :func:`_block` does it; None when one breaks a rule."""
    forbidden = FORBIDDEN.search
    values = []
    for first, more in strings:
        if "\\" in first or (more and "\\" in more):
            parts = []
            for piece in (first, *_FAST_PIECE.findall(more)) if more else (first,):
                diags: list[Diagnostic] = []
                parts.append(_decode_checked(piece, lineno, 0, path, diags))
                if diags:
                    return None
                lineno += 1
            values.append("".join(parts))
            continue
        # The character rules hold for each string iff they hold for the keyword's string and
        # for its continuation lines as written (quotes and newlines between them): neither a
        # quote nor a newline is forbidden, and both are starters that compose with nothing,
        # so a text is NFC iff the parts between them are.
        for part in (first, more) if more else (first,):
            if part.isascii():
                if not part.isprintable() and forbidden(part):
                    return None
            elif forbidden(part) or not is_normalized("NFC", part):
                return None
        if more:
            values.append(first + more[1:-2].replace('"\n"', ""))
            lineno += 1 + more.count("\n")
        else:
            values.append(first)
            lineno += 1
    return values[0], values[1], values[2], lineno


def read_light_rows(text: str, path: Path) -> tuple[list[tuple] | None, list[Diagnostic]]:
    """(``light_rows`` of the entries of :func:`read_entries`, []), or (None, every error):
    a text whose blocks all have the common shape is read by :func:`read_rows`."""
    full = text if text.endswith("\n") else text + "\n"
    pos = len(full) - len(full.lstrip("\n"))
    found = read_rows(full, pos, pos + 1, path)
    del full
    if found is not None:
        return found[0], []
    entries, diags = _read_entries_by_line(text, path)
    return (None, diags) if entries is None else (light_rows(entries), [])


def _comment(e: _Entry, line: str) -> None:
    """One comment line (not ``#|`` nor ``#~``) of entry ``e``."""
    kind = line[1:2]
    if kind == ",":
        e.flags += [f.strip() for f in line[2:].split(",") if f.strip()]
    elif kind == ".":
        e.comment.append(line[3:] if line[2:3] == " " else line[2:])
    elif kind == ":":
        for ref in line[2:].split():
            p, _, n = ref.rpartition(":")
            e.occurrences.append((p, n) if p and n.isdigit() else (ref, ""))
    else:
        e.tcomment.append(line[2:] if line[1:2] == " " else line[1:])


def _read_entries_by_line(text: str, path: Path) -> tuple[list[_Entry] | None, list[Diagnostic]]:
    """The grammar of ``text`` line by line, as GNU reads it: every error located."""
    diags: list[Diagnostic] = []
    entries: list[_Entry] = []
    cur: _Entry | None = None

    def flush() -> None:
        nonlocal cur
        if cur is not None:
            keywords = [k for k, _ in cur.order]
            if "msgid" in keywords and not cur.has_msgstr:
                line = dict(cur.order)["msgid"]
                diags.append(error("E501", "msgid without msgstr; add msgstr \"\" if it is not translated yet", Location.of(path, line, 1)))
            elif "msgctxt" in keywords and "msgid" not in keywords:
                diags.append(error("E501", "msgctxt without msgid", Location.of(path, cur.order[0][1], 1)))
            elif keywords:
                entries.append(cur)
        cur = None

    def entry(lineno: int, for_comment: bool = False) -> _Entry:
        nonlocal cur
        if cur is not None and for_comment and cur.has_msgstr:
            flush()
        if cur is None:
            cur = _Entry(lineno)
        return cur

    for lineno, raw in enumerate(text.split("\n"), 1):
        line = raw[:-1] if raw.endswith("\r") else raw
        if not line.strip():
            continue  # GNU's grammar ignores blank lines: they do not end an entry
        if line[0] in "<=>" and _CONFLICT.match(line):
            diags.append(error("E501", "merge-conflict marker; resolve the conflict (keep both translators' work) before running the pipeline", Location.of(path, lineno, 1)))
            continue
        obsolete = False
        body, offset = line, 0
        if line.startswith("#~"):
            obsolete = True
            body = line[2:].lstrip(" \t")
            offset = len(line) - len(body)
            if body.startswith("|"):
                _previous(entry(lineno, True), body[1:].lstrip(" \t"), lineno, path, diags)
                continue
        elif line.startswith("#"):
            kind = line[1:2]
            if kind == "|":
                _previous(entry(lineno, True), line[2:].lstrip(" \t"), lineno, path, diags)
            else:
                _comment(entry(lineno, True), line)
            continue
        stripped = body.lstrip()
        col = offset + len(body) - len(stripped) + 1
        if stripped.startswith('"'):
            if cur is None or cur.last is None:
                diags.append(error("E501", "string continuation without a keyword before it", Location.of(path, lineno, col)))
                continue
            m = _GOOD_STRING.fullmatch(stripped)
            if m is None:
                diags.append(_bad_string(stripped.rstrip(), lineno, col, path))
                continue
            cur.fields[cur.last] += _decode_checked(m.group(1), lineno, col, path, diags)
            continue
        m = _KEYWORD.match(stripped)
        if not m:
            word = stripped.split()[0] if stripped.split() else stripped
            diags.append(error("E501", f"unknown keyword {word[:30]!r}; expected msgctxt, msgid, msgid_plural, msgstr or a comment", Location.of(path, lineno, col)))
            continue
        keyword = m.group(1)
        base = keyword.split("[")[0]
        prev = cur.order[-1][0].split("[")[0] if cur is not None and cur.order else None
        if base == "msgctxt" and prev is not None:
            flush()
        elif base == "msgid" and prev not in (None, "msgctxt"):
            flush()
        elif base == "msgid_plural" and prev != "msgid":
            diags.append(error("E501", "msgid_plural must follow msgid", Location.of(path, lineno, col)))
        elif base == "msgstr" and prev not in ("msgid", "msgid_plural", "msgstr"):
            diags.append(error("E501", "msgstr without a msgid before it", Location.of(path, lineno, col)))
        e = entry(lineno)
        e.obsolete = e.obsolete or obsolete
        e.order.append((keyword, lineno))
        if base == "msgstr":
            e.has_msgstr = True
        value = m.group(2).rstrip()
        sm = _GOOD_STRING.fullmatch(value)
        if sm is None:
            diags.append(_bad_string(value, lineno, col + m.start(2), path))
            e.fields[keyword] = ""
        else:
            e.fields[keyword] = _decode_checked(sm.group(1), lineno, col + m.start(2), path, diags)
        e.last = keyword
    flush()
    if diags:
        return None, diags
    return entries, []

def read_po(text: str, path: Path) -> tuple[polib.POFile | None, list[Diagnostic]]:
    """(entries, []) for the catalog in ``text``, or (None, every error in it); ``path`` locates them."""
    entries, diags = read_entries(text, path)
    if entries is None:
        return None, diags
    return catalog_of(entries), []


try:
    from _collections import _tuplegetter as _field
except ImportError:  # (another Python: what collections.namedtuple falls back to)
    def _field(index: int, doc: str):
        return property(itemgetter(index), doc=doc)


class LightEntry(tuple):
    """One entry with polib's attribute names and values, and nothing else (see
    :class:`LightCatalog`): a tuple of :data:`FIELDS`, read by name, made from a row of
    :func:`light_rows` without a call per entry.

    Each name reads its place through the descriptor :func:`collections.namedtuple`'s fields
    use (``_collections._tuplegetter``: the item taken in C), not a ``property`` of an
    ``itemgetter``, which calls the getter through the property (a worker reads about a
    million entries' attributes: 244 M instructions of `fr.po`'s 14 218 M)."""

    __slots__ = ()
    FIELDS = ("msgctxt", "msgid", "msgstr", "msgid_plural", "msgstr_plural", "occurrences", "comment", "tcomment", "flags",
              "previous_msgctxt", "previous_msgid", "previous_msgid_plural", "obsolete", "comment_lines", "plural_lines", "linenum")

    msgctxt = _field(0, "msgctxt")
    msgid = _field(1, "msgid")
    msgstr = _field(2, "msgstr")
    msgid_plural = _field(3, "msgid_plural")
    msgstr_plural = _field(4, "msgstr_plural")
    occurrences = _field(5, "occurrences")
    comment = _field(6, "comment")
    tcomment = _field(7, "tcomment")
    flags = _field(8, "flags")
    previous_msgctxt = _field(9, "previous_msgctxt")
    previous_msgid = _field(10, "previous_msgid")
    previous_msgid_plural = _field(11, "previous_msgid_plural")
    obsolete = _field(12, "obsolete")
    comment_lines = _field(13, "comment_lines")
    plural_lines = _field(14, "plural_lines")
    linenum = _field(15, "linenum")

    def __reduce__(self):
        return LightEntry, (tuple(self),)


LINENUM = 15
"""Where a row of :func:`light_rows` (and a :class:`LightEntry`) holds its line number: the last place."""


class LightCatalog(list):
    """The entries of a catalog as the checks read them: polib's ``POFile`` attributes
    (``metadata``, the header as read, :meth:`obsolete_entries`) over :class:`LightEntry`
    items, a fraction of the size and time of polib's objects. What `bank validate` verifies;
    a catalog that is localized, written or merged is a ``polib.POFile`` (:func:`catalog_of`)."""

    def __init__(self) -> None:
        super().__init__()
        self.wrapwidth = WRAP_WIDTH
        self.header = ""
        self.metadata: dict[str, str] = {}
        self.metadata_is_fuzzy: list[str] = []
        self.read_columns: tuple[list, dict, int | None] | None = None
        """(contexts, rows kept whole, the header's index) of the :func:`pack_rows` columns of
        the rows this catalog was made of, with the header's, when the reader made them
        (:func:`light_catalog` with ``packed``): what :meth:`distinct` reads of the entries
        (once: it lets them go)."""
        self.without_plurals = False
        """Whether :meth:`distinct` found that no entry has plural forms (what
        :func:`loose_entries` then need not look for)."""

    def obsolete_entries(self) -> list[LightEntry]:
        return [e for e in self if e.obsolete]

    def distinct(self) -> bool:
        """Whether the entries' contexts are distinct (obsolete entries included), those
        without a context have distinct msgids, and none has plural forms: then the catalog
        checks of duplicates, contexts and plural counts find nothing (as
        :meth:`ColumnCatalog.distinct` answers for its columns), without a loop over the
        entries in Python.

        With the reader's columns (:attr:`read_columns`), the contexts are their column, the
        header's place left out, and only the rows kept whole may have plural forms (a row of
        the usual shape has none): the entries are not looked at one by one to make them."""
        known, self.read_columns = self.read_columns, None  # (read once, as the catalog is checked)
        if known is not None and len(known[0]) == len(self) + (known[2] is not None):
            contexts, other, header = known
            if any(row[3] for index, row in other.items() if index != header):
                return False
            self.without_plurals = True
            unnamed = contexts.count(None) - (header is not None)
            named = set(contexts)
            named.discard(None)
            if len(named) != len(contexts) - (header is not None) - unnamed:
                return False
        else:
            if any(map(itemgetter(3), self)):
                return False
            self.without_plurals = True
            contexts = list(map(itemgetter(0), self))
            unnamed = contexts.count(None)
            if len(set(contexts)) - (1 if unnamed else 0) != len(contexts) - unnamed:
                return False
        if unnamed:
            loose = [e.msgid for e in self if e.msgctxt is None]
            return len(set(loose)) == len(loose)
        return True


def _set_header(po, tcomment: list[str], flags: list[str], raw: str, index: int, line: int) -> None:
    """The header entry's comments, flags and msgstr as polib's catalog attributes."""
    po.header = "\n".join(tcomment)
    po.header_lines = list(tcomment)
    po.metadata_is_fuzzy = ["fuzzy"] if "fuzzy" in flags else []
    for meta_line in raw.split("\n"):
        key, sep, value = meta_line.partition(":")
        if sep:
            po.metadata[key.strip()] = value.strip()
    po.raw_header = raw
    po.raw_metadata = dict(po.metadata)
    po.header_index = index
    po.header_line = line


def _is_header(e) -> bool:
    """GNU takes the first active entry with an empty msgid and no context as the header,
    wherever it is, and msgcat writes it back in the same place among active entries."""
    return e.fields.get("msgid", "") == "" and "msgctxt" not in e.fields and not e.obsolete


def _row(e: _Entry, shared: dict[str, str]) -> tuple:
    """One reader entry as a row of :func:`light_rows` (``shared``: the notes and references
    already kept, each kept once)."""
    fields = e.fields
    comment = "\n".join(e.comment)
    return (fields.get("msgctxt"), fields.get("msgid", ""), fields.get("msgstr", ""), fields.get("msgid_plural", ""),
            {int(k[7:-1]): v for k, v in fields.items() if k.startswith("msgstr[")},
            [(shared.setdefault(p, p), n) for p, n in e.occurrences], shared.setdefault(comment, comment), "\n".join(e.tcomment),
            e.flags, e.previous.get("msgctxt"), e.previous.get("msgid"), e.previous.get("msgid_plural"), e.obsolete,
            (e.tcomment, e.comment), [(int(k[7:-1]), n) for k, n in e.order if k.startswith("msgstr[")], e.line)


def light_rows(entries: list[_Entry]) -> list[tuple]:
    """Every reader entry (the header too) as a plain tuple of :data:`LightEntry.FIELDS` (it
    empties ``entries``): what :func:`light_catalog` makes a catalog of, and what a store keeps."""
    rows = []
    # Each reader entry is dropped as soon as its row is made, and the notes that many entries
    # share ("Question stem.", the same file's reference) are kept once.
    shared: dict[str, str] = {}
    entries.reverse()
    while entries:
        rows.append(_row(entries.pop(), shared))
    return rows


def pack_rows(rows: list[tuple]) -> tuple:
    """Rows of :func:`light_rows` as columns of strings, which pickle many times faster than
    the rows: an entry of the usual shape (one reference, no plural, previous or obsolete
    part, comment lines as their joined text holds them) is its strings; any other is kept
    whole by its index. :func:`unpack_rows` gives the rows back, equal to these.

    A row of the bank's shape as :func:`read_rows` and :func:`read_rows_bytes` make it (its
    plural lines :data:`_NO_LINES`, which no other row holds) is of the usual shape unless its
    notes are one empty line (its comment empty, its comment lines not
    :data:`_NO_COMMENT_LINES`): only the other rows, and those without a comment, are looked at
    one by one; they are found, and the columns taken from the rows, in C."""
    other = {}
    # (the indices of the rows not of the readers' bank shape, and of those without a comment)
    looked_at = sorted({*compress(count(), map(is_not, map(itemgetter(14), rows), repeat(_NO_LINES))),
                        *compress(count(), map(not_, map(itemgetter(6), rows)))})
    for index in looked_at:
        r = rows[index]
        if r[14] is _NO_LINES and (r[6] or r[13] is _NO_COMMENT_LINES):
            continue
        if not _usual_shape(r):
            other[index] = r if type(r) is tuple else tuple(r)  # (a LightEntry's row kept as a row)
    occurrences = list(map(itemgetter(5), rows))
    for index in other:
        occurrences[index] = _NO_PLACE
    places = list(map(itemgetter(0), occurrences))
    del occurrences
    return (list(map(itemgetter(0), rows)), list(map(itemgetter(1), rows)), list(map(itemgetter(2), rows)),
            list(map(itemgetter(0), places)), list(map(itemgetter(1), places)), list(map(itemgetter(6), rows)),
            list(map(itemgetter(7), rows)), list(map(",".join, map(itemgetter(8), rows))), list(map(itemgetter(15), rows)), other)


def _usual_shape(row) -> bool:
    """Whether a row of :func:`light_rows` is of the usual shape that :func:`pack_rows` keeps as
    its strings (one reference, no plural, previous or obsolete part, flags that join and split
    back, comment lines as their joined text holds them); any other is kept whole."""
    _, _, _, plural_id, plurals, occurrences, comment, tcomment, flag, p1, p2, p3, obsolete, comment_lines, plural_lines, _ = row
    return (plural_id == "" and not plurals and len(occurrences) == 1 and p1 is None and p2 is None and p3 is None and not obsolete
            and not plural_lines and "," not in "".join(flag) and "" not in flag
            and comment_lines == (tcomment.split("\n") if tcomment else [], comment.split("\n") if comment else []))


_NO_PLACE = [("", "")]
"""The reference column's path and line of a row kept whole (see :func:`pack_rows`)."""


def unpack_rows(packed: tuple) -> list[tuple]:
    """The rows of :func:`pack_rows`' columns."""
    ctx, ids, strs, paths, numbers, comments, tcomments, flags, lines, other = packed
    shared: dict[str, str] = {}
    rows = [(c, i, m, "", _NO_PLURALS, [(shared.setdefault(p, p), n)], shared.setdefault(cm, cm), tc, f.split(",") if f else [], None, None, None,
             False, (tc.split("\n") if tc else [], cm.split("\n") if cm else []), [], ln)
            for c, i, m, p, n, cm, tc, f, ln in zip(ctx, ids, strs, paths, numbers, comments, tcomments, flags, lines)]
    for index, row in other.items():
        rows[index] = row
    return rows


def _column_row(packed: tuple, index: int) -> tuple:
    """Row ``index`` of :func:`pack_rows`' columns, as :func:`unpack_rows` gives it."""
    found = packed[9].get(index)
    if found is not None:
        return found
    c, i, m, p, n, cm, tc, f, ln = (column[index] for column in packed[:9])
    return (c, i, m, "", _NO_PLURALS, [(p, n)], cm, tc, f.split(",") if f else [], None, None, None, False,
            (tc.split("\n") if tc else [], cm.split("\n") if cm else []), [], ln)


def block_rows(raw: bytes, starts: list[int], lines: list[int], path: Path):
    """(the row of an index, every row) of the text ``raw`` (UTF-8, ending with a newline)
    whose blocks, all of the shape :func:`read_rows` reads, start at the byte offsets
    ``starts`` and the lines ``lines``: a row is read from its block's bytes alone when asked
    for (a block's match reads nothing past the first character of the next block, so it is
    the row a read of the whole text gives), for a :class:`ColumnCatalog` that keeps only the
    contexts and lines of a catalog's entries."""
    read: list = []

    def rows() -> list[tuple]:
        if not read:
            text = raw.decode("utf-8")
            pos = len(text) - len(text.lstrip("\n"))
            found = read_rows(text, pos, pos + 1, path)
            if found is None or len(found[0]) != len(starts):
                raise ValueError(f"{path}: the kept blocks are not those of the text")
            read.append(found[0])
        return read[0]

    def row_of(index: int) -> tuple:
        if read:
            return read[0][index]
        end = starts[index + 1] if index + 1 < len(starts) else len(raw)
        try:
            found = read_rows(raw[starts[index]:end].decode("utf-8"), 0, lines[index], path)
        except UnicodeDecodeError:
            found = None
        if found is None or len(found[0]) != 1:
            return rows()[index]
        return found[0][0]

    return row_of, rows


class ColumnCatalog:
    """A :class:`LightCatalog` over :func:`pack_rows`' columns, for a check that asks for a few
    entries by context (:meth:`active`): each entry is made when first asked for, and the
    whole list (iteration, indexing, :meth:`obsolete_entries`) only when something asks for
    it. The header's attributes (``metadata`` and the others) are those :func:`light_catalog`
    sets; :meth:`distinct` and :meth:`positions` answer from the columns what the catalog
    checks and the owner of a line would otherwise read from every entry.

    With ``row_of`` (the row of an index as the whole read gives it) and ``rows`` (every row),
    only the contexts, line numbers and rows kept whole (``packed[0]``, ``[8]`` and ``[9]``)
    are read from ``packed``: the other columns may be None (see :func:`block_rows`)."""

    def __init__(self, packed: tuple, row_of=None, rows=None) -> None:
        self.packed = packed
        ctx, other = packed[0], packed[9]
        self._row_of = row_of if row_of is not None else (lambda index: _column_row(packed, index))
        self._rows = rows if rows is not None else (lambda: unpack_rows(packed))
        self.wrapwidth = WRAP_WIDTH
        self.header = ""
        self.metadata: dict[str, str] = {}
        self.metadata_is_fuzzy: list[str] = []
        self._whole: LightCatalog | None = None
        self._made: dict[int, LightEntry] = {}
        self._active: ActiveEntries | None = None
        # the header as light_catalog finds it: the first active row with an empty msgid and no context
        header, at = None, -1
        while True:
            try:
                at = ctx.index(None, at + 1)
            except ValueError:
                break
            if not (at in other and other[at][12]) and self._row(at)[1] == "":
                header = at
                break
        self.header_row = header
        if header is not None:
            h = self._row(header)
            obsolete_before = sum(1 for i, r in other.items() if i < header and r[12])
            _set_header(self, h[13][0], h[8], h[2], header - obsolete_before, h[LINENUM])

    def _row(self, index: int) -> tuple:
        found = self.packed[9].get(index)
        return found if found is not None else self._row_of(index)

    def entry(self, index: int) -> LightEntry:
        """The entry of row ``index`` (made once)."""
        found = self._made.get(index)
        if found is None:
            found = self._made[index] = LightEntry(self._row(index))
        return found

    def whole(self) -> LightCatalog:
        """Every entry, as :func:`light_catalog` makes them (made on first use)."""
        if self._whole is None:
            self._whole = light_catalog(self._rows())
        return self._whole

    def __iter__(self):
        return iter(self.whole())

    def __len__(self) -> int:
        return len(self.whole())

    def __getitem__(self, index):
        return self.whole()[index]

    def obsolete_entries(self) -> list[LightEntry]:
        return self.whole().obsolete_entries()

    def active(self) -> ActiveEntries:
        """The active (non-obsolete) entries by msgctxt, as ``Catalog.active`` maps them (the
        last entry of a context; the contexts in the order they first appear)."""
        if self._active is None:
            ctx, other = self.packed[0], self.packed[9]
            if any(r[12] for r in other.values()):
                index: dict = {}
                for i, c in enumerate(ctx):
                    if c is not None and not (i in other and other[i][12]):
                        index[c] = i
            else:
                index = dict(zip(ctx, range(len(ctx))))
                index.pop(None, None)
            self._active = ActiveEntries(self._entry_function(), index)
        return self._active

    def _entry_function(self):
        """:meth:`entry` as a function that does not hold the catalog (the same entries, made
        once, in the same map): the active entries' map the catalog holds then makes no cycle
        with it, and a dropped catalog is freed at once, with no collection to wait for."""
        made, other, row_of = self._made, self.packed[9], self._row_of

        def entry(index: int) -> LightEntry:
            found = made.get(index)
            if found is None:
                row = other.get(index)
                found = made[index] = LightEntry(row if row is not None else row_of(index))
            return found

        return entry

    def distinct(self) -> bool:
        """Whether the entries' contexts are distinct, those without a context have distinct
        msgids, and none has plural forms: then the catalog checks of duplicates, contexts and
        plural counts find nothing."""
        ctx, other = self.packed[0], self.packed[9]
        if any(r[3] for r in other.values()):
            return False
        unnamed = ctx.count(None)
        # the contexts told apart by the active entries' map when no entry is obsolete (it is
        # made for the checks anyway), else by a set of them
        named = len(self.active()) if not any(r[12] for r in other.values()) else len(set(ctx)) - (1 if unnamed else 0)
        if named != len(ctx) - unnamed:
            return False
        if unnamed > (1 if self.header_row is not None else 0):
            loose = [self._row(i)[1] for i, c in enumerate(ctx) if c is None and i != self.header_row]
            return len(set(loose)) == len(loose)
        return True

    def positions(self) -> tuple[list[int], list]:
        """(line number, msgctxt) of each entry in the order of the list (the header left out)."""
        lines, ctx = list(self.packed[8]), list(self.packed[0])
        if self.header_row is not None:
            del lines[self.header_row], ctx[self.header_row]
        return [n or 0 for n in lines], ctx


class ActiveEntries(Mapping):
    """The active entries of a :class:`ColumnCatalog` by msgctxt, each made when asked for
    (by ``entry``, the catalog's :meth:`~ColumnCatalog.entry` without the catalog)."""

    def __init__(self, entry, index: dict) -> None:
        self._entry = entry
        self._index = index

    def __getitem__(self, key) -> LightEntry:
        return self._entry(self._index[key])

    def get(self, key, default=None):
        found = self._index.get(key)
        return default if found is None else self._entry(found)

    def __contains__(self, key) -> bool:
        return key in self._index

    def __iter__(self):
        return iter(self._index)

    def __len__(self) -> int:
        return len(self._index)

    def keys(self):
        return self._index.keys()


def light_catalog(rows: list[tuple], *, entries: bool = False, packed: tuple | None = None) -> LightCatalog:
    """The :class:`LightCatalog` of :func:`light_rows`' rows (which it does not change); with
    ``entries``, rows that are :class:`LightEntry` items already (:func:`read_rows_bytes`),
    taken as they are; with ``packed``, the rows' :func:`pack_rows` columns, which
    :meth:`LightCatalog.distinct` reads instead of the entries."""
    po = LightCatalog()
    made = (lambda part: part) if entries else (lambda part: map(LightEntry, part))
    header = next((i for i, r in enumerate(rows) if r[1] == "" and r[0] is None and not r[12]), None)
    if packed is not None and len(packed[0]) == len(rows):
        po.read_columns = (packed[0], packed[9], header)
    if header is None:
        po.extend(made(rows))
        return po
    h = rows[header]
    _set_header(po, h[13][0], h[8], h[2], sum(1 for r in rows[:header] if not r[12]), h[LINENUM])
    po.extend(made(rows[:header]))
    po.extend(made(rows[header + 1:]))
    return po


def catalog_of(entries: list[_Entry], *, light: bool = False) -> polib.POFile | LightCatalog:
    """The polib catalog of the reader's ``entries`` (which it empties); with ``light``, the
    same entries as a :class:`LightCatalog`."""
    if light:
        return light_catalog(light_rows(entries))
    import polib

    po = polib.POFile(wrapwidth=WRAP_WIDTH)
    header_found = False
    # Each entry of the reader is dropped as soon as its polib entry is made (the two are never
    # held together for the whole catalog), and the notes that many entries share ("Question
    # stem.", the same file's reference) are kept once.
    shared: dict[str, str] = {}
    entries.reverse()
    while entries:
        e = entries.pop()
        msgid = e.fields.get("msgid", "")
        if not header_found and _is_header(e):
            header_found = True
            _set_header(po, e.tcomment, e.flags, e.fields.get("msgstr", ""), sum(1 for x in po if not x.obsolete), e.line)
            continue
        plural = {int(k[7:-1]): v for k, v in e.fields.items() if k.startswith("msgstr[")}
        entry = polib.POEntry(
            msgctxt=e.fields.get("msgctxt"), msgid=msgid, msgstr=e.fields.get("msgstr", ""),
            msgid_plural=e.fields.get("msgid_plural", ""), msgstr_plural=plural,
            occurrences=[(shared.setdefault(p, p), n) for p, n in e.occurrences],
            comment=shared.setdefault(comment := "\n".join(e.comment), comment), tcomment="\n".join(e.tcomment),
            flags=e.flags, previous_msgctxt=e.previous.get("msgctxt"), previous_msgid=e.previous.get("msgid"),
            previous_msgid_plural=e.previous.get("msgid_plural"), obsolete=e.obsolete, linenum=e.line,
        )
        entry.comment_lines = (e.tcomment, e.comment)  # the reader's lists, not shared with another entry
        entry.plural_lines = [(int(k[7:-1]), n) for k, n in e.order if k.startswith("msgstr[")]
        po.append(entry)
    return po


def _previous(e: _Entry, body: str, lineno: int, path: Path, diags: list[Diagnostic]) -> None:
    """A ``#| msgid "…"`` line (or its continuation) of the entry's previous source."""
    if body.startswith('"'):
        m = _GOOD_STRING.fullmatch(body)
        if m and e.last_previous:
            e.previous[e.last_previous] += _decode_checked(m.group(1), lineno, 1, path, diags)
        return
    m = _KEYWORD.match(body)
    if m and m.group(1) in ("msgctxt", "msgid", "msgid_plural"):
        sm = _GOOD_STRING.fullmatch(m.group(2).rstrip())
        e.previous[m.group(1)] = _decode_checked(sm.group(1), lineno, 1, path, diags) if sm else ""
        e.last_previous = m.group(1)


# GNU gettext writes the flags it knows in this order (fuzzy, the format flags in the order of
# format_language[] in gettext 0.21, range, wrap); flags it does not know are kept after them.
_FORMATS = ("c", "objc", "python", "python-brace", "java", "java-printf", "csharp", "javascript", "scheme", "lisp",
            "elisp", "librep", "ruby", "sh", "awk", "lua", "object-pascal", "smalltalk", "qt", "qt-plural", "kde",
            "kde-kuit", "boost", "tcl", "perl", "perl-brace", "php", "gcc-internal", "gfc-internal", "ycp")
_FLAG_RANK = {"fuzzy": 0, **{f"{f}-format": 1 + 2 * i for i, f in enumerate(_FORMATS)},
              **{f"no-{f}-format": 2 + 2 * i for i, f in enumerate(_FORMATS)}, "wrap": 1000, "no-wrap": 1000}


def _flag_rank(flag: str) -> int:
    return _FLAG_RANK.get(flag, 999 if flag.startswith("range:") else 2000)


def _gnu_flags(flags: list[str]) -> list[str]:
    """Flags in GNU's order; of ``x-format``/``no-x-format`` or ``wrap``/``no-wrap`` the last wins."""
    kept: dict[str, str] = {}
    for flag in flags:
        rank = _flag_rank(flag)
        slot = f"rank{(rank + 1) // 2}" if 0 < rank < 999 else ("wrap" if rank == 1000 else flag)
        kept.pop(slot, None)
        kept[slot] = flag
    return sorted(kept.values(), key=_flag_rank)


def _string_lines(keyword: str, text: str, prefix: str = "", do_wrap: bool = True, flags=()) -> list[str]:
    """``keyword "text"`` as GNU gettext writes it at width WRAP_WIDTH (see powrap)."""
    from .powrap import wrap

    kept = _KEPT_LAYOUTS
    if kept is not None and keyword == "msgid" and not prefix and do_wrap and not flags and len(text) > _KEPT_FROM:
        lines = kept.get(text)
        if lines is None:
            lines = kept[text] = wrap(keyword, text, prefix, WRAP_WIDTH, do_wrap, flags)
        return lines
    return wrap(keyword, text, prefix, WRAP_WIDTH, do_wrap, flags)


_KEPT_LAYOUTS: dict[str, list[str]] | None = None
"""While :func:`kept_layouts` runs: the lines of each msgid longer than :data:`_KEPT_FROM`
characters written without a prefix, a format flag or ``no-wrap``, by its text (never changed
by a caller: ``lines += ...`` extends the caller's own list)."""
_KEPT_FROM = 40
"""A shorter msgid fits on its line after ``msgid "``: its layout costs a length test."""


@contextmanager
def kept_layouts():
    """Within it, each long msgid is laid out once, however many catalogs write it (a
    template and the catalogs merged from it hold the same msgids): the lines are the same."""
    global _KEPT_LAYOUTS
    before, _KEPT_LAYOUTS = _KEPT_LAYOUTS, ({} if _KEPT_LAYOUTS is None else _KEPT_LAYOUTS)
    try:
        yield
    finally:
        _KEPT_LAYOUTS = before


def _comment_lines(marker: str, text: str | None, as_read: list[str] | None = None) -> list[str]:
    """Comment lines; ``as_read`` (the lines the reader saw) keeps a lone empty ``#`` line,
    which the joined string cannot tell from no comment at all."""
    lines = as_read if as_read is not None and "\n".join(as_read) == (text or "") else (text.split("\n") if text else [])
    return [f"{marker} {line}" if line else marker for line in lines]


def first_msgstr(entry) -> str:
    """The msgstr, or of a plural entry msgstr[0]: empty when the entry is not translated."""
    return entry.msgstr_plural.get(0, entry.msgstr_plural.get("0", "")) if entry.msgid_plural else entry.msgstr


def _entry_lines(entry) -> list[str]:
    prefix = "#~ " if entry.obsolete else ""
    tcomments, comments = getattr(entry, "comment_lines", (None, None))
    lines = _comment_lines("#", entry.tcomment, tcomments) + _comment_lines("#.", entry.comment, comments)
    if entry.occurrences:
        # GNU keeps one copy of a repeated reference
        refs = list(dict.fromkeys(f"{p}:{n}" if n else p for p, n in entry.occurrences))
        line = "#:"
        for ref in refs:
            if line != "#:" and len(line) + 1 + len(ref) > WRAP_WIDTH:
                lines.append(line)
                line = "#:"
            line += " " + ref
        lines.append(line)
    flags = _gnu_flags(entry.flags)
    if not first_msgstr(entry) and "fuzzy" in flags:
        flags.remove("fuzzy")  # GNU writes "fuzzy" only on an entry that has a translation
    if flags:
        lines.append("#, " + ", ".join(flags))
    do_wrap = "no-wrap" not in flags
    fmt = [f for f in flags if f.endswith("-format") and not f.startswith("no-")]
    previous = "#~| " if entry.obsolete else "#| "
    if entry.previous_msgctxt is not None:
        lines += _string_lines("msgctxt", entry.previous_msgctxt, previous, do_wrap, fmt)
    if entry.previous_msgid is not None:
        lines += _string_lines("msgid", entry.previous_msgid, previous, do_wrap, fmt)
    if getattr(entry, "previous_msgid_plural", None) is not None:
        lines += _string_lines("msgid_plural", entry.previous_msgid_plural, previous, do_wrap, fmt)
    if entry.msgctxt is not None:
        lines += _string_lines("msgctxt", entry.msgctxt, prefix, do_wrap, fmt)
    lines += _string_lines("msgid", entry.msgid, prefix, do_wrap, fmt)
    if entry.msgid_plural:
        lines += _string_lines("msgid_plural", entry.msgid_plural, prefix, do_wrap, fmt)
        for index in sorted(entry.msgstr_plural, key=int):
            lines += _string_lines(f"msgstr[{index}]", entry.msgstr_plural[index], prefix, do_wrap, fmt)
    else:
        lines += _string_lines("msgstr", entry.msgstr, prefix, do_wrap, fmt)
    return lines


def entry_block(entry) -> str:
    """One entry as :func:`write_po` writes it among the others (without the blank line between)."""
    return "\n".join(_entry_lines(entry))


def header_text(po) -> str:
    """The header's msgstr: as read (so lines without a colon and spacing survive) unless the
    metadata was changed since, then rebuilt from it as ``Key: value`` lines."""
    meta = "".join(f"{key}: {value}\n" for key, value in po.metadata.items())
    raw = getattr(po, "raw_header", None)
    if raw is not None and getattr(po, "raw_metadata", None) == po.metadata:
        return raw
    return meta


def header_block(po) -> str:
    """The header entry of ``po`` as :func:`write_po` writes it (without the blank line after)."""
    header = _comment_lines("#", po.header, getattr(po, "header_lines", None))
    if po.metadata_is_fuzzy:
        header.append("#, fuzzy")
    header += ['msgid ""'] + _string_lines("msgstr", header_text(po))
    return "\n".join(header)


def write_po(po: polib.POFile) -> bytes:
    """The bytes of a catalog, formatted exactly as GNU gettext 0.21's msgcat writes it.

    Poedit, Weblate (translate-toolkit) and msgcat wrap at 79 columns the gettext way (see
    powrap), so a catalog saved by any of them and rewritten here does not churn.
    """
    blocks = []
    header = header_block(po)
    active = [e for e in po if not e.obsolete]
    at = min(getattr(po, "header_index", 0), len(active))
    for entry in active[:at]:
        blocks.append("\n".join(_entry_lines(entry)))
    blocks.append(header)
    for entry in active[at:]:
        blocks.append("\n".join(_entry_lines(entry)))
    for entry in po.obsolete_entries():
        if not first_msgstr(entry):
            continue  # msgcat drops an obsolete entry without a translation: it holds nothing
        blocks.append("\n".join(_entry_lines(entry)))
    return ("\n\n".join(blocks) + "\n").encode("utf-8")


def loose_entries(po, active=None) -> list:
    """The entries of ``po`` (obsolete ones included, the header left out) without a context or
    with plural forms, in the catalog's order: what a merge keyed by msgctxt cannot carry
    (:func:`.update.uncarried` keeps the translated ones).

    With ``active`` (the catalog's active entries by context, :meth:`.catalog.Catalog.active`,
    made already), as many of them as entries means that every entry is active under a context
    of its own: then only plural forms are looked for, and not at all in a :class:`LightCatalog`
    whose :meth:`~LightCatalog.distinct` found none, nor in a :class:`ColumnCatalog`'s rows of
    the usual shape (only its rows kept whole may have them): the usual catalog's entries are
    not looked at. Otherwise, of a :class:`ColumnCatalog`, its contexts' column is searched; of
    a :class:`LightCatalog` or a polib catalog, its entries are, by passes in C."""
    if isinstance(po, ColumnCatalog):
        ctx, other = po.packed[0], po.packed[9]
        found = {index for index, row in other.items() if row[3] and index != po.header_row}
        if active is not None and len(active) == len(ctx) - (po.header_row is not None):
            return [po.entry(index) for index in sorted(found)]
        at = -1
        while True:
            try:
                at = ctx.index(None, at + 1)
            except ValueError:
                break
            if at != po.header_row:
                found.add(at)
        return [po.entry(index) for index in sorted(found)]
    if active is not None and len(active) == len(po) and getattr(po, "without_plurals", False):
        return []
    from operator import attrgetter

    context, plural = (itemgetter(0), itemgetter(3)) if isinstance(po, LightCatalog) else (attrgetter("msgctxt"), attrgetter("msgid_plural"))
    found = set(compress(count(), map(is_, map(context, po), repeat(None))))
    found.update(compress(count(), map(plural, po)))
    return [po[index] for index in sorted(found)]
