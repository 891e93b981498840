"""The QTI 2.1 and 3.0 items, tests and manifests written as text, as their elements come
(``exporters/qti_common.py``), are byte for byte what the element-tree writer they replaced
wrote (``tests/qti_tree_writer.py``, kept as the reference): every kind of question, in every
language of ``qti_kinds_bank.py``, its texts replaced at random by hostile ones (markup,
entities, quotes, control-like characters, line breaks, non-BMP characters, right-to-left text
and its isolates, empty and blank texts), with some texts marked as English fallbacks, under
every option the writers honour."""

from __future__ import annotations

import random

import pytest

import qti_kinds_bank
import qti_tree_writer as tree
from aistack_bank.exporters import qti21, qti30, qti_common
from aistack_bank.exporters.common import english_fallback
from aistack_bank.exporters.record import as_library
from aistack_bank.options import ExportOptions

DIALECTS = {"qti21": qti21.DIALECT, "qti30": qti30.DIALECT}

PIECES = [
    "<p>", "</b>", "<br/>", "<![CDATA[", "]]>", "&", "&amp;", "&lt;", "&#x27;", "&#39;", "&nbsp;", '"', "'", "<", ">",
    "\t", "\r", "\n", "\n\n", "\r\n", "\x0b", "\x0c", "\x85", "\u2028", "\u2029", "\x7f", "\u00a0", "\u200b", "\ufeff",
    "\U0001F600", "\U0001D518", "\U00020000", "e\u0301", "\u0627\u0644\u0639\u0631\u0628\u064a\u0629", "\u05e2\u05d1\u05e8\u05d9\u05ea",
    "\u2067", "\u2069", "\u202e", "{", "}", "=", "~", "#", "*", "\\*", "\\", "%", "$", "--", "x", "7B", "FP16", "ONNX", " ", "  ",
]
"""What hostile texts are made of."""

TEXT_FIELDS = frozenset({"stem", "explanation", "text", "feedback", "prompt", "answer", "feedback_true", "feedback_false",
                         "model_answer", "response_template", "title", "summary", "name"})
"""The fields whose strings are replaced (an ``answer`` only where it is a string: a matching pair's)."""


def hostile(rng: random.Random) -> str:
    if rng.random() < 0.05:
        return rng.choice(["", " ", "\n"])
    return "".join(rng.choice(PIECES) for _ in range(rng.randint(1, 12)))


def scrambled(model, rng: random.Random, seen: list[str]):
    """``model`` with every text field (and its tags) replaced at random, recursively; each new
    text recorded in ``seen``."""
    update = {}
    for name, value in model:
        if isinstance(value, str) and name in TEXT_FIELDS:
            update[name] = hostile(rng)
            seen.append(update[name])
        elif isinstance(value, (list, tuple)) and value and hasattr(value[0], "model_copy"):
            update[name] = type(value)(scrambled(item, rng, seen) for item in value)
        elif name == "tags" and isinstance(value, (list, tuple)):
            update[name] = type(value)(hostile(rng) or "t" for _ in range(rng.randint(0, 3)))
        elif hasattr(value, "model_copy") and name != "category":
            update[name] = scrambled(value, rng, seen)
    return model.model_copy(update=update)


BANKS = qti_kinds_bank.banks()


def variants(count: int):
    """``count`` scrambled banks: (seed, bank, the texts marked as English fallbacks, options)."""
    for seed in range(count):
        rng = random.Random(seed)
        lang = rng.choice(sorted(BANKS))
        seen: list[str] = []
        bank = scrambled(BANKS[lang], rng, seen)
        english = frozenset(text for text in seen if rng.random() < 0.3) if lang != "en" and rng.random() < 0.5 else frozenset()
        options = ExportOptions(shuffle=rng.random() < 0.5, answer_numbering=rng.choice(["abc", "ABCD", "123", "iii", "none"]))
        yield seed, bank, english, options


@pytest.mark.parametrize("name", sorted(DIALECTS))
def test_items_tests_and_manifests_are_the_tree_writers_bytes(name):
    d = DIALECTS[name]
    for seed, bank, english, options in variants(40):
        library = as_library(bank)
        with english_fallback({bank.lang: english}, [bank.lang]):
            for index, q in enumerate(bank.questions):
                assert qti_common.render_item(d=d, bank=bank, index=index, options=options) == tree.render_item(d=d, bank=bank, index=index, options=options), (seed, q.kind)
            assert qti_common.render_test(d=d, library=library) == tree.render_test(d=d, library=library), seed
            assert qti_common.render_manifest(d=d, library=library) == tree.render_manifest(d=d, library=library), seed


def test_the_bundled_kinds_are_the_tree_writers_bytes():
    """Every kind in every language, texts as they are (with no fallback, then all in English)."""
    for d in DIALECTS.values():
        for bank in BANKS.values():
            for marked in (frozenset(), frozenset(t for q in bank.questions for _, t in q if isinstance(t, str))):
                with english_fallback({bank.lang: marked}, [bank.lang]):
                    for index in range(len(bank.questions)):
                        assert qti_common.render_item(d=d, bank=bank, index=index) == tree.render_item(d=d, bank=bank, index=index)
                    assert qti_common.render_manifest(d=d, library=as_library(bank)) == tree.render_manifest(d=d, library=as_library(bank))


def test_an_element_closed_cannot_be_added_to():
    """The text writer writes each element as it comes: adding to one already closed (out of
    document order) is refused rather than written in the wrong place."""
    d = qti21.DIALECT
    root = d.element(None, "assessmentItem", {"identifier": "x"})
    first = d.element(root, "responseDeclaration", {"identifier": "RESPONSE"})
    d.element(root, "outcomeDeclaration", {"identifier": "SCORE"})
    with pytest.raises(AssertionError, match="closed"):
        d.element(first, "correctResponse")


def reference_test(*, d, library) -> bytes:
    """``qti_common.render_test`` as it was: every item's reference added by the element writer."""
    from aistack_bank.exporters.qti_common import _root, bank_id, bank_title, item_identifier, item_path, ncname, section_identifier
    from aistack_bank.exporters.record import by_category

    test = _root(d, "assessmentTest", {"identifier": ncname(f"{bank_id(library)}-{library.lang}"), "title": bank_title(library)})
    d.element(test, "outcomeDeclaration", {"identifier": "SCORE", "cardinality": "single", "baseType": "float"})
    part = d.element(test, "testPart", {"identifier": "part1", "navigationMode": "nonlinear", "submissionMode": "individual"})
    d.element(part, "itemSessionControl", {"showFeedback": "true", "allowReview": "true"})
    for _, topics in by_category(library):
        for bank in topics:
            section = d.element(part, "assessmentSection", {"identifier": section_identifier(library, bank), "title": bank.topic.title, "visible": "false"})
            for q in bank.questions:
                d.element(section, "assessmentItemRef", {"identifier": item_identifier(q.id, bank.lang), "href": item_path(q)})
    total = d.element(d.element(d.element(test, "outcomeProcessing"), "setOutcomeValue", {"identifier": "SCORE"}), "sum")
    d.element(total, "testVariables", {"variableIdentifier": "SCORE"})
    return test.document_bytes()


@pytest.mark.parametrize("name", sorted(DIALECTS))
def test_tests_of_several_topics_are_the_old_writers_bytes(name):
    """The assessment test writes each item's reference as a line: with several topics (some
    empty, their sections then written empty), hostile question ids, topic ids and titles, it
    is what the element writer wrote and what the element-tree writer writes."""
    from aistack_bank.model import Library

    d = DIALECTS[name]
    ids = ["q001", "q.x/\u00e9", "-z", "a b", "<&>", "q\"'", "\U0001F600", ""]
    for seed in range(30):
        rng = random.Random(seed)
        lang = rng.choice(sorted(BANKS))
        bank = BANKS[lang]
        topics = []
        for n in range(rng.randint(1, 4)):
            questions = tuple(q.model_copy(update={"id": rng.choice(ids) + str(k)}) for k, q in enumerate(rng.sample(bank.questions, rng.randint(0, len(bank.questions)))))
            topic = bank.topic.model_copy(update={"id": f"t{n}{rng.choice(ids)}", "title": hostile(rng), "questions": [q.id for q in questions]})
            topics.append(bank.model_copy(update={"topic": topic, "questions": questions}))
        library = Library(categories=(bank.category,), topics=tuple(topics), lang=lang)
        made = qti_common.render_test(d=d, library=library)
        assert made == reference_test(d=d, library=library), seed
        assert made == tree.render_test(d=d, library=library), seed
