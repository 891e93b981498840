"""A localizing worker makes the fields it is sent (``build._fields_received``) without a Python
call per field, and ``localize_question`` sets a list item's text (``("options", 2, "text")``)
without one: the same fields and the same localized questions as the code before (its copy
here), every kind, texts at every place the fields name, places of other depths too."""

from __future__ import annotations

import pickle
import random
import sys
from pathlib import Path

import pytest

from conftest import REPO
from aistack_bank import build
from aistack_bank.i18n import localize
from aistack_bank.i18n.fields import english_library_and_fields
from aistack_bank.load import read_library

BANKS = [REPO, REPO / "examples" / "every-kind"]


def _python_calls(work, *args) -> tuple[object, list[tuple[str, str]]]:
    """``work(*args)`` and the (file, name) of each Python function it called."""
    calls: list[tuple[str, str]] = []

    def seen(frame, event, arg):
        if event == "call":
            calls.append((frame.f_code.co_filename, frame.f_code.co_name))

    sys.setprofile(seen)
    try:
        result = work(*args)
    finally:
        sys.setprofile(None)
    return result, calls[1:]  # (work's own call left out)


class _FieldBefore:
    """The code before's :class:`~aistack_bank.build.LocalizedField`: four slots set by ``__init__``."""

    __slots__ = ("key", "text", "question_id", "loc")

    def __init__(self, key, text, question_id, loc) -> None:
        self.key, self.text, self.question_id, self.loc = key, text, question_id, loc


def _set_before(data, loc: tuple, value) -> None:
    for part in loc[:-1]:
        data = data[part]
    data[loc[-1]] = value


def _localize_question_before(question, texts, problems, fields):
    """The code before's ``localize_question`` (its texts set by ``_set_before`` for a nested place)."""
    data = question.model_dump()
    changed = False
    for field in fields:
        text = texts.get(field.key, localize._ABSENT)
        if text is not localize._ABSENT:
            loc = field.loc
            if len(loc) == 1:
                data[loc[0]] = text
            else:
                _set_before(data, loc, text)
            changed = True
    if not changed:
        return question
    split = localize._kind_of(question).split_translation
    if split is not None:
        keys = tuple(data)
        split(data)
        if tuple(data)[:len(keys)] != keys:
            data = {**question.model_dump(), **data}
    return localize._validated_data(question, data, localize._question_key(fields), problems)


@pytest.mark.parametrize("root", BANKS, ids=["bundled", "every-kind"])
def test_fields_received_without_a_call_per_field(root):
    _, fields = english_library_and_fields(read_library(root / "bank"))
    blob = build._fields_sent(fields)
    received, calls = _python_calls(build._fields_received, blob)
    keys, texts, questions, locs = pickle.loads(blob)
    before = list(map(_FieldBefore, keys, texts, questions, locs))
    assert len(received) == len(before) == len(fields) > 20
    assert [(f.key, f.text, f.question_id, f.loc) for f in received] == [(f.key, f.text, f.question_id, f.loc) for f in before]
    assert [(f.key, f.text, f.question_id, f.loc) for f in received] == [(f.key, f.text, f.question_id, f.loc) for f in fields]
    assert calls == []  # (the code before called LocalizedField.__init__ once per field)
    with pytest.raises(AttributeError):
        received[0].path  # (what localization never reads is not sent)


@pytest.mark.parametrize("root", BANKS, ids=["bundled", "every-kind"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_localize_question_as_before_without_a_call_per_item(root, seed):
    rng = random.Random(seed)
    english, fields = english_library_and_fields(read_library(root / "bank"))
    received = build._fields_received(build._fields_sent(fields))
    by_question = localize.fields_by_question(received)
    depths = set()
    for question in english.questions:
        mine = by_question.get(question.id, [])
        texts = {}
        for field in mine:
            depths.add(len(field.loc))
            if rng.random() < 0.8:
                texts[field.key] = rng.choice([f"{field.text} (traduit)", "  ", "ligne\nsuivante", "x" * rng.randint(1, 300), field.text])
        problems_now: list = []
        problems_before: list = []
        now, calls = _python_calls(localize.localize_question, question, texts, problems_now, mine)
        before = _localize_question_before(question, texts, problems_before, mine)
        assert problems_now == problems_before
        assert (now.model_dump() if now is not None else None) == (before.model_dump() if before is not None else None)
        assert not [name for file, name in calls if Path(file).name == "localize.py" and name not in ("_kind_of", "_validated_data", "_question_key", "key_of", "<dictcomp>")], question.id
    assert {1, 3} <= depths


def test_a_place_of_another_depth_is_set_as_before():
    """A place of two or four parts (no kind names one today) is walked as the code before walked it."""
    for loc in [("a", "b"), ("a", 0, "b", 1), ("a", 0, "b")]:
        data_now = {"a": {"b": 0}} if len(loc) == 2 else {"a": [{"b": [0, 1]}]}
        data_before = {"a": {"b": 0}} if len(loc) == 2 else {"a": [{"b": [0, 1]}]}
        field = build._fields_received(build._fields_sent([type("F", (), {"key": "k", "text": "t", "question_id": "q001", "loc": loc})()]))[0]
        _set_before(data_before, loc, "T")
        question = type("Q", (), {"model_dump": lambda self, data=data_now: data})()
        problems: list = []
        try:
            localize.localize_question(question, {"k": "T"}, problems, [field])
        except Exception:  # (the stand-in question has no kind: only its data, set before, is compared)
            pass
        assert data_now == data_before
