"""`bank i18n extract`: the template (`.pot`) of every translatable English text."""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

from .catalog import new_catalog, render_catalog
from .fields import TextField, bank_fields

def template_header(project: str, languages: list[str]) -> str:
    """The template's header comment, naming the project and its catalogs."""
    catalogs = ", ".join(f"{lang}.po" for lang in languages) or "one <language>.po per language"
    return (
        f"Translatable texts of the {project} question bank (English source).\n"
        "Generated from bank/ by `bank i18n update`, which also merges it into the\n"
        f"language catalogs ({catalogs}): do not edit; translate in the catalogs."
    )


TEMPLATE_HEADER = template_header("aistack", ["fr", "nl"])
"""The header of this repository's template (kept for readers of earlier versions)."""


def reference(path: Path, project_root: Path) -> str:
    """A `#:` reference relative to the project root, the same from any working directory."""
    return _reference(str(path), str(project_root), os.getcwd())


@lru_cache(maxsize=65536)
def _reference(path: str, project_root: str, cwd: str) -> str:
    # A file's reference is its folder's and its name, when the folder is within the project
    # root (the questions of one folder ask the folder once); else made whole.
    folder, name = os.path.split(path)
    if folder and name and name not in (".", ".."):
        within = _folder_reference(folder, project_root, cwd)
        if within == ".":
            return name
        if within != ".." and not within.startswith("../"):
            return within + "/" + name
    return _whole_reference(path, project_root, cwd)


@lru_cache(maxsize=4096)
def _folder_reference(folder: str, project_root: str, cwd: str) -> str:
    return _whole_reference(folder, project_root, cwd)


def _whole_reference(path: str, project_root: str, cwd: str) -> str:
    absolute = os.path.abspath(os.path.join(cwd, path))
    return Path(os.path.relpath(absolute, os.path.abspath(os.path.join(cwd, project_root)))).as_posix()


def build_template(fields: list[TextField], project_root: Path, header: str = TEMPLATE_HEADER):
    """A polib template with one entry per field, in bank order."""
    import polib

    pot = new_catalog("", header)
    cwd = os.getcwd()
    refs: dict = {}  # (a file's fields, about twenty, one after the other: its reference once)
    for field in fields:
        path = field.path
        if path not in refs:
            refs[path] = _reference(str(path), str(project_root), cwd)
        pot.append(polib.POEntry(
            msgctxt=field.key,
            msgid=field.text,
            msgstr="",
            occurrences=[(refs[path], str(field.line))],
            comment="\n".join(field.notes),
        ))
    return pot


def folder_header(translations: Path, extra_languages: list[str] = (), template: Path | None = None) -> str:
    """The template header for the catalogs folder ``translations`` (its project and languages)."""
    from . import template_path
    from .catalog import is_language_code

    found = {p.stem for p in translations.glob("*.po") if not p.name.startswith(".") and is_language_code(p.stem)} if translations.is_dir() else set()
    languages = sorted(found | set(extra_languages))
    return template_header((template or template_path(translations)).stem, languages)


def render_template(source, translations: Path) -> bytes:
    """The bytes of the template (`<project>.pot`) for the bank read into ``source``."""
    return render_catalog(build_template(bank_fields(source), translations.resolve().parent, folder_header(translations)))


def extract(bank_dir: Path, translations: Path, *, compare: bool = False):
    """Write (or with ``compare``, only compare) the template `<project>.pot`; return (path, changed, diagnostics)."""
    from ..errors import Severity
    from ..load import read_library
    from ..writing import write_atomic
    from . import template_path

    source = read_library(bank_dir)
    errors = [d for d in source.diagnostics if d.severity is Severity.ERROR]
    path = template_path(translations)
    if errors:
        return path, False, errors
    data = render_template(source, translations)
    if compare:
        from ..writing import same_bytes

        return path, not same_bytes(path, data), []
    return path, write_atomic(path, data), []
