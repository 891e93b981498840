"""The multilingual GIFT and Moodle XML files write a text's paragraph of every language with
:func:`~aistack_bank.exporters.common.span_paragraphs` (each block's start and direction taken
once per topic) when no text of the file is an English fallback and the syntax is ``span``.

Compared with the code before (``multilang_html`` of the map of the texts for Moodle XML,
``gift_multilang`` of it for GIFT, and ``gift_escape(multilang_html(...))``, the first
definition) on random texts of every reserved character, line breaks and other scripts, in
random languages (right-to-left ones among them), in files with English fallbacks of none of
their texts, and on the whole multilingual files of the bundled bank and ``examples/every-kind``
with the paragraphs written as before."""

from __future__ import annotations

import random

import pytest

from conftest import REPO
from aistack_bank.build import load_libraries
from aistack_bank.exporters import gift, moodle_xml
from aistack_bank.exporters.common import english_fallback, html_text, multilang_html, span_paragraphs
from aistack_bank.exporters.gift import gift_escape, gift_multilang, gift_text
from aistack_bank.options import ExportOptions

PIECES = ["\\", "~", "=", "#", "{", "}", ":", "&", "<", ">", '"', "'", "\n", "\r", "\r\n", " ", "a", "é", "ت", "\u2067", "\u2069", "&amp;", "&#x27;",
          "\\#", "]]>", "x" * 30, "%", "*", "<span>", "</span>"]
LANGS = ["en", "fr", "ar", "pt_BR", "nl", "he", "fa", "de"]


def _text(rng: random.Random) -> str:
    return "".join(rng.choice(PIECES) for _ in range(rng.randrange(0, 25)))


@pytest.mark.parametrize("seed", range(8))
def test_a_paragraph_is_the_one_written_before(seed):
    rng = random.Random(seed)
    for _ in range(600):
        chosen = ["en"] + rng.sample(LANGS[1:], rng.randrange(1, 6))
        if rng.random() < 0.2:  # (a file without English)
            chosen = chosen[1:] or ["fr"]
        texts = [_text(rng) for _ in chosen]
        if len(chosen) > 1 and rng.random() < 0.3:
            texts[rng.randrange(1, len(chosen))] = texts[0]  # (a translation equal to the English text, not a fallback)
        by_lang = dict(zip(chosen, texts))
        contexts = [None, {}, {lang: frozenset() for lang in chosen}]  # (no fallback: no map, an empty one, empty sets)
        for english in contexts:
            if english is None:
                moodle, gifted = span_paragraphs(chosen, html_text), span_paragraphs(chosen, gift_text, gift_escape)
            else:
                with english_fallback(english, chosen):
                    moodle, gifted = span_paragraphs(chosen, html_text), span_paragraphs(chosen, gift_text, gift_escape)
            assert moodle is not None and gifted is not None
            assert moodle(texts) == multilang_html(by_lang, "span")
            assert gifted(texts) == gift_multilang(by_lang, "span") == gift_escape(multilang_html(by_lang, "span"))


@pytest.mark.parametrize("seed", range(3))
def test_a_file_with_english_fallbacks_keeps_the_map(seed):
    rng = random.Random(seed)
    chosen = ["en", "fr", "ar"]
    for _ in range(50):
        english = {lang: frozenset([_text(rng)]) for lang in rng.sample(chosen[1:], rng.randrange(1, 3))}
        with english_fallback(english, chosen):
            assert span_paragraphs(chosen, html_text) is None
            assert span_paragraphs(chosen, gift_text, gift_escape) is None


def _none(*args, **kwargs):
    return None


@pytest.mark.parametrize("root", [REPO, REPO / "examples" / "every-kind"], ids=["bundled", "every-kind"])
@pytest.mark.parametrize("module", [gift, moodle_xml], ids=["gift", "moodle-xml"])
def test_the_multilingual_file_is_the_same_bytes(root, module, monkeypatch):
    langs = ["en", "fr", "nl"] if (root / "translations" / "nl.po").exists() else ["en", "fr"]
    libraries, _ = load_libraries(root / "bank", root / "translations", langs)
    libs = list(libraries.values())
    assert len(libs) > 1
    rng = random.Random(2)
    cases = [{}, {lib.lang: frozenset() for lib in libs if lib.lang != "en"},
             {lib.lang: frozenset(rng.sample([q.stem for q in libraries["en"].questions], 3)) for lib in libs if lib.lang != "en"}]
    for multilang in ("span", "mlang"):
        options = ExportOptions(multilang=multilang)
        for fallback in cases:
            with english_fallback(fallback, [lib.lang for lib in libs]):
                after = module.render_bank(libs, options)
                monkeypatch.setattr(module, "span_paragraphs", _none)  # (the map of the texts, as before)
                before = module.render_bank(libs, options)
                monkeypatch.undo()
            assert after == before
