"""Numeric assertion checks: recompute each checked answer and compare it with the options.

:func:`check_question` runs a question's check script (see :mod:`.checklang`) against the
option texts of one language and returns findings that name the script line and the option.
:func:`check_diagnostics` locates an English question's findings in its YAML file; the
catalog checks (:mod:`aistack_bank.i18n.verify`) locate a translation's findings in its `.po` file.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from .checklang import AnswerCall, Program, compile_script, run_program
from ..errors import CheckError, Diagnostic, Location, error
from ..kinds import a_kind
from .quantities import FormulaSyntaxError, formula_tokens, formula_values, quantity_values, unit_dimension

if TYPE_CHECKING:
    from ..load import QuestionSource
    from ..model import AnyQuestion, NumericalQuestion
    from ..yamlsource import YamlDocument

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


def _compiled(script: str, variables: tuple[str, ...], unit_required: bool = True) -> Program:
    """The program of a check's script (kept by :func:`_runs`, its one caller, with its runs)."""
    return compile_script(script, variables, unit_required=unit_required)


@lru_cache(maxsize=4096)
def _runs(script: str, variables: tuple[str, ...], unit_required: bool) -> tuple[tuple[AnswerCall, ...], ...] | Finding:
    """The answer calls of each run of a check's script (one per sample of ``variables``, one
    run without variables), or the :class:`Finding` of the error a run raised: a run reads
    nothing but the program and the sample's values, so it is made once per script, variables
    and kind of key (a bank's checks repeat their scripts; each catalog checks them again).
    The script's refusal (:func:`_compiled`'s :class:`~aistack_bank.errors.CheckError`) is
    raised, not kept, as before."""
    program = _compiled(script, variables, unit_required)
    try:
        return tuple(tuple(run_program(program, _sample(variables, index))) for index in range(len(SAMPLES) if variables else 1))
    except CheckError as exc:
        return _refused(exc)


def _refused(exc: CheckError) -> Finding:
    return Finding(exc.code, exc.message, getattr(exc, "line", 1), getattr(exc, "column", 1))


def _sample(variables: tuple[str, ...], index: int) -> dict[str, float]:
    base = SAMPLES[index]
    return {v: base.get(v, 3.0 + 1.7 * (ord(v) - 64) * (index + 1)) for v in variables}


def answer_texts(question: AnyQuestion) -> tuple[list[tuple[str, str]], frozenset[str]] | None:
    """The texts a check's ``answer()`` is compared with, (id, text), and the ids of the right
    ones: the options, or a short answer's accepted answers (their ids, ``a1``, ``a2``, …, as in
    their catalog keys; full credit is right). None for a kind whose key is no text (numerical compares with
    its ``answer``; true-false and matching checks only assert)."""
    return question.answer_texts()


def check_question(question: AnyQuestion, options: list[tuple[str, str]], lang: str = "en") -> list[Finding]:
    """Run ``question.check`` against ``options`` (id, text) written in ``lang``.

    For a single-choice question the one key must show each ``answer()`` value and no wrong
    option may; for a multiple-response or short-answer question some right option (accepted
    answer with full credit) must show it and no wrong one may; for a numerical question the
    value must lie within the tolerance of the key (``options`` is then unused)."""
    check = question.check
    if check is None:
        return []
    variables = tuple(check.variables)
    numerical = question.NUMERIC_KEY
    try:
        runs = _runs(check.script, variables, not numerical)
    except CheckError as exc:
        return [_refused(exc)]
    if type(runs) is Finding:
        return [runs]
    calls = runs[0]
    correct = question.right_texts()
    if not calls:
        if correct is None and not numerical:
            return []  # a true-false or matching check asserts facts; it has no option to compare
        return [Finding("E406", "the script never calls answer() or answer_formula(), so it checks no " + ("value" if numerical else "option"), 1, 1)]
    if numerical:
        return [finding for call in calls for finding in _check_numerical(call, question)]
    if correct is None:
        return [Finding("E406", f"{a_kind(question.kind)} question has no option for answer() to match; check its facts with assert", calls[0].line, 1)]
    any_of = not question.ONE_KEY
    findings: list[Finding] = []
    for index, call in enumerate(calls):
        if call.function == "answer":
            findings += _check_value(call, correct, options, lang, any_of, question.ANSWER_FIELD)
        elif not variables:
            findings.append(Finding("E406", "answer_formula() needs the formula's symbols in check.variables", call.line, 1))
        else:
            findings += _check_formula([run[index] for run in runs], variables, correct, options, any_of, question.ANSWER_FIELD)
    return findings


def _check_numerical(call: AnswerCall, question: NumericalQuestion) -> list[Finding]:
    """E407 when the computed value is not within the tolerance of the key; E408 for a unit
    that is not the question's."""
    if call.function != "answer":
        return [Finding("E406", "a numerical question's answer is a number: call answer(value, unit=...), not answer_formula()", call.line, 1)]
    first = question.units[0].name if question.units else None
    value, unit_text = call.value, ""
    if call.unit is not None:
        unit = unit_dimension(call.unit)
        if unit is None:
            return [Finding("E406", f"unknown unit {call.unit!r} in answer(); use one such as GB, TB/s, ms, TFLOPS, or give a plain number", call.line, 1)]
        dimension, factor = unit
        own = unit_dimension(first) if first is not None else None
        if own is not None and own[0] != dimension:
            return [Finding("E408", f"answer() is in {call.unit} ({dimension}), but the question's unit {first!r} measures {own[0]}", call.line, 1)]
        if own is None and first is not None and call.unit != first:
            return [Finding("E408", f"answer() is in {call.unit}, but the question's unit is {first!r}; call answer() in {first}, or without a unit", call.line, 1)]
        value = call.value / (own[1] if own is not None else factor)
        unit_text = f" {first or call.unit}"
    tolerance = question.absolute_tolerance
    if abs(value - question.answer) <= tolerance + 1e-9 * max(abs(question.answer), abs(value), 1.0):
        return []
    return [Finding("E407", f"the check computes {value:.6g}{unit_text}, but the key is {question.answer:g} ± {tolerance:g}{unit_text}: a learner who works it out would be marked wrong", call.line, 1)]


def _check_value(call: AnswerCall, correct: frozenset[str], options: list[tuple[str, str]], lang: str, any_of: bool, field: str) -> list[Finding]:
    unit = unit_dimension(call.unit or "")
    if unit is None:
        return [Finding("E406", f"unknown unit {call.unit!r} in answer(); use one such as GB, TB/s, ms, TFLOPS", call.line, 1)]
    dimension, factor = unit
    expected = f"{call.value / factor:.4g} {call.unit} (±{call.rel:.0%})"
    findings, missed, hits = [], [], 0
    value, rel, isclose = call.value, call.rel, math.isclose
    for option_id, text in options:
        # each quantity shown in the option's dimension as (text, dimension, base): no Quantity made
        shown = [found for found in quantity_values(text, lang) if found[1] == dimension]
        hit = False
        for found in shown:  # (as any(): compared in order up to the first close one)
            if isclose(found[2], value, rel_tol=rel):
                hit = True
                break
        hits += hit and option_id in correct
        if option_id in correct and not hit:
            what = ", ".join(found[0] for found in shown) if shown else f"no value in {dimension}"
            missed.append(Finding("E404", f"the check computes {expected}, but the correct {_what(option_id, field)} shows {what}: {text!r}", call.line, 1, option_id))
        elif option_id not in correct and hit:
            findings.append(Finding("E405", f"the check computes {expected}, and the wrong {_what(option_id, field)} shows it too: {text!r}", call.line, 1, option_id))
    return _missed(missed, hits, any_of, expected, call.line, field) + findings


def _what(option_id: str, field: str) -> str:
    return f"accepted answer {option_id!r}" if field == "answer" else f"option {option_id!r}"


def _missed(missed: list[Finding], hits: int, any_of: bool, expected: str, line: int, field: str) -> list[Finding]:
    """The E404 findings: each right option that misses, or, where one of several right options
    suffices, one finding when none shows the value."""
    if not any_of:
        return missed
    if hits or not missed:
        return []
    return [Finding("E404", f"the check computes {expected}, but no correct {'accepted answer' if field == 'answer' else 'option'} shows it", line, 1, missed[0].option_id)]


def _check_formula(calls: list[AnswerCall], variables: tuple[str, ...], correct: frozenset[str], options: list[tuple[str, str]], any_of: bool, field: str) -> list[Finding]:
    line = calls[0].line
    findings, missed, hits = [], [], 0
    samples = [_sample(variables, i) for i in range(len(calls))]  # (made once: every token is evaluated with them)
    for option_id, text in options:
        tokens = formula_tokens(text, variables)
        hit = False
        for token in tokens:
            try:
                values = formula_values(token, samples)  # (each token read once for every sample)
            except (FormulaSyntaxError, ZeroDivisionError, OverflowError):
                continue
            if all(math.isclose(v, c.value, rel_tol=max(c.rel, 1e-9)) for v, c in zip(values, calls)):
                hit = True
        hits += hit and option_id in correct
        if option_id in correct and not hit:
            what = ", ".join(tokens) if tokens else "no formula"
            missed.append(Finding("E404", f"the correct {_what(option_id, field)} shows {what}, which differs from the checked formula: {text!r}", line, 1, option_id))
        elif option_id not in correct and hit:
            findings.append(Finding("E405", f"the wrong {_what(option_id, field)} shows a formula equal to the checked one: {text!r}", line, 1, option_id))
    return _missed(missed, hits, any_of, "the checked formula", line, field) + findings


def check_diagnostics(qs: QuestionSource) -> list[Diagnostic]:
    """Run one question's numeric check on its English texts and locate the findings."""
    question, doc = qs.question, qs.doc
    target = answer_texts(question)
    findings = check_question(question, target[0] if target is not None else [], "en")
    return [error(finding.code, f"{question.id}: {finding.message}", _locate_finding(finding, question, doc)) for finding in findings]


def _locate_finding(finding: Finding, question: AnyQuestion, doc: YamlDocument) -> Location:
    if finding.option_id is not None:
        items = question.answers if question.ANSWER_FIELD == "answer" else question.options
        index = next((number for number, item in enumerate(items) if item.id == finding.option_id), None)
        if index is not None:
            return doc.locate(("answers" if question.ANSWER_FIELD == "answer" else "options", index, "text"))
    if finding.code == "E407":
        return doc.locate(("answer",))
    return doc.locate_in_scalar(("check", "script"), finding.script_line or 1, finding.script_column or 1)
