"""The practice site's interface strings as a gettext domain of their own (`translations/site/`)."""

from __future__ import annotations

from pathlib import Path

from .fields import TextField

SITE_DIR = "site"
SITE_TEMPLATE = "site.pot"
SITE_HEADER = (
    "Interface of the aistack practice site (English source).\n"
    "Generated from aistack_bank/exporters/html_site.py by `bank i18n update`; keep every\n"
    "{placeholder} exactly as in the English."
)


def site_fields() -> list[TextField]:
    """One field per interface string, referenced to its line in the exporter."""
    from ..exporters import html_site

    source = Path(html_site.__file__)
    lines = source.read_text(encoding="utf-8").split("\n")
    fields = []
    for key, text in html_site.UI_STRINGS.items():
        line = next((i for i, l in enumerate(lines, 1) if l.strip().startswith(f'"{key}"')), 0)
        note = "Interface of the practice site." + (" Keep the {placeholders} as they are." if "{" in text else "")
        fields.append(TextField(key, text, source, line, (note,)))
    return fields


def site_reference_root() -> Path:
    """References (`#:`) are relative to the folder holding the package."""
    from .. import __file__ as package_init

    return Path(package_init).resolve().parent.parent
