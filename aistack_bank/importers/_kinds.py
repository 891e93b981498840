"""Moodle's question types in the bank's kinds: shared by the Moodle XML and GIFT readers.

Each function takes what Moodle stores for a question type (plain texts, fractions from -1 to 1,
Moodle's unit multipliers) and returns the kind's fields as the model names them, with notes on
anything the bank keeps differently; it raises :class:`NotImported` when the bank cannot hold
the question at all (the reader then lists it as skipped, with the reason).
"""

from __future__ import annotations

import math
import re

from ..kinds import MatchingQuestion, MultipleResponseQuestion, OrderingQuestion, ShortAnswerQuestion, SingleChoiceQuestion, limits
from ..kinds.short_answer import fold, has_wildcard

# The bank's limits, read from the model (kinds/), never restated.
MIN_CHOICES, MAX_CHOICES = limits(SingleChoiceQuestion, "options")
MIN_OPTIONS, MAX_OPTIONS = limits(MultipleResponseQuestion, "options")
MAX_SHORT_ANSWERS = limits(ShortAnswerQuestion, "answers")[1]
MIN_PAIRS, MAX_PAIRS = limits(MatchingQuestion, "pairs")
MIN_ITEMS, MAX_ITEMS = limits(OrderingQuestion, "items")
IDS = "abcdefghijklmnopqrstuvwxyz"


class NotImported(Exception):
    """The bank cannot hold this question; the message says why."""


def _percent(fraction: float) -> str:
    return f"{fraction * 100:.5g} %"


def multiple_response(fractions: list[float]) -> tuple[dict, list[str]]:
    """``correct`` and ``scoring`` from Moodle's grades of a multiple-answer question.

    With k options above 0: each at 1/k and each other at -1/k is the bank's ``partial``; each
    other at -100 % is how an ``all-or-nothing`` question leaves the bank (the closest Moodle
    core has), so it comes back as one. Any other grades are imported as ``partial`` with a note.
    """
    if not MIN_OPTIONS <= len(fractions) <= MAX_OPTIONS:
        raise NotImported(f"{len(fractions)} answers; a multiple-response question takes {MIN_OPTIONS} to {MAX_OPTIONS}")
    right = [i for i, f in enumerate(fractions) if f > 0]
    if not right:
        raise NotImported("no answer has a positive grade, so no option is right")
    k = len(right)
    wrong = [fractions[i] for i in range(len(fractions)) if i not in right]
    notes = []
    even = all(abs(fractions[i] - 1 / k) < 1e-5 for i in right)
    if even and k > 1 and wrong and all(abs(f + 1) < 1e-5 for f in wrong):
        scoring = "all-or-nothing"
        notes.append(f"Moodle's grades (right options {_percent(1 / k)} each, wrong ones -100 %) are imported as all-or-nothing scoring, "
                     "the bank's closest; in Moodle a learner who picked only some right options earned part of the marks")
    else:
        scoring = "partial"
        if not even or any(abs(f + 1 / k) >= 1e-5 for f in wrong):
            given = ", ".join(_percent(f) for f in fractions)
            notes.append(f"Moodle's grades ({given}) are imported as partial scoring: each right option 1/{k}, each wrong one -1/{k}")
    return {"correct": [IDS[i] for i in right], "scoring": scoring}, notes


def number(text: str) -> float:
    """A number as Moodle's numerical type reads an answer: ``3.5``, ``-2e3``, ``3,5`` (a lone
    comma is the decimal separator, as in Moodle's answer processor); NotImported otherwise."""
    raw = text.strip().replace(" ", "")
    if raw.count(",") == 1 and "." not in raw:
        raw = raw.replace(",", ".")
    if not re.fullmatch(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?", raw):
        raise NotImported(f"the answer {text.strip()!r} is not a number")
    value = float(raw)
    if not math.isfinite(value):
        raise NotImported(f"the answer {text.strip()!r} is not a finite number")
    return value


def numerical(answers: list[tuple[str, str, float, str]], units: list[tuple[str, str]]) -> tuple[dict, list[str]]:
    """The fields of a numerical question from Moodle's answers (value, tolerance, fraction,
    feedback; ``*`` for "any other answer") and units (name, Moodle multiplier).

    The first answer at 100 % is the key; answers of lower grade are near misses (the bank needs
    feedback for each: one without is left out, with a note); Moodle divides a response by its
    unit's multiplier, the bank multiplies, so each multiplier is inverted."""
    notes: list[str] = []
    key = None
    near = []
    for value, tolerance, fraction, feedback in answers:
        if value.strip() == "*":
            if feedback:
                notes.append(f"the feedback for any other answer has no place in the bank and was not imported: {feedback!r}")
            continue
        parsed = number(value)
        tol = abs(number(tolerance)) if tolerance.strip() else 0.0
        if key is None and abs(fraction - 1) < 1e-5:
            key = (parsed, tol)
            if feedback:
                notes.append(f"the feedback of the right answer has no place in the bank and was not imported: {feedback!r}")
            continue
        if fraction >= 1 - 1e-5:
            notes.append(f"a second right answer ({value.strip()}) has no place in the bank and was not imported")
        elif fraction < 0:
            notes.append(f"the answer {value.strip()} with a negative grade was not imported")
        elif not feedback:
            notes.append(f"the near miss {value.strip()} (grade {_percent(fraction)}) has no feedback, which the bank needs; it was not imported")
        else:
            near.append({"value": parsed, "tolerance": tol, "credit": round(fraction, 7), "feedback": feedback})
    if key is None:
        raise NotImported("no answer has full marks (100 %)")
    fields: dict = {"answer": key[0], "tolerance": key[1]}
    if units:
        named = []
        for name, multiplier in units:
            try:
                m = number(multiplier)
            except NotImported:
                m = 0.0
            if m <= 0 or not name.strip():
                notes.append(f"the unit {name!r} with multiplier {multiplier!r} was not imported")
                continue
            named.append({"name": name.strip(), "multiplier": float(f"{1 / m:.12g}")})
        base = [u for u in named if u["multiplier"] == 1]
        if named and not base:
            notes.append("no unit has multiplier 1 (the answer's own unit), so the units were not imported")
        elif named:
            fields["units"] = base[:1] + [u for u in named if u is not base[0]]
    if near:
        fields["near_misses"] = near
    return fields, notes


def short_answer(answers: list[tuple[str, float, str]], case_sensitive: bool) -> tuple[dict, list[str]]:
    """The fields of a short-answer question from Moodle's answers (text, fraction, feedback).

    The bank writes answers in Moodle's syntax (``*`` its wildcard, ``\\*`` a star), so texts
    come in as they are. Moodle gives the first answer that matches; the bank the most credit
    among those that match: an answer the bank compares as equal to an earlier one (its folding:
    case, spaces, quotes, hyphens) is left out with a note, as is one of wildcards only."""
    notes = []
    accepted = []
    seen: set[str] = set()
    for text, fraction, feedback in answers:
        text = text.strip()
        if not text:
            continue
        key = fold(text, case_sensitive)
        if key in seen:  # Moodle gives the first matching answer; a second one never applies
            notes.append(f"the answer {text!r} repeats an earlier one{'' if case_sensitive else ' (case is ignored)'} as the bank compares answers; it was not imported")
            continue
        seen.add(key)
        if fraction <= 0:
            if feedback:
                notes.append(f"the answer {text!r} earns nothing (it only gives feedback), which the bank cannot hold; it was not imported")
            continue
        if has_wildcard(text) and not text.replace("*", "").strip():
            notes.append(f"the answer {text!r} is only Moodle's wildcard: it accepts anything, which the bank does not allow; it was not imported")
            continue
        entry: dict = {"text": text}
        if fraction < 1 - 1e-5:
            entry["credit"] = round(min(fraction, 1.0), 7)
        if feedback:
            entry["feedback"] = feedback
        accepted.append(entry)
    if not accepted:
        raise NotImported("no accepted answer the bank can hold (with a positive grade, not only wildcards)")
    if not any("credit" not in a for a in accepted):
        raise NotImported("no answer has full marks (100 %)")
    if len(accepted) > MAX_SHORT_ANSWERS:
        raise NotImported(f"{len(accepted)} accepted answers; the bank takes at most {MAX_SHORT_ANSWERS}")
    fields: dict = {"answers": accepted}
    if case_sensitive:
        fields["case_sensitive"] = True
    return fields, notes


def matching(subquestions: list[tuple[str, str]], where=lambda index: "") -> tuple[dict, list[str]]:
    """Pairs and distractors from Moodle's subquestions (text, answer); a subquestion with empty
    text and an answer is a distractor (Moodle's way of storing an extra answer).

    Moodle offers each answer text once, however many subquestions hold it, so prompts that
    share an answer come in as pairs that share it. A subquestion that repeats an earlier one
    (the same prompt and answer) is merged into it, and a distractor whose text is already
    offered is dropped, each with a note ending in ``where(index)`` (the subquestion's line)."""
    notes = []
    if any(p.strip() and not a.strip() for p, a in subquestions):
        raise NotImported("a prompt has no answer")
    pairs: list[tuple[str, str]] = []
    first: dict[tuple[str, str], int] = {}
    for index, (prompt, answer) in enumerate(subquestions):
        if not prompt.strip() or not answer.strip():
            continue
        if (prompt, answer) in first:
            notes.append(f"subquestion {index + 1} repeats subquestion {first[prompt, answer] + 1} ({prompt!r} -> {answer!r}): Moodle asks it twice, "
                         f"the bank once (a learner could not tell the two apart), so the two are one pair{where(index)}")
            continue
        first[prompt, answer] = index
        pairs.append((prompt, answer))
    answers = {a for _, a in pairs}
    extra: list[str] = []
    for index, (prompt, answer) in enumerate(subquestions):
        if prompt.strip() or not answer.strip():
            continue
        if answer in answers or answer in extra:
            what = "a prompt's answer" if answer in answers else "an earlier extra answer"
            notes.append(f"the extra answer {answer!r} (subquestion {index + 1}) is {what}, which Moodle offers once and so does the bank: "
                         f"it is not imported again{where(index)}")
            continue
        extra.append(answer)
    if not MIN_PAIRS <= len(pairs) <= MAX_PAIRS:
        raise NotImported(f"{len(pairs)} prompts; a matching question takes {MIN_PAIRS} to {MAX_PAIRS}")
    if len(pairs) + len(extra) > len(IDS):
        raise NotImported(f"{len(pairs) + len(extra)} answers; the bank names them a to z")
    fields: dict = {"pairs": [{"id": IDS[i], "prompt": p, "answer": a} for i, (p, a) in enumerate(pairs)]}
    if extra:
        fields["distractors"] = [{"id": IDS[len(pairs) + i], "text": a} for i, a in enumerate(extra)]
    return fields, notes


def ordering(items: list[str]) -> dict:
    """The items of an ordering question, in their right order."""
    if any(not text.strip() for text in items):
        raise NotImported("an item is empty")
    if not MIN_ITEMS <= len(items) <= MAX_ITEMS:
        raise NotImported(f"{len(items)} items; an ordering question takes {MIN_ITEMS} to {MAX_ITEMS}")
    return {"items": [{"id": IDS[i], "text": text} for i, text in enumerate(items)]}


def true_false(answer: bool, feedback_true: str, feedback_false: str) -> dict:
    fields: dict = {"answer": answer}
    if feedback_true:
        fields["feedback_true"] = feedback_true
    if feedback_false:
        fields["feedback_false"] = feedback_false
    return fields
