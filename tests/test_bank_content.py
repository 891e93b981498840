"""The bundled bank: faithful to the topic's public pages, well-formed, free of answer cues."""

from __future__ import annotations

import re

import pytest

from aistack_bank.load import read_bank
from aistack_bank.rules.validate import answer_cue_stats

from conftest import FLAGSHIP, REPO, source_page


def seed_stems(lines: list[str]) -> list[str]:
    return [m.group(2).strip() for m in (re.match(r"^\s+(\d+)\. (.*)$", line) for line in lines) if m]


@pytest.fixture(scope="module")
def source():
    return read_bank(REPO / "bank" / FLAGSHIP)


def test_topic_texts_equal_the_english_page(source):
    lines = source_page("en")
    topic = source.topic
    assert topic.title == lines[0].strip() == "AI Hardware & Software Stack"
    assert topic.category == "computer-systems"
    from aistack_bank.load import read_categories

    categories, _doc, problems = read_categories(REPO / "bank")
    assert problems == [] and [(c.id, c.title) for c in categories] == [("computer-systems", "Computer systems")]
    assert topic.summary == lines[2].strip()
    head = lines.index("AI Hardware & Software Stack: key points")
    assert [p.text for p in topic.key_points] == [lines[head + 2].strip(), lines[head + 4].strip()]


def test_fifty_stems_equal_the_english_page_in_order(source):
    by_id = {qs.question.id: qs.question for qs in source.questions}
    stems = seed_stems(source_page("en"))
    assert len(stems) == 50
    assert source.topic.questions == [f"q{i:03d}" for i in range(1, 51)]
    assert [by_id[qid].stem for qid in source.topic.questions] == stems


def test_four_options_one_key_feedback_everywhere(source):
    for qs in source.questions:
        q = qs.question
        assert [o.id for o in q.options] == ["a", "b", "c", "d"], q.id
        assert q.correct in "abcd"
        assert all(o.feedback for o in q.options), q.id
        sentences = len(re.findall(r"[.!?](?:\s|$)", q.explanation))
        assert 2 <= sentences <= 5, (q.id, sentences)
        assert 1 <= q.difficulty <= 3


def test_no_answer_cues(source):
    stats = answer_cue_stats([qs.question for qs in source.questions])
    assert max(stats.position_shares.values()) <= 0.35
    assert min(stats.position_shares.values()) >= 0.15
    assert stats.longest_share <= 1 / 3


def test_numeric_questions_carry_checks(source):
    checked = {qs.question.id for qs in source.questions if qs.question.check is not None}
    assert {"q003", "q004", "q005", "q006", "q007", "q008", "q015", "q045", "q046"} <= checked


def test_tags_come_from_the_documented_vocabulary(source):
    readme = (REPO / "bank" / "README.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"^\| `([a-z-]+)` \| ", readme, re.M)) & set(source.topic.tags)
    assert documented == set(source.topic.tags)
    used = {tag for qs in source.questions for tag in qs.question.tags}
    assert used <= set(source.topic.tags)


def test_every_file_points_editors_at_its_schema():
    for path in sorted((REPO / "bank").rglob("*.yaml")):
        first = path.read_text(encoding="utf-8").split("\n", 1)[0]
        expected = {"topic.yaml": "../../schema/topic.schema.json", "categories.yaml": "../schema/categories.schema.json"}.get(path.name, "../../../schema/question.schema.json")
        assert first == f"# yaml-language-server: $schema={expected}", path
