"""The typed bank model (pydantic v2) that every other part reads."""

from __future__ import annotations

import re
from typing import Annotated, Literal, Union

from pydantic import AfterValidator, BaseModel, ConfigDict, Field
from pydantic_core import PydanticCustomError

QUESTION_ID = r"^q[0-9]{3,}$"
OPTION_ID = r"^[a-z]$"
TAG = r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$"
SLUG = TAG
VARIABLE = r"^[A-Z]$"


def _not_blank(text: str) -> str:
    if not text.strip():
        raise PydanticCustomError("empty_text", "text must not be empty or only whitespace")
    return text


Text = Annotated[str, AfterValidator(_not_blank)]
"""Plain Unicode text, never markup; exporters escape it for their format."""

QuestionId = Annotated[str, Field(pattern=QUESTION_ID, examples=["q001"])]
OptionId = Annotated[str, Field(pattern=OPTION_ID, examples=["a"])]
Tag = Annotated[str, Field(pattern=TAG, examples=["memory"])]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True, str_strip_whitespace=False)


class Option(_Strict):
    """One answer option."""

    id: OptionId
    """Stable id of the option (`a`, `b`, …); translations and exports are keyed on it."""
    text: Text
    """What the learner reads."""
    feedback: Text | None = None
    """Shown after the learner picks this option: for a wrong option, the misconception behind it."""


class Check(_Strict):
    """A numeric assertion check, written in the check language (see bank/README.md)."""

    script: Text
    """Statements that recompute the answer and call `answer(...)` or `answer_formula(...)`."""
    variables: list[Annotated[str, Field(pattern=VARIABLE)]] = Field(default_factory=list)
    """Symbols (single capital letters) of a formula answer; the script runs at sample values of them."""


class _QuestionBase(_Strict):
    id: QuestionId
    """Stable question id (`q` and three or more digits); never reused or renumbered."""
    stem: Text
    """The question itself."""
    explanation: Text
    """General feedback: why the key is right and why the most tempting wrong option is wrong."""
    tags: list[Tag] = Field(min_length=1)
    """Tags from the topic's vocabulary."""
    difficulty: int = Field(ge=1, le=3)
    """1 recall, 2 understanding, 3 calculation or multi-step reasoning."""
    translator_note: Text | None = None
    """A note shown to translators in the catalogs."""
    check: Check | None = None
    """Optional numeric assertion check of the key."""


class SingleChoiceQuestion(_QuestionBase):
    """A question with one right option among several."""

    kind: Literal["single-choice"]
    """The question kind; `single-choice` is the only kind so far."""
    options: list[Option] = Field(min_length=2, max_length=6)
    """Two to six options."""
    correct: OptionId
    """The id of the one right option."""

    @property
    def correct_option(self) -> Option:
        return next(option for option in self.options if option.id == self.correct)


# A union on `kind`: multiple-choice, true/false and numeric-entry kinds join it as new
# members without changing existing files.
Question = Annotated[Union[SingleChoiceQuestion], Field(discriminator="kind")]


class Category(_Strict):
    """A category of topics (one entry of `bank/categories.yaml`)."""

    id: Annotated[str, Field(pattern=SLUG, examples=["computer-systems"])]
    """Stable category id (lowercase words joined by hyphens); topics name their category by it."""
    title: Text
    """The category title, e.g. `Computer systems`."""


class Categories(_Strict):
    """The categories file (`bank/categories.yaml`): the categories of the topics, in the order learners see them."""

    categories: list[Category] = Field(min_length=1)
    """One entry per category: its id and its title."""


class Topic(_Strict):
    """A topic (`bank/<topic-id>/topic.yaml`): its texts, tag vocabulary and ordered questions."""

    id: Annotated[str, Field(pattern=SLUG)]
    """Stable topic id (lowercase words joined by hyphens); also the name of the topic's folder."""
    file_stem: Annotated[str, Field(pattern=SLUG)] | None = None
    """The start of every export file's name (`<file_stem>-en.xml`); the id when absent."""
    category: Annotated[str, Field(pattern=SLUG, examples=["computer-systems"])]
    """The id of the category the topic belongs to (an id of `bank/categories.yaml`)."""
    title: Text
    """The topic title."""
    summary: Text
    """One-paragraph summary shown under the title."""
    key_points: list[Text] = Field(default_factory=list)
    """Key points, one paragraph each."""
    tags: dict[Annotated[str, Field(pattern=TAG)], Text] = Field(min_length=1)
    """The tag vocabulary: tag → what it is for."""
    questions: list[QuestionId] = Field(default_factory=list)
    """Question ids in the order learners and exports see them (empty for a new topic)."""


class Bank(BaseModel):
    """One topic of a bank: the topic, its category and its questions, in the topic's order, in one language."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)
    topic: Topic
    questions: tuple[SingleChoiceQuestion, ...]
    category: Category
    lang: str = "en"

    def question(self, question_id: str) -> SingleChoiceQuestion:
        return next(question for question in self.questions if question.id == question_id)


class Library(BaseModel):
    """The whole bank in one language: its categories and its topics (each a :class:`Bank`), in order."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)
    categories: tuple[Category, ...]
    topics: tuple[Bank, ...]
    lang: str = "en"

    def category(self, category_id: str) -> Category:
        """The category with this id (KeyError if none)."""
        for category in self.categories:
            if category.id == category_id:
                return category
        raise KeyError(category_id)

    def topics_in(self, category_id: str) -> tuple[Bank, ...]:
        """The topics of one category, in bank order."""
        return tuple(bank for bank in self.topics if bank.topic.category == category_id)

    def bank(self, topic_id: str) -> Bank:
        """The topic with this id (KeyError if none)."""
        for bank in self.topics:
            if bank.topic.id == topic_id:
                return bank
        raise KeyError(topic_id)

    def topic_of(self, question_id: str) -> Bank:
        """The topic that lists this question (KeyError if none)."""
        for bank in self.topics:
            if question_id in bank.topic.questions:
                return bank
        raise KeyError(question_id)

    @property
    def questions(self) -> tuple[SingleChoiceQuestion, ...]:
        """Every question of the bank, topic after topic."""
        return tuple(question for bank in self.topics for question in bank.questions)

    def only(self, topic_id: str) -> "Library":
        """The same library restricted to one topic (and its category)."""
        bank = self.bank(topic_id)
        return Library(categories=(bank.category,), topics=(bank,), lang=self.lang)


def slug_of(filename: str) -> str | None:
    """The slug of a question file name `<id>-<slug>.yaml`, or None if it has another form."""
    found = re.fullmatch(r"q[0-9]{3,}-([a-z0-9]+(?:-[a-z0-9]+)*)\.yaml", filename)
    return found.group(1) if found else None
