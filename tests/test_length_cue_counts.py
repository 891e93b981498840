"""The length cue (W302) of a catalog verified with its kept owners counts each question's cue
without making a figures' object per question (``verify._cues``).

Compared with what it did before (spelled out here: ``answer_cue_stats`` of the question alone,
its ``measured`` and ``key_longest``), on every question kind of ``examples/every-kind`` and the
bundled bank, with random option texts: empty, equal, one longer than the others, with
non-breaking spaces and combining marks; options missing from the texts fall back to English."""

from __future__ import annotations

import random
from pathlib import Path

from aistack_bank.i18n import verify
from aistack_bank.i18n.catalogview import CatalogQuestion
from aistack_bank.load import read_library
from aistack_bank.rules.cues import answer_cue_stats

ROOT = Path(__file__).resolve().parent.parent
PIECES = ["", "a", "é", "e\u0301", "\u00a0", "longer text", "x" * 40, "14 Go", " "]


def _counts_before(questions, texts_of):
    """(measured, ids whose keys are longest) as _Owners.length_cues counted them before."""
    measured, longest = 0, set()
    for qs in questions:
        stats = answer_cue_stats([qs.question], texts_of)
        measured += stats.measured
        if stats.key_longest:
            longest.add(qs.question.id)
    return measured, longest


def _options(question) -> list[tuple[str, str]]:
    """(id, English) of the options of a model or of a catalog view (whose options are pairs)."""
    if isinstance(question, CatalogQuestion):
        return list(question.options or ())
    return [(option.id, option.text) for option in getattr(question, "options", [])]


def _counts_now(questions, texts_of):
    found = list(verify._cues(questions, texts_of))
    return len(found), {question_id for question_id, longest in found if longest}


def test_the_same_cue_counts_as_one_figures_object_per_question():
    questions = [qs for bank in ("examples/every-kind/bank", "bank") for topic in read_library(ROOT / bank).topics
                 for qs in topic.questions if qs.question is not None]
    assert len({qs.question.kind for qs in questions}) >= 8
    rng = random.Random(20261202)
    measured_total = longest_total = 0
    for _ in range(300):
        picked = rng.sample(questions, rng.randint(1, len(questions)))
        texts: dict[tuple, dict[str, str]] = {}

        def texts_of(question):
            # (a model before, its catalog view now: the same texts for the same question)
            key = (question.id, tuple(_options(question)))  # (two banks may share an id)
            if key not in texts:
                shown = {}
                for option_id, english in _options(question):
                    if rng.random() < 0.9:
                        shown[option_id] = "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 4)))
                    else:
                        shown[option_id] = english
                texts[key] = shown
            return texts[key]

        before = _counts_before(picked, texts_of)
        assert _counts_now(picked, texts_of) == before
        measured_total += before[0]
        longest_total += len(before[1])
    assert measured_total and longest_total and longest_total < measured_total
