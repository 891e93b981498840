"""No command waits for ever: a FIFO (or a device) where a project file belongs is refused at its
path, never opened for a read that blocks until some other process writes to it, nor read without
end. Each command runs in a child process (`forked.py`) given a minute: a child still running then
is killed and the test fails instead of waiting with it."""

from __future__ import annotations

import os

import pytest

import forked
from conftest import keep_only, topic_file

WAIT = 60
"""Seconds a command is given: far more than any of these takes on a dozen questions."""


def run(*args: str, cwd) -> tuple[int, str]:
    try:
        return forked.run(*args, cwd=cwd, memory=1 << 30, timeout=WAIT)
    except TimeoutError:
        pytest.fail(f"`bank {' '.join(args)}` did not finish (it waits for ever)")


def fifo_in_place_of(path) -> None:
    path.unlink()
    os.mkfifo(path)


def test_bank_new_refuses_a_fifo_as_the_topic_file(project):
    keep_only(project)
    topic = topic_file(project)
    fifo_in_place_of(topic)
    code, out = run("new", "--slug", "a-new-one", cwd=project)
    assert code == 1 and f"{topic.relative_to(project).as_posix()}: error E101: not a regular file" in out, out
    assert "Traceback" not in out and not list(topic.parent.glob("questions/*-a-new-one.yaml"))


def test_bank_new_does_not_read_a_device_as_the_topic_file(project):
    keep_only(project)
    topic = topic_file(project)
    topic.unlink()
    topic.symlink_to("/dev/zero")  # (read whole, it never ends)
    code, out = run("new", "--slug", "a-new-one", cwd=project)
    assert code == 1 and f"{topic.relative_to(project).as_posix()}: error E101: not a regular file (a device)" in out, out
    assert "Traceback" not in out


def test_a_fifo_as_the_journal_of_an_interrupted_import_is_refused(project):
    keep_only(project)
    staging = project / ".bank.import"
    staging.mkdir()
    os.mkfifo(staging / "journal.json")
    for command in (("validate", "--no-cache"), ("build", "--out", "exports")):
        code, out = run(*command, cwd=project)
        assert code == 1 and ".bank.import: error E742: an import was interrupted while it wrote the bank" in out, out
    code, out = run("import", "--recover", cwd=project)
    assert code == 1 and ".bank.import/journal.json: error E742: the journal of an interrupted import cannot be read" in out, out
    assert "Traceback" not in out


def test_a_fifo_as_a_staged_file_of_an_interrupted_import_is_refused(project):
    """Recovery copies the staged files in with SIGINT and SIGTERM held back: a read that waited
    there could be ended by SIGKILL only."""
    keep_only(project)
    staging = project / ".bank.import"
    staging.mkdir()
    target = "ai-hardware-software-stack/questions/q900-staged.yaml"
    (staging / "journal.json").write_text('{"state": "commit", "entries": [{"target": "%s", "staged": "n000000", "backup": null, "made": null}]}' % target)
    os.mkfifo(staging / "n000000")
    code, out = run("import", "--recover", cwd=project)
    assert code == 1 and ".bank.import/n000000: error E605: " in out and "not a regular file" in out, out
    assert "Traceback" not in out and not (project / "bank" / target).exists()
