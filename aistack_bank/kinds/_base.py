"""What every question kind shares: the text types, the fields of every question, and the kind
API every part of the package asks instead of branching on kind names.

A kind module (:mod:`.single_choice`, …) defines its model as a subclass of
:class:`QuestionBase` and overrides the API methods its kind needs: which answers are right
(:meth:`QuestionBase.right_ids`, :meth:`QuestionBase.answer_texts`), how a response is read
(:meth:`QuestionBase.parse_response`) and scored (:meth:`QuestionBase.score`).
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar

from pydantic import AfterValidator, BaseModel, ConfigDict, Field
from pydantic_core import PydanticCustomError

from ._plain import (  # noqa: F401 (the plain part, read from here too)
    ITEM_ID, OPTION_ID, QUESTION_ID, SLUG, TAG, VARIABLE, AddField, ItemIds, Kind, ResponseError, a_kind, blank, finite, item_id_for, limits,
    missing_item_id, no_items, within,
)


def _not_blank(text: str) -> str:
    if blank(text):
        raise PydanticCustomError("empty_text", "text must not be empty or only whitespace")
    return text


Text = Annotated[str, AfterValidator(_not_blank)]
"""Plain Unicode text, never markup; exporters escape it for their format."""

QuestionId = Annotated[str, Field(pattern=QUESTION_ID, examples=["q001"])]
OptionId = Annotated[str, Field(pattern=OPTION_ID, examples=["a"])]
Tag = Annotated[str, Field(pattern=TAG, examples=["memory"])]
ItemId = Annotated[str, Field(pattern=ITEM_ID, examples=["a1"])]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=False)  # (the fields' docstrings are read for the schemas only: project/schemas.described)


class Option(Strict):
    """One answer option."""

    id: OptionId
    """Stable id of the option (`a`, `b`, …); translations and exports are keyed on it."""
    text: Text
    """What the learner reads."""
    feedback: Text | None = None
    """Shown after the learner picks this option: for a wrong option, the misconception behind it."""


class Check(Strict):
    """A numeric assertion check, written in the check language (see bank/README.md)."""

    script: Text
    """Statements that recompute the answer and call `answer(...)` or `answer_formula(...)`."""
    variables: list[Annotated[str, Field(pattern=VARIABLE)]] = Field(default_factory=no_items)
    """Symbols (single capital letters) of a formula answer; the script runs at sample values of them."""


class QuestionBase(Strict):
    id: QuestionId
    """Stable question id (`q` and three or more digits); never reused or renumbered."""
    stem: Text
    """The question itself."""
    explanation: Text | None = None
    """General feedback: why the key is right and why the most tempting wrong option is wrong
    (a question without one is valid but `bank validate` warns: imports often lack it)."""
    tags: list[Tag] = Field(min_length=1)
    """Tags from the topic's vocabulary."""
    difficulty: int = Field(ge=1, le=3)
    """1 recall, 2 understanding, 3 calculation or multi-step reasoning."""
    translator_note: Text | None = None
    """A note shown to translators in the catalogs."""
    key_terms: list[Text] = Field(default_factory=no_items)
    """What gives this question's answer away in another question's words, for the answer-leak
    lint (W322): each entry is terms joined by ` + `, each term words with `|` between
    alternatives and an optional `*` for any ending (`partial result* + split*|slice*`); another
    question's text holding every term of an entry leaks this key. English only, never shown."""
    check: Check | None = None
    """Optional numeric assertion check of the key."""

    # ------------------------------------------------------------------ the kind API

    PICKS_OPTIONS: ClassVar[bool] = False
    """Whether the learner picks among lettered options (answer cues and letter references apply)."""
    ONE_KEY: ClassVar[bool] = False
    """Whether exactly one option is right (a check's value must show in that one option)."""
    NUMERIC_KEY: ClassVar[bool] = False
    """Whether the key is a number (a check's ``answer()`` is compared with it, not with texts)."""
    ANSWER_FIELD: ClassVar[str] = "option"
    """The catalog key of the texts :meth:`answer_texts` gives (``q001.option.a``)."""
    SCORED: ClassVar[bool] = True
    """Whether a response is scored automatically (item statistics need it)."""

    def choices(self) -> tuple[Option, ...]:
        """The options the learner picks among (empty for a kind without options)."""
        return ()

    def right_ids(self) -> tuple[str, ...]:
        """The ids of the right options that exist, each once, in the order `correct` lists them
        (empty for a kind without options)."""
        return ()

    def answer_texts(self) -> tuple[list[tuple[str, str]], frozenset[str]] | None:
        """The texts a check's ``answer()`` is compared with, (id, text), and the ids of the
        right ones; None for a kind whose key is no text."""
        return None

    def right_texts(self) -> frozenset[str] | None:
        """:meth:`answer_texts`'s right ids without reading the texts."""
        found = self.answer_texts()
        return None if found is None else found[1]

    def parse_response(self, text: str) -> Any:
        """A response as the practice site records it (one string for every kind), read back;
        :class:`ResponseError` when it is no response to this question."""
        raise ResponseError(f"{a_kind(self.kind)} question is not scored automatically")

    def score(self, response: Any) -> float:
        """The fraction of the marks (0 to 1) that ``response`` (as :meth:`parse_response`
        returns it) earns, by the rules every format writes."""
        raise ResponseError(f"{a_kind(self.kind)} question is not scored automatically")

    def encode_response(self, response: Any) -> str:
        """``response`` as the practice site records it (the inverse of :meth:`parse_response`)."""
        return str(response)
