"""Generated files stay in step with the code; the CLI is usable and never shows a traceback."""

from __future__ import annotations

import json
import subprocess
import sys

import jsonschema
import pytest

from aistack_bank.errors import CODES
from aistack_bank.project.schemas import render_schemas
from aistack_bank.yamlsource import load_yaml

from conftest import REPO


def test_committed_schemas_are_up_to_date():
    for name, data in render_schemas().items():
        assert (REPO / "schema" / str(name)).read_bytes() == data, f"schema/{name} is stale; run `bank schema`"


def test_schema_compare_mode(project, run_cli, tmp_path):
    code, _ = run_cli("schema", "--out", tmp_path / "s")
    assert code == 0
    assert run_cli("schema", "--compare", "--out", tmp_path / "s")[0] == 0
    (tmp_path / "s" / "topic.schema.json").write_text("{}")
    code, out = run_cli("schema", "--compare", "--out", tmp_path / "s")
    assert code == 4 and "topic.schema.json: stale" in out


def test_content_files_validate_against_the_json_schemas():
    question = json.loads((REPO / "schema" / "question.schema.json").read_text(encoding="utf-8"))
    topic = json.loads((REPO / "schema" / "topic.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(question)
    # Read exactly as `bank validate` reads them (YAML 1.2 core scalars), not by PyYAML's 1.1 rules.
    jsonschema.Draft202012Validator(topic).validate(load_yaml(REPO / "bank" / "ai-hardware-software-stack" / "topic.yaml")[0].data)
    for path in sorted((REPO / "bank" / "ai-hardware-software-stack" / "questions").glob("*.yaml")):
        jsonschema.Draft202012Validator(question).validate(load_yaml(path)[0].data)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(question).validate({"id": "q001", "kind": "single-choice", "extra": 1})


def test_error_code_table_is_documented():
    from aistack_bank.errors import render_code_table

    doc = (REPO / "docs" / "error-codes.md").read_text(encoding="utf-8")
    assert doc == render_code_table(), "docs/error-codes.md is stale; run `bank codes --markdown > docs/error-codes.md`"
    for code, meaning in CODES.items():
        assert f"| {code} | {meaning} |" in doc, code


def test_help_lists_the_commands(run_cli):
    code, out = run_cli("--help")
    assert code == 0
    for command in ("validate", "check", "schema", "i18n", "export", "build"):
        assert command in out


def test_python_dash_m_runs_the_cli():
    result = subprocess.run([sys.executable, "-m", "aistack_bank", "codes"], capture_output=True, text=True, cwd=REPO, timeout=120)
    assert result.returncode == 0 and "E101" in result.stdout


def test_no_traceback_for_a_missing_bank(tmp_path, run_cli, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out = run_cli("validate")  # outside a project: a usage mistake
    assert code == 2 and "bank: no bank here: bank/ does not exist" in out and "Traceback" not in out
    code, out = run_cli("validate", "--bank", "content")
    assert code == 2 and "content/ does not exist" in out
    code, out = run_cli("build")
    assert code == 1 and "Traceback" not in out
