"""Importers: multiple-choice questions from LMS formats into bank YAML files.

Each format module reads a file into :class:`ImportedQuestion` records and :class:`Skipped`
notes (other question types, several right answers, …) without guessing; :func:`import_file`
gives them the next free ids, writes the files and lists them in the topic.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..errors import BankError, UnknownFormatError


@dataclass
class ImportedQuestion:
    name: str
    stem: str
    options: list[tuple[str, str | None]]
    correct: int
    explanation: str
    tags: list[str] = field(default_factory=list)
    difficulty: int = 2
    category: str | None = None
    notes: list[str] = field(default_factory=list)


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


MAX_IMPORT_QUESTIONS = 10_000
"""Most questions one import takes (a bank of 10 000 questions is already far beyond any course)."""


def read_import_file(path: Path, max_bytes: int) -> bytes:
    """The bytes of an import file: a regular file, size checked before reading (BankError E701)."""
    from ..errors import Location
    from ..safety import UnsafeFile, read_regular

    try:
        return read_regular(path, max_bytes)
    except UnsafeFile as exc:
        raise BankError(exc.message, Location.of(path), code="E701") from None


def _readers():
    from . import gift, moodle_xml

    readers = {"moodle": moodle_xml.read, "gift": gift.read}
    from . import aiken, qti, text2qti

    readers.update({"qti": qti.read, "aiken": aiken.read, "text2qti": text2qti.read})
    return readers


FORMATS = ("aiken", "gift", "moodle", "qti", "text2qti")


def read_questions(fmt: str, path: Path) -> tuple[list[ImportedQuestion], list[Skipped]]:
    readers = _readers()
    if fmt not in readers:
        raise UnknownFormatError(fmt, sorted(readers))
    return readers[fmt](path)


def import_file(fmt: str, path: Path, bank: Path, translations: Path | None) -> ImportReport:
    """Import the multiple-choice questions of ``path`` into the bank at ``bank``."""
    from .write import write_imported

    questions, skipped = read_questions(fmt, path)
    if len(questions) > MAX_IMPORT_QUESTIONS:
        from ..errors import Location

        raise BankError(f"the file holds {len(questions)} questions; one import takes at most {MAX_IMPORT_QUESTIONS} (split the file)", Location.of(path), code="E704")
    report = write_imported(questions, bank, translations, source_name=path.name)
    report.skipped = skipped + report.skipped
    return report


__all__ = ["BankError", "ImportedQuestion", "ImportReport", "Skipped", "import_file", "read_questions"]
