"""A project made by `bank init` is the team's own: named after it, with the authors' guide, its
languages in the help, its id in the practice site's storage keys, and an install that works
without a published package."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from conftest import REPO


@pytest.fixture(scope="module")
def course_template(tmp_path_factory) -> Path:
    """`bank init stats-101` run once per module and never changed (each test works on its own
    copy, ``course``)."""
    from typer.testing import CliRunner

    from aistack_bank.cli import app

    top = tmp_path_factory.mktemp("init-project")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(top / "user-cache"))
        patch.chdir(top)
        result = CliRunner().invoke(app, ["init", "stats-101", "--languages", "de,es", "--title", "Statistics", "--category", "Mathematics"],
                                    catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return top / "stats-101"


@pytest.fixture
def course(course_template, tmp_path, monkeypatch) -> Path:
    """A copy of ``course_template`` of the test's own (without the project's cache folder), the
    working directory set to it."""
    root = tmp_path / "stats-101"
    shutil.copytree(course_template, root, symlinks=True, ignore=shutil.ignore_patterns(".bank-cache"))
    monkeypatch.chdir(root)
    return root


def test_catalogs_and_headers_are_named_after_the_project(course):
    translations = course / "translations"
    assert sorted(p.name for p in translations.glob("*.pot")) == ["stats-101.pot"]
    assert "Translatable texts of the stats-101 question bank" in (translations / "stats-101.pot").read_text(encoding="utf-8")
    assert "language catalogs (de.po, es.po)" in (translations / "stats-101.pot").read_text(encoding="utf-8")
    assert "German translation of the stats-101 question bank." in (translations / "de.po").read_text(encoding="utf-8")
    assert "Spanish translation of the stats-101 practice site interface." in (translations / "site" / "es.po").read_text(encoding="utf-8")
    for path in course.rglob("*"):
        if path.is_file() and path.suffix in (".po", ".pot", ".md", ".yml", ".yaml", ".toml"):
            text = path.read_text(encoding="utf-8")
            assert "aistack question bank" not in text and "aistack.pot" not in text, path


def test_the_project_keeps_working_with_its_own_template(course, run_cli):
    for args in (["i18n", "update", "--compare"], ["i18n", "extract", "--compare"], ["validate"], ["build", "--compare"]):
        code, out = run_cli(*args)
        assert code == 0, (args, out)
    assert "W504" not in run_cli("validate")[1]
    code, out = run_cli("i18n", "extract")
    assert "translations/stats-101.pot" in out and not (course / "translations" / "aistack.pot").exists()


def test_the_site_keeps_answers_under_the_projects_id(course):
    page = (course / "exports" / "site" / "en" / "index.html").read_text(encoding="utf-8")
    assert '"storageKey":"stats-101-bank/statistics/answers"' in page and "aistack-bank/statistics" not in page


def test_the_authors_guide_is_part_of_every_project_and_in_sync(course):
    guide = (REPO / "bank" / "README.md").read_bytes()
    assert (REPO / "aistack_bank" / "project" / "starter" / "bank-README.md").read_bytes() == guide, \
        "run: cp bank/README.md aistack_bank/project/starter/bank-README.md"
    assert (course / "bank" / "README.md").read_bytes() == guide
    readme = (course / "README.md").read_text(encoding="utf-8")
    assert "[bank/README.md](bank/README.md)" in readme and "translations/stats-101.pot" in readme
    assert "multiple-choice" not in readme


def test_help_names_the_bank_and_the_projects_languages(course, run_cli):
    code, out = run_cli("--help")
    assert code == 0 and "aistack" not in out
    code, out = run_cli("export", "--help")
    assert code == 0 and "en, de, es (the project's languages)" in " ".join(out.split()), out
    assert "fr, nl" not in out
    for command in ("check", "lint"):
        code, out = run_cli(command, "--help")
        assert code == 0 and "en, de, es (the project's languages)" in " ".join(out.split()), (command, out)
    code, out = run_cli("-C", str(REPO), "export", "--help")
    assert "en, fr, nl (the project's languages)" in " ".join(out.split())


def test_a_requirement_is_written_and_a_wheel_copied_into_the_project(tmp_path, monkeypatch, run_cli):
    monkeypatch.chdir(tmp_path)
    wheel = tmp_path / "aistack_bank-9.9.9-py3-none-any.whl"
    wheel.write_bytes(b"PK not really a wheel")
    code, out = run_cli("init", "a", "--requirement", str(wheel))
    assert code == 0, out
    assert (tmp_path / "a" / "requirements.txt").read_text(encoding="utf-8").endswith("\n./tools/aistack_bank-9.9.9-py3-none-any.whl\n")
    assert (tmp_path / "a" / "tools" / wheel.name).read_bytes() == wheel.read_bytes()
    url = "aistack-bank @ git+https://example.org/team/aistack-bank@v0.1.0"
    code, out = run_cli("init", "b", "--requirement", url)
    assert code == 0 and (tmp_path / "b" / "requirements.txt").read_text(encoding="utf-8").endswith(f"\n{url}\n")
    for bad, needle in (("missing.whl", "no such wheel file"), (str(tmp_path / "a" / "requirements.txt") + ".whl", "no such wheel"), ("x\ny", "one requirement on one line")):
        code, out = run_cli("init", "c", "--requirement", bad)
        assert code == 2 and "--requirement: error E139" in out and needle in out, out
        assert not (tmp_path / "c").exists()


def test_the_readme_sends_each_platform_to_its_folder(course):
    readme = (course / "README.md").read_text(encoding="utf-8")
    for folder in ("moodle", "gift", "canvas-qti12", "common-cartridge", "qti21", "qti30", "aiken", "site", "json"):
        assert f"`exports/{folder}/" in readme, folder
    for platform in ("Blackboard", "Brightspace", "Canvas Classic Quizzes", "exports/README.md"):
        assert platform in readme
