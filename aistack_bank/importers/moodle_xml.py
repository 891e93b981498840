"""Reading Moodle XML questions of every kind the bank has (safely: no entities, no network).

Types, as Moodle's ``qformat_xml`` reads them: ``multichoice`` (one answer at 100 %: single
choice; ``<single>false</single>``: multiple response), ``truefalse``, ``numerical`` (with
units), ``shortanswer``, ``matching``/``match``, ``ordering`` (qtype_ordering) and ``essay``.
Other types (cloze, calculated, …) are skipped with the reason. Moodle's own export quirks are accepted: texts in CDATA or
escaped, ``format="moodle_auto_format"``/``plain_text``, HTML in answers, and ``$@NULL@$`` (how
Moodle writes a null) read as empty.

The bank holds no images or files: an image or file embedded in a question (``<file
encoding="base64">`` with its ``@@PLUGINFILE@@`` reference, or Moodle 1.9's ``<image>`` field) is
dropped with a note naming it, the text where it was and its line; a link's text is kept.
"""

from __future__ import annotations

import math
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote

from ..errors import BankError, Location
from ..readers import moodle_xml as records
from ..readers.moodle_xml import NULL
from ..readers.xml import XmlMalformed, XmlRefused
from ._kinds import MAX_CHOICES, MIN_CHOICES, NotImported, matching, multiple_response, numerical, ordering, short_answer, true_false
from ._html import html_to_text
from .records import DESCRIPTION, ImportedQuestion, Skipped, read_import_file

MAX_BYTES = 64 << 20

_BLANK = re.compile(r"(?:\s|&nbsp;|&#160;|&#xa0;)+", re.IGNORECASE)
_BLANK_BEFORE = re.compile(r"(?:\s|&nbsp;|&#160;|&#xa0;)+\Z", re.IGNORECASE)
_IMAGE_TAG = re.compile(r"<img\b[^<>]*>", re.IGNORECASE)
_FRAME = 64
"""How far on each side of an image its framing blanks are looked for (bounded: linear time)."""


def _unframed_images(text: str) -> str:
    """``text`` with the white space and no-break spaces on each side of an image as one plain
    space."""
    parts, at = [], 0
    for image in _IMAGE_TAG.finditer(text):
        floor = max(at, image.start() - _FRAME)
        framed = image.start() > floor and (text[image.start() - 1].isspace() or text[image.start() - 1] == ";")
        before = _BLANK_BEFORE.search(text[floor:image.start()]) if framed else None
        after = _BLANK.match(text, image.end(), image.end() + _FRAME)
        parts += [text[at:floor + before.start() if before else image.start()], " ", image.group(), " "]
        at = after.end() if after else image.end()
    parts.append(text[at:])
    return "".join(parts)


TYPES = {"multichoice", "truefalse", "numerical", "shortanswer", "matching", "match", "ordering", "essay"}


def _value(text: str | None) -> str:
    """A value as written, empty for an absent element or Moodle's null."""
    text = text or ""
    return "" if text.strip() == NULL else text


class _Reader:
    """Texts of one question as the bank holds them (plain, one language), collecting dropped markup."""

    def __init__(self, language: str):
        self.language = language
        self.dropped: set[str] = set()

    def rich(self, field: records.Text) -> str:
        """An HTML (or Moodle auto-format, or Markdown) text field: markup to plain text."""
        text = _value(field.text)
        if field.format == "plain_text":
            return " ".join(text.split())
        # An image goes (the bank holds none, see _dropped_files): the no-break spaces that set it
        # off from the words go with it, so "Moodle&nbsp;<img> is" reads "Moodle is".
        text = _unframed_images(text)
        plain, lost = html_to_text(text, self.language)
        self.dropped |= lost
        return plain

    def plain(self, text: str | None) -> str:
        """A field Moodle keeps as plain text (short answers, units, matching answers): as it is,
        but a multilang span block keeps only the language."""
        text = _value(text).strip()
        if "<span" in text and "multilang" in text:
            plain, _ = html_to_text(text, self.language)
            return plain
        return text


def _fraction(answer: records.Answer) -> float:
    written = answer.fraction if answer.fraction is not None else "0"
    try:
        value = float(written) / 100
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise NotImported(f"the grade {answer.fraction!r} is not a number")
    return value


def read(path: Path, language: str = "en") -> tuple[list[ImportedQuestion], list[Skipped]]:
    where = Location.of(path)
    raw = read_import_file(path, MAX_BYTES)
    try:
        found = records.read(raw)
    except XmlRefused as exc:
        raise BankError(f"refused: the XML declares a DTD or entities ({exc.what}); Moodle exports never do", Location.of(path, exc.line, exc.column), code="E702") from None
    except XmlMalformed as exc:
        raise BankError(f"not well-formed XML: {exc.reason}", Location.of(path, exc.line, exc.column), code="E702") from None
    if found.root != "quiz":
        raise BankError(f"not a Moodle XML question file: the root element is <{found.root}>, expected <quiz>", where, code="E702")
    questions: list[ImportedQuestion] = []
    skipped: list[Skipped] = []
    category = None
    for entry in found.entries:
        if isinstance(entry, records.Category):
            category = _value(entry.path)
            continue
        kind, line = entry.type, entry.line
        name, _ = html_to_text(_value(entry.name), language)
        name = name or f"question {len(questions) + len(skipped) + 1}"
        if kind == "description":
            skipped.append(Skipped(name, "question type 'description': " + DESCRIPTION, line))
            continue
        if kind not in TYPES:
            skipped.append(Skipped(name, f"question type {kind!r} has no kind in the bank (it takes multichoice, truefalse, numerical, shortanswer, matching, ordering and essay)", line))
            continue
        reader = _Reader(language)
        try:
            imported = _question(entry, name, reader, _subquestion_lines(raw, entry.offset, line, path.name))
        except NotImported as exc:
            skipped.append(Skipped(name, str(exc), line))
            continue
        imported.category, imported.line = category, line
        imported.notes += _dropped_files(entry.element, raw, entry.offset, path.name)
        tags = [t.strip() for t in entry.tags if t.strip()]
        for tag in list(tags):
            if tag.startswith("difficulty-") and tag[-1:] in "123":
                imported.difficulty = int(tag[-1])
                tags.remove(tag)
        imported.tags = tags
        if reader.dropped:
            imported.notes.append(f"markup dropped ({', '.join(sorted(reader.dropped))}): the bank holds plain text")
        questions.append(imported)
    return questions, skipped


def _subquestion_lines(raw: bytes, start: int, line: int, source: str):
    """``where(index)``: " (line N of source)" for the ``index``-th ``<subquestion`` of the
    question at ``start`` (its ``line``), "" when its lines cannot be told."""
    end = raw.find(b"</question>", start) if start >= 0 else -1
    found = [m.start() for m in re.finditer(rb"<subquestion(?=[\s>/])", raw[start:end])] if end >= 0 else []
    lines = [line + raw.count(b"\n", start, start + offset) for offset in found]
    return lambda index: f" (line {lines[index]} of {source})" if index < len(lines) else ""


def _question(element: records.Question, name: str, reader: _Reader, where=lambda index: "") -> ImportedQuestion:
    kind, setting = element.type, (lambda key: _value(element.settings.get(key)))
    stem = reader.rich(element.questiontext)
    if not stem.strip():
        raise NotImported("the question text is empty")
    explanation = reader.rich(element.generalfeedback)
    question = ImportedQuestion(name=name, stem=stem, explanation=explanation)
    answers = element.answers
    if kind == "multichoice":
        fractions = [_fraction(a) for a in answers]
        options = [(reader.rich(records.Text(a.text, a.format)), reader.rich(a.feedback) or None) for a in answers]
        if any(not text.strip() for text, _ in options):
            raise NotImported("an answer is empty")
        single = setting("single").strip().lower() in ("true", "1", "")  # Moodle's trans_single
        if single:
            full = [i for i, f in enumerate(fractions) if abs(f - 1) < 1e-5]
            if len(full) != 1 or any(0 < f < 1 - 1e-5 for f in fractions):
                raise NotImported("a single-answer question with partially right answers (weighted single choice) has no kind in the bank")
            if not MIN_CHOICES <= len(answers) <= MAX_CHOICES:
                raise NotImported(f"{len(answers)} answers; a single-choice question takes {MIN_CHOICES} to {MAX_CHOICES}")
            question.options, question.correct = options, full[0]
            return question
        fields, notes = multiple_response(fractions)
        question.kind, question.options, question.fields = "multiple-response", options, fields
        question.notes += notes
    elif kind == "truefalse":
        question.kind = "true-false"
        answer, feedback = None, {"true": "", "false": ""}
        for position, a in enumerate(answers[:2]):
            side = _value(a.text).strip()
            if side not in ("true", "false"):  # an old export: Moodle assumes true first, then false
                side = "true" if position == 0 else "false"
                question.notes.append("the answers are not named true and false; read as true first, then false (as Moodle does)")
            feedback[side] = reader.rich(a.feedback)
            right = abs(_fraction(a) - 1) < 1e-5
            if side == "true":
                answer = right
            elif answer is None:
                answer = not right
        if answer is None:
            raise NotImported("no true or false answer")
        question.fields = true_false(answer, feedback["true"], feedback["false"])
    elif kind == "numerical":
        question.kind = "numerical"
        rows = [(_value(a.text) or "*", _value(a.tolerance), _fraction(a), reader.rich(a.feedback)) for a in answers]
        units = [(reader.plain(u.name), _value(u.multiplier) or "1") for u in element.units]
        question.fields, notes = numerical(rows, units)
        question.notes += notes
        grading = setting("unitgradingtype").strip()
        if units and grading not in ("", "0"):
            question.notes.append("Moodle graded the unit (a penalty for a missing or wrong unit); the bank reads a number without a unit in the first unit, without a penalty")
    elif kind == "shortanswer":
        question.kind = "short-answer"
        rows = [(reader.plain(a.text), _fraction(a), reader.rich(a.feedback)) for a in answers]
        case = setting("usecase").strip() in ("1", "true")
        question.fields, notes = short_answer(rows, case)
        question.notes += notes
    elif kind == "essay":
        question.kind = "essay"
        model_answer, template = reader.rich(element.graderinfo), reader.rich(element.responsetemplate)
        question.fields = {**({"model_answer": model_answer} if model_answer.strip() else {}), **({"response_template": template} if template.strip() else {})}
        if setting("attachments").strip() not in ("", "0"):
            question.notes.append("Moodle asked for attached files; the bank's essay takes typed text only")
    elif kind == "ordering":
        question.kind = "ordering"
        # Each answer's fraction is its position in the right order (qtype_ordering).
        positions = [(_fraction(a) * 100, index) for index, a in enumerate(answers)]
        question.fields = ordering([reader.rich(records.Text(answers[index].text, answers[index].format)) for _, index in sorted(positions)])
        grading = setting("gradingtype").strip().upper()
        if grading not in ("", "ALL_OR_NOTHING", "-1"):
            question.notes.append(f"Moodle graded the order partially ({grading}); the bank grades it all or nothing")
        select = setting("selecttype").strip().upper()
        if select not in ("", "ALL", "0") and setting("selectcount").strip() not in ("", "0", str(len(answers))):
            question.notes.append("Moodle showed a selection of the items; the bank shows them all")
    else:  # matching / match
        question.kind = "matching"
        subs = [(reader.rich(s.text), reader.plain(s.answer)) for s in element.subquestions]
        question.fields, notes = matching(subs, where)
        question.notes += notes
    return question


PLUGINFILE = "@@PLUGINFILE@@"
"""How Moodle's XML refers to a file embedded in the question (``<file name=…>``)."""

_FIELDS = {"questiontext": "the question text", "generalfeedback": "the general feedback", "correctfeedback": "the feedback for a right answer",
           "partiallycorrectfeedback": "the feedback for a partly right answer", "incorrectfeedback": "the feedback for a wrong answer",
           "graderinfo": "the information for graders", "responsetemplate": "the response template"}


class _References(HTMLParser):
    """The files an HTML text refers to as ``@@PLUGINFILE@@/name``, and its images from
    elsewhere (an address; "" for one written in a ``data:`` address): (tag, name, alt text)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[str, str, str]] = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        alt = " ".join((attributes.get("alt") or "").split())
        for attribute in ("src", "href", "data"):
            value = (attributes.get(attribute) or "").strip()
            if value.startswith(PLUGINFILE):
                self.found.append((tag, unquote(value[len(PLUGINFILE):].lstrip("/").split("?")[0]), alt))
            elif tag == "img" and attribute == "src":
                self.found.append((tag, "" if value.lower().startswith("data:") else value[:200], alt))


def _field(element, parents: dict) -> str:
    """How a note names the text ``element`` holds: "the question text", "the feedback of answer 2", …"""
    parent = parents.get(element)
    if element.tag in _FIELDS:
        return _FIELDS[element.tag]
    if element.tag in ("answer", "subquestion", "hint") and parent is not None:
        number = [e for e in parent if e.tag == element.tag].index(element) + 1
        return {"answer": "answer", "subquestion": "prompt", "hint": "hint"}[element.tag] + f" {number}"
    if element.tag == "feedback" and parent is not None and parent.tag == "answer":
        return f"the feedback of {_field(parent, parents)}"
    return f"<{element.tag}>"


def _dropped_files(question, raw: bytes, start: int, source: str) -> list[str]:
    """Notes on the images and files of ``question`` the bank cannot hold, each naming the file,
    the text it was in and its line in ``source``."""
    parents = {child: parent for parent in question.iter() for child in parent}
    end = raw.find(b"</question>", start) if start >= 0 else -1

    def at(name: str, field: int) -> str:
        """Where ``name`` is: its <file> or its reference after ``field`` (the text's offset)."""
        if start < 0:
            return ""
        found = -1
        for needle in (f'name="{name}"', f"{PLUGINFILE}/{name}", name):
            found = raw.find(needle.encode("utf-8"), field, end if end >= 0 else len(raw))
            if found >= 0:
                break
        line = raw.count(b"\n", 0, found if found >= 0 else field) + 1
        return f" (line {line} of {source})"

    notes: list[str] = []
    for element in question.iter():
        text_node, files = element.find("text"), [f.get("name", "") for f in element.findall("file")]
        text = text_node.text or "" if text_node is not None else ""
        if PLUGINFILE not in text and "<img" not in text.lower() and not files:
            continue
        where = _field(element, parents)
        field = raw.find(text.strip()[:60].encode("utf-8"), start, end) if start >= 0 and text.strip() else -1
        field = start if field < 0 else field
        refs = _References()
        refs.feed(text)
        refs.close()
        for tag, name, alt in refs.found:
            if tag == "img":
                shown = f"the image {name}" if name else "an image"
                note = f"{shown}{f' ({alt!r})' if alt else ''} in {where} was dropped: the bank holds no images (say in the text what it shows if the question needs it)"
            else:
                note = f"{f'the file {name}' if name else 'a file'} linked from {where} was dropped (the link's text is kept): the bank holds no files"
            notes.append(note + at(name or ("<img" if tag == "img" else PLUGINFILE), field))
        for name in files:
            if name not in {found for _, found, _ in refs.found}:
                notes.append(f"{f'the file {name}' if name else 'a file'} attached to {where} was dropped: the bank holds no files{at(name or '<file', field)}")
    image = _value(question.findtext("image")).strip()
    if image or question.find("image_base64") is not None:
        shown = f"the image {image}" if image else "an image"
        notes.append(f"{shown} of Moodle 1.9's image field (shown with the question text) was dropped: the bank holds no images{at('<image', start)}")
    return list(dict.fromkeys(notes))
