"""true-false: a statement the learner marks true or false."""

from __future__ import annotations

from typing import Literal

from ..errors import Diagnostic, warning
from ._base import Kind, QuestionBase, ResponseError, Text
from ._rules import COMMON_EXAMPLE, normalized


class TrueFalseQuestion(QuestionBase):
    """A statement (the stem) that the learner marks true or false."""

    kind: Literal["true-false"]
    """The question kind."""
    answer: bool
    """Whether the statement is true."""
    feedback_true: Text | None = None
    """Shown to a learner who answers "true"."""
    feedback_false: Text | None = None
    """Shown to a learner who answers "false"."""

    def parse_response(self, text: str) -> bool:
        """``true`` or ``false``."""
        if text not in ("true", "false"):
            raise ResponseError(f"{text!r} is neither true nor false")
        return text == "true"

    def encode_response(self, response) -> str:
        return "true" if response else "false"

    def score(self, response: bool) -> float:
        return 1.0 if response == self.answer else 0.0


def _rules(question: TrueFalseQuestion, doc) -> list[Diagnostic]:
    diags = []
    if question.stem.rstrip().endswith(("?", "？", "؟")):
        diags.append(warning("W324", f"{question.id}: the stem of a true-false question ends with '?'; write it as a statement the learner marks true or false", doc.locate(("stem",))))
    if question.feedback_true is not None and question.feedback_false is not None and normalized(question.feedback_true) == normalized(question.feedback_false):
        diags.append(warning("W325", f"{question.id}: feedback_true and feedback_false are the same text; tell each side why it is right or wrong (or give only the explanation)", doc.locate(("feedback_false",))))
    return diags


def _fields(question, add, checked, base_notes) -> None:
    for side in ("true", "false"):
        text = getattr(question, f"feedback_{side}")
        if text is not None:
            right = "right" if question.answer == (side == "true") else "wrong"
            add(f"feedback.{side}", text, (f"feedback_{side}",), (f"Feedback shown to a learner who answers {side} (the {right} answer).",) + base_notes)


KIND = Kind(
    name="true-false",
    model=TrueFalseQuestion,
    example={
        "id": "q003", "kind": "true-false", "stem": "BF16 keeps the exponent range of FP32.", "answer": True,
        "feedback_true": "Right: both have 8 exponent bits.", "feedback_false": "BF16 keeps all 8 exponent bits of FP32; it drops mantissa bits.",
        "explanation": "BF16 is FP32 with the mantissa cut to 7 bits.", **COMMON_EXAMPLE,
    },
    template=(
        '# A statement (not a question) that the learner marks true or false.\nstem: ""\nanswer: true\n'
        'feedback_true: ""\nfeedback_false: ""\n'
    ),
    fields=_fields,
    rules=_rules,
    stem_note="The statement the learner marks true or false.",
)
