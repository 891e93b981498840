"""`bank i18n extract`: the template (`.pot`) of every translatable English text."""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

from .catalog import new_catalog, render_catalog
from .fields import TextField, bank_fields

TEMPLATE_HEADER = (
    "Translatable texts of the aistack question bank (English source).\n"
    "Generated from bank/ by `bank i18n update`, which also merges it into the\n"
    "language catalogs (fr.po, nl.po): do not edit; translate in the catalogs."
)


def reference(path: Path, project_root: Path) -> str:
    """A `#:` reference relative to the project root, the same from any working directory."""
    return _reference(str(path), str(project_root), os.getcwd())


@lru_cache(maxsize=65536)
def _reference(path: str, project_root: str, cwd: str) -> str:
    absolute = os.path.abspath(os.path.join(cwd, path))
    return Path(os.path.relpath(absolute, os.path.abspath(os.path.join(cwd, project_root)))).as_posix()


def build_template(fields: list[TextField], project_root: Path):
    """A polib template with one entry per field, in bank order."""
    import polib

    pot = new_catalog("", TEMPLATE_HEADER)
    for field in fields:
        pot.append(polib.POEntry(
            msgctxt=field.key,
            msgid=field.text,
            msgstr="",
            occurrences=[(reference(field.path, project_root), str(field.line))],
            comment="\n".join(field.notes),
        ))
    return pot


def render_template(source, translations: Path) -> bytes:
    """The bytes of `aistack.pot` for the bank read into ``source``."""
    return render_catalog(build_template(bank_fields(source), translations.resolve().parent))


def extract(bank_dir: Path, translations: Path, *, compare: bool = False):
    """Write (or with ``compare``, only compare) `aistack.pot`; return (path, changed, diagnostics)."""
    from ..errors import Severity
    from ..load import read_library
    from ..writing import write_atomic
    from . import TEMPLATE_NAME

    source = read_library(bank_dir)
    errors = [d for d in source.diagnostics if d.severity is Severity.ERROR]
    path = translations / TEMPLATE_NAME
    if errors:
        return path, False, errors
    data = render_template(source, translations)
    if compare:
        from ..writing import same_bytes

        return path, not same_bytes(path, data), []
    return path, write_atomic(path, data), []
