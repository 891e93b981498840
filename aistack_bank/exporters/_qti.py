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


def render_item(*, d: Dialect, bank: Bank, index: int) -> bytes:
    q = bank.questions[index]
    e = d.el
    choice_id = {o.id: ncname(f"choice_{o.id}") for o in q.options}
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<{e("assessmentItem")} xmlns="{d.namespace}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
        f'xsi:schemaLocation="{d.namespace} {d.schema_location}" identifier="{ncname(q.id)}" '
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
        f'  <{e("outcomeDeclaration")} identifier="FEEDBACK" cardinality="single" {d.at("baseType")}="identifier"/>',
        f'  <{e("itemBody")}>',
        f'    <{e("choiceInteraction")} {d.at("responseIdentifier")}="RESPONSE" shuffle="true" {d.at("maxChoices")}="1">',
        f'      <{e("prompt")}>{html_text(q.stem)}</{e("prompt")}>',
    ]
    for option in q.options:
        out.append(f'      <{e("simpleChoice")} identifier="{choice_id[option.id]}">{html_text(option.text)}</{e("simpleChoice")}>')
    out += [
        f'    </{e("choiceInteraction")}>',
        f'  </{e("itemBody")}>',
        # match_correct, written inline (many players do not resolve template URLs), plus the
        # FEEDBACK outcome that templates never set.
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
        f'    <{e("setOutcomeValue")} identifier="FEEDBACK">',
        f'      <{e("variable")} identifier="RESPONSE"/>',
        f'    </{e("setOutcomeValue")}>',
        f'  </{e("responseProcessing")}>',
    ]
    explanation = html_paragraph(q.explanation)
    for option in q.options:
        body = (html_paragraph(option.feedback) if option.feedback else "") + explanation
        if d.kebab:
            body = f'<qti-content-body>{body}</qti-content-body>'
        out.append(f'  <{e("modalFeedback")} {d.at("outcomeIdentifier")}="FEEDBACK" {d.at("showHide")}="show" identifier="{choice_id[option.id]}">{body}</{e("modalFeedback")}>')
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
        f'xsi:schemaLocation="{d.namespace} {d.schema_location}" identifier="{ncname(bank.topic.id)}" title="{html_text(bank.topic.title)}">',
        f'  <{e("outcomeDeclaration")} identifier="SCORE" cardinality="single" {d.at("baseType")}="float"/>',
        f'  <{e("testPart")} identifier="part1" {d.at("navigationMode")}="nonlinear" {d.at("submissionMode")}="individual">',
        f'    <{e("assessmentSection")} identifier="section1" title="{html_text(bank.topic.title)}" visible="true">',
    ]
    for q in bank.questions:
        out.append(f'      <{e("assessmentItemRef")} identifier="{ncname(q.id)}" href="{item_path(q)}"/>')
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


def render_manifest(*, d: Dialect, bank: Bank) -> bytes:
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<manifest xmlns="{d.manifest_namespace}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
        f'xsi:schemaLocation="{d.manifest_namespace} {d.manifest_schema_location}" identifier="{ncname("manifest-" + bank.topic.id + "-" + bank.lang)}">',
        "  <metadata>",
        f"    <schema>{d.schema_name}</schema>",
        f"    <schemaversion>{d.schema_version}</schemaversion>",
        "  </metadata>",
        "  <organizations/>",
        "  <resources>",
        f'    <resource identifier="{ncname("test-" + bank.topic.id)}" type="{d.test_type}" href="{TEST_PATH}">',
        f'      <file href="{TEST_PATH}"/>',
    ]
    out += [f'      <dependency identifierref="{ncname("item-" + q.id)}"/>' for q in bank.questions]
    out.append("    </resource>")
    for q in bank.questions:
        out += [
            f'    <resource identifier="{ncname("item-" + q.id)}" type="{d.item_type}" href="{item_path(q)}">',
            f'      <file href="{item_path(q)}"/>',
            "    </resource>",
        ]
    out += ["  </resources>", "</manifest>"]
    return ("\n".join(out) + "\n").encode("utf-8")


def package_files(*, d: Dialect, bank: Bank) -> dict[PurePosixPath, bytes]:
    """Every file of the content package, by its path inside the zip."""
    files = {PurePosixPath("imsmanifest.xml"): render_manifest(d=d, bank=bank), TEST_PATH: render_test(d=d, bank=bank)}
    for index, q in enumerate(bank.questions):
        files[item_path(q)] = render_item(d=d, bank=bank, index=index)
    return files


def export_packages(banks, options: ExportOptions, d: Dialect) -> dict[PurePosixPath, bytes]:
    from ._shared import file_name, languages

    return {file_name(lang, ".zip"): deterministic_zip(package_files(d=d, bank=banks[lang])) for lang in languages(banks)}
