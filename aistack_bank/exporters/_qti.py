"""The QTI item, test and manifest writer shared by QTI 2.1 and QTI 3.0 (which differ in names)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath

from ..model import Bank
from ..options import ExportOptions
from ._shared import deterministic_zip, html_paragraph, html_text, short


@dataclass(frozen=True)
class Dialect:
    """Element and attribute names and namespaces of one QTI version."""

    namespace: str
    schema_location: str
    manifest_namespace: str
    manifest_schema_location: str
    schema_name: str
    schema_version: str
    item_type: str
    test_type: str
    kebab: bool
    """QTI 3 spells elements ``qti-choice-interaction`` and attributes ``response-identifier``."""

    def el(self, name: str) -> str:
        if not self.kebab:
            return name
        return "qti-" + re.sub(r"(?<!^)([A-Z])", r"-\1", name).lower()

    def at(self, name: str) -> str:
        return re.sub(r"(?<!^)([A-Z])", r"-\1", name).lower() if self.kebab else name


def ncname(value: str) -> str:
    """An identifier safe as an XML NCName and for OpenOlat: a letter first, then [A-Za-z0-9_-]."""
    cleaned = re.sub(r"[^A-Za-z0-9_-]", "_", value)
    return cleaned if cleaned[:1].isalpha() else f"id_{cleaned}"


# Identifiers (docs/lms-notes.md): every identifier a target keeps unique names the language,
# and each keeps the bank id readable in front of it:
#   package (manifest)  manifest-<topic>-<lang>     test        <topic>-<lang>
#   test resource       test-<topic>-<lang>         item        <qid>-<lang> (file items/<qid>.xml)
#   item resource       item-<qid>-<lang>           LOM         general/identifier/entry = <qid>
#   choice              choice-<option>             feedback    feedback-<option>, general_explanation
# Canvas reads a modal feedback whose identifier matches /correct|(_C$)/i as the "correct answer"
# comment and /general_|_all/i as the neutral one, so choices and their feedback use "-<option>".
GENERAL_FEEDBACK = "general_explanation"
LOM_NS = "http://ltsc.ieee.org/xsd/LOM"
LOM_CATALOG = "aistack-bank"

QTI3_LABELS = {"abc": "qti-labels-lower-alpha", "ABCD": "qti-labels-upper-alpha", "123": "qti-labels-decimal", "none": "qti-labels-none"}
"""QTI 3 shared-vocabulary classes for Moodle's numbering styles (no class exists for roman numerals)."""


def item_identifier(question_id: str, lang: str) -> str:
    return ncname(f"{question_id}-{lang}")


def test_identifier(bank: Bank) -> str:
    return ncname(f"{bank.topic.id}-{bank.lang}")


def choice_identifier(option_id: str) -> str:
    return ncname(f"choice-{option_id}")


def feedback_identifier(option_id: str) -> str:
    return ncname(f"feedback-{option_id}")


def render_item(*, d: Dialect, bank: Bank, index: int, options: ExportOptions = ExportOptions()) -> bytes:
    q = bank.questions[index]
    e = d.el
    choice_id = {o.id: choice_identifier(o.id) for o in q.options}
    interaction_class = ""
    if d.kebab and options.answer_numbering in QTI3_LABELS:
        interaction_class = f' class="{QTI3_LABELS[options.answer_numbering]}"'
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<{e("assessmentItem")} xmlns="{d.namespace}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
        f'xsi:schemaLocation="{d.namespace} {d.schema_location}" identifier="{item_identifier(q.id, bank.lang)}" '
        f'title="{html_text(short(q.id + ": " + q.stem, 120))}" {d.at("adaptive")}="false" {d.at("timeDependent")}="false" xml:lang="{bank.lang}">',
        f'  <{e("responseDeclaration")} identifier="RESPONSE" cardinality="single" {d.at("baseType")}="identifier">',
        f'    <{e("correctResponse")}>',
        f'      <{e("value")}>{choice_id[q.correct]}</{e("value")}>',
        f'    </{e("correctResponse")}>',
        f'  </{e("responseDeclaration")}>',
        f'  <{e("outcomeDeclaration")} identifier="SCORE" cardinality="single" {d.at("baseType")}="float">',
        f'    <{e("defaultValue")}>',
        f'      <{e("value")}>0</{e("value")}>',
        f'    </{e("defaultValue")}>',
        f'  </{e("outcomeDeclaration")}>',
        f'  <{e("outcomeDeclaration")} identifier="FEEDBACK" cardinality="multiple" {d.at("baseType")}="identifier"/>',
        f'  <{e("itemBody")}>',
        f'    <{e("choiceInteraction")}{interaction_class} {d.at("responseIdentifier")}="RESPONSE" shuffle="{"true" if options.shuffle else "false"}" {d.at("maxChoices")}="1">',
        f'      <{e("prompt")}>{html_text(q.stem)}</{e("prompt")}>',
    ]
    for option in q.options:
        out.append(f'      <{e("simpleChoice")} identifier="{choice_id[option.id]}">{html_text(option.text)}</{e("simpleChoice")}>')
    out += [
        f'    </{e("choiceInteraction")}>',
        f'  </{e("itemBody")}>',
        # match_correct, written inline (many players do not resolve template URLs), then one rule per
        # choice adding a fixed feedback identifier to FEEDBACK (the form Canvas's importer reads as
        # that choice's comment) and the general explanation.
        f'  <{e("responseProcessing")}>',
        f'    <{e("responseCondition")}>',
        f'      <{e("responseIf")}>',
        f'        <{e("match")}>',
        f'          <{e("variable")} identifier="RESPONSE"/>',
        f'          <{e("correct")} identifier="RESPONSE"/>',
        f'        </{e("match")}>',
        f'        <{e("setOutcomeValue")} identifier="SCORE">',
        f'          <{e("baseValue")} {d.at("baseType")}="float">1</{e("baseValue")}>',
        f'        </{e("setOutcomeValue")}>',
        f'      </{e("responseIf")}>',
        f'      <{e("responseElse")}>',
        f'        <{e("setOutcomeValue")} identifier="SCORE">',
        f'          <{e("baseValue")} {d.at("baseType")}="float">0</{e("baseValue")}>',
        f'        </{e("setOutcomeValue")}>',
        f'      </{e("responseElse")}>',
        f'    </{e("responseCondition")}>',
        f'    <{e("responseCondition")}>',
    ]
    for position, option in enumerate(q.options):
        branch = e("responseIf") if position == 0 else e("responseElseIf")
        shown = ([feedback_identifier(option.id)] if option.feedback else []) + [GENERAL_FEEDBACK]
        out += [
            f'      <{branch}>',
            f'        <{e("match")}>',
            f'          <{e("variable")} identifier="RESPONSE"/>',
            f'          <{e("baseValue")} {d.at("baseType")}="identifier">{choice_id[option.id]}</{e("baseValue")}>',
            f'        </{e("match")}>',
            f'        <{e("setOutcomeValue")} identifier="FEEDBACK">',
            f'          <{e("multiple")}>',
            f'            <{e("variable")} identifier="FEEDBACK"/>',
            *[f'            <{e("baseValue")} {d.at("baseType")}="identifier">{ident}</{e("baseValue")}>' for ident in shown],
            f'          </{e("multiple")}>',
            f'        </{e("setOutcomeValue")}>',
            f'      </{branch}>',
        ]
    out += [
        f'    </{e("responseCondition")}>',
        f'  </{e("responseProcessing")}>',
    ]

    def feedback(identifier: str, body: str) -> str:
        if d.kebab:
            body = f'<qti-content-body>{body}</qti-content-body>'
        return f'  <{e("modalFeedback")} {d.at("outcomeIdentifier")}="FEEDBACK" {d.at("showHide")}="show" identifier="{identifier}">{body}</{e("modalFeedback")}>'

    for option in q.options:
        if option.feedback:
            out.append(feedback(feedback_identifier(option.id), html_paragraph(option.feedback)))
    out.append(feedback(GENERAL_FEEDBACK, html_paragraph(q.explanation)))
    out.append(f'</{e("assessmentItem")}>')
    return ("\n".join(out) + "\n").encode("utf-8")


def item_path(q) -> PurePosixPath:
    return PurePosixPath("items") / f"{ncname(q.id)}.xml"


TEST_PATH = PurePosixPath("assessment.xml")


def render_test(*, d: Dialect, bank: Bank) -> bytes:
    e = d.el
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<{e("assessmentTest")} xmlns="{d.namespace}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
        f'xsi:schemaLocation="{d.namespace} {d.schema_location}" identifier="{test_identifier(bank)}" title="{html_text(bank.topic.title)}">',
        f'  <{e("outcomeDeclaration")} identifier="SCORE" cardinality="single" {d.at("baseType")}="float"/>',
        f'  <{e("testPart")} identifier="part1" {d.at("navigationMode")}="nonlinear" {d.at("submissionMode")}="individual">',
        # showFeedback defaults to false: without it a conforming player hides every modal feedback.
        f'    <{e("itemSessionControl")} {d.at("showFeedback")}="true" {d.at("allowReview")}="true"/>',
        # Not visible: Canvas turns a visible, titled section into an extra text-only question.
        f'    <{e("assessmentSection")} identifier="section1" title="{html_text(bank.topic.title)}" visible="false">',
    ]
    for q in bank.questions:
        out.append(f'      <{e("assessmentItemRef")} identifier="{item_identifier(q.id, bank.lang)}" href="{item_path(q)}"/>')
    out += [
        f'    </{e("assessmentSection")}>',
        f'  </{e("testPart")}>',
        f'  <{e("outcomeProcessing")}>',
        f'    <{e("setOutcomeValue")} identifier="SCORE">',
        f'      <{e("sum")}>',
        f'        <{e("testVariables")} {d.at("variableIdentifier")}="SCORE"/>',
        f'      </{e("sum")}>',
        f'    </{e("setOutcomeValue")}>',
        f'  </{e("outcomeProcessing")}>',
        f'</{e("assessmentTest")}>',
    ]
    return ("\n".join(out) + "\n").encode("utf-8")


def _lom(*, indent: str, lang: str, entry: str | None, title: str, description: str | None, keywords: list[str]) -> list[str]:
    """IEEE LOM (IMS MD 1.3 loose binding) ``general`` metadata: what players list instead of identifiers."""
    def string(text: str) -> str:
        return f'<string language="{lang}">{html_text(text)}</string>'

    out = [f'{indent}<lom xmlns="{LOM_NS}">', f"{indent}  <general>"]
    if entry is not None:
        out.append(f"{indent}    <identifier><catalog>{LOM_CATALOG}</catalog><entry>{html_text(entry)}</entry></identifier>")
    out.append(f"{indent}    <title>{string(title)}</title>")
    out.append(f"{indent}    <language>{lang}</language>")
    if description is not None:
        out.append(f"{indent}    <description>{string(description)}</description>")
    out += [f"{indent}    <keyword>{string(keyword)}</keyword>" for keyword in keywords]
    out += [f"{indent}  </general>", f"{indent}</lom>"]
    return out


def render_manifest(*, d: Dialect, bank: Bank) -> bytes:
    tags = sorted({tag for q in bank.questions for tag in q.tags})
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<manifest xmlns="{d.manifest_namespace}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
        f'xsi:schemaLocation="{d.manifest_namespace} {d.manifest_schema_location}" identifier="{ncname("manifest-" + bank.topic.id + "-" + bank.lang)}">',
        "  <metadata>",
        f"    <schema>{d.schema_name}</schema>",
        f"    <schemaversion>{d.schema_version}</schemaversion>",
        *_lom(indent="    ", lang=bank.lang, entry=bank.topic.id, title=bank.topic.title, description=bank.topic.summary, keywords=tags),
        "  </metadata>",
        "  <organizations/>",
        "  <resources>",
        f'    <resource identifier="{ncname("test-" + bank.topic.id + "-" + bank.lang)}" type="{d.test_type}" href="{TEST_PATH}">',
        "      <metadata>",
        *_lom(indent="        ", lang=bank.lang, entry=bank.topic.id, title=bank.topic.title, description=bank.topic.summary, keywords=tags),
        "      </metadata>",
        f'      <file href="{TEST_PATH}"/>',
    ]
    out += [f'      <dependency identifierref="{ncname("item-" + q.id + "-" + bank.lang)}"/>' for q in bank.questions]
    out.append("    </resource>")
    for q in bank.questions:
        out += [
            f'    <resource identifier="{ncname("item-" + q.id + "-" + bank.lang)}" type="{d.item_type}" href="{item_path(q)}">',
            "      <metadata>",
            *_lom(indent="        ", lang=bank.lang, entry=q.id, title=short(q.id + ": " + q.stem, 120), description=None, keywords=list(q.tags)),
            "      </metadata>",
            f'      <file href="{item_path(q)}"/>',
            "    </resource>",
        ]
    out += ["  </resources>", "</manifest>"]
    return ("\n".join(out) + "\n").encode("utf-8")


def package_files(*, d: Dialect, bank: Bank, options: ExportOptions = ExportOptions()) -> dict[PurePosixPath, bytes]:
    """Every file of the content package, by its path inside the zip."""
    files = {PurePosixPath("imsmanifest.xml"): render_manifest(d=d, bank=bank), TEST_PATH: render_test(d=d, bank=bank)}
    for index, q in enumerate(bank.questions):
        files[item_path(q)] = render_item(d=d, bank=bank, index=index, options=options)
    return files


def export_packages(banks, options: ExportOptions, d: Dialect) -> dict[PurePosixPath, bytes]:
    from ._shared import file_name, languages

    return {file_name(lang, ".zip"): deterministic_zip(package_files(d=d, bank=banks[lang], options=options)) for lang in languages(banks)}
