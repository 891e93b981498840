"""Canvas QTI 1.2 and Common Cartridge exports of every question kind.

The cartridge carries single choice, multiple response, true-false, short answer and essay in its
QTI profile (`cc.multiple_response.v0p1`, `cc.true_false.v0p1`, `cc.fib.v0p1`, `cc.essay.v0p1`),
valid against the official CC 1.1 XSDs; numerical, matching and ordering questions have no
profile and are left out with a warning naming them. The Canvas quiz carries every kind as Canvas's own quiz export writes it
(lib/cc/qti/qti_items.rb): its choice, true-false and short-answer items are valid against the
cartridge's QTI profile too; its numerical (`<or>`, `vargte`/`varlte`) and matching items
(`setvar action="Add"`) use what Canvas writes beyond that profile, checked here element by element.
"""

from __future__ import annotations

import io
import re
import zipfile

import pytest
from lxml import etree

from aistack_bank.kinds import a_kind
from aistack_bank.exporters import FORMATS, export_notes
from aistack_bank.model import Bank
from aistack_bank.options import ExportOptions

import qti_kinds_bank as kinds_bank
from conftest import REPO

CC11 = REPO / "tests" / "data" / "schemas" / "cc11"
Q = "{http://www.imsglobal.org/xsd/ims_qtiasiv1p2}"
SAFE = etree.XMLParser(no_network=True, resolve_entities=False)


def _schema(name: str) -> etree.XMLSchema:
    return etree.XMLSchema(etree.parse(str(CC11 / name), etree.XMLParser(no_network=True)))


@pytest.fixture(scope="module")
def banks():
    return kinds_bank.banks()


def unpack(fmt: str, banks, lang: str) -> dict[str, bytes]:
    tree = FORMATS[fmt](banks, ExportOptions())
    with zipfile.ZipFile(io.BytesIO(tree[FORMATS[fmt].language_file(banks["en"].topic, lang)])) as zf:
        return {name: zf.read(name) for name in zf.namelist()}


def items(data: bytes) -> dict[str, etree._Element]:
    """Items by question id."""
    return {item.get("ident").split("-")[0]: item for item in etree.fromstring(data, SAFE).iter(f"{Q}item")}


def field(item, label: str) -> str:
    return next(f.findtext(f"{Q}fieldentry") for f in item.iter(f"{Q}qtimetadatafield") if f.findtext(f"{Q}fieldlabel") == label)


def _errors(schema, data: bytes) -> list[str]:
    schema.validate(etree.fromstring(data, SAFE))
    return [f"{e.line}: {e.message}" for e in schema.error_log]


@pytest.mark.parametrize("lang", kinds_bank.LANGS)
def test_the_cartridge_is_valid_and_carries_the_kinds_its_profile_has(banks, lang):
    files = unpack("common-cartridge", banks, lang)
    qti = _schema("ccv1p1_qtiasiv1p2p1_v1p0.xsd")
    assert not _errors(_schema("ccv1p1_imscp_v1p2_v1p0.xsd"), files["imsmanifest.xml"])
    for name, data in files.items():
        if name != "imsmanifest.xml":
            assert not _errors(qti, data), name
            found = items(data)
            assert sorted(found) == ["q001", "q002", "q003", "q004", "q005", "q008", "q009", "q013"]
            assert {qid: field(item, "cc_profile") for qid, item in found.items()} == {
                "q001": "cc.multiple_choice.v0p1", "q002": "cc.multiple_response.v0p1", "q003": "cc.multiple_response.v0p1",
                "q004": "cc.true_false.v0p1", "q005": "cc.true_false.v0p1", "q008": "cc.fib.v0p1", "q009": "cc.fib.v0p1",
                "q013": "cc.essay.v0p1"}


def test_the_cartridge_scores_as_moodles_restore_reads_it(banks):
    found = items(unpack("common-cartridge", banks, "fr")["kinds-fr/assessment.xml"])
    # Multiple response: Moodle takes the keys from varequal case="Yes" outside a <not>, in a
    # condition that sets SCORE to 100.
    scoring = [c for c in found["q002"].iter(f"{Q}respcondition") if c.findtext(f"{Q}setvar") == "100"]
    assert len(scoring) == 1
    keys = [v.text for v in scoring[0].iter(f"{Q}varequal") if v.get("case") == "Yes" and v.getparent().tag != f"{Q}not"]
    assert keys == ["q002-fr-a", "q002-fr-c"]
    assert [v.text for v in scoring[0].iter(f"{Q}varequal") if v.getparent().tag == f"{Q}not"] == ["q002-fr-b"]
    # Fill in the blank: the varequals of the first condition whose setvar is exactly 100, full
    # credit only (the partial-credit answer is left out, with a warning), with the spelling the
    # bank's folding accepts that an exact comparison would not (a hyphen for the space).
    fib = [c for c in found["q008"].iter(f"{Q}respcondition") if c.findtext(f"{Q}setvar") == "100"]
    assert [v.text for v in fib[0].iter(f"{Q}varequal")] == ["ONNX", "format ONNX", "format-ONNX"]
    # True-false in the question's language.
    assert [t.text for t in found["q004"].iter(f"{Q}mattext")][1:3] == ["Vrai", "Faux"]


def test_the_cartridge_warns_naming_what_it_leaves_out_or_scores_otherwise(banks):
    notes = [(d.code, d.message) for d in export_notes(["common-cartridge"], banks, ExportOptions())]
    assert [m.split(":")[1].split(" is a")[0].strip() for c, m in notes if c == "W652"] == ["q006", "q007", "q010", "q011", "q012"]
    said = sorted((m.split(" ")[1].split("'")[0], m) for c, m in notes if c == "W664")
    assert [qid for qid, _ in said] == ["q002", "q003", "q008", "q008", "q009", "q009", "q009", "q013"]
    assert said[-1][1].startswith("common-cartridge: q013's model answer and response template are left out: the profile's essay has no place for them")
    # What Moodle's restore changes: multiple response 1/n per right option (both policies), and
    # the feedback of right short answers dropped.
    assert [qid for qid, m in said if "Moodle's restore gives each right option 1/n" in m] == ["q002", "q003"]
    assert [qid for qid, m in said if "answer feedback is lost in Moodle's restore" in m] == ["q008", "q009"]


@pytest.mark.parametrize("lang", kinds_bank.LANGS)
def test_canvas_items_have_canvas_question_types(banks, lang):
    found = items(unpack("canvas-qti12", banks, lang)[f"kinds-{lang}/kinds-{lang}.xml"])
    assert {qid: field(item, "question_type") for qid, item in found.items()} == {
        "q001": "multiple_choice_question", "q002": "multiple_answers_question", "q003": "multiple_answers_question",
        "q004": "true_false_question", "q005": "true_false_question", "q006": "numerical_question", "q007": "numerical_question",
        "q008": "short_answer_question", "q009": "short_answer_question", "q010": "matching_question", "q011": "matching_question",
        "q013": "essay_question"}


def test_canvas_choice_and_text_items_follow_the_qti_profile(banks):
    """Without numerical and matching questions, the Canvas quiz is valid against the profile."""
    en = banks["en"]
    kept = tuple(q for q in en.questions if q.kind not in ("numerical", "matching"))
    bank = Bank(topic=en.topic, questions=kept, category=en.category, lang="en")
    data = unpack("canvas-qti12", {"en": bank}, "en")["kinds-en/kinds-en.xml"]
    assert not _errors(_schema("ccv1p1_qtiasiv1p2p1_v1p0.xsd"), data)


def test_canvas_numerical_item_is_exact_with_a_margin(banks):
    item = items(unpack("canvas-qti12", banks, "fr")["kinds-fr/kinds-fr.xml"])["q006"]
    assert item.find(f".//{Q}render_fib").get("fibtype") == "Decimal"
    assert [r.get("ident") for r in item.iter(f"{Q}response_str")] == ["response1"]
    (scoring,) = [c for c in item.iter(f"{Q}respcondition") if c.findtext(f"{Q}setvar") == "100"]
    either = scoring.find(f"{Q}conditionvar/{Q}or")
    assert either.findtext(f"{Q}varequal") == "14"
    assert (either.findtext(f"{Q}and/{Q}vargte"), either.findtext(f"{Q}and/{Q}varlte")) == ("13.3", "14.7")
    assert "Répondez en Go. Écrivez les décimales avec un point (3.5)." in "".join(item.find(f"{Q}presentation/{Q}material").itertext())
    assert "28" not in etree.tostring(item).decode()  # the near miss is left out (Canvas would mark it right)


def test_canvas_matching_item_as_canvas_writes_it(banks):
    """q011's BF16 and FP16 share "2 bytes": each prompt's list offers it once, under one ident
    that both prompts' rules name."""
    item = items(unpack("canvas-qti12", banks, "en")["kinds-en/kinds-en.xml"])["q011"]
    lids = list(item.iter(f"{Q}response_lid"))
    assert [lid.findtext(f"{Q}material/{Q}mattext") for lid in lids] == ["BF16", "INT8", "FP64", "FP16"]
    lists = [[(label.get("ident"), label.findtext(f".//{Q}mattext")) for label in lid.iter(f"{Q}response_label")] for lid in lids]
    offered = lists[0]
    assert [text for _, text in offered] == ["2 bytes", "1 byte", "8 bytes"] and all(each == offered for each in lists)
    # Canvas's importer takes a match's id from the first digits of its ident: each is distinct.
    first_digits = [re.search(r"\d+", ident).group() for ident, _ in offered]
    assert len(set(first_digits)) == len(first_digits)
    adds = [(c.find(f".//{Q}varequal").get("respident"), c.find(f".//{Q}varequal").text, c.findtext(f"{Q}setvar")) for c in item.iter(f"{Q}respcondition")
            if c.find(f"{Q}setvar") is not None and c.find(f"{Q}setvar").get("action") == "Add"]
    assert adds == [(lid.get("ident"), ident, "25.00") for lid, (ident, _) in zip(lids, offered + offered[:1])]
    distractor = items(unpack("canvas-qti12", banks, "en")["kinds-en/kinds-en.xml"])["q010"]
    assert [label.findtext(f".//{Q}mattext") for label in next(distractor.iter(f"{Q}response_lid")).iter(f"{Q}response_label")] == ["2 bytes", "4 bytes", "3 bytes"]


def test_canvas_warns_naming_what_it_scores_otherwise(banks):
    notes = [(d.code, d.message) for d in export_notes(["canvas-qti12"], banks, ExportOptions())]
    assert sorted(m.split(" ")[1].split("'")[0] for c, m in notes if c == "W663") == ["q003", "q006", "q007", "q008", "q009", "q009"]
    assert [m for c, m in notes if c == "W651"] == ["canvas-qti12: q012 is an ordering question, which canvas-qti12 cannot carry; it is left out of the export"]
    assert ("W660", "canvas-qti12: q006 has units, which canvas-qti12 cannot read: the prompt asks for GB; other units (MB) are not accepted") in notes


def test_aiken_carries_single_choice_only_and_names_each_question_it_leaves_out(banks):
    tree = FORMATS["aiken"](banks, ExportOptions())
    assert tree[FORMATS["aiken"].language_file(banks["en"].topic, "fr")].decode() == "Which one? [fr]\nA) One [fr]\nB) Two [fr]\nANSWER: A\n"
    notes = [d.message for d in export_notes(["aiken"], banks, ExportOptions()) if d.code == "W654"]
    assert notes == [f"aiken: {q.id} (en) is left out of the Aiken files: it is {a_kind(q.kind)} question; Aiken carries single choice only"
                     for q in banks["en"].questions if q.kind != "single-choice"]


def test_canvas_essay_as_canvas_writes_it_and_reads_it(banks):
    """essay_question: a text response, nothing scored, and the explanation then the model answer
    (after a label in the question's language) as the general comment, which Canvas's import
    reads back as the essay's neutral comment."""
    from aistack_bank.exporters.common import html_paragraph
    from aistack_bank.lms import models

    q = next(q for q in banks["fr"].questions if q.kind == "essay")
    item = items(unpack("canvas-qti12", banks, "fr")["kinds-fr/kinds-fr.xml"])["q013"]
    assert [(r.get("ident"), r.get("rcardinality")) for r in item.iter(f"{Q}response_str")] == [("response1", "Single")]
    assert [label.get("ident") for label in item.find(f".//{Q}render_fib")] == ["answer1"]
    assert not list(item.iter(f"{Q}varequal")) and not list(item.iter(f"{Q}setvar"))
    general = item.find(f"{Q}itemfeedback[@ident='general_fb']").findtext(f".//{Q}mattext")
    assert general == html_paragraph(q.explanation) + "<p><strong>Réponse type\u00a0:</strong></p>" + html_paragraph(q.model_answer)
    assert q.response_template and q.response_template not in etree.tostring(item, encoding="unicode")  # Canvas has no template
    read = models.canvas_read_qti12_item(etree.fromstring(etree.tostring(item)))
    assert (read["question_type"], read["answers"], read["neutral_comments"]) == ("essay_question", [], general)
    # Canvas's converter: a text response with a scoring rule is a short answer, whatever the metadata says.
    scored = etree.fromstring(etree.tostring(item))
    rule = next(scored.iter(f"{Q}respcondition"))
    etree.SubElement(etree.SubElement(rule.find(f"{Q}conditionvar"), f"{Q}and"), f"{Q}varequal").text = "memory"
    etree.SubElement(rule, f"{Q}setvar").text = "100"
    assert models.canvas_read_qti12_item(scored)["question_type"] == "short_answer_question"


def test_canvas_essay_without_words_for_its_language_warns(banks):
    """The model answer's label comes from the exporter's words: English for a language it has none for (W662)."""
    en = banks["en"]
    other = en.model_copy(update={"lang": "sv"})
    notes = [d.message for d in export_notes(["canvas-qti12"], {"en": en, "sv": other}, ExportOptions()) if d.code == "W662"]
    assert "canvas-qti12: q013 (sv): no label for the model answer in sv; the English words are used" in notes
    item = items(unpack("canvas-qti12", {"en": en, "sv": other}, "sv")["kinds-sv/kinds-sv.xml"])["q013"]
    assert "<strong>Model answer:</strong>" in item.find(f"{Q}itemfeedback").findtext(f".//{Q}mattext")


def test_canvas_says_what_words_each_question_lacks_in_question_order(banks):
    """W662 for an essay's label comes out of the same walk as the True/False labels and the unit
    sentence: language by language, question by question (the writers' table of words used)."""
    en = banks["en"]
    lacking = {lang: en.model_copy(update={"lang": lang}) for lang in ("sv", "sw")}
    notes = [d.message for d in export_notes(["canvas-qti12"], {"en": en, **lacking}, ExportOptions()) if d.code == "W662"]
    said = [re.match(r"canvas-qti12: (q\d+) \((\w+)\)", note).groups() for note in notes]
    assert said == sorted(said, key=lambda found: (found[1], found[0])) and {qid for qid, _ in said} >= {"q013"}
    assert len(said) == len(set(said)) and {lang for _, lang in said} == {"sv", "sw"}


def test_cartridge_essay_follows_the_essay_profile(banks):
    """cc.essay.v0p1 as Moodle's cartridge writer writes it (scoring permitted, not computer
    scored, a render_fib of rows), no varequal (the profile's rule 8c), and the explanation's rule
    marked continue="Yes", which Moodle's converter needs to keep it as general feedback."""
    from aistack_bank.exporters.common import html_paragraph

    q = next(q for q in banks["nl"].questions if q.kind == "essay")
    for data in (d for name, d in unpack("common-cartridge", banks, "nl").items() if name != "imsmanifest.xml"):
        item = items(data)["q013"]
        assert (field(item, "qmd_scoringpermitted"), field(item, "qmd_computerscored")) == ("Yes", "No")
        assert [f.findtext(f"{Q}fieldlabel") for f in item.iter(f"{Q}qtimetadatafield")] == ["cc_profile", "cc_weighting", "qmd_scoringpermitted", "qmd_computerscored"]
        assert item.find(f".//{Q}response_str/{Q}render_fib").get("rows") == "10"
        assert not list(item.iter(f"{Q}varequal")) and not list(item.iter(f"{Q}response_lid"))
        rules = list(item.iter(f"{Q}respcondition"))
        assert [(r.get("continue"), [d.get("linkrefid") for d in r.iter(f"{Q}displayfeedback")]) for r in rules] == [("Yes", ["general_fb"]), ("No", [])]
        assert item.find(f"{Q}itemfeedback[@ident='general_fb']").findtext(f".//{Q}mattext") == html_paragraph(q.explanation)
        assert q.model_answer not in etree.tostring(item, encoding="unicode")
