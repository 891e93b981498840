"""Random Unicode in every kind of field and in every language: rejected with a location, or
exported into files that their own parsers read back with the same text.

A small copy of the bundled bank (three questions, the French and Dutch catalogs) gets text
drawn from every general category (controls, surrogates, combining marks, right-to-left
scripts, format characters, private use, unassigned code points) and from the characters each
format reserves. The text goes into an English field (the question file is rewritten as JSON,
which is YAML) or into a catalog's msgstr (written by the project's catalog writer). Then:

* either `bank validate` rejects it, and every error is located (``path:line``; the codes that
  concern a whole file may carry the path alone, see docs/error-codes.md);
* or every export is parsed by the parser its consumers use (lxml for Moodle XML and the QTI
  packages, the project's GIFT importer, ``json.loads``, ``html.parser`` for the practice site)
  and holds the text (whitespace-normalized where the format is HTML).

The profile is the fixed, derandomized one of conftest.py, bounded to a few seconds' worth of
examples.
"""

from __future__ import annotations

import io
import json
import re
import shutil
import unicodedata
import zipfile
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import REPO, keep_only

QUESTIONS = ("q001", "q002", "q003")
FIELDS = ("q001.stem", "q002.explanation", "q003.option.b", "q001.option.c.feedback", "topic.ai-hardware-software-stack.summary", "topic.ai-hardware-software-stack.title")
from aistack_bank.errors import PATH_ONLY_CODES as PATH_ONLY  # noqa: E402  (documented in docs/error-codes.md)

SPECIAL = ["\x00", "\x01", "\x1b", "\x7f", "\x85", "\u00ad", "\u0301", "\u0327", "\u05d0\u05d1", "\u0627\u0644", "\u200b", "\u200d", "\u200e",
           "\u202e", "\u2066", "\u2028", "\ufeff", "\ufffe", "\ud800", "\udfff", "\U0001f600", "\U000e0001", "\ue000", "\u3000", "\xa0",
           "<", ">", "&", "&amp;", "]]>", "<![CDATA[", "--", "{", "}", "~", "=", "#", ":", "\\", "\\n", "$", "$CATEGORY:", "::", "//",
           "\n", "\t", "\r", '"', "'", "%", "%s", "{0}", "\u0130", "\u00df", "\ufb01", "e\u0301", "\u1100\u1161", "\u0915\u094d\u0937"]

MARKUP = ["<", ">", "&", "&amp;", "]]>", "<![CDATA[", "--", "---", "{", "}", "~", "=", "#", ":", "\\", "\\n", "$", "$CATEGORY:", "::", "//",
          '"', "'", "%", "<b>", "</p>", "&lt;i&gt;", "\t", "\n"]
# Anything at all: mostly refused by the character rules.
raw_text = st.lists(st.one_of(st.characters(exclude_categories=()), st.sampled_from(SPECIAL)), min_size=1, max_size=12).map("".join)
# Text the rules accept (letters of every script, marks, punctuation, symbols, spaces, format
# characters such as ZWJ and RLM, private use, in NFC): must come out of every export intact.
safe_text = st.lists(st.one_of(st.characters(categories=["L", "M", "P", "S", "Zs", "Co"]), st.sampled_from(["\u200d", "\u200c", "\u200e", "\u200f", "\u00ad"]),
                               st.sampled_from(MARKUP)), min_size=1, max_size=12).map(lambda parts: unicodedata.normalize("NFC", "".join(parts)))
unicode_text = st.one_of(raw_text, safe_text, safe_text)


@pytest.fixture(scope="module")
def small_project(tmp_path_factory) -> Path:
    """bank/ with three questions and translations/ with the catalogs cut to their entries
    (conftest.keep_only), ready to be copied."""
    root = tmp_path_factory.mktemp("unicode") / "template"
    (root / "bank" / "ai-hardware-software-stack" / "questions").mkdir(parents=True)
    for qid in QUESTIONS:
        src = next((REPO / "bank" / "ai-hardware-software-stack" / "questions").glob(f"{qid}-*.yaml"))
        shutil.copy(src, root / "bank" / "ai-hardware-software-stack" / "questions" / src.name)
    topic = (REPO / "bank" / "ai-hardware-software-stack" / "topic.yaml").read_text(encoding="utf-8")
    head = re.sub(r"^groups:\n(?:[ -].*\n)*", "", topic.split("\nquestions:")[0] + "\n", flags=re.M).rstrip("\n")  # its groups name other questions
    (root / "bank" / "ai-hardware-software-stack" / "topic.yaml").write_text(head + "\nquestions:\n" + "".join(f"  - {q}\n" for q in QUESTIONS), encoding="utf-8")
    shutil.copy(REPO / "bank" / "categories.yaml", root / "bank" / "categories.yaml")
    shutil.copytree(REPO / "translations", root / "translations")
    keep_only(root, QUESTIONS)
    from aistack_bank.rules.validate import validate_bank

    # Every example is the cases' text in one field of this bank: it must pass on its own, or each
    # example ends at validation and no export is ever read back.
    assert not validate_bank(root / "bank", translations=root / "translations", run_checks=False).errors
    return root


def _english(root: Path, key: str):
    """(file, data, path in data) of the English field ``key``."""
    import yaml

    parts = key.split(".")
    if parts[0] == "topic":
        path = root / "bank" / "ai-hardware-software-stack" / "topic.yaml"
        return path, yaml.safe_load(path.read_text(encoding="utf-8")), (parts[-1],)
    path = next((root / "bank" / "ai-hardware-software-stack" / "questions").glob(f"{parts[0]}-*.yaml"))
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    if parts[1] == "option":
        index = next(i for i, o in enumerate(data["options"]) if o["id"] == parts[2])
        return path, data, ("options", index, "feedback" if len(parts) > 3 else "text")
    return path, data, (parts[1],)


def _set(data, where, value):
    for step in where[:-1]:
        data = data[step]
    data[where[-1]] = value


def _get(data, where):
    for step in where:
        data = data[step]
    return data


def _edit_catalogs(root: Path, key: str, msgid: str | None, msgstr: str | None, language: str | None) -> None:
    from aistack_bank.i18n.catalog import render_catalog
    from aistack_bank.i18n.pofile import read_po

    for po_path in (root / "translations").glob("*.po"):
        po, errors = read_po(po_path.read_text(encoding="utf-8"), po_path)
        assert po is not None, errors
        for entry in po:
            if entry.msgctxt == key:
                if msgid is not None:
                    entry.msgid = _hide(msgid)
                if msgstr is not None and po_path.stem == language:
                    entry.msgstr = _hide(msgstr)
        # A translator's editor may save lone surrogates as they are: write them through.
        po_path.write_bytes(_show(render_catalog(po).decode("utf-8")).encode("utf-8", "surrogatepass"))


def _hide(text: str) -> str:
    return "".join(chr(0xF0000 + ord(c) - 0xD800) if 0xD800 <= ord(c) <= 0xDFFF else c for c in text)


def _show(text: str) -> str:
    return "".join(chr(0xD800 + ord(c) - 0xF0000) if 0xF0000 <= ord(c) <= 0xF07FF else c for c in text)


class _Text(HTMLParser):
    """Visible text and the JSON data islands (``<script type="application/json">``) of a page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.islands: list[str] = []
        self._in_json = False

    def handle_starttag(self, tag, attrs):
        self._in_json = tag == "script" and dict(attrs).get("type") == "application/json"

    def handle_endtag(self, tag):
        self._in_json = False

    def handle_data(self, data):
        (self.islands if self._in_json else self.parts).append(data)


def _strings(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def _norm(text: str) -> str:
    return " ".join(text.split())


def _html_text(markup: str) -> str:
    from aistack_bank.importers._html import html_to_text

    return _norm(html_to_text(markup)[0])


def _roundtrip(tree_by_format: dict, key: str, text: str, lang: str, tmp: Path) -> None:
    """Every export parses with its consumer's parser; question texts come back."""
    from lxml import etree

    from aistack_bank.importers import gift as gift_reader

    qid, _, rest = key.partition(".")
    expected = _norm(text)
    question_key = key.startswith("q")
    for fmt, tree in tree_by_format.items():
        for rel, data in tree.items():
            name = str(rel)
            if name.endswith(".xml"):
                root = etree.fromstring(data, etree.XMLParser(resolve_entities=False, no_network=True))
                if question_key and not name.endswith("multilang.xml") and name.endswith(f"-{lang}.xml"):
                    texts = [_html_text(t.text or "") for t in root.iter("text")]
                    assert expected in texts, (name, expected)
            elif name.endswith(".zip"):
                with zipfile.ZipFile(io.BytesIO(data)) as package:
                    found = False
                    for member in package.namelist():
                        if member.endswith(".xml"):
                            item = etree.fromstring(package.read(member), etree.XMLParser(resolve_entities=False, no_network=True))
                            found |= expected in _norm(" ".join(item.itertext()))
                            # QTI 1.2 (Canvas, Common Cartridge) carries HTML as escaped text in <mattext>
                            found |= any(expected in _html_text(mattext.text or "") for mattext in item.iter("{*}mattext", "mattext")
                                         if mattext.get("texttype") == "text/html")
                    if question_key and name.endswith(f"-{lang}.zip"):
                        assert found, (name, expected)
            elif name.endswith(".gift"):
                path = tmp / "x.gift"
                path.write_bytes(data)
                questions, skipped = gift_reader.read(path)
                assert len(questions) == len(QUESTIONS), (name, skipped)
                if question_key and name.endswith(f"-{lang}.gift"):
                    q = questions[QUESTIONS.index(qid)]
                    texts = [_norm(q.stem), _norm(q.explanation)] + [_norm(t) for t, _ in q.options] + [_norm(f or "") for _, f in q.options]
                    assert expected in texts, (name, expected, texts)
            elif name.endswith(".json"):
                loaded = json.loads(data)
                if question_key and name.endswith(f"-{lang}.json"):
                    assert text in _strings(loaded), name
            elif name.endswith(".html"):
                parser = _Text()
                parser.feed(data.decode("utf-8"))
                parser.close()
                for island in parser.islands:
                    json.loads(island)
    if question_key and "html" in tree_by_format:
        found = []
        for rel, page in tree_by_format["html"].items():
            if not str(rel).startswith(f"{lang}/"):
                continue
            parser = _Text()
            parser.feed(page.decode("utf-8"))
            parser.close()
            found.append(_norm(" ".join(parser.parts)))
            found += [_norm(s) for island in parser.islands for s in _strings(json.loads(island))]
        assert any(expected in f for f in found), (lang, expected)


@settings(max_examples=30)
@given(text=unicode_text, field=st.sampled_from(FIELDS), where=st.sampled_from(["en", "fr", "nl"]), ascii_escapes=st.booleans())
def test_random_unicode_is_rejected_with_a_location_or_round_trips(small_project, tmp_path_factory, text, field, where, ascii_escapes):
    from aistack_bank.build import load_localized, render, with_ui
    from aistack_bank.errors import DiagnosticsError, Severity
    from aistack_bank.exporters import FORMATS
    from aistack_bank.options import ExportOptions
    from aistack_bank.rules.validate import validate_bank

    text = f"Why {text} now"
    root = tmp_path_factory.mktemp("case")
    shutil.copytree(small_project / "bank", root / "bank")
    shutil.copytree(small_project / "translations", root / "translations")
    path, data, at = _english(root, field)
    if where == "en":
        _set(data, at, text)
        path.write_bytes(json.dumps(data, ensure_ascii=ascii_escapes, indent=2).encode("utf-8", "surrogatepass"))
        _edit_catalogs(root, field, text, None, None)
    else:
        _edit_catalogs(root, field, None, text, where)
    report = validate_bank(root / "bank", translations=root / "translations", run_checks=False)
    if report.errors:
        for d in report.errors:
            assert d.location is not None and d.location.path, d
            assert d.location.line > 0 or d.code in PATH_ONLY, d
        return
    try:
        banks, _ = load_localized(root / "bank", root / "translations", ["en", "fr", "nl"])
    except DiagnosticsError as exc:  # a translation that is not ready (say, now fuzzy) is refused, located
        assert all(d.location is not None and d.location.line > 0 for d in exc.diagnostics if d.severity is Severity.ERROR), exc.diagnostics
        return
    options = with_ui(ExportOptions(), list(FORMATS), root / "translations", ["en", "fr", "nl"])
    trees = render(list(FORMATS), banks, options)
    _roundtrip(trees, field, text, where, root)
