"""ordering: items the learner puts in their right order."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ..errors import Diagnostic
from ._base import Kind, OptionId, QuestionBase, ResponseError, Strict, Text, limits
from ._rules import COMMON_EXAMPLE, distinct_rules, normalized


class OrderItem(Strict):
    """One item to put in order."""

    id: OptionId
    """Stable id of the item (`a`, `b`, …); translations and exports are keyed on it."""
    text: Text
    """What the learner reads."""


class OrderingQuestion(QuestionBase):
    """A question where the learner puts items in their right order."""

    kind: Literal["ordering"]
    """The question kind."""
    items: list[OrderItem] = Field(min_length=3, max_length=10)
    """Three to ten items, written in their right order; learners see them shuffled."""

    def parse_response(self, text: str) -> tuple[str, ...]:
        """The items' ids in the order the learner put them, ``c,a,b``."""
        ids = tuple(part for part in text.split(",") if part)
        if sorted(ids) != sorted(item.id for item in self.items):
            raise ResponseError(f"{text!r} is no order of the items of {self.id} ({', '.join(i.id for i in self.items)})")
        return ids

    def encode_response(self, response) -> str:
        return ",".join(response)

    def score(self, response) -> float:
        """All or nothing: 1 for the items in exactly their right order."""
        return 1.0 if tuple(response) == tuple(item.id for item in self.items) else 0.0


def _rules(question: OrderingQuestion, doc) -> list[Diagnostic]:
    """E303 (an item id used twice) and E305 (two items with the same text)."""
    return distinct_rules(question.items, "items", "item", doc, "; a learner could not tell them apart")


def _fields(question, add, checked, base_notes) -> None:
    for index, item in enumerate(question.items):
        add(f"item.{item.id}", item.text, ("items", index, "text"), (f"Ordering: item {item.id}, number {index + 1} in the right order.",) + checked, True)


def _duplicates(question) -> list:
    return [("item", [(f"item.{i.id}", i.text) for i in question.items], normalized)]


MIN_ITEMS, MAX_ITEMS = limits(OrderingQuestion, "items")
"""The fewest and most items an ordering question takes (from the model)."""


def _model_error(loc: tuple, err_type: str, data) -> tuple[str, str] | None:
    if loc == ("items",) and err_type == "too_short":
        return "E209", f"an ordering question needs {MIN_ITEMS} to {MAX_ITEMS} items (for two, ask a single-choice question)"
    if loc == ("items",) and err_type == "too_long":
        return "E209", f"an ordering question has at most {MAX_ITEMS} items; split it into two questions"
    return None


KIND = Kind(
    name="ordering",
    model=OrderingQuestion,
    example={
        "id": "q007", "kind": "ordering", "stem": "Put these memory levels of a GPU in order, from the fastest to the slowest.",
        "items": [{"id": "a", "text": "Registers"}, {"id": "b", "text": "Shared memory"}, {"id": "c", "text": "L2 cache"}, {"id": "d", "text": "HBM"}],
        "explanation": "Each level is larger and slower than the one before it.", **COMMON_EXAMPLE,
    },
    template=(
        'stem: ""\n# Three to ten items, written in their right order (learners see them shuffled).\nitems:\n'
        + "".join(f'  - id: {i}\n    text: ""\n' for i in "abcd")
    ),
    fields=_fields,
    rules=_rules,
    duplicates=_duplicates,
    model_error=_model_error,
)
