"""The readers: one per LMS file format, shared by `bank import` and `bank lint`'s LMS models,
and the importers' questions written from the validated model."""

from __future__ import annotations

import ast
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from conftest import REPO

from aistack_bank.readers import gift, moodle_xml
from aistack_bank.readers.xml import (
    MAX_DEPTH,
    XmlMalformed,
    XmlRefused,
    depth_of,
    parse,
)

PACKAGE = REPO / "aistack_bank"


def _imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
    return found


def test_only_the_xml_reader_parses_xml():
    """defusedxml (and with it every refusal of a DTD, an entity, a malformed file) is called in
    one module; the others read elements through it."""
    parsing = sorted(str(path.relative_to(REPO)) for path in PACKAGE.rglob("*.py")
                     if any(name.startswith("defusedxml") for name in _imports(path)))
    assert parsing == ["aistack_bank/readers/xml.py"]


def test_a_dtd_is_refused_at_the_line_of_its_declaration():
    raw = b'<?xml version="1.0"?>\n\n<!DOCTYPE quiz [<!ENTITY a "b">]>\n<quiz>&a;</quiz>\n'
    with pytest.raises(XmlRefused) as refused:
        parse(raw)
    assert (refused.value.line, refused.value.column) == (3, 1)


def test_malformed_xml_is_located():
    with pytest.raises(XmlMalformed) as malformed:
        parse(b"<quiz>\n  <question>\n</quiz>\n")
    assert (malformed.value.line, malformed.value.column) == (3, 3)


@pytest.mark.parametrize("encoding", ["bogus", "rot13"])
def test_an_unknown_or_non_text_encoding_is_malformed_xml_at_the_declaration(encoding):
    with pytest.raises(XmlMalformed) as malformed:
        parse(f'<?xml version="1.0" encoding="{encoding}"?>\n<quiz/>\n'.encode())
    assert (malformed.value.line, malformed.value.column) == (1, 1) and encoding in malformed.value.reason


@pytest.mark.parametrize("kind,name", [("moodle", "in.xml"), ("qti", "pkg/imsmanifest.xml")])
def test_an_import_of_a_file_in_an_unknown_encoding_is_refused_where_it_says_so(project, run_cli, kind, name):
    (project / name).parent.mkdir(exist_ok=True)
    (project / name).write_bytes(b'<?xml version="1.0" encoding="bogus"?>\n<quiz/>\n')
    code, out = run_cli("import", kind, name.split("/")[0])
    assert code != 0 and re.search(rf"{Path(name).name}:1:1: error E7\d\d: not well-formed XML: .*bogus", out) and "Traceback" not in out, out


def test_depth_stops_counting_past_the_limit():
    raw = b"<a>" * (MAX_DEPTH * 10) + b"</a>" * (MAX_DEPTH * 10)
    assert depth_of(parse(raw)) == MAX_DEPTH + 1
    assert depth_of(parse(b"<a><b/><c><d/></c></a>")) == 3


def test_moodle_xml_records_keep_what_the_file_holds():
    raw = b"""<?xml version="1.0" encoding="UTF-8"?>
<quiz>
  <question type="category">
    <category><text>$course$/top/Units</text></category>
  </question>
  <question type="numerical">
    <name><text>Speed</text></name>
    <questiontext format="plain_text"><text>How fast?</text></questiontext>
    <answer fraction="100" format="moodle_auto_format"><text>3,5</text><tolerance>0.1</tolerance>
      <feedback format="html"><text><![CDATA[<p>Yes</p>]]></text></feedback></answer>
    <units><unit><unit_name>m/s</unit_name><multiplier>1</multiplier></unit></units>
    <unitgradingtype>0</unitgradingtype>
  </question>
</quiz>
"""
    found = moodle_xml.read(raw)
    category, question = found.entries
    assert found.root == "quiz" and category == moodle_xml.Category("$course$/top/Units", None, 3)
    assert question.type == "numerical" and question.line == 6
    assert question.questiontext == moodle_xml.Text("How fast?", "plain_text")
    answer = question.answers[0]
    assert (answer.text, answer.format, answer.fraction, answer.tolerance) == ("3,5", "moodle_auto_format", "100", "0.1")
    assert answer.feedback == moodle_xml.Text("<p>Yes</p>", "html")
    assert question.units == [moodle_xml.Unit("m/s", "1")]
    assert question.settings == {"unitgradingtype": "0"} and question.generalfeedback == moodle_xml.Text()


def test_gift_blocks_keep_their_lines_and_comments():
    text = "// a comment alone\n\n// [tag:x]\n::Q1:: What?\n  {=yes ~no}\n\n\n::Q2:: Which? {T}\n"
    first, second, third = gift.blocks(text)
    assert first.line == 0 and first.comments == ["// a comment alone"]
    assert (second.first, second.line, second.comments) == (3, 4, ["// [tag:x]"])
    assert second.text == "::Q1:: What?\n  {=yes ~no}"
    assert (third.first, third.line) == (8, 8)


@pytest.mark.parametrize("moodle", [False, True])
def test_gift_escapes_round_trip(moodle):
    escapes = gift.Escapes("a\\:b \\{c\\} \\\\ d\\n", moodle=moodle)
    hidden = escapes.protect("a\\:b \\{c\\} \\\\ d\\n")
    assert not {":", "{", "}"} & set(hidden)
    assert escapes.restore(hidden) == "a:b {c} \\ d\n"


def test_gift_escapes_never_take_the_text_for_an_escape():
    """Moodle's placeholders (``&&058;``) confuse a text that holds one, as Moodle does; the
    importer's are characters the text does not hold."""
    text = "Type &&058; or \\: here"
    assert gift.Escapes(text, moodle=True).restore(gift.Escapes(text, moodle=True).protect(text)) == "Type : or : here"
    escapes = gift.Escapes(text)
    assert escapes.restore(escapes.protect(text)) == "Type &&058; or : here"
    private = "\ue000\ue001 \\:"
    escapes = gift.Escapes(private)
    assert escapes.restore(escapes.protect(private)) == "\ue000\ue001 :"


def test_qti_names_read_qti_2_and_3_alike():
    from aistack_bank.readers import qti

    two = parse(b'<assessmentItem><responseDeclaration baseType="float"/></assessmentItem>')
    three = parse(b'<qti-assessment-item xmlns="http://www.imsglobal.org/xsd/imsqtiasi_v3p0">'
                  b'<qti-response-declaration base-type="float"/></qti-assessment-item>')
    for root in (two, three):
        (declaration,) = qti.children(root, "responseDeclaration")
        assert qti.qti_name(root.tag) == "assessmentItem" and qti.attr(declaration, "baseType") == "float"


def test_qti_12_metadata_fields_in_file_order():
    from aistack_bank.readers import qti

    item = parse(b"<item><itemmetadata><qtimetadata>"
                 b"<qtimetadatafield><fieldlabel>question_type</fieldlabel><fieldentry>multiple_choice_question</fieldentry></qtimetadatafield>"
                 b"<qtimetadatafield><fieldlabel>points_possible</fieldlabel></qtimetadatafield>"
                 b"</qtimetadata></itemmetadata><presentation><qtimetadatafield><fieldlabel><b>cc</b>_weighting</fieldlabel>"
                 b"<fieldentry/></qtimetadatafield></presentation></item>")
    fields = qti.metadata_fields(item)
    assert [(f.label, f.label_text, f.entry, f.entry_text, f.placed) for f in fields] == [
        ("question_type", "question_type", "multiple_choice_question", "multiple_choice_question", True),
        ("points_possible", "points_possible", "", None, True),
        ("cc_weighting", None, "", None, False)]


def test_qti_12_response_conditions_keep_what_the_file_holds():
    from aistack_bank.readers import qti

    item = parse(b'<item ident="i1"><resprocessing>'
                 b'<respcondition continue="Yes"><conditionvar><other/></conditionvar><displayfeedback linkrefid="general_fb"/></respcondition>'
                 b'<respcondition><conditionvar><and><varequal respident="r1" case="Yes">a<b>!</b></varequal>'
                 b'<not><varequal respident="r1">b</varequal></not></and></conditionvar><conditionvar><varequal>c</varequal></conditionvar>'
                 b'<setvar varname="SCORE" action="Add">100</setvar><setvar variablename="X"/><displayfeedback/></respcondition>'
                 b'</resprocessing><presentation><respcondition/></presentation></item>')
    general, scoring, elsewhere = qti.response_conditions(item)
    assert (general.placed, general.continue_, general.feedback, general.setvars) == (True, "Yes", ("general_fb",), ())
    assert [(t.name, t.depth, t.parent) for t in general.tests] == [("other", 1, "conditionvar")]
    assert (scoring.conditionvars, scoring.continue_, scoring.feedback) == (2, None, (None,))
    assert [(t.name, t.respident, t.case, t.text, t.value, t.parent, t.depth, t.conditionvar) for t in scoring.tests] == [
        ("and", None, None, None, "a!b", "conditionvar", 1, 0),
        ("varequal", "r1", "Yes", "a", "a!", "and", 2, 0),
        ("b", None, None, "!", "!", "varequal", 3, 0),
        ("not", None, None, None, "b", "and", 2, 0),
        ("varequal", "r1", None, "b", "b", "not", 3, 0),
        ("varequal", None, None, "c", "c", "conditionvar", 1, 1)]
    assert [(s.varname, s.variablename, s.action, s.text, s.value) for s in scoring.setvars] == [
        ("SCORE", None, "Add", "100", "100"), (None, "X", None, None, "")]
    assert (elsewhere.placed, elsewhere.conditionvars, elsewhere.tests, elsewhere.feedback) == (False, 0, (), ())


QTI12_FEEDBACK = (b'<item><itemfeedback ident="general_fb"><flow_mat><material><mattext texttype="text/html">&lt;p&gt;Why&lt;/p&gt;</mattext>'
                  b'<matimage uri="a.png"/></material></flow_mat></itemfeedback>'
                  b'<presentation><itemfeedback><material><mattext>deep<b>er</b></mattext></material></itemfeedback></presentation>'
                  b'<resprocessing><respcondition/></resprocessing></item>')


def test_qti_12_item_feedback_and_material_as_written():
    from aistack_bank.readers import qti

    general, deeper = qti.item_feedback(parse(QTI12_FEEDBACK))
    assert (general.ident, general.placed, deeper.ident, deeper.placed) == ("general_fb", True, None, False)
    assert [(m.name, m.texttype, m.text, m.value, m.path) for m in general.material] == [
        ("mattext", "text/html", "<p>Why</p>", "<p>Why</p>", ("flow_mat", "material", "mattext")),
        ("matimage", None, None, "", ("flow_mat", "material", "matimage"))]
    assert [(m.text, m.value, m.path) for m in deeper.material] == [("deep", "deeper", ("material", "mattext"))]
    assert qti.material(None) == ()


def test_qti_12_responses_with_their_labels_and_the_stem_beside_them():
    from aistack_bank.readers import qti

    presentation = parse(b'<presentation><material><mattext>Stem</mattext></material><flow>'
                         b'<response_lid ident="r1" rcardinality="Multiple"><material><mattext>Left</mattext></material>'
                         b'<render_choice><response_label ident="a"><material><mattext>A</mattext></material></response_label>'
                         b'<flow_label><response_label><material><mattext>B</mattext></material></response_label></flow_label>'
                         b'</render_choice></response_lid>'
                         b'<response_str ident="s1"><material><mattext>Type</mattext></material></response_str></flow></presentation>')
    lid, text = qti.responses(presentation)
    assert (lid.name, lid.ident, lid.rcardinality, lid.path) == ("response_lid", "r1", "Multiple", ("flow", "response_lid"))
    assert [m.value for m in lid.prompt] == ["Left"]
    assert [(label.ident, [m.value for m in label.material], label.path) for label in lid.labels] == [
        ("a", ["A"], ("render_choice", "response_label")), (None, ["B"], ("render_choice", "flow_label", "response_label"))]
    assert (text.name, text.ident, text.rcardinality, text.labels) == ("response_str", "s1", None, ())
    assert [label.ident for label in qti.response_labels(presentation)] == ["a", None]
    assert qti.responses(None) == []
    item = parse(b"<item>" + ET.tostring(presentation) + b"<itemmetadata><presentation><material><mattext>Deep</mattext></material></presentation></itemmetadata></item>")
    read, deep = qti.presentations(item, placed=False)
    assert qti.presentations(item, placed=True) == [read] and read.flow and not deep.flow
    assert read.responses == tuple(qti.responses(presentation)) and [m.value for m in read.material] == ["Stem", "Left", "A", "B", "Type"]
    assert [path for path, _ in read.materials] == [("material",), ("flow", "response_lid", "material"),
                                                    ("flow", "response_lid", "render_choice", "response_label", "material"),
                                                    ("flow", "response_lid", "render_choice", "flow_label", "response_label", "material"),
                                                    ("flow", "response_str", "material")]
    assert [[m.value for m in mats] for mats in read.materials_outside(("response_lid",))] == [["Stem"], ["Type"]]
    assert [[m.value for m in mats] for mats in read.materials_outside(("response_lid", "response_str"))] == [["Stem"]]
    assert [[m.value for m in mats] for mats in deep.materials_outside(())] == [["Deep"]]


def test_qti_12_items_where_they_sit_their_types_and_the_container_title():
    from aistack_bank.readers import qti

    root = parse(b'<questestinterop><objectbank title=""><item ident="b1"><itemmetadata><bbmd_questiontype>Essay</bbmd_questiontype>'
                 b'<qmd_itemtype>Logical Identifier</qmd_itemtype><bbmd_questiontype> Matching </bbmd_questiontype></itemmetadata></item>'
                 b'</objectbank><assessment title="Quiz"><section title="S"><item ident="s1"/><flow><item ident="deep"/></flow></section></assessment>'
                 b'</questestinterop>')
    assert [i.get("ident") for i in qti.items(root)] == ["b1", "s1", "deep"]
    assert [i.get("ident") for i in qti.items(root, ("objectbank",))] == ["b1"]
    assert [i.get("ident") for i in qti.items(root, ("assessment", "section"))] == ["s1"]
    assert qti.item_types(qti.items(root)[0]) == [("bbmd_questiontype", "Essay"), ("bbmd_questiontype", " Matching "),
                                                  ("qmd_itemtype", "Logical Identifier")]
    assert qti.container_title(root) == "Quiz"
    assert qti.container_title(parse(b'<questestinterop><section title="S"/><objectbank title="B"/></questestinterop>')) == "B"
    assert qti.container_title(parse(b"<item/>")) is None


def test_qti_12_records_tell_where_an_element_sits_in_an_lxml_tree_too():
    """lxml makes a new Python object for an element each time one is asked for (when none is
    alive): where an element sits is told by the element, not by an object's id."""
    from lxml import etree

    from aistack_bank.readers import qti

    item = etree.fromstring(QTI12_FEEDBACK)
    for _ in range(3):
        assert [f.placed for f in qti.item_feedback(item)] == [True, False]
        assert [c.placed for c in qti.response_conditions(item)] == [True]
        assert [f.placed for f in qti.metadata_fields(etree.fromstring(b"<item><itemmetadata><qtimetadata><qtimetadatafield/>"
                                                                       b"</qtimetadata></itemmetadata></item>"))] == [True]


# --- importers write the validated model ------------------------------------------------------

GIFT = """::Pick:: Which one is right? {=right #good ~wrong #bad}

::Truth:: The sky is blue. {T}

::Size:: How many bytes in a kibibyte? {#1024:0}

::Word:: Name the unit of information. {=bit =binary digit}

::Order:: Match each to its size. {=bit -> 1/8 byte =byte -> 8 bits =nibble -> 4 bits}

::Many:: Which are powers of two? {~%50%8 ~%50%16 ~%-100%10}
"""


def test_imported_files_are_written_from_the_validated_model(tmp_path):
    """Each written file is what its model object writes: read back with `bank validate`'s
    reader, rendered again from the model, it is the same bytes."""
    from aistack_bank.importers import import_file
    from aistack_bank.importers.write import file_data, render_imported_yaml
    from aistack_bank.load import read_question

    source = tmp_path / "in.gift"
    source.write_text(GIFT, encoding="utf-8")
    report = import_file("gift", source, tmp_path / "bank", None)
    kinds = set()
    assert len(report.written) == 6 and not report.skipped
    for path in report.written:
        question, diags = read_question(path)
        assert not diags and question.question is not None
        kinds.add(question.question.kind)
        assert render_imported_yaml(file_data(question.question)) == path.read_bytes()
    assert kinds == {"single-choice", "true-false", "numerical", "short-answer", "matching", "multiple-response"}


def test_a_question_the_model_refuses_is_skipped_with_its_message(tmp_path):
    """Feedback made only of a character no bank text may hold is empty once cleaned: the
    model refuses the question (a blank text), so nothing of it is written."""
    from aistack_bank.importers import import_file

    source = tmp_path / "in.gift"
    source.write_text("::Pick:: Which? {=right #\u202e ~wrong}\n\n::Fine:: Which? {=right ~wrong}\n", encoding="utf-8")
    report = import_file("gift", source, tmp_path / "bank", None)
    assert [p.name for p in report.written] == ["q001-fine.yaml"]
    (skipped,) = report.skipped
    assert skipped.name == "Pick" and "would not pass `bank validate`: E2" in skipped.reason and "options.0.feedback" in skipped.reason


def test_a_broken_categories_file_refuses_the_import_of_new_categories(project, run_cli):
    path = project / "bank" / "categories.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "  - id: [broken\n", encoding="utf-8")
    before = {p: p.read_bytes() for p in (project / "bank").rglob("*") if p.is_file()}
    (project / "in.gift").write_text("$CATEGORY: $course$/top/Networks\n\n::A:: Which? {=right ~wrong}\n\n"
                                     "$CATEGORY: $course$/top/Storage\n\n::B:: Which? {=right ~wrong}\n", encoding="utf-8")
    code, out = run_cli("import", "gift", "in.gift")
    assert code == 1 and "bank/categories.yaml" in out and "E703" in out and "cannot add the imported categories" in out, out
    assert {p: p.read_bytes() for p in (project / "bank").rglob("*") if p.is_file()} == before


def test_analyze_of_results_in_an_unknown_encoding_says_so_where_the_file_does(tmp_path, run_cli):
    results = tmp_path / "results.xml"
    results.write_bytes(b'<?xml version="1.0" encoding="bogus"?>\n<assessmentResult/>\n')
    code, out = run_cli("analyze", str(results))
    assert code != 0 and "results.xml:1:1: error E903: XML syntax error: the XML declaration's encoding: unknown encoding: bogus" in out, out


def test_manifest_resources_as_written():
    from aistack_bank.readers import qti

    manifest = parse(b'<manifest xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" xmlns:bb="http://www.blackboard.com/content-packaging/">'
                     b'<resources><resource identifier="r1" type="imsqti_xmlv1p2" xml:base="quiz"><file href="q.xml"/><file/>'
                     b'<dependency identifierref="r2"/></resource>'
                     b'<resource identifier="r2" type="webcontent" href="meta.xml" bb:file="res1.dat"/></resources></manifest>')
    first, second = qti.manifest_resources(manifest)
    assert (first.identifier, first.type, first.href, first.base, first.bb_file, first.files, first.dependencies) == (
        "r1", "imsqti_xmlv1p2", None, "quiz", None, ("q.xml", None), ("r2",))
    assert (second.href, second.base, second.bb_file, second.files, second.dependencies) == ("meta.xml", None, "res1.dat", (), ())
