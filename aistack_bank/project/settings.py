"""Export settings: the ``[export]`` table of ``bank.toml``, overridden by command-line flags.

```toml
# bank.toml, beside bank/ and translations/
[export]
shuffle = true             # ask the LMS to shuffle options (Moodle XML, QTI 2.1, QTI 3.0)
answer_numbering = "abc"   # abc, ABCD, 123, iii, IIII or none (Moodle XML; QTI 3.0 except roman)
multilang = "span"         # span (Moodle's core filter) or mlang (filter_multilang2), multilang files
penalty = 0.3333333        # Moodle's penalty per wrong try: 1, 0.5, 0.3333333, 0.25, 0.2, 0.1 or 0

[languages]
ready = 100                # a language is exported once this percentage of its texts is translated
fallback = false           # true: export languages in progress too, untranslated texts in English (marked)
```
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields, replace
from pathlib import Path

from ..errors import Diagnostic, Location, SettingsError, warning
from ..exporters import LISTED
from ..options import ExportOptions

SETTINGS_FILE = Path("bank.toml")

NUMBERING = ("abc", "ABCD", "123", "iii", "IIII", "none")
"""Moodle's numbering styles (``qtype_multichoice::get_numbering_styles``)."""
MULTILANG = ("span", "mlang")
PENALTIES = (1.0, 0.5, 0.3333333, 0.25, 0.2, 0.1, 0.0)
"""The values Moodle's multiple-choice edit form offers for the penalty per wrong try."""

SETTABLE = ("shuffle", "answer_numbering", "multilang", "penalty")

CARRIED_BY: dict[str, tuple[str, ...]] = {key: tuple(name for name, listed in LISTED.items() if key in listed.honours) for key in ("shuffle", "answer_numbering", "penalty", "multilang")}
"""The LMS formats that can carry each option (from the formats' light table, which imports no writer). GIFT has no syntax for shuffling, numbering or a
penalty (Moodle's GIFT importer takes the site defaults); QTI has no penalty and QTI 2.1 no
numbering style; QTI 3.0 has no class for roman numerals."""

LMS_FORMATS = ("moodle-xml", "gift", "qti21", "qti30")


def check_value(key: str, value: object, where: str) -> object:
    """``value`` for option ``key``, or a ValueError naming what is allowed."""
    if key == "shuffle" and not isinstance(value, bool):
        raise ValueError(f"{where}shuffle must be true or false, not {value!r}")
    if key == "answer_numbering" and value not in NUMBERING:
        raise ValueError(f"{where}answer_numbering must be one of {', '.join(NUMBERING)}, not {value!r}")
    if key == "multilang" and value not in MULTILANG:
        raise ValueError(f"{where}multilang must be span or mlang, not {value!r}")
    if key == "penalty":
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not any(abs(float(value) - p) < 0.005 for p in PENALTIES):
            raise ValueError(f"{where}penalty must be one of Moodle's values {', '.join(f'{p:g}' for p in PENALTIES)}, not {value!r}")
        return next(p for p in PENALTIES if abs(float(value) - p) < 0.005)
    return value


def _line_of(text: str, key: str) -> int:
    for number, line in enumerate(text.split("\n"), start=1):
        if re.match(rf"\s*{re.escape(key)}\s*=", line):
            return number
    return 0


LANGUAGE_SETTINGS = ("ready", "fallback")


@dataclass(frozen=True)
class LanguagePolicy:
    """When a language is exported: the ``[languages]`` table of ``bank.toml``.

    A language of which at least ``ready`` percent of the texts is translated is *ready* and
    exported (its missing texts in English, marked as English where the format can say so); one
    below is *in progress* and left out with one warning, unless ``fallback`` is set, when it is
    exported the same way. A language with nothing translated is never exported."""

    ready: float = 100.0
    fallback: bool = False


def _read_toml(path: Path) -> tuple[dict, str]:
    """(the parsed file, its text); ({}, "") when it does not exist; SettingsError when unreadable."""
    if not path.is_file():
        return {}, ""
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        try:
            import tomli as tomllib  # type: ignore[no-redef]
        except ModuleNotFoundError:
            raise SettingsError("reading settings needs Python 3.11 or the tomli package", Location.of(path)) from None
    try:
        text = path.read_text(encoding="utf-8")
        data = tomllib.loads(text)
    except (OSError, UnicodeDecodeError) as exc:
        raise SettingsError(f"cannot read the settings file: {exc}", Location.of(path)) from None
    except tomllib.TOMLDecodeError as exc:
        found = re.search(r"line (\d+), column (\d+)", str(exc))
        line, column = (int(found.group(1)), int(found.group(2))) if found else (0, 0)
        raise SettingsError(f"not valid TOML: {exc}", Location.of(path, line, column)) from None
    unknown_tables = sorted(set(data) - {"export", "languages"})
    if unknown_tables:
        raise SettingsError(f"unknown table [{unknown_tables[0]}]; bank.toml has two tables, [export] and [languages]", Location.of(path, _line_of(text, f"[{unknown_tables[0]}") or 1))
    return data, text


def load_language_policy(path: Path = SETTINGS_FILE) -> LanguagePolicy:
    """The ``[languages]`` table of ``path`` (the defaults when there is none)."""
    data, text = _read_toml(path)
    table = data.get("languages", {})
    if not isinstance(table, dict):
        raise SettingsError("languages must be a table ([languages])", Location.of(path, _line_of(text, "languages")))
    values: dict[str, object] = {}
    for key, value in table.items():
        where = Location.of(path, _line_of(text, key), 1)
        if key not in LANGUAGE_SETTINGS:
            raise SettingsError(f"unknown language setting {key!r}; known: {', '.join(LANGUAGE_SETTINGS)}", where)
        if key == "fallback" and not isinstance(value, bool):
            raise SettingsError(f"fallback must be true or false, not {value!r}", where)
        if key == "ready" and (isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= 100):
            raise SettingsError(f"ready must be a percentage above 0 and at most 100, not {value!r}", where)
        values[key] = float(value) if key == "ready" else value
    return LanguagePolicy(**values)


def load_settings(path: Path = SETTINGS_FILE) -> dict[str, object]:
    """The ``[export]`` settings of ``path`` (nothing when the file does not exist)."""
    data, text = _read_toml(path)
    table = data.get("export", {})
    if not isinstance(table, dict):
        raise SettingsError("export must be a table ([export])", Location.of(path, _line_of(text, "export")))
    settings = {}
    for key, value in table.items():
        where = Location.of(path, _line_of(text, key), 1)
        if key not in SETTABLE:
            raise SettingsError(f"unknown export setting {key!r}; known: {', '.join(SETTABLE)}", where)
        try:
            settings[key] = check_value(key, value, "")
        except ValueError as exc:
            raise SettingsError(str(exc), where) from None
    return settings


def resolve_options(path: Path = SETTINGS_FILE, **flags: object) -> ExportOptions:
    """Defaults, then ``bank.toml``'s ``[export]`` table, then the flags that were given."""
    values = load_settings(path)
    for key, value in flags.items():
        if value is not None:
            values[key] = check_value(key, value, f"--{key.replace('_', '-')}: ")
    return replace(ExportOptions(), **values)


def option_notes(options: ExportOptions, formats: list[str]) -> list[Diagnostic]:
    """A warning for each non-default option that a written LMS format cannot carry."""
    default = ExportOptions()
    notes = []
    for f in fields(ExportOptions):
        if f.name not in CARRIED_BY or getattr(options, f.name) == getattr(default, f.name):
            continue
        value = getattr(options, f.name)
        for name in formats:
            lost = name in LMS_FORMATS and name not in CARRIED_BY[f.name]
            if f.name == "answer_numbering" and name == "qti30" and value in ("iii", "IIII"):
                lost = True
            if f.name == "multilang" and name not in ("moodle-xml", "gift"):
                lost = False  # only the multilingual Moodle files have multilang markup
            if lost:
                notes.append(warning("W801", f"{name} cannot carry {f.name} = {value!r}; the LMS applies its own default"))
    return notes
