"""The content digests the verdict's input digest takes are reused by the per-file stores in the
same process only for files unchanged since and written long enough before (not in the same
timestamp tick as the digest)."""

from __future__ import annotations

import os

from aistack_bank.cache import store
from aistack_bank.cache.validation import input_digest


def _fresh(path) -> str | None:
    saved = list(store._SETTLED)
    store._SETTLED.clear()
    try:
        return store.file_digest(path)
    finally:
        store._SETTLED[:] = saved


def test_a_digest_is_reused_only_for_the_same_settled_file(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(store, "_SETTLED", [])
    bank = tmp_path / "bank"
    bank.mkdir()
    old, new = bank / "old.yaml", bank / "new.yaml"
    old.write_text("id: q001\n", encoding="utf-8")
    new.write_text("id: q002\n", encoding="utf-8")
    past = old.stat().st_mtime_ns - 60_000_000_000
    os.utime(old, ns=(past, past))  # the change time stays recent: not settled
    os.utime(new, ns=(past, past))
    input_digest(bank, None)
    entries, _ = store._SETTLED[0]
    assert set(entries) == {str(old), str(new)}
    # a planted digest shows when it is served: only for a settled file of the recorded identity
    identity, _ = entries[str(old)]
    entries[str(old)] = (identity, b"\x01" * 20)
    assert store.file_digest(old) == _fresh(old)  # changed seconds ago: taken afresh
    monkeypatch.setattr(store, "RACY_NS", -10**12)  # every file counts as settled
    assert store.file_digest(old) == "01" * 20
    assert store.file_digest(new) == _fresh(new) == entries[str(new)][1].hex()  # the same digest as taken afresh
    old.write_text("id: q003\n", encoding="utf-8")  # same size, new content and times
    assert store.file_digest(old) == _fresh(old) != "01" * 20
    link = bank / "link.yaml"
    link.symlink_to(new)
    entries[str(link)] = entries[str(new)]
    assert store.file_digest(link) is None  # a link is never digested, remembered or not
