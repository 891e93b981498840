"""A question file's text that is Latin-1 but not ASCII (about a quarter of the English files:
``×``, ``²``, ``³``) is searched for forbidden characters by one translation of its bytes, and
taken as NFC without asking: every Latin-1 character is its own NFC, a starter, and composes
with no other; the characters the translation keeps are exactly those of ``FORBIDDEN``. On
random Latin-1 files (every one of the 256 characters, line ends, tabs, conflict markers, a
BOM) and on every YAML file of the repository, ``_check_source`` gives the text, diagnostics
and policing flag of the code before (the pattern searched and NFC asked of every text that is
not ASCII), kept in ``test_check_source_ascii``."""

from __future__ import annotations

import random
import unicodedata
from itertools import product
from pathlib import Path

from test_check_source_ascii import _check_source_before

from aistack_bank import yamlsource
from aistack_bank.safety import FORBIDDEN

REPO = Path(__file__).resolve().parent.parent
LATIN1 = [chr(c) for c in range(256)]


def test_latin1_characters_are_nfc_starters_that_compose_with_none():
    for c in LATIN1:
        assert unicodedata.normalize("NFC", c) == c and unicodedata.combining(c) == 0
    for a, b in product(LATIN1, repeat=2):
        assert unicodedata.normalize("NFC", a + b) == a + b, (a, b)


def test_the_bytes_kept_are_the_forbidden_characters():
    for c in LATIN1:
        kept = bool(c.encode("latin-1").translate(None, yamlsource._LATIN1_ALLOWED))
        assert kept == (FORBIDDEN.search(c) is not None), repr(c)


def _same(raw: bytes, path: Path) -> None:
    want = _check_source_before(raw, path)
    got = yamlsource._check_source(raw, path)
    assert (got[0], [str(d) for d in got[1]], got[2]) == (want[0], [str(d) for d in want[1]], want[2]), raw


def test_as_before_on_random_latin1_files():
    rng = random.Random(12)
    pieces = ["id: q1\n", "text: a × b\n", "  - 10² m³\n", "key: 'é'\n", "\n", "\r\n", "\t", "  ", "=======\n", "<<<<<<< x\n", "# ¿qué?\n"] + LATIN1
    path = Path("q.yaml")
    for _ in range(20_000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 30)))
        if rng.random() < 0.7:
            text = "".join(c for c in text if c >= " " or c in "\t\n" or rng.random() < 0.1)
        raw = text.encode("utf-8")
        if rng.random() < 0.05:
            raw = b"\xef\xbb\xbf" + raw
        _same(raw, path)


def test_every_latin1_character_alone_and_in_a_line():
    path = Path("q.yaml")
    for c in LATIN1:
        for text in (f"a: ×{c}\n", f"a: b{c}c ²\n", f"{c}", f"a: x\nb: {c}{c}\n"):
            _same(text.encode(), path)


def test_every_yaml_file_of_the_repository():
    # (the project's own folders: not a benchmark bank generated beside them, nor a virtual environment)
    folders = ("aistack_bank", "bank", "docs", "examples", "tests", "translations")
    paths = sorted([*REPO.glob("*.yaml"), *(path for folder in folders for path in (REPO / folder).rglob("*.yaml"))])
    assert len(paths) > 100
    for path in paths:
        _same(path.read_bytes(), path)
