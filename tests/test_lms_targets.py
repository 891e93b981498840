"""The exports as real importers read them: Moodle (XML and GIFT), Canvas's QTI 2.x importer, and a
conforming QTI test player. The models in aistack_bank.lms.models follow the importers' code."""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import PurePosixPath

import pytest
from lxml import etree

from aistack_bank.build import available_languages, load_localized, render
from aistack_bank.exporters import get_format
from aistack_bank.exporters.common import html_paragraph
from aistack_bank.lms import models
from aistack_bank.model import Bank, Category, Option, SingleChoiceQuestion, Topic
from aistack_bank.options import ExportOptions

from conftest import QTI_XSD, REPO, qti_schema

SAFE_PARSER = etree.XMLParser(no_network=True, resolve_entities=False)
LANGS = ["en", "fr", "nl"]


@pytest.fixture(scope="module")
def banks():
    return load_localized(REPO / "bank", REPO / "translations", available_languages(REPO / "translations"))[0]


@pytest.fixture(scope="module")
def trees(banks):
    return render(["moodle-xml", "gift", "qti21", "qti30"], banks, ExportOptions())


def small_bank(lang: str, *, title: str = "Stack", explanation: str = "Why.", tags=("memory",)) -> Bank:
    topic = Topic(id="small-topic", file_stem="aistack", category="cat", title=title, summary="A summary.", tags={t: t for t in tags}, questions=["q001", "q002"])

    def q(qid):
        return SingleChoiceQuestion(id=qid, kind="single-choice", stem=f"Stem {qid} ({lang})?", explanation=explanation, tags=list(tags), difficulty=1,
                                    options=[Option(id="a", text="A", feedback="Not a."), Option(id="b", text="B", feedback=None),
                                             Option(id="c", text="C", feedback="Not c.")], correct="b")
    return Bank(topic=topic, questions=(q("q001"), q("q002")), category=Category(id="cat", title="Cat"), lang=lang)


QTI = QTI_XSD
_schema = qti_schema


def _members(data: bytes) -> dict[str, bytes]:
    archive = zipfile.ZipFile(io.BytesIO(data))
    return {name: archive.read(name) for name in archive.namelist()}


# --- shared HTML ----------------------------------------------------------------------------

def test_a_line_break_is_well_formed_xml_in_every_qti_package():
    assert etree.fromstring(html_paragraph("one\ntwo & <three>").encode()) is not None
    banks = {lang: small_bank(lang, explanation="First line.\nSecond line.") for lang in ("en", "fr")}
    for version in QTI:
        for name, data in get_format(version)(banks, ExportOptions()).items():
            for member, content in _members(data).items():
                doc = etree.fromstring(content, SAFE_PARSER)  # well-formed, or XMLSyntaxError
                if version == "qti21" and member.startswith("items/"):  # (QTI 3.0 validity: test_exporters)
                    _schema(QTI[version][0]).assertValid(doc)
                    assert "<br/>" in content.decode()


# --- Moodle ---------------------------------------------------------------------------------

def test_gift_and_moodle_xml_put_a_title_with_a_slash_in_one_category():
    banks = {lang: small_bank(lang, title=f"Hardware/Software {lang}") for lang in ("en", "fr")}
    xml = get_format("moodle-xml")(banks, ExportOptions())
    gift = get_format("gift")(banks, ExportOptions())
    for name in ("aistack-en", "aistack-fr", "aistack-multilang"):
        from_xml = models.read_moodle_xml(xml[PurePosixPath(name + ".xml")]).categories[-1].path  # the topic's, in its category's
        from_gift = models.read_gift(gift[PurePosixPath(name + ".gift")].decode()).categories[0].path
        assert from_xml == from_gift
        assert len(from_xml) == 4, from_xml  # $course$, top, the category, and the topic named with its slash


@pytest.mark.parametrize("suffix", [".xml", ".gift"])
def test_every_language_imports_into_one_course_one_after_another(suffix, banks, trees):
    course = models.MoodleCourse()
    tree = trees["moodle-xml" if suffix == ".xml" else "gift"]
    for name in [f"aistack-{lang}{suffix}" for lang in LANGS] + [f"aistack-multilang{suffix}"]:
        data = tree[PurePosixPath(name)]
        parsed = models.read_moodle_xml(data) if suffix == ".xml" else models.read_gift(data.decode("utf-8"))
        result = course.import_file(parsed)  # raises MoodleImportAborted on a duplicate category idnumber
        assert result.dropped_idnumbers == [], name
        assert result.cut_names == [], name
        assert [q.idnumber for q in parsed.questions] == [q.id for q in banks["en"].questions], name
    assert len(course.questions) == 4  # one category per file, every question keeping its idnumber


def test_moodle_category_idnumbers_are_per_language(trees):
    idnumbers = [models.read_moodle_xml(trees["moodle-xml"][PurePosixPath(f"aistack-{lang}.xml")]).categories[-1].idnumber for lang in LANGS + ["multilang"]]
    assert len(set(idnumbers)) == 4 and all(i.startswith("ai-hardware-software-stack") for i in idnumbers)


def test_gift_carries_idnumbers_and_tags_as_moodle_reads_them(banks, trees):
    for lang in LANGS + ["multilang"]:
        parsed = models.read_gift(trees["gift"][PurePosixPath(f"aistack-{lang}.gift")].decode("utf-8"))
        bank = banks["en"]
        for read, q in zip(parsed.questions, bank.questions, strict=True):
            assert read.idnumber == q.id
            assert read.tags == [bank.topic.id, *q.tags, f"difficulty-{q.difficulty}"]


def test_names_are_plain_text_moodle_keeps_whole(banks, trees):
    for fmt, suffix in (("moodle-xml", ".xml"), ("gift", ".gift")):
        for lang in LANGS + ["multilang"]:
            data = trees[fmt][PurePosixPath(f"aistack-{lang}{suffix}")]
            parsed = models.read_moodle_xml(data) if suffix == ".xml" else models.read_gift(data.decode("utf-8"))
            category = parsed.categories[0].path[-1]
            assert not models.ENTITY.search(category), (lang, category)
            assert len(category) <= models.MOODLE_NAME_MAX
            for q in parsed.questions:
                assert not models.ENTITY.search(q.name), (lang, q.name)
                stored, cut = models.moodle_clean_question_name(q.name)
                assert not cut and stored == q.name, (lang, len(q.name), q.name)
                assert q.name.startswith(q.idnumber + " ")


def test_multilingual_files_name_things_in_every_language(banks, trees):
    xml = models.read_moodle_xml(trees["moodle-xml"][PurePosixPath("aistack-multilang.xml")])
    gift = models.read_gift(trees["gift"][PurePosixPath("aistack-multilang.gift")].decode("utf-8"))
    spans = re.compile(r'<span lang="([a-z_]+)" class="multilang">([^<]*)</span>')
    assert xml.categories[-1].path == gift.categories[0].path
    assert [(lang, text) for lang, text in spans.findall(xml.categories[-1].path[-1])] == [(lang, banks[lang].topic.title) for lang in LANGS]
    for q in xml.questions:
        assert [lang for lang, _ in spans.findall(q.name)] == LANGS, q.name


# --- Canvas and QTI players -----------------------------------------------------------------

def test_canvas_reads_keys_feedback_and_no_extra_question(banks, trees):
    for lang in LANGS:
        files = _members(trees["qti21"][PurePosixPath(f"aistack-{lang}.zip")])
        assert models.canvas_recognises_qti2(models.parse_xml(files["imsmanifest.xml"]))
        entries = models.canvas_read_test(files["assessment.xml"])
        assert [e["question_type"] for e in entries] == ["question_reference"] * len(banks[lang].questions)
        items = {models.parse_xml(d).get("identifier"): d for n, d in files.items() if n.startswith("items/")}
        for q in banks[lang].questions:
            read = models.canvas_read_choice_item(items[f"{q.id}-{lang}"])
            assert [a["weight"] for a in read["answers"]] == [100 if o.id == q.correct else 0 for o in q.options]
            assert [a["comments"] for a in read["answers"]] == [" ".join((o.feedback or "").split()) for o in q.options]
            assert read["correct_comments"] == "" and read["incorrect_comments"] == ""
            assert read["neutral_comments"] == " ".join(q.explanation.split())
            for a in read["answers"]:
                assert not models.CANVAS_CORRECT.search(a["migration_id"]) and not models.CANVAS_INCORRECT.search(a["migration_id"])


@pytest.mark.parametrize("version", sorted(QTI))
def test_a_test_player_scores_and_shows_feedback(version, banks, trees):
    for lang in LANGS:
        files = _members(trees[version][PurePosixPath(f"aistack-{lang}.zip")])
        test = models.parse_xml(files["assessment.xml"])
        control = models.qti_item_session_control(test)
        assert control["showFeedback"] and control["allowReview"]
        sections = [e for e in test.iter() if models.local(e.tag) in ("assessmentSection", "qti-assessment-section")]
        assert all(s.get("visible") == "false" for s in sections)
        items = {doc.get("identifier"): doc for doc in (models.parse_xml(d) for n, d in files.items() if n.startswith("items/"))}
        for q in banks[lang].questions:
            item = items[f"{q.id}-{lang}"]
            choices = [e for e in item.iter() if models.local(e.tag) in ("simpleChoice", "qti-simple-choice")]
            assert len(choices) == len(q.options)
            for option, choice in zip(q.options, choices):
                outcomes = models.qti_outcomes(item, choice.get("identifier"))
                assert outcomes["SCORE"] == (1.0 if option.id == q.correct else 0.0)
                shown = models.qti_shown_feedback(item, outcomes, show_feedback=control["showFeedback"])
                expected = ([" ".join(option.feedback.split())] if option.feedback else []) + [" ".join(q.explanation.split())]
                assert sorted(shown) == sorted(expected)
            assert models.qti_outcomes(item, None)["SCORE"] == 0.0


LOM = "{http://ltsc.ieee.org/xsd/LOM}"


@pytest.mark.parametrize("version", sorted(QTI))
def test_manifests_carry_lom_metadata_and_per_language_identifiers(version, banks, trees):
    manifest_xsd = _schema(QTI[version][1])
    seen: dict[str, str] = {}
    for lang in LANGS:
        bank = banks[lang]
        files = _members(trees[version][PurePosixPath(f"aistack-{lang}.zip")])
        manifest = etree.fromstring(files["imsmanifest.xml"], SAFE_PARSER)
        manifest_xsd.assertValid(manifest)
        package = manifest.find(f"{{*}}metadata/{LOM}lom/{LOM}general")
        assert package.findtext(f"{LOM}title/{LOM}string") == bank.topic.title
        assert package.findtext(f"{LOM}language") == lang
        assert package.findtext(f"{LOM}description/{LOM}string") == bank.topic.summary
        assert [k.findtext(f"{LOM}string") for k in package.findall(f"{LOM}keyword")] == sorted({t for q in bank.questions for t in q.tags})
        items = {r.get("href"): r for r in manifest.iter("{*}resource") if r.get("href").startswith("items/")}
        for q in bank.questions:
            resource = next(r for r in items.values() if r.findtext(f"{{*}}metadata/{LOM}lom/{LOM}general/{LOM}identifier/{LOM}entry") == q.id)
            general = resource.find(f"{{*}}metadata/{LOM}lom/{LOM}general")
            assert general.findtext(f"{LOM}language") == lang
            assert general.findtext(f"{LOM}title/{LOM}string").startswith(q.id + ": ")
            assert [k.findtext(f"{LOM}string") for k in general.findall(f"{LOM}keyword")] == list(q.tags)
            item = etree.fromstring(files[resource.get("href")], SAFE_PARSER)
            assert item.get("identifier") == f"{q.id}-{lang}"
        identifiers = [manifest.get("identifier"), etree.fromstring(files["assessment.xml"], SAFE_PARSER).get("identifier")]
        identifiers += [r.get("identifier") for r in manifest.iter("{*}resource")]
        identifiers += [etree.fromstring(files[h], SAFE_PARSER).get("identifier") for h in items]
        for ident in identifiers:
            assert ident not in seen, f"{ident} is used by {seen.get(ident)} and {lang}"
            seen[ident] = lang


# --- export options -------------------------------------------------------------------------

def test_non_default_options_reach_every_format_that_can_carry_them():
    banks = {lang: small_bank(lang) for lang in ("en", "fr")}
    options = ExportOptions(shuffle=False, answer_numbering="123", multilang="mlang", penalty=0.5)
    xml = get_format("moodle-xml")(banks, options)
    root = etree.fromstring(xml[PurePosixPath("aistack-en.xml")], SAFE_PARSER)
    question = root.find("question[@type='multichoice']")
    assert question.findtext("shuffleanswers") == "false"
    assert question.findtext("answernumbering") == "123"
    assert question.findtext("penalty") == "0.5000000"
    assert "{mlang fr}" in xml[PurePosixPath("aistack-multilang.xml")].decode()
    assert "\\{mlang fr\\}" in get_format("gift")(banks, options)[PurePosixPath("aistack-multilang.gift")].decode()
    for version in QTI:
        files = _members(get_format(version)(banks, options)[PurePosixPath("aistack-en.zip")])
        item = models.parse_xml(files["items/q001.xml"])
        interaction = next(e for e in item.iter() if models.local(e.tag) in ("choiceInteraction", "qti-choice-interaction"))
        assert interaction.get("shuffle") == "false"
        if version == "qti30":
            assert "qti-labels-decimal" in interaction.get("class", "").split()
    defaults = get_format("qti30")(banks, ExportOptions())[PurePosixPath("aistack-en.zip")]
    interaction = next(e for e in models.parse_xml(_members(defaults)["items/q001.xml"]).iter() if models.local(e.tag) == "qti-choice-interaction")
    assert interaction.get("shuffle") == "true" and "qti-labels-lower-alpha" in interaction.get("class", "").split()


def test_export_flags_and_settings_file(project, run_cli):
    code, out = run_cli("export", "moodle-xml", "--lang", "en", "--out", "o1", "--no-shuffle", "--answer-numbering", "ABCD", "--penalty", "0.1")
    assert code == 0, out
    question = etree.parse("o1/aistack-en.xml", SAFE_PARSER).getroot().find("question[@type='multichoice']")
    assert (question.findtext("shuffleanswers"), question.findtext("answernumbering"), question.findtext("penalty")) == ("false", "ABCD", "0.1000000")
    (project / "bank.toml").write_text('[export]\nshuffle = false\nanswer_numbering = "iii"\n', encoding="utf-8")
    code, out = run_cli("export", "moodle-xml", "--lang", "en", "--out", "o2")
    assert code == 0, out
    question = etree.parse("o2/aistack-en.xml", SAFE_PARSER).getroot().find("question[@type='multichoice']")
    assert (question.findtext("shuffleanswers"), question.findtext("answernumbering")) == ("false", "iii")
    code, out = run_cli("export", "moodle-xml", "--lang", "en", "--out", "o3", "--shuffle")  # a flag beats the file
    assert code == 0, out
    assert etree.parse("o3/aistack-en.xml", SAFE_PARSER).getroot().find("question[@type='multichoice']").findtext("shuffleanswers") == "true"


@pytest.mark.parametrize("content, needle", [
    ('[export]\npenalty = 0.4\n', "penalty"),
    ('[export]\nanswer_numbering = "xyz"\n', "answer_numbering"),
    ('[export]\nshufle = true\n', "shufle"),
    ('[export\n', "bank.toml"),
])
def test_a_bad_settings_file_is_a_located_usage_error(project, run_cli, content, needle):
    (project / "bank.toml").write_text(content, encoding="utf-8")
    code, out = run_cli("export", "moodle-xml", "--lang", "en", "--out", "o")
    assert code == 2 and needle in out and "bank.toml" in out, out
    assert "Traceback" not in out


def test_a_penalty_moodle_does_not_offer_is_refused(project, run_cli):
    code, out = run_cli("export", "moodle-xml", "--penalty", "0.4", "--out", "o")
    assert code == 2 and "penalty" in out


def test_an_option_a_format_cannot_carry_is_a_warning(project, run_cli):
    code, out = run_cli("export", "gift", "--lang", "en", "--out", "o", "--no-shuffle")
    assert code == 0 and "W801" in out and "gift cannot carry shuffle" in out, out
    code, out = run_cli("export", "moodle-xml", "--lang", "en", "--out", "o", "--no-shuffle")
    assert code == 0 and "W801" not in out, out
