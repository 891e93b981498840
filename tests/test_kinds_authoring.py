"""`bank new --kind` and `bank stats` for every question kind."""

from __future__ import annotations

import json
import re

import pytest

from aistack_bank.model import KINDS
from aistack_bank.rules.validate import validate_bank, validate_files
from test_kinds_validate import FILES, write_bank

# What an author writes into the template's blanks, beyond plain texts.
FILLED = {
    "numerical": {'name: ""': "name: GB", 'script: ""': 'script: answer(0, unit="GB")'},
}


def fill(text: str, kind: str) -> str:
    for old, new in FILLED.get(kind, {}).items():
        text = text.replace(old, new)
    count = iter(range(1, 1000))
    return re.sub(r'""', lambda _: f'"Text number {next(count)}"', text)


@pytest.mark.parametrize("kind", KINDS)
def test_new_writes_a_template_of_the_kind_that_validates_once_filled(kind, tmp_path, monkeypatch, run_cli):
    monkeypatch.chdir(tmp_path)
    bank = write_bank(tmp_path)
    code, out = run_cli("new", "--bank", bank, "--kind", kind, "--slug", "fresh-question")
    assert code == 0, out
    path = tmp_path / out.strip()
    assert path.name == f"q{len(FILES) + 1:03d}-fresh-question.yaml"
    text = path.read_text(encoding="utf-8")
    assert f"\nkind: {kind}\n" in text
    # The blanks are to-do markers: each is an error until it is written.
    blank = validate_files([path])
    assert blank.errors and {d.code for d in blank.errors} <= {"E203", "E205"}
    assert len(blank.errors) == text.count('""')
    path.write_text(fill(text, kind), encoding="utf-8")
    report = validate_bank(bank)
    assert [str(d) for d in report.errors] == []
    assert [d.code for d in report.warnings] == []


def test_new_defaults_to_single_choice_and_refuses_an_unknown_kind(tmp_path, monkeypatch, run_cli):
    monkeypatch.chdir(tmp_path)
    bank = write_bank(tmp_path)
    code, out = run_cli("new", "--bank", bank, "--slug", "plain")
    assert code == 0 and "\nkind: single-choice\n" in (tmp_path / out.strip()).read_text(encoding="utf-8")
    code, out = run_cli("new", "--bank", bank, "--kind", "cloze", "--slug", "cloze")
    assert code == 2 and "cloze" in out and "matching" in out
    assert not list((bank / "questions").glob("*-cloze.yaml"))


def test_stats_count_every_kind_and_measure_keys_only_among_options(tmp_path, monkeypatch, run_cli):
    monkeypatch.chdir(tmp_path)
    bank = write_bank(tmp_path)
    code, out = run_cli("stats", "--bank", bank, "--translations", tmp_path / "none", "--format", "json")
    assert code == 0, out
    data = json.loads(out)
    assert data["questions"] == len(KINDS)
    assert data["by_kind"] == {kind: 1 for kind in KINDS}
    assert list(data["by_kind"]) == list(KINDS)
    # q001 (key a of a, b) and q002 (keys a, b of a, b, c): three keys, two at a, one at b.
    assert data["option_questions"] == 2
    assert data["key_positions"] == {"a": pytest.approx(2 / 3), "b": pytest.approx(1 / 3)}
    code, out = run_cli("stats", "--bank", bank, "--translations", tmp_path / "none")
    assert code == 0
    assert ", ".join(f"{kind} 1" for kind in KINDS) in out
    assert "the 2 single-choice and multiple-response questions" in out
