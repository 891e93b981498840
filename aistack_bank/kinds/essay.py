"""essay: a written answer, graded by a person."""

from __future__ import annotations

from typing import ClassVar, Literal

from ..errors import Diagnostic
from ._base import Kind, QuestionBase, Text
from ._rules import COMMON_EXAMPLE


class EssayQuestion(QuestionBase):
    """A question answered in a few sentences or more, graded by a person (never scored automatically)."""

    kind: Literal["essay"]
    """The question kind."""
    model_answer: Text | None = None
    """What a good answer says: for the graders (Moodle's grader information), and shown to
    learners once they have submitted (the practice site)."""
    response_template: Text | None = None
    """Text the answer box starts with (an outline for the learner to fill in)."""

    SCORED: ClassVar[bool] = False


def _rules(question: EssayQuestion, doc) -> list[Diagnostic]:
    return []


def _fields(question, add, checked, base_notes) -> None:
    if question.model_answer is not None:
        add("model_answer", question.model_answer, ("model_answer",), ("Essay: the model answer, for graders and for learners after they submit.",) + checked, True)
    if question.response_template is not None:
        add("response_template", question.response_template, ("response_template",), ("Essay: the text the answer box starts with.",) + base_notes)


KIND = Kind(
    name="essay",
    model=EssayQuestion,
    example={
        "id": "q008", "kind": "essay", "stem": "Explain why decoding one token at a time is limited by memory bandwidth rather than by compute.",
        "model_answer": "Each step reads every weight once to produce one token, so it does about two operations per byte read: far below the ridge point of the roofline.",
        "explanation": "Batching more sequences reuses each weight read for more tokens and raises the arithmetic intensity.", **COMMON_EXAMPLE,
    },
    template=(
        'stem: ""\n# Graded by a person: what a good answer says, for the graders and for learners after they submit.\n'
        'model_answer: ""\n'
    ),
    fields=_fields,
    rules=_rules,
)
