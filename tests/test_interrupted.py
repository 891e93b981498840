"""A command interrupted (SIGINT, Ctrl-C) says so, exits 130, and leaves nothing half-written.

Each command runs in a child forked from the test process (`forked.py`: the signal dispositions
of a process started from a terminal), with the catalogs' verification patched, before the fork,
to send the process SIGINT as it starts: every run is interrupted at the same point, after the
question files were read and their records kept, before the catalogs are verified.
"""

from __future__ import annotations

import os
import shutil
import signal
import sys
from pathlib import Path

import pytest

import forked
from conftest import REPO

INTERRUPTED = "bank: interrupted\n"


def _copy(root: Path) -> Path:
    for part in ("bank", "translations"):
        shutil.copytree(REPO / part, root / part)
    return root


def _interrupt_at_catalogs(monkeypatch) -> None:
    from aistack_bank.i18n import verify

    original = verify.verify_catalogs

    def interrupted(*args, **kwargs):
        os.kill(os.getpid(), signal.SIGINT)
        return original(*args, **kwargs)

    monkeypatch.setattr(verify, "verify_catalogs", interrupted)


def _half_written(*roots: Path) -> list[str]:
    """Temporary files of an atomic write or a cache write, spill files and build staging
    folders under ``roots``."""
    found = []
    for root in roots:
        for path in root.rglob("*"):
            name = path.name
            if name.endswith(".tmp") or name.startswith(".bank-build-"):
                found.append(str(path.relative_to(root)))
    return found


@pytest.mark.parametrize("args", [("validate",), ("validate", "--format", "json"), ("build",)])
def test_an_interrupted_command_says_so_and_exits_130(tmp_path, monkeypatch, args):
    project = _copy(tmp_path / "project")
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    _interrupt_at_catalogs(monkeypatch)
    code, out = forked.run(*args, cwd=project, env=env)
    assert (code, out) == (130, INTERRUPTED)
    assert _half_written(project, tmp_path / "cache") == []
    assert not (project / "exports").exists() or not any((project / "exports").iterdir())


def test_after_an_interrupted_validate_the_next_one_gives_the_verdict_of_a_fresh_one(tmp_path, monkeypatch):
    project = _copy(tmp_path / "project")
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    with monkeypatch.context() as patch:
        _interrupt_at_catalogs(patch)
        assert forked.run("validate", "--format", "json", cwd=project, env=env) == (130, INTERRUPTED)
    fresh = _copy(tmp_path / "fresh")
    expected = forked.run("validate", "--format", "json", cwd=fresh, env={"XDG_CACHE_HOME": str(tmp_path / "fresh-cache")})
    assert expected[0] == 0 and '"errors": 0' in expected[1]
    assert forked.run("validate", "--format", "json", cwd=project, env=env) == expected  # what the interrupted run kept, taken
    assert forked.run("validate", "--format", "json", cwd=project, env=env) == expected  # the verdict it stored
    assert forked.run("validate", "--format", "json", "--no-cache", cwd=project, env=env) == expected
    assert _half_written(project, tmp_path / "cache") == []


WORKERS_INTERRUPTED = """
import os, signal, sys, time
signal.signal(signal.SIGINT, signal.default_int_handler)
signal.pthread_sigmask(signal.SIG_SETMASK, set())
os.environ["AISTACK_BANK_JOBS"] = "2"
from aistack_bank import parallel

def task(index):
    def run():
        if index == 0:
            time.sleep(0.2)
            os.killpg(0, signal.SIGINT)  # Ctrl-C: every process of the command's group
        time.sleep(1)
        return index
    return run

try:
    if sys.argv[1] == "run_all":
        parallel.run_all([task(i) for i in range(4)], work=1, min_work=0)
    else:
        with parallel.Workers(True) as workers:
            assert workers.started
            workers.run_all([(time.sleep, (0.2,)), (os.killpg, (0, signal.SIGINT)), (time.sleep, (1,)), (time.sleep, (1,))])
    print("not interrupted")
except KeyboardInterrupt:
    print("interrupted")
"""


@pytest.mark.parametrize("pool", ["run_all", "Workers"])
def test_a_ctrl_c_interrupts_the_parent_and_no_worker(pool):
    """A Ctrl-C reaches every process of the command's process group: the workers leave it to
    the parent, which stops; none of them prints a traceback of its own."""
    import subprocess

    result = subprocess.run([sys.executable, "-c", WORKERS_INTERRUPTED, pool], capture_output=True, text=True, cwd=REPO, timeout=60,
                            start_new_session=True, env=dict(os.environ, PYTHONPATH=str(REPO)))
    assert (result.stdout, result.stderr) == ("interrupted\n", "")


def test_a_build_interrupted_while_it_writes_leaves_the_exports_as_they_were(tmp_path, monkeypatch):
    """Interrupted after a dozen of its files were made ready: no file of the build is renamed
    in, no temporary file is left, and the next build writes every file as a fresh one does."""
    from aistack_bank import build

    project = _copy(tmp_path / "project")
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    original, calls = build._write, []

    def interrupted(*args, **kwargs):
        calls.append(1)
        if len(calls) == 12:
            os.kill(os.getpid(), signal.SIGINT)
        return original(*args, **kwargs)

    with monkeypatch.context() as patch:
        patch.setattr(build, "_write", interrupted)
        assert forked.run("build", cwd=project, env=env) == (130, INTERRUPTED)
    assert not (project / "exports").exists() or not [p for p in (project / "exports").rglob("*") if p.is_file()]
    assert _half_written(project, tmp_path / "cache") == []
    code, out = forked.run("build", cwd=project, env=env)
    assert code == 0 and "file(s) written, 0 unchanged" in out, out
    fresh = _copy(tmp_path / "fresh")
    assert forked.run("build", cwd=fresh, env={"XDG_CACHE_HOME": str(tmp_path / "fresh-cache")}) == (code, out)
    assert {p.relative_to(project).as_posix(): p.read_bytes() for p in (project / "exports").rglob("*") if p.is_file()} == \
        {p.relative_to(fresh).as_posix(): p.read_bytes() for p in (fresh / "exports").rglob("*") if p.is_file()}


INTERRUPTED_WHILE_LOADING = """
import sys

class CtrlC:  # a Ctrl-C arriving while the command-line module imports its libraries
    def find_spec(self, name, path=None, target=None):
        if name == "typer":
            raise KeyboardInterrupt

sys.meta_path.insert(0, CtrlC())
sys.argv = ["bank", "validate"]
from aistack_bank.__main__ import run
run()
"""


def test_a_ctrl_c_while_the_command_loads_says_so_and_exits_130():
    import subprocess

    result = subprocess.run([sys.executable, "-c", INTERRUPTED_WHILE_LOADING], capture_output=True, text=True, cwd=REPO, timeout=60,
                            env=dict(os.environ, PYTHONPATH=str(REPO)))
    assert (result.returncode, result.stdout, result.stderr) == (130, "", INTERRUPTED)


@pytest.mark.skipif(sys.version_info < (3, 11), reason="tomllib")
def test_the_installed_script_and_python_m_run_the_same_function():
    """(The wheel test starts the installed `bank` script; this one ties its entry point to
    ``__main__.run``, which the test above interrupts.)"""
    import tomllib

    with open(REPO / "pyproject.toml", "rb") as pyproject:
        assert tomllib.load(pyproject)["project"]["scripts"] == {"bank": "aistack_bank.__main__:run"}
