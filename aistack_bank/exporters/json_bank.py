"""Conversion of a bank to the versioned JSON contract of :mod:`aistack_bank.exchange`."""

from __future__ import annotations

from functools import partial
from typing import Sequence

from ..exchange import (
    CONTRACT_VERSION, ExportBankDocument, ExportDocument, ExportedAcceptedAnswer, ExportedBankTopic, ExportedCategory, ExportedDistractor, ExportedMatching, ExportedMultipleResponse, ExportedNearMiss,
    ExportedEssay, ExportedItem, ExportedNumerical, ExportedOption, ExportedOrdering, ExportedPair, ExportedShortAnswer, ExportedSingleChoice, ExportedTopic, ExportedTrueFalse,
    ExportedUnit,
)
from ..model import Bank, Library
from ..options import ExportOptions
from .common import json_utf8
from .record import Format, by_category


def build_document(banks: Sequence[Bank]) -> ExportDocument:
    first = banks[0]

    def texts(get) -> dict[str, str]:
        return {b.lang: get(b) for b in banks}

    topic = ExportedTopic(**_topic_fields(banks, texts))
    questions = [_question(index, q, banks, texts) for index, q in enumerate(first.questions) if FORMAT.carries(q)]
    return ExportDocument(languages=[b.lang for b in banks], topic=topic, questions=questions)


def _topic_fields(banks: Sequence[Bank], texts) -> dict:
    """The fields of the contract's topic (:class:`~aistack_bank.exchange.ExportedTopic`) of
    ``banks``, in its order, as plain data (``category_id`` None when the category has none)."""
    first = banks[0]
    return {"id": first.topic.id, "category": texts(lambda b: b.category.title), "title": texts(lambda b: b.topic.title),
            "summary": texts(lambda b: b.topic.summary),
            "key_points": [texts(lambda b, i=i: b.topic.key_points[i].text) for i in range(len(first.topic.key_points))],
            "tags": dict(first.topic.tags), "key_point_ids": [point.id for point in first.topic.key_points], "category_id": first.category.id}


_HEAD = ("id", "kind", "stem")
_TAIL = ("explanation", "tags", "difficulty")


def _ordered(question: dict) -> dict:
    """A question's fields as readers see them: id, kind, stem, the kind's own fields, then the rest."""
    middle = [key for key in question if key not in _HEAD and key not in _TAIL]
    return {key: question[key] for key in (*_HEAD, *middle, *_TAIL) if key in question}


def _pointer(path: list) -> str:
    """The JSON Pointer (RFC 6901) of ``path``."""
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in path)


def english_fallbacks(data: dict) -> list[str]:
    """The JSON Pointers of the texts of ``data`` (a dumped document) that stand under a
    language's code but are English fallbacks, in document order (none outside a fallback
    export). Tag vocabularies are not texts by language and are skipped."""
    from .common import any_in_english, in_english

    if not any_in_english():  # (no text to find: the document is not walked)
        return []
    languages = set(data.get("languages", ())) - {"en"}
    found: list[str] = []

    def walk(node, path: list, lang: str | None) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "tags" and lang is None:
                    continue
                walk(value, [*path, key], key if lang is None and key in languages else lang)
        elif isinstance(node, list):
            for index, value in enumerate(node):
                walk(value, [*path, index], lang)
        elif isinstance(node, str) and lang is not None and in_english(node, lang):
            found.append(_pointer(path))

    if languages:
        walk(data, [], None)
    return found


def _with_fallbacks(data: dict) -> dict:
    """``data`` with its ``fallback`` list (after ``languages``) when it has English fallbacks."""
    found = english_fallbacks(data)
    if not found:
        return data
    out: dict = {}
    for key, value in data.items():
        out[key] = value
        if key == "languages":
            out["fallback"] = found
    return out


def render_json(document: ExportDocument) -> bytes:
    return json_utf8(_document_data(document))


def _document_data(document: ExportDocument) -> dict:
    """What :func:`render_json` writes of ``document``: its records as plain data (the caller
    that made the document for it alone drops it before encoding)."""
    data = document.model_dump(mode="json", exclude_none=True)
    _order_each(data["questions"])
    return _with_fallbacks(data)


def _order_each(records: list) -> None:
    """Each record of ``records`` in the contract's order, replaced one at a time."""
    for index, record in enumerate(records):
        records[index] = _ordered(record)


def _question(index: int, q, banks: Sequence[Bank], texts):
    """The contract's record of ``q`` (the ``index``-th question), its texts from every bank."""

    def of(b: Bank):
        return b.questions[index]

    def optional(get) -> dict[str, str] | None:
        return texts(lambda b: get(of(b))) if get(q) is not None else None

    group = [(b.lang, b.questions[index]) for b in banks]  # (each language's question, taken once)
    common = {
        "id": q.id, "kind": q.kind, "stem": {lang: x.stem for lang, x in group},
        "explanation": {lang: x.explanation for lang, x in group} if q.explanation is not None else None, "tags": list(q.tags), "difficulty": q.difficulty,
    }
    return FORMAT.writer(q)(q, common, banks, texts, of, optional)


def _choices(q, common, banks, texts, of, optional, *, multi: bool):
    right = set(q.right_ids())
    group = [(b.lang, of(b).options) for b in banks]  # (each language's options, taken once)
    options = [
        ExportedOption(
            id=o.id,
            text={lang: choices[i].text for lang, choices in group},
            correct=o.id in right,
            feedback={lang: choices[i].feedback for lang, choices in group} if o.feedback is not None else None,
        )
        for i, o in enumerate(q.options)
    ]
    if not multi:
        return ExportedSingleChoice(**common, options=options, correct=q.correct)
    return ExportedMultipleResponse(**common, options=options, correct=list(q.correct), scoring=q.scoring)


def _true_false(q, common, banks, texts, of, optional):
    return ExportedTrueFalse(
        **common, answer=q.answer,
        feedback_true=optional(lambda x: x.feedback_true), feedback_false=optional(lambda x: x.feedback_false),
    )


def _numerical(q, common, banks, texts, of, optional):
    return ExportedNumerical(
        **common, answer=q.answer, tolerance=q.tolerance, tolerance_type=q.tolerance_type, absolute_tolerance=float(f"{q.absolute_tolerance:.12g}"),
        units=[ExportedUnit(name=texts(lambda b, i=i: of(b).units[i].name), multiplier=u.multiplier) for i, u in enumerate(q.units)],
        near_misses=[
            ExportedNearMiss(value=m.value, tolerance=m.tolerance, credit=m.credit, feedback=texts(lambda b, i=i: of(b).near_misses[i].feedback))
            for i, m in enumerate(q.near_misses)
        ],
    )


def _short_answer(q, common, banks, texts, of, optional):
    # A translation may accept several spellings of one answer: each language has its own list.
    return ExportedShortAnswer(
        **common, case_sensitive=q.case_sensitive, fold_diacritics=q.fold_diacritics,
        answers={b.lang: [ExportedAcceptedAnswer(text=a.text, credit=a.credit, feedback=a.feedback) for a in of(b).answers] for b in banks},
    )


def _matching(q, common, banks, texts, of, optional):
    return ExportedMatching(
        **common,
        pairs=[
            ExportedPair(id=p.id, prompt=texts(lambda b, i=i: of(b).pairs[i].prompt), answer=texts(lambda b, i=i: of(b).pairs[i].answer))
            for i, p in enumerate(q.pairs)
        ],
        distractors=[ExportedDistractor(id=d.id, text=texts(lambda b, i=i: of(b).distractors[i].text)) for i, d in enumerate(q.distractors)],
    )


def _ordering(q, common, banks, texts, of, optional):
    return ExportedOrdering(**common, items=[ExportedItem(id=item.id, text=texts(lambda b, i=i: of(b).items[i].text)) for i, item in enumerate(q.items)])


def _essay(q, common, banks, texts, of, optional):
    return ExportedEssay(**common, model_answer=optional(lambda x: x.model_answer), response_template=optional(lambda x: x.response_template))


WRITERS = {"single-choice": partial(_choices, multi=False), "multiple-response": partial(_choices, multi=True), "true-false": _true_false,
           "numerical": _numerical, "short-answer": _short_answer, "matching": _matching, "ordering": _ordering, "essay": _essay}
"""The contract's record of a question of each kind."""


def _render(banks: Sequence[Bank], options: ExportOptions) -> bytes:
    data = _plain_document_data(banks)
    if data is None:  # (refused by the contract: the models refuse it again, with their own message)
        data = _document_data(build_document(banks))  # (the document is dropped before the file is encoded)
    return json_utf8(data)


def _plain_document_data(banks: Sequence[Bank]) -> dict | None:
    """What :func:`_document_data` makes of ``build_document(banks)``, made as plain data and
    checked against the contract in one call of its validator, or None when the contract
    refuses it (:func:`_render` then builds the models, whose error says where).

    A record of a choice question or a true/false one is written as the models dump it (each
    of its values is already of the contract's type: a text, a flag, a whole number, lists and
    maps of them; the fields in the contract's order, an absent text left out); a record of
    another kind is its model, dumped. Building the models (a constructor call per option and
    record, each validating its fields), then dumping them, took 0.25 s for a file of 10 000
    questions in French; making the plain data and checking it, 0.18 s."""
    from pydantic import ValidationError

    first = banks[0]
    langs = [b.lang for b in banks]

    def texts(get) -> dict[str, str]:
        return {b.lang: get(b) for b in banks}

    topic = {key: value for key, value in _topic_fields(banks, texts).items() if value is not None}  # (as the model dumps it)
    questions = []
    writers = FORMAT.writers
    for index, q in enumerate(first.questions):
        if q.kind not in writers:
            continue
        plain = _PLAIN.get(q.kind)
        if plain is not None:
            questions.append(plain(q, [(b.lang, b.questions[index]) for b in banks]))
        else:
            questions.append(_ordered(_question(index, q, banks, texts).model_dump(mode="json", exclude_none=True)))
    data = {"format": "aistack-bank", "version": CONTRACT_VERSION, "languages": langs, "topic": topic, "questions": questions}
    try:
        _contract_check().validate_python(data)
    except ValidationError:
        return None
    return _with_fallbacks(data)


_CHECK: list = []
"""The validator :func:`_contract_check` gives, once made."""


def _contract_check():
    """A validator of plain data that accepts exactly what ``ExportDocument``'s does: its
    schema with each model's made a typed dict of the same fields (the same checks, a missing
    field's default, no field beyond them), so that checking a document makes no model (about a
    third of the check's time). ``ExportDocument``'s own validator where that schema cannot be
    made."""
    if not _CHECK:
        try:
            from pydantic_core import SchemaValidator

            check = SchemaValidator(_as_typed_dicts(ExportDocument.__pydantic_core_schema__))
        except Exception:  # (a schema of another pydantic_core's shape: the models' validator checks)
            check = ExportDocument.__pydantic_validator__
        _CHECK.append(check)
    return _CHECK[0]


def _as_typed_dicts(schema):
    """``schema`` (a core schema) with every model's schema replaced by a typed dict's of its fields."""
    if isinstance(schema, list):
        return [_as_typed_dicts(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    if schema.get("type") != "model":
        if str(schema.get("type", "")).startswith("function") and isinstance(schema.get("schema"), dict) and schema["schema"].get("type") == "model":
            raise ValueError("a model's own validator, which would be given a dict")
        return {key: _as_typed_dicts(value) for key, value in schema.items()}
    inner = schema["schema"]
    if schema.get("custom_init") or schema.get("post_init") or schema.get("root_model") or set(schema.get("config", {})) - {"title", "extra_fields_behavior"}:
        raise ValueError(f"a model of another kind: {schema.get('config')}")
    if inner.get("type") != "model-fields" or set(inner) - {"type", "fields", "model_name", "extra_behavior", "computed_fields", "ref", "metadata"} or inner.get("computed_fields"):
        raise ValueError(f"a model schema of another shape: {sorted(inner)}")
    fields = {}
    for name, field in inner["fields"].items():
        if set(field) - {"type", "schema", "metadata", "serialization_exclude"} or field.get("type") != "model-field":
            raise ValueError(f"a model field of another shape: {sorted(field)}")
        checked = _as_typed_dicts(field["schema"])
        fields[name] = {"type": "typed-dict-field", "schema": checked, "required": checked.get("type") != "default"}
    typed = {"type": "typed-dict", "fields": fields, "extra_behavior": inner.get("extra_behavior", schema.get("config", {}).get("extra_fields_behavior", "ignore"))}
    if "ref" in schema:
        typed["ref"] = schema["ref"]
    return typed


def _plain_single(q, group: list) -> dict:
    """The dumped record of single-choice question ``q`` (``group``: each language's question),
    in the contract's order (:func:`_ordered`)."""
    return _plain_choices(q, group, {"correct": q.correct}, {q.correct})


def _plain_multiple(q, group: list) -> dict:
    """The dumped record of multiple-response question ``q``, as :func:`_plain_single`."""
    return _plain_choices(q, group, {"correct": list(q.correct), "scoring": q.scoring}, set(q.correct))


def _plain_choices(q, group: list, key: dict, right: set) -> dict:
    """The dumped record of choice question ``q``, its key's fields ``key`` after its options.

    ``right`` holds the ids of its right options (an option is right when its id is in it: what
    ``q.right_ids()`` keeps of the key is the key's ids that are an option's). A file of one
    language, whose question is ``q`` itself, takes each option's texts from the option."""
    options = []
    if len(group) == 1 and group[0][1] is q:
        lang = group[0][0]
        for o in q.options:
            if o.feedback is None:
                options.append({"id": o.id, "text": {lang: o.text}, "correct": o.id in right})
            else:
                options.append({"id": o.id, "text": {lang: o.text}, "correct": o.id in right, "feedback": {lang: o.feedback}})
    else:
        group_options = [(lang, x.options) for lang, x in group]
        for i, o in enumerate(q.options):
            option = {"id": o.id, "text": {lang: choices[i].text for lang, choices in group_options}, "correct": o.id in right}
            if o.feedback is not None:
                option["feedback"] = {lang: choices[i].feedback for lang, choices in group_options}
            options.append(option)
    record = {"id": q.id, "kind": q.kind, "stem": {lang: x.stem for lang, x in group}, "options": options, **key}
    return _plain_tail(q, group, record)


def _plain_true_false(q, group: list) -> dict:
    """The dumped record of true/false question ``q``, as :func:`_plain_choices`."""
    record = {"id": q.id, "kind": q.kind, "stem": {lang: x.stem for lang, x in group}, "answer": q.answer}
    if q.feedback_true is not None:
        record["feedback_true"] = {lang: x.feedback_true for lang, x in group}
    if q.feedback_false is not None:
        record["feedback_false"] = {lang: x.feedback_false for lang, x in group}
    return _plain_tail(q, group, record)


def _plain_tail(q, group: list, record: dict) -> dict:
    """``record`` with the fields every record ends with (:data:`_TAIL`)."""
    if q.explanation is not None:
        record["explanation"] = {lang: x.explanation for lang, x in group}
    record["tags"] = list(q.tags)
    record["difficulty"] = q.difficulty
    return record


_PLAIN = {"single-choice": _plain_single, "multiple-response": _plain_multiple, "true-false": _plain_true_false}
"""The kinds whose records :func:`_plain_document_data` writes as plain data itself."""


def build_bank_document(libraries: Sequence[Library]) -> ExportBankDocument:
    """The whole bank in the languages of ``libraries`` (English first): its categories, then its
    topics category by category, each with the records of its own file."""
    first = libraries[0]
    categories = [ExportedCategory(id=c.id, title={lib.lang: next(x.title for x in lib.categories if x.id == c.id) for lib in libraries})
                  for c in first.categories]
    topics = []
    for _, banks in by_category(first):
        for bank in banks:
            document = build_document([lib.bank(bank.topic.id) for lib in libraries])
            topic = document.topic
            topics.append(ExportedBankTopic(id=topic.id, category_id=bank.category.id, title=topic.title, summary=topic.summary,
                                            key_points=topic.key_points, tags=topic.tags, key_point_ids=topic.key_point_ids, questions=document.questions))
    return ExportBankDocument(languages=[lib.lang for lib in libraries], categories=categories, topics=topics)


def render_bank_json(document: ExportBankDocument) -> bytes:
    return json_utf8(_bank_data(document))


def _bank_data(document: ExportBankDocument) -> dict:
    """What :func:`render_bank_json` writes of ``document``, as :func:`_document_data`."""
    data = document.model_dump(mode="json", exclude_none=True)
    for topic in data["topics"]:
        _order_each(topic["questions"])
    return _with_fallbacks(data)


def _render_bank(libraries: Sequence[Library], options: ExportOptions) -> bytes:
    data = _bank_data(build_bank_document(libraries))  # (the document is dropped before the file is encoded)
    return json_utf8(data)


FORMAT = Format(
    name="json", folder="json", honours=frozenset(), writers=WRITERS,
    render=_render, per_language="{stem}-{lang}.json", multilingual="{stem}.json", multilingual_with_one_language=True,
    render_bank=_render_bank,
    platforms='Other tools and scripts: every text in every language, as described in `docs/json-contract.md` of aistack-bank.',
    loses='Nothing.',
)
"""One file per topic and language and one of every language (``<stem>.json``); with several
topics, each topic's under ``<topic-id>/``, and the whole bank as ``bank-<lang>.json`` and
``bank.json``."""
export = FORMAT
