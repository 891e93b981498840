"""Multilingual Moodle XML and GIFT in four languages, one right to left, and a regional one.

What Moodle does with them: every name (question and category) within its 255 characters,
language codes as Moodle's language packs spell them (``pt_br``), spans that Moodle core's
multilang filter matches (exactly ``lang`` and ``class``, its pattern copied below), and the
right-to-left text isolated so that it cannot reorder the text around it.
"""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as ET
from pathlib import PurePosixPath

import pytest

from aistack_bank.exporters import gift, moodle_xml
from aistack_bank.exporters.common import MOODLE_NAME_MAX, PDI, RLI
from aistack_bank.options import ExportOptions

from rtl_bank import AR_QUESTIONS, four_banks

# filter/multilang/filter.php (Moodle 4.x), new syntax: a block of two or more spans, each with
# exactly the attributes lang and class, in either order.
MOODLE_BLOCK = re.compile(r'(<span(\s+lang="[a-zA-Z0-9_-]+"|\s+class="multilang"){2}\s*>.*?</span>)(\s*<span(\s+lang="[a-zA-Z0-9_-]+"|\s+class="multilang"){2}\s*>.*?</span>)+', re.S | re.I)
MOODLE_SPLIT = re.compile(r'<(?:lang|span)[^>]+lang="([a-zA-Z0-9_-]+)"[^>]*>(.*?)</(?:lang|span)>', re.S | re.I)


def moodle_filter(text: str, current: str) -> str:
    """What Moodle's multilang filter shows a user of language pack ``current``."""

    def pick(block: re.Match) -> str:
        langs = {code.lower().replace("-", "_"): inner for code, inner in MOODLE_SPLIT.findall(block.group(0))}
        for lang in (current, current.split("_")[0]):  # the pack, then its parent
            if lang in langs:
                return langs[lang]
        return next(iter(langs.values()))

    return html.unescape(MOODLE_BLOCK.sub(pick, text))  # as the browser reads it


@pytest.fixture(scope="module")
def banks():
    banks = four_banks(count=10)
    # A long title in every language, as a course's may be: the category name must still fit.
    return {lang: b.model_copy(update={"topic": b.topic.model_copy(update={"title": b.topic.title + " — " + b.topic.summary})}) for lang, b in banks.items()}


def category_names(path: str) -> list[str]:
    """The names of a category path as Moodle splits it (``$course$/top/<category>/<topic>``; ``//`` is a slash)."""
    return [part.replace("//", "/") for part in re.split(r"(?<!/)/(?!/)", path)][2:]


def multilang_file(banks, exporter, suffix, options=ExportOptions()):
    return exporter.export(banks, options)[PurePosixPath(f"aistack-multilang{suffix}")].decode("utf-8")


def test_four_languages_in_moodle_xml_parse_and_keep_names_within_255(banks):
    text = multilang_file(banks, moodle_xml, ".xml")
    root = ET.fromstring(text.encode("utf-8"))
    names = [n.text for n in root.iter("name") for n in n.iter("text")]
    categories = [c.text for c in root.iter("category") for c in c.iter("text")]
    assert len(names) == 10 and len(categories) == 2  # the category, then the topic in it
    for name in names:
        assert len(name) <= MOODLE_NAME_MAX, name
        assert [lang for lang, _ in MOODLE_SPLIT.findall(name)] == ["en", "ar", "fr", "nl"]
    assert all(len(name) <= MOODLE_NAME_MAX for path in categories for name in category_names(path))
    assert len(category_names(categories[-1])[-1]) < len("".join(b.topic.title for b in banks.values()))

    q001 = next(q for q in root.iter("question") if q.findtext("idnumber") == "q001")
    stem = q001.find("questiontext/text").text
    # Moodle's filter shows each user their language; the Arabic text isolated right to left.
    assert moodle_filter(stem, "ar") == f"<p>{RLI}{AR_QUESTIONS['q001']['stem']}{PDI}</p>"
    assert moodle_filter(stem, "fr") == f"<p>{banks['fr'].question('q001').stem}</p>"
    assert moodle_filter(stem, "de") == f"<p>{banks['en'].question('q001').stem}</p>"  # no German: the first, English
    assert ' dir="' not in stem  # an extra attribute would stop the core filter matching the block


def test_mlang_blocks_give_the_right_to_left_text_its_direction(banks):
    text = multilang_file(banks, moodle_xml, ".xml", ExportOptions(multilang="mlang"))
    root = ET.fromstring(text.encode("utf-8"))
    stem = next(q for q in root.iter("question") if q.findtext("idnumber") == "q001").find("questiontext/text").text
    assert f'{{mlang ar}}<span dir="rtl">{AR_QUESTIONS["q001"]["stem"]}</span>{{mlang}}' in stem
    for name in (t.text for n in root.iter("name") for t in n.iter("text")):
        assert len(name) <= MOODLE_NAME_MAX and "{mlang ar}" + RLI in name


def test_four_languages_in_gift_keep_names_within_255(banks):
    text = multilang_file(banks, gift, ".gift")
    names = re.findall(r"^::(.*?)::\[html\]", text, re.M)
    assert len(names) == 10
    for name in names:
        unescaped = re.sub(r"\\(.)", r"\1", name)
        assert len(unescaped) <= MOODLE_NAME_MAX and f'<span lang="ar" class="multilang">{RLI}' in unescaped
    category = re.search(r"^\$CATEGORY: (.*)$", text, re.M).group(1)
    assert len(category_names(category)) == 2 and all(len(name) <= MOODLE_NAME_MAX for name in category_names(category))


def test_a_regional_language_uses_moodles_pack_code(banks):
    banks = {"en": banks["en"], "pt_BR": banks["fr"].model_copy(update={"lang": "pt_BR"})}
    text = multilang_file(banks, moodle_xml, ".xml")
    assert 'lang="pt_br"' in text and "pt_BR" not in text.split("-->", 1)[1]
    stem = ET.fromstring(text.encode("utf-8")).find("question[@type='multichoice']/questiontext/text").text
    assert moodle_filter(stem, "pt_br") == f"<p>{banks['pt_BR'].questions[0].stem}</p>"
    mlang = multilang_file(banks, gift, ".gift", ExportOptions(multilang="mlang"))
    assert "{mlang pt_br}" in mlang


@pytest.mark.parametrize("count", [4, 7, 12])
def test_any_number_of_languages_keeps_names_within_255(banks, count):
    codes = ["ar", "fr", "nl", "de", "es", "pl", "ja", "he", "pt_BR", "zh_TW", "uk"][: count - 1]
    many = {"en": banks["en"], **{code: banks["ar" if code in ("ar", "he") else "fr"].model_copy(update={"lang": code}) for code in codes}}
    root = ET.fromstring(multilang_file(many, moodle_xml, ".xml").encode("utf-8"))
    for name in (t.text for n in root.iter("name") for t in n.iter("text")):
        assert len(name) <= MOODLE_NAME_MAX
    for category in root.iter("category"):
        assert all(len(name) <= MOODLE_NAME_MAX for name in category_names(category.find("text").text))
