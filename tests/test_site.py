"""The practice site (`bank export html`): files, escaping, CSP, languages and interface strings."""

from __future__ import annotations

import base64
import hashlib
import json
import re
from pathlib import PurePosixPath

import lxml.html
import pytest

from aistack_bank.kinds import NAMES
from aistack_bank.build import load_localized
from aistack_bank.exporters import html_site
from aistack_bank.exporters.html_site import UI_STRINGS, export, fill, ui_text
from aistack_bank.model import Bank, KeyPoint, Option, SingleChoiceQuestion
from aistack_bank.options import ExportOptions

from conftest import REPO

LANGS = ["en", "fr", "nl"]
HOSTILE = "<script>alert(1)</script> ]]> \"double\" 'single' & </SCRIPT><!-- <b>bold</b>"
PAGE = {lang: PurePosixPath(lang, "index.html") for lang in LANGS}
SITE_DIR = REPO / "aistack_bank" / "exporters" / "site"


@pytest.fixture(scope="module")
def banks() -> dict[str, Bank]:
    return load_localized(REPO / "bank", REPO / "translations", LANGS)[0]


@pytest.fixture(scope="module")
def tree(banks):
    return export(banks, ExportOptions())


def parse(page: bytes):
    return lxml.html.document_fromstring(page.decode("utf-8"))


def inline(page: bytes, tag: str) -> list[str]:
    """The raw text of each ``<tag>`` element without attributes (what the browser hashes)."""
    return re.findall(rf"<{tag}>(.*?)</{tag}>", page.decode("utf-8"), flags=re.S)


def bank_data(page: bytes) -> dict:
    match = re.search(r'<script type="application/json" id="bank-data">(.*?)</script>', page.decode("utf-8"), flags=re.S)
    assert match, "no #bank-data block"
    return json.loads(match.group(1))


def hostile_bank() -> Bank:
    options = [
        Option(id="a", text=HOSTILE, feedback=HOSTILE),
        Option(id="b", text="plain </script> option", feedback=None),
        Option(id="c", text="onclick=alert(1)", feedback="x"),
        Option(id="d", text="\u2028line\u2029separators", feedback="y"),
    ]
    question = SingleChoiceQuestion(id="q001", kind="single-choice", stem=HOSTILE, explanation=HOSTILE, tags=["memory"], difficulty=1, options=options, correct="a")
    english = load_localized(REPO / "bank", None, ["en"])[0]["en"]
    topic = english.topic.model_copy(update={"title": HOSTILE, "summary": HOSTILE, "key_points": [KeyPoint(id="k1", text=HOSTILE)], "questions": ["q001"]})
    return Bank(topic=topic, category=english.category.model_copy(update={"title": HOSTILE}), questions=(question,), lang="en")


# --- Files and determinism ------------------------------------------------------------------

def test_the_site_has_an_index_and_one_page_per_language(tree):
    assert set(tree) == {PurePosixPath("index.html"), *PAGE.values()}
    assert all(isinstance(data, bytes) for data in tree.values())


def test_the_order_of_languages_does_not_change_the_bytes(banks, tree):
    # a render in a fresh interpreter (another hash seed and time zone) is compared in test_exporters
    assert export(dict(reversed(list(banks.items()))), ExportOptions()) == tree


def test_output_has_no_dates_or_random_ids(tree):
    for page in tree.values():
        text = page.decode("utf-8")
        assert not re.search(r"\b20[0-9]{2}-[01][0-9]-[0-3][0-9]\b", text)
        assert "\r" not in text


# --- Escaping -------------------------------------------------------------------------------

def test_a_hostile_stem_is_text_in_the_list_and_in_the_json():
    page = export({"en": hostile_bank()}, ExportOptions())[PAGE["en"]]
    text = page.decode("utf-8")
    doc = parse(page)

    # Visible: the question list, headings, title, summary and key points show the text as text.
    items = doc.xpath('//ol[@id="question-list"]/li')
    assert [li.text_content() for li in items] == [HOSTILE]
    assert doc.xpath('string(//h1)') == HOSTILE
    assert doc.xpath('string(//p[contains(@class,"summary")])') == HOSTILE
    assert doc.xpath('string(//section[contains(@class,"key-points")]/p)') == HOSTILE
    assert doc.xpath("string(//title)") == f"{HOSTILE}: practice questions"
    assert doc.xpath('string(//meta[@name="description"]/@content)') == HOSTILE
    assert doc.xpath('string(//h2[@id="questions-heading"])') == f"All {HOSTILE} questions (1)"
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text

    # Nothing from the data became markup: exactly our two inline scripts, no <b> element.
    assert len(doc.xpath("//script")) == 2
    assert not doc.xpath("//b")
    assert text.count("<script") == 2 and text.lower().count("</script>") == 2
    assert "<!--" not in text and "]]>" not in text.replace("]]&gt;", "")

    # Data: no "<" at all inside the JSON block, and JSON.parse gives back the exact text.
    raw = re.search(r'id="bank-data">(.*?)</script>', text, flags=re.S).group(1)
    assert "<" not in raw and ">" not in raw and "&" not in raw
    assert "\\u003c/script\\u003e" in raw
    data = json.loads(raw)
    question = data["questions"][0]
    assert question["stem"] == question["explanation"] == HOSTILE
    assert question["options"][0] == {"id": "a", "text": HOSTILE, "feedback": HOSTILE}
    assert question["options"][3]["text"] == "\u2028line\u2029separators"
    assert "feedback" not in question["options"][1]


def test_script_json_cannot_close_its_element():
    encoded = html_site.script_json({"x": "</script><!--<script>", "y": "a & b > c"})
    assert "<" not in encoded and ">" not in encoded and "&" not in encoded
    assert json.loads(encoded) == {"x": "</script><!--<script>", "y": "a & b > c"}


def test_no_inline_event_handlers_or_markup_sinks(tree):
    for path, page in tree.items():
        for element in parse(page).iter():
            if isinstance(element.tag, str):
                handlers = [name for name in element.attrib if name.lower().startswith("on")]
                assert not handlers, f"{path}: <{element.tag}> has {handlers}"
        assert not re.search(r"<[^>]*\son[a-z]+\s*=", page.decode("utf-8"), flags=re.I), path
    for script in SITE_DIR.glob("*.js"):
        source = script.read_text(encoding="utf-8")
        for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function", "setAttribute(\"on"):
            assert sink not in source, f"{script.name} uses {sink}"


# --- Content Security Policy ------------------------------------------------------------------

def csp_of(page: bytes) -> dict[str, list[str]]:
    content = parse(page).xpath('string(//meta[@http-equiv="Content-Security-Policy"]/@content)')
    assert content, "no CSP meta tag"
    directives = {}
    for part in content.split(";"):
        name, *values = part.split()
        directives[name] = values
    return directives


def sha256(source: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(source.encode("utf-8")).digest()).decode() + "'"


@pytest.mark.parametrize("name", ["index.html", *map(str, PAGE.values())])
def test_csp_forbids_remote_loads_and_hashes_match_the_inline_code(tree, name):
    page = tree[PurePosixPath(name)]
    csp = csp_of(page)
    assert csp["default-src"] == ["'none'"]
    assert csp["img-src"] == ["data:"]
    assert csp["base-uri"] == ["'none'"]
    scripts, styles = inline(page, "script"), inline(page, "style")
    assert len(scripts) == 1 and len(styles) == 1
    assert csp["script-src"] == [sha256(scripts[0])]
    assert csp["style-src"] == [sha256(styles[0])]
    everything = " ".join(v for values in csp.values() for v in values)
    assert "http" not in everything and "'self'" not in everything and "unsafe" not in everything
    # The meta tag comes first in <head>, before any style or script.
    text = page.decode("utf-8")
    assert text.index("Content-Security-Policy") < text.index("<style>") < text.index("<script")


def test_pages_load_nothing_from_elsewhere(tree):
    for path, page in tree.items():
        doc = parse(page)
        assert not doc.xpath("//*[@src]"), path
        for href in doc.xpath("//@href"):
            assert href.startswith(("#", "data:", "../")) or re.fullmatch(r"[a-z_]+/index\.html", href), (path, href)
        assert "@import" not in inline(page, "style")[0] and "url(" not in inline(page, "style")[0]


def test_inline_assets_are_the_package_files(tree):
    page = tree[PAGE["en"]]
    assert inline(page, "script")[0] == (SITE_DIR / "practice.js").read_text(encoding="utf-8")
    assert inline(page, "style")[0] == (SITE_DIR / "style.css").read_text(encoding="utf-8")
    assert inline(tree[PurePosixPath("index.html")], "script")[0] == (SITE_DIR / "chooser.js").read_text(encoding="utf-8")


# --- Languages --------------------------------------------------------------------------------

def test_each_page_has_its_lang_and_a_language_picker(tree, banks):
    for lang, path in PAGE.items():
        doc = parse(tree[path])
        assert doc.get("lang") == lang
        links = doc.xpath('//nav[contains(@class,"languages")]//a')
        assert [a.get("hreflang") for a in links] == LANGS
        assert [a.get("lang") for a in links] == LANGS
        assert [a.text_content() for a in links] == ["English", "Français", "Nederlands"]
        assert [a.get("aria-current") for a in links] == ["page" if other == lang else None for other in LANGS]
        for a in links:
            target = (path.parent / a.get("href")).as_posix()
            assert PurePosixPath(re.sub(r"^[^/]+/\.\./", "", target)) in tree
        assert doc.xpath("string(//h1)") == banks[lang].topic.title


def test_the_index_links_every_language_without_javascript(tree, banks):
    doc = parse(tree[PurePosixPath("index.html")])
    assert doc.get("lang") == "en"
    links = doc.xpath("//main//a")
    assert [a.get("href") for a in links] == [f"{lang}/index.html" for lang in LANGS]
    assert [a.get("hreflang") for a in links] == LANGS
    assert [a.getparent().get("lang") for a in links] == LANGS
    for a, lang in zip(links, LANGS):
        assert banks[lang].topic.title in a.text_content()
        assert PurePosixPath(a.get("href")) in tree
    assert [span.text_content() for span in doc.xpath('//p[@class="prompt"]/span')] == ["Choose your language"]


def test_the_index_asks_in_every_language(banks):
    ui = {"fr": {"site.language.choose": "Choisissez votre langue"}, "nl": {"site.language.choose": "Kies uw taal"}}
    doc = parse(export(banks, ExportOptions(ui=ui))[PurePosixPath("index.html")])
    spans = doc.xpath('//p[@class="prompt"]/span')
    assert [(span.get("lang"), span.text_content()) for span in spans] == [
        ("en", "Choose your language"), ("fr", "Choisissez votre langue"), ("nl", "Kies uw taal")]


def test_the_json_data_matches_each_localized_bank(tree, banks):
    for lang, path in PAGE.items():
        data = bank_data(tree[path])
        bank = banks[lang]
        assert data["lang"] == lang and data["language"] == lang and data["topic"] == bank.topic.id
        assert data["storageKey"] == f"aistack-bank/{bank.topic.id}/answers"  # one history, every language
        assert data["legacyKeys"] == {code: f"aistack-bank/{bank.topic.id}/{code}" for code in PAGE}  # the previous version's keys
        assert data["runKey"] == f"aistack-bank/{bank.topic.id}/run/{lang}"
        assert data["tags"] and set(data["tags"]) <= set(bank.topic.tags)
        assert [q["id"] for q in data["questions"]] == [q.id for q in bank.questions]
        for entry, question in zip(data["questions"], bank.questions):
            assert entry["stem"] == question.stem and entry["explanation"] == question.explanation
            assert entry["correct"] == question.correct
            assert [o["text"] for o in entry["options"]] == [o.text for o in question.options]
            assert [o["id"] for o in entry["options"]] == [o.id for o in question.options]
            assert entry["tags"] == list(question.tags)
        # Every string, but those named after a kind the bank has no question of (site.ordering.…).
        held = {q.kind for q in bank.questions}
        assert set(data["ui"]) == {key for key in UI_STRINGS if key.split(".")[1] not in NAMES or key.split(".")[1] in held}
        assert any(key.split(".")[1] in NAMES for key in UI_STRINGS) and set(data["ui"]) != set(UI_STRINGS)


# --- Page content and interface strings ---------------------------------------------------------

def test_the_english_page_uses_the_agreed_wording(tree, banks):
    doc = parse(tree[PAGE["en"]])
    text = " ".join(doc.text_content().split())
    topic = banks["en"].topic
    for phrase in [
        "Practice 10 questions", "Random questions from this topic · about 5 minutes",
        "Practice this topic", "All questions in this topic, in random order",
        "Due for review", "what you got wrong comes back soon, what you know comes back later",
        "Last-answer accuracy", "All-time accuracy", f"0 / {len(banks['en'].questions)}", "Questions answered", "Progress by tag",
        "Export my answers",
        "AI Hardware & Software Stack: key points",
        f"All AI Hardware & Software Stack questions ({len(banks['en'].questions)})",
        "Other topics in Computer systems", "This bank has no other topics yet.",
        topic.summary, *(point.text for point in topic.key_points),
    ]:
        assert " ".join(phrase.split()) in text, phrase
    items = doc.xpath('//ol[@id="question-list"]/li')
    assert [li.text_content() for li in items] == [q.stem for q in banks["en"].questions]
    headings = [h.text_content() for h in doc.xpath("//h1|//h2")]
    assert headings[0] == topic.title and len(doc.xpath("//h1")) == 3


def test_missing_translations_fall_back_to_english(tree):
    doc = parse(tree[PAGE["fr"]])
    assert doc.xpath('string(//button[@id="practice-10"]/span[@class="mode-title"])') == "Practice 10 questions"
    assert doc.xpath('string(//h2[@id="key-points-heading"])') == "Pile matérielle et logicielle de l'IA: key points"
    assert bank_data(tree[PAGE["fr"]])["ui"]["site.quiz.next"] == "Next question"


def test_translations_come_from_options_ui(banks):
    nbsp = "\u00a0"
    ui = {
        "fr": {
            "site.practice10.title": "S'entraîner sur 10 questions",
            "site.keypoints.heading": f"{{title}}{nbsp}: points clés",
            "site.questions.heading": "Toutes les questions sur {title} ({count})",
            "site.other.heading": "Autres thèmes de {category}",
            "site.quiz.next": "Question suivante",
            "site.result.score": "Votre score : {total}",  # drops {score}: ignored
        },
        "nl": {"site.weak.title": "Zwakke vragen", "site.reset": "  "},  # blank: ignored
    }
    tree = export(banks, ExportOptions(ui=ui))
    fr, nl, en = (parse(tree[PAGE[lang]]) for lang in ("fr", "nl", "en"))
    assert fr.xpath('string(//button[@id="practice-10"]/span[@class="mode-title"])') == "S'entraîner sur 10 questions"
    assert fr.xpath('string(//h2[@id="key-points-heading"])') == f"Pile matérielle et logicielle de l'IA{nbsp}: points clés"
    assert fr.xpath('string(//h2[@id="questions-heading"])') == f"Toutes les questions sur Pile matérielle et logicielle de l'IA ({len(banks['fr'].questions)})"
    assert fr.xpath('string(//h2[@id="other-heading"])') == "Autres thèmes de Systèmes informatiques"
    data = bank_data(tree[PAGE["fr"]])["ui"]
    assert data["site.quiz.next"] == "Question suivante"
    assert data["site.result.score"] == UI_STRINGS["site.result.score"]
    assert nl.xpath('string(//button[@id="practice-weak"]/span[@class="mode-title"])') == "Zwakke vragen"
    assert nl.xpath('string(//button[@id="reset"])') == "Reset progress"
    assert en.xpath('string(//button[@id="practice-10"]/span[@class="mode-title"])') == "Practice 10 questions"


def test_ui_text_and_fill():
    options = ExportOptions(ui={"fr": {"site.weak.count": "À revoir : {count}", "site.quiz.keys": "{count}"}})
    assert ui_text(options, "fr", "site.weak.count") == "À revoir : {count}"
    assert ui_text(options, "fr", "site.quiz.keys") == UI_STRINGS["site.quiz.keys"]  # lost {letter}
    assert ui_text(options, "nl", "site.weak.count") == "Due now: {count}"
    assert fill("{title} ({count}) {unknown}", title="{count}", count=5) == "{count} (5) {unknown}"


def test_ui_strings_are_well_formed():
    allowed = {"title", "category", "count", "answered", "total", "score", "percent", "current", "letter",
               "right", "file", "minutes", "seconds", "tags", "example", "unit", "low", "high", "item", "position"}
    for key, text in UI_STRINGS.items():
        assert re.fullmatch(r"site\.[a-z0-9_]+(\.[a-z0-9_]+)*", key), key
        assert text == text.strip() and "  " not in text, key
        assert set(re.findall(r"\{([^}]*)\}", text)) <= allowed, key
    for key in ("site.practice10.title", "site.practice10.desc", "site.practice_all.title", "site.practice_all.desc",
                "site.weak.title", "site.weak.desc", "site.stats.last", "site.stats.alltime", "site.keypoints.heading",
                "site.questions.heading", "site.other.heading"):
        assert key in UI_STRINGS


def test_accessibility_basics(tree):
    for lang, path in PAGE.items():
        doc = parse(tree[path])
        assert doc.xpath('//meta[@name="viewport"]') and doc.xpath('//meta[@name="color-scheme"]')
        assert doc.xpath('//a[@class="skip-link"]/@href') == ["#main"] and doc.xpath('//main[@id="main"]')
        assert doc.xpath('//*[@id="verdict"]/@aria-live') == ["polite"]
        assert doc.xpath('//*[@id="options"]/@role') == ["radiogroup"]
        assert doc.xpath('//dialog[@id="reset-dialog"]/@aria-labelledby') == ["reset-question"]
        # Every view has its own h1 (only the one on screen is visible).
        assert [h.get("id") for h in doc.xpath("//h1")] == ["topic-title", "quiz-title", "results-title"]
        assert doc.xpath('//*[@id="announcer"]/@aria-live') == ["polite"]
        assert doc.xpath('//button[@id="practice-weak"]/@aria-describedby') == ["weak-status"]
        assert doc.xpath("//noscript")
        for button in doc.xpath("//button"):
            assert button.get("type") == "button"
        ids = doc.xpath("//@id")
        assert len(ids) == len(set(ids))
    css = (SITE_DIR / "style.css").read_text(encoding="utf-8")
    assert "prefers-color-scheme: dark" in css and ":focus-visible {\n  outline: 3px solid" in css
    # Focus outlines are only removed from targets of programmatic focus, never from controls.
    removed = re.findall(r"([^{}]+)\{[^}]*outline:\s*(?:none|0)", css)
    assert [selector.strip() for selector in removed] == ['[tabindex="-1"]:focus', "main:focus-visible"]
