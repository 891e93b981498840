"""Where a catalog entry's translation is in its file: the line of the msgstr, the column of a character.

The catalog's text is split into lines once (:meth:`Catalog.file_lines`), on the first
diagnostic that needs a position.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING

from ..errors import Diagnostic, Location, warning

if TYPE_CHECKING:
    from polib import POEntry

    from .catalog import Catalog
    from .fields import TextField

Hit = tuple[str, str, int]
"""(warning code, message, character offset in the msgstr) found in one translation."""


def msgstr_location(catalog: Catalog, entry: POEntry) -> Location:
    """The line of the entry's msgstr (or of the entry) in the catalog file."""
    lines = catalog.file_lines()
    start = (entry.linenum or 1) - 1
    for index in range(max(start, 0), min(len(lines), start + 400)):
        if lines[index].startswith("msgstr"):
            return Location.of(catalog.path, index + 1, 1)
    return Location.of(catalog.path, entry.linenum or 0)


def msgstr_offset_location(catalog: Catalog, entry: POEntry, offset: int) -> Location:
    """``path:line:col`` of character ``offset`` of the entry's msgstr in the catalog file."""
    start = msgstr_location(catalog, entry)
    lines = catalog.file_lines()
    if not start.line or start.line > len(lines):
        return start
    remaining = offset
    number = start.line
    while number <= len(lines):
        raw = lines[number - 1]
        quote = raw.find('"')
        if quote < 0:
            break
        body = raw[quote + 1:raw.rfind('"')] if raw.rfind('"') > quote else raw[quote + 1:]
        decoded = _unescape_prefix(body)
        if remaining < len(decoded) or (remaining == len(decoded) and number + 1 > len(lines)):
            return Location.of(catalog.path, number, quote + 2 + _escaped_length(body, remaining))
        remaining -= len(decoded)
        number += 1
        if number > len(lines) or not lines[number - 1].startswith('"'):
            break
    return start


def _unescape_prefix(body: str) -> str:
    return re.sub(r'\\(.)', lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), body)


def _escaped_length(body: str, decoded_chars: int) -> int:
    """How many raw characters of ``body`` hold its first ``decoded_chars`` decoded ones."""
    position = count = 0
    while position < len(body) and count < decoded_chars:
        position += 2 if body[position] == "\\" else 1
        count += 1
    return position


def current_translations(active: Mapping[str, POEntry], fields: Iterable[TextField]) -> list[tuple[TextField, POEntry]]:
    """(field, entry) of each of ``fields`` whose entry in ``active`` is translated and not
    fuzzy, in the order of ``fields``: the translations the lints look at."""
    current = []
    for field in fields:
        entry = active.get(field.key)
        if entry is not None and entry.msgstr and "fuzzy" not in entry.flags:
            current.append((field, entry))
    return current


def translation_warnings(catalog: Catalog, active: Mapping[str, POEntry], fields: Iterable[TextField],
                         find: Callable[[TextField, str], Iterable[Hit]], current: list[tuple[TextField, POEntry]] | None = None) -> list[Diagnostic]:
    """A warning at the exact character for each hit ``find(field, msgstr)`` reports in the
    current (translated, not fuzzy) translations of ``fields`` (``current``, when given: their
    :func:`current_translations`, which the caller made as it went through the fields)."""
    found: list[Diagnostic] = []
    for field, entry in current if current is not None else current_translations(active, fields):
        for code, message, offset in find(field, entry.msgstr):
            found.append(warning(code, f"{field.key}: {message}", msgstr_offset_location(catalog, entry, offset)))
    return found

