"""The registry of question kinds: every kind's record, the question union and what asks them.

Read through :mod:`aistack_bank.kinds` (``from .kinds import REGISTRY``), which names the kinds
without importing this module. A kind's module (and its model) is imported when its record is
first asked for (``REGISTRY[name]``), so that a command that reads one question file builds
one kind's model; the question union and the models' names import every kind.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from importlib import import_module

from . import NAMES
from ._plain import (  # noqa: F401 (a_kind: the kinds' names in messages)
    OPTION_ID, QUESTION_ID, SLUG, TAG, VARIABLE, ItemIds, Kind, ResponseError, a_kind, blank, item_id_for, limits, missing_item_id, no_items, slug_of,
)
from ._rules import answer_key, item_id_rules, normalized, stem_giveaway, unit_key

_OF_THE_BASE = ("Check", "ItemId", "Option", "OptionId", "QuestionBase", "QuestionId", "Strict", "Tag", "Text")
"""The shared models and text types, read from :mod:`._base` (with pydantic) when first asked
for: what asks only the plain names above (the rules, a catalog's checks) imports no pydantic."""

_MODULES = {name: name.replace("-", "_") for name in NAMES}
"""Each kind's module in this package, by the kind's name (`single-choice`: :mod:`.single_choice`)."""


class _Kinds(Mapping):
    """Every kind's record by name, in the order of :data:`~aistack_bank.kinds.NAMES`; a kind's
    module imported when its record is first asked for (listing the names imports none)."""

    def __init__(self) -> None:
        self._loaded: dict[str, Kind] = {}

    def __getitem__(self, name: str) -> Kind:
        kind = self._loaded.get(name) if isinstance(name, str) else None
        if kind is None:
            if not isinstance(name, str) or name not in _MODULES:
                raise KeyError(name)
            kind = import_module(f"{__package__}.{_MODULES[name]}").KIND
            assert kind.name == name, f"the module of kind {name!r} declares {kind.name!r}"  # noqa: S101
            self._loaded[name] = kind
        return kind

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name in _MODULES

    def __iter__(self) -> Iterator[str]:
        return iter(NAMES)

    def __len__(self) -> int:
        return len(NAMES)

    def __repr__(self) -> str:
        return f"REGISTRY({', '.join(NAMES)})"


REGISTRY: Mapping[str, Kind] = _Kinds()
"""Every question kind by name, in the order documentation and statistics list them."""

_OF_A_KIND = {
    "SingleChoiceQuestion": "single_choice", "MultipleResponseQuestion": "multiple_response", "TrueFalseQuestion": "true_false",
    "NumericalQuestion": "numerical", "NumericRange": "numerical", "Unit": "numerical", "ShortAnswerQuestion": "short_answer",
    "AcceptedAnswer": "short_answer", "MatchingQuestion": "matching", "MatchPair": "matching", "Distractor": "matching",
    "OrderingQuestion": "ordering", "OrderItem": "ordering", "EssayQuestion": "essay",
}
"""The module that declares each model class named here (imported when the name is first read)."""


def _union():
    """(AnyQuestion, Question): the union of every kind's model, and the same on `kind`."""
    from typing import Annotated, Union

    from pydantic import Field

    models = tuple(kind.model for kind in REGISTRY.values())
    any_question = Union[models]  # noqa: UP007 (a union of classes known at run time)
    assert tuple(any_question.__args__) == models  # noqa: S101 (one list of kinds)
    # A union on `kind`: a file names its kind, and only that kind's fields are allowed.
    return any_question, Annotated[any_question, Field(discriminator="kind")]


def __getattr__(name: str):
    """A kind's model class (importing its module), or the question union (importing every kind)."""
    if name in _OF_A_KIND:
        value = getattr(import_module(f"{__package__}.{_OF_A_KIND[name]}"), name)
    elif name in _OF_THE_BASE:
        value = getattr(import_module(f"{__package__}._base"), name)
    elif name in ("AnyQuestion", "Question"):
        any_question, question = _union()
        globals().update(AnyQuestion=any_question, Question=question)
        value = globals()[name]
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


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


def translation_duplicates(question, text_of, groups=None, multiline: bool | None = None) -> list[tuple[str, str]]:
    """(msgctxt, message) for each translated text that equals another text it must differ from.

    ``text_of(key)`` gives the text of a catalog key (``q001.option.b``) in the language, or
    None when it is not translated (then the English counts, as an export would show it). Each
    finding names the later key, whose msgstr is where it is located. A short answer's
    translation may hold several spellings, one per line: each counts, and a repeated spelling
    is a duplicate too. ``groups``: the kind's ``duplicates(question)``, and ``multiline`` its
    ``multiline_answers``, when the caller has them (a question read as plain data:
    :class:`aistack_bank.i18n.catalogview.CatalogQuestion`; with both, the kind's module is not
    imported)."""
    qid = question.id
    if groups is None or multiline is None:
        kind = kind_of(question)
        groups = kind.duplicates(question) if groups is None else groups
        multiline = kind.multiline_answers if multiline is None else multiline
    found = []
    for what, items, key_of in groups:
        seen: dict[str, tuple[str, str]] = {}
        for key, english in items:
            value = text_of(f"{qid}.{key}")
            translated = value is not None
            value = value if translated else english
            spellings = [line.strip() for line in value.split("\n") if line.strip()] if multiline else [value]
            for spelling in spellings:
                norm = key_of(spelling)
                if norm in seen and translated:
                    other_key, other_text = seen[norm]
                    where = "in the same entry" if other_key == key else f"as {qid}.{other_key}"
                    found.append((f"{qid}.{key}", f"{qid}.{key}: the {what} {spelling!r} is the same {where} ({other_text!r}); each must differ in this language too"))
                seen.setdefault(norm, (key, spelling))
    return found


def translation_splits(question, text_of, groups=None) -> list[tuple[str, str]]:
    """(msgctxt, message) for each translated text that differs from a text it is one with in
    English (an answer two matching prompts share): the export in that language would offer two
    answers where English offers one. ``text_of`` as for :func:`translation_duplicates`; a text
    left untranslated is not compared (its missing translation is reported on its own).
    ``groups``: the kind's ``same(question)``, when the caller has them."""
    qid = question.id
    found = []
    for what, keys in kind_of(question).same(question) if groups is None else groups:
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
    "Unit", "a_kind", "answer_key", "blank", "item_id_for", "item_id_rules", "kind_of", "kind_rules", "limits", "missing_item_id", "model_error", "no_items", "normalized", "slug_of", "stem_giveaway", "translation_duplicates", "translation_splits", "unit_key",
]
