"""The input digest of a root with many files the memo file does not know digests the later half
of them in a worker process (`StatMemo.digest_all`): the digest, the memo's entries, the files
digested (in the order of a serial walk) and what each walked file is looked up with are those of
the walk one file after another (the code before, kept here), on random trees whose files are
known to the memo file or not, changed since, links, special, unreadable, catalogs, empty.
Checked to fail when the worker's memo entries are not taken back, or its files' order is not
restored."""

from __future__ import annotations

import os
import random

import pytest

from aistack_bank import parallel
from aistack_bank.cache import store, validation


def _serial(self, names):
    """`_digest_tree`'s loop before: each file digested here, one after another."""
    return [self.digest(name) for name in names]


def _tree(rng: random.Random, top):
    bank, translations = top / "bank", top / "translations"
    names = []
    for t in range(rng.randint(1, 4)):
        folder = bank / f"t{t}" / "questions"
        folder.mkdir(parents=True)
        (bank / f"t{t}" / "topic.yaml").write_text(f"id: t{t}\n", encoding="utf-8")
        for q in range(rng.randint(5, 60)):
            path = folder / f"q{q:03d}.{rng.choice(['yaml', 'yaml', 'yaml', 'po'])}"
            kind = rng.random()
            if kind < 0.05:
                path.symlink_to(bank / f"t{t}" / "topic.yaml")
            elif kind < 0.08:
                os.mkfifo(path)
            elif kind < 0.1:
                path.write_bytes(b"")
            else:
                path.write_bytes(rng.randbytes(rng.choice([1, 50, 3000])))
            names.append(path)
    translations.mkdir()
    (translations / "fr.po").write_bytes(rng.randbytes(2000))
    return bank, translations, names


def _state(bank, translations):
    memo = validation._LAST[0][1]
    walked = {name: memo.walked(name) for name in memo.values}
    return memo.result, dict(sorted(memo.new.items())), list(memo.fresh), dict(memo.values), walked


@pytest.mark.parametrize("seed", range(12))
def test_the_digest_with_a_worker_is_the_serial_digest(tmp_path, monkeypatch, seed):
    rng = random.Random(seed)
    monkeypatch.setenv("AISTACK_BANK_JOBS", "2")
    monkeypatch.setattr(validation, "RACY_NS", 0)
    bank, translations, names = _tree(rng, tmp_path)
    started = []
    real_init = parallel.Workers.__init__

    def init(self, wanted, most=None):
        real_init(self, wanted, most)
        started.append(self.started)

    monkeypatch.setattr(parallel.Workers, "__init__", init)
    real_all = validation.StatMemo.digest_all
    for step in range(3):
        # the memo file as each way left it (the same, by the assertion below)
        found = {}
        for how in ("serial", "pooled"):
            monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / f"cache-{step}-{how}"))
            if step:
                (tmp_path / f"cache-{step}-{how}").mkdir()
                os.system(f"cp -a {tmp_path / f'cache-{step - 1}-{how}'}/. {tmp_path / f'cache-{step}-{how}'}/")
            monkeypatch.setattr(validation, "DIGEST_POOL_MIN", rng.choice([1, 5, 40]) if how == "pooled" else 10**9)
            monkeypatch.setattr(validation.StatMemo, "digest_all", _serial if how == "serial" else real_all)
            store.drop_bytes()
            validation._LAST.clear()
            started.clear()
            validation.input_digest(bank, translations)
            found[how] = _state(bank, translations)
            if how == "pooled" and validation.DIGEST_POOL_MIN <= 5 and step == 0:
                assert True in started  # (a worker digested some of them)
        assert found["serial"] == found["pooled"]
        for path in rng.sample(names, min(len(names), rng.randint(1, 10))):  # changed since
            if path.is_symlink() or not path.is_file():
                continue
            path.write_bytes(rng.randbytes(rng.choice([0, 10, 500])))


def _lost(names):
    """A worker that fails before it gives its digests back."""
    raise OSError("the worker was lost")


@pytest.mark.parametrize("seed", range(3))
def test_a_lost_worker_leaves_the_digest_to_this_process(tmp_path, monkeypatch, seed):
    rng = random.Random(100 + seed)
    monkeypatch.setenv("AISTACK_BANK_JOBS", "2")
    monkeypatch.setattr(validation, "RACY_NS", 0)
    bank, translations, _ = _tree(rng, tmp_path)
    found = {}
    for how in ("serial", "lost"):
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / f"cache-{how}"))
        monkeypatch.setattr(validation, "DIGEST_POOL_MIN", 1 if how == "lost" else 10**9)
        monkeypatch.setattr(validation, "_digest_forked", _lost if how == "lost" else validation._digest_forked)
        store.drop_bytes()
        validation._LAST.clear()
        validation.input_digest(bank, translations)
        found[how] = _state(bank, translations)
    assert found["serial"] == found["lost"]
