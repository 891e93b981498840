"""The modules a cold validate's workers import to verify a catalog and check a question file
are imported once in the parent, before the catalogs' workers are forked
(:data:`aistack_bank.rules.validate.WORKER_IMPORTS`, :class:`aistack_bank.parallel.Workers`'
``imports``), not once more in each worker after its fork; the verdict is the same."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

_RUN = r"""
import json, os, sys
from pathlib import Path
from aistack_bank import parallel
from aistack_bank.cache import questionfiles
from aistack_bank.rules import validate

parallel.POOL_MIN_WORK = 0
questionfiles.FILE_POOL_MIN = 0
validate.POOL_MIN_CATALOG_BYTES = 0
forks = []
os.register_at_fork(after_in_child=lambda: forks.append(0) or os.write(
    int(sys.argv[1]), (json.dumps(sorted(m for m in sys.modules if m.startswith("aistack_bank."))) + "\n").encode()))
report = validate.validate_bank(Path("bank"), translations=Path("translations"))
print(json.dumps([d.as_dict() for d in report.diagnostics]))
"""


def _validate(root: Path, jobs: str) -> tuple[list, list[list[str]]]:
    """The diagnostics of a validation of ``root`` in a fresh interpreter, and the modules each
    process forked by it held at its fork, in the order forked."""
    read, write = os.pipe()
    try:
        env = dict(os.environ, AISTACK_BANK_JOBS=jobs, PYTHONPATH=str(REPO))
        done = subprocess.run([sys.executable, "-c", _RUN, str(write)], cwd=root, env=env, capture_output=True, text=True, pass_fds=(write,), timeout=300)
        os.close(write)
        write = -1
        with os.fdopen(read, closefd=True) as held:
            read = -1
            lines = held.read().splitlines()
    finally:
        for fd in (read, write):
            if fd >= 0:
                os.close(fd)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout), [json.loads(line) for line in lines]


def test_the_catalogs_workers_are_forked_with_what_they_import(project):
    if not hasattr(os, "fork"):
        pytest.skip("no fork here")
    from aistack_bank.rules.validate import WORKER_IMPORTS

    pooled, held = _validate(project, "2")
    if not held:
        pytest.skip("no worker process here")
    # the catalogs' workers (forked before the bank is read), and any process forked after
    # them: each holds every module of WORKER_IMPORTS from its fork on
    assert len(held) >= 2
    for modules in held:
        assert set(WORKER_IMPORTS) <= set(modules)
    serial, none = _validate(project, "1")
    assert none == []
    assert pooled == serial


def test_imports_only_when_the_workers_start(monkeypatch):
    script = (
        "import sys\n"
        "from aistack_bank import parallel\n"
        "name = 'aistack_bank.i18n.typography'\n"
        "assert name not in sys.modules\n"
        "with parallel.Workers(False, imports=(name,)) as w:\n"
        "    assert not w.started and name not in sys.modules\n"
        "with parallel.Workers(True, imports=(name,)) as w:\n"
        "    print(w.started, name in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], env=dict(os.environ, AISTACK_BANK_JOBS="2", PYTHONPATH=str(REPO)),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    started, imported = done.stdout.split()
    if started != "True":
        pytest.skip("no worker process here")
    assert imported == "True"
