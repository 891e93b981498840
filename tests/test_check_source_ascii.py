"""A question file's text is searched for forbidden characters by one translation of its bytes
when it is ASCII (nearly every file), and its CRLF line ends counted only when it holds a CR:
on random files (ASCII and not, with every ASCII control, tabs, CR, CRLF, mixed line ends, a
BOM, bytes that are not UTF-8, decomposed accents, separators, merge-conflict markers, empty
ones), ``_check_source`` gives the text, diagnostics and policing flag of the code before,
kept below, and so does ``load_yaml`` on every YAML file of the repository."""

from __future__ import annotations

import random
import re
import unicodedata
from pathlib import Path

from aistack_bank import yamlsource
from aistack_bank.errors import error, warning, Location
from aistack_bank.safety import FORBIDDEN
from aistack_bank.yamlsource import _CONFLICT, _FORBIDDEN, _first_not_nfc, _may_conflict

REPO = Path(__file__).resolve().parent.parent


def _check_source_before(raw: bytes, path: Path):
    diags = []
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
        diags.append(warning("W101", "byte-order mark at the start of the file is ignored; save as UTF-8 without BOM", Location.of(path, 1, 1)))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        return None, diags + [error("E102", f"byte 0x{raw[exc.start]:02x} is not valid UTF-8; save the file as UTF-8", Location.of(path, line, col))], True
    if not text.strip():
        return None, diags + [error("E103", "file is empty", Location.of(path))], True
    crlf = text.count("\r\n")
    if "\r" in text:
        lone_cr = text.count("\r") - crlf
        lf_only = text.count("\n") - crlf
        if lone_cr or (crlf and lf_only):
            lone = re.search(r"\r(?!\n)", text)
            split = text.split("\n")
            first_crlf = split[0].endswith("\r")
            first = next((i for i, ln in enumerate(split, 1) if ln.endswith("\r") != first_crlf or "\r" in ln[:-1]),
                         text.count("\n", 0, lone.start()) + 1 if lone else 1)
            return None, diags + [error("E111", f"mixed line endings: {crlf} CRLF and {lf_only} LF line ends (and {lone_cr} lone CR); use LF throughout", Location.of(path, first, 1))], True
        text = text.replace("\r\n", "\n")
        diags.append(warning("W102", "CRLF line endings are read as LF; save the file with LF line endings", Location.of(path, 1, 1)))
    forbidden = FORBIDDEN.search(text) is not None
    clean = (not _may_conflict(text) and "\t" not in text and not (forbidden and _FORBIDDEN.search(text))
             and (text.isascii() or unicodedata.is_normalized("NFC", text)))
    for lineno, line in enumerate(() if clean else text.split("\n"), 1):
        if _CONFLICT.match(line):
            diags.append(error("E114", "merge-conflict marker; resolve the conflict before validating", Location.of(path, lineno, 1)))
            continue
        indent = len(line) - len(line.lstrip(" \t"))
        if "\t" in line[:indent]:
            diags.append(error("E107", "tab in indentation; YAML indents with spaces only", Location.of(path, lineno, line.index("\t") + 1)))
        bad = _FORBIDDEN.search(line)
        if bad:
            diags.append(error("E110", f"forbidden character U+{ord(bad.group()):04X} ({unicodedata.name(bad.group(), 'control')})", Location.of(path, lineno, bad.start() + 1)))
        if not line.isascii() and not unicodedata.is_normalized("NFC", line):
            col = _first_not_nfc(line)
            diags.append(error("E109", "text is not NFC-normalized (a decomposed accent, as copied from some PDFs); re-type it or normalize the file to NFC", Location.of(path, lineno, col)))
    if any(d.severity.value == "error" for d in diags):
        return None, diags, True
    return text, diags, forbidden


_PIECES = (["id: q1", "text: words", "  - a", "key: 'x'", ' "q"', ": ", "\n", "\n", "\n", "\r\n", "\r", "\t", "  ", "#", ">-", "=======",
            "<<<<<<< ours", ">>>>>>>", "|||||||", "\n=======\n", "\n<<<<<<< x\n"]
           + [chr(c) for c in range(128)]
           + ["é", "e\u0301", "\u0301", "\u00a0", "\u2028", "\u202e", "\ufeff", "\x85", "×", "中", "\ufdd0", "\U0001f600"])


def _raw(rng: random.Random) -> bytes:
    pieces = [rng.choice(_PIECES) for _ in range(rng.randint(0, 40))]
    if rng.random() < 0.6:
        pieces = [p for p in pieces if p.isascii()]
    raw = "".join(pieces).encode("utf-8", "surrogatepass")
    roll = rng.random()
    if roll < 0.05:
        raw = b"\xef\xbb\xbf" + raw
    elif roll < 0.08:
        raw += b"\xff"
    elif roll < 0.1:
        raw = raw.replace(b"\n", b"\r\n")
    return raw


def test_check_source_as_before_on_random_files():
    rng = random.Random(3)
    path = Path("q.yaml")
    outcomes = set()
    for _ in range(30_000):
        raw = _raw(rng)
        want = _check_source_before(raw, path)
        got = yamlsource._check_source(raw, path)
        assert (got[0], [str(d) for d in got[1]], got[2]) == (want[0], [str(d) for d in want[1]], want[2]), raw
        outcomes.add((want[0] is None, want[2], raw.isascii()))
    assert len(outcomes) >= 5, outcomes


def test_every_ascii_character_alone_and_in_a_line():
    path = Path("q.yaml")
    for c in map(chr, range(128)):
        for text in (f"a: {c}\n", f"a: b{c}c\n", f"{c}", f"a: x\nb: {c}{c}\n"):
            raw = text.encode()
            want = _check_source_before(raw, path)
            got = yamlsource._check_source(raw, path)
            assert (got[0], [str(d) for d in got[1]], got[2]) == (want[0], [str(d) for d in want[1]], want[2]), repr(text)


def test_every_yaml_file_of_the_repository():
    paths = sorted(REPO.rglob("*.yaml"))
    assert paths
    for path in paths:
        raw = path.read_bytes()
        want = _check_source_before(raw, path)
        got = yamlsource._check_source(raw, path)
        assert (got[0], [str(d) for d in got[1]], got[2]) == (want[0], [str(d) for d in want[1]], want[2]), path
