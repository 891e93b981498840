"""Answer cues: how learners could guess the key without knowing the answer.

The one home of the rules "the key is too often at one position" (W301) and "the key is too
often the strictly longest option" (W302), used by `bank validate` on the English texts, by the
catalog checks on each translation, and by `bank stats`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .errors import Diagnostic, Location, warning

if TYPE_CHECKING:
    from .model import SingleChoiceQuestion

MAX_POSITION_SHARE = 0.35
"""Above this share of the bank on one key position, W301 is reported."""
MAX_LONGEST_SHARE = 1 / 3
"""Above this share of questions whose key is the strictly longest option, W302 is reported."""
MIN_QUESTIONS = 8
"""Below this many questions a share means nothing: no cue warning is reported."""


def key_is_longest(correct: str, texts: Mapping[str, str]) -> bool:
    """Whether the option ``correct`` is strictly longer than every other option of ``texts``."""
    length = len(texts[correct])
    return all(length > len(text) for option_id, text in texts.items() if option_id != correct)


@dataclass
class AnswerCueStats:
    """How the keys are spread: the figures `bank validate` and `bank stats` report."""

    questions: int = 0
    positions: dict[int, int] = field(default_factory=dict)
    key_longest: int = 0

    @property
    def position_shares(self) -> dict[str, float]:
        return {chr(ord("a") + index): count / self.questions for index, count in sorted(self.positions.items())} if self.questions else {}

    @property
    def longest_share(self) -> float:
        return self.key_longest / self.questions if self.questions else 0.0

    def summary(self) -> str:
        spread = " ".join(f"{letter} {share:.0%}" for letter, share in self.position_shares.items())
        return f"key positions {spread}; key is the longest option in {self.key_longest}/{self.questions} ({self.longest_share:.0%})"


def answer_cue_stats(questions: Iterable[SingleChoiceQuestion], texts_of=None) -> AnswerCueStats:
    """Key positions and how often the key is strictly the longest option.

    ``texts_of(question)`` gives the option texts to measure ({option id: text}); by default
    the English texts."""
    stats = AnswerCueStats()
    for question in questions:
        ids = [option.id for option in question.options]
        if question.correct not in ids:
            continue
        stats.questions += 1
        position = ids.index(question.correct)
        stats.positions[position] = stats.positions.get(position, 0) + 1
        texts = texts_of(question) if texts_of is not None else {option.id: option.text for option in question.options}
        stats.key_longest += key_is_longest(question.correct, texts)
    for position in range(max(stats.positions, default=-1) + 1):
        stats.positions.setdefault(position, 0)
    return stats


def position_warnings(stats: AnswerCueStats, where: Location) -> list[Diagnostic]:
    """W301 for each position that holds too large a share of the keys."""
    if stats.questions < MIN_QUESTIONS:
        return []
    return [warning("W301", f"the key is option {letter!r} in {share:.0%} of the questions (limit {MAX_POSITION_SHARE:.0%}); learners can guess by position", where)
            for letter, share in stats.position_shares.items() if share > MAX_POSITION_SHARE]


def length_warnings(stats: AnswerCueStats, where: Location, language: str | None = None) -> list[Diagnostic]:
    """W302 when the key is too often the strictly longest option (in ``language`` if given)."""
    if stats.questions < MIN_QUESTIONS or stats.longest_share <= MAX_LONGEST_SHARE:
        return []
    if language is None:
        return [warning("W302", f"the key is the longest option in {stats.longest_share:.0%} of the questions (limit {MAX_LONGEST_SHARE:.0%}); learners can guess by length", where)]
    return [warning("W302", f"in {language}, the key is the longest option in {stats.key_longest}/{stats.questions} questions ({stats.longest_share:.0%}, limit {MAX_LONGEST_SHARE:.0%}); learners can guess by length", where)]


def cue_warnings(stats: AnswerCueStats, where: Location) -> list[Diagnostic]:
    """W301 and W302 for the English texts of a bank, at ``where`` (its topic file)."""
    return position_warnings(stats, where) + length_warnings(stats, where)
