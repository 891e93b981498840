"""The content digests the verdict's input digest takes are reused by the per-file stores in the
same process only for files unchanged since and written long enough before (not in the same
timestamp tick as the digest)."""

from __future__ import annotations

import os

from aistack_bank.cache import store
from aistack_bank.cache.validation import input_digest


def _fresh(path) -> str | None:
    saved = dict(store._SETTLED)
    store._SETTLED.clear()
    try:
        return store.file_digest(path)
    finally:
        store._SETTLED.update(saved)


def test_a_digest_is_reused_only_for_the_same_settled_file(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(store, "_SETTLED", {})
    bank = tmp_path / "bank"
    bank.mkdir()
    old, new = bank / "old.yaml", bank / "new.yaml"
    old.write_text("id: q001\n", encoding="utf-8")
    new.write_text("id: q002\n", encoding="utf-8")
    past = old.stat().st_mtime_ns - 60_000_000_000
    os.utime(old, ns=(past, past))  # the change time stays recent: not settled either
    os.utime(new, ns=(past, past))
    input_digest(bank, None)
    assert store._SETTLED == {}  # a change time within the last seconds: nothing is reused
    monkeypatch.setattr(store, "RACY_NS", -10**12)  # every file counts as settled
    input_digest(bank, None)
    assert set(store._SETTLED) == {str(old), str(new)}
    assert store.file_digest(old) == _fresh(old) and store.file_digest(new) == _fresh(new)
    # a planted digest shows when it is served: only while the file's identity is the recorded one
    identity, _ = store._SETTLED[str(old)]
    store._SETTLED[str(old)] = (identity, "planted")
    assert store.file_digest(old) == "planted"
    old.write_text("id: q003\n", encoding="utf-8")  # same size, new content and times
    assert store.file_digest(old) == _fresh(old) != "planted"
    link = bank / "link.yaml"
    link.symlink_to(new)
    store._SETTLED[str(link)] = store._SETTLED[str(new)]
    assert store.file_digest(link) is None  # a link is never digested, remembered or not
