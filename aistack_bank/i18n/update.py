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
    """A new polib catalog: ``catalog`` (or a fresh one) brought in step with ``template``."""
    import polib

    from .catalog import new_catalog
    from .languages import TWO_FORMS, plural_forms

    stats = MergeStats()
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
    active = {e.msgctxt: e for e in catalog if e.msgctxt is not None and not e.obsolete} if catalog is not None else {}
    obsolete = {e.msgctxt: e for e in catalog.obsolete_entries() if e.msgctxt is not None} if catalog is not None else {}
    template_keys = set()
    for template_entry in template:
        template_keys.add(template_entry.msgctxt)
        old = active.get(template_entry.msgctxt)
        revived = old is None and template_entry.msgctxt in obsolete
        if old is None:
            old = obsolete.get(template_entry.msgctxt)
        entry = polib.POEntry(msgctxt=template_entry.msgctxt, msgid=template_entry.msgid, msgstr="", occurrences=list(template_entry.occurrences), comment=template_entry.comment)
        if old is None:
            stats.added += 1
        else:
            entry.tcomment = old.tcomment
            entry.msgstr = old.msgstr
            entry.flags = [f for f in old.flags]
            entry.previous_msgid = old.previous_msgid if "fuzzy" in old.flags else None
            if old.msgid != template_entry.msgid and old.msgstr:
                if "fuzzy" not in entry.flags:
                    entry.flags.append("fuzzy")
                    stats.fuzzied += 1
                    stats.fuzzied_keys.append(template_entry.msgctxt)
                entry.previous_msgid = entry.previous_msgid or old.msgid
            elif old.msgid == template_entry.msgid and not revived:
                stats.kept += 1
            if not entry.msgstr:
                entry.flags = [f for f in entry.flags if f != "fuzzy"]
                entry.previous_msgid = None
            if revived:
                stats.revived += 1
        merged.append(entry)
    gone = [e for k, e in active.items() if k not in template_keys and e.msgstr]
    gone += [e for k, e in obsolete.items() if k not in template_keys and k not in active and e.msgstr]
    for old in sorted(gone, key=lambda e: e.msgctxt):
        if not old.obsolete:
            stats.obsoleted += 1
            stats.obsoleted_keys.append(old.msgctxt)
        merged.append(polib.POEntry(
            msgctxt=old.msgctxt, msgid=old.msgid, msgstr=old.msgstr, tcomment=old.tcomment,
            flags=list(old.flags), previous_msgid=old.previous_msgid, obsolete=True,
        ))
    return merged, stats


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
    """
    from ..errors import Severity
    from ..writing import write_or_compare
    from . import template_path
    from .catalog import render_catalog
    from .extract import build_template, folder_header
    from .fields import bank_fields
    from ..load import read_library

    source = read_library(bank_dir)
    diags = [d for d in source.diagnostics if d.severity is Severity.ERROR]
    if diags:
        return [], diags
    existing = template_path(translations)
    pot_path = translations / f"{project}.pot" if project is not None and not existing.exists() else existing
    template = build_template(bank_fields(source), translations.resolve().parent, folder_header(translations, languages or [], pot_path))
    pot_bytes = render_catalog(template)
    targets = {p.stem: p for p in catalog_paths(translations)}
    for lang in languages or []:
        targets.setdefault(lang, translations / f"{lang}.po")
    planned = [(pot_path, pot_bytes, None)]
    for lang, path in sorted(targets.items()):
        diags += _plan_catalog(planned, path, template, lang, catalog_header(lang, pot_path.stem))
    diags += _plan_site(planned, translations, sorted(targets), pot_path.stem)
    if diags:
        return [], diags
    return [(path, write_or_compare(path, data, compare=compare), stats) for path, data, stats in planned], []


def _plan_catalog(planned: list, path, template, lang: str, header: str) -> list:
    """Append the merged catalog at ``path`` to ``planned``; return its read errors (if any)."""
    from .catalog import read_catalog, render_catalog

    old = None
    if path.exists():
        catalog = read_catalog(path)
        if catalog.diagnostics:
            return catalog.diagnostics
        old = catalog.po
    merged, stats = merge_catalog(template, old, lang, header)
    planned.append((path, render_catalog(merged), stats))
    return []


def _plan_site(planned: list, translations, languages: list[str], project: str = "aistack") -> list:
    """The practice site's interface template and catalogs, planned like the bank's."""
    from .catalog import render_catalog
    from .extract import build_template
    from .site import SITE_DIR, SITE_HEADER, SITE_TEMPLATE, site_fields, site_reference_root

    folder = translations / SITE_DIR
    template = build_template(site_fields(), site_reference_root())
    template.header = SITE_HEADER
    planned.append((folder / SITE_TEMPLATE, render_catalog(template), None))
    targets = set(languages) | ({p.stem for p in catalog_paths(folder)} if folder.is_dir() else set())
    diags = []
    for lang in sorted(targets):
        header = catalog_header(lang, project).replace("question bank", "practice site interface")
        diags += _plan_catalog(planned, folder / f"{lang}.po", template, lang, header)
    return diags
