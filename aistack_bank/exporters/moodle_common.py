"""What Moodle's question types make of each kind: grades, answers and units, shared by the
Moodle XML and GIFT exporters, and the warnings for what Moodle cannot carry exactly.

Moodle accepts only the grades of ``question_bank::fraction_options_full()``
(:data:`~.common.MOODLE_FRACTIONS`); every grade written here is one of them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Sequence

from ..errors import Diagnostic, warning
from ..kinds.short_answer import has_wildcard, spellings
from ..model import Bank, MultipleResponseQuestion, NumericalQuestion, ShortAnswerQuestion
from .record import languages
from .common import moodle_fraction


def multiple_response_fractions(q: MultipleResponseQuestion) -> list[float]:
    """Each option's grade: with k right options, a right one 1/k and a wrong one -1/k
    (``partial``) or -1 (``all-or-nothing``: the closest Moodle core has, see
    :func:`notes`); every value is in Moodle's list for k up to 10."""
    keys = q.right_ids()
    right = moodle_fraction(1 / len(keys))[0]
    wrong = -1.0 if q.scoring == "all-or-nothing" else moodle_fraction(-1 / len(keys))[0]
    return [right if o.id in keys else wrong for o in q.options]


def credit(value: float) -> float:
    """A credit (0 to 1) as the nearest grade Moodle accepts (a warning names any that moves)."""
    return moodle_fraction(value)[0]


@dataclass
class ShortAnswer:
    """One accepted answer of a (possibly multilingual) short-answer question in Moodle."""

    text: str
    credit: float
    feedback: dict[str, str] = field(default_factory=dict)
    """Feedback by language, for the languages that accept this text."""


def moodle_answer_text(text: str) -> str:
    """An accepted answer as Moodle's short-answer type matches it: the bank writes answers in
    Moodle's own syntax (``*`` its wildcard, ``\\*`` a star), so the text is kept as it is."""
    return text


def short_answers(questions: Sequence[ShortAnswerQuestion], langs: Sequence[str]) -> list[ShortAnswer]:
    """The accepted answers of every language, English first, each text once (compared as Moodle
    does: ignoring case unless the question is case-sensitive). In a multilingual file a learner
    may therefore type an answer of any of the languages. Moodle compares exactly, so each answer
    comes with the spellings the bank's folding accepts that a learner commonly types (``'`` and
    ``’``, hyphen and space, no diacritics when the question folds them: see
    :func:`~aistack_bank.kinds.short_answer.spellings`), with its credit and feedback."""
    out: dict[str, ShortAnswer] = {}
    for lang, q in zip(langs, questions):
        for answer in q.answers:
            for text in spellings(answer.text, q.fold_diacritics):
                key = text if q.case_sensitive else text.casefold()
                entry = out.setdefault(key, ShortAnswer(text, credit(answer.credit)))
                if answer.feedback is not None and lang not in entry.feedback:
                    entry.feedback[lang] = answer.feedback
    answers = list(out.values())
    # Moodle gives the credit of the first answer that matches, the bank the most among those
    # that match: they agree when no two answers match one response (the texts differ, without
    # wildcards) or when the answers come in order of credit (stable, so the bank's order stays).
    if any(has_wildcard(a.text) for a in answers):
        answers.sort(key=lambda a: -a.credit)
    return answers


def numerical_units(questions: Sequence[NumericalQuestion]) -> list[tuple[str, float]]:
    """(unit name, Moodle multiplier) for every language's units, the answer's unit first.

    Moodle divides a response by its unit's multiplier (``cm`` with base ``m`` is 100), the
    inverse of the bank's multiplier (what one unit is in the answer's unit). Unit names are
    matched exactly and must be unique, so a name two languages share is written once."""
    units: dict[str, float] = {}
    for q in questions:
        for unit in q.units:
            units.setdefault(unit.name, float(f"{1 / unit.multiplier:.12g}"))
    return list(units.items())


def _all_or_nothing(name: str, q) -> list[Diagnostic]:
    if q.scoring != "all-or-nothing":
        return []
    k = len(q.correct)
    return [warning("W655", f"{name}: {q.id} is all-or-nothing, which Moodle core's multiple choice cannot grade: it is exported with "
                            f"each right option at {100 / k:.5g} % and each wrong one at -100 %, so a learner who picks only some of "
                            f"the right options (and no wrong one) earns part of the marks")]


SCORING_NOTES = {"multiple-response": _all_or_nothing}
"""What Moodle grades otherwise than the bank in a question of each kind (W655): ``(format name, question)``."""

CREDITS = {
    "numerical": lambda q, banks, index: [near.credit for near in q.near_misses],
    "short-answer": lambda q, banks, index: [a.credit for bank in banks.values() for a in bank.questions[index].answers],
}
"""The credits a question of each kind gives, which Moodle must accept as a grade (W656):
``(question, the banks by language, its index in them)``."""

GIFT_LOSES = {
    "numerical": lambda q, banks, index: ["its units (a learner types the number alone, in " + q.units[0].name + ")"] if q.units else [],
    "short-answer": lambda q, banks, index: (
        (["case sensitivity (GIFT short answers ignore case)"] if q.case_sensitive else [])
        + (["an accepted answer holding \"->\", which Moodle's GIFT reader takes for a matching question (the question is left out)"]
           if any("->" in a.text for bank in banks.values() for a in bank.questions[index].answers) else [])),
    "essay": lambda q, banks, index: (
        ["its model answer and response template (Moodle's grader information and the answer box's starting text)"]
        if q.model_answer is not None or q.response_template is not None else []),
}
"""What GIFT cannot carry of a question of each kind that Moodle XML carries (W657)."""


def notes(name: str, banks: Mapping[str, Bank], *, gift: bool = False) -> list[Diagnostic]:
    """Warnings naming each question Moodle (or GIFT) cannot carry exactly."""
    out: list[Diagnostic] = []
    if not banks:
        return out
    order = languages(banks)
    for index, q in enumerate(banks[order[0]].questions):
        if q.kind in SCORING_NOTES:
            out += SCORING_NOTES[q.kind](name, q)
        credits = CREDITS[q.kind](q, banks, index) if q.kind in CREDITS else []
        moved = sorted({c for c in credits if not moodle_fraction(c)[1]})
        if moved:
            listed = ", ".join(f"{c:g} as {moodle_fraction(c)[0]:g}" for c in moved)
            out.append(warning("W656", f"{name}: {q.id} has a credit Moodle does not accept (its grades are 100, 90, 83.33333, 80, …, 5 and 0 %): exported {listed}"))
        if not gift:
            continue
        for what in GIFT_LOSES[q.kind](q, banks, index) if q.kind in GIFT_LOSES else []:
            out.append(warning("W657", f"{name}: {q.id}: GIFT cannot carry {what}; use the Moodle XML file for it"))
    return out


GIFT_CANNOT_WRITE = {"short-answer": lambda q: any("->" in a.text for a in q.answers)}
"""Per kind, whether GIFT cannot write a question of it at all (an accepted answer with ``->``,
which Moodle's GIFT reader takes for a matching question)."""


def gift_leaves_out(banks: Mapping[str, Bank]) -> set[str]:
    """Ids of questions GIFT cannot write at all (:data:`GIFT_CANNOT_WRITE`), in any language."""
    return {q.id for bank in banks.values() for q in bank.questions if q.kind in GIFT_CANNOT_WRITE and GIFT_CANNOT_WRITE[q.kind](q)}
