"""A pool's workers ended as soon as their work is done: once the caller has given its last calls
(``last=True``, as :func:`aistack_bank.parallel.run_each` does), each worker is killed when no
call is left for it, while the caller goes on with the results, and reaped when the pool ends;
whatever happens (an error, a Ctrl-C, a worker that died), no process is left once it has ended,
and every result comes back whole and in order."""

from __future__ import annotations

import os
import signal
import time

import pytest

from aistack_bank import parallel
from test_parallel_pool import _children, _fds, _pid_and, _pooled, _raise, _sleep_then


def _state(pid: int) -> str | None:
    """The process ``pid``'s state letter (``Z``: ended, not yet reaped), None once reaped."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return None


def _ended(pid: int, seconds: float = 20.0) -> bool:
    """Whether ``pid`` has ended (a zombie not yet reaped, or gone) within ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if _state(pid) in ("Z", "X", None):
            return True
        time.sleep(0.01)
    return False


def test_a_worker_is_ended_once_the_last_calls_are_done_and_reaped_when_the_pool_ends(monkeypatch):
    _pooled(monkeypatch)
    fds, children = _fds(), _children()
    large = bytes(range(256)) * (40 << 12)
    with parallel.Workers(True) as workers:
        pids = [worker.pid for worker in workers.pool.workers]
        results = workers.submit([(_pid_and, (large if i % 2 else i,)) for i in range(7)], last=True)
        values = list(results)
        assert [value for _, value, _ in values] == [large if i % 2 else i for i in range(7)]
        assert all(_ended(pid) for pid in pids)  # (before the pool ends: killed, not reaped yet)
        assert all(_state(pid) == "Z" for pid in pids)
        with pytest.raises(RuntimeError, match="after the pool's last calls"):
            workers.submit([(_pid_and, (1,))])
    assert _children() == children and _fds() == fds


def _any_ended(pids: list[int], seconds: float = 20.0) -> bool:
    """Whether one of ``pids`` has ended within ``seconds``, all of them watched at once (``any``
    over :func:`_ended` waits out the whole time on a process that goes on before it looks at
    the next one)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if any(_state(pid) in ("Z", "X", None) for pid in pids):
            return True
        time.sleep(0.01)
    return False


def _wait_for(path: str, value):
    while not os.path.exists(path):
        time.sleep(0.01)
    return value


def test_a_worker_left_without_a_call_is_ended_at_once_the_other_when_its_call_is_done(monkeypatch, tmp_path):
    _pooled(monkeypatch)
    children = _children()
    go = str(tmp_path / "go")
    with parallel.Workers(True) as workers:
        results = workers.submit([(_wait_for, (go, "slow"))], last=True)
        idle = [worker.pid for worker in workers.pool.workers]
        assert _any_ended(idle)  # (the worker given nothing)
        assert not all(_state(pid) in ("Z", "X", None) for pid in idle)  # (the other still works)
        open(go, "w").close()
        assert list(results) == ["slow"]
        assert all(_ended(pid) for pid in idle)
    assert _children() == children


def test_without_last_the_workers_wait_for_more_calls(monkeypatch):
    _pooled(monkeypatch)
    children = _children()
    with parallel.Workers(True) as workers:
        pids = [worker.pid for worker in workers.pool.workers]
        assert [value for _, value, _ in workers.run_all([(_pid_and, (i,)) for i in range(3)])] == [0, 1, 2]
        time.sleep(0.2)
        assert all(_state(pid) not in ("Z", "X", None) for pid in pids)
        assert [value for _, value, _ in workers.run_each([(_pid_and, (5,))], last=True)] == [5]
    assert _children() == children


def test_run_each_ends_its_workers_before_the_caller_takes_the_last_result(monkeypatch):
    _pooled(monkeypatch)
    children = _children()
    seen = []

    def task(i):
        return lambda: (os.getpid(), i)

    for pid, i in parallel.run_each([task(i) for i in range(6)], work=1, min_work=0):
        seen.append(pid)
        if i == 5:
            assert all(_ended(p) for p in set(seen))  # (while the caller still has the last result)
    assert _children() == children


def test_an_error_after_the_last_calls_leaves_no_process(monkeypatch):
    _pooled(monkeypatch)
    children = _children()
    with parallel.Workers(True) as workers:
        results = workers.run_each([(_pid_and, (1,)), (_raise, ("no such key",)), (_pid_and, (3,))], last=True)
        assert next(results)[1] == 1
        with pytest.raises(LookupError, match="no such key"):
            next(results)
    assert _children() == children


def test_a_ctrl_c_after_the_last_calls_leaves_no_process(monkeypatch):
    _pooled(monkeypatch)
    children = _children()
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            with parallel.Workers(True) as workers:
                results = workers.submit([(_sleep_then, (0.1, 1)), (_sleep_then, (30, 2))], last=True)
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


def _die():
    os.kill(os.getpid(), signal.SIGKILL)


def test_a_worker_that_died_after_the_last_calls_fails_its_call_and_leaves_no_process(monkeypatch):
    _pooled(monkeypatch)
    children = _children()
    with parallel.Workers(True) as workers:
        results = workers.submit([(_pid_and, (1,)), (_die, ()), (_pid_and, (3,))], last=True)
        assert next(results)[1] == 1
        with pytest.raises(parallel.WorkerLost):
            next(results)
    assert _children() == children
