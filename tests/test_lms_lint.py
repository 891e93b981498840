"""`bank lint --target`: located warnings for what Moodle, Canvas and QTI players would lose."""

from __future__ import annotations

import dataclasses
import json

import pytest

from aistack_bank.exporters import FORMATS, canvas_qti12, qti12_common, qti_common
from conftest import REPO, keep_only


@pytest.fixture
def sample(project):
    """The scratch copy of the bank cut down to conftest.SAMPLE: enough for a planted defect to be
    found, at a quarter of the cost of linting the whole bank."""
    return keep_only(project)


def test_the_bundled_bank_lints_clean(project, run_cli):
    code, out = run_cli("lint", "--strict")
    assert code == 0, out
    assert "0 warning(s) for moodle, gift, canvas, qti" in out


def test_the_sample_of_the_bundled_bank_validates_clean_on_its_own(sample, run_cli):
    """conftest.SAMPLE cut out of the bundled bank makes a bank of its own without a warning."""
    from conftest import SAMPLE, bank_figures

    code, out = run_cli("validate", "--strict", "--no-cache")
    assert code == 0 and "0 error(s), 0 warning(s)" in out, out
    assert bank_figures(sample)["questions"] == len(SAMPLE) == len(list((sample / "bank").glob("*/questions/q*.yaml")))


def test_a_title_shared_by_two_languages_is_located_in_the_catalog(sample, run_cli):
    po = sample / "translations" / "fr.po"
    text = po.read_text(encoding="utf-8")
    lines = text.split("\n")
    line = next(i for i, s in enumerate(lines, start=1) if s == 'msgctxt "topic.ai-hardware-software-stack.title"') + 2  # its msgstr
    po.write_text(text.replace('msgstr "Pile matérielle et logicielle de l\'IA"', 'msgstr "AI Hardware & Software Stack"'), encoding="utf-8")
    code, out = run_cli("lint", "--target", "moodle")
    assert code == 0, out
    assert f"translations/fr.po:{line}: warning W803:" in out, out
    code, out = run_cli("lint", "--target", "moodle", "--strict")
    assert code == 1


def test_a_long_title_and_a_gift_escape_in_it_are_reported(sample, run_cli):
    po = sample / "translations" / "fr.po"
    text = po.read_text(encoding="utf-8")
    line = next(i for i, s in enumerate(text.split("\n"), start=1) if s == 'msgctxt "topic.ai-hardware-software-stack.title"') + 2
    long_title = "Pile \\\\: notes " + "x" * 260  # a backslash and a colon: GIFT's escape, which Moodle never undoes in a category
    po.write_text(text.replace('msgstr "Pile matérielle et logicielle de l\'IA"', f'msgstr "{long_title}"'), encoding="utf-8")
    code, out = run_cli("lint", "--target", "moodle", "--target", "gift", "--format", "json")
    assert code == 0, out
    found = json.loads(out[: out.rindex("}") + 1])["diagnostics"]
    assert {"code": "W802", "path": "translations/fr.po", "line": line} in [{k: d[k] for k in ("code", "path", "line")} for d in found], out
    gift = [d for d in found if d["code"] == "W806" and d["path"] == "exports/gift/aistack-fr.gift"]
    assert gift and gift[0]["line"] == 4 and "category" in gift[0]["message"], out


QUIZ = "exports/canvas-qti12/aistack-en.zip:ai-hardware-software-stack-en/ai-hardware-software-stack-en.xml"


def test_canvas_rules_catch_an_answer_named_like_a_correct_answer(sample, run_cli, monkeypatch):
    """The Canvas target reads the Canvas QTI 1.2 quiz: an answer whose feedback identifier
    matches Canvas's "correct" pattern loses its feedback to the question's correct comment."""
    monkeypatch.setattr(qti12_common, "answer_ident", lambda qid, lang, option: f"{qid}-{lang}-correct-{option}")
    monkeypatch.setattr(qti12_common, "_TEMPLATES", {})  # (no item copied from a template made with the identifiers as they were)
    code, out = run_cli("lint", "--target", "canvas")
    assert "W807" in out and "correct comments" in out, out
    assert f"{QUIZ}: warning W807: question q001: Canvas reads another key, weight or answer feedback" in out, out


def test_canvas_target_checks_the_quiz_package_cross_references(sample, run_cli, monkeypatch):
    original = canvas_qti12.render_meta
    monkeypatch.setattr(canvas_qti12, "render_meta", lambda bank, options: original(bank, options).replace(b'identifier="', b'identifier="x-', 1))
    code, out = run_cli("lint", "--target", "canvas")
    assert "exports/canvas-qti12/aistack-fr.zip:imsmanifest.xml: warning W807: Canvas drops the quiz's settings: assessment_meta.xml names the quiz" in out, out


def test_canvas_target_reads_every_kind_as_canvas_does(run_cli):
    """The examples bank (every kind): keys, weights, numbers, matches and feedback all read back."""
    code, out = run_cli("-C", str(REPO / "examples" / "every-kind"), "lint", "--target", "canvas", "--strict")
    assert code == 0 and "0 warning(s) for canvas" in out, out


def test_canvas_target_expects_the_essays_model_answer_in_its_general_comment(run_cli, monkeypatch):
    """An essay's general comment in Canvas is its explanation and then its model answer: a quiz
    that writes the explanation alone is caught, naming the essay."""
    original = qti12_common.canvas_essay_item

    def without_model_answer(bank, index, **kwargs):
        q = bank.questions[index].model_copy(update={"model_answer": None})
        return original(bank.model_copy(update={"questions": bank.questions[:index] + (q,) + bank.questions[index + 1:]}), index, **kwargs)

    dropping = dataclasses.replace(canvas_qti12.FORMAT, writers={**canvas_qti12.FORMAT.writers, "essay": without_model_answer})
    monkeypatch.setattr(canvas_qti12, "FORMAT", dropping)
    monkeypatch.setitem(FORMATS, "canvas-qti12", dropping)
    code, out = run_cli("-C", str(REPO / "examples" / "every-kind"), "lint", "--target", "canvas")
    said = [line for line in out.split("\n") if "W807" in line]
    assert len(said) == 3 and all("question q014: Canvas does not keep the explanation and the model answer as general feedback" in line for line in said), out


def test_canvas_target_catches_a_wrong_key_in_the_quiz(sample, run_cli, monkeypatch):
    original = qti12_common.render_item

    def swapped(bank, index, **kwargs):
        lines = "\n".join(original(bank, index, **kwargs)).split("\n")  # (an item copied from its template is one piece)
        q = bank.questions[index]
        if kwargs.get("canvas") and q.id == "q002":
            right, wrong = f">{q.id}-{bank.lang}-{q.correct}<", f">{q.id}-{bank.lang}-{next(o.id for o in q.options if o.id != q.correct)}<"
            score = next(n for n, line in enumerate(lines) if "SCORE\">100" in line)
            lines = lines[:score - 3] + [line.replace(right, wrong) for line in lines[score - 3:score]] + lines[score:]
        return lines

    swapping = dataclasses.replace(canvas_qti12.FORMAT, writers={kind: swapped for kind in canvas_qti12.FORMAT.writers})
    monkeypatch.setattr(canvas_qti12, "FORMAT", swapping)  # the quiz writes each question with its kind's writer
    monkeypatch.setitem(FORMATS, "canvas-qti12", swapping)
    code, out = run_cli("lint", "--target", "canvas")
    said = [line for line in out.split("\n") if "W807" in line]
    assert len(said) == 3 and all(": warning W807: question q002: Canvas reads another key, weight or answer feedback (answer(s) " in line for line in said), out
    assert said[0].startswith(f"{QUIZ}: warning W807: question q002:"), out


def test_a_test_that_hides_feedback_is_reported(sample, run_cli, monkeypatch):
    original = qti_common.render_test

    def without_session_control(**kwargs):
        data = original(**kwargs).decode()
        return "\n".join(line for line in data.split("\n") if "temSessionControl" not in line and "item-session-control" not in line).encode()

    monkeypatch.setattr(qti_common, "render_test", without_session_control)
    code, out = run_cli("lint", "--target", "qti")
    assert 'exports/qti30/aistack-fr.zip:assessment.xml: warning W808: the test does not set itemSessionControl showFeedback="true"' in out, out


@pytest.mark.parametrize("target", ["moodle", "gift", "canvas", "qti"])
def test_each_target_runs_alone(sample, run_cli, target):
    code, out = run_cli("lint", "--target", target)
    assert code == 0 and f"0 warning(s) for {target}" in out, out


def test_an_unknown_target_is_a_usage_error(project, run_cli):
    code, out = run_cli("lint", "--target", "blackboard")
    assert code == 2
