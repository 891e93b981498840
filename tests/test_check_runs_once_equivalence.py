"""A numeric check's runs are made once per script, variables and kind of key
(``checks._runs``), and a formula token's parse once per token and symbols
(``quantities._parsed_formula``): the same findings as the check before, which ran the script
for every question and parsed every token each time (kept here, ``_check_question_before``).

Compared, each case checked twice (the second from the kept runs), on random scripts (answers
with and without units, formula answers, assignments, assertions that fail for some samples
only, a division by zero for one sample, too many steps, a ``rel`` out of range, scripts that do
not parse or are refused), random kinds of key and random option texts with quantities and
formula tokens, and on every question with a check of the bundled bank and
``examples/every-kind``, in English and with its options' texts in French and Dutch spellings.
It fails with a run kept without the variables in its key."""

from __future__ import annotations

import math
import random
from pathlib import Path
from types import SimpleNamespace

import pytest

from aistack_bank.errors import CheckError
from aistack_bank.kinds import a_kind
from aistack_bank.rules import checks
from aistack_bank.rules.checklang import run_program
from aistack_bank.rules.checks import SAMPLES, Finding, _check_numerical, _check_value, _compiled, _missed, _sample, _what, check_question
from aistack_bank.rules.quantities import FormulaSyntaxError, _formula_program, evaluate_formula, formula_tokens, formula_values

ROOT = Path(__file__).resolve().parent.parent


# ---------------------------------------------------------------- the check as it was before

def _formula_values_before(token: str, samples: list[dict[str, float]]) -> list[float]:
    if not samples:
        return []
    try:
        program = _formula_program(token, samples[0])
    except FormulaSyntaxError:
        raise
    except Exception:  # noqa: BLE001 - as before
        return [evaluate_formula(token, values) for values in samples]
    return [program(values) for values in samples]


def _check_formula_before(calls, variables, correct, options, any_of, field):
    line = calls[0].line
    findings, missed, hits = [], [], 0
    samples = [_sample(variables, i) for i in range(len(calls))]
    for option_id, text in options:
        tokens = formula_tokens(text, variables)
        hit = False
        for token in tokens:
            try:
                values = _formula_values_before(token, samples)
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


def _check_question_before(question, options, lang="en"):
    check = question.check
    if check is None:
        return []
    variables = tuple(check.variables)
    numerical = question.NUMERIC_KEY
    try:
        program = _compiled(check.script, variables, not numerical)
        runs = [run_program(program, _sample(variables, index)) for index in range(len(SAMPLES) if variables else 1)]
    except CheckError as exc:
        return [Finding(exc.code, exc.message, getattr(exc, "line", 1), getattr(exc, "column", 1))]
    calls = runs[0]
    correct = question.right_texts()
    if not calls:
        if correct is None and not numerical:
            return []
        return [Finding("E406", "the script never calls answer() or answer_formula(), so it checks no " + ("value" if numerical else "option"), 1, 1)]
    if numerical:
        return [finding for call in calls for finding in _check_numerical(call, question)]
    if correct is None:
        return [Finding("E406", f"{a_kind(question.kind)} question has no option for answer() to match; check its facts with assert", calls[0].line, 1)]
    any_of = not question.ONE_KEY
    findings = []
    for index, call in enumerate(calls):
        if call.function == "answer":
            findings += _check_value(call, correct, options, lang, any_of, question.ANSWER_FIELD)
        elif not variables:
            findings.append(Finding("E406", "answer_formula() needs the formula's symbols in check.variables", call.line, 1))
        else:
            findings += _check_formula_before([run[index] for run in runs], variables, correct, options, any_of, question.ANSWER_FIELD)
    return findings


# ---------------------------------------------------------------- comparing

def _outcome(function, *args):
    try:
        return "ok", function(*args)
    except Exception as exc:  # noqa: BLE001 - a failure itself is compared
        return type(exc), str(exc)


def _same(question, options, lang):
    before = _outcome(_check_question_before, question, options, lang)
    for _ in range(2):  # (the second time from the kept runs and parses)
        assert _outcome(check_question, question, options, lang) == before, (question.check, options, lang)


_STATEMENTS = [
    "x = {a} * {b}", "y = x / {a}", "x = N * M", "y = N / (M - 19)", "z = {a} ** 2", "assert x > {b}", "assert close(x, {a} * {b})",
    "assert N < 100", "assert x == {a}", "answer({a} * GB, unit=\"GB\")", "answer({a} * {b} * MB, unit=\"MB\", rel=0.01)",
    "answer(x, unit=\"ms\")", "answer({a})", "answer_formula(2 * N * M * K)", "answer_formula(N * N / 3)", "answer_formula(M * K)",
    "answer({a}, unit=\"GB\", rel=2)", "answer({a}, unit=\"parsecs\")", "x = sqrt(-1)", "x = (", "import os", "x = a.b",
    "x = 1\nfor i in range(10000): x = x", "answer(N * GB, unit=\"GB\")", "answer_formula(2 * N ** 2)",
]
_OPTION_PIECES = ["About", "{a} GB", "{a}{b} MB", "{a} ms", "{a},000 GB", "2MNK", "N²/3", "N × N", "M × K", "2N²", "MK", "FP16",
                  "(N/3)", "{a}.5 GB", "weights", "the", "N/0", "2²", "{a} TB/s"]


def _random_question(rng: random.Random):
    numbers = {"a": rng.choice(["2", "3", "7", "14", "16", "0.5", "1000"]), "b": rng.choice(["2", "4", "8", "10"])}
    lines = [rng.choice(_STATEMENTS).format(**numbers) for _ in range(rng.randint(0, 4))]
    script = "\n".join(lines) + "\n"
    variables = rng.choice([(), (), ("N",), ("M", "N"), ("K", "M", "N"), ("D", "N"), ("X",)])
    kind = rng.choice(["single-choice", "multiple-response", "short-answer", "numerical", "true-false"])
    options = [(option_id, " ".join(rng.choice(_OPTION_PIECES).format(**numbers) for _ in range(rng.randint(1, 3))))
               for option_id in "abcd"[:rng.randint(1, 4)]]
    right = frozenset(rng.sample([o for o, _ in options], rng.randint(0, len(options))))
    question = SimpleNamespace(
        id="q1", kind=kind, check=SimpleNamespace(script=script, variables=list(variables)),
        NUMERIC_KEY=kind == "numerical", ONE_KEY=kind in ("single-choice", "numerical"), ANSWER_FIELD="answer" if kind == "short-answer" else "options",
        units=[SimpleNamespace(name=rng.choice(["GB", "ms", "parsecs"]))] if rng.random() < 0.7 else [],
        answer=float(rng.choice(["7", "14", "16000000000", "2"])), absolute_tolerance=rng.choice([0.0, 0.5]),
        right_texts=lambda: None if kind == "true-false" else right)
    return question, options


@pytest.mark.parametrize("seed", range(3))
def test_random_scripts_and_options(seed):
    rng = random.Random(seed)
    for _ in range(1500):
        question, options = _random_question(rng)
        _same(question, options, rng.choice(["en", "fr", "nl"]))


def test_the_same_script_with_other_variables_and_keys():
    rng = random.Random(7)
    question, options = _random_question(rng)
    question.check.script = "assert N < 5\nanswer_formula(N * N)\n"
    for variables in ((), ("N",), ("M", "N"), ("D",), ("N",)):
        question.check.variables = list(variables)
        for numerical in (False, True, False):
            question.NUMERIC_KEY = numerical
            _same(question, [("a", "N²"), ("b", "NN")], "en")


def test_every_question_with_a_check_of_both_banks():
    from aistack_bank.load import read_question

    paths = sorted(ROOT.glob("bank/*/questions/*.yaml")) + sorted(ROOT.glob("examples/every-kind/bank/*/questions/*.yaml"))
    seen = 0
    for path in paths:
        qs, _ = read_question(path, root=path.parent.parent)
        question = qs.question
        if question is None or question.check is None:
            continue
        seen += 1
        found = question.answer_texts()
        options = list(found[0]) if found is not None else []
        _same(question, options, "en")
        _same(question, [(option_id, text.replace(".", ",").replace(" GB", "\u00a0Go")) for option_id, text in options], "fr")
        _same(question, [(option_id, text.replace(".", ",")) for option_id, text in options], "nl")
    assert seen >= 10


def test_formula_values_twice_are_the_values_before():
    rng = random.Random(3)
    pieces = ["A", "K", "M", "N", "X", "0", "2", "10", "0.5", "1.5.2", "²", "³", "^", "/", "×", "·", "(", ")", "2²", "^99", "0/0"]
    for _ in range(6000):
        variables = tuple(sorted(set(rng.sample("AKMNX", rng.randint(1, 3)))))
        samples = [_sample(variables, i) for i in range(rng.randint(0, 4))]
        token = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 7)))
        before = _outcome(_formula_values_before, token, samples)
        for _ in range(2):
            after = _outcome(formula_values, token, samples)
            assert type(before[0]) is type(after[0]) and (before == after or (before[0] == "ok" and all(
                x == y or (math.isnan(x) and math.isnan(y)) for x, y in zip(before[1], after[1])))), (token, variables, before, after)


def test_the_runs_are_kept_per_script_variables_and_key():
    checks._runs.cache_clear()
    question = SimpleNamespace(id="q1", kind="single-choice", check=SimpleNamespace(script="answer_formula(N * N)\n", variables=["N"]),
                               NUMERIC_KEY=False, ONE_KEY=True, ANSWER_FIELD="options", right_texts=lambda: frozenset({"a"}))
    check_question(question, [("a", "N²")])
    check_question(question, [("a", "N²")])
    assert checks._runs.cache_info().hits == 1
