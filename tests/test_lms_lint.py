"""`bank lint --target`: located warnings for what Moodle, Canvas and QTI players would lose."""

from __future__ import annotations

import json

import pytest

from aistack_bank.exporters import _qti


def test_the_bundled_bank_lints_clean(project, run_cli):
    code, out = run_cli("lint", "--strict")
    assert code == 0, out
    assert "0 warning(s) for moodle, gift, canvas, qti" in out


def test_a_title_shared_by_two_languages_is_located_in_the_catalog(project, run_cli):
    po = project / "translations" / "fr.po"
    text = po.read_text(encoding="utf-8")
    lines = text.split("\n")
    line = next(i for i, s in enumerate(lines, start=1) if s == 'msgctxt "topic.ai-hardware-software-stack.title"') + 2  # its msgstr
    po.write_text(text.replace('msgstr "Pile matérielle et logicielle de l\'IA"', 'msgstr "AI Hardware & Software Stack"'), encoding="utf-8")
    code, out = run_cli("lint", "--target", "moodle")
    assert code == 0, out
    assert f"translations/fr.po:{line}: warning W803:" in out, out
    code, out = run_cli("lint", "--target", "moodle", "--strict")
    assert code == 1


def test_a_long_title_and_a_gift_escape_in_it_are_reported(project, run_cli):
    po = project / "translations" / "fr.po"
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


def test_canvas_rules_catch_a_choice_named_like_a_correct_answer(project, run_cli, monkeypatch):
    monkeypatch.setattr(_qti, "choice_identifier", lambda option_id: f"choice_{option_id}")
    monkeypatch.setattr(_qti, "feedback_identifier", lambda option_id: f"choice_{option_id}")
    code, out = run_cli("lint", "--target", "canvas")
    assert "W807" in out and "correct comments" in out, out
    assert "exports/qti21/aistack-en.zip:items/q001.xml: warning W807" in out


def test_a_test_that_hides_feedback_is_reported(project, run_cli, monkeypatch):
    original = _qti.render_test

    def without_session_control(**kwargs):
        data = original(**kwargs).decode()
        return "\n".join(line for line in data.split("\n") if "temSessionControl" not in line and "item-session-control" not in line).encode()

    monkeypatch.setattr(_qti, "render_test", without_session_control)
    code, out = run_cli("lint", "--target", "qti")
    assert 'exports/qti30/aistack-fr.zip:assessment.xml: warning W808: the test does not set itemSessionControl showFeedback="true"' in out, out


@pytest.mark.parametrize("target", ["moodle", "gift", "canvas", "qti"])
def test_each_target_runs_alone(project, run_cli, target):
    code, out = run_cli("lint", "--target", target)
    assert code == 0 and f"0 warning(s) for {target}" in out, out


def test_an_unknown_target_is_a_usage_error(project, run_cli):
    code, out = run_cli("lint", "--target", "blackboard")
    assert code == 2
