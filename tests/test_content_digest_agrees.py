"""Every part of the cache that takes a file's content digest takes the same one.

The question files' stores are looked up with the digests the input digest's walk took
(`StatMemo.walked`) and kept under the digest of the bytes a worker read (`store.content_digest`);
a catalog's read is stored under its token (`i18n.catalog._token`), compared with
`store.file_digest` and with the digest of the bytes the input digest kept (`store.take_bytes`).
Were one of them of another algorithm, nothing would fail: every look-up would miss, and each
run would be a cold one. The content digest is SHA-256 (`store.CONTENT_ALGORITHM`), computed in
hardware where the processor has the SHA extensions."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from aistack_bank.cache import store, validation
from aistack_bank.i18n import catalog

SIZES = [0, 1, 2047, 2048, 2049, 4096, (1 << 20) - 1, 1 << 20, (1 << 20) + 1, (2 << 20) + 3]


def _digests(path: Path, data: bytes) -> set[str]:
    memo = validation.StatMemo([path.parent])
    walked = memo.digest(str(path))
    found = {
        store.content_digest(data),
        store.file_digest(path),
        walked.hex(),
        memo.walked(str(path)),
        hashlib.new(store.CONTENT_ALGORITHM, data).hexdigest(),
    }
    hasher = store.content_hasher()
    hasher.update(data)
    found.add(hasher.hexdigest())
    # a catalog's token: its bytes read without a byte-order mark, with a final newline added
    bom = data.startswith(catalog._BOM)
    raw = data[len(catalog._BOM):] if bom else data
    found.add(catalog._token(raw, bom, False))
    found.add(catalog._token(raw + b"\n", bom, True))
    return found


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.one_of(st.binary(max_size=9000), st.text(max_size=3000).map(lambda t: t.encode("utf-8", "surrogatepass")),
                      st.binary(max_size=64).map(lambda b: "\ufeff".encode() + b)))
def test_every_content_digest_of_a_file_is_the_same(tmp_path_factory, monkeypatch, data):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))
    store._SETTLED.clear()
    path = tmp_path_factory.mktemp("files") / "file.po"
    path.write_bytes(data)
    found = _digests(path, data)
    assert found == {hashlib.sha256(data).hexdigest()}, found


def test_large_and_edge_sizes_and_the_bytes_kept(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    store._SETTLED.clear()
    seed = hashlib.sha256(b"seed").digest()
    for size in SIZES:
        data = (seed * (size // len(seed) + 1))[:size]
        folder = tmp_path / f"s{size}"
        folder.mkdir()
        path = folder / "fr.po"
        path.write_bytes(data)
        assert _digests(path, data) == {hashlib.sha256(data).hexdigest()}, size
        # a large catalog read whole by the input digest: its bytes kept with their digest
        store.clear_reads()
        memo = validation.StatMemo([folder], keep=True)
        value = memo.digest(str(path))
        kept = store.take_bytes(path, os.stat(path))
        if size >= validation.KEEP_MIN_BYTES:
            assert kept == (data, value.hex()) and value.hex() == store.file_digest(path)
        else:
            assert kept is None
        store.drop_bytes()
