"""The practice site of a language exported with fallback marks each English text lang="en" (in
a real browser: the page's script sets it on the stem and the options it draws)."""

from __future__ import annotations

import polib

from sitebrowser import browser, session  # noqa: F401  (fixtures)
from sitebrowser import CHROMIUM, DESKTOP, IN_CI, needs_chromium


@needs_chromium
def test_fallback_texts_are_marked_english_on_the_page(session, tmp_path, monkeypatch, run_cli):
    assert CHROMIUM.exists() or IN_CI
    monkeypatch.chdir(tmp_path)
    assert run_cli("init", "course", "--languages", "de", "--title", "Statistics")[0] == 0
    monkeypatch.chdir(tmp_path / "course")
    po = polib.pofile("translations/de.po")
    options = [e for e in po if e.msgctxt.startswith("q001.option.") and not e.msgctxt.endswith(".feedback")]
    for entry in options[:2]:  # two options translated; the stem and the other options in English
        entry.msgstr = "Auf Deutsch: " + entry.msgid
    po.save()
    assert run_cli("i18n", "update")[0] == 0
    code, out = run_cli("build", "--allow-fallback")
    assert code == 0 and "W559" in out, out
    stem = next(e.msgid for e in po if e.msgctxt == "q001.stem")
    s = session(**DESKTOP)
    page = s.page
    page.goto((tmp_path / "course" / "exports" / "site" / "de-with-en" / "index.html").as_uri())
    assert page.get_attribute("#list-q001 .text", "lang") == "en"
    page.click("#practice-all")
    assert page.text_content("#stem") == stem and page.get_attribute("#stem", "lang") == "en"
    marks = page.eval_on_selector_all("#options .option", "nodes => nodes.map(n => [n.textContent, [...n.querySelectorAll('[lang]')].map(x => x.lang).concat(n.lang ? [n.lang] : [])])")
    german = [text for text, langs in marks if "Auf Deutsch" in text]
    english = [text for text, langs in marks if "Auf Deutsch" not in text and "en" in langs]
    assert len(german) == 2 and len(english) == len(marks) - 2, marks
    assert all("en" not in langs for text, langs in marks if "Auf Deutsch" in text)
    # the German page, named for what it holds, is reached from the English page's language links
    page.goto((tmp_path / "course" / "exports" / "site" / "en" / "index.html").as_uri())
    page.click('nav.languages a[hreflang="de"]')
    assert page.url.endswith("/site/de-with-en/index.html"), page.url
    s.check_clean()
