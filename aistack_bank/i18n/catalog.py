"""Reading and writing `.po`/`.pot` files: a strict syntax check with line numbers, then polib.

polib accepts broken escapes, a missing ``msgstr`` and unterminated strings without a word, so
:func:`read_catalog` first checks the PO grammar line by line and reports the exact line and
column of anything wrong; only a file that passes is handed to polib.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import Diagnostic, Location, error
from .languages import LANGUAGES, TWO_FORMS, plural_forms, same_plural_rule

WRAP_WIDTH = 79
"""Line width of written catalogs: GNU gettext's default, so msgcat, Poedit and Weblate agree."""

MAX_CATALOG_BYTES = 256 << 20
"""Largest catalog accepted: a 50 000-question bank has catalogs of about 150 MB."""

PLURAL_FORMS = {code: lang.plural_forms for code, lang in LANGUAGES.items()}
LANGUAGE_NAMES = {code: lang.name for code, lang in LANGUAGES.items()}

LANGUAGE_CODE = re.compile(r"^[a-z]{2,3}(?:[_-](?:[A-Z][a-z]{3}|[A-Z]{2}|[0-9]{3})){0,2}(?:@[a-z][a-z0-9]{1,15})?$")
"""A catalog's language: ISO 639 code, optional script and region (``fr``, ``pt_BR``, ``zh-Hant``,
``zh_Hant_TW``, ``es_419``), optional POSIX modifier (``sr@latin``)."""


def is_language_code(code: str) -> bool:
    """Whether ``code`` (a catalog file name's stem) is a language code that is safe in every format."""
    return bool(LANGUAGE_CODE.fullmatch(code))


_PLURAL_SYNTAX = re.compile(r"^\s*nplurals\s*=\s*[1-9][0-9]*\s*;\s*plural\s*=\s*[-+*/%!<>=&|?:()n0-9 \t]+;?\s*$")


@dataclass
class Catalog:
    """A read catalog: the polib file and where it came from."""

    path: Path
    language: str
    po: object  # polib.POFile
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def active(self) -> dict[str, object]:
        """Active (non-obsolete) entries by msgctxt."""
        return {e.msgctxt: e for e in self.po if e.msgctxt is not None and not e.obsolete}

    def obsolete(self) -> dict[str, object]:
        return {e.msgctxt: e for e in self.po.obsolete_entries() if e.msgctxt is not None}


_READ_CACHE: dict[tuple, "Catalog"] = {}


def read_catalog(path: Path, *, template: bool = False) -> Catalog:
    """Read and check a catalog; ``po`` is None (and diagnostics say why) when unusable.

    Within one process a catalog whose file has not changed (same inode, size and mtime) is read
    once: validation and localization of a build share it. Callers must not modify it.
    """
    try:
        st = path.stat()
        key = (str(path.resolve()), st.st_ino, st.st_size, st.st_mtime_ns, template)
    except OSError:
        key = None
    if key is not None and key in _READ_CACHE:
        return _READ_CACHE[key]
    catalog = _read_catalog(path, template=template)
    if key is not None:
        if len(_READ_CACHE) > 16:
            _READ_CACHE.clear()
        _READ_CACHE[key] = catalog
    return catalog


def _read_catalog(path: Path, *, template: bool = False) -> Catalog:
    language = "" if template else path.stem
    stub = Catalog(path=path, language=language, po=None)
    where = Location.of(path)
    from ..safety import UnsafeFile, read_regular

    try:
        # A catalog may be a symbolic link only within the folder above its own.
        raw = read_regular(path, MAX_CATALOG_BYTES, root=path.absolute().parent.parent, what="catalog")
    except UnsafeFile as exc:
        stub.diagnostics.append(error("E115" if exc.code == "E115" else "E501", exc.message, where))
        return stub
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        stub.diagnostics.append(error("E501", "catalog is not valid UTF-8; save it as UTF-8", Location.of(path, line, exc.start - raw.rfind(b"\n", 0, exc.start))))
        return stub
    from .pofile import parse_po

    stub.po, syntax = parse_po(text, path)
    stub.diagnostics += syntax
    if stub.po is None:
        return stub
    stub.diagnostics += check_header(stub)
    stub.diagnostics += check_duplicates(stub)
    return stub


def check_header(catalog: Catalog) -> list[Diagnostic]:
    """Content-Type, Language and Plural-Forms of a target-language catalog."""
    meta = catalog.po.metadata
    where = Location.of(catalog.path, 1, 1)
    diags = []
    content_type = meta.get("Content-Type", "")
    if "charset=utf-8" not in content_type.replace(" ", "").lower():
        diags.append(error("E505", f"header Content-Type must declare charset=UTF-8 (found {content_type!r})", where))
    if not catalog.language:
        return diags
    lang = meta.get("Language", "")
    if lang.replace("-", "_").split("_")[0].lower() != catalog.language.replace("-", "_").split("_")[0].lower():
        diags.append(error("E505", f"header Language is {lang!r} but the file is {catalog.path.name}; set Language: {catalog.language}", where))
    plural = meta.get("Plural-Forms", "")
    expected = plural_forms(catalog.language)
    if not plural:
        diags.append(error("E505", f"header Plural-Forms is missing; for {catalog.language} use: {expected or TWO_FORMS}", where))
    elif not _PLURAL_SYNTAX.match(plural):
        diags.append(error("E505", f"header Plural-Forms {plural!r} is not valid; expected e.g. {expected or TWO_FORMS}", where))
    elif expected and plural.replace(" ", "") != expected.replace(" ", "") and not same_plural_rule(plural, expected):
        diags.append(error("E505", f"header Plural-Forms {plural!r} is wrong for {catalog.language}; use {expected!r}", where))
    return diags


def check_duplicates(catalog: Catalog) -> list[Diagnostic]:
    diags = []
    seen: dict[tuple, int] = {}
    for entry in catalog.po:
        name = entry.msgctxt if entry.msgctxt is not None else f"(no context) {entry.msgid}"
        key = (bool(entry.obsolete), name)
        if key in seen:
            diags.append(error("E506", f"entry {name!r} appears twice (first at line {seen[key]}); keep one", Location.of(catalog.path, entry.linenum or 0, 1 if entry.linenum else 0)))
        else:
            seen[key] = entry.linenum or 0
    return diags


_QUOTES = set("\"'«»‘’“”‹›")
_NO_BREAK_BEFORE = set(")]}!?,.;:/")
_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r", "\a": "\\a", "\b": "\\b", "\f": "\\f", "\v": "\\v"}


_ESCAPE_TABLE = str.maketrans(_ESCAPES)


def _escape(text: str) -> str:
    return text.translate(_ESCAPE_TABLE)


def _width(text: str) -> int:
    """Display columns of ``text`` (East Asian wide characters count two, as gettext counts)."""
    if text.isascii():
        return len(text)
    import unicodedata

    return len(text) + sum(1 for c in text if ord(c) >= 0x1100 and unicodedata.east_asian_width(c) in "WF")


def _chunks(piece: str) -> list[str]:
    """``piece`` cut where GNU gettext may break a line (a subset of UAX #14 that covers prose)."""
    cuts, start = [], 0
    for i in range(len(piece) - 1):
        c, nxt = piece[i], piece[i + 1]
        prev = piece[i - 1] if i else ""
        if c == " ":
            before = piece[:i].rstrip(" ")[-1:]  # the character before the run of spaces
            ok = nxt != " " and nxt not in _NO_BREAK_BEFORE and before not in "([{" and not (before in _QUOTES and nxt in "([{")
        elif c in "-/":
            ok = not nxt.isdigit() and not nxt.isspace() and nxt not in _NO_BREAK_BEFORE and nxt not in _QUOTES and prev not in (" ", "") and prev not in _QUOTES
        elif c in "–—":
            ok = not nxt.isdigit() and nxt != " "
        else:
            ok = False
        if ok:
            cuts.append(piece[start:i + 1])
            start = i + 1
    cuts.append(piece[start:])
    return cuts


def _string_lines(keyword: str, text: str, prefix: str = "") -> list[str]:
    """``keyword "text"`` as GNU gettext writes it at width WRAP_WIDTH."""
    head = f"{prefix}{keyword} "
    escaped = _escape(text)
    inner_newline = "\n" in text[:-1]
    if not inner_newline and _width(head) + _width(escaped) + 2 <= WRAP_WIDTH:
        return [f'{head}"{escaped}"']
    pieces = [p for p in text.split("\n")]
    raw_pieces = [p + "\n" for p in pieces[:-1]] + ([pieces[-1]] if pieces[-1] else [])
    lines = [f'{head}""']
    for piece in raw_pieces:
        current = ""
        for chunk in _chunks(piece):
            chunk = _escape(chunk)
            if current and _width(prefix) + _width(current) + _width(chunk) + 2 > WRAP_WIDTH:
                lines.append(f'{prefix}"{current}"')
                current = chunk
            else:
                current += chunk
        if current:
            lines.append(f'{prefix}"{current}"')
    return lines


def _comment_lines(marker: str, text: str | None) -> list[str]:
    if not text:
        return []
    return [f"{marker} {line}".rstrip() if line else marker for line in text.split("\n")]


def _entry_lines(entry) -> list[str]:
    prefix = "#~ " if entry.obsolete else ""
    lines = _comment_lines("#", entry.tcomment) + _comment_lines("#.", entry.comment)
    if entry.occurrences and not entry.obsolete:
        refs = [f"{p}:{n}" if n else p for p, n in entry.occurrences]
        line = "#:"
        for ref in refs:
            if line != "#:" and len(line) + 1 + len(ref) > WRAP_WIDTH:
                lines.append(line)
                line = "#:"
            line += " " + ref
        lines.append(line)
    if entry.flags:
        lines.append("#, " + ", ".join(entry.flags))
    previous = "#~| " if entry.obsolete else "#| "
    if entry.previous_msgctxt is not None:
        lines += _string_lines("msgctxt", entry.previous_msgctxt, previous)
    if entry.previous_msgid is not None:
        lines += _string_lines("msgid", entry.previous_msgid, previous)
    if entry.msgctxt is not None:
        lines += _string_lines("msgctxt", entry.msgctxt, prefix)
    lines += _string_lines("msgid", entry.msgid, prefix)
    if entry.msgid_plural:
        lines += _string_lines("msgid_plural", entry.msgid_plural, prefix)
        for index in sorted(entry.msgstr_plural, key=int):
            lines += _string_lines(f"msgstr[{index}]", entry.msgstr_plural[index], prefix)
    else:
        lines += _string_lines("msgstr", entry.msgstr, prefix)
    return lines


def render_catalog(po) -> bytes:
    """The bytes of a catalog, formatted exactly as GNU gettext's msgcat writes it.

    Poedit, Weblate (translate-toolkit) and msgcat wrap at 79 columns the gettext way, so a
    catalog saved by any of them and rewritten here does not churn.
    """
    blocks = []
    header = _comment_lines("#", po.header)
    if po.metadata_is_fuzzy:
        header.append("#, fuzzy")
    meta = "".join(f"{key}: {value}\n" for key, value in po.metadata.items())
    header += ['msgid ""'] + _string_lines("msgstr", meta)[0:1] if not meta else ['msgid ""', 'msgstr ""'] + [f'"{_escape(line)}"' for line in meta.splitlines(keepends=True)]
    blocks.append("\n".join(header))
    for entry in po:
        if not entry.obsolete:
            blocks.append("\n".join(_entry_lines(entry)))
    for entry in po.obsolete_entries():
        blocks.append("\n".join(_entry_lines(entry)))
    return ("\n\n".join(blocks) + "\n").encode("utf-8")


def new_catalog(language: str, header_comment: str):
    import polib

    po = polib.POFile(wrapwidth=WRAP_WIDTH)
    po.header = header_comment
    po.metadata = {
        "Project-Id-Version": "aistack-bank",
        "Report-Msgid-Bugs-To": "",
        "Language-Team": f"{LANGUAGE_NAMES.get(language, language)}" if language else "",
        "Language": language,
        "MIME-Version": "1.0",
        "Content-Type": "text/plain; charset=UTF-8",
        "Content-Transfer-Encoding": "8bit",
    }
    if language:
        po.metadata["Plural-Forms"] = plural_forms(language) or TWO_FORMS
    else:
        del po.metadata["Language"]
        del po.metadata["Language-Team"]
    return po


def compile_catalog(po) -> bytes:
    """The .mo bytes of a catalog: translated, non-fuzzy, non-obsolete entries only."""
    import polib

    mo = polib.POFile(wrapwidth=WRAP_WIDTH)
    mo.metadata = dict(po.metadata)
    for entry in po.translated_entries():
        mo.append(polib.POEntry(msgctxt=entry.msgctxt, msgid=entry.msgid, msgstr=entry.msgstr))
    return mo.to_binary()
