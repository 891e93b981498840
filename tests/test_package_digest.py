"""The package's digest (the part of every cache key that changes with the code) reads the same
files in the same order as when it listed them with ``Path.rglob``: on random folders (nested
names that sort differently as strings and as paths, hidden files, other endings, a folder with
a source file's ending, links to files and to folders), and on the package itself, whose
digest is unchanged. The former listing is kept below as the reference."""

from __future__ import annotations

import hashlib
import os
import random
from pathlib import Path

from aistack_bank import __version__
from aistack_bank.cache import store


def reference_files(package: Path) -> list[Path]:
    """The files the digest read before (``sorted(rglob("*"))``, by ending, ``is_file()``)."""
    return [path for path in sorted(package.rglob("*")) if path.suffix in (".py", ".js", ".css", ".html") and path.is_file()]


def reference_digest(package: Path) -> str:
    digest = hashlib.blake2b(digest_size=16)
    digest.update(f"{store._FORMAT}\0{__version__}\0".encode())
    for path in reference_files(package):
        digest.update(path.relative_to(package).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


NAMES = ["a", "a-b", "a.b", "A", "_x", "x.py", ".py", ".hidden.py", "m.js", "s.css", "p.html", "n.pyc", "t.py.txt", "z.", "b.PY",
         "__pycache__", "é.py"]


def _tree(root: Path, rng: random.Random, depth: int = 0) -> None:
    for name in rng.sample(NAMES, rng.randint(2, 7)):
        path = root / name
        if depth < 3 and rng.random() < 0.35:
            path.mkdir()
            _tree(path, rng, depth + 1)
        else:
            path.write_bytes(rng.randbytes(rng.randint(0, 40)))


def test_the_source_files_are_those_rglob_listed_in_the_same_order(tmp_path):
    rng = random.Random(20261202)
    for case in range(40):
        root = tmp_path / f"case{case}"
        root.mkdir()
        _tree(root, rng)
        (root / "linked.py").symlink_to(root / "target-missing.py")  # a dangling link: not a file
        folders = [p for p in root.rglob("*") if p.is_dir()]
        if folders:
            (root / "link-to-folder").symlink_to(rng.choice(folders), target_is_directory=True)  # not entered
            files = [p for p in root.rglob("*") if p.is_file()]
            if files:
                (root / "link.py").symlink_to(rng.choice(files))  # a link to a file is read
        listed = store._package_files(os.fspath(root))
        assert [Path(path) for _, path in listed] == reference_files(root)
        assert [name for name, _ in listed] == [path.relative_to(root).as_posix() for path in reference_files(root)]
    assert any(len(reference_files(tmp_path / f"case{case}")) > 5 for case in range(40))


def test_the_package_digest_is_the_one_the_former_listing_gave():
    store.package_digest.cache_clear()
    try:
        assert store.package_digest() == reference_digest(Path(store.__file__).parent.parent)
    finally:
        store.package_digest.cache_clear()
