"""Messages that say what to do: a misspelt field, a text holding ": ", the check language's
limits, and `bank stats` for GitHub."""

from __future__ import annotations

import re

import pytest

from aistack_bank.rules.checklang import compile_script, run_program
from aistack_bank.errors import CheckError

QUESTION = "bank/ai-hardware-software-stack/questions/q001-training-vs-inference.yaml"


def test_an_unknown_field_suggests_the_field_it_resembles(project, run_cli):
    path = project / QUESTION
    text = path.read_text(encoding="utf-8")
    assert "\nexplanation:" in text
    path.write_text(text.replace("\nexplanation:", "\nexplanaton:"), encoding="utf-8")
    code, out = run_cli("validate", "--no-translations")
    assert code == 1
    assert re.search(r"q001-training-vs-inference\.yaml:\d+:1: error E202: unknown field 'explanaton'; did you mean 'explanation'\?", out), out
    path.write_text(text.replace("\nexplanation:", "\nzzqqxx:"), encoding="utf-8")
    code, out = run_cli("validate", "--no-translations")
    assert "unknown field 'zzqqxx'" in out and "did you mean" not in out


def test_a_yaml_error_over_a_colon_says_to_quote_the_text(project, run_cli):
    path = project / QUESTION
    text = path.read_text(encoding="utf-8")
    path.write_text(text + "translator_note: Careful: keep it short\n", encoding="utf-8")
    code, out = run_cli("validate", "--no-translations")
    assert code == 1 and "error E105: mapping values are not allowed" in out, out
    assert 'a text holding ": " (a colon and a space) must be quoted' in out


@pytest.mark.parametrize("script,code,needle", [
    ("x = round(3.14159, 2)\nassert x == 3.14", None, None),  # the check language takes round(x, 2)
    ("x = round(3.1, 2.5)", "E403", "round(): the number of digits must be a whole number, as in round(x, 2); it is called as round(x) or round(x, 2)"),
    ("x = sqrt(0 - 1)", "E403", "sqrt(): math domain error; it is called as sqrt(x ≥ 0)"),
    ("import math", "E401", "the check language has numbers, the question's variables"),
    ("x = math.sqrt(2)", "E401", "and the functions min(a, b, …), max(a, b, …), abs(x), round(x) or round(x, 2)"),
    ("x = [1, 2]", "E401", "+ - * / // % **, comparisons, and/or/not"),
    ("x = close(1, 1, tol=1)", "E401", "close() takes no keyword 'tol'; it is called as close(a, b) or close(a, b, rel=1e-6)"),
])
def test_check_language_messages_say_what_it_allows(script, code, needle):
    if code is None:
        run_program(compile_script(script, unit_required=False))
        return
    with pytest.raises(CheckError) as info:
        run_program(compile_script(script, unit_required=False))
    assert info.value.code == code and needle in str(info.value), str(info.value)


def test_stats_for_github_is_a_markdown_summary(project, run_cli):
    code, text = run_cli("stats")
    assert code == 0 and text.startswith("questions: ")
    code, out = run_cli("stats", "--format", "github")
    assert code == 0 and out != text
    lines = out.split("\n")
    assert lines[0] == "## Question bank"
    assert "| category | topic | questions | with numeric checks |" in lines
    assert "| Computer systems | ai-hardware-software-stack | " in out
    assert all(line.startswith(("#", "|")) or not line or line.endswith("numeric checks.") for line in lines), out
