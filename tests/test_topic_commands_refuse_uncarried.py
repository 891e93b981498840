"""The `bank topic` commands that merge the catalogs (`bank migrate`, of either layout, and `bank
topic rename`) never drop a translator's string: a translated entry the merge cannot carry (no
msgctxt, or plural forms) is refused with a located E542, as `bank i18n update` refuses it, and
nothing is moved or written."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from test_update_refuses_uncarried import PLANTED
from topicbank import write_topic_bank


def _plant(path: Path, case: str) -> int:
    """Append the planted entry of ``case`` to the catalog at ``path``; its line number."""
    text = path.read_text(encoding="utf-8")
    path.write_text(text + "\n" + PLANTED[case], encoding="utf-8")
    return text.count("\n") + 2


def _files(root: Path) -> dict:
    return {p: p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _refused(root: Path, run_cli, args: tuple, line: int, command: str) -> None:
    before, folders = _files(root), sorted(p for p in root.rglob("*") if p.is_dir())
    code, out = run_cli(*args)
    assert code == 1, out
    assert f"translations/fr.po:{line}:1: error E542: the translated entry" in out, out
    assert f"`{command}` would drop it, so nothing was written" in out and out.count("E542") == 1, out
    assert _files(root) == before
    assert sorted(p for p in root.rglob("*") if p.is_dir()) == folders


@pytest.fixture(scope="module")
def topic_bank(tmp_path_factory) -> Path:
    return write_topic_bank(tmp_path_factory.mktemp("topics") / "template")


@pytest.mark.parametrize("case", sorted(PLANTED))
def test_topic_rename_refuses_a_translated_entry_it_cannot_carry(topic_bank, tmp_path, monkeypatch, run_cli, case):
    root = tmp_path / "project"
    shutil.copytree(topic_bank, root)
    monkeypatch.chdir(root)
    line = _plant(root / "translations" / "fr.po", case)
    _refused(root, run_cli, ("topic", "rename", "optics", "light-and-optics"), line, "bank topic rename")


@pytest.mark.parametrize("case", sorted(PLANTED))
def test_migrate_of_the_single_topic_layout_refuses_a_translated_entry_it_cannot_carry(tmp_path, monkeypatch, run_cli, case):
    from test_topics import single_topic_copy

    root = single_topic_copy(tmp_path / "old")
    monkeypatch.chdir(root)
    line = _plant(root / "translations" / "fr.po", case)
    _refused(root, run_cli, ("migrate",), line, "bank migrate")


@pytest.mark.parametrize("case", sorted(PLANTED))
def test_migrate_giving_ids_refuses_a_translated_entry_it_cannot_carry(tmp_path, monkeypatch, run_cli, case):
    from test_item_ids import EXAMPLE, _without_ids

    root = tmp_path / "every-kind"
    for name in ("bank", "translations", "bank.toml"):
        (shutil.copytree if (EXAMPLE / name).is_dir() else shutil.copy)(EXAMPLE / name, root / name)
    monkeypatch.chdir(root)
    _without_ids(root)
    line = _plant(root / "translations" / "fr.po", case)
    _refused(root, run_cli, ("migrate",), line, "bank migrate")


@pytest.mark.parametrize("case", sorted(PLANTED))
def test_the_catalogs_merge_of_the_topic_commands_refuses_it_too(project, case):
    """:func:`plan_catalogs`, which merges each catalog with ``merge_catalog`` once the files
    have moved, refuses such an entry itself (the commands check first, before anything moves)."""
    from aistack_bank.project.topics import plan_catalogs

    line = _plant(project / "translations" / "fr.po", case)
    planned, problems = plan_catalogs(project / "bank", project / "translations", {}, "bank topic rename")
    assert planned == [] and [d.code for d in problems] == ["E542"]
    assert problems[0].location.path.endswith("fr.po") and problems[0].location.line == line
    assert "`bank topic rename` would drop it" in problems[0].message


def test_an_untranslated_entry_without_a_context_is_still_let_go(project):
    from aistack_bank.project.topics import plan_catalogs

    fr = project / "translations" / "fr.po"
    fr.write_text(fr.read_text(encoding="utf-8") + '\nmsgid "nothing to keep"\nmsgstr ""\n', encoding="utf-8")
    planned, problems = plan_catalogs(project / "bank", project / "translations", {})
    assert problems == [] and b"nothing to keep" not in dict(planned)[fr]
