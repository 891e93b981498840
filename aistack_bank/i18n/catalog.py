"""Reading and writing `.po`/`.pot` files.

:func:`read_catalog` reads with the strict one-pass reader of ``pofile`` (every grammar error
located by line and column), then checks what GNU msgfmt checks (duplicates, plural counts) and
the project's own conventions (header fields, one msgctxt per field). :func:`render_catalog`
writes a catalog byte for byte as GNU msgcat does (layout of strings in ``gnuwrap``).
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
    stub.diagnostics += check_one_context_per_field(stub)
    stub.diagnostics += check_plural_counts(stub)
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
    """E506: two entries with the same (msgctxt, msgid), obsolete or not, which GNU refuses too."""
    diags = []
    seen: dict[tuple, int] = {}
    for entry in catalog.po:
        key = (entry.msgctxt, entry.msgid)
        if key in seen:
            name = entry.msgctxt if entry.msgctxt is not None else f"(no context) {entry.msgid}"
            diags.append(error("E506", f"entry {name!r} appears twice (first at line {seen[key]}); keep one", Location.of(catalog.path, entry.linenum or 0, 1 if entry.linenum else 0)))
        else:
            seen[key] = entry.linenum or 0
    return diags


def check_one_context_per_field(catalog: Catalog) -> list[Diagnostic]:
    """E530: the project names each translatable field by one msgctxt, so a msgctxt shared by
    entries with different msgids (valid for gettext) is ambiguous here."""
    diags = []
    seen: dict[tuple, tuple[int, str]] = {}
    for entry in catalog.po:
        if entry.msgctxt is None:
            continue
        key = (bool(entry.obsolete), entry.msgctxt)
        if key in seen and seen[key][1] != entry.msgid:
            diags.append(error("E530", f"msgctxt {entry.msgctxt!r} is used by two different msgids (first at line {seen[key][0]}); each field has one entry", Location.of(catalog.path, entry.linenum or 0, 1 if entry.linenum else 0)))
        else:
            seen.setdefault(key, (entry.linenum or 0, entry.msgid))
    return diags


_NPLURALS = re.compile(r"(?:^|;)\s*nplurals\s*=\s*([0-9]+)")


def check_plural_counts(catalog: Catalog) -> list[Diagnostic]:
    """E531: as msgfmt, every plural entry has exactly ``nplurals`` forms, msgstr[0] to msgstr[n-1]."""
    plural_forms = catalog.po.metadata.get("Plural-Forms", "")
    m = _NPLURALS.search(plural_forms)
    nplurals = int(m.group(1)) if m else 2
    header_line = getattr(catalog.po, "header_line", 1)
    diags = []
    for entry in catalog.po:
        # msgfmt compiles neither fuzzy nor untranslated entries (empty msgstr[0]) and checks only
        # what it compiles
        if entry.obsolete or not entry.msgid_plural or "fuzzy" in entry.flags or not _first_msgstr(entry):
            continue
        lines = getattr(entry, "plural_lines", None) or [(int(i), entry.linenum or 0) for i in sorted(entry.msgstr_plural, key=int)]
        indices = [i for i, _ in lines]
        line = lines[0][1] if lines else entry.linenum or 0
        if indices != list(range(len(indices))):
            bad = next(n for k, (i, n) in enumerate(lines) if i != k)
            diags.append(error("E531", f"plural forms must be numbered msgstr[0] to msgstr[{len(indices) - 1}] in order", Location.of(catalog.path, bad, 1)))
        elif len(indices) != nplurals:
            source = f"Plural-Forms at line {header_line} says nplurals={nplurals}" if m else "there is no Plural-Forms header, so nplurals=2"
            diags.append(error("E531", f"entry has {len(indices)} plural form{'s' if len(indices) != 1 else ''} but {source}", Location.of(catalog.path, line, 1)))
    return diags


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
    """``keyword "text"`` as GNU gettext writes it at width WRAP_WIDTH (see gnuwrap)."""
    from .gnuwrap import wrap

    return wrap(keyword, text, prefix, WRAP_WIDTH, do_wrap, flags)


def _comment_lines(marker: str, text: str | None, as_read: list[str] | None = None) -> list[str]:
    """Comment lines; ``as_read`` (the lines the reader saw) keeps a lone empty ``#`` line,
    which the joined string cannot tell from no comment at all."""
    lines = as_read if as_read is not None and "\n".join(as_read) == (text or "") else (text.split("\n") if text else [])
    return [f"{marker} {line}" if line else marker for line in lines]


def _first_msgstr(entry) -> str:
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
    if not _first_msgstr(entry) and "fuzzy" in flags:
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


def header_text(po) -> str:
    """The header's msgstr: as read (so lines without a colon and spacing survive) unless the
    metadata was changed since, then rebuilt from it as ``Key: value`` lines."""
    meta = "".join(f"{key}: {value}\n" for key, value in po.metadata.items())
    raw = getattr(po, "raw_header", None)
    if raw is not None and getattr(po, "raw_metadata", None) == po.metadata:
        return raw
    return meta


def render_catalog(po) -> bytes:
    """The bytes of a catalog, formatted exactly as GNU gettext 0.21's msgcat writes it.

    Poedit, Weblate (translate-toolkit) and msgcat wrap at 79 columns the gettext way (see
    gnuwrap), so a catalog saved by any of them and rewritten here does not churn.
    """
    blocks = []
    header = _comment_lines("#", po.header, getattr(po, "header_lines", None))
    if po.metadata_is_fuzzy:
        header.append("#, fuzzy")
    header += ['msgid ""'] + _string_lines("msgstr", header_text(po))
    active = [e for e in po if not e.obsolete]
    at = min(getattr(po, "header_index", 0), len(active))
    for entry in active[:at]:
        blocks.append("\n".join(_entry_lines(entry)))
    blocks.append("\n".join(header))
    for entry in active[at:]:
        blocks.append("\n".join(_entry_lines(entry)))
    for entry in po.obsolete_entries():
        if not _first_msgstr(entry):
            continue  # msgcat drops an obsolete entry without a translation: it holds nothing
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
