"""The response processing of every QTI item, run by a real QTI player.

The player is Citolab's QTI 3 player (`@citolab/qti-components`, vendored in
tests/data/qti-player/ with its licence, see the README there), running in Chromium through
Playwright like the site's browser tests. tests/data/qti-player/player.html loads an item's XML
into `<qti-assessment-item>`, sets the response, runs the item's response processing and returns
the outcomes. For each item of a bank with every kind this checks: the key gets full marks, a
wrong answer 0, a partial multiple-response answer its partial credit, a numerical answer inside
the tolerance full marks and outside 0 (and a near miss its credit and feedback), a short
answer's alternative spelling its credit, a matching partial answer its share, and the feedback
each answer shows.

QTI 2.1 items are run by the same player after a mechanical 2.1 → 3.0 rewrite (:func:`to_qti3`:
the QTI 3 names of every element and attribute, the QTI 3 namespace, a modal feedback's content
in `qti-content-body`); the rewritten item is checked against the QTI 3.0 XSD first, so the
rewrite cannot hide a difference the player would not read. What differs between the versions'
items is only those names: the processing rules are the same tree.
"""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

import pytest
from lxml import etree

from aistack_bank.exporters import FORMATS
from aistack_bank.options import ExportOptions

import qti_kinds_bank as kinds_bank
from conftest import QTI_XSD, REPO, qti_schema
from sitebrowser import browser, needs_chromium  # noqa: F401  (fixture)

pytestmark = needs_chromium

PLAYER = REPO / "tests" / "data" / "qti-player" / "player.html"
SAFE = etree.XMLParser(no_network=True, resolve_entities=False, remove_blank_text=False)
QTI21_NS = "http://www.imsglobal.org/xsd/imsqti_v2p1"
QTI30_NS = "http://www.imsglobal.org/xsd/imsqtiasi_v3p0"
XHTML = {"p", "br", "div", "span", "em", "strong", "b", "i", "sub", "sup", "code", "ul", "ol", "li", "img", "table", "tr", "td", "th"}


def _kebab(name: str) -> str:
    return re.sub(r"(?<!^)([A-Z])", lambda m: "-" + m.group(1).lower(), name)


def to_qti3(xml: bytes) -> bytes:
    """A QTI 2.1 item as QTI 3.0: ``fooBar`` → ``qti-foo-bar`` (XHTML elements keep their names),
    attributes ``fooBar`` → ``foo-bar``, the 3.0 namespace, feedback content in qti-content-body."""
    source = etree.fromstring(xml, SAFE)

    def convert(node, parent):
        name = etree.QName(node).localname
        tag = name if name in XHTML else "qti-" + _kebab(name)
        attributes = {}
        for key, value in node.attrib.items():
            if key.startswith("{"):  # xml:lang, xsi:schemaLocation
                if key.endswith("schemaLocation"):
                    value = f"{QTI30_NS} https://purl.imsglobal.org/spec/qti/v3p0/schema/xsd/imsqti_asiv3p0_v1p0.xsd"
                attributes[key] = value
            else:
                attributes[_kebab(key)] = value
        element = etree.Element(f"{{{QTI30_NS}}}{tag}", attributes, nsmap={None: QTI30_NS} if parent is None else None) if parent is None \
            else etree.SubElement(parent, f"{{{QTI30_NS}}}{tag}", attributes)
        element.text, element.tail = node.text, node.tail
        holder = etree.SubElement(element, f"{{{QTI30_NS}}}qti-content-body") if tag == "qti-modal-feedback" else element
        for child in node:
            convert(child, holder)
        return element

    assert etree.QName(source).namespace == QTI21_NS
    return etree.tostring(convert(source, None), xml_declaration=True, encoding="UTF-8")


@pytest.fixture(scope="module")
def items():
    """{(version, lang, question id): QTI 3.0 item XML} of the bank with every kind."""
    banks = kinds_bank.banks()
    out = {}
    for fmt in ("qti21", "qti30"):
        tree = FORMATS[fmt](banks, ExportOptions())
        for lang in kinds_bank.LANGS:
            with zipfile.ZipFile(io.BytesIO(tree[FORMATS[fmt].language_file(banks["en"].topic, lang)])) as zf:
                for name in zf.namelist():
                    if name.startswith("items/"):
                        data = zf.read(name)
                        out[fmt, lang, Path(name).stem] = to_qti3(data) if fmt == "qti21" else data
    return out


@pytest.fixture(scope="module")
def player(browser):  # noqa: F811
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(PLAYER.as_uri())

    def score(xml: bytes, response) -> tuple[float, set[str]]:
        outcomes = page.evaluate("([xml, responses]) => score(xml, responses, ['SCORE', 'FEEDBACK'])",
                                 [xml.decode("utf-8"), {} if response is None else {"RESPONSE": response}])
        assert not errors, errors
        # The player keeps FEEDBACK as a list whose first value, from the empty variable, it
        # writes as "[object Object]"; the identifiers themselves are all there.
        shown = {part for value in (outcomes["FEEDBACK"] or []) for part in str(value).split(",") if part != "[object Object]"}
        return float(outcomes["SCORE"]), shown

    yield score
    page.close()


EXPLAINED = "general_explanation"
CASES = [
    # (language, question, response, score, feedback identifiers shown)
    ("en", "q001", "choice-a", 1, {EXPLAINED}),
    ("en", "q001", "choice-b", 0, {"feedback-b", EXPLAINED}),
    ("en", "q002", ["choice-a", "choice-c"], 1, {"feedback-a", EXPLAINED}),
    ("en", "q002", ["choice-a"], 0.5, {"feedback-a", EXPLAINED}),
    ("en", "q002", ["choice-c", "choice-b"], 0, {"feedback-b", EXPLAINED}),
    ("en", "q002", ["choice-b"], 0, {"feedback-b", EXPLAINED}),
    ("en", "q003", ["choice-a", "choice-c"], 1, {EXPLAINED}),
    ("en", "q003", ["choice-a"], 0, {EXPLAINED}),
    ("en", "q003", ["choice-a", "choice-b", "choice-c"], 0, {EXPLAINED}),
    ("en", "q004", "choice-false", 1, {"feedback-false", EXPLAINED}),
    ("en", "q004", "choice-true", 0, {"feedback-true", EXPLAINED}),
    ("fr", "q004", "choice-false", 1, {"feedback-false", EXPLAINED}),
    ("en", "q005", "choice-true", 1, set()),
    ("en", "q005", "choice-false", 0, set()),
    ("en", "q006", "14", 1, {EXPLAINED}),
    ("en", "q006", "14.6", 1, {EXPLAINED}),  # 5 % of 14 is 0.7
    ("en", "q006", "13.3", 1, {EXPLAINED}),
    ("en", "q006", "14.8", 0, {EXPLAINED}),
    ("en", "q006", "28.5", 0, {"feedback-near-1", EXPLAINED}),  # a near miss: feedback, no credit
    ("fr", "q006", "14,5", 0, {EXPLAINED}),  # a decimal comma is not a float (warned as W661)
    ("en", "q006", None, 0, set()),
    ("en", "q007", "-2.45", 1, {EXPLAINED}),  # a negative key: absolute bounds, never inverted
    ("en", "q007", "-2.65", 0, {EXPLAINED}),
    ("en", "q007", "2.5", 0, {EXPLAINED}),
    ("en", "q007", "-25.3", 0.5, {"feedback-near-1", EXPLAINED}),
    ("en", "q008", "ONNX", 1, {"feedback-answer-1", EXPLAINED}),
    ("en", "q008", "onnx", 1, {"feedback-answer-1", EXPLAINED}),  # case-insensitive
    ("en", "q008", "onnx runtime", 0.5, {EXPLAINED}),
    ("en", "q008", "TensorRT", 0, {EXPLAINED}),
    ("fr", "q008", "format onnx", 1, {"feedback-answer-2", EXPLAINED}),  # the translation's second spelling
    ("en", "q009", "GGUF", 1, {"feedback-answer-1", EXPLAINED}),
    ("en", "q009", "gguf", 0.5, {"feedback-answer-2", EXPLAINED}),  # case-sensitive: another answer
    ("en", "q009", "Gguf", 0, {EXPLAINED}),
    ("en", "q010", ["source-a target-a", "source-b target-b"], 1, {EXPLAINED}),
    ("en", "q010", ["source-a target-a", "source-b target-c"], 0.5, {EXPLAINED}),  # a distractor
    ("en", "q010", ["source-a target-b", "source-b target-a"], 0, {EXPLAINED}),
    ("en", "q011", ["source-a target-a", "source-b target-b", "source-c target-c"], 1, {EXPLAINED}),
    ("en", "q011", ["source-a target-a", "source-b target-c"], 1 / 3, {EXPLAINED}),
]


def test_every_question_has_cases():
    assert {qid for _, qid, *_ in CASES} == {q["id"] for q in kinds_bank.QUESTIONS}


@pytest.mark.parametrize("fmt", ["qti30", "qti21"])
@pytest.mark.parametrize("lang, qid, response, expected, feedback", CASES, ids=[f"{c[0]}-{c[1]}-{c[2]}" for c in CASES])
def test_the_player_scores_each_answer(player, items, fmt, lang, qid, response, expected, feedback):
    score, shown = player(items[fmt, lang, qid], response)
    assert score == pytest.approx(expected, abs=1e-3)  # the player rounds a mapped score to 3 places
    assert shown == feedback


@pytest.mark.parametrize("lang", kinds_bank.LANGS)
def test_the_21_to_30_rewrite_gives_valid_qti3(items, lang):
    schema = qti_schema(QTI_XSD["qti30"][0])
    for (fmt, item_lang, qid), data in items.items():
        if fmt == "qti21" and item_lang == lang:
            assert schema.validate(etree.fromstring(data, SAFE)), (qid, [e.message for e in schema.error_log][:3])
