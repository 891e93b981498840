"""A stand-in for :class:`aistack_bank.parallel.Workers` that makes the workers' calls in the
test's own process, in the order they were sent, as one worker would: a test sets it with
``monkeypatch.setattr(parallel, "Workers", in_process_workers(calls))`` to see which calls a
command sends to its workers (the name of each function is appended to ``calls``)."""

from __future__ import annotations


def in_process_workers(calls: list[str] | None = None) -> type:
    """A class to put in place of ``parallel.Workers``; each call's function name goes to ``calls``."""

    class InProcessWorkers:
        started = True
        size = 2  # (as the real pool on two cores)
        pids: list = []  # (no worker to name: nothing is kept in one for later calls, such as a catalog read early)

        def __init__(self, wanted, most=None, imports=()):
            self.holding = {}

        def run_all(self, sent):
            if calls is not None:
                calls.extend(function.__name__ for function, _ in sent)
            return [function(*args) for function, args in sent]

        def submit(self, sent, last=False, to=None):
            return iter(self.run_all(sent))

        def close(self):
            pass

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            pass

    return InProcessWorkers
