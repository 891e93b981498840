"""Property-based tests: arbitrary input gives a result or a located project error, never a crash;
generated banks survive a round trip through the exports."""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path, PurePosixPath

from hypothesis import example, given, strategies as st

from aistack_bank.rules.checks import check_question
from aistack_bank.errors import BankError, Diagnostic
from aistack_bank.exporters import FORMATS
from aistack_bank.exporters.json_bank import build_document
from aistack_bank.i18n.catalog import read_catalog
from aistack_bank.load import model_errors
from aistack_bank.model import Bank, Category, KeyPoint, Option, SingleChoiceQuestion, Topic
from aistack_bank.options import ExportOptions
from aistack_bank.yamlsource import load_yaml, parse_yaml

YAML_ALPHABET = st.sampled_from(list("abc:- \n\t#&*!|>'\"[]{},?%@`~=<\\0123456789é\u00a0\u202e\x00\r"))


def assert_located(diags: list[Diagnostic], path: Path) -> None:
    for d in diags:
        assert d.location is not None and d.location.path.endswith(path.name), d
        assert d.code in __import__("aistack_bank.errors", fromlist=["CODES"]).CODES


@given(st.binary(max_size=400))
def test_loader_never_crashes_on_bytes(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("y") / "q.yaml"
    path.write_bytes(data)
    doc, diags = load_yaml(path)
    assert_located(diags, path)
    assert doc is not None or any(d.severity.value == "error" for d in diags)


@given(st.text(YAML_ALPHABET, max_size=300))
def test_loader_never_crashes_on_yaml_like_text(text):
    doc, diags = parse_yaml(text, Path("t.yaml"))
    assert_located(diags, Path("t.yaml"))


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.sampled_from(["id", "kind", "stem", "options", "text", "correct", "tags", "difficulty", "explanation", "check", "script", "x"]), children, max_size=6),
    max_leaves=20,
)


@given(st.dictionaries(st.sampled_from(["id", "kind", "stem", "options", "correct", "explanation", "tags", "difficulty", "check", "feedback", "bogus"]), json_values, max_size=9))
def test_validator_never_crashes_on_arbitrary_structures(data):
    from pydantic import ValidationError

    from aistack_bank.load import _adapters
    from aistack_bank.yamlsource import YamlDocument

    doc = YamlDocument(path=Path("q.yaml"), data=data, values={(): (1, 1)})
    try:
        _adapters()[0].validate_python(data)
    except ValidationError as exc:
        diags = model_errors(exc, doc, strip_union_tag=True)
        assert diags and all(d.location.path == "q.yaml" for d in diags)


PO_ALPHABET = st.sampled_from(list('msgidctxr "\\\n#~|,:.fuzzyab[]0<>=') + ["msgid ", "msgstr ", "msgctxt ", '"\n', "\n\n"])


@given(st.lists(PO_ALPHABET, max_size=80).map("".join))
def test_po_reader_never_crashes(tmp_path_factory, text):
    path = tmp_path_factory.mktemp("po") / "fr.po"
    path.write_text(text, encoding="utf-8")
    catalog = read_catalog(path)
    assert_located(catalog.diagnostics, path)
    if catalog.po is None:  # an unusable catalog always says why, with an error
        assert any(d.severity.value == "error" for d in catalog.diagnostics)


def _Q(script):
    from aistack_bank.model import Check

    return SingleChoiceQuestion(id="q001", kind="single-choice", stem="?", tags=["x"], difficulty=1, correct="a",
                                options=[Option(id="a", text="a"), Option(id="b", text="b")], check=Check(script=script))


CHECK_ALPHABET = st.sampled_from(["x", " = ", "GB", "1", "9", "**", "*", "/", "(", ")", "\n", "assert ", "answer(", 'unit="GB"', ",", "min(", "close(", "__import__", ".", "[", "]", "lambda", ":", "import ", "while ", "-", "e9", " and ", " not "])


@given(st.lists(CHECK_ALPHABET, max_size=40).map("".join).filter(lambda s: s.strip()))
def test_check_language_never_crashes(script):
    findings = check_question(_Q(script), [("a", "1 GB"), ("b", "2 GB")])
    for f in findings:
        assert f.code.startswith("E4") and f.script_line >= 0


# --- generated valid banks round-trip through the exports ---------------------------------

WORD = st.text(st.sampled_from(list("abcdefghijklmnopqrstuvwxyzÉéèçàßø0123456789<>&\"'{}~=#:]\\%$/×²·")), min_size=1, max_size=8)
TEXT = st.lists(WORD, min_size=1, max_size=8).map(" ".join).map(lambda s: unicodedata.normalize("NFC", s))


@st.composite
def banks(draw):
    n = draw(st.integers(min_value=1, max_value=4))
    questions = []
    for i in range(1, n + 1):
        count = draw(st.integers(min_value=2, max_value=5))
        texts = draw(st.lists(TEXT, min_size=count, max_size=count, unique_by=lambda t: t.casefold()))
        options = [Option(id=chr(97 + j), text=t, feedback=draw(st.none() | TEXT)) for j, t in enumerate(texts)]
        questions.append(SingleChoiceQuestion(id=f"q{i:03d}", kind="single-choice", stem=draw(TEXT), options=options,
                                              correct=chr(97 + draw(st.integers(0, count - 1))), explanation=draw(TEXT),
                                              tags=["t"], difficulty=draw(st.integers(1, 3))))
    topic = Topic(id="gen", category="gen", title=draw(TEXT), summary=draw(TEXT), key_points=[KeyPoint(id="k1", text=draw(TEXT))], tags={"t": "x"}, questions=[q.id for q in questions])
    return Bank(topic=topic, category=Category(id="gen", title=draw(TEXT)), questions=tuple(questions), lang="en")


@given(banks())
def test_every_exporter_accepts_generated_banks(bank):
    for name, export in FORMATS.items():
        tree = export({"en": bank}, ExportOptions())
        assert tree and all(isinstance(k, PurePosixPath) and isinstance(v, bytes) for k, v in tree.items()), name


@given(banks())
def test_json_export_loads_back_into_an_equal_model(bank):
    from aistack_bank.exchange import ExportDocument

    data = FORMATS["json"]({"en": bank}, ExportOptions())[PurePosixPath("gen-en.json")]
    assert ExportDocument.model_validate(json.loads(data)) == build_document([bank])
    back = ExportDocument.model_validate(json.loads(data))
    for q, e in zip(bank.questions, back.questions):
        assert e.stem["en"] == q.stem and e.correct == q.correct
        assert [o.text["en"] for o in e.options] == [o.text for o in q.options]


@given(banks())
def test_moodle_xml_and_gift_reparse_to_the_same_keys_and_texts(tmp_path_factory, bank):
    from aistack_bank.importers import read_questions

    folder = tmp_path_factory.mktemp("rt")
    for fmt, exporter, name in (("moodle", "moodle-xml", "gen-en.xml"), ("gift", "gift", "gen-en.gift")):
        path = folder / name
        path.write_bytes(FORMATS[exporter]({"en": bank}, ExportOptions())[PurePosixPath(name)])
        imported, skipped = read_questions(fmt, path)
        assert not skipped
        assert len(imported) == len(bank.questions)
        for got, q in zip(imported, bank.questions):
            assert got.stem == q.stem, fmt
            assert [t for t, _ in got.options] == [o.text for o in q.options], fmt
            assert [f for _, f in got.options] == [o.feedback for o in q.options], fmt
            assert got.options[got.correct][0] == q.correct_option.text
            assert got.explanation == q.explanation


WHOLE_FILE = {"E101", "E103", "E104"}
"""Codes about a file as a whole (unreadable, no document, too large): located at the file."""
TOPIC = "id: t\ncategory: c\ntitle: T\nsummary: S\ntags:\n  memory: m\nquestions:\n  - q001\n"


@given(st.text(YAML_ALPHABET, max_size=300).filter(lambda t: t.strip(" \n\t\r\x00")))
@example(text="0\r")  # a lone CR at the end of the file used to crash the line-ending check
@example(text="id: q001\r\nkind: x\n")
def test_project_errors_carry_locations(tmp_path_factory, text):
    """Whatever a question file holds, every error about it names the file, a line and a column in it."""
    from aistack_bank.rules.validate import validate_bank

    root = tmp_path_factory.mktemp("bank")
    (root / "categories.yaml").write_text("categories:\n  - id: c\n    title: C\n", encoding="utf-8")
    (root / "t" / "questions").mkdir(parents=True)
    (root / "t" / "topic.yaml").write_text(TOPIC, encoding="utf-8")
    path = root / "t" / "questions" / "q001-x.yaml"
    path.write_text(text, encoding="utf-8", newline="")
    report = validate_bank(root, run_checks=False)
    assert report.errors  # none of these texts is a valid question
    # YAML breaks lines at \r too; an error at the end of the input may sit on the line after it
    line_count = len(re.split(r"\r\n|\r|\n", text)) + 1
    for d in report.errors:
        loc = d.location
        assert loc is not None and loc.path.endswith(("q001-x.yaml", "topic.yaml")), str(d)
        if loc.path.endswith("q001-x.yaml") and d.code not in WHOLE_FILE:
            assert 1 <= loc.line <= line_count and loc.column >= 1, str(d)
            assert str(d).startswith(f"{loc.path}:{loc.line}:{loc.column}: error {d.code}: "), str(d)


def test_a_located_project_error_prints_its_location():
    from aistack_bank.errors import Location

    err = BankError("bad value", Location("bank/q.yaml", 3, 7), code="E203")
    assert str(err) == "bank/q.yaml:3:7: bad value"
    assert str(err.diagnostic()) == "bank/q.yaml:3:7: error E203: bad value"
    assert str(BankError("bad value", Location("bank/q.yaml", 3))) == "bank/q.yaml:3: bad value"
