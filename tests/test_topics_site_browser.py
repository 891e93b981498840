"""The practice site of a bank of several topics, in a browser: the home page lists the
categories and their topics, the "other topics" links lead to the other topics of the category,
and an answer given on a category page counts on the home page for its topic."""

from __future__ import annotations

from pathlib import PurePosixPath

import pytest

from aistack_bank.build import render
from aistack_bank.options import ExportOptions

from sitebrowser import browser, session  # noqa: F401  (fixtures)
from sitebrowser import DESKTOP, needs_chromium, sync_api
from topics_sample import CATEGORIES, libraries

pytestmark = needs_chromium
expect = sync_api.expect


@pytest.fixture(scope="module")
def libs():
    return libraries()


@pytest.fixture(scope="module")
def site(tmp_path_factory, libs):
    folder = tmp_path_factory.mktemp("topics-site")
    for rel, data in render(["html"], libs, ExportOptions())["html"].items():
        path = folder / str(PurePosixPath(rel))
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return folder


def test_home_other_topics_and_category_practice(session, site, libs):
    s = session(**DESKTOP)
    page = s.page
    fr = libs["fr"]
    page.goto((site / "fr" / "index.html").as_uri())
    assert page.locator(".home-category h2").all_inner_texts() == [c.title for c in fr.categories]
    assert page.locator(".home-category .topic > a").all_inner_texts() == [b.topic.title for b in fr.topics]

    # Home → a topic → another topic of its category, by the page's own links. A click on a link
    # returns once the next page has started to arrive, not once it is all there: what follows
    # each one waits for the page (an auto-retrying assertion) instead of reading it at once.
    first = fr.topics_in(CATEGORIES[1])[0]
    page.locator(f'.topic[data-topic="{first.topic.id}"] > a').click()
    expect(page.locator("h1#topic-title")).to_have_text(first.topic.title, use_inner_text=True)
    others = [b.topic.title for b in fr.topics_in(CATEGORIES[1])[1:]]
    expect(page.locator("ul.other-topics a")).to_have_text(others, use_inner_text=True)
    page.locator("ul.other-topics a").nth(1).click()
    expect(page.locator("h1#topic-title")).to_have_text(others[1], use_inner_text=True)

    # The category page practises every question of the category; an answer counts for its topic.
    page.locator("a.button", has_text=fr.category(CATEGORIES[1]).title).click()
    expect(page.locator("h1#topic-title")).to_have_text(fr.category(CATEGORIES[1]).title, use_inner_text=True)
    page.locator("#practice-all").click()
    stem = page.locator("#stem").inner_text()
    answered = next(q for q in fr.questions if q.stem == stem)
    page.locator("#options .option").first.click()
    page.locator("#verdict").wait_for()
    topic = fr.topic_of(answered.id).topic.id
    page.locator("#quiz-quit").click()
    page.locator(".home-link").click()
    # The home page is served showing "0 / 5" and its script fills in what this browser kept:
    # wait for that, as a learner would, rather than read the figure before the script ran.
    expect(page.locator(f'[data-progress="{topic}"]')).to_have_text("1 / 5")
    assert page.locator(f'[data-progress]:not([data-progress="{topic}"])', has_text="1 / 5").count() == 0
    s.check_clean()
