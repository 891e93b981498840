"""Reading multiple-choice questions from Moodle XML (safely: no entities, no network)."""

from __future__ import annotations

from pathlib import Path

from ..errors import BankError, Location
from .records import ImportedQuestion, Skipped, read_import_file
from ._html import html_to_text

MAX_BYTES = 64 << 20


def _text(element, path: str) -> str:
    node = element.find(path)
    return (node.text or "") if node is not None else ""


def read(path: Path, language: str = "en") -> tuple[list[ImportedQuestion], list[Skipped]]:
    import defusedxml.ElementTree as SafeET
    from defusedxml import DefusedXmlException
    from xml.etree.ElementTree import ParseError

    where = Location.of(path)
    raw = read_import_file(path, MAX_BYTES)
    try:
        root = SafeET.fromstring(raw, forbid_dtd=True)
    except DefusedXmlException as exc:
        raise BankError(f"refused: the XML declares a DTD or entities ({type(exc).__name__}); Moodle exports never do", where, code="E702") from None
    except ParseError as exc:
        line, col = getattr(exc, "position", (0, 0))
        raise BankError(f"not well-formed XML: {exc}", Location.of(path, line, col + 1), code="E702") from None
    if root.tag != "quiz":
        raise BankError(f"not a Moodle XML question file: the root element is <{root.tag}>, expected <quiz>", where, code="E702")
    questions: list[ImportedQuestion] = []
    skipped: list[Skipped] = []
    category = None
    for element in root.findall("question"):
        kind = element.get("type", "")
        if kind == "category":
            category = _text(element, "category/text")
            continue
        name, _ = html_to_text(_text(element, "name/text"), language)
        name = name or f"question {len(questions) + len(skipped) + 1}"
        if kind != "multichoice":
            skipped.append(Skipped(name, f"question type {kind!r} is not supported (only multichoice)"))
            continue
        answers = element.findall("answer")
        fractions = []
        for answer in answers:
            try:
                fractions.append(float(answer.get("fraction", "0")))
            except ValueError:
                fractions.append(float("nan"))
        single = _text(element, "single").strip().lower() in ("true", "1", "")
        full = [i for i, f in enumerate(fractions) if abs(f - 100) < 1e-6]
        if not single or len(full) != 1 or any(0 < f < 100 for f in fractions):
            skipped.append(Skipped(name, "several right or partially right answers (multiple-response); only single-answer questions are imported"))
            continue
        if not 2 <= len(answers) <= 6:
            skipped.append(Skipped(name, f"{len(answers)} answers; the bank takes 2 to 6"))
            continue
        dropped: set[str] = set()
        stem, lost = html_to_text(_text(element, "questiontext/text"), language)
        dropped |= lost
        explanation, lost = html_to_text(_text(element, "generalfeedback/text"), language)
        dropped |= lost
        options = []
        for answer in answers:
            text, lost = html_to_text(_text(answer, "text"), language)
            dropped |= lost
            feedback, lost = html_to_text(_text(answer, "feedback/text"), language)
            dropped |= lost
            options.append((text, feedback or None))
        tags = [t.text.strip() for t in element.findall("tags/tag/text") if t.text and t.text.strip()]
        difficulty = 2
        for tag in list(tags):
            if tag.startswith("difficulty-") and tag[-1:] in "123":
                difficulty = int(tag[-1])
                tags.remove(tag)
        imported = ImportedQuestion(name=name, stem=stem, options=options, correct=full[0], explanation=explanation,
                                    tags=tags, difficulty=difficulty, category=category)
        if dropped:
            imported.notes.append(f"markup dropped ({', '.join(sorted(dropped))}): the bank holds plain text")
        questions.append(imported)
    return questions, skipped
