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
