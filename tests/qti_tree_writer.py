"""The QTI 2.1 / 3.0 writer as it was before items, tests and manifests were written as text:
element trees (``xml.etree``) serialized by their own writer. Kept verbatim (apart from
``Dialect.element`` as a function) as the reference the text writer is compared with
(``tests/test_qti_text_writer.py``); nothing in the package uses it."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from functools import partial
from pathlib import PurePosixPath
from typing import Callable, Mapping, Sequence

from aistack_bank.exporters.common import html_text, in_english, short
from aistack_bank.exporters.qti_common import Dialect
from aistack_bank.exporters.record import WHOLE_BANK_STEM, by_category
from aistack_bank.exporters.words import words, writes_decimal_comma
from aistack_bank.kinds.short_answer import has_wildcard, literal, spellings, xsd_pattern
from aistack_bank.model import AnyQuestion, Bank, Library
from aistack_bank.options import ExportOptions


def element(d, parent: ET.Element | None, name: str, attributes: Mapping[str, str] = {}, text: str | None = None) -> ET.Element:
    """A QTI element ``name`` (its QTI 2.1 name) under ``parent``, attribute names translated."""
    attrib = {d.attributes.get(key, key): value for key, value in attributes.items()}
    tag = d.elements[name]
    if text is not None and name in MARKABLE and in_english(text):
        attrib["xml:lang"] = "en"  # an English fallback in a translated item says so
    node = ET.Element(tag, attrib) if parent is None else ET.SubElement(parent, tag, attrib)
    node.text = text
    return node



MARKABLE = frozenset({"prompt", "simpleChoice", "simpleAssociableChoice", "inlineChoice", "gapText"})
"""The body elements whose text may be a fallback in English: they take ``xml:lang``."""

XSI_NS = "http://www.w3.org/2001/XMLSchema-instance"


_escape = html_text
"""Text and attribute values escaped as :func:`~.common.html_text` escapes them (``& < > " '``)."""


_OPEN_TAGS: dict[tuple, str] = {}
"""Opening tags already written, by element name and attributes: most recur in every item."""


def _open_tag(node: ET.Element) -> str:
    attrib = node.attrib
    if not attrib:
        return "<" + node.tag
    key = (node.tag, *attrib.items())
    found = _OPEN_TAGS.get(key)
    if found is None:
        found = "<" + node.tag + "".join([f' {name}="{_escape(value)}"' for name, value in attrib.items()])
        if len(_OPEN_TAGS) >= 1 << 14:
            _OPEN_TAGS.clear()
        _OPEN_TAGS[key] = found
    return found


def _one_line(node: ET.Element) -> str:
    text = node.text
    if text is None and not len(node):
        return _open_tag(node) + "/>"
    parts = [_open_tag(node), ">", _escape(text) if text else ""]
    for child in node:
        parts.append(_one_line(child))
        if child.tail:
            parts.append(_escape(child.tail))
    parts += ("</", node.tag, ">")
    return "".join(parts)


def serialize(root: ET.Element, *, inline: frozenset[str] = frozenset()) -> bytes:
    """``root`` as an XML document: two-space indentation, one element per line, except that
    an element with text (mixed content) or named in ``inline`` is written on one line.

    Text and attribute values are escaped as HTML text (``& < > " '``); an element without
    text or children is written ``<name/>``, one whose text is ``""`` as ``<name></name>``.
    """
    lines = ['<?xml version="1.0" encoding="UTF-8"?>']
    append = lines.append

    def write(node: ET.Element, pad: str) -> None:  # an element on several lines
        append(f"{pad}{_open_tag(node)}>")
        inner = pad + "  "
        for child in node:
            if child.text is None and not len(child):
                append(inner + _open_tag(child) + "/>")
            elif child.text is not None or child.tag in inline:
                append(inner + _one_line(child))
            else:
                write(child, inner)
        append(f"{pad}</{node.tag}>")

    if root.text is not None or not len(root) or root.tag in inline:
        append(_one_line(root))
    else:
        write(root, "")
    return ("\n".join(lines) + "\n").encode("utf-8")


def paragraph(parent: ET.Element, text_raw: str) -> ET.Element:
    """Plain text as one HTML paragraph under ``parent``, lines kept as ``<br/>``."""
    first, *rest = text_raw.split("\n")
    node = ET.SubElement(parent, "p", {"xml:lang": "en"} if in_english(text_raw) else {})
    node.text = first
    for line in rest:
        ET.SubElement(node, "br").tail = line
    return node


def ncname(value: str) -> str:
    """An identifier safe as an XML NCName and for OpenOlat: a letter first, then [A-Za-z0-9_-]."""
    cleaned = re.sub(r"[^A-Za-z0-9_-]", "_", value)
    return cleaned if cleaned[:1].isalpha() else f"id_{cleaned}"


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


def _root(d: Dialect, name: str, attributes: Mapping[str, str]) -> ET.Element:
    return element(d, None, name, {"xmlns": d.namespace, "xmlns:xsi": XSI_NS, "xsi:schemaLocation": f"{d.namespace} {d.schema_location}", **attributes})


def _inline(d: Dialect) -> frozenset[str]:
    """Elements written on one line: a modal feedback with its paragraph."""
    return frozenset({d.elements["modalFeedback"], *([d.feedback_body] if d.feedback_body else [])})


def _match_rule(d: Dialect, parent: ET.Element, branch: str, second: tuple[str, Mapping[str, str], str | None]) -> ET.Element:
    """``<branch><match><variable identifier="RESPONSE"/>second</match>…`` (the caller adds the action)."""
    rule = element(d, parent, branch)
    match = element(d, rule, "match")
    element(d, match, "variable", {"identifier": "RESPONSE"})
    element(d, match, second[0], second[1], second[2])
    return rule


def _set_score(d: Dialect, parent: ET.Element, value: str) -> None:
    setter = element(d, parent, "setOutcomeValue", {"identifier": "SCORE"})
    element(d, setter, "baseValue", {"baseType": "float"}, value)


def _number(value: float) -> str:
    """A float as an ``xs:double`` literal: ``14``, ``0.5``, ``1e-05``."""
    text = repr(float(value))
    return text[:-2] if text.endswith(".0") else text


def _base(d: Dialect, parent: ET.Element, base_type: str, value: str) -> ET.Element:
    return element(d, parent, "baseValue", {"baseType": base_type}, value)


def _response(d: Dialect, parent: ET.Element) -> ET.Element:
    return element(d, parent, "variable", {"identifier": "RESPONSE"})


def _add_feedback(d: Dialect, parent: ET.Element, identifiers: Sequence[str]) -> None:
    """``FEEDBACK`` := ``FEEDBACK`` with ``identifiers`` added (the action of a feedback rule)."""
    several = element(d, element(d, parent, "setOutcomeValue", {"identifier": "FEEDBACK"}), "multiple")
    element(d, several, "variable", {"identifier": "FEEDBACK"})
    for identifier in identifiers:
        _base(d, several, "identifier", identifier)


def _in_range(d: Dialect, parent: ET.Element, low: float, high: float) -> None:
    """``low <= RESPONSE <= high``: every engine evaluates ``gte``/``lte``, while ``equal`` with a
    tolerance is missing from some players and its relative mode is in percent and inverts for a
    negative key (the bounds are computed here instead)."""
    both = element(d, parent, "and")
    for name, bound in (("gte", low), ("lte", high)):
        test = element(d, both, name)
        _response(d, test)
        _base(d, test, "float", _number(bound))


def _general_when_answered(d: Dialect, processing: ET.Element, q) -> None:
    """The explanation, shown once the learner has answered."""
    if q.explanation is None:
        return
    rule = element(d, element(d, processing, "responseCondition"), "responseIf")
    _response(d, element(d, element(d, rule, "not"), "isNull"))
    _add_feedback(d, rule, [GENERAL_FEEDBACK])


def render_item(*, d: Dialect, bank: Bank, index: int, options: ExportOptions = ExportOptions()) -> bytes:
    q = bank.questions[index]
    kind = q.kind
    item = _root(d, "assessmentItem", {
        "identifier": item_identifier(q.id, bank.lang), "title": short(q.id + ": " + q.stem, 120),
        "adaptive": "false", "timeDependent": "false", "xml:lang": bank.lang,
    })
    feedbacks: list[tuple[str, str]] = []
    """(identifier, text) of each modal feedback, in the order they are written."""
    WRITERS[kind](d, item, q, bank.lang, options, feedbacks)
    for identifier, text_raw in feedbacks:
        node = element(d, item, "modalFeedback", {"outcomeIdentifier": "FEEDBACK", "showHide": "show", "identifier": identifier})
        paragraph(ET.SubElement(node, d.feedback_body) if d.feedback_body else node, text_raw)
    if q.explanation is not None:
        node = element(d, item, "modalFeedback", {"outcomeIdentifier": "FEEDBACK", "showHide": "show", "identifier": GENERAL_FEEDBACK})
        paragraph(ET.SubElement(node, d.feedback_body) if d.feedback_body else node, q.explanation)
    return serialize(item, inline=_inline(d))


def _outcomes(d: Dialect, item: ET.Element) -> None:
    score = element(d, item, "outcomeDeclaration", {"identifier": "SCORE", "cardinality": "single", "baseType": "float"})
    element(d, element(d, score, "defaultValue"), "value", text="0")
    element(d, item, "outcomeDeclaration", {"identifier": "FEEDBACK", "cardinality": "multiple", "baseType": "identifier"})


def _option_choices(q, lang: str) -> tuple[list[tuple[str, str, str | None]], list[str]]:
    """(key, text, feedback) of each option, and the right options' keys."""
    return [(o.id, o.text, o.feedback) for o in q.options], list(q.right_ids())


def _true_false_choices(q, lang: str) -> tuple[list[tuple[str, str, str | None]], list[str]]:
    """True and false in ``lang`` as two choices, and the right one's key."""
    labels = words(lang)
    return [("true", labels.true, q.feedback_true), ("false", labels.false, q.feedback_false)], ["true" if q.answer else "false"]


def _choice_item(d: Dialect, item: ET.Element, q, lang: str, options: ExportOptions, feedbacks: list, *,
                 choices_of: Callable, multiple: bool, shuffled: bool) -> None:
    """A choice interaction: ``choices_of`` gives the choices and the right ones' keys;
    ``multiple``: any number of picks; ``shuffled``: the choices shuffled when the export shuffles."""
    choices, keys = choices_of(q, lang)
    choice_id = {key: choice_identifier(key) for key, _, _ in choices}
    declaration = element(d, item, "responseDeclaration", {
        "identifier": "RESPONSE", "cardinality": "multiple" if multiple else "single", "baseType": "identifier"})
    correct = element(d, declaration, "correctResponse")
    for key in [key for key, _, _ in choices if key in keys]:
        element(d, correct, "value", text=choice_id[key])
    partial = multiple and q.scoring == "partial"
    if partial:
        # Each right pick +1/k, each wrong pick -1/k, the sum kept within [0, 1].
        share = 1 / len(keys)
        mapping = element(d, declaration, "mapping", {"lowerBound": "0", "upperBound": "1", "defaultValue": "0"})
        for key, _, _ in choices:
            element(d, mapping, "mapEntry", {"mapKey": choice_id[key], "mappedValue": _number(share if key in keys else -share)})
    _outcomes(d, item)
    numbering = d.numbering_classes.get(options.answer_numbering)
    interaction = element(d, element(d, item, "itemBody"), "choiceInteraction", {
        **({"class": numbering} if numbering else {}),
        "responseIdentifier": "RESPONSE", "shuffle": "true" if options.shuffle and shuffled else "false",
        "maxChoices": "0" if multiple else "1",
    })
    element(d, interaction, "prompt", text=q.stem)
    for key, text_raw, _ in choices:
        element(d, interaction, "simpleChoice", {"identifier": choice_id[key]}, text_raw)
    processing = element(d, item, "responseProcessing")
    if partial:
        element(d, element(d, processing, "setOutcomeValue", {"identifier": "SCORE"}), "mapResponse", {"identifier": "RESPONSE"})
    else:
        # match_correct, written inline (many players do not resolve template URLs).
        scoring = element(d, processing, "responseCondition")
        _set_score(d, _match_rule(d, scoring, "responseIf", ("correct", {"identifier": "RESPONSE"}, None)), "1")
        _set_score(d, element(d, scoring, "responseElse"), "0")
    if multiple:
        # Each picked option adds its feedback; then the explanation.
        for key, _, feedback in choices:
            if feedback is None:
                continue
            rule = element(d, element(d, processing, "responseCondition"), "responseIf")
            member = element(d, rule, "member")
            _base(d, member, "identifier", choice_id[key])
            _response(d, member)
            _add_feedback(d, rule, [feedback_identifier(key)])
        _general_when_answered(d, processing, q)
    else:
        # One rule per choice adding a fixed feedback identifier to FEEDBACK (the form Canvas's
        # importer reads as that choice's comment) and the general explanation.
        feedback_rules = element(d, processing, "responseCondition")
        for position, (key, _, feedback) in enumerate(choices):
            rule = _match_rule(d, feedback_rules, "responseIf" if position == 0 else "responseElseIf",
                               ("baseValue", {"baseType": "identifier"}, choice_id[key]))
            _add_feedback(d, rule, ([feedback_identifier(key)] if feedback else []) + ([GENERAL_FEEDBACK] if q.explanation is not None else []))
    feedbacks += [(feedback_identifier(key), feedback) for key, _, feedback in choices if feedback]


def _numerical_item(d: Dialect, item: ET.Element, q, lang: str, feedbacks: list) -> None:
    declaration = element(d, item, "responseDeclaration", {"identifier": "RESPONSE", "cardinality": "single", "baseType": "float"})
    element(d, element(d, declaration, "correctResponse"), "value", text=_number(q.answer))
    _outcomes(d, item)
    body = element(d, item, "itemBody")
    paragraph(body, q.stem)
    labels = words(lang)
    asked = ([labels.unit.format(unit=q.units[0].name)] if q.units else []) + ([labels.point] if writes_decimal_comma(lang) else [])
    if asked:
        paragraph(body, " ".join(asked))
    entry = ET.SubElement(body, "p")
    element(d, entry, "textEntryInteraction", {"responseIdentifier": "RESPONSE", "expectedLength": str(max(8, len(_number(q.answer)) + 2))})
    processing = element(d, item, "responseProcessing")
    scoring = element(d, processing, "responseCondition")
    # No answer: 0 (a null response fails every comparison anyway; this keeps the rule explicit).
    first = element(d, scoring, "responseIf")
    _response(d, element(d, first, "isNull"))
    _set_score(d, first, "0")
    right = element(d, scoring, "responseElseIf")
    _in_range(d, right, q.answer - q.absolute_tolerance, q.answer + q.absolute_tolerance)
    _set_score(d, right, "1")
    if q.explanation is not None:
        _add_feedback(d, right, [GENERAL_FEEDBACK])
    for number, near in enumerate(q.near_misses, start=1):
        rule = element(d, scoring, "responseElseIf")
        _in_range(d, rule, near.value - near.tolerance, near.value + near.tolerance)
        _set_score(d, rule, _number(near.credit))
        identifier = ncname(f"feedback-near-{number}")
        _add_feedback(d, rule, [identifier] + ([GENERAL_FEEDBACK] if q.explanation is not None else []))
        feedbacks.append((identifier, near.feedback))
    otherwise = element(d, scoring, "responseElse")
    _set_score(d, otherwise, "0")
    if q.explanation is not None:
        _add_feedback(d, otherwise, [GENERAL_FEEDBACK])


def _short_answer_item(d: Dialect, item: ET.Element, q, feedbacks: list) -> None:
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
    declaration = element(d, item, "responseDeclaration", {"identifier": "RESPONSE", "cardinality": "single", "baseType": "string"})
    plain = [a for a in q.answers if not has_wildcard(a.text)] or q.answers
    best = max(plain, key=lambda a: a.credit)
    element(d, element(d, declaration, "correctResponse"), "value", text=literal(best.text))
    mapping = element(d, declaration, "mapping", {"lowerBound": "0", "upperBound": "1", "defaultValue": "0"})
    for answer in q.answers:
        key = answer.text if has_wildcard(answer.text) else literal(answer.text)
        element(d, mapping, "mapEntry", {"mapKey": key, "mappedValue": _number(answer.credit), "caseSensitive": case})
    _outcomes(d, item)
    body = element(d, item, "itemBody")
    paragraph(body, q.stem)
    entry = ET.SubElement(body, "p")
    element(d, entry, "textEntryInteraction", {"responseIdentifier": "RESPONSE", "expectedLength": str(max(10, max(len(a.text) for a in q.answers) + 2))})
    processing = element(d, item, "responseProcessing")
    rules = element(d, processing, "responseCondition")
    ranked = sorted(enumerate(q.answers, start=1), key=lambda pair: -pair[1].credit)
    for position, (number, answer) in enumerate(ranked):
        rule = element(d, rules, "responseIf" if position == 0 else "responseElseIf")
        if has_wildcard(answer.text):
            _response(d, element(d, rule, "patternMatch", {"pattern": xsd_pattern(answer.text, q.case_sensitive, q.fold_diacritics)}))
        else:
            texts = list(dict.fromkeys(literal(t) for t in spellings(answer.text, q.fold_diacritics)))
            parent = element(d, rule, "or") if len(texts) > 1 else rule
            for text in texts:
                test = element(d, parent, "stringMatch", {"caseSensitive": case})
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


def _matching_item(d: Dialect, item: ET.Element, q, options: ExportOptions, feedbacks: list) -> None:
    targets = match_targets(q)
    target_of = {text: identifier for identifier, text, _ in targets[: len(targets) - len(q.distractors)]}
    keys = [f"{ncname('source-' + pair.id)} {target_of[pair.answer]}" for pair in q.pairs]
    declaration = element(d, item, "responseDeclaration", {"identifier": "RESPONSE", "cardinality": "multiple", "baseType": "directedPair"})
    correct = element(d, declaration, "correctResponse")
    for key in keys:
        element(d, correct, "value", text=key)
    # Each right match earns 1/n; a wrong one nothing.
    mapping = element(d, declaration, "mapping", {"lowerBound": "0", "upperBound": "1", "defaultValue": "0"})
    for key in keys:
        element(d, mapping, "mapEntry", {"mapKey": key, "mappedValue": _number(1 / len(keys))})
    _outcomes(d, item)
    interaction = element(d, element(d, item, "itemBody"), "matchInteraction", {
        "responseIdentifier": "RESPONSE", "shuffle": "true" if options.shuffle else "false", "maxAssociations": str(len(q.pairs))})
    element(d, interaction, "prompt", text=q.stem)
    sources = element(d, interaction, "simpleMatchSet")
    for pair in q.pairs:
        element(d, sources, "simpleAssociableChoice", {"identifier": ncname("source-" + pair.id), "matchMax": "1"}, pair.prompt)
    answers = element(d, interaction, "simpleMatchSet")
    for identifier, text_raw, uses in targets:
        element(d, answers, "simpleAssociableChoice", {"identifier": identifier, "matchMax": str(uses)}, text_raw)
    processing = element(d, item, "responseProcessing")
    element(d, element(d, processing, "setOutcomeValue", {"identifier": "SCORE"}), "mapResponse", {"identifier": "RESPONSE"})
    _general_when_answered(d, processing, q)


def _ordering_item(d: Dialect, item: ET.Element, q, options: ExportOptions) -> None:
    """``orderInteraction``: the items as choices, shuffled; the ordered response scores 1
    when it is exactly the right order (match_correct), else 0."""
    declaration = element(d, item, "responseDeclaration", {"identifier": "RESPONSE", "cardinality": "ordered", "baseType": "identifier"})
    correct = element(d, declaration, "correctResponse")
    for entry in q.items:
        element(d, correct, "value", text=choice_identifier(entry.id))
    _outcomes(d, item)
    interaction = element(d, element(d, item, "itemBody"), "orderInteraction", {
        "responseIdentifier": "RESPONSE", "shuffle": "true"})
    element(d, interaction, "prompt", text=q.stem)
    for entry in q.items:
        element(d, interaction, "simpleChoice", {"identifier": choice_identifier(entry.id)}, entry.text)
    processing = element(d, item, "responseProcessing")
    scoring = element(d, processing, "responseCondition")
    _set_score(d, _match_rule(d, scoring, "responseIf", ("correct", {"identifier": "RESPONSE"}, None)), "1")
    _set_score(d, element(d, scoring, "responseElse"), "0")
    _general_when_answered(d, processing, q)


def _essay_item(d: Dialect, item: ET.Element, q) -> None:
    """``extendedTextInteraction``: a written answer for a person to grade; no automatic scoring
    (SCORE stays 0 until a grader sets it), the explanation shown once answered."""
    element(d, item, "responseDeclaration", {"identifier": "RESPONSE", "cardinality": "single", "baseType": "string"})
    _outcomes(d, item)
    interaction = element(d, element(d, item, "itemBody"), "extendedTextInteraction", {"responseIdentifier": "RESPONSE"})
    element(d, interaction, "prompt", text=q.stem)
    if q.explanation is not None:
        _general_when_answered(d, element(d, item, "responseProcessing"), q)


def item_path(q: AnyQuestion) -> PurePosixPath:
    return PurePosixPath("items") / f"{ncname(q.id)}.xml"


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
    element(d, test, "outcomeDeclaration", {"identifier": "SCORE", "cardinality": "single", "baseType": "float"})
    part = element(d, test, "testPart", {"identifier": "part1", "navigationMode": "nonlinear", "submissionMode": "individual"})
    # showFeedback defaults to false: without it a conforming player hides every modal feedback.
    element(d, part, "itemSessionControl", {"showFeedback": "true", "allowReview": "true"})
    for _, topics in by_category(library):
        for bank in topics:
            # Not visible: Canvas turns a visible, titled section into an extra text-only question.
            section = element(d, part, "assessmentSection", {"identifier": section_identifier(library, bank), "title": bank.topic.title, "visible": "false"})
            for q in bank.questions:
                element(d, section, "assessmentItemRef", {"identifier": item_identifier(q.id, bank.lang), "href": str(item_path(q))})
    total = element(d, element(d, element(d, test, "outcomeProcessing"), "setOutcomeValue", {"identifier": "SCORE"}), "sum")
    element(d, total, "testVariables", {"variableIdentifier": "SCORE"})
    return serialize(test)


LOM_INLINE = frozenset({"identifier", "title", "description", "keyword"})
"""LOM elements written on one line in the manifest."""


def _lom(parent: ET.Element, *, lang: str, entry: str | None, title: str, description: str | None, keywords: list[str]) -> None:
    """IEEE LOM (IMS MD 1.3 loose binding) ``general`` metadata: what players list instead of identifiers."""
    def strings(name: str, text: str) -> None:
        ET.SubElement(ET.SubElement(general, name), "string", {"language": lang}).text = text

    general = ET.SubElement(ET.SubElement(parent, "lom", {"xmlns": LOM_NS}), "general")
    if entry is not None:
        identifier = ET.SubElement(general, "identifier")
        ET.SubElement(identifier, "catalog").text = LOM_CATALOG
        ET.SubElement(identifier, "entry").text = entry
    strings("title", title)
    ET.SubElement(general, "language").text = lang
    if description is not None:
        strings("description", description)
    for keyword in keywords:
        strings("keyword", keyword)


def _resource(parent: ET.Element, *, identifier: str, type: str, href: PurePosixPath) -> tuple[ET.Element, ET.Element]:
    """A manifest resource and its (empty) metadata element; the caller adds the LOM, then :func:`_file`."""
    resource = ET.SubElement(parent, "resource", {"identifier": identifier, "type": type, "href": str(href)})
    return resource, ET.SubElement(resource, "metadata")


def render_manifest(*, d: Dialect, library: Library) -> bytes:
    lang = library.lang
    questions = [q for _, topics in by_category(library) for bank in topics for q in bank.questions]
    tags = sorted({tag for q in questions for tag in q.tags})
    manifest = ET.Element("manifest", {
        "xmlns": d.manifest_namespace, "xmlns:xsi": XSI_NS,
        "xsi:schemaLocation": f"{d.manifest_namespace} {d.manifest_schema_location}",
        "identifier": ncname("manifest-" + bank_id(library) + "-" + lang),
    })
    metadata = ET.SubElement(manifest, "metadata")
    ET.SubElement(metadata, "schema").text = d.schema_name
    ET.SubElement(metadata, "schemaversion").text = d.schema_version
    summary = library.topics[0].topic.summary if len(library.topics) == 1 else None
    topic_lom = {"lang": lang, "entry": bank_id(library), "title": bank_title(library), "description": summary, "keywords": tags}
    _lom(metadata, **topic_lom)
    ET.SubElement(manifest, "organizations")
    resources = ET.SubElement(manifest, "resources")
    test, test_metadata = _resource(resources, identifier=ncname("test-" + bank_id(library) + "-" + lang), type=d.test_type, href=TEST_PATH)
    _lom(test_metadata, **topic_lom)
    ET.SubElement(test, "file", {"href": str(TEST_PATH)})
    for q in questions:
        ET.SubElement(test, "dependency", {"identifierref": ncname("item-" + q.id + "-" + lang)})
    for q in questions:
        item, item_metadata = _resource(resources, identifier=ncname("item-" + q.id + "-" + lang), type=d.item_type, href=item_path(q))
        _lom(item_metadata, lang=lang, entry=q.id, title=short(q.id + ": " + q.stem, 120), description=None, keywords=list(q.tags))
        ET.SubElement(item, "file", {"href": str(item_path(q))})
    return serialize(manifest, inline=LOM_INLINE)


def package_files(*, d: Dialect, library: Library, options: ExportOptions = ExportOptions()) -> dict[PurePosixPath, bytes]:
    """Every file of the content package of ``library`` (one topic or the whole bank), by its path inside the zip."""
    files = {PurePosixPath("imsmanifest.xml"): render_manifest(d=d, library=library), TEST_PATH: render_test(d=d, library=library)}
    for _, topics in by_category(library):
        for bank in topics:
            for index, q in enumerate(bank.questions):
                files[item_path(q)] = render_item(d=d, bank=bank, index=index, options=options)
    return files



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


