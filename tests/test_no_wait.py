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

