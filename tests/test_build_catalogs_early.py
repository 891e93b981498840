"""A cold `bank build` of a large bank (its languages localized in the rendering workers) forks
its validation's catalogs' workers as a cold `bank validate` does: first, each reading a catalog
at once, before the writers are imported, the rendering workers forked and the input digest
taken. The same exports and notes as a build that forks them after its digest (a cache with a
verdict stored, which is never taken for a cold one) and as a serial build."""

from __future__ import annotations

from pathlib import Path

from aistack_bank import parallel
from aistack_bank.rules import validate

from conftest import keep_only, process_state


def _exports(out: Path) -> dict[str, bytes]:
    return {path.relative_to(out).as_posix(): path.read_bytes() for path in sorted(out.rglob("*")) if path.is_file()}


def _watched(monkeypatch) -> list[str]:
    """What the build did, in order: each batch of calls sent to a pool of workers (its
    functions' names, joined), ``writers`` when the writers were imported for the rendering
    workers, ``digest`` at each first pass of the input digest."""
    from aistack_bank import build
    from aistack_bank.cache import validation

    events: list[str] = []
    real_submit, real_writers, real_digest = parallel.Workers.submit, build._writers_first, validation.input_digest

    def submit(self, calls, last=False, to=None):
        events.append(",".join(function.__name__ for function, _ in calls))
        return real_submit(self, calls, last, to)

    def writers_first(wanted: bool) -> bool:
        events.append("writers")
        return real_writers(wanted)

    def input_digest(*args, **kwargs):
        if not kwargs.get("again"):
            events.append("digest")
        return real_digest(*args, **kwargs)

    monkeypatch.setattr(parallel.Workers, "submit", submit)
    monkeypatch.setattr(build, "_writers_first", writers_first)
    monkeypatch.setattr(validation, "input_digest", input_digest)
    return events


def _build(monkeypatch, tmp_path: Path, cache: str, out: str, jobs: str = "2"):
    from aistack_bank import build

    monkeypatch.setenv("AISTACK_BANK_JOBS", jobs)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / cache))
    outputs, notes = build.build(Path("bank"), Path("translations"), Path(out))
    assert outputs
    return [d.as_dict() for d in notes], _exports(Path(out))


def test_a_cold_build_forks_the_catalogs_workers_first(project, monkeypatch, tmp_path):
    from aistack_bank import build
    from aistack_bank.cache import validation

    keep_only(project)
    monkeypatch.setattr(validate, "POOL_MIN_CATALOG_BYTES", 0)
    monkeypatch.setattr(parallel, "POOL_MIN_WORK", 0)
    monkeypatch.setattr(build, "PARALLEL_MIN_TEXTS", 0)  # (the workers' way, as at 10 000 questions)
    events = _watched(monkeypatch)
    assert validation._never_kept(Path("bank"), Path("translations"))
    cold = _build(monkeypatch, tmp_path, "cold", "exports-cold")
    # the early reads sent first, then the writers and the rendering workers, then the digest;
    # the catalogs verified by the workers that read them (no other catalogs' workers forked)
    assert events[:3] == ["_read_early,_read_early", "writers", "digest"]
    assert [names for names in events if "_read_early" in names] == ["_read_early,_read_early"]
    assert "_verify_sent,_verify_sent,_template_sent" in events
    # a build that forks them after its digest (a verdict of another bank stored: not a cold
    # run), as before, and a serial build: the same notes and the same bytes
    verdicts = tmp_path / "warm" / "aistack-bank" / "validate"
    verdicts.mkdir(parents=True)
    (verdicts / "another-bank.json").write_text("{}", encoding="utf-8")
    assert not validation._never_kept(Path("bank"), Path("translations"))
    events.clear()
    after = _build(monkeypatch, tmp_path, "warm", "exports-warm")
    assert events[:2] == ["writers", "digest"] and events[2] == "_read_early,_read_early"
    assert after == cold
    assert _build(monkeypatch, tmp_path, "serial", "exports-serial", jobs="1") == cold
    # the next build, with nothing changed, forks nothing early and writes nothing new
    events.clear()
    assert _build(monkeypatch, tmp_path, "cold", "exports-cold") == cold
    assert not [names for names in events if "_read_early" in names]


def test_a_build_without_rendering_workers_forks_no_catalogs_worker_early(project, monkeypatch, tmp_path):
    """A bank too small for the rendering workers is validated with the catalogs it localizes
    from (read in the build's process): nothing is forked before its digest."""
    from aistack_bank import build

    keep_only(project)
    monkeypatch.setattr(validate, "POOL_MIN_CATALOG_BYTES", 0)
    monkeypatch.setattr(parallel, "POOL_MIN_WORK", 0)
    monkeypatch.setattr(build, "PARALLEL_MIN_TEXTS", 10 ** 9)
    events = _watched(monkeypatch)
    found = _build(monkeypatch, tmp_path, "cold", "exports")
    assert events == ["writers", "digest"]
    assert _build(monkeypatch, tmp_path, "serial", "exports-serial", jobs="1") == found


def test_a_cold_build_of_a_bank_with_an_error_ends_its_early_workers(project, monkeypatch, tmp_path):
    """A bank with an error (its catalogs not verified): the build refuses it with the errors a
    serial build gives, and every worker it forked, the catalogs' early ones included, has ended."""
    import pytest

    from aistack_bank import build
    from aistack_bank.errors import DiagnosticsError

    keep_only(project)
    monkeypatch.setattr(validate, "POOL_MIN_CATALOG_BYTES", 0)
    monkeypatch.setattr(parallel, "POOL_MIN_WORK", 0)
    monkeypatch.setattr(build, "PARALLEL_MIN_TEXTS", 0)
    question = sorted(Path("bank").rglob("questions/*.yaml"))[0]
    question.write_text("id: [unclosed\n", encoding="utf-8")

    def refused(cache: str, jobs: str) -> list[dict]:
        monkeypatch.setenv("AISTACK_BANK_JOBS", jobs)
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / cache))
        with pytest.raises(DiagnosticsError) as raised:
            build.build(Path("bank"), Path("translations"), Path("exports"))
        return [d.as_dict() for d in raised.value.diagnostics]

    serial = refused("serial", "1")
    pids: list[int] = []
    real_init = parallel.Workers.__init__

    def init(self, *args, **kwargs):
        real_init(self, *args, **kwargs)
        pids.extend(self.pids)

    monkeypatch.setattr(parallel.Workers, "__init__", init)
    events = _watched(monkeypatch)
    assert refused("cold", "2") == serial and serial
    assert events[0] == "_read_early,_read_early" and pids
    assert all(process_state(pid) == "gone" for pid in pids)


def test_the_early_catalogs_workers_end_with_validation(project, monkeypatch, tmp_path):
    """Early workers given nothing to verify (each catalog's verdict kept, the bank's verdict and
    the stat memo not: a cache trimmed by hand, or a verdict stored by another process in
    between) end when validation returns, not with the build: none sits through the rendering
    holding its catalog's read."""
    import shutil

    from aistack_bank import build
    from aistack_bank.cache import validation

    keep_only(project)
    monkeypatch.setattr(validate, "POOL_MIN_CATALOG_BYTES", 0)
    monkeypatch.setattr(parallel, "POOL_MIN_WORK", 0)
    monkeypatch.setattr(build, "PARALLEL_MIN_TEXTS", 0)
    cold = _build(monkeypatch, tmp_path, "trimmed", "exports-cold")
    for kept in ("validate", "stat"):
        shutil.rmtree(tmp_path / "trimmed" / "aistack-bank" / kept, ignore_errors=True)
    shutil.rmtree(Path("exports-cold"))
    assert validation._never_kept(Path("bank"), Path("translations"))
    early: list = []
    real_cold, real_render = validation.cold_workers, build._render_and_write

    def cold_workers(*args, **kwargs):
        workers = real_cold(*args, **kwargs)
        early.append((workers, workers is not None and workers.started))
        return workers

    def render_and_write(*args, **kwargs):
        assert [started for _, started in early] == [True]  # (forked and reading)
        assert early[0][0].pool is None  # (closed once validation returned)
        return real_render(*args, **kwargs)

    monkeypatch.setattr(validation, "cold_workers", cold_workers)
    monkeypatch.setattr(build, "_render_and_write", render_and_write)
    assert _build(monkeypatch, tmp_path, "trimmed", "exports-cold") == cold
