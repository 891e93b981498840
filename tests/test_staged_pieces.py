"""A large build's rendering workers write each file they render into a staging folder in the
exports folder, and the build renames those files into place with its other writes: the files
never travel back through the pipes, the bytes are those of a serial build, a file already
right is left as it is, and no staging folder outlives the build, whether it succeeds or fails."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import keep_only


def _pooled(monkeypatch, tmp_path: Path) -> None:
    from aistack_bank import build

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("AISTACK_BANK_JOBS", "2")
    monkeypatch.setattr(build, "PARALLEL_MIN_TEXTS", 0)


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _staging_left(root: Path) -> list[Path]:
    from aistack_bank.build import STAGING_PREFIX

    return [p for p in root.rglob("*") if p.name.startswith(STAGING_PREFIX)] if root.exists() else []


def test_every_piece_is_written_by_its_worker_and_renamed_into_place(project, monkeypatch, tmp_path):
    """Every piece goes through the staging folder and gives the serial build's bytes; the calls
    name the file of each pickled library instead of carrying its bytes; nothing is left."""
    import pickle

    from aistack_bank import build, parallel

    keep_only(project)
    monkeypatch.setenv("AISTACK_BANK_JOBS", "1")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "serial-cache"))
    build.build(Path("bank"), Path("translations"), Path("serial"))
    serial = _files(Path("serial"))

    _pooled(monkeypatch, tmp_path)
    adopted, sent = [], []
    real_adopt, real_each = build.adopt_piece, parallel.Workers.run_each

    def each(self, calls):
        calls = list(calls)
        sent.extend([(lang, data) for lang, data in args[0][1]] for function, args in calls if function.__name__ in ("_render_sent", "_notes_sent", "_guide_sent"))
        return real_each(self, calls)

    monkeypatch.setattr(build, "adopt_piece", lambda folder, files, **k: adopted.append([f[0] for f in files]) or real_adopt(folder, files, **k))
    monkeypatch.setattr(parallel.Workers, "run_each", each)
    outputs, _ = build.build(Path("bank"), Path("translations"), Path("pooled"))
    assert _files(Path("pooled")) == serial
    written = sum(len(paths) for paths in adopted)
    assert len(adopted) > len(build.FORMATS) and written == len(serial) - 1 - len(build.FORMATS)  # every file but the README and the manifests
    assert all(o.changed for o in outputs) and not _staging_left(Path("pooled"))

    items = [item for call in sent for item in call]
    assert len(sent) > len(build.FORMATS) and {lang for lang, _ in items} == {"en", "fr", "nl"}
    assert all(isinstance(data, build._OnDisk) for _, data in items)
    paths = {data.path for _, data in items}
    assert len(paths) == 3 and all(Path(p).parent.name.startswith(build.STAGING_PREFIX) and not Path(p).exists() for p in paths)

    monkeypatch.setattr(build, "_RECEIVED", {})  # what a worker does with such a call, in this process
    on_disk = tmp_path / "en.pickle"
    on_disk.write_bytes(pickle.dumps({"a": 1}))
    assert build._received(("t", (("en", build._OnDisk(str(on_disk))),))) == {"en": {"a": 1}}
    on_disk.unlink()  # (read once: the worker keeps what it unpickled)
    assert build._received(("t", (("en", build._OnDisk(str(on_disk))),))) == {"en": {"a": 1}}


def test_a_file_already_right_is_left_as_it_is_a_wrong_one_replaced_and_a_comparison_stages_nothing(project, monkeypatch, tmp_path):
    from aistack_bank import build

    keep_only(project)
    _pooled(monkeypatch, tmp_path)
    build.build(Path("bank"), Path("translations"), Path("out"))
    before = _files(Path("out"))
    kept, wrong = next(Path("out/moodle").glob("*-en.xml")), next(Path("out/gift").glob("*-fr.gift"))
    wrong.write_bytes(wrong.read_bytes()[:-1] + b"?")
    inode = kept.stat().st_ino
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "other-cache"))  # (no memo of the outputs: every piece rendered again)
    outputs, _ = build.build(Path("bank"), Path("translations"), Path("out"))
    assert [o.path for o in outputs if o.changed] == [wrong]
    assert kept.stat().st_ino == inode and _files(Path("out")) == before
    assert not _staging_left(Path("out"))

    made = []
    real = build._Staging.folder
    monkeypatch.setattr(build._Staging, "folder", lambda self: made.append(1) or real(self))
    outputs, _ = build.build(Path("bank"), Path("translations"), Path("out"), compare=True)
    assert not made and not any(o.changed for o in outputs)


def test_a_failing_piece_leaves_no_staging_folder_and_no_file(project, monkeypatch, tmp_path):
    from aistack_bank import build
    from aistack_bank.exporters import FORMATS

    keep_only(project)
    _pooled(monkeypatch, tmp_path)
    real = FORMATS["html"]

    class Broken:  # the practice site, rendered after most pieces
        def __getattr__(self, name):
            return getattr(real, name)

        def part_files(self, libraries, options, part):
            raise OSError("the exporter broke")

        def each_part_file(self, libraries, options, part):  # (the same, one file at a time, as a worker writes them)
            raise OSError("the exporter broke")

    monkeypatch.setitem(FORMATS, "html", Broken())
    Path("kept").mkdir()
    (Path("kept") / "mine.txt").write_text("not the build's")
    with pytest.raises(OSError, match="the exporter broke"):
        build.build(Path("bank"), Path("translations"), Path("kept"))
    assert not _staging_left(Path("kept")) and [p for p in Path("kept").rglob("*") if p.is_file()] == [Path("kept/mine.txt")]


def test_a_staging_folder_that_cannot_be_written_sends_the_files_back(project, monkeypatch, tmp_path):
    """When the libraries or a piece cannot be written into the staging folder (a full disk, say),
    they travel through the pipes as before: the same files, and the build's own writing step
    reports what fails there."""
    from aistack_bank import build

    keep_only(project)
    monkeypatch.setenv("AISTACK_BANK_JOBS", "1")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "serial-cache"))
    build.build(Path("bank"), Path("translations"), Path("serial"))
    _pooled(monkeypatch, tmp_path)
    adopted = []
    real = build.adopt_piece
    monkeypatch.setattr(build, "adopt_piece", lambda folder, files, **k: adopted.append(1) or real(folder, files, **k))
    monkeypatch.setattr(build._Staging, "folder", lambda self: tmp_path / "no-such-folder")
    build.build(Path("bank"), Path("translations"), Path("out"))
    assert _files(Path("out")) == _files(Path("serial")) and not adopted


def test_a_staging_folder_left_by_a_killed_build_is_removed_by_the_next_one_and_a_live_one_kept(project, tmp_path):
    """A build killed outright (SIGKILL, power) cannot remove its staging folder; the next build
    that writes the folder removes it, but never the folder of a build still running (it holds a
    lock on it), nor a folder just made, and a comparison removes nothing."""
    import fcntl
    import os
    import time

    from aistack_bank import build
    from aistack_bank.build import STAGING_PREFIX

    keep_only(project)
    out = Path("out")
    build.build(Path("bank"), Path("translations"), out)
    dead, live, new = (out / f"{STAGING_PREFIX}{name}" for name in ("dead", "live", "new"))
    for folder in (dead, live, new):
        folder.mkdir()
        (folder / "piece.xml").write_text("<half/>")
    old = time.time() - 3600
    for folder in (dead, live):
        os.utime(folder, (old, old))
    held = os.open(live, os.O_RDONLY)
    try:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)  # as the running build holds its own
        build.build(Path("bank"), Path("translations"), out, compare=True)
        assert dead.is_dir() and live.is_dir() and new.is_dir()
        build.build(Path("bank"), Path("translations"), out)
        assert not dead.exists() and (live / "piece.xml").is_file() and (new / "piece.xml").is_file()
    finally:
        os.close(held)


def test_a_build_holds_a_lock_on_its_staging_folder_while_it_runs(project, monkeypatch, tmp_path):
    import fcntl
    import os

    from aistack_bank import build

    keep_only(project)
    staging = build._Staging(Path("out"))
    folder = staging.folder()
    other = os.open(folder, os.O_RDONLY)
    try:
        with pytest.raises(BlockingIOError):
            fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
        staging.remove()
        assert not folder.exists()
    finally:
        os.close(other)


def test_the_localizing_calls_wait_for_the_english_library_or_are_sent_it_again(project, monkeypatch, tmp_path):
    """The localizing calls are handed to the workers before the English library and the fields
    are made, and wait for them in a file of the staging folder; when that file cannot be
    written, each call comes back and is sent them as before: the serial build's files either way."""
    from aistack_bank import build

    keep_only(project)
    monkeypatch.setenv("AISTACK_BANK_JOBS", "1")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "serial-cache"))
    build.build(Path("bank"), Path("translations"), Path("serial"))
    _pooled(monkeypatch, tmp_path)
    delivered = []
    real = build._Awaited.deliver
    monkeypatch.setattr(build._Awaited, "deliver", lambda self, read: delivered.append(real(self, read)) or delivered[-1])
    build.build(Path("bank"), Path("translations"), Path("waited"))
    assert delivered == [True] and _files(Path("waited")) == _files(Path("serial"))

    def full_disk(self, read):
        self.remove()  # (what deliver does when it cannot write the file)
        delivered.append(False)
        return False

    monkeypatch.setattr(build._Awaited, "deliver", full_disk)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache-again"))
    build.build(Path("bank"), Path("translations"), Path("again"))
    assert delivered == [True, False] and _files(Path("again")) == _files(Path("serial")) and not _staging_left(Path("again"))


def test_an_awaited_file_gives_what_was_delivered_or_none_once_removed(tmp_path):
    import threading

    from aistack_bank import build

    def bounded(awaited):  # (a wait that went on: the file removed after a minute, and wait() gives None)
        stop = threading.Timer(60, awaited.remove)
        stop.daemon = True
        stop.start()
        return stop

    awaited = build._Awaited.make(tmp_path, "t")
    assert build._Awaited.make(tmp_path, "t") is None  # (made once: never another's)
    threading.Timer(0.05, awaited.deliver, [("t", b"en", b"fields")]).start()
    stop = bounded(awaited)
    assert awaited.wait() == ("t", b"en", b"fields")
    stop.cancel()
    gone = build._Awaited.make(tmp_path, "u")
    threading.Timer(0.05, gone.remove).start()
    stop = bounded(gone)
    assert gone.wait() is None
    stop.cancel()
    assert build._Awaited.make(tmp_path / "no-such-folder", "v") is None
