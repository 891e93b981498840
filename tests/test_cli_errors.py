"""One table from error type to exit code: each row, through the command that raises it.

Exit codes: 0 done, 1 the user's files have errors (or a worker process was killed), 2 a flag, argument or setting the command
cannot use, 4 `--compare` found stale files. A type missing from the table is a bug and shows
its traceback.
"""

from __future__ import annotations


import pytest

from aistack_bank.cli import EXIT_ERRORS, EXIT_USAGE, error_exits, handle_error
from aistack_bank.errors import BankError, DiagnosticsError, Location, UnknownFormatError, UsageError, error
from aistack_bank.parallel import WorkerLost
from aistack_bank.project.init import InitError
from aistack_bank.project.settings import SettingsError

SAMPLES = {
    UsageError: UsageError("--lang: 'xx!' is not a language code"),
    UnknownFormatError: UnknownFormatError("pdf", ["gift", "json"]),
    SettingsError: SettingsError("unknown export setting 'shufle'", Location("bank.toml", 2, 1)),
    InitError: InitError([error("E131", "the folder is not empty", Location("new"))]),
    DiagnosticsError: DiagnosticsError([error("E304", "correct option 'x' is not one of the options", Location("q.yaml", 9, 10))], "nothing was exported"),
    BankError: BankError("no topic.yaml in bank", Location("bank/ai-hardware-software-stack/topic.yaml")),
    WorkerLost: WorkerLost("a worker process was killed (signal 9) before handing back its result"),
}


def test_every_row_has_a_sample_and_the_table_is_ordered_most_specific_first():
    rows = [error_type for error_type, _ in error_exits()]
    assert set(rows) == set(SAMPLES)
    for index, error_type in enumerate(rows):
        assert not any(issubclass(error_type, earlier) for earlier in rows[:index]), f"{error_type.__name__} is shadowed by an earlier row"


@pytest.mark.parametrize("error_type, exit_code", error_exits(), ids=lambda value: getattr(value, "__name__", str(value)))
def test_each_error_type_maps_to_its_exit_code(error_type, exit_code, capsys):
    assert handle_error(SAMPLES[error_type]) == exit_code
    printed = capsys.readouterr()
    assert str(SAMPLES[error_type]).split(";")[0].split(": ")[-1] in printed.out + printed.err


def test_a_bug_is_not_an_error_of_ours():
    for bug in (ValueError("x"), KeyError("k"), TypeError("t")):
        assert handle_error(bug) is None


# --- each row through a real command ------------------------------------------------------

def test_usage_error_exit_2(project, run_cli):
    code, out = run_cli("check", "--lang", "de")
    assert code == EXIT_USAGE and "no catalog for language 'de'" in out and "Traceback" not in out
    code, out = run_cli("export", "gift", "--lang", "xx", "--out", "o")
    assert code == EXIT_USAGE and "unknown language 'xx'" in out
    code, out = run_cli("new", "--slug", "Bad Slug")
    assert code == EXIT_USAGE and "--slug" in out


def test_unknown_format_exit_2(project, run_cli):
    assert run_cli("export", "pdf")[0] == EXIT_USAGE
    assert run_cli("import", "pdf", "x.txt")[0] == EXIT_USAGE


def test_settings_error_exit_2(project, run_cli):
    (project / "bank.toml").write_text("[export]\nshufle = true\n", encoding="utf-8")
    code, out = run_cli("lint", "--target", "gift")
    assert code == EXIT_USAGE and "bank.toml:2:1: error E801" in out


def test_init_error_exit_2(tmp_path, run_cli):
    folder = tmp_path / "full"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine", encoding="utf-8")
    code, out = run_cli("init", str(folder))
    assert code == EXIT_USAGE and "E131" in out
    assert sorted(path.name for path in folder.iterdir()) == ["notes.txt"]


def test_diagnostics_error_exit_1(project, run_cli):
    path = next((project / "bank" / "ai-hardware-software-stack" / "questions").glob("q001-*.yaml"))
    path.write_text(path.read_text(encoding="utf-8").replace("correct: a", "correct: x"), encoding="utf-8")
    code, out = run_cli("lint")
    assert code == EXIT_ERRORS and "E304" in out


def test_bank_error_exit_1(tmp_path, run_cli, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out = run_cli("new", "--slug", "fine-slug")
    assert code == EXIT_ERRORS and "no bank folder bank" in out and "error E000" in out


# --- --compare and its old name -------------------------------------------------------------

def test_compare_and_its_deprecated_name_check(project, run_cli, tmp_path):
    out_dir = tmp_path / "schemas"
    assert run_cli("schema", "--out", out_dir)[0] == 0
    (out_dir / "topic.schema.json").write_text("{}", encoding="utf-8")
    for flag in ("--compare", "--check"):
        code, out = run_cli("schema", flag, "--out", out_dir)
        assert code == 4 and "topic.schema.json: stale" in out
    assert "--check is now --compare" in run_cli("schema", "--check", "--out", out_dir)[1]
    assert (out_dir / "topic.schema.json").read_text(encoding="utf-8") == "{}"  # nothing written
    code, out = run_cli("schema", "--help")
    assert "--compare" in out and "--check" not in out
    for args in (["i18n", "update", "--compare"], ["i18n", "extract", "--compare"], ["i18n", "fix-typography", "--compare"]):
        assert run_cli(*args)[0] == 0, args


def test_a_worker_killed_exit_1_without_a_traceback(project, monkeypatch, tmp_path):
    """A worker process killed while it reads the question files (as the kernel kills one when
    memory runs out): the command says so, exits 1, and leaves no verdict or export behind."""
    import os
    import signal

    import forked
    from aistack_bank.cache import questionfiles

    def killed(self, items):
        os.kill(os.getpid(), signal.SIGKILL)

    monkeypatch.setattr(questionfiles, "FILE_POOL_MIN", 0)
    monkeypatch.setattr(questionfiles, "FILE_CHUNK_MAX", 10)  # (parts for both workers)
    monkeypatch.setattr(questionfiles.QuestionFiles, "_chunk", killed)
    env = {"AISTACK_BANK_JOBS": "2", "XDG_CACHE_HOME": str(tmp_path / "cache")}
    for command in (("validate",), ("build",)):
        code, out = forked.run(*command, cwd=project, env=env)
        assert (code, out) == (EXIT_ERRORS, "bank: a worker process was killed (signal 9) before handing back its result; "
                                            "the command stopped and wrote nothing\n"), command
    assert not (project / "exports").exists() or not [p for p in (project / "exports").rglob("*") if p.is_file()]
