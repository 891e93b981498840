"""`bank check` in the catalog languages: what it reads of each catalog, and how much at once.

It reads each catalog the light way validation does, one at a time, so that a bank of 10 000
questions in three languages holds the library and one catalog, not two (598 MB before, at
N = 10 000). The findings must be those of a full read of the same catalog."""

from __future__ import annotations

import gc
import weakref

import pytest

from aistack_bank.errors import Diagnostic
from aistack_bank.i18n import catalog as catalog_module
from aistack_bank.i18n import verify
from aistack_bank.i18n.catalog import Catalogs
from aistack_bank.load import read_library
from aistack_bank.services import run_all_checks


def _break_a_translated_answer(project):
    """fr: q005's right option (3.5 GB) translated as 35 Go; nl: q004's 7 GB as 7 MB."""
    fr = project / "translations" / "fr.po"
    text = fr.read_text(encoding="utf-8")
    start = text.index('msgctxt "q005.option.c"')
    end = text.index("\n\n", start)
    fr.write_text(text[:start] + text[start:end].replace("3,5", "35") + text[end:], encoding="utf-8")
    nl = project / "translations" / "nl.po"
    text = nl.read_text(encoding="utf-8")
    start = text.index('msgctxt "q004.option.a"')
    end = text.index("\n\n", start)
    nl.write_text(text[:start] + text[start:end].replace('msgstr "Ongeveer 7 GB"', 'msgstr "Ongeveer 7 MB"') + text[end:], encoding="utf-8")


def _rendered(diagnostics: list[Diagnostic]) -> list[str]:
    return [str(d) for d in diagnostics]


def test_the_findings_are_those_of_a_full_read_of_each_catalog(project):
    _break_a_translated_answer(project)
    results, diagnostics = run_all_checks(project / "bank", project / "translations", "all")
    assert results["fr"][1] == 1 and results["nl"][1] >= 0
    source = read_library(project / "bank")
    for language in ("fr", "nl"):
        full = Catalogs(use_cache=False).read(project / "translations" / f"{language}.po")
        checked, expected = verify.translated_check_diagnostics(source, full)
        assert results[language][0] == checked
        found = [d for d in diagnostics if d.location is not None and d.location.path.endswith(f"{language}.po")]
        assert _rendered(sorted(expected, key=Diagnostic.sort_key)) == _rendered(found)
    assert any(d.location is not None and d.location.path.endswith("fr.po") for d in diagnostics)


def test_one_catalog_at_a_time(project, monkeypatch):
    read = catalog_module.read_catalog
    alive: list[weakref.ref] = []

    def counting(path, *args, **kwargs):
        gc.collect()
        held = [ref() for ref in alive if ref() is not None]
        assert not held, f"{path.name} read while {[c.path.name for c in held]} is still held"
        catalog = read(path, *args, **kwargs)
        alive.append(weakref.ref(catalog))
        return catalog

    monkeypatch.setattr(catalog_module, "read_catalog", counting)
    results, _ = run_all_checks(project / "bank", project / "translations", "all")
    assert set(results) == {"en", "fr", "nl"} and len(alive) == 2


def test_a_broken_catalog_is_a_located_error_and_the_others_are_checked(project):
    fr = project / "translations" / "fr.po"
    text = fr.read_text(encoding="utf-8")
    start = text.index('msgctxt "q005.option.c"')
    line = text.count("\n", 0, start) + 3
    end = text.index("\n\n", start)
    fr.write_text(text[:start] + text[start:end].rstrip('"') + text[end:], encoding="utf-8")
    results, diagnostics = run_all_checks(project / "bank", project / "translations", "all")
    assert results["fr"] == (0, 0) and results["nl"][0] > 0
    located = [d for d in diagnostics if d.location is not None and d.location.path.endswith("fr.po")]
    assert located and located[0].location.line == line


@pytest.mark.parametrize("language", ["fr", "nl"])
def test_one_language_reads_one_catalog(project, monkeypatch, language):
    read = catalog_module.read_catalog
    paths = []
    monkeypatch.setattr(catalog_module, "read_catalog", lambda path, *a, **k: paths.append(path.name) or read(path, *a, **k))
    results, _ = run_all_checks(project / "bank", project / "translations", language)
    assert set(results) == {language} and paths == [f"{language}.po"]


def test_bank_stats_frees_the_read_bank_before_the_languages_status(project, monkeypatch):
    """`bank stats` (817 MB at N = 10 000 before) counts the questions, then lets the read bank
    go before the languages' status, which reads the bank its own lean way."""
    from aistack_bank import load
    from aistack_bank.i18n import status as status_module
    from aistack_bank.project.stats import bank_stats

    read, counted = load.read_library, status_module.catalog_status
    libraries: list[weakref.ref] = []

    def reading(*args, **kwargs):
        library = read(*args, **kwargs)
        libraries.append(weakref.ref(library))
        return library

    def counting(*args, **kwargs):
        gc.collect()
        assert libraries and all(ref() is None for ref in libraries), "the read bank is still held"
        return counted(*args, **kwargs)

    monkeypatch.setattr(load, "read_library", reading)
    monkeypatch.setattr(status_module, "catalog_status", counting)
    stats, errors = bank_stats(project / "bank", project / "translations")
    assert not errors and stats.questions == 50 and set(stats.languages) == {"en", "fr", "nl"}
