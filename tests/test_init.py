"""`bank init`: a new bank that validates, builds and reports status at once; refusals write nothing."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import polib
import pytest
import yaml

from aistack_bank.exporters.html_site import UI_STRINGS

from conftest import REPO

LANGS = "fr,nl,de,ar,pl"


@pytest.fixture(scope="module")
def new_bank_template(tmp_path_factory) -> Path:
    """`bank init` run once per module; read-only: each test works on its own copy (``new_bank``)."""
    from typer.testing import CliRunner

    from aistack_bank.cli import app

    top = tmp_path_factory.mktemp("init-template")
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(top)
        patch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("user-cache")))
        result = CliRunner().invoke(app, ["init", "physics-101", "--languages", LANGS, "--title", "Physik für Einsteiger", "--category", "Science"],
                                    catch_exceptions=False)
    code, out = result.exit_code, result.output
    assert code == 0, out
    assert "created a bank in physics-101" in out and "en, fr, nl, de, ar, pl" in out
    assert "physics-101/translations/de.po: warning W552:" in out
    return top / "physics-101"


@pytest.fixture
def new_bank(new_bank_template, tmp_path, monkeypatch) -> Path:
    root = tmp_path / "physics-101"
    shutil.copytree(new_bank_template, root, symlinks=True)
    monkeypatch.chdir(root)
    return root


def test_a_new_bank_validates_builds_and_reports_status_at_once(new_bank, run_cli):
    code, out = run_cli("validate")
    assert code == 0, out
    assert " 0 error(s)" in out and "warning W501" in out  # untranslated: warnings only
    for args in (["build", "--compare"], ["i18n", "update", "--compare"], ["schema", "--compare"]):
        code, out = run_cli(*args)
        assert code == 0, (args, out)
    code, out = run_cli("i18n", "status", "--format", "json")
    assert code == 0, out
    status = json.loads(out)
    assert [s["language"] for s in status["languages"]] == ["en", "ar", "de", "fr", "nl", "pl"]
    assert {s["language"]: s["percent"] for s in status["interface"]} == {"ar": 0.0, "de": 0.0, "fr": 100.0, "nl": 100.0, "pl": 0.0}


def test_the_new_bank_has_what_authors_translators_and_ci_need(new_bank):
    topic = yaml.safe_load((new_bank / "bank" / "physik-fur-einsteiger" / "topic.yaml").read_text(encoding="utf-8"))
    assert topic["title"] == "Physik für Einsteiger" and topic["category"] == "science" and topic["id"] == "physik-fur-einsteiger"
    categories = yaml.safe_load((new_bank / "bank" / "categories.yaml").read_text(encoding="utf-8"))
    assert categories == {"categories": [{"id": "science", "title": "Science"}]}
    (question,) = (new_bank / "bank" / "physik-fur-einsteiger" / "questions").glob("q001-*.yaml")
    q = yaml.safe_load(question.read_text(encoding="utf-8"))
    assert all(o["feedback"] for o in q["options"]) and q["explanation"] and q["correct"] in {o["id"] for o in q["options"]}
    for name in ("question.schema.json", "topic.schema.json", "categories.schema.json", "export.schema.json"):
        json.loads((new_bank / "schema" / name).read_text(encoding="utf-8"))
    pl = polib.pofile(str(new_bank / "translations" / "pl.po"))
    assert pl.metadata["Plural-Forms"].startswith("nplurals=3;") and pl.metadata["Language"] == "pl"
    assert polib.pofile(str(new_bank / "translations" / "ar.po")).metadata["Plural-Forms"].startswith("nplurals=6;")
    fr_site = polib.pofile(str(new_bank / "translations" / "site" / "fr.po"))
    assert len(fr_site.translated_entries()) == len(UI_STRINGS)
    readme = (new_bank / "README.md").read_text(encoding="utf-8")
    assert readme.startswith("# Physik für Einsteiger\n")
    for audience in ("## For authors", "## For translators", "## For LMS admins"):
        assert audience in readme
    assert "{" not in readme.replace("```", "")
    workflow = yaml.safe_load((new_bank / ".github" / "workflows" / "bank.yml").read_text(encoding="utf-8"))
    runs = [step.get("run", "") for step in workflow["jobs"]["bank"]["steps"]]
    assert "python -m pip install -r requirements.txt" in runs
    assert any(r.startswith("bank validate") for r in runs) and "bank build --compare" in runs and "bank i18n update --compare" in runs
    from aistack_bank import __version__

    assert f"aistack-bank=={__version__}" in (new_bank / "requirements.txt").read_text(encoding="utf-8")
    assert ".bank-cache/" in (new_bank / ".gitignore").read_text(encoding="utf-8")


def test_the_pre_commit_hooks_are_this_tools_hooks(new_bank):
    ours = {h["id"]: h for h in yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))}
    config = yaml.safe_load((new_bank / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    hooks = [h for repo in config["repos"] for h in repo["hooks"]]
    assert {h["id"] for h in hooks} == set(ours)
    for hook in hooks:
        assert (hook["entry"], hook["files"], hook["pass_filenames"]) == (ours[hook["id"]]["entry"], ours[hook["id"]]["files"], ours[hook["id"]]["pass_filenames"])


def test_a_translated_language_is_exported_and_its_interface_falls_back_with_a_warning(new_bank, run_cli):
    path = new_bank / "translations" / "pl.po"
    po = polib.pofile(str(path))
    for entry in po:
        entry.msgstr = f"{entry.msgid} (pl)"
    po.save(str(path))
    code, out = run_cli("build")
    assert code == 0, out
    assert "translations/site/pl.po: warning W551:" in out and "shown in English" in out
    assert "translations/de.po: warning W552:" in out
    (topic_file,) = (new_bank / "bank").glob("*/topic.yaml")
    topic_id = next(line.split(": ", 1)[1] for line in topic_file.read_text(encoding="utf-8").split("\n") if line.startswith("id: "))
    assert (new_bank / "exports" / "moodle" / f"{topic_id}-pl.xml").exists()  # file names start with the topic id
    assert not (new_bank / "exports" / "moodle" / f"{topic_id}-de.xml").exists()
    page = (new_bank / "exports" / "site" / "pl" / "index.html").read_text(encoding="utf-8")
    assert "(pl)" in page and UI_STRINGS["site.reset"] in page  # content in Polish, interface in English
    fr_page_built = (new_bank / "exports" / "site" / "fr" / "index.html").exists()
    assert not fr_page_built  # nothing translated in French yet
    code, out = run_cli("validate")
    assert code == 0, out
    code, out = run_cli("i18n", "status")
    assert code == 0 and "pl                 13      0         0        0   100.0%" in out


def test_a_missing_interface_catalog_is_a_warning_not_an_error(new_bank, run_cli):
    (new_bank / "translations" / "site" / "fr.po").unlink()
    path = new_bank / "translations" / "fr.po"
    po = polib.pofile(str(path))
    for entry in po:
        entry.msgstr = entry.msgid
    po.save(str(path))
    code, out = run_cli("build")
    assert code == 0, out
    assert "warning W551: no interface catalog for fr" in out


def test_a_started_but_incomplete_language_is_left_out_until_it_is_ready(new_bank, run_cli):
    path = new_bank / "translations" / "de.po"
    po = polib.pofile(str(path))
    po[0].msgstr = "Physik für Einsteiger"
    po.save(str(path))
    code, out = run_cli("build")
    assert code == 0 and "translations/de.po: warning W558: de is " in out and "E509" not in out, out
    assert not list((new_bank / "exports").rglob("*-de.*"))
    code, out = run_cli("build", "--allow-fallback")
    assert code == 0 and "translations/de.po: warning W559:" in out, out
    assert (new_bank / "exports" / "moodle" / "physik-fur-einsteiger-de-with-en.xml").is_file()


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("args,code,message", [
    (["--languages", "fr,DE"], "E132", "did you mean de?"),
    (["--languages", "en"], "E132", "source language"),
    (["--languages", "fr,nl-BE"], "E132", "did you mean nl_BE?"),
    (["--title", "  "], "E133", "empty"),
    (["--title", "Line\nbreak"], "E133", "U+000A"),
    (["--title", "evil\u202etxt"], "E133", "U+202E"),
    (["--category", "x" * 256], "E133", "the limit is 255"),
])
def test_bad_arguments_are_located_errors_and_nothing_is_written(tmp_path, monkeypatch, run_cli, args, code, message):
    monkeypatch.chdir(tmp_path)
    status, out = run_cli("init", "course", *args)
    assert status == 2, out
    assert f"error {code}:" in out and message in out
    assert out.split(":")[0] in ("--languages", "--title", "--category")
    assert os.listdir(tmp_path) == []


def test_a_non_empty_folder_is_refused_without_force(tmp_path, monkeypatch, run_cli):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "course").mkdir()
    (tmp_path / "course" / "notes.txt").write_text("mine\n")
    status, out = run_cli("init", "course")
    assert status == 2 and "course: error E131:" in out and "notes.txt" in out and "--force" in out
    assert _tree(tmp_path) == {"course/notes.txt": b"mine\n"}


def test_force_adds_a_bank_and_never_overwrites(tmp_path, monkeypatch, run_cli):
    monkeypatch.chdir(tmp_path)
    root = tmp_path / "course"
    (root / ".github" / "workflows").mkdir(parents=True)
    (root / "README.md").write_text("# Our course\n")
    (root / ".github" / "workflows" / "bank.yml").write_text("name: ours\n")
    status, out = run_cli("init", "course", "--force", "--languages", "es")
    assert status == 0, out
    assert "kept      course/README.md" in out and "kept      course/.github/workflows/bank.yml" in out
    assert (root / "README.md").read_text() == "# Our course\n"
    assert (root / ".github" / "workflows" / "bank.yml").read_text() == "name: ours\n"
    assert (root / "translations" / "es.po").exists() and (root / "bank" / "course" / "topic.yaml").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["course"]  # no staging folder left behind
    before = _tree(root)
    status, out = run_cli("init", "course", "--force")
    assert status == 2 and "error E134" in out and "bank/" in out
    assert _tree(root) == before


def test_an_empty_folder_and_the_default_title(tmp_path, monkeypatch, run_cli):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "intro-to-ml" / ".git").mkdir(parents=True)  # as `git init` leaves it
    status, out = run_cli("init", "intro-to-ml")
    assert status == 0, out
    topic = yaml.safe_load((tmp_path / "intro-to-ml" / "bank" / "intro-to-ml" / "topic.yaml").read_text(encoding="utf-8"))
    categories = yaml.safe_load((tmp_path / "intro-to-ml" / "bank" / "categories.yaml").read_text(encoding="utf-8"))["categories"]
    assert topic["title"] == categories[0]["title"] == "Intro to ml" and topic["category"] == categories[0]["id"] == "intro-to-ml"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["intro-to-ml"]
    assert os.listdir(tmp_path / "intro-to-ml" / ".git") == []


def test_an_unknown_but_well_formed_language_gets_the_default_rule_with_a_warning(tmp_path, monkeypatch, run_cli):
    monkeypatch.chdir(tmp_path)
    status, out = run_cli("init", "c", "--languages", "tlh")
    assert status == 0, out
    assert "--languages: warning W131:" in out
    assert "nplurals=2; plural=(n != 1);" in (tmp_path / "c" / "translations" / "tlh.po").read_text(encoding="utf-8")


def test_the_packaged_interface_catalogs_match_this_projects(tmp_path):
    """The interface translations `bank init` starts from are those of translations/site/."""
    from aistack_bank.i18n.site import packaged_languages, packaged_site_catalog

    assert packaged_languages() == sorted(p.stem for p in (REPO / "translations" / "site").glob("*.po"))
    for lang in packaged_languages():
        ours = {e.msgctxt: (e.msgid, e.msgstr) for e in polib.pofile(str(REPO / "translations" / "site" / f"{lang}.po")).translated_entries()}
        shipped = {e.msgctxt: (e.msgid, e.msgstr) for e in packaged_site_catalog(lang).translated_entries()}
        assert shipped == ours, f"copy translations/site/{lang}.po to aistack_bank/i18n/data/site/"


def test_one_version_in_one_place(run_cli):
    import re

    from aistack_bank import __version__

    pyproject = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    project_table = pyproject.split("\n[project]\n", 1)[1].split("\n[", 1)[0]
    assert not re.search(r"^version\s*=", project_table, re.M) and 'dynamic = ["version"]' in project_table
    assert 'version = { attr = "aistack_bank.__version__" }' in pyproject
    code, out = run_cli("--version")
    assert code == 0 and out.strip() == f"bank (aistack-bank) {__version__}"
    assert f"## [{__version__}]" in (REPO / "CHANGELOG.md").read_text(encoding="utf-8")


def test_init_in_the_working_directory_keeps_that_directory(tmp_path, monkeypatch, run_cli):
    here = tmp_path / "statistics"
    here.mkdir()
    inode = here.stat().st_ino
    monkeypatch.chdir(here)
    status, out = run_cli("init", ".", "--languages", "ja")
    assert status == 0, out
    assert here.stat().st_ino == inode and Path.cwd() == here  # the shell's folder stays the same folder
    assert len(list((here / "bank").glob("*/topic.yaml"))) == 1 and (here / "translations" / "ja.po").exists()
    assert "nplurals=1; plural=0;" in (here / "translations" / "ja.po").read_text(encoding="utf-8")
    status, out = run_cli("validate")
    assert status == 0, out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["statistics"]


def test_gnu_msgfmt_accepts_every_catalog_of_a_new_bank(new_bank):
    import shutil
    import subprocess

    msgfmt = shutil.which("msgfmt")
    assert msgfmt, "GNU gettext's msgfmt is required for this test (Debian package gettext)"
    catalogs = sorted((new_bank / "translations").rglob("*.po"))
    assert len(catalogs) == 10
    for path in catalogs:
        result = subprocess.run([msgfmt, "--check", "-o", "/dev/null", str(path)], capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, (path, result.stderr)
