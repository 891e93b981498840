"""The multilingual GIFT file escapes each text for HTML and GIFT in one pass
(:func:`~aistack_bank.exporters.gift.gift_text`, :func:`~aistack_bank.exporters.gift.gift_multilang`),
not each text for HTML and then the joined paragraph for GIFT.

Compared with the code before (``gift_escape(html_text(...))`` and
``gift_escape(multilang_html(...))``) on random texts of every reserved character, line breaks,
carriage returns and other scripts; on random languages (a right-to-left one among them), both
multilang syntaxes, with and without English fallbacks; and on the whole multilingual GIFT file
of the bundled bank and ``examples/every-kind``, as they are and with English fallbacks."""

from __future__ import annotations

import random

import pytest

from conftest import REPO
from aistack_bank.build import load_libraries
from aistack_bank.exporters import gift
from aistack_bank.exporters.common import english_fallback, html_text, multilang_html
from aistack_bank.exporters.gift import gift_escape, gift_multilang, gift_text
from aistack_bank.options import ExportOptions

PIECES = ["\\", "~", "=", "#", "{", "}", ":", "&", "<", ">", '"', "'", "\n", "\r", "\r\n", " ", "a", "é", "ت", "\u2067", "&amp;", "&#x27;", "\\#", "]]>", "x" * 30, "%", "*"]


def _text(rng: random.Random) -> str:
    return "".join(rng.choice(PIECES) for _ in range(rng.randrange(0, 25)))


@pytest.mark.parametrize("seed", range(6))
def test_one_pass_escapes_a_text_as_two_did(seed):
    rng = random.Random(seed)
    for _ in range(3000):
        text = _text(rng)
        assert gift_text(text) == gift_escape(html_text(text))


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("syntax", ["span", "mlang"])
def test_the_multilang_paragraph_is_escaped_as_before(seed, syntax):
    rng = random.Random(seed)
    langs = ["en", "fr", "ar", "pt_BR", "nl", "he"]
    for _ in range(800):
        chosen = ["en"] + rng.sample(langs[1:], rng.randrange(1, 5))
        texts = {lang: _text(rng) for lang in chosen}
        if rng.random() < 0.3:
            texts[rng.choice(chosen[1:])] = texts["en"]
        before = gift_escape(multilang_html(texts, syntax))
        assert gift_multilang(texts, syntax) == before
        english = {lang: frozenset([texts["en"]] if rng.random() < 0.5 else []) for lang in chosen if lang != "en"}
        with english_fallback(english, chosen):
            assert gift_multilang(texts, syntax) == gift_escape(multilang_html(texts, syntax))


def _before(texts, syntax="span"):
    return gift_escape(multilang_html(texts, syntax))


@pytest.mark.parametrize("root", [REPO, REPO / "examples" / "every-kind"], ids=["bundled", "every-kind"])
@pytest.mark.parametrize("multilang", ["span", "mlang"])
def test_the_multilingual_file_is_the_same_bytes(root, multilang, monkeypatch):
    libraries, _ = load_libraries(root / "bank", root / "translations", ["en", "fr", "nl"] if (root / "translations" / "nl.po").exists() else ["en", "fr"])
    libs = list(libraries.values())
    assert len(libs) > 1
    cases = [{}]
    rng = random.Random(1)
    english = {lib.lang: frozenset(rng.sample([q.stem for q in libraries["en"].questions], 3)) for lib in libs if lib.lang != "en"}
    cases.append(english)
    for fallback in cases:
        options = ExportOptions(multilang=multilang)
        with english_fallback(fallback, [lib.lang for lib in libs]):
            after = gift.render_bank(libs, options)
            monkeypatch.setattr(gift, "gift_multilang", _before)
            before = gift.render_bank(libs, options)
            monkeypatch.undo()
        assert after == before
