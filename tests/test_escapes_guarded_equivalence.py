"""The escapes replace a character only where the text holds it (``"&" in text`` before
``text.replace("&", …)``): ``str.replace`` of one character by several counts the character over
the whole text first, one character at a time, even where there is none, and most texts hold
none of the characters an escape replaces (docs/performance.md, "Round 24: the cold build's
rendering workers").

Compared with the chains of replacements they replaced (kept here) on random texts of every
character the escapes change, what they make of them, line breaks, carriage returns and other
scripts (Latin-1, two-byte and four-byte texts), with and without English fallbacks marked; and
a text that holds none of those characters is given back as it is, no replacement made (which
the chains did not: each made its replacements, and a text of a subclass of ``str`` came back a
copy)."""

from __future__ import annotations

import html
import random

import pytest

from aistack_bank.exporters.common import english_fallback, html_paragraph, html_paragraph_escaped, html_text, in_english, paragraph_escaped_body
from aistack_bank.exporters.gift import gift_escape, gift_paragraph, gift_text
from aistack_bank.exporters.qti_common import paragraph_markup


def old_html_text(text_raw: str) -> str:
    return text_raw.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;").replace("'", "&#x27;")


def old_html_paragraph(text_raw: str) -> str:
    start = '<p lang="en">' if in_english(text_raw) else "<p>"
    return start + old_html_text(text_raw).replace("\n", "<br/>") + "</p>"


def old_paragraph_markup(text_raw: str) -> str:
    start = '<p xml:lang="en">' if in_english(text_raw) else "<p>"
    return start + old_html_text(text_raw).replace("\n", "<br/>") + "</p>"


def old_paragraph_escaped_body(text_raw: str) -> str:
    return (text_raw.replace("&", "&amp;amp;").replace("<", "&amp;lt;").replace(">", "&amp;gt;").replace('"', "&amp;quot;")
            .replace("'", "&amp;#x27;").replace("\n", "&lt;br/&gt;"))


def old_gift_escape(text: str) -> str:
    return (text.replace("\\", "\\\\").replace("~", "\\~").replace("=", "\\=").replace("#", "\\#").replace("{", "\\{")
            .replace("}", "\\}").replace(":", "\\:").replace("\n", "\\n").replace("\r", ""))


def old_gift_paragraph(text_raw: str) -> str:
    start = '<p lang\\="en">' if in_english(text_raw) else "<p>"
    return (start + text_raw.replace("\\", "\\\\").replace("~", "\\~").replace("=", "\\=").replace("#", "\\#").replace("{", "\\{")
            .replace("}", "\\}").replace(":", "\\:").replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
            .replace("'", "&\\#x27;").replace("\n", "<br/>").replace("\r", "") + "</p>")


def old_gift_text(text_raw: str) -> str:
    return (text_raw.replace("\\", "\\\\").replace("~", "\\~").replace("=", "\\=").replace("#", "\\#").replace("{", "\\{")
            .replace("}", "\\}").replace(":", "\\:").replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
            .replace("'", "&\\#x27;").replace("\n", "\\n").replace("\r", ""))


PAIRS = [(html_text, old_html_text), (html_paragraph, old_html_paragraph), (paragraph_markup, old_paragraph_markup),
         (paragraph_escaped_body, old_paragraph_escaped_body), (gift_escape, old_gift_escape), (gift_paragraph, old_gift_paragraph),
         (gift_text, old_gift_text)]

PIECES = [*"\\~=#{}:&<>\"'\n\r\t ab;x/%*", "\r\n", "&amp;", "&lt;", "&#x27;", "&\\#x27;", "<br/>", "&lt;br/&gt;", "\\n", "]]>", "x" * 40,
          "\u2028", "\x85", "\x00", "é", "\u202f", "\U0001F600", "\u0627", "\u2067"]


def _texts(seed: int) -> list[str]:
    rng = random.Random(seed)
    return ["", "a", "&", "\n", "\r", "\\", "&<>\"'", "a\nb", *PIECES] + ["".join(rng.choice(PIECES) for _ in range(rng.randint(0, 24))) for _ in range(3000)]


@pytest.mark.parametrize("seed", range(4))
def test_each_escape_writes_what_its_chain_wrote(seed):
    texts = _texts(seed)
    for marked in (False, True):
        english = {"fr": frozenset(random.Random(seed).sample(texts, 1000))} if marked else {}
        with english_fallback(english, ["fr"]):
            for new, old in PAIRS:
                for text in texts:
                    assert new(text) == old(text), (new.__name__, text)
    for text in texts:
        assert html_text(text) == html.escape(text, quote=True)
        assert html_paragraph_escaped(text) == html_text(html_paragraph(text))
        assert gift_text(text) == gift_escape(html_text(text))


class _Counted(str):
    """A text that counts the replacements asked of it."""

    replaced = 0

    def replace(self, *args):
        type(self).replaced += 1
        return str.replace(self, *args)


@pytest.mark.parametrize("escape", [new for new, _ in PAIRS], ids=lambda escape: escape.__name__)
def test_a_text_without_those_characters_is_given_back_as_it_is(escape):
    text = _Counted("Quelle mémoire faut-il pour 7 milliards de paramètres en FP16\u202f? 14 Go, le double (\U0001F600).")
    _Counted.replaced = 0
    out = escape(text)
    assert _Counted.replaced == 0
    if escape in (html_text, paragraph_escaped_body, gift_escape, gift_text):  # (the others put it in a paragraph)
        assert out is text
