"""`bank -C PATH` and `bank --bank PATH`: run a command on the project in PATH from anywhere."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from aistack_bank.project.init import init_project


def _files(root: Path) -> dict[str, bytes]:
    return {path.relative_to(root).as_posix(): path.read_bytes() for path in sorted(root.rglob("*")) if path.is_file()}


@pytest.fixture(scope="module")
def project_template(tmp_path_factory) -> Path:
    """A project (French half translated) made by `bank init` once per module; read-only: each
    test works on its own copy (``layout``)."""
    project = tmp_path_factory.mktemp("project-template") / "proj"
    with pytest.MonkeyPatch.context() as patch:  # (set up before conftest's function-scoped cache folder)
        patch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("user-cache")))
        init_project(project, languages="fr,nl", title="Every kind", category="Examples", force=False)
    return project


@pytest.fixture
def layout(project_template, tmp_path, monkeypatch):
    """A project in tmp/proj (French half translated) and an empty working directory tmp/elsewhere."""
    project = tmp_path / "proj"
    shutil.copytree(project_template, project, symlinks=True)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    return tmp_path, project, elsewhere


@pytest.mark.parametrize("flag", ["-C", "--bank"])
def test_validate_build_and_status_work_on_the_project_and_write_only_inside_it(layout, run_cli, flag):
    tmp, project, elsewhere = layout
    for stale in (project / "exports").rglob("*"):
        if stale.is_file():
            stale.unlink()
    before = _files(tmp)
    relative = os.path.relpath(project, elsewhere)  # the project beside the working directory

    code, out = run_cli(flag, relative, "validate")
    assert code == 0, out
    code, out = run_cli(flag, relative, "i18n", "status")
    assert code == 0, out
    assert "fr" in out and "nl" in out
    code, out = run_cli(flag, relative, "build")
    assert code == 0, out
    assert Path.cwd() == elsewhere  # the command changed directory for its own run only

    after = _files(tmp)
    changed = {name for name in set(before) | set(after) if before.get(name) != after.get(name)}
    assert changed, "build wrote nothing"
    assert all(name.startswith("proj/exports/") for name in changed), sorted(changed)
    assert list(elsewhere.iterdir()) == []
    assert any(name.startswith("proj/exports/moodle/") for name in changed)


def test_bank_may_name_the_projects_bank_folder(layout, run_cli):
    _, project, _ = layout
    code, out = run_cli("--bank", str(project / "bank"), "validate", "--format", "json")
    assert code == 0, out
    code, out = run_cli("--bank", str(project / "bank"), "stats")
    assert code == 0, out
    assert out.startswith("questions: 1 ")


def test_paths_given_to_the_command_are_relative_to_the_project(layout, run_cli):
    _, project, _ = layout
    question = next((project / "bank").glob("*/questions/q*.yaml")).relative_to(project)
    code, out = run_cli("-C", str(project), "validate", question.as_posix())
    assert code == 0, out
    code, out = run_cli("validate", question.as_posix())  # from elsewhere the same path is not there
    assert code != 0


def test_the_projects_own_settings_file_is_read(layout, run_cli):
    tmp, project, elsewhere = layout
    (elsewhere / "bank.toml").write_text("[export]\npenalty = 0.5\n", encoding="utf-8")
    (project / "bank.toml").write_text("[export]\npenalty = 0.42\n", encoding="utf-8")
    code, out = run_cli("-C", str(project), "export", "moodle-xml", "--lang", "en", "--out", "out")
    assert code == 2
    assert "bank.toml:2:1: error E801" in out and "0.42" in out
    assert not (project / "out").exists() and not (elsewhere / "out").exists()


@pytest.mark.parametrize("target, message", [
    ("missing", "no such folder"),
    ("a-file", "not a folder"),
    ("plain", "not a bank project"),
])
def test_a_path_that_is_no_project_is_a_usage_error(layout, run_cli, target, message):
    tmp, _, _ = layout
    (tmp / "a-file").write_text("x", encoding="utf-8")
    (tmp / "plain").mkdir()
    for flag in ("-C", "--bank"):
        code, out = run_cli(flag, str(tmp / target), "validate")
        assert code == 2, out
        assert out.startswith(f"bank: {flag} {tmp / target}: {message}"), out
        assert "Traceback" not in out
    assert not (tmp / "plain" / "exports").exists()


def test_the_project_is_given_once(layout, run_cli):
    _, project, _ = layout
    code, out = run_cli("-C", str(project), "--bank", str(project), "validate")
    assert code == 2
    assert "not both" in out


def test_init_may_run_in_any_existing_folder(layout, run_cli):
    tmp, _, _ = layout
    (tmp / "courses").mkdir()
    code, out = run_cli("-C", str(tmp / "courses"), "init", "stats-course")
    assert code == 0, out
    assert (tmp / "courses" / "stats-course" / "bank" / "categories.yaml").is_file()
    assert Path.cwd() == tmp / "elsewhere"


def test_the_command_line_option_runs_from_another_folder(layout):
    """The installed entry point, as CI runs it: `python -m aistack_bank -C PATH build --compare`."""
    import subprocess
    import sys

    _, project, elsewhere = layout
    repo = Path(__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": str(repo)}
    result = subprocess.run([sys.executable, "-m", "aistack_bank", "-C", str(project), "build", "--compare"],
                            cwd=elsewhere, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "exports are up to date" in result.stdout
