"""GIFT text as Moodle's ``qformat_gift`` reads it: its encoding, its escapes, and its blocks
(questions and categories between blank lines, ``//`` lines their comments), with line numbers.

The importer (:mod:`aistack_bank.importers.gift`) and `bank lint`'s model of Moodle's reader
(:mod:`aistack_bank.lms.models`) both read blocks through this module and type their answers
each for its own purpose.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ..errors import BankError, Location

ESCAPED = ("\\\\", "\\:", "\\#", "\\=", "\\{", "\\}", "\\~", "\\n")
"""GIFT's escapes: a backslash makes each of these characters literal (``\\n`` a line break)."""
MEANING = ("\\", ":", "#", "=", "{", "}", "~", "\n")
"""What each of :data:`ESCAPED` stands for."""
MOODLE_PLACEHOLDERS = ("&&058;", "&&035;", "&&061;", "&&123;", "&&125;", "&&126;", "&&010")
"""The texts ``escapedchar_pre`` puts in place of each escape but the first (Moodle turns an
escaped backslash into a backslash at once)."""


class Escapes:
    """Escaped characters hidden from the parsing (:meth:`protect`), then given back (:meth:`restore`).

    By default each escape becomes one of eight private-use characters that ``text`` does not
    hold, so that no character of the text is taken for an escape; ``moodle=True`` uses
    Moodle's own placeholders (``&&058;`` for ``\\:``, …), which a text holding them literally
    confuses, exactly as Moodle's reader is confused."""

    def __init__(self, text: str = "", *, moodle: bool = False):
        self.moodle = moodle
        if moodle:
            return
        held = set(re.findall("[\ue000-\uf8ff\U000f0000-\U0010ffff]", text))
        for base in [*range(0xE000, 0xF8F8, 8), *range(0xF0000, 0xFFFF8, 8)]:
            chars = [chr(base + i) for i in range(8)]
            if not held.intersection(chars):
                break
        self._hidden = dict(zip(ESCAPED, chars))
        self._meaning = dict(zip(chars, MEANING))

    def protect(self, text: str) -> str:
        """``text`` with each escape hidden."""
        if self.moodle:  # escapedchar_pre
            text = text.replace("\\\\", "&&092;")
            for escaped, placeholder in zip(ESCAPED[1:], MOODLE_PLACEHOLDERS):
                text = text.replace(escaped, placeholder)
            return text.replace("&&092;", "\\")
        return re.sub(r"\\[\\:#={}~n]", lambda m: self._hidden[m.group()], text)

    def restore(self, text: str) -> str:
        """``text`` with each hidden escape as the character it stands for."""
        if self.moodle:  # escapedchar_post
            for placeholder, meaning in zip(MOODLE_PLACEHOLDERS, MEANING[1:]):
                text = text.replace(placeholder, meaning)
            return text
        return "".join(self._meaning.get(c, c) for c in text)


@dataclass(frozen=True)
class Block:
    """A run of lines between blank lines: ``lines`` as (line number, line) in file order."""

    lines: list[tuple[int, str]]

    @staticmethod
    def is_comment(line: str) -> bool:
        return line.lstrip().startswith("//")

    @property
    def first(self) -> int:
        """The block's first line (a comment line included)."""
        return self.lines[0][0]

    @property
    def line(self) -> int:
        """The first line of the question (comment lines skipped), 0 for a block of comments only."""
        return next((number for number, text in self.lines if not self.is_comment(text)), 0)

    @property
    def text(self) -> str:
        """The block without its comment lines, lines as written."""
        return "\n".join(text for _, text in self.lines if not self.is_comment(text))

    @property
    def comments(self) -> list[str]:
        """The comment lines, as written."""
        return [text for _, text in self.lines if self.is_comment(text)]


def blocks(text: str) -> list[Block]:
    """The blocks of a GIFT text: runs of lines that are not blank (white space only)."""
    return list(iter_blocks(text))


def iter_blocks(text: str) -> Iterator[Block]:
    """:func:`blocks` one at a time, the text's lines split as they are reached (a long text's
    lines are never all held at once)."""
    lines: list[tuple[int, str]] = []
    number, start = 0, 0
    while True:
        end = text.find("\n", start)
        line = text[start:] if end < 0 else text[start:end]
        number += 1
        if line.strip():
            lines.append((number, line))
        elif lines:
            yield Block(lines)
            lines = []
        if end < 0:
            break
        start = end + 1
    if lines:
        yield Block(lines)


FORMAT = re.compile(r"^\s*\[(html|moodle|plain|markdown)\]")
"""A text's format marker (``[html]``, ``[moodle]``, ``[plain]``, ``[markdown]``) at its start."""


def format_prefix(text: str) -> tuple[str | None, str]:
    """(the format a text is marked with or None, the text after the marker)."""
    match = FORMAT.match(text)
    return (match.group(1), text[match.end():]) if match else (None, text)


def explode(text: str, mark: str) -> list[str]:
    """PHP's ``explode(mark, text)`` as Moodle's GIFT reader uses it: a first piece that is only
    white space is dropped."""
    pieces = text.split(mark)
    if pieces and not pieces[0].strip():
        pieces = pieces[1:]
    return pieces


DEFAULT_ENCODING = "utf-8"


def _utf16_guess(raw: bytes) -> str | None:
    """``utf-16`` (with a byte-order mark), ``utf-16-le`` or ``utf-16-be`` when ``raw`` looks
    like UTF-16 text (a BOM, or NUL bytes in every other place of its start), else None."""
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "utf-16"
    head = raw[:400]
    if len(head) >= 4:
        odd, even = head[1::2].count(0), head[0::2].count(0)
        if odd > len(head) // 4 and even == 0:
            return "utf-16-le"
        if even > len(head) // 4 and odd == 0:
            return "utf-16-be"
    return None


def decode(raw: bytes, path: Path, encoding: str = DEFAULT_ENCODING) -> str:
    """The text of a GIFT file in ``encoding`` (a BOM is dropped from UTF-8; a UTF-16 file with a
    BOM is read as UTF-16), every line ending as LF; BankError E705, at the line and column of
    the first undecodable byte, otherwise."""
    import codecs

    try:
        info = codecs.lookup(encoding)
    except LookupError:
        info = None
    if info is None or not getattr(info, "_is_text_encoding", True):
        why = "" if info is None else f": {info.name} is not a text encoding"
        raise BankError(f"unknown encoding {encoding!r}{why} (try utf-8, cp1252, latin-1 or utf-16)", Location.of(path), code="E705") from None
    name = info.name
    utf16 = _utf16_guess(raw)
    if name == "utf-8" and utf16 == "utf-16":  # a byte-order mark: read as UTF-16 if it decodes
        try:
            return raw.decode("utf-16").lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
        except UnicodeDecodeError:
            utf16 = None
    try:
        text = raw.decode("utf-8-sig" if name == "utf-8" else name)
    except UnicodeDecodeError as exc:
        before = raw[:exc.start]
        line = before.count(b"\n") + 1
        column = len(before) - (before.rfind(b"\n") + 1) + 1
        if utf16 and not name.startswith("utf-16"):
            hint = f" (the file looks like UTF-16: try --encoding {utf16})"
        else:
            hint = " (a file saved by Windows or an older editor is often cp1252: try --encoding cp1252)" if name == "utf-8" else ""
        shown = "UTF-8" if name == "utf-8" else name
        raise BankError(f"not {shown} text: byte 0x{raw[exc.start]:02x} cannot be decoded{hint}", Location.of(path, line, column), code="E705") from None
    if utf16 and not name.startswith("utf-16") and "\x00" in text:
        at = text.index("\x00")
        line = text.count("\n", 0, at) + 1
        raise BankError(f"the text holds NUL characters every other byte: the file looks like UTF-16: try --encoding {utf16}", Location.of(path, line, at - (text.rfind("\n", 0, at) + 1) + 1), code="E705")
    return text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
