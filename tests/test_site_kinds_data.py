"""What the practice page embeds for each question kind (no browser needed)."""

from __future__ import annotations

import itertools
import json
import re
import shutil
import subprocess

import pytest

import polib

from aistack_bank.exporters.html_site import export, page_data
from aistack_bank.options import ExportOptions
from aistack_bank.site_strings import UI_STRINGS
from conftest import REPO

from test_kinds_json import kinds_bank
from test_kinds_model import question

KEYS = {
    "single-choice": {"options", "correct"},
    "multiple-response": {"options", "correct", "scoring"},
    "true-false": {"answer", "feedbackTrue", "feedbackFalse"},
    "numerical": {"answer", "tolerance", "units", "nearMisses"},
    "short-answer": {"answers", "caseSensitive", "foldDiacritics"},
    "matching": {"pairs", "distractors"},
    "ordering": {"items"},
    "essay": {"modelAnswer", "responseTemplate", "unscored"},
}


def test_each_kind_has_its_own_fields_and_the_common_ones():
    records = page_data(export.carried_bank(kinds_bank()), ExportOptions())["questions"]
    assert [r["kind"] for r in records] == list(KEYS)
    for record in records:
        assert set(record) == {"id", "kind", "stem", "explanation", "tags"} | KEYS[record["kind"]], record["kind"]
    numerical = records[3]
    assert numerical["tolerance"] == 0.7  # absolute: 5 % of 14, rounded off float noise
    assert numerical["units"][1] == {"name": "MB", "multiplier": 0.001}


def test_a_question_without_explanation_or_feedback_is_embedded_with_nulls():
    bare = question("true-false", explanation=None, feedback_true=None, feedback_false=None).model_copy(update={"id": "q003"})
    record = page_data(export.carried_bank(kinds_bank(**{"true-false": bare})), ExportOptions())["questions"][2]
    assert record["explanation"] is None and record["feedbackTrue"] is None and record["feedbackFalse"] is None


def test_no_key_is_in_the_markup_outside_the_page_data():
    """As for single-choice, the key is only in #bank-data: the markup before answering holds no answer text."""
    page = export({"en": kinds_bank()}, ExportOptions())
    html = next(data for path, data in page.items() if str(path) == "en/index.html").decode("utf-8")
    markup = re.sub(r'<script type="application/json" id="bank-data">.*?</script>', "", html, flags=re.S)
    for secret in ("ONNX", "onnx runtime", "2 bytes", "4 bytes", "That is FP32.", "It reads every weight for each token."):
        assert secret not in markup, secret
    data = json.loads(re.search(r'id="bank-data">(.*?)</script>', html, flags=re.S).group(1))
    assert data["questions"][4]["answers"][0]["text"] == "ONNX"


def test_an_essay_carries_its_model_answer_and_template_and_nothing_to_score_with():
    record = next(r for r in page_data(kinds_bank(), ExportOptions())["questions"] if r["kind"] == "essay")
    assert record["modelAnswer"] == "It reads every weight for each token."
    assert record["responseTemplate"] == "Bytes read per token:"
    bare = question("essay", model_answer=None, response_template=None).model_copy(update={"id": "q008"})
    record = page_data(kinds_bank(essay=bare), ExportOptions())["questions"][7]
    assert record["modelAnswer"] is None and record["responseTemplate"] is None


def test_the_essay_strings_go_only_into_pages_holding_an_essay():
    """The interface strings of the essay (site.essay.*) are on a page with an essay, in every
    language's catalog, and absent from a page without one."""
    with_essay = page_data(kinds_bank(), ExportOptions())["ui"]
    essay_keys = {key for key in UI_STRINGS if key.startswith("site.essay.")}
    assert essay_keys and essay_keys <= set(with_essay)
    without = kinds_bank()
    without = without.model_copy(update={"questions": tuple(q for q in without.questions if q.kind != "essay")})
    assert not essay_keys & set(page_data(without, ExportOptions())["ui"])
    for catalog in sorted((REPO / "translations" / "site").glob("*.po")):
        entries = {e.msgctxt: e.msgstr for e in polib.pofile(str(catalog))}
        assert all(entries.get(key) for key in essay_keys), catalog.name
        if catalog.stem == "fr":  # French typography: a no-break space before a colon or a semicolon
            assert not [key for key in essay_keys if re.search(r"(?<!\u00a0)[:;]", entries[key])]


def test_progress_counts_the_questions_whose_answers_are_kept():
    """An essay's answer is never stored: the answered figures (topic page, home page) count out of the scored questions."""
    from aistack_bank.exporters.record import as_library
    from aistack_bank.exporters.site_pages import home_data

    bank = kinds_bank()
    scored = [q.id for q in bank.questions if q.kind != "essay"]
    assert len(scored) == len(bank.questions) - 1
    assert home_data(as_library(bank), ExportOptions())["topics"][0]["questions"] == scored
    page = export({"en": bank}, ExportOptions())
    html = next(data for path, data in page.items() if str(path) == "en/index.html").decode("utf-8")
    assert f'<span id="stat-answered" class="figure">0 / {len(scored)}</span>' in html


def test_a_kind_the_model_does_not_score_is_marked_unscored_for_the_page(monkeypatch):
    """The page learns which questions it never scores nor stores from the model's SCORED, through
    each question's record: a kind made unscored is marked so, and counted out of the progress."""
    from aistack_bank.kinds import TrueFalseQuestion

    bank = kinds_bank()
    assert [r["id"] for r in page_data(bank, ExportOptions())["questions"] if r.get("unscored")] == [q.id for q in bank.questions if q.kind == "essay"]
    monkeypatch.setattr(TrueFalseQuestion, "SCORED", False)
    marked = [r["kind"] for r in page_data(bank, ExportOptions())["questions"] if r.get("unscored")]
    assert marked == ["true-false", "essay"]
    html = next(data for path, data in export({"en": bank}, ExportOptions()).items() if str(path) == "en/index.html").decode("utf-8")
    assert f'<span id="stat-answered" class="figure">0 / {len(bank.questions) - 2}</span>' in html


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not on PATH")
def test_the_page_scores_no_question_the_page_data_marks_unscored():
    """practice.js asks the question's record, not a list of kinds of its own: a question marked
    unscored is never given to its kind's scorer, every other one is."""
    text = (REPO / "aistack_bank" / "exporters" / "site" / "practice.js").read_text(encoding="utf-8")
    found = re.search(r"\n  function outcomeOf\(q, response\) \{.*?\n  \}\n", text, re.S)
    assert found, "practice.js lost its outcomeOf"
    assert not re.search(r"UNSCORED|unscored: true \}\)", text.replace(found.group(0), "")), "practice.js decides elsewhere what it does not score"
    script = "const SCORERS = { \"true-false\": (q, r) => ({ score: r === q.answer ? 1 : 0 }), \"essay\": () => ({ score: 1 }) };\n" + found.group(0) + """
process.stdout.write(JSON.stringify([
  outcomeOf({ kind: "true-false", answer: true }, true), outcomeOf({ kind: "true-false", answer: true, unscored: true }, true),
  outcomeOf({ kind: "essay", unscored: true }, "text")]));
"""
    run = subprocess.run(["node", "-e", script], capture_output=True, text=True, timeout=60, check=True)
    assert json.loads(run.stdout) == [{"score": 1}, {"score": 0, "unscored": True}, {"score": 0, "unscored": True}]


def _matching_source() -> str:
    """practice.js's matchChoices and matchText, and its matching scorer as ``scoreMatching``."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "aistack_bank" / "exporters" / "site" / "practice.js").read_text(encoding="utf-8")
    helpers = re.search(r"\n  function matchChoices\(q\) \{.*?\n  \}\n\n  function matchText\(q, id\) \{.*?\n  \}\n", text, re.S)
    scorer = re.search(r'\n    "matching": (\(q, response\) => \{.*?\n    \}),\n', text, re.S)
    assert helpers and scorer, "practice.js lost its matching functions"
    return helpers.group(0) + f"const scoreMatching = {scorer.group(1)};\n"


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not on PATH")
def test_the_site_offers_a_shared_answer_once_and_scores_every_response_as_the_bank():
    """Two prompts sharing "2 bytes": each prompt's list (matchChoices) shows every distinct
    answer once, as the model offers them, and practice.js's scorer gives every possible
    response (each prompt given each offered answer, or none) the bank's score."""
    from test_kinds_shared import question as shared_question

    q = shared_question().model_copy(update={"id": "q006"})
    records = page_data(export.carried_bank(kinds_bank(matching=q)), ExportOptions())["questions"]
    (record,) = [r for r in records if r["kind"] == "matching"]
    ids = [answer_id for answer_id, _ in q.offered()] + [""]
    responses = [dict(zip([p.id for p in q.pairs], chosen)) for chosen in itertools.product(ids, repeat=len(q.pairs))]
    script = _matching_source() + """
const [q, responses] = JSON.parse(require("fs").readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify([matchChoices(q), responses.map((r) => scoreMatching(q, r).score)]));
"""
    run = subprocess.run(["node", "-e", script], input=json.dumps([record, responses]), capture_output=True, text=True, timeout=60, check=True)
    choices, scores = json.loads(run.stdout)
    assert [(c["id"], c["text"]) for c in choices] == q.offered()
    expected = [q.score(q.parse_response(";".join(f"{pair}={answer}" for pair, answer in r.items()))) for r in responses]
    assert len(responses) == 5 ** 4 and scores == pytest.approx(expected)
