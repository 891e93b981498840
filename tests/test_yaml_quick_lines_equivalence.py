"""The quick reader's pass over the whole text (``yamlsource._quick_lines``) against its line
reader (``yamlsource._quick_read``, which reads any text the pass leaves): for every text the
pass reads, the same data (types included) and the same positions of every value and key in the
same order. The line reader is itself compared with libyaml (tests/test_yaml_quick_equivalence.py,
through ``_quick``, which now asks the pass first)."""

from __future__ import annotations

import random
import subprocess
from pathlib import Path

import pytest

from aistack_bank.yamlsource import _police_all, _quick_lines, _quick_read, check_source

import test_yaml_quick_equivalence as quick_test
from test_yaml_quick_equivalence import PLAIN, _mapping, _mutated

ROOT = Path(__file__).resolve().parent.parent


def _shape(found) -> str:
    return repr((found[0], list(found[1].items()), list(found[2].items())))


def _compare(text: str) -> bool:
    """Whether the pass read ``text`` (and gave what the line reader gives; asserted)."""
    if not text.endswith("\n") or "\t" in text or _police_all(text):
        return False  # (what _quick leaves before either reader)
    fast = _quick_lines(text)
    if fast is None:
        return False
    slow = _quick_read(text)
    assert slow is not None, text
    assert _shape(fast) == _shape(slow), text
    return True


def _texts(rng: random.Random, count: int, monkeypatch):
    for n in range(count):
        with monkeypatch.context() as patch:
            if n % 2:  # (half of them with the usual values only)
                patch.setattr(quick_test, "WORDS", PLAIN)
            lines = _mapping(rng, 0, 0)
        if rng.random() < 0.7:  # (most without the comments and blank lines the pass leaves)
            lines = [line for line in lines if line.strip(" ") and not line.lstrip(" ").startswith("#")]
        if rng.random() < 0.3:
            lines.insert(0, rng.choice(["# yaml-language-server: $schema=x.json", "#", "# a\n# b", "", "---"]))
        text = "\n".join(lines) + rng.choice(["\n", "\n", "\n\n", "", "\n# end\n"])
        yield text
        yield _mutated(rng, text)


def test_random_texts_read_alike(monkeypatch):
    rng = random.Random(16)
    read = total = 0
    for text in _texts(rng, 8000, monkeypatch):
        total += 1
        read += _compare(text)
    # the pass reads a good share of them (the rest go to the line reader): both ways are compared
    assert read > total // 20, (read, total)
    assert total - read > total // 4, (read, total)


def test_repository_yaml_read_alike():
    files = subprocess.run(["git", "ls-files", "*.yaml", "*.yml"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    read = 0
    for name in files:
        text, _ = check_source((ROOT / name).read_bytes(), ROOT / name)
        if text is not None:
            read += _compare(text)
    assert read > len(files) // 3, (read, len(files))


@pytest.mark.parametrize("text, fast", [
    ("# schema\nid: q1\nstem: >-\n  a\n  b\ntags: [a, b]\nx:\n- a\n- k: v\n  j: |\n    l1\n    l2\ny: 'it''s'\n", True),
    ("id: q1\nstem: >-\n  a\n\n  b\n", False),  # (a blank line within: the line reader)
    ("id: q1\nstem: >-\n  a\n   b\n", False),  # (a line further in)
    ("id: q1\nstem: >\n  a\n  b\nnext: 1\n", True),
    ("id: q1\na:\n  b: >-\n  c: d\n", False),  # (a text not further in than its key)
    ("id: q1\nstem: a\n  b\n", False),  # (a plain value going on)
    ("id: q1\n# c\nx: 1\n", False),  # (a comment past the top)
    ("id: q1\nx:\n  - a\n  -  b\n  - c: d\n    e: f\ny: 2\n", True),
    ("id: q1\nx:\n  - a\n   - b\n", False),
    ("id: q1\n" + "k" * 1024 + ": v\n", True),
    ("id: q1\n" + "k" * 1025 + ": v\n", False),
])
def test_examples(text, fast):
    assert _compare(text) is fast
