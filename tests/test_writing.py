"""Writes are atomic: a failure in the middle leaves the previous file intact and no debris."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from aistack_bank import writing
from aistack_bank.writing import write_atomic


def test_unchanged_content_is_not_rewritten(tmp_path):
    path = tmp_path / "a.txt"
    assert write_atomic(path, b"one") is True
    mtime = path.stat().st_mtime_ns
    assert write_atomic(path, b"one") is False
    assert path.stat().st_mtime_ns == mtime


def test_failure_during_write_keeps_the_old_file(tmp_path, monkeypatch):
    path = tmp_path / "catalog.po"
    path.write_bytes(b"translator's work")

    def broken_fsync(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(writing.os, "fsync", broken_fsync)
    with pytest.raises(OSError):
        write_atomic(path, b"half")
    assert path.read_bytes() == b"translator's work"
    assert [p.name for p in tmp_path.iterdir()] == ["catalog.po"]


def test_killed_process_leaves_the_old_file(tmp_path):
    path = tmp_path / "export.xml"
    path.write_bytes(b"good export")
    script = textwrap.dedent(f"""
        import os, signal
        from aistack_bank import writing
        real_replace = os.replace
        def die(src, dst):
            os.kill(os.getpid(), signal.SIGKILL)
        writing.os.replace = die
        writing.write_atomic(__import__("pathlib").Path({str(path)!r}), b"x" * 10_000_000)
    """)
    result = subprocess.run([sys.executable, "-c", script])
    assert result.returncode != 0
    assert path.read_bytes() == b"good export"
