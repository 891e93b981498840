"""A choice item of QTI 1.2 (Canvas's quiz, the cartridge's assessment and question bank) is
copied from the template of its shape, its first line, its identifiers and its texts put in
(``exporters/qti12_common.py``, ``_from_template``): items of shapes, ids and texts drawn at
random, in both targets, both indentations and with the question bank's suffix, in a random
order so that each meets templates made for other shapes, are byte for byte what the writer
they replaced (kept below, verbatim) writes for them."""

from __future__ import annotations

import random

import pytest

import qti_kinds_bank
from aistack_bank.exporters import qti12_common
from aistack_bank.exporters.common import english_fallback, html_text, short
from aistack_bank.exporters.qti12_common import CANVAS_TYPES, CC_PROFILES, ITEM_PARTS, POINTS, _condition, _field, _mattext, _show, item_ident
from aistack_bank.exporters.qti_common import ncname
from test_qti_item_templates import SHARED, shaped

IDS = ["q001", "1abc", "q.x/\u00e9", "-z", "Q_9", "", "zqTemplateItemzq", "a b"]


def reference_item(bank, index: int, *, canvas: bool, indent: str = "      ", suffix: str = "") -> list[str]:
    """``qti12_common.render_item`` as it was: every item written line by line."""
    q = bank.questions[index]
    parts = ITEM_PARTS[q.kind]
    i = indent
    ident = item_ident(q.id, bank.lang) + suffix
    lang = bank.lang
    answers, right, stem = parts.answers(q, lang, canvas)
    out = [f'{i}<item ident="{ident}" title="{html_text(short(q.id + " " + q.stem, 120))}">', f"{i}  <itemmetadata>", f"{i}    <qtimetadata>"]
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


@pytest.mark.parametrize("seed", range(4))
def test_choice_items_from_templates_are_the_old_writers_bytes(seed):
    rng = random.Random(seed)
    banks = qti_kinds_bank.banks()
    qti12_common._TEMPLATES.clear()
    rendered = 0
    for _ in range(25):
        lang = rng.choice(sorted(banks))
        bank = banks[lang]
        choices = [q for q in bank.questions if q.kind in ("single-choice", "multiple-response", "true-false")]
        questions = [shaped(rng.choice(choices), rng).model_copy(update={"id": rng.choice(IDS)}) for _ in range(16)]
        questions += [q.model_copy(update={"id": rng.choice(IDS)}) for q in rng.sample(questions, 4)]  # (the same shape again)
        shaped_bank = bank.model_copy(update={"questions": questions})
        english = frozenset(rng.sample(SHARED + ["True", "Waar", "Vrai"], 3)) if lang != "en" and rng.random() < 0.6 else frozenset()
        with english_fallback({lang: english}, [lang]):
            for index in rng.sample(range(len(questions)), len(questions)):
                canvas = rng.random() < 0.5
                layout = rng.choice([{}, {"indent": "    ", "suffix": "-bank"}, {"indent": "  "}])
                made = "\n".join(qti12_common.render_item(shaped_bank, index, canvas=canvas, **layout))
                assert made == "\n".join(reference_item(shaped_bank, index, canvas=canvas, **layout)), (lang, canvas, layout, questions[index])
                rendered += 1
    assert rendered == 500
    assert any(template is not None for template in qti12_common._TEMPLATES.values())


@pytest.mark.parametrize("seed", range(3))
def test_items_sharing_their_texts_between_layouts_are_the_old_writers_bytes(seed):
    """The cartridge writes each item twice, its question bank's and its assessment's: the second
    takes the first one's texts (``SharedTexts``). Each pair, written in either order, in UTF-8
    (``render_item_utf8``, templates in bytes) or as text, with a question of another bank at
    the same index now and then (whose texts must not be taken), is what the old writer writes
    for each layout."""
    rng = random.Random(100 + seed)
    banks = qti_kinds_bank.banks()
    qti12_common._TEMPLATES.clear()
    rendered = 0
    for _ in range(12):
        lang = rng.choice(sorted(banks))
        bank = banks[lang]
        choices = [q for q in bank.questions if q.kind in ("single-choice", "multiple-response", "true-false")]
        questions = [shaped(rng.choice(choices), rng).model_copy(update={"id": rng.choice(IDS)}) for _ in range(16)]
        shaped_bank = bank.model_copy(update={"questions": questions})
        other_bank = bank.model_copy(update={"questions": [shaped(rng.choice(choices), rng) for _ in questions]})
        english = frozenset(rng.sample(SHARED + ["True", "Waar", "Vrai"], 3)) if lang != "en" and rng.random() < 0.6 else frozenset()
        layouts = [{}, {"indent": "    ", "suffix": "-bank"}]
        with english_fallback({lang: english}, [lang]):
            shared = qti12_common.SharedTexts()
            for first in rng.sample(range(len(questions)), len(questions)):
                order = rng.sample(layouts, 2)
                for n, layout in enumerate(order):
                    which = other_bank if n == 1 and rng.random() < 0.15 else shaped_bank
                    expected = "\n".join(reference_item(which, first, canvas=False, **layout))
                    if rng.random() < 0.7:  # (in UTF-8, as the cartridge writes them; now and then the other way, or for Canvas)
                        canvas = rng.random() < 0.2
                        made = qti12_common.render_item_utf8(which, first, canvas=canvas, shared=None if canvas else shared, **layout)
                        assert made == "\n".join(reference_item(which, first, canvas=canvas, **layout)).encode("utf-8"), (lang, layout, which.questions[first])
                    else:
                        made = "\n".join(qti12_common.render_item(which, first, canvas=False, shared=shared, **layout))
                        assert made == expected, (lang, layout, which.questions[first])
                    rendered += 1
    assert rendered == 12 * 16 * 2


@pytest.mark.parametrize("seed", range(3))
def test_lines_in_utf8_are_pieced_as_texts_are(seed):
    """``utf8_pieces`` (lines as text or bytes) gives the pieces the text writer it replaced
    (``utf8_lines``, kept below) gives of the same lines as text."""
    from aistack_bank.exporters.common import utf8_pieces

    def utf8_lines(lines, batch):
        pending = []
        for line in lines:
            pending.append(line)
            if len(pending) >= batch:
                pending.append("")
                yield "\n".join(pending).encode("utf-8")
                pending = []
        if pending:
            pending.append("")
            yield "\n".join(pending).encode("utf-8")

    rng = random.Random(seed)
    alphabet = ["a", " ", "\n", "\u00e9", "\u2026", "\u202f", "\U0001f600", "<", "&"]
    for _ in range(40):
        lines = ["".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 12))) for _ in range(rng.randrange(0, 40))]
        mixed = [line.encode("utf-8") if rng.random() < 0.5 else line for line in lines]
        batch = rng.randrange(1, 9)
        assert list(utf8_pieces(mixed, batch)) == list(utf8_lines(lines, batch)), (lines, batch)
