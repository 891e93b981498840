"""What the catalog checks read of a question file, as plain data: no model restored.

A catalog's checks (:mod:`.verify`) read little of each question: its option texts and right
options (the length cue), the texts of its kind that must differ or stay one in every language
(E512, E750), its numeric check's script and the texts it is compared with (its units for a
numerical question), and its translatable fields with the English side of their parity checks.
:func:`catalog_view` takes those from the model once, through the kind API, when the file's own
rules run (``derived["catalog"]`` of its record). A record's stored form holds what its rules
derived (the view, the fields, the parity sides) before the model
(:func:`aistack_bank.cache.questionfiles._dumped`): a catalog worker reads that part and
restores no model (:func:`.verify._read_part`). The checks read a :class:`CatalogQuestion`
whichever way the question came.
"""

from __future__ import annotations

from collections import namedtuple
from functools import lru_cache
from typing import Any

CheckScript = namedtuple("CheckScript", "script variables")
"""A numeric check as :func:`~aistack_bank.rules.checks.check_question` reads it (its ``script``
and ``variables``)."""


def catalog_view(question) -> tuple:
    """What the catalog checks read of ``question`` (a model), as plain data (see
    :class:`CatalogQuestion`): its id and kind; its options as (id, English) and its right
    options' ids when the learner picks among options (else None and ()); its kind's groups of
    texts that must differ in every language and of texts that are one in English (``duplicates``
    and ``same`` of the kind); its numeric check as (script, variables), or None; whether its key
    is a number, whether one option is right, its answers' catalog key (the kind API's
    ``NUMERIC_KEY``, ``ONE_KEY``, ``ANSWER_FIELD``); for a question with a check, the texts a
    check compares with and the right ones (``answer_texts()``, ``right_texts()``) or, with a
    numeric key, its units as (id, name, multiplier); what its translated stem is searched for
    (the kind's ``translated_giveaway``: a function and its plain data) or None; and whether a
    translated answer may list several spellings, one per line (the kind's ``multiline_answers``).
    Nothing of it names a kind's model or its module: a catalog worker imports neither."""
    kind = _kind_of()(question)
    # (tuples of lists made by comprehensions: a generator given to tuple() is resumed once per item)
    options = tuple([(option.id, option.text) for option in question.options]) if question.PICKS_OPTIONS else None
    check = question.check
    numeric = question.NUMERIC_KEY
    answers = rights = units = None
    if check is not None:
        if numeric:
            units = tuple([(unit.id, unit.name, unit.multiplier) for unit in question.units])
        else:
            found = question.answer_texts()
            if found is not None:
                texts = tuple(found[0])
                answers = (options if texts == options else texts, found[1])  # (one tuple kept when they are the options)
                rights = question.right_texts()
                if rights == found[1]:
                    rights = found[1]
    return (question.id, question.kind, options, tuple(question.right_ids()) if options is not None else (),
            tuple([(what, tuple(items), key_of) for what, items, key_of in kind.duplicates(question)]),
            tuple([(what, tuple(keys)) for what, keys in kind.same(question)]),
            None if check is None else (check.script, tuple(check.variables)),
            numeric, question.ONE_KEY, question.ANSWER_FIELD, answers, rights, units,
            None if kind.translated_giveaway is None else kind.translated_giveaway(question), kind.multiline_answers)


@lru_cache(maxsize=None)
def _kind_of():
    """:func:`~aistack_bank.kinds.kind_of`, imported once (a ``from`` import of the kinds' package
    inside :func:`catalog_view` went through importlib's Python code on every question file)."""
    from ..kinds import kind_of

    return kind_of


class CatalogQuestion:
    """A question as the catalog checks read it, from :func:`catalog_view`: the kind API's names
    for what they read (``id``, ``kind``, ``check``, ``NUMERIC_KEY``, ``ONE_KEY``,
    ``ANSWER_FIELD``, ``right_ids()``, ``answer_texts()``, ``right_texts()``, what
    :func:`~aistack_bank.rules.checks.check_question` reads of a question whose key is no
    number), and ``options`` (id, English) or None, ``units`` (id, name, multiplier),
    ``duplicates``, ``same``, ``giveaway`` ((find, data) of the kind's ``translated_giveaway``,
    or None) and ``multiline`` (the kind's ``multiline_answers``)."""

    __slots__ = ("view", "id", "kind", "options", "right", "duplicates", "same", "check", "NUMERIC_KEY", "ONE_KEY", "ANSWER_FIELD", "answers", "rights",
                 "units", "giveaway", "multiline")

    def __init__(self, view: tuple) -> None:
        self.view = view
        (self.id, self.kind, self.options, self.right, self.duplicates, self.same, check, self.NUMERIC_KEY, self.ONE_KEY, self.ANSWER_FIELD,
         self.answers, self.rights, self.units, self.giveaway, self.multiline) = view
        self.check = None if check is None else CheckScript(*check)

    def __reduce__(self):
        return (CatalogQuestion, (self.view,))

    def __eq__(self, other) -> bool:
        return type(other) is CatalogQuestion and other.view == self.view

    __hash__ = None  # (as the models: compared by value)

    def right_ids(self) -> tuple[str, ...]:
        return self.right

    def answer_texts(self) -> tuple[list[tuple[str, str]], frozenset[str]] | None:
        return None if self.answers is None else (list(self.answers[0]), self.answers[1])

    def right_texts(self) -> Any:
        return self.rights


def viewed(qs) -> CatalogQuestion:
    """The :class:`CatalogQuestion` of a read question file with a model: its record's
    ``question`` when that is one already, else made from the view its rules derived, else
    from its model."""
    question = qs.question
    if type(question) is CatalogQuestion:
        return question
    view = qs.derived.get("catalog")
    return CatalogQuestion(view if view is not None else catalog_view(question))
