"""A question file's verdict computed now is kept in the per-file store only under the content
digest of the bytes it was computed from: the worker that read the file digests those bytes
and sends the digest back with the verdict (:meth:`aistack_bank.cache.questionfiles.QuestionFiles.read_topics`),
instead of the ``bank`` process taking the file's digest again after the verdict came.

A file written between the look-up of its verdict and its reading (the verdict then is of
other bytes than the key's) has its verdict kept under no key: restored, the file is checked
again and gives the verdict of a run without cache. A file written after it was read has its
verdict kept under the digest of the bytes read: restored to those bytes, the verdict is served
from the store, and is that of a run without cache. Both read in the ``bank`` process and in the
pool. The first fails when the worker's digest is not compared with the key; the second when the
file's digest is taken again instead."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from aistack_bank.cache import questionfiles
from aistack_bank.rules.validate import validate_bank

ROOT = Path(__file__).resolve().parent.parent
NAME = "q002-training-memory-not-reason.yaml"


def _verdict(bank: Path, *, use_cache: bool) -> list[str]:
    return [str(d) for d in validate_bank(bank, use_cache=use_cache).diagnostics]


@pytest.fixture
def bank(tmp_path, file_jobs):
    project = tmp_path / "project"
    project.mkdir()
    shutil.copytree(ROOT / "bank", project / "bank")
    return project / "bank"


class _Reads:
    """The question files read, by name, noted in a file (the pool's workers read them too)."""

    def __init__(self, log: Path) -> None:
        self.log = log

    def __contains__(self, path: Path) -> bool:
        return self.log.exists() and path.name in self.log.read_text(encoding="utf-8").split("\n")

    def __len__(self) -> int:
        return len(self.log.read_text(encoding="utf-8").split("\n")) - 1 if self.log.exists() else 0


def _reads(monkeypatch, target: Path, *, before: bytes | None = None, after: bytes | None = None) -> _Reads:
    """Note the reads of question files; write ``before`` into ``target`` just before it is
    read, ``after`` just after."""
    real = questionfiles.read_question
    log = target.parent.parent.parent.parent / f"reads-{id(monkeypatch)}-{before is not None}-{after is not None}.txt"
    log.unlink(missing_ok=True)

    def read_question(path, **kwargs):
        with open(log, "a", encoding="utf-8") as out:
            out.write(Path(path).name + "\n")
        if Path(path).name == target.name and before is not None:
            target.write_bytes(before)
        found = real(path, **kwargs)
        if Path(path).name == target.name and after is not None:
            target.write_bytes(after)
        return found

    monkeypatch.setattr(questionfiles, "read_question", read_question)
    return _Reads(log)


def test_written_before_it_was_read(bank, monkeypatch):
    target = next(bank.glob(f"*/questions/{NAME}"))
    good = target.read_bytes()
    bad = good.replace(b"tags: [", b"tags: [no-such-tag, ", 1)
    assert bad != good
    clean = _verdict(bank, use_cache=False)
    target.write_bytes(bad)
    wrong = _verdict(bank, use_cache=False)
    assert any("E309" in line for line in wrong) and not any("E309" in line for line in clean)
    target.write_bytes(good)

    with monkeypatch.context() as patch:
        first = _reads(patch, target, before=bad)  # looked up with the good bytes, read with the bad ones
        assert _verdict(bank, use_cache=True) == wrong
        assert target in first and len(first) > 40
    target.write_bytes(good)
    seen = _reads(monkeypatch, target)
    assert _verdict(bank, use_cache=True) == clean
    assert target in seen and len(seen) == 1  # (checked again: nothing was kept under the good bytes' key)


def test_written_after_it_was_read(bank, monkeypatch):
    target = next(bank.glob(f"*/questions/{NAME}"))
    good = target.read_bytes()
    clean = _verdict(bank, use_cache=False)
    with monkeypatch.context() as patch:
        first = _reads(patch, target, after=good + b"# written after it was read\n")
        assert _verdict(bank, use_cache=True) == clean
        assert target in first and len(first) > 40
    target.write_bytes(good)
    seen = _reads(monkeypatch, target)
    assert _verdict(bank, use_cache=True) == clean
    assert len(seen) == 0  # (every verdict served, this one kept under the digest of the bytes it was read with)
