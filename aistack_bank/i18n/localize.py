"""A bank in one language (a :class:`~aistack_bank.model.Library`: every category, every topic and
its questions): every text replaced by its current, non-fuzzy translation.

Exporters only ever see the result; they never read catalogs. An untranslated, fuzzy or
out-of-date entry is an error naming the entries, unless ``allow_fallback`` is set, in which
case that one text stays in English (visibly, never a stale translation).

The localized models are built with ``model_validate``, so every translated text passes the
same field rules as the English (a msgstr of only spaces is "translated" for gettext, but it is
refused here as E510, located at its ``msgstr`` line).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import Diagnostic, Location, error, warning
from .fields import bank_fields, category_key, question_fields, topic_key
from .status import field_states

if TYPE_CHECKING:
    from ..load import BankSource, LibrarySource
    from ..model import Bank, Library
    from .catalog import Catalog


def localize(source: LibrarySource | BankSource, bank: Library | Bank, catalog: Catalog, *, allow_fallback: bool = False, fields=None, untranslated: list | None = None,
             active=None, states: list[str] | None = None, translations: dict[str, str] | None = None):
    """(localized Library (or Bank, for one topic) or None, diagnostics) for ``catalog``'s language
    (``fields``: ``bank_fields(source)``, when the caller has them already). With
    ``untranslated`` (a list), the English text of each field whose entry is not translated
    (:func:`~.status.entry_state`) is appended to it, in the fields' order. ``active`` and
    ``states``: ``catalog.active()`` and :func:`~.status.field_states` of ``fields`` in it, when
    the caller has them (its language's status took them); ``translations``, with ``states``,
    the msgstr of each translated field by its key (:func:`~.status.column_states`)."""
    from ..model import Library

    fields = bank_fields(source) if fields is None else fields
    active = catalog.active() if active is None else active
    if states is None:
        states = field_states(fields, active)
    texts: dict[str, str] = {} if translations is None else translations
    diags: list[Diagnostic] = []
    for field, state in zip(fields, states):
        if state == "translated":
            if translations is None:
                texts[field.key] = active.get(field.key).msgstr
            continue
        entry = active.get(field.key)
        if untranslated is not None:
            untranslated.append(field.text)
        where = Location.of(catalog.path, entry.linenum or 0, 1 if entry.linenum else 0) if entry is not None else Location.of(catalog.path)
        what = "is not translated" if state == "untranslated" else "is fuzzy or out of date with the English"
        if allow_fallback:
            diags.append(warning("W501" if state == "untranslated" else "W502", f"{field.key} {what}; exported in English", where))
        else:
            code = "E504" if state == "fuzzy" else "E509"
            diags.append(error(code, f"{field.key} {what} (use --allow-fallback to export it in English)", where))
    by_question = fields_by_question(fields)
    if isinstance(bank, Library):
        localized, problems = apply_library_texts(bank, texts, catalog.language, fields=by_question)
    else:
        localized, problems = apply_texts(bank, texts, catalog.language, fields=by_question)
    if problems:
        from .locations import msgstr_location

        for key, kind, message in problems:
            entry = active.get(key)
            where = msgstr_location(catalog, entry) if entry is not None else Location.of(catalog.path)
            diags.append(field_rule_error(key, kind, message, where))
    if any(d.severity.value == "error" for d in diags):
        return None, diags
    return localized, diags


def fields_by_question(fields) -> dict[str, list]:
    """Each question's fields (those with a ``question_id``) by its id, in the order of
    ``fields``, as :func:`~.fields.question_fields` gives them: a question's fields, which
    follow one another, taken as one run (:func:`itertools.groupby`), not one by one."""
    from itertools import groupby
    from operator import attrgetter

    by_question: dict[str, list] = {}
    for question_id, run in groupby(fields, attrgetter("question_id")):
        if question_id is not None:
            found = by_question.get(question_id)
            if found is None:
                by_question[question_id] = list(run)
            else:  # (a question's fields apart from one another: the later run after the earlier)
                found.extend(run)
    return by_question


def field_rule_error(key: str, kind: str, message: str, where: Location) -> Diagnostic:
    """E510 for a blank translation, E511 for any other field rule the translation breaks."""
    if kind == "empty_text":
        return error("E510", f"{key}: the translation is empty or only whitespace; translate it, or empty the msgstr to mark it untranslated", where)
    return error("E511", f"{key}: the translation breaks a rule of the field: {message}", where)


def _validated(model, update: dict, key_of, problems: list):
    """``model`` with ``update`` applied through its validators; problems as (key, type, message)."""
    return _validated_data(model, {**model.model_dump(), **update}, key_of, problems)


def _validated_data(model, data: dict, key_of, problems: list):
    """A model of ``model``'s type made from ``data`` through its validators; problems as (key,
    type, message)."""
    from pydantic import ValidationError  # (here: the catalogs' checks import this module and read no model)

    try:
        return type(model).model_validate(data)
    except ValidationError as exc:
        for err in exc.errors():
            problems.append((key_of(err["loc"]), err["type"], err["msg"]))
        return None


def _topic_key(topic_id: str, key_point_ids: list[str]):
    def key_of(loc: tuple) -> str:
        if loc and loc[0] == "key_points" and len(loc) > 1 and isinstance(loc[1], int) and loc[1] < len(key_point_ids):
            return topic_key(topic_id, f"key_point.{key_point_ids[loc[1]]}")
        return topic_key(topic_id, str(loc[0])) if loc else f"topic.{topic_id}"

    return key_of


def _category_key(category_id: str):
    return lambda loc: category_key(category_id)


def _question_key(fields):
    made: list[dict] = []  # (the keys by loc, made for the first problem: most questions have none)

    def key_of(loc: tuple) -> str:
        if not made:
            made.append({field.loc: field.key for field in fields})
        by_loc = made[0]
        for end in range(len(loc), 0, -1):
            if tuple(loc[:end]) in by_loc:
                return by_loc[tuple(loc[:end])]
        question_id = fields[0].question_id
        return f"{question_id}.{loc[0]}" if loc else question_id

    return key_of


def apply_category_texts(category, texts: dict[str, str], problems: list):
    """``category`` with its title translated (None and a problem if the translation breaks a rule)."""
    return _validated(category, {"title": texts.get(category_key(category.id), category.title)}, _category_key(category.id), problems)


def apply_library_texts(library: Library, texts: dict[str, str], language: str, *, fields: dict[str, list] | None = None):
    """(``library`` with every text whose key is in ``texts`` replaced, or None; field-rule problems)
    (``fields``: each question's fields by its id, when the caller has them)."""
    problems: list[tuple[str, str, str]] = []
    categories = {category.id: apply_category_texts(category, texts, problems) for category in library.categories}
    topics = []
    for bank in library.topics:
        localized, more = apply_texts(bank, texts, language, category=categories.get(bank.category.id) or bank.category, fields=fields)
        problems += more
        topics.append(localized)
    if problems:
        return None, problems
    return library.model_copy(update={"categories": tuple(categories[c.id] for c in library.categories), "topics": tuple(topics), "lang": language}), []


_ABSENT = object()

_KINDS: list = []
"""The kinds' ``kind_of``, imported on first use (once, not for each question)."""


def _kind_of(question):
    if not _KINDS:
        from ..kinds import kind_of

        _KINDS.append(kind_of)
    return _KINDS[0](question)


def localize_question(question, texts: dict[str, str], problems: list, fields=None):
    """``question`` with the texts of ``texts`` (msgctxt → msgstr) applied through its validators
    (``fields``: its :func:`~.fields.question_fields`, when the caller has them)."""
    if not fields:
        from pathlib import Path

        fields = question_fields(question, None, Path())
    data = question.model_dump()
    changed = False
    get = texts.get
    for field in fields:
        text = get(field.key, _ABSENT)
        if text is not _ABSENT:
            loc = field.loc
            depth = len(loc)
            if depth == 1:
                data[loc[0]] = text
            elif depth == 3:  # (a list item's text, ``("options", 2, "text")``: every kind's, set here without a call)
                data[loc[0]][loc[1]][loc[2]] = text
            else:
                place = data
                for part in loc[:-1]:
                    place = place[part]
                place[loc[-1]] = text
            changed = True
    if not changed:
        return question
    split = _kind_of(question).split_translation
    if split is not None:
        keys = tuple(data)
        split(data)
        if tuple(data)[:len(keys)] != keys:  # (a key the split dropped is the question's own again, as _validated merges them)
            data = {**question.model_dump(), **data}
    # (``data`` is the question's whole dump with its texts: validated as it is, not merged
    # with a second dump as _validated does)
    return _validated_data(question, data, _question_key(fields), problems)


def apply_texts(bank: Bank, texts: dict[str, str], language: str, *, category=None, fields: dict[str, list] | None = None):
    """(``bank`` with every text whose key is in ``texts`` replaced, or None; field-rule problems).

    Each problem is (msgctxt, pydantic error type, message). ``category`` is the bank's category
    already localized (it is localized here otherwise).
    """
    problems: list[tuple[str, str, str]] = []
    entry = bank.topic
    tid = entry.id
    topic = _validated(entry, {
        "title": texts.get(topic_key(tid, "title"), entry.title),
        "summary": texts.get(topic_key(tid, "summary"), entry.summary),
        "key_points": [{"id": p.id, "text": texts.get(topic_key(tid, f"key_point.{p.id}"), p.text)} for p in entry.key_points],
    }, _topic_key(tid, [p.id for p in entry.key_points]), problems)
    if category is None:
        category = apply_category_texts(bank.category, texts, problems)
    fields = fields or {}
    questions = [localize_question(question, texts, problems, fields.get(question.id)) for question in bank.questions]
    if problems:
        return None, problems
    return bank.model_copy(update={"topic": topic, "category": category, "questions": tuple(questions), "lang": language}), []
