"""multiple-response: one or more right options, each of which the learner must pick."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from ..errors import Diagnostic, error, warning
from ._base import Kind, Option, OptionId, QuestionBase, ResponseError
from ._rules import COMMON_EXAMPLE, OPTION_TEMPLATE, option_duplicates, option_fields, option_rules


class MultipleResponseQuestion(QuestionBase):
    """A question with one or more right options, each of which the learner must pick."""

    kind: Literal["multiple-response"]
    """The question kind."""
    options: list[Option] = Field(min_length=2, max_length=10)
    """Two to ten options."""
    correct: list[OptionId] = Field(min_length=1)
    """The ids of every right option (at least one)."""
    scoring: Literal["partial", "all-or-nothing"] = "partial"
    """`partial`: with k right options, each right pick earns 1/k of the marks and each wrong pick
    loses 1/k, floored at 0 (Moodle's usual fractions); `all-or-nothing`: full marks only for
    exactly the right set."""

    PICKS_OPTIONS: ClassVar[bool] = True

    @property
    def correct_options(self) -> list[Option]:
        return [option for option in self.options if option.id in self.correct]

    def choices(self) -> tuple[Option, ...]:
        return tuple(self.options)

    def right_ids(self) -> tuple[str, ...]:
        ids = {option.id for option in self.options}
        return tuple([option_id for option_id in dict.fromkeys(self.correct) if option_id in ids])

    def answer_texts(self):
        return [(o.id, o.text) for o in self.options], frozenset(self.correct)

    def right_texts(self):
        return frozenset(self.correct)

    def parse_response(self, text: str) -> frozenset[str]:
        """The ticked options' ids, ``a,c`` (empty: none ticked)."""
        picked = [part for part in text.split(",") if part]
        ids = {option.id for option in self.options}
        unknown = [p for p in picked if p not in ids]
        if unknown or len(set(picked)) != len(picked):
            raise ResponseError(f"{text!r} is no set of options of {self.id} ({', '.join(o.id for o in self.options)})")
        return frozenset(picked)

    def encode_response(self, response) -> str:
        return ",".join(sorted(response))

    def score(self, response) -> float:
        """``partial``: each right pick 1/k, each wrong pick -1/k, floored at 0;
        ``all-or-nothing``: 1 for exactly the right set."""
        right = set(self.correct)
        hits = len(right & set(response))
        misses = len(set(response) - right)
        if self.scoring == "all-or-nothing":
            return 1.0 if hits == len(right) and not misses else 0.0
        return max(0.0, (hits - misses) / len(right))


def _rules(question: MultipleResponseQuestion, doc) -> list[Diagnostic]:
    diags = option_rules(question, doc)
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


def _fields(question, add, checked, base_notes) -> None:
    option_fields(question, add, checked, base_notes, lambda right: "a correct option" if right else "a wrong option")


def _model_error(loc: tuple, err_type: str, data) -> tuple[str, str] | None:
    if loc == ("correct",) and err_type == "too_short":
        return "E209", "a multiple-response question needs at least one correct option: list their ids in `correct`, e.g. `correct: [a, c]`"
    return None


KIND = Kind(
    name="multiple-response",
    model=MultipleResponseQuestion,
    example={
        "id": "q002", "kind": "multiple-response", "stem": "Which number formats use 16 bits per value?",
        "options": [
            {"id": "a", "text": "FP16"}, {"id": "b", "text": "BF16"},
            {"id": "c", "text": "FP32", "feedback": "FP32 uses 32 bits."}, {"id": "d", "text": "INT8", "feedback": "INT8 uses 8 bits."},
        ],
        "correct": ["a", "b"], "scoring": "partial", "explanation": "FP16 and BF16 both use 16 bits; they split them differently.", **COMMON_EXAMPLE,
    },
    template=(
        'stem: ""\n# Two to ten options; list every right one in `correct`.\noptions:\n'
        + "".join(OPTION_TEMPLATE.format(id=i) for i in "abcd")
        + "correct: [a, b]\n# partial: each right pick earns 1/k, each wrong pick loses 1/k; all-or-nothing: only the exact set.\nscoring: partial\n"
    ),
    fields=_fields,
    rules=_rules,
    duplicates=option_duplicates,
    model_error=_model_error,
)
