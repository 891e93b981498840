"""`bank` freezes what its process holds when its command has ended (aistack_bank/__main__.py):
the interpreter's shutdown then does not walk the whole bank a command read, and the command's
exit code, output and interruption are as before."""

import gc
import subprocess
import sys

import pytest

import aistack_bank.cli
from aistack_bank.__main__ import run


@pytest.fixture
def unfrozen():
    gc.unfreeze()
    yield
    gc.unfreeze()


@pytest.mark.parametrize("end", [SystemExit(0), SystemExit(1), KeyboardInterrupt(), None])
def test_what_the_process_holds_is_frozen_when_the_command_ends(monkeypatch, unfrozen, end):
    held = [[] for _ in range(1000)]  # (objects the collector tracks, held by this frame)

    def command():
        if end is not None:
            raise end

    monkeypatch.setattr(aistack_bank.cli, "main", command)
    assert gc.get_freeze_count() == 0
    if end is None:
        run()
    else:
        with pytest.raises(type(end)):
            run()
    assert gc.get_freeze_count() >= len(held)


def test_the_command_runs_to_its_exit_code_and_output(tmp_path):
    done = subprocess.run([sys.executable, "-m", "aistack_bank", "--version"], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0 and done.stdout.strip() and not done.stderr
    done = subprocess.run([sys.executable, "-m", "aistack_bank", "-C", str(tmp_path / "missing"), "validate"], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode != 0 and "Traceback" not in done.stderr and done.stderr.strip()
