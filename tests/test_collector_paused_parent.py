"""The cyclic garbage collector is paused over each topic's lints (``_validate_read``) and over
the writing of a question files' store (``SplitStore.save``), and left as it was found after
them, enabled or not, whether they end normally or raise; the verdict is the same."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from aistack_bank.cache import questionfiles, store
from aistack_bank.rules import validate


@pytest.fixture
def collector():
    was = gc.isenabled()
    yield
    (gc.enable if was else gc.disable)()


def _verdict(report) -> list:
    return [(d.code, d.message, str(d.location)) for d in report.diagnostics]


@pytest.mark.parametrize("enabled", [True, False])
def test_lints_run_with_the_collector_paused_and_leave_it_as_found(project, monkeypatch, tmp_path, collector, enabled):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("AISTACK_BANK_JOBS", "1")
    gc.enable()
    before = _verdict(validate.validate_bank(Path("bank"), use_cache=True))
    seen = []
    real = validate.content_lints
    monkeypatch.setattr(validate, "content_lints", lambda *args, **kwargs: seen.append(gc.isenabled()) or real(*args, **kwargs))
    (gc.enable if enabled else gc.disable)()
    after = _verdict(validate.validate_bank(Path("bank"), use_cache=False))
    assert gc.isenabled() is enabled
    assert seen and not any(seen)
    assert after == before


def test_the_collector_comes_back_when_a_lint_raises(project, monkeypatch, tmp_path, collector):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("AISTACK_BANK_JOBS", "1")

    def broken(*args, **kwargs):
        raise RuntimeError("lint")

    monkeypatch.setattr(validate, "content_lints", broken)
    gc.enable()
    with pytest.raises(RuntimeError):
        validate.validate_bank(Path("bank"))
    assert gc.isenabled()


@pytest.mark.parametrize("enabled", [True, False])
def test_a_store_is_written_with_the_collector_paused_and_read_back(project, monkeypatch, tmp_path, collector, enabled):
    from aistack_bank.load import read_library

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("AISTACK_BANK_JOBS", "1")
    seen = []
    real = store.SplitStore._save
    monkeypatch.setattr(store.SplitStore, "_save", lambda self: seen.append(gc.isenabled()) or real(self))
    (gc.enable if enabled else gc.disable)()
    files = questionfiles.QuestionFiles(validate.question_file_rules, use_cache=True, spill=True, later=True)
    read_library(Path("bank"), read_topics=files.read_topics)
    files.close()
    assert gc.isenabled() is enabled
    assert seen and not any(seen)
    # a later run finds every file's verdict in the stores written
    again = questionfiles.QuestionFiles(validate.question_file_rules, use_cache=True)
    computed = []
    real_compute = again._compute
    monkeypatch.setattr(again, "_compute", lambda todo: computed.extend(todo) or real_compute(todo))
    read_library(Path("bank"), read_topics=again.read_topics)
    assert not computed
