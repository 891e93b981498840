"""The ordering kind in the formats that carry it and in those that do not: Moodle's
qtype_ordering XML both ways, the QTI lint model's ordered response, the practice site's data
and interface strings, and the warning of every format that leaves it out.

QTI 2.1/3.0 items are checked against the XSDs and run by a real QTI player with the other kinds
(tests/qti_kinds_bank.py's q012); the site's keyboard reordering in
tests/test_site_kinds_browser.py."""

from __future__ import annotations

import io
import zipfile
from pathlib import PurePosixPath
from xml.etree import ElementTree as ET

import pytest

from aistack_bank.exporters import FORMATS, export_notes
from aistack_bank.exporters.html_site import page_data
from aistack_bank.importers import import_file, read_questions
from aistack_bank.lms import models
from aistack_bank.load import read_library
from aistack_bank.model import Bank, Topic
from aistack_bank.options import ExportOptions

from banklayout import category
from test_kinds_model import question

ITEMS = [{"id": "a", "text": "Registers"}, {"id": "b", "text": "Shared memory"}, {"id": "c", "text": "L2 cache"}, {"id": "d", "text": "HBM"}]


def bank(*questions) -> Bank:
    qs = questions or (question("ordering", items=ITEMS),)
    topic = Topic(id="order", category="tests", title="Order", summary="Ordering.", tags={"memory": "Memory."}, questions=[q.id for q in qs])
    return Bank(topic=topic, questions=tuple(qs), category=category())


def moodle_question(b: Bank) -> ET.Element:
    data = FORMATS["moodle-xml"]({"en": b}, ExportOptions())[PurePosixPath("order-en.xml")]
    return next(q for q in ET.fromstring(data).iter("question") if q.get("type") != "category")


def test_moodle_xml_writes_qtype_ordering_all_or_nothing_with_each_position_as_the_fraction():
    q = moodle_question(bank())
    assert q.get("type") == "ordering"
    assert {tag: q.findtext(tag) for tag in ("layouttype", "selecttype", "selectcount", "gradingtype", "numberingstyle")} == {
        "layouttype": "VERTICAL", "selecttype": "ALL", "selectcount": "0", "gradingtype": "ALL_OR_NOTHING", "numberingstyle": "none"}
    answers = q.findall("answer")
    assert [a.get("fraction") for a in answers] == ["1.0000000", "2.0000000", "3.0000000", "4.0000000"]
    assert [a.findtext("text") for a in answers] == [f"<p>{i['text']}</p>" for i in ITEMS]


def test_an_ordering_question_comes_back_from_moodle_xml(tmp_path):
    source = tmp_path / "order-en.xml"
    source.write_bytes(FORMATS["moodle-xml"]({"en": bank()}, ExportOptions())[PurePosixPath(source.name)])
    report = import_file("moodle", source, tmp_path / "bank", None)
    assert report.skipped == [] and len(report.written) == 1
    imported = read_library(tmp_path / "bank")
    assert [d for d in imported.diagnostics if d.severity.value == "error"] == []
    (back,) = [qs.question for qs in imported.questions]
    assert back.kind == "ordering" and [(i.id, i.text) for i in back.items] == [(i["id"], i["text"]) for i in ITEMS]


MOODLE_WRITTEN = """<?xml version="1.0" encoding="UTF-8"?>
<quiz>
  <question type="ordering">
    <name><text>Levels</text></name>
    <questiontext format="html"><text><![CDATA[<p>Order the levels, fastest first.</p>]]></text></questiontext>
    <generalfeedback format="html"><text></text></generalfeedback>
    <layouttype>HORIZONTAL</layouttype>
    <selecttype>ALL</selecttype>
    <selectcount>0</selectcount>
    <gradingtype>ABSOLUTE_POSITION</gradingtype>
    <showgrading>SHOW</showgrading>
    <numberingstyle>abc</numberingstyle>
    <answer fraction="3.0000000" format="html"><text>L2 cache</text></answer>
    <answer fraction="1.0000000" format="html"><text><![CDATA[<p>Registers</p>]]></text></answer>
    <answer fraction="2.0000000" format="moodle_auto_format"><text>Shared memory</text></answer>
  </question>
  <question type="ordering">
    <name><text>Too short</text></name>
    <questiontext format="html"><text>Two items?</text></questiontext>
    <answer fraction="1.0000000" format="html"><text>One</text></answer>
    <answer fraction="2.0000000" format="html"><text>Two</text></answer>
  </question>
</quiz>
"""


def test_a_question_moodle_wrote_is_read_in_the_order_of_its_fractions_with_a_note_on_partial_grading(tmp_path):
    path = tmp_path / "moodle.xml"
    path.write_text(MOODLE_WRITTEN, encoding="utf-8")
    questions, skipped = read_questions("moodle", path)
    (levels,) = questions
    assert levels.kind == "ordering" and [i["text"] for i in levels.fields["items"]] == ["Registers", "Shared memory", "L2 cache"]
    assert any("ABSOLUTE_POSITION" in note and "all or nothing" in note for note in levels.notes)
    assert [(s.name, s.reason) for s in skipped] == [("Too short", "2 items; an ordering question takes 3 to 10")]


def qti_item(fmt: str) -> ET.Element:
    data = FORMATS[fmt]({"en": bank()}, ExportOptions())[PurePosixPath("order-en.zip")]
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        return ET.fromstring(zf.read("items/q001.xml"))


@pytest.mark.parametrize("fmt", ["qti21", "qti30"])
def test_the_lint_model_scores_an_ordered_response_by_its_order(fmt):
    item = qti_item(fmt)
    right = ["choice-a", "choice-b", "choice-c", "choice-d"]
    assert models.qti_outcomes(item, right)["SCORE"] == 1.0
    assert models.qti_outcomes(item, list(reversed(right)))["SCORE"] == 0.0
    assert models.qti_outcomes(item, None)["SCORE"] == 0.0


def test_formats_without_an_ordering_question_leave_it_out_with_their_warning():
    b = bank(question("single-choice"), question("ordering", items=ITEMS).model_copy(update={"id": "q002"}))
    notes = {(d.code, d.message) for d in export_notes(list(FORMATS), {"en": b}, ExportOptions())}
    for fmt, code in (("gift", "W669"), ("canvas-qti12", "W651"), ("common-cartridge", "W652")):
        assert (code, f"{fmt}: q002 is an ordering question, which {fmt} cannot carry; it is left out of the export") in notes
    assert ("W654", "aiken: q002 (en) is left out of the Aiken files: it is an ordering question; Aiken carries single choice only") in notes
    gift = FORMATS["gift"]({"en": b}, ExportOptions())[PurePosixPath("order-en.gift")].decode()
    assert "q001" in gift and "q002" not in gift


def test_the_site_page_carries_the_items_and_the_ordering_strings_only_with_an_ordering_question():
    data = page_data(bank(), ExportOptions())
    assert data["questions"][0]["items"] == ITEMS
    assert {"site.ordering.hint", "site.ordering.up", "site.ordering.down", "site.ordering.moved"} <= set(data["ui"])
    without = page_data(bank(question("single-choice")), ExportOptions())
    assert not [key for key in without["ui"] if key.startswith("site.ordering.")]
    assert "site.match.hint" in without["ui"]  # a string not named after a kind goes everywhere
