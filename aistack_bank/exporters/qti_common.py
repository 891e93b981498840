"""The QTI item, test and manifest writer shared by QTI 2.1 and QTI 3.0 (which differ in names)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import partial
from pathlib import PurePosixPath
from typing import Callable, Mapping, Sequence

from ..kinds.short_answer import has_wildcard, literal, spellings, xsd_pattern
from ..model import AnyQuestion, Bank, Library
from ..options import ExportOptions
from ..errors import Diagnostic, warning
from .record import WHOLE_BANK_STEM, Format, as_library, by_category, languages
from .common import any_in_english, deterministic_zip, html_text, in_english, short
from .words import has_words, words, writes_decimal_comma


ELEMENTS = (
    "assessmentItem", "responseDeclaration", "correctResponse", "value", "outcomeDeclaration", "defaultValue",
    "itemBody", "choiceInteraction", "prompt", "simpleChoice", "responseProcessing", "responseCondition",
    "responseIf", "responseElseIf", "responseElse", "match", "variable", "correct", "setOutcomeValue",
    "baseValue", "multiple", "modalFeedback", "assessmentTest", "testPart", "itemSessionControl",
    "assessmentSection", "assessmentItemRef", "outcomeProcessing", "sum", "testVariables",
    # the other kinds: mappings, text entry, matching, and the operators of their processing
    "mapping", "mapEntry", "mapResponse", "textEntryInteraction", "matchInteraction", "simpleMatchSet",
    "simpleAssociableChoice", "and", "not", "isNull", "member", "gte", "lte", "stringMatch", "patternMatch", "or",
    "orderInteraction", "extendedTextInteraction",
)
"""The QTI elements the writer uses, by their QTI 2.1 names (the keys of every dialect's table)."""

ATTRIBUTES = (
    "adaptive", "timeDependent", "baseType", "responseIdentifier", "maxChoices", "outcomeIdentifier", "showHide",
    "navigationMode", "submissionMode", "showFeedback", "allowReview", "variableIdentifier",
    "defaultValue", "lowerBound", "upperBound", "mapKey", "mappedValue", "caseSensitive", "expectedLength",
    "maxAssociations", "matchMax",
)
"""The QTI attributes whose spelling differs between versions, by their QTI 2.1 names."""


@dataclass(frozen=True)
class Dialect:
    """Names and namespaces of one QTI version: everything in which QTI 2.1 and 3.0 differ."""

    namespace: str
    schema_location: str
    manifest_namespace: str
    manifest_schema_location: str
    schema_name: str
    schema_version: str
    item_type: str
    test_type: str
    elements: Mapping[str, str]
    """QTI 2.1 element name → this version's name (QTI 3 writes ``qti-choice-interaction``)."""
    attributes: Mapping[str, str]
    """QTI 2.1 attribute name → this version's name (QTI 3 writes ``response-identifier``)."""
    feedback_body: str | None = None
    """The element wrapping a modal feedback's content, if the version has one."""
    numbering_classes: Mapping[str, str] = field(default_factory=dict)
    """``answer_numbering`` → the class of the choice interaction that asks for that numbering."""

    def __post_init__(self) -> None:
        assert set(self.elements) == set(ELEMENTS), sorted(set(self.elements) ^ set(ELEMENTS))
        assert set(self.attributes) == set(ATTRIBUTES), sorted(set(self.attributes) ^ set(ATTRIBUTES))

    def element(self, parent: Element | None, name: str, attributes: Mapping[str, str] = {}, text: str | None = None) -> Element | None:
        """A QTI element ``name`` (its QTI 2.1 name) under ``parent`` (None: the document's root),
        attribute names translated, written as it is added (:class:`Element`). An element with
        ``text`` is written whole on its line and can take no child (None is returned)."""
        marked = text is not None and name in MARKABLE and in_english(text)  # an English fallback in a translated item says so
        key = (self.namespace, name, marked, *attributes.items())
        start = _STARTS.get(key)
        if start is None:
            attrib = {self.attributes.get(key, key): value for key, value in attributes.items()}
            if marked:
                attrib["xml:lang"] = "en"
            start = _start(self.elements[name], attrib)
            if len(_STARTS) >= 1 << 14:
                _STARTS.clear()
            _STARTS[key] = start
        tag = self.elements[name]
        if parent is None:
            return Element(_Document(), 0, start, tag)
        return parent.child(start, tag, text)

    def inline(self, parent: Element, name: str, attributes: Mapping[str, str], inner: str) -> None:
        """An element ``name`` holding the markup ``inner``, written on one line."""
        key = (self.namespace, name, False, *attributes.items())
        start = _STARTS.get(key)
        if start is None:  # (a modal feedback's start tag recurs in every item that has that feedback)
            start = _start(self.elements[name], {self.attributes.get(key, key): value for key, value in attributes.items()})
            if len(_STARTS) >= 1 << 14:
                _STARTS.clear()
            _STARTS[key] = start
        parent.line(start + ">" + inner + "</" + self.elements[name] + ">")


MARKABLE = frozenset({"prompt", "simpleChoice", "simpleAssociableChoice", "inlineChoice", "gapText"})
"""The body elements whose text may be a fallback in English: they take ``xml:lang``."""

XSI_NS = "http://www.w3.org/2001/XMLSchema-instance"


_escape = html_text
"""Text and attribute values escaped as :func:`~.common.html_text` escapes them (``& < > " '``)."""


_STARTS: dict[tuple, str] = {}
"""Start tags already made (``<name attr="value"`` without its ``>``), by dialect, element name
and attributes: most recur in every item."""


def _start(tag: str, attributes: Mapping[str, str]) -> str:
    """``<tag name="value"…`` (without ``>``), each value escaped."""
    return "<" + tag + "".join([f' {name}="{_escape(value)}"' for name, value in attributes.items()])


_PADS = tuple("  " * depth for depth in range(32))


class _Document:
    """The lines of an XML document being written, and its elements still open (outermost first)."""

    __slots__ = ("lines", "open")

    def __init__(self) -> None:
        self.lines = ['<?xml version="1.0" encoding="UTF-8"?>']
        self.open: list[Element] = []


class Element:
    """An element of an XML document written as its elements are added, in document order, in
    the layout the element trees it replaces were serialized in: two-space indentation,
    one element per line; an element without children ``<name/>``, one with text (or markup
    written on one line, :meth:`line`) on its line.

    Adding to an element closes the elements opened after it (its descendants): an element
    can only be added to while it is open, which the writers' document order ensures (adding
    to one already closed raises AssertionError, never a wrong file). An element's start tag is
    written when its first child comes, its end tag when it is closed."""

    __slots__ = ("document", "depth", "start", "tag", "started")

    def __init__(self, document: _Document, depth: int, start: str, tag: str) -> None:
        self.document, self.depth, self.start, self.tag, self.started = document, depth, start, tag, False
        document.open.append(self)

    def _enter(self) -> list[str]:
        """Close what was opened after this element, write its start tag if not yet written:
        the document's lines, ready for a child."""
        document = self.document
        opened = document.open
        depth = self.depth
        while len(opened) > depth + 1:
            opened.pop()._end()
        assert opened and opened[-1] is self, f"<{self.tag}> added to after it was closed"
        lines = document.lines
        if not self.started:
            lines.append(_pad(depth) + self.start + ">")
            self.started = True
        return lines

    def _end(self) -> None:
        pad = _pad(self.depth)
        self.document.lines.append(pad + "</" + self.tag + ">" if self.started else pad + self.start + "/>")

    def child(self, start: str, tag: str, text: str | None = None) -> Element | None:
        """A child element (``start``: its start tag without ``>``); with ``text``, written whole."""
        lines = self._enter()
        if text is not None:
            lines.append(_pad(self.depth + 1) + start + ">" + _escape(text) + "</" + tag + ">")
            return None
        return Element(self.document, self.depth + 1, start, tag)

    def sub(self, tag: str, attributes: Mapping[str, str] = {}, text: str | None = None) -> Element | None:
        """A child element named ``tag`` as it is (no dialect), its attribute values escaped."""
        return self.child(_start(tag, attributes) if attributes else "<" + tag, tag, text)

    def line(self, markup: str) -> None:
        """A child written as ``markup``, on one line."""
        self._enter().append(_pad(self.depth + 1) + markup)

    def block(self, lines: tuple[str, ...]) -> None:
        """Children written as ``lines`` (each indented as a child's, and as much again as it
        starts with): what :func:`_block` made once."""
        pad = _pad(self.depth + 1)
        self._enter().extend([pad + line for line in lines])

    def document_bytes(self) -> bytes:
        """The whole document (this element its root), every element closed, as UTF-8."""
        document = self.document
        assert document.open and document.open[0] is self
        while document.open:
            document.open.pop()._end()
        return ("\n".join(document.lines) + "\n").encode("utf-8")


def _pad(depth: int) -> str:
    return _PADS[depth] if depth < len(_PADS) else "  " * depth


def paragraph_markup(text_raw: str) -> str:
    """Plain text as one HTML paragraph on one line, lines kept as ``<br/>``."""
    start = '<p xml:lang="en">' if in_english(text_raw) else "<p>"
    escaped = _escape(text_raw)
    return start + (escaped.replace("\n", "<br/>") if "\n" in escaped else escaped) + "</p>"  # (escaping leaves line breaks as they are)


def paragraph(parent: Element, text_raw: str) -> None:
    """Plain text as one HTML paragraph under ``parent``, lines kept as ``<br/>``."""
    parent.line(paragraph_markup(text_raw))


_NOT_NCNAME = re.compile(r"[^A-Za-z0-9_-]")


def ncname(value: str) -> str:
    """An identifier safe as an XML NCName and for OpenOlat: a letter first, then [A-Za-z0-9_-]."""
    cleaned = _NOT_NCNAME.sub("_", value)
    return cleaned if cleaned[:1].isalpha() else f"id_{cleaned}"


def _question_names(question_id: str) -> tuple[str, str]:
    """``question_id`` with each character an NCName cannot hold replaced (as :func:`ncname`
    replaces them), and that made an NCName (``id_`` in front unless it starts with a letter).
    :func:`ncname` replaces character by character, so for a language whose code is ``L`` once
    replaced, :func:`item_path` is ``"items/" + named + ".xml"``, :func:`item_identifier` is
    ``named + "-" + L`` and the item's resource identifier ``"item-" + replaced + "-" + L``: a
    package's manifest and test replace each question's id once, not once per identifier."""
    replaced = _NOT_NCNAME.sub("_", question_id)
    return replaced, replaced if replaced[:1].isalpha() else "id_" + replaced


# Identifiers (docs/lms-notes.md): every identifier a target keeps unique names the language,
# and each keeps the bank id readable in front of it:
#   package (manifest)  manifest-<topic>-<lang>     test        <topic>-<lang>
#   (whole bank: manifest-bank-<lang>, test bank-<lang>, one section section-<topic> per topic)
#   test resource       test-<topic>-<lang>         item        <qid>-<lang> (file items/<qid>.xml)
#   item resource       item-<qid>-<lang>           LOM         general/identifier/entry = <qid>
#   choice              choice-<option>             feedback    feedback-<option>, general_explanation
# Canvas reads a modal feedback whose identifier matches /correct|(_C$)/i as the "correct answer"
# comment and /general_|_all/i as the neutral one, so choices and their feedback use "-<option>".
GENERAL_FEEDBACK = "general_explanation"
LOM_NS = "http://ltsc.ieee.org/xsd/LOM"
LOM_CATALOG = "aistack-bank"


def item_identifier(question_id: str, lang: str) -> str:
    return ncname(f"{question_id}-{lang}")


def choice_identifier(option_id: str) -> str:
    return ncname(f"choice-{option_id}")


def feedback_identifier(option_id: str) -> str:
    return ncname(f"feedback-{option_id}")


def _root(d: Dialect, name: str, attributes: Mapping[str, str]) -> Element:
    return d.element(None, name, _root_attributes(d, attributes))


def _root_attributes(d: Dialect, attributes: Mapping[str, str]) -> dict[str, str]:
    return {"xmlns": d.namespace, "xmlns:xsi": XSI_NS, "xsi:schemaLocation": f"{d.namespace} {d.schema_location}", **attributes}


_BLOCKS: dict[tuple, tuple[str, ...]] = {}
"""Lines that recur in every item (a score set, a feedback added, the outcomes), by dialect and
what they say: written once by the element writer, then copied."""


def _block(d: Dialect, key: tuple, write: Callable[[Element], None]) -> tuple[str, ...]:
    """The lines ``write(parent)`` adds under a parent, indented from the parent's children on
    (made once per dialect and ``key``, which holds every value ``write`` writes)."""
    key = (d.namespace, *key)
    found = _BLOCKS.get(key)
    if found is None:
        scratch = Element(_Document(), 0, "<scratch", "scratch")
        write(scratch)
        lines = scratch.document_bytes().decode("utf-8").split("\n")
        assert lines[1] == "<scratch>" and lines[-2] == "</scratch>" and lines[-1] == "", lines
        found = tuple(line[2:] for line in lines[2:-2])
        if len(_BLOCKS) >= 1 << 12:
            _BLOCKS.clear()
        _BLOCKS[key] = found
    return found


def _match_rule(d: Dialect, parent: Element, branch: str, second: tuple[str, Mapping[str, str], str | None]) -> Element:
    """``<branch><match><variable identifier="RESPONSE"/>second</match>…`` (the caller adds the action)."""
    rule = d.element(parent, branch)
    name, attributes, text = second

    def write(rule: Element) -> None:
        match = d.element(rule, "match")
        d.element(match, "variable", {"identifier": "RESPONSE"})
        d.element(match, name, attributes, text)

    rule.block(_block(d, ("match", name, text, *attributes.items()), write))
    return rule


def _set_score(d: Dialect, parent: Element, value: str) -> None:
    def write(parent: Element) -> None:
        setter = d.element(parent, "setOutcomeValue", {"identifier": "SCORE"})
        d.element(setter, "baseValue", {"baseType": "float"}, value)

    parent.block(_block(d, ("score", value), write))


def _number(value: float) -> str:
    """A float as an ``xs:double`` literal: ``14``, ``0.5``, ``1e-05``."""
    text = repr(float(value))
    return text[:-2] if text.endswith(".0") else text


def _base(d: Dialect, parent: Element, base_type: str, value: str) -> Element:
    return d.element(parent, "baseValue", {"baseType": base_type}, value)


def _response(d: Dialect, parent: Element) -> Element:
    return d.element(parent, "variable", {"identifier": "RESPONSE"})


def _add_feedback(d: Dialect, parent: Element, identifiers: Sequence[str]) -> None:
    """``FEEDBACK`` := ``FEEDBACK`` with ``identifiers`` added (the action of a feedback rule)."""
    def write(parent: Element) -> None:
        several = d.element(d.element(parent, "setOutcomeValue", {"identifier": "FEEDBACK"}), "multiple")
        d.element(several, "variable", {"identifier": "FEEDBACK"})
        for identifier in identifiers:
            _base(d, several, "identifier", identifier)

    parent.block(_block(d, ("feedback", *identifiers), write))


def _in_range(d: Dialect, parent: Element, low: float, high: float) -> None:
    """``low <= RESPONSE <= high``: every engine evaluates ``gte``/``lte``, while ``equal`` with a
    tolerance is missing from some players and its relative mode is in percent and inverts for a
    negative key (the bounds are computed here instead)."""
    both = d.element(parent, "and")
    for name, bound in (("gte", low), ("lte", high)):
        test = d.element(both, name)
        _response(d, test)
        _base(d, test, "float", _number(bound))


def _general_when_answered(d: Dialect, processing: Element, q) -> None:
    """The explanation, shown once the learner has answered."""
    if q.explanation is None:
        return
    rule = d.element(d.element(processing, "responseCondition"), "responseIf")
    _response(d, d.element(d.element(rule, "not"), "isNull"))
    _add_feedback(d, rule, [GENERAL_FEEDBACK])


def render_item(*, d: Dialect, bank: Bank, index: int, options: ExportOptions = ExportOptions(), titles: Titles | None = None) -> bytes:
    """An item; with ``titles``, its title escaped taken from there when its package's manifest
    kept it (:class:`Titles`)."""
    q = bank.questions[index]
    if q.kind in SLOTS:
        made = _from_template(d, q, bank.lang, options, titles)
        if made is not None:
            return made
    return written_item(d, q, bank.lang, options)


class Titles:
    """Each question's title as its item's ``title`` attribute holds it (shortened and escaped),
    kept by the package's manifest, which writes the same text as the question's LOM title and
    comes first in the zip (``imsmanifest.xml`` sorts before ``items/``), for the question's
    item, which takes it (and drops it) instead of making it again. Kept by the question's id,
    with the question, so that only the same question takes it."""

    __slots__ = ("_kept",)

    def __init__(self) -> None:
        self._kept: dict[str, tuple] = {}

    def keep(self, q, title: str) -> None:
        self._kept[q.id] = (q, title)

    def take(self, q) -> str | None:
        kept = self._kept.pop(q.id, None)
        return kept[1] if kept is not None and kept[0] is q else None


def _item_attributes(q, lang: str) -> dict[str, str]:
    return _item_root(item_identifier(q.id, lang), _item_title(q), lang)


def _item_title(q) -> str:
    return short(q.id + ": " + q.stem, 120)


def _item_root(identifier: str, title: str, lang: str) -> dict[str, str]:
    return {"identifier": identifier, "title": title, "adaptive": "false", "timeDependent": "false", "xml:lang": lang}


def written_item(d: Dialect, q, lang: str, options: ExportOptions = ExportOptions()) -> bytes:
    """An item written by the element writer (:func:`render_item` copies a choice item from
    the template of its shape instead, :func:`_from_template`)."""
    kind = q.kind
    item = _root(d, "assessmentItem", _item_attributes(q, lang))
    feedbacks: list[tuple[str, str]] = []
    """(identifier, text) of each modal feedback, in the order they are written."""
    WRITERS[kind](d, item, q, lang, options, feedbacks)
    if q.explanation is not None:
        feedbacks.append((GENERAL_FEEDBACK, q.explanation))
    for identifier, text_raw in feedbacks:  # each on one line, with its paragraph
        inner = paragraph_markup(text_raw)
        if d.feedback_body:
            inner = f"<{d.feedback_body}>{inner}</{d.feedback_body}>"
        d.inline(item, "modalFeedback", {"outcomeIdentifier": "FEEDBACK", "showHide": "show", "identifier": identifier}, inner)
    return item.document_bytes()


# A choice item (single choice, multiple response, true/false) is the same lines for every
# question of its shape but for its root (identifier and title) and its texts: the stem, the
# choices, the feedbacks and the explanation. Each shape's lines are written once by the element
# writer, from the question with a placeholder for each text, and split at the placeholders;
# an item of that shape is then its root and the pieces with its texts escaped in between.

_HOLE = re.compile("\ue000([0-9]+)(\n|<br/>)\ue001")
"""A text's placeholder as the element writer leaves it: escaped (unchanged) as an element's
text (its line break kept) or as a paragraph (its line break made ``<br/>``)."""

def _choice_texts(q) -> list[str | None]:
    return [q.stem, *[text for o in q.options for text in (o.text, o.feedback)], q.explanation]


def _choice_with(q, texts: list[str | None]):
    options = [o.model_copy(update={"text": texts[1 + 2 * n], "feedback": texts[2 + 2 * n]}) for n, o in enumerate(q.options)]
    return q.model_copy(update={"stem": texts[0], "options": options, "explanation": texts[-1]})


def _true_false_texts(q) -> list[str | None]:
    return [q.stem, q.feedback_true, q.feedback_false, q.explanation]


def _true_false_with(q, texts: list[str | None]):
    stem, feedback_true, feedback_false, explanation = texts
    return q.model_copy(update={"stem": stem, "feedback_true": feedback_true, "feedback_false": feedback_false, "explanation": explanation})


@dataclass(frozen=True)
class Slots:
    """How a kind's choice item is copied from the template of its shape: the texts the
    template leaves open, in a fixed order (``texts``), the question with those texts replaced
    (``with_texts``), and what else its lines depend on (``keys(q, lang, marked)``: the
    choices' keys, the right ones, the scoring; true/false's answer and whether its labels are
    English fallbacks)."""

    texts: Callable
    with_texts: Callable
    keys: Callable


SLOTS: dict[str, Slots] = {
    "single-choice": Slots(_choice_texts, _choice_with, lambda q, lang, marked: (tuple([o.id for o in q.options]), tuple(q.right_ids()), None)),
    "multiple-response": Slots(_choice_texts, _choice_with, lambda q, lang, marked: (tuple([o.id for o in q.options]), tuple(q.right_ids()), q.scoring)),
    "true-false": Slots(_true_false_texts, _true_false_with, lambda q, lang, marked: (
        (q.answer, in_english(words(lang).true), in_english(words(lang).false)) if marked is not None else (q.answer,))),
}
"""The kinds whose items are copied from their shape's template (QTI 2.1 and 3.0 here, QTI 1.2
in ``qti12_common``), by kind."""

_TEMPLATES: dict[tuple, tuple | None] = {}
"""By shape (:func:`_shape`): the item's first line, then its pieces after the root (texts
between them, and whether each is a paragraph), or None when the shape cannot be split."""


def slot_texts(q) -> list[str | None]:
    """The texts of a choice item a template leaves open, in a fixed order."""
    return SLOTS[q.kind].texts(q)


def with_texts(q, texts: list[str | None]):
    """``q`` with the texts of :func:`slot_texts` replaced by ``texts``."""
    return SLOTS[q.kind].with_texts(q, texts)


def _shape(d: Dialect, q, lang: str, options: ExportOptions, texts: list[str | None], marked: tuple[bool, ...] | None) -> tuple:
    """Everything but the texts and the root that a choice item's lines depend on: the
    dialect, the kind, the language (true/false's labels), the options it honours, the
    kind's keys (:data:`SLOTS`), which texts are missing or empty, and which are English
    fallbacks (``marked``; None: none is)."""
    return (d.namespace, q.kind, lang, options.shuffle, options.answer_numbering, SLOTS[q.kind].keys(q, lang, marked),
            tuple([text if not text else True for text in texts]), marked)


def _template(d: Dialect, q, lang: str, options: ExportOptions, texts: list[str | None], marked: tuple[bool, ...] | None) -> tuple | None:
    """The template of ``q``'s shape: the item written with a placeholder for each text that
    is neither missing nor empty (an English fallback's placeholder counted as one), split."""
    from .common import placeholders_in_english

    holes = [None if not text else f"\ue000{n}\n\ue001" for n, text in enumerate(texts)]
    placeholders = [hole if hole is not None else text for hole, text in zip(holes, texts)]
    fallbacks = frozenset(hole for hole, mark in zip(holes, marked or ()) if hole is not None and mark)
    with placeholders_in_english(fallbacks):
        text = written_item(d, with_texts(q, placeholders), lang, options).decode("utf-8")
    first, _, rest = text.partition("\n")
    _, _, rest = rest.partition("\n")  # (the root, made for each item from its own template)
    root = {d.attributes.get(name, name): value for name, value in _root_attributes(d, _item_root("\ue000", "\ue001", lang)).items()}
    head, _, tail = (_start(d.elements["assessmentItem"], root) + ">\n").partition("\ue000")
    middle, _, tail = tail.partition("\ue001")
    pieces = _HOLE.split(rest)
    literals, slots = pieces[0::3], [(int(n), way != "\n") for n, way in zip(pieces[1::3], pieces[2::3])]
    if sorted(n for n, _ in slots) != [n for n, hole in enumerate(holes) if hole is not None] or any("\ue000" in piece or "\ue001" in piece for piece in literals):
        return None  # (a placeholder written otherwise, or twice: the shape's items are written whole)
    return (first + "\n" + head).encode("utf-8"), middle.encode("utf-8"), (tail + literals[0]).encode("utf-8"), tuple(literal.encode("utf-8") for literal in literals[1:]), tuple(slots)


def _from_template(d: Dialect, q, lang: str, options: ExportOptions, titles: Titles | None = None) -> bytes | None:
    """``q``'s item copied from the template of its shape (None: the shape has none); its title
    taken from ``titles`` when kept there (list comprehensions, not generators, and nothing imported
    here: 60 000 calls in a build of 10 000 questions)."""
    texts = SLOTS[q.kind].texts(q)
    marked = tuple([bool(text) and in_english(text) for text in texts]) if any_in_english() else None
    key = _shape(d, q, lang, options, texts, marked)
    template = _TEMPLATES.get(key, False)
    if template is False:
        template = _template(d, q, lang, options, texts, marked)
        if len(_TEMPLATES) >= 1 << 12:
            _TEMPLATES.clear()
        _TEMPLATES[key] = template
    if template is None:
        return None
    head, middle, first, literals, slots = template  # (in UTF-8: only the texts put in are encoded for each item)
    title = titles.take(q) if titles is not None else None
    if title is None:
        title = _escape(_item_title(q))
    out = [head, item_identifier(q.id, lang).encode("utf-8"), middle, title.encode("utf-8"), first]  # (an identifier is an NCName: nothing in it to escape)
    for (n, paragraph), literal in zip(slots, literals):
        escaped = _escape(texts[n])
        out.append((escaped.replace("\n", "<br/>") if paragraph and "\n" in escaped else escaped).encode("utf-8"))  # (replaced only where there is one: html_text)
        out.append(literal)
    return b"".join(out)


def _outcomes(d: Dialect, item: Element) -> None:
    def write(item: Element) -> None:
        score = d.element(item, "outcomeDeclaration", {"identifier": "SCORE", "cardinality": "single", "baseType": "float"})
        d.element(d.element(score, "defaultValue"), "value", text="0")
        d.element(item, "outcomeDeclaration", {"identifier": "FEEDBACK", "cardinality": "multiple", "baseType": "identifier"})

    item.block(_block(d, ("outcomes",), write))


def _option_choices(q, lang: str) -> tuple[list[tuple[str, str, str | None]], list[str]]:
    """(key, text, feedback) of each option, and the right options' keys."""
    return [(o.id, o.text, o.feedback) for o in q.options], list(q.right_ids())


def _true_false_choices(q, lang: str) -> tuple[list[tuple[str, str, str | None]], list[str]]:
    """True and false in ``lang`` as two choices, and the right one's key."""
    labels = words(lang)
    return [("true", labels.true, q.feedback_true), ("false", labels.false, q.feedback_false)], ["true" if q.answer else "false"]


def _choice_item(d: Dialect, item: Element, q, lang: str, options: ExportOptions, feedbacks: list, *,
                 choices_of: Callable, multiple: bool, shuffled: bool) -> None:
    """A choice interaction: ``choices_of`` gives the choices and the right ones' keys;
    ``multiple``: any number of picks; ``shuffled``: the choices shuffled when the export shuffles."""
    choices, keys = choices_of(q, lang)
    choice_id = {key: choice_identifier(key) for key, _, _ in choices}
    partial = multiple and q.scoring == "partial"
    order = tuple(key for key, _, _ in choices)  # (the declaration and the processing depend on the choices' keys, never on their texts)
    right = tuple(key for key in order if key in keys)
    item.block(_block(d, ("choice-declaration", multiple, partial, order, right, len(keys)), lambda item: _choice_declaration(d, item, order, right, len(keys), multiple, partial)))
    numbering = d.numbering_classes.get(options.answer_numbering)
    interaction = d.element(d.element(item, "itemBody"), "choiceInteraction", {
        **({"class": numbering} if numbering else {}),
        "responseIdentifier": "RESPONSE", "shuffle": "true" if options.shuffle and shuffled else "false",
        "maxChoices": "0" if multiple else "1",
    })
    d.element(interaction, "prompt", text=q.stem)
    for key, text_raw, _ in choices:
        d.element(interaction, "simpleChoice", {"identifier": choice_id[key]}, text_raw)
    with_feedback = tuple(0 if feedback is None else 2 if feedback else 1 for _, _, feedback in choices)  # none, empty, a text
    explained = q.explanation is not None
    processing = d.element(item, "responseProcessing")
    processing.block(_block(d, ("choice-processing", multiple, partial, order, with_feedback, explained),
                            lambda processing: _choice_processing(d, processing, order, with_feedback, explained, multiple, partial)))
    feedbacks += [(feedback_identifier(key), feedback) for key, _, feedback in choices if feedback]


def _choice_declaration(d: Dialect, item: Element, order: tuple[str, ...], right: tuple[str, ...], count: int, multiple: bool, partial: bool) -> None:
    """A choice item's response declaration (``order``: the choices' keys, ``right``: the right
    ones in that order, ``count``: how many keys are right) and its outcomes."""
    declaration = d.element(item, "responseDeclaration", {
        "identifier": "RESPONSE", "cardinality": "multiple" if multiple else "single", "baseType": "identifier"})
    correct = d.element(declaration, "correctResponse")
    for key in right:
        d.element(correct, "value", text=choice_identifier(key))
    if partial:
        # Each right pick +1/k, each wrong pick -1/k, the sum kept within [0, 1].
        share = 1 / count
        mapping = d.element(declaration, "mapping", {"lowerBound": "0", "upperBound": "1", "defaultValue": "0"})
        for key in order:
            d.element(mapping, "mapEntry", {"mapKey": choice_identifier(key), "mappedValue": _number(share if key in right else -share)})
    _outcomes(d, item)


def _choice_processing(d: Dialect, processing: Element, order: tuple[str, ...], with_feedback: tuple[int, ...], explained: bool, multiple: bool, partial: bool) -> None:
    """A choice item's response processing (``order``: the choices' keys, ``with_feedback``:
    each one's feedback, 0 if it has none, 1 if it is empty, 2 if it has a text;
    ``explained``: whether the question has an explanation)."""
    if partial:
        d.element(d.element(processing, "setOutcomeValue", {"identifier": "SCORE"}), "mapResponse", {"identifier": "RESPONSE"})
    else:
        # match_correct, written inline (many players do not resolve template URLs).
        scoring = d.element(processing, "responseCondition")
        _set_score(d, _match_rule(d, scoring, "responseIf", ("correct", {"identifier": "RESPONSE"}, None)), "1")
        _set_score(d, d.element(scoring, "responseElse"), "0")
    if multiple:
        # Each picked option adds its feedback; then the explanation.
        for key, feedback in zip(order, with_feedback):
            if feedback == 0:
                continue
            rule = d.element(d.element(processing, "responseCondition"), "responseIf")
            member = d.element(rule, "member")
            _base(d, member, "identifier", choice_identifier(key))
            _response(d, member)
            _add_feedback(d, rule, [feedback_identifier(key)])
        if explained:  # the explanation, shown once the learner has answered
            rule = d.element(d.element(processing, "responseCondition"), "responseIf")
            _response(d, d.element(d.element(rule, "not"), "isNull"))
            _add_feedback(d, rule, [GENERAL_FEEDBACK])
    else:
        # One rule per choice adding a fixed feedback identifier to FEEDBACK (the form Canvas's
        # importer reads as that choice's comment) and the general explanation.
        feedback_rules = d.element(processing, "responseCondition")
        for position, (key, feedback) in enumerate(zip(order, with_feedback)):
            rule = _match_rule(d, feedback_rules, "responseIf" if position == 0 else "responseElseIf",
                               ("baseValue", {"baseType": "identifier"}, choice_identifier(key)))
            _add_feedback(d, rule, ([feedback_identifier(key)] if feedback == 2 else []) + ([GENERAL_FEEDBACK] if explained else []))


def _numerical_item(d: Dialect, item: Element, q, lang: str, feedbacks: list) -> None:
    declaration = d.element(item, "responseDeclaration", {"identifier": "RESPONSE", "cardinality": "single", "baseType": "float"})
    d.element(d.element(declaration, "correctResponse"), "value", text=_number(q.answer))
    _outcomes(d, item)
    body = d.element(item, "itemBody")
    paragraph(body, q.stem)
    labels = words(lang)
    asked = ([labels.unit.format(unit=q.units[0].name)] if q.units else []) + ([labels.point] if writes_decimal_comma(lang) else [])
    if asked:
        paragraph(body, " ".join(asked))
    entry = body.sub("p")
    d.element(entry, "textEntryInteraction", {"responseIdentifier": "RESPONSE", "expectedLength": str(max(8, len(_number(q.answer)) + 2))})
    processing = d.element(item, "responseProcessing")
    scoring = d.element(processing, "responseCondition")
    # No answer: 0 (a null response fails every comparison anyway; this keeps the rule explicit).
    first = d.element(scoring, "responseIf")
    _response(d, d.element(first, "isNull"))
    _set_score(d, first, "0")
    right = d.element(scoring, "responseElseIf")
    _in_range(d, right, q.answer - q.absolute_tolerance, q.answer + q.absolute_tolerance)
    _set_score(d, right, "1")
    if q.explanation is not None:
        _add_feedback(d, right, [GENERAL_FEEDBACK])
    for number, near in enumerate(q.near_misses, start=1):
        rule = d.element(scoring, "responseElseIf")
        _in_range(d, rule, near.value - near.tolerance, near.value + near.tolerance)
        _set_score(d, rule, _number(near.credit))
        identifier = ncname(f"feedback-near-{number}")
        _add_feedback(d, rule, [identifier] + ([GENERAL_FEEDBACK] if q.explanation is not None else []))
        feedbacks.append((identifier, near.feedback))
    otherwise = d.element(scoring, "responseElse")
    _set_score(d, otherwise, "0")
    if q.explanation is not None:
        _add_feedback(d, otherwise, [GENERAL_FEEDBACK])


def _short_answer_item(d: Dialect, item: Element, q, feedbacks: list) -> None:
    """``textEntryInteraction``: the accepted answers in the declaration's mapping (as written:
    a ``\\*`` as its star, an answer with Moodle's wildcard as it is, for readers of the file),
    scored by one rule per answer in order of credit (the first that matches sets the score, as
    the bank gives the most credit among the answers that match). An answer's rule is a
    ``stringMatch`` of each spelling the bank's folding accepts that a learner commonly types
    (:func:`~aistack_bank.kinds.short_answer.spellings`, as for Moodle), which every player
    compares alike; an answer with Moodle's wildcard is a ``patternMatch`` of the folding rule
    as an XML Schema pattern (:func:`~aistack_bank.kinds.short_answer.xsd_pattern`), which a
    conforming player matches against the whole response."""
    case = "true" if q.case_sensitive else "false"
    declaration = d.element(item, "responseDeclaration", {"identifier": "RESPONSE", "cardinality": "single", "baseType": "string"})
    plain = [a for a in q.answers if not has_wildcard(a.text)] or q.answers
    best = max(plain, key=lambda a: a.credit)
    d.element(d.element(declaration, "correctResponse"), "value", text=literal(best.text))
    mapping = d.element(declaration, "mapping", {"lowerBound": "0", "upperBound": "1", "defaultValue": "0"})
    for answer in q.answers:
        key = answer.text if has_wildcard(answer.text) else literal(answer.text)
        d.element(mapping, "mapEntry", {"mapKey": key, "mappedValue": _number(answer.credit), "caseSensitive": case})
    _outcomes(d, item)
    body = d.element(item, "itemBody")
    paragraph(body, q.stem)
    entry = body.sub("p")
    d.element(entry, "textEntryInteraction", {"responseIdentifier": "RESPONSE", "expectedLength": str(max(10, max(len(a.text) for a in q.answers) + 2))})
    processing = d.element(item, "responseProcessing")
    rules = d.element(processing, "responseCondition")
    ranked = sorted(enumerate(q.answers, start=1), key=lambda pair: -pair[1].credit)
    for position, (number, answer) in enumerate(ranked):
        rule = d.element(rules, "responseIf" if position == 0 else "responseElseIf")
        if has_wildcard(answer.text):
            _response(d, d.element(rule, "patternMatch", {"pattern": xsd_pattern(answer.text, q.case_sensitive, q.fold_diacritics)}))
        else:
            texts = list(dict.fromkeys(literal(t) for t in spellings(answer.text, q.fold_diacritics)))
            parent = d.element(rule, "or") if len(texts) > 1 else rule
            for text in texts:
                test = d.element(parent, "stringMatch", {"caseSensitive": case})
                _response(d, test)
                _base(d, test, "string", text)
        _set_score(d, rule, _number(answer.credit))
        if answer.feedback is not None:
            identifier = ncname(f"feedback-answer-{number}")
            _add_feedback(d, rule, [identifier])
            feedbacks.append((identifier, answer.feedback))
    _general_when_answered(d, processing, q)


def match_targets(q) -> list[tuple[str, str, int]]:
    """(identifier, text, how many prompts it answers) of each answer a matching question offers:
    one per distinct answer text (two prompts may share an answer), then the distractors."""
    targets: dict[str, list] = {}
    for pair in q.pairs:
        if pair.answer in targets:
            targets[pair.answer][2] += 1
        else:
            targets[pair.answer] = [ncname(f"target-{pair.id}"), pair.answer, 1]
    out = [tuple(t) for t in targets.values()]
    return out + [(ncname(f"target-{x.id}"), x.text, 1) for x in q.distractors]


def _matching_item(d: Dialect, item: Element, q, options: ExportOptions, feedbacks: list) -> None:
    targets = match_targets(q)
    target_of = {text: identifier for identifier, text, _ in targets[: len(targets) - len(q.distractors)]}
    keys = [f"{ncname('source-' + pair.id)} {target_of[pair.answer]}" for pair in q.pairs]
    declaration = d.element(item, "responseDeclaration", {"identifier": "RESPONSE", "cardinality": "multiple", "baseType": "directedPair"})
    correct = d.element(declaration, "correctResponse")
    for key in keys:
        d.element(correct, "value", text=key)
    # Each right match earns 1/n; a wrong one nothing.
    mapping = d.element(declaration, "mapping", {"lowerBound": "0", "upperBound": "1", "defaultValue": "0"})
    for key in keys:
        d.element(mapping, "mapEntry", {"mapKey": key, "mappedValue": _number(1 / len(keys))})
    _outcomes(d, item)
    interaction = d.element(d.element(item, "itemBody"), "matchInteraction", {
        "responseIdentifier": "RESPONSE", "shuffle": "true" if options.shuffle else "false", "maxAssociations": str(len(q.pairs))})
    d.element(interaction, "prompt", text=q.stem)
    sources = d.element(interaction, "simpleMatchSet")
    for pair in q.pairs:
        d.element(sources, "simpleAssociableChoice", {"identifier": ncname("source-" + pair.id), "matchMax": "1"}, pair.prompt)
    answers = d.element(interaction, "simpleMatchSet")
    for identifier, text_raw, uses in targets:
        d.element(answers, "simpleAssociableChoice", {"identifier": identifier, "matchMax": str(uses)}, text_raw)
    processing = d.element(item, "responseProcessing")
    d.element(d.element(processing, "setOutcomeValue", {"identifier": "SCORE"}), "mapResponse", {"identifier": "RESPONSE"})
    _general_when_answered(d, processing, q)


def _ordering_item(d: Dialect, item: Element, q, options: ExportOptions) -> None:
    """``orderInteraction``: the items as choices, shuffled; the ordered response scores 1
    when it is exactly the right order (match_correct), else 0."""
    declaration = d.element(item, "responseDeclaration", {"identifier": "RESPONSE", "cardinality": "ordered", "baseType": "identifier"})
    correct = d.element(declaration, "correctResponse")
    for entry in q.items:
        d.element(correct, "value", text=choice_identifier(entry.id))
    _outcomes(d, item)
    interaction = d.element(d.element(item, "itemBody"), "orderInteraction", {
        "responseIdentifier": "RESPONSE", "shuffle": "true"})
    d.element(interaction, "prompt", text=q.stem)
    for entry in q.items:
        d.element(interaction, "simpleChoice", {"identifier": choice_identifier(entry.id)}, entry.text)
    processing = d.element(item, "responseProcessing")
    scoring = d.element(processing, "responseCondition")
    _set_score(d, _match_rule(d, scoring, "responseIf", ("correct", {"identifier": "RESPONSE"}, None)), "1")
    _set_score(d, d.element(scoring, "responseElse"), "0")
    _general_when_answered(d, processing, q)


def _essay_item(d: Dialect, item: Element, q) -> None:
    """``extendedTextInteraction``: a written answer for a person to grade; no automatic scoring
    (SCORE stays 0 until a grader sets it), the explanation shown once answered."""
    d.element(item, "responseDeclaration", {"identifier": "RESPONSE", "cardinality": "single", "baseType": "string"})
    _outcomes(d, item)
    interaction = d.element(d.element(item, "itemBody"), "extendedTextInteraction", {"responseIdentifier": "RESPONSE"})
    d.element(interaction, "prompt", text=q.stem)
    if q.explanation is not None:
        _general_when_answered(d, d.element(item, "responseProcessing"), q)


def item_path(q: AnyQuestion) -> str:
    """An item's path in its package (``items/<id>.xml``; an NCName has no ``/`` or ``.``)."""
    return "items/" + ncname(q.id) + ".xml"


TEST_PATH = PurePosixPath("assessment.xml")


def bank_title(library: Library) -> str:
    """What a package of the whole bank is called: its one topic's title, else its categories'."""
    if len(library.topics) == 1:
        return library.topics[0].topic.title
    return " · ".join(category.title for category, _ in by_category(library))


def bank_id(library: Library) -> str:
    """The id in a package's identifiers: its one topic's id, else ``bank``."""
    return library.topics[0].topic.id if len(library.topics) == 1 else WHOLE_BANK_STEM


def section_identifier(library: Library, bank: Bank) -> str:
    return "section1" if len(library.topics) == 1 else ncname(f"section-{bank.topic.id}")


def render_test(*, d: Dialect, library: Library) -> bytes:
    """The assessment test: one section per topic, in the bank's order (by category)."""
    test = _root(d, "assessmentTest", {"identifier": ncname(f"{bank_id(library)}-{library.lang}"), "title": bank_title(library)})
    d.element(test, "outcomeDeclaration", {"identifier": "SCORE", "cardinality": "single", "baseType": "float"})
    part = d.element(test, "testPart", {"identifier": "part1", "navigationMode": "nonlinear", "submissionMode": "individual"})
    # showFeedback defaults to false: without it a conforming player hides every modal feedback.
    d.element(part, "itemSessionControl", {"showFeedback": "true", "allowReview": "true"})
    tag, identifier, href = d.elements["assessmentItemRef"], d.attributes.get("identifier", "identifier"), '" ' + d.attributes.get("href", "href") + '="'
    for _, topics in by_category(library):
        for bank in topics:
            # Not visible: Canvas turns a visible, titled section into an extra text-only question.
            section = d.element(part, "assessmentSection", {"identifier": section_identifier(library, bank), "title": bank.topic.title, "visible": "false"})
            if bank.questions:  # (each item's reference written as the element writer writes an element without children, as lines; NCNames: nothing to escape)
                lines = section._enter()
                start = _pad(section.depth + 1) + "<" + tag + " " + identifier + '="'
                suffix = "-" + _NOT_NCNAME.sub("_", bank.lang) + href + "items/"  # (item_identifier and item_path from the id replaced once)
                lines += [start + named + suffix + named + '.xml"/>' for _, named in map(_question_names, [q.id for q in bank.questions])]
    total = d.element(d.element(d.element(test, "outcomeProcessing"), "setOutcomeValue", {"identifier": "SCORE"}), "sum")
    d.element(total, "testVariables", {"variableIdentifier": "SCORE"})
    return test.document_bytes()


def _lom(parent: Element, *, lang: str, entry: str | None, title: str, description: str | None, keywords: list[str]) -> None:
    """IEEE LOM (IMS MD 1.3 loose binding) ``general`` metadata: what players list instead of
    identifiers. Its identifier, title, description and keywords are each written on one line."""
    language = ' language="' + _escape(lang) + '"'

    def strings(name: str, text: str) -> None:
        general.line(f"<{name}><string{language}>{_escape(text)}</string></{name}>")

    general = parent.sub("lom", {"xmlns": LOM_NS}).sub("general")
    if entry is not None:
        general.line(f"<identifier><catalog>{LOM_CATALOG}</catalog><entry>{_escape(entry)}</entry></identifier>")
    strings("title", title)
    general.sub("language", text=lang)
    if description is not None:
        strings("description", description)
    for keyword in keywords:
        strings("keyword", keyword)


def _resource(parent: Element, *, identifier: str, type: str, href: PurePosixPath) -> tuple[Element, Element]:
    """A manifest resource and its (empty) metadata element; the caller adds the LOM, then :func:`_file`."""
    resource = parent.sub("resource", {"identifier": identifier, "type": type, "href": str(href)})
    return resource, resource.sub("metadata")


def render_manifest(*, d: Dialect, library: Library, titles: Titles | None = None) -> bytes:
    """The package's manifest; with ``titles``, each question's title kept there for its item (:class:`Titles`)."""
    lang = library.lang
    questions = [q for _, topics in by_category(library) for bank in topics for q in bank.questions]
    tags = sorted({tag for q in questions for tag in q.tags})
    manifest = Element(_Document(), 0, _start("manifest", {
        "xmlns": d.manifest_namespace, "xmlns:xsi": XSI_NS,
        "xsi:schemaLocation": f"{d.manifest_namespace} {d.manifest_schema_location}",
        "identifier": ncname("manifest-" + bank_id(library) + "-" + lang),
    }), "manifest")
    metadata = manifest.sub("metadata")
    metadata.sub("schema", text=d.schema_name)
    metadata.sub("schemaversion", text=d.schema_version)
    summary = library.topics[0].topic.summary if len(library.topics) == 1 else None
    topic_lom = {"lang": lang, "entry": bank_id(library), "title": bank_title(library), "description": summary, "keywords": tags}
    _lom(metadata, **topic_lom)
    manifest.sub("organizations")
    resources = manifest.sub("resources")
    test, test_metadata = _resource(resources, identifier=ncname("test-" + bank_id(library) + "-" + lang), type=d.test_type, href=TEST_PATH)
    _lom(test_metadata, **topic_lom)
    test.sub("file", {"href": str(TEST_PATH)})
    # Each question's dependency and resource written as the element writer writes them
    # (:func:`_resource`, :func:`_lom`), as lines: a few hundred thousand elements in a large bank.
    lines = test._enter()
    pad = _pad(test.depth + 1)
    names = list(map(_question_names, [q.id for q in questions]))  # (the ids replaced once: item_path and the resources' identifiers)
    lang_name = "-" + _NOT_NCNAME.sub("_", lang)
    resource_ids = ["item-" + replaced + lang_name for replaced, _ in names]  # (ncname("item-" + q.id + "-" + lang): an NCName, nothing in it to escape)
    lines += [pad + '<dependency identifierref="' + identifier + '"/>' for identifier in resource_ids]
    lines = resources._enter()
    pads = [_pad(resources.depth + n) for n in range(7)]
    language = _escape(lang)
    string = '<string language="' + language + '">'
    item_type = _escape(d.item_type)
    # Each resource's lines as one piece of text (the document's lines are joined by line breaks):
    # its constant stretches made once.
    type_ = '" type="' + item_type + '" href="'
    entry = ('">\n' + pads[2] + "<metadata>\n" + pads[3] + '<lom xmlns="' + LOM_NS + '">\n' + pads[4] + "<general>\n"
             + pads[5] + "<identifier><catalog>" + LOM_CATALOG + "</catalog><entry>")
    title = "</entry></identifier>\n" + pads[5] + "<title>" + string
    language_line = "</string></title>\n" + pads[5] + "<language>" + language + "</language>"
    keyword = "\n" + pads[5] + "<keyword>" + string
    tail = "\n" + pads[4] + "</general>\n" + pads[3] + "</lom>\n" + pads[2] + "</metadata>\n" + pads[2] + '<file href="'
    end = '"/>\n' + pads[1] + "</resource>"
    keywords_of: dict[tuple[str, ...], str] = {}
    for q, identifier, (_, named) in zip(questions, resource_ids, names):
        path = "items/" + named + ".xml"  # (item_path(q): an NCName's, nothing in it to escape)
        tags = tuple(q.tags)
        keywords = keywords_of.get(tags)
        if keywords is None:  # (a bank's questions share a few hundred sets of tags)
            keywords = keywords_of[tags] = "".join([keyword + _escape(tag) + "</string></keyword>" for tag in tags])
        escaped_title = _escape(_item_title(q))
        if titles is not None and q.kind in SLOTS:  # (the items copied from a template take it: :func:`_from_template`)
            titles.keep(q, escaped_title)
        lines.append(pads[1] + '<resource identifier="' + identifier + type_ + path + entry + _escape(q.id)
                     + title + escaped_title + language_line + keywords + tail + path + end)
    return manifest.document_bytes()


def package_files(*, d: Dialect, library: Library, options: ExportOptions = ExportOptions()) -> dict[PurePosixPath | str, Callable[[], bytes]]:
    """Every file of the content package of ``library`` (one topic or the whole bank), by its
    path inside the zip, as a function that renders it (:func:`~.common.deterministic_zip`
    renders each item when it comes to it: a large package never holds every item at once)."""
    titles = Titles()  # (the manifest, written first, keeps each item's title for it)
    files: dict[PurePosixPath | str, Callable[[], bytes]] = {PurePosixPath("imsmanifest.xml"): lambda: render_manifest(d=d, library=library, titles=titles),
                                                             TEST_PATH: lambda: render_test(d=d, library=library)}
    for _, topics in by_category(library):
        for bank in topics:
            for index, q in enumerate(bank.questions):
                files[item_path(q)] = partial(render_item, d=d, bank=bank, index=index, options=options, titles=titles)
    return files


WORDS_USED: Mapping[str, Callable] = {
    "true-false": lambda q, lang: f"no True/False labels for {lang}",
    "numerical": lambda q, lang: f"no unit sentence for {lang}" if q.units else None,
}
"""What the QTI writers of each kind take from the exporter's words (``exporters/words.py``): per
kind, a function of the question and the language saying what is missing when the exporter has
no words for the language (None: the question takes none); W662 says it."""


def _number_notes(name: str, q, lang: str, *, first: bool, units: bool) -> list[Diagnostic]:
    out = []
    if units and q.units and first:
        extra = f"; other units ({', '.join(u.name for u in q.units[1:])}) are not accepted" if len(q.units) > 1 else ""
        out.append(warning("W660", f"{name}: {q.id} has units, which {name} cannot read: the prompt asks for {q.units[0].name}{extra}"))
    if writes_decimal_comma(lang):
        out.append(warning("W661", f"{name}: {q.id} ({lang}) takes a number, which {name} reads with a decimal point only; "
                                   f"a learner's decimal comma (3,5) is not accepted" + (" (the prompt asks for a point)" if units else "")))
    return out


NUMBER_NOTES: Mapping[str, Callable] = {"numerical": _number_notes}
"""What a QTI format changes of a question of each kind that takes a number: its units (W660,
in the first language only), a decimal comma (W661); ``(format name, question, language, *,
first, units)``, ``units`` False for a format whose prompt does not name the unit."""


def language_notes(name: str, banks: Mapping[str, Bank], *, units: bool = True, kinds: frozenset[str] | None = None,
                   words: Mapping[str, Callable] = WORDS_USED) -> list[Diagnostic]:
    """What a format without units and with point-only numbers changes, question by question:
    units (W660), a decimal comma (W661), and the exporter's own words missing for a language
    (W662; ``words``: what the format's writer of each kind takes of them, :data:`WORDS_USED`)."""
    out: list[Diagnostic] = []
    for lang in languages(banks):
        for q in banks[lang].questions:
            kind = q.kind
            if kinds is not None and kind not in kinds:
                continue
            if kind in NUMBER_NOTES:
                out += NUMBER_NOTES[kind](name, q, lang, first=lang == languages(banks)[0], units=units)
            missing = words[kind](q, lang) if kind in words and not has_words(lang) else None
            if missing:
                out.append(warning("W662", f"{name}: {q.id} ({lang}): {missing}; the English words are used"))
    return out


WRITERS = {
    "single-choice": partial(_choice_item, choices_of=_option_choices, multiple=False, shuffled=True),
    "multiple-response": partial(_choice_item, choices_of=_option_choices, multiple=True, shuffled=True),
    "true-false": partial(_choice_item, choices_of=_true_false_choices, multiple=False, shuffled=False),  # true, then false
    "numerical": lambda d, item, q, lang, options, feedbacks: _numerical_item(d, item, q, lang, feedbacks),
    "short-answer": lambda d, item, q, lang, options, feedbacks: _short_answer_item(d, item, q, feedbacks),
    "matching": lambda d, item, q, lang, options, feedbacks: _matching_item(d, item, q, options, feedbacks),
    "ordering": lambda d, item, q, lang, options, feedbacks: _ordering_item(d, item, q, options),
    "essay": lambda d, item, q, lang, options, feedbacks: _essay_item(d, item, q),
}
"""The function that writes an item's response declaration, interaction and scoring, per kind
(``writer(d, item, question, lang, options, feedbacks)``)."""


def qti_format(name: str, d: Dialect, honours: frozenset[str], *, platforms: str = "", loses: str = "") -> Format:
    """A QTI version's format: `<stem>-<lang>.zip` per language (manifest, test, one item per
    question); with several topics, also `bank-<lang>.zip`, one section per topic."""
    def render(banks: Sequence[Bank], options: ExportOptions) -> bytes:
        (bank,) = banks
        return deterministic_zip(package_files(d=d, library=as_library(bank), options=options))

    def render_bank(libraries: Sequence[Library], options: ExportOptions) -> bytes:
        (library,) = libraries
        return deterministic_zip(package_files(d=d, library=library, options=options))

    def notes(banks: Mapping[str, Bank], options: ExportOptions) -> list[Diagnostic]:
        return language_notes(name, banks)

    return Format(name=name, folder=name, honours=honours, writers=WRITERS, render=render, per_language="{stem}-{lang}.zip",
                  render_bank=render_bank, notes=notes, platforms=platforms, loses=loses)
