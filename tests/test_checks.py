"""Numeric assertion checks and the check language that runs them."""

from __future__ import annotations

import re

import pytest

from aistack_bank.rules.checklang import compile_script, run_program
from aistack_bank.rules.checks import check_question
from aistack_bank.errors import CheckError
from aistack_bank.rules.validate import validate_bank

from conftest import question_file

CHECKED = ["q003", "q004", "q005", "q006", "q007", "q008", "q015", "q045", "q046"]


def test_every_numeric_question_has_a_passing_check(project, run_cli):
    report = validate_bank(project / "bank")
    checked = sorted(qs.question.id for qs in report.source.questions if qs.question.check is not None)
    assert set(CHECKED) <= set(checked)
    code, out = run_cli("check")
    assert code == 0, out
    assert f"en: {len(checked)} checked question(s), 0 failing" in out
    assert f"fr: {len(checked)} checked question(s), 0 failing" in out
    assert f"nl: {len(checked)} checked question(s), 0 failing" in out


def _option_line(path, option_id):
    lines = path.read_text(encoding="utf-8").split("\n")
    start = lines.index(f"  - id: {option_id}")
    return start + 2, lines[start + 1]


@pytest.mark.parametrize("qid", ["q003", "q004", "q005", "q008", "q015"])
def test_changing_the_keyed_number_fails_with_a_located_message(project, run_cli, qid):
    path = question_file(project, qid)
    text = path.read_text(encoding="utf-8")
    key = re.search(r"\ncorrect: ([a-d])\n", text).group(1)
    line, option = _option_line(path, key)
    changed = re.sub(r"\d+(\.\d+)?", lambda m: str(float(m.group()) * 3).rstrip("0").rstrip("."), option, count=1)
    path.write_text(text.replace(option, changed, 1), encoding="utf-8")
    code, out = run_cli("check", "--lang", "en")
    assert code == 1
    rel = path.relative_to(project).as_posix()
    assert re.search(rf"^{re.escape(rel)}:{line}:\d+: error E404: {qid}: the check computes .* but the correct option '{key}' shows", out, re.M), out


def test_a_wrong_option_showing_the_value_fails(project, run_cli):
    path = question_file(project, "q004")
    text = path.read_text(encoding="utf-8")
    wrong = next(o for o in "abcd" if f"\ncorrect: {o}\n" not in text)
    line, option = _option_line(path, wrong)
    path.write_text(text.replace(option, re.sub(r"\d+(\.\d+)?", "14", option, count=1), 1), encoding="utf-8")
    code, out = run_cli("check", "--lang", "en")
    assert code == 1
    assert f":{line}:" in out and "E405" in out and "shows it too" in out


def test_changing_a_formula_option_fails(project, run_cli):
    path = question_file(project, "q006")
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("text: 2MNK", "text: 4MNK"), encoding="utf-8")
    code, out = run_cli("check", "--lang", "en")
    assert code == 1 and "E404" in out and "4MNK" in out


def test_a_failing_assertion_names_the_script_line_and_values(project, run_cli):
    path = question_file(project, "q015")
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("weight_bytes = 14 * GB", "weight_bytes = 15 * GB"), encoding="utf-8")
    code, out = run_cli("validate")
    assert code == 1
    script_line = next(i for i, l in enumerate(path.read_text().split("\n"), 1) if "assert close(time_per_token" in l)
    assert re.search(rf":{script_line}:5: error E403: q015: assertion failed: .*\(compared 0\.0075 and 0\.007\)", out), out


def Q(script, variables=(), correct="a"):
    """A single-choice question for running checks directly (its option texts are given apart)."""
    from aistack_bank.model import Check, SingleChoiceQuestion

    return SingleChoiceQuestion(id="q001", kind="single-choice", stem="?", tags=["x"], difficulty=1, correct=correct,
                                options=[{"id": i, "text": i} for i in "abcd"], check=Check(script=script, variables=list(variables)))


@pytest.mark.parametrize("script,code,line,fragment", [
    ("x = __import__('os')", "E401", 1, "function '__import__' is not allowed"),
    ("x = GB.real", "E401", 1, "attribute access (a.b) is not allowed"),
    ("x = open(1)", "E401", 1, "function 'open' is not allowed"),
    ("y = 1\nx = (lambda: 1)()", "E401", 2, "only calls of the built-in functions"),
    ("x = [1][0]", "E401", 1, "subscripts (a[b]) are not allowed"),
    ("x = [1]", "E401", 1, "List is not part of the check language"),
    ("import os", "E401", 1, "Import statements are not part of the check language"),
    ("while True:\n    x = 1", "E401", 1, "While statements are not part of the check language"),
    ("def f():\n    return 1", "E401", 1, "FunctionDef statements"),
    ("x = 9**9**9", "E402", 1, "exponent 3.8742e+08 is beyond the limit of ±1024"),
    ("x = 10.0**300 * 10.0**300", "E402", 1, "result is not finite"),
    ("x = " + "-" * 60 + "1", "E402", 1, "expression nested deeper than 20 levels"),
    ("x = 1\n" * 60, "E402", 51, "more than 50 statements"),
    ("x = y + 1", "E401", 1, "unknown name 'y'"),
    ("x = 1 +", "E401", 1, "syntax error"),
    ("answer(1)", "E406", 1, "answer() needs a unit"),
    ("x = 1 / 0", "E403", 1, "division by zero"),
    ("assert 1 > 2, 'one is not bigger'", "E403", 1, "assertion failed: one is not bigger (left side 1, right side 2)"),
    ("GB = 3", "E401", 1, "'GB' is a built-in name"),
])
def test_the_language_refuses_with_located_errors(script, code, line, fragment):
    findings = check_question(Q(script), [("a", "1 GB")])
    assert len(findings) == 1
    f = findings[0]
    assert (f.code, f.script_line) == (code, line), f
    assert fragment in f.message


def test_step_limit_stops_a_long_computation(monkeypatch):
    import aistack_bank.rules.checklang as checklang

    monkeypatch.setattr(checklang, "MAX_STEPS", 100)
    script = "x = 1\n" + "\n".join(f"x = x + {'x * ' * 18}1" for _ in range(10))
    with pytest.raises(CheckError) as info:
        run_program(compile_script(script))
    assert info.value.code == "E402" and "evaluation steps" in info.value.message


def test_locale_aware_option_values():
    q = Q('answer(3.5 * GB, unit="GB")', correct="b")
    assert check_question(q, [("a", "Environ 7\u00a0Go"), ("b", "Environ 3,5\u00a0Go")], "fr") == []
    assert check_question(q, [("a", "Ongeveer 7 GB"), ("b", "Ongeveer 3,5 GB")], "nl") == []
    bad = check_question(q, [("a", "Environ 3,5 Go"), ("b", "Environ 35 Go")], "fr")
    assert sorted(f.code for f in bad) == ["E404", "E405"]


def test_formula_answers_at_several_samples():
    q = Q("answer_formula(2 * N * D + 4 * N * D)", variables=["N", "D"])
    assert check_question(q, [("a", "About 6ND"), ("b", "About 2ND"), ("c", "N²"), ("d", "6N")]) == []
    assert sorted(f.code for f in check_question(q, [("a", "About 6N"), ("b", "About 6ND")])) == ["E404", "E405"]
