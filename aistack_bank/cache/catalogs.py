"""What a catalog's verification depends on, as one key: the per-language verdict cache.

A catalog's translation diagnostics (:func:`.verify.verify_catalog`) depend on the catalog's
bytes and path, on the bank's translatable fields (keys, English texts, notes, where each comes
from), on every question's model (kind, key, credits, units, tolerance, check) and, for those
with a numeric check, the script's place in its file, on the glossary beside the catalogs and on the options. The template's
freshness depends on the template's bytes and the same fields. :func:`inputs_digest` digests
the bank's part once per command; :func:`catalog_key` adds one file's bytes. When a file
cannot be digested (a symbolic link, a special or unreadable file) the key is None and that
verdict is computed afresh every time.
"""

from __future__ import annotations

import hashlib
import marshal
import os
from pathlib import Path
from typing import TYPE_CHECKING

from .store import file_digest, key_of, read_digest
from ..i18n.fields import category_fields, topic_fields
from ..i18n.glossary import GLOSSARY_NAME

if TYPE_CHECKING:
    from ..load import BankSource, LibrarySource
    from ..i18n.fields import TextField


def fields_digest(fields: list[TextField]) -> str:
    digest = hashlib.blake2b(digest_size=20)
    _digest_fields(digest, fields)
    return digest.hexdigest()


def _digest_fields(digest, fields: list[TextField]) -> None:
    digest.update(fields_bytes(fields))


def fields_bytes(fields: list[TextField]) -> bytes:
    """What verification reads of ``fields`` (each one's key, text, file, line, notes, question,
    key-bearing flag and place in its model), as bytes that give back exactly these values:
    marshal's format 2, which writes every value out (no reference from one object to another,
    as its later formats and pickle make for an object met twice), so equal values give equal
    bytes; it is self-delimiting, so what is digested after it cannot pass for part of it.
    Four times faster than the values' ``repr`` (which tests each character of a text for
    printing); a value marshal does not write (not a plain str, int, bool, None or tuple) makes
    the whole list written by ``repr``, behind a marker marshal never writes first."""
    values = [(f.key, f.text, str(f.path), f.line, f.notes, f.question_id, f.key_bearing, f.loc) for f in fields]
    try:
        return marshal.dumps(values, 2)
    except ValueError:
        return b"\0repr\0" + repr(values).encode("utf-8", "surrogateescape")


def model_json_of(model) -> bytes:
    """A model's JSON, as bytes (what :func:`question_inputs` digests, and the file's summary
    keeps a digest of: :attr:`~aistack_bank.load.FileSummary.model`).

    The bytes of ``model.model_dump_json().encode("utf-8", "surrogateescape")``, taken from the
    model's serializer as it writes them: ``model_dump_json`` is that serializer's ``to_json``
    with the same (default) arguments, its UTF-8 bytes decoded into a string, which was encoded
    again here (two passes over some 2 kB a question file)."""
    return model.__pydantic_serializer__.to_json(model)


def question_inputs(qs, fields: list[TextField], model_json: bytes | None = None, model_digest: bytes | None = None) -> bytes:
    """What the verification reads of one question file, digested: its translatable fields
    (``fields``), and its model (kind, key, credits, units, tolerance, case sensitivity, check)
    with, for a numeric check, the script's place in the file. Kept in the file's summary
    (:class:`~aistack_bank.load.FileSummary`), so that :func:`inputs_digest` reads no model.
    ``model_json``: the model's JSON (:func:`model_json_of`), or ``model_digest``: its digest
    (:func:`model_digest_of`, what the summary keeps as :attr:`~aistack_bank.load.FileSummary.model`),
    when the caller has it.

    A question's fields are a function of its model, the file's path and the lines of their
    values (:func:`~aistack_bank.i18n.fields.question_fields`: each one's key, text, notes,
    question, key-bearing flag and place in the model come from the model and the kind, its
    file from the path, its line from the document): with a model, they are digested as the
    model's digest, the path and the fields' lines, which tell two lists of fields apart
    exactly when their values would (``tests/test_question_inputs_derived.py``), instead of
    writing out every value (the texts a second time after the model's JSON, the path once per
    field). Fields whose files are not all that path, or without a model, are digested whole
    (:func:`fields_bytes`), as before."""
    question = qs.question
    digest = hashlib.blake2b(digest_size=20)
    if question is not None and qs.doc is not None and _all_of(fields, qs.path):
        if model_digest is None:
            model_digest = model_digest_of(model_json if model_json is not None else model_json_of(question))
        digest.update(_DERIVED_MARK)
        digest.update(model_digest)
        digest.update(_lines_bytes(str(qs.path), [field.line for field in fields]))
        if question.check is not None:
            digest.update(check_inputs(qs).encode("utf-8", "surrogateescape"))
        return digest.digest()
    _digest_fields(digest, fields)
    digest.update(b"\0model\0")
    if question is not None and qs.doc is not None:
        digest.update(model_json if model_json is not None else model_json_of(question))
        if question.check is not None:
            digest.update(check_inputs(qs).encode("utf-8", "surrogateescape"))
    return digest.digest()


def _all_of(fields: list[TextField], path) -> bool:
    """Whether every one of ``fields`` comes from the file ``path``: a question's fields hold its
    record's path itself, compared as paths only when another object."""
    for field in fields:
        if field.path is not path and field.path != path:
            return False
    return True


_DERIVED_MARK = b"\xffderived\0"
"""What a digest of fields derived from their model starts with (:func:`question_inputs`): a
byte the digest of fields written whole never starts with (marshal's format 2 writes a list
first, its repr fallback a NUL)."""


def _lines_bytes(path: str, lines: list[int]) -> bytes:
    """The path and the fields' lines, self-delimiting (marshal's format 2; a value marshal does
    not write, by its ``repr`` behind a NUL)."""
    try:
        return marshal.dumps((path, lines), 2)
    except ValueError:
        return b"\0repr\0" + repr((path, lines)).encode("utf-8", "surrogateescape")


def model_digest_of(model_json: bytes) -> bytes:
    """The digest of a model's JSON (:func:`model_json_of`) a file's summary keeps
    (:attr:`~aistack_bank.load.FileSummary.model`)."""
    return hashlib.blake2b(model_json, digest_size=20).digest()


def inputs_digest(source: BankSource | LibrarySource, translations: Path, *, run_checks: bool) -> str | None:
    """The bank's share of every catalog's key (None: do not cache this run's verdicts).

    The bank's fields in bank order (:func:`~aistack_bank.i18n.fields.bank_fields`), each
    question's as the digest of :func:`question_inputs` taken from its file's summary
    (:func:`bank_share`), then the options, the catalogs' folder and the glossary
    (:func:`inputs_of`)."""
    return inputs_of(bank_share(source)[0], translations, run_checks=run_checks)


def bank_share(source: BankSource | LibrarySource) -> tuple[str, list[TextField], list[str]]:
    """What every catalog's key takes of the bank's files alone: (the digest of the bank's
    fields in bank order, each question's as the digest of :func:`question_inputs` taken from
    its file's summary; the fields of the categories and topics, in bank order; the ids of the
    questions read with a model, as :func:`~aistack_bank.i18n.verify.verify_catalog` selects
    them). The second and third are what a catalog edited since its latest verification needs
    of the bank when none of its questions' entries changed (see
    :mod:`aistack_bank.cache.validation`)."""
    from ..i18n.fields import question_fields
    from ..load import LibrarySource, ordered_topics

    def question_part(qs) -> bytes:
        if qs.summary is not None:
            return qs.summary.catalog
        known = qs.derived.get("fields")
        return question_inputs(qs, known if known is not None else question_fields(qs.question, qs.doc, qs.path))

    digest = hashlib.blake2b(digest_size=20)
    own: list[TextField] = []
    if isinstance(source, LibrarySource):
        own += category_fields(source.categories, source.categories_doc, source.categories_path)
        _digest_fields(digest, own)
        topics = ordered_topics(source)
    else:
        topics = [source]
    for topic in topics:
        digest.update(b"\0topic\0")
        if topic.topic is not None:
            fields = topic_fields(topic.topic, topic.topic_doc, topic.root / "topic.yaml")
            _digest_fields(digest, fields)
            own += fields
        order = {qid: i for i, qid in enumerate(topic.topic.questions)} if topic.topic is not None else {}
        ids = [(qs.summary.question_id if qs.summary is not None else qs.question.id if qs.question is not None else None, qs) for qs in topic.questions]
        ids = sorted(((qid, qs) for qid, qs in ids if qid is not None), key=lambda pair: (order.get(pair[0], len(order)), pair[0]))
        for _, qs in ids:
            digest.update(question_part(qs))
    questions = [qid for qs in source.questions
                 if (qid := qs.summary.question_id if qs.summary is not None else qs.question.id if qs.question is not None else None) is not None]
    return digest.hexdigest(), own, questions


def inputs_of(share: str, translations: Path, *, run_checks: bool) -> str | None:
    """:func:`inputs_digest` from the bank's share (:func:`bank_share`)."""
    digest = hashlib.blake2b(digest_size=20)
    digest.update(share.encode())
    digest.update(f"\0{run_checks}\0{translations}\0{translations.resolve().parent}\0".encode("utf-8", "surrogateescape"))
    glossary = translations / GLOSSARY_NAME
    if os.path.lexists(glossary):
        found = file_digest(glossary)
        if found is None:
            return None
        digest.update(found.encode())
    return digest.hexdigest()


def check_inputs(qs) -> str:
    """Where the translated numeric check of one question is located (the question itself is
    digested whole): the script's position and the file's lines from there to the script's end."""
    question, doc = qs.question, qs.doc
    start = doc.values.get(("check", "script"))
    lines = ""
    if start:  # locate_in_scalar reads the lines from the script's start to its last line
        end = start[0] + len(question.check.script.rstrip("\n").split("\n"))
        line = doc.line
        lines = "\n".join([line(n) or "" for n in range(start[0], end + 1)])  # (a list: no generator resumed per line)
    return repr((str(qs.path), question.id, start, lines))


def catalog_key(kind: str, path: Path, inputs: str | None, *, lookup: bool = False, read: bool = False) -> str | None:
    """The key of ``path``'s verdict of ``kind`` given the bank's ``inputs`` (None: not cached).

    With ``lookup``, the key to look a verdict up with: the file's digest that this command's
    input digest took, even of a file written just before (see :func:`.store.file_digest`).
    Without, the key to keep a verdict just computed under: the file's digest taken now, or
    with ``read`` (a verdict this process computed from its own read of the file), the digest
    of the bytes it read (:func:`.store.read_digest`) when it noted them."""
    if inputs is None:
        return None
    found = file_digest(path, lookup=True) if lookup else (read_digest(path) if read else None) or file_digest(path)
    return None if found is None else key_of(kind, str(path), found, inputs)
