"""Helpers the rules of several kinds share: what counts as "the same text", and the rules of
lettered options."""

from __future__ import annotations

import re
import unicodedata

from ..errors import Diagnostic, error


def _folded_latin1(code: int) -> str:
    return unicodedata.normalize("NFKC", chr(code)).casefold()


_PLAIN_LATIN1 = bytes(code for code in range(256) if len(_folded_latin1(code)) == 1 and ord(_folded_latin1(code)) < 256)
"""The Latin-1 characters whose NFKC form case folded is one Latin-1 character (all but
``¨ ¯ ´ µ ¸ ¼ ½ ¾ ß``)."""
_LATIN1_FOLD = bytes(ord(_folded_latin1(code)) if code in _PLAIN_LATIN1 else code for code in range(256))
"""For ``bytes.translate`` of a text of :data:`_PLAIN_LATIN1`'s characters: each replaced by
its NFKC form case folded."""
_NOT_PLAIN_FLAGS = bytes(0 if code in _PLAIN_LATIN1 else 1 for code in range(256))
"""For ``bytes.translate``: 1 for each Latin-1 character not of :data:`_PLAIN_LATIN1`, 0 for
the others (a table without deletions is read as it is, where deleting :data:`_PLAIN_LATIN1`'s
247 bytes built a table of them at every call)."""


def normalized(text: str) -> str:
    """Text as compared for "the same text": NFKC, case folded, whitespace runs as one space.

    The same string as ``" ".join(unicodedata.normalize("NFKC", text).casefold().split())``,
    sooner for most texts: an ASCII text is its own NFKC form and ``casefold`` lowers it as
    ``lower`` does; a text of :data:`_PLAIN_LATIN1`'s characters only (a French option, with its
    accents and no-break spaces) is NFKC-normalized and case folded a character at a time (each
    is a starter whose form is one starter, none of which composes with a neighbour, and case
    folding looks at no neighbour), so through its bytes and one table (:data:`_LATIN1_FOLD`)."""
    if text.isascii():
        return " ".join(text.lower().split())
    try:
        raw = text.encode("latin-1")
    except UnicodeEncodeError:
        raw = None
    if raw is None or 1 in raw.translate(_NOT_PLAIN_FLAGS):
        return " ".join(unicodedata.normalize("NFKC", text).casefold().split())
    return " ".join(raw.translate(_LATIN1_FOLD).decode("latin-1").split())


def answer_key(text: str, case_sensitive: bool) -> str:
    """A short answer as a learner's response is compared with it: whitespace normalised,
    case folded unless the question is case-sensitive."""
    text = " ".join(unicodedata.normalize("NFC", text).split())
    return text if case_sensitive else text.casefold()


def unit_key(name: str) -> str:
    """A unit name as Moodle compares it: every space removed, case kept."""
    return re.sub(r"\s+", "", name)


def item_id_rules(items, field: str, what: str, doc) -> list[Diagnostic]:
    """E372 for each item of the list ``field`` whose id an earlier item holds."""
    diags = []
    seen: dict[str, int] = {}
    for index, item in enumerate(items):
        if item.id in seen:
            diags.append(error("E372", f"{what} {index + 1} has the id {item.id!r} of {what} {seen[item.id] + 1}; each {what}'s id must differ (its translations are keyed on it)", doc.locate((field, index, "id"))))
        seen.setdefault(item.id, index)
    return diags


def distinct_rules(items, field: str, noun: str, doc, why: str = "") -> list[Diagnostic]:
    """E303 (an id used twice in the list ``field``) and E305 (two of its items with the same text,
    ``why`` appended to the message), each located at the item's own value."""
    diags = []
    seen_ids: dict[str, int] = {}
    seen_texts: dict[str, int] = {}
    for index, item in enumerate(items):
        item_id = item.id  # (read once: a model's attribute goes through its __getattr__ hook)
        if item_id in seen_ids:
            diags.append(error("E303", f"{noun} id {item_id!r} is used twice (also {noun} {seen_ids[item_id] + 1})", doc.locate((field, index, "id"))))
        else:
            seen_ids[item_id] = index
        key = normalized(item.text)
        if key in seen_texts:
            diags.append(error("E305", f"{noun} {item_id!r} has the same text as {noun} {items[seen_texts[key]].id!r}{why}", doc.locate((field, index, "text"))))
        else:
            seen_texts[key] = index
    return diags


def option_rules(question, doc) -> list[Diagnostic]:
    """E303 (an option id used twice) and E305 (two options with the same text)."""
    return distinct_rules(question.options, "options", "option", doc)


def option_fields(question, add, checked, base_notes, role_of) -> None:
    """The translatable texts of lettered options: each option and its feedback."""
    right = set(question.right_ids())
    for index, option in enumerate(question.options):
        option_id, feedback = option.id, option.feedback  # (each read once: a model's attribute goes through its __getattr__ hook)
        role = role_of(option_id in right)
        add(f"option.{option_id}", option.text, ("options", index, "text"), (f"Option {option_id} ({role}).",) + checked, True)
        if feedback is not None:
            add(f"option.{option_id}.feedback", feedback, ("options", index, "feedback"), (f"Feedback shown when option {option_id} ({role}) is chosen.",) + base_notes)


def option_duplicates(question) -> list:
    return [("option", [(f"option.{o.id}", o.text) for o in question.options], normalized)]


def stem_giveaway(stem: str, answers: list[str], case_sensitive: bool) -> str | None:
    """The first of ``answers`` (full-credit spellings, three characters or more) that ``stem``
    contains as whole words, or None."""
    stem = answer_key(stem, case_sensitive)
    for text in answers:
        key = answer_key(text, case_sensitive)
        if len(key) >= 3 and re.search(rf"(?<!\w){re.escape(key)}(?!\w)", stem):
            return text
    return None


OPTION_TEMPLATE = """  - id: {id}
    text: ""
    feedback: ""
"""

COMMON_EXAMPLE = {"tags": ["memory"], "difficulty": 2}
