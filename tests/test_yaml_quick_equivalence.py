"""The quick reader of the question files' usual YAML (``yamlsource._quick``) against libyaml and
the converter: for every text it reads, the same data (types included), the same positions of
every value and key in the same order, and nothing to report; every other text is composed by
libyaml as before (``parse_yaml`` gives the same document and diagnostics either way)."""

from __future__ import annotations

import random
import subprocess
from pathlib import Path

import pytest

from aistack_bank import yamlsource
from aistack_bank.yamlsource import check_source, parse_yaml

ROOT = Path(__file__).resolve().parent.parent

WORDS = ["alpha", "Beta", "q00012", "single-choice", "12", "007", "0x1F", "0o17", "1.5", "1e3", "+1", "-1", ".5", "true", "True",
         "FALSE", "null", "Null", "~", "yes", "off", ".inf", "-.inf", ".nan", "2026-01-01", "1_000", "a b", "x:y", "a: b", "a:",
         "a #b", "a#b", "é", "×2", "Ünïcode", "R&D", "&a", "*a", "!t", "!!str", "<<", "=", "!", "&", "*", "- x", "-x", "?x",
         ":x", "'q'", "it's", '"d"', "[a]", "{a}", "a,b", "%", "@", "`", "|", ">", "\u00a0x", "x\u00a0", "\u2028", "\ufeff",
         "\ufffe", "\x85", "\\n", "-", "--- x", "...", "#", "q&a"]


PLAIN = ["alpha", "Beta", "q00012", "single-choice", "12", "1.5", "true", "null", "about 28 GB", "x × 2", "résumé", "R&D", "a-b",
         "(BF16)", "it's", "a,b", "50%", "x/y", "v1.2", "a=b"]


def _words(rng: random.Random) -> str:
    pool = WORDS if rng.random() < 0.25 else PLAIN
    return " ".join(rng.choice(pool) for _ in range(rng.randint(1, 3)))


def _one_line(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.5:
        return _words(rng)
    if r < 0.62:
        return "'" + _words(rng).replace("'", rng.choice(["''", "'"])) + "'"
    if r < 0.74:
        return '"' + _words(rng) + '"'
    if r < 0.9:
        sep = rng.choice([", ", ",", " , ", ",  "])
        return "[" + rng.choice(["", " "]) + sep.join(rng.choice(WORDS[:30]) for _ in range(rng.randint(0, 4))) + rng.choice(["", " "]) + "]"
    return _words(rng) + rng.choice([" ", "  ", " # note", "#x"])


def _block(rng: random.Random, indent: int) -> tuple[str, list[str]]:
    header = rng.choice([">-", ">", "|", "|-"] * 5 + [">+", "|2", ">- # c", "> "])
    inner = indent + rng.choice([1, 2, 2, 2, 4])
    lines = []
    for _ in range(rng.randint(1, 4)):
        r = rng.random()
        if r < 0.06:
            lines.append(" " * rng.randint(0, inner + 2))  # a blank line, maybe with spaces
        elif r < 0.16:
            lines.append(" " * (inner + rng.randint(1, 3)) + _words(rng))  # further in
        elif r < 0.3:
            lines.append(" " * inner + _words(rng) + " " * rng.randint(1, 2))  # trailing spaces
        else:
            lines.append(" " * inner + _words(rng))
    if rng.random() < 0.1:
        lines.append(" " * rng.randint(0, inner + 2))
    return header, lines


def _mapping(rng: random.Random, indent: int, depth: int, first_prefix: str | None = None) -> list[str]:
    lines: list[str] = []
    keys = rng.sample(["id", "kind", "stem", "text", "feedback", "correct", "tags", "check", "script", "options", "a-b", "x_1", "id"], rng.randint(1, 5))
    for n, key in enumerate(keys):
        pad = first_prefix if n == 0 and first_prefix is not None else " " * indent
        if rng.random() < 0.1:
            lines.append(" " * rng.randint(0, indent + 2) + rng.choice(["# comment", "", "#"]))
        r = rng.random()
        if r < 0.45:
            lines.append(f"{pad}{key}: {_one_line(rng)}")
        elif r < 0.65:
            header, body = _block(rng, indent)
            lines.append(f"{pad}{key}: {header}")
            lines += body
        elif r < 0.8 and depth < 4:
            lines.append(f"{pad}{key}:" + rng.choice(["", " ", " # c"]))
            lines += _mapping(rng, indent + rng.choice([1, 2, 2, 4]), depth + 1)
        elif depth < 4:
            lines.append(f"{pad}{key}:")
            lines += _sequence(rng, indent + rng.choice([0, 0, 2, 2, 3]), depth + 1)
        else:
            lines.append(f"{pad}{key}: {_one_line(rng)}")
    return lines


def _sequence(rng: random.Random, indent: int, depth: int) -> list[str]:
    lines: list[str] = []
    for _ in range(rng.randint(1, 4)):
        dash = " " * indent + "-" + " " * rng.choice([1, 1, 1, 2])
        r = rng.random()
        if r < 0.5 and depth < 4:
            lines += _mapping(rng, len(dash), depth + 1, first_prefix=dash)
        elif r < 0.9:
            lines.append(dash + _one_line(rng))
        else:
            lines.append(dash.rstrip(" ") + rng.choice(["", " >-", " - x", " # c"]))
    return lines


def _mutated(rng: random.Random, text: str) -> str:
    chars = list(text)
    for _ in range(rng.randint(1, 3)):
        at = rng.randrange(len(chars) + 1)
        r = rng.random()
        if r < 0.5:
            chars.insert(at, rng.choice(" \n-:#'\"[]>|&*!\t\u00a0é,{}?%\r"))
        elif chars and r < 0.8:
            del chars[min(at, len(chars) - 1)]
        elif chars:
            chars[min(at, len(chars) - 1)] = rng.choice(" \n-:#x1")
    return "".join(chars)


def _documents(rng: random.Random, count: int):
    for _ in range(count):
        lines = _mapping(rng, 0, 0)
        if rng.random() < 0.3:
            lines.insert(0, rng.choice(["# yaml-language-server: $schema=x.json", "", "---", "%YAML 1.2\n---"]))
        text = "\n".join(lines) + rng.choice(["\n", "\n", "\n\n", "", "\n# end\n"])
        yield text
        yield _mutated(rng, text)


def _slow(text: str, path: Path, monkeypatch) -> tuple:
    with monkeypatch.context() as patch:
        patch.setattr(yamlsource, "_quick", lambda text, screened=False, keys=True: None)
        return parse_yaml(text, path)


def _shape(doc) -> str:
    # repr tells True from 1 and 1.0, and lists the tables in their order
    return repr((doc.path, doc.text, doc.data, list(doc.values.items()), list(doc.keys.items()), doc._lines))


def _compare(text: str, monkeypatch) -> bool:
    """Whether the quick reader read ``text`` (and it agrees with libyaml; asserted)."""
    path = Path("bank/t/questions/q00001-x.yaml")
    quick = yamlsource._quick(text)
    if not yamlsource._police_all(text):  # (what parse_yaml asks then: the same, without the pass over the text)
        assert repr(yamlsource._quick(text, screened=True)) == repr(quick), text
    slow_doc, slow_diags = _slow(text, path, monkeypatch)
    doc, diags = parse_yaml(text, path)
    assert repr(diags) == repr(slow_diags), text
    assert (doc is None) == (slow_doc is None), text
    if doc is not None:
        assert _shape(doc) == _shape(slow_doc), text
    if quick is None:
        return False
    assert slow_doc is not None and not slow_diags, text
    assert repr((quick[0], list(quick[1].items()), list(quick[2].items()))) == repr(
        (slow_doc.data, list(slow_doc.values.items()), list(slow_doc.keys.items()))), text
    return True


def test_random_texts_read_alike(monkeypatch):
    rng = random.Random(14)
    read = total = 0
    for text in _documents(rng, 3000):  # (as many lines and branches reached as with 6 000, round 22)
        total += 1
        read += _compare(text, monkeypatch)
    # the quick reader reads a good share of them (the rest go to libyaml): both ways are compared
    assert read > total // 12, (read, total)
    assert total - read > total // 4, (read, total)


def test_repository_yaml_read_alike(monkeypatch):
    files = subprocess.run(["git", "ls-files", "*.yaml", "*.yml"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    assert len(files) > 50
    read = 0
    for name in files:
        text, _ = check_source((ROOT / name).read_bytes(), ROOT / name)
        if text is not None:
            read += _compare(text, monkeypatch)
    assert read > len(files) // 2


@pytest.mark.parametrize("text, quick", [
    ("id: q1\nstem: >-\n  a\n  b\n", True),
    ("id: q1\nstem: >-\n  a\n\n  b\n", True),  # (a blank line within: a line break)
    ("id: q1\nstem: >-\n  a\n   b\n", False),  # (a line further in)
    ("id: q1\nstem: a\n  b\n", False),  # (a plain value going on)
    ("id: q1\nx: <<\n", False),  # (E108 from the converter)
    ("id: q1\nid: q2\n", False),  # (E106)
    ("id: q1\nx: [a, b, 1]\n", True),
    ("id: q1\nx: &a b\n", False),
    ("id: q1\n" + "k" * 1024 + ": v\n", True),  # (the longest key libyaml takes)
    ("id: q1\n" + "k" * 1025 + ": v\n", False),  # (E105: libyaml refuses a longer key)
    ("id: q1\nx:\n- " + "k" * 1025 + ": v\n", False),  # (a sequence item's)
])
def test_examples(text, quick, monkeypatch):
    assert _compare(text, monkeypatch) is quick
