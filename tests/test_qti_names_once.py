"""A QTI 2.1 or 3.0 package's manifest and test replace each question's id once
(``qti_common._question_names``), not once per identifier made of it (``item_path``, the
item's identifier, its resource's identifier), and the manifest writes each set of tags'
keywords once.

Compared with the code before (kept below) on random ids of every kind of character (letters,
digits, ``-``, ``_``, punctuation, spaces, accents, other scripts, an empty id, ids starting
with a digit or a replaced character) in random language codes, and on the banks of the bundled
bank and ``examples/every-kind`` in each language, alone and as one whole-bank package, with
questions and tags shuffled between them: the same manifest, test and package bytes."""

from __future__ import annotations

import random

import pytest

from conftest import REPO
from aistack_bank.build import load_libraries
from aistack_bank.exporters import qti_common, qti21, qti30
from aistack_bank.exporters.qti_common import (LOM_CATALOG, LOM_NS, SLOTS, TEST_PATH, XSI_NS, Element, Titles, _Document, _escape, _item_title,
                                              _lom, _pad, _resource, _root, _start, bank_id, bank_title, by_category, item_identifier,
                                              item_path, ncname, section_identifier)
from aistack_bank.model import Library

DIALECTS = [qti21.DIALECT, qti30.DIALECT]


def _render_test_before(*, d, library) -> bytes:
    """``render_test`` before: each item's identifier and path made by ``item_identifier`` and ``item_path``."""
    test = _root(d, "assessmentTest", {"identifier": ncname(f"{bank_id(library)}-{library.lang}"), "title": bank_title(library)})
    d.element(test, "outcomeDeclaration", {"identifier": "SCORE", "cardinality": "single", "baseType": "float"})
    part = d.element(test, "testPart", {"identifier": "part1", "navigationMode": "nonlinear", "submissionMode": "individual"})
    d.element(part, "itemSessionControl", {"showFeedback": "true", "allowReview": "true"})
    tag, identifier, href = d.elements["assessmentItemRef"], d.attributes.get("identifier", "identifier"), '" ' + d.attributes.get("href", "href") + '="'
    for _, topics in by_category(library):
        for bank in topics:
            section = d.element(part, "assessmentSection", {"identifier": section_identifier(library, bank), "title": bank.topic.title, "visible": "false"})
            if bank.questions:
                lines = section._enter()
                start = _pad(section.depth + 1) + "<" + tag + " " + identifier + '="'
                lines += [start + item_identifier(q.id, bank.lang) + href + item_path(q) + '"/>' for q in bank.questions]
    total = d.element(d.element(d.element(test, "outcomeProcessing"), "setOutcomeValue", {"identifier": "SCORE"}), "sum")
    d.element(total, "testVariables", {"variableIdentifier": "SCORE"})
    return test.document_bytes()


def _render_manifest_before(*, d, library, titles=None) -> bytes:
    """``render_manifest`` before: each resource's identifier by ``ncname``, its path by
    ``item_path``, its keywords escaped for each question."""
    lang = library.lang
    questions = [q for _, topics in by_category(library) for bank in topics for q in bank.questions]
    tags = sorted({tag for q in questions for tag in q.tags})
    manifest = Element(_Document(), 0, _start("manifest", {
        "xmlns": d.manifest_namespace, "xmlns:xsi": XSI_NS,
        "xsi:schemaLocation": f"{d.manifest_namespace} {d.manifest_schema_location}",
        "identifier": ncname("manifest-" + bank_id(library) + "-" + lang),
    }), "manifest")
    metadata = manifest.sub("metadata")
    metadata.sub("schema", text=d.schema_name)
    metadata.sub("schemaversion", text=d.schema_version)
    summary = library.topics[0].topic.summary if len(library.topics) == 1 else None
    topic_lom = {"lang": lang, "entry": bank_id(library), "title": bank_title(library), "description": summary, "keywords": tags}
    _lom(metadata, **topic_lom)
    manifest.sub("organizations")
    resources = manifest.sub("resources")
    test, test_metadata = _resource(resources, identifier=ncname("test-" + bank_id(library) + "-" + lang), type=d.test_type, href=TEST_PATH)
    _lom(test_metadata, **topic_lom)
    test.sub("file", {"href": str(TEST_PATH)})
    lines = test._enter()
    pad = _pad(test.depth + 1)
    resource_ids = [ncname("item-" + q.id + "-" + lang) for q in questions]
    lines += [pad + '<dependency identifierref="' + identifier + '"/>' for identifier in resource_ids]
    lines = resources._enter()
    pads = [_pad(resources.depth + n) for n in range(7)]
    language = _escape(lang)
    string = '<string language="' + language + '">'
    item_type = _escape(d.item_type)
    type_ = '" type="' + item_type + '" href="'
    entry = ('">\n' + pads[2] + "<metadata>\n" + pads[3] + '<lom xmlns="' + LOM_NS + '">\n' + pads[4] + "<general>\n"
             + pads[5] + "<identifier><catalog>" + LOM_CATALOG + "</catalog><entry>")
    title = "</entry></identifier>\n" + pads[5] + "<title>" + string
    language_line = "</string></title>\n" + pads[5] + "<language>" + language + "</language>"
    keyword = "\n" + pads[5] + "<keyword>" + string
    tail = "\n" + pads[4] + "</general>\n" + pads[3] + "</lom>\n" + pads[2] + "</metadata>\n" + pads[2] + '<file href="'
    end = '"/>\n' + pads[1] + "</resource>"
    for q, identifier in zip(questions, resource_ids):
        path = item_path(q)
        keywords = "".join([keyword + _escape(tag) + "</string></keyword>" for tag in q.tags])
        escaped_title = _escape(_item_title(q))
        if titles is not None and q.kind in SLOTS:
            titles.keep(q, escaped_title)
        lines.append(pads[1] + '<resource identifier="' + identifier + type_ + path + entry + _escape(q.id)
                     + title + escaped_title + language_line + keywords + tail + path + end)
    return manifest.document_bytes()


def _libraries(root) -> list[Library]:
    langs = ["en", "fr", "nl"] if (root / "translations" / "nl.po").exists() else ["en", "fr"]
    libraries, _ = load_libraries(root / "bank", root / "translations", langs)
    return list(libraries.values())


CHARACTERS = "abcXYZ0189-_ .:/é߷中ǅ\t'\"&<>#%"


def _random_id(rng: random.Random) -> str:
    return "".join(rng.choice(CHARACTERS) for _ in range(rng.choice([0, 1, 1, 2, 3, 6, 12])))


def test_the_names_are_those_of_each_identifier():
    rng = random.Random(16)
    for _ in range(20000):
        question_id, lang = _random_id(rng), rng.choice(["en", "fr", "pt-BR", "zh_Hant", "", "1x", "é", rng.choice(CHARACTERS) + _random_id(rng)])
        replaced, named = qti_common._question_names(question_id)
        language = "-" + qti_common._NOT_NCNAME.sub("_", lang)
        assert "items/" + named + ".xml" == "items/" + ncname(question_id) + ".xml"
        assert named + language == item_identifier(question_id, lang)
        assert "item-" + replaced + language == ncname("item-" + question_id + "-" + lang)


def _shuffled(library: Library, rng: random.Random) -> Library:
    """``library`` with its questions' ids and tags made random (and shuffled between questions)."""
    tags = [list(q.tags) for q in library.questions] + [[_random_id(rng) for _ in range(rng.randint(0, 3))] for _ in range(5)]
    topics = []
    for bank in library.topics:
        questions = tuple(q.model_copy(update={"id": _random_id(rng) if rng.random() < 0.7 else q.id, "tags": rng.choice(tags)}) for q in bank.questions)
        topics.append(bank.model_copy(update={"questions": questions}))
    return library.model_copy(update={"topics": tuple(topics)})


def _cases(root) -> list[Library]:
    rng = random.Random(33)
    cases = []
    for library in _libraries(root):
        cases.append(library)
        cases += [Library(categories=(bank.category,), topics=(bank,), lang=bank.lang) for bank in library.topics]
        cases += [_shuffled(library, rng) for _ in range(8)]
    return cases


@pytest.mark.parametrize("root", [REPO, REPO / "examples" / "every-kind"], ids=["bundled", "every-kind"])
def test_the_manifest_and_the_test_are_those_before(root):
    for library in _cases(root):
        for d in DIALECTS:
            assert qti_common.render_test(d=d, library=library) == _render_test_before(d=d, library=library)
            after, before = Titles(), Titles()
            assert qti_common.render_manifest(d=d, library=library, titles=after) == _render_manifest_before(d=d, library=library, titles=before)
            assert after._kept.keys() == before._kept.keys()
            assert all(after._kept[key][0] is before._kept[key][0] and after._kept[key][1] == before._kept[key][1] for key in after._kept)


@pytest.mark.parametrize("root", [REPO, REPO / "examples" / "every-kind"], ids=["bundled", "every-kind"])
def test_the_packages_are_those_before(root, monkeypatch):
    from aistack_bank.exporters.common import deterministic_zip

    for library in _cases(root)[:12]:
        for d in DIALECTS:
            after = deterministic_zip(qti_common.package_files(d=d, library=library))
            monkeypatch.setattr(qti_common, "render_test", _render_test_before)
            monkeypatch.setattr(qti_common, "render_manifest", _render_manifest_before)
            before = deterministic_zip(qti_common.package_files(d=d, library=library))
            monkeypatch.undo()
            assert after == before
