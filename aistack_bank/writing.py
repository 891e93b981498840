"""Crash-safe file writing: every output goes to a temporary file, then is renamed into place."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path, PurePosixPath
from typing import Mapping

Tree = Mapping[PurePosixPath | str, bytes]


def same_bytes(path: Path, data: bytes) -> bool:
    """Whether ``path`` is a regular file holding exactly ``data`` (never blocks, reads at most its size)."""
    import stat

    try:
        st = os.lstat(path)
        if not stat.S_ISREG(st.st_mode) or st.st_size != len(data):
            return False
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
        try:
            chunks, total = [], 0
            while total <= len(data):
                chunk = os.read(fd, max(len(data) + 1 - total, 1))
                if not chunk:
                    break
                chunks.append(chunk)
                total += len(chunk)
            return b"".join(chunks) == data
        finally:
            os.close(fd)
    except OSError:
        return False


def write_atomic(path: Path, data: bytes) -> bool:
    """Write ``data`` to ``path`` atomically; return False (and touch nothing) if unchanged.

    The bytes go to a temporary file in the same folder, are flushed to disk, and replace
    ``path`` in one rename: a reader or a crash sees the old file or the new one, never half.
    """
    if same_bytes(path, data):
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if path.exists():
            os.chmod(tmp, path.stat().st_mode & 0o777)
        else:
            os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return True


def write_or_compare(path: Path, data: bytes, *, check: bool) -> bool:
    """Whether ``path`` changes: with ``check`` only compare, otherwise write atomically."""
    if not check:
        return write_atomic(path, data)
    return not same_bytes(path, data)


def write_tree(root: Path, tree: Tree) -> list[Path]:
    """Write every file of ``tree`` under ``root`` atomically; return the paths that changed."""
    written = []
    for name in sorted(tree, key=str):
        path = root / str(name)
        if write_atomic(path, tree[name]):
            written.append(path)
    return written


def stale_files(root: Path, tree: Tree) -> list[str]:
    """Names in ``tree`` whose file under ``root`` is missing or has other bytes."""
    stale = []
    for name in sorted(tree, key=str):
        if not same_bytes(root / str(name), tree[name]):
            stale.append(str(name))
    return stale
