"""The loader's policy on what editors leave in files: every case gives its exact code and place."""

from __future__ import annotations

from pathlib import Path

import pytest

from aistack_bank.yamlsource import MAX_FILE_BYTES, load_yaml, parse_yaml

CORPUS = Path(__file__).parent / "corpus" / "yaml"

# file → the diagnostics expected, as printed (path relative to the corpus folder)
EXPECTED = {
    "valid.yaml": [],
    "bom.yaml": ["bom.yaml:1:1: warning W101: byte-order mark at the start of the file is ignored; save as UTF-8 without BOM"],
    "crlf.yaml": ["crlf.yaml:1:1: warning W102: CRLF line endings are read as LF; save the file with LF line endings"],
    "mixed-endings.yaml": ["mixed-endings.yaml:3:1: error E111: mixed line endings: 1 CRLF and 14 LF line ends (and 0 lone CR); use LF throughout"],
    "not-utf8.yaml": ["not-utf8.yaml:8:24: error E102: byte 0xff is not valid UTF-8; save the file as UTF-8"],
    "empty.yaml": ["empty.yaml: error E103: file is empty"],
    "comments-only.yaml": ["comments-only.yaml: error E103: file holds no YAML document (only comments?)"],
    "duplicate-key.yaml": ["duplicate-key.yaml:16:1: error E106: duplicate key 'stem' (first defined at line 4)"],
    "tab-indent.yaml": ["tab-indent.yaml:8:1: error E107: tab in indentation; YAML indents with spaces only"],
    "billion-laughs.yaml": ["billion-laughs.yaml:1:4: error E108: alias (*name) refers to an anchor; write the value out instead"],
    "python-tag.yaml": ["python-tag.yaml:15:13: error E108: explicit YAML tag 'tag:yaml.org,2002:python/object/apply:os.system' is not allowed"],
    "merge-key.yaml": ["merge-key.yaml:13:1: error E108: merge keys (<<) are not allowed"],
    "not-nfc.yaml": ["not-nfc.yaml:13:38: error E109: text is not NFC-normalized (a decomposed accent, as copied from some PDFs); re-type it or normalize the file to NFC"],
    "bidi-override.yaml": ["bidi-override.yaml:4:23: error E110: forbidden character U+202E (RIGHT-TO-LEFT OVERRIDE)"],
    "not-a-mapping.yaml": ["not-a-mapping.yaml:1:1: error E112: the file must hold one YAML mapping (key: value lines) at the top level"],
    "deep-nesting.yaml": ["deep-nesting.yaml:1:36: error E113: nesting deeper than 32 levels"],
    "two-documents.yaml": ["two-documents.yaml:16:1: error E105: the file must hold a single YAML document (found a second '---')"],
}


@pytest.fixture(autouse=True)
def _in_corpus(monkeypatch):
    monkeypatch.chdir(CORPUS)


def test_every_corpus_file_has_an_expectation():
    assert sorted(p.name for p in CORPUS.iterdir()) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_corpus_file_gives_its_exact_diagnostics(name):
    doc, diags = load_yaml(Path(name))
    assert [str(d) for d in diags] == EXPECTED[name]
    has_error = any(d.severity.value == "error" for d in diags)
    assert (doc is None) == has_error


def test_syntax_error_points_at_the_offending_character():
    doc, diags = load_yaml(CORPUS.parent / "syntax-error.yaml")
    assert doc is None
    assert [(d.code, d.location.line, d.location.column) for d in diags] == [("E105", 5, 8)]


def test_bom_and_crlf_are_read_as_the_clean_file():
    clean, _ = load_yaml(Path("valid.yaml"))
    for name in ("bom.yaml", "crlf.yaml"):
        doc, _ = load_yaml(Path(name))
        assert doc.data == clean.data


def test_file_over_the_size_limit_is_refused_without_reading_it(tmp_path):
    big = tmp_path / "big.yaml"
    big.write_bytes(b"a: " + b"x" * MAX_FILE_BYTES + b"\n")
    doc, diags = load_yaml(big)
    assert doc is None
    assert [d.code for d in diags] == ["E104"]
    assert f"the limit is {MAX_FILE_BYTES} bytes" in diags[0].message


def test_missing_file_and_directory(tmp_path):
    assert [d.code for d in load_yaml(tmp_path / "nope.yaml")[1]] == ["E101"]
    assert [d.code for d in load_yaml(tmp_path)[1]] == ["E101"]


def test_plain_scalars_resolve_the_yaml_1_2_way():
    doc, diags = parse_yaml("a: no\nb: yes\nc: on\nd: 3\ne: 3.5\nf: true\ng: ~\nh: '3'\ni: 1e9\n", Path("x.yaml"))
    assert not diags
    assert doc.data == {"a": "no", "b": "yes", "c": "on", "d": 3, "e": 3.5, "f": True, "g": None, "h": "3", "i": 1e9}


# Every row of the YAML 1.2.2 core schema table (section 10.3.2), and the YAML 1.1 forms
# that the core schema leaves as strings.
CORE_SCHEMA = [
    ("~", None), ("null", None), ("Null", None), ("NULL", None), ("", None),
    ("true", True), ("True", True), ("TRUE", True), ("false", False), ("False", False), ("FALSE", False),
    ("0", 0), ("-19", -19), ("+12", 12), ("012", 12), ("0o7", 7), ("0o17", 15), ("0x10", 16), ("0xFf", 255),
    ("1.5", 1.5), ("-.5", -0.5), ("2.", 2.0), ("1e3", 1000.0), ("+1.2E-3", 0.0012),
    (".inf", float("inf")), ("+.Inf", float("inf")), ("-.INF", float("-inf")),
    ("yes", "yes"), ("No", "No"), ("on", "on"), ("OFF", "OFF"), ("y", "y"), ("0b101", "0b101"), ("1_000", "1_000"),
    ("1:20", "1:20"), ("2001-12-14", "2001-12-14"), ("0O7", "0O7"), ("0X10", "0X10"), ("0x", "0x"), ("0o8", "0o8"),
    ("inf", "inf"), (".Nan", ".Nan"), ("e3", "e3"), (".", "."), ("+", "+"), ("0x1p3", "0x1p3"),
]


@pytest.mark.parametrize(("plain", "value"), CORE_SCHEMA)
def test_plain_scalars_follow_the_yaml_1_2_core_schema(plain, value):
    doc, diags = parse_yaml(f"a: {plain}\nb: '{plain}'\n", Path("x.yaml"))
    assert not diags
    assert doc.data["a"] == value and type(doc.data["a"]) is type(value)
    assert doc.data["b"] == plain  # quoted: always the string


@pytest.mark.parametrize("plain", [".nan", ".NaN", ".NAN"])
def test_nan_is_a_float(plain):
    doc, _ = parse_yaml(f"a: {plain}\n", Path("x.yaml"))
    assert isinstance(doc.data["a"], float) and doc.data["a"] != doc.data["a"]


def test_positions_of_keys_and_values():
    doc, _ = load_yaml(Path("valid.yaml"))
    assert doc.locate(("options", 1, "text")).line == 10
    assert doc.locate(("options", 1, "text"), key=True).column == 5
    assert doc.locate(("options", 7)).line == 6  # nearest located ancestor


def test_the_whole_text_checks_give_the_line_by_line_diagnostics(monkeypatch):
    """The character rules are tried on the whole text before its lines: on random texts made
    of what they look for (tabs in and after indentation, merge-conflict markers, controls,
    bidi overrides, decomposed accents, CRLF), check_source gives exactly what walking every
    line gives."""
    import random
    import re

    from aistack_bank import yamlsource

    rng = random.Random(3)
    pieces = ["id: q001", "  text: ok", "\t- a", "  x\ty", "<<<<<<< HEAD", "=======", ">>>>>>> b", "|||||||", "<<<<<<<x",
              "caf\u00e9", "cafe\u0301", "\u0301 start", "a\u202eb", "nul\x00", "\x85", "é à ü", "  - \ufeffz", "plain words", "",
              "a\u2028b", "\ufdd0", "x ======= y", "<<<<<<<", ">>>>>>> ", "|||||||  z", "=======\t"]
    texts = ["\n".join(rng.choices(pieces, k=rng.randint(1, 8))) + rng.choice(["", "\n"]) for _ in range(600)]
    texts += [t.replace("\n", "\r\n") for t in texts[:50]]
    fast = [yamlsource.check_source(t.encode("utf-8"), Path("q.yaml")) for t in texts]
    monkeypatch.setattr(yamlsource, "_may_conflict", lambda text: True)  # every text walked line by line
    slow = [yamlsource.check_source(t.encode("utf-8"), Path("q.yaml")) for t in texts]
    assert [(text, [str(d) for d in diags]) for text, diags in fast] == [(text, [str(d) for d in diags]) for text, diags in slow]
    assert sum(1 for _, diags in slow if diags) > 300 and sum(1 for _, diags in slow if not diags) > 20


def test_a_read_file_is_parsed_as_its_text_alone_would_be(tmp_path):
    """load_yaml hands the parser what the character rules found of the whole text (whether
    every value must be policed); on random files of values with forbidden characters, escapes,
    decomposed accents, merge-conflict-like lines and CRLF, it is :func:`_police_all` of the
    text, and the document and diagnostics are those of parsing the text without it."""
    import random

    from aistack_bank import safety, yamlsource

    # every character of the line rules' set is in the values' set
    assert all(safety.FORBIDDEN.match(chr(c)) for c in range(0x30000) if not 0xD800 <= c <= 0xDFFF and yamlsource._FORBIDDEN.match(chr(c)))
    rng = random.Random(11)
    values = ["plain", "'single'", '"double \\u202e"', '"nul \\0"', "a\u2028b", "caf\u00e9", "cafe\u0301", "\ufdd0x", "x\u2029",
              '"\\ud800"', "é à ü", '"\\u2028"', "x ======= y", ">-\n  folded\n  text", "|\n  kept\n  \u2028", "[a, b]", "\x85", "'\ufeff'"]
    policed = 0
    for number in range(400):
        text = "".join(f"k{i}: {rng.choice(values)}\n" for i in range(rng.randint(1, 6)))
        if rng.random() < 0.1:
            text = text.replace("\n", "\r\n")
        path = tmp_path / f"f{number}.yaml"
        path.write_bytes(text.encode("utf-8", "surrogatepass"))
        checked, diags, police_all = yamlsource._read_source(path, MAX_FILE_BYTES, None)
        assert (checked, diags) == yamlsource.read_source(path)
        if checked is None:
            continue
        assert police_all == yamlsource._police_all(checked), text
        policed += police_all
        doc, found = load_yaml(path)
        alone, found_alone = parse_yaml(checked, path)
        assert [str(d) for d in found] == [str(d) for d in diags + found_alone], text
        assert (doc is None) == (alone is None) and (doc is None or (doc.data, doc.values, doc.keys) == (alone.data, alone.values, alone.keys)), text
    assert policed > 50
