"""Reading single-choice questions from text2qti's plain-text quiz format.

The syntax, as text2qti documents it: ``Quiz title:``/``Quiz description:`` and other quiz
settings at the top; an optional ``Title:`` and ``Points:`` before a question; a question starts
with ``1.`` (any number) and one or more spaces; choices are ``a)`` … with ``*`` marking the
right one (``*c)``); ``...`` after the stem is the general feedback and after a choice that
choice's feedback; ``+``/``-`` are feedback for a right/wrong answer. A paragraph continues on
lines indented to its text. Multiple answers (``[*]``/``[ ]``), numerical (``=``), short answer
(``*``), essay (``____``), file upload (``^^^^``) and text regions are reported as skipped.
Text is Markdown and is kept as written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import BankError, Location
from ._kinds import MAX_CHOICES, MIN_CHOICES
from .records import ImportedQuestion, Skipped, read_import_text

MAX_BYTES = 64 << 20
QUIZ_SETTINGS = re.compile(r"^(quiz title|quiz description|shuffle answers|show correct answers|one question at a time|can't go back|feedback is shown|solutions sample group|solutions randomize groups|solutions pick|solutions points):", re.I)
QUESTION = re.compile(r"^(\d+)\.[ \t]+(.*)$")
CHOICE = re.compile(r"^(\*?)([A-Za-z])\)[ \t]+(.*)$")
MULTI = re.compile(r"^\[([* ])\][ \t]+(.*)$")
FEEDBACK = re.compile(r"^(\.\.\.|\+|-)[ \t]+(.*)$")


@dataclass
class _Question:
    line: int
    title: str
    stem: str
    general: list[str] = field(default_factory=list)
    right_wrong: list[str] = field(default_factory=list)
    choices: list[list] = field(default_factory=list)  # [correct, text, feedback list]
    other: str | None = None


def read(path: Path, language: str = "en") -> tuple[list[ImportedQuestion], list[Skipped]]:
    text = read_import_text(path, MAX_BYTES, "quiz file")
    questions: list[ImportedQuestion] = []
    skipped: list[Skipped] = []
    category: str | None = None
    current: _Question | None = None
    title = ""
    target = None  # extends the paragraph a continuation line belongs to
    in_code = False
    code_start = 0
    region_line = 0

    def error(message: str, line: int) -> BankError:
        return BankError(message, Location.of(path, line, 1), code="E725")

    def finish() -> None:
        nonlocal current
        if current is None:
            return
        q, current = current, None
        name = q.title or f"line {q.line}"
        if q.other:
            skipped.append(Skipped(name, f"{q.other}; only single-choice questions are imported", q.line))
            return
        right = [i for i, c in enumerate(q.choices) if c[0]]
        if not q.choices:
            skipped.append(Skipped(name, "no choices (a question text without answers); only single-choice questions are imported", q.line))
            return
        if len(right) != 1:
            skipped.append(Skipped(name, f"{len(right)} choices marked right with *; a single-choice question has one", q.line))
            return
        if not MIN_CHOICES <= len(q.choices) <= MAX_CHOICES:
            skipped.append(Skipped(name, f"{len(q.choices)} choices; the bank takes {MIN_CHOICES} to {MAX_CHOICES}", q.line))
            return
        imported = ImportedQuestion(name=name, stem=q.stem, options=[(c[1], "\n".join(c[2]) or None) for c in q.choices], correct=right[0],
                                    explanation="\n".join(q.general), category=category)
        if q.right_wrong:
            imported.notes.append("the feedback for any right or any wrong answer (+ and - lines) has no place in the bank: " + " / ".join(q.right_wrong))
        questions.append(imported)

    for number, line in enumerate(text.expandtabs(4).split("\n"), 1):
        if line.startswith("```"):
            if not in_code:
                finish()
                in_code, code_start = True, number
            else:
                in_code = False
                skipped.append(Skipped(f"line {code_start}", "a code block that text2qti runs to write questions; it is not run here (run text2qti and import its QTI package)", code_start))
            target = None
            continue
        if in_code:
            continue
        if not line.strip():
            target = None
            continue
        if line[:1] in (" ", "\t"):
            if target is None:
                raise error("an indented line that continues nothing (continuation lines follow a question, choice or feedback line)", number)
            target(line.strip())
            continue
        stripped = line.strip()
        if region_line and not stripped.lower().startswith("text:"):
            region_line = 0
        m = QUESTION.match(stripped)
        if m:
            finish()
            current = _Question(number, title, m.group(2).strip())
            title = ""
            target = _extend(current, "stem")
            continue
        if QUIZ_SETTINGS.match(stripped):
            if current is not None or questions or skipped:
                raise error(f"quiz setting {stripped.split(':')[0]!r} after the first question; quiz settings come first", number)
            key, _, value = stripped.partition(":")
            if key.lower() == "quiz title":
                category = value.strip() or None
            target = _ignored  # a wrapped description is not kept
            continue
        if re.match(r"^(title|points):", stripped, re.I):
            finish()
            if stripped.lower().startswith("title:"):
                title = stripped.partition(":")[2].strip()
            target = None
            continue
        if re.match(r"^text title:", stripped, re.I) or re.match(r"^text:", stripped, re.I):
            finish()
            if not region_line:
                region_line = number
                skipped.append(Skipped(f"line {number}", "a text region (no question); the bank holds questions only", number))
            target = None
            continue
        if stripped in ("GROUP", "END_GROUP") or re.match(r"^(pick|points per question):", stripped, re.I):
            finish()
            target = None
            continue
        if current is None:
            raise error(f"text outside any question: {stripped[:40]!r} (a question starts with a number and a period, \"1. \")", number)
        m = CHOICE.match(stripped)
        if m:
            current.choices.append([bool(m.group(1)), m.group(3).strip(), []])
            target = _extend(current.choices[-1], 1)
            continue
        m = FEEDBACK.match(stripped)
        if m:
            if m.group(1) == "...":
                where = current.choices[-1][2] if current.choices else current.general
            else:
                where = current.right_wrong
            where.append(m.group(2).strip() if m.group(1) == "..." else f"{m.group(1)} {m.group(2).strip()}")
            target = _extend(where, len(where) - 1)
            continue
        if MULTI.match(stripped):
            current.other = current.other or "a multiple-answers question ([*] and [ ] choices)"
            target = None
            continue
        if re.match(r"^=[ \t]+", stripped):
            current.other = current.other or "a numerical question (= answer)"
            target = None
            continue
        if re.match(r"^\*[ \t]+", stripped):
            current.other = current.other or "a short-answer question (* answers)"
            target = None
            continue
        if re.fullmatch(r"_{4,}", stripped):
            current.other = current.other or "an essay question (____)"
            continue
        if re.fullmatch(r"\^{4,}", stripped):
            current.other = current.other or "a file-upload question (^^^^)"
            continue
        raise error(f"a line text2qti does not read here: {stripped[:40]!r} (choices are \"a) \" or \"*a) \", feedback \"... \"; indent a continued line)", number)
    if in_code:
        raise error("a code block that is never closed with ```", code_start)
    finish()
    if not questions and not skipped:
        raise BankError("no text2qti questions found (expected \"1. question\", then \"a) choice\" and \"*b) right choice\")", Location.of(path), code="E725")
    return questions, skipped


def _ignored(more: str) -> None:
    return None


def _extend(holder, key):
    """A function adding a continuation line to ``holder[key]`` (or the attribute ``key``)."""
    if isinstance(key, str):
        return lambda more: setattr(holder, key, getattr(holder, key) + " " + more)

    def add(more: str) -> None:
        holder[key] = holder[key] + " " + more

    return add
