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

The pool is this module's own (:class:`_Pool`), not ``multiprocessing.Pool``: each worker has a
pipe of its own each way and no lock is shared between processes, so ending the workers at any
point (an error, a Ctrl-C) leaves nothing waiting. (``multiprocessing.Pool.terminate`` waits
forever when it kills a worker that holds the lock of the pool's shared result queue, which a
worker handing back a large result does: seen as a hung `bank export` and a hung test run.) A
worker that ends before handing back its result (killed, out of memory) fails that call with
:class:`WorkerLost` instead of leaving the caller waiting.

``AISTACK_BANK_JOBS`` sets the number of processes (``1`` turns the pool off).
"""

from __future__ import annotations

import os
import sys
from collections import deque
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


def in_worker() -> bool:
    """Whether this process is a pool's worker (which starts no pool of its own)."""
    return _IN_WORKER


class cores_busy:
    """Within it, :func:`run_all` and :func:`run_each` run their tasks in this process: the
    caller's :class:`Workers` keep every core busy meanwhile (a catalog each while the parent
    lints), and processes forked now would only share those cores with them, each fork
    costing its page faults. On the 10 000-question bank, the answer-leak lint's matching
    forked beside the catalogs' workers took 0.09-0.80 s more CPU than matching here in ten of
    eleven alternated pairs of cold validates (the same output)."""

    def __enter__(self) -> "cores_busy":
        _BUSY[0] += 1
        return self

    def __exit__(self, *exc) -> None:
        _BUSY[0] -= 1


_BUSY = [0]
"""How many :class:`cores_busy` blocks this process is in."""


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
    if workers < 2 or work < (POOL_MIN_WORK if min_work is None else min_work) or _IN_WORKER or _BUSY[0] or not hasattr(os, "fork"):
        yield from (task() for task in tasks)
        return
    import gc

    _TASKS[:] = tasks
    gc.freeze()
    try:
        try:
            pool = _Pool(workers)
        except OSError:
            pool = None
        if pool is None:
            yield from (task() for task in tasks)
            return
        try:
            # (every call given at once: each worker is ended as soon as nothing is left for it)
            yield from pool.imap([(_run, (index,)) for index in range(len(tasks))], last=True)
        finally:
            pool.terminate()
    finally:
        gc.unfreeze()
        _TASKS.clear()


def _run(index: int) -> Any:
    return _TASKS[index]()


class Workers:
    """A pool of processes forked now, while the parent is small, for work that comes later.

    Started only when ``wanted`` (the caller's guess that the work will be big enough), the
    machine has more than one core and the operating system can fork; otherwise, or when a
    process cannot start, :attr:`started` is False and the caller runs its work as before.
    The calls given to :meth:`run_all` are module-level functions with picklable arguments:
    what a worker holds is what it is sent. Use as a context manager (the processes end with it)."""

    def __init__(self, wanted: bool, most: int | None = None, imports: tuple[str, ...] = ()) -> None:
        """``imports``: modules the workers' calls will import, which this process imports once
        now, before forking them, instead of each worker importing its own copy after the fork
        (only when the workers start)."""
        self.pool: _Pool | None = None
        self.holding: dict = {}
        """The caller's own note of what it had a worker keep for its later calls (by the
        caller's key: the worker's pid, for :meth:`submit`'s ``to``)."""
        count = jobs()
        if not wanted or count < 2 or _IN_WORKER or not hasattr(os, "fork"):
            return
        if imports:
            import importlib

            for name in imports:
                importlib.import_module(name)
        try:
            self.pool = _Pool(count if most is None else min(most, count))  # (``most``: at most so many processes)
        except OSError:
            self.pool = None

    @property
    def started(self) -> bool:
        return self.pool is not None

    @property
    def size(self) -> int:
        """How many worker processes the pool has (0 when not started)."""
        return len(self.pool.workers) if self.pool is not None else 0

    def run_all(self, calls: list[tuple[Callable[..., Any], tuple]]) -> list[Any]:
        """The result of each ``(function, arguments)``, in order, computed in the workers."""
        return list(self.run_each(calls))

    @property
    def pids(self) -> list[int]:
        """The process id of each worker alive (none when not started): what :meth:`submit`'s
        ``to`` names a worker by."""
        return [w.pid for w in self.pool.workers if w.pid is not None and not w.killed] if self.pool is not None else []

    def submit(self, calls: list[tuple[Callable[..., Any], tuple]], last: bool = False, to: list[int | None] | None = None):
        """The calls sent to the workers now (the caller goes on while they work); iterating
        the returned object gives the result of each, in order, as :meth:`run_each`.
        ``last``: no call will follow these, and each worker is ended as soon as no call is
        left for it (see :meth:`_Pool.imap`). ``to``: for each call, the worker (one of
        :attr:`pids`) that is to make it, or None for any (a call for a worker that has ended
        goes to any): a call that uses what an earlier call left in that worker (:attr:`holding`)."""
        assert self.pool is not None
        return self.pool.imap(calls, last, to)

    def run_each(self, calls: list[tuple[Callable[..., Any], tuple]], last: bool = False):
        """The result of each ``(function, arguments)``, in order, each yielded as soon as it
        and those before it are done (the caller can use one result and drop it before the
        next arrives); ``last`` as for :meth:`submit`."""
        assert self.pool is not None
        yield from self.pool.imap(calls, last)

    def close(self) -> None:
        if self.pool is not None:
            self.pool.terminate()
            self.pool = None

    def __enter__(self) -> "Workers":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class WorkerLost(RuntimeError):
    """A worker process ended (killed, out of memory) before it handed back a call's result."""


class _RemoteTraceback(Exception):
    """The traceback of an exception raised in a worker: its ``__cause__`` in this process."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


_IN_WORKER = False
_OPEN: set[int] = set()
"""The descriptors this process holds of its pools' pipes: a worker forked later closes those
not its own, so that only a pool's parent and the worker at the other end hold a pipe's ends
(a worker's end of file is seen, and a write to a worker killed fails, at once)."""


class _Worker:
    __slots__ = ("pid", "tasks", "results", "busy", "killed")

    def __init__(self, pid: int, tasks: int, results: int) -> None:
        self.pid: int | None = pid
        self.tasks, self.results = tasks, results
        self.busy: tuple[dict, int] | None = None  # (the results of its batch of calls, the call's index)
        self.killed = False  # (killed once its work was done, reaped by _kill)


class _Pool:
    """Processes forked now, each with a pipe of its own each way, and a thread of this process
    that sends each queued call to an idle worker (in order) and takes back its result.
    :meth:`terminate` kills and reaps the workers whatever they are doing: no lock is shared
    with them, so nothing is left held. Once the caller has given its last calls
    (``imap(..., last=True)``), the thread kills each worker as soon as it is idle and no call
    is left, and :meth:`terminate` only reaps it: the system tears down a large worker's memory
    (about 50 ms of CPU for 280 MB) while the caller does its last work, not while it waits."""

    def __init__(self, processes: int) -> None:
        import signal
        import threading

        self.workers: list[_Worker] = []
        self.pending: deque[tuple[dict, int, tuple, int | None]] = deque()  # (results, index, call, the worker it is for)
        self.cond = threading.Condition()
        self.stopping = False
        self.last = False  # (the caller's last calls given: see imap)
        self.failure: BaseException | None = None
        self.thread: threading.Thread | None = None
        self.wake_read, self.wake_write = os.pipe()
        _OPEN.update((self.wake_read, self.wake_write))
        os.set_blocking(self.wake_write, False)
        # what this process has buffered for its output written now, not once more by each
        # worker that flushes its copy as it exits
        _flush_output()
        # SIGINT held back in this thread while the workers are forked, so that none is
        # interrupted before it ignores it, and delivered here once they are
        # (a KeyboardInterrupt raised as it is delivered, or a thread that cannot start, ends the
        # workers forked)
        held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            try:
                for _ in range(processes):
                    self.workers.append(self._fork_worker())
            finally:
                signal.pthread_sigmask(signal.SIG_SETMASK, held)
            self.thread = threading.Thread(target=self._dispatch, name="pool-dispatch", daemon=True)
            self.thread.start()
        except BaseException:
            if self.thread is not None and self.thread.ident is not None:  # (started: ended as it ends)
                self.terminate()
                raise
            self._kill()
            self._close_pipes()
            raise

    @staticmethod
    def _fork_worker() -> _Worker:
        task_read, task_write = os.pipe()
        try:
            result_read, result_write = os.pipe()
        except BaseException:
            os.close(task_read)
            os.close(task_write)
            raise
        try:
            pid = os.fork()
        except BaseException:
            for fd in (task_read, task_write, result_read, result_write):
                os.close(fd)
            raise
        if pid == 0:  # the worker: never returns into the caller
            code = 1
            try:
                os.close(task_write)  # (the parent's ends: with them gone, the parent's end is seen here)
                os.close(result_read)
                _become_worker(keep={task_read, result_write})
                _serve(task_read, result_write)
                code = 0
            finally:
                _flush_output()
                os._exit(code)
        os.close(task_read)
        os.close(result_write)
        _OPEN.update((task_write, result_read))
        return _Worker(pid, task_write, result_read)

    def imap(self, calls: list[tuple[Callable[..., Any], tuple]], last: bool = False, to: list[int | None] | None = None):
        """The calls queued now (idle workers start on them at once); iterating the returned
        generator gives each result in order, or raises the exception its call raised.
        ``last``: the caller sends no call after these; each worker is killed once it has
        handed back its last result (reaped by :meth:`terminate`). ``to``: the pid of the
        worker each call is for (None: any; see :meth:`_take`)."""
        done: dict[int, tuple[bool, Any]] = {}
        targets = list(to) if to is not None else [None] * len(calls)
        if len(targets) != len(calls):
            raise ValueError("one worker (or None) for each call")
        with self.cond:
            if self.last:
                raise RuntimeError("calls given after the pool's last calls")
            self.pending.extend((done, index, call, target) for (index, call), target in zip(enumerate(calls), targets))
            self.last = last
        self._wake()
        return self._results(done, len(calls))

    def _results(self, done: dict, count: int):
        for index in range(count):
            with self.cond:
                while index not in done:
                    if self.failure is not None:
                        raise WorkerLost(f"the workers stopped: {self.failure!r}") from self.failure
                    if not self.thread.is_alive():
                        raise WorkerLost("the workers were ended")
                    self.cond.wait(1.0)
                ok, value = done.pop(index)
            if ok:
                yield value
                value = None
            else:
                exc, remote = value
                if remote:
                    exc.__cause__ = _RemoteTraceback(remote)
                raise exc

    def _wake(self) -> None:
        try:
            os.write(self.wake_write, b"\0")
        except OSError:  # (full: the thread is woken already; closed: it has ended)
            pass

    def _finish(self, worker: _Worker, ok: bool, value: Any) -> None:
        done, index = worker.busy
        worker.busy = None
        with self.cond:
            done[index] = (ok, value)
            self.cond.notify_all()

    def _dispatch(self) -> None:
        import pickle
        import select
        import signal

        # a write to a worker just killed fails here (EPIPE), whatever SIGPIPE does to the process
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGPIPE})
        try:
            while True:
                with self.cond:
                    if self.stopping:
                        return
                    sends = []
                    for worker in self.workers:
                        if worker.busy is None and self.pending:
                            found = self._take(worker)
                            if found is not None:
                                sends.append((worker, found))
                for worker, (done, index, call, _) in sends:
                    worker.busy = (done, index)
                    try:
                        data = pickle.dumps(call, pickle.HIGHEST_PROTOCOL)
                    except BaseException as exc:
                        self._finish(worker, False, (exc, ""))
                        continue
                    try:
                        _send(worker.tasks, data)
                    except OSError:
                        self._lost(worker)
                    data = None
                if self.last:
                    self._end_idle()
                if not self.workers:
                    raise WorkerLost("every worker process ended")
                busy = {w.results: w for w in self.workers if w.busy is not None}
                poll = select.poll()
                poll.register(self.wake_read, select.POLLIN)
                for fd in busy:
                    poll.register(fd, select.POLLIN)
                for fd, _ in poll.poll():
                    if fd == self.wake_read:
                        os.read(self.wake_read, 1 << 16)
                        continue
                    worker = busy[fd]
                    try:
                        data = _receive(worker.results)
                    except (EOFError, OSError):
                        self._lost(worker)
                        continue
                    try:
                        ok, value = pickle.loads(data)
                    except BaseException as exc:
                        ok, value = False, (exc, "")
                    data = None
                    self._finish(worker, ok, value)
                    value = None
        except BaseException as exc:
            with self.cond:
                if not self.stopping:
                    self.failure = exc
                self.cond.notify_all()

    def _eligible(self, worker: _Worker, target: int | None) -> bool:
        """Whether a call for ``target`` (a worker's pid, or None) may go to ``worker``: it is
        that worker's, any worker's, or that of a worker no longer in the pool."""
        return target is None or target == worker.pid or all(w.pid != target for w in self.workers)

    def _take(self, worker: _Worker):
        """The first pending call that may go to ``worker`` (:meth:`_eligible`), taken out of
        the queue; None when there is none (under the condition's lock)."""
        for position, item in enumerate(self.pending):
            if self._eligible(worker, item[3]):
                del self.pending[position]
                return item
        return None

    def _end_idle(self) -> None:
        """After the caller's last calls: each worker with no call of its own and none left
        that may go to it killed now (not waited for: :meth:`_kill` reaps it as the pool ends).
        Under the condition's lock, so that no worker is killed once :meth:`terminate` has
        begun to reap."""
        with self.cond:
            if self.stopping:
                return
            for worker in self.workers:
                if (worker.busy is None and not worker.killed and worker.pid is not None
                        and not any(self._eligible(worker, item[3]) for item in self.pending)):
                    worker.killed = True
                    _sigkill(worker.pid)

    def _lost(self, worker: _Worker) -> None:
        """``worker`` ended: its call fails; the others go on with the workers left."""
        with self.cond:
            if self.stopping:
                return
        how = "ended"
        try:
            _, status = os.waitpid(worker.pid, 0)
            how = f"was killed (signal {os.WTERMSIG(status)})" if os.WIFSIGNALED(status) else f"exited (code {os.WEXITSTATUS(status)})"
        except (ChildProcessError, TypeError):
            pass
        worker.pid = None
        self.workers.remove(worker)
        _close(worker.tasks, worker.results)
        self._finish(worker, False, (WorkerLost(f"a worker process {how} before handing back its result"), ""))

    def terminate(self) -> None:
        """The workers killed and reaped, the thread ended, the pipes closed: whatever state
        the work is in, nothing is left waiting."""
        with self.cond:
            self.stopping = True
            self.cond.notify_all()
        self._kill()
        self._wake()
        if self.thread.is_alive():
            self.thread.join()
        self._close_pipes()
        self.workers = []

    def _close_pipes(self) -> None:
        _close(*[fd for w in self.workers for fd in (w.tasks, w.results)], self.wake_read, self.wake_write)

    def _kill(self) -> None:
        workers = list(self.workers)
        for worker in workers:
            if worker.pid is not None:
                _sigkill(worker.pid)
        for worker in workers:
            pid = worker.pid
            if pid is not None:
                try:
                    os.waitpid(pid, 0)
                except ChildProcessError:
                    pass
                worker.pid = None


def _sigkill(pid: int) -> None:
    """Kill the worker ``pid`` (not reaped: see :meth:`_Pool._kill`); one already gone is no error."""
    import signal

    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def _flush_output() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except BaseException:
            pass


def _close(*fds: int) -> None:
    for fd in fds:
        if fd in _OPEN:
            _OPEN.discard(fd)
            try:
                os.close(fd)
            except OSError:
                pass


def _become_worker(keep: set[int]) -> None:
    """In a worker as it starts: SIGINT ignored (a Ctrl-C reaches every process of the command;
    the parent stops the work and ends its workers, and says once that it was interrupted), the
    ends of other workers' and pools' pipes closed, standard input read from /dev/null."""
    import signal

    global _IN_WORKER
    _IN_WORKER = True
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    _close(*(_OPEN - keep))
    _OPEN.clear()
    try:
        if sys.stdin is not None:
            sys.stdin.close()
        sys.stdin = open(os.devnull, encoding="utf-8")
    except (OSError, ValueError):
        pass


def _serve(tasks: int, results: int) -> None:
    """A worker's loop: each message read from ``tasks`` is a pickled ``(function, args)``; the
    result, or the exception the call raised (with its traceback), goes back pickled on
    ``results``; until the end of ``tasks``."""
    import pickle
    import traceback

    while True:
        try:
            message = _receive(tasks)
        except EOFError:
            return
        try:
            function, args = pickle.loads(message)
            message = None
            outcome = (True, function(*args))
        except BaseException as exc:  # (handed back: raised where the result is used)
            outcome = (False, (exc, traceback.format_exc()))
        try:
            data = pickle.dumps(outcome, pickle.HIGHEST_PROTOCOL)
        except BaseException as exc:
            what = "result" if outcome[0] else f"exception ({outcome[1][0]!r})"
            data = pickle.dumps((False, (RuntimeError(f"a worker's {what} could not be handed back: {exc!r}"), "")), pickle.HIGHEST_PROTOCOL)
        outcome = None
        _send(results, data)
        data = None


_HEADER = 8


def _send(fd: int, data: bytes) -> None:
    """``data`` written whole on the pipe ``fd``, after its length.

    (Not ``multiprocessing.connection.Connection``, as fast here (64 MB in 85–135 ms either way):
    it closes its descriptor when it is collected, and the pools own theirs by number in
    :data:`_OPEN`, closed in each worker forked later.)"""
    header = len(data).to_bytes(_HEADER, "little")
    if len(data) < 1 << 16:
        _write_all(fd, memoryview(header + data))
    else:
        _write_all(fd, memoryview(header))
        _write_all(fd, memoryview(data))


def _write_all(fd: int, view: memoryview) -> None:
    while view:
        view = view[os.write(fd, view):]


def _receive(fd: int) -> bytes | bytearray:
    """The next message :func:`_send` wrote on the pipe ``fd``; EOFError at the pipe's end
    (also when the writer ended within a message)."""
    return _read_exactly(fd, int.from_bytes(_read_exactly(fd, _HEADER), "little"))


def _read_exactly(fd: int, size: int) -> bytes | bytearray:
    if size <= 1 << 16:
        chunk = os.read(fd, size)
        if len(chunk) == size:
            return chunk
        parts, got = [chunk], len(chunk)
        while chunk and got < size:
            chunk = os.read(fd, size - got)
            parts.append(chunk)
            got += len(chunk)
        if got < size:
            raise EOFError("the pipe ended")
        return b"".join(parts)
    buffer = bytearray(size)
    view, got = memoryview(buffer), 0
    while got < size:
        n = os.readv(fd, [view[got:]])
        if n == 0:
            raise EOFError("the pipe ended within a message")
        got += n
    return buffer
