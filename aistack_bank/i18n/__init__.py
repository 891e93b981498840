"""The gettext layer: template extraction, catalog merging, status, verification, localization.

``pofile`` reads and writes the text of catalogs, ``catalog`` reads and checks a catalog file;
extraction, merging, status, verification and localization work on what they return.

English is the source language: the template (`<project>.pot`, `aistack.pot` in this repository)
holds the English texts, and one catalog per target language (`fr.po`, `nl.po`) holds their
translations. Every entry is keyed by a stable ``msgctxt`` naming the field (``q003.option.c``),
never by fuzzy text matching.
"""

from __future__ import annotations

from pathlib import Path

TEMPLATE_NAME = "aistack.pot"
"""The template's name in a folder that has none yet (`bank init` names it after the project)."""
SOURCE_LANGUAGE = "en"


def template_path(translations: Path) -> Path:
    """The template of the catalogs in ``translations``: the ``.pot`` file there, named after the
    project (the first by name if there are several), else :data:`TEMPLATE_NAME`."""
    found = sorted(p for p in translations.glob("*.pot") if not p.name.startswith(".")) if translations.is_dir() else []
    return found[0] if found else translations / TEMPLATE_NAME


def project_name(translations: Path) -> str:
    """The project's short name, as its template is named (``aistack`` for `aistack.pot`)."""
    return template_path(translations).stem
