"""What `bank validate` reads again after one edit: no more than the edit touched.

A question file unchanged since the latest run is served from the per-file store as its summary,
its record (document, model, fields) unpickled only when some rule needs it: after one question
edited, or one catalog entry edited, the records of the questions the edit did not touch stay
unread. The per-file store of question files keeps its records in a file that a run appends
to; damaged, replaced or truncated, it serves nothing and validation gives the verdict of a run
without cache (randomized: `test_records_file_damage_and_random_edits_give_the_verdict_of_a_run_without_cache`).
"""

from __future__ import annotations

import random
import re

import pytest

from conftest import keep_only, question_file


def _unread(report) -> set[str]:
    """The ids of the questions whose stored record was not unpickled."""
    return {qs.summary.question_id for qs in report.source.questions if "_record" in qs.__dict__}


def _ids(report) -> set[str]:
    return {qs.summary.question_id for qs in report.source.questions if qs.summary is not None}


def _validate(project, use_cache: bool = True):
    from aistack_bank.rules.validate import validate_bank

    return validate_bank(project / "bank", translations=project / "translations", use_cache=use_cache)


def test_a_question_edited_unpickles_no_other_record(project, monkeypatch):
    monkeypatch.setenv("AISTACK_BANK_JOBS", "1")
    _validate(project)
    path = question_file(project, "q003")
    path.write_text(path.read_text(encoding="utf-8") + "# a comment\n", encoding="utf-8")
    report = _validate(project)
    assert not report.errors
    # the edited file is read and checked again in this process (its record used as it is, and
    # pickled to be kept as the others are); no other record is unpickled, the site's interface
    # catalogs' verification included (they are verified against the interface's texts only)
    edited = next(qs for qs in report.source.questions if qs.summary.question_id == "q003")
    assert "_record" not in edited.__dict__ and "doc" in edited.__dict__
    assert _unread(report) == _ids(report) - {"q003"}


def test_a_catalog_entry_edited_unpickles_only_its_question(project, monkeypatch):
    monkeypatch.setenv("AISTACK_BANK_JOBS", "1")
    first = _validate(project)
    assert not first.errors
    fr = project / "translations" / "fr.po"
    text = fr.read_text(encoding="utf-8")
    m = re.search(r'^msgctxt "q007\.stem"\nmsgid .*(?:\n".*)*\nmsgstr "', text, flags=re.M)
    fr.write_text(text[:m.end()] + "Vraiment : " + text[m.end():], encoding="utf-8")
    report = _validate(project)
    # the entries read again: the edited one and one block on each side (q006's last, q008's first)
    assert "q007" in _ids(report) - _unread(report) <= {"q006", "q007", "q008"}
    assert [str(d) for d in report.diagnostics] == [str(d) for d in _validate(project, use_cache=False).diagnostics]


def _records_files(project):
    from aistack_bank.cache.store import cache_dir

    return sorted((cache_dir() / "files").glob("questions-*.records"))


@pytest.mark.parametrize("seed", range(2))
def test_records_file_damage_and_random_edits_give_the_verdict_of_a_run_without_cache(project, monkeypatch, seed):
    """Random edits of question files (texts, ids, a file deleted and restored) between runs,
    and now and then the records file damaged (truncated, replaced by another's, bytes changed
    after its token, removed): after each run the diagnostics of a run without cache."""
    keep_only(project)
    monkeypatch.setenv("AISTACK_BANK_JOBS", "1")
    rng = random.Random(seed)
    files = sorted((project / "bank").glob("*/questions/q*.yaml"))
    originals = {path: path.read_bytes() for path in files}

    def verdict(use_cache: bool) -> list[str]:
        return [f"{d.location} {d.code} {d.message}" for d in _validate(project, use_cache).diagnostics]

    assert verdict(True) == verdict(False)
    for step in range(14):
        path = rng.choice(files)
        change = rng.randrange(6)
        if change < 3 and not path.exists():
            path.write_bytes(originals[path])
        if change == 0:
            path.write_bytes(path.read_bytes() + f"# edit {step}\n".encode())
        elif change == 1:
            path.write_bytes(re.sub(rb"^stem: (.*)$", lambda m: b"stem: " + m[1] + b" Really?", path.read_bytes(), count=1, flags=re.M))
        elif change == 2:
            path.write_bytes(re.sub(rb"^id: q0(\d\d)$", rb"id: q9\1", path.read_bytes(), count=1, flags=re.M))
        elif change == 3 and path.exists():
            path.unlink()
        else:
            path.write_bytes(originals[path])
        records = _records_files(project)
        if records and rng.random() < 0.4:
            target = records[0]
            raw = target.read_bytes()
            how = rng.randrange(4)
            if how == 0:
                target.write_bytes(raw[: len(raw) // 2])
            elif how == 1:
                target.write_bytes(b"\0" * 16 + raw[16:])  # another token
            elif how == 2:
                target.unlink()
            else:
                size = target.stat().st_size
                cached_before = verdict(True)  # appended records: the file only grows
                assert target.stat().st_size >= size
                assert cached_before == verdict(False)
        assert verdict(True) == verdict(False), (step, change)
    for path, raw in originals.items():
        path.write_bytes(raw)
    assert verdict(True) == verdict(False)


def test_the_records_file_grows_by_the_edited_records_only(project, monkeypatch):
    """One question edited appends its record to the records file and rewrites only the index."""
    keep_only(project)
    monkeypatch.setenv("AISTACK_BANK_JOBS", "1")
    _validate(project)
    (records,) = _records_files(project)
    before = records.read_bytes()
    path = question_file(project, "q005")
    path.write_text(path.read_text(encoding="utf-8") + "# a comment\n", encoding="utf-8")
    _validate(project)
    after = records.read_bytes()
    assert after.startswith(before)  # the same file, appended to
    assert 0 < len(after) - len(before) < 3 * len(before) / 12  # one record of the twelve's size
