"""How a short answer compares texts, without its model: the folding rule (:func:`fold`), the
value a question's catalog view keeps of it (:class:`Folded`) and the search of a translated
stem for an accepted answer (:func:`answers_giveaway`). A catalog's checks read these from a
question's view; this module imports no pydantic and no kind's model."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from ._rules import stem_giveaway

# The folding rule: how a typed response and an accepted answer are compared. The practice site
# (exporters/site/practice.js, ``foldTyped``) mirrors it; tests/data/short-answer-folding.json
# runs the same cases through both.
APOSTROPHES = "'\u2018\u2019\u201b\u02bc\u02b9\u2032\u00b4\u0060\uff07"
"""Characters typed for an apostrophe or a single quote: each compares as ``'``."""
QUOTES = '"\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb\uff02'
"""Characters typed for a double quote: each compares as ``"``."""
DASHES = "-\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe63\uff0d"
"""Hyphens, dashes and minus signs: each compares as ``-``, and as a space between two letters or digits."""
_FOLD = {ord(c): "'" for c in APOSTROPHES} | {ord(c): '"' for c in QUOTES} | {ord(c): "-" for c in DASHES}
_WORD_HYPHEN = re.compile(r"(?<=[^\W_])-(?=[^\W_])")


def fold(text: str, case_sensitive: bool = False, fold_diacritics: bool = False) -> str:
    """A typed text as it is compared: Unicode NFC; apostrophes and single quotes as ``'``, double
    quotes as ``"``, hyphens and dashes as ``-``, a hyphen between two letters or digits as a
    space; whitespace runs as one space, ends stripped; diacritics dropped when the question
    folds them; case folded (upper then lower case, as the site does) unless case-sensitive."""
    text = unicodedata.normalize("NFC", text).translate(_FOLD)
    text = " ".join(_WORD_HYPHEN.sub(" ", text).split())
    if fold_diacritics:
        text = unicodedata.normalize("NFC", "".join(c for c in unicodedata.normalize("NFD", text) if unicodedata.category(c) != "Mn"))
    return text if case_sensitive else text.upper().lower()


@dataclass(frozen=True)
class Folded:
    """:meth:`~.short_answer.ShortAnswerQuestion.key` as a value (kept with the question's
    catalog view, and equal for equal settings): a text as the question compares it."""

    case_sensitive: bool
    fold_diacritics: bool

    def __call__(self, text: str) -> str:
        return fold(text, self.case_sensitive, self.fold_diacritics)


def answers_giveaway(data: tuple, stem: str, text_of) -> str | None:
    """The full-credit spelling of the language that a translated ``stem`` contains (a
    translation lists several, one per line), or None. ``data``: the question's id, its
    full-credit answers as (id, English) and whether case counts; ``text_of`` as for
    :func:`~.registry.translation_duplicates`."""
    qid, answers, case_sensitive = data
    spellings = [line.strip() for answer_id, english in answers
                 for line in (text_of(f"{qid}.answer.{answer_id}") or english).split("\n") if line.strip()]
    return stem_giveaway(stem, spellings, case_sensitive)
