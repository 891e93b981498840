"""Generators replaced by loops in what a question file's rules ask of its model (the same
values, the same diagnostics in the same order): a single-choice question's ``right_ids``, a
multiple-response question's, and ``distinct_rules`` (E303, E305) reading each item's id once,
each against the code before, kept here, on random questions (ids used twice, the key among the
options or not, texts the same but for case and spaces) and every question of the bundled bank
and ``examples/every-kind``. It fails with the key's id compared with the first option's only."""

from __future__ import annotations

import random
from pathlib import Path

from aistack_bank.errors import error
from aistack_bank.kinds import _rules
from aistack_bank.kinds._rules import normalized
from aistack_bank.load import read_question

ROOT = Path(__file__).resolve().parent.parent


def _single_right_ids_before(question):
    return (question.correct,) if any(option.id == question.correct for option in question.options) else ()


def _multiple_right_ids_before(question):
    ids = {option.id for option in question.options}
    return tuple(option_id for option_id in dict.fromkeys(question.correct) if option_id in ids)


def _distinct_rules_before(items, field, noun, doc, why=""):
    diags = []
    seen_ids: dict[str, int] = {}
    seen_texts: dict[str, int] = {}
    for index, item in enumerate(items):
        if item.id in seen_ids:
            diags.append(error("E303", f"{noun} id {item.id!r} is used twice (also {noun} {seen_ids[item.id] + 1})", doc.locate((field, index, "id"))))
        seen_ids.setdefault(item.id, index)
        key = normalized(item.text)
        if key in seen_texts:
            diags.append(error("E305", f"{noun} {item.id!r} has the same text as {noun} {items[seen_texts[key]].id!r}{why}", doc.locate((field, index, "text"))))
        seen_texts.setdefault(key, index)
    return diags


class _Doc:
    def locate(self, path):
        return path


def _random_question(rng: random.Random, multiple: bool):
    from aistack_bank.kinds.multiple_response import MultipleResponseQuestion
    from aistack_bank.kinds.single_choice import SingleChoiceQuestion

    ids = [rng.choice("abcdefg") for _ in range(rng.randint(2, 6))]
    texts = [rng.choice(["About 28 GB", "about  28 gb", "ABOUT 28 GB", "x", "X ", "Ｘ", "y", "é", "e\u0301"]) for _ in ids]
    options = [{"id": i, "text": t} for i, t in zip(ids, texts)]
    base = {"id": "q00001", "stem": "A stem?", "tags": ["memory"], "difficulty": 2, "options": options}
    if multiple:
        correct = [rng.choice("abcdefgh") for _ in range(rng.randint(1, 4))]
        return MultipleResponseQuestion.model_validate({**base, "kind": "multiple-response", "correct": correct})
    return SingleChoiceQuestion.model_validate({**base, "kind": "single-choice", "correct": rng.choice("abcdefgh")})


def _bank_questions():
    for folder in (ROOT / "bank", ROOT / "examples" / "every-kind"):
        for path in sorted(folder.rglob("questions/*.yaml")):
            qs, _ = read_question(path, root=path.parent.parent)
            if qs.question is not None:
                yield qs.question


def test_right_ids_and_distinct_rules_on_random_questions():
    rng = random.Random(18)
    for n in range(6000):
        question = _random_question(rng, multiple=n % 3 == 0)
        before = _multiple_right_ids_before(question) if n % 3 == 0 else _single_right_ids_before(question)
        got = question.right_ids()
        assert got == before and type(got) is type(before), question
        assert _rules.distinct_rules(question.options, "options", "option", _Doc()) == _distinct_rules_before(question.options, "options", "option", _Doc())
        assert _rules.distinct_rules(question.options, "options", "option", _Doc(), " (why)") == _distinct_rules_before(question.options, "options", "option", _Doc(), " (why)")


def test_right_ids_and_distinct_rules_on_the_banks():
    seen = 0
    for question in _bank_questions():
        if question.kind == "single-choice":
            assert question.right_ids() == _single_right_ids_before(question)
        elif question.kind == "multiple-response":
            assert question.right_ids() == _multiple_right_ids_before(question)
        if question.PICKS_OPTIONS:
            assert _rules.distinct_rules(question.options, "options", "option", _Doc()) == _distinct_rules_before(question.options, "options", "option", _Doc())
            seen += 1
    assert seen > 10
