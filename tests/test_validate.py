"""`bank validate`: each rule gives its code at the offending line, and all problems come in one run."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from aistack_bank.rules.validate import validate_bank

from conftest import bank_figures, keep_only, question_file


@pytest.fixture
def sample(project) -> Path:
    """The scratch copy cut to a dozen questions (`conftest.SAMPLE`), for the tests about what a
    rule or the command does with one or two of them, not with fifty."""
    return keep_only(project)


def edit(path: Path, old: str, new: str, count: int = 1) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, count), encoding="utf-8")


def line_of(path: Path, needle: str) -> int:
    return next(i for i, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1) if needle in line)


def lines_of(path: Path, needle: str) -> list[int]:
    return [i for i, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1) if needle in line]


def codes_at(report, path: Path) -> list[tuple[str, int]]:
    rel = path.relative_to(Path.cwd()).as_posix()
    return [(d.code, d.location.line) for d in report.diagnostics if d.location and d.location.path == rel]


def test_bundled_bank_is_clean(project):
    report = validate_bank(project / "bank", translations=project / "translations")
    assert [str(d) for d in report.diagnostics] == []
    assert report.cues.questions == bank_figures(project)["questions"]


# (question, old text, new text, expected code, the line to expect it on (a substring of it))
RULES = [
    ("q001", "kind: single-choice\n", "", "E201", "id: q001"),
    ("q001", "difficulty: 1\n", "difficulty: 1\nauthor: me\n", "E202", "author: me"),
    ("q001", "difficulty: 1\n", "difficulty: 4\n", "E203", "difficulty: 4"),
    ("q001", "correct: a\n", "correct: A\n", "E204", "correct: A"),
    ("q001", "id: q001\n", "id: q1\n", "E204", "id: q1"),
    ("q002", "id: q002\n", "id: q003\n", "E301", "id: q003"),
    ("q002", "correct: d\n", "correct: e\n", "E304", "correct: e"),
    ("q001", "tags: [", "tags: [gpus, ", "E309", "tags: [gpus"),
]


@pytest.mark.parametrize("qid,old,new,code,at", RULES, ids=[f"{r[3]}-{r[0]}" for r in RULES])
def test_rule_reports_code_and_line(sample, qid, old, new, code, at):
    path = question_file(sample, qid)
    edit(path, old, new)
    report = validate_bank(sample / "bank")
    assert (code, line_of(path, at)) in codes_at(report, path), [str(d) for d in report.diagnostics]


def test_whitespace_only_text_is_refused(sample):
    path = question_file(sample, "q010")
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"(\n  - id: b\n    text: ).*?(\n    feedback:)", r'\1"   "\2', text, count=1, flags=re.S)
    path.write_text(text, encoding="utf-8")
    report = validate_bank(sample / "bank")
    assert ("E205", line_of(path, 'text: "   "')) in codes_at(report, path)


def test_duplicate_option_ids_and_texts(sample):
    path = question_file(sample, "q004")
    text = path.read_text(encoding="utf-8")
    texts = re.findall(r"\n    text: (.*)", text)
    text = text.replace("  - id: c\n", "  - id: b\n", 1).replace(f"    text: {texts[2]}\n", f"    text: {texts[0]}\n", 1)
    path.write_text(text, encoding="utf-8")
    report = validate_bank(sample / "bank")
    found = codes_at(report, path)
    # reported at the second use of the id and at the second copy of the text
    assert [line for code, line in found if code == "E303"] == [lines_of(path, "  - id: b")[1]], found
    e303 = [d for d in report.diagnostics if d.code == "E303"]
    assert "option id 'b' is used twice" in e303[0].message
    assert [line for code, line in found if code == "E305"] == [lines_of(path, f"    text: {texts[0]}")[1]], found


def test_topic_listing_rules(sample):
    topic = sample / "bank" / "ai-hardware-software-stack" / "topic.yaml"
    edit(topic, "  - q002\n", "  - q001\n  - q099\n")
    report = validate_bank(sample / "bank")
    found = codes_at(report, topic)
    assert ("E308", lines_of(topic, "  - q001")[1]) in found
    assert ("E306", line_of(topic, "  - q099")) in found
    q002 = question_file(sample, "q002")
    assert ("E307", line_of(q002, "id: q002")) in codes_at(report, q002)


def test_bad_file_name_and_duplicate_id(sample):
    src = question_file(sample, "q005")
    (src.parent / "Q5 copy.yaml").write_bytes(src.read_bytes())
    report = validate_bank(sample / "bank")
    codes = {d.code for d in report.diagnostics}
    assert {"E310", "E302"} <= codes


def test_several_mistakes_in_one_file_all_reported(sample):
    path = question_file(sample, "q007")
    edit(path, "difficulty: ", "colour: blue\ndifficulty: ")
    edit(path, "kind: single-choice", "kind: single-choice\nstem: duplicate")
    edit(path, "explanation:", "extra: 1\nexplanation:")
    report = validate_bank(sample / "bank")
    codes = sorted(c for c, _ in codes_at(report, path))
    assert codes == ["E106"], codes  # a duplicate key stops that file at the YAML level
    edit(path, "stem: duplicate\n", "")
    report = validate_bank(sample / "bank")
    found = codes_at(report, path)
    assert ("E202", line_of(path, "colour: blue")) in found
    assert ("E202", line_of(path, "extra: 1")) in found


def test_missing_topic(sample):
    (sample / "bank" / "ai-hardware-software-stack" / "topic.yaml").unlink()
    report = validate_bank(sample / "bank")
    assert [d.code for d in report.errors] == ["E311"]


def test_answer_cue_warnings(project):
    for path in sorted((project / "bank" / "ai-hardware-software-stack" / "questions").glob("q0[0-2]*.yaml")):
        text = path.read_text(encoding="utf-8")
        path.write_text(re.sub(r"\ncorrect: [a-d]\n", "\ncorrect: a\n", text), encoding="utf-8")
    report = validate_bank(project / "bank", run_checks=False)
    cues = [d for d in report.warnings if d.code != "W322"]  # the new keys (About 7 GB, …) recur in other questions
    assert [d.code for d in cues] == ["W301"]
    assert "the key is option 'a' in " in cues[0].message
    assert report.cues.position_shares["a"] > 0.35


class TestCli:
    def test_clean_bank_exits_0_with_summary(self, sample, run_cli):
        code, out = run_cli("validate")
        assert code == 0
        assert out.strip().endswith("0 error(s), 0 warning(s).")
        figures = bank_figures(sample)
        assert f"{figures['questions']} questions; key positions {figures['positions']};" in out

    def test_errors_exit_1_and_are_located(self, sample, run_cli):
        path = question_file(sample, "q001")
        edit(path, "difficulty: 1\n", "difficulty: 9\n")
        code, out = run_cli("validate")
        assert code == 1
        assert f"{path.relative_to(sample).as_posix()}:{line_of(path, 'difficulty: 9')}:13: error E203: difficulty: input should be less than or equal to 3 (got 9)" in out

    def test_warnings_fail_only_with_strict(self, sample, run_cli):
        path = question_file(sample, "q001")
        path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
        assert run_cli("validate")[0] == 0
        code, out = run_cli("validate", "--strict")
        assert code == 1 and "W102" in out

    def test_json_format(self, sample, run_cli):
        edit(question_file(sample, "q003"), "difficulty:", "bogus: 1\ndifficulty:")
        code, out = run_cli("validate", "--format", "json")
        data = json.loads(out)
        assert code == 1
        assert data["summary"]["errors"] == 1
        (diag,) = data["diagnostics"]
        assert diag["code"] == "E202" and diag["path"].endswith(".yaml") and diag["line"] > 1

    def test_github_format(self, sample, run_cli):
        edit(question_file(sample, "q003"), "difficulty:", "bogus: 1\ndifficulty:")
        code, out = run_cli("validate", "--format", "github")
        assert code == 1
        assert re.search(r"^::error file=bank/ai-hardware-software-stack/questions/q003-[a-z-]+\.yaml,line=\d+,col=1,title=E202::unknown field 'bogus'$", out, re.M)

    def test_single_files_as_an_editor_validates_on_save(self, project, run_cli):
        path = question_file(project, "q006")
        assert run_cli("validate", path)[0] == 0
        edit(path, "correct: a", "correct: z")
        code, out = run_cli("validate", path)
        assert code == 1 and "E304" in out

    def test_usage_error_exits_2(self, project, run_cli):
        assert run_cli("validate", "--format", "xml")[0] == 2


def test_unchanged_bank_is_served_from_the_cache_and_never_stale(sample, run_cli, monkeypatch):
    import aistack_bank.rules.validate as validate_module

    monkeypatch.setenv("XDG_CACHE_HOME", str(sample / "user-cache"))
    assert run_cli("validate")[0] == 0
    assert list((sample / "user-cache" / "aistack-bank").rglob("*.json"))
    calls = []
    real = validate_module.validate_bank
    monkeypatch.setattr(validate_module, "validate_bank", lambda *a, **k: calls.append(a) or real(*a, **k))
    assert run_cli("validate")[0] == 0
    assert calls == []  # nothing changed: the verdict came from the cache
    path = question_file(sample, "q002")
    edit(path, "difficulty: ", "difficulty: 7\nx_difficulty: ")
    code, out = run_cli("validate")
    assert code == 1 and "E202" in out and len(calls) == 1
    code, out = run_cli("validate", "--no-cache")
    assert code == 1 and len(calls) == 2


def test_a_question_without_an_explanation_is_valid_with_a_located_warning(sample):
    from aistack_bank.rules.validate import validate_bank

    path = question_file(sample, "q004")
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if line.startswith("explanation:"))
    end = next(i for i in range(start + 1, len(lines)) if not lines[i].startswith(" "))
    path.write_text("".join(lines[:start] + lines[end:]), encoding="utf-8")
    report = validate_bank(sample / "bank", translations=sample / "translations")
    assert [d.code for d in report.errors] == []
    [w] = [d for d in report.warnings if d.code == "W310"]
    assert str(w.location).endswith(f"{path.name}:2:5")
