"""The answer-leak rule (W322) of a bank whose files were read in the process pool reads each
file's texts as the worker that checked it sent them back (kept in the spill file with the
records), not from the file's record: the same findings as a serial run, and no record
unpickled for them."""

from __future__ import annotations

from pathlib import Path

from aistack_bank import parallel
from aistack_bank.cache import questionfiles
from aistack_bank.load import QuestionSource, read_question
from aistack_bank.rules.lints import key_info
from aistack_bank.rules.validate import validate_bank
from conftest import topic_dir


def _plant_leak(project: Path) -> str:
    """The key of the first single-choice question written into the explanation of the last
    question file: a W322 finding. Its id."""
    files = sorted((topic_dir(project) / "questions").glob("*.yaml"))
    for path in files:
        question = read_question(path, root=path.parent.parent)[0].question
        if question is not None and key_info(question) is not None:
            break
    target = files[-1]
    text = target.read_text(encoding="utf-8")
    assert "\nexplanation: >-\n  " in text
    target.write_text(text.replace("\nexplanation: >-\n  ", f"\nexplanation: >-\n  {key_info(question)[0]}. ", 1), encoding="utf-8")
    return question.id


def _verdict(monkeypatch, jobs: str, reports: list | None = None) -> list[dict]:
    monkeypatch.setenv("AISTACK_BANK_JOBS", jobs)
    report = validate_bank(Path("bank"), translations=None, use_cache=False)
    if reports is not None:
        reports.append(report)
    return [d.as_dict() for d in report.diagnostics]


def test_the_leak_rule_reads_the_texts_the_workers_sent_back(project, monkeypatch):
    leaked = _plant_leak(project)
    serial = _verdict(monkeypatch, "1")
    assert any(d["code"] == "W322" and leaked in d["message"] for d in serial)
    monkeypatch.setattr(parallel, "POOL_MIN_WORK", 0)
    monkeypatch.setattr(questionfiles, "FILE_POOL_MIN", 1)
    monkeypatch.setattr(questionfiles, "SPILL_MIN_FILES", 1)  # every record in the spill file
    records = []
    real = questionfiles._loads_uncollected

    def loads(blob, record=True):
        found = real(blob, record)
        if isinstance(found, QuestionSource):
            records.append(found.path)
        return found

    monkeypatch.setattr(questionfiles, "_loads_uncollected", loads)
    reports: list = []
    assert _verdict(monkeypatch, "2", reports) == serial
    # the texts wait in the spill file with the records, not in memory
    assert all(isinstance(qs.__dict__["_texts"], questionfiles.Spilled) for qs in reports[0].source.questions)
    # only the records of the files a finding is located in are read (the W322 warnings')
    located = {d["path"] for d in serial}
    assert 0 < len(records) <= len(located) < 10
