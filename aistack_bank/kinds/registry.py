"""The registry of question kinds: every kind's record, the question union and what asks them.

Read through :mod:`aistack_bank.kinds` (``from .kinds import REGISTRY``), which names the kinds
without importing this module.
"""

from __future__ import annotations

from typing import Annotated, Union

from pydantic import Field

from . import NAMES, essay, matching, multiple_response, numerical, ordering, short_answer, single_choice, true_false
from ._base import (  # noqa: F401 (a_kind: the kinds' names in messages)
    OPTION_ID, QUESTION_ID, SLUG, TAG, VARIABLE, Check, ItemId, ItemIds, Kind, Option, OptionId, QuestionBase, QuestionId, ResponseError,
    Strict, Tag, Text, a_kind, item_id_for, limits, missing_item_id,
)
from ._rules import answer_key, item_id_rules, normalized, stem_giveaway, unit_key
from .essay import EssayQuestion
from .matching import Distractor, MatchingQuestion, MatchPair
from .multiple_response import MultipleResponseQuestion
from .numerical import NumericalQuestion, NumericRange, Unit
from .ordering import OrderingQuestion, OrderItem
from .short_answer import AcceptedAnswer, ShortAnswerQuestion
from .single_choice import SingleChoiceQuestion
from .true_false import TrueFalseQuestion

REGISTRY: dict[str, Kind] = {kind.name: kind for kind in (
    single_choice.KIND, multiple_response.KIND, true_false.KIND, numerical.KIND, short_answer.KIND, matching.KIND, ordering.KIND, essay.KIND,
)}
"""Every question kind by name, in the order documentation and statistics list them."""

assert tuple(REGISTRY) == NAMES, "kinds.NAMES must list the registry's kinds in its order"  # noqa: S101

AnyQuestion = Union[SingleChoiceQuestion, MultipleResponseQuestion, TrueFalseQuestion, NumericalQuestion, ShortAnswerQuestion, MatchingQuestion, OrderingQuestion, EssayQuestion]
"""Any question model (the union without the discriminator, for type hints)."""

# A union on `kind`: a file names its kind, and only that kind's fields are allowed.
Question = Annotated[AnyQuestion, Field(discriminator="kind")]

assert tuple(AnyQuestion.__args__) == tuple(kind.model for kind in REGISTRY.values())  # noqa: S101 (one list of kinds)


def kind_of(question) -> Kind:
    """The record of ``question``'s kind."""
    return REGISTRY[question.kind]


def model_error(loc: tuple, err_type: str, data) -> tuple[str, str] | None:
    """(code, message) for a model refusal that concerns a question kind, or None.

    ``loc`` is the field path within the question (union tag removed), ``data`` the file's
    mapping."""
    kind = REGISTRY.get(data.get("kind")) if isinstance(data, dict) and isinstance(data.get("kind"), str) else None
    return kind.model_error(loc, err_type, data) if kind is not None else None


def kind_rules(question, doc) -> list:
    """The rules of ``question``'s kind, located in its file."""
    return kind_of(question).rules(question, doc)


def translation_duplicates(question, text_of) -> list[tuple[str, str]]:
    """(msgctxt, message) for each translated text that equals another text it must differ from.

    ``text_of(key)`` gives the text of a catalog key (``q001.option.b``) in the language, or
    None when it is not translated (then the English counts, as an export would show it). Each
    finding names the later key, whose msgstr is where it is located. A short answer's
    translation may hold several spellings, one per line: each counts, and a repeated spelling
    is a duplicate too."""
    qid = question.id
    kind = kind_of(question)
    found = []
    for what, items, key_of in kind.duplicates(question):
        seen: dict[str, tuple[str, str]] = {}
        for key, english in items:
            value = text_of(f"{qid}.{key}")
            translated = value is not None
            value = value if translated else english
            spellings = [line.strip() for line in value.split("\n") if line.strip()] if kind.multiline_answers else [value]
            for spelling in spellings:
                norm = key_of(spelling)
                if norm in seen and translated:
                    other_key, other_text = seen[norm]
                    where = "in the same entry" if other_key == key else f"as {qid}.{other_key}"
                    found.append((f"{qid}.{key}", f"{qid}.{key}: the {what} {spelling!r} is the same {where} ({other_text!r}); each must differ in this language too"))
                seen.setdefault(norm, (key, spelling))
    return found


def translation_splits(question, text_of) -> list[tuple[str, str]]:
    """(msgctxt, message) for each translated text that differs from a text it is one with in
    English (an answer two matching prompts share): the export in that language would offer two
    answers where English offers one. ``text_of`` as for :func:`translation_duplicates`; a text
    left untranslated is not compared (its missing translation is reported on its own)."""
    qid = question.id
    found = []
    for what, keys in kind_of(question).same(question):
        first = None
        for key in keys:
            value = text_of(f"{qid}.{key}")
            if value is None:
                continue
            if first is None:
                first = (key, value)
            elif value != first[1]:
                found.append((f"{qid}.{key}", f"{qid}.{key}: the {what} {value!r} differs from {qid}.{first[0]} ({first[1]!r}), which is the same {what} in English; "
                                              "translate both exactly alike, or the two prompts no longer share one answer in this language"))
    return found


__all__ = [
    "OPTION_ID", "QUESTION_ID", "REGISTRY", "SLUG", "TAG", "VARIABLE", "AcceptedAnswer", "AnyQuestion", "Check", "Distractor", "EssayQuestion", "ItemId", "ItemIds", "Kind",
    "MatchPair", "MatchingQuestion", "MultipleResponseQuestion", "NumericRange", "NumericalQuestion", "Option", "OptionId", "OrderItem", "OrderingQuestion", "Question",
    "QuestionBase", "QuestionId", "ResponseError", "ShortAnswerQuestion", "SingleChoiceQuestion", "Strict", "Tag", "Text", "TrueFalseQuestion",
    "Unit", "a_kind", "answer_key", "item_id_for", "item_id_rules", "kind_of", "kind_rules", "limits", "missing_item_id", "model_error", "normalized", "stem_giveaway", "translation_duplicates", "translation_splits", "unit_key",
]
