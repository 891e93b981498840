"""`exports/README.md`: written by every build, checked by --compare, naming files that exist."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import polib

from aistack_bank.exporters import FORMATS

from conftest import REPO

PLATFORMS = ("Moodle", "GIFT", "Canvas Classic Quizzes", "Canvas New Quizzes", "Blackboard Learn", "D2L Brightspace",
             "QTI 2.1 players", "QTI 3.0 players", "Aiken", "Common Cartridge", "static host")


def named_files(guide: str) -> list[str]:
    return re.findall(r"^- `([^`<>]+)`", guide, re.M)


def test_the_bundled_guide_is_current_and_names_files_that_exist():
    guide = (REPO / "exports" / "README.md").read_text(encoding="utf-8")
    for platform in PLATFORMS:
        assert platform in guide, platform
    for export_format in FORMATS.values():
        assert f"### {export_format.name}: `{export_format.folder}/`" in guide
        assert export_format.platforms in guide and f"Loses: {export_format.loses}" in guide
    files = named_files(guide)
    assert "moodle/aistack-multilang.xml" in files and "site/index.html" in files
    for name in files:
        assert (REPO / "exports" / name).exists(), name
    assert "English (`en`), French — Français (`fr`), Dutch — Nederlands (`nl`)" in guide


def test_build_writes_the_guide_and_compare_finds_it_stale(project, run_cli):
    shutil.copytree(REPO / "exports", project / "exports")
    code, out = run_cli("build", "--compare")
    assert code == 0, out
    guide = project / "exports" / "README.md"
    guide.write_text(guide.read_text(encoding="utf-8") + "edited\n", encoding="utf-8")
    code, out = run_cli("build", "--compare")
    assert code == 4 and "exports/README.md: stale" in out
    guide.unlink()
    code, out = run_cli("build")
    assert code == 0 and guide.read_bytes() == (REPO / "exports" / "README.md").read_bytes()


def test_a_new_project_gets_its_own_guide_in_its_languages_names(tmp_path, monkeypatch, run_cli):
    monkeypatch.chdir(tmp_path)
    code, out = run_cli("init", "kurs", "--languages", "de,es", "--title", "Statistik", "--category", "Mathematik")
    assert code == 0, out
    root = tmp_path / "kurs"
    guide = (root / "exports" / "README.md").read_text(encoding="utf-8")
    assert "1 question, in English (`en`)." in guide and "Deutsch" not in guide  # de, es: not exported yet
    assert "`moodle/statistik-en.xml`" in guide and "multilang" not in "".join(named_files(guide))
    for name in named_files(guide):
        assert (root / "exports" / name).exists(), name
    # The translation starting changes nothing in the exports, the guide included.
    monkeypatch.chdir(root)
    po = polib.pofile(str(root / "translations" / "de.po"))
    po[0].msgstr = "Mathematik"
    po.save()
    assert run_cli("i18n", "update")[0] == 0
    code, out = run_cli("build", "--compare")
    assert code == 0, out
    assert "translations/de.po: warning W558" in out
    assert Path("exports/README.md").read_text(encoding="utf-8") == guide
    Path("bank.toml").write_text("[languages]\nfallback = true\n", encoding="utf-8")
    assert run_cli("build")[0] == 0
    guide = Path("exports/README.md").read_text(encoding="utf-8")
    assert "in English (`en`), German — Deutsch (`de`)." in guide and "`moodle/statistik-multilang.xml` (every language)" in guide
    for name in named_files(guide):
        assert (root / "exports" / name).exists(), name


def test_the_guide_of_a_bank_of_several_topics_names_files_that_exist(tmp_path):
    from aistack_bank.build import render, write_guide, write_outputs
    from aistack_bank.options import ExportOptions

    from topics_sample import libraries

    banks = libraries()
    for name, tree in render(list(FORMATS), banks, ExportOptions()).items():
        write_outputs({name: tree}, {name: tmp_path / FORMATS[name].folder}, banks)
    write_guide(tmp_path, banks, [])
    guide = (tmp_path / "README.md").read_text(encoding="utf-8")
    assert "`moodle/bank-multilang.xml` (every language)" in guide and "- `aiken/<topic-id>/…` (each topic on its own)" in guide
    for name in named_files(guide):
        assert (tmp_path / name).exists(), name
