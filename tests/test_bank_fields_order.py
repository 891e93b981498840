"""A bank's translatable fields (``i18n.fields.bank_fields``) read each question file's record
once, its question and its kept fields together, then put the questions in the topic's order:
the same fields in the same order as the old way (a copy of it below, kept as the reference),
which read each record again for the sort and again for its fields. Checked on the bundled bank
and on every kind, with each topic's question files in a random order, questions left out of
the topic's list, duplicated ids, files whose question did not validate, and questions whose
fields were not kept. A large bank's build takes the English library and the fields in one
pass (``english_library_and_fields``): the same library as ``load.english_library`` and the
same fields."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest

from aistack_bank.i18n.fields import bank_fields, category_fields, english_library_and_fields, question_fields, topic_fields
from aistack_bank.load import BankSource, english_library, ordered_topics, read_library

ROOT = Path(__file__).resolve().parent.parent


def old_topic_source_fields(source: BankSource) -> list:
    """The reference: the fields of one topic as they were computed before."""
    fields: list = []
    if source.topic is not None:
        fields += topic_fields(source.topic, source.topic_doc, source.root / "topic.yaml")
    order = {qid: i for i, qid in enumerate(source.topic.questions)} if source.topic is not None else {}
    questions = [qs for qs in source.questions if qs.question is not None]
    questions.sort(key=lambda qs: (order.get(qs.question.id, len(order)), qs.question.id))
    for qs in questions:
        known = qs.derived.get("fields")
        fields += known if known is not None else question_fields(qs.question, qs.doc, qs.path)
    return fields


def shuffled(topic: BankSource, rng: random.Random) -> BankSource:
    questions = []
    for qs in topic.questions:
        roll = rng.random()
        if roll < 0.15:  # a file whose question did not validate
            questions.append(dataclasses.replace(qs, question=None, derived={}))
        elif roll < 0.3:  # its fields not kept: made from the question
            questions.append(dataclasses.replace(qs, derived={}))
        else:
            questions.append(qs)
        if rng.random() < 0.1:  # the same id twice
            questions.append(dataclasses.replace(qs, derived={}))
    rng.shuffle(questions)
    listed = list(topic.topic.questions) if topic.topic is not None else []
    listed = rng.sample(listed, rng.randint(0, len(listed)))  # some left out of the topic's list, the rest reordered
    return dataclasses.replace(topic, questions=questions, topic=topic.topic.model_copy(update={"questions": listed}) if topic.topic is not None else None)


@pytest.mark.parametrize("bank", ["bank", "examples/every-kind/bank"])
def test_fields_are_the_old_ways_in_the_old_order(bank):
    source = read_library(ROOT / bank)
    rng = random.Random(7)
    for _ in range(25):
        topics = [shuffled(topic, rng) for topic in source.topics]
        for topic in topics:
            assert bank_fields(topic) == old_topic_source_fields(topic)
        whole = dataclasses.replace(source, topics=topics)
        expected = category_fields(whole.categories, whole.categories_doc, whole.categories_path)
        for topic in ordered_topics(whole):
            expected += old_topic_source_fields(topic)
        assert bank_fields(whole) == expected
        # what a large bank's build takes, in one read of each record: a bank without errors,
        # its question files in a random order
        valid = dataclasses.replace(source, topics=[dataclasses.replace(topic, questions=rng.sample(topic.questions, len(topic.questions))) for topic in source.topics])
        english, fields = english_library_and_fields(valid)
        assert english == english_library(valid)
        assert fields == bank_fields(valid) == category_fields(valid.categories, valid.categories_doc, valid.categories_path) + \
            [field for topic in ordered_topics(valid) for field in old_topic_source_fields(topic)]

