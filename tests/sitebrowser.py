"""Shared helpers of the practice-site browser tests (Playwright driving Debian's Chromium).

One Chromium serves every test module of a test process (conftest.chromium, started by the
first browser test). A test that only needs a clean page gets the page of its test process kept
for its context's settings (``session``: viewport, phone), reset between tests: history and
storage cleared, colour scheme, browser language, JavaScript and mouse put back. The colour
scheme, the browser's language (``locale``) and JavaScript off are emulated on the kept page, not
made a context of their own. A fresh browser context with its page (a new renderer process) costs
0.5-1.2 s of CPU; the reset, about a tenth of that. A test that changes what a context carries
into later pages (a clock or an init script) asks for ``session(fresh=True, ...)`` and closes it. The bundled bank and its
practice site are read and written once per test process (bundled_site), for the modules that
only read them. Tests keep the number of page loads, browser contexts and round trips small.
With AISTACK_BANK_TEST_SCREENSHOTS=1, screenshots of each view go to test-artifacts/ at the
repository root (git-ignored).
"""

from __future__ import annotations

import functools
import json
import os
import time
from pathlib import Path

import pytest

from aistack_bank.build import load_localized, load_ui_texts
from aistack_bank.exporters.html_site import export, fill, ui_text
from aistack_bank.model import Bank
from aistack_bank.options import ExportOptions

from conftest import REPO, SAMPLE

# In CI (.ci/run installs Chromium and Playwright) a missing browser is a failure, not a skip.
IN_CI = bool(os.environ.get("CI"))
if IN_CI:
    import playwright.sync_api as sync_api
else:
    sync_api = pytest.importorskip("playwright.sync_api")

# The auto-retrying assertions (expect) wait as long as actions do (Session's default timeout):
# their own default, 5 s, is short for a loaded two-core machine. A failing one fails after that.
sync_api.expect.set_options(timeout=30000)

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"]
LANGS = ["en", "fr", "nl"]
ARTIFACTS = REPO / "test-artifacts"
AXE = REPO / "tests" / "data" / "axe-core" / "axe.min.js"
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}

needs_chromium = pytest.mark.skipif(not CHROMIUM.exists() and not IN_CI, reason="needs Chromium at /usr/bin/chromium (apt install chromium)")


@functools.cache
def _bundled_banks() -> dict[str, Bank]:
    return load_localized(REPO / "bank", REPO / "translations", LANGS)[0]


def load_banks() -> dict[str, Bank]:
    """The bundled bank in each of LANGS, read once per test process (its models are frozen;
    each caller gets a dict of its own)."""
    return dict(_bundled_banks())


@functools.cache
def load_options() -> ExportOptions:
    """The site's interface strings as `bank build` reads them, once per test process (frozen)."""
    texts, problems = load_ui_texts(REPO / "translations", LANGS)
    assert not problems
    return ExportOptions(ui=texts)


def sample_bank(bank: Bank) -> Bank:
    """``bank`` cut to conftest.SAMPLE (twelve questions, both of the topic's groups whole), for
    tests that walk a run question by question and are about what the page does, not about fifty
    questions."""
    return bank.model_copy(update={"questions": tuple(q for q in bank.questions if q.id in SAMPLE)})


_SITE: list[Path] = []


def bundled_site(tmp_path_factory) -> Path:
    """The practice site of the bundled bank in LANGS, written once per test process for every
    module that only reads it (a test that needs other pages writes its own)."""
    if not _SITE:
        _SITE.append(write_site(tmp_path_factory.mktemp("site"), load_banks(), load_options()))
    return _SITE[0]


def write_site(folder: Path, banks, options) -> Path:
    for rel, data in export(banks, options).items():
        path = folder / str(rel)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return folder


def launch(playwright):
    return playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)


class Session:
    """A browser profile (context) with a page that records requests and console errors."""

    def __init__(self, browser, **context_options):
        self.color_scheme = context_options.get("color_scheme", "light")
        self.locale = context_options.get("locale")
        self.java_script_enabled = context_options.get("java_script_enabled", True)
        self._emulation = None
        self.context = browser.new_context(**context_options)
        self.page = self.context.new_page()
        # Generous: a loaded two-core machine (the suite runs on every core) takes seconds to
        # paint a full-page screenshot; a broken page fails on its assertions, not on time.
        self.page.set_default_timeout(30000)
        self.requests: list[str] = []
        self.errors: list[str] = []
        self.dialogs: list[str] = []
        self.context.on("request", lambda request: self.requests.append(request.url))
        self.page.on("console", lambda message: message.type == "error" and self.errors.append(message.text))
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("dialog", lambda dialog: (self.dialogs.append(dialog.message), dialog.dismiss()))

    def check_clean(self) -> None:
        offsite = [url for url in self.requests if not url.startswith(("file://", "data:", "blob:"))]
        assert not offsite, f"network requests: {offsite}"
        assert not self.errors, f"console errors (CSP violations?): {self.errors}"
        assert not self.dialogs

    def close(self) -> None:
        self.context.close()

    def emulate(self, locale: str | None = None, java_script_enabled: bool = True) -> None:
        """The browser's language, and JavaScript off, on the kept page from its next load on, set
        as Playwright sets a context's ``locale`` and ``java_script_enabled=False`` on each of its
        pages in Chromium (Emulation.setLocaleOverride and Emulation.setUserAgentOverride's
        acceptLanguage: navigator.language(s), Intl's default locale; Emulation.
        setScriptExecutionDisabled), through a DevTools session of its own; detaching that session
        ends them all, which puts the browser's own language and JavaScript back (the defaults).
        Only the kept page has them: a test that opens other pages in a language or without
        JavaScript asks for a fresh context."""
        if self._emulation is not None:
            self._emulation.detach()
            self._emulation = None
        if locale or not java_script_enabled:
            cdp = self.context.new_cdp_session(self.page)
            if locale:
                cdp.send("Emulation.setLocaleOverride", {"locale": locale})
                cdp.send("Emulation.setUserAgentOverride", {"userAgent": "", "acceptLanguage": locale})
            if not java_script_enabled:
                cdp.send("Emulation.setScriptExecutionDisabled", {"value": True})
            self._emulation = cdp
        self.locale, self.java_script_enabled = locale, java_script_enabled

    def reset(self, blank: Path, color_scheme: str = "light", **emulated) -> None:
        """Make the kept page as a fresh one for the next test: other pages closed, storage of the
        file:// pages cleared (local and session: the site keeps nothing else), back/forward
        history emptied, colour scheme, browser language, JavaScript and mouse back, nothing
        recorded; then the colour scheme, language and JavaScript asked for (``emulate``)."""
        for other in self.context.pages:
            if other is not self.page:
                other.close()
        self.emulate()
        self.page.goto(blank.as_uri())
        page_now = self.page.evaluate("localStorage.clear(); sessionStorage.clear(); Date.now()")
        # a clock installed by a test lives on in the context: such a test asks for a fresh one
        assert abs(page_now / 1000 - time.time()) < 600, "a clock was installed on a kept page: use session(fresh=True)"
        self.page.goto("about:blank")
        cdp = self.context.new_cdp_session(self.page)
        try:
            cdp.send("Page.resetNavigationHistory")
        finally:
            cdp.detach()
        self.page.emulate_media(color_scheme=color_scheme)
        self.page.mouse.move(0, 0)
        self.color_scheme = color_scheme
        self.emulate(**emulated)
        self.requests.clear()
        self.errors.clear()
        self.dialogs.clear()


KEPT = frozenset({"viewport", "device_scale_factor", "is_mobile", "has_touch", "locale", "color_scheme", "java_script_enabled"})
"""The context settings a kept page may have."""
EMULATED = frozenset({"locale", "color_scheme", "java_script_enabled"})
"""The settings emulated on a kept page (not part of which page is kept): the colour scheme, the
browser's language and JavaScript off. Each language had a browser context of its own before,
about 1 s of CPU for a page or two."""

_KEPT: dict[tuple, Session] = {}
"""The kept pages of this test process, by browser and context settings."""


def kept_key(context_options: dict) -> str:
    return json.dumps({k: v for k, v in context_options.items() if k not in EMULATED}, sort_keys=True)


def kept_session(browser, blank: Path, **context_options) -> Session:
    """The kept page of this test process for these settings, reset (made on first use)."""
    key = (id(browser), kept_key(context_options))
    kept = _KEPT.get(key)
    if kept is None or kept.page.is_closed() or not browser.is_connected():
        kept = _KEPT[key] = Session(browser, **{k: v for k, v in context_options.items() if k not in EMULATED})
    kept.reset(blank, context_options.get("color_scheme", "light"), locale=context_options.get("locale"),
               java_script_enabled=context_options.get("java_script_enabled", True))
    return kept


SCREENSHOTS = os.environ.get("AISTACK_BANK_TEST_SCREENSHOTS") == "1"
"""Screenshots are taken only when asked for: they are for a person to look at, no test reads
them, and the thirty-odd of test_site_browser.py took a fifth of its time."""


def shot(page, name: str, *, full_page: bool = True) -> None:
    if not SCREENSHOTS:
        return
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name), full_page=full_page, timeout=60000)


def text(page, selector: str) -> str:
    return " ".join(page.locator(selector).inner_text().split())


def squash(value: str) -> str:
    return " ".join(value.split())


def ui(options: ExportOptions, lang: str, key: str, **values) -> str:
    return squash(fill(ui_text(options, lang, key), **values))


def active_id(page) -> str:
    return page.evaluate("document.activeElement ? document.activeElement.id : ''")


def tab_to(page, element_id: str, *, backwards: bool = False, limit: int = 80) -> None:
    """Press Tab (or Shift+Tab) until the element is focused: keyboard only, no clicks."""
    for _ in range(limit):
        if active_id(page) == element_id:
            return
        page.keyboard.press("Shift+Tab" if backwards else "Tab")
    raise AssertionError(f"#{element_id} cannot be reached with the keyboard")


def tab_into_options(page, limit: int = 40) -> None:
    for _ in range(limit):
        if page.evaluate("!!(document.activeElement && document.activeElement.closest('#options'))"):
            return
        page.keyboard.press("Tab")
    raise AssertionError("the options cannot be reached with the keyboard")


def focus_is_visible(page) -> bool:
    return page.evaluate("(() => { const s = getComputedStyle(document.activeElement); return s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2; })()")


IN_VIEW = """(el) => {
  const r = el.getBoundingClientRect();
  if (!r.width || !r.height) return false;
  if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth) return false;
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return !!hit && (hit === el || el.contains(hit));
}"""
"""Whether an element is wholly inside the viewport and not covered by another one."""


def in_view(page, selector: str) -> bool:
    return page.locator(selector).evaluate(IN_VIEW)


def focused_in_view(page) -> bool:
    return page.evaluate(f"({IN_VIEW})(document.activeElement)")


def correct_position(page, bank: Bank) -> tuple[str, int, list[str]]:
    """The question on screen: its id, where its correct option is shown, the shown option ids
    (read in one round trip)."""
    qid, shown = page.evaluate("() => [document.getElementById('question').dataset.qid, Array.from(document.querySelectorAll('#options .option'), e => e.dataset.option)]")
    return qid, shown.index(bank.question(qid).correct), shown


def download_answers(page) -> dict:
    """Click *Export my answers* on the topic page and read the downloaded file."""
    with page.expect_download() as info:
        page.click("#export")
    download = info.value
    assert download.suggested_filename.endswith(".json")
    return json.loads(Path(download.path()).read_text(encoding="utf-8"))


def axe_check(page, label: str) -> None:
    """Run axe-core on the page as it is (hidden views are skipped by axe) and fail on any violation."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(AXE.read_text(encoding="utf-8") + "\n;void 0")  # through DevTools: not an inline script
    result = page.evaluate("axe.run(document, {resultTypes: ['violations']}).then(r => r.violations.map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map(n => n.target.join(' ') + ': ' + n.failureSummary)})))")
    assert not result, f"axe violations on {label}: " + json.dumps(result, ensure_ascii=False, indent=1)


__all__ = [
    "ARTIFACTS", "DESKTOP", "LANGS", "PHONE", "Session", "active_id", "axe_check", "blank_page", "bundled_site", "correct_position", "download_answers", "focus_is_visible",
    "focused_in_view", "in_view", "kept_key", "kept_session", "launch", "load_banks", "load_options", "needs_chromium", "sample_bank", "shot", "squash", "sync_api",
    "tab_into_options", "tab_to", "text", "ui", "write_site",
]


@pytest.fixture(scope="module")
def browser(chromium):
    """The Chromium of this test process (conftest.chromium), shared by the modules that import
    this fixture."""
    return chromium


_BLANK: list[Path] = []


def blank_page(tmp_path_factory) -> Path:
    """An empty file:// page, written once per test process: the kept pages are reset from it
    (every file:// page shares one storage)."""
    if not _BLANK:
        _BLANK.append(tmp_path_factory.mktemp("blank") / "blank.html")
        _BLANK[0].write_text("<!doctype html><title>blank</title>", encoding="utf-8")
    return _BLANK[0]


@pytest.fixture
def session(browser, tmp_path_factory):
    """``session(**context_options)``: the kept page of this test process for these settings,
    reset (``kept_session``); asked for again in the same test (another language, say), the same
    page, reset again: a fresh profile each time, and the Session asked for before is that page.
    ``session(fresh=True, ...)``, or settings a kept page cannot have, open a fresh browser
    context, closed after the test (a test that needs two pages of the same settings at once
    asks for one of them fresh)."""
    fresh_ones: list[Session] = []
    kept: list[Session] = []

    def make(*, fresh: bool = False, **context_options) -> Session:
        if fresh or not KEPT.issuperset(context_options):
            fresh_ones.append(Session(browser, **context_options))
            return fresh_ones[-1]
        kept.append(kept_session(browser, blank_page(tmp_path_factory), **context_options))
        return kept[-1]

    yield make
    for opened in fresh_ones:
        opened.close()
    for page in kept:
        emulated = page.locale or not page.java_script_enabled
        assert not emulated or page.context.pages == [page.page], "another page opened beside a kept page in a language or without JavaScript has neither: use session(fresh=True, ...)"
