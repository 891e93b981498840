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
import os
from pathlib import Path
from typing import TYPE_CHECKING

from .store import file_digest, key_of
from ..i18n.glossary import GLOSSARY_NAME

if TYPE_CHECKING:
    from ..load import BankSource
    from ..i18n.fields import TextField


def fields_digest(fields: list[TextField]) -> str:
    digest = hashlib.blake2b(digest_size=20)
    for f in fields:
        digest.update(repr((f.key, f.text, str(f.path), f.line, f.notes, f.question_id, f.key_bearing)).encode("utf-8", "surrogateescape"))
    return digest.hexdigest()


def inputs_digest(source: BankSource, fields: list[TextField], translations: Path, *, run_checks: bool) -> str | None:
    """The bank's share of every catalog's key (None: do not cache this run's verdicts)."""
    digest = hashlib.blake2b(digest_size=20)
    digest.update(fields_digest(fields).encode())
    digest.update(f"\0{run_checks}\0{translations}\0{translations.resolve().parent}\0".encode("utf-8", "surrogateescape"))
    for qs in source.questions:
        if qs.question is not None and qs.doc is not None:
            # the verification reads more of a question than its texts: its kind, key, credits,
            # units, tolerance, case sensitivity and check
            digest.update(qs.question.model_dump_json().encode("utf-8", "surrogateescape"))
            if qs.question.check is not None:
                digest.update(check_inputs(qs).encode("utf-8", "surrogateescape"))
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
        lines = "\n".join(doc.line(n) or "" for n in range(start[0], end + 1))
    return repr((str(qs.path), question.id, start, lines))


def catalog_key(kind: str, path: Path, inputs: str | None) -> str | None:
    """The key of ``path``'s verdict of ``kind`` given the bank's ``inputs`` (None: not cached)."""
    if inputs is None:
        return None
    found = file_digest(path)
    return None if found is None else key_of(kind, str(path), found, inputs)
