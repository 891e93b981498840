"""A catalog worker hands back the findings of a catalog it verified whole
(:func:`aistack_bank.i18n.verify._verify_manifest`) before that catalog's objects are freed: the
catalog is held (``verify._SPENT``) until the worker's next call, which lets it go before it
reads its own, or until the worker ends (``os._exit``: never walked one by one). At most one
catalog is held; the command's own process holds none."""

from __future__ import annotations

import weakref
from pathlib import Path

import pytest

from aistack_bank import parallel
from aistack_bank.i18n import verify


class _Catalog:
    """A stand-in for a catalog read (only its life is looked at)."""


@pytest.fixture
def reads(monkeypatch):
    """The catalogs :func:`verify._catalog_read` made (weak references), each read checking that
    every catalog made before it is gone already."""
    made: list = []

    def read(path, use_cache, digest=None):
        assert [ref() for ref in made] == [None] * len(made), "a catalog still held when the next one is read"
        catalog = _Catalog()
        made.append(weakref.ref(catalog))
        return catalog

    monkeypatch.setattr(verify, "_SPENT", [None])
    monkeypatch.setattr(verify, "_catalog_read", read)
    monkeypatch.setattr(verify, "_manifest_bank", lambda manifest, token: ("bank", ["field"]))
    monkeypatch.setattr(verify, "_file_size", lambda path: 0)  # (read whole, not streamed)
    monkeypatch.setattr(verify, "verify_catalog", lambda bank, fields, catalog, **kwargs: [("found", bank, tuple(fields), type(catalog).__name__, kwargs)])
    return made


def _call(path: Path) -> list:
    return verify._verify_manifest(verify._Manifest("spill", []), "token", path, True, True, "inputs", "digest")


def test_a_worker_frees_the_catalog_it_verified_at_its_next_call(monkeypatch, reads, tmp_path):
    monkeypatch.setattr(parallel, "in_worker", lambda: True)
    expected = [("found", "bank", ("field",), "_Catalog", {"run_checks": True, "memo": True, "inputs": "inputs"})]
    assert _call(tmp_path / "fr.po") == expected
    assert reads[0]() is not None  # (held once its findings are handed back)
    assert _call(tmp_path / "nl.po") == expected  # (its read checks that the first is gone by then)
    assert reads[0]() is None and reads[1]() is not None
    assert verify._SPENT == [reads[1]()]


def test_the_command_s_own_process_holds_no_catalog(monkeypatch, reads, tmp_path):
    monkeypatch.setattr(parallel, "in_worker", lambda: True)
    _call(tmp_path / "fr.po")
    monkeypatch.setattr(parallel, "in_worker", lambda: False)
    _call(tmp_path / "nl.po")  # (the worker's catalog let go first, as in a worker)
    assert [ref() for ref in reads] == [None, None]
    assert verify._SPENT == [None]


def test_a_catalog_streamed_next_is_not_read_beside_the_held_one(monkeypatch, reads, tmp_path):
    monkeypatch.setattr(parallel, "in_worker", lambda: True)
    _call(tmp_path / "fr.po")
    seen = []

    def streamed(manifest, path, **kwargs):
        seen.append(reads[0]())
        return ["streamed"]

    monkeypatch.setattr(verify, "_file_size", lambda path: verify.STREAM_MIN_BYTES)
    monkeypatch.setattr(verify, "verify_streamed", streamed)
    monkeypatch.setattr(verify, "_PARTS", [None, None])
    assert _call(tmp_path / "nl.po") == ["streamed"]
    assert seen == [None] and verify._SPENT == [None]
