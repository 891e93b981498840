"""A rendering worker does not wait for each staged file's flush: it asks the system to start
writing it (:func:`~aistack_bank.build._start_writeback`), and the build's process flushes every
staged file with its other writes, each one before the first rename, as it flushes its own."""

from __future__ import annotations

import os
from pathlib import Path

from conftest import keep_only


def _pooled_build(monkeypatch, tmp_path: Path, out: str) -> list[tuple[str, str]]:
    """A staged build in two workers; the flushes and renames the build's process made, in order."""
    from aistack_bank import build, writing

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / f"cache-{out}"))
    monkeypatch.setenv("AISTACK_BANK_JOBS", "2")
    monkeypatch.setattr(build, "PARALLEL_MIN_TEXTS", 0)
    parent, events = os.getpid(), []
    real_fsync, real_replace = writing.os.fsync, writing.os.replace

    def fsync(fd):
        if os.getpid() == parent:  # (a worker's own calls are not this process's to record)
            events.append(("fsync", os.readlink(f"/proc/self/fd/{fd}")))
        real_fsync(fd)

    def replace(src, dst):
        events.append(("replace", str(Path(src).resolve())))
        real_replace(src, dst)

    monkeypatch.setattr(writing.os, "fsync", fsync)
    monkeypatch.setattr(writing.os, "replace", replace)
    build.build(Path("bank"), Path("translations"), Path(out))
    monkeypatch.setattr(writing.os, "fsync", real_fsync)
    monkeypatch.setattr(writing.os, "replace", real_replace)
    return events


def test_every_staged_file_is_flushed_by_the_build_before_the_first_rename(project, monkeypatch, tmp_path):
    from aistack_bank import build

    keep_only(project)
    events = _pooled_build(monkeypatch, tmp_path, "pooled")
    events = [(kind, what) for kind, what in events if "/pooled/" in what and not what.endswith(".part")]  # (the cache's writes and the localizing calls' file aside)
    staged = [what for kind, what in events if kind == "replace" and build.STAGING_PREFIX in what]
    assert len(staged) > len(build.FORMATS)  # (the workers' files, renamed from the staging folder)
    first_rename = next(i for i, (kind, _) in enumerate(events) if kind == "replace")
    flushed_before = {what for kind, what in events[:first_rename] if kind == "fsync"}
    assert set(staged) <= flushed_before
    assert all(kind == "replace" for kind, _ in events[first_rename:])

    monkeypatch.setenv("AISTACK_BANK_JOBS", "1")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "serial-cache"))
    build.build(Path("bank"), Path("translations"), Path("serial"))
    files = lambda root: {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}  # noqa: E731
    assert files(Path("pooled")) == files(Path("serial"))


def test_starting_the_writeback_leaves_the_bytes_and_works_without_sync_file_range(tmp_path, monkeypatch):
    from aistack_bank import build

    for found in (None, [None]):  # (libc's call, then none: a system without it)
        if found is not None:
            monkeypatch.setattr(build, "_WRITEBACK", found)
        path = tmp_path / f"f{len(str(found))}"
        data = os.urandom(1 << 16) * 3
        with open(path, "xb") as fh:
            fh.write(data)
            fh.flush()
            build._start_writeback(fh.fileno())
        assert path.read_bytes() == data
    monkeypatch.undo()
    assert build._WRITEBACK == [] or build._WRITEBACK[0] is not None  # (Linux's libc has it)
