"""Within ``folders_settled`` (many question files read in a row), ``read_regular`` opens a file
that is not a link without looking at it first (``O_NOFOLLOW``) and works out the project's
real path once: on random trees of files, links to files and folders inside and outside the
project, links to links, folders, FIFOs, missing and oversized files, it gives the bytes or the
refusal (code and message) that the code before gives, kept below, inside ``folders_settled``
and outside, from the project folder as given, as a link to it, and as a relative path."""

from __future__ import annotations

import os
import random
import stat
from pathlib import Path

import pytest

from aistack_bank import safety
from aistack_bank.safety import UnsafeFile, check_link, folders_settled, read_regular


def _read_regular_before(path: Path, max_bytes: int, *, root: Path | None = None, what: str = "file", kept=None) -> bytes:
    check_link(path, root)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except IsADirectoryError:
        raise UnsafeFile("is a directory, not a file") from None
    except OSError as exc:
        raise UnsafeFile(f"cannot read {what}: {exc.strerror or exc}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            kind = "a directory" if stat.S_ISDIR(st.st_mode) else "a FIFO" if stat.S_ISFIFO(st.st_mode) else "a device" if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode) else "a socket or other special file"
            raise UnsafeFile(f"not a regular file ({kind}); only regular files are read")
        if st.st_size > max_bytes:
            raise UnsafeFile(f"{what} is {st.st_size} bytes; the limit is {max_bytes} bytes", "E104")
        found = kept(st) if kept is not None else None
        if found is not None and len(found) <= max_bytes:
            return found
        chunks, total = [], 0
        while True:
            chunk = os.read(fd, min(1 << 20, max_bytes + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > max_bytes:
                raise UnsafeFile(f"{what} is over the limit of {max_bytes} bytes", "E104")
        return b"".join(chunks)
    except OSError as exc:
        raise UnsafeFile(f"cannot read {what}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


def _outcome(read, path, root, max_bytes):
    try:
        return ("bytes", read(path, max_bytes, root=root, what="question file"))
    except UnsafeFile as exc:
        return ("refused", exc.code, exc.message)


def _tree(base: Path, rng: random.Random) -> tuple[Path, list[Path]]:
    """A project folder with a questions folder, and every kind of entry in and around it."""
    project, outside = base / "project", base / "outside"
    questions = project / "bank" / "topic" / "questions"
    questions.mkdir(parents=True)
    outside.mkdir()
    (outside / "secret.yaml").write_text("id: outside\n")
    (outside / "folder").mkdir()
    (outside / "folder" / "q.yaml").write_text("id: in a linked folder\n")
    (project / "elsewhere.yaml").write_text("id: elsewhere in the project\n")
    names = []
    for i in range(rng.randint(5, 15)):
        name = questions / f"q{i:03d}.yaml"
        roll = rng.random()
        if roll < 0.4:
            name.write_bytes(os.urandom(rng.randint(0, 40)) if rng.random() < 0.2 else f"id: q{i:03d}\n".encode() * rng.randint(1, 50))
        elif roll < 0.5:
            name.symlink_to(outside / "secret.yaml")
        elif roll < 0.6:
            name.symlink_to(project / "elsewhere.yaml")
        elif roll < 0.65:
            name.symlink_to(Path("..") / ".." / ".." / "elsewhere.yaml")
        elif roll < 0.7:
            name.symlink_to(questions / f"q{(i + 1):03d}.yaml")  # to a later entry, or to nothing
        elif roll < 0.75:
            name.mkdir()
        elif roll < 0.8 and hasattr(os, "mkfifo"):
            os.mkfifo(name)
        elif roll < 0.85:
            name.symlink_to(questions)  # a link to a folder
        elif roll < 0.9:
            name.write_bytes(b"x" * 5000)  # over the limit below
        # else: missing
        names.append(name)
    linked = project / "bank" / "linked"
    linked.symlink_to(outside / "folder")
    inner = project / "bank" / "inner"
    inner.symlink_to(questions)
    names += [linked / "q.yaml", inner / names[0].name, outside / "secret.yaml", project / "elsewhere.yaml",
              questions, questions / ".", questions / "..", Path(str(questions) + "/")]
    return project, names


@pytest.mark.parametrize("seed", range(12))
def test_read_regular_reads_and_refuses_as_before(tmp_path, seed, monkeypatch):
    rng = random.Random(seed)
    project, names = _tree(tmp_path, rng)
    (tmp_path / "alias").symlink_to(project)
    monkeypatch.chdir(project)
    roots = [project, tmp_path / "alias", Path("."), Path(os.path.relpath(project, project / "bank"))]
    seen = set()
    for root in roots:
        for path in names:
            for as_given in (path, Path(os.path.relpath(path, project))):
                max_bytes = rng.choice([4000, 1 << 20])
                want = _outcome(_read_regular_before, as_given, root, max_bytes)
                assert _outcome(read_regular, as_given, root, max_bytes) == want, (as_given, root)
                for kept in (False, True):
                    with folders_settled(working_folder_kept=kept):
                        assert _outcome(read_regular, as_given, root, max_bytes) == want, (as_given, root, kept)
                        assert _outcome(read_regular, as_given, root, max_bytes) == want, (as_given, root, kept)  # (with what it settled)
                seen.add(want[0] if want[0] == "bytes" else want[1])
    assert {"bytes", "E101", "E115"} <= seen, seen


def test_a_file_that_is_not_a_link_is_opened_without_a_look_first(tmp_path, monkeypatch):
    """(What the change is for: no ``lstat`` of the file; the test fails if that look comes back.)"""
    questions = tmp_path / "bank" / "questions"
    questions.mkdir(parents=True)
    files = [questions / f"q{i}.yaml" for i in range(5)]
    for path in files:
        path.write_text("id: x\n")
    looked = []
    real_lstat = os.lstat
    monkeypatch.setattr(safety.os, "lstat", lambda p, *a, **k: looked.append(str(p)) or real_lstat(p, *a, **k))
    with folders_settled():
        for path in files:
            assert read_regular(path, 1 << 20, root=tmp_path) == b"id: x\n"
    assert not [p for p in looked if p.endswith(".yaml")], looked


def test_a_relative_project_follows_the_working_folder(tmp_path, monkeypatch):
    """A project given as a relative path is the folder of that name in the working folder of
    each read, as before, also when the working folder changes within ``folders_settled``: here
    into the project itself, where a project of the same name links its questions folder to the
    outer project's (outside the inner one: refused)."""
    outer = tmp_path / "p"
    (outer / "other" / "questions").mkdir(parents=True)
    (outer / "other" / "questions" / "q.yaml").write_text("id: q\n")
    (outer / "questions").symlink_to(outer / "other" / "questions")  # (inside the outer project)
    (outer / "sub" / "p").mkdir(parents=True)
    (outer / "sub" / "p" / "questions").symlink_to(outer / "other" / "questions")  # (outside the inner one)
    path, root = Path("p/questions/q.yaml"), Path("p")
    seen = []
    with folders_settled():
        for folder in (tmp_path, outer / "sub", tmp_path):
            monkeypatch.chdir(folder)
            want = _outcome(_read_regular_before, path, root, 1 << 20)
            assert _outcome(read_regular, path, root, 1 << 20) == want, folder
            seen.append(want[0] if want[0] == "bytes" else want[1])
    assert seen == ["bytes", "E115", "bytes"]


def test_a_relative_path_follows_the_working_folder(tmp_path, monkeypatch):
    """A file given by a relative path, with the project given whole, is the file of that name in
    the working folder of each read, also when that folder changes within ``folders_settled``
    (the folder of a path as written is kept with the working folder it was read from): here
    once inside the project, once in a folder outside it whose files are refused."""
    project = tmp_path / "p"
    (project / "bank" / "questions").mkdir(parents=True)
    (project / "bank" / "questions" / "q.yaml").write_text("id: inside\n")
    (tmp_path / "out" / "bank" / "questions").mkdir(parents=True)
    (tmp_path / "out" / "bank" / "questions" / "q.yaml").write_text("id: outside\n")
    (project / "bank" / "linked").symlink_to(tmp_path / "out" / "bank" / "questions")
    seen = []
    with folders_settled():
        for folder in (project, tmp_path / "out", project, project / "bank"):
            monkeypatch.chdir(folder)
            for path in (Path("bank/questions/q.yaml"), Path("questions/q.yaml"), Path("bank/linked/q.yaml"), Path("linked/q.yaml")):
                want = _outcome(_read_regular_before, path, project, 1 << 20)
                assert _outcome(read_regular, path, project, 1 << 20) == want, (folder, path)
                seen.append(want[1])
    assert seen == [b"id: inside\n", "E101", "E115", "E101", b"id: outside\n", "E101", "E101", "E101",
                    b"id: inside\n", "E101", "E115", "E101", "E101", b"id: inside\n", "E101", "E115"], seen


def test_a_root_given_as_text_is_kept_apart_from_its_folders_real_path(tmp_path):
    """A root given as a string (its prefixes kept) and the folder of a file directly in it (its
    real path kept under its path, the same string) do not take each other's place."""
    from aistack_bank.safety import folders_settled, read_regular

    (tmp_path / "q.yaml").write_bytes(b"id: a\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "r.yaml").write_bytes(b"id: b\n")
    with folders_settled():
        for _ in range(2):
            assert read_regular(tmp_path / "q.yaml", 100, root=str(tmp_path)) == b"id: a\n"
            assert read_regular(tmp_path / "sub" / "r.yaml", 100, root=str(tmp_path)) == b"id: b\n"
            assert read_regular(str(tmp_path / "q.yaml"), 100, root=str(tmp_path)) == b"id: a\n"


def test_a_kept_working_folder_is_looked_up_once(tmp_path, monkeypatch):
    """With ``working_folder_kept`` (a question files' worker's chunk), the files given by
    relative paths are read as before with one look-up of the working folder on entering (and
    one for the absolute path of each folder met), not one a file; on leaving, an enclosing ``folders_settled`` looks it up for each read again, and
    sees a change of it."""
    for name in ("a", "b"):
        (tmp_path / name / "questions").mkdir(parents=True)
        for i in range(5):
            (tmp_path / name / "questions" / f"q{i}.yaml").write_text(f"id: {name}{i}\n")
    monkeypatch.chdir(tmp_path / "a")
    calls = []
    real_getcwd = os.getcwd
    monkeypatch.setattr(safety.os, "getcwd", lambda: calls.append(1) or real_getcwd())
    paths = [Path("questions") / f"q{i}.yaml" for i in range(5)]
    with folders_settled(working_folder_kept=True):
        assert read_regular(paths[0], 100, root=tmp_path) == b"id: a0\n"  # (the folder's absolute path made once)
        calls.clear()
        assert [read_regular(p, 100, root=tmp_path) for p in paths] == [f"id: a{i}\n".encode() for i in range(5)]
        assert calls == []
    with folders_settled():
        with folders_settled(working_folder_kept=True):
            assert read_regular(paths[0], 100, root=tmp_path) == b"id: a0\n"
        monkeypatch.chdir(tmp_path / "b")
        calls.clear()
        assert read_regular(paths[0], 100, root=tmp_path) == b"id: b0\n"
        assert calls  # (looked up for the read, then for the folder met anew there)
    assert safety._REAL_FOLDERS is None
