"""The practice site in four languages, one of them right to left (Arabic), in a real browser.

The Arabic page carries ``lang="ar" dir="rtl"``, its layout mirrors (the options' inline start
is on the right), practice works by keyboard with the arrow keys of a right-to-left radio
group, axe-core finds nothing, and the chooser names every language in that language and
follows the browser's language, regional codes included.
"""

from __future__ import annotations

import re

import pytest

from aistack_bank.options import ExportOptions

from rtl_bank import AR_QUESTIONS, AR_UI, four_banks, four_options
from sitebrowser import browser, session  # noqa: F401  (fixtures)
from sitebrowser import DESKTOP, axe_check, load_banks, needs_chromium, shot, tab_to, write_site

pytestmark = needs_chromium

ENDONYMS = ["English", "العربية", "Français", "Nederlands"]
"""The four languages in the site's order (English first, then by code), each in its own name."""


@pytest.fixture(scope="module")
def banks():
    return four_banks()


@pytest.fixture(scope="module")
def site(tmp_path_factory, banks):
    return write_site(tmp_path_factory.mktemp("site4"), banks, four_options())




def focused_option(page) -> int:
    return page.evaluate("Array.from(document.querySelectorAll('#options .option')).indexOf(document.activeElement)")


def test_the_right_to_left_page_mirrors_and_practice_works_by_keyboard(session, site, banks):
    s = session(locale="ar", **DESKTOP)
    page = s.page
    page.goto((site / "ar" / "index.html").as_uri())
    assert page.evaluate("[document.documentElement.lang, document.documentElement.dir, getComputedStyle(document.body).direction]") == ["ar", "rtl", "rtl"]
    assert page.locator("h1#topic-title").inner_text() == banks["ar"].topic.title

    # The language menu: every language in its own name, each marked with its language, and
    # the left-to-right ones with their direction on this right-to-left page.
    links = page.locator("nav.languages a")
    assert links.all_inner_texts() == ENDONYMS
    assert links.evaluate_all("els => els.map(e => [e.lang, e.dir])") == [["en", "ltr"], ["ar", ""], ["fr", "ltr"], ["nl", "ltr"]]
    # User text inside an interface sentence is isolated.
    assert page.locator("#key-points-heading bdi").inner_text() == banks["ar"].topic.title

    # An interface string not translated into Arabic is English, marked as such and left to right.
    assert page.locator("#progress-heading > span").evaluate("e => [e.lang, e.dir, e.textContent]") == ["en", "ltr", "Your progress"]
    assert page.locator("#practice-heading").inner_text() == AR_UI["site.practice.heading"]

    # Mirrored layout: the question list's numbers sit at the right, the skip link at the right edge.
    padding = page.locator("#question-list").evaluate("el => [getComputedStyle(el).paddingRight, getComputedStyle(el).paddingLeft]")
    assert float(padding[0].removesuffix("px")) > 30 and padding[1] == "0px"
    axe_check(page, "Arabic topic page")
    shot(page, "site-rtl-topic.png")

    # Keyboard only: to the practice button, then into the question.
    tab_to(page, "practice-all")
    page.keyboard.press("Enter")
    page.wait_for_selector("#quiz:not([hidden])")
    assert page.locator("#quiz-count").inner_text() == "السؤال 1 من 3"
    qid = page.locator("#question").get_attribute("data-qid")
    assert focused_option(page) == 0
    # The script's English fallbacks are isolated left to right (LRI … PDI) on this page.
    hint = page.locator("#keys-hint").evaluate("e => e.textContent")
    assert hint.startswith("\u2066Keyboard") and hint.endswith("\u2069")

    # The options' inline start is on the right: each option's letter is right of its text.
    box_key = page.locator("#options .option").first.locator(".option-key").bounding_box()
    box_text = page.locator("#options .option").first.locator(".option-text").bounding_box()
    assert box_key["x"] > box_text["x"] + box_text["width"] - 1

    # A vertical radio group in a right-to-left page: Down and Left go forward, Up and Right back.
    page.keyboard.press("ArrowLeft")
    assert focused_option(page) == 1
    page.keyboard.press("ArrowDown")
    assert focused_option(page) == 2
    page.keyboard.press("ArrowRight")
    assert focused_option(page) == 1
    page.keyboard.press("ArrowUp")
    assert focused_option(page) == 0
    page.keyboard.press("ArrowRight")  # from the first, backwards wraps to the last
    assert focused_option(page) == 3

    # Answer the correct option with the keyboard: move to it and press Space.
    shown = page.locator("#options .option").evaluate_all("els => els.map(e => e.dataset.option)")
    target = shown.index(banks["ar"].question(qid).correct)
    while focused_option(page) != target:
        page.keyboard.press("ArrowLeft")
    page.keyboard.press("Space")
    page.wait_for_selector("#next:not([hidden])")
    assert AR_UI["site.feedback.right"] in page.locator("#verdict").inner_text()
    # The bank's text sits isolated next to the interface's label and the option's letter.
    question = banks["ar"].question(qid)
    chosen = next(option for option in question.options if option.id == question.correct)
    assert page.locator("#feedback .answer-line bdi").first.inner_text() == chosen.text
    if qid in AR_QUESTIONS:
        assert AR_QUESTIONS[qid]["stem"] == page.locator("#stem").inner_text()
    axe_check(page, "Arabic question with feedback")
    shot(page, "site-rtl-feedback.png")

    # Escape goes back to the topic; the page never asked for anything off the disk.
    page.keyboard.press("Escape")
    page.wait_for_selector("#topic:not([hidden])")
    s.check_clean()


def test_the_chooser_lists_every_language_by_its_own_name_and_follows_the_browser(session, site):
    s = session(locale="de-DE", **DESKTOP)  # a language the site does not have: the chooser stays
    s.page.goto((site / "index.html").as_uri())
    items = s.page.locator("main li")
    assert s.page.locator("main li .autonym").all_inner_texts() == ENDONYMS
    assert items.evaluate_all("els => els.map(e => [e.lang, e.dir])") == [["en", ""], ["ar", "rtl"], ["fr", ""], ["nl", ""]]
    assert s.page.locator('.prompt span[lang="ar"]').get_attribute("dir") == "rtl"
    axe_check(s.page, "chooser of four languages")

    s = session(locale="ar-EG", **DESKTOP)  # a regional tag finds its language
    s.page.goto((site / "index.html").as_uri())
    s.page.wait_for_url(re.compile(r"/ar/index\.html$"))
    s.check_clean()


@pytest.fixture(scope="module")
def regional_site(tmp_path_factory):
    """English and a catalog named ``pt_BR``, two questions each (the pages are only read)."""
    en = load_banks()["en"]
    en = en.model_copy(update={"questions": en.questions[:2]})
    banks = {"en": en, "pt_BR": en.model_copy(update={"lang": "pt_BR"})}
    return write_site(tmp_path_factory.mktemp("regional"), banks, ExportOptions())


@pytest.mark.parametrize("locale", ["pt-BR", "pt", "pt-PT"])
def test_the_chooser_finds_a_regional_catalog(session, regional_site, locale):
    """A catalog named ``pt_BR`` is the page ``pt_BR/`` with ``lang="pt-BR"``: a browser asking
    for pt-BR gets it, and so does one asking for Portuguese of another region or none."""
    s = session(locale=locale, **DESKTOP)
    s.page.goto((regional_site / "index.html").as_uri())
    s.page.wait_for_url(re.compile(r"/pt_BR/index\.html$"))
    assert s.page.evaluate("document.documentElement.lang") == "pt-BR"
    assert s.page.locator("nav.languages a").all_inner_texts() == ["English", "Português (Brasil)"]
