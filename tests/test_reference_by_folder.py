"""A field's `#:` reference (its file relative to the project root) is made from its folder's,
asked once per folder, and its file name, when the folder is within the project root; else
whole, as before.

Compared with the code before (spelled out here) on random relative and absolute paths, project
roots and working directories, with `.`, `..`, repeated and trailing slashes and names that
start with dots; and the template's freshness compared with the fields by a path object's
identity gives the verdict it gave by equality."""

from __future__ import annotations

import os
import random
from pathlib import Path

from aistack_bank.i18n import extract
from aistack_bank.i18n.fields import TextField
from aistack_bank.i18n.verify import _template_compared

PARTS = ["bank", "t1", "topic", "q0001.yaml", "a", "b", ".", "..", "...", "..x", ".hidden", "", "translations", "x y"]


def _reference_before(path: str, project_root: str, cwd: str) -> str:
    absolute = os.path.abspath(os.path.join(cwd, path))
    return Path(os.path.relpath(absolute, os.path.abspath(os.path.join(cwd, project_root)))).as_posix()


def _path(rng: random.Random, absolute: float) -> str:
    text = "/".join(rng.choice(PARTS) for _ in range(rng.randint(0, 5)))
    if rng.random() < absolute:
        text = "/" + text
    if rng.random() < 0.1:
        text += "/"
    return text or "."


def test_the_reference_is_the_one_made_whole():
    rng = random.Random(3303)
    shortcut = 0
    for _ in range(8000):
        cwd = "/" + _path(rng, 0).strip("/")
        root, path = _path(rng, 0.2), _path(rng, 0.2)
        if rng.random() < 0.5:  # (most often: a file within the root)
            path = root.rstrip("/") + "/" + _path(rng, 0).lstrip("/") + "/q.yaml"
        expected = _reference_before(path, root, os.path.normpath(cwd))
        assert extract._reference(path, root, os.path.normpath(cwd)) == expected, (path, root, cwd)
        folder, name = os.path.split(path)
        shortcut += bool(folder and name not in ("", ".", ".."))
    assert shortcut > 3000
    assert extract.reference(Path("bank/t/q.yaml"), Path(".")) == "bank/t/q.yaml"
    assert extract.reference(Path("bank/t/q.yaml"), Path("bank/t/q.yaml")) == "."
    assert extract.reference(Path("bank/q.yaml"), Path("bank/q.yaml/x")) == ".."


def test_the_template_is_compared_by_each_file_once():
    paths = [Path("bank/t/q1.yaml"), Path("bank/t/q1.yaml"), Path("bank/t/q2.yaml")]  # (two equal objects, one other)
    fields = [TextField(f"q{i}.stem", f"text {i}", path, i + 1) for i, path in enumerate(paths)]
    items = [None] + [(f.key, f.text, "", f"bank/t/{f.path.name}", str(f.line)) for f in fields]
    asked = []

    def ref(field):
        asked.append(field.path)
        return f"bank/t/{field.path.name}"

    assert _template_compared([items], iter(fields), ref) is True
    assert asked == [paths[0], paths[2]]  # (once per file: equal paths share their reference)
    wrong = list(items)
    wrong[2] = wrong[2][:3] + ("bank/t/q2.yaml", wrong[2][4])
    assert _template_compared([wrong], iter(fields), ref) is False
    site = [TextField("site.title", "Practice", None, 1)]
    assert _template_compared([[None, ("site.title", "Practice", "", "None", "1")]], iter(site), lambda f: "None") is True
