"""Who reads a catalog, and how often: each read is the caller's own, and one command reads a
file once (validation and localization of a build share the read through ``Catalogs``)."""

from __future__ import annotations

import dataclasses
import shutil
from collections import Counter
from pathlib import Path

import pytest

from aistack_bank.i18n import catalog as catalog_module
from aistack_bank.i18n import verify as verify_module
from aistack_bank.i18n.catalog import Catalogs, read_catalog, render_catalog

REPO = Path(__file__).resolve().parent.parent


def test_each_read_is_a_new_catalog_that_the_caller_may_change(tmp_path):
    fr = tmp_path / "translations" / "fr.po"
    fr.parent.mkdir()
    shutil.copy(REPO / "translations" / "fr.po", fr)
    first = read_catalog(fr)
    entry = next(e for e in first.po if e.msgstr)
    original = entry.msgstr
    entry.msgstr = "changed by the caller"
    again = read_catalog(fr)
    assert again.po is not first.po
    assert next(e for e in again.po if e.msgctxt == entry.msgctxt).msgstr == original
    assert render_catalog(again.po) == fr.read_bytes()


def test_a_catalog_cannot_be_swapped_for_another():
    catalog = read_catalog(REPO / "translations" / "fr.po")
    with pytest.raises(dataclasses.FrozenInstanceError):
        catalog.po = None


def test_a_build_reads_each_catalog_once(tmp_path, monkeypatch):
    from aistack_bank.build import build

    project = tmp_path / "p"
    shutil.copytree(REPO / "bank", project / "bank")
    shutil.copytree(REPO / "translations", project / "translations")
    reads: Counter[str] = Counter()
    real = catalog_module.read_catalog

    def counting(path, **kwargs):
        reads[Path(path).resolve().relative_to(project.resolve()).as_posix()] += 1
        return real(path, **kwargs)

    # (``verify`` binds ``read_catalog`` when it is imported: both names are patched, so that the
    # count sees its reads and no other test is left with this counter)
    monkeypatch.setattr(catalog_module, "read_catalog", counting)
    monkeypatch.setattr(verify_module, "read_catalog", counting)
    build(project / "bank", project / "translations", tmp_path / "out")
    catalogs = sorted(p.relative_to(project).as_posix() for p in (project / "translations").rglob("*.po"))
    assert catalogs and sorted(reads) == catalogs
    assert set(reads.values()) == {1}, reads


def test_catalogs_reads_a_file_on_first_use_only(tmp_path, monkeypatch):
    reads: list[Path] = []
    real = catalog_module.read_catalog
    monkeypatch.setattr(catalog_module, "read_catalog", lambda path, **kw: reads.append(path) or real(path, **kw))
    catalogs = Catalogs()
    fr = REPO / "translations" / "fr.po"
    assert catalogs.read(fr) is catalogs.read(REPO / "translations" / "." / "fr.po")
    assert reads == [fr]
    assert Catalogs().read(fr) is not catalogs.read(fr)
