"""The practice site in a real browser (Playwright driving Debian's Chromium), from file://.

Keyboard-only practice, scores and progress, weak questions after a reload, reset, the
language chooser, a hostile stem, dark mode on a phone, and no network requests. Screenshots
go to test-artifacts/ at the repository root.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from aistack_bank.build import load_localized, load_ui_texts
from aistack_bank.exporters.html_site import UI_STRINGS, export, fill, ui_text
from aistack_bank.model import Bank
from aistack_bank.options import ExportOptions

from conftest import REPO

# In CI (.ci/run installs Chromium and Playwright) a missing browser is a failure, not a skip.
IN_CI = bool(os.environ.get("CI"))
if IN_CI:
    import playwright.sync_api as sync_api
else:
    sync_api = pytest.importorskip("playwright.sync_api")

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"]
LANGS = ["en", "fr", "nl"]
ARTIFACTS = REPO / "test-artifacts"
WRONG_AT = {1, 4, 7}
"""Which answers of a 10-question run are answered wrong on purpose."""

pytestmark = pytest.mark.skipif(not CHROMIUM.exists() and not IN_CI, reason="needs Chromium at /usr/bin/chromium (apt install chromium)")


@pytest.fixture(scope="module")
def banks() -> dict[str, Bank]:
    return load_localized(REPO / "bank", REPO / "translations", LANGS)[0]


@pytest.fixture(scope="module")
def options() -> ExportOptions:
    texts, problems = load_ui_texts(REPO / "translations", LANGS)  # as `bank build` reads them
    assert not problems
    return ExportOptions(ui=texts)


def write_site(folder: Path, banks, options) -> Path:
    for rel, data in export(banks, options).items():
        path = folder / str(rel)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return folder


@pytest.fixture(scope="module")
def site(tmp_path_factory, banks, options) -> Path:
    return write_site(tmp_path_factory.mktemp("site"), banks, options)


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
        yield browser
        browser.close()


class Session:
    """A fresh browser profile (context) with a page that records requests and console errors."""

    def __init__(self, browser, **context_options):
        self.context = browser.new_context(**context_options)
        self.page = self.context.new_page()
        self.requests: list[str] = []
        self.errors: list[str] = []
        self.dialogs: list[str] = []
        self.context.on("request", lambda request: self.requests.append(request.url))
        self.page.on("console", lambda message: message.type == "error" and self.errors.append(message.text))
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("dialog", lambda dialog: (self.dialogs.append(dialog.message), dialog.dismiss()))

    def check_clean(self) -> None:
        offsite = [url for url in self.requests if not url.startswith(("file://", "data:"))]
        assert not offsite, f"network requests: {offsite}"
        assert not self.errors, f"console errors (CSP violations?): {self.errors}"
        assert not self.dialogs

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def session(browser):
    sessions = []

    def make(**context_options) -> Session:
        sessions.append(Session(browser, **context_options))
        return sessions[-1]

    yield make
    for s in sessions:
        s.close()


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name), full_page=True)


def text(page, selector: str) -> str:
    return " ".join(page.locator(selector).inner_text().split())


def tab_to(page, element_id: str, *, backwards: bool = False, limit: int = 60) -> None:
    """Press Tab (or Shift+Tab) until the element is focused: keyboard only, no clicks."""
    for _ in range(limit):
        if page.evaluate("document.activeElement && document.activeElement.id") == element_id:
            return
        page.keyboard.press("Shift+Tab" if backwards else "Tab")
    raise AssertionError(f"#{element_id} cannot be reached with the keyboard")


def focus_is_visible(page) -> bool:
    return page.evaluate("(() => { const s = getComputedStyle(document.activeElement); return s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2; })()")


def answer_current(page, bank: Bank, *, right: bool, key_style: str) -> tuple[str, int]:
    """Answer the question on screen by keyboard; returns its id and the position pressed."""
    qid = page.locator("#question").get_attribute("data-qid")
    question = bank.question(qid)
    shown = page.locator("#options .option-text").all_inner_texts()
    correct = shown.index(question.correct_option.text)
    position = correct if right else (correct + 1) % len(shown)
    page.keyboard.press(str(position + 1) if key_style == "digit" else "abcdefghij"[position])
    return qid, position


def expect_feedback(page, bank: Bank, lang: str, options: ExportOptions, qid: str, position: int, right: bool) -> None:
    question = bank.question(qid)
    feedback = page.locator("#feedback")
    assert ("is-right" if right else "is-wrong") in feedback.get_attribute("class").split()
    verdict = ui_text(options, lang, "site.feedback.right" if right else "site.feedback.wrong")
    assert text(page, "#feedback .verdict").endswith(" ".join(verdict.split()))
    body = " ".join(feedback.inner_text().split())
    assert " ".join(question.correct_option.text.split()) in body
    assert " ".join(question.explanation.split()) in body
    chosen_text = page.locator("#options .option-text").nth(position).inner_text()
    chosen = next(o for o in question.options if o.text == chosen_text)
    if chosen.feedback:
        assert " ".join(chosen.feedback.split()) in body
    assert page.locator("#options .option.is-correct").count() == 1
    assert page.locator("#options .option.is-wrong").count() == (0 if right else 1)
    assert page.evaluate("document.activeElement.id") == "next" and focus_is_visible(page)


def stats(page) -> tuple[str, str]:
    """The two figures as shown (the dash of "no answers yet" stands alone, its words are for screen readers)."""
    accuracy = page.locator("#stat-accuracy")
    shown = accuracy.locator("[aria-hidden=true]") if accuracy.locator("[aria-hidden=true]").count() else accuracy
    return " ".join(shown.inner_text().split()), text(page, "#stat-answered")


@pytest.mark.parametrize("lang", LANGS)
def test_keyboard_practice_progress_and_weak_questions(session, site, banks, options, lang):
    bank = banks[lang]
    total = len(bank.questions)

    def ui(key: str, **values) -> str:
        return " ".join(fill(ui_text(options, lang, key), **values).split())

    s = session(viewport={"width": 1100, "height": 900})
    page = s.page
    page.goto((site / lang / "index.html").as_uri())
    assert page.evaluate("document.documentElement.lang") == lang
    shot(page, f"site-{lang}-topic.png")

    # A fresh profile: nothing answered, Weak questions disabled with a visible reason.
    assert stats(page) == ("—", ui("site.stats.answered.value", answered=0, total=total))
    assert page.locator("#stat-accuracy .visually-hidden").inner_text() == ui("site.stats.accuracy.none")
    weak = page.locator("#practice-weak")
    assert weak.is_disabled()
    assert page.locator("#weak-status").is_visible()
    assert text(page, "#weak-status") == ui("site.weak.none")
    assert weak.get_attribute("aria-describedby") == "weak-status"

    # Practice 10, keyboard only: digits and letters, some right, some wrong.
    tab_to(page, "practice-10")
    assert focus_is_visible(page)
    page.keyboard.press("Enter")
    assert page.locator("#quiz").is_visible() and not page.locator("#topic").is_visible()
    assert text(page, "#quiz-title") == ui("site.practice10.title")
    missed, seen = [], []
    for index in range(10):
        assert text(page, "#quiz-count") == ui("site.quiz.progress", current=index + 1, total=10)
        right = index not in WRONG_AT
        qid, position = answer_current(page, bank, right=right, key_style="digit" if index % 2 else "letter")
        seen.append(qid)
        expect_feedback(page, bank, lang, options, qid, position, right)
        if not right:
            missed.append(qid)
            if len(missed) == 1:
                shot(page, f"site-{lang}-feedback.png")
        page.keyboard.press("Enter")
    assert len(set(seen)) == 10

    # The score, the missed questions and a way to retry them.
    assert page.locator("#results").is_visible()
    assert text(page, "#results-score") == ui("site.result.score", score=10 - len(WRONG_AT), total=10)
    assert page.locator("#results-missed li").all_inner_texts() == [bank.question(q).stem for q in missed]
    assert text(page, "#retry-missed") == ui("site.result.retry", count=len(missed))
    assert text(page, "#announcer") == ui("site.result.score", score=10 - len(WRONG_AT), total=10)
    tab_to(page, "results-back")
    page.keyboard.press("Enter")
    accuracy = ui("site.stats.accuracy.value", percent=round(100 * (10 - len(WRONG_AT)) / 10))
    assert stats(page) == (accuracy, ui("site.stats.answered.value", answered=10, total=total))
    marks = page.locator("#question-list .q-status")
    assert marks.count() == 10 and page.locator("#question-list .q-status.wrong").count() == len(missed)

    # After a reload the progress is still there, and Weak questions offers exactly the missed ones.
    page.reload()
    assert stats(page) == (accuracy, ui("site.stats.answered.value", answered=10, total=total))
    assert weak.is_enabled() and not page.locator("#weak-status").is_visible()
    assert text(page, "#practice-weak-count") == ui("site.weak.count", count=len(missed))
    tab_to(page, "practice-weak")
    page.keyboard.press("Enter")
    assert text(page, "#quiz-title") == ui("site.weak.title")
    offered = []
    for index in range(len(missed)):
        assert text(page, "#quiz-count") == ui("site.quiz.progress", current=index + 1, total=len(missed))
        qid, position = answer_current(page, bank, right=True, key_style="digit")
        offered.append(qid)
        expect_feedback(page, bank, lang, options, qid, position, True)
        page.keyboard.press("Enter")
    assert sorted(offered) == sorted(missed)
    assert page.locator("#results-perfect").is_visible() and not page.locator("#retry-missed").is_visible()
    tab_to(page, "results-back")
    page.keyboard.press("Enter")
    assert weak.is_disabled() and text(page, "#weak-status") == ui("site.weak.none")
    assert stats(page)[0] == ui("site.stats.accuracy.value", percent=100)

    # Progress is kept per language: the other pages are untouched.
    other = next(code for code in LANGS if code != lang)
    page.goto((site / other / "index.html").as_uri())
    assert stats(page)[1] == " ".join(fill(ui_text(options, other, "site.stats.answered.value"), answered=0, total=total).split())
    page.goto((site / lang / "index.html").as_uri())

    # Reset, by keyboard, after a confirmation.
    tab_to(page, "reset")
    page.keyboard.press("Enter")
    assert page.locator("#reset-confirm").is_visible() and page.evaluate("document.activeElement.id") == "reset-no"
    tab_to(page, "reset-yes", backwards=True)
    page.keyboard.press("Enter")
    assert text(page, "#reset-status") == ui("site.reset.done")
    assert stats(page) == ("—", ui("site.stats.answered.value", answered=0, total=total))
    page.reload()
    assert stats(page)[1] == ui("site.stats.answered.value", answered=0, total=total) and weak.is_disabled()
    s.check_clean()


def test_retry_missed_and_practice_this_topic(session, site, banks, options):
    bank = banks["en"]
    s = session()
    page = s.page
    page.goto((site / "en" / "index.html").as_uri())
    page.click("#practice-10")
    missed = []
    for index in range(10):
        qid, _ = answer_current(page, bank, right=index % 3 != 0, key_style="digit")
        if index % 3 == 0:
            missed.append(qid)
        page.keyboard.press("Enter")
    page.click("#retry-missed")
    assert text(page, "#quiz-count") == f"Question 1 of {len(missed)}"
    retried = []
    for _ in missed:
        retried.append(answer_current(page, bank, right=True, key_style="letter")[0])
        page.click("#next")
    assert sorted(retried) == sorted(missed)
    page.click("#results-back")
    page.click("#practice-all")
    assert text(page, "#quiz-count") == f"Question 1 of {len(bank.questions)}"
    ids = set()
    orders = set()
    for _ in bank.questions:
        ids.add(page.locator("#question").get_attribute("data-qid"))
        orders.add(tuple(page.locator("#options .option").evaluate_all("els => els.map(e => e.dataset.option)")))
        answer_current(page, bank, right=True, key_style="digit")
        page.keyboard.press("Enter")
    assert ids == {q.id for q in bank.questions}
    assert len(orders) > 1, "options are never shuffled"
    assert text(page, "#results-score") == f"Your score: {len(bank.questions)} / {len(bank.questions)}"
    page.click("#results-back")
    assert stats(page) == ("100%", f"{len(bank.questions)} / {len(bank.questions)}")
    s.check_clean()


def test_quitting_keeps_answers_and_returns_focus(session, site, banks):
    s = session()
    page = s.page
    page.goto((site / "en" / "index.html").as_uri())
    tab_to(page, "practice-all")
    page.keyboard.press("Enter")
    answer_current(page, banks["en"], right=False, key_style="digit")
    tab_to(page, "quiz-quit", backwards=True)
    page.keyboard.press("Enter")
    assert page.locator("#topic").is_visible()
    assert page.evaluate("document.activeElement.id") == "practice-all"
    assert stats(page) == ("0%", f"1 / {len(banks['en'].questions)}")
    assert page.locator("#practice-weak").is_enabled()
    s.check_clean()


def test_the_index_follows_the_browser_language(session, site):
    s = session(locale="fr-FR")
    s.page.goto((site / "index.html").as_uri())
    s.page.wait_for_url(re.compile(r"/fr/index\.html$"))
    assert s.page.evaluate("document.documentElement.lang") == "fr"
    s.check_clean()

    s = session(locale="nl-BE")
    s.page.goto((site / "index.html").as_uri())
    s.page.wait_for_url(re.compile(r"/nl/index\.html$"))

    # A language the site does not have: the chooser stays, with plain links.
    s = session(locale="de-DE")
    s.page.goto((site / "index.html").as_uri())
    s.page.wait_for_timeout(300)
    assert s.page.url.endswith("/index.html") and "/de/" not in s.page.url and s.page.locator("main a").count() == 3
    shot(s.page, "site-index.png")

    # The language last visited wins over the browser's.
    s.page.goto((site / "nl" / "index.html").as_uri())
    s.page.goto((site / "index.html").as_uri())
    s.page.wait_for_url(re.compile(r"/nl/index\.html$"))
    s.check_clean()


def test_without_javascript_the_links_and_content_still_work(session, site, banks):
    s = session(java_script_enabled=False, locale="fr-FR")
    page = s.page
    page.goto((site / "index.html").as_uri())
    assert page.url.endswith("/index.html")
    page.click("main a[hreflang=nl]")
    assert page.url.endswith("/nl/index.html")
    assert page.locator("noscript").count() == 1
    assert page.locator("#practice-10").is_disabled()
    assert page.locator("#question-list li").count() == len(banks["nl"].questions)
    page.click("nav.languages a[hreflang=en]")
    assert page.url.endswith("/en/index.html")
    s.check_clean()


@pytest.mark.parametrize("lang", LANGS)
def test_phone_size_and_dark_mode(session, site, lang):
    s = session(viewport={"width": 360, "height": 740}, color_scheme="dark", has_touch=True, is_mobile=True)
    page = s.page
    page.goto((site / lang / "index.html").as_uri())
    overflow = "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    assert page.evaluate(overflow) <= 0
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(18, 20, 23)"
    shot(page, f"site-{lang}-topic-dark-phone.png")
    page.click("#practice-10")
    page.keyboard.press("1")
    assert page.evaluate(overflow) <= 0
    shot(page, f"site-{lang}-feedback-dark-phone.png")
    s.check_clean()

    light = session(color_scheme="light")
    light.page.goto((site / lang / "index.html").as_uri())
    assert light.page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(245, 246, 248)"


def test_a_hostile_stem_is_shown_as_text(session, tmp_path, banks):
    hostile = "<script>alert(1)</script> ]]> \"quotes\" 'single' <img src=x onerror=alert(2)>"
    english = banks["en"]
    first = english.questions[0].model_copy(update={"stem": hostile})
    option = first.options[0].model_copy(update={"text": hostile + " (a)"})
    first = first.model_copy(update={"options": [option, *first.options[1:]]})
    bank = english.model_copy(update={"questions": (first, *english.questions[1:])})
    folder = write_site(tmp_path, {"en": bank}, ExportOptions())
    s = session()
    page = s.page
    page.goto((folder / "en" / "index.html").as_uri())
    assert page.locator("#question-list li").first.inner_text() == hostile
    page.click("#practice-all")
    for _ in bank.questions:
        if page.locator("#question").get_attribute("data-qid") == first.id:
            break
        answer_current(page, bank, right=True, key_style="digit")
        page.keyboard.press("Enter")
    assert page.locator("#stem").inner_text() == hostile
    assert hostile + " (a)" in page.locator("#options .option-text").all_inner_texts()
    assert page.locator("#quiz img, #topic img").count() == 0
    page.keyboard.press("a")
    assert page.locator("#feedback").is_visible()
    s.check_clean()


def test_ui_strings_reach_the_page(session, tmp_path, banks):
    ui = {"fr": {"site.practice10.title": "S'entraîner sur 10 questions", "site.quiz.progress": "Question {current} sur {total}"}}
    folder = write_site(tmp_path, banks, ExportOptions(ui=ui))
    s = session()
    page = s.page
    page.goto((folder / "fr" / "index.html").as_uri())
    page.click("#practice-10")
    assert text(page, "#quiz-title") == "S'entraîner sur 10 questions"
    assert text(page, "#quiz-count") == "Question 1 sur 10"
    assert text(page, "#quiz-quit") == UI_STRINGS["site.quiz.quit"]
    s.check_clean()
