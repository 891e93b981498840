"""`bank import qti` reads every question kind back: bank → QTI 2.1 / 3.0 / Canvas QTI 1.2 /
Common Cartridge → import → the same questions, except what each format cannot carry (each
export warns about those, naming the question; tests/test_qti_kinds.py, test_qti12_kinds.py).

What comes back differs from the bank only in: a relative tolerance comes back as the same
absolute one; only the first unit comes back (the prompt names it); Canvas grades multiple
answers partially, the cartridge all-or-nothing; Canvas and the cartridge keep only full-credit
short answers, case-insensitive, and Canvas no near misses; the cartridge has no numerical or
matching questions; an essay's model answer comes back from Canvas only (after its label in the
general comment), its response template from none."""

from __future__ import annotations

from pathlib import Path

import pytest

from aistack_bank.exporters import FORMATS
from aistack_bank.importers import read_questions
from aistack_bank.load import read_library
from aistack_bank.options import ExportOptions

import qti_kinds_bank as kinds_bank

IDS = "abcdefghijklmnopqrstuvwxyz"


def expected(q, fmt: str):
    """What the bank's question ``q`` is once exported as ``fmt`` and imported again."""
    lossy = fmt in ("canvas-qti12", "common-cartridge")
    out = {"kind": q.kind, "stem": q.stem, "explanation": q.explanation or ""}
    if q.kind == "single-choice":
        out |= {"options": [(o.text, o.feedback) for o in q.options], "correct": [o.id for o in q.options].index(q.correct)}
    elif q.kind == "multiple-response":
        scoring = {"canvas-qti12": "partial", "common-cartridge": "all-or-nothing"}.get(fmt, q.scoring)
        out |= {"options": [(o.text, o.feedback) for o in q.options], "correct": list(q.correct), "scoring": scoring}
    elif q.kind == "true-false":
        out |= {"answer": q.answer, "feedback_true": q.feedback_true, "feedback_false": q.feedback_false}
    elif q.kind == "numerical":
        near = [] if lossy else [(n.value, n.tolerance, n.credit, n.feedback) for n in q.near_misses]
        out |= {"answer": q.answer, "tolerance": pytest.approx(q.absolute_tolerance), "units": [u.name for u in q.units[:1]], "near": near}
    elif q.kind == "short-answer":
        kept = [a for a in q.answers if a.credit >= 1 or not lossy]
        out |= {"answers": [(a.text, a.credit, a.feedback) for a in kept], "case_sensitive": q.case_sensitive and not lossy}
    elif q.kind == "ordering":
        out |= {"items": [i.text for i in q.items]}
    elif q.kind == "essay":  # QTI and the cartridge have no place for the model answer, Canvas its general comment; none for the template
        out |= {"fields": {"model_answer": q.model_answer} if fmt == "canvas-qti12" and q.model_answer else {}}
    else:
        out |= {"pairs": [(p.prompt, p.answer) for p in q.pairs], "distractors": [d.text for d in q.distractors]}
    return out


def imported(item) -> dict:
    out = {"kind": item.kind, "stem": item.stem, "explanation": item.explanation}
    f = item.fields
    if item.kind == "single-choice":
        out |= {"options": item.options, "correct": item.correct}
    elif item.kind == "multiple-response":
        out |= {"options": item.options, "correct": f["correct"], "scoring": f["scoring"]}
    elif item.kind == "true-false":
        out |= {"answer": f["answer"], "feedback_true": f.get("feedback_true"), "feedback_false": f.get("feedback_false")}
    elif item.kind == "numerical":
        out |= {"answer": f["answer"], "tolerance": f["tolerance"], "units": [u["name"] for u in f.get("units", [])],
                "near": [(n["value"], n["tolerance"], n["credit"], n["feedback"]) for n in f.get("near_misses", [])]}
    elif item.kind == "short-answer":
        out |= {"answers": [(a["text"], a.get("credit", 1.0), a.get("feedback")) for a in f["answers"]], "case_sensitive": f.get("case_sensitive", False)}
    elif item.kind == "ordering":
        out |= {"items": [i["text"] for i in f["items"]]}
    elif item.kind == "essay":
        out |= {"fields": f}
    else:
        out |= {"pairs": [(p["prompt"], p["answer"]) for p in f["pairs"]], "distractors": [d["text"] for d in f.get("distractors", [])]}
    return out


@pytest.fixture(scope="module")
def banks():
    return kinds_bank.banks()


def export_and_read(banks, fmt: str, lang: str, folder: Path):
    tree = FORMATS[fmt](banks, ExportOptions())
    rel = FORMATS[fmt].language_file(banks["en"].topic, lang)
    path = folder / rel.name
    path.write_bytes(tree[rel])
    return path, read_questions("qti", path)


@pytest.mark.parametrize("fmt", ["qti21", "qti30", "canvas-qti12", "common-cartridge"])
@pytest.mark.parametrize("lang", kinds_bank.LANGS)
def test_every_kind_comes_back(banks, tmp_path, fmt, lang):
    _, (questions, skipped) = export_and_read(banks, fmt, lang, tmp_path)
    carried = [q for q in banks[lang].questions if FORMATS[fmt].carries(q)]
    # A cartridge holds each question twice (a question bank and a quiz): the copies are skipped.
    assert all("the same question as" in s.reason for s in skipped)
    assert [imported(q) for q in questions] == [expected(q, fmt) for q in carried]


def test_imported_questions_write_files_the_model_reads(banks, tmp_path, run_cli):
    path, _ = export_and_read(banks, "qti30", "fr", tmp_path)
    bank = tmp_path / "bank"
    code, out = run_cli("import", "qti", str(path), "--bank", str(bank), "--translations", str(tmp_path / "translations"))
    assert code == 0, out
    assert f"{len(banks['fr'].questions)} question(s) imported, 0 skipped" in out
    source = read_library(bank)
    assert not [d for d in source.diagnostics if d.severity.name == "ERROR"], source.diagnostics
    read = [s.question for s in source.questions]
    assert [q.kind for q in read] == [q.kind for q in banks["fr"].questions]
    numerical = next(q for q in read if q.kind == "numerical")
    assert (numerical.answer, numerical.absolute_tolerance, [u.name for u in numerical.units]) == (14, pytest.approx(0.7), ["Go"])
    assert numerical.stem == banks["fr"].question("q006").stem  # the unit sentence is not part of the stem


def test_another_tools_true_false_and_relative_tolerance(tmp_path):
    """QTI written by other tools: a true-false choice labelled in English, a numerical item with
    `equal` and a relative tolerance (in percent), a short answer without a mapping."""
    item = lambda ident, body, declaration, processing: f"""<?xml version="1.0" encoding="UTF-8"?>
<assessmentItem xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1" identifier="{ident}" title="{ident}" adaptive="false" timeDependent="false">
  {declaration}
  <outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float"/>
  <itemBody>{body}</itemBody>
  <responseProcessing>{processing}</responseProcessing>
</assessmentItem>"""  # noqa: E731
    setting = '<setOutcomeValue identifier="SCORE"><baseValue baseType="float">1</baseValue></setOutcomeValue>'
    files = {
        "tf.xml": item("tf", '<choiceInteraction responseIdentifier="RESPONSE" shuffle="false" maxChoices="1"><prompt>The sky is green.</prompt>'
                             '<simpleChoice identifier="T">True</simpleChoice><simpleChoice identifier="F">False</simpleChoice></choiceInteraction>',
                       '<responseDeclaration identifier="RESPONSE" cardinality="single" baseType="identifier"><correctResponse><value>F</value></correctResponse></responseDeclaration>',
                       ""),
        "num.xml": item("num", "<p>How much is 200 x 1.5?</p><p><textEntryInteraction responseIdentifier=\"RESPONSE\"/></p>",
                        '<responseDeclaration identifier="RESPONSE" cardinality="single" baseType="float"><correctResponse><value>300</value></correctResponse></responseDeclaration>',
                        f'<responseCondition><responseIf><equal toleranceMode="relative" tolerance="1"><baseValue baseType="float">300</baseValue>'
                        f'<variable identifier="RESPONSE"/></equal>{setting}</responseIf></responseCondition>'),
        "num-correct.xml": item("num2", "<p>How much is 0.1 + 0.2?</p><p><textEntryInteraction responseIdentifier=\"RESPONSE\"/></p>",
                                '<responseDeclaration identifier="RESPONSE" cardinality="single" baseType="float"><correctResponse><value>0.3</value></correctResponse></responseDeclaration>',
                                f'<responseCondition><responseIf><equal toleranceMode="absolute" tolerance="0.01"><correct identifier="RESPONSE"/>'
                                f'<variable identifier="RESPONSE"/></equal>{setting}</responseIf></responseCondition>'),
        "short.xml": item("short", "<p>Capital of France?</p><p><textEntryInteraction responseIdentifier=\"RESPONSE\"/></p>",
                          '<responseDeclaration identifier="RESPONSE" cardinality="single" baseType="string"><correctResponse><value>Paris</value></correctResponse></responseDeclaration>',
                          ""),
    }
    manifest = ('<manifest xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" identifier="m"><resources>'
                + "".join(f'<resource identifier="r{i}" type="imsqti_item_xmlv2p1" href="{n}"><file href="{n}"/></resource>' for i, n in enumerate(files))
                + "</resources></manifest>")
    (tmp_path / "imsmanifest.xml").write_text(manifest)
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    questions, skipped = read_questions("qti", tmp_path)
    assert not skipped
    tf, num, num2, short = questions
    assert (tf.kind, tf.stem, tf.fields) == ("true-false", "The sky is green.", {"answer": False})
    assert (num.kind, num.fields["answer"], num.fields["tolerance"]) == ("numerical", 300, pytest.approx(3))
    assert (num2.fields["answer"], num2.fields["tolerance"]) == (0.3, pytest.approx(0.01))
    assert (short.kind, short.fields) == ("short-answer", {"answers": [{"text": "Paris"}], "case_sensitive": True})


def test_canvas_range_answer_and_numeric_match_ids(tmp_path):
    """Canvas's own quiz export: a numerical answer written as a range, a matching question with
    Canvas's numeric answer and match ids (lib/cc/qti/qti_items.rb)."""
    q12 = "http://www.imsglobal.org/xsd/ims_qtiasiv1p2"
    meta = lambda kind: (f"<itemmetadata><qtimetadata><qtimetadatafield><fieldlabel>question_type</fieldlabel>"  # noqa: E731
                         f"<fieldentry>{kind}</fieldentry></qtimetadatafield></qtimetadata></itemmetadata>")
    text = lambda t: f'<material><mattext texttype="text/plain">{t}</mattext></material>'  # noqa: E731
    numerical = (f'<item ident="g1" title="Half of seven">{meta("numerical_question")}<presentation>{text("Half of seven?")}'
                 '<response_str ident="response1" rcardinality="Single"><render_fib fibtype="Decimal"><response_label ident="answer1"/></render_fib></response_str>'
                 '</presentation><resprocessing><outcomes><decvar maxvalue="100" minvalue="0" varname="SCORE" vartype="Decimal"/></outcomes>'
                 '<respcondition continue="No"><conditionvar><vargte respident="response1">3.4</vargte><varlte respident="response1">3.6</varlte></conditionvar>'
                 '<setvar action="Set" varname="SCORE">100</setvar></respcondition></resprocessing></item>')
    lid = lambda ident, prompt: (f'<response_lid ident="response_{ident}">{text(prompt)}<render_choice>'  # noqa: E731
                                 f'<response_label ident="8071">{text("Paris")}</response_label><response_label ident="5564">{text("Rome")}</response_label>'
                                 f'<response_label ident="913">{text("Oslo")}</response_label></render_choice></response_lid>')
    add = lambda ident, match: (f'<respcondition><conditionvar><varequal respident="response_{ident}">{match}</varequal></conditionvar>'  # noqa: E731
                                '<setvar varname="SCORE" action="Add">50.00</setvar></respcondition>')
    matching = (f'<item ident="g2" title="Capitals">{meta("matching_question")}<presentation>{text("Match the capitals.")}'
                f'{lid("1201", "France")}{lid("1202", "Italy")}</presentation><resprocessing><outcomes>'
                '<decvar maxvalue="100" minvalue="0" varname="SCORE" vartype="Decimal"/></outcomes>'
                f'{add("1201", "8071")}{add("1202", "5564")}</resprocessing></item>')
    (tmp_path / "quiz.xml").write_text(f'<questestinterop xmlns="{q12}"><assessment ident="a" title="Quiz"><section ident="root_section">'
                                       f"{numerical}{matching}</section></assessment></questestinterop>")
    (tmp_path / "imsmanifest.xml").write_text('<manifest xmlns="http://www.imsglobal.org/xsd/imsccv1p1/imscp_v1p1" identifier="m"><resources>'
                                              '<resource identifier="a" type="imsqti_xmlv1p2"><file href="quiz.xml"/></resource></resources></manifest>')
    (half, capitals), skipped = read_questions("qti", tmp_path)
    assert not skipped
    assert (half.kind, half.stem, half.fields) == ("numerical", "Half of seven?", {"answer": 3.5, "tolerance": pytest.approx(0.1)})
    assert (capitals.kind, capitals.fields) == ("matching", {
        "pairs": [{"id": "a", "prompt": "France", "answer": "Paris"}, {"id": "b", "prompt": "Italy", "answer": "Rome"}],
        "distractors": [{"id": "c", "text": "Oslo"}]})
