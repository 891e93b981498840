"""Conversion of a bank to Aiken (one file per language), the format Moodle's Aiken importer reads.

Aiken carries a one-line stem, options ``A)`` … and ``ANSWER: X``: no name, no feedback, no
explanation, no line breaks. A question whose stem or an option holds a line break, or of a
kind other than single choice, is left out; each is listed as a warning by `bank build`, and
the loss of feedback is stated once.
"""

from __future__ import annotations

import re
from typing import Mapping

from ..errors import Diagnostic, warning
from ..kinds import a_kind
from ..model import Bank
from ..options import ExportOptions
from .record import Format, languages

NAME = "aiken"
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_LOOKS_LIKE_OPTION = re.compile(r"^[A-Z][).][ \t]")


def _one_line(text: str) -> bool:
    return "\n" not in text and "\r" not in text and text.strip() == text and bool(text)


def why_not(question) -> str | None:
    """Why Aiken cannot carry ``question`` (None when it can)."""
    if not FORMAT.carries(question):
        return f"it is {a_kind(question.kind)} question; Aiken carries single choice only"
    if not _one_line(question.stem):
        return "its stem has a line break (or leading or trailing spaces); Aiken reads the stem as one line"
    if _LOOKS_LIKE_OPTION.match(question.stem) or question.stem.upper().startswith("ANSWER:"):
        return "its stem starts like an option line or an answer line (\"A) \", \"ANSWER:\"), which Aiken would misread"
    for o in question.options:
        if not _one_line(o.text):
            return f"option {o.id} has a line break (or leading or trailing spaces); Aiken reads each option as one line"
    if len(question.options) > len(LETTERS):
        return "it has more options than Aiken's 26 letters"
    return None


def _single_choice(q) -> list[str]:
    """The stem, a lettered line per option, and the key's letter."""
    lines = [q.stem]
    lines += [f"{LETTERS[i]}) {o.text}" for i, o in enumerate(q.options)]
    lines.append(f"ANSWER: {LETTERS[[o.id for o in q.options].index(q.right_ids()[0])]}")
    return lines


def render(bank: Bank) -> bytes:
    blocks = []
    for q in bank.questions:
        if why_not(q) is not None:
            continue
        blocks.append("\n".join(FORMAT.writer(q)(q)))
    return ("\n\n".join(blocks) + "\n").encode("utf-8") if blocks else b""


def notes(banks: Mapping[str, Bank], options: ExportOptions) -> list[Diagnostic]:
    """Feedback is lost (once), and each question Aiken cannot carry, in any language."""
    if not banks:
        return []
    out = [warning("W653", "aiken: Aiken carries only the stem, the options and the key; the explanations and per-option feedback are not in the Aiken files")]
    seen: set[str] = set()
    for lang in languages(banks):
        for q in banks[lang].questions:
            reason = why_not(q)
            if reason is not None and q.id not in seen:
                seen.add(q.id)
                out.append(warning("W654", f"aiken: {q.id} ({lang}) is left out of the Aiken files: {reason}"))
    return out


FORMAT = Format(
    name=NAME, folder="aiken", honours=frozenset(), writers={"single-choice": _single_choice}, left_out_code=None,
    render=lambda banks, options: render(banks[0]), per_language="{stem}-{lang}.txt", notes=notes,
    platforms="LMSs that take Aiken text: Moodle (*Question bank → Import → Aiken format*) and many small quiz tools; single-choice questions only.",
    loses='Everything but the stem, the options and the key: explanations and feedback (W653), and every question of another kind or with a line break (W654).',
)
export = FORMAT
