"""The practice site of a bank of several topics: a home page per language, a page per topic and
a page per category (practice across all of its topics).

The tree, under the site's folder::

    index.html                             language chooser
    <lang>/index.html                      home: the categories and their topics, with progress
    <lang>/topics/<topic-id>/index.html    a topic page (as a one-topic bank's <lang>/index.html)
    <lang>/categories/<id>/index.html      practice across every question of the category

A bank of one topic keeps its one-topic site (:mod:`.html_site`). Answers are kept per topic in
the browser (``aistack-bank/<topic-id>/answers``): a category page reads and writes the keys of
its topics, and the home page reads them to show each topic's progress.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import PurePosixPath
from typing import Callable, Mapping

from ..i18n.languages import bcp47, endonym
from ..model import Bank, Category, KeyPoint, Library, Topic
from ..options import ExportOptions
from .record import ALL, ExportedFile, by_category, languages
from .common import file_language, html_text
from .html_site import FORMAT as TOPIC_SITE, fill_html, inline_element, lang_attrs, page_head, render_index, render_topic_page, script_json, site_asset, translated_ui, ui_text


def topic_path(lang: str, topic_id: str) -> PurePosixPath:
    return PurePosixPath(lang, "topics", topic_id, "index.html")


def category_path(lang: str, category_id: str) -> PurePosixPath:
    return PurePosixPath(lang, "categories", category_id, "index.html")


UP = "../"
"""One folder up (a page's links are relative: the site works from disk)."""


def storage_key(topic_id: str, site_id: str = "aistack-bank") -> str:
    """Where the browser keeps the answers to a topic's questions (as a topic page does), under
    the project's ``site_id`` (:attr:`ExportOptions.site_id`)."""
    return f"{site_id}/{topic_id}/answers"


@dataclass(frozen=True)
class PageNav:
    """Where a topic or category page sits in the site (paths relative to the page)."""

    language_href: Callable[[str], str]
    home: str
    """The link to the language's home page."""
    category: str
    """The category's title, shown above the page title."""
    category_href: str | None
    """The link to the category page (None on the category page itself)."""
    category_count: int
    links: list[tuple[str, str]] = field(default_factory=list)
    """(href, title) of the topics listed under "Other topics in <category>"."""
    data: dict = field(default_factory=dict)
    """Entries added to the page script's data (storage keys)."""

    def header(self, t) -> str:
        return (f'<p class="category"><a href="{html_text(self.home)}" class="home-link">{t("site.home.link")}</a>'
                f' › <bdi>{html_text(self.category)}</bdi></p>')

    def others(self, t) -> str:
        lines = []
        if self.links:
            lines.append('<ul class="other-topics">')
            lines += [f'<li><a href="{html_text(href)}">{html_text(title)}</a></li>' for href, title in self.links]
            lines.append("</ul>")
        else:
            lines.append(f'<p>{t("site.other.none")}</p>')
        if self.category_href is not None:
            lines.append(f'<p><a class="button secondary" href="{html_text(self.category_href)}">'
                         f'{t("site.category.practice", category=self.category, count=self.category_count)}</a></p>')
        return "\n".join(lines)


def _t(options: ExportOptions, lang: str):
    def t(key: str, **values: object) -> str:
        text = fill_html(ui_text(options, lang, key), **values)
        if lang != "en" and translated_ui(options, lang, key) is None:  # the English fallback, marked as such
            return f'<span{lang_attrs("en", lang)}>{text}</span>'
        return text
    return t


def category_bank(library: Library, category: Category) -> Bank:
    """Every question of ``category`` as one practice set (the category page's data)."""
    topics = library.topics_in(category.id)
    tags: dict[str, str] = {}
    for bank in topics:
        tags.update(bank.topic.tags)
    topic = Topic.model_construct(
        id=category.id, file_stem=None, category=category.id, title=category.title,
        summary=" · ".join(bank.topic.title for bank in topics),
        key_points=[KeyPoint.model_construct(id=f"k{n}", text=f"{bank.topic.title}: {bank.topic.summary}") for n, bank in enumerate(topics, 1)], tags=tags,
        questions=[q.id for bank in topics for q in bank.questions],
    )
    return Bank(topic=topic, questions=tuple(q for bank in topics for q in bank.questions), category=category, lang=library.lang)


def home_data(library: Library, options: ExportOptions) -> dict:
    """What the home page's script reads: each topic's storage key and the ids of the questions
    whose answers it stores (the scored ones: a written answer is never kept)."""
    return {
        "language": library.lang,
        "ui": {"site.stats.answered.value": ui_text(options, library.lang, "site.stats.answered.value")},
        "topics": [{"id": bank.topic.id, "key": storage_key(bank.topic.id, options.site_id), "questions": [q.id for q in bank.questions if q.SCORED]} for bank in library.topics],
    }


def render_home(library: Library, order: list[str], options: ExportOptions, *, script: str, style: str) -> bytes:
    """``<lang>/index.html``: the categories, each with its topics, their progress and a link to practise the whole category."""
    lang = library.lang
    t = _t(options, lang)
    title = ui_text(options, lang, "site.home.title")
    links = []
    for other in order:
        current = ' aria-current="page"' if other == lang else ""
        links.append(f'<li><a href="../{html_text(file_language(other, options.english))}/index.html" hreflang="{html_text(bcp47(other))}"'
                     f'{lang_attrs(other, lang)}{current}>{html_text(endonym(other))}</a></li>')
    description = " · ".join(category.title for category, _ in by_category(library))
    lines = page_head(lang=lang, title=title, description=description, script=script, style=style)
    lines += [
        "<body>",
        f'<a class="skip-link" href="#main">{t("site.skip")}</a>',
        '<header class="site-header"><div class="wrap">',
        f'<p class="category">{t("site.home.title")}</p>',
        f'<nav class="languages" aria-label="{html_text(ui_text(options, lang, "site.language.nav"))}"><ul>',
        *links,
        "</ul></nav>",
        "</div></header>",
        '<main id="main" tabindex="-1"><div class="wrap home">',
        f'<h1 id="home-title">{t("site.home.title")}</h1>',
    ]
    for category, topics in by_category(library):
        count = sum(len(bank.questions) for bank in topics)
        heading = f"category-{category.id}"
        lines += [
            f'<section class="home-category" aria-labelledby="{html_text(heading)}">',
            f'<h2 id="{html_text(heading)}">{html_text(category.title)}</h2>',
            '<ul class="topics">',
        ]
        for bank in topics:
            lines += [
                f'<li class="topic" data-topic="{html_text(bank.topic.id)}">',
                f'<a href="topics/{html_text(bank.topic.id)}/index.html">{html_text(bank.topic.title)}</a>',
                f'<p class="summary text">{html_text(bank.topic.summary)}</p>',
                f'<p class="topic-progress">{t("site.stats.answered")}: <span class="figure" data-progress="{html_text(bank.topic.id)}">'
                f'{t("site.stats.answered.value", answered=0, total=sum(q.SCORED for q in bank.questions))}</span></p>',
                "</li>",
            ]
        lines += [
            "</ul>",
            f'<p><a class="button secondary" href="categories/{html_text(category.id)}/index.html">'
            f'{t("site.category.practice", category=category.title, count=count)}</a></p>',
            "</section>",
        ]
    lines += [
        "</div></main>",
        f'<footer class="site-footer"><div class="wrap"><p>{t("site.footer")}</p></div></footer>',
        f'<script type="application/json" id="home-data">{script_json(home_data(library, options))}</script>',
        inline_element("script", script),
        "</body>",
        "</html>",
        "",
    ]
    return "\n".join(lines).encode("utf-8")


def _topic_nav(library: Library, bank: Bank, english: Mapping[str, object]) -> PageNav:
    category = bank.category
    siblings = library.topics_in(category.id)
    return PageNav(
        language_href=lambda other: f"{UP * 3}{file_language(other, english)}/topics/{bank.topic.id}/index.html",
        home=f"{UP * 2}index.html", category=category.title,
        category_href=f"{UP * 2}categories/{category.id}/index.html",
        category_count=sum(len(b.questions) for b in siblings),
        links=[(f"../{b.topic.id}/index.html", b.topic.title) for b in siblings if b.topic.id != bank.topic.id],
    )


def _category_nav(library: Library, category: Category, site_id: str = "aistack-bank", english: Mapping[str, object] | None = None) -> PageNav:
    topics = library.topics_in(category.id)
    return PageNav(
        language_href=lambda other: f"{UP * 3}{file_language(other, english or {})}/categories/{category.id}/index.html",
        home=f"{UP * 2}index.html", category=category.title, category_href=None,
        category_count=sum(len(b.questions) for b in topics),
        links=[(f"{UP * 2}topics/{b.topic.id}/index.html", b.topic.title) for b in topics],
        data={
            "storageKey": storage_key(topics[0].topic.id, site_id),
            "storageKeys": [storage_key(b.topic.id, site_id) for b in topics],
            "questionKeys": {q.id: storage_key(b.topic.id, site_id) for b in topics for q in b.questions},
            "legacyKeys": {},
            "runKey": f"{site_id}/categories/{category.id}/run/{library.lang}",
        },
    )


def bank_layout(libraries: Mapping[str, Library], options: ExportOptions) -> list[ExportedFile]:
    """The site of a bank of several topics (see the module's docstring)."""
    order = languages(libraries)
    style = site_asset("style.css")
    practice = site_asset("practice.js")
    home = site_asset("home.js")
    # The language chooser lists each language's home page, titled as that home page is.
    chooser_banks = {}
    for lang in order:
        bank = libraries[lang].topics[0]
        titled = bank.topic.model_copy(update={"title": ui_text(options, lang, "site.home.title"), "summary": " · ".join(c.title for c, _ in by_category(libraries[lang]))})
        chooser_banks[lang] = bank.model_copy(update={"topic": titled})
    files = [ExportedFile(PurePosixPath("index.html"), ALL, render_index(chooser_banks, order, options, script=site_asset("chooser.js"), style=style))]
    for lang in order:
        library = libraries[lang]
        folder = file_language(lang, options.english)  # `de-with-en/` when German falls back to English
        files.append(ExportedFile(PurePosixPath(folder, "index.html"), lang, render_home(library, order, options, script=home, style=style)))
        for category, topics in by_category(library):
            for bank in topics:
                files.append(ExportedFile(topic_path(folder, bank.topic.id), lang, render_topic_page(
                    bank, order, options, script=practice, style=style, nav=_topic_nav(library, bank, options.english))))
            files.append(ExportedFile(category_path(folder, category.id), lang, render_topic_page(
                category_bank(library, category), order, options, script=practice, style=style, nav=_category_nav(library, category, options.site_id, options.english))))
    return files


FORMAT = replace(TOPIC_SITE, bank_layout=bank_layout)
"""The practice site: one topic's site (:mod:`.html_site`), or, with several topics, this module's pages."""

__all__ = ["FORMAT", "PageNav", "bank_layout", "category_bank", "category_path", "render_home", "storage_key", "topic_path"]
