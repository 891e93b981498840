"""Reading Aiken files as Moodle's Aiken importer reads them (line by line, one-line stems)."""

from __future__ import annotations

import re
from pathlib import Path

from ..errors import BankError, Location
from ._kinds import MAX_CHOICES, MIN_CHOICES
from .records import ImportedQuestion, Skipped, read_import_text

MAX_BYTES = 64 << 20
OPTION = re.compile(r"^([A-Z])[).][ \t]+(.*)$")
ANSWER = re.compile(r"^ANSWER:\s*(.*)$")


def read(path: Path, language: str = "en") -> tuple[list[ImportedQuestion], list[Skipped]]:
    text = read_import_text(path, MAX_BYTES, "Aiken file")
    questions: list[ImportedQuestion] = []
    skipped: list[Skipped] = []
    stem: str | None = None
    start = 0
    options: list[tuple[str, str]] = []

    def error(message: str, line: int) -> BankError:
        return BankError(message, Location.of(path, line, 1), code="E724")

    for number, line in enumerate(text.split("\n"), 1):
        line = line.strip()
        if len(line) < 2:  # Moodle skips blank lines and lines of one character
            continue
        option = OPTION.match(line)
        answer = ANSWER.match(line)
        if option:
            if stem is None:
                raise error(f"option {option.group(1)} before any question text", number)
            expected = chr(ord("A") + len(options))
            if option.group(1) != expected:
                raise error(f"option {option.group(1)} where {expected} was expected (Moodle maps letters to positions)", number)
            options.append((option.group(1), option.group(2).strip()))
        elif answer:
            if stem is None or not options:
                raise error("ANSWER line without a question and its options before it", number)
            letter = answer.group(1)[:1]
            letters = [o[0] for o in options]
            if letter not in letters:
                raise error(f"ANSWER: {letter or '(empty)'} names none of the options {', '.join(letters)}", number)
            name = f"line {start}"
            if not MIN_CHOICES <= len(options) <= MAX_CHOICES:
                skipped.append(Skipped(name, f"{len(options)} options; the bank takes {MIN_CHOICES} to {MAX_CHOICES}", start))
            else:
                questions.append(ImportedQuestion(name=stem, stem=stem, options=[(o[1], None) for o in options], correct=letters.index(letter), explanation=""))
            stem, options = None, []
        else:
            if stem is not None:
                what = "its options" if not options else "its ANSWER line"
                raise error(f"a second line of text where {what} should follow; Aiken stems are one line and each question ends with ANSWER: X", number)
            stem, start = line, number
    if stem is not None:
        raise error("the last question has no ANSWER line", start)
    if not questions and not skipped:
        raise BankError("no Aiken questions found (expected a stem line, options A) B) … and ANSWER: X)", Location.of(path), code="E724")
    return questions, skipped
