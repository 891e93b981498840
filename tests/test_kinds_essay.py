"""The essay kind in GIFT and Moodle XML: what each writes, what GIFT loses (with its warning),
and that each comes back as an essay. QTI items are checked against the XSDs and run by the QTI
player with the other kinds (tests/qti_kinds_bank.py's q013)."""

from __future__ import annotations

from pathlib import PurePosixPath
from xml.etree import ElementTree as ET

from aistack_bank.exporters import FORMATS, export_notes
from aistack_bank.importers import read_questions
from aistack_bank.model import Bank, Topic
from aistack_bank.options import ExportOptions

from banklayout import category
from test_kinds_model import question


def bank(q) -> Bank:
    topic = Topic(id="essays", category="tests", title="Essays", summary="Essays.", tags={"memory": "Memory."}, questions=[q.id])
    return Bank(topic=topic, questions=(q,), category=category())


def test_moodle_xml_writes_the_model_answer_as_grader_information_and_reads_it_back(tmp_path):
    b = bank(question("essay"))
    data = FORMATS["moodle-xml"]({"en": b}, ExportOptions())[PurePosixPath("essays-en.xml")]
    q = next(e for e in ET.fromstring(data).iter("question") if e.get("type") == "essay")
    assert q.findtext("responseformat") == "editor" and q.findtext("attachments") == "0"
    assert q.findtext("graderinfo/text") == "<p>It reads every weight for each token.</p>"
    assert q.findtext("responsetemplate/text") == "<p>Bytes read per token:</p>"
    path = tmp_path / "essays-en.xml"
    path.write_bytes(data)
    (back,), skipped = read_questions("moodle", path)
    assert skipped == [] and back.kind == "essay"
    assert back.fields == {"model_answer": "It reads every weight for each token.", "response_template": "Bytes read per token:"}


def test_gift_writes_an_empty_answer_block_and_warns_of_what_it_loses(tmp_path):
    b = bank(question("essay"))
    text = FORMATS["gift"]({"en": b}, ExportOptions())[PurePosixPath("essays-en.gift")].decode()
    assert "::[html]<p>Stem?</p> {\n\t####<p>Because.</p>\n}" in text
    notes = [d.message for d in export_notes(["gift"], {"en": b}, ExportOptions()) if d.code == "W657"]
    assert notes == ["gift: q001: GIFT cannot carry its model answer and response template (Moodle's grader information and the answer box's "
                     "starting text); use the Moodle XML file for it"]
    path = tmp_path / "essays-en.gift"
    path.write_text(text, encoding="utf-8")
    (back,), skipped = read_questions("gift", path)
    assert skipped == [] and back.kind == "essay" and back.stem == "Stem?" and back.explanation == "Because."
    bare = question("essay", model_answer=None, response_template=None)
    assert [d for d in export_notes(["gift"], {"en": bank(bare)}, ExportOptions()) if d.code == "W657"] == []
