"""Numeric assertion checks: recompute each checked answer and compare it with the options.

:func:`check_question` runs a question's check script (see :mod:`.checklang`) against the
option texts of one language and returns findings that name the script line and the option.
:func:`check_diagnostics` locates an English question's findings in its YAML file; the
catalog checks (:mod:`.i18n.verify`) locate a translation's findings in its `.po` file.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from .checklang import AnswerCall, Program, compile_script, run_program
from .errors import CheckError, Diagnostic, Location, error
from .quantities import FormulaSyntaxError, evaluate_formula, formula_tokens, quantities, unit_dimension

if TYPE_CHECKING:
    from .load import QuestionSource
    from .model import SingleChoiceQuestion
    from .yamlsource import YamlDocument

# Sample values for formula variables: distinct, not small integers that could coincide.
SAMPLES = (
    {"A": 3.0, "B": 5.0, "C": 7.0, "D": 11.0, "K": 13.0, "M": 17.0, "N": 19.0},
    {"A": 0.37, "B": 1.9, "C": 23.0, "D": 2.3, "K": 41.0, "M": 5.5, "N": 4.7},
    {"A": 101.0, "B": 7.1, "C": 0.51, "D": 1000.0, "K": 256.0, "M": 64.0, "N": 4096.0},
    {"A": 2.0, "B": 2.0, "C": 2.0, "D": 2.0, "K": 2.0, "M": 2.0, "N": 2.0},
)


@dataclass(frozen=True)
class Finding:
    """A failed check: its code, message, script line/column and the option concerned."""

    code: str
    message: str
    script_line: int = 0
    script_column: int = 0
    option_id: str | None = None


@lru_cache(maxsize=4096)
def _compiled(script: str, variables: tuple[str, ...]) -> Program:
    return compile_script(script, variables)


def _sample(variables: tuple[str, ...], index: int) -> dict[str, float]:
    base = SAMPLES[index]
    return {v: base.get(v, 3.0 + 1.7 * (ord(v) - 64) * (index + 1)) for v in variables}


def check_question(question: SingleChoiceQuestion, options: list[tuple[str, str]], lang: str = "en") -> list[Finding]:
    """Run ``question.check`` against ``options`` (id, text) written in ``lang``."""
    check = question.check
    if check is None:
        return []
    variables = tuple(check.variables)
    try:
        program = _compiled(check.script, variables)
        runs = [run_program(program, _sample(variables, index)) for index in range(len(SAMPLES) if variables else 1)]
    except CheckError as exc:
        return [Finding(exc.code, exc.message, getattr(exc, "line", 1), getattr(exc, "column", 1))]
    calls = runs[0]
    if not calls:
        return [Finding("E406", "the script never calls answer() or answer_formula(), so it checks no option", 1, 1)]
    findings: list[Finding] = []
    for index, call in enumerate(calls):
        if call.function == "answer":
            findings += _check_value(call, question.correct, options, lang)
        elif not variables:
            findings.append(Finding("E406", "answer_formula() needs the formula's symbols in check.variables", call.line, 1))
        else:
            findings += _check_formula([run[index] for run in runs], variables, question.correct, options)
    return findings


def _check_value(call: AnswerCall, correct: str, options: list[tuple[str, str]], lang: str) -> list[Finding]:
    unit = unit_dimension(call.unit or "")
    if unit is None:
        return [Finding("E406", f"unknown unit {call.unit!r} in answer(); use one such as GB, TB/s, ms, TFLOPS", call.line, 1)]
    dimension, factor = unit
    expected = f"{call.value / factor:.4g} {call.unit} (±{call.rel:.0%})"
    findings = []
    for option_id, text in options:
        shown = [q for q in quantities(text, lang) if q.dimension == dimension]
        hit = any(math.isclose(q.base, call.value, rel_tol=call.rel) for q in shown)
        if option_id == correct and not hit:
            what = ", ".join(q.text for q in shown) if shown else f"no value in {dimension}"
            findings.append(Finding("E404", f"the check computes {expected}, but the correct option {option_id!r} shows {what}: {text!r}", call.line, 1, option_id))
        elif option_id != correct and hit:
            findings.append(Finding("E405", f"the check computes {expected}, and the wrong option {option_id!r} shows it too: {text!r}", call.line, 1, option_id))
    return findings


def _check_formula(calls: list[AnswerCall], variables: tuple[str, ...], correct: str, options: list[tuple[str, str]]) -> list[Finding]:
    line = calls[0].line
    findings = []
    for option_id, text in options:
        tokens = formula_tokens(text, variables)
        hit = False
        for token in tokens:
            try:
                values = [evaluate_formula(token, _sample(variables, i)) for i in range(len(calls))]
            except (FormulaSyntaxError, ZeroDivisionError, OverflowError):
                continue
            if all(math.isclose(v, c.value, rel_tol=max(c.rel, 1e-9)) for v, c in zip(values, calls)):
                hit = True
        if option_id == correct and not hit:
            what = ", ".join(tokens) if tokens else "no formula"
            findings.append(Finding("E404", f"the correct option {option_id!r} shows {what}, which differs from the checked formula: {text!r}", line, 1, option_id))
        elif option_id != correct and hit:
            findings.append(Finding("E405", f"the wrong option {option_id!r} shows a formula equal to the checked one: {text!r}", line, 1, option_id))
    return findings


def check_diagnostics(qs: QuestionSource) -> list[Diagnostic]:
    """Run one question's numeric check on its English options and locate the findings."""
    question, doc = qs.question, qs.doc
    findings = check_question(question, [(option.id, option.text) for option in question.options], "en")
    return [error(finding.code, f"{question.id}: {finding.message}", _locate_finding(finding, question, doc)) for finding in findings]


def _locate_finding(finding: Finding, question: SingleChoiceQuestion, doc: YamlDocument) -> Location:
    if finding.option_id is not None:
        index = next((number for number, option in enumerate(question.options) if option.id == finding.option_id), None)
        if index is not None:
            return doc.locate(("options", index, "text"))
    return doc.locate_in_scalar(("check", "script"), finding.script_line or 1, finding.script_column or 1)
