"""A large build validating its bank now sends the localizing calls to its workers as soon as the
English library and the fields are made, while validation ends (its catalogs' verification,
the answer-leak lint), not once validation has ended: the workers localize while the build's
process ends validation alone. The files are the serial build's; a bank whose catalogs have an
error exports nothing and leaves no staging folder, whatever the calls sent did; a build of
inputs an earlier build kept the plan of sends none."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import keep_only


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _watched(monkeypatch, tmp_path: Path, name: str) -> list[str]:
    """A pooled build's events, in order: each localizing call handed to the workers
    (``localize``) and the end of validation (``validated``)."""
    from aistack_bank import build, parallel
    from aistack_bank.rules import validate

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / name))
    monkeypatch.setenv("AISTACK_BANK_JOBS", "2")
    monkeypatch.setattr(build, "PARALLEL_MIN_TEXTS", 0)
    # (the catalogs' workers forked early on a cold run, each catalog read by one, as at 10 000
    # questions: the calls are sent early only then)
    monkeypatch.setattr(validate, "POOL_MIN_CATALOG_BYTES", 0)
    monkeypatch.setattr(parallel, "POOL_MIN_WORK", 0)
    events: list[str] = []
    real_submit = parallel.Workers.submit

    def submit(self, calls, *args, **kwargs):
        events.extend("localize" for function, _ in calls if function is build._localize_sent)
        return real_submit(self, calls, *args, **kwargs)

    real_validated = build.validated_source

    def validated_source(*args, **kwargs):
        source = real_validated(*args, **kwargs)
        events.append("validated")
        return source

    real_each = parallel.Workers.run_each

    def run_each(self, calls, *args, **kwargs):
        events.extend("localize" for function, _ in calls if function is build._localize_sent)
        return real_each(self, calls, *args, **kwargs)

    monkeypatch.setattr(parallel.Workers, "submit", submit)
    monkeypatch.setattr(parallel.Workers, "run_each", run_each)
    monkeypatch.setattr(build, "validated_source", validated_source)
    return events


def test_the_localizing_calls_are_sent_before_validation_ends_and_the_files_are_the_serial_builds(project, monkeypatch, tmp_path):
    from aistack_bank import build

    keep_only(project)
    monkeypatch.setenv("AISTACK_BANK_JOBS", "1")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "serial-cache"))
    build.build(Path("bank"), Path("translations"), Path("serial"))
    events = _watched(monkeypatch, tmp_path, "cache")
    build.build(Path("bank"), Path("translations"), Path("pooled"))
    assert events == ["localize", "localize", "validated"]  # (fr and nl)
    assert _files(Path("pooled")) == _files(Path("serial"))
    events.clear()
    build.build(Path("bank"), Path("translations"), Path("pooled"))  # the plan kept for these inputs: nothing localized
    assert events == ["validated"] and _files(Path("pooled")) == _files(Path("serial"))


def test_without_each_catalog_read_early_the_calls_wait_for_validation(project, monkeypatch, tmp_path):
    """A build whose catalogs are not each read by an early worker of validation (here none is:
    too small for them; also a third language, a streamed catalog, a run with a verdict stored)
    sends its localizing calls once validation has ended, as before: a call sent earlier could
    read its catalog first, in about twice the CPU."""
    from aistack_bank import build
    from aistack_bank.rules import validate

    keep_only(project)
    monkeypatch.setenv("AISTACK_BANK_JOBS", "1")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "serial-cache"))
    build.build(Path("bank"), Path("translations"), Path("serial"))
    events = _watched(monkeypatch, tmp_path, "cache")
    monkeypatch.setattr(validate, "POOL_MIN_CATALOG_BYTES", 1 << 40)  # (no early workers)
    build.build(Path("bank"), Path("translations"), Path("pooled"))
    assert events == ["validated", "localize", "localize"]
    assert _files(Path("pooled")) == _files(Path("serial"))


def test_a_compared_build_sends_its_localizing_calls_after_validation_and_compares_equal(project, monkeypatch, tmp_path):
    from aistack_bank import build

    keep_only(project)
    monkeypatch.setenv("AISTACK_BANK_JOBS", "1")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "serial-cache"))
    build.build(Path("bank"), Path("translations"), Path("serial"))
    events = _watched(monkeypatch, tmp_path, "cache")
    outputs, _ = build.build(Path("bank"), Path("translations"), Path("serial"), compare=True)  # (no staging folder: the calls carry the bytes)
    assert events == ["validated", "localize", "localize"]
    assert outputs and not any(output.changed for output in outputs)


def test_a_catalog_error_found_after_the_calls_were_sent_exports_nothing(project, monkeypatch, tmp_path):
    from aistack_bank import build
    from aistack_bank.errors import DiagnosticsError

    keep_only(project)
    catalog = Path("translations/fr.po")
    text = catalog.read_text(encoding="utf-8")
    entry = re.search(r'\nmsgctxt "[^\n]*\nmsgid [^\n]*\nmsgstr [^\n]*\n', text)
    catalog.write_text(text + entry[0], encoding="utf-8")  # an entry twice: E506
    events = _watched(monkeypatch, tmp_path, "cache")
    with pytest.raises(DiagnosticsError) as raised:
        build.build(Path("bank"), Path("translations"), Path("out"))
    assert any(d.code == "E506" for d in raised.value.diagnostics)
    assert events == ["localize", "localize"]  # sent, then validation found the error
    assert not Path("out").exists()  # (neither a file nor the staging folder made for the calls)
