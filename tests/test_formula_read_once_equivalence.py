"""The formula check reads each token once for every sample (``quantities.formula_values``):
the same values and the same failures as :func:`evaluate_formula` called sample after sample,
and the same findings as the check before (spelled out below), on random tokens and options."""

from __future__ import annotations

import math
import random

import pytest

from aistack_bank.rules import checks
from aistack_bank.rules.checks import Finding, _missed, _sample, _what
from aistack_bank.rules.quantities import FormulaSyntaxError, evaluate_formula, formula_tokens, formula_values

_PIECES = ["A", "B", "C", "D", "K", "M", "N", "X", "Q", "0", "1", "2", "3", "10", "0.5", "1.5.2", "²", "³", "⁴", "^", "/", "×", "·",
           "(", ")", "((", "))", "2²", "N2²", "(²)", "^0", "0/0", "/0", "^9", "^99", "99", "1000", "^(2)", "·(", "×)"]


def _old_values(token: str, samples: list[dict]) -> list[float]:
    return [evaluate_formula(token, values) for values in samples]


def _outcome(function, *args):
    try:
        return "ok", function(*args)
    except (FormulaSyntaxError, ZeroDivisionError, OverflowError):
        return "passed over", None  # (the check passes over a token that raises any of these)
    except Exception as exc:  # noqa: BLE001 - any other failure itself is compared
        return type(exc), str(exc)


def _random_token(rng: random.Random) -> str:
    return "".join(rng.choice(_PIECES) for _ in range(rng.randint(1, 9)))


def _same(a, b) -> bool:
    if a[0] != "ok" or b[0] != "ok":
        return a == b
    return len(a[1]) == len(b[1]) and all(x == y or (math.isnan(x) and math.isnan(y)) for x, y in zip(a[1], b[1]))


@pytest.mark.parametrize("seed", range(4))
def test_formula_values_are_evaluate_formula_sample_after_sample(seed):
    rng = random.Random(seed)
    for _ in range(6000):
        variables = tuple(sorted(set(rng.sample("ABCDKMNX", rng.randint(1, 4)))))
        samples = [_sample(variables, i) for i in range(rng.randint(0, 4))]
        token = _random_token(rng)
        old, new = _outcome(_old_values, token, samples), _outcome(formula_values, token, samples)
        assert _same(old, new), (token, variables, old, new)


def test_the_tokens_of_the_checks_and_deep_nesting():
    samples = [_sample(("M", "N", "K"), i) for i in range(4)]
    for token in ["2MNK", "2N²/3", "M×K", "N/3", "(M)(N)", "2^N^2", "N^(M/K)", "N⁴⁴⁴⁴⁴", "K" * 60, "(" * 21 + "N" + ")" * 21,
                  "(" * 20 + "N" + ")" * 20, "(" * 400 + "2N" + ")" * 400, "N/(M/M/M)", "N2²", "(²)", "0/0", "2²", ""]:
        assert _same(_outcome(_old_values, token, samples), _outcome(formula_values, token, samples)), token


def _old_check_formula(calls, variables, correct, options, any_of, field):
    """rules/checks.py's ``_check_formula`` before: each token evaluated again for each sample."""
    line = calls[0].line
    findings, missed, hits = [], [], 0
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
        hits += hit and option_id in correct
        if option_id in correct and not hit:
            what = ", ".join(tokens) if tokens else "no formula"
            missed.append(Finding("E404", f"the correct {_what(option_id, field)} shows {what}, which differs from the checked formula: {text!r}", line, 1, option_id))
        elif option_id not in correct and hit:
            findings.append(Finding("E405", f"the wrong {_what(option_id, field)} shows a formula equal to the checked one: {text!r}", line, 1, option_id))
    return _missed(missed, hits, any_of, "the checked formula", line, field) + findings


class _Call:
    def __init__(self, value: float, rel: float, line: int) -> None:
        self.value, self.rel, self.line = value, rel, line


@pytest.mark.parametrize("seed", range(3))
def test_check_formula_findings_are_the_same(seed):
    rng = random.Random(100 + seed)
    words = ["operations", "in", "the", "kernel", "N × N", "M × K", "2 × N", "N / 3", "FP16", "GPU"]
    for _ in range(1500):
        variables = tuple(sorted(set(rng.sample("ABCDKMN", rng.randint(1, 3)))))
        count = rng.randint(1, 4)
        target = _random_token(rng) if rng.random() < 0.5 else rng.choice(["2MNK", "2N³", "N²", "MK", "2MK", "N/3", "N×N"])
        try:
            expected = [evaluate_formula(target, _sample(variables, i)) for i in range(count)]
        except Exception:  # noqa: BLE001 - a target that does not evaluate: any values
            expected = [rng.random() * 10 for _ in range(count)]
        calls = [_Call(value, rng.choice([0.0, 0.01, 0.05]), rng.randint(1, 5)) for value in expected]
        options = []
        for option_id in "abcd"[:rng.randint(1, 4)]:
            parts = [rng.choice(words) for _ in range(rng.randint(0, 3))] + [rng.choice([target, _random_token(rng), _random_token(rng)])]
            rng.shuffle(parts)
            options.append((option_id, " ".join(parts)))
        correct = frozenset(rng.sample([o for o, _ in options], rng.randint(0, len(options))))
        any_of, field = rng.random() < 0.5, rng.choice(["option", "answer"])
        args = (calls, variables, correct, options, any_of, field)
        assert _outcome(_old_check_formula, *args) == _outcome(checks._check_formula, *args), args
