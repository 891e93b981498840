"""GIFT's and Moodle XML's files write each set of a question's tags once per topic (GIFT's
comment line of tags, Moodle XML's ``<tags>`` block, kept by the question's tags and
difficulty), not once per question.

Compared with the code before (each topic's writer before, kept below, put back) on the
bundled bank and ``examples/every-kind``: each language's file and the multilingual one, both
multilang syntaxes, as they are and with the questions' tags and difficulties made random (tags
of every reserved character, shared and shuffled between questions, one tag equal to a
difficulty's): the same bytes."""

from __future__ import annotations

import random

import pytest

from conftest import REPO
from aistack_bank.build import load_libraries
from aistack_bank.exporters import gift, moodle_xml
from aistack_bank.exporters.gift import FORMAT as GIFT, category_path, category_title, gift_escape, gift_multilang, gift_paragraph, gift_text, question_name, span_paragraphs
from aistack_bank.exporters.moodle_xml import (FORMAT as MOODLE, PENALTIES, QTYPES, _category, _tag_line, _text, category_idnumber, cdata, html_paragraph, html_text,
                                               multilang_html, multilang_plain, plain_field)
from aistack_bank.options import ExportOptions


def _gift_topic_before(lines, banks, category_name, left_out, options) -> None:
    first = banks[0]
    title = category_title({b.lang: b.topic.title for b in banks}, options.multilang)
    lines += [f"$CATEGORY: {category_path(category_name, title)}", ""]
    paragraph = span_paragraphs([b.lang for b in banks], gift_text, gift_escape) if len(banks) > 1 and options.multilang == "span" else None
    if paragraph is not None:
        html = lambda get: paragraph([get(b) for b in banks])  # noqa: E731
    elif len(banks) > 1:
        html = lambda get: gift_multilang({b.lang: get(b) for b in banks}, options.multilang)  # noqa: E731
    else:
        html = lambda get: gift_paragraph(get(first))  # noqa: E731
    for index, q in enumerate(first.questions):
        if q.id in left_out or not GIFT.carries(q):
            continue
        stem = html(lambda b: b.questions[index].stem)
        tags = [first.topic.id, *q.tags, f"difficulty-{q.difficulty}"]
        lines.append(f"// [id:{q.id}] " + " ".join(f"[tag:{tag}]" for tag in tags))
        name = question_name(q.id, {b.lang: b.questions[index].stem for b in banks}, options.multilang)
        lines.append(f"::{gift_escape(name)}::[html]{stem} {{")
        lines += GIFT.writer(q)(q, index, banks, html, options)
        if q.explanation is not None:
            lines.append("\t####" + html(lambda b: b.questions[index].explanation))
        lines.append("}")
        lines.append("")


def _moodle_topic_before(out, banks, category_name, options) -> None:
    first = banks[0]
    multi = len(banks) > 1
    paragraph = moodle_xml.span_paragraphs([b.lang for b in banks], html_text) if multi and options.multilang == "span" else None

    def html(get) -> str:
        if paragraph is not None:
            return paragraph([get(b) for b in banks])
        if multi:
            return multilang_html({b.lang: get(b) for b in banks}, options.multilang)
        return html_paragraph(get(first))

    def plain(get) -> str:
        if multi:
            return multilang_plain({b.lang: get(b) for b in banks}, options.multilang)
        return plain_field(get(first))

    tag_lines: dict[str, str] = {}
    topic_name = category_title({b.lang: b.topic.title for b in banks}, options.multilang)
    out += _category(category_path(category_name, topic_name), html(lambda b: b.topic.summary), category_idnumber(first.topic.id, [b.lang for b in banks]))
    for index, q in enumerate(first.questions):
        if not MOODLE.carries(q):
            continue
        group = [b.questions[index] for b in banks]
        out.append(f'  <question type="{QTYPES[q.kind]}">')
        out.append(f"    <name>\n      <text>{cdata(moodle_xml.question_name(q.id, {b.lang: b.questions[index].stem for b in banks}, options.multilang))}</text>\n    </name>")
        out.append(_text("questiontext", html(lambda b: b.questions[index].stem), "    "))
        if q.explanation is None:
            out.append('    <generalfeedback format="html">\n      <text></text>\n    </generalfeedback>')
        else:
            out.append(_text("generalfeedback", html(lambda b: b.questions[index].explanation), "    "))
        penalty = PENALTIES.get(q.kind, options.penalty)
        out += ["    <defaultgrade>1.0000000</defaultgrade>", f"    <penalty>{penalty:.7f}</penalty>", "    <hidden>0</hidden>", f"    <idnumber>{q.id}</idnumber>"]
        out += MOODLE.writer(q)(q, index, group, [b.lang for b in banks], html, plain, options)
        tags = [first.topic.id, *q.tags, f"difficulty-{q.difficulty}"]
        out.append("    <tags>")
        out += [tag_lines.get(tag) or _tag_line(tag, tag_lines) for tag in tags]
        out.append("    </tags>")
        out.append("  </question>")


def _libraries(root):
    langs = ["en", "fr", "nl"] if (root / "translations" / "nl.po").exists() else ["en", "fr"]
    libraries, _ = load_libraries(root / "bank", root / "translations", langs)
    return libraries


TAG_CHARACTERS = "abc-_019 <>&\"'{}=#:~\\é中"


def _retagged(libraries, rng: random.Random):
    """The libraries with the same random tags and difficulty for each question in every language."""
    first = next(iter(libraries.values()))
    pool = [[rng.choice(["difficulty-2", "x", *("".join(rng.choice(TAG_CHARACTERS) for _ in range(rng.randint(1, 6))) for _ in range(3))])
             for _ in range(rng.randint(0, 4))] for _ in range(6)]
    chosen = {q.id: (rng.choice(pool), rng.choice([1, 2, 3])) for q in first.questions}
    out = {}
    for lang, library in libraries.items():
        topics = tuple(bank.model_copy(update={"questions": tuple(q.model_copy(update={"tags": chosen[q.id][0], "difficulty": chosen[q.id][1]}) for q in bank.questions)})
                       for bank in library.topics)
        out[lang] = library.model_copy(update={"topics": topics})
    return out


@pytest.mark.parametrize("root", [REPO, REPO / "examples" / "every-kind"], ids=["bundled", "every-kind"])
def test_the_files_are_those_before(root, monkeypatch):
    rng = random.Random(16)
    libraries = _libraries(root)
    cases = [libraries] + [_retagged(libraries, rng) for _ in range(6)]
    for case in cases:
        for syntax in ("span", "mlang"):
            options = ExportOptions(multilang=syntax)
            for fmt, module, before in ((GIFT, gift, _gift_topic_before), (MOODLE, moodle_xml, _moodle_topic_before)):
                after = fmt.bank_files(case, options)
                monkeypatch.setattr(module, "_topic", before)
                was = fmt.bank_files(case, options)
                monkeypatch.undo()
                assert [(f.path, f.data) for f in after] == [(f.path, f.data) for f in was]
                assert len(after) == len(case) + 1
