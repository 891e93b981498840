"""`bank validate` after catalogs alone changed: the bank's own part of the verdict is kept.

A verdict's bank part (the bank's own diagnostics, its figures, and what every catalog's key
takes of the bank) is kept under a digest of the bank's files alone. When the input digest
finds one catalog changed and nothing else, the bank's rules are not run again and its files'
summaries are not read: the catalog is verified again for the owners of the entries the edit
touched, the bank read only when one of those is a question. The diagnostics are those of a
run without cache, for every kind of edit, also with a bank that has errors; and a bank part is
never taken for a bank whose files changed, even when the guess about the work ahead is wrong.
"""

from __future__ import annotations

import re

import pytest
from conftest import keep_only

from aistack_bank import load
from aistack_bank.cache import validation
from aistack_bank.rules import validate


def _lines(diags) -> list[str]:
    return [f"{d.location} {d.severity.value} {d.code} {d.message}" for d in diags]


def _edit(fr, n: int) -> None:
    """A translator comment on the first entry (a category's title), as the benchmark's edit makes it."""
    text = re.sub(r"^# edit \d+\n", "", fr.read_text(encoding="utf-8"), flags=re.M)
    head, sep, rest = text.partition("\nmsgctxt ")
    fr.write_text(f"{head}\n# edit {n}{sep}{rest}", encoding="utf-8")


@pytest.fixture
def counted(project, monkeypatch):
    """The project, with every file counted as written long before (kept in the stat memo), and
    a count of the bank's validations and reads."""
    keep_only(project)
    monkeypatch.setenv("XDG_CACHE_HOME", str(project / "user-cache"))
    monkeypatch.setenv("AISTACK_BANK_JOBS", "1")
    monkeypatch.setattr(validation, "RACY_NS", -10**15)
    counts = {"validated": 0, "read": 0}
    validate_bank, read_library = validate.validate_bank, load.read_library

    def validated(*args, **kwargs):
        counts["validated"] += 1
        return validate_bank(*args, **kwargs)

    def read(*args, **kwargs):
        counts["read"] += 1
        return read_library(*args, **kwargs)

    monkeypatch.setattr(validate, "validate_bank", validated)
    monkeypatch.setattr(load, "read_library", read)
    monkeypatch.setattr(validate, "read_library", read)
    return project, counts


def _run(project, counts) -> tuple[int, int]:
    """Validate with the cache, compare with a run without it; (validations, reads) of the first."""
    bank, translations = project / "bank", project / "translations"
    counts.update(validated=0, read=0)
    diags, summary = validation.validate_cached(bank, translations)
    seen = (counts["validated"], counts["read"])
    fresh, fresh_summary = validation.validate_cached(bank, translations, use_cache=False)
    assert _lines(diags) == _lines(fresh)
    assert summary == fresh_summary
    return seen


def test_a_catalog_edit_takes_the_bank_part_and_gives_the_verdict_of_a_run_without_cache(counted):
    project, counts = counted
    fr, nl = project / "translations" / "fr.po", project / "translations" / "nl.po"
    assert _run(project, counts) == (1, 1)  # cold
    _edit(fr, 1)
    assert _run(project, counts) == (0, 0)  # a category's entry: neither validated nor read
    _edit(fr, 2)
    assert _run(project, counts) == (0, 0)
    text = fr.read_text(encoding="utf-8")
    # a question's entry given another number: the bank read (not validated) for that question
    fr.write_text(re.sub(r'(msgctxt "q001\.stem"\n(?:.*\n)*?msgstr ")', r"\g<1>4096 ", text, count=1), encoding="utf-8")
    assert "4096" in fr.read_text(encoding="utf-8")
    assert _run(project, counts) == (0, 1)
    # an entry the bank does not have (W503) and a topic's entry removed (W501)
    text = fr.read_text(encoding="utf-8")
    blocks = text.split("\n\n")
    gone = next(i for i, b in enumerate(blocks) if 'msgctxt "topic.' in b and ".summary" in b)
    blocks[gone] = blocks[gone].replace("msgctxt", "#. (stale)\nmsgctxt", 1).replace(".summary", ".stale", 1)
    fr.write_text("\n\n".join(blocks), encoding="utf-8")
    assert _run(project, counts)[0] == 0
    _edit(fr, 9)  # elsewhere: the entry still missing (W501 kept from the findings' read)
    assert _run(project, counts) == (0, 0)
    _edit(nl, 1)
    assert _run(project, counts)[0] == 0  # another catalog, alone
    _edit(fr, 3)
    _edit(nl, 2)
    assert _run(project, counts) == (1, 1)  # two catalogs: validated
    question = sorted((project / "bank").rglob("q001-*.yaml"))[0]
    question.write_text(question.read_text(encoding="utf-8") + "# a comment\n", encoding="utf-8")
    _edit(fr, 4)
    assert _run(project, counts) == (1, 1)  # a question file and a catalog: validated


def test_a_bank_with_errors_keeps_its_own_verdict_through_a_catalog_edit(counted):
    project, counts = counted
    question = sorted((project / "bank").rglob("q002-*.yaml"))[0]
    question.write_text(question.read_text(encoding="utf-8").replace("\nid: q002", "\nid: q999", 1), encoding="utf-8")
    assert _run(project, counts) == (1, 1)
    _edit(project / "translations" / "fr.po", 1)
    assert _run(project, counts) == (0, 0)


def test_a_bank_part_is_never_taken_for_other_bank_files(counted, monkeypatch):
    """Even when the guess about the work ahead says that one catalog changed alone (here:
    always), a changed question file gives another key to the bank's part: validated."""
    project, counts = counted
    monkeypatch.setattr(validation, "edited_catalog_only", lambda bank, translations, **_: True)
    assert _run(project, counts) == (1, 1)
    question = sorted((project / "bank").rglob("q003-*.yaml"))[0]
    question.write_text(question.read_text(encoding="utf-8").replace("\nid: q003", "\nid: q777", 1), encoding="utf-8")
    assert _run(project, counts) == (1, 1)
    _edit(project / "translations" / "fr.po", 1)
    assert _run(project, counts) == (0, 0)


def test_a_catalog_written_again_while_the_bank_part_is_used_gives_the_verdict_of_each_content(counted, monkeypatch):
    """The catalog rewritten after the input digest took its digest and before it is read:
    the verdict of the bytes read is not kept under the digest of the earlier bytes (it fails
    when the check that no input changed is skipped, or made of the bank folder alone)."""
    project, counts = counted
    fr = project / "translations" / "fr.po"
    assert _run(project, counts) == (1, 1)
    _edit(fr, 1)
    before = fr.read_text(encoding="utf-8")
    # (a topic's entry: the bank is not read)
    after = re.sub(r'(msgctxt "topic\.[^"]*\.summary"\n(?:.*\n)*?msgstr ")', r"\g<1>4096 ", before, count=1)
    assert after != before
    load_part = validation._load_bank_part

    def rewritten(*args):
        fr.write_text(after, encoding="utf-8")
        return load_part(*args)

    monkeypatch.setattr(validation, "_load_bank_part", rewritten)
    bank, translations = project / "bank", project / "translations"
    counts.update(validated=0, read=0)
    found, _ = validation.validate_cached(bank, translations)
    assert any(d.code == "E502" for d in found) and counts == {"validated": 0, "read": 0}  # (the bytes read, by the bank's kept part)
    monkeypatch.setattr(validation, "_load_bank_part", load_part)
    fr.write_text(before, encoding="utf-8")  # the bytes the input digest took
    _run(project, counts)


def test_a_catalog_edit_after_a_question_file_validated_as_it_was_written_takes_the_bank_part(counted, monkeypatch):
    """A question file edited and validated at once is not kept in the stat memo (written in
    the tick of the digest: it is digested again next time); a catalog edited after it still
    takes the bank's part kept for those bytes, neither validating nor reading the bank (it
    fails when a question file digested again counts as a changed one)."""
    import os
    import time

    project, counts = counted
    monkeypatch.setattr(validation, "RACY_NS", 0)  # a file written in the future is "just written"
    assert _run(project, counts) == (1, 1)
    question = sorted((project / "bank").rglob("q001-*.yaml"))[0]
    question.write_text(question.read_text(encoding="utf-8") + "# a comment\n", encoding="utf-8")
    ahead = time.time_ns() + 3600 * 10**9
    os.utime(question, ns=(ahead, ahead))
    assert _run(project, counts) == (1, 1)
    _edit(project / "translations" / "fr.po", 1)
    assert _run(project, counts) == (0, 0)
    # the question file changed again meanwhile: another bank, validated
    question.write_text(question.read_text(encoding="utf-8") + "# another\n", encoding="utf-8")
    os.utime(question, ns=(ahead, ahead))
    _edit(project / "translations" / "fr.po", 2)
    assert _run(project, counts) == (1, 1)
