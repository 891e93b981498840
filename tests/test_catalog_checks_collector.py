"""A catalog worker's checks with the cyclic collector paused, and the references' loop over the
translations that may refer to something only, find what they found before.

- In a worker (``parallel.in_worker()``), ``verify_catalog`` runs its checks up to the numeric
  ones with the cyclic garbage collector paused and then freezes what they left
  (``gc.freeze``): the findings are those made with the collector running, the collector runs
  again afterwards (also when a check raises), and a collector the caller had paused stays so.
- ``catalog_reference_diagnostics`` hands ``translation_warnings`` only the current translations
  of a question that ``may_refer`` lets through, in their order, instead of every one (for which
  its ``hits`` answered nothing). The code before is ``test_catalog_lookups_once_equivalence``'s
  copy, compared on random translations full of references and on damaged catalogs.
"""

from __future__ import annotations

import gc
import random
from pathlib import Path

import pytest

from aistack_bank import parallel
from aistack_bank.i18n import verify
from aistack_bank.i18n.catalog import read_catalog
from aistack_bank.i18n.locations import current_translations
from aistack_bank.rules.lints import catalog_reference_diagnostics

from test_catalog_lookups_once_equivalence import ROOT, _damaged, _references_before, _source


def _catalog(tmp_path: Path, language: str, seed: int, name: str | None = None) -> Path:
    """The bundled bank's catalog of ``language`` damaged at random, as ``name`` (a language)."""
    rng = random.Random(4120 + seed)
    folder = tmp_path / f"{language}-{seed}-{name}"
    folder.mkdir()
    (folder / "glossary.yaml").write_bytes((ROOT / "translations" / "glossary.yaml").read_bytes())
    path = folder / f"{name or language}.po"
    path.write_bytes(_damaged(rng, (ROOT / "translations" / f"{language}.po").read_text(encoding="utf-8")))
    return path


@pytest.fixture
def collector():
    """The collector enabled, its frozen objects given back afterwards (a test process is no worker)."""
    was = gc.isenabled()
    gc.enable()
    yield
    gc.unfreeze()
    if not was:
        gc.disable()


@pytest.mark.parametrize("seed", range(2))
def test_a_worker_finds_what_the_command_process_finds(tmp_path, monkeypatch, collector, seed):
    source, fields = _source(with_records=seed == 0)
    for language in ("fr", "nl"):
        path = _catalog(tmp_path, language, seed)
        for options in ({}, {"memo": True, "inputs": "inputs"}):
            monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / f"cache-{language}-{seed}-{len(options)}-process"))
            monkeypatch.setattr(parallel, "_IN_WORKER", False)
            expected = verify.verify_catalog(source, fields, read_catalog(path, light=True), **options)
            monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / f"cache-{language}-{seed}-{len(options)}-worker"))
            monkeypatch.setattr(parallel, "_IN_WORKER", True)
            frozen = gc.get_freeze_count()
            assert verify.verify_catalog(source, fields, read_catalog(path, light=True), **options) == expected
            assert gc.isenabled()
            assert gc.get_freeze_count() > frozen  # (what the checks left, frozen)
            assert expected


def test_a_paused_collector_stays_paused_and_a_raising_check_restarts_it(tmp_path, monkeypatch, collector):
    source, fields = _source(with_records=False)
    path = _catalog(tmp_path, "fr", 0)
    monkeypatch.setattr(parallel, "_IN_WORKER", True)
    gc.disable()
    try:
        verify.verify_catalog(source, fields, read_catalog(path, light=True))
        assert not gc.isenabled()
    finally:
        gc.enable()

    def broken(*args, **kwargs):
        raise RuntimeError("a check failed")

    monkeypatch.setattr(verify, "_duplicate_texts", broken)
    catalog = read_catalog(path, light=True)
    frozen = gc.get_freeze_count()
    with pytest.raises(RuntimeError):
        verify.verify_catalog(source, fields, catalog)
    assert gc.isenabled()
    assert gc.get_freeze_count() == frozen  # (a call that raised leaves nothing frozen)


REFERRING = ["l’option B", "la réponse C", "voir la question q0012", "Q7", "optie b", "vraag 3", "the option above", "choix (c)", "proposition a est",
             "réponse ci-dessous", "question précédente", "İ", "ı", "ſ", "option\u0307", "q\u0663", "QUESTION q0001", "Option A", "antwoord d"]


@pytest.mark.parametrize("seed", range(3))
def test_the_references_are_found_as_before(tmp_path, seed):
    """Random translations, a third of them with a word that may refer to something, of topic
    fields too (no question: never looked at), on the bundled bank's fields."""
    rng = random.Random(9310 + seed)
    source, fields = _source(with_records=False)
    for language, name in (("fr", "fr"), ("nl", "nl"), ("fr", "de")):  # (German: the English words)
        catalog = read_catalog(_catalog(tmp_path, language, 10 * seed, name))
        active = catalog.active()
        for field in fields:
            entry = active.get(field.key)
            if entry is not None and entry.msgstr and rng.random() < 0.35:
                entry.msgstr = " ".join([entry.msgstr, *(rng.choice(REFERRING) for _ in range(rng.randint(1, 2)))])
        current = list(current_translations(active, fields))
        before = _references_before(catalog, active, fields, current=current)
        assert catalog_reference_diagnostics(catalog, active, fields, current=current) == before
        assert {"W320", "W321"} <= {d.code for d in before}
        # without ``current`` (each field's entry looked up), as before
        assert catalog_reference_diagnostics(catalog, active, fields) == _references_before(catalog, active, fields)
