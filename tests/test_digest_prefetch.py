"""The input digest's catalogs digested in a thread while the bank's files are
(`StatMemo.prefetch`): the same digest, the same per-file digests, files found written since and
bytes kept for the catalog's read as the walk alone takes them, whatever changed in between."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from aistack_bank.cache import store, validation


def _digest(bank: Path, translations: Path, *, prefetch: bool) -> tuple:
    store.drop_bytes()
    validation._LAST.clear()
    real = validation.StatMemo.prefetch
    if not prefetch:
        validation.StatMemo.prefetch = lambda self, roots: None
    try:
        key = validation.input_digest(bank, translations)
    finally:
        validation.StatMemo.prefetch = real
    memo = validation._LAST[0][1]
    kept = {name: (found[0], bytes(found[1]), found[2]) for name, found in store._BYTES.items()}
    return key, dict(memo.values), dict(memo.new), sorted(memo.fresh), kept


def _write(path: Path, rng: random.Random) -> None:
    path.write_bytes(rng.randbytes(rng.choice([0, 10, 3000, 70_000, 300_000])))


@pytest.mark.parametrize("seed", range(12))
def test_prefetched_digests_are_the_walks(tmp_path, monkeypatch, seed):
    rng = random.Random(seed)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(validation, "PREFETCH_MIN_BYTES", rng.choice([1, 2000, 100_000]))
    monkeypatch.setattr(validation, "KEEP_MIN_BYTES", rng.choice([1, 50_000]))
    bank, translations = tmp_path / "bank", tmp_path / "translations"
    (bank / "t" / "questions").mkdir(parents=True)
    (translations / "site").mkdir(parents=True)
    names = [bank / "t" / "questions" / f"q{i}.yaml" for i in range(rng.randrange(1, 20))]
    names += [translations / f"{lang}.po" for lang in rng.sample(["fr", "nl", "de", "es"], rng.randrange(0, 4))]
    names += [translations / "bank.pot", translations / "site" / "fr.po"]
    for name in names:
        _write(name, rng)
    if rng.random() < 0.3:
        os.mkfifo(translations / "odd.po")  # (a special file: digested by what it is)
    for step in range(4):
        # the same memo file (or none) on both sides
        cache = tmp_path / "cache"
        before = {path: path.read_bytes() for path in cache.rglob("*") if path.is_file()} if cache.exists() else {}
        walked = _digest(bank, translations, prefetch=False)
        for path in [p for p in cache.rglob("*") if p.is_file()]:
            path.unlink()
        for path, data in before.items():
            path.write_bytes(data)
        fetched = _digest(bank, translations, prefetch=True)
        assert fetched == walked
        for name in rng.sample(names, rng.randrange(0, 3)):  # written since: found again
            _write(name, rng)


def test_a_catalog_written_after_it_was_prefetched_is_digested_again(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(validation, "PREFETCH_MIN_BYTES", 1)
    bank, translations = tmp_path / "bank", tmp_path / "translations"
    (bank / "t" / "questions").mkdir(parents=True)
    translations.mkdir()
    (bank / "t" / "questions" / "q1.yaml").write_text("id: q1\n")
    catalog = translations / "fr.po"
    catalog.write_bytes(b"one" * 1000)
    real = validation.StatMemo.prefetch

    def prefetch(self, roots):
        real(self, roots)
        self._fetcher.join(timeout=60)  # (digested as it was)
        assert not self._fetcher.is_alive()
        catalog.write_bytes(b"another, longer" * 1000)  # (then written: another identity)

    monkeypatch.setattr(validation.StatMemo, "prefetch", prefetch)
    key = validation.input_digest(bank, translations)
    monkeypatch.setattr(validation.StatMemo, "prefetch", real)
    validation._LAST.clear()
    for path in (tmp_path / "cache").rglob("*.pickle"):
        path.unlink()
    assert validation.input_digest(bank, translations) == key  # (the bytes the file has now)


@pytest.mark.parametrize("seed", range(6))
def test_a_tree_digest_after_an_input_digest_is_the_one_taken_alone(tmp_path, monkeypatch, seed):
    """`tree_digest` takes the digests the latest input digest took of files that have not
    changed since (and were written long enough before it): the digest it gives alone."""
    import shutil
    import time

    rng = random.Random(seed)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    bank, translations = tmp_path / "bank", tmp_path / "translations"
    (bank / "t" / "questions").mkdir(parents=True)
    (translations / "site").mkdir(parents=True)
    names = [bank / "t" / "questions" / "q1.yaml", translations / "fr.po", translations / "nl.po", translations / "site" / "fr.po"]
    for name in names:
        _write(name, rng)
    old = time.time() - 3600
    for name in rng.sample(names, rng.randrange(0, 4)):  # (settled: borrowed)
        os.utime(name, (old, old))
    validation._LAST.clear()
    validation.input_digest(bank, translations)
    for name in rng.sample(names, rng.randrange(0, 3)):  # written since
        _write(name, rng)
    borrowed = validation.tree_digest(translations)
    assert validation._LAST[0][1].new  # (there was something to borrow)
    shutil.rmtree(tmp_path / "cache")
    validation._LAST.clear()
    assert validation.tree_digest(translations) == borrowed


@pytest.mark.parametrize("languages", [["fr"], ["fr", "nl"], ["fr", "nl", "de"]])
def test_two_catalogs_or_more_are_not_read_whole_to_be_kept(tmp_path, monkeypatch, languages):
    """Only one file's bytes are ever kept (store.keep_bytes): with two large catalogs or more,
    the input digest reads each a piece at a time instead of whole (and keeps none, as before);
    with one, it reads it whole and keeps it for the catalog's read."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(validation, "PREFETCH_MIN_BYTES", 1000)
    monkeypatch.setattr(validation, "KEEP_MIN_BYTES", 1000)
    bank, translations = tmp_path / "bank", tmp_path / "translations"
    (bank / "t" / "questions").mkdir(parents=True)
    translations.mkdir()
    (bank / "t" / "questions" / "q1.yaml").write_text("id: q1\n", encoding="utf-8")
    for lang in languages:
        (translations / f"{lang}.po").write_bytes(lang.encode() * 5000)
    asked = []
    real = validation._hash_file
    monkeypatch.setattr(validation, "_hash_file", lambda digest, name, keep=None, st=None: asked.append((Path(name).name, keep is not None)) or real(digest, name, keep, st))
    key, _, _, _, kept = _digest(bank, translations, prefetch=True)
    whole = sorted(name for name, wanted in asked if wanted)
    if len(languages) == 1:
        assert whole == ["fr.po"] and list(kept) == [str(translations / "fr.po")]
    else:
        assert whole == [] and list(kept) == [""]  # (none kept for the rest of the run)
    assert key == _digest(bank, translations, prefetch=False)[0]
