"""Short-answer matching: Moodle's wildcard and the folding rule, the same table of cases run
through the bank's scoring and the practice site's matcher (practice.js, in Node), so the two
cannot drift; the rules an accepted answer with wildcards must follow."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from pydantic import TypeAdapter

from aistack_bank.model import Question

ROOT = Path(__file__).resolve().parents[1]
TABLE = json.loads((ROOT / "tests/data/short-answer-folding.json").read_text(encoding="utf-8"))["cases"]
PRACTICE = ROOT / "aistack_bank/exporters/site/practice.js"


def question(answers, **extra):
    return TypeAdapter(Question).validate_python({
        "id": "q001", "kind": "short-answer", "stem": "Stem?", "explanation": "Because.", "tags": ["memory"], "difficulty": 2,
        "answers": answers, **extra})


def case_id(case):
    return f"{case['answer']!r}~{case['response']!r}" + ("/case" if case.get("case_sensitive") else "") + ("/diacritics" if case.get("fold_diacritics") else "")


@pytest.mark.parametrize("case", TABLE, ids=[case_id(c) for c in TABLE])
def test_the_bank_scores_each_case_of_the_table(case):
    q = question([{"text": case["answer"]}], case_sensitive=case.get("case_sensitive", False), fold_diacritics=case.get("fold_diacritics", False))
    assert q.score(q.parse_response(case["response"])) == (1.0 if case["matches"] else 0.0)


def matcher_source() -> str:
    text = PRACTICE.read_text(encoding="utf-8")
    found = re.search(r"// --- Short-answer matching \(begin\) ---\n(.*?)// --- Short-answer matching \(end\) ---", text, re.S)
    assert found, "practice.js lost its short-answer matching block"
    return found.group(1)


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not on PATH")
def test_the_practice_site_matches_each_case_of_the_table_as_the_bank_does():
    script = matcher_source() + """
const cases = JSON.parse(require("fs").readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(cases.map((c) => answerMatches(c.answer, c.response, !!c.case_sensitive, !!c.fold_diacritics))));
"""
    run = subprocess.run(["node", "-e", script], input=json.dumps(TABLE), capture_output=True, text=True, timeout=60, check=True)
    got = json.loads(run.stdout)
    wrong = [case_id(c) for c, g in zip(TABLE, got) if g != c["matches"]]
    assert not wrong, f"practice.js disagrees with the table on {wrong}"


def test_the_best_credit_among_matching_answers_counts_whatever_their_order():
    q = question([{"text": "*point", "credit": 0.5}, {"text": "ridge point"}, {"text": "ridge*", "credit": 0.25}])
    assert q.score("ridge-point") == 1.0
    assert q.score("balance point") == 0.5
    assert q.score("ridge") == 0.25
    assert q.score("knee") == 0.0


# What an XML Schema pattern cannot say: a character whose case folds to two (ß and ss, the
# ligature ﬁ and fi), and a response typed in decomposed form (QTI players compare what the
# learner typed, unnormalised).
NOT_IN_PATTERNS = {("Stra\u00dfe", "STRASSE"), ("\ufb01ne", "\ufb01ne"), ("r\u00e9seau", "re\u0301seau")}


@pytest.mark.parametrize("fmt", ["qti21", "qti30"])
def test_qti_pattern_match_scores_the_table_as_the_bank_does(fmt):
    """Each case through the QTI item's own response processing (``patternMatch``), run by the
    model of `bank lint --target qti`, on a question holding the case's answer."""
    import io
    import zipfile

    from aistack_bank.exporters import FORMATS
    from aistack_bank.lms import models
    from aistack_bank.model import Bank, Topic
    from aistack_bank.options import ExportOptions
    from banklayout import category

    wrong = []
    for case in TABLE:
        if (case["answer"], case["response"]) in NOT_IN_PATTERNS:
            continue
        q = question([{"text": case["answer"]}], case_sensitive=case.get("case_sensitive", False), fold_diacritics=case.get("fold_diacritics", False))
        bank = Bank(topic=Topic(id="t", category="tests", title="T", summary="S", tags={"memory": "m"}, questions=["q001"]), questions=(q,), category=category())
        tree = FORMATS[fmt]({"en": bank}, ExportOptions())
        with zipfile.ZipFile(io.BytesIO(tree[FORMATS[fmt].language_file(bank.topic, "en")])) as zf:
            doc = models.parse_xml(zf.read("items/q001.xml"))
        if models.qti_outcomes(doc, case["response"])["SCORE"] != (1.0 if case["matches"] else 0.0):
            wrong.append(case_id(case))
    assert not wrong
