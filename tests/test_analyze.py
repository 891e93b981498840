"""`bank analyze`: results read back into the bank, statistics, flags, reports.

The statistics are checked against an independent computation with numpy and scipy on responses
simulated from a 2PL IRT model with planted defects (tests/irt_simulate.py).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

import irt_simulate as sim_mod
from aistack_bank.analyze import Thresholds, analyze
from aistack_bank.analyze.readers import MAX_RESULTS_BYTES, read_results

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "tests" / "data" / "analyze"
BANK, TRANSLATIONS = REPO / "bank", REPO / "translations"


@pytest.fixture(scope="module")
def info():
    return sim_mod.bank_info()


@pytest.fixture(scope="module")
def simulated(info, tmp_path_factory):
    """400 learners per language: English as a Moodle CSV (slots shuffled, no question text), French as
    a Moodle CSV with question text and right answers, Dutch as practice-site files."""
    sim = sim_mod.simulate(info)
    root = tmp_path_factory.mktemp("results")
    (root / "en.csv").write_bytes(sim_mod.moodle_csv(info, "en", sim.responses["en"], seed=1))
    (root / "fr.csv").write_bytes(sim_mod.moodle_csv(info, "fr", sim.responses["fr"], question_text=True, seed=2))
    (root / "nl").mkdir()
    for i, answers in enumerate(sim.responses["nl"]):
        (root / "nl" / f"learner-{i:04d}.json").write_bytes(sim_mod.site_answers(info, "nl", answers, f"nl-{i:04d}"))
    report = analyze([root / "en.csv", root / "fr.csv", root / "nl"], BANK, TRANSLATIONS)
    assert not report.errors, report.errors
    return sim, root, report


def test_the_planted_defects_and_only_they_are_found(simulated):
    sim, _, report = simulated
    found = {(f.question, f.code) for f in report.flags}
    assert found == {
        (sim.planted["miskey"], "W911"),
        (sim.planted["dead"], "W912"),
        (sim.planted["negative"], "W913"),
        (sim.planted["french"], "W917"),
    }
    by_code = {f.code: f for f in report.flags}
    assert by_code["W917"].languages == ("fr",)
    assert set(by_code["W911"].languages) == set(by_code["W912"].languages) == {"en", "fr", "nl"}
    assert f"option {sim.dead_option} chosen by 0 of 400" in by_code["W912"].message


def test_flags_point_at_the_yaml_and_the_catalog(simulated, info):
    sim, _, report = simulated
    by_code = {f.code: f for f in report.flags}
    miskey = by_code["W911"].diagnostics[0].location
    path = REPO / miskey.path
    assert path.name.startswith(sim.planted["miskey"] + "-")
    assert path.read_text(encoding="utf-8").split("\n")[miskey.line - 1].startswith("correct:")
    dead = by_code["W912"].diagnostics[0].location
    line = (REPO / dead.path).read_text(encoding="utf-8").split("\n")[dead.line - 1]
    assert line.strip() == f"- id: {sim.dead_option}" and line[dead.column - 1:] == sim.dead_option
    yaml_loc, po_loc = (d.location for d in by_code["W917"].diagnostics)
    assert Path(yaml_loc.path).name.startswith(sim.planted["french"] + "-")
    po_path = REPO / po_loc.path
    assert po_path.name == "fr.po"
    po_lines = po_path.read_text(encoding="utf-8").split("\n")
    assert po_lines[po_loc.line - 1].startswith("msgstr ")
    assert f'msgctxt "{sim.planted["french"]}.stem"' in po_lines[po_loc.line - 10: po_loc.line - 1]


def _matrix(sim, lang):
    choices = np.array([[p[q] for q in sim.questions] for p in sim.responses[lang]])
    keys = np.array([sim.keys[q] for q in sim.questions])
    return choices, (choices == keys).astype(float)


@pytest.mark.parametrize("lang", ["en", "fr", "nl"])
def test_statistics_match_numpy_and_scipy(simulated, lang):
    from scipy import stats as sps  # here, not at the top: importing it takes seconds of every worker's collection

    sim, _, report = simulated
    choices, x = _matrix(sim, lang)
    n, k = x.shape
    total = x.sum(axis=1)
    score = x.mean(axis=1)
    g = int(np.floor(0.27 * n + 0.5))
    order = np.lexsort((np.arange(n), score))  # by score, ties by the order learners were read
    lower, upper = order[:g], order[-g:]
    for j, q in enumerate(sim.questions):
        s = report.analysis.items[(q, lang)]
        assert s.responses == n
        assert s.facility == pytest.approx(x[:, j].mean(), abs=1e-9)
        rest = total - x[:, j]
        assert s.point_biserial == pytest.approx(sps.pearsonr(x[:, j], rest)[0], abs=1e-9)
        assert s.point_biserial == pytest.approx(sps.pointbiserialr(x[:, j].astype(bool), rest)[0], abs=1e-9)
        assert s.upper_lower == pytest.approx(x[upper, j].mean() - x[lower, j].mean(), abs=1e-9)
        for o in s.options:
            chose = choices[:, j] == o.option
            assert o.share == pytest.approx(chose.mean(), abs=1e-9)
            if chose.any():
                assert o.mean_score == pytest.approx(score[chose].mean(), abs=1e-9)
    group = next(gr for gr in report.analysis.groups if gr.language == lang)
    alpha = k / (k - 1) * (1 - x.var(axis=0).sum() / total.var())
    assert group.alpha == pytest.approx(alpha, abs=1e-9)
    assert group.alpha_items == k and group.persons == n
    assert group.mean_score == pytest.approx(score.mean(), abs=1e-9)
    assert group.sd_score == pytest.approx(score.std(), abs=1e-9)
    assert group.histogram == list(np.histogram(np.minimum(np.floor(score * 10 + 1e-9), 9), bins=np.arange(11))[0])


def test_alpha_over_every_language(simulated):
    sim, _, report = simulated
    x = np.vstack([_matrix(sim, lang)[1] for lang in ("en", "fr", "nl")])
    k = x.shape[1]
    alpha = k / (k - 1) * (1 - x.var(axis=0).sum() / x.sum(axis=1).var())
    assert next(g for g in report.analysis.groups if g.language == "all").alpha == pytest.approx(alpha, abs=1e-9)


def test_thresholds_change_the_flags(simulated):
    _, root, _ = simulated
    strict = analyze([root / "en.csv"], BANK, TRANSLATIONS, thresholds=Thresholds(too_easy=0.5))
    assert any(f.code == "W915" for f in strict.flags)
    few = analyze([root / "en.csv"], BANK, TRANSLATIONS, thresholds=Thresholds(min_responses=401))
    assert few.flags == []


def test_cli_formats_and_html(simulated, run_cli, tmp_path, monkeypatch):
    sim, root, _ = simulated
    monkeypatch.chdir(REPO)
    html = tmp_path / "report.html"
    code, out = run_cli("analyze", root / "en.csv", root / "fr.csv", root / "nl", "--html", html)
    assert code == 0, out
    assert re.search(rf"^bank/ai-hardware-software-stack/questions/{sim.planted['miskey']}-[a-z0-9-]+\.yaml:\d+:\d+: warning W911: ", out, re.M)
    assert "alpha (KR-20)" in out
    page = html.read_text(encoding="utf-8")
    assert "Content-Security-Policy" in page and "<svg" in page and "<script" not in page
    assert not re.search(r"""(?:src|href)=["'](?:https?:)?//""", page)  # nothing from the network
    assert page.count('<div class="item"') == len(sim.questions)

    code, out = run_cli("analyze", root / "en.csv", "--format", "json")
    assert code == 0
    body = json.loads(out)
    assert body["format"] == "aistack-bank-item-analysis" and body["version"] == 1
    assert {f["code"] for f in body["flags"]} >= {"W911", "W912", "W913"}
    assert len(body["items"]) == len(sim.questions) and body["persons"] == 400

    code, out = run_cli("analyze", root / "en.csv", "--format", "github")
    assert re.search(r"^::warning file=bank/ai-hardware-software-stack/questions/q\d+-[a-z0-9-]+\.yaml,line=\d+,col=\d+,title=W911::", out, re.M)
    assert run_cli("analyze", root / "en.csv", "--strict")[0] == 1


# --- the committed fixtures, one per source --------------------------------------------------


def test_fixtures_are_current(tmp_path):
    sim_mod.write_fixtures(tmp_path)
    for path in sorted(FIXTURES.iterdir()):
        assert (tmp_path / path.name).read_bytes() == path.read_bytes(), f"{path.name} is stale; run tests/irt_simulate.py --fixtures"


def _truth(info):
    sim = sim_mod.simulate(info, persons=6, seed=5)
    first = list(info.items)[:8]
    return sim, first


@pytest.mark.parametrize("name,lang,people", [
    ("moodle-responses-fr.csv", "fr", range(6)),
    ("moodle-responses-en.csv", "en", range(6)),
    ("qti21-result-nl.xml", "nl", [0]),
    ("qti30-result.xml", "en", [1]),
    ("site-answers.json", "nl", [2]),
])
def test_each_fixture_maps_back_to_the_bank(info, name, lang, people):
    sim, first = _truth(info)
    result = read_results(FIXTURES / name, info, language="en" if name == "qti30-result.xml" else None)
    assert not [d for d in result.diagnostics if d.severity.value == "error"], result.diagnostics
    got: dict[str, dict[str, str | None]] = {}
    for a in result.answers:
        assert a.language == lang
        got.setdefault(a.person, {})[a.question] = a.choice
    expected = [{q: sim.responses[lang][i][q] for q in first} for i in people]
    if name == "moodle-responses-fr.csv":
        expected[1][first[2]] = None
    assert list(got.values()) == expected
    assert result.source == {"csv": "moodle-csv", "xml": "qti-3.0" if "30" in name else "qti-2.1", "json": "site"}[name.rsplit(".", 1)[1]]


def test_moodle_skips_unfinished_attempts(info):
    result = read_results(FIXTURES / "moodle-responses-en.csv", info)
    assert [d.code for d in result.diagnostics] == ["W901"]


def test_moodle_without_bom_reads_the_same(info, tmp_path):
    data = (FIXTURES / "moodle-responses-fr.csv").read_bytes()
    assert data.startswith(b"\xef\xbb\xbf")
    (tmp_path / "nobom.csv").write_bytes(data[3:])
    a = read_results(FIXTURES / "moodle-responses-fr.csv", info).answers
    b = read_results(tmp_path / "nobom.csv", info).answers
    assert [(x.question, x.language, x.choice) for x in a] == [(x.question, x.language, x.choice) for x in b]


# --- malformed, foreign and hostile files --------------------------------------------------------

def _cases(info):
    fr_csv = (FIXTURES / "moodle-responses-fr.csv").read_text(encoding="utf-8-sig")
    en_csv = (FIXTURES / "moodle-responses-en.csv").read_text(encoding="utf-8-sig")
    lines = en_csv.split("\n")
    header = lines[0].split(",")
    first_response = header.index("Response 1")
    row = lines[2].split(",")
    bad_row = list(row)
    bad_row[first_response] = "About 15 furlongs"
    qti = (FIXTURES / "qti21-result-nl.xml").read_text(encoding="utf-8")
    site = json.loads((FIXTURES / "site-answers.json").read_text(encoding="utf-8"))
    q6 = info.items["q006"]
    return {
        "wrong-header.csv": ("Name,Score\nAda,3\n".encode(), "E902", (1, 1)),
        "grades-report.csv": ('\ufeff"Last name","First name",Status,"Grade/100.00","Q. 1 /2.00"\nA,B,Finished,50,1\n'.encode(), "E902", (1, 1)),
        "no-response-columns.csv": ('"Last name","First name","Email address",Status\nA,B,c@d,Finished\n'.encode(), "E903", (1, 1)),
        "unknown-option.csv": ("\n".join([*lines[:2], ",".join(bad_row)]).encode(), "E905", (3, 0)),
        "unknown-question.csv": (fr_csv.replace(info.items["q001"].stems["fr"][:40], "Une question inventée qui n'existe pas", 1).encode(), "E904", (2, 0)),
        "short-row.csv": ("\n".join([*lines[:2], "A,B"]).encode(), "E903", (3, 0)),
        "mixed-languages.csv": ("\n".join([*lines[:-2], ",".join(row[:first_response]) + "," + ",".join(
            '"' + info.items[q].option_texts["fr" if i == 0 else "en"][info.items[q].key] + '"' for i, q in enumerate(_column_questions(info, en_csv)))]).encode(), "E906", (len(lines) - 1, 0)),
        "ambiguous-language.csv": (("Last name,Status,Response 1\nA,Finished," + q6.option_texts["en"]["a"] + "\nB,Finished," + q6.option_texts["en"]["b"] + "\n").encode(), "E906", (2, 0)),
        "cp1252.csv": ('Last name,Status,Response 1\nBéatrice,Finished,x\n'.encode("cp1252"), "E901", (2, 2)),
        "binary.csv": (b"PK\x03\x04\x00\x00binary", "E901", (1, 5)),
        "empty.csv": (b"", "E908", (0, 0)),
        "dtd.xml": (('<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]>\n'
                     '<assessmentResult xmlns="http://www.imsglobal.org/xsd/imsqti_result_v2p1"><context/></assessmentResult>\n').encode(), "E903", (2, 1)),
        "external-entity.xml": (('<?xml version="1.0"?>\n<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n<r>&x;</r>\n').encode(), "E903", (2, 1)),
        "broken.xml": (qti[:300].encode(), "E903", None),
        "item.xml": (b'<?xml version="1.0"?>\n<assessmentItem xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1" identifier="q001"/>\n', "E902", (1, 1)),
        "unknown-item.xml": (qti.replace('identifier="q002-nl"', 'identifier="q999-nl"').encode(), "E904", _line_of(qti, 'identifier="q002-nl"')),
        "unknown-choice.xml": (qti.replace("<value>choice_", "<value>choice_z", 2).replace("<value>choice_z", "<value>choice_", 1).encode(), "E905", None),
        "no-language.xml": (qti.replace("-nl\"", "\"").encode(), "E906", None),
        "site-unknown-question.json": (json.dumps({**site, "answers": [{**site["answers"][0], "question": "q999"}]}).encode(), "E904", (1, 1)),
        "site-other-bank.json": (json.dumps({**site, "bank": "another-topic"}).encode(), "E907", (1, 1)),
        "site-newer.json": (json.dumps({**site, "version": 2}).encode(), "E903", (1, 1)),
        "site-bad-choice.json": (json.dumps({**site, "answers": [{**site["answers"][0], "choice": "C"}]}).encode(), "E905", (1, 1)),
        "site-syntax.json": (b'{"format": "aistack-bank-practice-answers",\n  "version": 1,,\n}', "E903", (2, 16)),
        "foreign.json": (b'{"hello": "world"}', "E902", (1, 1)),
        "deep.json": (b"[" * 100000 + b"]" * 100000, "E90", None),
    }


def _line_of(text: str, needle: str) -> tuple[int, int]:
    at = text.index(needle)
    return text.count("\n", 0, at) + 1, at - text.rfind("\n", 0, at)


def _column_questions(info, csv_text):
    """The questions of the en fixture's slots, in slot order (the shuffle of irt_simulate.write_fixtures)."""
    import random

    _, first = _truth(info)
    slots = first[:]
    random.Random(3).shuffle(slots)
    return slots


CASE_NAMES = ["wrong-header.csv", "grades-report.csv", "no-response-columns.csv", "unknown-option.csv", "unknown-question.csv",
              "short-row.csv", "mixed-languages.csv", "ambiguous-language.csv", "cp1252.csv", "binary.csv", "empty.csv", "dtd.xml",
              "external-entity.xml", "broken.xml", "item.xml", "unknown-item.xml", "unknown-choice.xml", "no-language.xml",
              "site-unknown-question.json", "site-other-bank.json", "site-newer.json", "site-bad-choice.json", "site-syntax.json",
              "foreign.json", "deep.json"]


@pytest.mark.parametrize("name", CASE_NAMES)
def test_bad_results_get_located_errors(name, info, tmp_path, run_cli, monkeypatch):
    data, code, where = _cases(info)[name]
    path = tmp_path / name
    path.write_bytes(data)
    monkeypatch.chdir(tmp_path)
    exit_code, out = run_cli("analyze", name, "--bank", BANK, "--translations", TRANSLATIONS)
    assert exit_code == 1, out
    assert "Traceback" not in out
    if where is None:
        assert re.search(rf"^{re.escape(name)}:\d+(:\d+)?: error {code}", out, re.M), out
    elif where == (0, 0):
        assert re.search(rf"^{re.escape(name)}: error {code}", out, re.M), out
    elif where[1] == 0:
        assert re.search(rf"^{re.escape(name)}:{where[0]}: error {code}", out, re.M), out
    else:
        assert re.search(rf"^{re.escape(name)}:{where[0]}:{where[1]}: error {code}", out, re.M), out


def test_the_ambiguous_language_is_settled_by_lang(info, tmp_path):
    q6 = info.items["q006"]
    path = tmp_path / "r.csv"
    path.write_text(f"Last name,Status,Response 1\nA,Finished,{q6.option_texts['en']['a']}\nB,Finished,{q6.option_texts['en']['b']}\n", encoding="utf-8")
    result = read_results(path, info, language="fr")
    assert [(a.question, a.language, a.choice) for a in result.answers] == [("q006", "fr", "a"), ("q006", "fr", "b")]


def test_a_huge_file_is_refused_before_reading(info, tmp_path):
    path = tmp_path / "huge.csv"
    with path.open("wb") as f:
        f.truncate(MAX_RESULTS_BYTES + 1)  # sparse: nothing is really written
    result = read_results(path, info)
    assert [d.code for d in result.diagnostics] == ["E901"] and "refused" in result.diagnostics[0].message


def test_an_ambiguous_slot_names_the_candidates(info, tmp_path):
    from aistack_bank.analyze.bankinfo import norm

    owners: dict[str, set[str]] = {}
    for item in info.items.values():
        for text in item.option_texts["en"].values():
            owners.setdefault(norm(text), set()).add(item.id)
    text, qids = next((t, q) for t, q in sorted(owners.items()) if len(q) > 1)
    path = tmp_path / "r.csv"
    path.write_text(f'Last name,Status,Response 1\nA,Finished,"{text}"\n', encoding="utf-8")
    result = read_results(path, info)
    assert result.answers == []
    [problem] = result.diagnostics
    assert problem.code == "E906" and all(q in problem.message for q in qids) and '"Question text"' in problem.message
    assert (problem.location.line, problem.location.column) == (1, len("Last name,Status,") + 1)


def test_a_column_without_answers_is_left_out(info, tmp_path):
    path = tmp_path / "r.csv"
    path.write_text("Last name,Status,Response 1,Response 2\nA,Finished,-,-\n", encoding="utf-8")
    result = read_results(path, info, language="en")
    assert result.answers == [] and [d.code for d in result.diagnostics] == ["W901", "W901", "W901", "E908"]


def test_qti_language_suffixes(info, tmp_path):
    qti = (FIXTURES / "qti30-result.xml").read_text(encoding="utf-8")
    for suffix in ("-fr", "_fr", ".fr"):
        path = tmp_path / f"r{suffix}.xml"
        path.write_text(re.sub(r'identifier="(q\d+)"', rf'identifier="\1{suffix}"', qti), encoding="utf-8")
        result = read_results(path, info)
        assert result.answers and {a.language for a in result.answers} == {"fr"}, result.diagnostics


def test_the_site_answers_schema_accepts_the_fixture_and_what_the_reader_accepts():
    import jsonschema

    schema = json.loads((REPO / "schema" / "practice-answers.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    doc = json.loads((FIXTURES / "site-answers.json").read_text(encoding="utf-8"))
    assert list(validator.iter_errors(doc)) == []
    for broken in ({**doc, "format": "other"}, {**doc, "version": 2}, {k: v for k, v in doc.items() if k != "learner"},
                   {**doc, "answers": [{**doc["answers"][0], "choice": "C"}]}):
        assert list(validator.iter_errors(broken))


# --- arbitrary input: a result or located diagnostics, never an exception ------------------------

from hypothesis import given, strategies as st  # noqa: E402

_PREFIXES = [b"", b"\xef\xbb\xbfLast name,Status,Response 1,Question 1,Right answer 1\n", b"{", b'{"format": "aistack-bank-practice-answers", "version": 1, "bank": "ai-hardware-software-stack", "learner": "x", "answers": [',
             b'<assessmentResult xmlns="http://www.imsglobal.org/xsd/imsqti_result_v3p0"><itemResult identifier="q001-fr"><responseVariable identifier="RESPONSE"><candidateResponse><value>']
_TEXT = st.sampled_from(list('abq0123456789-_,;"\n\r\t {}[]:<>/=é\x00') + ["choice_", "q001", "Finished", "-", "About 14 GB", '"question": ', "\ufeff"])


@given(prefix=st.sampled_from(_PREFIXES), body=st.lists(_TEXT, max_size=60).map("".join), raw=st.binary(max_size=40))
def test_reading_arbitrary_results_never_raises(info, tmp_path_factory, prefix, body, raw):
    path = tmp_path_factory.mktemp("r") / "results.txt"
    path.write_bytes(prefix + body.encode("utf-8") + raw)
    result = read_results(path, info, language=None)
    for d in result.diagnostics:
        assert d.location is not None and d.location.path.endswith("results.txt"), d
    assert result.answers or result.diagnostics


def test_language_suffixes_are_case_insensitive(info):
    assert info.split_identifier("q004-FR") == ("q004", "fr")
    assert info.split_identifier("q004_pt-br") == ("q004", "pt_BR")
    assert info.split_identifier("q004") == ("q004", None)
    assert info.split_identifier("q9999-fr") is None and info.split_identifier("item-q004") is None


def test_the_same_learner_exported_twice_counts_once(tmp_path):
    site = FIXTURES / "site-answers.json"
    (tmp_path / "again.json").write_bytes(site.read_bytes())
    report = analyze([site, tmp_path / "again.json"], BANK, TRANSLATIONS)
    assert not report.errors and report.persons == 1 and report.answers == 8


def test_an_unknown_lang_option_is_refused(run_cli, monkeypatch):
    monkeypatch.chdir(REPO)
    code, out = run_cli("analyze", FIXTURES / "qti30-result.xml", "--lang", "de")
    assert code == 1 and "error E904: --lang de: the bank has en, fr, nl" in out


def test_the_html_report_escapes_the_bank_text(project, run_cli):
    from conftest import question_file

    path = question_file(project, "q001")
    lines = path.read_text(encoding="utf-8").split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith("stem:"))
    end = next(i for i in range(start + 1, len(lines)) if not lines[i].startswith(" "))
    lines[start:end] = ['stem: "<script>alert(1)</script> & <img src=x onerror=alert(2)>"']
    path.write_text("\n".join(lines), encoding="utf-8")
    code, out = run_cli("analyze", FIXTURES / "site-answers.json", FIXTURES / "qti21-result-nl.xml", "--html", "r.html")
    assert code == 0, out
    page = (project / "r.html").read_text(encoding="utf-8")
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;img src=x onerror=alert(2)&gt;" in page
    assert "<script" not in page and "<img" not in page


def test_a_question_twice_in_one_attempt_is_refused(info, tmp_path):
    q = info.items["q001"]
    stem, answer = q.stems["fr"], q.option_texts["fr"]["a"]
    path = tmp_path / "r.csv"
    path.write_text(f'Last name,Status,Question 1,Response 1,Question 2,Response 2\nA,Finished,"{stem}: x","{answer}","{stem}: y","{answer}"\n', encoding="utf-8")
    result = read_results(path, info)
    assert result.answers == [] and [(d.code, d.location.line) for d in result.diagnostics] == [("E906", 2)]
    assert "q001 appears twice" in result.diagnostics[0].message


def test_the_right_answer_column_settles_a_shared_answer_text(info, tmp_path):
    from aistack_bank.analyze.bankinfo import norm

    owners: dict[str, set[str]] = {}
    for item in info.items.values():
        for text in item.option_texts["en"].values():
            owners.setdefault(norm(text), set()).add(item.id)
    text, qids = next((t, q) for t, q in sorted(owners.items()) if len(q) == 2)
    first, second = sorted(qids)
    key_text = info.items[first].option_texts["en"][info.items[first].key]
    assert norm(key_text) not in {norm(info.items[second].option_texts[lang][info.items[second].key]) for lang in info.languages}
    path = tmp_path / "r.csv"
    path.write_text(f'Last name,Status,Response 1,Right answer 1\nA,Finished,"{text}","{key_text}"\n', encoding="utf-8")
    result = read_results(path, info, language="en")
    option = next(o for o, t in info.items[first].option_texts["en"].items() if norm(t) == text)
    assert [(a.question, a.language, a.choice) for a in result.answers] == [(first, "en", option)], result.diagnostics
