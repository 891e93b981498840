"""The rules of each question kind, over one question.

:func:`kind_rules` checks one English question in its YAML file (called by
`validate.question_rules`); :func:`translation_duplicates` applies the "no two texts alike"
rules to one language's texts of a question (called by the catalog checks, located at the
msgstr). The model's own refusals that concern a kind (a negative tolerance, a missing check)
get their messages in :mod:`.kindmessages`, which the loader uses.

Every rule returns diagnostics and raises nothing.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Callable
from typing import TYPE_CHECKING

from .errors import Diagnostic, error, warning
from .quantities import numbers, quantities, unit_dimension

if TYPE_CHECKING:
    from .model import AnyQuestion
    from .yamlsource import YamlDocument

OPTION_KINDS = ("single-choice", "multiple-response")
"""Kinds whose learner picks among lettered options (answer cues and letter references apply)."""


def normalized(text: str) -> str:
    """Text as compared for "the same text": NFKC, case folded, whitespace runs as one space."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def answer_key(text: str, case_sensitive: bool) -> str:
    """A short answer as a learner's response is compared with it: whitespace normalised,
    case folded unless the question is case-sensitive."""
    text = " ".join(unicodedata.normalize("NFC", text).split())
    return text if case_sensitive else text.casefold()


def unit_key(name: str) -> str:
    """A unit name as Moodle compares it: every space removed, case kept."""
    return re.sub(r"\s+", "", name)


def kind_rules(question: AnyQuestion, doc: YamlDocument) -> list[Diagnostic]:
    """The rules of ``question``'s kind, located in its file."""
    rules = _RULES.get(question.kind)
    return rules(question, doc) if rules is not None else []


# ----------------------------------------------------------------------------- option kinds

def _option_rules(question, doc: YamlDocument) -> list[Diagnostic]:
    diags = []
    seen_ids: dict[str, int] = {}
    seen_texts: dict[str, int] = {}
    for index, option in enumerate(question.options):
        if option.id in seen_ids:
            diags.append(error("E303", f"option id {option.id!r} is used twice (also option {seen_ids[option.id] + 1})", doc.locate(("options", index, "id"))))
        seen_ids.setdefault(option.id, index)
        key = normalized(option.text)
        if key in seen_texts:
            diags.append(error("E305", f"option {option.id!r} has the same text as option {question.options[seen_texts[key]].id!r}", doc.locate(("options", index, "text"))))
        seen_texts.setdefault(key, index)
    return diags


def _single_choice(question, doc: YamlDocument) -> list[Diagnostic]:
    diags = _option_rules(question, doc)
    ids = [option.id for option in question.options]
    if question.correct not in ids:
        diags.append(error("E304", f"correct option {question.correct!r} is not one of the options ({', '.join(ids)})", doc.locate(("correct",))))
    return diags


def _multiple_response(question, doc: YamlDocument) -> list[Diagnostic]:
    diags = _option_rules(question, doc)
    ids = [option.id for option in question.options]
    seen: dict[str, int] = {}
    for index, option_id in enumerate(question.correct):
        if option_id not in ids:
            diags.append(error("E320", f"correct option {option_id!r} is not one of the options ({', '.join(ids)})", doc.locate(("correct", index))))
        elif option_id in seen:
            diags.append(error("E321", f"correct option {option_id!r} is listed twice in `correct`", doc.locate(("correct", index))))
        seen.setdefault(option_id, index)
    right = {option_id for option_id in question.correct if option_id in ids}
    distinct_ids = set(ids)
    if right and right == distinct_ids:
        diags.append(warning("W323", f"{question.id}: every option is correct, so a learner who ticks everything gets full marks; add wrong options", doc.locate(("correct",))))
    elif len(right) == 1 and len(question.correct) == 1:
        diags.append(warning("W323", f"{question.id}: exactly one option is correct; make it a single-choice question (`kind: single-choice`, `correct: {question.correct[0]}`) or add correct options", doc.locate(("correct",))))
    return diags


# ----------------------------------------------------------------------------- true-false

def _true_false(question, doc: YamlDocument) -> list[Diagnostic]:
    diags = []
    if question.stem.rstrip().endswith(("?", "？", "؟")):
        diags.append(warning("W324", f"{question.id}: the stem of a true-false question ends with '?'; write it as a statement the learner marks true or false", doc.locate(("stem",))))
    if question.feedback_true is not None and question.feedback_false is not None and normalized(question.feedback_true) == normalized(question.feedback_false):
        diags.append(warning("W325", f"{question.id}: feedback_true and feedback_false are the same text; tell each side why it is right or wrong (or give only the explanation)", doc.locate(("feedback_false",))))
    return diags


# ----------------------------------------------------------------------------- numerical

def _numerical(question, doc: YamlDocument) -> list[Diagnostic]:
    numbers_at = [(("answer",), question.answer), (("tolerance",), question.tolerance)]
    numbers_at += [(("units", i, "multiplier"), unit.multiplier) for i, unit in enumerate(question.units)]
    numbers_at += [(("near_misses", i, name), getattr(near, name)) for i, near in enumerate(question.near_misses) for name in ("value", "tolerance")]
    infinite = [error("E210", f"{'.'.join(str(p) for p in path)} is {value}; a learner can only type a finite number, and no format carries this one", doc.locate(path))
                for path, value in numbers_at if not math.isfinite(value)]
    if infinite:
        return infinite  # ranges and comparisons mean nothing with them
    diags = []
    seen: dict[str, int] = {}
    for index, unit in enumerate(question.units):
        key = unit_key(unit.name)
        if key in seen:
            diags.append(error("E322", f"unit {unit.name!r} is listed twice (also unit {seen[key] + 1}); a learner's unit must name one multiplier", doc.locate(("units", index, "name"))))
        seen.setdefault(key, index)
    if question.units:
        first = question.units[0]
        if not math.isclose(first.multiplier, 1.0, rel_tol=1e-12):
            diags.append(error("E323", f"the first unit {first.name!r} has multiplier {first.multiplier:g}; it is the answer's own unit, so its multiplier must be 1 (put the answer in {first.name}, or list the unit with multiplier 1 first)", doc.locate(("units", 0, "multiplier"))))
        else:
            diags += _unit_multipliers(question, doc)
    low, high = question.answer - question.absolute_tolerance, question.answer + question.absolute_tolerance
    for index, near in enumerate(question.near_misses):
        if near.value - near.tolerance <= high and near.value + near.tolerance >= low:
            diags.append(error("E324", f"near miss {index + 1} ({near.value:g} ± {near.tolerance:g}) overlaps the right range {low:g} to {high:g}: a response there would be marked right; move it or narrow it", doc.locate(("near_misses", index, "value"))))
    diags += _numerical_giveaway(question, doc)
    return diags


def _unit_multipliers(question, doc: YamlDocument) -> list[Diagnostic]:
    """W327 when a known unit's multiplier disagrees with what it is (MB is 0.001 GB)."""
    base = unit_dimension(question.units[0].name)
    if base is None:
        return []
    diags = []
    for index, unit in enumerate(question.units[1:], 1):
        known = unit_dimension(unit.name)
        if known is None:
            continue
        if known[0] != base[0]:
            diags.append(warning("W327", f"unit {unit.name!r} measures {known[0]}, but the answer's unit {question.units[0].name!r} measures {base[0]}", doc.locate(("units", index, "name"))))
            continue
        expected = known[1] / base[1]
        if not math.isclose(unit.multiplier, expected, rel_tol=1e-9):
            diags.append(warning("W327", f"unit {unit.name!r} has multiplier {unit.multiplier:g}, but one {unit.name} is {expected:g} {question.units[0].name}", doc.locate(("units", index, "multiplier"))))
    return diags


def _numerical_giveaway(question, doc: YamlDocument) -> list[Diagnostic]:
    """W326 when the stem already shows the answer (with its unit where the unit is known)."""
    value = question.answer
    unit = unit_dimension(question.units[0].name) if question.units else None
    if unit is not None:
        dimension, factor = unit
        shown = any(q.dimension == dimension and math.isclose(q.base, value * factor, rel_tol=1e-9) for q in quantities(question.stem, "en"))
    else:
        trivial = float(value).is_integer() and abs(value) <= 12  # "2 GPUs", "8 bits": too common to mean anything
        shown = not trivial and any(math.isclose(n, value, rel_tol=1e-9) for n in numbers(question.stem, "en"))
    if not shown:
        return []
    return [warning("W326", f"{question.id}: the stem shows the answer {value:g}{' ' + question.units[0].name if question.units else ''}; a learner can copy it without working it out", doc.locate(("stem",)))]


# ----------------------------------------------------------------------------- short-answer

def _short_answer(question, doc: YamlDocument) -> list[Diagnostic]:
    diags = []
    if not any(answer.credit >= 1 for answer in question.answers):
        diags.append(error("E325", f"{question.id}: no accepted answer has full credit (credit: 1); a learner could never get full marks", doc.locate(("answers",))))
    seen: dict[str, int] = {}
    for index, answer in enumerate(question.answers):
        if "\n" in answer.text.strip():
            diags.append(error("E116", f"accepted answer {index + 1} must be one line: a learner types one line (translations list other spellings one per line)", doc.locate(("answers", index, "text"))))
        key = answer_key(answer.text, question.case_sensitive)
        if key in seen:
            how = "" if question.case_sensitive else " (answers are compared ignoring case; set `case_sensitive: true` if case matters)"
            diags.append(error("E326", f"accepted answer {index + 1} {answer.text!r} is the same as accepted answer {seen[key] + 1}{how}", doc.locate(("answers", index, "text"))))
        seen.setdefault(key, index)
    diags += _short_answer_giveaway(question, doc)
    return diags


def _short_answer_giveaway(question, doc: YamlDocument) -> list[Diagnostic]:
    shown = stem_giveaway(question.stem, [a.text for a in question.answers if a.credit >= 1], question.case_sensitive)
    if shown is None:
        return []
    return [warning("W326", f"{question.id}: the stem contains the accepted answer {shown!r}; a learner can copy it", doc.locate(("stem",)))]


def stem_giveaway(stem: str, answers: list[str], case_sensitive: bool) -> str | None:
    """The first of ``answers`` (full-credit spellings, three characters or more) that ``stem``
    contains as whole words, or None."""
    stem = answer_key(stem, case_sensitive)
    for text in answers:
        key = answer_key(text, case_sensitive)
        if len(key) >= 3 and re.search(rf"(?<!\w){re.escape(key)}(?!\w)", stem):
            return text
    return None


# ----------------------------------------------------------------------------- matching

def _matching(question, doc: YamlDocument) -> list[Diagnostic]:
    diags = []
    ids: dict[str, tuple] = {}
    answers: dict[str, tuple] = {}
    prompts: dict[str, int] = {}

    def what(path: tuple) -> str:
        return f"pair {question.pairs[path[1]].id!r}" if path[0] == "pairs" else f"distractor {question.distractors[path[1]].id!r}"

    items = [(("pairs", i), pair.id, pair.answer) for i, pair in enumerate(question.pairs)]
    items += [(("distractors", i), extra.id, extra.text) for i, extra in enumerate(question.distractors)]
    for path, item_id, answer in items:
        if item_id in ids:
            other = ids[item_id]
            diags.append(error("E327", f"id {item_id!r} is used twice (also by {'pair' if other[0] == 'pairs' else 'distractor'} {other[1] + 1}); pair and distractor ids must all differ", doc.locate((*path, "id"))))
        ids.setdefault(item_id, path)
        key = normalized(answer)
        field = "answer" if path[0] == "pairs" else "text"
        if key in answers:
            diags.append(error("E328", f"{what(path)} has the same answer text as {what(answers[key])} ({answer!r}); a learner could not tell which is meant", doc.locate((*path, field))))
        answers.setdefault(key, path)
    for index, pair in enumerate(question.pairs):
        key = normalized(pair.prompt)
        if key in prompts:
            diags.append(error("E329", f"pair {pair.id!r} has the same prompt as pair {question.pairs[prompts[key]].id!r} ({pair.prompt!r})", doc.locate(("pairs", index, "prompt"))))
        prompts.setdefault(key, index)
    return diags


_RULES: dict[str, Callable] = {
    "single-choice": _single_choice,
    "multiple-response": _multiple_response,
    "true-false": _true_false,
    "numerical": _numerical,
    "short-answer": _short_answer,
    "matching": _matching,
}


# ----------------------------------------------------------------------------- translations

def translation_duplicates(question: AnyQuestion, text_of: Callable[[str], str | None]) -> list[tuple[str, str]]:
    """(msgctxt, message) for each translated text that equals another text it must differ from.

    ``text_of(key)`` gives the text of a catalog key (``q001.option.b``) in the language, or
    None when it is not translated (then the English counts, as an export would show it). Each
    finding names the later key, whose msgstr is where it is located. A short answer's
    translation may hold several spellings, one per line: each counts, and a repeated spelling
    is a duplicate too."""
    qid = question.id

    def text(key: str, english: str) -> tuple[str, bool]:
        found = text_of(f"{qid}.{key}")
        return (found, True) if found is not None else (english, False)

    groups: list[tuple[str, list[tuple[str, str]], Callable[[str], str]]] = []
    if question.kind in OPTION_KINDS:
        groups.append(("option", [(f"option.{o.id}", o.text) for o in question.options], normalized))
    elif question.kind == "matching":
        answers = [(f"pair.{p.id}.answer", p.answer) for p in question.pairs] + [(f"distractor.{d.id}", d.text) for d in question.distractors]
        groups.append(("answer", answers, normalized))
        groups.append(("prompt", [(f"pair.{p.id}.prompt", p.prompt) for p in question.pairs], normalized))
    elif question.kind == "numerical":
        groups.append(("unit", [(f"unit.{i}", u.name) for i, u in enumerate(question.units, 1)], unit_key))
    elif question.kind == "short-answer":
        groups.append(("accepted answer", [(f"answer.{i}", a.text) for i, a in enumerate(question.answers, 1)], lambda t: answer_key(t, question.case_sensitive)))
    found = []
    for what, items, key_of in groups:
        seen: dict[str, tuple[str, str]] = {}
        for key, english in items:
            value, translated = text(key, english)
            spellings = [line.strip() for line in value.split("\n") if line.strip()] if question.kind == "short-answer" else [value]
            for spelling in spellings:
                norm = key_of(spelling)
                if norm in seen and translated:
                    other_key, other_text = seen[norm]
                    where = "in the same entry" if other_key == key else f"as {qid}.{other_key}"
                    found.append((f"{qid}.{key}", f"{qid}.{key}: the {what} {spelling!r} is the same {where} ({other_text!r}); each must differ in this language too"))
                seen.setdefault(norm, (key, spelling))
    return found
