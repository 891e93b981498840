"""Independent pieces of a cold run on both (or all) cores, with the serial run's exact output.

:func:`run_all` takes a list of zero-argument functions and returns their results in list
order. When the work is big enough to pay for starting processes (the caller says how big it
is), the machine has more than one core and the operating system can fork, the functions run
in forked worker processes: they see everything the parent had read (fork shares it), and only
their results (diagnostics: plain data) travel back. Otherwise, or when a worker cannot start,
they run one after the other in this process. Either way the results are the same and in the
same order: parallelism changes the time, never the verdict.

:class:`Workers` are processes forked early, before the caller reads its large inputs, and
given picklable calls later: each holds what its calls are sent, not the pages the parent
filled after forking it.

``AISTACK_BANK_JOBS`` sets the number of processes (``1`` turns the pool off).
"""

from __future__ import annotations

import os
from typing import Any, Callable

POOL_MIN_WORK = 20_000
"""Least work (the caller's unit: translated fields to verify) for which processes are started."""

_TASKS: list[Callable[[], Any]] = []


def jobs() -> int:
    """How many processes cold work may use: ``AISTACK_BANK_JOBS``, else the usable cores."""
    try:
        wanted = int(os.environ.get("AISTACK_BANK_JOBS", "0"))
    except ValueError:
        wanted = 0
    if wanted > 0:
        return wanted
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _run(index: int) -> Any:
    return _TASKS[index]()


def _leave_interrupts_to_the_parent() -> None:
    """In a worker as it starts: SIGINT ignored. A Ctrl-C reaches every process of the command;
    the parent stops the work and ends its workers (and says once that it was interrupted)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _pool(context, processes: int):
    """``context.Pool(processes)``, each worker ignoring SIGINT: held back (blocked) in this
    thread while the workers are forked, so that none is interrupted before it ignores it, and
    delivered here once they are."""
    import signal

    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        return context.Pool(processes, initializer=_leave_interrupts_to_the_parent)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def run_all(tasks: list[Callable[[], Any]], work: int, min_work: int | None = None) -> list[Any]:
    """The result of each task, in order; in worker processes when ``work`` is at least
    ``min_work`` (default :data:`POOL_MIN_WORK`, in the caller's unit): :func:`run_each`, all at once."""
    return list(run_each(tasks, work, min_work))


def run_each(tasks: list[Callable[[], Any]], work: int, min_work: int | None = None):
    """The result of each task, in order, each yielded as soon as it and those before it are
    done (the caller can write one result and drop it before the next arrives); in worker
    processes as :func:`run_all` decides.

    The parent's objects are frozen out of the garbage collector's reach before the workers
    fork (``gc.freeze``): a collection in a worker would otherwise write to every page it
    shares with the parent, and each worker would come to hold a private copy of them."""
    workers = min(jobs(), len(tasks))
    if workers < 2 or work < (POOL_MIN_WORK if min_work is None else min_work):
        yield from (task() for task in tasks)
        return
    import gc
    import multiprocessing

    try:
        context = multiprocessing.get_context("fork")
    except ValueError:  # no fork on this platform
        yield from (task() for task in tasks)
        return
    _TASKS[:] = tasks
    gc.freeze()
    try:
        try:
            pool = _pool(context, workers)
        except OSError:
            pool = None
        if pool is None:
            yield from (task() for task in tasks)
            return
        with pool:
            yield from pool.imap(_run, range(len(tasks)), chunksize=1)
    finally:
        gc.unfreeze()
        _TASKS.clear()


def _call(call: tuple[Callable[..., Any], tuple]) -> Any:
    function, args = call
    return function(*args)


class Workers:
    """A pool of processes forked now, while the parent is small, for work that comes later.

    Started only when ``wanted`` (the caller's guess that the work will be big enough), the
    machine has more than one core and the operating system can fork; otherwise, or when a
    process cannot start, :attr:`started` is False and the caller runs its work as before.
    The calls given to :meth:`run_all` are module-level functions with picklable arguments:
    what a worker holds is what it is sent. Use as a context manager (the processes end with it)."""

    def __init__(self, wanted: bool) -> None:
        self.pool = None
        count = jobs()
        if not wanted or count < 2:
            return
        import multiprocessing

        try:
            context = multiprocessing.get_context("fork")
            self.pool = _pool(context, count)
        except (ValueError, OSError):
            self.pool = None

    @property
    def started(self) -> bool:
        return self.pool is not None

    def run_all(self, calls: list[tuple[Callable[..., Any], tuple]]) -> list[Any]:
        """The result of each ``(function, arguments)``, in order, computed in the workers."""
        return list(self.run_each(calls))

    def submit(self, calls: list[tuple[Callable[..., Any], tuple]]):
        """The calls sent to the workers now (the caller goes on while they work); iterating
        the returned object gives the result of each, in order, as :meth:`run_each`."""
        assert self.pool is not None
        return self.pool.imap(_call, calls, chunksize=1)

    def run_each(self, calls: list[tuple[Callable[..., Any], tuple]]):
        """The result of each ``(function, arguments)``, in order, each yielded as soon as it
        and those before it are done (the caller can use one result and drop it before the
        next arrives)."""
        assert self.pool is not None
        yield from self.pool.imap(_call, calls, chunksize=1)

    def close(self) -> None:
        if self.pool is not None:
            self.pool.terminate()
            self.pool.join()
            self.pool = None

    def __enter__(self) -> "Workers":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
