"""Every Common Cartridge the project writes, restored as Moodle 4.5's IMS CC 1.1 converter does.

The converter (``backup/cc/cc112moodle.php``, ``backup/cc/entity11.quiz.class.php``) is modelled
in ``aistack_bank.lms.models.moodle_cc11_restore``. For the bundled bank, the examples bank, the
golden bank, a bank of every kind and a bank of 12 topics (its whole-bank cartridge too), in
every language: every carried question is restored in the quiz and in the question bank, with
its key, each option's feedback, and the explanation alone as the general feedback.
"""

from __future__ import annotations

import io
import zipfile

import pytest

from aistack_bank.build import available_languages, load_localized, render
from aistack_bank.exporters.qti_common import ncname
from aistack_bank.exporters.qti12_common import assessment_ident, full_credit_answers, item_ident
from aistack_bank.exporters.common import html_paragraph
from aistack_bank.exporters.words import words
from aistack_bank.lms import models
from aistack_bank.model import Bank, Library
from aistack_bank.options import ExportOptions

import kinds_bank
import topics_sample
from conftest import REPO

CARRIED = {"single-choice": ("multichoice", True), "multiple-response": ("multichoice", False),
           "true-false": ("truefalse", True), "short-answer": ("shortanswer", True), "essay": ("essay", True)}


def _on_disk(bank, translations):
    return lambda: load_localized(bank, translations, available_languages(translations))[0]


SOURCES = {
    "bundled": _on_disk(REPO / "bank", REPO / "translations"),
    "every-kind": _on_disk(REPO / "examples" / "every-kind" / "bank", REPO / "examples" / "every-kind" / "translations"),
    "golden": _on_disk(REPO / "tests" / "golden" / "bank", REPO / "tests" / "golden" / "translations"),
    "kinds": kinds_bank.banks,
    "topics": topics_sample.libraries,
}


def _topics(value: Bank | Library) -> list[Bank]:
    return list(value.topics) if isinstance(value, Library) else [value]


@pytest.fixture(scope="module", params=sorted(SOURCES))
def cartridges(request):
    """(per language: its topic banks, [(file name, members)]) of one source."""
    source = SOURCES[request.param]()
    tree = render(["common-cartridge"], source, ExportOptions())["common-cartridge"]
    out = {}
    for lang, value in source.items():
        files = [(str(rel), _members(data)) for rel, data in tree.items() if str(rel).endswith(f"-{lang}.imscc")]
        assert files, (request.param, lang)
        out[lang] = (_topics(value), files)
    return out


_RESTORED: dict[int, tuple] = {}


def _restored(members: dict[str, bytes]) -> list:
    """``moodle_cc11_restore`` of a cartridge, once per cartridge (raises where the converter throws)."""
    key = id(members)
    if key not in _RESTORED:
        _RESTORED[key] = (members, models.moodle_cc11_restore(members))
    return _RESTORED[key][1]


def _members(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def _said(text: str | None) -> str:
    """A feedback text as the converter stores it: the item feedback's HTML, then a space."""
    return html_paragraph(text) + " " if text else ""


def _expected(q, lang: str) -> list[tuple[str, float, str]]:
    """(answer text, grade, feedback) of each answer Moodle should restore."""
    if q.kind == "single-choice":
        return [(o.text, 1.0 if o.id == q.correct else 0.0, _said(o.feedback)) for o in q.options]
    if q.kind == "multiple-response":
        share = round(1 / len(q.correct), 7)
        return [(o.text, share if o.id in q.correct else 0.0, _said(o.feedback)) for o in q.options]
    if q.kind == "true-false":
        labels = words(lang)
        return [(labels.true, 1.0 if q.answer else 0.0, _said(q.feedback_true)), (labels.false, 0.0 if q.answer else 1.0, _said(q.feedback_false))]
    if q.kind == "essay":  # the essay type restores no answers
        return []
    # short answer: every full-credit answer right; the converter drops a right answer's feedback
    return [(a.text, 1.0, "") for a in full_credit_answers(q)]


def test_every_cartridge_restores_every_carried_question_with_its_key_and_feedback(cartridges):
    for lang, (topics, files) in cartridges.items():
        for name, members in files:
            instances = _restored(members)
            restored = {(i.resource, i.is_question_bank): i for i in instances}
            held = [bank for bank in topics if ncname("res-" + assessment_ident(bank)) in {i.resource for i in instances}]
            assert held, name
            for bank in held:
                carried = [q for q in bank.questions if q.kind in CARRIED]
                for is_bank, suffix in ((False, ""), (True, "-bank")):
                    resource = ncname("res-" + assessment_ident(bank) + suffix)
                    if not carried:
                        assert (resource, is_bank) not in restored
                        continue
                    instance = restored[(resource, is_bank)]
                    assert [r.ident for r in instance.questions] == [item_ident(q.id, lang) + suffix for q in carried], (name, resource)
                    assert instance.sumgrades == models.CC_QUIZ_SUMGRADES
                    for q, r in zip(carried, instance.questions):
                        where = (name, r.ident)
                        assert (r.moodle_type, r.single) == CARRIED[q.kind], where
                        assert r.defaultgrade == 1, where
                        assert r.generalfeedback == _said(q.explanation), where
                        assert [(a.title, a.score, a.feedback) for a in r.answers] == _expected(q, lang), where
                        # An essay gets Moodle's default options: its model answer and template are not carried.
                        assert r.essay_options == (models.CC_ESSAY_DEFAULTS if q.kind == "essay" else None), where


def test_true_false_answers_are_named_as_moodles_converter_requires(cartridges):
    for _, files in cartridges.values():
        for name, members in files:
            for instance in _restored(members):
                for r in instance.questions:
                    if r.moodle_type == "truefalse":
                        assert [a.identifier for a in r.answers] == ["true", "false"], (name, r.ident)


def test_identifiers_are_unique_in_each_item(cartridges):
    """The profile's identifiers are plain strings (not xs:ID): `true` and `false` may appear in
    every item, but within one item answers, and feedback blocks, each have their own."""
    for _, files in cartridges.values():
        for name, members in files:
            for member, data in members.items():
                if member == "imsmanifest.xml":
                    continue
                for item in models.descendants(models.parse_xml(data), "item"):
                    for element in ("response_label", "itemfeedback"):
                        idents = [e.get("ident") for e in models.descendants(item, element)]
                        assert len(idents) == len(set(idents)), (name, member, item.get("ident"), element)


def test_the_cartridge_is_detected_as_cc11(cartridges):
    for _, files in cartridges.values():
        for name, members in files:
            assert models.moodle_cc11_detects(members["imsmanifest.xml"]), name


# --- the model follows the converter's code -------------------------------------------------

ITEM = """<?xml version="1.0" encoding="UTF-8"?>
<questestinterop xmlns="http://www.imsglobal.org/xsd/ims_qtiasiv1p2">
  <assessment ident="a" title="A"><section ident="s">
    <item ident="q1" title="q1 Stem">
      <itemmetadata><qtimetadata><qtimetadatafield><fieldlabel>cc_profile</fieldlabel><fieldentry>{profile}</fieldentry></qtimetadatafield>
      </qtimetadata></itemmetadata>
      <presentation><material><mattext texttype="text/html">Stem</mattext></material>
        <response_lid ident="response1" rcardinality="Single"><render_choice>
          <response_label ident="{right}"><material><mattext>Right</mattext></material></response_label>
          <response_label ident="{wrong}"><material><mattext>Wrong</mattext></material></response_label>
        </render_choice></response_lid></presentation>
      <resprocessing><outcomes><decvar varname="SCORE" vartype="Decimal" minvalue="0" maxvalue="100"/></outcomes>
        <respcondition continue="Yes"><conditionvar><other/></conditionvar><displayfeedback linkrefid="general_fb"/></respcondition>
        {conditions}
      </resprocessing>
      <itemfeedback ident="general_fb"><flow_mat><material><mattext>Why.</mattext></material></flow_mat></itemfeedback>
      <itemfeedback ident="{right}_fb"><flow_mat><material><mattext>Yes.</mattext></material></flow_mat></itemfeedback>
      <itemfeedback ident="{wrong}_fb"><flow_mat><material><mattext>No.</mattext></material></flow_mat></itemfeedback>
    </item>
  </section></assessment>
</questestinterop>
"""
MANIFEST = ('<?xml version="1.0" encoding="UTF-8"?>\n<manifest identifier="m" xmlns="http://www.imsglobal.org/xsd/imsccv1p1/imscp_v1p1">'
            '<resources><resource identifier="r" type="imsqti_xmlv1p2/imscc_xmlv1p1/assessment"><file href="a.xml"/></resource>'
            '</resources></manifest>')


def _restore(profile: str, right: str, wrong: str, conditions: str) -> models.CcQuestion:
    item = ITEM.format(profile=profile, right=right, wrong=wrong, conditions=conditions)
    return models.moodle_cc11_restore({"imsmanifest.xml": MANIFEST.encode(), "a.xml": item.encode()})[0].questions[0]


def _rule(value: str, continue_: str, score: str = "", feedback: str = "") -> str:
    setvar = f'<setvar action="Set" varname="SCORE">{score}</setvar>' if score else ""
    shown = f'<displayfeedback linkrefid="{feedback}"/>' if feedback else ""
    return f'<respcondition continue="{continue_}"><conditionvar><varequal respident="response1">{value}</varequal></conditionvar>{setvar}{shown}</respcondition>'


def test_feedback_rules_marked_continue_join_the_general_feedback():
    """The layout the export had: per-option rules with continue="Yes" before the scoring rule."""
    old = _rule("a", "Yes", feedback="a_fb") + _rule("b", "Yes", feedback="b_fb") + _rule("a", "No", score="100")
    q = _restore("cc.multiple_choice.v0p1", "a", "b", old)
    assert q.generalfeedback == "Why. Yes. No. "
    assert [(a.score, a.feedback) for a in q.answers] == [(1.0, "Yes. "), (0.0, "No. ")]
    moodles = _rule("a", "No", score="100", feedback="a_fb") + _rule("b", "No", score="0", feedback="b_fb")
    q = _restore("cc.multiple_choice.v0p1", "a", "b", moodles)
    assert q.generalfeedback == "Why. "
    assert [(a.score, a.feedback) for a in q.answers] == [(1.0, "Yes. "), (0.0, "No. ")]


def test_true_false_identifiers_other_than_true_and_false_lose_the_restore():
    rules = _rule("true", "No", score="100", feedback="true_fb") + _rule("false", "No", feedback="false_fb")
    q = _restore("cc.true_false.v0p1", "true", "false", rules)
    assert [(a.identifier, a.score) for a in q.answers] == [("true", 1.0), ("false", 0.0)]
    with pytest.raises(models.MoodleRestoreFailed):
        _restore("cc.true_false.v0p1", "q1-en-true", "q1-en-false", rules.replace(">true<", ">q1-en-true<"))


def test_a_manifest_whose_namespace_comes_late_is_not_detected():
    late = MANIFEST.replace('identifier="m"', 'identifier="' + "m" * 500 + '"')
    assert models.moodle_cc11_detects(MANIFEST.encode()) and not models.moodle_cc11_detects(late.encode())


def test_the_build_names_each_question_whose_restore_changes():
    """W664 for every multiple-response question (1/n per right option, whatever its scoring), a
    short answer whose right answers have feedback, and a short answer holding Moodle's wildcard."""
    from aistack_bank.exporters import export_notes

    banks = kinds_bank.banks()
    said = [d.message for d in export_notes(["common-cartridge"], banks, ExportOptions()) if d.code == "W664"]
    questions = banks["en"].questions
    for q in questions:
        if q.kind == "multiple-response":
            assert any(m.startswith(f"common-cartridge: {q.id} ") and "1/n" in m for m in said), q.id
        if q.kind == "short-answer" and any(a.feedback for a in full_credit_answers(q)):
            assert any(m.startswith(f"common-cartridge: {q.id}'s answer feedback is lost") for m in said), q.id
    starred = [q.id for q in questions if q.kind == "short-answer" and any("*" in a.text for a in full_credit_answers(q))]
    assert starred and all(any(m.startswith(f"common-cartridge: {qid}'s answer(s)") and "wildcard" in m for m in said) for qid in starred)


ESSAY = """<?xml version="1.0" encoding="UTF-8"?>
<questestinterop xmlns="http://www.imsglobal.org/xsd/ims_qtiasiv1p2">
  <assessment ident="a" title="A"><section ident="s">
    <item ident="q1" title="q1 Explain">
      <itemmetadata><qtimetadata><qtimetadatafield><fieldlabel>cc_profile</fieldlabel><fieldentry>cc.essay.v0p1</fieldentry></qtimetadatafield>
        <qtimetadatafield><fieldlabel>qmd_computerscored</fieldlabel><fieldentry>No</fieldentry></qtimetadatafield>
      </qtimetadata></itemmetadata>
      <presentation><material><mattext texttype="text/html">Explain.</mattext></material>
        <response_str ident="response1" rcardinality="Single"><render_fib rows="15"/></response_str></presentation>
      <resprocessing><outcomes><decvar varname="SCORE" vartype="Decimal" minvalue="0" maxvalue="100"/></outcomes>
        <respcondition{marked}><conditionvar><other/></conditionvar><displayfeedback feedbacktype="Response" linkrefid="general_fb"/></respcondition>
      </resprocessing>
      <itemfeedback ident="general_fb"><flow_mat><material><mattext>Why.</mattext></material></flow_mat></itemfeedback>
    </item>
  </section></assessment>
</questestinterop>
"""


def test_an_essay_keeps_its_general_feedback_only_from_a_rule_marked_continue():
    """Moodle's own cartridge writer leaves the essay's general-feedback rule unmarked, and its
    converter keeps the feedback of marked rules only: such an essay is restored without it. The
    export marks the rule; either way the essay has no answers and Moodle's default options."""
    def restore(marked: str) -> models.CcQuestion:
        item = ESSAY.format(marked=marked)
        return models.moodle_cc11_restore({"imsmanifest.xml": MANIFEST.encode(), "a.xml": item.encode()})[0].questions[0]

    moodles, ours = restore(""), restore(' continue="Yes"')
    assert (moodles.moodle_type, moodles.generalfeedback) == ("essay", "")
    assert (ours.moodle_type, ours.generalfeedback, ours.answers) == ("essay", "Why. ", [])
    assert ours.essay_options["graderinfo"] == "" and ours.essay_options["responsetemplate"] == ""
