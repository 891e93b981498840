"""A choice item's response declaration and processing in QTI 2.1 and 3.0 are written once per
shape (the choices' keys, the right ones, which have a feedback, whether the question is
explained, single or multiple, the scoring) and copied into every item of that shape
(``exporters/qti_common.py``): items of shapes drawn at random, rendered in a random order so
that each meets blocks written for other shapes, are byte for byte what the element-tree writer
(``tests/qti_tree_writer.py``, the reference) writes for them."""

from __future__ import annotations

import random

import qti_kinds_bank
import qti_tree_writer as tree
from aistack_bank.exporters import qti21, qti30, qti_common
from aistack_bank.exporters.common import english_fallback
from aistack_bank.options import ExportOptions

DIALECTS = (qti21.DIALECT, qti30.DIALECT)
KEYS = ["a", "b", "c", "d", "e", "f", "x1", "opt-2", "Z_9", "ä"]
FEEDBACKS = [None, None, "", "Right <b>here</b> & 'there'", "Non.", "\n"]


def shaped(q, rng: random.Random):
    """``q`` (a choice question) with a shape drawn at random; true/false: its feedbacks, answer
    and explanation."""
    explanation = rng.choice([None, "Because.", "", "Weil <x> & y."])
    if q.kind == "true-false":
        return q.model_copy(update={"answer": rng.random() < 0.5, "feedback_true": rng.choice(FEEDBACKS),
                                    "feedback_false": rng.choice(FEEDBACKS), "explanation": explanation})
    keys = rng.sample(KEYS, rng.randint(2, 6))
    template = q.options[0]
    options = [template.model_copy(update={"id": key, "text": f"Option {key}", "feedback": rng.choice(FEEDBACKS)}) for key in keys]
    update = {"options": options, "explanation": explanation}
    if q.kind == "single-choice":
        update["correct"] = rng.choice(keys)
    else:
        update["correct"] = rng.sample(keys, rng.randint(1, len(keys)))
        update["scoring"] = rng.choice(["partial", "all-or-nothing"])
    return q.model_copy(update=update)


def test_choice_items_of_random_shapes_are_the_tree_writers_bytes():
    rng = random.Random(5)
    banks = qti_kinds_bank.banks()
    rendered = 0
    for _ in range(30):
        lang = rng.choice(sorted(banks))
        bank = banks[lang]
        choices = [q for q in bank.questions if q.kind in ("single-choice", "multiple-response", "true-false")]
        questions = [shaped(rng.choice(choices), rng) for _ in range(12)]
        shaped_bank = bank.model_copy(update={"questions": questions})
        options = ExportOptions(shuffle=rng.random() < 0.5, answer_numbering=rng.choice(["abc", "ABCD", "123", "iii", "none"]))
        english = frozenset({"Option a", "Because."}) if lang != "en" and rng.random() < 0.5 else frozenset()
        with english_fallback({lang: english}, [lang]):
            for index in rng.sample(range(len(questions)), len(questions)):
                d = rng.choice(DIALECTS)
                assert qti_common.render_item(d=d, bank=shaped_bank, index=index, options=options) == \
                    tree.render_item(d=d, bank=shaped_bank, index=index, options=options), (lang, questions[index])
                rendered += 1
    assert rendered == 360
