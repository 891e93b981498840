"""A large build (its languages localized in workers) after an edit that leaves every export as
it was (a comment added to a question file) makes no English library: the files on disk stand,
and nothing is localized or rendered. Other settings are localized and rendered, the library made once."""

from __future__ import annotations

from pathlib import Path

from conftest import keep_only


def _build(monkeypatch, tmp_path: Path, **options):
    from aistack_bank import build
    from aistack_bank.options import ExportOptions

    monkeypatch.setenv("AISTACK_BANK_JOBS", "2")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    outputs, _ = build.build(Path("bank"), Path("translations"), Path("exports"), options=ExportOptions(**options))
    return sum(o.changed for o in outputs)


def test_an_edit_that_changes_no_export_makes_no_english_library(project, monkeypatch, tmp_path):
    from aistack_bank import build
    from aistack_bank.i18n import fields

    keep_only(project)
    monkeypatch.setattr(build, "PARALLEL_MIN_TEXTS", 0)  # (the workers' way, as at 10 000 questions)
    made: list[int] = []
    real = fields.english_library_and_fields
    monkeypatch.setattr(fields, "english_library_and_fields", lambda source: made.append(1) or real(source))
    assert _build(monkeypatch, tmp_path) > 0 and made == [1]

    question = sorted(Path("bank").rglob("questions/*.yaml"))[0]
    question.write_text(question.read_text(encoding="utf-8") + "# a comment\n", encoding="utf-8")
    made.clear()
    assert _build(monkeypatch, tmp_path) == 0
    assert made == []  # (the outputs' plan for these inputs stands: the library was not made)

    made.clear()
    assert _build(monkeypatch, tmp_path, shuffle=False) > 0  # (other exports: the library made, once)
    assert made == [1]
