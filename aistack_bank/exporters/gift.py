"""Conversion of a bank to Moodle GIFT text (one file per language, plus a multilingual one)."""

from __future__ import annotations

from functools import partial
from typing import Sequence

from ..model import Bank, Library
from ..options import ExportOptions
from .record import Format, as_library, by_category
from .moodle_common import credit, gift_leaves_out, moodle_answer_text, multiple_response_fractions, notes as moodle_notes, short_answers
from .common import (EncodedLines, category_path, category_title, html_text, in_english, moodle_percent, multilang_html, multilang_plain, multilang_spans,
                     plain_field, plain_number, question_name, span_paragraphs)


def _questions(count: int) -> str:
    return f"{count} question{'' if count == 1 else 's'}"


def gift_escape(text: str) -> str:
    """Escape GIFT's reserved characters (``~ = # { } :`` and backslash), as Moodle's exporter does.

    >>> gift_escape('a=b {c} #1: ~x \\\\')
    'a\\\\=b \\\\{c\\\\} \\\\#1\\\\: \\\\~x \\\\\\\\'
    """
    # One replacement per character (a line break as ``\n``, a carriage return dropped), the
    # backslash first (the others add one), each in C and only where the text holds its
    # character (:func:`~.common.html_text` says why): ``str.translate`` with a table of these
    # maps character by character through a dict, several times slower.
    text = _gift_reserved(text)
    if "\n" in text:
        text = text.replace("\n", "\\n")
    if "\r" in text:
        text = text.replace("\r", "")
    return text


def _gift_reserved(text: str) -> str:
    """GIFT's reserved characters escaped, the backslash first, each only where ``text`` holds it."""
    if "\\" in text:
        text = text.replace("\\", "\\\\")
    if "~" in text:
        text = text.replace("~", "\\~")
    if "=" in text:
        text = text.replace("=", "\\=")
    if "#" in text:
        text = text.replace("#", "\\#")
    if "{" in text:
        text = text.replace("{", "\\{")
    if "}" in text:
        text = text.replace("}", "\\}")
    if ":" in text:
        text = text.replace(":", "\\:")
    return text


def _gift_html(text_raw: str) -> str:
    """GIFT's reserved characters escaped (none of HTML's), then HTML's (:func:`~.common.html_text`),
    the ``#`` of an apostrophe's reference escaped as :func:`gift_escape` escapes it (``&#x27;``
    comes only from an apostrophe there: a ``&`` of the text is ``&amp;`` by then): what
    :func:`gift_text` and :func:`gift_paragraph` share, line breaks left as they are."""
    text = html_text(_gift_reserved(text_raw))
    if "&#x27;" in text:
        text = text.replace("&#x27;", "&\\#x27;")
    return text


def gift_paragraph(text_raw: str) -> str:
    """``gift_escape(html_paragraph(text_raw))`` in one pass of replacements: GIFT's reserved
    characters escaped first (none of HTML's), then HTML's, an apostrophe written ``&\\#x27;``
    at once (the ``#`` of its reference escaped as :func:`gift_escape` escapes it), a line break
    ``<br/>`` (escaping left none for GIFT's ``\\n``), a carriage return dropped.

    >>> gift_paragraph("a=b <c> 'd'\\r\\n#e")
    '<p>a\\\\=b &lt;c&gt; &\\\\#x27;d&\\\\#x27;<br/>\\\\#e</p>'
    """
    start = '<p lang\\="en">' if in_english(text_raw) else "<p>"  # (html_paragraph's mark of an English fallback, its "=" escaped)
    text = _gift_html(text_raw)
    if "\n" in text:
        text = text.replace("\n", "<br/>")
    if "\r" in text:
        text = text.replace("\r", "")
    return start + text + "</p>"


def gift_text(text_raw: str) -> str:
    """``gift_escape(html_text(text_raw))`` in one pass of replacements: GIFT's reserved
    characters escaped first (none of HTML's), then HTML's, an apostrophe written ``&\\#x27;``
    at once, a line break ``\\n`` (escaping left none), a carriage return dropped.

    >>> gift_text("a=b <c> 'd'\\r\\n#e")
    'a\\\\=b &lt;c&gt; &\\\\#x27;d&\\\\#x27;\\\\n\\\\#e'
    """
    text = _gift_html(text_raw)
    if "\n" in text:
        text = text.replace("\n", "\\n")
    if "\r" in text:
        text = text.replace("\r", "")
    return text


_GIFT_STARTS: dict[str, str] = {}
"""Each multilang block's start tag escaped for GIFT (made once)."""


def gift_multilang(texts_raw, syntax: str = "span") -> str:
    """``gift_escape(multilang_html(texts_raw, syntax))``: each text escaped for HTML and GIFT in
    one pass (:func:`gift_text`) between its block's tags escaped once for its language (the
    paragraph's and the blocks' ends hold no character GIFT reserves), not each text escaped for
    HTML and the joined paragraph then escaped again for GIFT; the ``mlang`` syntax as before."""
    if syntax != "span":
        return gift_escape(multilang_html(texts_raw, syntax))
    parts = ["<p>"]
    for start, text in multilang_spans(texts_raw):
        escaped = _GIFT_STARTS.get(start)
        if escaped is None:
            escaped = _GIFT_STARTS[start] = gift_escape(start)
        parts += (escaped, gift_text(text), "</span>")
    parts.append("</p>")
    return "".join(parts)


def _plain(banks: Sequence[Bank], get, options: ExportOptions) -> str:
    """A text Moodle's GIFT reader keeps as plain text (a matching answer), every language."""
    if len(banks) > 1:
        return multilang_plain({b.lang: get(b) for b in banks}, options.multilang)
    return plain_field(get(banks[0]))


def _feedback(text: str) -> str:
    return "#" + text if text else ""


def _choices(q, index, banks, html, options, *, multi: bool) -> list[str]:
    """Single choice: ``=right ~wrong``. Multiple response (``multi``): only ``~%grade%`` weights,
    since Moodle reads a block holding any ``=`` as single choice."""
    if multi:
        marks = [f"~%{moodle_percent(f)}%" for f in multiple_response_fractions(q)]
    else:
        right = q.right_ids()
        marks = ["=" if o.id in right else "~" for o in q.options]
    lines = []
    for o_index, option in enumerate(q.options):
        line = f"\t{marks[o_index]}" + html(lambda b: b.questions[index].options[o_index].text)
        if option.feedback is not None:
            line += "#" + html(lambda b: b.questions[index].options[o_index].feedback or "")
        lines.append(line)
    return lines


def _true_false(q, index, banks, html, options) -> list[str]:
    """``TRUE#wrong#right``: Moodle reads the first feedback as the one for a wrong answer."""
    right, wrong = ("true", "false") if q.answer else ("false", "true")

    def side(name: str) -> str:
        return html(lambda b: getattr(b.questions[index], f"feedback_{name}")) if getattr(q, f"feedback_{name}") is not None else ""

    line = "\t" + ("TRUE" if q.answer else "FALSE")
    wrong_text, right_text = side(wrong), side(right)  # (each written once)
    if wrong_text or right_text:
        line += "#" + wrong_text
    if right_text:
        line += "#" + right_text
    return [line]


def _numerical(q, index, banks, html, options) -> list[str]:
    """``#`` then ``=%grade%value:tolerance#feedback`` per answer, the right one first; GIFT has
    no units (a warning says so)."""
    lines = ["\t#", f"\t=%100%{plain_number(q.answer)}:{plain_number(q.absolute_tolerance)}"]
    for n_index, near in enumerate(q.near_misses):
        lines.append(f"\t=%{moodle_percent(credit(near.credit))}%{plain_number(near.value)}:{plain_number(near.tolerance)}"
                     + _feedback(html(lambda b: b.questions[index].near_misses[n_index].feedback)))
    return lines


def _short_answer(q, index, banks, html, options) -> list[str]:
    """``=%grade%answer#feedback`` per accepted spelling (of every language, in a multilingual
    file); answers are plain text, ``*`` escaped (Moodle's wildcard)."""
    lines = []
    for answer in short_answers([b.questions[index] for b in banks], [b.lang for b in banks]):
        feedback = ""
        if answer.feedback:
            texts = answer.feedback
            feedback = gift_multilang(texts, options.multilang) if len(texts) > 1 else gift_paragraph(next(iter(texts.values())))
        lines.append(f"\t=%{moodle_percent(answer.credit)}%{gift_escape(moodle_answer_text(answer.text))}" + _feedback(feedback))
    return lines


def _matching(q, index, banks, html, options) -> list[str]:
    """``=prompt -> answer`` per pair and ``= -> answer`` per distractor (an empty prompt is how
    Moodle stores an answer that matches no prompt, and how its own GIFT export writes one)."""
    lines = []
    for p_index, _pair in enumerate(q.pairs):
        answer = gift_escape(_plain(banks, lambda b: b.questions[index].pairs[p_index].answer, options))
        lines.append(f"\t={html(lambda b: b.questions[index].pairs[p_index].prompt)} -> {answer}")
    for d_index, _extra in enumerate(q.distractors):
        lines.append(f"\t= -> {gift_escape(_plain(banks, lambda b: b.questions[index].distractors[d_index].text, options))}")
    return lines


def _essay(q, index, banks, html, options) -> list[str]:
    """``{}``: no answers (the explanation alone inside), which Moodle reads as an essay; GIFT has
    no place for the model answer or the response template."""
    return []


WRITERS = {"single-choice": partial(_choices, multi=False), "multiple-response": partial(_choices, multi=True), "true-false": _true_false,
           "numerical": _numerical, "short-answer": _short_answer, "matching": _matching, "essay": _essay}


def render_bank(libraries: Sequence[Library], options: ExportOptions) -> bytes:
    """GIFT for a whole bank in one language, or (several libraries) in every language: each
    topic after the ``$CATEGORY:`` line of its nested category ``<category>/<topic>``."""
    first = libraries[0]
    langs = ", ".join(lib.lang for lib in libraries)
    # each question GIFT cannot write is left out and warned about (W657)
    left_out = set().union(*(gift_leaves_out({lib.lang: lib.bank(topic.topic.id) for lib in libraries}) for topic in first.topics))
    what = first.topics[0].topic.title if len(first.topics) == 1 else f"{len(first.topics)} topics in {len(by_category(first))} categories"
    lines = EncodedLines([  # encoded as it comes: a large file is held once
        f"// {what} ({langs}): {_questions(len(first.questions) - len(left_out))}, generated by aistack-bank",
        "// Import in Moodle: Question bank > Import > GIFT format (tick 'Get category from file').",
        "",
    ])
    for category, topics in by_category(first):
        category_name = category_title({lib.lang: lib.category(category.id).title for lib in libraries}, options.multilang)
        for topic in topics:
            _topic(lines, [lib.bank(topic.topic.id) for lib in libraries], category_name, left_out, options)
    return lines.data()


def render_gift(banks: Sequence[Bank], options: ExportOptions) -> bytes:
    """GIFT for one topic, or (several banks) one topic in every language."""
    return render_bank([as_library(bank) for bank in banks], options)


def _topic(lines: EncodedLines, banks: Sequence[Bank], category_name: str, left_out: set[str], options: ExportOptions) -> None:
    """One topic, added to ``lines``: its ``$CATEGORY:`` line, then each question of its kind (but those in ``left_out``)."""
    first = banks[0]
    title = category_title({b.lang: b.topic.title for b in banks}, options.multilang)
    lines += [
        # Moodle reads the path as written (no GIFT unescaping) and splits it on "/" ("//" is a slash).
        f"$CATEGORY: {category_path(category_name, title)}",
        "",
    ]
    paragraph = span_paragraphs([b.lang for b in banks], gift_text, gift_escape) if len(banks) > 1 and options.multilang == "span" else None
    if paragraph is not None:  # (gift_multilang's paragraph, its blocks' starts escaped once per topic)
        html = lambda get: paragraph([get(b) for b in banks])  # noqa: E731
    elif len(banks) > 1:  # (each text escaped for HTML and GIFT in one pass: gift_multilang)
        html = lambda get: gift_multilang({b.lang: get(b) for b in banks}, options.multilang)  # noqa: E731
    else:  # (a text's paragraph escaped for HTML and GIFT in one pass)
        html = lambda get: gift_paragraph(get(first))  # noqa: E731
    tagged: dict[tuple[str, ...], str] = {}
    for index, q in enumerate(first.questions):
        if q.id in left_out or not FORMAT.carries(q):
            continue
        stem = html(lambda b: b.questions[index].stem)
        # Moodle 4.x reads the question's idnumber and tags from its comment lines, in this form.
        difficulty = f"difficulty-{q.difficulty}"
        key = (*q.tags, difficulty)
        tags = tagged.get(key)
        if tags is None:  # (a topic's questions share a few hundred sets of tags: each written once)
            tags = tagged[key] = " ".join(f"[tag:{tag}]" for tag in [first.topic.id, *q.tags, difficulty])
        lines.append(f"// [id:{q.id}] " + tags)
        name = question_name(q.id, {b.lang: b.questions[index].stem for b in banks}, options.multilang)
        lines.append(f"::{gift_escape(name)}::[html]{stem} {{")
        lines += FORMAT.writer(q)(q, index, banks, html, options)
        if q.explanation is not None:
            lines.append("\t####" + html(lambda b: b.questions[index].explanation))
        lines.append("}")
        lines.append("")


FORMAT = Format(
    name="gift", folder="gift", honours=frozenset({"multilang"}), writers=WRITERS,
    render=render_gift, per_language="{stem}-{lang}.gift", multilingual="{stem}-multilang.gift", render_bank=render_bank,
    notes=lambda banks, options: moodle_notes("gift", banks, gift=True),
    platforms='Moodle, from a text file: *Question bank → Import → GIFT format* (the `multilang` file as for Moodle XML).',
    loses="Shuffling, option numbering and the penalty per wrong try (Moodle's defaults apply); numerical units, case sensitivity of short answers (W657): prefer the Moodle XML file.",
)
export = FORMAT


__all__ = ["FORMAT", "export", "gift_escape", "html_text"]
