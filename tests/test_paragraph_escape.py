"""A paragraph's text escaped whole with its line breaks then made ``<br/>`` (instead of each
line escaped and the lines joined), and QTI 1.2's ``mattext`` escaped twice in one pass of
replacements (instead of ``html_text`` over ``html_paragraph``): the same markup as the
functions they replaced (kept here), on random texts of the characters the escaping changes,
what it makes of them, line breaks and anything else, with and without English fallbacks
marked."""

from __future__ import annotations

import random

from aistack_bank.exporters.common import english_fallback, html_paragraph, html_paragraph_escaped, html_text, in_english
from aistack_bank.exporters.qti_common import paragraph_markup


def old_html_paragraph(text_raw: str) -> str:
    start = '<p lang="en">' if in_english(text_raw) else "<p>"
    return start + "<br/>".join(html_text(line) for line in text_raw.split("\n")) + "</p>"


def old_paragraph_markup(text_raw: str) -> str:
    start = '<p xml:lang="en">' if in_english(text_raw) else "<p>"
    return start + "<br/>".join([html_text(line) for line in text_raw.split("\n")]) + "</p>"


def old_mattext(text_raw: str) -> str:
    return html_text(old_html_paragraph(text_raw))


CHARS = [*"&<>\"'\n\r\t ab;#x/", "&amp;", "&lt;", "&#x27;", "<br/>", "\n\n", "\u2028", "\x85", "\x00", "é", "\U0001F600", "\u0627", "\u2067"]


def test_the_paragraphs_are_the_old_ones():
    rng = random.Random(3)
    texts = ["", "\n", "a", "&", "<p>", "a\nb", "\n&\n"] + ["".join(rng.choice(CHARS) for _ in range(rng.randint(0, 16))) for _ in range(4000)]
    for marked in (False, True):
        english = {"fr": frozenset(rng.sample(texts, 1500))} if marked else {}
        with english_fallback(english, ["fr"]):
            for text in texts:
                assert html_paragraph(text) == old_html_paragraph(text), repr(text)
                assert paragraph_markup(text) == old_paragraph_markup(text), repr(text)
                assert html_paragraph_escaped(text) == old_mattext(text), repr(text)
        if marked:  # (the marked texts were marked)
            with english_fallback(english, ["fr"]):
                assert any(html_paragraph(text).startswith('<p lang="en">') for text in texts)
