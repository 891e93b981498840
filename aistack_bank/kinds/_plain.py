"""What the question kinds share that is plain Python, without pydantic: the patterns of ids,
the kinds' names in messages, the ids of list items, the scoring helpers and the :class:`Kind`
record. The part of a command that reads no question model (`bank validate` after a catalog
entry is edited) asks these without importing pydantic; :mod:`._base` holds the models."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pydantic import BaseModel

QUESTION_ID = r"^q[0-9]{3,}$"
OPTION_ID = r"^[a-z]$"
TAG = r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$"
SLUG = TAG
VARIABLE = r"^[A-Z]$"
ITEM_ID = r"^[a-z][a-z0-9]{0,9}$"
"""The id of a list item keyed in the catalogs (an accepted answer, a unit, a near miss): a
letter, then up to nine letters or digits (`a1`, `u2`, `n1`)."""


def blank(text: str) -> bool:
    """Whether ``text`` is empty or only whitespace: the one string the model's text type
    (``Text``, :mod:`._base`) refuses."""
    return not text.strip()


def no_items() -> list:
    """A new empty list: the default of a list field (``Field(default_factory=no_items)``). A
    Python function, not the built-in ``list``: pydantic reads a default factory's signature,
    and reading the built-in's parses its text signature (about 15 ms, once per command)."""
    return []


class ResponseError(ValueError):
    """A recorded response that is no response to this question (the message says why)."""


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
    model: type[BaseModel]
    """Its model class (a subclass of :class:`._base.QuestionBase`)."""
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
    group of texts that must differ in every language; ``key_of`` (how two texts are told the
    same) is kept with the question's catalog view in its stored record, so it is a function of a
    module or a value pickle can name (not a lambda, nor a method of the model)."""
    same: Callable[[Any], list] = lambda question: []
    """``same(question)``: (what, [catalog key suffixes]) for each group of texts that are one
    text in English (an answer several matching prompts share) and must stay one in every language."""
    model_error: Callable[[tuple, str, Any], tuple[str, str] | None] = lambda loc, err_type, data: None
    """(code, message) for the model's refusal of a field of the kind, or None (generic)."""
    stem_note: str = "Question stem."
    """The note for translators on its stem."""
    translated_giveaway: Callable[[Any], tuple[Callable[[Any, str, Callable[[str], str | None]], str | None], Any]] | None = None
    """``translated_giveaway(question)``: what its translated stem is searched for (W326), as
    ``(find, data)``: ``find(data, stem, text_of)`` is the answer the translated stem shows, or
    None. Both are kept with the question's catalog view (:mod:`aistack_bank.i18n.catalogview`):
    ``find`` a function of a module that imports no model (a catalog's checks import none),
    ``data`` plain values."""
    split_translation: Callable[[dict], None] | None = None
    """``split_translation(data)``: the question's data (a dict) with its translated texts, made
    into what the model reads (a short answer's translation lists several spellings)."""
    multiline_answers: bool = False
    """Whether a translation of an answer may list several spellings, one per line."""
    item_ids: tuple[ItemIds, ...] = ()
    """Its lists whose items carry ids (keys of their catalog entries); `bank migrate` gives an
    id to each item without one, renaming its positional catalog entries (``answer.2``)."""


def slug_of(filename: str) -> str | None:
    """The slug of a question file name `<id>-<slug>.yaml`, or None if it has another form."""
    found = _FILE_NAME.fullmatch(filename)
    return found.group(1) if found else None


_FILE_NAME = re.compile(r"q[0-9]{3,}-([a-z0-9]+(?:-[a-z0-9]+)*)\.yaml")
"""A question file's name, `<id>-<slug>.yaml` (compiled once: ``re.fullmatch`` looked the
pattern up in the module's cache on every file)."""
