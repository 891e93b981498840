"""A catalog file read and checked: the gettext layer's unit between the files and the pipeline.

:func:`read_catalog` reads one `.po`/`.pot` file with the strict reader of :mod:`.pofile`
(every grammar error located by line and column), then checks what GNU msgfmt checks
(duplicates, plural counts) and the project's own conventions (header fields, one msgctxt per
field). :func:`render_catalog` writes a catalog byte for byte as GNU msgcat does
(:func:`.pofile.write_po`). :class:`Catalogs` is one command's reads, passed down explicitly so
that validation and localization of a build share them.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import Diagnostic, Location, error
from .languages import LANGUAGES, TWO_FORMS, plural_forms, same_plural_rule
from .pofile import WRAP_WIDTH, LightCatalog, catalog_of, first_msgstr, read_entries, write_po

if TYPE_CHECKING:
    import polib

MAX_CATALOG_BYTES = 512 << 20
"""Largest catalog accepted: a 100 000-question bank has catalogs of about 440 MB."""

PLURAL_FORMS = {code: lang.plural_forms for code, lang in LANGUAGES.items()}
LANGUAGE_NAMES = {code: lang.name for code, lang in LANGUAGES.items()}

LANGUAGE_CODE = re.compile(r"^[a-z]{2,3}(?:[_-](?:[A-Z][a-z]{3}|[A-Z]{2}|[0-9]{3})){0,2}(?:@[a-z][a-z0-9]{1,15})?$")
"""A catalog's language: ISO 639 code, optional script and region (``fr``, ``pt_BR``, ``zh-Hant``,
``zh_Hant_TW``, ``es_419``), optional POSIX modifier (``sr@latin``)."""


def is_language_code(code: str) -> bool:
    """Whether ``code`` (a catalog file name's stem) is a language code that is safe in every format."""
    return bool(LANGUAGE_CODE.fullmatch(code))


_PLURAL_SYNTAX = re.compile(r"^\s*nplurals\s*=\s*[1-9][0-9]*\s*;\s*plural\s*=\s*[-+*/%!<>=&|?:()n0-9 \t]+;?\s*$")


@dataclass(frozen=True)
class Catalog:
    """A read catalog: where it came from, its entries (``po``) and what is wrong with it.

    ``po`` is None when the file is unusable; ``diagnostics`` then say why. Each call of
    :func:`read_catalog` returns a new one, which the caller owns.
    """

    path: Path
    language: str
    po: polib.POFile | None
    diagnostics: list[Diagnostic]
    _text: dict[str, list[str]] = field(default_factory=dict, init=False, repr=False, compare=False)

    def file_lines(self) -> list[str]:
        """The lines of the file as it is now, read on first use: diagnostics that point into a
        string (a msgstr line, a column) are rare, so the reader does not keep the text."""
        if "lines" not in self._text:
            try:
                self._text["lines"] = self.path.read_text(encoding="utf-8", errors="replace").split("\n")
            except OSError:
                self._text["lines"] = []
        return self._text["lines"]

    def active(self) -> dict[str, polib.POEntry]:
        """Active (non-obsolete) entries by msgctxt."""
        return {e.msgctxt: e for e in self.po if e.msgctxt is not None and not e.obsolete}

    def obsolete(self) -> dict[str, polib.POEntry]:
        return {e.msgctxt: e for e in self.po.obsolete_entries() if e.msgctxt is not None}


render_catalog = write_po
"""The bytes of a catalog's ``po``, as GNU msgcat writes them."""


def read_catalog(path: Path, *, template: bool = False, use_cache: bool = False, light: bool = False) -> Catalog:
    """Read and check the catalog at ``path`` (a template with ``template``: no language).

    Every call reads the file: to share one read between the steps of a command, pass a
    :class:`Catalogs` down. With ``use_cache``, the parsed entries and their diagnostics come
    from the per-file store when the file's bytes are those of a stored read (each call still
    returns new objects, which the caller owns). With ``light``, ``po`` is a
    :class:`~.pofile.LightCatalog` (for checks that only read it; kept in a store of its own).
    """
    language = "" if template else path.stem
    if use_cache:
        from ..cache.store import Store, file_digest, key_of

        kind = "catalog-light" if light else "catalog-read"
        store = Store(kind, path, keep=1)
        digest = file_digest(path)
        key = key_of(kind, str(path), template, digest) if digest is not None else None
        found = store.get(key) if key is not None else None
        if light:
            made = LightCatalog
        else:
            import polib

            made = polib.POFile
        if (isinstance(found, tuple) and len(found) == 2 and (found[0] is None or isinstance(found[0], made))
                and isinstance(found[1], list) and all(isinstance(d, Diagnostic) for d in found[1])):
            return Catalog(path=path, language=language, po=found[0], diagnostics=found[1])
        catalog = _read_and_check(path, language, light)
        if key is not None and file_digest(path) == digest:  # stored only for the bytes it read
            store.put(key, (catalog.po, catalog.diagnostics))
            store.save()
        return catalog
    return _read_and_check(path, language, light)


def _read_and_check(path: Path, language: str, light: bool = False) -> Catalog:
    po, diagnostics = _read_po_file(path, light)
    catalog = Catalog(path=path, language=language, po=po, diagnostics=diagnostics)
    if po is not None:
        for check in (check_header, check_duplicates, check_one_context_per_field, check_plural_counts):
            diagnostics += check(catalog)
    return catalog


def _read_po_file(path: Path, light: bool = False) -> tuple[polib.POFile | LightCatalog | None, list[Diagnostic]]:
    """The entries of the file at ``path`` and its read errors (safety, encoding, grammar)."""
    from ..safety import UnsafeFile, read_regular

    try:
        # A catalog may be a symbolic link only within the folder above its own.
        raw = read_regular(path, MAX_CATALOG_BYTES, root=path.absolute().parent.parent, what="catalog")
    except UnsafeFile as exc:
        return None, [error("E115" if exc.code == "E115" else "E501", exc.message, Location.of(path))]
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        return None, [error("E501", "catalog is not valid UTF-8; save it as UTF-8", Location.of(path, line, exc.start - raw.rfind(b"\n", 0, exc.start)))]
    del raw  # neither the bytes nor the text are held longer than needed
    entries, diags = read_entries(text, path)
    del text
    return (None, diags) if entries is None else (catalog_of(entries, light=light), [])


class Catalogs:
    """The catalogs of one command, each file read once, on first use.

    A command makes one and passes it to each step that reads catalogs (validation, then
    localization and the practice site's interface texts of a build), so that they share one
    read of each file. Nothing is kept from one command to the next, and no step may change
    what it is given.
    """

    def __init__(self, *, use_cache: bool = True, light: bool = False) -> None:
        self._read: dict[str, Catalog] = {}
        self.use_cache = use_cache
        self.light = light  # each ``po`` a LightCatalog: for checks that only read the catalogs

    def read(self, path: Path) -> Catalog:
        """The catalog at ``path`` (a target-language catalog), read on the first call (from
        the per-file store of parsed catalogs when its bytes are those of a stored read)."""
        key = os.path.abspath(path)
        if key not in self._read:
            self._read[key] = read_catalog(path, use_cache=self.use_cache, light=self.light)
        return self._read[key]

    def forget(self, path: Path) -> None:
        """Drop the read of ``path``: the step that used it last frees it (a later
        :meth:`read` reads it again)."""
        self._read.pop(os.path.abspath(path), None)


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
        if entry.obsolete or not entry.msgid_plural or "fuzzy" in entry.flags or not first_msgstr(entry):
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
