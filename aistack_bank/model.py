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
    explanation: Text | None = None
    """General feedback: why the key is right and why the most tempting wrong option is wrong
    (a question without one is valid but `bank validate` warns: imports often lack it)."""
    tags: list[Tag] = Field(min_length=1)
    """Tags from the topic's vocabulary."""
    difficulty: int = Field(ge=1, le=3)
    """1 recall, 2 understanding, 3 calculation or multi-step reasoning."""
    translator_note: Text | None = None
    """A note shown to translators in the catalogs."""
    key_terms: list[Text] = Field(default_factory=list)
    """What gives this question's answer away in another question's words, for the answer-leak
    lint (W322): each entry is terms joined by ` + `, each term words with `|` between
    alternatives and an optional `*` for any ending (`partial result* + split*|slice*`); another
    question's text holding every term of an entry leaks this key. English only, never shown."""
    check: Check | None = None
    """Optional numeric assertion check of the key."""


class SingleChoiceQuestion(_QuestionBase):
    """A question with one right option among several."""

    kind: Literal["single-choice"]
    """The question kind."""
    options: list[Option] = Field(min_length=2, max_length=6)
    """Two to six options."""
    correct: OptionId
    """The id of the one right option."""

    @property
    def correct_option(self) -> Option:
        return next(option for option in self.options if option.id == self.correct)


class MultipleResponseQuestion(_QuestionBase):
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

    @property
    def correct_options(self) -> list[Option]:
        return [option for option in self.options if option.id in self.correct]


class TrueFalseQuestion(_QuestionBase):
    """A statement (the stem) that the learner marks true or false."""

    kind: Literal["true-false"]
    """The question kind."""
    answer: bool
    """Whether the statement is true."""
    feedback_true: Text | None = None
    """Shown to a learner who answers "true"."""
    feedback_false: Text | None = None
    """Shown to a learner who answers "false"."""


class Unit(_Strict):
    """A unit the learner may answer in, and what it is worth in the answer's own unit."""

    name: Annotated[str, Field(min_length=1, max_length=20, pattern=r"^\S(?:.*\S)?$", examples=["GB"])]
    """The unit as learners type it (`GB`); translatable where a language writes it otherwise (`Go`)."""
    multiplier: float = Field(gt=0)
    """What one of this unit is in the answer's unit: with the answer in GB, `MB` has 0.001."""


class NumericRange(_Strict):
    """A range of near misses around a value, with partial credit and feedback."""

    value: float
    """The value the range is centred on (in the answer's unit)."""
    tolerance: float = Field(ge=0)
    """Half-width of the range, absolute, in the answer's unit."""
    credit: float = Field(ge=0, lt=1)
    """The fraction of the marks it earns (0 for a range that only gives feedback)."""
    feedback: Text
    """What the learner who lands in it is told (the likely mistake)."""


class NumericalQuestion(_QuestionBase):
    """A question whose answer is a number, right within a tolerance; its `check` is mandatory."""

    kind: Literal["numerical"]
    """The question kind."""
    answer: float
    """The right value, in the first unit of `units` (or unitless)."""
    tolerance: float = Field(ge=0)
    """How far from `answer` a response is still right: absolute, or a fraction of it (see `tolerance_type`)."""
    tolerance_type: Literal["absolute", "relative"] = "absolute"
    """`absolute`: ±`tolerance`; `relative`: ±`tolerance` × |`answer`| (0.05 for 5 %)."""
    units: list[Unit] = Field(default_factory=list)
    """Units the learner may answer in; the first, with multiplier 1, is the answer's own unit."""
    near_misses: list[NumericRange] = Field(default_factory=list)
    """Ranges for likely mistakes, each with partial credit and feedback."""
    check: Check
    """The assertion check that recomputes the answer (mandatory for numerical questions)."""

    @property
    def absolute_tolerance(self) -> float:
        return self.tolerance if self.tolerance_type == "absolute" else self.tolerance * abs(self.answer)


class AcceptedAnswer(_Strict):
    """A response the question accepts, with its credit."""

    text: Text
    """The accepted response, in the bank's language; translated per language (a learner types their own)."""
    credit: float = Field(default=1.0, gt=0, le=1)
    """The fraction of the marks it earns (1 for a fully right answer)."""
    feedback: Text | None = None
    """Shown to a learner who gives this answer."""


class ShortAnswerQuestion(_QuestionBase):
    """A question answered by typing a word or short phrase."""

    kind: Literal["short-answer"]
    """The question kind."""
    answers: list[AcceptedAnswer] = Field(min_length=1, max_length=20)
    """Accepted answers, at least one with full credit."""
    case_sensitive: bool = False
    """Whether `ONNX` and `onnx` are different answers."""


class MatchPair(_Strict):
    """A prompt and the answer it goes with."""

    id: OptionId
    """Stable id of the pair (`a`, `b`, …); translations and exports are keyed on it."""
    prompt: Text
    """The item on the left."""
    answer: Text
    """The answer on the right that matches it."""


class Distractor(_Strict):
    """An extra answer that matches no prompt."""

    id: OptionId
    """Stable id (distinct from the pairs' ids)."""
    text: Text
    """The answer text."""


class MatchingQuestion(_QuestionBase):
    """A question where each prompt is matched with one answer."""

    kind: Literal["matching"]
    """The question kind."""
    pairs: list[MatchPair] = Field(min_length=2, max_length=12)
    """Two to twelve prompt–answer pairs."""
    distractors: list[Distractor] = Field(default_factory=list)
    """Extra answers that match no prompt."""


KINDS = ("single-choice", "multiple-response", "true-false", "numerical", "short-answer", "matching")
"""Every question kind, in the order documentation and statistics list them."""

AnyQuestion = Union[SingleChoiceQuestion, MultipleResponseQuestion, TrueFalseQuestion, NumericalQuestion, ShortAnswerQuestion, MatchingQuestion]
"""Any question model (the union without the discriminator, for type hints)."""

# A union on `kind`: a file names its kind, and only that kind's fields are allowed.
Question = Annotated[AnyQuestion, Field(discriminator="kind")]


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
    groups: list[QuestionGroup] = Field(default_factory=list)
    """Questions a published stem ties together (one stem states another's answer): the
    answer-leak lint accepts that stem, and the practice site draws at most one of a group
    into a short practice run."""


class Bank(BaseModel):
    """One topic of a bank: the topic, its category and its questions, in the topic's order, in one language."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)
    topic: Topic
    questions: tuple[AnyQuestion, ...]
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


def slug_of(filename: str) -> str | None:
    """The slug of a question file name `<id>-<slug>.yaml`, or None if it has another form."""
    found = re.fullmatch(r"q[0-9]{3,}-([a-z0-9]+(?:-[a-z0-9]+)*)\.yaml", filename)
    return found.group(1) if found else None
