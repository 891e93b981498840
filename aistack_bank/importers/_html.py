"""HTML from LMS exports to the bank's plain text."""

from __future__ import annotations

import re
import unicodedata
from html.parser import HTMLParser

KEPT = {"p", "br", "div", "span"}


class _TextParser(HTMLParser):
    def __init__(self, language: str):
        super().__init__(convert_charrefs=True)
        self.language = language
        self.parts: list[str] = []
        self.dropped: set[str] = set()
        self.span_langs: list[str | None] = []
        self.skip_depth = 0
        self.seen_languages: list[str] = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "span" and "multilang" in (attributes.get("class") or ""):
            lang = (attributes.get("lang") or "").lower()
            self.seen_languages.append(lang)
            self.span_langs.append(lang)
            if lang != self.language:
                self.skip_depth += 1
            return
        if tag == "span":
            self.span_langs.append(None)
        if tag == "br":
            self._add("\n")
        elif tag in ("p", "div"):
            self._add("\n\n")
        elif tag not in KEPT:
            self.dropped.add(tag)

    def handle_endtag(self, tag):
        if tag == "span" and self.span_langs:
            lang = self.span_langs.pop()
            if lang is not None and lang != self.language:
                self.skip_depth -= 1
        elif tag in ("p", "div"):
            self._add("\n\n")

    def handle_data(self, data):
        self._add(data)

    def _add(self, text: str) -> None:
        if self.skip_depth == 0:
            self.parts.append(text)


def html_to_text(markup: str, language: str = "en") -> tuple[str, set[str]]:
    """Plain text of ``markup`` and the names of the tags that were dropped.

    Paragraphs become one line each (joined by a newline), ``<br>`` a newline; Moodle multilang
    spans keep only ``language`` (or, if it is absent, the first language).

    >>> html_to_text('<p>Is 2 &lt; 3?</p>')
    ('Is 2 < 3?', set())
    >>> html_to_text('<p><span lang="en" class="multilang">Yes</span><span lang="fr" class="multilang">Oui</span></p>', "fr")
    ('Oui', set())
    """
    parser = _TextParser(language)
    parser.feed(markup)
    parser.close()
    if parser.seen_languages and language not in parser.seen_languages:
        return html_to_text(markup, parser.seen_languages[0])
    text = "".join(parser.parts)
    # HTML collapses its own white space only (space, tab, CR, LF, FF): a no-break space is text.
    lines = [re.sub(r"[ \t\r\f]+", " ", line).strip(" \t\r\f") for line in text.split("\n")]
    paragraphs = "\n".join(line for line in lines if line)
    # The parser has already turned character references into text (convert_charrefs): a second
    # unescape would read "&amp;lt;" as "<".
    return unicodedata.normalize("NFC", paragraphs), parser.dropped
