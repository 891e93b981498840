"""Generators replaced by loops and list comprehensions in a question file's rules (the same
values, in the same order, the same exceptions): W320/W321's refusal by pattern
(``lints._may_match``), the key's text (``lints._key_text``), the answer-cue figures
(``cues.options_cue``, ``cues.keys_are_longest``), each against the code before, kept here, on
random inputs and every question of the bundled bank and ``examples/every-kind``. It fails with
the position refusal's ordinals not looked for."""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping
from pathlib import Path

from aistack_bank.rules import cues, lints
from aistack_bank.rules.lints import _NEEDS, _POSITION_ALONE, _POSITION_ORDINALS, _Q_DIGIT

ROOT = Path(__file__).resolve().parent.parent


def _may_match_before(kind, lang, folded):
    if kind == "letter":
        return lints._may_match(kind, lang, folded)  # (not changed)
    if kind == "position":
        return (any(word in folded for word in _POSITION_ALONE[lang])
                or (any(word in folded for word in _NEEDS[kind][lang]) and any(word in folded for word in _POSITION_ORDINALS[lang])))
    return any(word in folded for word in _NEEDS[kind][lang]) or (kind == "question" and _Q_DIGIT.search(folded) is not None)


def _key_text_before(question):
    if not (question.PICKS_OPTIONS and question.ONE_KEY):
        return None
    right = question.right_ids()
    key = next((o for o in question.choices() if o.id in right), None)
    return key.text if key is not None else None


def _keys_are_longest_before(correct: Collection[str], texts: Mapping[str, str]) -> bool:
    wrong = [len(text) for option_id, text in texts.items() if option_id not in correct]
    return bool(wrong) and min(len(texts[option_id]) for option_id in correct) > max(wrong)


def _options_cue_before(ids, correct, texts):
    return tuple(ids.index(option_id) for option_id in correct), _keys_are_longest_before(correct, texts)


def _outcome(function, *args):
    try:
        return ("ok", function(*args))
    except Exception as exc:  # noqa: BLE001 - the same exception either way
        return ("raised", type(exc), str(exc))


_PIECES = sorted({word for table in (_NEEDS, {"a": _POSITION_ALONE}, {"o": _POSITION_ORDINALS}) for kinds in table.values() for words in kinds.values() for word in words}
                 | {"q1", "q", "1", " ", "the", "x", "ci-", "hier", "\n"})


def test_the_refusal_by_pattern_on_random_texts():
    rng = random.Random(7)
    for _ in range(30000):
        folded = "".join(rng.choice(_PIECES) + rng.choice(["", " "]) for _ in range(rng.randint(0, 8)))
        for kind in ("letter", "position", "question"):
            for lang in ("en", "fr", "nl"):
                assert lints._may_match(kind, lang, folded) == _may_match_before(kind, lang, folded), (kind, lang, folded)


def test_the_cue_figures_on_random_options():
    rng = random.Random(11)
    for _ in range(20000):
        ids = [chr(ord("a") + index) for index in range(rng.randint(0, 6))]
        texts = {option_id: "x" * rng.randint(0, 5) for option_id in ids if rng.random() < 0.9}
        correct = [option_id for option_id in ids + ["z"] if rng.random() < 0.4]
        if rng.random() < 0.5:
            correct = frozenset(correct)
        assert _outcome(cues.options_cue, ids, correct, texts) == _outcome(_options_cue_before, ids, correct, texts)
        assert _outcome(cues.keys_are_longest, correct, texts) == _outcome(_keys_are_longest_before, correct, texts)


def test_every_question_of_both_banks():
    from aistack_bank.load import read_question

    paths = sorted(ROOT.glob("bank/*/questions/*.yaml")) + sorted(ROOT.glob("examples/every-kind/bank/*/questions/*.yaml"))
    seen = 0
    for path in paths:
        qs, _ = read_question(path, root=path.parent.parent)
        question = qs.question
        if question is None:
            continue
        seen += 1
        assert lints._key_text(question) == _key_text_before(question)
        if question.PICKS_OPTIONS and question.right_ids():
            ids = [option.id for option in question.options]
            texts = {option.id: option.text for option in question.options}
            assert cues.options_cue(ids, question.right_ids(), texts) == _options_cue_before(ids, question.right_ids(), texts)
        for field in lints.question_texts(question):
            folded = lints._folded(field[1])
            for kind in ("letter", "position", "question"):
                assert lints._may_match(kind, "en", folded) == _may_match_before(kind, "en", folded)
    assert seen > 20
