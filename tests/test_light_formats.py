"""The formats' light table, and what `bank build` with nothing changed imports.

`exporters.LISTED` names every format, its module, folder and the options it honours without
importing a writer or the model; `FORMATS` imports the writers on first use and refuses a record
that does not agree with its line. `bank build` with nothing changed since the last build (every
file standing) reads the table only: these tests hold the table to the records and say what that
build does not import.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from conftest import REPO


def test_the_light_table_is_the_records():
    from aistack_bank import exporters
    from aistack_bank.exporters import FORMATS, LISTED, NAMES

    assert list(FORMATS) == list(LISTED) == list(NAMES) and len(NAMES) == 9
    for name, record in FORMATS.items():
        listed = LISTED[name]
        assert (record.name, record.folder, record.honours) == (name, listed.folder, listed.honours), name
        assert getattr(exporters, listed.module).FORMAT is record, name
    assert dict(FORMATS) == {name: FORMATS[name] for name in NAMES}


def test_which_formats_carry_each_option_is_what_the_records_honour():
    """`bank.toml`'s options: which format carries each, from the table, as from the records."""
    from aistack_bank.exporters import FORMATS
    from aistack_bank.project.settings import CARRIED_BY

    from_records = {key: tuple(f.name for f in FORMATS.values() if key in f.honours) for key in ("shuffle", "answer_numbering", "penalty", "multilang")}
    assert CARRIED_BY == from_records
    assert CARRIED_BY["penalty"] == ("moodle-xml",) and "gift" in CARRIED_BY["multilang"]


@pytest.mark.parametrize("line", ["folder", "honours", "module"])
def test_a_record_that_disagrees_with_its_line_is_refused(monkeypatch, line):
    from aistack_bank import exporters
    from aistack_bank.exporters import LISTED, Formats

    listed = LISTED["gift"]
    wrong = {"folder": listed._replace(folder="gift-files"), "honours": listed._replace(honours=frozenset({"shuffle", "multilang"})),
             "module": listed._replace(module="aiken")}[line]
    monkeypatch.setitem(exporters.LISTED, "gift", wrong)
    with pytest.raises(AssertionError, match="the record of gift"):
        Formats().load()


def test_the_registry_is_a_mapping_a_test_can_patch(monkeypatch):
    from dataclasses import replace

    from aistack_bank import build
    from aistack_bank.exporters import FORMATS

    original = FORMATS["aiken"]
    monkeypatch.setitem(FORMATS, "aiken", replace(original, loses="nothing"))
    assert build.FORMATS["aiken"].loses == "nothing" and list(FORMATS)[-1] == "aiken"
    monkeypatch.undo()
    assert FORMATS["aiken"] is original and len(FORMATS) == 9


def _imported(args: list[str], env: dict, listing) -> tuple[str, list[str]]:
    """(output, every module in ``sys.modules`` when `bank ARGS` ends, as `python -m aistack_bank` runs it)."""
    code = (f"import atexit, runpy, sys\natexit.register(lambda: open({str(listing)!r}, 'w').write('\\n'.join(sorted(sys.modules))))\n"
            f"sys.argv = ['bank', *{args!r}]\nrunpy.run_module('aistack_bank', run_name='__main__')")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, env=env, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout, listing.read_text().split("\n")


def test_a_build_with_nothing_changed_imports_no_writer(tmp_path):
    """Every file of the last build stands: the build reads the formats' names and folders from
    the light table, and imports no format's writer, nothing the writers share, no question kind's
    module and no localizer."""
    from aistack_bank.exporters import LISTED
    from aistack_bank.kinds import NAMES as KIND_NAMES

    project = tmp_path / "project"
    for part in ("bank", "translations"):
        shutil.copytree(REPO / part, project / part)
    env = dict(os.environ, PYTHONPATH=str(REPO), XDG_CACHE_HOME=str(tmp_path / "cache"))
    first, modules = _imported(["-C", str(project), "build"], env, tmp_path / "first.txt")
    assert "file(s) written, 0 unchanged" in first and "aistack_bank.exporters.gift" in modules  # (the listing is read right)
    again, modules = _imported(["-C", str(project), "build"], env, tmp_path / "again.txt")
    assert "0 file(s) written" in again and again.count("unchanged") > len(LISTED)
    writers = {f"aistack_bank.exporters.{listed.module}" for listed in LISTED.values()}
    shared = {f"aistack_bank.exporters.{name}" for name in ("qti_common", "qti12_common", "moodle_common", "html_site", "words", "table")}
    assert "aistack_bank.exporters" in modules and "aistack_bank.build" in modules
    kinds = {f"aistack_bank.kinds.{kind.replace('-', '_')}" for kind in KIND_NAMES}  # (each kind's model: what the writers import)
    assert sorted(m for m in modules if m in writers | shared | kinds or m in ("aistack_bank.exchange", "aistack_bank.site_strings", "aistack_bank.i18n.localize")) == []
