"""Reading GIFT questions of every kind the bank has, with Moodle's escaping and typing rules."""

from __future__ import annotations

import re
from pathlib import Path

from ..errors import BankError, Location
from ._kinds import MAX_CHOICES, MIN_CHOICES, NotImported, matching, multiple_response, number, numerical, short_answer, true_false
from ..readers.gift import DEFAULT_ENCODING, Escapes, blocks, decode, explode, format_prefix
from .records import DESCRIPTION, ImportedQuestion, Skipped, read_import_file
from ._html import html_to_text

MAX_BYTES = 64 << 20


def _formatted(text: str, default: str) -> tuple[str, str]:
    fmt, rest = format_prefix(text)
    return fmt or default, rest


def _plain(text: str, fmt: str, language: str, restore) -> tuple[str, set[str]]:
    text = restore(text).strip()
    if fmt == "html" or fmt == "moodle":
        return html_to_text(text, language)
    return " ".join(text.split()), set()


_WEIGHT = re.compile(r"^%(-?[0-9]+(?:\.[0-9]*)?)%")
"""An answer's grade, ``%50%`` or ``%-33.33333%`` (Moodle's pattern is ``%-*[0-9]{1,2}.?[0-9]*%``)."""


def _weight(piece: str, default: float) -> tuple[float, str]:
    found = _WEIGHT.match(piece)
    if not found:
        return default, piece
    return float(found.group(1)) / 100, piece[found.end():]


def _split_answers(body: str, mark: str) -> list[str]:
    """Moodle's ``explode(mark, …)``, the first empty piece dropped, each piece trimmed."""
    return [p.strip() for p in explode(body, mark)]


def read(path: Path, language: str = "en", encoding: str = DEFAULT_ENCODING) -> tuple[list[ImportedQuestion], list[Skipped]]:
    """The questions of a GIFT file, typed as Moodle's ``qformat_gift::readquestion`` types them."""
    where = Location.of(path)
    text = decode(read_import_file(path, MAX_BYTES), path, encoding)
    questions: list[ImportedQuestion] = []
    skipped: list[Skipped] = []
    category = None
    found_any = False
    escapes = Escapes(text)
    restore = escapes.restore
    descriptions = 0
    for found in blocks(text):
        if not found.line:  # comment lines only
            continue
        line, block = found.line, escapes.protect(found.text)
        comments = "\n".join(restore(escapes.protect(comment)) for comment in found.comments)
        stripped = block.strip()
        if stripped.startswith("$CATEGORY:"):
            category = restore(stripped[len("$CATEGORY:"):]).strip()
            found_any = True
            continue
        name, whole = "", block
        match = re.match(r"^\s*::(.*?)::", block, re.S)
        if match:
            name = restore(match.group(1)).strip()
            block = block[match.end():]
        open_at, close_at = block.find("{"), block.rfind("}")
        name = name or f"line {line}"
        if open_at < 0 and close_at < 0:
            # Moodle reads a block without an answer block as a description (text shown between
            # questions); the bank has no such kind, and a topic's texts are its summary and key points.
            skipped.append(Skipped(name, "text without an answer block: " + DESCRIPTION, line))
            descriptions += 1
            continue
        if open_at < 0 or close_at < open_at:
            raise BankError("no answer block {…}: GIFT questions need one (escape a literal brace as \\{)", Location.of(path, line, 1), code="E702")
        found_any = True
        fmt, stem_raw = _formatted(block[:open_at], "moodle")
        trailing = block[close_at + 1:].strip()
        body = block[open_at + 1:close_at]
        general = None
        if "####" in body:
            cut = body.rindex("####")
            body, general = body[:cut], body[cut + 4:]
        answers_raw = body.strip()
        if trailing and answers_raw:
            # A missing-word question: Moodle puts a blank "_____" where the answer block was.
            stem_raw = stem_raw + "_____" + block[close_at + 1:]
        dropped: set[str] = set()

        def plain(raw: str, default: str = fmt) -> str:
            afmt, rest = _formatted(raw, default)
            text_plain, lost = _plain(rest, afmt, language, restore)
            dropped.update(lost)
            return text_plain

        stem = plain(stem_raw)
        explanation = plain(general) if general else ""
        imported = ImportedQuestion(name=name, stem=stem, explanation=explanation, category=category, line=line)
        try:
            if answers_raw:
                at = len(whole) - len(block) + open_at + 1 + len(body) - len(body.lstrip())
                numbers = [number for number, text_line in found.lines if not found.is_comment(text_line)]  # the file's line of each line of `whole`
                _typed(imported, answers_raw, plain, language, restore, (numbers[whole.count("\n", 0, at):], path.name))
            else:  # an empty answer block: Moodle's essay (the text after it, if any, stays in the stem)
                imported.kind = "essay"
                if trailing:
                    imported.stem = plain(stem_raw + block[close_at + 1:])
        except NotImported as exc:
            skipped.append(Skipped(name, str(exc), line))
            continue
        if trailing:
            imported.notes.append("a missing-word question (text after the answers): the stem shows the answer's place as _____, as Moodle does")
        tags = re.findall(r"\[tag:((?:\\]|[^\]])+)]", comments)
        for tag in tags:
            tag = tag.strip().replace("\\]", "]")
            if tag.startswith("difficulty-") and tag[-1:] in "123":
                imported.difficulty = int(tag[-1])
            elif tag:
                imported.tags.append(tag)
        if dropped:
            imported.notes.append(f"markup dropped ({', '.join(sorted(dropped))}): the bank holds plain text")
        questions.append(imported)
    if not found_any:
        only = f" (only {descriptions} block(s) without an answer block, which Moodle reads as descriptions)" if descriptions else ""
        raise BankError(f"no GIFT questions found{only} (expected blocks like ::name:: text {{ =right ~wrong }})", where, code="E702")
    return questions, skipped


def _typed(question: ImportedQuestion, answers: str, plain, language: str, restore, start: tuple[list[int], str] = ([], "")) -> None:
    """Fill ``question`` from its answer block, typed in Moodle's order: ``#`` numerical, ``~``
    multiple choice, ``=`` with ``->`` matching, ``T``/``F`` true-false, else short answer.
    ``start``: the file's line of each line of ``answers`` and the file's name, for notes on a line."""
    if answers.startswith("#"):
        question.kind = "numerical"
        rest = answers[1:]
        wrong_feedback = ""
        if "~" in rest:
            rest, wrong_feedback = rest.split("~", 1)
            wrong_feedback = wrong_feedback.partition("#")[2]
        rows = []
        for piece in _split_answers(rest, "="):
            credit, piece = _weight(piece, 1.0)
            value, _, feedback = piece.partition("#")
            value = restore(value).strip()
            if "," in value:  # Moodle's GIFT reader takes "3,5" for "*", which accepts anything
                raise NotImported(f"the answer {value!r} has a decimal comma, which Moodle's GIFT reader takes for \"any answer\"; write {value.replace(',', '.')!r}")
            if ".." in value[1:]:
                low, high = value.split("..", 1)
                low_v, high_v = number(low), number(high)
                # Moodle stores the midpoint and the half-width; 12 digits drop binary noise (0.09999999999999999)
                value, tolerance = f"{(low_v + high_v) / 2:.12g}", f"{abs(high_v - low_v) / 2:.12g}"
            elif ":" in value[1:]:
                value, tolerance = value.split(":", 1)
            else:
                tolerance = "0"
            rows.append((value, tolerance, credit, plain(feedback) if feedback.strip() else ""))
        if wrong_feedback.strip():
            rows.append(("*", "", 0.0, plain(wrong_feedback)))
        question.fields, notes = numerical(rows, [])
        question.notes += notes
        return
    if "~" in answers:
        pieces = [p for p in re.split(r"(?=[=~])", answers) if p.strip()]
        if any(p.lstrip()[:1] not in ("=", "~") for p in pieces):
            raise NotImported("text before the first = or ~ of the answers (escape a literal = ~ # { } : with a backslash)")
        options, fractions = [], []
        for piece in pieces:
            piece = piece.strip()
            if piece.startswith("="):
                fraction, piece = 1.0, piece[1:]
            else:
                fraction, piece = _weight(piece[1:], 0.0)
            answer_text, _, feedback = piece.partition("#")
            text_plain = plain(answer_text)
            if not text_plain:
                raise NotImported("an answer is empty")
            options.append((text_plain, plain(feedback) or None if feedback.strip() else None))
            fractions.append(fraction)
        if "=" in answers:  # Moodle: single choice
            right = [i for i, f in enumerate(fractions) if abs(f - 1) < 1e-5]
            if len(right) != 1 or any(0 < f < 1 - 1e-5 for f in fractions):
                raise NotImported("several right or weighted answers in a single-answer question (use only ~%grade% weights for multiple response)")
            if not MIN_CHOICES <= len(options) <= MAX_CHOICES:
                raise NotImported(f"{len(options)} answers; a single-choice question takes {MIN_CHOICES} to {MAX_CHOICES}")
            question.options, question.correct = options, right[0]
            return
        question.kind, question.options = "multiple-response", options
        question.fields, notes = multiple_response(fractions)
        question.notes += notes
        return
    if "=" in answers and "->" in answers:
        question.kind = "matching"
        subs, lines, found = [], [], 0
        for piece in _split_answers(answers, "="):
            found = max(answers.find(piece, found), found)
            lines.append(start[0][answers.count("\n", 0, found)] if start[0] else 0)
            found += len(piece)
            if "->" not in piece:
                raise NotImported(f"a matching answer without \"->\": {restore(piece)!r}")
            prompt, _, answer = piece.partition("->")
            answer = " ".join(restore(answer).split())
            if "<span" in answer and "multilang" in answer:  # a multilingual file: keep the language
                answer = html_to_text(answer, language)[0]
            subs.append((plain(prompt) if prompt.strip() else "", answer))
        question.fields, notes = matching(subs, lambda index: f" (line {lines[index]} of {start[1]})" if lines[index] else "")
        question.notes += notes
        return
    head = answers.split("#", 1)[0].strip() if "#" in answers[1:] else answers
    if head in ("T", "TRUE", "F", "FALSE"):
        question.kind = "true-false"
        bits = answers.split("#", 2)
        wrong = plain(bits[1]) if len(bits) > 1 and bits[1].strip() else ""
        right = plain(bits[2]) if len(bits) > 2 and bits[2].strip() else ""
        truth = head in ("T", "TRUE")
        question.fields = true_false(truth, right if truth else wrong, wrong if truth else right)
        return
    question.kind = "short-answer"
    rows = []
    for piece in _split_answers(answers, "="):
        credit, piece = _weight(piece, 1.0)
        text, _, feedback = piece.partition("#")
        rows.append((" ".join(restore(_formatted(text, "plain")[1]).split()), credit, plain(feedback) if feedback.strip() else ""))
    question.fields, notes = short_answer(rows, False)
    question.notes += notes
