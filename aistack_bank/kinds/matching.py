"""matching: each prompt matched with one answer, with extra answers that match none."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ..errors import Diagnostic, error, warning
from ._base import Kind, OptionId, QuestionBase, ResponseError, Strict, Text, limits, no_items
from ._rules import COMMON_EXAMPLE, normalized


class MatchPair(Strict):
    """A prompt and the answer it goes with."""

    id: OptionId
    """Stable id of the pair (`a`, `b`, …); translations and exports are keyed on it."""
    prompt: Text
    """The item on the left."""
    answer: Text
    """The answer on the right that matches it."""


class Distractor(Strict):
    """An extra answer that matches no prompt."""

    id: OptionId
    """Stable id (distinct from the pairs' ids)."""
    text: Text
    """The answer text."""


class MatchingQuestion(QuestionBase):
    """A question where each prompt is matched with one answer. Several prompts may share one
    answer (written exactly the same in each of their pairs): the learner is offered it once."""

    kind: Literal["matching"]
    """The question kind."""
    pairs: list[MatchPair] = Field(min_length=2, max_length=12)
    """Two to twelve prompt–answer pairs."""
    distractors: list[Distractor] = Field(default_factory=no_items)
    """Extra answers that match no prompt."""

    def answer_groups(self) -> dict[str, list[str]]:
        """Each pair's answer text (in file order) → the ids of the pairs holding it, in order."""
        groups: dict[str, list[str]] = {}
        for pair in self.pairs:
            groups.setdefault(pair.answer, []).append(pair.id)
        return groups

    def offered(self) -> list[tuple[str, str]]:
        """(id, text) of each answer the learner picks among, in file order: each pair's answer
        text once (the first pair holding it names it), then the distractors."""
        return [(ids[0], text) for text, ids in self.answer_groups().items()] + [(d.id, d.text) for d in self.distractors]

    def right_answer_id(self, pair_id: str) -> str:
        """The id of the offered answer (:meth:`offered`) that is right for the pair ``pair_id``."""
        return next(ids[0] for ids in self.answer_groups().values() if pair_id in ids)

    def answer_text(self, answer_id: str) -> str | None:
        """The text of the answer with this id (a pair's or a distractor's), or None."""
        for pair in self.pairs:
            if pair.id == answer_id:
                return pair.answer
        return next((d.text for d in self.distractors if d.id == answer_id), None)

    def parse_response(self, text: str) -> dict[str, str | None]:
        """Each prompt's chosen answer, ``a=a;b=d`` (pair id = answer id, empty when none); an
        answer two prompts share may be named by either pair's id."""
        chosen: dict[str, str | None] = {}
        pairs = {pair.id for pair in self.pairs}
        for part in filter(None, text.split(";")):
            prompt, sep, answer = part.partition("=")
            if not sep or prompt not in pairs or prompt in chosen or (answer and self.answer_text(answer) is None):
                raise ResponseError(f"{part!r} matches no prompt of {self.id} with one of its answers")
            chosen[prompt] = answer or None
        return chosen

    def encode_response(self, response) -> str:
        return ";".join(f"{pair.id}={response.get(pair.id) or ''}" for pair in self.pairs)

    def score(self, response) -> float:
        """The share of prompts matched with their answer's text (a shared answer is right for
        each prompt that holds it)."""
        right = sum(self.answer_text(response.get(pair.id) or "") == pair.answer for pair in self.pairs)
        return right / len(self.pairs)


def _rules(question: MatchingQuestion, doc) -> list[Diagnostic]:
    diags = []
    ids: dict[str, tuple] = {}
    answers: dict[str, tuple] = {}
    prompts: dict[str, int] = {}

    def what(path: tuple) -> str:
        return f"pair {question.pairs[path[1]].id!r}" if path[0] == "pairs" else f"distractor {question.distractors[path[1]].id!r}"

    def text_at(path: tuple) -> str:
        return question.pairs[path[1]].answer if path[0] == "pairs" else question.distractors[path[1]].text

    items = [(("pairs", i), pair.id, pair.answer) for i, pair in enumerate(question.pairs)]
    items += [(("distractors", i), extra.id, extra.text) for i, extra in enumerate(question.distractors)]
    for path, item_id, answer in items:
        if item_id in ids:
            other = ids[item_id]
            diags.append(error("E327", f"id {item_id!r} is used twice (also by {'pair' if other[0] == 'pairs' else 'distractor'} {other[1] + 1}); pair and distractor ids must all differ", doc.locate((*path, "id"))))
        ids.setdefault(item_id, path)
        key = normalized(answer)
        field = "answer" if path[0] == "pairs" else "text"
        first = answers.get(key)
        if first is not None and path[0] == "pairs" and text_at(first) == answer:
            pass  # two prompts share one answer: the learner sees it once
        elif first is not None and path[0] == "pairs":
            diags.append(error("E328", f"{what(path)}'s answer {answer!r} differs from {what(first)}'s ({text_at(first)!r}) only in case, spacing or the form of its characters; "
                               "write it exactly the same for the two prompts to share one answer, or make the answers differ", doc.locate((*path, field))))
        elif first is not None:
            diags.append(error("E328", f"{what(path)} has the same text as {what(first)}'s {'answer' if first[0] == 'pairs' else 'text'} ({answer!r}); "
                               "a learner could not tell which is meant (an answer several prompts share is written in each of their pairs)", doc.locate((*path, field))))
        answers.setdefault(key, path)
    if len({pair.answer for pair in question.pairs}) == 1 and not question.distractors:
        diags.append(warning("W752", f"{question.id}: every prompt has the answer {question.pairs[0].answer!r} and there is no distractor, so a learner has one answer "
                                     "to choose; add distractors or give the prompts different answers", doc.locate(("pairs",))))
    for index, pair in enumerate(question.pairs):
        key = normalized(pair.prompt)
        if key in prompts:
            diags.append(error("E329", f"pair {pair.id!r} has the same prompt as pair {question.pairs[prompts[key]].id!r} ({pair.prompt!r}); a learner could not tell the two apart", doc.locate(("pairs", index, "prompt"))))
        prompts.setdefault(key, index)
    return diags


def _shared(question) -> dict[str, str]:
    """The pair id of each pair whose answer an earlier pair holds too → that earlier pair's id."""
    return {pair_id: ids[0] for ids in question.answer_groups().values() for pair_id in ids[1:]}


def _fields(question, add, checked, base_notes) -> None:
    shared = _shared(question)
    for index, pair in enumerate(question.pairs):
        add(f"pair.{pair.id}.prompt", pair.prompt, ("pairs", index, "prompt"), (f"Matching: prompt {pair.id}.",) + checked, True)
        note = f"Matching: the answer that goes with prompt {pair.id}."
        if pair.id in shared:
            note += f" Prompt {shared[pair.id]} shares this answer: translate it exactly as pair.{shared[pair.id]}.answer."
        add(f"pair.{pair.id}.answer", pair.answer, ("pairs", index, "answer"), (note,) + checked, True)
    for index, extra in enumerate(question.distractors):
        add(f"distractor.{extra.id}", extra.text, ("distractors", index, "text"), ("Matching: an extra answer that goes with no prompt.",) + checked, True)


def _duplicates(question) -> list:
    shared = _shared(question)
    answers = [(f"pair.{p.id}.answer", p.answer) for p in question.pairs if p.id not in shared] + [(f"distractor.{d.id}", d.text) for d in question.distractors]
    return [("answer", answers, normalized), ("prompt", [(f"pair.{p.id}.prompt", p.prompt) for p in question.pairs], normalized)]


def _same(question) -> list:
    """Each shared answer's catalog keys: its translations must stay one answer."""
    return [("answer", [f"pair.{pair_id}.answer" for pair_id in ids]) for ids in question.answer_groups().values() if len(ids) > 1]


MIN_PAIRS, MAX_PAIRS = limits(MatchingQuestion, "pairs")
"""The fewest and most pairs a matching question takes (from the model)."""


def _model_error(loc: tuple, err_type: str, data) -> tuple[str, str] | None:
    if loc == ("pairs",) and err_type == "too_short":
        return "E209", f"a matching question needs {MIN_PAIRS} to {MAX_PAIRS} pairs (for one pair, ask a single-choice question)"
    if loc == ("pairs",) and err_type == "too_long":
        return "E209", f"a matching question has at most {MAX_PAIRS} pairs; split it into two questions"
    return None


KIND = Kind(
    name="matching",
    model=MatchingQuestion,
    example={
        "id": "q006", "kind": "matching", "stem": "Match each format with the bits it takes per value.",
        "pairs": [{"id": "a", "prompt": "FP16", "answer": "16 bits"}, {"id": "b", "prompt": "FP32", "answer": "32 bits"}, {"id": "c", "prompt": "INT8", "answer": "8 bits"}],
        "distractors": [{"id": "d", "text": "12 bits"}],
        "explanation": "The number in the name counts the bits of each value.", **COMMON_EXAMPLE,
    },
    template=(
        'stem: ""\n# Two to twelve pairs; distractors are extra answers that match no prompt.\npairs:\n'
        + "".join(f'  - id: {i}\n    prompt: ""\n    answer: ""\n' for i in "abc")
        + "distractors: []\n"
    ),
    fields=_fields,
    rules=_rules,
    duplicates=_duplicates,
    same=_same,
    model_error=_model_error,
)
