"""QTI 1.2 items shared by the Canvas quiz export and the Common Cartridge export.

Identifiers (stable, from the bank's ids, one set per language so that two languages imported
into one course never collide):
  assessment / quiz folder  <topic>-<lang>             item           <qid>-<lang>
  answer (response_label)   <qid>-<lang>-<option>      its feedback   <qid>-<lang>-<option>_fb
  general feedback          general_fb                 response       response1
Canvas reads ``general_fb`` as the neutral comment and ``<answer>_fb`` as the answer's comment.
In the cartridge a true/false item's answers are ``true`` and ``false`` (Moodle's converter
accepts no other), and its response rules follow Moodle's own cartridge writer
(the ``cartridge_rules`` of :data:`ITEM_PARTS`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from operator import itemgetter
from typing import Callable, Iterator

from ..kinds.short_answer import has_wildcard, literal, spellings
from ..model import AcceptedAnswer, Bank
from .qti_common import SLOTS, ncname, slot_texts
from .common import any_in_english, html_paragraph, html_paragraph_escaped, html_text, in_english, paragraph_escaped_body, short
from .words import words, writes_decimal_comma

QTI12_NS = "http://www.imsglobal.org/xsd/ims_qtiasiv1p2"
QTI12_XSD = "http://www.imsglobal.org/xsd/ims_qtiasiv1p2p1.xsd"
POINTS = 1


def assessment_ident(bank: Bank) -> str:
    return ncname(f"{bank.topic.id}-{bank.lang}")


def item_ident(qid: str, lang: str) -> str:
    return ncname(f"{qid}-{lang}")


def answer_ident(qid: str, lang: str, option_id: str) -> str:
    return ncname(f"{qid}-{lang}-{option_id}")


def _mattext(text_raw: str, indent: str, html: bool = True) -> str:
    if html:
        return f'{indent}<material>\n{indent}  <mattext texttype="text/html">{html_paragraph_escaped(text_raw)}</mattext>\n{indent}</material>'
    return f'{indent}<material>\n{indent}  <mattext texttype="text/plain">{html_text(text_raw)}</mattext>\n{indent}</material>'


def _field(label: str, entry: str, indent: str) -> str:
    return f"{indent}<qtimetadatafield>\n{indent}  <fieldlabel>{label}</fieldlabel>\n{indent}  <fieldentry>{html_text(entry)}</fieldentry>\n{indent}</qtimetadatafield>"


CANVAS_TYPES = {
    "single-choice": "multiple_choice_question", "multiple-response": "multiple_answers_question",
    "true-false": "true_false_question", "numerical": "numerical_question",
    "short-answer": "short_answer_question", "matching": "matching_question", "essay": "essay_question",
}
"""Canvas's ``question_type`` of each kind it carries (what its own quiz export writes)."""

CC_PROFILES = {
    "single-choice": "cc.multiple_choice.v0p1", "multiple-response": "cc.multiple_response.v0p1",
    "true-false": "cc.true_false.v0p1", "short-answer": "cc.fib.v0p1", "essay": "cc.essay.v0p1",
}
"""The cartridge profile of each kind it carries (no numerical, no matching, no ordering)."""


def full_credit_answers(q, canvas: bool = False) -> list:
    """A short answer's accepted answers with full credit, as the profile or Canvas compares them
    (exactly, ignoring case): Canvas and the cc profile give every accepted answer full marks, so
    one with partial credit is left out (and the export warns). Each answer comes with the
    spellings the bank's folding accepts that a learner commonly types (``'`` and ``’``,
    hyphen and space, no diacritics when the question folds them), each once ignoring case; a
    ``\\*`` is written as the star it stands for. An answer with Moodle's wildcard is kept as it
    is in a cartridge (Moodle's restore reads it as its wildcard) and left out for Canvas, which
    would credit only the literal text, unless every full-credit answer has one (then Canvas gets
    them as written; both formats warn)."""
    out: dict[str, AcceptedAnswer] = {}
    wild_only = all(has_wildcard(a.text) for a in q.answers if a.credit >= 1)
    for answer in q.answers:
        if answer.credit < 1 or (canvas and has_wildcard(answer.text) and not wild_only):
            continue
        for text in spellings(answer.text, q.fold_diacritics):
            text = text if has_wildcard(text) else literal(text)
            out.setdefault(text.casefold(), answer.model_copy(update={"text": text}))
    return list(out.values())


def _condition(i: str, tests: list[str], actions: list[str], continue_: str | None = "Yes") -> list[str]:
    attribute = f' continue="{continue_}"' if continue_ else ""
    return [f"{i}    <respcondition{attribute}>", f"{i}      <conditionvar>", *[f"{i}        {t}" for t in tests], f"{i}      </conditionvar>",
            *[f"{i}      {a}" for a in actions], f"{i}    </respcondition>"]


def _show(ident: str) -> str:
    return f'<displayfeedback feedbacktype="Response" linkrefid="{ident}"/>'


def _equal(value: str, respident: str = "response1", case: bool = False) -> str:
    marked = ' case="Yes"' if case else ""
    return f'<varequal respident="{respident}"{marked}>{html_text(value)}</varequal>'


def _number(value: float) -> str:
    text = repr(float(value))
    return text[:-2] if text.endswith(".0") else text


def numerical_stem(q, lang: str) -> str:
    """The stem, and the sentence naming the unit to answer in (Canvas has no units) and asking
    for a decimal point where the language writes a comma."""
    labels = words(lang)
    asked = ([labels.unit.format(unit=q.units[0].name)] if q.units else []) + ([labels.point] if writes_decimal_comma(lang) else [])
    return q.stem + ("\n" + " ".join(asked) if asked else "")


def match_idents(q, lang: str) -> tuple[dict[str, str], list[tuple[str, str]]]:
    """(pair id → its answer's match ident, [(match ident, text)] of every answer offered).
    Canvas's importer takes a match's id from the first digits of its ident, so each starts with
    its own number (``match2-q010-en``); a text two prompts share is offered once."""
    offered: list[tuple[str, str]] = []
    by_text: dict[str, str] = {}
    for text_raw in [pair.answer for pair in q.pairs] + [x.text for x in q.distractors]:
        if text_raw not in by_text:
            by_text[text_raw] = ncname(f"match{len(offered) + 1}-{q.id}-{lang}")
            offered.append((by_text[text_raw], text_raw))
    return {pair.id: by_text[pair.answer] for pair in q.pairs}, offered


SCORE_100 = '<setvar action="Set" varname="SCORE">100</setvar>'


# Each kind's part of an item, in the order an item is written. An answer is ``(ident, text,
# feedback)`` in the order shown; ``right`` the idents of the right ones.

def _option_answers(q, lang: str, canvas: bool) -> tuple[list, set, str]:
    answers = [(answer_ident(q.id, lang, o.id), o.text, o.feedback) for o in q.options]
    return answers, {answer_ident(q.id, lang, c) for c in q.right_ids()}, q.stem


def _true_false_answers(q, lang: str, canvas: bool) -> tuple[list, set, str]:
    # The cartridge names the answers ``true`` and ``false``, as Moodle's own cartridge writer
    # does: its converter throws on any other identifier and the whole restore is lost.
    labels = words(lang)
    name = (lambda value: value) if not canvas else (lambda value: answer_ident(q.id, lang, value))
    answers = [(name("true"), labels.true, q.feedback_true), (name("false"), labels.false, q.feedback_false)]
    return answers, {name("true" if q.answer else "false")}, q.stem


def _short_answers(q, lang: str, canvas: bool) -> tuple[list, set, str]:
    answers = [(answer_ident(q.id, lang, str(n)), a.text, a.feedback) for n, a in enumerate(full_credit_answers(q, canvas), start=1)]
    return answers, {a[0] for a in answers}, q.stem


def _numerical_answers(q, lang: str, canvas: bool) -> tuple[list, set, str]:
    return [(answer_ident(q.id, lang, "1"), _number(q.answer), None)], set(), numerical_stem(q, lang)


def _matching_answers(q, lang: str, canvas: bool) -> tuple[list, set, str]:
    return [(answer_ident(q.id, lang, pair.id), pair.prompt, None) for pair in q.pairs], set(), q.stem


def _choice_response(cardinality: str):
    def response(i: str, q, lang: str, answers: list) -> list[str]:
        out = [f'{i}    <response_lid ident="response1" rcardinality="{cardinality}">', f"{i}      <render_choice>"]
        for answer, text_raw, _ in answers:
            out += [f'{i}        <response_label ident="{answer}">', _mattext(text_raw, i + "          ", html=False), f"{i}        </response_label>"]
        return out + [f"{i}      </render_choice>", f"{i}    </response_lid>"]
    return response


def _text_response(fib: str, label: str):
    def response(i: str, q, lang: str, answers: list) -> list[str]:
        return [f'{i}    <response_str ident="response1" rcardinality="Single">', f"{i}      <render_fib{fib}>", f"{i}        {label}",
                f"{i}      </render_fib>", f"{i}    </response_str>"]
    return response


def _matching_response(i: str, q, lang: str, answers: list) -> list[str]:
    _, offered = match_idents(q, lang)
    out = []
    for answer, text_raw, _ in answers:
        out += [f'{i}    <response_lid ident="response_{answer}">', _mattext(text_raw, i + "      ", html=False), f"{i}      <render_choice>"]
        for match, match_text in offered:
            out += [f'{i}        <response_label ident="{match}">', _mattext(match_text, i + "          ", html=False), f"{i}        </response_label>"]
        out += [f"{i}      </render_choice>", f"{i}    </response_lid>"]
    return out


def _feedback_rules(by_text: bool):
    """Canvas: a rule per answer with feedback, naming it by its ident (by its text for a short answer)."""
    def rules(i: str, answers: list) -> list[str]:
        out = []
        for answer, text_raw, feedback in answers:
            if feedback is not None:
                out += _condition(i, [_equal(text_raw if by_text else answer)], [_show(f"{answer}_fb")])
        return out
    return rules


def _no_rules(i: str, answers: list) -> list[str]:
    return []


def _one_key_scoring(i: str, q, lang: str, answers: list, right: set) -> list[str]:
    return _condition(i, [_equal(next(iter(right)))], [SCORE_100], "No")


def _every_key_scoring(i: str, q, lang: str, answers: list, right: set) -> list[str]:
    tests = ["<and>"] + [f"  {_equal(answer)}" if answer in right else f"  <not>{_equal(answer)}</not>" for answer, _, _ in answers] + ["</and>"]
    return _condition(i, tests, [SCORE_100], "No")


def _any_text_scoring(i: str, q, lang: str, answers: list, right: set) -> list[str]:
    return _condition(i, [_equal(text_raw) for _, text_raw, _ in answers], [SCORE_100], "No")


def _range_scoring(i: str, q, lang: str, answers: list, right: set) -> list[str]:
    low, high = q.answer - q.absolute_tolerance, q.answer + q.absolute_tolerance
    tests = ["<or>", f"  {_equal(_number(q.answer))}", "  <and>", f'    <vargte respident="response1">{_number(low)}</vargte>',
             f'    <varlte respident="response1">{_number(high)}</varlte>', "  </and>", "</or>"]
    return _condition(i, tests, [SCORE_100], "No")


def _pairs_scoring(i: str, q, lang: str, answers: list, right: set) -> list[str]:
    match_of, _ = match_idents(q, lang)
    share = "%.2f" % (100 / len(q.pairs))
    out = []
    for pair, (answer, _, _) in zip(q.pairs, answers):
        out += _condition(i, [_equal(match_of[pair.id], respident=f"response_{answer}")], [f'<setvar action="Add" varname="SCORE">{share}</setvar>'], None)
    return out


# The response rules of a cartridge item after the explanation's, in the layout of Moodle's own
# cartridge writer (``backup/cc/cc_lib/cc_asssesment.php``): Moodle's converter makes the feedback
# of every rule marked ``continue="Yes"`` part of the general feedback, so only the explanation's
# rule is marked so.

def _one_key_cartridge(i: str, answers: list, right: set) -> list[str]:
    """Single choice, true/false: the scoring rule holds the right answer's feedback, then each
    wrong answer with feedback has its own rule setting SCORE to 0, all ``continue="No"``."""
    key = next(iter(right))
    shown = [_show(f"{key}_fb")] if any(answer == key and feedback is not None for answer, _, feedback in answers) else []
    out = _condition(i, [_equal(key)], [SCORE_100, *shown], "No")
    for answer, _, feedback in answers:
        if feedback is not None and answer != key:
            out += _condition(i, [_equal(answer)], ['<setvar action="Set" varname="SCORE">0</setvar>', _show(f"{answer}_fb")], "No")
    return out


def _every_key_cartridge(i: str, answers: list, right: set) -> list[str]:
    """Multiple response: the scoring rule (every right option picked, no wrong one; the keys
    marked ``case="Yes"``, which the converter needs to find them), then a rule per option with
    feedback, all ``continue="No"``."""
    tests = ["<and>"] + [f"  {_equal(answer, case=True)}" if answer in right else f"  <not>{_equal(answer)}</not>" for answer, _, _ in answers] + ["</and>"]
    out = _condition(i, tests, [SCORE_100], "No")
    for answer, _, feedback in answers:
        if feedback is not None:
            out += _condition(i, [_equal(answer, case=True)], [_show(f"{answer}_fb")], "No")
    return out


def _fib_cartridge(i: str, answers: list, right: set) -> list[str]:
    """Fill in the blank: the scoring rule (any accepted answer) goes on to a rule per answer with
    feedback, each ``continue="No"``: Moodle's converter keeps the answers from the first rule
    setting SCORE to 100 and would drop their feedback wherever it stood."""
    out = _condition(i, [_equal(text_raw) for _, text_raw, _ in answers], [SCORE_100], "Yes")
    for answer, text_raw, feedback in answers:
        if feedback is not None:
            out += _condition(i, [_equal(text_raw)], [_show(f"{answer}_fb")], "No")
    return out


@dataclass(frozen=True)
class ItemParts:
    """What an item of one kind holds, part by part (see :func:`render_item`)."""

    answers: Callable
    """``(question, lang, canvas)`` → (answers, the right answers' idents, the stem shown)."""
    response: Callable
    """``(indent, question, lang, answers)`` → the response element(s) of the presentation."""
    feedback_rules: Callable
    """Canvas: ``(indent, answers)`` → the rules showing each answer's feedback."""
    scoring: Callable
    """Canvas: ``(indent, question, lang, answers, right)`` → the scoring rule(s)."""
    cartridge_rules: Callable | None = None
    """The cartridge: ``(indent, answers, right)`` → every rule after the explanation's (None for a kind the profile lacks)."""


ITEM_PARTS = {
    "single-choice": ItemParts(_option_answers, _choice_response("Single"), _feedback_rules(by_text=False), _one_key_scoring, _one_key_cartridge),
    "multiple-response": ItemParts(_option_answers, _choice_response("Multiple"), _feedback_rules(by_text=False), _every_key_scoring, _every_key_cartridge),
    "true-false": ItemParts(_true_false_answers, _choice_response("Single"), _feedback_rules(by_text=False), _one_key_scoring, _one_key_cartridge),
    "short-answer": ItemParts(_short_answers, _text_response("", '<response_label ident="answer1" rshuffle="No"/>'), _feedback_rules(by_text=True),
                              _any_text_scoring, _fib_cartridge),
    "numerical": ItemParts(_numerical_answers, _text_response(' fibtype="Decimal"', '<response_label ident="answer1"/>'), _no_rules, _range_scoring),
    "matching": ItemParts(_matching_answers, _matching_response, _no_rules, _pairs_scoring),
}
"""The parts of an item of each kind :func:`render_item` writes (the essay has its own writers)."""


def render_item(bank: Bank, index: int, *, canvas: bool, indent: str = "      ", suffix: str = "", shared: SharedTexts | None = None) -> list[str]:
    """One ``<item>`` of any kind the target carries: Canvas's metadata (``question_type``,
    ``points_possible``, ``original_answer_ids``) or the cartridge profile's (``cc_profile``,
    ``cc_weighting``), the presentation and the scoring as Canvas's own quiz export writes them
    (each kind's parts from :data:`ITEM_PARTS`). With ``shared``, a choice item's texts as its
    template puts them in are kept there for the same question's item in the other layout
    (:class:`SharedTexts`), or taken from there when that item was written first."""
    q = bank.questions[index]
    if q.kind in SLOTS:
        made = _from_template(q, bank.lang, canvas, indent, suffix, shared, index)
        if made is not None:
            return [made.decode("utf-8")]
    return written_item(q, bank.lang, canvas=canvas, indent=indent, suffix=suffix)


def render_item_utf8(bank: Bank, index: int, *, canvas: bool, indent: str = "      ", suffix: str = "", shared: SharedTexts | None = None) -> bytes:
    """:func:`render_item`'s lines joined by line breaks, in UTF-8: a choice item copied from
    its template in bytes (only the texts put in encoded), any other item's lines encoded."""
    q = bank.questions[index]
    if q.kind in SLOTS:
        made = _from_template(q, bank.lang, canvas, indent, suffix, shared, index)
        if made is not None:
            return made
    return "\n".join(written_item(q, bank.lang, canvas=canvas, indent=indent, suffix=suffix)).encode("utf-8")


def items_utf8(fmt, bank: Bank, *, canvas: bool, shared: SharedTexts | None = None, **layout) -> Iterator[bytes]:
    """Each item of ``bank`` that the format ``fmt`` carries, its lines joined, in UTF-8, in the
    layout given: a choice item copied from its template in bytes (:func:`render_item_utf8`, its
    texts shared through ``shared``), any other kind's item from the format's writer."""
    questions, writers = bank.questions, fmt.writers
    for index in fmt.carried(bank):
        write = writers[questions[index].kind]
        if write is render_item:
            yield render_item_utf8(bank, index, canvas=canvas, shared=shared, **layout)
            continue
        lines = write(bank, index, canvas=canvas, **layout)
        if lines:
            yield "\n".join(lines).encode("utf-8")


def _item_line(q, ident: str, i: str) -> str:
    return f'{i}<item ident="{ident}" title="{html_text(short(q.id + " " + q.stem, 120))}">'


def written_item(q, lang: str, *, canvas: bool, indent: str = "      ", suffix: str = "") -> list[str]:
    """:func:`render_item`'s lines, each written for this question (a choice item is copied
    from the template of its shape instead, :func:`_from_template`)."""
    parts = ITEM_PARTS[q.kind]
    i = indent
    ident = item_ident(q.id, lang) + suffix
    answers, right, stem = parts.answers(q, lang, canvas)
    out = [_item_line(q, ident, i), f"{i}  <itemmetadata>", f"{i}    <qtimetadata>"]
    if canvas:
        fields = [("question_type", CANVAS_TYPES[q.kind]), ("points_possible", f"{POINTS:.1f}"),
                  ("original_answer_ids", ",".join(a[0] for a in answers)), ("assessment_question_identifierref", ncname(f"{ident}-bank"))]
    else:
        fields = [("cc_profile", CC_PROFILES[q.kind]), ("cc_weighting", str(POINTS)), ("question_type", CANVAS_TYPES[q.kind])]
    out += [_field(label, entry, i + "      ") for label, entry in fields]
    out += [f"{i}    </qtimetadata>", f"{i}  </itemmetadata>", f"{i}  <presentation>", _mattext(stem, i + "    ")]
    out += parts.response(i, q, lang, answers)
    out += [f"{i}  </presentation>", f"{i}  <resprocessing>", f"{i}    <outcomes>",
            f'{i}      <decvar maxvalue="100" minvalue="0" varname="SCORE" vartype="Decimal"/>', f"{i}    </outcomes>"]
    out += _condition(i, ["<other/>"], [_show("general_fb")])
    if not canvas and parts.cartridge_rules is not None:
        out += parts.cartridge_rules(i, answers, right)
    else:
        out += parts.feedback_rules(i, answers) + parts.scoring(i, q, lang, answers, right)
    out.append(f"{i}  </resprocessing>")
    if q.explanation is not None:
        out += [f'{i}  <itemfeedback ident="general_fb">', f"{i}    <flow_mat>", _mattext(q.explanation, i + "      "), f"{i}    </flow_mat>", f"{i}  </itemfeedback>"]
    for answer, _, feedback in answers:
        if feedback is None:
            continue
        out += [f'{i}  <itemfeedback ident="{answer}_fb">', f"{i}    <flow_mat>", _mattext(feedback, i + "      "), f"{i}    </flow_mat>", f"{i}  </itemfeedback>"]
    out.append(f"{i}</item>")
    return out


# A choice item is the same text for every question of its shape but for its first line, its
# identifiers (each starts with the question's, ``<qid>-<lang>``) and its texts: written once
# per shape with a placeholder question (a placeholder for each text, an identifier of its own),
# then split at them (as QTI 2.1 and 3.0 items are, ``qti_common._from_template``).


_STAND_IN = "zqTemplateItemzq"
"""The placeholder question's id: an NCName that no template holds but in its identifiers."""

_TEMPLATES: dict[tuple, tuple | None] = {}
"""By shape: what goes between the item's pieces (the question's identifier, -1, or a text's
number and whether it is an escaped paragraph), then the pieces after its first line, in UTF-8
(the first one after the first line's break), and the whole item as one format of bytes (its
``%`` doubled) taking the identifier, the title and then what goes between the pieces; the
texts put in (``(number, whether an escaped paragraph)``, each once) and what picks the format's
values from ``[identifier, title, *those texts]``; or None when the shape cannot be split."""


def _template(q, lang: str, canvas: bool, indent: str, suffix: str, texts: list, marked: tuple | None) -> tuple | None:
    from .common import placeholders_in_english
    from .qti_common import with_texts

    holes = [None if not text else f"\ue000{n}\n\ue001" for n, text in enumerate(texts)]
    placeholders = [hole if hole is not None else text for hole, text in zip(holes, texts)]
    fallbacks = frozenset(hole for hole, mark in zip(holes, marked or ()) if hole is not None and mark)
    stand_in = with_texts(q, placeholders).model_copy(update={"id": _STAND_IN})
    with placeholders_in_english(fallbacks):
        text = "\n".join(written_item(stand_in, lang, canvas=canvas, indent=indent, suffix=suffix))
    _, _, rest = text.partition("\n")  # (the first line, made for each item)
    prefix = item_ident(_STAND_IN, lang)
    pieces = re.split("\ue000([0-9]+)(\n|&lt;br/&gt;)\ue001|(" + re.escape(prefix) + ")", rest)
    literals = pieces[0::4]
    slots = tuple(-1 if ident is not None else (int(n), way != "\n") for n, way, ident in zip(pieces[1::4], pieces[2::4], pieces[3::4]))
    if sorted(slot[0] for slot in slots if slot != -1) != [n for n, hole in enumerate(holes) if hole is not None] or \
            any("\ue000" in piece or "\ue001" in piece or _STAND_IN in piece for piece in literals):
        return None  # (a placeholder written otherwise, or twice: the shape's items are written whole)
    utf8 = (("\n" + literals[0]).encode("utf-8"), *(literal.encode("utf-8") for literal in literals[1:]))
    head = (indent + '<item ident="').encode("utf-8").replace(b"%", b"%%") + b"%s" + (suffix + '" title="').encode("utf-8").replace(b"%", b"%%") + b'%s">'
    plan = tuple(dict.fromkeys(slot for slot in slots if slot != -1))  # (each text once, in the order first put in)
    pick = itemgetter(0, 1, *(0 if slot == -1 else 2 + plan.index(slot) for slot in slots))
    return slots, utf8, head + b"%s".join(piece.replace(b"%", b"%%") for piece in utf8), plan, pick


class SharedTexts:
    """What a choice item's template puts in (the question's identifier, each text escaped as
    its slot writes it, the title; in UTF-8), kept by the question's
    index for the same question's item in another layout: the cartridge writes every item twice
    (its question bank's and its assessment's, indented otherwise and the bank's identifiers
    suffixed), and the second item takes them from here instead of escaping the texts again.
    Each is taken once (and dropped)."""

    __slots__ = ("_kept",)

    def __init__(self) -> None:
        self._kept: dict[int, tuple] = {}

    def keep(self, index: int, made: tuple) -> None:
        self._kept[index] = made

    def take(self, index: int) -> tuple | None:
        return self._kept.pop(index, None)


def _shape(q, lang: str) -> tuple[list, tuple | None, tuple]:
    """``q``'s texts that a template leaves open, which are English fallbacks (None: none is),
    and its shape but for the target and the layout (the kind, the language, the kind's keys,
    which texts are missing or empty, and the fallbacks)."""
    texts = slot_texts(q)
    marked = tuple(bool(text) and in_english(text) for text in texts) if any_in_english() else None
    return texts, marked, (q.kind, lang, SLOTS[q.kind].keys(q, lang, marked), tuple(text if not text else True for text in texts), marked)


def _from_template(q, lang: str, canvas: bool, indent: str, suffix: str, shared: SharedTexts | None = None, index: int = -1) -> bytes | None:
    """``q``'s item in UTF-8 (the template's own pieces encoded once, only the texts put in
    encoded for each item) copied from the template of its shape (None: none). With ``shared``,
    what it put in is kept there by ``index``, or taken from there when the same question's item
    in another layout kept it (:class:`SharedTexts`)."""
    made = shared.take(index) if shared is not None else None
    if made is not None and made[0] is q:
        _, shape, kept_plan, values = made
        texts = marked = None
    else:
        made = None
        texts, marked, shape = _shape(q, lang)
    key = (canvas, indent, suffix, shape)
    template = _TEMPLATES.get(key, False)
    if template is False:
        if texts is None:
            texts, marked, _ = _shape(q, lang)
        template = _template(q, lang, canvas, indent, suffix, texts, marked)
        if len(_TEMPLATES) >= 1 << 12:
            _TEMPLATES.clear()
        _TEMPLATES[key] = template
    if template is None:
        return None
    _, _, layout, plan, pick = template
    if made is None or kept_plan != plan:
        if texts is None:
            texts = slot_texts(q)
        values = [item_ident(q.id, lang).encode("utf-8"), html_text(short(q.id + " " + q.stem, 120)).encode("utf-8"),
                  *[(paragraph_escaped_body(texts[n]) if paragraph else html_text(texts[n])).encode("utf-8") for n, paragraph in plan]]
        if shared is not None and made is None:
            shared.keep(index, (q, shape, plan, values))
    return layout % pick(values)  # (in C: the bytes the pieces and values joined in turn make)


def canvas_general_feedback(q, lang: str) -> str | None:
    """An essay's general (neutral) comment in Canvas, as HTML: the explanation, then the model
    answer after a label in the question's language (Canvas's essay has no other place for it);
    None when the essay has neither. ``bank lint --target canvas`` expects the same."""
    parts = [html_paragraph(q.explanation)] if q.explanation is not None else []
    if q.model_answer is not None:
        parts += [f"<p><strong>{html_text(words(lang).model_answer)}</strong></p>", html_paragraph(q.model_answer)]
    return "".join(parts) or None


def _essay_item(q, ident: str, fields: list[tuple[str, str]], fib: list[str], general: str | None, i: str) -> list[str]:
    """An essay ``<item>``: the stem and a text response (``response_str``/``render_fib``), no
    scoring (no ``varequal``, no ``setvar``: a person grades it), the general feedback shown
    whatever is written by a rule marked ``continue="Yes"``, then a last rule that stops."""
    out = [f'{i}<item ident="{ident}" title="{html_text(short(q.id + " " + q.stem, 120))}">', f"{i}  <itemmetadata>", f"{i}    <qtimetadata>"]
    out += [_field(label, entry, i + "      ") for label, entry in fields]
    out += [f"{i}    </qtimetadata>", f"{i}  </itemmetadata>", f"{i}  <presentation>", _mattext(q.stem, i + "    "),
            f'{i}    <response_str ident="response1" rcardinality="Single">', *[f"{i}      {line}" for line in fib], f"{i}    </response_str>",
            f"{i}  </presentation>", f"{i}  <resprocessing>", f"{i}    <outcomes>",
            f'{i}      <decvar maxvalue="100" minvalue="0" varname="SCORE" vartype="Decimal"/>', f"{i}    </outcomes>"]
    if general is not None:
        out += _condition(i, ["<other/>"], [_show("general_fb")])
    out += _condition(i, ["<other/>"], [], "No")
    out.append(f"{i}  </resprocessing>")
    if general is not None:
        out += [f'{i}  <itemfeedback ident="general_fb">', f"{i}    <flow_mat>", f"{i}      <material>",
                f'{i}        <mattext texttype="text/html">{html_text(general)}</mattext>', f"{i}      </material>", f"{i}    </flow_mat>", f"{i}  </itemfeedback>"]
    out.append(f"{i}</item>")
    return out


def canvas_essay_item(bank: Bank, index: int, *, canvas: bool = True, indent: str = "      ", suffix: str = "") -> list[str]:
    """An essay as Canvas's own quiz export writes ``essay_question`` (``lib/cc/qti/qti_items.rb``):
    its metadata, a ``response_str`` with ``render_fib`` and ``response_label answer1``, a last
    ``<other/>`` rule, and the general comment (:func:`canvas_general_feedback`)."""
    q = bank.questions[index]
    ident = item_ident(q.id, bank.lang) + suffix
    fields = [("question_type", CANVAS_TYPES["essay"]), ("points_possible", f"{POINTS:.1f}"), ("original_answer_ids", ""),
              ("assessment_question_identifierref", ncname(f"{ident}-bank"))]
    fib = ["<render_fib>", '  <response_label ident="answer1" rshuffle="No"/>', "</render_fib>"]
    return _essay_item(q, ident, fields, fib, canvas_general_feedback(q, bank.lang), indent)


ESSAY_ROWS = 10
"""The answer box's lines (``render_fib rows``), as the Moodle XML export's ``responsefieldlines``."""


def cartridge_essay_item(bank: Bank, index: int, *, canvas: bool = False, indent: str = "      ", suffix: str = "") -> list[str]:
    """An essay in the cartridge's ``cc.essay.v0p1`` profile, as Moodle's own cartridge writer
    writes it (``backup/cc/cc_lib/cc_assesment_essay.php``: ``qmd_scoringpermitted`` Yes,
    ``qmd_computerscored`` No, ``render_fib rows``) with the general-feedback rule marked
    ``continue="Yes"`` as Canvas's cartridge export marks it: Moodle's converter keeps as general
    feedback only the feedback of such rules (its own writer's essays lose theirs). The general
    feedback is the explanation; the profile has no place for the model answer or the template."""
    q = bank.questions[index]
    ident = item_ident(q.id, bank.lang) + suffix
    fields = [("cc_profile", CC_PROFILES["essay"]), ("cc_weighting", str(POINTS)), ("qmd_scoringpermitted", "Yes"), ("qmd_computerscored", "No")]
    general = html_paragraph(q.explanation) if q.explanation is not None else None
    return _essay_item(q, ident, fields, [f'<render_fib rows="{ESSAY_ROWS}"/>'], general, indent)



def questestinterop_open() -> str:
    return (f'<questestinterop xmlns="{QTI12_NS}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
            f'xsi:schemaLocation="{QTI12_NS} {QTI12_XSD}">')
