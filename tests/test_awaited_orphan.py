"""A localizing worker that waits for the English library (`build._Awaited`) stops waiting when
the build's process is gone (killed outright before it delivered): it does not poll the staging
folder's file for ever."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time

from conftest import REPO


def test_a_waiting_worker_ends_when_the_build_process_is_gone(tmp_path):
    awaited, pid_file = tmp_path / "token-read.pickle", tmp_path / "worker.pid"
    awaited.write_bytes(b"")  # made empty, as before the calls are handed over; never delivered
    script = textwrap.dedent(f"""
        import os, sys
        sys.path.insert(0, {str(REPO)!r})
        from aistack_bank.build import _Awaited
        awaited = _Awaited({str(awaited)!r}, os.getpid())
        if os.fork() == 0:  # the worker
            # (its pid written whole before the file has its name: the build's process below
            # waits for the name only, and the test reads the pid as soon as that one is gone)
            with open({str(pid_file) + ".part"!r}, "w") as fh:
                fh.write(str(os.getpid()))
            os.rename({str(pid_file) + ".part"!r}, {str(pid_file)!r})
            awaited.wait()
            os._exit(0)
        while not os.path.exists({str(pid_file)!r}):
            pass
        os._exit(9)  # the build's process, killed before it delivered
    """)
    subprocess.run([sys.executable, "-c", script], timeout=60)
    worker = int(pid_file.read_text())
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with open(f"/proc/{worker}/stat") as fh:
                    if fh.read().rsplit(")", 1)[1].split()[0] in ("Z", "X"):
                        return  # (ended: a zombie its new parent has not reaped yet)
            except FileNotFoundError:
                return
            time.sleep(0.05)
        raise AssertionError("the worker still waits for a file no process will write")
    finally:
        try:
            os.kill(worker, 9)
        except ProcessLookupError:
            pass
