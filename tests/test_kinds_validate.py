"""`bank validate` on a bank that holds every question kind: the rules of each kind, located.

A small bank (one file per kind, with French and Dutch catalogs made by `bank i18n update`)
validates clean; each broken variant gives its code at the exact line and column of the field.
"""

from __future__ import annotations

import re
from pathlib import Path

import polib
import yaml
import pytest

from aistack_bank.errors import CODES
from aistack_bank.i18n.update import update_catalogs
from aistack_bank.model import KINDS
from aistack_bank.rules.validate import validate_bank
from banklayout import topic_folder

TOPIC = """id: every-kind
category: tests
title: Every kind
summary: One question of each kind.
tags:
  memory: "memory and number formats"
questions: [q001, q002, q003, q004, q005, q006, q007, q008]
"""

FILES = {
    "single-choice": ("q001-half-precision.yaml", """id: q001
kind: single-choice
stem: Which format stores a weight in half the bytes of single precision?
options:
  - id: a
    text: Half precision
    feedback: Right.
  - id: b
    text: Double precision
correct: a
explanation: Half precision uses half the bits.
tags: [memory]
difficulty: 1
"""),
    "multiple-response": ("q002-sixteen-bit.yaml", """id: q002
kind: multiple-response
stem: Which formats use sixteen bits per value?
options:
  - id: a
    text: Half precision
  - id: b
    text: Brain floating point
  - id: c
    text: Single precision
correct: [a, b]
explanation: Both half precision and brain floating point use sixteen bits.
tags: [memory]
difficulty: 1
"""),
    "true-false": ("q003-bf16-range.yaml", """id: q003
kind: true-false
stem: Brain floating point keeps the exponent range of single precision.
answer: true
feedback_true: Right, it keeps eight exponent bits.
feedback_false: It does keep them; it drops mantissa bits instead.
explanation: It trades mantissa bits for range.
tags: [memory]
difficulty: 2
"""),
    "numerical": ("q004-weights-gb.yaml", """id: q004
kind: numerical
stem: How many gigabytes do the FP16 weights of a 7-billion-parameter model take?
answer: 14
tolerance: 0.5
units:
  - id: u1
    name: GB
    multiplier: 1
  - id: u2
    name: MB
    multiplier: 0.001
near_misses:
  - id: n1
    value: 28
    tolerance: 1
    credit: 0
    feedback: That is FP32, four bytes per weight.
check:
  script: |
    params = 7 * billion
    answer(params * 2, unit="GB")
explanation: Each weight takes two bytes.
tags: [memory]
difficulty: 3
"""),
    "short-answer": ("q005-exchange-format.yaml", """id: q005
kind: short-answer
stem: Which open format exchanges trained models between frameworks?
answers:
  - id: a1
    text: ONNX
    feedback: Right.
  - id: a2
    text: Open Neural Network Exchange
    credit: 1
explanation: ONNX is the open exchange format.
tags: [memory]
difficulty: 1
"""),
    "matching": ("q006-bytes.yaml", """id: q006
kind: matching
stem: Match each format with the bytes it takes per value.
pairs:
  - id: a
    prompt: FP16
    answer: 2 bytes
  - id: b
    prompt: FP32
    answer: 4 bytes
  - id: c
    prompt: INT8
    answer: 1 byte
distractors:
  - id: d
    text: 3 bytes
explanation: The number in the name is the count of bits.
tags: [memory]
difficulty: 1
"""),
    "ordering": ("q007-memory-levels.yaml", """id: q007
kind: ordering
stem: Put these memory levels in order, from the fastest to the slowest.
items:
  - id: a
    text: Registers
  - id: b
    text: Shared memory
  - id: c
    text: High-bandwidth memory
explanation: Each level is larger and slower than the one before it.
tags: [memory]
difficulty: 1
"""),
    "essay": ("q008-decode-bound.yaml", """id: q008
kind: essay
stem: Explain why decoding one token at a time waits on memory rather than on compute.
model_answer: Each step reads every weight once for one token, about two operations per byte.
response_template: "Bytes read per token:"
explanation: Batching reuses each weight read for more tokens.
tags: [memory]
difficulty: 2
"""),
}


def write_bank(root: Path, changes: dict[str, str] | None = None) -> Path:
    bank = root / "bank"
    folder = topic_folder(bank, "every-kind")
    (folder / "topic.yaml").write_text(TOPIC, encoding="utf-8")
    for kind, (name, text) in FILES.items():
        (folder / "questions" / name).write_text((changes or {}).get(kind, text), encoding="utf-8")
    return bank


def position(text: str, marker: str, skip: int = 0) -> tuple[int, int]:
    """(line, column) of ``marker``'s first occurrence in ``text``, plus ``skip`` characters."""
    assert text.count(marker) >= 1, marker
    offset = text.index(marker) + skip
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def found(report) -> set[tuple[str, str, int, int]]:
    return {(d.code, Path(d.location.path).name, d.location.line, d.location.column) for d in report.diagnostics if d.location}


def test_every_kind_has_a_file():
    assert set(FILES) == set(KINDS)


def test_a_bank_of_every_kind_validates_clean(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    report = validate_bank(write_bank(tmp_path))
    assert report.diagnostics == []
    assert report.cues.questions == len(KINDS)


def fill(catalog: Path, lang: str, overrides: dict[str, str] | None = None) -> None:
    """Translate every entry (units and texts with figures kept), then apply ``overrides``."""
    po = polib.pofile(str(catalog))
    for entry in po:
        entry.msgstr = (overrides or {}).get(entry.msgctxt, entry.msgid if re.search(r"\d|^[A-Z]+$", entry.msgid) or ".unit." in entry.msgctxt else f"{entry.msgid} ({lang})")
    po.save()


@pytest.fixture
def translated(tmp_path, monkeypatch):
    """The bank of every kind with French and Dutch catalogs made by `bank i18n update`."""
    monkeypatch.chdir(tmp_path)
    bank = write_bank(tmp_path)
    translations = tmp_path / "translations"
    _, diags = update_catalogs(bank, translations, languages=["fr", "nl"])
    assert diags == []

    def run(fr: dict[str, str] | None = None):
        fill(translations / "fr.po", "fr", fr)
        fill(translations / "nl.po", "nl")
        return validate_bank(bank, translations=translations)

    return run


def test_french_and_dutch_catalogs_of_every_kind_validate_without_errors(translated):
    report = translated()
    assert [str(d) for d in report.errors] == []
    # French typography (W520) is the only thing the mechanical fill gets wrong.
    assert {d.code for d in report.warnings if "site" not in d.location.path} <= {"W520"}


BROKEN = [
    # (kind, old, new, marker, skip, code)
    ("single-choice", "correct: a", "correct: z", "correct: z", 9, "E304"),
    ("multiple-response", "correct: [a, b]", "correct: []", "correct: []", 9, "E209"),
    ("multiple-response", "correct: [a, b]", "correct: [a, z]", "z]", 0, "E320"),
    ("multiple-response", "correct: [a, b]", "correct: [a, b, a]", "a]", 0, "E321"),
    ("multiple-response", "correct: [a, b]", "correct: [a, b, c]", "correct:", 9, "W323"),
    ("multiple-response", "correct: [a, b]", "correct: [b]", "correct:", 9, "W323"),
    ("multiple-response", "text: Brain floating point", "text: half  PRECISION", "half  PRECISION", 0, "E305"),
    ("true-false", "stem: Brain floating point keeps the exponent range of single precision.", "stem: Does brain floating point keep the range of single precision?", "Does", 0, "W324"),
    ("true-false", "feedback_false: It does keep them; it drops mantissa bits instead.", "feedback_false: Right, it keeps eight exponent bits.", "feedback_false:", 16, "W325"),
    ("numerical", "tolerance: 0.5", "tolerance: -0.5", "-0.5", 0, "E206"),
    ("numerical", "check:\n  script: |\n    params = 7 * billion\n    answer(params * 2, unit=\"GB\")\n", "", "id: q004", 0, "E207"),
    ("numerical", "answer(params * 2,", "answer(params * 4,", "answer: 14", 8, "E407"),
    ("numerical", 'unit="GB"', 'unit="ms"', "answer(params", 0, "E408"),
    ("numerical", "value: 28", "value: 14.4", "14.4", 0, "E324"),
    ("numerical", "name: MB", "name: G B", "G B", 0, "E322"),
    ("numerical", "multiplier: 1\n", "multiplier: 1000\n", "1000", 0, "E323"),
    ("numerical", "multiplier: 0.001", "multiplier: 0.01", "0.01", 0, "W327"),
    ("numerical", "credit: 0", "credit: 1", "credit: 1", 8, "E208"),
    ("numerical", "    tolerance: 1\n", "    tolerance: -1\n", "-1", 0, "E206"),
    ("numerical", "answer: 14", "answer: .nan", ".nan", 0, "E210"),
    ("numerical", "tolerance: 0.5", "tolerance: .inf", ".inf", 0, "E210"),
    ("numerical", "multiplier: 0.001", "multiplier: .inf", ".inf", 0, "E210"),
    ("short-answer", "    credit: 1\n", "    credit: 1.5\n", "1.5", 0, "E208"),
    ("numerical", "model take?", "model take (14 GB)?", "How many", 0, "W326"),
    ("short-answer", "answers:\n  - id: a1\n    text: ONNX\n    feedback: Right.\n  - id: a2\n    text: Open Neural Network Exchange\n    credit: 1\n", "answers: []\n", "answers: []", 9, "E209"),
    ("short-answer", "    feedback: Right.\n  - id: a2\n    text: Open Neural Network Exchange\n    credit: 1\n", "    credit: 0.5\n    feedback: Right.\n  - id: a2\n    text: Open Neural Network Exchange\n    credit: 0.5\n", "- id: a1", 0, "E325"),
    ("short-answer", "text: Open Neural Network Exchange", "text: onnx", "onnx", 0, "E326"),
    ("short-answer", "text: ONNX\n", "text: OPEN Neural\u00a0Network\u2013Exchange\n", "Open Neural Network Exchange", 0, "E326"),
    ("short-answer", "text: Open Neural Network Exchange", 'text: "**"', '"**"', 0, "E347"),
    ("short-answer", "text: ONNX\n", 'text: "Open*"\n', "Open Neural Network Exchange", 0, "W347"),
    ("short-answer", "text: Open Neural Network Exchange", 'text: "ONNX format\\nthe ONNX format"', '"ONNX format', 0, "E116"),
    ("short-answer", "stem: Which open format", "stem: Besides ONNX, which open format", "Besides", 0, "W326"),
    ("matching", "text: 3 bytes", "text: 2  bytes", "2  bytes", 0, "E328"),
    ("matching", "answer: 4 bytes", "answer: 2  Bytes", "2  Bytes", 0, "E328"),
    ("matching", "answer: 4 bytes", "answer: 2 bytes", "- id: b", 0, None),
    ("matching", "answer: 4 bytes\n  - id: c\n    prompt: INT8\n    answer: 1 byte\ndistractors:\n  - id: d\n    text: 3 bytes\n",
     "answer: 2 bytes\n  - id: c\n    prompt: INT8\n    answer: 2 bytes\n", "- id: a\n    prompt: FP16", 0, "W752"),
    ("matching", "prompt: INT8", "prompt: fp16", "fp16", 0, "E329"),
    ("matching", "  - id: d\n    text: 3 bytes", "  - id: a\n    text: 3 bytes", "id: a\n    text: 3 bytes", 4, "E327"),
    ("matching", "  - id: b\n    prompt: FP32\n    answer: 4 bytes\n  - id: c\n    prompt: INT8\n    answer: 1 byte\n", "", "- id: a\n    prompt: FP16", 0, "E209"),
    ("ordering", "  - id: c\n    text: High-bandwidth memory\n", "", "- id: a\n    text: Registers", 0, "E209"),
    ("ordering", "  - id: c\n    text: High", "  - id: a\n    text: High", "id: a\n    text: High", 4, "E303"),
    ("ordering", "text: High-bandwidth memory", "text: registers", "registers", 0, "E305"),
]


@pytest.mark.parametrize("kind, old, new, marker, skip, code", BROKEN, ids=[f"{b[0]}-{b[5]}-{i}" for i, b in enumerate(BROKEN)])
def test_a_broken_question_gives_its_code_at_the_field(kind, old, new, marker, skip, code, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    name, text = FILES[kind]
    assert old in text
    broken = text.replace(old, new, 1)
    report = validate_bank(write_bank(tmp_path, {kind: broken}))
    if code is None:  # not broken: the rule leaves it alone
        assert report.diagnostics == [], [str(d) for d in report.diagnostics]
        return
    line, column = position(broken, marker, skip)
    assert (code, name, line, column) in found(report), [str(d) for d in report.diagnostics]
    assert code in CODES
    if code.startswith("E"):
        assert report.errors


def test_the_five_broken_examples_are_errors_listed_by_bank_codes(run_cli):
    code, out = run_cli("codes")
    assert code == 0
    for wanted in ("E304", "E209", "E206", "E328", "E407"):
        assert wanted in out
        assert wanted in CODES


def test_a_missing_check_says_what_to_write(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    name, text = FILES["numerical"]
    broken = text.replace("check:\n  script: |\n    params = 7 * billion\n    answer(params * 2, unit=\"GB\")\n", "")
    report = validate_bank(write_bank(tmp_path, {"numerical": broken}))
    (diag,) = [d for d in report.errors if d.code == "E207"]
    assert "check:" in diag.message and "answer(" in diag.message


def msgstr_position(catalog: Path, key: str) -> tuple[int, int]:
    lines = catalog.read_text(encoding="utf-8").split("\n")
    start = lines.index(f'msgctxt "{key}"')
    return next(number for number in range(start, len(lines)) if lines[number].startswith("msgstr")) + 1, 1


@pytest.mark.parametrize("key, overrides, code", [
    ("q001.option.b", {"q001.option.a": "Demi-précision", "q001.option.b": "demi-précision"}, "E512"),
    ("q002.option.b", {"q002.option.a": "Demi-précision", "q002.option.b": "Demi-précision"}, "E512"),
    ("q006.pair.b.answer", {"q006.pair.a.answer": "2 octets", "q006.pair.b.answer": "2 octets"}, "E512"),
    ("q006.distractor.d", {"q006.pair.a.answer": "2 octets", "q006.distractor.d": "2 octets"}, "E512"),
    ("q006.pair.b.prompt", {"q006.pair.a.prompt": "Nombre", "q006.pair.b.prompt": "nombre"}, "E512"),
    ("q005.answer.a1", {"q005.answer.a1": "ONNX\nonnx"}, "E512"),
    ("q005.answer.a2", {"q005.answer.a1": "ONNX\nformat ONNX", "q005.answer.a2": "Format  ONNX"}, "E512"),
    ("q005.answer.a1", {"q005.answer.a1": "\n  \n"}, "E510"),
    ("q004.unit.u2", {"q004.unit.u2": "ko"}, "E409"),
    ("q005.stem", {"q005.stem": "Quel format ouvert, par exemple le format ONNX, échange des modèles ?", "q005.answer.a2": "format ONNX"}, "W326"),
])
def test_a_translation_that_breaks_a_kind_rule_is_an_error_at_its_msgstr(translated, key, overrides, code, tmp_path):
    report = translated(overrides)
    line, column = msgstr_position(tmp_path / "translations" / "fr.po", key)
    assert (code, "fr.po", line, column) in found(report), [str(d) for d in report.diagnostics if "site" not in str(d)]


SHARED = FILES["matching"][1].replace("prompt: FP32\n    answer: 4 bytes", "prompt: BF16\n    answer: 2 bytes")


def test_two_prompts_may_share_one_answer_and_a_distractor_may_not_equal_it(tmp_path, monkeypatch):
    """Two pairs written with the same answer are one answer for the learner; a distractor equal
    to it is refused (E328) at the distractor, which would be a second copy of a right answer."""
    monkeypatch.chdir(tmp_path)
    assert validate_bank(write_bank(tmp_path / "one-answer", {"matching": SHARED})).diagnostics == []
    broken = SHARED.replace("text: 3 bytes", "text: 2 bytes")
    report = validate_bank(write_bank(tmp_path / "distractor", {"matching": broken}))
    ((code, message),) = [(d.code, d.message) for d in report.diagnostics]
    assert code == "E328" and message.startswith("distractor 'd' has the same text as pair 'a''s answer ('2 bytes')"), message
    assert ("E328", "q006-bytes.yaml", *position(broken, "2 bytes\nexplanation")) in found(report)


@pytest.mark.parametrize("fr, errors", [
    ({"q006.pair.a.answer": "2 octets", "q006.pair.b.answer": "2 octets"}, []),
    ({"q006.pair.a.answer": "2 octets", "q006.pair.b.answer": "2 octets."}, [("E750", "q006.pair.b.answer")]),
    ({"q006.pair.a.answer": "2 octets", "q006.pair.b.answer": "2 octets", "q006.distractor.d": "2 octets"}, [("E512", "q006.distractor.d")]),
])
def test_a_shared_answer_must_stay_one_answer_in_every_language(tmp_path, monkeypatch, fr, errors):
    """The catalogs keep one entry per pair (each says which pair it shares its answer with); a
    translation that splits the shared answer in two is an error at its msgstr (E750), and the
    two equal translations are no duplicate (E512) as two different answers would be."""
    monkeypatch.chdir(tmp_path)
    bank = write_bank(tmp_path, {"matching": SHARED})
    translations = tmp_path / "translations"
    assert update_catalogs(bank, translations, languages=["fr", "nl"])[1] == []
    po = polib.pofile(str(translations / "fr.po"))
    (entry,) = [e for e in po if e.msgctxt == "q006.pair.b.answer"]
    assert "Prompt a shares this answer: translate it exactly as pair.a.answer." in entry.comment
    fill(translations / "fr.po", "fr", fr)
    fill(translations / "nl.po", "nl")
    report = validate_bank(bank, translations=translations)
    assert [(d.code, d.location.path, d.location.line) for d in report.errors if d.code in ("E512", "E750")] == [
        (code, str(Path("translations") / "fr.po"), msgstr_position(translations / "fr.po", key)[0]) for code, key in errors], [str(d) for d in report.errors]


def test_a_translated_unit_in_the_language_s_own_spelling_is_the_same_unit(translated):
    report = translated({"q004.unit.u1": "Go", "q004.unit.u2": "Mo"})
    assert [str(d) for d in report.errors] == []


def check_findings(kind: str, script: str, **extra):
    from pydantic import TypeAdapter

    from aistack_bank.rules.checks import answer_texts, check_question
    from aistack_bank.model import Question

    data = yaml.safe_load(FILES[kind][1]) | {"check": {"script": script}} | extra
    question = TypeAdapter(Question).validate_python(data)
    target = answer_texts(question)
    return [(f.code, f.option_id) for f in check_question(question, target[0] if target else [])]


def test_a_multiple_response_check_needs_some_right_option_to_show_the_value_and_no_wrong_one():
    options = [{"id": "a", "text": "About 14 GB"}, {"id": "b", "text": "About 14.2 GB"}, {"id": "c", "text": "About 28 GB"}]
    assert check_findings("multiple-response", 'answer(14 * GB, unit="GB")', options=options) == []
    assert check_findings("multiple-response", 'answer(28 * GB, unit="GB")', options=options) == [("E404", "a"), ("E405", "c")]


def test_a_short_answer_check_reads_the_accepted_answers():
    answers = [{"id": "a2", "text": "14 GB"}, {"id": "a1", "text": "28 GB", "credit": 0.5}]
    assert check_findings("short-answer", 'answer(14 * GB, unit="GB")', answers=answers) == []
    assert check_findings("short-answer", 'answer(28 * GB, unit="GB")', answers=answers) == [("E404", "a2"), ("E405", "a1")]


def test_true_false_and_matching_checks_only_assert():
    assert check_findings("true-false", "assert 8 == 8") == []
    assert check_findings("true-false", "assert 8 == 5") [0][0] == "E403"
    assert check_findings("matching", 'answer(2, unit="GB")')[0][0] == "E406"


def test_a_numerical_check_may_give_a_plain_number_and_is_compared_in_the_key_s_unit():
    assert check_findings("numerical", "answer(14)") == []
    assert check_findings("numerical", "answer(14.4)") == []
    assert check_findings("numerical", "answer(14.6)") == [("E407", None)]
    assert check_findings("numerical", 'answer(14000 * MB, unit="MB")') == []
    assert check_findings("numerical", 'answer(6.9 * GB, unit="GB")', tolerance=0.5, tolerance_type="relative") == [("E407", None)]
    assert check_findings("numerical", 'answer(10 * GB, unit="GB")', tolerance=0.5, tolerance_type="relative") == []
    assert check_findings("numerical", "answer_formula(2)")[0][0] == "E406"


def test_letter_references_are_looked_for_only_among_options(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    name, text = FILES["matching"]
    changed = text.replace("stem: Match each format", "stem: Unlike option a of the previous question, match each format")
    report = validate_bank(write_bank(tmp_path, {"matching": changed}))
    assert [d.code for d in report.diagnostics] == ["W321"]
    name, text = FILES["multiple-response"]
    changed = text.replace("stem: Which formats", "stem: Apart from option c, which formats")
    report = validate_bank(write_bank(tmp_path / "mr", {"multiple-response": changed}))
    assert [d.code for d in report.diagnostics] == ["W320"]
    changed = text.replace("stem: Which formats", "stem: Apart from option h, which formats")
    report = validate_bank(write_bank(tmp_path / "ten", {"multiple-response": changed}))
    assert [d.code for d in report.diagnostics] == ["W320"]  # ten options reach the letter j


@pytest.mark.parametrize("kind", KINDS)
def test_an_editor_validating_one_file_of_each_kind_gets_no_error(kind, tmp_path, monkeypatch):
    from aistack_bank.rules.validate import validate_files

    monkeypatch.chdir(tmp_path)
    bank = write_bank(tmp_path)
    report = validate_files([bank / "every-kind" / "questions" / FILES[kind][0]])
    assert report.diagnostics == []
