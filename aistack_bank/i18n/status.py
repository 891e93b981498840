"""`bank i18n status`: how complete and how current each language is, per question."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from operator import eq
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from polib import POEntry

    from .catalog import Catalog, Catalogs
    from .fields import TextField


@dataclass
class LanguageStatus:
    language: str
    total: int
    translated: int = 0
    fuzzy: int = 0
    untranslated: int = 0
    obsolete: int = 0
    source: bool = False
    incomplete_questions: list[str] = field(default_factory=list)

    @property
    def percent(self) -> float:
        return 100.0 * self.translated / self.total if self.total else 100.0

    def as_dict(self) -> dict:
        return asdict(self) | {"percent": round(self.percent, 1)}


def entry_state(entry: POEntry | None, english: str) -> str:
    """``translated``, ``fuzzy`` (marked, or made for another English text) or ``untranslated``."""
    if entry is None or not entry.msgstr:
        return "untranslated"
    if "fuzzy" in entry.flags or entry.msgid != english:
        return "fuzzy"
    return "translated"


def field_states(fields: list[TextField], active) -> list[str]:
    """:func:`entry_state` of each of ``fields`` (its entry in ``active``, ``Catalog.active()``),
    in the fields' order: taken once by a build for both the language's status and its
    localizing (:func:`language_status`, :func:`~.localize.localize` with ``states``)."""
    return [entry_state(active.get(text_field.key), text_field.text) for text_field in fields]


def has_columns(po) -> bool:
    """Whether ``po`` is a :class:`~.pofile.ColumnCatalog` holding every column (its texts too):
    :func:`column_states` reads it."""
    from .pofile import ColumnCatalog

    return isinstance(po, ColumnCatalog) and po.packed[1] is not None


def column_states(fields: list[TextField], po) -> tuple[list[str], dict[str, str]]:
    """:func:`field_states` of ``fields`` in ``po`` (:func:`has_columns`), read from its columns
    without making its entries, and the msgstr of each translated field by its key. An entry
    kept whole (``po.packed[9]``: obsolete, plural or of another shape) is read as the entry it is.

    When every field has an entry of the columns' shape (none missing, none kept whole), its
    texts are taken by C's ``map`` over the columns and only the states made in a list
    comprehension; a catalog translated throughout is found so (no fuzzy flag, no empty msgstr,
    every msgid the field's English text) without one."""
    index = po.active()._index  # (the active entries' rows by msgctxt, as Catalog.active() maps them)
    _, ids, strs, _, _, _, _, flags, _, other = po.packed
    keys = [text_field.key for text_field in fields]
    at = list(map(index.get, keys))
    if None not in at and not (other and not other.keys().isdisjoint(at)):
        msgstrs = list(map(strs.__getitem__, at))
        marks = list(map(flags.__getitem__, at))
        same = list(map(eq, map(ids.__getitem__, at), [text_field.text for text_field in fields]))
        if all(msgstrs) and not any(marks) and all(same):
            return ["translated"] * len(keys), dict(zip(keys, msgstrs))
        states = ["untranslated" if not msgstr else "fuzzy" if (mark and "fuzzy" in mark and "fuzzy" in mark.split(",")) or not english else "translated"
                  for msgstr, mark, english in zip(msgstrs, marks, same)]
        return states, {key: msgstr for key, msgstr, state in zip(keys, msgstrs, states) if state == "translated"}
    return _each_state(fields, po, index)


def _each_state(fields: list[TextField], po, index: dict) -> tuple[list[str], dict[str, str]]:
    """:func:`column_states` field by field (an entry missing or kept whole among them)."""
    _, ids, strs, _, _, _, _, flags, _, other = po.packed
    states: list[str] = []
    texts: dict[str, str] = {}
    state = states.append
    for text_field in fields:
        key = text_field.key
        at = index.get(key)
        if at is None:
            state("untranslated")
        elif other and at in other:
            found = entry_state(po.entry(at), text_field.text)
            state(found)
            if found == "translated":
                texts[key] = other[at][2]
        elif not (msgstr := strs[at]):
            state("untranslated")
        elif ((flag := flags[at]) and "fuzzy" in flag and "fuzzy" in flag.split(",")) or ids[at] != text_field.text:
            state("fuzzy")
        else:
            state("translated")
            texts[key] = msgstr
    return states, texts


def _obsolete(po) -> int:
    """How many obsolete entries ``po`` holds (of a :func:`has_columns` catalog, counted among
    its rows kept whole, where every obsolete one is, without making its entries)."""
    if has_columns(po):
        return sum(1 for row in po.packed[9].values() if row[12])
    return len(po.obsolete_entries())


def language_status(fields: list[TextField], catalog: Catalog, states: list[str] | None = None) -> LanguageStatus:
    """How much of ``fields`` ``catalog`` translates (``states``: :func:`field_states` of these
    fields in this catalog, when the caller has them)."""
    if states is None:
        states = field_states(fields, catalog.active())
    status = LanguageStatus(language=catalog.language, total=len(fields), obsolete=_obsolete(catalog.po))
    status.translated = states.count("translated")
    status.fuzzy = states.count("fuzzy")
    status.untranslated = states.count("untranslated")
    incomplete = {_owner(text_field) for text_field, state in zip(fields, states) if state != "translated"}
    if incomplete:
        order = {_owner(field): i for i, field in enumerate(reversed(fields))}
        status.incomplete_questions = sorted(incomplete, key=lambda q: -order[q])
    return status


def _owner(text_field: TextField) -> str:
    """What a field belongs to: its question id, else ``topic.<id>`` or ``category.<id>``."""
    return text_field.question_id or ".".join(text_field.key.split(".")[:2])


def catalog_status(bank_dir: Path, translations: Path):
    """(statuses with English first, diagnostics) for the bank and its catalogs."""
    from .catalog import Catalogs
    from .fields import read_bank_fields
    from . import SOURCE_LANGUAGE

    fields, diags = read_bank_fields(bank_dir)  # (the read bank itself is not held while the catalogs are read)
    if diags:
        return [], diags
    statuses, diags = _folder_status(fields, translations, Catalogs(light=True, columns=True))
    return [LanguageStatus(language=SOURCE_LANGUAGE, total=len(fields), translated=len(fields), source=True)] + statuses, diags


def _folder_status(fields, folder, catalogs: Catalogs | None = None):
    """(statuses, diagnostics) of every catalog in ``folder`` against ``fields``.

    With ``catalogs`` (the bank's catalogs: :class:`~.catalog.Catalogs` with ``light`` and
    ``columns``, as `bank validate` and `bank build` read them, through the user cache), each
    catalog is read a file at a time into its columns and the states taken from them
    (:func:`column_states`) without making its entries; each read is dropped once counted.
    Without, each is read whole (:func:`~.catalog.read_catalog`: the practice site's small ones)."""
    from .catalog import read_catalog
    from .update import catalog_paths

    statuses, diags = [], []
    for path in catalog_paths(folder) if folder.is_dir() else []:
        catalog = catalogs.read(path) if catalogs is not None else read_catalog(path)
        if catalogs is not None:
            catalogs.forget(path)
        if catalog.diagnostics:
            diags += catalog.diagnostics
            continue
        states = column_states(fields, catalog.po)[0] if has_columns(catalog.po) else None
        statuses.append(language_status(fields, catalog, states))
        del catalog
    return statuses, diags


def site_status(translations: Path):
    """(statuses, diagnostics) of the practice site's interface catalogs."""
    from .site import SITE_DIR, site_fields

    return _folder_status(site_fields(), translations / SITE_DIR)
