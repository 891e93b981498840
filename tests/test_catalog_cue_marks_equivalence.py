"""Two checks of a catalog worker made cheaper, compared with the code before (spelled out here).

- ``verify._cues_in`` (the length cue, W302, of each question: whether its right options'
  translated texts are strictly the longest) tells it from the options' lengths in one loop,
  where ``verify._cues`` with ``_translated_options`` made each question's texts, its right
  options' positions and called ``options_cue``: the same answers, in the same order, and the
  same exception for a right option that is not an option.
- ``typography.typography_issues`` tells whether a text holds a mark with one substring test per
  mark instead of ``_MARKS.search``: the same issues for every text.

Questions, options and catalogs are random and hostile: repeated option ids, right ids that are
no option, no options or no right one, entries missing, empty or fuzzy, texts of equal lengths,
combining marks, no-break spaces and every mark of French typography anywhere."""

from __future__ import annotations

import re
from types import SimpleNamespace

from hypothesis import given, settings
from hypothesis import strategies as st

from aistack_bank.i18n import typography, verify
from aistack_bank.i18n.catalogview import CatalogQuestion
from aistack_bank.rules.cues import options_cue

IDS = ["a", "b", "c", "d", "e", "é", "a "]
PIECES = ["", "x", "é", "e\u0301", "\u00a0", " ", "longer text", "y" * 12, "?", "«", "»", ":", ";", "!", "14 Go", "\u202f", "’", "`a:b`"]


def _cues_before(questions, active):
    """(question id, keys longest) as length_cues counted them before: ``_cues`` with the texts
    of ``_translated_options`` (each question's options' texts, its positions, ``options_cue``)."""
    def texts_of(question):
        texts = {}
        for option_id, english in question.options:
            entry = active.get(f"{question.id}.option.{option_id}")
            texts[option_id] = entry.msgstr if entry is not None and entry.msgstr else english
        return texts

    for qs in questions:
        question = qs.question
        if question.options is None or not question.right:
            continue
        cue = options_cue([option_id for option_id, _ in question.options], question.right, texts_of(question))
        yield question.id, bool(cue[1])


def _question(qid: str, options, right) -> SimpleNamespace:
    view = (qid, "single_choice", options, right, (), (), None, False, True, "option", None, None, None, None, False)
    return SimpleNamespace(question=CatalogQuestion(view), derived={})


texts = st.lists(st.sampled_from(PIECES), max_size=4).map("".join)


@st.composite
def banks(draw):
    questions, active = [], {}
    for number in range(draw(st.integers(0, 6))):
        qid = f"q{number:03d}" if draw(st.booleans()) else f"q{draw(st.integers(0, 2)):03d}"  # (ids repeated now and then)
        if draw(st.integers(0, 9)) == 0:
            options = None
        else:
            options = tuple((draw(st.sampled_from(IDS)), draw(texts)) for _ in range(draw(st.integers(0, 5))))
        known = [option_id for option_id, _ in options or ()]
        pool = known + ["z"] if draw(st.integers(0, 7)) == 0 or not known else known  # (a right id that is no option, now and then)
        right = tuple(draw(st.lists(st.sampled_from(pool), max_size=3)))
        questions.append(_question(qid, options, right))
        for option_id, _ in options or ():
            choice = draw(st.integers(0, 4))
            if choice == 0:
                continue  # (no entry: the English counts)
            entry = SimpleNamespace(msgstr="" if choice == 1 else draw(texts), flags=["fuzzy"] if choice == 2 else [])
            active[f"{qid}.option.{option_id}"] = entry
    return questions, active


def _outcome(make):
    try:
        return "ok", list(make())
    except Exception as exc:  # noqa: BLE001 - the same exception either way
        return type(exc).__name__, str(exc)


@settings(max_examples=max(400, settings.default.max_examples), deadline=None)  # (more with HYPOTHESIS_PROFILE=long)
@given(banks())
def test_length_cue_from_lengths_is_the_cue_before(bank):
    questions, active = bank
    assert _outcome(lambda: verify._cues_in(questions, active)) == _outcome(lambda: _cues_before(questions, active))


def test_length_cue_on_every_kind_and_the_bundled_bank():
    from pathlib import Path

    from aistack_bank.load import read_library

    root = Path(__file__).resolve().parent.parent
    import random

    rng = random.Random(20261204)
    questions = [qs for bank in ("examples/every-kind/bank", "bank") for topic in read_library(root / bank).topics
                 for qs in topic.questions if qs.question is not None]
    for _ in range(40):
        active = {}
        for qs in questions:
            question = verify.viewed(qs)
            for option_id, english in question.options or ():
                if rng.random() < 0.8:
                    active[f"{question.id}.option.{option_id}"] = SimpleNamespace(msgstr=rng.choice([english, english * 2, "", english[:3], "x" * rng.randint(0, 60)]), flags=[])
        before = list(_cues_before([SimpleNamespace(question=verify.viewed(qs)) for qs in questions], active))
        assert list(verify._cues_in(questions, active)) == before
        assert any(longest for _, longest in before) and not all(longest for _, longest in before)


_MARKS_BEFORE = re.compile("[?!:;«»]")


def _typography_before(text: str):
    """typography_issues as it was: the marks' pattern searched first."""
    issues = []
    if not _MARKS_BEFORE.search(text):
        return issues
    spans = None
    for match in _MARKS_BEFORE.finditer(text):
        issue = typography._mark_issue(text, match.start(), match.group())
        if issue is None:
            continue
        if spans is None:
            spans = typography._protected_spans(text)
        if spans and typography._inside(spans, match.start()):
            continue
        issues.append(issue)
    return issues


MARKED = st.lists(st.one_of(st.sampled_from(PIECES + ["https://a.b/c?d", "www.x.fr:", "\n", "?!", "( ?", "10:30", "«\u00a0", "\u00a0»"]),
                            st.text(max_size=4)), max_size=12).map("".join)


@settings(max_examples=max(400, settings.default.max_examples), deadline=None)  # (more with HYPOTHESIS_PROFILE=long)
@given(MARKED)
def test_typography_marks_screen_is_the_pattern(text):
    assert typography.typography_issues(text) == _typography_before(text)


def test_typography_marks_screen_each_mark():
    for mark in "?!:;«»":
        for text in (f"a{mark}", f"a {mark}", f"a\u00a0{mark}", f"{mark}b", f"x {mark} y"):
            assert typography.typography_issues(text) == _typography_before(text)
    assert typography.typography_issues("a ?") and not typography.typography_issues("plain text, no mark.")

