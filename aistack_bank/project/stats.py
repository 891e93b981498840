"""`bank stats`: what the bank holds, by tag, difficulty, kind and language."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class BankStats:
    questions: int = 0
    by_kind: dict[str, int] = field(default_factory=dict)
    by_tag: dict[str, int] = field(default_factory=dict)
    by_difficulty: dict[int, int] = field(default_factory=dict)
    checked: int = 0
    languages: dict[str, float] = field(default_factory=dict)
    key_positions: dict[str, float] = field(default_factory=dict)
    """Share of the right options at each position, over the option questions only."""
    key_longest_share: float = 0.0
    option_questions: int = 0
    """Single-choice and multiple-response questions: those the key figures are measured on."""
    by_category: dict[str, dict] = field(default_factory=dict)
    """Category id → its title, its topics and its question count, in bank order."""
    by_topic: dict[str, dict] = field(default_factory=dict)
    """Topic id → its title, its category, its question count and how many have checks, in bank order."""

    def as_dict(self) -> dict:
        return {k: v for k, v in self.__dict__.items()}


def bank_stats(bank_dir: Path, translations: Path | None):
    """(stats, diagnostics that stopped the count)."""
    stats, errors = _bank_counts(bank_dir)  # the read bank is freed on return: the languages' status reads it its own lean way
    if translations is not None and translations.is_dir() and not errors:
        from ..i18n.status import catalog_status

        statuses, diags = catalog_status(bank_dir, translations)
        errors += diags
        stats.languages = {s.language: round(s.percent, 1) for s in statuses}
    return stats, errors


def _bank_counts(bank_dir: Path) -> tuple[BankStats, list]:
    """The figures of :func:`bank_stats` but the languages', and the errors of the bank's read."""
    from ..errors import Severity
    from ..load import ordered_topics, read_library
    from ..rules.cues import answer_cue_stats
    from ..load import KINDS

    source = read_library(bank_dir)
    errors = [d for d in source.diagnostics if d.severity is Severity.ERROR]
    questions = [qs.question for qs in source.questions if qs.question is not None]
    stats = BankStats(questions=len(questions))
    kinds = Counter(q.kind for q in questions)
    stats.by_kind = {kind: kinds[kind] for kind in KINDS if kinds[kind]}
    stats.by_tag = dict(sorted(Counter(t for q in questions for t in q.tags).items(), key=lambda kv: (-kv[1], kv[0])))
    stats.by_difficulty = dict(sorted(Counter(q.difficulty for q in questions).items()))
    stats.checked = sum(1 for q in questions if q.check is not None)
    for category in source.categories:
        stats.by_category.setdefault(category.id, {"title": category.title, "topics": [], "questions": 0})
    for topic in ordered_topics(source):
        found = [qs.question for qs in topic.questions if qs.question is not None]
        stats.by_topic[topic.topic.id] = {"title": topic.topic.title, "category": topic.topic.category, "questions": len(found),
                                          "checked": sum(1 for q in found if q.check is not None)}
        category = stats.by_category.setdefault(topic.topic.category, {"title": topic.topic.category, "topics": [], "questions": 0})
        category["topics"].append(topic.topic.id)
        category["questions"] += len(found)
    cues = answer_cue_stats(questions)
    stats.key_positions = cues.position_shares
    stats.key_longest_share = cues.longest_share
    stats.option_questions = cues.measured
    return stats, errors
