"""`bank analyze` reads its results as a stream and keeps per learner only what the statistics need.

The statistics must stay exactly those of the dict-per-learner computation they replaced:
``reference_analyze_responses`` below is that computation, kept verbatim as the reference, and
every figure (floats compared with ``==``) is checked against it on simulated results of every
source (Moodle CSVs with and without question text and omitted answers, QTI results, practice-site
files of one learner split over two files, learners who answered only some questions) and on the
every-kind bank's partial credit.
"""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

import irt_simulate as sim_mod
from aistack_bank.analyze import analyze, expand
from aistack_bank.analyze.bankinfo import load_bank_info
from aistack_bank.analyze.readers import read_results
from aistack_bank.analyze.stats import (
    Analysis,
    GroupStats,
    ItemStats,
    OptionStats,
    cronbach_alpha,
    group_size,
    histogram,
    mean,
    pearson,
    pvariance,
)

REPO = Path(__file__).resolve().parents[1]
BANK, TRANSLATIONS = REPO / "bank", REPO / "translations"
EVERY_KIND = REPO / "examples" / "every-kind"


def reference_analyze_responses(persons: dict[str, dict[str, str | None]], language_of: dict[str, str], items: dict) -> Analysis:
    """The statistics as computed from one dict of responses per learner (the reference)."""
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


def reference(paths: list[Path], info) -> tuple[Analysis, int, int]:
    """(analysis, persons, answers) from the readers' answers gathered into one dict per learner."""
    persons: dict[str, dict[str, str | None]] = {}
    language_of: dict[str, str] = {}
    for path in expand(paths):
        read = read_results(path, info)
        assert not [d for d in read.diagnostics if d.severity.value == "error"], read.diagnostics
        for a in read.answers:
            person = f"{a.person}\x00{a.language}"
            language_of[person] = a.language
            persons.setdefault(person, {}).setdefault(a.question, a.choice)
    return reference_analyze_responses(persons, language_of, info.items), len(persons), sum(len(v) for v in persons.values())


def assert_same(paths, bank, translations, info):
    report = analyze(paths, bank, translations)
    assert not report.errors, report.errors
    expected, persons, answers = reference(paths, info)
    assert (report.persons, report.answers) == (persons, answers)
    assert report.analysis.languages == expected.languages
    assert list(report.analysis.items) == list(expected.items)
    for key, stats in expected.items.items():
        assert report.analysis.items[key] == stats, key
    assert report.analysis.groups == expected.groups
    return report


@pytest.fixture(scope="module")
def info():
    return sim_mod.bank_info()


def test_mixed_sources_give_the_reference_statistics(info, tmp_path):
    sim = sim_mod.simulate(info, persons=90, seed=11)
    rng = random.Random(3)
    en = [dict(p) for p in sim.responses["en"]]
    for person in en[::7]:
        person[rng.choice(sim.questions)] = None  # omitted in the report ("-")
    (tmp_path / "en.csv").write_bytes(sim_mod.moodle_csv(info, "en", en, seed=1))
    (tmp_path / "fr.csv").write_bytes(sim_mod.moodle_csv(info, "fr", sim.responses["fr"][:60], question_text=True, seed=2))
    (tmp_path / "nl").mkdir()
    for i, answers in enumerate(sim.responses["nl"]):
        some = {q: c for q, c in answers.items() if rng.random() < 0.8} or {sim.questions[0]: answers[sim.questions[0]]}
        if i % 10 == 0:  # one learner's answers over two files, some answered twice
            items = list(some.items())
            half = len(items) // 2
            (tmp_path / "nl" / f"a-{i:03d}.json").write_bytes(sim_mod.site_answers(info, "nl", dict(items[:half + 2]), f"nl-{i}"))
            (tmp_path / "nl" / f"b-{i:03d}.json").write_bytes(sim_mod.site_answers(info, "nl", dict(items[half:]), f"nl-{i}"))
        else:
            (tmp_path / "nl" / f"c-{i:03d}.json").write_bytes(sim_mod.site_answers(info, "nl", some, f"nl-{i}"))
    for i, answers in enumerate(sim.responses["fr"][60:70]):
        (tmp_path / f"fr-{i}.xml").write_bytes(sim_mod.qti_result(info, answers, f"fr-{i}", version="3.0", lang_suffix="fr"))
    (tmp_path / "one.json").write_bytes(sim_mod.site_answers(info, "en", {sim.questions[1]: sim.keys[sim.questions[1]]}, "alone"))
    paths = [tmp_path / "en.csv", tmp_path / "fr.csv", tmp_path / "nl", tmp_path / "one.json",
             *sorted(tmp_path.glob("fr-*.xml"))]
    assert_same(paths, BANK, TRANSLATIONS, info)


def test_one_language_and_a_file_named_twice_give_the_reference_statistics(info, tmp_path):
    sim = sim_mod.simulate(info, persons=50, languages=("fr",), seed=4)
    (tmp_path / "fr.csv").write_bytes(sim_mod.moodle_csv(info, "fr", sim.responses["fr"], seed=9))
    report = assert_same([tmp_path / "fr.csv", tmp_path / "fr.csv"], BANK, TRANSLATIONS, info)
    assert report.persons == 50


@pytest.mark.parametrize("true_false_scored", [True, False])
def test_partial_credit_of_every_kind_gives_the_reference_statistics(tmp_path, monkeypatch, true_false_scored):
    """Every kind, partial credit included (the examples' essay is never scored); then with
    true-false questions not scored too, some learners having answered only those."""
    from test_analyze_kinds import candidates

    from aistack_bank.kinds import TrueFalseQuestion

    monkeypatch.setattr(TrueFalseQuestion, "SCORED", true_false_scored)
    info, problems = load_bank_info(EVERY_KIND / "bank", EVERY_KIND / "translations")
    assert info is not None, problems
    rng = random.Random(8)
    for lang in info.languages:
        for n in range(25):
            only_true_false = n % 8 == 3
            answers = [{"question": qid, "language": lang, "choice": rng.choice(candidates(item.questions[lang]))[0],
                        "answered_at": f"2026-01-01T00:00:{n % 60:02d}Z"}
                       for qid, item in info.items.items()
                       if (item.kind == "true-false" if only_true_false else rng.random() < 0.9)]
            data = {"format": "aistack-bank-practice-answers", "version": 1, "bank": info.topic_id, "learner": f"{lang}-{n}", "answers": answers}
            (tmp_path / f"{lang}-{n:03d}.json").write_text(json.dumps(data), encoding="utf-8")
    report = assert_same([tmp_path], EVERY_KIND / "bank", EVERY_KIND / "translations", info)
    unscored = {qid for qid, item in info.items.items() if not item.questions["en"].SCORED}
    assert unscored and set(report.unscored) == unscored


def test_a_report_of_one_response_per_attempt_gives_the_reference_statistics(info, tmp_path):
    """The shape of the benchmark: one `Response 1` column and an attempt per row (every score a
    tie with many others: the upper and lower groups are cut inside runs of equal scores)."""
    import csv

    qid = next(q for q, item in info.items.items() if item.scored and item.options)
    texts = info.items[qid].option_texts["en"]
    rng = random.Random(12)
    with (tmp_path / "one-column.csv").open("w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(["Response 1"])
        cells = [rng.choice(list(texts.values()) + ["-"]) for _ in range(401)]
        writer.writerows([c] for c in cells)
    sim = sim_mod.simulate(info, persons=30, languages=("en",), seed=6)
    (tmp_path / "en.csv").write_bytes(sim_mod.moodle_csv(info, "en", sim.responses["en"], seed=5))
    report = assert_same([tmp_path / "one-column.csv", tmp_path / "en.csv"], BANK, TRANSLATIONS, info)
    assert report.persons == 30 + sum(c != "-" for c in cells)  # an attempt without answers is skipped
