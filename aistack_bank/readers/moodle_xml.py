"""Moodle XML question files (``qformat_xml``) as plain records, read safely.

Every value is kept as the file holds it: texts with their markup and their ``format``
attribute, grades as written (``fraction="33.33333"``), element texts untrimmed (``None`` when
the element is absent), so that each user decides what Moodle (or the bank) makes of them.
Categories and questions come in file order, with the line each starts on.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from xml.etree.ElementTree import Element

from .xml import children, iterparse_own, local, parse

NULL = "$@NULL@$"
"""How Moodle writes a null value in its exports (backup and XML)."""

SETTINGS = ("single", "usecase", "unitgradingtype", "showunits", "gradingtype", "selecttype", "selectcount", "attachments")
"""The one-value settings of a question read into :attr:`Question.settings` (absent: not there)."""


@dataclass(frozen=True)
class Text:
    """A text field: its content as written and its ``format`` (``html`` when not given)."""

    text: str = ""
    format: str = "html"


@dataclass(frozen=True)
class Answer:
    text: str
    """The answer's ``<text>`` (markup kept)."""
    format: str
    """The ``format`` of the ``<answer>`` (``html`` when not given)."""
    fraction: str | None
    """The ``fraction`` attribute as written (a percentage), None when absent."""
    feedback: Text
    tolerance: str | None = None
    """``numerical``: the ``<tolerance>`` as written, None when absent."""


@dataclass(frozen=True)
class Unit:
    name: str
    multiplier: str | None


@dataclass(frozen=True)
class Subquestion:
    text: Text
    answer: str
    """The ``<answer><text>`` as written."""


@dataclass(frozen=True)
class Category:
    path: str
    """The ``<category><text>`` as written (``$course$/top/A/B``)."""
    idnumber: str | None
    line: int = 0


@dataclass(frozen=True)
class Question:
    type: str
    """The ``type`` attribute (``multichoice``, ``matching``, ``cloze``, …; ``""`` when absent)."""
    name: str
    idnumber: str | None
    questiontext: Text
    generalfeedback: Text
    answers: list[Answer] = field(default_factory=list)
    units: list[Unit] = field(default_factory=list)
    subquestions: list[Subquestion] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    """The text of each ``<tags><tag><text>`` as written."""
    graderinfo: Text = Text()
    responsetemplate: Text = Text()
    settings: dict[str, str] = field(default_factory=dict)
    """The :data:`SETTINGS` the question has, as written."""
    line: int = 0
    """The line the question starts on (0 when it cannot be told)."""
    offset: int = -1
    """The byte offset of its ``<question`` in the file (-1 when it cannot be told)."""
    element: Element | None = field(default=None, compare=False, repr=False)
    """The question's element, for what the records leave out (the files and images a text
    embeds, which the importer names when it drops them); None when the file was read streamed
    (:class:`Streamed`)."""


@dataclass(frozen=True)
class File:
    root: str
    """The root element's tag (``quiz`` for a Moodle XML file)."""
    entries: list[Category | Question]
    """Categories and questions, in file order."""

    @property
    def questions(self) -> list[Question]:
        return [e for e in self.entries if isinstance(e, Question)]


def read(raw: bytes) -> File:
    """The records of an untrusted file (:class:`~.xml.XmlRefused`, :class:`~.xml.XmlMalformed`)."""
    return records(parse(raw), raw)


def read_own(raw: bytes) -> File:
    """The records of a file this tool wrote, as :func:`records` makes them of
    :func:`~.xml.parse_own`'s tree (the same records, refusals and errors), read through
    :class:`Streamed`: the questions have no :attr:`~Question.element`."""
    stream = Streamed(raw)
    entries = list(stream)
    if not stream.lines_told:  # (as :func:`question_starts` decides: no line is told)
        entries = [replace(e, line=0, offset=-1) if isinstance(e, Question) else replace(e, line=0) for e in entries]
    return File(stream.root, entries)


class Streamed:
    """The categories and questions of a file this tool wrote (an export read back), one at a
    time in file order, as :func:`records` makes them of :func:`~.xml.parse_own`'s tree (the
    same refusals and errors, raised when the parser meets them), without the whole tree: each
    element of the root is emptied once its record is made, so that a file of thousands of
    questions is never held parsed at once (its records have no :attr:`~Question.element`).

    Each entry's line and offset are :func:`question_starts`'s for its place, told before the
    count of questions is known: once the entries are all read, :attr:`lines_told` says whether
    they were right (False when the ``<question`` tags found in the text are not the root's
    question elements, where :func:`records` tells no line: the caller drops them)."""

    def __init__(self, raw: bytes):
        self.raw = raw
        self.root = ""
        """The root element's tag, once the first entry is asked for."""
        self.lines_told: bool | None = None
        """Whether every entry's line and offset were right (None until every entry is read)."""

    def __iter__(self) -> Iterator[Category | Question]:
        starts, count, depth, root = _starts(self.raw), 0, 0, None
        for event, element in iterparse_own(self.raw, events=("start", "end")):
            if event == "start":
                depth += 1
                if root is None:
                    root = element
                    self.root = root.tag if isinstance(root.tag, str) else ""
                continue
            depth -= 1
            if depth != 1:
                continue
            if local(element.tag) == "question":
                offset, line = starts[count] if count < len(starts) else (-1, 0)
                count += 1
                entry = _entry(element, offset, line, None)
                element.clear()
                yield entry
            else:
                element.clear()
        self.lines_told = count == len(starts)


def _text(element: Element, path: str) -> Text:
    holder = element.find(path.rsplit("/", 1)[0]) if "/" in path else element
    return Text(element.findtext(path) or "", holder.get("format", "html") if holder is not None else "html")


def question_starts(raw: bytes, count: int) -> list[tuple[int, int]]:
    """The byte offset and line of each ``<question`` element of ``raw`` (one inside CDATA or a
    comment is text), or (-1, 0) for each if they are not ``count`` (lines that cannot be told)."""
    starts = _starts(raw)
    return starts if len(starts) == count else [(-1, 0)] * count


def _starts(raw: bytes) -> list[tuple[int, int]]:
    """The byte offset and line of each ``<question`` tag of ``raw`` (one inside CDATA or a comment is text)."""
    starts, line, last = [], 1, 0
    for match in re.finditer(rb"<!\[CDATA\[.*?\]\]>|<!--.*?-->|<question(?=[\s>/])", raw, re.DOTALL):
        if match.group().startswith(b"<question"):
            line, last = line + raw.count(b"\n", last, match.start()), match.start()
            starts.append((last, line))
    return starts


def records(root: Element, raw: bytes) -> File:
    """The records of a parsed file; ``raw`` gives the lines."""
    elements = children(root, "question")
    entries = [_entry(element, offset, line, element) for element, (offset, line) in zip(elements, question_starts(raw, len(elements)))]
    return File(root.tag if isinstance(root.tag, str) else "", entries)


def _entry(element: Element, offset: int, line: int, keep: Element | None) -> Category | Question:
    """The record of one ``<question>`` element of the root (``keep``: the element the record holds)."""
    kind = element.get("type") or ""
    if kind == "category":
        return Category(element.findtext("category/text") or "", element.findtext("idnumber"), line)
    return Question(
        type=kind,
        name=element.findtext("name/text") or "",
        idnumber=element.findtext("idnumber"),
        questiontext=_text(element, "questiontext/text"),
        generalfeedback=_text(element, "generalfeedback/text"),
        answers=[Answer(a.findtext("text") or "", a.get("format", "html"), a.get("fraction"), _text(a, "feedback/text"), a.findtext("tolerance"))
                 for a in children(element, "answer")],
        units=[Unit(u.findtext("unit_name") or "", u.findtext("multiplier")) for u in element.findall("units/unit")],
        subquestions=[Subquestion(Text(s.findtext("text") or "", s.get("format", "html")), s.findtext("answer/text") or "")
                      for s in element.findall("subquestion")],
        tags=[t.text or "" for t in element.findall("tags/tag/text")],
        graderinfo=_text(element, "graderinfo/text"),
        responsetemplate=_text(element, "responsetemplate/text"),
        settings={name: element.findtext(name) for name in SETTINGS if element.find(name) is not None},
        line=line,
        offset=offset,
        element=keep,
    )
