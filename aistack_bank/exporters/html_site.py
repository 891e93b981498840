"""Conversion of a bank to a static, offline practice site: one topic page per language."""

from __future__ import annotations

import base64
import hashlib
import json
import re
from importlib import resources
from pathlib import PurePosixPath
from typing import Mapping

from ..i18n.languages import bcp47 as _bcp47, endonym, is_rtl
from ..model import Bank
from ..options import ExportOptions
from ..site_strings import UI_STRINGS
from .record import ALL, ExportedFile, Format, languages
from .common import file_language, html_text, in_english, json_compact_utf8

PRACTICE_COUNT = 10
"""How many questions "Practice 10 questions" draws (fewer if the topic has fewer)."""


_PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")


def _placeholders(text: str) -> set[str]:
    return set(_PLACEHOLDER.findall(text))


def ui_text(options: ExportOptions, lang: str, key: str) -> str:
    """The interface string ``key`` in ``lang``: the translation in ``options.ui``, else English.

    >>> ui_text(ExportOptions(ui={"fr": {"site.reset": "Réinitialiser"}}), "fr", "site.reset")
    'Réinitialiser'
    >>> ui_text(ExportOptions(), "fr", "site.reset")
    'Reset progress'
    """
    return translated_ui(options, lang, key) or UI_STRINGS[key]


def translated_ui(options: ExportOptions, lang: str, key: str) -> str | None:
    """The usable translation of ``key`` in ``lang``, or None when the page falls back to English."""
    translated = (options.ui.get(lang) or {}).get(key)
    if translated and translated.strip() and _placeholders(translated) == _placeholders(UI_STRINGS[key]):
        return translated
    return None


def _ui_data(options: ExportOptions, lang: str, key: str) -> str:
    """``key``'s text for the page's script. On a right-to-left page an English fallback is put
    between LRI and PDI, so that it reads left to right ("Correct!", not "!Correct") wherever
    the script places it."""
    if lang != "en" and is_rtl(lang) and translated_ui(options, lang, key) is None:
        return "\u2066" + UI_STRINGS[key] + "\u2069"
    return ui_text(options, lang, key)


def fill(template: str, **values: object) -> str:
    """``template`` with each known ``{name}`` replaced (other braces are left alone).

    >>> fill("All {title} questions ({count})", title="A {b}", count=3)
    'All A {b} questions (3)'
    """
    return _PLACEHOLDER.sub(lambda m: str(values[m.group(1)]) if m.group(1) in values else m.group(0), template)


def site_asset(name: str) -> str:
    """A file of the ``site/`` package folder, as text with LF line endings."""
    text = resources.files(__package__).joinpath("site", name).read_text(encoding="utf-8")
    return text.replace("\r\n", "\n")


def csp_hash(source: str) -> str:
    """The CSP source expression that allows exactly this inline script or style."""
    return "'sha256-" + base64.b64encode(hashlib.sha256(source.encode("utf-8")).digest()).decode("ascii") + "'"


def script_json(value: object) -> str:
    """``value`` as JSON that is safe inside a ``<script>`` element.

    ``<``, ``>`` and ``&`` are written as ``\\u003c``, ``\\u003e`` and ``\\u0026`` so that no
    ``</script>`` or ``<!--`` can appear; JSON.parse reads the text back unchanged.

    >>> script_json({"stem": "</script>"})
    '{"stem":"\\\\u003c/script\\\\u003e"}'
    """
    data = _script_json_utf8(value)
    if data is not None:
        return data.decode("utf-8")
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    for char, escaped in _SCRIPT_ESCAPES:
        text = text.replace(char, escaped)
    return text


def _script_json_utf8(value: object) -> bytes | None:
    """:func:`script_json` in UTF-8, when ``pydantic_core`` writes it (None: written otherwise,
    :func:`~.common.json_compact_utf8`), escaped there: each character replaced is its own bytes."""
    data = json_compact_utf8(value)
    if data is not None:
        for char, escaped in _SCRIPT_ESCAPES_UTF8:
            data = data.replace(char, escaped)
    return data


_SCRIPT_ESCAPES = (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"), ("\u2028", "\\u2028"), ("\u2029", "\\u2029"))
_SCRIPT_ESCAPES_UTF8 = tuple((char.encode("utf-8"), escaped.encode("ascii")) for char, escaped in _SCRIPT_ESCAPES)


def inline_element(tag: str, source: str) -> str:
    if f"</{tag}" in source.lower() or "<!--" in source:
        raise ValueError(f"an inline {tag} must not contain '</{tag}' or '<!--'")
    return f"<{tag}>{source}</{tag}>"


def _csp(script: str, style: str) -> str:
    return (
        "default-src 'none'; "
        f"script-src {csp_hash(script)}; "
        f"style-src {csp_hash(style)}; "
        "img-src data:; base-uri 'none'; form-action 'none'"
    )


_FAVICON = (
    "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'%3E"
    "%3Crect width='32' height='32' rx='7' fill='%230b57d0'/%3E"
    "%3Cpath d='M9 17l5 5 9-11' fill='none' stroke='white' stroke-width='3.5' stroke-linecap='round' stroke-linejoin='round'/%3E"
    "%3C/svg%3E"
)


def page_head(*, lang: str, title: str, description: str, script: str, style: str) -> list[str]:
    return [
        "<!DOCTYPE html>",
        f'<html lang="{html_text(_bcp47(lang))}"{_dir(lang)}>',
        "<head>",
        '<meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{_csp(script, style)}">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        '<meta name="color-scheme" content="light dark">',
        '<meta name="referrer" content="no-referrer">',
        f"<title>{html_text(title)}</title>",
        f'<meta name="description" content="{html_text(description)}">',
        f'<link rel="icon" href="{_FAVICON}">',
        inline_element("style", style),
        "</head>",
    ]


def _dir(lang: str) -> str:
    """``lang``'s text direction as an HTML attribute: ``dir="rtl"`` for a right-to-left language."""
    return ' dir="rtl"' if is_rtl(lang) else ""


def lang_attrs(lang: str, page_lang: str) -> str:
    """``lang`` (and ``dir`` when its direction differs from the page's) of text in ``lang``."""
    attrs = f' lang="{html_text(_bcp47(lang))}"'
    if is_rtl(lang) != is_rtl(page_lang):
        attrs += ' dir="rtl"' if is_rtl(lang) else ' dir="ltr"'
    return attrs


def fill_html(template: str, **values: object) -> str:
    """``template`` as HTML with each ``{name}`` filled: text values (the bank's words) each in a
    ``<bdi>``, so that text of the other direction cannot reorder the words around it.

    >>> fill_html("All {title} questions ({count})", title="A<B", count=3)
    'All <bdi>A&lt;B</bdi> questions (3)'
    """
    def value(m: re.Match) -> str:
        if m.group(1) not in values:
            return m.group(0)
        v = values[m.group(1)]
        return f"<bdi>{html_text(v)}</bdi>" if isinstance(v, str) else html_text(str(v))

    return _PLACEHOLDER.sub(value, html_text(template))


def _question_data(bank: Bank) -> list[dict]:
    """Each question as the page's script reads it: what it shows, and what it scores with.

    The key is in the data as a single-choice question's ``correct`` always was (the page
    scores offline); nothing of it is put in the markup before the learner answers.
    """
    return [_question_record(q) for q in bank.questions]


def _options_record(options) -> list[dict]:
    out = []
    for o in options:
        option = {"id": o.id, "text": o.text}
        if o.feedback is not None:
            option["feedback"] = o.feedback
        out.append(option)
    return out


def _question_record(q) -> dict:
    """One question's record in ``#bank-data``: common fields, then its kind's own; a question of
    a kind a person grades (the model's ``SCORED``) is marked ``unscored``, which the page never
    scores nor stores."""
    record: dict = {"id": q.id, "kind": q.kind, "stem": q.stem}
    record |= WRITERS[q.kind](q)
    return record | {"explanation": q.explanation, "tags": list(q.tags)} | ({} if q.SCORED else {"unscored": True})


WRITERS = {
    "single-choice": lambda q: {"options": _options_record(q.options), "correct": q.correct},
    "multiple-response": lambda q: {"options": _options_record(q.options), "correct": list(q.correct), "scoring": q.scoring},
    "true-false": lambda q: {"answer": q.answer, "feedbackTrue": q.feedback_true, "feedbackFalse": q.feedback_false},
    "numerical": lambda q: {
        "answer": q.answer,
        "tolerance": float(f"{q.absolute_tolerance:.12g}"),  # absolute, in the first unit
        "units": [{"name": u.name, "multiplier": u.multiplier} for u in q.units],
        "nearMisses": [{"value": m.value, "tolerance": m.tolerance, "credit": m.credit, "feedback": m.feedback} for m in q.near_misses],
    },
    "short-answer": lambda q: {
        "answers": [{"text": a.text, "credit": a.credit, "feedback": a.feedback} for a in q.answers],
        "caseSensitive": q.case_sensitive,
        "foldDiacritics": q.fold_diacritics,
    },
    "matching": lambda q: {
        "pairs": [{"id": p.id, "prompt": p.prompt, "answer": p.answer} for p in q.pairs],
        "distractors": [{"id": d.id, "text": d.text} for d in q.distractors],
    },
    "ordering": lambda q: {"items": [{"id": i.id, "text": i.text} for i in q.items]},
    # Never scored: the page shows the model answer once the learner has submitted a text.
    "essay": lambda q: {"modelAnswer": q.model_answer, "responseTemplate": q.response_template},
}
"""What the page's script reads of a question of each kind (practice.js renders and scores it)."""


def _sent(key: str, bank: Bank, kinds: frozenset[str] | None = None) -> bool:
    """Whether a page of ``bank`` carries the interface string ``key``: a string of one question
    kind (``site.<kind>.…``, the kind's name as a question file writes it) only when the page
    holds a question of that kind, every other string always. ``kinds``: the kinds of the
    bank's questions (:func:`_kinds`), when already taken."""
    from ..kinds import NAMES

    kind = key.split(".")[1] if key.count(".") >= 2 else ""
    return kind not in NAMES or kind in (kinds if kinds is not None else _kinds(bank))


def _kinds(bank: Bank) -> frozenset[str]:
    """The kinds of ``bank``'s questions (taken once per page, not once per interface string:
    about a hundred strings of a kind each looked for among every question)."""
    return frozenset(q.kind for q in bank.questions)


def page_data(bank: Bank, options: ExportOptions, languages: list[str] | None = None) -> dict:
    """What the page's script reads from ``#bank-data``: the questions and the interface strings.

    ``languages`` are the site's catalog codes: the page moves the progress each language kept
    under the previous storage key (``legacyKeys``) into the one answer history.
    """
    lang = bank.lang
    topic = bank.topic.id
    groups = {"groups": [list(g.questions) for g in bank.topic.groups]} if bank.topic.groups else {}
    questions = _question_data(bank)
    return {
        "version": 2,
        "lang": _bcp47(lang),
        "language": lang,
        "topic": topic,
        "storageKey": f"{options.site_id}/{topic}/answers",
        "legacyKeys": {code: f"{options.site_id}/{topic}/{code}" for code in (languages or [lang])},
        "runKey": f"{options.site_id}/{topic}/run/{lang}",
        "practiceCount": PRACTICE_COUNT,
        "tags": [tag for tag in bank.topic.tags if any(tag in q.tags for q in bank.questions)],
        "ui": {key: _ui_data(options, lang, key) for kinds in [_kinds(bank)] for key in UI_STRINGS if _sent(key, bank, kinds)},
        "questions": questions,
    } | groups | _english_data(bank, questions)


def _english_attr(text: str, lang: str) -> str:
    """`` lang="en"`` for a text of a ``lang`` page shown in English for want of a translation."""
    return ' lang="en"' if lang != "en" and in_english(text, lang) else ""


def _strings(value) -> list[str]:
    """Every string inside ``value`` (a record of lists and dicts)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [text for item in value.values() for text in _strings(item)]
    if isinstance(value, (list, tuple)):
        return [text for item in value for text in _strings(item)]
    return []


def _english_data(bank: Bank, questions: list[dict] | None = None) -> dict:
    """``{"english": [...]}``: the texts of the page shown in English for want of a translation
    (the script marks them ``lang="en"``); nothing when there are none (every usual page, whose
    records are then not walked). ``questions``: the page's records (:func:`_question_data`),
    when already made."""
    from .common import english_texts, in_english

    if bank.lang == "en" or not english_texts(bank.lang):
        return {}
    shown = sorted({text for text in _strings(_question_data(bank) if questions is None else questions) if in_english(text, bank.lang)})
    return {"english": shown} if shown else {}


def render_topic_page(bank: Bank, order: list[str], options: ExportOptions, *, script: str, style: str, nav=None) -> bytes:
    """``<lang>/index.html``: the topic page with its practice modes, key points and questions.

    In a bank of several topics ``nav`` (a :class:`~.site_pages.PageNav`) places the page in the
    site: its language links, its links home and to the other topics, and its storage keys."""
    lang = bank.lang
    topic = bank.topic
    count = len(bank.questions)

    def t(key: str, **values: object) -> str:
        text = fill_html(ui_text(options, lang, key), **values)
        if lang != "en" and translated_ui(options, lang, key) is None:  # the English fallback, marked as such
            return f'<span{lang_attrs("en", lang)}>{text}</span>'
        return text

    def mode(button_id: str, key: str, extra: str = "") -> str:
        return (
            f'<button type="button" class="mode" id="{button_id}"{extra} disabled>'
            f'<span class="mode-title">{t(key + ".title")}</span>'
            f'<span class="mode-desc">{t(key + ".desc")}</span>'
            f'<span class="mode-count" id="{button_id}-count" hidden></span>'
            "</button>"
        )

    weak_described = ' aria-describedby="weak-status"'
    links = []
    for other in order:
        current = ' aria-current="page"' if other == lang else ""
        href = nav.language_href(other) if nav is not None else f"../{file_language(other, options.english)}/index.html"
        links.append(
            f'<li><a href="{html_text(href)}" hreflang="{html_text(_bcp47(other))}"'
            f'{lang_attrs(other, lang)}{current}>{html_text(endonym(other))}</a></li>'
        )

    lines = page_head(lang=lang, title=fill(ui_text(options, lang, "site.doc_title"), title=topic.title), description=topic.summary, script=script, style=style)
    lines += [
        "<body>",
        f'<a class="skip-link" href="#main">{t("site.skip")}</a>',
        '<header class="site-header"><div class="wrap">',
        nav.header(t) if nav is not None else f'<p class="category">{html_text(bank.category.title)}</p>',
        f'<nav class="languages" aria-label="{html_text(ui_text(options, lang, "site.language.nav"))}"><ul>',
        *links,
        "</ul></nav>",
        "</div></header>",
        '<main id="main" tabindex="-1"><div class="wrap">',
        "",
        '<div id="topic" class="view">',
        f'<h1 id="topic-title" tabindex="-1">{html_text(topic.title)}</h1>',
        f'<p class="summary text">{html_text(topic.summary)}</p>',
        "",
        '<section id="practice" aria-labelledby="practice-heading">',
        f'<h2 id="practice-heading" class="visually-hidden">{t("site.practice.heading")}</h2>',
        '<p class="resume-row"><button type="button" id="resume" class="button" hidden></button></p>',
        '<ul class="modes">',
        f"<li>{mode('practice-10', 'site.practice10')}</li>",
        f"<li>{mode('practice-weak', 'site.weak', weak_described)}"
        '<p id="weak-status" class="mode-note"></p></li>',
        f"<li>{mode('practice-all', 'site.practice_all')}</li>",
        "</ul>",
        f'<noscript><p>{t("site.noscript")}</p></noscript>',
        "</section>",
        "",
        '<section id="progress" aria-labelledby="progress-heading" hidden>',
        f'<h2 id="progress-heading">{t("site.progress.heading")}</h2>',
        '<dl class="stats">',
        f'<div class="stat"><dt id="stat-last-label">{t("site.stats.last")}</dt><dd><span id="stat-last" class="figure">—</span><span id="stat-last-detail" class="detail"></span></dd></div>',
        f'<div class="stat"><dt id="stat-alltime-label">{t("site.stats.alltime")}</dt><dd><span id="stat-alltime" class="figure">—</span><span id="stat-alltime-detail" class="detail"></span></dd></div>',
        f'<div class="stat"><dt>{t("site.stats.answered")}</dt><dd><span id="stat-answered" class="figure">{t("site.stats.answered.value", answered=0, total=sum(q.SCORED for q in bank.questions))}</span></dd></div>',
        "</dl>",
        '<details id="tag-progress" class="tag-progress">',
        f'<summary>{t("site.tags.heading")}</summary>',
        f'<p class="note">{t("site.tags.note")}</p>',
        '<ul id="tag-chart" class="tag-bars"></ul>',
        "</details>",
        '<div class="progress-actions">',
        f'<button type="button" id="export" class="button secondary" hidden>{t("site.export")}</button>',
        f'<button type="button" id="reset" class="button quiet" aria-haspopup="dialog" hidden>{t("site.reset")}</button>',
        "</div>",
        '<p id="progress-status" class="status-line" role="status"></p>',
        '<dialog id="reset-dialog" class="dialog" aria-labelledby="reset-question">',
        f'<p id="reset-question">{t("site.reset.confirm")}</p>',
        '<div class="actions">',
        f'<button type="button" id="reset-yes" class="button">{t("site.reset.yes")}</button>',
        f'<button type="button" id="reset-no" class="button secondary">{t("site.reset.cancel")}</button>',
        "</div>",
        "</dialog>",
        "</section>",
        "",
        '<section class="key-points" aria-labelledby="key-points-heading">',
        f'<h2 id="key-points-heading">{t("site.keypoints.heading", title=topic.title)}</h2>',
        *(f'<p class="text"{_english_attr(point.text, lang)}>{html_text(point.text)}</p>' for point in topic.key_points),
        "</section>",
        "",
        '<section aria-labelledby="questions-heading">',
        f'<h2 id="questions-heading">{t("site.questions.heading", title=topic.title, count=count)}</h2>',
        '<details id="question-details" class="question-details">',
        f'<summary>{t("site.questions.show")}</summary>',
        '<ol class="questions" id="question-list">',
        *(f'<li id="list-{html_text(q.id)}" data-qid="{html_text(q.id)}"><span class="text"{_english_attr(q.stem, bank.lang)}>{html_text(q.stem)}</span></li>' for q in bank.questions),
        "</ol>",
        "</details>",
        "</section>",
        "",
        '<section aria-labelledby="other-heading">',
        f'<h2 id="other-heading">{t("site.other.heading", category=bank.category.title)}</h2>',
        nav.others(t) if nav is not None else f'<p>{t("site.other.none")}</p>',
        "</section>",
        "</div>",
        "",
        '<section id="quiz" class="view" aria-labelledby="quiz-title" hidden>',
        '<div class="quiz-bar">',
        '<h1 id="quiz-title"></h1>',
        f'<button type="button" id="quiz-quit" class="button quiet">{t("site.quiz.quit")}</button>',
        "</div>",
        '<div class="quiz-progress"><p id="quiz-count"></p><progress id="quiz-bar" max="1" value="0" aria-hidden="true"></progress></div>',
        '<div id="question" class="card">',
        '<h2 id="stem" class="stem" tabindex="-1"></h2>',
        '<div id="options" class="options" role="radiogroup" aria-labelledby="stem"></div>',
        '<div id="response" class="response" hidden></div>',
        '<p id="keys-hint" class="keys-hint"></p>',
        '<div id="answer-bar" class="answer-bar">',
        '<p id="verdict" class="verdict" aria-live="polite"></p>',
        f'<button type="button" id="next" class="button" hidden>{t("site.quiz.next")}</button>',
        "</div>",
        '<div id="feedback" class="feedback" hidden></div>',
        "</div>",
        "</section>",
        "",
        '<section id="results" class="view" aria-labelledby="results-title" hidden>',
        '<div class="card results-card">',
        f'<h1 id="results-title" tabindex="-1">{t("site.result.heading")}</h1>',
        '<div class="score-row">',
        '<div id="results-ring" class="ring" aria-hidden="true"><span id="results-percent"></span></div>',
        '<div><p id="results-score" class="score"></p><p id="results-time" class="time"></p>',
        f'<p id="results-perfect" hidden>{t("site.result.perfect")}</p></div>',
        "</div>",
        '<div class="actions">',
        '<button type="button" id="practice-weakest" class="button"></button>',
        '<button type="button" id="retry-missed" class="button secondary"></button>',
        f'<button type="button" id="results-back" class="button secondary">{t("site.quiz.quit")}</button>',
        "</div>",
        f'<h2 id="results-tags-heading">{t("site.result.tags")}</h2>',
        '<ul id="results-tags" class="tag-bars" aria-labelledby="results-tags-heading"></ul>',
        f'<h2 id="results-review-heading">{t("site.result.review")}</h2>',
        '<ol id="results-review" class="review" aria-labelledby="results-review-heading"></ol>',
        "</div>",
        "</section>",
        "",
        '<p id="announcer" class="visually-hidden" role="status" aria-live="polite"></p>',
        "</div></main>",
        f'<footer class="site-footer"><div class="wrap"><p>{t("site.footer")}</p></div></footer>',
        _BANK_DATA,
        inline_element("script", script),
        "</body>",
        "</html>",
        "",
    ]
    # The page's data (most of its bytes) is put in as pydantic_core wrote it, in UTF-8, between
    # the page's lines before and after it, each encoded: never also decoded and encoded again.
    value = page_data(bank, options, order) | (nav.data if nav is not None else {})
    at = lines.index(_BANK_DATA)
    data = _script_json_utf8(value)
    if data is not None:
        try:
            return b"".join([("\n".join(lines[:at]) + "\n" + _BANK_DATA_START).encode("utf-8"), data,
                             ("</script>\n" + "\n".join(lines[at + 1:])).encode("utf-8")])
        except UnicodeEncodeError:  # (a text UTF-8 cannot write: refused as the whole page refuses it, below)
            pass
    lines[at] = _BANK_DATA_START + script_json(value) + "</script>"
    return "\n".join(lines).encode("utf-8")


_BANK_DATA_START = '<script type="application/json" id="bank-data">'
_BANK_DATA = object()
"""Where a topic page's data goes among its lines (:func:`render_topic_page`)."""


def render_index(banks: Mapping[str, Bank], order: list[str], options: ExportOptions, *, script: str, style: str) -> bytes:
    """``index.html``: plain links to every language; a small script follows the browser's choice."""
    first = banks[order[0]]
    items = []
    prompts = []
    seen: set[str] = set()
    for lang in order:
        code = html_text(_bcp47(lang))
        items.append(
            f'<li{lang_attrs(lang, order[0])}><a href="{html_text(file_language(lang, options.english))}/index.html" hreflang="{code}">'
            f'<span class="autonym">{html_text(endonym(lang))}</span>'
            f'<span class="topic-title">{html_text(banks[lang].topic.title)}</span></a></li>'
        )
        prompt = ui_text(options, lang, "site.language.choose")
        if prompt not in seen:  # an untranslated prompt is the English one: say it once
            seen.add(prompt)
            prompts.append(f'<span{lang_attrs(lang, order[0])}>{html_text(prompt)}</span>')
    lines = page_head(lang=order[0], title=first.topic.title, description=first.topic.summary, script=script, style=style)
    lines += [
        "<body>",
        '<main class="chooser">',
        f"<h1>{html_text(first.topic.title)}</h1>",
        f'<p class="prompt">{" · ".join(prompts)}</p>',
        "<ul>",
        *items,
        "</ul>",
        "</main>",
        inline_element("script", script),
        "</body>",
        "</html>",
        "",
    ]
    return "\n".join(lines).encode("utf-8")


def _layout(banks: Mapping[str, Bank], options: ExportOptions) -> list[ExportedFile]:
    """`index.html` (language chooser) and `<lang>/index.html` for every language."""
    order = languages(banks)
    style = site_asset("style.css")
    practice = site_asset("practice.js")
    chooser = site_asset("chooser.js")
    files = [ExportedFile(PurePosixPath("index.html"), ALL, render_index(banks, order, options, script=chooser, style=style))]
    for lang in order:
        files.append(ExportedFile(PurePosixPath(file_language(lang, options.english), "index.html"), lang, render_topic_page(banks[lang], order, options, script=practice, style=style)))
    return files


FORMAT = Format(
    name="html", folder="site", honours=frozenset({"ui"}), writers=WRITERS, layout=_layout,
    platforms="Learners, in any browser: publish the folder on any static host (below), or open `site/index.html` from disk.",
    loses="Nothing a learner needs; answers and progress stay in the learner's browser.",
)
"""The site of one topic; :data:`.site_pages.FORMAT` adds the pages of a bank of several topics."""
export = FORMAT


__all__ = ["FORMAT", "UI_STRINGS", "csp_hash", "export", "fill", "fill_html", "page_data", "script_json", "ui_text"]
