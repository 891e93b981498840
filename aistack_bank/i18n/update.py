"""`bank i18n update`: merge the template into each catalog, keyed by msgctxt, losing nothing.

Babel's ``Catalog.update`` semantics with stable keys instead of similarity matching:

* same key, same English: the translation, its flags and translator comments are kept;
* same key, changed English: the translation is kept, marked ``fuzzy``, and the English it
  was made from is kept as ``#| msgid`` (the oldest one, if it was already fuzzy);
* a key that left the template: the entry becomes obsolete (``#~``), never deleted
  (untranslated entries, which hold no work, are dropped);
* a key that comes back: its obsolete translation is revived (fuzzy if the English changed).

Running it twice changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class MergeStats:
    kept: int = 0
    added: int = 0
    fuzzied: int = 0
    revived: int = 0
    obsoleted: int = 0
    fuzzied_keys: list[str] = field(default_factory=list)
    """The msgctxt of each entry this merge made fuzzy, in catalog order."""
    obsoleted_keys: list[str] = field(default_factory=list)
    """The msgctxt of each entry this merge made obsolete."""


def merge_catalog(template, catalog, language: str, header_comment: str):
    """A new polib catalog: ``catalog`` (or a fresh one) brought in step with ``template``.

    A translated entry without a msgctxt, or with plural forms, has no place in it: callers
    refuse a catalog that has one (:func:`uncarried`) before they merge it."""
    import polib

    stats = MergeStats()
    merged = _merged_head(catalog, language, header_comment)
    for msgctxt, msgid, msgstr, occurrences, comment, tcomment, flags, previous_msgid, obsolete in _merged_rows(template, catalog, stats):
        merged.append(polib.POEntry(
            msgctxt=msgctxt, msgid=msgid, msgstr=msgstr, occurrences=occurrences, comment=comment, tcomment=tcomment,
            flags=flags, previous_msgid=previous_msgid, obsolete=obsolete,
        ))
    return merged, stats


def _merged_head(catalog, language: str, header_comment: str):
    """The merged catalog without its entries: a new one's header, or ``catalog``'s (fields
    it lacks added)."""
    from .catalog import new_catalog
    from .languages import TWO_FORMS, plural_forms

    merged = new_catalog(language, header_comment)
    if catalog is not None:
        merged.header = catalog.header
        merged.metadata = dict(catalog.metadata)
        for key, value in new_catalog(language, header_comment).metadata.items():
            merged.metadata.setdefault(key, value)
        if not merged.metadata.get("Plural-Forms"):
            merged.metadata["Plural-Forms"] = plural_forms(language) or TWO_FORMS
        merged.metadata_is_fuzzy = catalog.metadata_is_fuzzy
        # the header as read, kept byte for byte unless a field had to be added
        merged.raw_header = getattr(catalog, "raw_header", None)
        merged.raw_metadata = getattr(catalog, "raw_metadata", None)
    return merged


def _merged_rows(template, catalog, stats: MergeStats):
    """Each entry of the merged catalog in its order, as (msgctxt, msgid, msgstr, occurrences,
    comment, tcomment, flags, previous_msgid, obsolete), ``stats`` counted as they are made
    (the values polib's ``POEntry`` defaults to where the merge sets none)."""
    active = {e.msgctxt: e for e in catalog if e.msgctxt is not None and not e.obsolete} if catalog is not None else {}
    obsolete = {e.msgctxt: e for e in catalog.obsolete_entries() if e.msgctxt is not None} if catalog is not None else {}
    template_keys = set()
    for template_entry in template:
        template_keys.add(template_entry.msgctxt)
        old = active.get(template_entry.msgctxt)
        revived = old is None and template_entry.msgctxt in obsolete
        if old is None:
            old = obsolete.get(template_entry.msgctxt)
        if old is None:
            stats.added += 1
            yield (template_entry.msgctxt, template_entry.msgid, "", list(template_entry.occurrences), template_entry.comment,
                   "", [], None, False)
            continue
        msgstr = old.msgstr
        flags = [f for f in old.flags]
        previous_msgid = old.previous_msgid if "fuzzy" in old.flags else None
        if old.msgid != template_entry.msgid and old.msgstr:
            if "fuzzy" not in flags:
                flags.append("fuzzy")
                stats.fuzzied += 1
                stats.fuzzied_keys.append(template_entry.msgctxt)
            previous_msgid = previous_msgid or old.msgid
        elif old.msgid == template_entry.msgid and not revived:
            stats.kept += 1
        if not msgstr:
            flags = [f for f in flags if f != "fuzzy"]
            previous_msgid = None
        if revived:
            stats.revived += 1
        yield (template_entry.msgctxt, template_entry.msgid, msgstr, list(template_entry.occurrences), template_entry.comment,
               old.tcomment, flags, previous_msgid, False)
    gone = [e for k, e in active.items() if k not in template_keys and e.msgstr]
    gone += [e for k, e in obsolete.items() if k not in template_keys and k not in active and e.msgstr]
    for old in sorted(gone, key=lambda e: e.msgctxt):
        if not old.obsolete:
            stats.obsoleted += 1
            stats.obsoleted_keys.append(old.msgctxt)
        yield (old.msgctxt, old.msgid, old.msgstr, [], "", old.tcomment, list(old.flags), old.previous_msgid, True)


def catalog_header(language: str, project: str = "aistack") -> str:
    from .languages import english_name

    name = english_name(language)
    return (
        f"{name} translation of the {project} question bank.\n"
        "Keep numbers, units and formulas exactly as in the English: `bank validate` compares them."
    )


def catalog_paths(translations):
    """The target-language catalogs in ``translations``, sorted by language.

    Only files named by a language code count; :func:`misnamed_catalogs` reports the others.
    """
    from .catalog import is_language_code

    return sorted(p for p in translations.glob("*.po") if not p.name.startswith(".") and is_language_code(p.stem))


def misnamed_catalogs(translations) -> list:
    """E541 for each ``*.po`` whose name is not a language code (it would reach every export)."""
    from ..errors import Location, error
    from .catalog import is_language_code

    return [error("E541", f"{p.name!r} is not named by a language code such as fr, pt_BR or zh-Hant; rename it", Location.of(p))
            for p in sorted(translations.glob("*.po")) if not p.name.startswith(".") and not is_language_code(p.stem)]


def update_catalogs(bank_dir: Path, translations: Path, *, languages: list[str] | None = None, compare: bool = False, project: str | None = None):
    """Refresh the template, then merge it into every catalog (and any new ``languages``).

    The template is the folder's ``.pot`` (named after the project); a folder without one gets
    ``<project>.pot`` (``aistack.pot`` when ``project`` is None).

    Returns (results, diagnostics) where results are (path, changed, MergeStats). Nothing is
    written when a catalog has errors: its translators' work is never overwritten blindly.

    Each file is laid out and compared with the file on disk as it is made, one entry at a
    time (:func:`_settled`): only the bytes of a file that changes are kept until everything
    is read and written, and the merged catalogs are never held whole; each long msgid is
    laid out once for the template and all the catalogs (:func:`.pofile.kept_layouts`).
    """
    from ..errors import Severity
    from ..writing import write_or_compare
    from . import template_path
    from .extract import folder_header
    from .fields import bank_fields
    from .pofile import kept_layouts
    from ..load import read_library

    source = read_library(bank_dir)
    diags = [d for d in source.diagnostics if d.severity is Severity.ERROR]
    if diags:
        return [], diags
    fields = bank_fields(source)
    del source  # the questions are not needed past their fields
    existing = template_path(translations)
    pot_path = translations / f"{project}.pot" if project is not None and not existing.exists() else existing
    head, template = _template(fields, translations.resolve().parent, folder_header(translations, languages or [], pot_path))
    del fields
    targets = {p.stem: p for p in catalog_paths(translations)}
    for lang in languages or []:
        targets.setdefault(lang, translations / f"{lang}.po")
    with kept_layouts():
        planned = [(pot_path, _settled(pot_path, _blocks(head, template)), None)]
        for lang, path in sorted(targets.items()):
            diags += _plan_catalog(planned, path, template, lang, catalog_header(lang, pot_path.stem))
    del template
    diags += _plan_site(planned, translations, sorted(targets), pot_path.stem)
    if diags:
        return [], diags
    return [(path, data is not None and write_or_compare(path, data, compare=compare), stats) for path, data, stats in planned], []


def _template(fields, project_root: Path, header: str):
    """The template's header (a polib catalog without entries) and its entries, as
    :func:`.extract.build_template` makes them but each a :class:`~.pofile.LightEntry`."""
    from .catalog import new_catalog
    from .extract import reference
    from .pofile import LightEntry

    none = (None, None)
    return new_catalog("", header), [
        LightEntry((field.key, field.text, "", "", {}, [(reference(field.path, project_root), str(field.line))], "\n".join(field.notes),
                    "", [], None, None, None, False, none, [], 0))
        for field in fields
    ]


def _blocks(head, entries):
    """The bytes of the catalog of the header of ``head`` and ``entries`` as
    :func:`.pofile.write_po` writes them, a piece at a time: the header first, as of a catalog
    made by :func:`.catalog.new_catalog` (read ones may place it elsewhere)."""
    from .pofile import entry_block, first_msgstr, header_block

    yield header_block(head).encode("utf-8")
    obsolete = []
    for entry in entries:
        if entry.obsolete:
            obsolete.append(entry)
        else:
            yield ("\n\n" + entry_block(entry)).encode("utf-8")
    for entry in obsolete:
        if first_msgstr(entry):  # msgcat drops an obsolete entry without a translation
            yield ("\n\n" + entry_block(entry)).encode("utf-8")
    yield b"\n"


def _settled(path: Path, pieces) -> bytes | None:
    """None when the file at ``path`` is a regular file holding the bytes of ``pieces``, else
    those bytes (compared piece by piece with the file as they come)."""
    from ..writing import regular_bytes

    raw = regular_bytes(path)
    if raw is None:
        return b"".join(pieces)
    at = 0
    for piece in pieces:
        if raw.startswith(piece, at):
            at += len(piece)
            continue
        rest = [raw[:at], piece]
        raw = None  # not held while the rest is laid out
        rest.extend(pieces)
        return b"".join(rest)
    return None if at == len(raw) else raw[:at]


def _plan_catalog(planned: list, path, template, lang: str, header: str) -> list:
    """Append the merged catalog at ``path`` to ``planned`` (its bytes, None when the file holds
    them already); return its read errors (if any)."""
    from .catalog import read_catalog
    from .pofile import LightEntry

    old = None
    if path.exists():
        catalog = read_catalog(path, light=True)
        if catalog.diagnostics:
            return catalog.diagnostics
        old = catalog.po
        refused = uncarried(path, old)
        if refused:
            return refused
    stats = MergeStats()
    none = (None, None)
    entries = (LightEntry((msgctxt, msgid, msgstr, "", {}, occurrences, comment, tcomment, flags, None, previous_msgid, None, obsolete, none, [], 0))
               for msgctxt, msgid, msgstr, occurrences, comment, tcomment, flags, previous_msgid, obsolete in _merged_rows(template, old, stats))
    planned.append((path, _settled(path, _blocks(_merged_head(old, lang, header), entries)), stats))
    return []


def uncarried(path, entries, *, command: str = "bank i18n update", found_by_validate: bool = False) -> list:
    """E542 for each translated entry of ``entries`` (a catalog's, obsolete ones included) the
    merge cannot carry: the bank's texts are keyed by msgctxt and have no plural forms, so an
    entry without a context, or a translation in plural forms, would not reach the merged file.
    ``command`` (which merges the catalog) refuses it, nothing written, rather than drop a
    translator's string. With ``found_by_validate``: W505, the same entries as `bank validate`
    warns of them before the update refuses them."""
    from ..errors import Location, error, warning

    found = []
    for entry in entries:
        plural = any(text for text in (entry.msgstr_plural or {}).values())
        if not (entry.msgstr or plural) or (entry.msgctxt is not None and not entry.msgid_plural):
            continue
        what = "has plural forms, which the bank's texts do not have" if entry.msgid_plural else "has no msgctxt, which every text of the bank has"
        where = Location.of(path, entry.linenum or 0, 1 if entry.linenum else 0)
        if found_by_validate:
            found.append(warning("W505", f"the translated entry {entry.msgid[:60]!r} {what}: `bank i18n update` would drop it, so it will refuse it (E542); "
                                 "move its translation to the entry of the text it translates, or delete it", where))
        else:
            found.append(error("E542", f"the translated entry {entry.msgid[:60]!r} {what}: `{command}` would drop it, so nothing was written; "
                               "move its translation to the entry of the text it translates, or delete it", where))
    return found


def _plan_site(planned: list, translations, languages: list[str], project: str = "aistack") -> list:
    """The practice site's interface template and catalogs, planned like the bank's."""
    from .extract import build_template
    from .site import SITE_DIR, SITE_HEADER, SITE_TEMPLATE, site_fields, site_reference_root

    folder = translations / SITE_DIR
    template = build_template(site_fields(), site_reference_root())
    template.header = SITE_HEADER
    site_pot = folder / SITE_TEMPLATE
    planned.append((site_pot, _settled(site_pot, _blocks(template, list(template))), None))
    targets = set(languages) | ({p.stem for p in catalog_paths(folder)} if folder.is_dir() else set())
    diags = []
    for lang in sorted(targets):
        header = catalog_header(lang, project).replace("question bank", "practice site interface")
        diags += _plan_catalog(planned, folder / f"{lang}.po", template, lang, header)
    return diags
