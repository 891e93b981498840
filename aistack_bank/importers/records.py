"""What an importer reads: the questions it takes, the ones it skips, and what it wrote."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..errors import BankError, Location
from ..safety import UnsafeFile, read_regular


@dataclass
class ImportedQuestion:
    """One question read from an import file, in the bank's terms (plain text, no markup)."""

    name: str
    stem: str
    options: list[tuple[str, str | None]] = field(default_factory=list)
    """(text, feedback) of each option of a single-choice or multiple-response question."""
    correct: int = 0
    """The index of the right option of a single-choice question."""
    explanation: str = ""
    tags: list[str] = field(default_factory=list)
    difficulty: int = 2
    category: str | None = None
    notes: list[str] = field(default_factory=list)
    kind: str = "single-choice"
    """The bank's question kind (``aistack_bank.model.KINDS``)."""
    line: int = 0
    """The line of the file where the question starts (0 when the format has no lines)."""
    fields: dict = field(default_factory=dict)
    """The kind's own fields as the model names them, written as they are: ``correct`` (ids) and
    ``scoring`` of a multiple-response question, ``answer`` and the feedback of a true-false one,
    ``answer``/``tolerance``/``units``/``near_misses`` of a numerical one, ``answers`` and
    ``case_sensitive`` of a short-answer one, ``pairs``/``distractors`` of a matching one."""


DESCRIPTION = ("a description, which Moodle shows between questions and which scores nothing; the bank has no such kind "
               "(put what it says in the topic's summary or key points): not imported")
"""Why a Moodle description item is not imported (Moodle XML ``type="description"``, a GIFT block
without an answer block)."""


@dataclass(frozen=True)
class Skipped:
    name: str
    reason: str
    line: int = 0


@dataclass
class ImportReport:
    written: list[Path] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    topic_created: bool = False
    topics_created: list[Path] = field(default_factory=list)
    """The topic files the import created (one per category of a GIFT file of several)."""
    topic_file: Path | None = None
    """The topic file the questions were listed in."""


MAX_IMPORT_QUESTIONS = 10_000
"""Most questions one import takes (a bank of 10 000 questions is already far beyond any course)."""


def read_import_file(path: Path, max_bytes: int) -> bytes:
    """The bytes of an import file: a regular file, size checked before reading (BankError E701)."""
    try:
        return read_regular(path, max_bytes)
    except UnsafeFile as exc:
        raise BankError(exc.message, Location.of(path), code="E701") from None


def read_import_text(path: Path, max_bytes: int, what: str) -> str:
    """An import file as text: UTF-8 (a BOM is dropped), every line ending as LF (E701/E702)."""
    raw = read_import_file(path, max_bytes)
    try:
        return raw.decode("utf-8-sig").replace("\r\n", "\n").replace("\r", "\n")
    except UnicodeDecodeError as exc:
        before = raw[:exc.start]
        line, column = before.count(b"\n") + 1, len(before) - (before.rfind(b"\n") + 1) + 1
        raise BankError(f"not UTF-8 text: byte 0x{raw[exc.start]:02x} cannot be decoded; save the {what} as UTF-8", Location.of(path, line, column), code="E702") from None

