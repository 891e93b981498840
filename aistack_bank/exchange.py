"""The JSON export contract (version 2): a typed model, so its JSON Schema is generated too.

A document holds one topic and its questions (``ExportDocument``), or, for a bank of several
topics, the whole bank: its categories, and its topics in order, each with its questions
(``ExportBankDocument``, since 2.2). Every text is a map from language code to text, with
English always present. Each question names its `kind`, and each kind brings its
own fields (a tagged union on `kind`). The per-language files use the same contract with one
language. Compatible additions raise the minor version; anything else the major version
(the policy is in docs/json-contract.md; tests/test_contract.py enforces it).
"""

from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import BaseModel, ConfigDict, Field

CONTRACT_VERSION = "2.5"

LocalizedText = dict[str, str]


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)  # (the fields' docstrings are read for the schemas only: project/schemas.described)


class ExportedOption(_Frozen):
    id: str = Field(pattern=r"^[a-z]$")
    """Stable option id."""
    text: LocalizedText
    """The option text by language."""
    correct: bool
    """Whether this is a right option."""
    feedback: LocalizedText | None = None
    """Feedback shown when this option is chosen, by language."""


class _ExportedQuestionBase(_Frozen):
    id: str = Field(pattern=r"^q[0-9]{3,}$")
    """Stable question id."""
    stem: LocalizedText
    """The question, by language."""
    explanation: LocalizedText | None = None
    """General feedback (why the key is right), by language; absent when the question has none."""
    tags: list[str]
    """Tags from the topic vocabulary."""
    difficulty: int = Field(ge=1, le=3)
    """1 recall, 2 understanding, 3 calculation."""


class ExportedSingleChoice(_ExportedQuestionBase):
    """One right option among several."""

    kind: Literal["single-choice"]
    """Question kind."""
    options: list[ExportedOption] = Field(min_length=2)
    """Options in authoring order (shuffle them for display)."""
    correct: str
    """Id of the right option."""


class ExportedMultipleResponse(_ExportedQuestionBase):
    """One or more right options, each of which the learner must pick."""

    kind: Literal["multiple-response"]
    """Question kind."""
    options: list[ExportedOption] = Field(min_length=2)
    """Options in authoring order (shuffle them for display)."""
    correct: list[str] = Field(min_length=1)
    """Ids of every right option."""
    scoring: Literal["partial", "all-or-nothing"]
    """`partial`: with k right options each right pick earns 1/k and each wrong pick loses 1/k,
    floored at 0; `all-or-nothing`: 1 only for exactly the right set, else 0."""


class ExportedTrueFalse(_ExportedQuestionBase):
    """A statement (the stem) marked true or false."""

    kind: Literal["true-false"]
    """Question kind."""
    answer: bool
    """Whether the statement is true."""
    feedback_true: LocalizedText | None = None
    """Shown to a learner who answers "true", by language."""
    feedback_false: LocalizedText | None = None
    """Shown to a learner who answers "false", by language."""


class ExportedUnit(_Frozen):
    name: LocalizedText
    """The unit as learners type it, by language."""
    multiplier: float = Field(gt=0)
    """What one of this unit is in the answer's unit (the first unit has 1)."""


class ExportedNearMiss(_Frozen):
    value: float
    """The value the range is centred on, in the answer's unit."""
    tolerance: float = Field(ge=0)
    """Half-width of the range, absolute, in the answer's unit."""
    credit: float = Field(ge=0, lt=1)
    """The fraction of the marks a response in the range earns."""
    feedback: LocalizedText
    """What a learner whose response is in the range is told, by language."""


class ExportedNumerical(_ExportedQuestionBase):
    """A number, right within a tolerance."""

    kind: Literal["numerical"]
    """Question kind."""
    answer: float
    """The right value, in the first unit (or unitless)."""
    tolerance: float = Field(ge=0)
    """As authored: absolute, or a fraction of the answer (see `tolerance_type`)."""
    tolerance_type: Literal["absolute", "relative"]
    """How `tolerance` is meant."""
    absolute_tolerance: float = Field(ge=0)
    """A response r (in the answer's unit) is right when |r − answer| ≤ this."""
    units: list[ExportedUnit]
    """Units a response may be given in; a response without a unit is in the first one (empty: unitless)."""
    near_misses: list[ExportedNearMiss]
    """Ranges for likely mistakes, with partial credit and feedback (the first that holds the response applies)."""


class ExportedAcceptedAnswer(_Frozen):
    text: str
    """An accepted response, in the language it is listed under, in Moodle's syntax: an
    unescaped run of `*` matches any run of characters, `\\*` is a star (docs/json-contract.md
    says how a response is compared)."""
    credit: float = Field(gt=0, le=1)
    """The fraction of the marks it earns."""
    feedback: str | None = None
    """Shown to a learner who gives it."""


class ExportedShortAnswer(_ExportedQuestionBase):
    """A word or short phrase typed by the learner."""

    kind: Literal["short-answer"]
    """Question kind."""
    answers: dict[str, list[ExportedAcceptedAnswer]]
    """Accepted responses by language: a language may accept several spellings of one answer, so
    the lists of two languages need not have the same length."""
    case_sensitive: bool
    """Whether letter case matters (otherwise responses are compared case-insensitively)."""
    fold_diacritics: bool = False
    """Whether diacritics are ignored (`reseau` matches `réseau`)."""


class ExportedPair(_Frozen):
    id: str = Field(pattern=r"^[a-z]$")
    """Stable pair id."""
    prompt: LocalizedText
    """The item to match, by language."""
    answer: LocalizedText
    """The answer it matches, by language."""


class ExportedDistractor(_Frozen):
    id: str = Field(pattern=r"^[a-z]$")
    """Stable id."""
    text: LocalizedText
    """An answer that matches no prompt, by language."""


class ExportedMatching(_ExportedQuestionBase):
    """Each prompt matched with one answer; score = right matches / pairs."""

    kind: Literal["matching"]
    """Question kind."""
    pairs: list[ExportedPair] = Field(min_length=2)
    """Prompt–answer pairs in authoring order (shuffle the answers for display)."""
    distractors: list[ExportedDistractor]
    """Extra answers that match no prompt."""


class ExportedItem(_Frozen):
    id: str = Field(pattern=r"^[a-z]$")
    """Stable item id."""
    text: LocalizedText
    """The item, by language."""


class ExportedOrdering(_ExportedQuestionBase):
    """Items to put in order; score = 1 for exactly the right order, else 0 (since 2.4)."""

    kind: Literal["ordering"]
    """Question kind."""
    items: list[ExportedItem] = Field(min_length=2)
    """The items in their right order (shuffle them for display)."""


class ExportedEssay(_ExportedQuestionBase):
    """A written answer graded by a person: never scored automatically (since 2.4)."""

    kind: Literal["essay"]
    """Question kind."""
    model_answer: LocalizedText | None = None
    """What a good answer says, by language: for graders, and for learners once they have submitted."""
    response_template: LocalizedText | None = None
    """The text the answer box starts with, by language."""


ExportedQuestion = Annotated[
    Union[ExportedSingleChoice, ExportedMultipleResponse, ExportedTrueFalse, ExportedNumerical, ExportedShortAnswer, ExportedMatching, ExportedOrdering, ExportedEssay],
    Field(discriminator="kind"),
]
"""A question of any kind; readers skip kinds they do not know."""


class ExportedTopic(_Frozen):
    id: str
    """Stable topic id."""
    category: LocalizedText
    """The title of the topic's category."""
    title: LocalizedText
    summary: LocalizedText
    key_points: list[LocalizedText]
    tags: dict[str, str]
    """Tag vocabulary (English descriptions)."""
    key_point_ids: list[str] | None = None
    """The stable id of each key point, in the order of `key_points` (since 2.5)."""
    category_id: str | None = None
    """The stable id of the topic's category (`bank/categories.yaml`); since 2.1. Topics of one
    category share it, in every file of the bank."""


class ExportDocument(_Frozen):
    """A bank exported for other tools (`exports/json/aistack*.json`)."""

    model_config = ConfigDict(title="aistack-bank JSON export")
    format: Literal["aistack-bank"] = "aistack-bank"
    """Identifies the contract."""
    version: str = CONTRACT_VERSION
    """Contract version, `major.minor`."""
    languages: list[str] = Field(min_length=1)
    """Languages present in every text map, English first."""
    fallback: list[str] | None = None
    """Where a text is shown in English for want of a translation (a language in progress
    exported with fallback): the JSON Pointer (RFC 6901) of each such text, which stands under
    its language's code (`/questions/2/stem/de`) but is the English text; absent when there is
    none (since 2.5)."""
    topic: ExportedTopic
    questions: list[ExportedQuestion]


class ExportedCategory(_Frozen):
    id: str
    """Stable category id (`bank/categories.yaml`)."""
    title: LocalizedText
    """The category's title, by language."""


class ExportedBankTopic(_Frozen):
    id: str
    """Stable topic id."""
    category_id: str
    """The id of the topic's category, one of the document's `categories`."""
    title: LocalizedText
    summary: LocalizedText
    key_points: list[LocalizedText]
    tags: dict[str, str]
    """Tag vocabulary (English descriptions)."""
    key_point_ids: list[str] | None = None
    """The stable id of each key point, in the order of `key_points` (since 2.5)."""
    questions: list[ExportedQuestion]
    """The topic's questions, in the topic's order (the same records as in the topic's own file)."""


class ExportBankDocument(_Frozen):
    """A whole bank of several topics exported for other tools (`exports/json/bank.json`,
    `bank-<lang>.json`); since 2.2."""

    model_config = ConfigDict(title="aistack-bank JSON export of a whole bank")
    format: Literal["aistack-bank"] = "aistack-bank"
    """Identifies the contract."""
    version: str = CONTRACT_VERSION
    """Contract version, `major.minor`."""
    scope: Literal["bank"] = "bank"
    """A whole bank (a topic's own file has no `scope`)."""
    languages: list[str] = Field(min_length=1)
    """Languages present in every text map, English first."""
    fallback: list[str] | None = None
    """Where a text is shown in English for want of a translation (a language in progress
    exported with fallback): the JSON Pointer (RFC 6901) of each such text, which stands under
    its language's code (`/questions/2/stem/de`) but is the English text; absent when there is
    none (since 2.5)."""
    categories: list[ExportedCategory] = Field(min_length=1)
    """The bank's categories, in the bank's order."""
    topics: list[ExportedBankTopic] = Field(min_length=1)
    """The bank's topics in the bank's order: by the order of their categories, then by topic id."""
