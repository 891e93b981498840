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
from sitebrowser import DESKTOP, blank_page, kept_session

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
def player(browser, tmp_path_factory):  # noqa: F811
    """The player on the desktop page this test process keeps (sitebrowser.kept_session: a browser
    context of its own cost about a second of CPU), loaded again should a test of another module
    have reset that page in between."""
    errors: list[str] = []
    kept: list = []

    def record(error) -> None:
        errors.append(str(error))

    def page_with_player():
        if not kept or kept[0].page.url != PLAYER.as_uri():
            if kept:
                kept[0].page.remove_listener("pageerror", record)
            kept[:] = [kept_session(browser, blank_page(tmp_path_factory), **DESKTOP)]
            kept[0].page.on("pageerror", record)
            kept[0].page.goto(PLAYER.as_uri())
        return kept[0].page

    def score(xml: bytes, response) -> tuple[float, set[str]]:
        outcomes = page_with_player().evaluate("([xml, responses]) => score(xml, responses, ['SCORE', 'FEEDBACK'])",
                                               [xml.decode("utf-8"), {} if response is None else {"RESPONSE": response}])
        assert not errors, errors
        # The player keeps FEEDBACK as a list whose first value, from the empty variable, it
        # writes as "[object Object]"; the identifiers themselves are all there.
        shown = {part for value in (outcomes["FEEDBACK"] or []) for part in str(value).split(",") if part != "[object Object]"}
        return float(outcomes["SCORE"]), shown

    yield score
    if kept:
        kept[0].page.remove_listener("pageerror", record)


CASES = kinds_bank.SCORING_CASES


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
