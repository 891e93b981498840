"""The input digest's read of a file (``validation._hash_file``, which stops at a short read that
ends where the file ended when opened) gives what its former code gave, which read until a read
came back empty: the same digest, answer and kept bytes, for files of random sizes (around the
1 MB pieces and the largest size digested), kept or not, and for what is not a regular file.
The former code is kept here as it was."""

from __future__ import annotations

import hashlib
import os
import random
import stat

import pytest

from aistack_bank.cache import validation
from aistack_bank.cache.store import identity as file_identity


def old_hash_file(digest, name: str, keep: list | None = None, st: os.stat_result | None = None) -> bool:
    MAX_HASHED_BYTES = validation.MAX_HASHED_BYTES
    try:
        if st is None:
            st = os.stat(name)
            if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_HASHED_BYTES:
                digest.update(validation._by_status(st))
                return False
        fd = os.open(name, os.O_RDONLY | os.O_NONBLOCK)
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):
                digest.update(b"special")
                return False
            total, chunks = 0, []
            while total <= MAX_HASHED_BYTES:
                chunk = os.read(fd, 1 << 20 if keep is None else max(st.st_size + 1 - total, 1 << 20))
                if not chunk:
                    break
                total += len(chunk)
                digest.update(chunk)
                if keep is not None:
                    chunks.append(chunk)
            if keep is not None and total <= MAX_HASHED_BYTES:
                keep += [file_identity(os.fstat(fd)), chunks[0] if len(chunks) == 1 else b"".join(chunks)]
            return total <= MAX_HASHED_BYTES
        finally:
            os.close(fd)
    except OSError as exc:
        digest.update(f"unreadable {exc.errno}".encode())
        return False


def _both(name: str, keep: bool, given: bool):
    out = []
    for function in (old_hash_file, validation._hash_file):
        digest = hashlib.blake2b(digest_size=20)
        kept = [] if keep else None
        st = None
        if given:
            try:
                st = os.stat(name)
            except OSError:
                st = None
            if st is not None and not (stat.S_ISREG(st.st_mode) and st.st_size <= validation.MAX_HASHED_BYTES):
                st = None
        whole = function(digest, name, kept, st)
        out.append((whole, digest.digest(), kept))
    return out


@pytest.mark.parametrize("seed", range(4))
def test_the_digest_of_a_file_is_as_before(tmp_path, monkeypatch, seed):
    rng = random.Random(seed)
    monkeypatch.setattr(validation, "MAX_HASHED_BYTES", 3 << 20)  # (the largest size digested, within reach)
    sizes = [0, 1, 4095, 4096, 4097, (1 << 20) - 1, 1 << 20, (1 << 20) + 1, 2 << 20, (3 << 20) - 1, 3 << 20, (3 << 20) + 1, (3 << 20) + 5]
    sizes += [rng.randrange(0, 4 << 20) for _ in range(8)] + [rng.randrange(0, 20_000) for _ in range(20)]
    for index, size in enumerate(sizes):
        path = tmp_path / f"f{index}"
        path.write_bytes(rng.randbytes(size))
        for keep in (False, True):
            for given in (False, True):
                old, new = _both(str(path), keep, given)
                assert old == new, (size, keep, given)


def test_what_is_not_a_regular_file_is_digested_as_before(tmp_path):
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "folder").mkdir()
    os.symlink("f", tmp_path / "link")
    (tmp_path / "f").write_bytes(b"x" * 10)
    os.symlink("nowhere", tmp_path / "dangling")
    for name in ("fifo", "folder", "link", "dangling", "missing", "f"):
        for keep in (False, True):
            old, new = _both(str(tmp_path / name), keep, False)
            assert old == new, name


def test_a_file_read_in_short_pieces_is_read_to_its_end(tmp_path, monkeypatch):
    """A file system that gives fewer bytes than asked before the end (as some do): each short
    read that ends before the file's size is followed by another, as before."""
    real = os.read
    monkeypatch.setattr(os, "read", lambda fd, n: real(fd, min(n, 1000)))
    rng = random.Random(7)
    for size in (0, 999, 1000, 1001, 5000, 70_001):
        path = tmp_path / f"f{size}"
        path.write_bytes(rng.randbytes(size))
        for keep in (False, True):
            old, new = _both(str(path), keep, True)
            assert old == new and (not keep or new[2][1] == path.read_bytes()), size
