"""The practice site's interface strings as a gettext domain of their own (`translations/site/`)."""

from __future__ import annotations

from pathlib import Path

from .fields import TextField

SITE_DIR = "site"
SITE_TEMPLATE = "site.pot"
SITE_HEADER = (
    "Interface of the aistack practice site (English source).\n"
    "Generated from aistack_bank/site_strings.py by `bank i18n update`; keep every\n"
    "{placeholder} exactly as in the English."
)


def site_fields() -> list[TextField]:
    """One field per interface string, referenced to its line in :mod:`aistack_bank.site_strings`."""
    from .. import site_strings

    source = Path(site_strings.__file__)
    lines = site_strings.ui_string_lines()
    fields = []
    for key, text in site_strings.UI_STRINGS.items():
        line = lines.get(key, 0)
        note = "Interface of the practice site." + (" Keep the {placeholders} as they are." if "{" in text else "")
        fields.append(TextField(key, text, source, line, (note,)))
    return fields


def site_reference_root() -> Path:
    """References (`#:`) are relative to the folder holding the package."""
    from .. import __file__ as package_init

    return Path(package_init).resolve().parent.parent


PACKAGED_DIR = "data/site"
"""Interface catalogs shipped in the package (copies of this project's `translations/site/`),
which `bank init` uses to start a new bank's interface catalogs already translated."""


def packaged_languages() -> list[str]:
    """Languages whose practice-site interface this package ships translated."""
    from importlib import resources

    folder = resources.files(__package__).joinpath(PACKAGED_DIR)
    return sorted(p.name[:-3] for p in folder.iterdir() if p.name.endswith(".po"))


def packaged_site_catalog(language: str):
    """The shipped interface catalog of ``language`` (a polib file), or None."""
    from importlib import resources

    from .pofile import read_po

    resource = resources.files(__package__).joinpath(PACKAGED_DIR, f"{language}.po")
    if language not in packaged_languages():
        return None
    po, diagnostics = read_po(resource.read_text(encoding="utf-8"), Path(f"{language}.po"))
    return po if po is not None and not diagnostics else None
