"""A numeric check compares each option with the quantities it shows as (text, dimension, base)
tuples (``quantities.quantity_values``), without a ``Quantity`` per match: the same findings as
``_check_value`` before (kept here, ``_check_value_before``), which read ``quantities``.

Compared on random answer calls (every unit of the table, unknown units, a ``rel`` of 0, tiny,
large, negative and NaN) against random option texts in English, French and Dutch spellings
(numbers with and without thousands separators and decimals, units after a space, a no-break
space, a hyphen or nothing, units glued to letters, values close to and far from the call's),
right and wrong options, one key or any of several; ``quantity_values`` against ``quantities``
on the same texts and every text of both banks; and every question with a check of the bundled
bank and ``examples/every-kind`` with the check before. It fails with the dimension not
compared (a quantity of another dimension taken as shown)."""

from __future__ import annotations

import math
import random
from pathlib import Path
from types import SimpleNamespace

import pytest

from aistack_bank.rules import checks
from aistack_bank.rules.checks import Finding, _check_value, _missed, _what
from aistack_bank.rules.quantities import UNITS, quantities, quantity_values, unit_dimension

ROOT = Path(__file__).resolve().parent.parent


def _check_value_before(call, correct, options, lang, any_of, field):
    unit = unit_dimension(call.unit or "")
    if unit is None:
        return [Finding("E406", f"unknown unit {call.unit!r} in answer(); use one such as GB, TB/s, ms, TFLOPS", call.line, 1)]
    dimension, factor = unit
    expected = f"{call.value / factor:.4g} {call.unit} (±{call.rel:.0%})"
    findings, missed, hits = [], [], 0
    for option_id, text in options:
        shown = [q for q in quantities(text, lang) if q.dimension == dimension]
        hit = any(math.isclose(q.base, call.value, rel_tol=call.rel) for q in shown)
        hits += hit and option_id in correct
        if option_id in correct and not hit:
            what = ", ".join(q.text for q in shown) if shown else f"no value in {dimension}"
            missed.append(Finding("E404", f"the check computes {expected}, but the correct {_what(option_id, field)} shows {what}: {text!r}", call.line, 1, option_id))
        elif option_id not in correct and hit:
            findings.append(Finding("E405", f"the check computes {expected}, and the wrong {_what(option_id, field)} shows it too: {text!r}", call.line, 1, option_id))
    return _missed(missed, hits, any_of, expected, call.line, field) + findings


def _outcome(function, *args):
    try:
        return ("ok", function(*args))
    except Exception as exc:  # noqa: BLE001 - the same exception either way
        return ("raised", type(exc), str(exc))


_UNITS = sorted(UNITS)
_SPACES = ["", " ", "\u00a0", "\u202f", "-", "  "]
_WORDS = ["about", "the", "weights", "take", "GPU", "FP16", "x", "and", "per", "s", "Go", "bytes", "(", ")", ",", "."]


def _number(rng: random.Random, lang: str, near: float | None) -> str:
    value = near if near is not None and rng.random() < 0.6 else rng.choice([0, 1, 2, 3.5, 14, 28, 1000, 1234.5, 70000, 0.05, 1e6])
    if near is not None and rng.random() < 0.3:
        value *= rng.choice([1.01, 0.99, 1.2, 1.0000001, 2])
    text = rng.choice([f"{value:g}", f"{value:,.2f}", f"{value:.3f}", str(int(value)), f"{int(value):,}"])
    if lang == "fr":
        text = text.replace(",", rng.choice(["\u202f", "\u00a0", " "])).replace(".", ",")
    elif lang == "nl":
        text = text.replace(",", "#").replace(".", ",").replace("#", ".")
    return text


def _text(rng: random.Random, lang: str, near: float | None) -> str:
    parts = []
    for _ in range(rng.randint(0, 6)):
        roll = rng.random()
        if roll < 0.45:
            parts.append(_number(rng, lang, near) + rng.choice(_SPACES) + rng.choice(_UNITS + ["", "GBx", "ms/", "bits", "byte"]))
        else:
            parts.append(rng.choice(_WORDS))
    return rng.choice([" ", "", "\u00a0"]).join(parts)


def _case(rng: random.Random):
    lang = rng.choice(["en", "fr", "nl"])
    unit = rng.choice(_UNITS + [None, "", "parsecs"])
    found = unit_dimension(unit or "")
    value = rng.choice([1.0, 28.0, 3.5, 1000.0, 0.0, 1e-9]) * (found[1] if found is not None else 1.0)
    rel = rng.choice([0.05, 0.0, 1e-12, 0.5, 2.0, -0.1, float("nan"), 0.01])
    call = SimpleNamespace(function="answer", value=value, unit=unit, rel=rel, line=rng.randint(1, 9))
    near = value / found[1] if found is not None and found[1] else None
    ids = [chr(ord("a") + index) for index in range(rng.randint(0, 6))]
    options = [(option_id, _text(rng, lang, near)) for option_id in ids]
    correct = frozenset(option_id for option_id in ids if rng.random() < 0.4)
    return call, correct, options, lang, rng.random() < 0.5, rng.choice(["options", "answer"])


@pytest.mark.parametrize("seed", range(8))
def test_random_calls_and_options(seed):
    rng = random.Random(seed)
    for _ in range(1500):
        args = _case(rng)
        assert _outcome(_check_value, *args) == _outcome(_check_value_before, *args), args
        for _, text in args[2]:
            for lang in ("en", "fr", "nl", "de"):
                assert quantity_values(text, lang) == [(q.text, q.dimension, q.base) for q in quantities(text, lang)], (text, lang)


def _bank_questions():
    from aistack_bank.load import read_question

    paths = sorted(ROOT.glob("bank/*/questions/*.yaml")) + sorted(ROOT.glob("examples/every-kind/bank/*/questions/*.yaml"))
    assert len(paths) > 20
    for path in paths:
        qs, _ = read_question(path, root=path.parent.parent)
        if qs.question is not None:
            yield qs.question


def test_every_text_of_both_banks():
    from aistack_bank.i18n.fields import question_fields

    count = 0
    for question in _bank_questions():
        for field in question_fields(question, None, None):
            for lang in ("en", "fr", "nl"):
                assert quantity_values(field.text, lang) == [(q.text, q.dimension, q.base) for q in quantities(field.text, lang)]
            count += 1
    assert count > 200


def test_every_question_with_a_check_of_both_banks(monkeypatch):
    questions = [question for question in _bank_questions() if question.check is not None]
    assert len(questions) > 10
    for question in questions:
        found = question.answer_texts()
        options = found[0] if found is not None else []
        variants = [options, [(option_id, text.replace(",", "\u202f").replace(".", ",")) for option_id, text in options]]
        for lang, texts in zip(("en", "fr"), variants):
            after = _outcome(checks.check_question, question, texts, lang)
            with monkeypatch.context() as patched:
                patched.setattr(checks, "_check_value", _check_value_before)
                before = _outcome(checks.check_question, question, texts, lang)
            assert after == before, question.id
