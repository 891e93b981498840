"""Reading multiple-choice questions from GIFT, with Moodle's escaping rules."""

from __future__ import annotations

import re
from pathlib import Path

from ..errors import BankError, Location
from .records import ImportedQuestion, Skipped, read_import_file
from ._html import html_to_text

MAX_BYTES = 64 << 20
# Escapes are replaced by private-use characters before parsing, as Moodle's importer does.
_ESCAPES = {"\\\\": "\ue000", "\\:": "\ue001", "\\#": "\ue002", "\\=": "\ue003", "\\{": "\ue004", "\\}": "\ue005", "\\~": "\ue006", "\\n": "\ue007"}
_RESTORE = {"\ue000": "\\", "\ue001": ":", "\ue002": "#", "\ue003": "=", "\ue004": "{", "\ue005": "}", "\ue006": "~", "\ue007": "\n"}


def _protect(text: str) -> str:
    return re.sub(r"\\[\\:#={}~n]", lambda m: _ESCAPES[m.group()], text)


def _restore(text: str) -> str:
    return "".join(_RESTORE.get(c, c) for c in text)


def _blocks(text: str):
    """(first line number, block text) for each blank-line separated block, comments removed."""
    block, start = [], 0
    for number, line in enumerate(text.split("\n"), 1):
        if line.lstrip().startswith("//"):
            continue
        if not line.strip():
            if block:
                yield start, "\n".join(block)
                block = []
            continue
        if not block:
            start = number
        block.append(line)
    if block:
        yield start, "\n".join(block)


def _formatted(text: str, default: str) -> tuple[str, str]:
    match = re.match(r"^\s*\[(html|moodle|plain|markdown)\]", text)
    if match:
        return match.group(1), text[match.end():]
    return default, text


def _plain(text: str, fmt: str, language: str) -> tuple[str, set[str]]:
    text = _restore(text).strip()
    if fmt == "html" or fmt == "moodle":
        return html_to_text(text, language)
    return " ".join(text.split()), set()


def read(path: Path, language: str = "en") -> tuple[list[ImportedQuestion], list[Skipped]]:
    where = Location.of(path)
    raw = read_import_file(path, MAX_BYTES)
    try:
        text = raw.decode("utf-8-sig").replace("\r\n", "\n").replace("\r", "\n")
    except UnicodeDecodeError as exc:
        raise BankError(f"not UTF-8 text (byte {exc.start}); save the GIFT file as UTF-8", where, code="E702") from None
    questions: list[ImportedQuestion] = []
    skipped: list[Skipped] = []
    category = None
    found_any = False
    for line, block in _blocks(_protect(text)):
        stripped = block.strip()
        if stripped.startswith("$CATEGORY:"):
            category = _restore(stripped[len("$CATEGORY:"):]).strip()
            found_any = True
            continue
        name = ""
        match = re.match(r"^\s*::(.*?)::", block, re.S)
        if match:
            name = _restore(match.group(1)).strip()
            block = block[match.end():]
        open_at, close_at = block.find("{"), block.rfind("}")
        if open_at < 0 or close_at < open_at:
            raise BankError("no answer block {…}: GIFT questions need one (escape a literal brace as \\{)", Location.of(path, line, 1), code="E702")
        found_any = True
        fmt, stem_raw = _formatted(block[:open_at], "moodle")
        trailing = block[close_at + 1:].strip()
        body = block[open_at + 1:close_at]
        name = name or f"line {line}"
        general = None
        if "####" in body:
            body, general = body.split("####", 1)
        answers_raw = body.strip()
        if not answers_raw:
            skipped.append(Skipped(name, "essay question (empty answer block); only multiple choice is imported", line))
            continue
        if answers_raw.startswith("#"):
            skipped.append(Skipped(name, "numerical question; only multiple choice is imported", line))
            continue
        if re.fullmatch(r"(?:T|F|TRUE|FALSE)(?:#.*)?", answers_raw, re.S):
            skipped.append(Skipped(name, "true/false question; only multiple choice is imported", line))
            continue
        if trailing:
            skipped.append(Skipped(name, "missing-word question (text after the answers); only multiple choice is imported", line))
            continue
        pieces = [p for p in re.split(r"(?=[=~])", answers_raw) if p.strip()]
        if any(not p.lstrip()[:1] in ("=", "~") for p in pieces):
            raise BankError("answer block does not start with = or ~ (escape literal = ~ # { } : with a backslash)", Location.of(path, line, 1), code="E702")
        if any("->" in p for p in pieces):
            skipped.append(Skipped(name, "matching question; only multiple choice is imported", line))
            continue
        right = [p for p in pieces if p.lstrip().startswith("=")]
        if not any(p.lstrip().startswith("~") for p in pieces):
            skipped.append(Skipped(name, "short-answer question (no wrong answers); only multiple choice is imported", line))
            continue
        weighted = [p for p in pieces if re.match(r"^\s*[=~]%", p)]
        if len(right) != 1 or weighted:
            skipped.append(Skipped(name, "several right or weighted answers (multiple-response); only single-answer questions are imported", line))
            continue
        if not 2 <= len(pieces) <= 6:
            skipped.append(Skipped(name, f"{len(pieces)} answers; the bank takes 2 to 6", line))
            continue
        dropped: set[str] = set()
        stem, lost = _plain(stem_raw, fmt, language)
        dropped |= lost
        options = []
        for piece in pieces:
            answer_text, _, feedback = piece.strip()[1:].partition("#")
            afmt, answer_text = _formatted(answer_text, fmt)
            text_plain, lost = _plain(answer_text, afmt, language)
            dropped |= lost
            feedback_plain, lost = _plain(_formatted(feedback, fmt)[1], fmt, language) if feedback.strip() else ("", set())
            dropped |= lost
            options.append((text_plain, feedback_plain or None))
        explanation, lost = _plain(_formatted(general, fmt)[1], fmt, language) if general else ("", set())
        dropped |= lost
        imported = ImportedQuestion(name=name, stem=stem, options=options, correct=next(i for i, p in enumerate(pieces) if p.lstrip().startswith("=")),
                                    explanation=explanation, category=category)
        if dropped:
            imported.notes.append(f"markup dropped ({', '.join(sorted(dropped))}): the bank holds plain text")
        questions.append(imported)
    if not found_any:
        raise BankError("no GIFT questions found (expected blocks like ::name:: text { =right ~wrong })", where, code="E702")
    return questions, skipped
