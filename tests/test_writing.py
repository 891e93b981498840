"""Writes are atomic: a failure in the middle leaves the previous file intact and no debris."""

from __future__ import annotations

import os
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
    result = subprocess.run([sys.executable, "-c", script], timeout=120)
    assert result.returncode != 0
    assert path.read_bytes() == b"good export"


def test_staged_writes_are_each_on_the_disk_before_the_first_rename(tmp_path, monkeypatch):
    """Staged files are flushed together at commit (from a few threads), yet each one before
    any is renamed into place: a crash never leaves a renamed file whose bytes are not there."""
    events = []

    def fsync(fd):
        events.append(("fsync", os.readlink(f"/proc/self/fd/{fd}")))

    real_replace = os.replace

    def replace(src, dst):
        events.append(("replace", str(src)))
        real_replace(src, dst)

    monkeypatch.setattr(writing.os, "fsync", fsync)
    monkeypatch.setattr(writing.os, "replace", replace)
    staged = writing.StagedWrites()
    targets = [tmp_path / f"d{i % 3}" / f"f{i}.xml" for i in range(20)]
    for i, path in enumerate(targets):
        assert staged.write(path, b"x" * (i + 1)) is True
    temporaries = {tmp for tmp, _ in staged.pending}
    assert not events  # nothing flushed or renamed before the commit
    staged.commit()
    flushed = [what for kind, what in events if kind == "fsync"]
    renamed = [what for kind, what in events if kind == "replace"]
    assert sorted(flushed) == sorted(temporaries) and sorted(renamed) == sorted(temporaries)
    first_rename = next(i for i, (kind, _) in enumerate(events) if kind == "replace")
    assert all(kind == "fsync" for kind, _ in events[:first_rename]) and first_rename == len(temporaries)
    assert [path.read_bytes() for path in targets] == [b"x" * (i + 1) for i in range(20)]
    assert sorted(p.name for p in tmp_path.rglob("*") if p.is_file()) == sorted(p.name for p in targets)


def test_a_failed_flush_at_commit_renames_nothing_and_names_the_target(tmp_path, monkeypatch):
    targets = [tmp_path / f"f{i}.xml" for i in range(6)]
    targets[0].write_bytes(b"previous export")
    staged = writing.StagedWrites()
    for path in targets:
        staged.write(path, b"new " + path.name.encode())
    failing = {tmp for tmp, path in staged.pending if path.name in ("f3.xml", "f4.xml")}

    def fsync(fd):
        if os.readlink(f"/proc/self/fd/{fd}") in failing:
            raise OSError(28, "No space left on device")

    monkeypatch.setattr(writing.os, "fsync", fsync)
    with pytest.raises(OSError) as raised:
        staged.commit()
    assert raised.value.errno == 28 and raised.value.filename == str(targets[3])  # the first that failed, in order
    assert [p.name for p in tmp_path.iterdir()] == ["f0.xml"] and targets[0].read_bytes() == b"previous export"
