"""Authoring and LMS-admin workflow: new questions, stats, and importing Moodle XML and GIFT."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from aistack_bank.load import read_bank, read_library, topic_folders

from conftest import FLAGSHIP, REPO, bank_figures


def test_new_question_takes_the_next_free_id_and_is_listed(project, run_cli):
    topic_before = (project / "bank" / "ai-hardware-software-stack" / "topic.yaml").read_text(encoding="utf-8")
    code, out = run_cli("new", "--slug", "hbm-bandwidth")
    assert code == 0
    path = Path(out.strip())
    assert path.as_posix() == "bank/ai-hardware-software-stack/questions/q051-hbm-bandwidth.yaml"
    topic_after = (project / "bank" / "ai-hardware-software-stack" / "topic.yaml").read_text(encoding="utf-8")
    assert topic_after == topic_before + "  - q051\n"  # comments and layout kept
    code, out = run_cli("validate", "--no-translations")
    assert code == 1
    errors = [line for line in out.splitlines() if " error E" in line]
    assert errors and all("E205" in line and line.startswith("bank/ai-hardware-software-stack/questions/q051-hbm-bandwidth.yaml:") for line in errors)
    assert len(errors) == 10  # stem, 4 texts, 4 feedbacks, explanation: exactly what the author must fill in


def test_ids_are_never_reused(project, run_cli):
    next(Path("bank/ai-hardware-software-stack/questions").glob("q050-*.yaml")).unlink()
    topic = project / "bank" / "ai-hardware-software-stack" / "topic.yaml"
    topic.write_text(topic.read_text(encoding="utf-8").replace("  - q050\n", ""), encoding="utf-8")
    code, out = run_cli("new", "--slug", "replacement")
    assert out.strip().endswith("q051-replacement.yaml")  # q050 lives on in the catalogs


def test_new_refuses_a_bad_slug(project, run_cli):
    code, out = run_cli("new", "--slug", "Bad Slug")
    assert code == 2 and "lowercase words joined by hyphens" in out


def test_stats(project, run_cli):
    code, out = run_cli("stats", "--format", "json")
    assert code == 0
    data = json.loads(out)
    figures = bank_figures(project)
    n = figures["questions"]
    assert data["questions"] == n and data["by_kind"] == {"single-choice": n}
    assert sum(data["by_difficulty"].values()) == n
    assert data["languages"] == {"en": 100.0, "fr": 100.0, "nl": 100.0}
    assert data["checked"] >= 9
    code, out = run_cli("stats")
    assert f"questions: {n}" in out and f"key position: {figures['positions']};" in out


@pytest.mark.parametrize("fmt,source", [("moodle", "exports/moodle/aistack-en.xml"), ("gift", "exports/gift/aistack-en.gift")])
def test_round_trip_of_the_bundled_bank(fmt, source, tmp_path, run_cli, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out = run_cli("import", fmt, REPO / source, "--bank", "imported")
    assert code == 0, out
    assert f"{bank_figures(REPO)['questions']} question(s) imported, 0 skipped" in out
    code, out = run_cli("validate", "imported")
    assert code == 0, out
    original = read_bank(REPO / "bank" / FLAGSHIP)
    (imported_topic,) = topic_folders(tmp_path / "imported")
    imported = read_bank(imported_topic)
    by_id = {qs.question.id: qs.question for qs in original.questions}
    new = {qs.question.id: qs.question for qs in imported.questions}
    assert imported.topic.questions == original.topic.questions
    for qid in original.topic.questions:
        a, b = by_id[qid], new[qid]
        assert b.stem == a.stem
        assert [o.text for o in b.options] == [o.text for o in a.options]
        assert [o.feedback for o in b.options] == [o.feedback for o in a.options]
        assert b.correct == a.correct
        assert b.explanation == a.explanation
        if fmt == "moodle":  # GIFT has no tags or difficulty
            assert b.difficulty == a.difficulty
            assert set(a.tags) <= set(b.tags)


def test_import_into_an_existing_bank_appends(project, run_cli, tmp_path):
    gift = tmp_path / "extra.gift"
    gift.write_text("::Extra one:: Which is prime? {\n=7#Yes.\n~8#Even.\n####Seven has no divisors but 1 and itself.\n}\n", encoding="utf-8")
    code, out = run_cli("import", "gift", gift)
    assert code == 0 and "wrote bank/ai-hardware-software-stack/questions/q051-extra-one.yaml" in out
    assert "  - q051" in (project / "bank" / "ai-hardware-software-stack" / "topic.yaml").read_text(encoding="utf-8")
    assert run_cli("validate", "--no-translations")[0] == 0


def test_every_kind_is_imported_and_other_types_are_skipped_with_reasons(tmp_path, run_cli, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("mixed.gift").write_text(
        "// comment\n$CATEGORY: $course$/top/Mixed\n\n"
        "::tf:: The sky is blue. {T}\n\n"
        "::num:: Two plus two? {#4:0}\n\n"
        "::multi:: Pick primes {~%50%2 ~%50%3 ~%-100%4}\n\n"
        "::short:: Capital of France? {=Paris =paris}\n\n"
        "::essay:: Discuss. {}\n\n"
        "::desc:: Read the next questions carefully.\n\n"
        "::ok:: Which is even\\: 3 or 4? {=4 ~3 ####Four divides by two.}\n",
        encoding="utf-8")
    code, out = run_cli("import", "gift", "mixed.gift", "--bank", "b")
    assert code == 0
    assert "6 question(s) imported, 1 skipped" in out
    assert "skipped 'desc': text without an answer block: a description" in out
    imported = read_library(Path("b"))
    assert [(qs.question.kind, qs.question.stem) for qs in imported.questions] == [
        ("true-false", "The sky is blue."), ("numerical", "Two plus two?"), ("multiple-response", "Pick primes"),
        ("short-answer", "Capital of France?"), ("essay", "Discuss."), ("single-choice", "Which is even: 3 or 4?")]


def test_moodle_multiple_response_is_imported_and_a_truefalse_without_answers_skipped(tmp_path, run_cli, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("q.xml").write_text("""<?xml version="1.0" encoding="UTF-8"?>
<quiz>
  <question type="truefalse"><name><text>tf</text></name><questiontext format="html"><text>x</text></questiontext></question>
  <question type="multichoice"><name><text>multi</text></name><questiontext format="html"><text>Pick</text></questiontext>
    <single>false</single>
    <answer fraction="50"><text>a</text></answer><answer fraction="50"><text>b</text></answer><answer fraction="0"><text>c</text></answer>
  </question>
</quiz>""", encoding="utf-8")
    code, out = run_cli("import", "moodle", "q.xml", "--bank", "b")
    assert code == 0 and "1 question(s) imported, 1 skipped" in out
    assert "skipped 'tf': no true or false answer" in out
    (question,) = [qs.question for qs in read_library(Path("b")).questions]
    assert question.kind == "multiple-response" and question.correct == ["a", "b"] and question.scoring == "partial"


@pytest.mark.parametrize("payload,fragment", [
    ('<?xml version="1.0"?>\n<!DOCTYPE quiz [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n<quiz><question type="multichoice"><name><text>&xxe;</text></name></question></quiz>', "refused"),
    ('<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]>\n<quiz>&lol2;</quiz>', "refused"),
    ("<html><body>not a quiz</body></html>", "expected <quiz>"),
    ("<quiz><question>", "not well-formed XML"),
])
def test_unsafe_or_wrong_xml_is_refused(payload, fragment, tmp_path, run_cli, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("bad.xml").write_text(payload, encoding="utf-8")
    code, out = run_cli("import", "moodle", "bad.xml", "--bank", "b")
    assert code == 1 and fragment in out and "Traceback" not in out
    assert not Path("b").exists()


def test_unknown_import_format_and_bad_gift(tmp_path, run_cli, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("x.txt").write_text("hello", encoding="utf-8")
    code, out = run_cli("import", "docx", "x.txt")
    assert code == 2 and "unknown format 'docx'" in out
    code, out = run_cli("import", "gift", "x.txt", "--bank", "b")
    assert code == 1 and "no GIFT questions found (only 1 block(s) without an answer block, which Moodle reads as descriptions)" in out
    Path("brace.gift").write_text("::a:: b {=c ~d", encoding="utf-8")
    code, out = run_cli("import", "gift", "brace.gift", "--bank", "b")
    assert code == 1 and "no answer block" in out
    Path("bin.gift").write_bytes(b"\xff\xfe::a:: b {=c ~d}")
    code, out = run_cli("import", "gift", "bin.gift", "--bank", "b")
    assert code == 1 and "not UTF-8" in out


def test_precommit_hook_definition():
    import yaml

    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert {h["id"] for h in hooks} >= {"bank-validate"}
    hook = next(h for h in hooks if h["id"] == "bank-validate")
    assert hook["entry"].startswith("bank validate") and hook["language"] == "python"
    workflow = yaml.safe_load((REPO / "docs" / "ci-example.yml").read_text(encoding="utf-8"))
    steps = " ".join(str(s.get("run", "")) for s in workflow["jobs"]["bank"]["steps"])
    for command in ("bank validate --format github", "bank i18n status --fail-under", "bank build --compare"):
        assert command in steps
