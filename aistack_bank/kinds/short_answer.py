"""short-answer: a typed word or short phrase, with accepted answers and their credit."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from ..errors import Diagnostic, error, warning
from ._base import ItemId, ItemIds, Kind, QuestionBase, missing_item_id, Strict, Text, limits, typed_text
from ._rules import COMMON_EXAMPLE, answer_key, stem_giveaway


class AcceptedAnswer(Strict):
    """A response the question accepts, with its credit."""

    id: ItemId
    """Stable id of the answer within its question (`a1`, `a2`, …); its translations are keyed
    on it, so deleting or reordering answers keeps each translation on its answer."""
    text: Text
    """The accepted response, in the bank's language; translated per language (a learner types their own)."""
    credit: float = Field(default=1.0, gt=0, le=1)
    """The fraction of the marks it earns (1 for a fully right answer)."""
    feedback: Text | None = None
    """Shown to a learner who gives this answer."""


class ShortAnswerQuestion(QuestionBase):
    """A question answered by typing a word or short phrase."""

    kind: Literal["short-answer"]
    """The question kind."""
    answers: list[AcceptedAnswer] = Field(min_length=1, max_length=20)
    """Accepted answers, at least one with full credit."""
    case_sensitive: bool = False
    """Whether `ONNX` and `onnx` are different answers."""

    ANSWER_FIELD: ClassVar[str] = "answer"

    def answer_texts(self):
        return [(a.id, a.text) for a in self.answers], self.right_texts()

    def right_texts(self):
        return frozenset(a.id for a in self.answers if a.credit >= 1)

    def parse_response(self, text: str) -> str:
        """The typed text."""
        return text

    def score(self, response: str) -> float:
        """The most credit among the accepted answers the typed text matches (0 if none)."""
        typed = typed_text(response, self.case_sensitive)
        return max((a.credit for a in self.answers if typed_text(a.text, self.case_sensitive) == typed), default=0.0)


def _rules(question: ShortAnswerQuestion, doc) -> list[Diagnostic]:
    diags = []
    if not any(answer.credit >= 1 for answer in question.answers):
        diags.append(error("E325", f"{question.id}: no accepted answer has full credit (credit: 1); a learner could never get full marks", doc.locate(("answers",))))
    seen: dict[str, int] = {}
    ids: dict[str, int] = {}
    for index, answer in enumerate(question.answers):
        if answer.id in ids:
            diags.append(error("E372", f"accepted answer {index + 1} has the id {answer.id!r} of accepted answer {ids[answer.id] + 1}; each answer's id must differ (its translations are keyed on it)", doc.locate(("answers", index, "id"))))
        ids.setdefault(answer.id, index)
        if "\n" in answer.text.strip():
            diags.append(error("E116", f"accepted answer {index + 1} must be one line: a learner types one line (translations list other spellings one per line)", doc.locate(("answers", index, "text"))))
        key = answer_key(answer.text, question.case_sensitive)
        if key in seen:
            how = "" if question.case_sensitive else " (answers are compared ignoring case; set `case_sensitive: true` if case matters)"
            diags.append(error("E326", f"accepted answer {index + 1} {answer.text!r} is the same as accepted answer {seen[key] + 1}{how}", doc.locate(("answers", index, "text"))))
        seen.setdefault(key, index)
    shown = stem_giveaway(question.stem, [a.text for a in question.answers if a.credit >= 1], question.case_sensitive)
    if shown is not None:
        diags.append(warning("W326", f"{question.id}: the stem contains the accepted answer {shown!r}; a learner can copy it", doc.locate(("stem",))))
    return diags


ANSWER_LINES = ("Accepted answer: type it as a learner of your language would. Put each other spelling "
                "that should also be accepted on a line of its own.")


def _fields(question, add, checked, base_notes) -> None:
    for index, answer in enumerate(question.answers):
        credit = "full credit" if answer.credit == 1 else f"{answer.credit:g} of the marks"
        add(f"answer.{answer.id}", answer.text, ("answers", index, "text"), (f"{ANSWER_LINES} ({credit})",) + checked, True)
        if answer.feedback is not None:
            add(f"answer.{answer.id}.feedback", answer.feedback, ("answers", index, "feedback"), (f"Feedback shown to a learner who gives accepted answer {answer.id}.",) + base_notes)


def _duplicates(question) -> list:
    return [("accepted answer", [(f"answer.{a.id}", a.text) for a in question.answers], lambda t: answer_key(t, question.case_sensitive))]


def _model_error(loc: tuple, err_type: str, data) -> tuple[str, str] | None:
    if loc and loc[-1] == "credit" and err_type in ("greater_than_equal", "greater_than", "less_than", "less_than_equal"):
        return "E208", "an accepted answer's credit must be above 0 and at most 1 (1 is full marks)"
    missing = missing_item_id(loc, err_type, "answers", "accepted answer")
    if missing is not None:
        return missing
    if loc == ("answers",) and err_type == "too_short":
        return "E209", "a short-answer question needs at least one accepted answer with full credit"
    return None


def _split_answers(data: dict) -> None:
    """A short answer's translation may list several accepted spellings, one per line."""
    answers = []
    for answer in data["answers"]:
        lines = [line.strip() for line in answer["text"].split("\n")]
        lines = [line for line in lines if line] or [answer["text"]]
        answers += [{**answer, "text": line} for line in lines]
    data["answers"] = answers


def _translated_giveaway(question: ShortAnswerQuestion, stem: str, text_of) -> str | None:
    """The full-credit spelling of the language (a translation lists several, one per line)
    that its translated stem contains."""
    spellings = [line.strip() for a in question.answers if a.credit >= 1
                 for line in (text_of(f"{question.id}.answer.{a.id}") or a.text).split("\n") if line.strip()]
    return stem_giveaway(stem, spellings, question.case_sensitive)


KIND = Kind(
    name="short-answer",
    model=ShortAnswerQuestion,
    example={
        "id": "q005", "kind": "short-answer", "stem": "Which open format exchanges trained models between frameworks?",
        "answers": [{"id": "a1", "text": "ONNX", "feedback": "Right."}, {"id": "a2", "text": "Open Neural Network Exchange"}], "case_sensitive": False,
        "explanation": "ONNX is an open format read by most inference runtimes.", **COMMON_EXAMPLE,
    },
    template=(
        'stem: ""\n# At least one answer with full credit (credit: 1, the default); others may earn less.\n'
        '# Each answer keeps its id (a1, a2, …: translations are keyed on it); a new answer takes a new one.\n'
        'answers:\n  - id: a1\n    text: ""\n    feedback: ""\ncase_sensitive: false\n'
    ),
    fields=_fields,
    rules=_rules,
    duplicates=_duplicates,
    model_error=_model_error,
    translated_giveaway=_translated_giveaway,
    split_translation=_split_answers,
    multiline_answers=True,
    item_ids=(ItemIds("answers", "answer", "a", ("", ".feedback")),),
)

MAX_ANSWERS = limits(ShortAnswerQuestion, "answers")[1]
"""The most accepted answers a question takes (from the model)."""
