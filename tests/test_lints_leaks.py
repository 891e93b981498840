"""W322 (an answer leaked by another question): the indexed search finds exactly what comparing
every text with every key word by word finds, in the same order."""

from __future__ import annotations

import random

from aistack_bank import lints
from aistack_bank.lints import LEAK_MIN_KEY_WORDS, LEAK_WORDS, LeakText, answer_leaks


def _plain_leaks(keys: dict[str, str], texts: list[LeakText]) -> list[tuple[LeakText, str]]:
    """The rule spelled out: a run of LEAK_WORDS words of another key, or a whole key of
    LEAK_MIN_KEY_WORDS words or more, found anywhere in the text."""
    order = list(keys)
    found = []
    for item in texts:
        words = lints._words(item.text)
        hits = set()
        for qid, key in keys.items():
            key_words = lints._words(key)
            runs = {tuple(key_words[i:i + LEAK_WORDS]) for i in range(len(key_words) - LEAK_WORDS + 1)}
            for i in range(len(words)):
                if tuple(words[i:i + LEAK_WORDS]) in runs and i + LEAK_WORDS <= len(words):
                    hits.add(qid)
                if LEAK_MIN_KEY_WORDS <= len(key_words) and words[i:i + len(key_words)] == key_words:
                    hits.add(qid)
        hits.discard(item.question_id)
        found += [(item, qid) for qid in sorted(hits, key=order.index)]
    return found


def test_the_index_finds_what_the_plain_rule_finds_in_the_same_order():
    rng = random.Random(7)
    vocabulary = ["the", "cache", "holds", "weights", "in", "FP16", "memory", "bound", "kernel", "batch", "2,5", "GB", "×"]
    for _ in range(60):
        keys = {f"q{i:03d}": " ".join(rng.choice(vocabulary) for _ in range(rng.choice([2, 4, 5, 6, 7, 8, 9, 12])))
                for i in range(rng.randint(1, 8))}
        texts = []
        for index in range(12):
            words = [rng.choice(vocabulary) for _ in range(rng.randint(0, 25))]
            if keys and rng.random() < 0.6:  # plant a key, or a part of one
                key_words = rng.choice(list(keys.values())).split()
                start = rng.randint(0, len(key_words) - 1) if rng.random() < 0.3 else 0
                at = rng.randint(0, len(words))
                words[at:at] = key_words[start:]
            texts.append(LeakText(rng.choice([*keys, "q999"]), ("options", index, "feedback"), " ".join(words)))
        assert answer_leaks(keys, texts) == _plain_leaks(keys, texts)


def test_a_short_key_and_a_long_key_are_found_whole_and_by_a_run():
    keys = {"q001": "weights stay in FP16 memory", "q002": "the kernel is bound by memory bandwidth at batch one here"}
    texts = [
        LeakText("q003", ("explanation",), "Because weights stay in FP16 memory, and the kernel is bound by memory bandwidth at batch one."),
        LeakText("q001", ("explanation",), "weights stay in FP16 memory"),  # its own key
        LeakText("q004", ("explanation",), "weights stay in FP16"),  # too short a part
    ]
    assert [(item.question_id, qid) for item, qid in answer_leaks(keys, texts)] == [("q003", "q001"), ("q003", "q002")]


def test_the_lint_reads_the_fields_kept_with_a_record_as_it_reads_the_question(tmp_path):
    """content_lints over records that carry their fields (from the per-file store) reports
    exactly what it reports over records without them."""
    from conftest import REPO

    from aistack_bank.i18n.fields import question_fields
    from aistack_bank.load import read_library

    source = read_library(REPO / "bank")
    topic = source.topics[0]
    leaky = topic.questions[1]
    key = lints._key_text(topic.questions[0].question)
    assert key is not None
    leaky.question = leaky.question.model_copy(update={"explanation": f"As everyone knows, {key}"})
    bare = lints.content_lints(topic, references=False)
    assert any(d.code == "W322" for d in bare)
    for qs in topic.questions:
        if qs.question is not None and qs.doc is not None:
            qs.derived["fields"] = question_fields(qs.question, qs.doc, qs.path)
    assert lints.content_lints(topic, references=False) == bare
