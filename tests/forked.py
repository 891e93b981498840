"""`bank ARGS` in a child process forked from the test process.

For the tests that are about what happens to the process running a command (a signal at a chosen
point of an import, a read that could block on a FIFO, a file that could exhaust memory) but not
about the interpreter starting: a fresh `python -m aistack_bank` spent about half a second of CPU
importing the package before the command began, more than the command on a dozen questions. The
forked child is a process of its own, as the fresh one was: it can be stopped, killed or left
hanging without harm to the test process (in a process group of its own, killed whole with the
processes it started when it has not finished in time), it runs under its own memory limit, and it runs `bank`
through `aistack_bank.cli.main()` as `python -m aistack_bank` does, with the signal dispositions of
a process started from a terminal, the real `os.fsync` and stdout and stderr on one pipe. An
exception that escapes `main()` is printed as a traceback with exit code 1, and the finalizers the
command registered run at its end, as the interpreter does; nothing of the test process's own
exit (its atexit handlers, its finalizers, its buffers) runs in the child.
The tests of the installed entry point itself still start a fresh interpreter.
"""

from __future__ import annotations

import os
import posix
import resource
import select
import signal
import sys
import time
from pathlib import Path


def _address_space() -> int:
    """This process's mapped address space in bytes (VmSize)."""
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    return 0


class Forked:
    """A running forked `bank` command: ``pid``, ``send_signal``, ``communicate`` and
    ``returncode`` as subprocess.Popen has them (the output is stdout and stderr together)."""

    def __init__(self, pid: int, fd: int):
        self.pid, self._fd, self.returncode = pid, fd, None
        self._chunks: list[bytes] = []

    def send_signal(self, sig: int) -> None:
        if self.returncode is None:
            os.kill(self.pid, sig)

    def communicate(self, timeout: float) -> tuple[str, None]:
        """Read the output to its end and wait for the child; TimeoutError (after killing it)
        if it has not ended within ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while self._fd is not None:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._fd], [], [], left)[0]:
                self._kill()
                os.close(self._fd)
                self._fd = None
                raise TimeoutError(f"the child {self.pid} did not finish within {timeout} s")
            chunk = os.read(self._fd, 1 << 16)
            if chunk:
                self._chunks.append(chunk)
            else:
                os.close(self._fd)
                self._fd = None
        if self.returncode is None:  # (its output closed: waited for until the same deadline)
            self._ended(waited(self.pid, max(deadline - time.monotonic(), 0), group=True))
        return b"".join(self._chunks).decode("utf-8", "replace"), None

    def wait_stopped(self, timeout: float) -> bool:
        """Wait for the child to stop (SIGSTOP) or end: True when it stopped, False when it ended
        (its exit code in ``returncode``); TimeoutError (after killing it) if it has done neither
        within ``timeout`` seconds."""
        if self.returncode is not None:
            return False
        try:
            status = waited(self.pid, timeout, os.WUNTRACED, group=True)
        except TimeoutError:
            self.returncode = -signal.SIGKILL
            raise
        if os.WIFSTOPPED(status):
            return True
        self._ended(status)
        return False

    def _kill(self) -> None:
        """Kill the child and every process it started (its process group: a pool's workers
        left waiting would otherwise outlive it, holding what they inherited), then reap it."""
        try:
            os.killpg(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        if self.returncode is None:
            _, status = os.waitpid(self.pid, 0)
            self._ended(status)

    def _ended(self, status: int) -> None:
        self.returncode = -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)


def waited(pid: int, timeout: float, flags: int = 0, *, group: bool = False) -> int:
    """The status ``os.waitpid(pid, flags)`` gives, waited for at most ``timeout`` seconds: a child
    that has not changed state by then is killed (with ``group``, its whole process group) and
    reaped, and TimeoutError raised (a test fails instead of waiting for ever)."""
    deadline = time.monotonic() + timeout
    pause = 0.001
    while True:
        found, status = os.waitpid(pid, flags | os.WNOHANG)
        if found:
            return status
        if time.monotonic() >= deadline:
            try:
                (os.killpg if group else os.kill)(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            os.waitpid(pid, 0)
            raise TimeoutError(f"the child {pid} did not finish within {timeout} s")
        time.sleep(pause)
        pause = min(pause * 2, 0.05)


def _run_in_child(args: tuple[str, ...], cwd: Path, env: dict, memory: int | None, write: int) -> int:
    os.dup2(write, 1)
    os.dup2(write, 2)
    os.close(write)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    sys.stdin = open(0, encoding="utf-8", closefd=False)
    sys.stdout = open(1, "w", encoding="utf-8", closefd=False)
    sys.stderr = open(2, "w", encoding="utf-8", errors="backslashreplace", closefd=False)
    # as started from a terminal: SIGINT raises KeyboardInterrupt, the others end the process,
    # none blocked (the test process may have inherited them ignored or blocked)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGPIPE, signal.SIGXFSZ):
        signal.signal(sig, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_SETMASK, set())
    if memory is not None:  # ``memory`` more than the test process had mapped
        limit = _address_space() + memory
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    os.fsync = posix.fsync  # the tests' conftest.py makes it skip the disk; `bank` itself waits
    os.chdir(cwd)
    os.environ.update(env)
    sys.argv = ["bank", *args]
    import weakref

    from aistack_bank.cli import main

    inherited = set(getattr(weakref.finalize, "_registry", ()))  # the test process's, left alone
    try:
        main()
        code = 0
    except SystemExit as stop:
        if stop.code is None or isinstance(stop.code, int):
            code = stop.code or 0
        else:
            print(stop.code, file=sys.stderr)
            code = 1
    except BaseException:
        import traceback

        traceback.print_exc()
        code = 1
    # as the interpreter does at exit: the finalizers the command registered (a spill file
    # removed, a descriptor closed) run; os._exit below runs nothing else
    for finalizer in [f for f in list(getattr(weakref.finalize, "_registry", ())) if f not in inherited]:
        if finalizer.atexit:
            finalizer()
    sys.stdout.flush()
    sys.stderr.flush()
    return code


def start(*args: str, cwd: Path, env: dict | None = None, memory: int | None = None) -> Forked:
    """Start `bank ARGS` in a forked child, in folder ``cwd`` with ``env`` added to the
    environment, with at most ``memory`` bytes of address space more than this process has."""
    read, write = os.pipe()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # the child: never returns into the test process
        code = 70
        try:
            os.setpgid(0, 0)  # (a process group of its own, which a timeout kills whole)
            os.close(read)
            code = _run_in_child(tuple(str(a) for a in args), Path(cwd), dict(env or {}), memory, write)
        except BaseException:
            try:
                import traceback

                traceback.print_exc()
                sys.stderr.flush()
            except BaseException:
                pass
        finally:
            os._exit(code)
    try:
        os.setpgid(pid, pid)  # (also here: set before this process could signal the group)
    except OSError:
        pass
    os.close(write)
    return Forked(pid, read)


def run(*args: str, cwd: Path, env: dict | None = None, memory: int | None = None, timeout: float = 120) -> tuple[int, str]:
    """`bank ARGS` in a forked child, waited for: (exit code, or minus the signal that ended
    it; stdout and stderr). TimeoutError if it has not ended within ``timeout`` seconds."""
    child = start(*args, cwd=cwd, env=env, memory=memory)
    out, _ = child.communicate(timeout)
    return child.returncode, out
