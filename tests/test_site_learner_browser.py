"""The practice site as learners meet it, in Chromium from file://: what used to go wrong.

Focus that stays visible, a phone tap that keeps the option on screen, shortcuts confined to
the options (WCAG 2.1.4), a visible h1 on every view, Escape, arrow keys, the browser's Back
during a quiz and after choosing a language, one verdict line per answer with the feedback of
every option, accuracy counters that say what they count, progress kept from the previous
version of the site, and a run that survives a reload of its tab.
"""

from __future__ import annotations

import json
import re
from datetime import datetime, timedelta, timezone

import pytest

from sitebrowser import browser, session  # noqa: F401  (fixtures)
from sitebrowser import (
    DESKTOP, PHONE, Session, active_id, blank_page, bundled_site, correct_position, download_answers, focus_is_visible, focused_in_view, in_view, kept_session, load_banks,
    load_options, needs_chromium, squash, sync_api, tab_into_options, tab_to, text, ui,
)

expect = sync_api.expect

pytestmark = needs_chromium


@pytest.fixture(scope="module")
def banks():
    return load_banks()


@pytest.fixture(scope="module")
def options():
    return load_options()


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    return bundled_site(tmp_path_factory)


@pytest.fixture
def desktop(session):
    """The kept desktop page of this test process, reset (sitebrowser.session)."""
    return session(**DESKTOP)


@pytest.fixture
def phone(session):
    return session(**PHONE)


@pytest.fixture
def fresh_desktop(session):
    """A fresh desktop browser context, for a test that installs a clock or an init script
    (both stay with the context)."""
    return session(fresh=True, **DESKTOP)


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


def test_back_after_choosing_a_language_leaves_the_chooser(session, site):
    s = session(locale="de-DE", **DESKTOP)  # a kept page starts, as a fresh one, at about:blank alone
    page = s.page
    page.goto((site / "index.html").as_uri())
    page.click("main a[hreflang=fr]")
    assert page.url.endswith("/fr/index.html")
    page.go_back()
    assert page.url == "about:blank", page.url
    s.check_clean()


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


# --- Progress from the previous version of the site -----------------------------------------------

FULL_STORAGE = """(() => {
  if (!new URLSearchParams(location.search).has("test-full")) return;
  const setItem = Storage.prototype.setItem;
  Storage.prototype.setItem = function (key, value) {
    if (this === window.localStorage && String(key).endsWith("/answers")) throw new DOMException("full", "QuotaExceededError");
    return setItem.call(this, key, value);
  };
})();"""
"""On a page loaded with `?test-full`, localStorage refuses to store answer histories. (A flag in
sessionStorage set just before a reload could reach the reloaded page too late: its write is
committed to the browser asynchronously.)"""


def old_progress(last: dict) -> str:
    """Progress as the previous version stored it: `JSON.stringify({ version: 1, last: last })`, 1 right and 0 wrong."""
    return json.dumps({"version": 1, "last": last}, separators=(",", ":"))


def local_keys(page) -> list[str]:
    return sorted(page.evaluate("Object.keys(localStorage)"))


def test_progress_from_the_previous_version_is_kept(fresh_desktop, site, banks, options):
    desktop = fresh_desktop
    bank = banks["en"]
    topic = bank.topic.id
    ids = [q.id for q in bank.questions]
    total = len(ids)
    answers_key, old_en, old_fr = f"aistack-bank/{topic}/answers", f"aistack-bank/{topic}/en", f"aistack-bank/{topic}/fr"
    # The old page kept one mark per question and language; it dropped unknown ids and values when reading.
    en_marks = {ids[4]: 0, ids[0]: 1, ids[1]: 0, ids[2]: 1, ids[3]: 1, "q-gone": 0, ids[5]: 2}
    fr_marks = {ids[6]: 0, ids[7]: 1}
    start = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)
    desktop.page.clock.install(time=start)
    desktop.context.add_init_script(script=FULL_STORAGE)
    page = open_topic(desktop, site)
    assert local_keys(page) == ["aistack-bank/lang"]  # a fresh profile: the first load wrote nothing else
    page.evaluate("(items) => items.forEach(([k, v]) => localStorage.setItem(k, v))", [[old_en, old_progress(en_marks)], [old_fr, old_progress(fr_marks)]])

    def figures():
        return text(page, "#stat-last"), text(page, "#stat-alltime"), text(page, "#stat-answered")

    expected = (ui(options, "en", "site.stats.accuracy.value", percent=60),) * 2 + (ui(options, "en", "site.stats.answered.value", answered=5, total=total),)

    # Storage full: the marks show, and the old progress stays where it is until the new history is written.
    url = page.url
    page.goto(url + "?test-full")
    assert figures() == expected
    assert local_keys(page) == sorted(["aistack-bank/lang", old_en, old_fr])

    page.goto(url)
    assert figures() == expected
    assert local_keys(page) == sorted(["aistack-bank/lang", answers_key])
    due = sorted(page.locator("#question-list li:has(.due-tag)").evaluate_all("els => els.map(e => e.dataset.qid)"))
    assert due == sorted([ids[1], ids[4]])  # what was wrong is due now, what was right comes back later
    assert text(page, "#practice-weak-count") == ui(options, "en", "site.weak.count", count=2)
    for qid in (ids[0], ids[2], ids[3]):
        assert datetime.fromtimestamp(int(page.get_attribute(f"#list-{qid}", "data-due")) / 1000, tz=timezone.utc) > start + timedelta(hours=12)

    def migrated(qid, lang, right):
        return {"question": qid, "language": lang, "choice": bank.question(qid).correct if right else None, "correct": right,
                "answered_at": None, "attempt": None, "migrated": True}

    old = [migrated(ids[i], "en", i in (0, 2, 3)) for i in (0, 1, 2, 3, 4)] + [migrated(ids[6], "fr", False), migrated(ids[7], "fr", True)]
    exported = download_answers(page)
    assert exported["answers"] == old

    # New answers follow the migrated ones, with their own times; a reload migrates nothing twice.
    page.click("#practice-weak")
    qid, correct, _ = correct_position(page, bank)
    page.locator("#options .option").nth(correct).click()
    page.click("#quiz-quit")
    page.wait_for_function("() => !(history.state && history.state.view)")  # Quit's own Back, before the reload
    page.reload()
    assert figures() == (ui(options, "en", "site.stats.accuracy.value", percent=80), ui(options, "en", "site.stats.accuracy.value", percent=67),
                         ui(options, "en", "site.stats.answered.value", answered=5, total=total))
    answers = download_answers(page)["answers"]
    assert answers[:-1] == old
    assert answers[-1]["question"] == qid and answers[-1]["correct"] is True and "migrated" not in answers[-1]
    assert answers[-1]["answered_at"].startswith("2026-03-02T09:")

    page.goto((site / "fr" / "index.html").as_uri())
    assert text(page, "#stat-last") == ui(options, "fr", "site.stats.accuracy.value", percent=50)
    assert text(page, "#stat-answered") == ui(options, "fr", "site.stats.answered.value", answered=2, total=total)

    # A tab of the previous version left open writes its marks again, one more among them: only that one is new.
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [old_fr, old_progress({**fr_marks, ids[8]: 1})])
    page.reload()
    assert text(page, "#stat-answered") == ui(options, "fr", "site.stats.answered.value", answered=3, total=total)
    assert download_answers(page)["answers"] == old + [migrated(ids[8], "fr", True)] + answers[-1:]
    assert local_keys(page) == sorted(["aistack-bank/lang", "aistack-bank/learner", answers_key])
    desktop.check_clean()


# --- A run in progress survives a reload of its tab -------------------------------------------------

def shown_question(page) -> tuple[str, list[str], str]:
    return (page.locator("#question").get_attribute("data-qid"),
            page.locator("#options .option").evaluate_all("els => els.map(e => e.dataset.option)"), text(page, "#quiz-count"))


def run_key(page) -> list[str]:
    return [key for key in page.evaluate("Object.keys(sessionStorage)") if key.startswith("aistack-bank/")]


def test_a_run_started_at_once_after_quit_keeps_history_in_step(desktop, site):
    # Quit goes back in history (the browser does it after the click has returned); a new run
    # started before that Back has happened must still be the entry Back leaves and Forward
    # brings back, and Back must not leave the topic's page.
    page = open_topic(desktop, site)
    url = page.url
    page.click("#practice-all")
    expect(page.locator("#quiz")).to_be_visible()
    page.evaluate("() => { document.getElementById('quiz-quit').click(); document.getElementById('practice-10').click(); }")
    expect(page.locator("#quiz")).to_be_visible()
    page.wait_for_function("() => history.state && history.state.view === 'quiz'")
    page.wait_for_timeout(300)  # the Back of Quit, if it were still to come, lands in this time
    expect(page.locator("#quiz")).to_be_visible()
    run = page.evaluate("() => history.state.attempt")
    page.go_back()
    expect(page.locator("#topic")).to_be_visible()
    assert page.url == url
    expect(page.locator("#resume")).to_be_visible()
    page.go_forward()
    expect(page.locator("#quiz")).to_be_visible()
    assert page.evaluate("() => history.state.attempt") == run
    desktop.check_clean()


def test_back_forward_and_reload_keep_the_run_in_progress(fresh_desktop, site, banks, options):
    desktop = fresh_desktop
    bank = banks["en"]
    page = desktop.page
    start = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)
    page.clock.install(time=start)
    page = open_topic(desktop, site)
    url = page.url
    page.click("#practice-10")
    seen = []
    for right in (True, False):
        qid, correct, shown = correct_position(page, bank)
        seen.append(qid)
        page.locator("#options .option").nth(correct if right else (correct + 1) % len(shown)).click()
        page.click("#next")
    before = shown_question(page)
    assert before[2] == "Question 3 of 10"

    # The browser's Back keeps the run; Resume and Forward bring it back as it was. Back and
    # Forward return once the history entry is reached: the view each one leads to is awaited
    # (an auto-retrying assertion) before anything is read or the next step taken.
    page.go_back()
    expect(page.locator("#topic")).to_be_visible()
    expect(page.locator("#resume")).to_be_visible()
    assert page.url == url
    page.click("#resume")
    assert shown_question(page) == before
    page.go_back()
    expect(page.locator("#topic")).to_be_visible()
    page.go_forward()
    expect(page.locator("#quiz")).to_be_visible()
    assert shown_question(page) == before

    # Reloaded on a question: the same question, the same order of options, focus in the options.
    page.clock.fast_forward(3 * 60_000)
    page.reload()
    assert page.locator("#quiz").is_visible() and text(page, "#quiz-title") == ui(options, "en", "site.practice10.title")
    assert shown_question(page) == before
    assert page.evaluate("!!document.activeElement.closest('#options')")

    # Reloaded after answering: the verdict and the feedback are back; the answer is stored once.
    qid, correct, shown = correct_position(page, bank)
    seen.append(qid)
    page.locator("#options .option").nth(correct).click()
    page.reload()
    assert page.locator("#feedback").is_visible() and "is-right" in page.locator("#verdict").get_attribute("class")
    assert page.locator("#options .option.is-correct").get_attribute("data-option") == bank.question(qid).correct
    page.click("#next")

    # Back to the topic, reload there: the run can still be resumed, with the button or Forward.
    page.go_back()
    expect(page.locator("#topic")).to_be_visible()
    page.reload()
    assert page.locator("#topic").is_visible() and page.locator("#resume").is_visible()
    assert "4" in text(page, "#resume")
    page.go_forward()
    expect(page.locator("#quiz")).to_be_visible()
    assert text(page, "#quiz-count") == "Question 4 of 10"
    while page.locator("#quiz").is_visible():
        qid, correct, _ = correct_position(page, bank)
        seen.append(qid)
        page.locator("#options .option").nth(correct).click()
        page.click("#next")

    # The results cover the whole run, its time counted from the first start.
    assert page.locator("#results").is_visible()
    assert text(page, "#results-score") == ui(options, "en", "site.result.score", score=9, total=10)
    assert page.locator("#results-review > li").evaluate_all("els => els.map(e => e.dataset.qid)") == seen
    minutes = re.fullmatch(r"Time taken: (\d+) min \d+ s", text(page, "#results-time"))
    assert minutes and int(minutes[1]) >= 3, text(page, "#results-time")

    # A finished run is gone: a reload shows the topic, nothing to resume; each answer was stored once.
    assert run_key(page) == []
    page.reload()
    assert page.locator("#topic").is_visible() and not page.locator("#resume").is_visible()
    assert [a["question"] for a in download_answers(page)["answers"]] == seen

    # So is an abandoned one; and a run belongs to its tab only.
    page.click("#practice-all")
    assert len(run_key(page)) == 1
    other = desktop.context.new_page()
    other.goto(page.url)
    assert other.locator("#topic").is_visible() and not other.locator("#resume").is_visible()
    other.close()
    page.click("#quiz-quit")
    assert run_key(page) == []
    # Quit goes back in the tab's history too (the page calls history.back(), which the browser
    # carries out after the click has returned): wait for it, or the reload may race it.
    page.wait_for_function("() => !(history.state && history.state.view)")
    page.reload()
    assert page.locator("#topic").is_visible() and not page.locator("#resume").is_visible()
    desktop.check_clean()


LANGUAGE = "[navigator.languages, Intl.DateTimeFormat().resolvedOptions().locale]"
"""The browser's language as a page sees it."""


def test_a_kept_page_starts_as_a_fresh_one(browser, session, site, tmp_path_factory):
    """The pages kept between tests (sitebrowser.session) are reset: what a test leaves behind
    (answers and a run in storage, history, a dark scheme, a browser language, another tab, a
    dialog, an error, JavaScript off) reaches no later test."""
    s = session(java_script_enabled=False, **DESKTOP)
    page = open_topic(s, site)
    assert page.locator("#practice-10").is_disabled()  # as the page is without its script
    s = session(color_scheme="dark", locale="nl-BE", **DESKTOP)  # the same page, reset: the rest needs the script
    page = open_topic(s, site)
    assert page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
    assert page.evaluate(LANGUAGE) == [["nl-BE"], "nl-BE"]
    page.click("#practice-all")
    page.keyboard.press("1")
    assert local_keys(page) != ["aistack-bank/lang"] and run_key(page)
    s.context.new_page()
    with page.expect_event("pageerror"):
        page.evaluate("() => { setTimeout(() => { throw new Error('left behind') }, 0); }")
    assert s.errors
    again = kept_session(browser, blank_page(tmp_path_factory), **DESKTOP)
    assert again is s and again.context.pages == [again.page]
    assert again.page.evaluate("[history.length, matchMedia('(prefers-color-scheme: dark)').matches]") == [1, False]
    page = open_topic(again, site)
    assert local_keys(page) == ["aistack-bank/lang"] and run_key(page) == []  # what a first load writes
    languages, intl = page.evaluate(LANGUAGE)
    assert "nl-BE" not in languages and intl != "nl-BE", (languages, intl)  # the browser's own language again
    assert page.evaluate("history.length") == 2  # about:blank, then the page
    again.check_clean()
