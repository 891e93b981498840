"""Verifying the catalogs in a process pool gives the serial run's diagnostics, in its order."""

from __future__ import annotations

from pathlib import Path

import pytest

from aistack_bank import parallel
from aistack_bank.rules.validate import validate_bank


def _break_translations(project: Path) -> None:
    """A few errors and warnings in both catalogs, so the verdict has something to order."""
    for name in ("fr.po", "nl.po"):
        po = project / "translations" / name
        lines = po.read_text(encoding="utf-8").split("\n")
        filled = [i for i, ln in enumerate(lines) if ln.startswith('msgstr "') and ln != 'msgstr ""' and i > 20]
        for i in filled[:40:7]:
            lines[i] = lines[i][:-1] + ' 4096 GB"'
        for i in filled[3:40:9]:
            lines[i] = 'msgstr ""'
        po.write_text("\n".join(lines), encoding="utf-8")


def _verdict(project: Path, monkeypatch, jobs: str, pool_min: int):
    monkeypatch.setenv("AISTACK_BANK_JOBS", jobs)
    monkeypatch.setattr(parallel, "POOL_MIN_WORK", pool_min)
    report = validate_bank(Path("bank"), translations=Path("translations"))
    return [d.as_dict() for d in report.diagnostics]


def test_pool_and_serial_runs_give_the_same_diagnostics(project, monkeypatch):
    _break_translations(project)
    serial = _verdict(project, monkeypatch, "1", 0)
    pooled = _verdict(project, monkeypatch, "2", 0)
    assert pooled == serial
    assert sum(d["severity"] == "error" for d in serial) >= 4 and any(d["severity"] == "warning" for d in serial)


def test_tasks_run_in_workers_and_come_back_in_order(monkeypatch):
    import os

    monkeypatch.setenv("AISTACK_BANK_JOBS", "2")
    monkeypatch.setattr(parallel, "POOL_MIN_WORK", 0)
    results = parallel.run_all([lambda i=i: (i, os.getpid()) for i in range(6)], work=1)
    assert [i for i, _ in results] == list(range(6))
    assert os.getpid() not in {pid for _, pid in results}


@pytest.mark.parametrize(("jobs", "work"), [("1", 10**9), ("2", 0)])
def test_small_work_or_one_job_stays_in_this_process(monkeypatch, jobs, work):
    import os

    monkeypatch.setenv("AISTACK_BANK_JOBS", jobs)
    monkeypatch.setattr(parallel, "POOL_MIN_WORK", 10)
    results = parallel.run_all([lambda: os.getpid()] * 3, work=work)
    assert results == [os.getpid()] * 3
