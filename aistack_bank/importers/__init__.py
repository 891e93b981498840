"""Importers: questions from LMS formats into bank YAML files.

Each format module reads a file into :class:`ImportedQuestion` records and :class:`Skipped`
notes (question types the bank has no kind for, …) without guessing; :func:`import_file`
gives them the next free ids, writes the files and lists them in the topic.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import BankError, Location, UnknownFormatError
from .records import MAX_IMPORT_QUESTIONS, ImportedQuestion, ImportReport, Skipped


def _readers():
    from . import gift, moodle_xml

    readers = {"moodle": moodle_xml.read, "gift": gift.read}
    from . import aiken, qti, text2qti

    readers.update({"qti": qti.read, "aiken": aiken.read, "text2qti": text2qti.read})
    return readers


ENCODED = frozenset({"gift"})
"""Formats whose files may come in another encoding than UTF-8 (`bank import --encoding`)."""


def read_questions(fmt: str, path: Path, encoding: str | None = None) -> tuple[list[ImportedQuestion], list[Skipped]]:
    readers = _readers()
    if fmt not in readers:
        raise UnknownFormatError(fmt, sorted(readers))
    if encoding is not None:
        if fmt not in ENCODED:
            from ..errors import UsageError

            raise UsageError(f"--encoding applies to {', '.join(sorted(ENCODED))} files only ({fmt} files state or imply their encoding)")
        return readers[fmt](path, encoding=encoding)
    return readers[fmt](path)


def import_file(fmt: str, path: Path, bank_dir: Path, translations: Path | None, topic: str | None = None, encoding: str | None = None) -> ImportReport:
    """Import the questions of ``path`` into the bank folder ``bank_dir``, holding the project
    lock (E604 while another import or a build uses the bank), all or nothing: an import an
    earlier one left interrupted is completed first (:func:`recover_import`)."""
    from ..writing import bank_lock
    from .write import write_imported

    questions, skipped = read_questions(fmt, path, encoding)
    if len(questions) > MAX_IMPORT_QUESTIONS:
        raise BankError(f"the file holds {len(questions)} questions; one import takes at most {MAX_IMPORT_QUESTIONS} (split the file)", Location.of(path), code="E704")
    with bank_lock(bank_dir):
        done = _recovered(bank_dir)
        try:
            report = write_imported(questions, bank_dir, translations, source_name=path.name, topic=topic, by_category=fmt == "gift")
        except OSError as exc:
            raise _write_error(exc, bank_dir) from None
    report.skipped = skipped + report.skipped
    if done:
        report.notes.insert(0, done)
    return report


def _write_error(exc: OSError, bank_dir: Path) -> BankError:
    where = Path(exc.filename) if getattr(exc, "filename", None) else bank_dir
    return BankError(f"cannot write: {exc.strerror or exc}; nothing was imported and the bank is as it was", Location.of(where), code="E605")


def _recovered(bank_dir: Path) -> str | None:
    from ..writing import recover

    try:
        return recover(bank_dir)
    except OSError as exc:
        raise _write_error(exc, bank_dir) from None


def recover_import(bank_dir: Path) -> str | None:
    """`bank import --recover`: complete (or undo) an import that was interrupted (a SIGKILL,
    a power cut) and remove what it staged; what was done, or None if there was nothing to do."""
    from ..writing import bank_lock

    with bank_lock(bank_dir):
        return _recovered(bank_dir)


__all__ = ["BankError", "ImportedQuestion", "ImportReport", "Skipped", "import_file", "read_questions", "recover_import"]
