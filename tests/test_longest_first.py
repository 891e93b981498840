"""``conftest.LONGEST``, the tests started first so that the two workers end together, names
tests that exist: an entry left behind when a test is renamed, moved or removed orders nothing,
and the test it stood for would start wherever its file is collected."""

from __future__ import annotations

import ast

import conftest
from conftest import REPO


def _defined(path) -> set[str]:
    """The names of the test functions (and classes) at the top of a test module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {node.name for node in tree.body if isinstance(node, (ast.FunctionDef, ast.ClassDef))}


def test_every_entry_names_a_test_file_and_a_test_in_it():
    assert conftest.LONGEST and len(set(conftest.LONGEST)) == len(conftest.LONGEST)
    for entry in conftest.LONGEST:
        file, _, rest = entry.partition("::")
        path = REPO / file
        assert file.startswith("tests/test_") and file.endswith(".py") and path.is_file(), entry
        name = rest.split("[", 1)[0]
        assert not name or name in _defined(path), entry


def test_the_listed_tests_are_collected_first_in_their_order():
    class Item:
        def __init__(self, nodeid):
            self.nodeid = nodeid

    later = [Item("tests/test_a.py::test_one"), Item("tests/test_b.py::test_two")]
    listed = [Item(entry if "::" in entry and not entry.endswith("::") else entry + "test_x") for entry in reversed(conftest.LONGEST)]
    items = later[:1] + listed + later[1:]
    conftest.pytest_collection_modifyitems(items)
    assert [item.nodeid for item in items[:len(listed)]] == [item.nodeid for item in reversed(listed)]
    assert items[len(listed):] == later
