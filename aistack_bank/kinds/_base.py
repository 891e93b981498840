"""What every question kind shares: the text types, the fields of every question, and the kind
API every part of the package asks instead of branching on kind names.

A kind module (:mod:`.single_choice`, …) defines its model as a subclass of
:class:`QuestionBase` and overrides the API methods its kind needs: which answers are right
(:meth:`QuestionBase.right_ids`, :meth:`QuestionBase.answer_texts`), how a response is read
(:meth:`QuestionBase.parse_response`) and scored (:meth:`QuestionBase.score`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar

from pydantic import AfterValidator, BaseModel, ConfigDict, Field
from pydantic_core import PydanticCustomError

QUESTION_ID = r"^q[0-9]{3,}$"
OPTION_ID = r"^[a-z]$"
TAG = r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$"
SLUG = TAG
VARIABLE = r"^[A-Z]$"
ITEM_ID = r"^[a-z][a-z0-9]{0,9}$"
"""The id of a list item keyed in the catalogs (an accepted answer, a unit, a near miss): a
letter, then up to nine letters or digits (`a1`, `u2`, `n1`)."""


def _not_blank(text: str) -> str:
    if not text.strip():
        raise PydanticCustomError("empty_text", "text must not be empty or only whitespace")
    return text



def no_items() -> list:
    """A new empty list: the default of a list field (``Field(default_factory=no_items)``). A
    Python function, not the built-in ``list``: pydantic reads a default factory's signature,
    and reading the built-in's parses its text signature (about 15 ms, once per command)."""
    return []


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


class ResponseError(ValueError):
    """A recorded response that is no response to this question (the message says why)."""


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


def a_kind(name: str) -> str:
    """``name`` with its indefinite article, for messages: "a numerical", "an ordering"."""
    return ("an " if name[:1] in "aeiou" else "a ") + name


def within(value: float, target: float, tolerance: float) -> bool:
    """Whether ``value`` lies in ``target`` ± ``tolerance`` (with the practice site's margin
    for float noise)."""
    return abs(value - target) <= tolerance + 1e-9 * max(1.0, abs(target))


def finite(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ResponseError(f"{text!r} is not a number") from None
    if not math.isfinite(value):
        raise ResponseError(f"{text!r} is not a finite number")
    return value


def limits(model: type[BaseModel], field: str) -> tuple[int | None, int | None]:
    """(fewest, most) items the model's ``field`` takes, read from its metadata (None: no limit)."""
    low = high = None
    for item in model.model_fields[field].metadata:
        low = getattr(item, "min_length", low)
        high = getattr(item, "max_length", high)
    return low, high


def item_id_for(prefix: str, position: int, taken) -> str:
    """The id a list item at ``position`` (1-based) gets when it has none: ``<prefix><position>``
    (``a2``), or the next such id no other item of the list holds."""
    number = position
    while f"{prefix}{number}" in taken:
        number += 1
    return f"{prefix}{number}"


@dataclass(frozen=True)
class ItemIds:
    """A list of a kind whose items carry ids that their catalog keys name
    (``q005.answer.a2``), so that deleting or reordering items keeps each translation on its item."""

    field: str
    """The list's field (``answers``)."""
    key: str
    """The catalog key of an item: ``<question id>.<key>.<item id>`` (``answer``)."""
    prefix: str
    """The letter of the ids `bank migrate` and `bank new` give (``a``: ``a1``, ``a2``, …)."""
    suffixes: tuple[str, ...] = ("",)
    """The catalog keys of one item after its id: ``""`` for its text, ``".<field>"`` for each
    other translatable field it may have (``".feedback"``)."""


def missing_item_id(loc: tuple, err_type: str, field: str, what: str) -> tuple[str, str] | None:
    """E371 for an item of the list ``field`` without its id (``what``: "unit"), else None."""
    if len(loc) == 3 and loc[0] == field and loc[2] == "id" and err_type == "missing":
        return "E371", (f"{what} {loc[1] + 1} has no `id:`; it needs one so that each translation stays on its item: "
                        "run `bank migrate`, which gives every item an id and renames its catalog entries")
    return None


AddField = Callable[..., None]
"""``add(key, text, loc, notes, key_bearing=False)``: one translatable field of a question."""


@dataclass(frozen=True)
class Kind:
    """Everything about one question kind that is not about a format."""

    name: str
    """The `kind:` value of a question file."""
    model: type[QuestionBase]
    """Its model class."""
    example: dict
    """A complete question of the kind: the `examples` of its JSON Schema."""
    template: str
    """The body of a new question of the kind (`bank new --kind`), every text left empty."""
    fields: Callable[[Any, AddField, tuple[str, ...], tuple[str, ...]], None]
    """``fields(question, add, checked, base_notes)``: its translatable fields after the stem,
    in file order (``checked`` are the notes of a text a numeric check reads)."""
    rules: Callable[[Any, Any], list]
    """``rules(question, doc)``: the diagnostics of its own rules, located in its file."""
    duplicates: Callable[[Any], list] = lambda question: []
    """``duplicates(question)``: (what, [(catalog key suffix, English text)], key_of) for each
    group of texts that must differ in every language."""
    same: Callable[[Any], list] = lambda question: []
    """``same(question)``: (what, [catalog key suffixes]) for each group of texts that are one
    text in English (an answer several matching prompts share) and must stay one in every language."""
    model_error: Callable[[tuple, str, Any], tuple[str, str] | None] = lambda loc, err_type, data: None
    """(code, message) for the model's refusal of a field of the kind, or None (generic)."""
    stem_note: str = "Question stem."
    """The note for translators on its stem."""
    translated_giveaway: Callable[[Any, str, Callable[[str], str | None]], str | None] | None = None
    """``translated_giveaway(question, stem, text_of)``: the answer a translated stem shows (W326), or None."""
    split_translation: Callable[[dict], None] | None = None
    """``split_translation(data)``: the question's data (a dict) with its translated texts, made
    into what the model reads (a short answer's translation lists several spellings)."""
    multiline_answers: bool = False
    """Whether a translation of an answer may list several spellings, one per line."""
    item_ids: tuple[ItemIds, ...] = ()
    """Its lists whose items carry ids (keys of their catalog entries); `bank migrate` gives an
    id to each item without one, renaming its positional catalog entries (``answer.2``)."""
