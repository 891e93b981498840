"""single-choice: one right option among several."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from ..errors import Diagnostic, error
from ._base import Kind, Option, OptionId, QuestionBase, ResponseError
from ._rules import COMMON_EXAMPLE, OPTION_TEMPLATE, option_duplicates, option_fields, option_rules


class SingleChoiceQuestion(QuestionBase):
    """A question with one right option among several."""

    kind: Literal["single-choice"]
    """The question kind."""
    options: list[Option] = Field(min_length=2, max_length=6)
    """Two to six options."""
    correct: OptionId
    """The id of the one right option."""

    PICKS_OPTIONS: ClassVar[bool] = True
    ONE_KEY: ClassVar[bool] = True

    @property
    def correct_option(self) -> Option:
        return next(option for option in self.options if option.id == self.correct)

    def choices(self) -> tuple[Option, ...]:
        return tuple(self.options)

    def right_ids(self) -> tuple[str, ...]:
        # (a loop, not any() of a generator: asked four times a question file by its rules)
        correct = self.correct
        for option in self.options:
            if option.id == correct:
                return (correct,)
        return ()

    def answer_texts(self):
        return [(o.id, o.text) for o in self.options], frozenset({self.correct})

    def right_texts(self):
        return frozenset({self.correct})

    def parse_response(self, text: str) -> str:
        """The chosen option's id."""
        if not any(option.id == text for option in self.options):
            raise ResponseError(f"{text!r} is no option of {self.id} ({', '.join(o.id for o in self.options)})")
        return text

    def score(self, response: str) -> float:
        return 1.0 if response == self.correct else 0.0


def _rules(question: SingleChoiceQuestion, doc) -> list[Diagnostic]:
    diags = option_rules(question, doc)
    ids = [option.id for option in question.options]
    if question.correct not in ids:
        diags.append(error("E304", f"correct option {question.correct!r} is not one of the options ({', '.join(ids)})", doc.locate(("correct",))))
    return diags


def _fields(question, add, checked, base_notes) -> None:
    option_fields(question, add, checked, base_notes, lambda right: "the correct option" if right else "a wrong option")


KIND = Kind(
    name="single-choice",
    model=SingleChoiceQuestion,
    example={
        "id": "q001", "kind": "single-choice", "stem": "How many bytes does one FP16 weight take?",
        "options": [
            {"id": "a", "text": "2 bytes", "feedback": "Right: 16 bits are 2 bytes."},
            {"id": "b", "text": "4 bytes", "feedback": "That is FP32."},
            {"id": "c", "text": "1 byte", "feedback": "That is INT8."},
        ],
        "correct": "a", "explanation": "FP16 stores each value in 16 bits, which is 2 bytes.", **COMMON_EXAMPLE,
    },
    template='stem: ""\noptions:\n' + "".join(OPTION_TEMPLATE.format(id=i) for i in "abcd") + "correct: a\n",
    fields=_fields,
    rules=_rules,
    duplicates=option_duplicates,
)
