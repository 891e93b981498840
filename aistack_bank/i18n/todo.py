"""`bank i18n todo LANG`: a translator's to-do list, each entry of one language still to do.

An entry is to do when it is *untranslated* (no msgstr, or no entry at all), *fuzzy* (marked so
for review) or *changed* (fuzzy because its English changed: ``#| msgid`` keeps the English the
translation was made for), or when it was made for another English text and the catalog was not
updated. Each is located at its ``msgstr`` line, where the translator types, in bank order.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path

from ..errors import Diagnostic, Location


@dataclass(frozen=True)
class TodoEntry:
    """One entry still to translate or to review."""

    path: str
    line: int
    key: str
    state: str
    """``untranslated``, ``fuzzy`` or ``changed``."""
    english: str
    """The English text now."""
    previous: str | None = None
    """For a changed entry: the English the translation was made for."""

    def location(self) -> str:
        return f"{self.path}:{self.line}" if self.line else self.path

    def as_dict(self) -> dict:
        return {name: value for name, value in asdict(self).items() if value is not None}


def todo_entries(fields, catalog) -> list[TodoEntry]:
    """The entries of ``catalog`` still to do for ``fields`` (the texts of the bank, or of the
    practice site's interface), in the order of ``fields``."""
    from itertools import repeat

    from .locations import msgstr_location

    active = catalog.active()
    path = Location.of(catalog.path).path
    todo: list[TodoEntry] = []
    for field, done in zip(fields, _translated(fields, catalog.po) or repeat(False)):
        if done:
            continue
        entry = active.get(field.key)
        if entry is None:
            todo.append(TodoEntry(path, 0, field.key, "untranslated", field.text))
            continue
        line = msgstr_location(catalog, entry).line
        if not entry.msgstr:
            state, previous = "untranslated", None
        elif entry.previous_msgid and entry.previous_msgid != field.text:
            state, previous = "changed", entry.previous_msgid
        elif entry.msgid != field.text:
            state, previous = "changed", entry.msgid  # made for another English: run `bank i18n update`
        elif "fuzzy" in entry.flags:
            state, previous = "fuzzy", None
        else:
            continue
        todo.append(TodoEntry(path, line, field.key, state, field.text, previous))
    return todo


def _translated(fields, po) -> list[bool] | None:
    """Of a catalog read into its columns (:func:`~.status.has_columns`), whether each of
    ``fields`` is translated and its entry of the columns' usual shape (so without a ``#|``
    previous part): nothing to do, found from the columns without making its entry. None for
    another catalog (each entry is then looked at)."""
    from .status import column_states, has_columns

    if not has_columns(po):
        return None
    states, _ = column_states(fields, po)
    index, whole = po.active()._index, po.packed[9]
    return [state == "translated" and index[field.key] not in whole for field, state in zip(fields, states)]


def language_todo(bank_dir: Path, translations: Path, lang: str, *, interface: bool = False) -> tuple[list[TodoEntry], list[Diagnostic]]:
    """(entries to do, errors) of the catalog of ``lang``: the bank's, or with ``interface`` the
    practice site's. Raises UsageError when there is no such catalog."""
    from ..errors import UsageError
    from .catalog import Catalogs, read_catalog
    from .fields import read_bank_fields
    from .site import SITE_DIR, site_fields

    folder = translations / SITE_DIR if interface else translations
    path = folder / f"{lang}.po"
    if lang == "en":
        raise UsageError("en is the source language: it has nothing to translate")
    if not path.is_file():
        from .update import catalog_paths

        known = sorted(p.stem for p in catalog_paths(folder)) if folder.is_dir() else []
        raise UsageError(f"{path}: no such catalog; the languages are: {', '.join(known) or 'none'} (start one with `bank i18n update --lang {lang}`)")
    # (a bank's catalog read as `bank validate` reads it: into its columns, through the user cache)
    catalog = read_catalog(path) if interface else Catalogs(light=True, columns=True).read(path)
    if catalog.diagnostics:
        return [], catalog.diagnostics
    if interface:
        fields = site_fields()
    else:
        fields, problems = read_bank_fields(bank_dir)  # (the read bank itself is not held beside the catalog)
        if problems:
            return [], problems
    return todo_entries(fields, catalog), []
