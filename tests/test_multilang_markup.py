"""Moodle's multilang markup (``exporters/common.py``: ``multilang_html``, ``multilang_plain``,
``multilang_name``, ``question_name``, ``category_title``) makes each language's block start
once per language and the markup's length around empty texts once per languages and syntax:
compared with the functions they replaced (kept below, verbatim) on random texts (markup,
quotes, right-to-left and left-to-right languages, codes Moodle rewrites, long stems that are
cut), in both syntaxes, with and without English fallbacks (an empty text among them)."""

from __future__ import annotations

import random
from typing import Mapping

import pytest

from aistack_bank.exporters import common
from aistack_bank.exporters.common import (MOODLE_NAME_MAX, NAME_STEM_CHARS, PDI, RLI, _without_fallbacks, english_fallback, html_text, plain_field, short)
from aistack_bank.i18n.languages import is_rtl, moodle_code


def _isolated(lang: str, text: str) -> str:
    return f"{RLI}{text}{PDI}" if is_rtl(lang) else text


def old_multilang_html(texts_raw: Mapping[str, str], syntax: str = "span") -> str:
    texts_raw = _without_fallbacks(texts_raw)
    if syntax == "mlang":
        body = "".join(
            f"{{mlang {moodle_code(lang)}}}"
            + (f'<span dir="rtl">{html_text(text)}</span>' if is_rtl(lang) else html_text(text))
            + "{mlang}"
            for lang, text in texts_raw.items()
        )
    else:
        body = "".join(f'<span lang="{moodle_code(lang)}" class="multilang">{html_text(_isolated(lang, text))}</span>' for lang, text in texts_raw.items())
    return f"<p>{body}</p>"


def old_multilang_plain(texts_raw: Mapping[str, str], syntax: str = "span") -> str:
    texts_raw = _without_fallbacks(texts_raw)
    if syntax == "mlang":
        return "".join(f"{{mlang {moodle_code(lang)}}}{plain_field(_isolated(lang, text))}{{mlang}}" for lang, text in texts_raw.items())
    return "".join(f'<span lang="{moodle_code(lang)}" class="multilang">{plain_field(_isolated(lang, text))}</span>' for lang, text in texts_raw.items())


def old_multilang_name(prefix: str, texts_raw: Mapping[str, str], syntax: str = "span", limit: int = NAME_STEM_CHARS) -> str:
    texts_raw = _without_fallbacks(texts_raw)
    first = next(iter(texts_raw.values()))
    if len(texts_raw) == 1:
        return prefix + plain_field(short(first, limit))
    overhead = len(prefix) + len(old_multilang_plain({lang: "" for lang in texts_raw}, syntax))
    share = min(limit, (MOODLE_NAME_MAX - overhead) // len(texts_raw))
    if share < 8:
        return prefix + plain_field(short(first, min(limit, MOODLE_NAME_MAX - len(prefix))))
    return prefix + old_multilang_plain({lang: short(text, share) for lang, text in texts_raw.items()}, syntax)


def old_category_title(titles_raw: Mapping[str, str], syntax: str = "span") -> str:
    titles_raw = _without_fallbacks(titles_raw)
    if len(titles_raw) == 1:
        return plain_field(next(iter(titles_raw.values())))
    whole = old_multilang_plain(titles_raw, syntax)
    if len(whole) <= MOODLE_NAME_MAX:
        return whole
    return old_multilang_name("", titles_raw, syntax, limit=MOODLE_NAME_MAX)


LANGS = ["fr", "nl", "ar", "he_IL", "pt-BR", "zh_TW", "de", "fa", "ur", "ja"]
PIECES = ["word ", "<b>", "&", '"', "'", "\n", "\u2067", "é", "עברית ", "x" * 40, " ", "{", "}", "‹"]


def text(rng: random.Random) -> str:
    return rng.choice(["", "Same", "Même"]) if rng.random() < 0.2 else "".join(rng.choice(PIECES) for _ in range(rng.randint(1, 12)))


@pytest.mark.parametrize("seed", range(6))
def test_the_markup_is_the_old_functions(seed):
    rng = random.Random(seed)
    common._MARKUP_LENGTHS.clear()
    for _ in range(300):
        langs = ["en", *rng.sample(LANGS, rng.randint(0, 9))]
        texts = {lang: text(rng) for lang in langs}
        syntax = rng.choice(["span", "mlang"])
        english = {lang: frozenset(rng.sample(["", "Same", texts[lang]], rng.randint(0, 2))) for lang in langs[1:] if rng.random() < 0.4}
        with english_fallback(english, langs):
            assert common.multilang_html(texts, syntax) == old_multilang_html(texts, syntax), (texts, syntax, english)
            assert common.multilang_plain(texts, syntax) == old_multilang_plain(texts, syntax), (texts, syntax, english)
            assert common.question_name("q001", texts, syntax) == old_multilang_name("q001 ", texts, syntax), (texts, syntax, english)
            assert common.category_title(texts, syntax) == old_category_title(texts, syntax), (texts, syntax, english)
            limit = rng.choice([8, 30, NAME_STEM_CHARS, MOODLE_NAME_MAX])
            assert common.multilang_name("p ", texts, syntax, limit) == old_multilang_name("p ", texts, syntax, limit), (texts, syntax, english)
