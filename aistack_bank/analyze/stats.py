"""Classical item statistics, in pure Python (docs/item-analysis.md gives every formula).

A *person* is one learner in one language (a Moodle attempt, one QTI result, one practice-site
learner). Each response earns the marks its question's kind gives it (0 to 1: partial credit of
a multiple-response, numerical, short-answer or matching question included); each person's
*score* is the mean of those marks over the questions they were given; unanswered questions
earn 0. A question whose kind is not scored automatically gets no statistics.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

UPPER_LOWER_FRACTION = 0.27


def mean(xs) -> float:
    xs = list(xs)
    return math.fsum(xs) / len(xs)


def pvariance(xs) -> float:
    """Population variance (divides by n)."""
    xs = list(xs)
    m = mean(xs)
    return math.fsum((x - m) ** 2 for x in xs) / len(xs)


def pearson(xs, ys) -> float | None:
    """Pearson's r, or None when either variable is constant or there are fewer than 3 pairs."""
    xs, ys = list(xs), list(ys)
    if len(xs) < 3:
        return None
    mx, my = mean(xs), mean(ys)
    sxy = math.fsum((x - mx) * (y - my) for x, y in zip(xs, ys))
    sxx = math.fsum((x - mx) ** 2 for x in xs)
    syy = math.fsum((y - my) ** 2 for y in ys)
    if sxx <= 0 or syy <= 0:
        return None
    return sxy / math.sqrt(sxx * syy)


def group_size(n: int, fraction: float = UPPER_LOWER_FRACTION) -> int:
    """Persons in the upper (and in the lower) group: fraction × n rounded half up."""
    return int(math.floor(fraction * n + 0.5))


def cronbach_alpha(matrix: list[list[float]]) -> float | None:
    """Cronbach's alpha of persons × items scores (KR-20 for 0/1 scores); None when undefined."""
    if len(matrix) < 2 or len(matrix[0]) < 2:
        return None
    k = len(matrix[0])
    item_var = math.fsum(pvariance(col) for col in zip(*matrix))
    total_var = pvariance(math.fsum(row) for row in matrix)
    if total_var <= 0:
        return None
    return k / (k - 1) * (1 - item_var / total_var)


def two_proportion_test(x1: int, n1: int, x2: int, n2: int) -> tuple[float, float]:
    """(z, two-sided p) of the pooled two-proportion z-test; (0, 1) when undefined."""
    p = (x1 + x2) / (n1 + n2)
    se = math.sqrt(p * (1 - p) * (1 / n1 + 1 / n2))
    if se == 0:
        return 0.0, 1.0
    z = (x1 / n1 - x2 / n2) / se
    return z, math.erfc(abs(z) / math.sqrt(2))


@dataclass
class OptionStats:
    option: str
    key: bool
    count: int
    share: float
    upper_share: float | None
    lower_share: float | None
    mean_score: float | None  # mean score (0–1) of the persons who chose it


@dataclass
class ItemStats:
    question: str
    language: str
    responses: int
    correct: int  # responses with full marks
    facility: float  # mean marks (partial credit included)
    point_biserial: float | None  # corrected item–total (item against the rest of the score)
    upper_lower: float | None  # proportion right in the upper 27 % minus in the lower 27 %
    group: int  # persons in each of the upper and lower groups
    options: list[OptionStats]
    omitted: int

    def as_dict(self) -> dict:
        return {**{k: v for k, v in self.__dict__.items() if k != "options"}, "options": [o.__dict__ for o in self.options]}


@dataclass
class GroupStats:
    """The whole bank for one language (or all together): scores and reliability."""

    language: str
    persons: int
    mean_score: float | None
    sd_score: float | None
    histogram: list[int]  # persons per tenth of the score: [0, 0.1), …, [0.9, 1.0]
    alpha: float | None
    alpha_items: int  # questions every person of the group answered (alpha is computed on those)
    alpha_persons: int


@dataclass
class Analysis:
    items: dict[tuple[str, str], ItemStats] = field(default_factory=dict)
    groups: list[GroupStats] = field(default_factory=list)
    languages: list[str] = field(default_factory=list)


def histogram(scores: list[float]) -> list[int]:
    bins = [0] * 10
    for s in scores:
        bins[min(9, int(math.floor(s * 10 + 1e-9)))] += 1
    return bins


def analyze_responses(persons: dict[str, dict[str, str | None]], language_of: dict[str, str], items: dict) -> Analysis:
    """Statistics from ``persons`` (person → question → response as the practice site records
    it, or None), ``items`` the bank's ItemInfo (which scores each response); questions whose
    kind is not scored are left out."""
    items = {q: item for q, item in items.items() if item.scored}
    persons = {p: {q: c for q, c in answers.items() if q in items} for p, answers in persons.items()}
    persons = {p: answers for p, answers in persons.items() if answers}
    order = list(persons)
    scored: dict[str, dict[str, float]] = {p: {q: items[q].score(language_of[p], c) for q, c in persons[p].items()} for p in order}
    picks = {p: {q: items[q].picked(language_of[p], c) for q, c in persons[p].items()} for p in order}
    score = {p: mean(s.values()) for p, s in scored.items()}
    total = {p: sum(s.values()) for p, s in scored.items()}
    rank = {p: i for i, p in enumerate(order)}
    languages = sorted({language_of[p] for p in order}, key=lambda lang: (lang != "en", lang))
    result = Analysis(languages=languages)
    for lang in languages:
        group = [p for p in order if language_of[p] == lang]
        for qid, item in items.items():
            takers = [p for p in group if qid in persons[p]]
            if not takers:
                continue
            xs = [scored[p][qid] for p in takers]
            with_rest = [p for p in takers if len(scored[p]) > 1]
            rest = [(total[p] - scored[p][qid]) / (len(scored[p]) - 1) for p in with_rest]
            r = pearson([scored[p][qid] for p in with_rest], rest)
            ranked = sorted(takers, key=lambda p: (score[p], rank[p]))
            g = group_size(len(takers))
            lower, upper = (ranked[:g], ranked[-g:]) if g >= 1 else ([], [])
            d = mean(scored[p][qid] for p in upper) - mean(scored[p][qid] for p in lower) if g >= 1 else None
            options = []
            for oid in item.options:
                chose = [p for p in takers if oid in picks[p][qid]]
                options.append(OptionStats(
                    option=oid, key=oid in item.keys, count=len(chose), share=len(chose) / len(takers),
                    upper_share=sum(oid in picks[p][qid] for p in upper) / g if g else None,
                    lower_share=sum(oid in picks[p][qid] for p in lower) / g if g else None,
                    mean_score=mean(score[p] for p in chose) if chose else None,
                ))
            result.items[(qid, lang)] = ItemStats(
                question=qid, language=lang, responses=len(takers), correct=sum(x >= 1 for x in xs), facility=mean(xs),
                point_biserial=r, upper_lower=d, group=g, options=options,
                omitted=sum(persons[p][qid] is None for p in takers),
            )
    for lang in [*languages, "all"] if len(languages) > 1 else languages:
        group = [p for p in order if lang == "all" or language_of[p] == lang]
        scores = [score[p] for p in group]
        common = [q for q in items if all(q in scored[p] for p in group)]
        matrix = [[scored[p][q] for q in common] for p in group]
        result.groups.append(GroupStats(
            language=lang, persons=len(group), mean_score=mean(scores) if scores else None,
            sd_score=math.sqrt(pvariance(scores)) if scores else None, histogram=histogram(scores),
            alpha=cronbach_alpha(matrix) if common else None, alpha_items=len(common), alpha_persons=len(group),
        ))
    return result
