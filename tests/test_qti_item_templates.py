"""A choice item of QTI 2.1 and 3.0 is copied from the template of its shape, its root and its
texts put in (``exporters/qti_common.py``, ``_from_template``): items of shapes and texts drawn
at random (texts with markup, quotes, line breaks, the template's own placeholder characters,
empty or missing feedbacks and explanations, English fallbacks marked), rendered in a random
order so that each meets templates made for other shapes, are byte for byte what the element
writer (``written_item``, which wrote every item before) and the element-tree writer kept in the
tests (``tests/qti_tree_writer.py``) write for them."""

from __future__ import annotations

import random

import pytest

import qti_kinds_bank
import qti_tree_writer as tree
from aistack_bank.exporters import qti21, qti30, qti_common
from aistack_bank.exporters.common import english_fallback
from aistack_bank.options import ExportOptions

DIALECTS = (qti21.DIALECT, qti30.DIALECT)
KEYS = ["a", "b", "c", "d", "e", "f", "x1", "opt-2", "Z_9", "ä"]
PIECES = ["Right", " <b>here</b>", " & ", "'there'", '"q"', "\n", "\n\n", "\ue000", "\ue0011\n\ue001", "<br/>", "]]>", "é", "\u2067", "  ", "Non."]
SHARED = ["Option a", "Because.", "Same text"]
"""Texts drawn often, so that some are English fallbacks and some recur in one item."""


def text(rng: random.Random) -> str:
    if rng.random() < 0.3:
        return rng.choice(SHARED)
    return "".join(rng.choice(PIECES) for _ in range(rng.randint(1, 5)))


def maybe(rng: random.Random) -> str | None:
    return rng.choice([None, "", text(rng), text(rng)])


def shaped(q, rng: random.Random):
    """``q`` (a choice question) with a shape and texts drawn at random."""
    update = {"stem": rng.choice(["", text(rng), text(rng)]), "explanation": maybe(rng)}
    if q.kind == "true-false":
        return q.model_copy(update={**update, "answer": rng.random() < 0.5, "feedback_true": maybe(rng), "feedback_false": maybe(rng)})
    keys = rng.sample(KEYS, rng.randint(2, 6))
    template = q.options[0]
    update["options"] = [template.model_copy(update={"id": key, "text": rng.choice(["", text(rng), text(rng)]), "feedback": maybe(rng)}) for key in keys]
    if q.kind == "single-choice":
        update["correct"] = rng.choice(keys)
    else:
        update["correct"] = rng.sample(keys, rng.randint(1, len(keys)))
        update["scoring"] = rng.choice(["partial", "all-or-nothing"])
    return q.model_copy(update=update)


@pytest.mark.parametrize("seed", range(4))
def test_choice_items_from_templates_are_the_element_writers_bytes(seed):
    rng = random.Random(seed)
    banks = qti_kinds_bank.banks()
    qti_common._TEMPLATES.clear()
    rendered = 0
    for _ in range(25):
        lang = rng.choice(sorted(banks))
        bank = banks[lang]
        choices = [q for q in bank.questions if q.kind in ("single-choice", "multiple-response", "true-false")]
        questions = [shaped(rng.choice(choices), rng) for _ in range(16)]
        questions += [q.model_copy(update={"id": q.id + "x"}) for q in rng.sample(questions, 4)]  # (the same shape again)
        shaped_bank = bank.model_copy(update={"questions": questions})
        options = ExportOptions(shuffle=rng.random() < 0.5, answer_numbering=rng.choice(["abc", "ABCD", "123", "iii", "none"]))
        english = frozenset(rng.sample(SHARED + ["True", "Waar", "Vrai"], 3)) if lang != "en" and rng.random() < 0.6 else frozenset()
        with english_fallback({lang: english}, [lang]):
            for index in rng.sample(range(len(questions)), len(questions)):
                d = rng.choice(DIALECTS)
                made = qti_common.render_item(d=d, bank=shaped_bank, index=index, options=options)
                assert made == qti_common.written_item(d, questions[index], lang, options), (lang, questions[index])
                assert made == tree.render_item(d=d, bank=shaped_bank, index=index, options=options), (lang, questions[index])
                rendered += 1
    assert rendered == 500
    assert any(template is not None for template in qti_common._TEMPLATES.values())


def test_a_text_holding_a_placeholder_is_still_written_as_it_is():
    bank = qti_kinds_bank.banks()["fr"]
    index = next(n for n, q in enumerate(bank.questions) if q.kind == "single-choice")
    q = bank.questions[index]
    hostile = q.model_copy(update={"stem": "\ue0000\n\ue001 and \ue0001<br/>\ue001", "explanation": "\ue0009\n\ue001"})
    shaped_bank = bank.model_copy(update={"questions": (hostile,)})
    for d in DIALECTS:
        assert qti_common.render_item(d=d, bank=shaped_bank, index=0) == qti_common.written_item(d, hostile, "fr")
