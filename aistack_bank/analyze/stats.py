"""Classical item statistics, in pure Python (docs/item-analysis.md gives every formula).

A *person* is one learner in one language (a Moodle attempt, one QTI result, one practice-site
learner). Each response earns the marks its question's kind gives it (0 to 1: partial credit of
a multiple-response, numerical, short-answer or matching question included); each person's
*score* is the mean of those marks over the questions they were given; unanswered questions
earn 0. A question whose kind is not scored automatically gets no statistics.
"""

from __future__ import annotations

import math
from array import array
from collections import Counter
from itertools import chain, repeat
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


class Responses:
    """Every learner's responses, kept compactly: a learner read from one row of a Moodle report is
    a run of (question, response) numbers in flat arrays; a learner who may come back in another
    file (a QTI result, a practice-site file) keeps a small dict until the end. Each question's
    distinct responses are numbered once, so a response is scored once however many learners gave
    it. The first response to a question counts; learners keep the order they were first read in."""

    def __init__(self, items: dict):
        self.items = items
        self.ids = list(items)
        self.index = {q: i for i, q in enumerate(self.ids)}
        self.values: list[list[str | None]] = [[] for _ in self.ids]  # question -> its distinct responses
        self._codes: list[dict[str | None, int]] = [{} for _ in self.ids]
        self.languages: list[str] = []
        self._language: dict[str, int] = {}
        self.person_language = array("H")
        self.offsets = array("Q", [0])  # learner i's run is flat[offsets[i]:offsets[i + 1]]
        self.flat_item = array("I")
        self.flat_code = array("I")
        self.keyed: dict[str, int] = {}  # learner key -> learner number
        self.open: dict[int, dict[int, int]] = {}  # learner number -> question -> response

    def _code(self, item: int, choice: str | None) -> int:
        codes = self._codes[item]
        code = codes.get(choice)
        if code is None:
            code = codes[choice] = len(codes)
            self.values[item].append(choice)
        return code

    def _lang(self, language: str) -> int:
        at = self._language.get(language)
        if at is None:
            at = self._language[language] = len(self.languages)
            self.languages.append(language)
        return at

    def row(self, language: str, answers) -> None:
        """A learner seen once only (a row of a Moodle report): ``answers`` as (question, response)."""
        at = self._language.get(language)
        self.person_language.append(self._lang(language) if at is None else at)
        if len(answers) == 1:
            qid, choice = answers[0]
            item = self.index[qid]
            codes = self._codes[item]
            code = codes.get(choice)
            self.flat_item.append(item)
            self.flat_code.append(self._code(item, choice) if code is None else code)
            self.offsets.append(len(self.flat_item))
            return
        seen: set[int] = set()
        for qid, choice in answers:
            item = self.index[qid]
            if item not in seen:
                seen.add(item)
                self.flat_item.append(item)
                self.flat_code.append(self._code(item, choice))
        self.offsets.append(len(self.flat_item))

    def add(self, person: str, language: str, qid: str, choice: str | None) -> None:
        """One response of a learner who may come back in another file."""
        key = f"{person}\x00{language}"
        at = self.keyed.get(key)
        if at is None:
            at = self.keyed[key] = len(self.person_language)
            self.person_language.append(self._lang(language))
            self.offsets.append(self.offsets[-1])
            self.open[at] = {}
        item = self.index[qid]
        answers = self.open[at]
        if item not in answers:
            answers[item] = self._code(item, choice)

    @property
    def persons(self) -> int:
        return len(self.person_language)

    @property
    def answers(self) -> int:
        return len(self.flat_item) + sum(len(a) for a in self.open.values())

    def answers_of(self, person: int) -> tuple[list[int], list[int]]:
        """(questions, responses) of learner ``person``, in the order they were read."""
        answers = self.open.get(person)
        if answers is not None:
            return list(answers), list(answers.values())
        start, end = self.offsets[person], self.offsets[person + 1]
        return self.flat_item[start:end].tolist(), self.flat_code[start:end].tolist()


def analyze_responses(persons: dict[str, dict[str, str | None]], language_of: dict[str, str], items: dict) -> Analysis:
    """Statistics from ``persons`` (person → question → response as the practice site records
    it, or None), ``items`` the bank's ItemInfo (which scores each response); questions whose
    kind is not scored are left out."""
    responses = Responses(items)
    for person, answers in persons.items():
        for qid, choice in answers.items():
            responses.add(person, language_of[person], qid, choice)
    return statistics(responses)


class _Lazy(dict):
    """code -> value, computed on first use."""

    __slots__ = ("compute",)

    def __init__(self, compute):
        super().__init__()
        self.compute = compute

    def __missing__(self, code: int):
        value = self[code] = self.compute(code)
        return value


class _Taken:
    """One question in one language: each taker's response and score in the order read, and how
    many takers gave each (marks, mean marks on their other questions) pair."""

    __slots__ = ("codes", "scores", "pairs")

    def __init__(self):
        self.codes = array("I")
        self.scores = array("d")
        self.pairs: Counter = Counter()


def _repeated(counts: dict):
    return chain.from_iterable(repeat(v, k) for v, k in counts.items())


def _mean_of(counts: dict) -> float:
    """mean() of the values counted in ``counts`` (value -> how many times): the same exact sum."""
    return math.fsum(_repeated(counts)) / sum(counts.values())


def _pvariance_of(counts: dict) -> float:
    m = _mean_of(counts)
    return math.fsum(chain.from_iterable(repeat((x - m) ** 2, k) for x, k in counts.items())) / sum(counts.values())


def _pearson_of(pairs: dict) -> float | None:
    """pearson() of the (x, y) pairs counted in ``pairs``: the same terms, summed exactly."""
    n = sum(pairs.values())
    if n < 3:
        return None
    mx = math.fsum(chain.from_iterable(repeat(x, k) for (x, _y), k in pairs.items())) / n
    my = math.fsum(chain.from_iterable(repeat(y, k) for (_x, y), k in pairs.items())) / n
    sxy = math.fsum(chain.from_iterable(repeat((x - mx) * (y - my), k) for (x, y), k in pairs.items()))
    sxx = math.fsum(chain.from_iterable(repeat((x - mx) ** 2, k) for (x, _y), k in pairs.items()))
    syy = math.fsum(chain.from_iterable(repeat((y - my) ** 2, k) for (_x, y), k in pairs.items()))
    if sxx <= 0 or syy <= 0:
        return None
    return sxy / math.sqrt(sxx * syy)


def _groups(codes: array, scores: array, g: int) -> tuple[Counter, Counter]:
    """How many of the lower and of the upper ``g`` takers gave each response, the takers ranked
    by score and, between equal scores, in the order read (a stable sort, without sorting)."""
    by_score = Counter(scores)
    values = sorted(by_score)
    below = 0
    for s_lo in values:
        if below + by_score[s_lo] >= g:
            break
        below += by_score[s_lo]
    above = 0
    for s_hi in reversed(values):
        if above + by_score[s_hi] >= g:
            break
        above += by_score[s_hi]
    need_lo, skip_hi = g - below, by_score[s_hi] - (g - above)
    lower: Counter = Counter()
    upper: Counter = Counter()
    tied_lo = tied_hi = 0
    for c, s in zip(codes, scores):
        if s < s_lo:
            lower[c] += 1
        elif s == s_lo:
            if tied_lo < need_lo:
                lower[c] += 1
            tied_lo += 1
        if s > s_hi:
            upper[c] += 1
        elif s == s_hi:
            if tied_hi >= skip_hi:
                upper[c] += 1
            tied_hi += 1
    return lower, upper


def statistics(responses: Responses) -> Analysis:
    """The statistics of :class:`Responses` (the formulas of docs/item-analysis.md). One pass over
    the learners keeps, per question and language, each taker's response number and score (what
    the upper and lower groups need) and counts of distinct values for everything else; every
    sum is the exact sum of the same terms as the formulas', so the figures are the same whatever
    the order of summing."""
    items = responses.items
    ids = responses.ids
    n_items = len(ids)
    scored_item = [items[q].scored for q in ids]
    languages_read = responses.languages
    n_langs = len(languages_read)
    marks: list[list[_Lazy | None]] = [[None] * n_items for _ in range(n_langs)]
    picks: list[list[_Lazy | None]] = [[None] * n_items for _ in range(n_langs)]

    def marks_of(item: int, lang: int) -> _Lazy:
        got = marks[lang][item]
        if got is None:  # a response is scored in its own language only, once
            info, language, values = items[ids[item]], languages_read[lang], responses.values[item]
            got = marks[lang][item] = _Lazy(lambda c: info.score(language, values[c]))
        return got

    def picks_of(item: int, lang: int) -> _Lazy:
        got = picks[lang][item]
        if got is None:
            info, language, values = items[ids[item]], languages_read[lang], responses.values[item]
            got = picks[lang][item] = _Lazy(lambda c: info.picked(language, values[c]))
        return got

    all_scored = all(scored_item)
    taken: list[list[_Taken | None]] = [[None] * n_items for _ in range(n_langs)]
    score_counts = [Counter() for _ in range(n_langs)]  # score -> learners
    row_sums = [Counter() for _ in range(n_langs)]  # (questions answered, exact sum of marks) -> learners
    lang_of, offsets, flat_item, flat_code, open_ = (responses.person_language, responses.offsets,
                                                     responses.flat_item, responses.flat_code, responses.open)
    for person in range(responses.persons):
        lang = lang_of[person]
        answers = open_.get(person) if open_ else None
        if answers is None:
            start, end = offsets[person], offsets[person + 1]
            if end - start == 1 and scored_item[flat_item[start]]:  # one response: its marks are the score
                i, c = flat_item[start], flat_code[start]
                x = (marks[lang][i] or marks_of(i, lang))[c]
                t = taken[lang][i]
                if t is None:
                    t = taken[lang][i] = _Taken()
                t.codes.append(c)
                t.scores.append(x)
                score_counts[lang][x] += 1
                row_sums[lang][(1, x)] += 1
                continue
            its, codes = flat_item[start:end], flat_code[start:end]
        else:
            its, codes = list(answers), list(answers.values())
        if not all_scored:
            pairs = [(i, c) for i, c in zip(its, codes) if scored_item[i]]
            if not pairs:
                continue
            its, codes = [i for i, _ in pairs], [c for _, c in pairs]
        xs = [(marks[lang][i] or marks_of(i, lang))[c] for i, c in zip(its, codes)]
        n = len(xs)
        exact = math.fsum(xs)
        s = exact / n
        score_counts[lang][s] += 1
        row_sums[lang][(n, exact)] += 1
        total = sum(xs)
        for i, c, x in zip(its, codes, xs):
            t = taken[lang][i]
            if t is None:
                t = taken[lang][i] = _Taken()
            t.codes.append(c)
            t.scores.append(s)
            if n > 1:
                t.pairs[(x, (total - x) / (n - 1))] += 1
    present = sorted((lang for lang in range(n_langs) if score_counts[lang]), key=lambda lang: (languages_read[lang] != "en", languages_read[lang]))
    result = Analysis(languages=[languages_read[lang] for lang in present])
    scored_ids = [i for i in range(n_items) if scored_item[i]]
    per_code_of: dict[tuple[int, int], Counter] = {}
    for lang in present:
        language = languages_read[lang]
        for i in scored_ids:
            t = taken[lang][i]
            if t is None:
                continue
            item = items[ids[i]]
            mark, pick = marks_of(i, lang), picks_of(i, lang)
            m = len(t.codes)
            per_code = per_code_of[(lang, i)] = Counter(t.codes)
            g = group_size(m)
            if g >= 1:
                lower, upper = _groups(t.codes, t.scores, g)
                d = (math.fsum(chain.from_iterable(repeat(mark[c], k) for c, k in upper.items())) / g
                     - math.fsum(chain.from_iterable(repeat(mark[c], k) for c, k in lower.items())) / g)
            else:
                d, lower, upper = None, Counter(), Counter()
            by_code_score = Counter(zip(t.codes, t.scores))
            options = []
            for oid in item.options:
                with_it = {c for c in per_code if oid in pick[c]}
                chose = sum(per_code[c] for c in with_it)
                options.append(OptionStats(
                    option=oid, key=oid in item.keys, count=chose, share=chose / m,
                    upper_share=sum(upper[c] for c in with_it) / g if g else None,
                    lower_share=sum(lower[c] for c in with_it) / g if g else None,
                    mean_score=_mean_of(_sum_by_score(by_code_score, with_it)) if chose else None,
                ))
            values = responses.values[i]
            result.items[(ids[i], language)] = ItemStats(
                question=ids[i], language=language, responses=m,
                correct=sum(k for c, k in per_code.items() if mark[c] >= 1),
                facility=math.fsum(chain.from_iterable(repeat(mark[c], k) for c, k in per_code.items())) / m,
                point_biserial=_pearson_of(t.pairs), upper_lower=d, group=g, options=options,
                omitted=sum(k for c, k in per_code.items() if values[c] is None),
            )
    for lang in [*present, -1] if len(present) > 1 else present:
        langs = present if lang == -1 else [lang]
        scores: Counter = Counter()
        for x in langs:
            scores.update(score_counts[x])
        persons = sum(scores.values())
        takers = {i: sum(len(taken[x][i].codes) for x in langs if taken[x][i] is not None) for i in scored_ids}
        common = [i for i in scored_ids if takers[i] == persons]
        alpha = None
        k = len(common)
        if common and persons >= 2 and k >= 2:
            item_var = math.fsum(_pvariance_of(_marks_counted(per_code_of, marks_of, i, langs)) for i in common)
            sums: Counter = Counter()
            if all(n == k for x in langs for n, _e in row_sums[x]):  # everyone answered exactly the common questions
                for x in langs:
                    for (_n, e), cnt in row_sums[x].items():
                        sums[e] += cnt
            else:
                wanted = set(common)
                for person in range(responses.persons):
                    if lang_of[person] not in langs:
                        continue
                    its, codes = responses.answers_of(person)
                    mk = lang_of[person]
                    if any(scored_item[i] for i in its):
                        sums[math.fsum(marks_of(i, mk)[c] for i, c in zip(its, codes) if i in wanted)] += 1
            total_var = _pvariance_of(sums)
            alpha = None if total_var <= 0 else k / (k - 1) * (1 - item_var / total_var)
        bins = [0] * 10
        for x, cnt in scores.items():
            bins[min(9, int(math.floor(x * 10 + 1e-9)))] += cnt
        result.groups.append(GroupStats(
            language="all" if lang == -1 else languages_read[lang], persons=persons,
            mean_score=_mean_of(scores), sd_score=math.sqrt(_pvariance_of(scores)),
            histogram=bins, alpha=alpha, alpha_items=k, alpha_persons=persons,
        ))
    return result


def _sum_by_score(by_code_score: Counter, codes: set[int]) -> Counter:
    out: Counter = Counter()
    for (c, s), k in by_code_score.items():
        if c in codes:
            out[s] += k
    return out


def _marks_counted(per_code_of: dict, marks_of, item: int, langs) -> Counter:
    """Marks of ``item`` over the languages ``langs`` -> how many takers earned them."""
    out: Counter = Counter()
    for lang in langs:
        for c, k in per_code_of.get((lang, item), {}).items():
            out[marks_of(item, lang)[c]] += k
    return out
