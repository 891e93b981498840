"""A bank of 3 categories × 4 topics × 5 questions in three languages, exported by every format:
Moodle's importer (our model of it) gets distinct nested categories with distinct idnumbers from
every language's file in one course, every QTI package is valid against the official schemas,
and every link of the practice site resolves to a page of the site."""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import PurePosixPath

import pytest
from lxml import etree

from aistack_bank.build import render
from aistack_bank.exporters import FORMATS
from aistack_bank.lms import models
from aistack_bank.options import ExportOptions

from conftest import QTI_XSD, REPO, qti_schema
from topics_sample import CATEGORIES, LANGS, QUESTIONS_PER_TOPIC, TOPICS_PER_CATEGORY, libraries, topic_ids

SAFE_PARSER = etree.XMLParser(resolve_entities=False, no_network=True)
TOPICS = len(CATEGORIES) * TOPICS_PER_CATEGORY


@pytest.fixture(scope="module")
def libs():
    return libraries()


@pytest.fixture(scope="module")
def trees(libs):
    return render(list(FORMATS), libs, ExportOptions())


def _members(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        return {name: zf.read(name) for name in zf.namelist()}


def test_every_format_writes_each_topic_under_its_id_and_the_whole_bank_at_the_top(trees):
    for name in ("moodle-xml", "gift"):
        suffix = ".xml" if name == "moodle-xml" else ".gift"
        top = {str(p) for p in trees[name] if len(p.parts) == 1}
        assert top == {f"bank-{lang}{suffix}" for lang in LANGS} | {f"bank-multilang{suffix}"}
        for tid in topic_ids():
            assert {str(p) for p in trees[name] if p.parts[0] == tid} == {f"{tid}/{tid}-{lang}{suffix}" for lang in LANGS} | {f"{tid}/{tid}-multilang{suffix}"}
    for name in ("qti21", "qti30"):
        assert {str(p) for p in trees[name] if len(p.parts) == 1} == {f"bank-{lang}.zip" for lang in LANGS}
        assert len(trees[name]) == len(LANGS) * (TOPICS + 1)
    for name, suffix in (("canvas-qti12", ".zip"), ("common-cartridge", ".imscc")):
        assert {str(p) for p in trees[name]} == {f"{tid}/{tid}-{lang}{suffix}" for tid in topic_ids() for lang in LANGS} | {f"bank-{lang}{suffix}" for lang in LANGS}
    assert {str(p) for p in trees["aiken"]} == {f"{tid}/{tid}-{lang}.txt" for tid in topic_ids() for lang in LANGS}
    assert {str(p) for p in trees["json"]} == ({f"{tid}/{tid}{part}.json" for tid in topic_ids() for part in ["", *(f"-{lang}" for lang in LANGS)]}
                                               | {f"bank-{lang}.json" for lang in LANGS} | {"bank.json"})


def test_one_topic_keeps_the_names_of_a_one_topic_bank(libs):
    one = {lang: lib.only("storage-2") for lang, lib in libs.items()}
    tree = render(["moodle-xml", "qti21"], one, ExportOptions())
    assert {str(p) for p in tree["moodle-xml"]} == {f"storage-2-{lang}.xml" for lang in LANGS} | {"storage-2-multilang.xml"}
    assert {str(p) for p in tree["qti21"]} == {f"storage-2-{lang}.zip" for lang in LANGS}
    parsed = models.read_moodle_xml(tree["moodle-xml"][PurePosixPath("storage-2-fr.xml")])
    assert [c.path[2:] for c in parsed.categories] == [["Catégorie storage / fr"], ["Catégorie storage / fr", "Sujet storage-2 (fr)"]]
    assert [c.idnumber for c in parsed.categories] == ["category-storage-fr", "storage-2-fr"]


@pytest.mark.parametrize("suffix", [".xml", ".gift"])
def test_every_language_imports_into_one_course_with_distinct_categories(trees, libs, suffix):
    """The whole-bank files of every language, then every topic's files, one after another into one course."""
    tree = trees["moodle-xml" if suffix == ".xml" else "gift"]
    course = models.MoodleCourse()
    names = [f"bank-{lang}{suffix}" for lang in LANGS] + [f"bank-multilang{suffix}"]
    names += [f"{tid}/{tid}-{lang}{suffix}" for tid in topic_ids() for lang in [*LANGS, "multilang"]]
    for name in names:
        data = tree[PurePosixPath(name)]
        parsed = models.read_moodle_xml(data) if suffix == ".xml" else models.read_gift(data.decode("utf-8"))
        result = course.import_file(parsed)  # raises MoodleImportAborted on a duplicate category idnumber
        assert result.cut_names == [], name
        if name.startswith("bank-"):
            assert result.dropped_idnumbers == [], name
            assert len(parsed.questions) == TOPICS * QUESTIONS_PER_TOPIC
            assert [q.idnumber for q in parsed.questions] == [q.id for q in libs["en"].questions], name
    # 4 files (3 languages + multilang), each 3 categories holding 4 topics: the per-topic files land in the same ones
    topics = [path for path in course.categories if len(path) == 2]
    parents = [path for path in course.categories if len(path) == 1]
    assert len(parents) == 4 * len(CATEGORIES) and len(topics) == 4 * TOPICS
    assert all(len(held) == QUESTIONS_PER_TOPIC for held in course.questions.values())
    if suffix == ".xml":
        idnumbers = list(course.categories.values())
        assert "" not in idnumbers and len(set(idnumbers)) == len(idnumbers)
        assert course.categories[("Catégorie networks / fr", "Sujet networks-3 (fr)")] == "networks-3-fr"
        assert course.categories[("Categorie compilers / nl",)] == "category-compilers-nl"


def test_the_whole_bank_file_switches_category_before_each_topic(trees, libs):
    parsed = models.read_gift(trees["gift"][PurePosixPath("bank-nl.gift")].decode("utf-8"))
    assert [c.path[2:] for c in parsed.categories] == [[b.category.title, b.topic.title] for b in libs["nl"].topics]
    for q in parsed.questions:
        bank = libs["nl"].topic_of(q.idnumber)
        assert q.category[2:] == [bank.category.title, bank.topic.title]
    xml = models.read_moodle_xml(trees["moodle-xml"][PurePosixPath("bank-multilang.xml")])
    assert len(xml.categories) == len(CATEGORIES) + TOPICS
    assert all('class="multilang"' in part for c in xml.categories for part in c.path[2:])


@pytest.mark.parametrize("version", sorted(QTI_XSD))
def test_every_qti_package_is_valid_and_the_whole_bank_has_one_section_per_topic(trees, libs, version):
    content_xsd, manifest_xsd = (qti_schema(relative) for relative in QTI_XSD[version])
    for path, data in trees[version].items():
        files = _members(data)
        manifest_xsd.assertValid(etree.fromstring(files["imsmanifest.xml"], SAFE_PARSER))
        for member, content in files.items():
            if member != "imsmanifest.xml":
                content_xsd.assertValid(etree.fromstring(content, SAFE_PARSER))
        test = etree.fromstring(files["assessment.xml"], SAFE_PARSER)
        sections = [s for s in test.iter() if etree.QName(s).localname in ("assessmentSection", "qti-assessment-section")]
        if len(path.parts) == 1:
            lang = path.stem.removeprefix("bank-")
            assert [s.get("title") for s in sections] == [b.topic.title for b in libs[lang].topics]
            assert len({s.get("identifier") for s in sections}) == TOPICS
            assert sum(1 for m in files if m.startswith("items/")) == TOPICS * QUESTIONS_PER_TOPIC
        else:
            assert len(sections) == 1 and sum(1 for m in files if m.startswith("items/")) == QUESTIONS_PER_TOPIC


HREF = re.compile(r'<a [^>]*href="([^"]+)"')


def test_every_link_of_the_site_resolves(trees, libs):
    site = trees["html"]
    pages = [p for p in site if p.suffix == ".html"]
    assert len(pages) == 1 + len(LANGS) * (1 + TOPICS + len(CATEGORIES))
    for page in pages:
        html = site[page].decode("utf-8")
        for href in HREF.findall(html):
            if href.startswith("#"):
                continue
            target = PurePosixPath(page.parent, href)
            parts: list[str] = []
            for part in target.parts:
                if part == "..":
                    assert parts, (page, href)
                    parts.pop()
                elif part != ".":
                    parts.append(part)
            assert PurePosixPath(*parts) in site, (page, href)


def test_topic_pages_link_the_other_topics_of_their_category_and_the_category_page(trees, libs):
    site = trees["html"]
    for lang in LANGS:
        for bank in libs[lang].topics:
            html = site[PurePosixPath(lang, "topics", bank.topic.id, "index.html")].decode("utf-8")
            others = [b for b in libs[lang].topics_in(bank.category.id) if b is not bank]
            for other in others:
                assert f'href="../{other.topic.id}/index.html"' in html
            assert "<p>This bank has no other topics yet.</p>" not in html and f'href="{"../" * 2}categories/{bank.category.id}/index.html"' in html
        home = site[PurePosixPath(lang, "index.html")].decode("utf-8")
        assert all(f'href="topics/{b.topic.id}/index.html"' in home for b in libs[lang].topics)
        assert all(f'href="categories/{c}/index.html"' in home for c in CATEGORIES)


CC11 = REPO / "tests" / "data" / "schemas" / "cc11"
CP = "{http://www.imsglobal.org/xsd/imsccv1p1/imscp_v1p1}"
QTI12 = "{http://www.imsglobal.org/xsd/ims_qtiasiv1p2}"


def _cc_schema(name: str) -> etree.XMLSchema:
    return etree.XMLSchema(etree.parse(str(CC11 / name), etree.XMLParser(no_network=True)))


def test_the_whole_bank_cartridge_and_canvas_package_hold_one_quiz_per_topic_and_follow_cc11(trees, libs):
    manifest_xsd, qti_xsd = _cc_schema("ccv1p1_imscp_v1p2_v1p0.xsd"), _cc_schema("ccv1p1_qtiasiv1p2p1_v1p0.xsd")
    for lang in LANGS:
        titles = [b.topic.title for b in libs[lang].topics]
        members = _members(trees["common-cartridge"][PurePosixPath(f"bank-{lang}.imscc")])
        manifest = etree.fromstring(members["imsmanifest.xml"], SAFE_PARSER)
        manifest_xsd.assertValid(manifest)
        assert [t.text for t in manifest.iter(f"{CP}title")] == titles
        hrefs = [r.find(f"{CP}file").get("href") for r in manifest.iter(f"{CP}resource")]
        assert len(hrefs) == 2 * TOPICS and set(hrefs) == set(members) - {"imsmanifest.xml"}
        for href in hrefs:
            qti_xsd.assertValid(etree.fromstring(members[href], SAFE_PARSER))
        members = _members(trees["canvas-qti12"][PurePosixPath(f"bank-{lang}.zip")])
        quizzes = [etree.fromstring(data, SAFE_PARSER) for m, data in members.items() if m.endswith(".xml") and not m.endswith(("assessment_meta.xml", "imsmanifest.xml"))]
        assert sorted(q[0].get("title") for q in quizzes) == sorted(titles)
        for quiz in quizzes:
            qti_xsd.assertValid(quiz)
        manifest = etree.fromstring(members["imsmanifest.xml"], etree.XMLParser(resolve_entities=False, no_network=True))
        files = {f.get("href") for f in manifest.iter("{*}file")}
        assert files == set(members) - {"imsmanifest.xml"}


def test_json_names_the_category_of_each_topic(trees, libs):
    import json

    for bank in libs["en"].topics:
        document = json.loads(trees["json"][PurePosixPath(bank.topic.id, f"{bank.topic.id}.json")])
        assert document["topic"]["category_id"] == bank.category.id
        assert document["topic"]["category"] == {lang: libs[lang].category(bank.category.id).title for lang in LANGS}
