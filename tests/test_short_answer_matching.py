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
        "answers": [{"id": f"a{n}", **answer} for n, answer in enumerate(answers, 1)], **extra})


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


# What an XML Schema pattern cannot say: a response typed in decomposed form (QTI players
# compare what the learner typed, unnormalised).
NOT_IN_PATTERNS = {("r\u00e9seau", "re\u0301seau")}


@pytest.mark.parametrize("fmt", ["qti21", "qti30"])
def test_qti_scores_the_table_as_the_bank_does_as_far_as_it_says(fmt):
    """Each case through the QTI item's own response processing, run by the model of `bank lint
    --target qti`: an answer with a wildcard (``patternMatch``) scores as the bank does; any
    other (``stringMatch`` of its common spellings, as in Moodle) never credits more than the
    bank, and credits each of those spellings as the bank does."""
    import io
    import zipfile

    from aistack_bank.exporters import FORMATS
    from aistack_bank.kinds.short_answer import has_wildcard, spellings
    from aistack_bank.lms import models
    from aistack_bank.model import Bank, Topic
    from aistack_bank.options import ExportOptions
    from banklayout import category

    wrong = []
    for case in TABLE:
        sensitive, diacritics = case.get("case_sensitive", False), case.get("fold_diacritics", False)
        q = question([{"text": case["answer"]}], case_sensitive=sensitive, fold_diacritics=diacritics)
        bank = Bank(topic=Topic(id="t", category="tests", title="T", summary="S", tags={"memory": "m"}, questions=["q001"]), questions=(q,), category=category())
        tree = FORMATS[fmt]({"en": bank}, ExportOptions())
        with zipfile.ZipFile(io.BytesIO(tree[FORMATS[fmt].language_file(bank.topic, "en")])) as zf:
            doc = models.parse_xml(zf.read("items/q001.xml"))
        got, expected = models.qti_outcomes(doc, case["response"])["SCORE"], (1.0 if case["matches"] else 0.0)
        if has_wildcard(case["answer"]):
            ok = got == expected or (case["answer"], case["response"]) in NOT_IN_PATTERNS
        else:
            listed = {t if sensitive else t.casefold() for t in spellings(case["answer"].replace("\\*", "*"), diacritics)}
            typed = case["response"] if sensitive else case["response"].casefold()
            ok = got <= expected and (typed not in listed or got == expected)
        if not ok:
            wrong.append(case_id(case))
    assert not wrong


# The spellings examples/every-kind no longer lists because folding covers them: every export
# must still credit each with full marks (or the example would have had to keep it).
EXAMPLES = ROOT / "examples" / "every-kind" / "exports"
NO_LONGER_LISTED = [
    ("en", "q009", "ridge-point"), ("nl", "q009", "ridge-point"), ("nl", "q009", "knik-punt"),
    ("fr", "q009", "ridge-point"), ("fr", "q009", "point-d'\u00e9quilibre"), ("fr", "q009", "point-d\u2019\u00e9quilibre"),
    ("fr", "q009", "point d\u2019\u00e9quilibre"), ("fr", "q009", "le point d\u2019\u00e9quilibre"),
    ("fr", "q010", "recalcul d\u2019activations"), ("fr", "q010", "rematerialisation"),
]


def _moodle_grade(answers, usecase: bool, response: str) -> float:
    """qtype_shortanswer::compare_string_with_wildcard on each answer in order, the first match's grade."""
    for answer, fraction, _ in answers:
        pattern = ".*".join(re.escape(bit.replace("\\*", "*")) for bit in re.split(r"(?<!\\)\*+", answer))
        if re.fullmatch(pattern, response.strip(), 0 if usecase else re.I):
            return fraction
    return 0.0


def _exact_answers(path: Path, member_suffix: str, ident: str) -> list[str]:
    """The texts a QTI 1.2 item (Canvas, the cartridge) gives full marks: the varequals of its scoring rule."""
    import zipfile

    from lxml import etree

    with zipfile.ZipFile(path) as zf:
        (name,) = [n for n in zf.namelist() if n.endswith(member_suffix)]
        root = etree.fromstring(zf.read(name))
    (item,) = [e for e in root.iter() if etree.QName(e).localname == "item" and e.get("ident") == ident]
    return [e.text for c in item.iter() if etree.QName(c).localname == "respcondition"
            and any(etree.QName(s).localname == "setvar" and s.text == "100" for s in c) for e in c.iter() if etree.QName(e).localname == "varequal"]


@pytest.mark.parametrize("lang, qid, response", NO_LONGER_LISTED)
def test_every_export_of_the_examples_still_credits_a_spelling_folding_covers(lang, qid, response):
    import io
    import zipfile

    from aistack_bank.lms import models

    moodle = {q.idnumber: q for q in models.read_moodle_xml((EXAMPLES / "moodle" / f"every-kind-{lang}.xml").read_bytes()).questions}[qid]
    assert _moodle_grade(moodle.answers, moodle.usecase, response) == 1.0
    for fmt in ("canvas-qti12", "common-cartridge"):
        suffix = ".zip" if fmt == "canvas-qti12" else ".imscc"
        member = f"every-kind-{lang}.xml" if fmt == "canvas-qti12" else "assessment.xml"
        texts = _exact_answers(EXAMPLES / fmt / f"every-kind-{lang}{suffix}", member, f"{qid}-{lang}")
        assert response.casefold() in [t.casefold() for t in texts], fmt  # both ignore case
    for fmt in ("qti21", "qti30"):
        with zipfile.ZipFile(io.BytesIO((EXAMPLES / fmt / f"every-kind-{lang}.zip").read_bytes())) as zf:
            doc = models.parse_xml(zf.read(f"items/{qid}.xml"))
        assert models.qti_outcomes(doc, response)["SCORE"] == 1.0, fmt


def test_canvas_leaves_out_a_wildcard_answer_unless_every_right_answer_has_one():
    from aistack_bank.exporters import export_notes
    from aistack_bank.exporters.qti12_common import full_credit_answers
    from aistack_bank.model import Bank, Topic
    from aistack_bank.options import ExportOptions
    from banklayout import category

    mixed = question([{"text": "*point"}, {"text": "ridge point"}])
    assert [a.text for a in full_credit_answers(mixed, canvas=True)] == ["ridge point", "ridge-point"]
    assert [a.text for a in full_credit_answers(mixed)] == ["*point", "ridge point", "ridge-point"]  # the cartridge, for Moodle's restore
    wild = question([{"text": "ridge*"}, {"text": "knee", "credit": 0.5}])
    assert [a.text for a in full_credit_answers(wild, canvas=True)] == ["ridge*"]
    for q, how in ((mixed, "they are left out"), (wild, "Canvas credits only that text")):
        bank = Bank(topic=Topic(id="t", category="tests", title="T", summary="S", tags={"memory": "m"}, questions=["q001"]), questions=(q,), category=category())
        said = [d.message for d in export_notes(["canvas-qti12"], {"en": bank}, ExportOptions()) if d.code == "W663" and "wildcard" in d.message]
        assert len(said) == 1 and how in said[0]
