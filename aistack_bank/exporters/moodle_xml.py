"""Conversion of a bank to Moodle XML (one file per language, plus one multilingual file).

Questions go into nested question categories, ``$course$/top/<category>/<topic>``: each topic
is preceded by the pseudo-question that switches to its category (and, first, by the one that
creates its category with that category's idnumber). Category idnumbers name the language
(``category-<category-id>-<lang>``, ``<topic-id>-<lang>``, ``…-multilang``), since Moodle keeps
them unique per course: every language's file can be imported into the same course.
"""

from __future__ import annotations

import re
from functools import partial
from typing import Sequence

from ..model import Bank, Library
from ..options import ExportOptions
from .record import Format, as_library, by_category
from .moodle_common import credit, moodle_answer_text, multiple_response_fractions, notes as moodle_notes, numerical_units, short_answers
from .common import (EncodedLines, cdata, category_idnumber, category_path, category_title, html_paragraph, html_text, multilang_html, multilang_plain, moodle_percent, plain_field,
                     plain_number, question_name, span_paragraphs)


def _text(tag: str, html: str, indent: str) -> str:
    return f'{indent}<{tag} format="html">\n{indent}  <text>{cdata(html)}</text>\n{indent}</{tag}>'


QTYPES = {"single-choice": "multichoice", "multiple-response": "multichoice", "true-false": "truefalse",
          "numerical": "numerical", "short-answer": "shortanswer", "matching": "matching", "ordering": "ordering", "essay": "essay"}
"""The ``type`` Moodle's XML exporter writes for each kind (``matching`` for the ``match`` qtype)."""

_EMPTY_FEEDBACK = '      <feedback format="html">\n        <text></text>\n      </feedback>'


def _feedback(html: str | None) -> str:
    if not html:
        return _EMPTY_FEEDBACK
    return f'      <feedback format="html">\n        <text>{cdata(html)}</text>\n      </feedback>'


def _combined_feedback() -> list[str]:
    return [
        '    <correctfeedback format="html">\n      <text></text>\n    </correctfeedback>',
        '    <partiallycorrectfeedback format="html">\n      <text></text>\n    </partiallycorrectfeedback>',
        '    <incorrectfeedback format="html">\n      <text></text>\n    </incorrectfeedback>',
    ]


def _choices(q, index, group, langs, html, plain, options, *, multi: bool) -> list[str]:
    """``multichoice``: single choice (one answer at 100) or multiple response (``multi``:
    ``single`` false, each option at its listed grade)."""
    right = () if multi else q.right_ids()
    fractions = multiple_response_fractions(q) if multi else [1.0 if o.id in right else 0.0 for o in q.options]
    out = [
        f"    <single>{'false' if multi else 'true'}</single>",
        f"    <shuffleanswers>{'true' if options.shuffle else 'false'}</shuffleanswers>",
        f"    <answernumbering>{options.answer_numbering}</answernumbering>",
        "    <showstandardinstruction>0</showstandardinstruction>",
        *_combined_feedback(),
    ]
    if multi:
        out.append("    <shownumcorrect/>")
    for o_index, option in enumerate(q.options):
        out.append(f'    <answer fraction="{moodle_percent(fractions[o_index])}" format="html">')
        out.append(f"      <text>{cdata(html(lambda b: b.questions[index].options[o_index].text))}</text>")
        if option.feedback is not None:
            out.append(_feedback(html(lambda b: b.questions[index].options[o_index].feedback or "")))
        else:
            out.append(_EMPTY_FEEDBACK)
        out.append("    </answer>")
    return out


def _true_false(q, index, group, langs, html, plain, options) -> list[str]:
    """``truefalse``: answers ``true`` and ``false`` (Moodle matches these texts), each with the
    feedback for a learner who gives it."""
    out = []
    for side, value in (("true", True), ("false", False)):
        fraction = "100" if q.answer == value else "0"
        has = getattr(q, f"feedback_{side}") is not None
        out.append(f'    <answer fraction="{fraction}" format="moodle_auto_format">')
        out.append(f"      <text>{side}</text>")
        out.append(_feedback(html(lambda b: getattr(b.questions[index], f"feedback_{side}") or "") if has else None))
        out.append("    </answer>")
    return out


def _numerical(q, index, group, langs, html, plain, options) -> list[str]:
    """``numerical``: the answer with its absolute tolerance first (Moodle grades by the first
    answer whose range holds the response), then each near miss with its grade and feedback; the
    units of every language, the answer's first; units optional (``showunits`` 0, not graded):
    a number without a unit is read in the first unit."""
    out = [
        '    <answer fraction="100" format="moodle_auto_format">',
        f"      <text>{plain_number(q.answer)}</text>",
        _EMPTY_FEEDBACK,
        f"      <tolerance>{plain_number(q.absolute_tolerance)}</tolerance>",
        "    </answer>",
    ]
    for n_index, near in enumerate(q.near_misses):
        out += [
            f'    <answer fraction="{moodle_percent(credit(near.credit))}" format="moodle_auto_format">',
            f"      <text>{plain_number(near.value)}</text>",
            _feedback(html(lambda b: b.questions[index].near_misses[n_index].feedback)),
            f"      <tolerance>{plain_number(near.tolerance)}</tolerance>",
            "    </answer>",
        ]
    units = numerical_units(group)
    if units:
        out.append("    <units>")
        for name, multiplier in units:
            out.append(f"      <unit>\n        <multiplier>{plain_number(multiplier)}</multiplier>\n        <unit_name>{html_text(name)}</unit_name>\n      </unit>")
        out.append("    </units>")
    out += [
        "    <unitgradingtype>0</unitgradingtype>",
        "    <unitpenalty>0.1000000</unitpenalty>",
        f"    <showunits>{0 if units else 3}</showunits>",
        "    <unitsleft>0</unitsleft>",
    ]
    return out


def _short_answer(q, index, group, langs, html, plain, options) -> list[str]:
    """``shortanswer``: ``usecase`` and one plain-text answer per accepted spelling (of every
    language, in a multilingual file), each with its grade and feedback."""
    out = [f"    <usecase>{1 if q.case_sensitive else 0}</usecase>"]
    for answer in short_answers(group, langs):
        feedback = None
        if answer.feedback:
            texts = answer.feedback  # the feedback of each language that accepts this text
            feedback = multilang_html(texts, options.multilang) if len(texts) > 1 else html_paragraph(next(iter(texts.values())))
        out += [
            f'    <answer fraction="{moodle_percent(answer.credit)}" format="moodle_auto_format">',
            f"      <text>{html_text(moodle_answer_text(answer.text))}</text>",
            _feedback(feedback),
            "    </answer>",
        ]
    return out


def _matching(q, index, group, langs, html, plain, options) -> list[str]:
    """``match``: one subquestion per pair (HTML prompt, plain-text answer) and one with empty
    text per distractor, which is how Moodle stores an answer that matches no prompt."""
    out = [f"    <shuffleanswers>{'true' if options.shuffle else 'false'}</shuffleanswers>", *_combined_feedback(), "    <shownumcorrect/>"]
    for p_index, _pair in enumerate(q.pairs):
        out.append('    <subquestion format="html">')
        out.append(f"      <text>{cdata(html(lambda b: b.questions[index].pairs[p_index].prompt))}</text>")
        out.append(f"      <answer>\n        <text>{cdata(plain(lambda b: b.questions[index].pairs[p_index].answer))}</text>\n      </answer>")
        out.append("    </subquestion>")
    for d_index, _extra in enumerate(q.distractors):
        out.append('    <subquestion format="html">')
        out.append("      <text></text>")
        out.append(f"      <answer>\n        <text>{cdata(plain(lambda b: b.questions[index].distractors[d_index].text))}</text>\n      </answer>")
        out.append("    </subquestion>")
    return out


def _ordering(q, index, group, langs, html, plain, options) -> list[str]:
    """``ordering`` (qtype_ordering, standard since Moodle 4.4): every item shown, vertically,
    graded all or nothing; each answer's ``fraction`` is its position in the right order."""
    out = [
        "    <layouttype>VERTICAL</layouttype>",
        "    <selecttype>ALL</selecttype>",
        "    <selectcount>0</selectcount>",
        "    <gradingtype>ALL_OR_NOTHING</gradingtype>",
        "    <showgrading>SHOW</showgrading>",
        "    <numberingstyle>none</numberingstyle>",
        *_combined_feedback(),
        "    <shownumcorrect/>",
    ]
    for i_index, _item in enumerate(q.items):
        out.append(f'    <answer fraction="{i_index + 1}.0000000" format="html">')
        out.append(f"      <text>{cdata(html(lambda b: b.questions[index].items[i_index].text))}</text>")
        out.append(_EMPTY_FEEDBACK)
        out.append("    </answer>")
    return out


def _essay(q, index, group, langs, html, plain, options) -> list[str]:
    """``essay``: an answer typed in the editor, graded by a person; the model answer is the
    grader information, the response template what the editor starts with."""
    def field(tag: str, name: str) -> str:
        text = html(lambda b: getattr(b.questions[index], name)) if getattr(q, name) is not None else ""
        return f'    <{tag} format="html">\n      <text>{cdata(text) if text else ""}</text>\n    </{tag}>'

    return [
        "    <responseformat>editor</responseformat>",
        "    <responserequired>1</responserequired>",
        "    <responsefieldlines>10</responsefieldlines>",
        "    <attachments>0</attachments>",
        "    <attachmentsrequired>0</attachmentsrequired>",
        field("graderinfo", "model_answer"),
        field("responsetemplate", "response_template"),
    ]


WRITERS = {"single-choice": partial(_choices, multi=False), "multiple-response": partial(_choices, multi=True), "true-false": _true_false,
           "numerical": _numerical, "short-answer": _short_answer, "matching": _matching, "ordering": _ordering, "essay": _essay}

PENALTIES = {"true-false": 1.0}
"""The penalty of a question of each kind that does not take ``ExportOptions.penalty``: a true-false
question has two answers, so a second try is no test."""


def _category(path: str, info_html: str, idnumber: str) -> list[str]:
    return [
        '  <question type="category">',
        f"    <category>\n      <text>{cdata(path)}</text>\n    </category>",
        _text("info", info_html, "    "),
        f"    <idnumber>{html_text(idnumber)}</idnumber>",
        "  </question>",
    ]


def render_bank(libraries: Sequence[Library], options: ExportOptions) -> bytes:
    """Moodle XML for a whole bank in one language, or (several libraries) in every language:
    each category, then each of its topics with its questions."""
    first = libraries[0]
    langs = [lib.lang for lib in libraries]
    count = len(first.questions)
    if len(first.topics) == 1:
        what = html_text(first.topics[0].topic.title)
    else:
        what = f"{len(first.topics)} topics in {len(by_category(first))} categories"
    out = EncodedLines(['<?xml version="1.0" encoding="UTF-8"?>', "<quiz>"])  # encoded as it comes: a large file is held once
    comment = re.sub(r"-(?=-)", "- ", what)  # an XML comment cannot hold "--"
    out.append(f"  <!-- {comment} ({', '.join(langs)}): {count} question{'' if count == 1 else 's'}, generated by aistack-bank -->")
    for category, topics in by_category(first):
        category_name = category_title({lib.lang: lib.category(category.id).title for lib in libraries}, options.multilang)
        out += _category(category_path(category_name), "", category_idnumber(f"category-{category.id}", langs))
        for topic in topics:
            _topic(out, [lib.bank(topic.topic.id) for lib in libraries], category_name, options)
    out.append("</quiz>")
    return out.data(end="\n")


def render_quiz(banks: Sequence[Bank], options: ExportOptions) -> bytes:
    """Moodle XML for one topic, or (several banks) one topic in every language."""
    return render_bank([as_library(bank) for bank in banks], options)


def _topic(out: EncodedLines, banks: Sequence[Bank], category_name: str, options: ExportOptions) -> None:
    """The pseudo-question switching to the topic's category, then the topic's questions, added to ``out``."""
    first = banks[0]
    multi = len(banks) > 1
    paragraph = span_paragraphs([b.lang for b in banks], html_text) if multi and options.multilang == "span" else None  # (multilang_html's paragraph)

    def html(get) -> str:
        if paragraph is not None:
            return paragraph([get(b) for b in banks])
        if multi:
            return multilang_html({b.lang: get(b) for b in banks}, options.multilang)
        return html_paragraph(get(first))

    def plain(get) -> str:  # names and matching answers: plain text, stored by Moodle as written
        if multi:
            return multilang_plain({b.lang: get(b) for b in banks}, options.multilang)
        return plain_field(get(first))

    tag_lines: dict[str, str] = {}
    tag_blocks: dict[tuple[str, ...], str] = {}
    topic_name = category_title({b.lang: b.topic.title for b in banks}, options.multilang)
    out += _category(category_path(category_name, topic_name), html(lambda b: b.topic.summary), category_idnumber(first.topic.id, [b.lang for b in banks]))
    for index, q in enumerate(first.questions):
        if not FORMAT.carries(q):
            continue
        group = [b.questions[index] for b in banks]
        out.append(f'  <question type="{QTYPES[q.kind]}">')
        out.append(f"    <name>\n      <text>{cdata(question_name(q.id, {b.lang: b.questions[index].stem for b in banks}, options.multilang))}</text>\n    </name>")
        out.append(_text("questiontext", html(lambda b: b.questions[index].stem), "    "))
        if q.explanation is None:
            out.append('    <generalfeedback format="html">\n      <text></text>\n    </generalfeedback>')
        else:
            out.append(_text("generalfeedback", html(lambda b: b.questions[index].explanation), "    "))
        penalty = PENALTIES.get(q.kind, options.penalty)
        out += [
            "    <defaultgrade>1.0000000</defaultgrade>",
            f"    <penalty>{penalty:.7f}</penalty>",
            "    <hidden>0</hidden>",
            f"    <idnumber>{q.id}</idnumber>",
        ]
        out += FORMAT.writer(q)(q, index, group, [b.lang for b in banks], html, plain, options)
        difficulty = f"difficulty-{q.difficulty}"
        key = (*q.tags, difficulty)
        tags = tag_blocks.get(key)
        if tags is None:  # (a topic's questions share a few hundred sets of tags: each set's lines joined once, each tag escaped once)
            tags = tag_blocks[key] = "\n".join(["    <tags>", *[tag_lines.get(tag) or _tag_line(tag, tag_lines) for tag in [first.topic.id, *q.tags, difficulty]],
                                                "    </tags>"])
        out.append(tags)  # (the file's lines are joined by line breaks: the same bytes as each line appended)
        out.append("  </question>")


def _tag_line(tag: str, made: dict[str, str]) -> str:
    """A question's tag as its ``<tag>`` element's lines, kept in ``made`` by the tag."""
    line = made[tag] = f"      <tag>\n        <text>{html_text(tag)}</text>\n      </tag>"
    return line


FORMAT = Format(
    name="moodle-xml", folder="moodle", honours=frozenset({"shuffle", "answer_numbering", "multilang", "penalty"}), writers=WRITERS,
    render=render_quiz, per_language="{stem}-{lang}.xml", multilingual="{stem}-multilang.xml", render_bank=render_bank,
    notes=lambda banks, options: moodle_notes("moodle-xml", banks),
    platforms='Moodle: *Question bank → Import → Moodle XML format*, with *Get category from file* ticked. The `multilang` file holds every language in one course, shown to each learner in their language by Moodle\'s *Multi-language content* filter (enable it; with `multilang = "mlang"` in `bank.toml`, the filter_multilang2 plugin); a language\'s own file gives a course in that language. Every file can be imported into the same course: category ID numbers name their language.',
    loses="Nothing of the bank: every kind, feedback, explanation, unit, tag and id is carried. Moodle core's multiple choice has no all-or-nothing grading, and accepts only its list of grades (warnings W655, W656 name the questions).",
)
export = FORMAT
