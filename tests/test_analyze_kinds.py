"""`bank analyze` on a bank of every question kind: item statistics for each, partial credit included.

The responses are the practice site's (*Export my answers*), which records a response of every
kind as one string; each simulated response comes with the score the bank's rules give it,
written out here by hand (right, wrong, partly right), so the facility of every question is
known in advance.
"""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

from aistack_bank.analyze import analyze
from aistack_bank.analyze.bankinfo import load_bank_info

REPO = Path(__file__).resolve().parents[1]
EVERY_KIND = REPO / "examples" / "every-kind"
LEARNERS = 40


def candidates(q) -> list[tuple[str, float]]:
    """Responses to ``q`` (in its language) with the marks each earns."""
    if q.kind == "single-choice":
        return [(o.id, 1.0 if o.id == q.correct else 0.0) for o in q.options]
    if q.kind == "multiple-response":
        k, ids = len(q.correct), [o.id for o in q.options]
        wrong = [i for i in ids if i not in q.correct]
        partial = q.scoring == "partial"
        return [
            (",".join(sorted(q.correct)), 1.0),
            (q.correct[0], 1 / k if partial and k > 1 else (1.0 if k == 1 else 0.0)),
            (",".join(sorted([q.correct[0], *wrong[:1]])), 0.0),
            (",".join(ids), max(0.0, (k - len(wrong)) / k) if partial else 0.0),
            ("", 0.0),
        ]
    if q.kind == "true-false":
        return [("true", 1.0 if q.answer else 0.0), ("false", 0.0 if q.answer else 1.0)]
    if q.kind == "numerical":
        unit = f" {q.units[0].name}" if q.units else ""
        out = [(f"{q.answer!r}{unit}", 1.0), ("-987654321", 0.0)]
        return out + [(f"{near.value!r}{unit}", near.credit) for near in q.near_misses]
    if q.kind == "short-answer":
        return [(a.text, a.credit) for a in q.answers] + [("certainly not this", 0.0)]
    if q.kind == "matching":
        ids = [p.id for p in q.pairs]
        right = ";".join(f"{i}={i}" for i in ids)
        swapped = ";".join(f"{i}={ids[1] if i == ids[0] else ids[0] if i == ids[1] else i}" for i in ids)
        return [(right, 1.0), (swapped, 1 - 2 / len(ids))]
    if q.kind == "ordering":
        ids = [item.id for item in q.items]
        return [(",".join(ids), 1.0), (",".join(reversed(ids)), 0.0), (",".join(ids[1:] + ids[:1]), 0.0)]
    if not q.SCORED:  # graded by a person (an essay): a response, but no marks to expect
        return [("A written answer.", None)]
    raise AssertionError(q.kind)


@pytest.fixture(scope="module")
def every_kind_results(tmp_path_factory):
    """Each learner answers every question in one language; (folder, expected facility by (question, language))."""
    info, problems = load_bank_info(EVERY_KIND / "bank", EVERY_KIND / "translations")
    assert info is not None, problems
    root = tmp_path_factory.mktemp("every-kind-results")
    rng = random.Random(28)
    scores: dict[tuple[str, str], list[float]] = {}
    for lang in info.languages:
        for n in range(LEARNERS):
            answers = []
            for qid, item in info.items.items():
                response, score = rng.choice(candidates(item.questions[lang]))
                if score is not None:
                    scores.setdefault((qid, lang), []).append(score)
                answers.append({"question": qid, "language": lang, "choice": response, "answered_at": f"2026-01-01T00:00:{n % 60:02d}Z"})
            data = {"format": "aistack-bank-practice-answers", "version": 1, "bank": info.topic_id, "learner": f"{lang}-{n}", "answers": answers}
            (root / f"{lang}-{n:03d}.json").write_text(json.dumps(data), encoding="utf-8")
    return root, {key: sum(values) / len(values) for key, values in scores.items()}, info


def test_every_kind_gets_item_statistics(every_kind_results):
    root, facility, info = every_kind_results
    report = analyze([root], EVERY_KIND / "bank", EVERY_KIND / "translations")
    assert not report.errors, report.errors
    assert {q.kind for item in info.items.values() for q in item.questions.values()} >= {
        "single-choice", "multiple-response", "true-false", "numerical", "short-answer", "matching", "ordering"}
    assert set(report.analysis.items) == set(facility)
    for key, expected in facility.items():
        stats = report.analysis.items[key]
        assert stats.responses == LEARNERS, key
        assert math.isclose(stats.facility, expected, abs_tol=1e-9), (key, stats.facility, expected)
    # The essay is answered but graded by a person: named, with no statistics.
    assert set(report.unscored) == {qid for qid, item in info.items.items() if not item.questions["en"].SCORED} != set()


def test_partial_credit_counts_in_the_scores(every_kind_results):
    """Somewhere a response earned part of the marks, and the mean score shows it."""
    root, facility, _ = every_kind_results
    report = analyze([root], EVERY_KIND / "bank", EVERY_KIND / "translations")
    partial = [s for s in report.analysis.items.values() if s.correct < s.facility * s.responses - 1e-9]
    assert partial, "no question's facility includes partial credit"


def test_the_command_reports_every_kind(every_kind_results, run_cli, monkeypatch, tmp_path):
    root, facility, info = every_kind_results
    monkeypatch.chdir(EVERY_KIND)
    code, out = run_cli("analyze", root, "--html", tmp_path / "report.html")
    assert code == 0, out
    assert "Traceback" not in out
    scored = [qid for qid, item in info.items.items() if item.scored]
    assert (tmp_path / "report.html").read_text(encoding="utf-8").count('<div class="item"') == len(scored)
    for qid in scored:
        assert any(line.startswith(qid) for line in out.splitlines()), qid
    assert "no statistics (not scored automatically): q014 (an essay question is not scored automatically)" in out
    code, out = run_cli("analyze", root, "--format", "json")
    assert code == 0
    assert len(json.loads(out)["items"]) == len(facility)


def test_a_response_that_is_none_of_the_question_is_a_located_error(tmp_path):
    info, _ = load_bank_info(EVERY_KIND / "bank", EVERY_KIND / "translations")
    qid = next(qid for qid, item in info.items.items() if item.questions["en"].kind == "true-false")
    data = {"format": "aistack-bank-practice-answers", "version": 1, "bank": info.topic_id, "learner": "x",
            "answers": [{"question": qid, "language": "en", "choice": "maybe", "answered_at": "2026-01-01T00:00:00Z"}]}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    report = analyze([path], EVERY_KIND / "bank", EVERY_KIND / "translations")
    assert [d.code for d in report.errors] == ["E905"]
    assert f"no response to {qid}" in report.errors[0].message


def test_a_kind_that_is_not_scored_is_named_and_left_out(every_kind_results, monkeypatch):
    """A kind graded by hand gets no statistics, and the report says which questions."""
    from aistack_bank.analyze.report import render_json, render_text
    from aistack_bank.kinds import TrueFalseQuestion

    root, facility, info = every_kind_results
    monkeypatch.setattr(TrueFalseQuestion, "SCORED", False)
    report = analyze([root], EVERY_KIND / "bank", EVERY_KIND / "translations")
    assert not report.errors, report.errors
    manual = {qid for qid, item in info.items.items() if item.questions["en"].kind == "true-false" or not item.questions["en"].SCORED}
    assert manual and set(report.unscored) == manual
    assert {qid for qid, _ in report.analysis.items} == set(info.items) - manual
    assert any(line.startswith("no statistics (not scored automatically): ") and all(q in line for q in manual) for line in render_text(report))
    assert set(render_json(report)["unscored"]) == manual
