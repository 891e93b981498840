"""Reading Aiken files as Moodle's Aiken importer reads them (line by line, one-line stems)."""

from __future__ import annotations

import re
from pathlib import Path

from ..errors import BankError, Location
from .records import ImportedQuestion, Skipped, read_import_text

MAX_BYTES = 64 << 20
OPTION = re.compile(r"^([A-Z])[).][ \t]+(.*)$")
ANSWER = re.compile(r"^ANSWER:\s*(.*)$")


def read(path: Path, language: str = "en") -> tuple[list[ImportedQuestion], list[Skipped]]:
    """The questions of an Aiken file. A malformed question is skipped with a located note (the
    rest of it, up to its ANSWER line, is passed over), as the GIFT reader skips what it cannot
    take; a file in which no question can be read is refused (E724) at its first problem."""
    text = read_import_text(path, MAX_BYTES, "Aiken file")
    questions: list[ImportedQuestion] = []
    skipped: list[Skipped] = []
    errors: list[BankError] = []
    stem: str | None = None
    start = 0
    options: list[tuple[str, str]] = []
    passing = False  # passing over the rest of a malformed question, up to its ANSWER line

    def bad(message: str, line: int) -> None:
        nonlocal stem, options, passing
        errors.append(BankError(message, Location.of(path, line, 1), code="E724"))
        skipped.append(Skipped(stem if stem is not None else f"line {line}", f"{message} (line {line})", start or line))
        stem, options, passing = None, [], True

    for number, line in enumerate(text.split("\n"), 1):
        line = line.strip()
        if len(line) < 2:  # Moodle skips blank lines and lines of one character
            continue
        option = OPTION.match(line)
        answer = ANSWER.match(line)
        if passing:
            passing = not answer
            continue
        if option:
            if stem is None:
                start = number
                bad(f"option {option.group(1)} before any question text", number)
                continue
            expected = chr(ord("A") + len(options))
            if option.group(1) != expected:
                bad(f"option {option.group(1)} where {expected} was expected (Moodle maps letters to positions)", number)
                continue
            options.append((option.group(1), option.group(2).strip()))
        elif answer:
            if stem is None or not options:
                start = start if stem is not None else number
                bad("ANSWER line without a question and its options before it", number)
                passing = False
                continue
            letter = answer.group(1)[:1]
            letters = [o[0] for o in options]
            if letter not in letters:
                bad(f"ANSWER: {letter or '(empty)'} names none of the options {', '.join(letters)}", number)
                passing = False
                continue
            name = f"line {start}"
            if not 2 <= len(options) <= 6:
                skipped.append(Skipped(name, f"{len(options)} options; the bank takes 2 to 6", start))
            else:
                questions.append(ImportedQuestion(name=stem, stem=stem, options=[(o[1], None) for o in options], correct=letters.index(letter), explanation="", line=start))
            stem, options, start = None, [], 0
        else:
            if stem is not None:
                what = "its options" if not options else "its ANSWER line"
                bad(f"a second line of text where {what} should follow; Aiken stems are one line and each question ends with ANSWER: X", number)
                continue
            stem, start = line, number
    if stem is not None:
        bad("the last question has no ANSWER line", start)
    if not questions and errors:
        raise errors[0]
    if not questions and not skipped:
        raise BankError("no Aiken questions found (expected a stem line, options A) B) … and ANSWER: X)", Location.of(path), code="E724")
    return questions, skipped
