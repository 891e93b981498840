"""The practice site as learners meet it, in Chromium from file://: what used to go wrong.

Focus that stays visible, a phone tap that keeps the option on screen, shortcuts confined to
the options (WCAG 2.1.4), a visible h1 on every view, Escape, arrow keys, the browser's Back
during a quiz and after choosing a language, one verdict line per answer with the feedback of
every option, and accuracy counters that say what they count.
"""

from __future__ import annotations

import pytest

from sitebrowser import (
    DESKTOP, PHONE, Session, active_id, correct_position, focus_is_visible, focused_in_view, in_view, launch, load_banks,
    load_options, needs_chromium, squash, sync_api, tab_into_options, tab_to, text, ui, write_site,
)

pytestmark = needs_chromium


@pytest.fixture(scope="module")
def banks():
    return load_banks()


@pytest.fixture(scope="module")
def options():
    return load_options()


@pytest.fixture(scope="module")
def site(tmp_path_factory, banks, options):
    return write_site(tmp_path_factory.mktemp("site"), banks, options)


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        browser = launch(p)
        yield browser
        browser.close()


@pytest.fixture
def desktop(browser):
    s = Session(browser, **DESKTOP)
    yield s
    s.close()


@pytest.fixture
def phone(browser):
    s = Session(browser, **PHONE)
    yield s
    s.close()


def open_topic(s: Session, site, lang: str = "en"):
    s.page.goto((site / lang / "index.html").as_uri())
    return s.page


def test_focus_stays_visible_after_answering_by_keyboard(desktop, site, banks):
    page = open_topic(desktop, site)
    tab_to(page, "practice-all")
    page.keyboard.press("Enter")
    for _ in range(6):  # long and short questions alike
        tab_into_options(page)
        page.keyboard.press("Enter")
        assert page.locator("#feedback").is_visible()
        assert focus_is_visible(page) and focused_in_view(page), f"focus on #{active_id(page)} is off-screen"
        page.keyboard.press("Enter")
        assert focused_in_view(page)
    desktop.check_clean()


def test_a_tap_on_a_phone_keeps_the_option_in_view_and_next_reachable(phone, site, banks):
    page = open_topic(phone, site)
    page.tap("#practice-all")
    for _ in range(4):
        _, correct, shown = correct_position(page, banks["en"])
        last = page.locator("#options .option").nth(len(shown) - 1)
        last.scroll_into_view_if_needed()
        last.tap()
        assert last.evaluate("el => { const r = el.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight; }"), "the tapped option scrolled away"
        assert in_view(page, "#next"), "Next is not on screen"
        page.tap("#next")
    phone.check_clean()


def test_single_key_shortcuts_work_only_in_the_options(desktop, site):
    page = open_topic(desktop, site)
    page.click("#practice-10")
    page.focus("#quiz-quit")
    page.keyboard.press("b")
    page.keyboard.press("2")
    assert not page.locator("#feedback").is_visible() and page.locator("#quiz").is_visible()
    tab_into_options(page)
    page.keyboard.press("b")
    assert page.locator("#feedback").is_visible()
    desktop.check_clean()


def test_every_view_has_one_visible_h1(desktop, site, banks):
    page = open_topic(desktop, site)
    assert page.locator("h1:visible").count() == 1
    page.click("#practice-10")
    assert page.locator("h1:visible").count() == 1 and text(page, "h1:visible") == "Practice 10 questions"
    for _ in range(10):
        _, correct, _ = correct_position(page, banks["en"])
        page.locator("#options .option").nth(correct).click()
        assert page.locator("h1:visible").count() == 1
        page.click("#next")
    assert page.locator("#results").is_visible() and page.locator("h1:visible").count() == 1
    desktop.check_clean()


def test_escape_closes_the_reset_dialog_and_leaves_a_quiz(desktop, site):
    page = open_topic(desktop, site)
    page.click("#practice-all")
    tab_into_options(page)
    page.keyboard.press("Enter")
    page.keyboard.press("Escape")
    assert page.locator("#topic").is_visible() and not page.locator("#quiz").is_visible()
    assert active_id(page) == "practice-all"
    page.click("#reset")
    assert page.locator("#reset-yes").is_visible()
    page.keyboard.press("Escape")
    assert not page.locator("#reset-yes").is_visible() and active_id(page) == "reset"
    assert text(page, "#stat-answered").startswith("1")  # nothing was erased
    desktop.check_clean()


def test_arrow_keys_move_between_options_like_a_radio_group(desktop, site):
    page = open_topic(desktop, site)
    page.click("#practice-10")
    tab_into_options(page)
    assert page.get_attribute("#options", "role") == "radiogroup"
    radios = page.locator("#options [role=radio]")
    count = radios.count()
    assert count >= 3
    assert page.evaluate("document.activeElement.getAttribute('role')") == "radio"
    first = page.evaluate("document.activeElement.dataset.option")
    page.keyboard.press("ArrowDown")
    second = page.evaluate("document.activeElement.dataset.option")
    assert second != first and not page.locator("#feedback").is_visible()
    page.keyboard.press("ArrowUp")
    assert page.evaluate("document.activeElement.dataset.option") == first
    page.keyboard.press("ArrowUp")  # wraps to the last
    assert page.evaluate("document.activeElement.dataset.option") == radios.nth(count - 1).get_attribute("data-option")
    # One tab stop: Tab leaves the group.
    page.keyboard.press("Tab")
    assert not page.evaluate("!!document.activeElement.closest('#options')")
    tab_into_options(page)
    page.keyboard.press("Space")
    assert page.locator("#feedback").is_visible()
    assert page.locator("#options [role=radio][aria-checked=true]").count() == 1
    desktop.check_clean()


def test_the_browser_back_button_keeps_the_attempt(desktop, site, banks):
    page = open_topic(desktop, site)
    url = page.url
    page.click("#practice-10")
    seen = []
    for _ in range(2):
        qid, correct, _ = correct_position(page, banks["en"])
        seen.append(qid)
        page.locator("#options .option").nth(correct).click()
        page.click("#next")
    page.go_back()
    assert page.url == url and page.locator("#topic").is_visible()
    assert page.locator("#resume").is_visible()
    page.click("#resume")
    assert text(page, "#quiz-count") == "Question 3 of 10"
    page.go_back()
    page.go_forward()
    assert page.locator("#quiz").is_visible() and text(page, "#quiz-count") == "Question 3 of 10"
    desktop.check_clean()


def test_back_after_choosing_a_language_leaves_the_chooser(browser, site):
    s = Session(browser, locale="de-DE", **DESKTOP)
    try:
        page = s.page
        page.goto((site / "index.html").as_uri())
        page.click("main a[hreflang=fr]")
        assert page.url.endswith("/fr/index.html")
        page.go_back()
        assert page.url == "about:blank", page.url
        s.check_clean()
    finally:
        s.close()


def test_one_verdict_line_and_the_feedback_of_every_option(desktop, site, banks, options):
    bank = banks["en"]
    page = open_topic(desktop, site)
    page.click("#practice-all")
    for right in (True, False):
        qid, correct, shown = correct_position(page, bank)
        question = bank.question(qid)
        picked = correct if right else (correct + 1) % len(shown)
        page.locator("#options .option").nth(picked).click()
        verdicts = page.locator("#quiz .verdict:visible")
        assert verdicts.count() == 1
        assert squash(verdicts.inner_text()).endswith(ui(options, "en", "site.feedback.right" if right else "site.feedback.wrong"))
        body = squash(page.locator("#feedback").inner_text())
        assert ("Correct answer" in body) is (not right)
        chosen = question.options[[o.id for o in question.options].index(shown[picked])]
        assert body.count(squash(chosen.feedback)) == 1
        page.locator("#feedback .other-options summary").click()
        body = squash(page.locator("#feedback").inner_text())
        for option in question.options:
            assert squash(option.feedback) in body, option.id
        page.click("#next")
    desktop.check_clean()


def test_accuracy_counters_say_what_they_count(desktop, site, banks, options):
    bank = banks["en"]
    page = open_topic(desktop, site)
    page.click("#practice-all")
    qid, correct, shown = correct_position(page, bank)
    page.locator("#options .option").nth((correct + 1) % len(shown)).click()
    page.click("#quiz-quit")
    page.click("#practice-weak")
    assert page.locator("#question").get_attribute("data-qid") == qid
    page.locator("#options .option").nth(correct_position(page, bank)[1]).click()
    page.click("#next")
    page.click("#results-back")
    assert text(page, "#stat-last-label") == ui(options, "en", "site.stats.last")
    assert text(page, "#stat-alltime-label") == ui(options, "en", "site.stats.alltime")
    assert text(page, "#stat-last") == "100%"
    assert text(page, "#stat-alltime") == "50%"
    desktop.check_clean()
