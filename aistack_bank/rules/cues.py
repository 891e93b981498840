"""Answer cues: how learners could guess the key without knowing the answer.

The one home of the rules "the key is too often at one position" (W301) and "the key is too
often the strictly longest option" (W302), used by `bank validate` on the English texts, by the
catalog checks on each translation, and by `bank stats`.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..errors import Diagnostic, Location, warning

if TYPE_CHECKING:
    from ..model import AnyQuestion

MAX_POSITION_SHARE = 0.35
"""Above this share of the bank on one key position, W301 is reported."""
MAX_LONGEST_SHARE = 1 / 3
"""Above this share of questions whose key is the strictly longest option, W302 is reported."""
MIN_QUESTIONS = 8
"""Below this many questions a share means nothing: no cue warning is reported."""


def keys_are_longest(correct: Collection[str], texts: Mapping[str, str]) -> bool:
    """Whether every option of ``correct`` is strictly longer than every other option of
    ``texts`` (and there is another option): the cue "pick the long ones"."""
    wrong = [len(text) for option_id, text in texts.items() if option_id not in correct]
    return bool(wrong) and min([len(texts[option_id]) for option_id in correct]) > max(wrong)  # (a list: no generator resumed per item)


@dataclass
class AnswerCueStats:
    """How the keys are spread: the figures `bank validate` and `bank stats` report."""

    questions: int = 0
    """Questions of every kind looked at."""
    measured: int = 0
    """Single-choice and multiple-response questions with a valid key: those the shares are of."""
    positions: dict[int, int] = field(default_factory=dict)
    key_longest: int = 0
    keys: int = 0
    """Right options counted (a multiple-response question has several; single-choice one)."""

    @property
    def position_shares(self) -> dict[str, float]:
        return {chr(ord("a") + index): count / self.keys for index, count in sorted(self.positions.items())} if self.keys else {}

    @property
    def longest_share(self) -> float:
        return self.key_longest / self.measured if self.measured else 0.0

    def summary(self) -> str:
        if not self.measured:
            return "no single-choice or multiple-response question, so no key position or length to measure"
        spread = " ".join(f"{letter} {share:.0%}" for letter, share in self.position_shares.items())
        return f"key positions {spread}; key is the longest option in {self.key_longest}/{self.measured} ({self.longest_share:.0%})"


def answer_cue_stats(questions: Iterable[AnyQuestion], texts_of=None) -> AnswerCueStats:
    """Key positions and how often the key is strictly the longest option, over the
    single-choice and multiple-response questions (other kinds have no options to guess among).

    A multiple-response question counts each right option's position, and counts as "longest"
    when its right options are all strictly longer than its wrong ones. ``texts_of(question)``
    gives the option texts to measure ({option id: text}); by default the English texts."""
    return cue_stats(question_cue(question, texts_of) for question in questions)


def question_cue(question: AnyQuestion, texts_of=None) -> tuple[tuple[int, ...], bool] | None:
    """What one question adds to :func:`answer_cue_stats`: the positions of its right options
    and whether they are the strictly longest, or None for a question not measured."""
    if not question.PICKS_OPTIONS:
        return None
    correct = question.right_ids()
    if not correct:
        return None
    ids = [option.id for option in question.options]
    texts = texts_of(question) if texts_of is not None else {option.id: option.text for option in question.options}
    return options_cue(ids, correct, texts)


def options_cue(ids: list[str], correct: Collection[str], texts: Mapping[str, str]) -> tuple[tuple[int, ...], bool]:
    """:func:`question_cue` of a question whose options' ids are ``ids`` (in order), its right
    ones ``correct`` (not empty), and the texts measured ``texts`` ({option id: text})."""
    return tuple([ids.index(option_id) for option_id in correct]), keys_are_longest(correct, texts)


def cue_stats(cues: Iterable[tuple[tuple[int, ...], bool] | None]) -> AnswerCueStats:
    """The figures of :func:`answer_cue_stats` from each question's :func:`question_cue`."""
    stats = AnswerCueStats()
    for cue in cues:
        stats.questions += 1
        if cue is None:
            continue
        positions, longest = cue
        stats.measured += 1
        for position in positions:
            stats.positions[position] = stats.positions.get(position, 0) + 1
            stats.keys += 1
        stats.key_longest += longest
    for position in range(max(stats.positions, default=-1) + 1):
        stats.positions.setdefault(position, 0)
    return stats


def position_warnings(stats: AnswerCueStats, where: Location) -> list[Diagnostic]:
    """W301 for each position that holds too large a share of the keys."""
    if stats.measured < MIN_QUESTIONS:
        return []
    of = "questions" if stats.keys == stats.measured else "correct options"
    return [warning("W301", f"the key is option {letter!r} in {share:.0%} of the {of} (limit {MAX_POSITION_SHARE:.0%}); learners can guess by position", where)
            for letter, share in stats.position_shares.items() if share > MAX_POSITION_SHARE]


def length_warnings(stats: AnswerCueStats, where: Location, language: str | None = None) -> list[Diagnostic]:
    """W302 when the key is too often the strictly longest option (in ``language`` if given)."""
    if stats.measured < MIN_QUESTIONS or stats.longest_share <= MAX_LONGEST_SHARE:
        return []
    if language is None:
        return [warning("W302", f"the key is the longest option in {stats.longest_share:.0%} of the questions (limit {MAX_LONGEST_SHARE:.0%}); learners can guess by length", where)]
    return [warning("W302", f"in {language}, the key is the longest option in {stats.key_longest}/{stats.measured} questions ({stats.longest_share:.0%}, limit {MAX_LONGEST_SHARE:.0%}); learners can guess by length", where)]


def cue_warnings(stats: AnswerCueStats, where: Location) -> list[Diagnostic]:
    """W301 and W302 for the English texts of a bank, at ``where`` (its topic file)."""
    return position_warnings(stats, where) + length_warnings(stats, where)
