"""Common Cartridge 1.1 and Canvas QTI 1.2 exports against the official IMS CC 1.1 XSDs.

For every language of the bundled bank, the golden bank and the examples bank (every kind), the
`common-cartridge` package's imsmanifest.xml is validated against the CC 1.1 manifest schema
(the CP 1.2 profile, with its LOM and authorization imports) and every QTI file it lists (the
assessment and the question bank) against the CC 1.1 profile of QTI 1.2.1. The QTI file of each
`canvas-qti12` zip of the bundled and golden banks is validated against the same QTI profile: Canvas's own exporter writes that dialect, and ours
conforms to it without losing anything Canvas reads. The Canvas zip's manifest is not a CC
manifest (Canvas reads an IMS CP 1.1 manifest with `imsqti_xmlv1p2` resources), so it is not
checked against the CC manifest schema (tests/data/schemas/cc11/README.md).

The schemas are read offline (tests/data/schemas/cc11/, imports resolved inside the folder).
"""

from __future__ import annotations

import io
import zipfile
from pathlib import PurePosixPath

import pytest
from lxml import etree

from aistack_bank.build import available_languages, load_localized, render
from aistack_bank.options import ExportOptions

from conftest import REPO

CC11 = REPO / "tests" / "data" / "schemas" / "cc11"
CP = "{http://www.imsglobal.org/xsd/imsccv1p1/imscp_v1p1}"
QTI12 = "{http://www.imsglobal.org/xsd/ims_qtiasiv1p2}"
QTI_RESOURCES = {"imsqti_xmlv1p2/imscc_xmlv1p1/assessment", "imsqti_xmlv1p2/imscc_xmlv1p1/question-bank"}
SAFE = etree.XMLParser(no_network=True, resolve_entities=False)
SOURCES = {
    "bundled": (REPO / "bank", REPO / "translations", "aistack"),
    "golden": (REPO / "tests" / "golden" / "bank", REPO / "tests" / "golden" / "translations", "aistack"),
    "every-kind": (REPO / "examples" / "every-kind" / "bank", REPO / "examples" / "every-kind" / "translations", "every-kind"),
}


def _schema(name: str) -> etree.XMLSchema:
    return etree.XMLSchema(etree.parse(str(CC11 / name), etree.XMLParser(no_network=True)))


@pytest.fixture(scope="module")
def manifest_schema() -> etree.XMLSchema:
    return _schema("ccv1p1_imscp_v1p2_v1p0.xsd")


@pytest.fixture(scope="module")
def qti_schema() -> etree.XMLSchema:
    return _schema("ccv1p1_qtiasiv1p2p1_v1p0.xsd")


@pytest.fixture(scope="module", params=sorted(SOURCES))
def packages(request):
    """(languages, {format: {file name: {member: bytes}}}, file stem) for one source bank."""
    bank, translations, stem = SOURCES[request.param]
    languages = available_languages(translations)
    banks = load_localized(bank, translations, languages)[0]
    trees = render(["common-cartridge", "canvas-qti12"], banks, ExportOptions())
    unpacked = {}
    for fmt, tree in trees.items():
        unpacked[fmt] = {}
        for rel, data in tree.items():
            with zipfile.ZipFile(io.BytesIO(data)) as zf:
                unpacked[fmt][str(rel)] = {name: zf.read(name) for name in zf.namelist()}
    return languages, unpacked, stem


def _errors(schema: etree.XMLSchema, doc) -> list[str]:
    schema.validate(doc)
    return [f"{e.line}: {e.message}" for e in schema.error_log]


def test_every_language_has_a_cartridge_and_a_canvas_zip(packages):
    languages, unpacked, stem = packages
    assert len(languages) >= 2
    for fmt, suffix in (("common-cartridge", ".imscc"), ("canvas-qti12", ".zip")):
        assert sorted(unpacked[fmt]) == sorted(f"{stem}-{lang}{suffix}" for lang in languages)


def test_cartridge_manifest_follows_the_cc11_schema(packages, manifest_schema):
    for name, members in packages[1]["common-cartridge"].items():
        manifest = etree.fromstring(members["imsmanifest.xml"], SAFE)
        assert not _errors(manifest_schema, manifest), (name, _errors(manifest_schema, manifest))


def test_cartridge_qti_files_follow_the_cc11_qti_profile(packages, qti_schema):
    for name, members in packages[1]["common-cartridge"].items():
        manifest = etree.fromstring(members["imsmanifest.xml"], SAFE)
        hrefs = {r.get("type"): r.find(f"{CP}file").get("href")
                 for r in manifest.iter(f"{CP}resource") if r.get("type") in QTI_RESOURCES}
        assert set(hrefs) == QTI_RESOURCES, name
        for kind, href in sorted(hrefs.items()):
            doc = etree.fromstring(members[href], SAFE)
            errors = _errors(qti_schema, doc)
            assert not errors, (name, href, errors)
            # The profile allows an assessment or an object bank at the root: check each is the right one.
            assert doc[0].tag == QTI12 + ("objectbank" if kind.endswith("question-bank") else "assessment"), (name, href)


def test_canvas_qti_file_follows_the_cc11_qti_profile(packages, qti_schema):
    if packages[2] == "every-kind":
        pytest.skip("Canvas's numerical and matching questions are outside the profile (test_qti12_kinds.py checks the rest)")
    for name, members in packages[1]["canvas-qti12"].items():
        qti = [m for m, data in members.items()
               if PurePosixPath(m).suffix == ".xml" and etree.fromstring(data, SAFE).tag == QTI12 + "questestinterop"]
        assert len(qti) == 1, (name, sorted(members))
        errors = _errors(qti_schema, etree.fromstring(members[qti[0]], SAFE))
        assert not errors, (name, qti[0], errors)


def test_the_schemas_reject_what_the_profile_forbids(packages, manifest_schema, qti_schema):
    """The validation is not vacuous: one element the profile does not have is enough to fail."""
    members = next(iter(packages[1]["common-cartridge"].values()))
    manifest = etree.fromstring(members["imsmanifest.xml"], SAFE)
    manifest.find(f"{CP}resources").find(f"{CP}resource").set("type", "imsqti_xmlv1p2")
    assert _errors(manifest_schema, manifest)
    href = next(r.find(f"{CP}file").get("href") for r in manifest.iter(f"{CP}resource") if r.find(f"{CP}file") is not None)
    doc = etree.fromstring(members[href], SAFE)
    item = next(doc.iter(QTI12 + "item"))
    etree.SubElement(item, QTI12 + "itemcontrol")  # in QTI 1.2.1, removed by the CC profile
    assert any("itemcontrol" in e for e in _errors(qti_schema, doc))
