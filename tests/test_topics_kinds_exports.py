"""A bank of several topics whose questions are of every kind: the whole-bank Moodle XML, GIFT and
QTI files carry each question as its kind, exactly as the topic's own file does, in its topic's
nested category (or section), and every language imports into one course."""

from __future__ import annotations

import dataclasses
import io
import zipfile
from pathlib import PurePosixPath

import pytest
from lxml import etree

from aistack_bank.build import library_notes, render
from aistack_bank.lms import models
from aistack_bank.model import Bank, Category, Library
from aistack_bank.options import ExportOptions

import kinds_bank
from conftest import QTI_XSD, qti_schema

SAFE_PARSER = etree.XMLParser(resolve_entities=False, no_network=True)
LANGS = ("en", "fr", "nl")
# category → its topics → their questions (kinds_bank: q001 single choice, q002 and q007 multiple
# response, q003 and q008 true/false, q004 and q009 numerical, q005 and q010 short answer, q006 matching)
LAYOUT = {
    "numbers": {"choices": ["q001", "q002", "q003", "q007", "q008"], "values": ["q004", "q009"]},
    "words": {"texts": ["q005", "q010", "q006"]},
}
MOODLE_TYPE = {"single-choice": ("multichoice", True), "multiple-response": ("multichoice", False), "true-false": ("truefalse", True),
               "numerical": ("numerical", True), "short-answer": ("shortanswer", True), "matching": ("match", True)}
INTERACTION = {"single-choice": "choiceinteraction", "multiple-response": "choiceinteraction", "true-false": "choiceinteraction",
               "numerical": "textentryinteraction", "short-answer": "textentryinteraction", "matching": "matchinteraction"}


def _library(bank: Bank) -> Library:
    """The kinds bank of one language, split into the topics of LAYOUT (titles naming the language)."""
    by_id = {q.id: q for q in bank.questions}
    categories = tuple(Category(id=c, title=f"{c.title()} ({bank.lang})") for c in LAYOUT)
    topics = []
    for category in categories:
        for tid, qids in LAYOUT[category.id].items():
            topic = bank.topic.model_copy(update={"id": tid, "category": category.id, "title": f"{tid.title()} ({bank.lang})", "questions": qids})
            topics.append(Bank(topic=topic, questions=tuple(by_id[q] for q in qids), category=category, lang=bank.lang))
    return Library(categories=categories, topics=tuple(topics), lang=bank.lang)


@pytest.fixture(scope="module")
def libs() -> dict[str, Library]:
    return {lang: _library(bank) for lang, bank in kinds_bank.banks(LANGS).items()}


@pytest.fixture(scope="module")
def trees(libs):
    return render(["moodle-xml", "gift", "qti21", "qti30"], libs, ExportOptions())


def _plain(q: models.MoodleQuestion) -> models.MoodleQuestion:
    """A question as Moodle stores it, whatever line and category of its file it came from."""
    return dataclasses.replace(q, line=0, category=[])


def _read(name: str, data: bytes) -> models.MoodleFile:
    return models.read_moodle_xml(data) if name == "moodle-xml" else models.read_gift(data.decode("utf-8"))


@pytest.mark.parametrize("name", ["moodle-xml", "gift"])
def test_the_whole_bank_file_writes_every_kind_in_its_topics_category(trees, libs, name):
    suffix = ".xml" if name == "moodle-xml" else ".gift"
    kinds = {q.id: q.kind for q in libs["en"].questions}
    for lang in [*LANGS, "multilang"]:
        whole = _read(name, trees[name][PurePosixPath(f"bank-{lang}{suffix}")])
        library = libs["en" if lang == "multilang" else lang]
        assert [q.idnumber for q in whole.questions] == [q.id for q in library.questions]
        for q in whole.questions:
            assert (q.qtype, q.single) == MOODLE_TYPE[kinds[q.idnumber]], (lang, q.idnumber)
            if lang != "multilang":
                bank = library.topic_of(q.idnumber)
                assert q.category[2:] == [bank.category.title, bank.topic.title]
        # each question exactly as the file of its topic alone writes it
        own = {}
        for tid in (t for topics in LAYOUT.values() for t in topics):
            own |= {q.idnumber: q for q in _read(name, trees[name][PurePosixPath(tid, f"{tid}-{lang}{suffix}")]).questions}
        assert [_plain(q) for q in whole.questions] == [_plain(own[q.idnumber]) for q in whole.questions]
    english = {q.idnumber: q for q in _read(name, trees[name][PurePosixPath(f"bank-en{suffix}")]).questions}
    assert english["q006"].subquestions[-1][1] == "3 bytes" and not english["q006"].subquestions[-1][0].strip()  # the distractor
    assert english["q009"].tolerances and [f for _, f, _ in english["q009"].answers] == [1.0, 0.5]
    if name == "moodle-xml":
        assert english["q004"].units and english["q010"].usecase


def test_gift_and_moodle_xml_give_moodle_the_same_questions(trees):
    for lang in [*LANGS, "multilang"]:
        gift = models.read_gift(trees["gift"][PurePosixPath(f"bank-{lang}.gift")].decode("utf-8"))
        xml = models.read_moodle_xml(trees["moodle-xml"][PurePosixPath(f"bank-{lang}.xml")])
        assert [c.path for c in gift.categories] == [c.path for c in xml.categories if any(q.category == c.path for q in xml.questions)]
        for g, x in zip(gift.questions, xml.questions, strict=True):
            # GIFT has no units and no case sensitivity (the export warns, W657)
            assert dataclasses.replace(_plain(g), units=[], usecase=False, unitgradingtype=0, showunits=None) == \
                dataclasses.replace(_plain(x), units=[], usecase=False, unitgradingtype=0, showunits=None), (lang, x.idnumber)


def test_every_language_imports_into_one_course(trees, libs):
    for name, suffix in (("moodle-xml", ".xml"), ("gift", ".gift")):
        course = models.MoodleCourse()
        for lang in [*LANGS, "multilang"]:
            parsed = _read(name, trees[name][PurePosixPath(f"bank-{lang}{suffix}")])
            result = course.import_file(parsed)  # raises MoodleImportAborted on a duplicate category idnumber
            assert result.dropped_idnumbers == [] and result.cut_names == []
            assert [f for q in parsed.questions for f in q.unlisted_fractions()] == []
        # 4 files (3 languages + multilang), each with 3 topics of their own
        assert sorted(len(held) for held in course.questions.values()) == sorted(len(qids) for topics in LAYOUT.values() for qids in topics.values() for _ in range(4))
        if name == "moodle-xml":
            idnumbers = list(course.categories.values())
            assert "" not in idnumbers and len(set(idnumbers)) == len(idnumbers) == 4 * (len(LAYOUT) + 3)


def test_the_kinds_gift_cannot_carry_are_warned_about_in_a_bank_of_topics(libs):
    notes = [str(d) for d in library_notes(["gift"], libs, ExportOptions())]
    assert any("W657" in n and "q004" in n for n in notes), notes  # units
    assert any("W657" in n and "q010" in n for n in notes), notes  # case sensitivity


def _members(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        return {name: zf.read(name) for name in zf.namelist()}


def _name(element) -> str:
    return etree.QName(element).localname.removeprefix("qti-").replace("-", "").lower()


@pytest.mark.parametrize("version", sorted(QTI_XSD))
def test_the_whole_bank_qti_package_holds_every_kind_in_its_topics_section(trees, libs, version):
    content_xsd, manifest_xsd = (qti_schema(relative) for relative in QTI_XSD[version])
    for lang in LANGS:
        files = _members(trees[version][PurePosixPath(f"bank-{lang}.zip")])
        manifest_xsd.assertValid(etree.fromstring(files["imsmanifest.xml"], SAFE_PARSER))
        for member, content in files.items():
            if member != "imsmanifest.xml":
                content_xsd.assertValid(etree.fromstring(content, SAFE_PARSER))
        test = etree.fromstring(files["assessment.xml"], SAFE_PARSER)
        sections = [s for s in test.iter() if _name(s) == "assessmentsection"]
        assert [s.get("title") for s in sections] == [b.topic.title for b in libs[lang].topics]
        for section, bank in zip(sections, libs[lang].topics):
            refs = [r.get("href") for r in section if _name(r) == "assessmentitemref"]
            assert refs == [f"items/{q.id}.xml" for q in bank.questions]
            own = _members(trees[version][PurePosixPath(bank.topic.id, f"{bank.topic.id}-{lang}.zip")])
            for q, href in zip(bank.questions, refs):
                assert files[href] == own[href], (lang, href)  # the item exactly as the topic's own package has it
                item = etree.fromstring(files[href], SAFE_PARSER)
                interactions = [_name(e) for e in item.iter() if _name(e).endswith("interaction")]
                assert interactions == [INTERACTION[q.kind]], (lang, q.id, interactions)
                if q.kind in ("single-choice", "true-false", "multiple-response"):
                    choice = next(e for e in item.iter() if _name(e) == "choiceinteraction")
                    max_choices = choice.get("maxChoices") or choice.get("max-choices")
                    assert (max_choices == "1") == (q.kind != "multiple-response"), (q.id, max_choices)
