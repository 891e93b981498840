"""The validation cache never changes a verdict: after every kind of change to the bank and its
catalogs (edit, rename, delete, add, touch, undo), `bank validate` with its cache prints exactly
what a run without any cache prints."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from conftest import question_file


def _same_verdict(run_cli) -> tuple[int, str]:
    cached = run_cli("validate")
    fresh = run_cli("validate", "--no-cache")
    assert cached == fresh, f"cached:\n{cached[1]}\nwithout cache:\n{fresh[1]}"
    again = run_cli("validate")  # now certainly served from the cache
    assert again == fresh
    return fresh


def _replace(path: Path, old: str, new: str, count: int = 1) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, (path, old)
    path.write_text(text.replace(old, new, count), encoding="utf-8")


def _first_translation(po: Path) -> tuple[str, str]:
    """The first non-empty msgstr line of a catalog's first real entry, and a broken copy."""
    lines = po.read_text(encoding="utf-8").split("\n")
    line = next(ln for i, ln in enumerate(lines) if ln.startswith('msgstr "') and ln != 'msgstr ""' and i > 5)
    return line, line[:-1] + ' 12345 GB"'


@pytest.fixture(params=["serial", "pool"])
def jobs(request, monkeypatch):
    """Run serially, or with the catalogs verified in a process pool even for a small bank."""
    from aistack_bank import parallel

    if request.param == "pool":
        monkeypatch.setenv("AISTACK_BANK_JOBS", "2")
        monkeypatch.setattr(parallel, "POOL_MIN_WORK", 0)
    else:
        monkeypatch.setenv("AISTACK_BANK_JOBS", "1")
    return request.param


def test_every_change_gives_the_verdict_of_a_run_without_cache(project, run_cli, monkeypatch, jobs):
    monkeypatch.setenv("XDG_CACHE_HOME", str(project / "user-cache"))
    code, out = _same_verdict(run_cli)
    assert code == 0, out
    q001 = question_file(project, "q001")
    original = q001.read_bytes()
    fr = project / "translations" / "fr.po"
    fr_original = fr.read_bytes()

    steps = []

    def step(name, expect_error):
        code, out = _same_verdict(run_cli)
        assert expect_error is None or (code != 0) == expect_error, (name, out)
        steps.append((name, code, out))

    _replace(q001, "correct: a", "correct: x")
    step("edit a question (broken)", True)
    q001.write_bytes(original)
    step("undo the edit (the earlier verdict is valid again)", False)

    renamed = q001.with_name("q001-renamed-without-reason.yaml")
    q001.rename(renamed)
    step("rename a question file (slug only)", False)
    wrong = renamed.with_name("q777-" + renamed.name.split("-", 1)[1])
    renamed.rename(wrong)
    step("rename a question file (id no longer matches)", True)
    wrong.rename(q001)
    step("rename it back", False)

    stamp = q001.stat().st_mtime_ns + 5_000_000_000
    os.utime(q001, ns=(stamp, stamp))
    step("touch a question file", False)

    copy = q001.with_name("q998-copy-of-one.yaml")
    shutil.copy(q001, copy)
    step("add a question file (duplicate id)", True)
    copy.unlink()
    step("delete the added file", False)

    line, broken = _first_translation(fr)
    _replace(fr, line, broken)
    step("edit a catalog entry (a number the English lacks)", True)
    fr.write_bytes(fr_original)
    step("undo the catalog edit", False)
    os.utime(fr, ns=(stamp, stamp))
    step("touch a catalog", False)

    nl = project / "translations" / "nl.po"
    nl_original = nl.read_bytes()
    nl.unlink()
    step("delete a catalog", None)
    nl.write_bytes(nl_original)
    step("restore it", False)

    glossary = project / "translations" / "glossary.yaml"
    glossary.write_text("terms: 3\n", encoding="utf-8")
    step("break the glossary", True)

    # one change and its undo in the same second as the run before: content, not time, decides
    q001.write_bytes(original.replace(b"correct: a", b"correct: b"))
    os.utime(q001, ns=(stamp, stamp))
    step("edit without changing size class or mtime", True)

    assert len({out for _, _, out in steps}) > 3  # the steps really produced different verdicts


@pytest.mark.parametrize("edit", ["question", "catalog"])
def test_a_verdict_cached_for_other_content_is_never_served(project, run_cli, monkeypatch, edit):
    """Validate the broken bank, fix it, break it again: each run sees its own content."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(project / "user-cache"))
    target = question_file(project, "q001") if edit == "question" else project / "translations" / "fr.po"
    good = target.read_bytes()
    if edit == "question":
        bad = good.replace(b"correct: a", b"correct: x", 1)
    else:
        line, broken = _first_translation(target)
        bad = good.replace(line.encode(), broken.encode(), 1)
    for content, failing in [(bad, True), (good, False), (bad, True), (good, False)]:
        target.write_bytes(content)
        code, _ = _same_verdict(run_cli)
        assert (code != 0) == failing


def _tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_build_reuses_only_a_passing_verdict_for_exactly_its_inputs(project, run_cli, monkeypatch):
    """`bank build` skips validating again when `bank validate` passed these very bytes; it
    writes the same files as a build without any cache and refuses a bank broken since."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(project / "cold-cache"))
    code, out = run_cli("build", "--out", "cold")
    assert code == 0, out
    monkeypatch.setenv("XDG_CACHE_HOME", str(project / "user-cache"))
    assert run_cli("validate")[0] == 0
    code, out = run_cli("build", "--out", "warm")
    assert code == 0, out
    assert _tree(project / "warm") == _tree(project / "cold")

    q001 = question_file(project, "q001")
    _replace(q001, "correct: a", "correct: x")
    code, out = run_cli("build", "--out", "broken")
    assert code != 0 and "E304" in out, out
    assert not (project / "broken").exists() or not any((project / "broken").rglob("*.xml"))

    fr = project / "translations" / "fr.po"
    _replace(q001, "correct: x", "correct: a")
    assert run_cli("validate")[0] == 0
    line, broken = _first_translation(fr)
    _replace(fr, line, broken)
    code, out = run_cli("build", "--out", "broken-fr")
    assert code != 0, out
