"""The typed bank model (pydantic v2) that every other part reads.

The question models are declared in :mod:`aistack_bank.kinds`, one module per kind; this
module names them again and adds the topics, categories and banks that hold them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

from pydantic import BaseModel, ConfigDict, Field, InstanceOf, SerializeAsAny

from .kinds import OPTION_ID, QUESTION_ID, SLUG, TAG, VARIABLE, Check, Option, OptionId, QuestionId, Tag, Text  # noqa: F401 (public names)
from .kinds import NAMES as KINDS  # noqa: F401 (the kinds' names, read as model.KINDS)
from .kinds import Strict as _Strict
from .kinds import ItemId, QuestionBase, no_items
from .kinds import slug_of  # noqa: F401 (public name: a question file name's slug)

if TYPE_CHECKING:  # (read from the kinds when first asked for: see __getattr__ below)
    from .kinds import AnyQuestion

_FROM_THE_KINDS = (
    "AcceptedAnswer", "AnyQuestion", "Distractor", "MatchingQuestion", "MatchPair", "MultipleResponseQuestion", "NumericalQuestion", "NumericRange",
    "Question", "ShortAnswerQuestion", "SingleChoiceQuestion", "TrueFalseQuestion", "Unit",
)
"""The question models' public names read here too (declared once per kind in kinds/), each
read from :mod:`aistack_bank.kinds` when first asked for: the union imports every kind."""


def __getattr__(name: str):
    if name not in _FROM_THE_KINDS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from . import kinds

    value = globals()[name] = getattr(kinds, name)
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_FROM_THE_KINDS})


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


class QuestionGroup(_Strict):
    """Questions of a topic that must not be drawn together (see `Topic.groups`)."""

    questions: list[QuestionId] = Field(min_length=2)
    """Two or more ids of the topic's questions; a question is in at most one group."""
    reason: Text
    """Why they belong together (which stem carries which answer)."""


class KeyPoint(_Strict):
    """One key point of a topic: a paragraph with a stable id."""

    id: Annotated[ItemId, Field(examples=["k1"])]
    """Stable id of the key point (`k1`, `k2`, …; a letter, then up to nine letters or digits):
    its translations are keyed on it, so deleting or reordering key points keeps each
    translation on its key point."""
    text: Text
    """The key point, one paragraph."""


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
    key_points: list[KeyPoint] = Field(default_factory=no_items)
    """Key points, one paragraph each, each with its stable id."""
    tags: dict[Annotated[str, Field(pattern=TAG)], Text] = Field(min_length=1)
    """The tag vocabulary: tag → what it is for."""
    questions: list[QuestionId] = Field(default_factory=no_items)
    """Question ids in the order learners and exports see them (empty for a new topic)."""
    groups: list[QuestionGroup] = Field(default_factory=no_items)
    """Questions a published stem ties together (one stem states another's answer): the
    answer-leak lint accepts that stem, and the practice site draws at most one of a group
    into a short practice run."""


class Bank(BaseModel):
    """One topic of a bank: the topic, its category and its questions, in the topic's order, in one language."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)
    topic: Topic
    questions: tuple[SerializeAsAny[InstanceOf[QuestionBase]], ...]  # question models of any kind, dumped as their own kind dumps them (no kind module imported for it)
    category: Category
    lang: str = "en"

    def question(self, question_id: str) -> AnyQuestion:
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
    def questions(self) -> tuple[AnyQuestion, ...]:
        """Every question of the bank, topic after topic."""
        return tuple(question for bank in self.topics for question in bank.questions)

    def only(self, topic_id: str) -> "Library":
        """The same library restricted to one topic (and its category)."""
        bank = self.bank(topic_id)
        return Library(categories=(bank.category,), topics=(bank,), lang=self.lang)
