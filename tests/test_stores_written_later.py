"""The question files' stores written later (`QuestionFiles(later=True)`, while the catalogs'
workers verify): only the last topic's held back, each other written as the next is done, all
written by `save_stores` or `close`; a later run finds every verdict in them, and validation with
the catalogs' workers gives the same diagnostics."""

from __future__ import annotations

from pathlib import Path

import pytest

from aistack_bank import parallel
from aistack_bank.cache import questionfiles, store
from aistack_bank.rules import validate


def _topics(bank: Path) -> int:
    return sum(1 for folder in bank.iterdir() if (folder / "topic.yaml").is_file())


@pytest.mark.parametrize("how", ["save_stores", "close"])
def test_the_last_topics_store_waits_and_every_verdict_is_kept(project, monkeypatch, tmp_path, how):
    import shutil

    from aistack_bank.load import read_library

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("AISTACK_BANK_JOBS", "1")
    topic = next(folder for folder in Path("bank").iterdir() if (folder / "topic.yaml").is_file())
    for copy in ("second", "third"):  # (the same files in other topics' folders: read as theirs)
        shutil.copytree(topic, Path("bank") / f"{topic.name}-{copy}")
    saved = []
    real = store.SplitStore.save
    monkeypatch.setattr(store.SplitStore, "save", lambda self: saved.append(self.path) or real(self))
    files = questionfiles.QuestionFiles(validate.question_file_rules, use_cache=True, spill=True, later=True)
    read_library(Path("bank"), read_topics=files.read_topics)
    topics = _topics(Path("bank"))
    assert topics >= 3 and len(saved) == topics - 1 and len(files._later) == 1  # (one topic's records held at most)
    getattr(files, how)()
    assert len(saved) == topics and not files._later
    files.close()
    assert len(saved) == topics  # (written once)
    again = questionfiles.QuestionFiles(validate.question_file_rules, use_cache=True, spill=True)
    monkeypatch.setattr(questionfiles.QuestionFiles, "_checked", lambda *a, **k: pytest.fail("a stored file read again"))
    read_library(Path("bank"), read_topics=again.read_topics)
    again.close()


def test_validation_with_the_catalogs_workers_writes_the_stores_while_they_verify(project, monkeypatch, tmp_path):
    from aistack_bank.cache.validation import validate_cached

    monkeypatch.setattr(validate, "POOL_MIN_CATALOG_BYTES", 0)
    monkeypatch.setattr(questionfiles, "SPILL_MIN_FILES", 0)
    monkeypatch.setenv("AISTACK_BANK_JOBS", "2")
    events = []
    real_submit, real_save = parallel.Workers.submit, questionfiles.QuestionFiles.save_stores
    monkeypatch.setattr(parallel.Workers, "submit", lambda self, calls, last=False, to=None: events.append("submit" if last else "early") or real_submit(self, calls, last, to))
    monkeypatch.setattr(questionfiles.QuestionFiles, "save_stores", lambda self: events.append(("save", len(self._later or []))) or real_save(self))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "pooled"))
    pooled = validate_cached(Path("bank"), Path("translations"))
    assert events[0] == "early"  # (the catalogs read by the workers as they start)
    assert "submit" in events and ("save", 1) in events[events.index("submit"):]  # (the last topic's store, once the workers have their calls)
    monkeypatch.setenv("AISTACK_BANK_JOBS", "1")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "serial"))
    assert validate_cached(Path("bank"), Path("translations")) == pooled
    monkeypatch.setenv("AISTACK_BANK_JOBS", "2")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "pooled"))
    assert validate_cached(Path("bank"), Path("translations"), use_cache=False) == pooled
