"""The worker pool of `aistack_bank.parallel`: whatever state the work is in when the workers are
ended (an error in the parent, a Ctrl-C, a worker killed), nothing is left waiting, and every
result or exception comes back to the caller in order.

The cases that used to wait forever run in a child interpreter with a timeout, so that a
regression fails here instead of hanging the test run."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

from aistack_bank import parallel
from conftest import REPO

CLOSED_WHILE_WORKING = """
import os, sys
os.environ["AISTACK_BANK_JOBS"] = "2"
from aistack_bank import parallel

def echo(payload, index):
    return payload

for attempt in range(30):
    payload = bytes(4 << 20)
    with parallel.Workers(True) as workers:
        assert workers.started
        results = workers.submit([(echo, (payload, i)) for i in range(16)])
        next(results)  # the workers still busy handing back large results, their tasks queued
print("closed 30 times")
"""


def _child(code: str, timeout: float = 120) -> subprocess.CompletedProcess:
    """``code`` run by a child interpreter in a session of its own: on a timeout, it and every
    process it started are killed, and the test fails."""
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO,
                             env=dict(os.environ, PYTHONPATH=str(REPO)), start_new_session=True)
    try:
        out, err = child.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)
        child.communicate()
        pytest.fail(f"still waiting after {timeout} s")
    return subprocess.CompletedProcess(child.args, child.returncode, out, err)


def test_workers_ended_while_they_hand_back_large_results_leave_nothing_waiting():
    """(``multiprocessing.Pool.terminate`` waited forever here within a few attempts: a worker
    killed while writing its result kept the shared result queue's lock.)"""
    result = _child(CLOSED_WHILE_WORKING)
    assert (result.returncode, result.stdout, result.stderr) == (0, "closed 30 times\n", "")


WORKER_KILLED = """
import os, signal, sys
os.environ["AISTACK_BANK_JOBS"] = "2"
from aistack_bank import parallel

def task(index):
    def run():
        if index == 2:
            os.kill(os.getpid(), signal.SIGKILL)  # (as the kernel's out-of-memory killer would)
        return index
    return run

try:
    parallel.run_all([task(i) for i in range(6)], work=1, min_work=0)
except parallel.WorkerLost as exc:
    print("lost:", exc)
"""


def test_a_worker_killed_fails_its_call_instead_of_leaving_the_caller_waiting():
    result = _child(WORKER_KILLED)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "lost: a worker process was killed (signal 9) before handing back its result\n"


def _pooled(monkeypatch):
    monkeypatch.setenv("AISTACK_BANK_JOBS", "2")


def _fds() -> set[str]:
    return set(os.listdir("/proc/self/fd"))


def _children() -> list[int]:
    me = str(os.getpid())
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as stat:
                    if stat.read().rsplit(")", 1)[1].split()[1] == me:
                        found.append(int(entry))
            except (OSError, IndexError):
                pass
    return found


def _raise(message: str):
    raise LookupError(message)


def _pid_and(value):
    return os.getpid(), value, parallel.in_worker()


def test_results_come_back_in_order_whole_and_from_the_workers(monkeypatch):
    _pooled(monkeypatch)
    large = bytes(range(256)) * (40 << 12)  # 10 MB, larger than a pipe holds many times over
    with parallel.Workers(True) as workers:
        assert workers.started
        results = workers.run_all([(_pid_and, (large if i % 3 == 0 else i,)) for i in range(9)])
    assert [value for _, value, _ in results] == [large if i % 3 == 0 else i for i in range(9)]
    assert os.getpid() not in {pid for pid, _, _ in results}
    assert all(inside for _, _, inside in results) and not parallel.in_worker()


def test_an_exception_in_a_worker_is_raised_by_the_caller_with_the_workers_traceback(monkeypatch):
    _pooled(monkeypatch)
    with parallel.Workers(True) as workers:
        results = workers.run_each([(_pid_and, (1,)), (_raise, ("no such key",)), (_pid_and, (3,))])
        assert next(results)[1] == 1
        with pytest.raises(LookupError, match="no such key") as raised:
            next(results)
    assert "_raise" in str(raised.value.__cause__)


def _unpicklable():
    return lambda: None


def test_a_result_that_cannot_be_sent_back_is_an_error_not_a_wait(monkeypatch):
    _pooled(monkeypatch)
    with parallel.Workers(True) as workers:
        with pytest.raises(RuntimeError, match="could not be handed back"):
            workers.run_all([(_unpicklable, ())])
        assert workers.run_all([(_pid_and, (7,))])[0][1] == 7  # (the worker goes on)


def test_ending_the_workers_leaves_no_process_and_no_descriptor(monkeypatch):
    _pooled(monkeypatch)
    fds, children = _fds(), _children()
    with parallel.Workers(True) as workers:
        pending = workers.submit([(_pid_and, (bytes(8 << 20),)) for _ in range(6)])
        assert len(_children()) == len(children) + 2
    del pending
    assert _children() == children
    assert _fds() == fds
    assert parallel.run_all([lambda i=i: i for i in range(4)], work=1, min_work=0) == [0, 1, 2, 3]
    assert _children() == children and _fds() == fds


def _pipes() -> set[str]:
    """The pipes this process holds an end of (``pipe:[inode]``)."""
    found = set()
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if target.startswith("pipe:"):
            found.add(target)
    return found


def test_a_second_pool_holds_no_end_of_the_first_pools_pipes(monkeypatch):
    """A worker of a pool started while another is running keeps only its own pipes: the first
    pool's workers see the end of their tasks' pipe when it is closed, whoever was forked since."""
    _pooled(monkeypatch)
    first = parallel._Pool(2)
    try:
        own = {os.readlink(f"/proc/self/fd/{fd}") for w in first.workers for fd in (w.tasks, w.results)}
        own.add(os.readlink(f"/proc/self/fd/{first.wake_read}"))
        with parallel.Workers(True) as second:
            held = second.run_all([(_pipes, ()), (_pipes, ())])
            assert all(len(pipes) >= 2 and not (own & pipes) for pipes in held), (own, held)
            assert list(first.imap([(_pid_and, (5,))]))[0][1] == 5
    finally:
        first.terminate()


def test_a_worker_starts_no_pool_of_its_own(monkeypatch):
    _pooled(monkeypatch)
    inner = parallel.run_all([lambda: parallel.run_all([lambda: os.getpid(), lambda: os.getpid()], work=1, min_work=0)] * 2,
                             work=1, min_work=0)
    for pids in inner:
        assert pids[0] == pids[1] != os.getpid()  # (run in the worker itself)


def test_a_ctrl_c_while_waiting_for_a_result_ends_the_workers(monkeypatch):
    """The caller waiting for a result is interrupted (SIGINT raises KeyboardInterrupt there);
    the workers, which ignore SIGINT, are ended with the pool."""
    _pooled(monkeypatch)
    children = _children()
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            with parallel.Workers(True) as workers:
                results = workers.submit([(_sleep_then, (0.1, 1)), (_sleep_then, (30, 2))])
                assert next(results) == 1
                import threading

                timer = threading.Timer(0.2, os.kill, (os.getpid(), signal.SIGINT))
                timer.start()
                try:
                    next(results)
                finally:
                    timer.cancel()
    finally:
        signal.signal(signal.SIGINT, previous)
    assert _children() == children


def _sleep_then(seconds: float, value):
    import time

    time.sleep(seconds)
    return value


PARENT_KILLED = """
import os, signal, sys
os.environ["AISTACK_BANK_JOBS"] = "2"
from aistack_bank import parallel

print("before the workers")  # (still in this process's buffer when they fork)
workers = parallel.Workers(True)
assert workers.started
print(" ".join(str(worker.pid) for worker in workers.pool.workers), flush=True)
os.kill(os.getpid(), signal.SIGKILL)  # (as the out-of-memory killer would: nothing is cleaned up)
"""


def test_workers_whose_parent_is_killed_end_and_write_nothing_of_the_parents():
    """A worker holds no end of its own pipes but its own: when the parent is killed, it sees the
    end of its tasks and exits, instead of waiting for ever (holding the parent's output open)."""
    result = _child(PARENT_KILLED, timeout=60)
    assert result.returncode == -signal.SIGKILL
    lines = result.stdout.splitlines()
    assert lines[0] == "before the workers" and len(lines) == 2, result.stdout
    import time

    deadline = time.monotonic() + 30  # (a worker's output is closed a moment before it has ended)
    for pid in map(int, lines[1].split()):
        while True:
            try:
                with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
                    state = stat.read().rsplit(")", 1)[1].split()[0]
            except FileNotFoundError:
                break
            if state == "Z":
                break
            assert time.monotonic() < deadline, (pid, state)
            time.sleep(0.01)


INTERRUPTED_WHILE_FORKING = """
import os, signal
signal.signal(signal.SIGINT, signal.default_int_handler)  # (a Ctrl-C raises, even in a run started with SIGINT ignored)
os.environ["AISTACK_BANK_JOBS"] = "2"
from aistack_bank import parallel

fork_worker = parallel._Pool._fork_worker

def forked_then_interrupted():
    worker = fork_worker()
    os.kill(os.getpid(), signal.SIGINT)  # (a Ctrl-C while the workers are forked)
    return worker

parallel._Pool._fork_worker = staticmethod(forked_then_interrupted)
try:
    parallel._Pool(2)
except KeyboardInterrupt:
    print("interrupted")
me = str(os.getpid())
children = []
for entry in os.listdir("/proc"):
    if entry.isdigit():
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii") as stat:
                if stat.read().rsplit(")", 1)[1].split()[1] == me:
                    children.append(entry)
        except (OSError, IndexError):
            pass
print("children:", len(children))
"""


def test_a_ctrl_c_while_the_workers_are_forked_leaves_no_worker():
    result = _child(INTERRUPTED_WHILE_FORKING, timeout=60)
    assert (result.returncode, result.stdout, result.stderr) == (0, "interrupted\nchildren: 0\n", "")


def test_a_pipe_that_cannot_be_made_leaves_no_descriptor(monkeypatch):
    _pooled(monkeypatch)
    pipe, made = os.pipe, []

    def failing_pipe():
        if len(made) == 2:  # (the wake-up pipe, then the first worker's task pipe)
            raise OSError(24, "Too many open files")
        made.append(pipe())
        return made[-1]

    fds = _fds()
    monkeypatch.setattr(os, "pipe", failing_pipe)
    with parallel.Workers(True) as workers:
        assert not workers.started
    monkeypatch.setattr(os, "pipe", pipe)
    assert _fds() == fds


EVERY_WORKER_GONE_WHILE_IDLE = """
import os, signal, time
os.environ["AISTACK_BANK_JOBS"] = "2"
from aistack_bank import parallel

pool = parallel._Pool(2)
for worker in pool.workers:
    os.kill(worker.pid, signal.SIGKILL)
for worker in pool.workers:  # (until each is a zombie: gone, not yet reaped)
    while open(f"/proc/{worker.pid}/stat").read().rsplit(")", 1)[1].split()[0] != "Z":
        time.sleep(0.01)
with pool.cond:  # (three calls queued before the pool sends any)
    results = [pool.imap([(os.getpid, ())]) for _ in range(3)]
for each in results:
    try:
        next(each)
    except parallel.WorkerLost as exc:
        print("lost")
pool.terminate()
"""


def test_calls_left_when_every_worker_is_gone_fail_instead_of_waiting():
    result = _child(EVERY_WORKER_GONE_WHILE_IDLE, timeout=60)
    assert (result.returncode, result.stdout, result.stderr) == (0, "lost\nlost\nlost\n", "")
