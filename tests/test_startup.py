"""`bank --help` starts without the heavy part of the package, and the names it shows are the registries'.

The command line names the question kinds and the formats in its help without importing the
models (pydantic) or the exporters: the kinds from the light list of :mod:`aistack_bank.kinds`,
the formats written out in the help texts, which these tests hold to the format records.
"""

from __future__ import annotations

import re
import subprocess
import sys

import typer

from conftest import REPO


def _imported_by_help() -> list[str]:
    """Every module `python -m aistack_bank --help` imports, as ``-X importtime`` lists them."""
    result = subprocess.run([sys.executable, "-X", "importtime", "-m", "aistack_bank", "--help"],
                            capture_output=True, text=True, cwd=REPO, timeout=120)
    assert result.returncode == 0, result.stderr
    return [line.rsplit("|", 1)[1].strip() for line in result.stderr.splitlines() if line.startswith("import time:") and "|" in line]


def test_help_imports_no_pydantic_and_only_the_light_modules():
    modules = _imported_by_help()
    assert "aistack_bank.cli" in modules  # the listing is read right
    assert not [m for m in modules if m.split(".")[0] in {"pydantic", "pydantic_core", "ruamel", "yaml", "polib", "defusedxml"}]
    assert sorted(m for m in modules if m.split(".")[0] == "aistack_bank") == ["aistack_bank", "aistack_bank.cli", "aistack_bank.kinds", "aistack_bank.options"]


def test_the_light_list_of_kinds_is_the_registrys():
    from aistack_bank import kinds, load, model

    assert kinds.NAMES == tuple(kinds.REGISTRY) == load.KINDS == model.KINDS
    assert kinds.DEFAULT_KIND == next(iter(kinds.REGISTRY))


def _help_of(command: str, param: str) -> str:
    from aistack_bank.cli import app

    group = typer.main.get_command(app)
    return next(p.help for p in group.commands[command].params if p.name == param)


def test_the_help_names_every_kind_and_every_format_in_the_records_order():
    from aistack_bank.exporters import FORMATS
    from aistack_bank.kinds import NAMES
    from aistack_bank.lms.lint import TARGETS

    def in_order(text: str, names) -> bool:
        positions = [text.find(name) for name in names]
        return -1 not in positions and positions == sorted(positions)

    assert in_order(_help_of("new", "kind"), NAMES)
    export_help = _help_of("export", "fmt")
    assert in_order(export_help, list(FORMATS))
    assert len(re.split(r", | or ", export_help)) == len(FORMATS), "a format named in the help that has no record"
    assert in_order(_help_of("lint", "target"), list(TARGETS))


def _command_lines() -> list[list[str]]:
    """`bank CMD --help` and `bank CMD --no-such-flag` for every command and command group of
    `bank`, and the same for each command of a group."""
    from aistack_bank.cli import app

    lines = []
    for name, command in typer.main.get_command(app).commands.items():
        lines += [[name, "--help"], [name, "--no-such-flag"]]
        for sub in getattr(command, "commands", {}):
            lines += [[name, sub, "--help"], [name, sub, "--no-such-flag"]]
    return lines


def test_a_command_named_outright_is_built_alone_and_answers_as_among_every_command(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from aistack_bank.cli import app, invoked_app

    monkeypatch.chdir(tmp_path)
    whole = (list(app.registered_commands), list(app.registered_groups))
    lines = _command_lines()
    assert len(lines) > 40 and ["i18n", "update", "--help"] in lines
    for args in lines:
        lean = invoked_app(args)
        assert lean is not app and len(lean.registered_commands) + len(lean.registered_groups) == 1, args
        full, alone = CliRunner().invoke(app, args), CliRunner().invoke(lean, args)
        assert (alone.exit_code, alone.output) == (full.exit_code, full.output), args
    assert (app.registered_commands, app.registered_groups) == whole  # the app itself is left whole


def test_only_a_command_named_outright_is_built_alone():
    from aistack_bank.cli import app, invoked_app

    def alone(args: list[str]) -> str | None:
        lean = invoked_app(args)
        if lean is app:
            return None
        [name] = [c.name or typer.main.get_command_name(c.callback.__name__) for c in lean.registered_commands] + [g.name for g in lean.registered_groups]
        return name

    assert alone(["validate", "bank/x"]) == "validate"
    assert alone(["-C", "validate", "build"]) == "build"  # the value of -C is no command
    assert alone(["--bank", "p", "i18n", "update"]) == "i18n"
    assert alone(["--bank=p", "-Cq", "export", "json"]) == "export"
    for args in ([], ["--help"], ["-h", "validate"], ["--version"], ["validat"], ["-C"], ["-C", "p"], ["--", "validate"], ["--bogus", "validate"]):
        assert alone(args) is None, args


def test_the_rules_and_the_catalogs_checks_import_no_pydantic():
    """What `bank validate` runs after a catalog entry is edited (the verdict's cache, the rules,
    the catalogs' checks and their caches, the field rule of a translation that is not blank)
    imports no model and no pydantic until a model is read."""
    modules = ["aistack_bank.services", "aistack_bank.cache.validation", "aistack_bank.cache.catalogs", "aistack_bank.cache.questionfiles",
               "aistack_bank.cache.entries", "aistack_bank.rules.validate", "aistack_bank.rules.lints", "aistack_bank.i18n.verify",
               "aistack_bank.i18n.localize", "aistack_bank.i18n.catalog", "aistack_bank.i18n.glossary", "aistack_bank.i18n.typography"]
    code = (f"import importlib, sys\nfor name in {modules!r}:\n    importlib.import_module(name)\n"
            "from aistack_bank.kinds import a_kind, item_id_rules, kind_rules, slug_of, kind_of, translation_duplicates, translation_splits\n"
            "from aistack_bank.i18n.verify import text_rule_problem\nassert text_rule_problem('Traduit') is None\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pydantic', 'pydantic_core') or m in ('aistack_bank.model', 'aistack_bank.kinds._base')))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_validating_one_question_file_imports_no_multiprocessing():
    """`bank validate FILE` (a few texts for the answer-leak lint) forks no worker, and so does
    not import what forking them takes."""
    code = ("import sys; from pathlib import Path; from aistack_bank.rules.validate import validate_files; "
            "files = sorted(Path('bank').glob('*/questions/q*.yaml'))[:2]; report = validate_files(files); "
            "assert report.cues.questions == 2; print('multiprocessing' in sys.modules)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"
