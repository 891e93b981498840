"""The cache folders' check (``store.private_folder``) and the staged and atomic writes
(``writing.stage_file``, ``writing.write_atomic``) give what their former code gave: the same
answer, the same folders and files (types, modes, owners, bytes) and the same errors, on
randomized trees. The former code is kept here as it was."""

from __future__ import annotations

import os
import random
import stat
import tempfile
from pathlib import Path

import pytest

from aistack_bank import writing
from aistack_bank.cache import store


# ----------------------------------------------------------------------------- the former code


def old_private_folder(folder: Path, *, create: bool = True) -> bool:
    root = store.cache_dir()
    try:
        parts = folder.relative_to(root).parts
    except ValueError:
        return False
    current = root
    if create:
        try:
            root.parent.mkdir(parents=True, exist_ok=True)
        except OSError:
            return False
    for part in ("", *parts):
        current = current / part if part else current
        if create:
            try:
                os.mkdir(current, 0o700)
            except FileExistsError:
                pass
            except OSError:
                return False
        try:
            st = os.lstat(current)
            if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.geteuid():
                return False
            if st.st_mode & 0o022:
                os.chmod(current, stat.S_IMODE(st.st_mode) & ~0o022)
        except OSError:
            return False
    return True


def old_stage_file(path: Path, data, pending: list) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    pending.append((tmp, path))
    with os.fdopen(fd, "wb") as fh:
        if callable(data):
            data(fh.fileno())
        else:
            fh.write(data)
    os.chmod(tmp, path.stat().st_mode & 0o777 if path.exists() else 0o644)
    return tmp


def old_write_atomic(path: Path, data: bytes) -> bool:
    if writing.same_bytes(path, data):
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


# ----------------------------------------------------------------------------- trees


def _snapshot(top: Path) -> dict:
    """Every entry under ``top``: its type, mode, owner, bytes or link target (temporary files'
    random names replaced by their order)."""
    out = {}
    for folder, dirs, files in os.walk(top):
        for name in sorted(dirs + files):
            path = Path(folder) / name
            st = os.lstat(path)
            rel = path.relative_to(top).as_posix()
            if name.endswith(".tmp") and name.startswith("."):
                rel = rel.rsplit(".", 2)[0] + ".TMP"
                while rel in out:
                    rel += "+"
            if stat.S_ISLNK(st.st_mode):
                out[rel] = ("link", os.readlink(path))
            elif stat.S_ISDIR(st.st_mode):
                out[rel] = ("dir", stat.S_IMODE(st.st_mode), st.st_uid)
            else:
                out[rel] = ("file", stat.S_IMODE(st.st_mode), st.st_uid, path.read_bytes())
    return out


KINDS = ("missing", "dir700", "dir755", "dir775", "dir777", "file", "link-dir", "link-dangling", "dir-other")


def _make(path: Path, kind: str) -> None:
    if kind == "missing":
        return
    if kind.startswith("dir"):
        path.mkdir()
        if kind == "dir-other":
            if os.geteuid() != 0:
                os.chmod(path, 0o700)
                return
            os.chown(path, 65534, 65534)
            os.chmod(path, 0o777)
        else:
            os.chmod(path, int(kind[3:], 8))
    elif kind == "file":
        path.write_bytes(b"x")
    elif kind == "link-dir":
        (path.parent / (path.name + "-target")).mkdir()
        os.symlink(path.name + "-target", path)
    elif kind == "link-dangling":
        os.symlink("nowhere", path)


def _plan(rng: random.Random) -> list:
    """What a cache home and the cache's folders in it are (see :func:`_apply`), as ``rng`` draws it."""
    return [rng.choice(("missing", "dir755", "dir755", "file")), rng.choice(KINDS), rng.choice(KINDS), rng.choice(KINDS)]


def _apply(top: Path, plan: list) -> Path:
    top.mkdir()
    home = top / "home"
    _make(home, plan[0])
    if plan[0] != "dir755":
        return home
    _make(home / "aistack-bank", plan[1])
    if not plan[1].startswith("dir"):
        return home
    _make(home / "aistack-bank" / "files", plan[2])
    if not plan[2].startswith("dir"):
        return home
    _make(home / "aistack-bank" / "files" / "sub", plan[3])
    return home


def _outcome(call):
    try:
        return ("ok", call())
    except OSError as exc:
        return ("error", type(exc), exc.errno)


@pytest.mark.parametrize("seed", range(6))
def test_private_folder_as_before(tmp_path, monkeypatch, seed):
    rng = random.Random(seed)
    for case in range(60):
        plan = _plan(rng)
        which = rng.choice(("", "files", "files/sub", "files/sub/deeper", "beside:aistack-bankx", "beside:other"))
        create = rng.random() < 0.7
        results = []
        for name, function in (("old", old_private_folder), ("new", store.private_folder)):
            top = tmp_path / f"{case}-{name}"
            home = _apply(top, plan)
            monkeypatch.setenv("XDG_CACHE_HOME", str(home))
            root = store.cache_dir()
            folder = root.parent / which[7:] if which.startswith("beside:") else (root / which if which else root)
            results.append((_outcome(lambda: function(folder, create=create)), _snapshot(top)))
        assert results[0] == results[1], (seed, case, plan, which, create)


@pytest.mark.parametrize("seed", range(6))
def test_stage_file_and_write_atomic_as_before(tmp_path, monkeypatch, seed):
    rng = random.Random(seed)
    old_umask = os.umask(rng.choice((0o022, 0o002, 0o077)))
    try:
        for case in range(60):
            folder_kind = rng.choice(("dir755", "dir755", "missing", "file", "missing-parent", "link-dir"))
            target_kind = rng.choice(("missing", "file600", "file644", "file640", "file755", "link-file", "link-dangling", "dir"))
            data = rng.randbytes(rng.choice((0, 1, 100, 70_000)))
            how = rng.choice(("stage-bytes", "stage-function", "atomic", "atomic-same"))
            results = []
            for name, stage, atomic in (("old", old_stage_file, old_write_atomic), ("new", writing.stage_file, writing.write_atomic)):
                top = tmp_path / f"{case}-{name}"
                top.mkdir()
                folder = top / "a" / "b"
                if folder_kind == "missing-parent":
                    (top / "a").write_bytes(b"not a folder")
                elif folder_kind != "missing":
                    (top / "a").mkdir()
                    _make(folder, folder_kind)
                path = folder / "t.pickle"
                if folder.is_dir():
                    if target_kind.startswith("file"):
                        path.write_bytes(data if how == "atomic-same" else b"old")
                        os.chmod(path, int(target_kind[4:], 8))
                    elif target_kind == "link-file":
                        (folder / "real").write_bytes(b"old")
                        os.chmod(folder / "real", 0o604)
                        os.symlink("real", path)
                    elif target_kind == "link-dangling":
                        os.symlink("nowhere", path)
                    elif target_kind == "dir":
                        path.mkdir()
                pending: list = []
                if how.startswith("atomic"):
                    outcome = _outcome(lambda: atomic(path, data))
                elif how == "stage-function":
                    outcome = _outcome(lambda: stage(path, lambda fd: os.write(fd, data) if data else None, pending) and None)
                else:
                    outcome = _outcome(lambda: stage(path, data, pending) and None)
                results.append((outcome, [(Path(tmp).parent == path.parent, target.relative_to(top)) for tmp, target in pending], _snapshot(top)))
            assert results[0] == results[1], (seed, case, folder_kind, target_kind, how)
    finally:
        os.umask(old_umask)
