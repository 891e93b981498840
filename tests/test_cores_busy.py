"""While the catalogs' workers keep every core busy, the parent's own work on the bank (the
answer-leak lint's matching, run by ``meanwhile`` of :func:`aistack_bank.i18n.verify.verify_catalogs`)
forks no process of its own: a fork there only shares the cores with the workers and pays its
page faults (:class:`aistack_bank.parallel.cores_busy`). With a core left idle (fewer catalogs
than workers) it still may."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from aistack_bank import parallel


def _pids() -> set[int]:
    """The processes four tasks ran in, given work enough to be sent to workers."""
    return set(parallel.run_all([os.getpid for _ in range(4)], work=1, min_work=0))


def test_run_all_runs_its_tasks_here_within_cores_busy(monkeypatch):
    monkeypatch.setenv("AISTACK_BANK_JOBS", "2")
    if not hasattr(os, "fork"):
        pytest.skip("no fork here")
    with parallel.cores_busy():
        assert _pids() == {os.getpid()}
        with parallel.cores_busy():
            assert _pids() == {os.getpid()}
        assert _pids() == {os.getpid()}  # (still within the outer block)
    outside = _pids()
    assert outside and os.getpid() not in outside


@pytest.mark.parametrize("catalogs", [("fr.po", "nl.po"), ("fr.po",)])
def test_the_parents_work_forks_only_when_a_core_is_left_idle(project, monkeypatch, catalogs):
    from aistack_bank.i18n import verify
    from aistack_bank.load import read_library

    monkeypatch.setenv("AISTACK_BANK_JOBS", "2")
    monkeypatch.setattr(parallel, "POOL_MIN_WORK", 0)  # (the bundled bank's catalogs sent to the workers as a large bank's)
    for path in (project / "translations").glob("*.po"):
        if path.name not in catalogs:
            path.unlink()
    source = read_library(Path("bank"))
    seen: list[set[int]] = []
    with parallel.Workers(True) as workers:
        if not workers.started:
            pytest.skip("no worker process here (one core, or no fork)")
        verify.verify_catalogs(source, Path("translations"), workers=workers, meanwhile=lambda: seen.append(_pids()))
    [pids] = seen
    if len(catalogs) >= 2:  # a catalog for each worker: the parent's work runs here
        assert pids == {os.getpid()}
    else:  # one worker's core free once the template is compared: the parent may fork
        assert os.getpid() not in pids
