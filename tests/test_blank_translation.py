"""A blank translation never ships: localized texts pass the same field rules as the English.

A msgstr of only spaces is "translated" for gettext (it is not empty), so it used to pass
`bank validate` and land in every export. Each translatable kind of field is tried: an option,
a stem, an option's feedback, an explanation and the topic title.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import polib
import pytest

from aistack_bank.build import available_languages, load_localized
from aistack_bank.errors import DiagnosticsError
from aistack_bank.i18n.catalog import read_catalog, render_catalog
from aistack_bank.i18n.fields import bank_fields
from aistack_bank.i18n.localize import localize
from aistack_bank.load import english_library, read_library
from aistack_bank.rules.validate import validate_bank

BLANKS = ["   ", "\u00a0\t", "\n"]


@pytest.fixture
def project(project) -> Path:
    """conftest's scratch copy of the bank cut down to conftest.SAMPLE: each test validates,
    localizes or builds the whole bank once to find one blank text, which is in q001, the
    topic or the category (every kind of field is there)."""
    from conftest import keep_only

    return keep_only(project)


@lru_cache(maxsize=None)
def _bundled_keys() -> tuple[str, ...]:
    from conftest import REPO

    return tuple(f.key for f in bank_fields(read_library(REPO / "bank")))


def _key_of_kind(kind: str) -> str:
    """The first key of a field kind in the bundled bank (so the test follows the content)."""
    keys = _bundled_keys()
    suffix = {"option": r".option.", "stem": ".stem", "feedback": ".feedback", "explanation": ".explanation", "title": "topic.ai-hardware-software-stack.title", "category": "category.computer-systems.title"}[kind]
    if kind == "option":
        return next(k for k in keys if ".option." in k and not k.endswith(".feedback"))
    return next(k for k in keys if k.endswith(suffix))


KINDS = ["option", "stem", "feedback", "explanation", "title", "category"]


def blank_out(catalog: Path, key: str, blank: str = "   ") -> int:
    """Set ``key``'s msgstr to ``blank``; return the line of its ``msgstr`` in the written file."""
    po = polib.pofile(str(catalog), wrapwidth=79)
    entry = next(e for e in po if e.msgctxt == key and not e.obsolete)
    entry.msgstr = blank
    catalog.write_bytes(render_catalog(po))
    lines = catalog.read_text(encoding="utf-8").split("\n")
    start = lines.index(f'msgctxt "{key}"')
    return next(i for i in range(start, len(lines)) if lines[i].startswith("msgstr")) + 1


@pytest.mark.parametrize("kind", KINDS)
def test_validate_reports_a_blank_translation_at_its_catalog_line(project, kind):
    key = _key_of_kind(kind)
    fr = project / "translations" / "fr.po"
    line = blank_out(fr, key)
    report = validate_bank(project / "bank", translations=project / "translations")
    found = [(d.code, str(d.location)) for d in report.errors]
    assert ("E510", f"translations/fr.po:{line}:1") in found, [str(d) for d in report.diagnostics]
    message = next(d.message for d in report.errors if d.code == "E510")
    assert key in message


@pytest.mark.parametrize("blank", BLANKS, ids=["spaces", "nbsp-tab", "newline"])
def test_every_kind_of_blank_is_refused(project, blank):
    key = _key_of_kind("option")
    line = blank_out(project / "translations" / "nl.po", key, blank)
    report = validate_bank(project / "bank", translations=project / "translations")
    assert ("E510", f"translations/nl.po:{line}:1") in [(d.code, str(d.location)) for d in report.errors]


@pytest.mark.parametrize("kind", KINDS)
def test_localize_refuses_a_blank_translation(project, kind):
    """The localized bank is built through the model's validators, not around them."""
    key = _key_of_kind(kind)
    line = blank_out(project / "translations" / "fr.po", key)
    source = read_library(project / "bank")
    english = english_library(source)
    localized, diags = localize(source, english, read_catalog(project / "translations" / "fr.po"))
    assert localized is None
    assert [(d.code, str(d.location)) for d in diags if d.severity.value == "error"] == [("E510", f"translations/fr.po:{line}:1")]
    # the same with fallback allowed: a blank text is not a missing one, it is never exported
    localized, diags = localize(source, english, read_catalog(project / "translations" / "fr.po"), allow_fallback=True)
    assert localized is None and [d.code for d in diags if d.severity.value == "error"] == ["E510"]


@pytest.mark.parametrize("command", [("build", "--out", "exports"), ("export", "gift", "--lang", "fr", "--out", "exports")], ids=["build", "export"])
def test_build_and_export_refuse_a_blank_translation_and_write_nothing(project, run_cli, command):
    key = _key_of_kind("option")
    line = blank_out(project / "translations" / "fr.po", key)
    code, out = run_cli(*command)
    assert code == 1, out
    assert f"translations/fr.po:{line}:1: error E510: " in out
    assert not (project / "exports").exists()


def test_load_localized_refuses_it_too(project):
    key = _key_of_kind("stem")
    blank_out(project / "translations" / "fr.po", key)
    with pytest.raises(DiagnosticsError) as info:
        load_localized(project / "bank", project / "translations", available_languages(project / "translations"))
    assert "E510" in {d.code for d in info.value.diagnostics}


def test_a_blank_interface_string_of_the_practice_site_is_refused(project):
    catalog = project / "translations" / "site" / "fr.po"
    key = next(e.msgctxt for e in polib.pofile(str(catalog)) if e.msgstr)
    line = blank_out(catalog, key)
    report = validate_bank(project / "bank", translations=project / "translations")
    assert ("E510", f"translations/site/fr.po:{line}:1") in [(d.code, str(d.location)) for d in report.errors]
