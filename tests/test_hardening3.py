"""Hostile inputs, third round: imports all or nothing under concurrency and signals; what an
importer writes passes validation; no traceback from the importers, `bank analyze`, `bank init`
and `bank topic` on hostile input.

Interruptions are placed with the ``AISTACK_BANK_FAULT`` hook (``POINT:SIGNAL``, see
``aistack_bank.writing.FAULT_ENV``): the import sends itself the signal at that point of its
transaction, so every run interrupts at the same moment. Tests that import into the bundled bank and
then validate or build it cut their copy down to twelve questions first (`conftest.keep_only`).
"""

from __future__ import annotations

import fcntl
import os
import re
import shutil
import signal
import subprocess
from pathlib import Path

import pytest

import forked
from conftest import REPO, keep_only

TOPIC = Path("bank") / "ai-hardware-software-stack"


def _gift(count: int, start: int = 0) -> str:
    return "\n\n".join(f"::Q{i}::What is {i}? {{\n=yes\n~no\n}}" for i in range(start, start + count)) + "\n"


def child(*args: str, cwd: Path, env: dict | None = None, wait: bool = True):
    """`bank ARGS` in a child process forked from this one, with the signal dispositions of a
    process started from a terminal (`forked.py`; a process started in the background by a shell
    without job control has SIGINT ignored, and would pass that on): (exit code, output), or the
    running child if not ``wait``."""
    proc = forked.start(*args, cwd=cwd, env=env)
    if not wait:
        return proc
    out, _ = proc.communicate(timeout=120)
    return proc.returncode, out


def snapshot(project: Path) -> dict[str, bytes]:
    """Every file of the bank and its catalogs (what an import may change)."""
    return {p.relative_to(project).as_posix(): p.read_bytes() for top in ("bank", "translations") for p in sorted((project / top).rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def imported(tmp_path_factory) -> tuple[dict[str, bytes], dict[str, bytes]]:
    """(before, after) of importing three GIFT questions into a copy of the bundled bank cut to a
    dozen questions (`conftest.keep_only`, as the tests that compare with it cut theirs)."""
    root = tmp_path_factory.mktemp("reference")
    shutil.copytree(REPO / "bank", root / "bank")
    shutil.copytree(REPO / "translations", root / "translations")
    keep_only(root)
    before = snapshot(root)
    (root / "in.gift").write_text(_gift(3))
    from typer.testing import CliRunner

    from aistack_bank.cli import app

    with pytest.MonkeyPatch.context() as patch:  # a reference: imported in this process, uninterrupted
        patch.chdir(root)
        patch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("user-cache")))
        result = CliRunner().invoke(app, ["import", "gift", "in.gift"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return before, snapshot(root)


# 1. one import at a time, all or nothing ----------------------------------------------------------

def test_an_import_is_refused_while_another_command_holds_the_project_lock(project, run_cli):
    before = snapshot(project)
    (project / "in.gift").write_text(_gift(2))
    fd = os.open(project, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        code, out = run_cli("import", "gift", "in.gift")
    finally:
        os.close(fd)
    assert code == 1 and "bank: error E604: another `bank import` or `bank build` is using this bank" in out, out
    assert snapshot(project) == before


@pytest.mark.parametrize("command", [("new", "--slug", "x"), ("topic", "new", "extra", "--category", "computer-systems"),
                                     ("topic", "rename", "ai-hardware-software-stack", "other")])
def test_commands_that_change_the_bank_wait_for_no_import(project, run_cli, command):
    """`bank new` allocates ids as an import does: while an import runs it is refused, not given the same id."""
    before = snapshot(project)
    fd = os.open(project, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        code, out = run_cli(*command)
    finally:
        os.close(fd)
    assert code == 1 and "E604" in out and "was refused, nothing was changed" in out, out
    assert snapshot(project) == before


def test_two_imports_at_once_one_is_refused_and_the_bank_validates(project, run_cli):
    keep_only(project)
    (project / "a.gift").write_text(_gift(3))
    (project / "b.gift").write_text(_gift(3, start=10))
    first = child("import", "gift", "a.gift", cwd=project, env={"AISTACK_BANK_FAULT": "staged:STOP"}, wait=False)
    try:
        # Stopped, holding the lock: waited for as a stop (not for its staging folder, which it
        # makes before it stops; on a loaded machine the SIGCONT below could come first).
        assert first.wait_stopped(timeout=120) and (project / ".bank.import").is_dir(), first.returncode
        code, out = run_cli("import", "gift", "b.gift")
        assert code == 1 and "E604" in out, out
        code, out = run_cli("build", "--out", "exports", "-q")
        assert code == 1 and "E604" in out and "an import is changing this bank" in out, out
    finally:
        first.send_signal(signal.SIGCONT)
        out, _ = first.communicate(timeout=120)
    assert first.returncode == 0 and "3 question(s) imported" in out, out
    code, out = run_cli("validate", "--no-cache")
    assert code == 0 and "0 error(s)" in out, out
    assert not (project / ".bank.import").exists()


CASES = [("staged", "KILL"), ("journaled", "KILL"), ("moved-1", "KILL"), ("staging", "TERM"), ("moved-1", "TERM"), ("staged", "INT"), ("journaled", "INT")]


@pytest.mark.parametrize("point,sig", CASES)
def test_an_import_killed_leaves_the_bank_as_before_or_after_and_validate_says_so(project, run_cli, imported, point, sig):
    before, after = imported
    keep_only(project)
    assert snapshot(project) == before
    (project / "in.gift").write_text(_gift(3))
    code, out = child("import", "gift", "in.gift", cwd=project, env={"AISTACK_BANK_FAULT": f"{point}:{sig}"})
    assert code != 0 and "Traceback" not in out, out
    state = snapshot(project)
    code, out = run_cli("validate", "--no-cache", "--no-translations")
    staging = (project / ".bank.import").exists()
    if sig == "KILL" and point in ("journaled", "moved-1", "moved"):  # after the commit point: the journal completes it
        assert staging and code == 1 and ".bank.import: error E742: an import was interrupted while it wrote the bank" in out, out
        assert "`bank import --recover` completes it" in out
        code, out = run_cli("build", "--out", "exports", "-q")
        assert code == 1 and "E742" in out and not (project / "exports" / "gift").exists(), out
        code, out = run_cli("import", "--recover")
        assert code == 0 and "completed an interrupted import (4 file(s) written)" in out, out
        assert snapshot(project) == after
    elif sig == "KILL":  # before it: the bank is untouched, the staging is reported
        assert state == before
        assert staging and code == 0 and ".bank.import: warning W741: an import was interrupted before it changed the bank" in out, out
        code, out = run_cli("import", "--recover")
        assert code == 0 and "removed" in out, out
        assert snapshot(project) == before
    else:  # SIGTERM and SIGINT: cleaned up before the commit point, held back after it
        assert not staging and "W741" not in out and "E742" not in out, out
        assert state == (after if point in ("journaled", "moved-1") else before)
    assert not (project / ".bank.import").exists()
    code, out = run_cli("validate", "--no-cache", "--no-translations")
    assert code == 0, out


def test_the_next_import_completes_an_interrupted_one_first(project, run_cli, imported):
    _, after = imported
    keep_only(project)
    (project / "in.gift").write_text(_gift(3))
    code, out = child("import", "gift", "in.gift", cwd=project, env={"AISTACK_BANK_FAULT": "moved-1:KILL"})
    assert code == -signal.SIGKILL or code == 137, out
    (project / "more.gift").write_text(_gift(1, start=20))
    code, out = run_cli("import", "gift", "more.gift")
    following = max(int(n) for name in after for n in re.findall(r"/q(\d+)-[^/]*\.yaml$", name)) + 1  # after the interrupted import's ids
    assert code == 0 and "note: completed an interrupted import" in out and f"q{following:03d}" in out, out
    assert all(snapshot(project).get(name) == data for name, data in after.items() if "topic.yaml" not in name)


def test_a_planted_journal_cannot_write_outside_the_bank(project, run_cli, tmp_path):
    staging = project / ".bank.import"
    staging.mkdir()
    (staging / "n000000").write_text("owned")
    (staging / "journal.json").write_text('{"state": "commit", "entries": [{"target": "../evil.txt", "staged": "n000000", "backup": null}]}')
    code, out = run_cli("import", "--recover")
    assert code == 1 and "E742" in out and "cannot be read" in out, out
    assert not (project / "evil.txt").exists()


def test_a_read_only_questions_folder_is_an_error_and_changes_nothing(run_cli, monkeypatch):
    """As a user who cannot write ``questions/`` (as root, the effective user is dropped)."""
    import tempfile

    project = Path(tempfile.mkdtemp(prefix="bank-ro-"))
    try:
        shutil.copytree(REPO / "bank", project / "bank")
        shutil.copytree(REPO / "translations", project / "translations")
        keep_only(project)
        monkeypatch.chdir(project)
        before = snapshot(project)
        (project / "in.gift").write_text(_gift(3))
        folder = project / TOPIC / "questions"
        shutil.copytree(project, project / "warm")
        monkeypatch.chdir(project / "warm")
        assert run_cli("import", "gift", "in.gift")[0] == 0  # every module is imported (in a scratch copy)
        monkeypatch.chdir(project)
        shutil.rmtree(project / "warm")
        for path in [project, *project.rglob("*")]:
            os.chmod(path, 0o777 if path.is_dir() else 0o666)
        os.chmod(folder, 0o555)
        dropped = os.geteuid() == 0
        try:
            if dropped:
                os.seteuid(65534)
            code, out = run_cli("import", "gift", "in.gift")
        finally:
            if dropped:
                os.seteuid(0)
            os.chmod(folder, 0o755)
        assert code == 1 and "error E605: cannot write: Permission denied; nothing was imported" in out, out
        assert "Traceback" not in out
        assert snapshot(project) == before and not (project / ".bank.import").exists()
    finally:
        shutil.rmtree(project)


def test_a_full_disk_is_an_error_and_changes_nothing(project, run_cli, monkeypatch):
    import errno

    import aistack_bank.writing as writing

    before = snapshot(project)
    (project / "in.gift").write_text(_gift(3))
    real = writing._write_new
    calls = []

    def full(path, data):
        calls.append(path)
        if len(calls) == 2:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
        return real(path, data)

    monkeypatch.setattr(writing, "_write_new", full)
    code, out = run_cli("import", "gift", "in.gift")
    assert code == 1 and "E605" in out and "No space left on device" in out, out
    assert snapshot(project) == before and not (project / ".bank.import").exists()


# 2. what an importer writes passes validation ---------------------------------------------------

HOSTILE_TEXT = {
    "nul": ("What\x00 now?", "U+0000 (control) removed"),
    "escape": ("What\x1b[31m now?", "U+001B (control) removed"),
    "c1": ("What\x85 now?", "U+0085 (control) removed"),
    "bidi": ("What \u202eworg now?", "U+202E (RIGHT-TO-LEFT OVERRIDE) removed"),
    "bom": ("What\ufeff now?", "U+FEFF (ZERO WIDTH NO-BREAK SPACE) removed"),
    "line-separator": ("What\u2028now?", "U+2028 (LINE SEPARATOR) written as a line break"),
    "paragraph-separator": ("What\u2029now?", "U+2029 (PARAGRAPH SEPARATOR) written as a line break"),
}


@pytest.mark.parametrize("case", sorted(HOSTILE_TEXT))
def test_imported_text_is_normalised_with_a_located_note_and_validates(project, run_cli, case):
    keep_only(project)  # the import, then a validation of the bank: a dozen questions are enough
    text, note = HOSTILE_TEXT[case]
    (project / "in.gift").write_text(_gift(1) + f"\n::Hostile::{text} {{\n=right{text[:5]}\n~wrong\n}}\n", encoding="utf-8")
    code, out = run_cli("import", "gift", "in.gift")
    assert code == 0 and "2 question(s) imported" in out, out
    assert f"stem: {note}" in out and "(line 6 of in.gift)" in out, out
    code, out = run_cli("validate", "--no-cache", "--no-translations")
    assert code == 0 and "0 error(s)" in out, out


def test_a_stem_too_large_for_a_bank_file_is_skipped_not_written(project, run_cli):
    keep_only(project)
    before = sorted(p.name for p in (project / TOPIC / "questions").iterdir())
    (project / "in.gift").write_text(_gift(1) + "\n::Huge::" + "word " * 250_000 + "{\n=yes\n~no\n}\n", encoding="utf-8")
    code, out = run_cli("import", "gift", "in.gift")
    assert code == 0 and "1 question(s) imported, 1 skipped" in out, out
    assert "in.gift:6: skipped 'Huge': its question file would be" in out and "(E104)" in out, out
    assert len(sorted(p.name for p in (project / TOPIC / "questions").iterdir())) == len(before) + 1
    code, out = run_cli("validate", "--no-cache", "--no-translations")
    assert code == 0, out


def test_a_name_of_one_300_letter_word_gives_a_bounded_file_name(project, run_cli):
    (project / "in.gift").write_text(f"::{'a' * 300}::What now? {{\n=yes\n~no\n}}\n", encoding="utf-8")
    code, out = run_cli("import", "gift", "in.gift")
    assert code == 0 and "Traceback" not in out, out
    written = [p for p in (project / TOPIC / "questions").iterdir() if "aaaa" in p.name]
    assert len(written) == 1 and len(written[0].name) <= 80


@pytest.mark.parametrize("category,topic_id", [("$course$/top/2026", "topic-2026"), ("$course$/Questions", "questions-topic"),
                                               ("$course$/" + "b" * 300, "b" * 60)])
def test_an_import_into_an_empty_bank_makes_a_valid_topic_id(tmp_path, monkeypatch, run_cli, category, topic_id):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "in.gift").write_text(f"$CATEGORY: {category}\n\n" + _gift(2), encoding="utf-8")
    code, out = run_cli("import", "gift", "in.gift")
    assert code == 0 and "Traceback" not in out, out
    assert (tmp_path / "bank" / topic_id / "topic.yaml").is_file(), out
    if topic_id != "b" * 60:
        assert "note: " in out and (("start with a digit" in out) or ("is reserved" in out)), out
    code, out = run_cli("validate", "--no-cache", "--no-translations")
    assert code == 0, out


# 3. no traceback: deep nesting, bad encodings, huge numbers; refusals located ----------------------

MANIFEST = b'<?xml version="1.0"?><manifest xmlns="http://www.imsglobal.org/xsd/imscp_v1p1"><resources><resource identifier="r" type="imsqti_item_xmlv2p1" href="i.xml"><file href="i.xml"/></resource></resources></manifest>'


def _qti_folder(tmp_path: Path, item: bytes) -> Path:
    folder = tmp_path / "pkg"
    folder.mkdir()
    (folder / "imsmanifest.xml").write_bytes(MANIFEST)
    (folder / "i.xml").write_bytes(item)
    return folder


def test_a_qti_item_nested_1000_deep_is_skipped_without_a_traceback(tmp_path, run_cli, monkeypatch):
    monkeypatch.chdir(tmp_path)
    deep = "<div>" * 1000 + "x" + "</div>" * 1000
    item = (f'<assessmentItem xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1" identifier="i" title="Deep"><responseDeclaration identifier="RESPONSE" cardinality="single">'
            f'<correctResponse><value>a</value></correctResponse></responseDeclaration><itemBody><p>{deep}</p><choiceInteraction responseIdentifier="RESPONSE" maxChoices="1">'
            f'<simpleChoice identifier="a">yes</simpleChoice><simpleChoice identifier="b">no</simpleChoice></choiceInteraction></itemBody></assessmentItem>').encode()
    _qti_folder(tmp_path, item)
    code, out = run_cli("import", "qti", "pkg", "--bank", "bank")
    assert "Traceback" not in out and "RecursionError" not in out, out
    assert "skipped 'i.xml': elements nested more than 100 deep" in out, out


def test_html_of_walks_without_recursion():
    import xml.etree.ElementTree as ET

    from aistack_bank.importers.qti import _html_of

    root = ET.fromstring("<r>a" + "<b>" * 3000 + "x" + "</b>t" * 3000 + "</r>")
    html = _html_of(root)
    assert html.startswith("a<b><b>") and html.endswith("</b>t") and html.count("<b>") == 3000
    small = ET.fromstring("<r>a<p>b<i>c</i>d</p>e<q>f</q>g</r>")
    skip = {small.find("q")}
    assert _html_of(small) == "a<p>b<i>c</i>d</p>e<q>f</q>g" and _html_of(small, skip) == "a<p>b<i>c</i>d</p>eg"


@pytest.mark.parametrize("fmt,name,code", [("moodle", "in.xml", "E702"), ("qti", "pkg", "E723")])
def test_a_dtd_is_refused_at_its_line(tmp_path, run_cli, monkeypatch, fmt, name, code):
    monkeypatch.chdir(tmp_path)
    xml = b'<?xml version="1.0"?>\n\n<!DOCTYPE quiz [<!ENTITY x "y">]>\n<quiz>&x;</quiz>\n'
    if fmt == "qti":
        _qti_folder(tmp_path, xml)
        where = "pkg/i.xml:3:1"
    else:
        (tmp_path / name).write_bytes(xml)
        where = "in.xml:3:1"
    result, out = run_cli("import", fmt, name)
    assert result == 1 and f"{where}: error {code}: refused: the XML declares a DTD or entities" in out, out


def test_aiken_invalid_utf8_is_located(tmp_path, run_cli, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "in.txt").write_bytes(b"Q1?\nA) x\nB) caf\xe9\nANSWER: A\n")
    code, out = run_cli("import", "aiken", "in.txt")
    assert code == 1 and "in.txt:3:7: error E702: not UTF-8 text: byte 0xe9 cannot be decoded" in out, out


@pytest.mark.parametrize("encoding,words", [("rot13", "rot-13 is not a text encoding"), ("klingon", "unknown encoding 'klingon'"), ("base64", "is not a text encoding")])
def test_an_encoding_that_is_no_text_encoding_is_an_error(project, run_cli, encoding, words):
    (project / "in.gift").write_text(_gift(1))
    code, out = run_cli("import", "gift", "in.gift", "--encoding", encoding)
    assert code == 1 and "E705" in out and words in out and "Traceback" not in out, out


def test_a_5000_digit_integer_in_an_answers_file_is_a_located_error(tmp_path):
    from aistack_bank.analyze.readers import read_site

    path = tmp_path / "answers.json"
    text = '{"format": "x",\n "version": ' + "9" * 5000 + "}\n"
    result = read_site(path, text, bank=None)
    assert [(d.code, d.location.line, d.location.column) for d in result.diagnostics] == [("E903", 2, 13)], result.diagnostics


def test_a_5000_digit_response_column_is_no_crash(tmp_path):
    from aistack_bank.analyze import readers

    assert readers._RESPONSE.match("Response " + "9" * 5000) is None


# 4. reserved topic ids -------------------------------------------------------------------------

def test_bank_topic_new_questions_is_refused_with_the_reason(project, run_cli):
    code, out = run_cli("topic", "new", "questions", "--category", "computer-systems")
    assert code == 2 and "topic id 'questions' is reserved: a folder bank/questions/ is read as the questions folder" in out, out
    assert not (project / "bank" / "questions").exists()
    code, out = run_cli("topic", "rename", "ai-hardware-software-stack", "questions")
    assert code == 2 and "is reserved" in out, out


def test_bank_init_title_questions_is_refused_with_the_reason(tmp_path, run_cli, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out = run_cli("init", "course", "--title", "Questions")
    assert code == 2 and "--title: error E133: the title 'Questions' gives the topic id 'questions', which is reserved" in out, out
    assert not (tmp_path / "course").exists()


def test_bank_init_title_starting_with_a_year_makes_a_valid_bank(tmp_path, run_cli, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out = run_cli("init", "course", "--title", "2026 networks")
    assert code == 0 and (tmp_path / "course" / "bank" / "topic-2026-networks" / "topic.yaml").is_file(), out


# 5. GIFT escapes, UTF-16, shell-quoted hints ------------------------------------------------------------

def test_private_use_characters_in_a_gift_file_stay_themselves(tmp_path):
    from aistack_bank.importers import read_questions

    path = tmp_path / "in.gift"
    literal = "".join(chr(c) for c in range(0xE000, 0xE008))
    path.write_text(f"::PUA::Icons {literal} here \\{{ok\\}} {{\n=yes {literal}\n~no\n}}\n", encoding="utf-8")
    questions, _ = read_questions("gift", path)
    assert questions[0].stem == f"Icons {literal} here {{ok}}" and questions[0].options[0][0] == f"yes {literal}"


@pytest.mark.parametrize("bom", [True, False])
def test_a_utf16_gift_file_reads_or_gets_a_hint_that_works(project, run_cli, bom):
    data = _gift(2).encode("utf-16" if bom else "utf-16-le")
    (project / "in.gift").write_bytes(data)
    code, out = run_cli("import", "gift", "in.gift")
    if bom:
        assert code == 0 and "2 question(s) imported" in out, out
        return
    assert code == 1 and "E705" in out and "try --encoding utf-16-le" in out and "cp1252" not in out, out
    code, out = run_cli("import", "gift", "in.gift", "--encoding", "cp1252")
    assert code == 1 and "E705" in out and "try --encoding utf-16-le" in out, out
    code, out = run_cli("import", "gift", "in.gift", "--encoding", "utf-16-le")
    assert code == 0 and "2 question(s) imported" in out, out


def test_bank_init_prints_a_shell_quoted_next_step(tmp_path, run_cli, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out = run_cli("init", "my course (2026)")
    assert code == 0 and "next: cd 'my course (2026)' && bank validate" in out, out
    done = subprocess.run(out.strip().split("\n")[-1].removeprefix("next: ").replace("bank validate", "pwd"), shell=True, cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip().endswith("my course (2026)"), done


# issue-29 smaller points: Aiken skips a bad question -----------------------------------------------

def test_aiken_skips_a_bad_question_with_a_located_note(tmp_path, run_cli, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "in.txt").write_text("Q1?\nA) x\nB) y\nANSWER: A\n\nBad one\nsecond line\nA) x\nB) y\nANSWER: B\n\nQ3?\nA) x\nC) y\nANSWER: A\n\nQ4?\nA) p\nB) q\nANSWER: B\n")
    code, out = run_cli("import", "aiken", "in.txt")
    assert code == 0 and "2 question(s) imported, 2 skipped" in out, out
    assert "in.txt:6: skipped 'Bad one': a second line of text where its options should follow" in out and "(line 7)" in out, out
    assert "in.txt:12: skipped 'Q3?': option C where B was expected" in out, out


# 6. a build is all or nothing across formats ----------------------------------------------------------

def test_a_read_only_format_folder_leaves_every_other_format_untouched(run_cli, monkeypatch):
    """As a user who cannot write ``exports/aiken/`` (the last format written; as root, the
    effective user is dropped): E605, and no other format's files are replaced."""
    import tempfile

    project = Path(tempfile.mkdtemp(prefix="bank-build-ro-"))
    try:
        shutil.copytree(REPO / "bank", project / "bank")
        keep_only(project)  # three builds: a dozen questions are enough
        monkeypatch.chdir(project)
        monkeypatch.setenv("XDG_CACHE_HOME", str(project / "cache"))  # English only: a changed stem needs no translation
        assert run_cli("build", "--out", "exports", "-q")[0] == 0
        question = next((project / TOPIC / "questions").glob("q001-*.yaml"))
        text = question.read_text(encoding="utf-8")
        question.write_text(text.replace("stem: ", "stem: Changed ", 1) if "stem: >" not in text else text.replace("stem: >-\n  ", "stem: >-\n  Changed ", 1), encoding="utf-8")
        before = {p: p.read_bytes() for p in (project / "exports").rglob("*") if p.is_file()}
        for path in [project, *project.rglob("*")]:
            os.chmod(path, 0o777 if path.is_dir() else 0o666)
        os.chmod(project / "exports" / "aiken", 0o555)
        dropped = os.geteuid() == 0
        try:
            if dropped:
                os.seteuid(65534)
            code, out = run_cli("build", "--out", "exports")
        finally:
            if dropped:
                os.seteuid(0)
            os.chmod(project / "exports" / "aiken", 0o755)
        assert code == 1 and "exports/aiken" in out and "E605" in out and "Permission denied" in out, out
        after = {p: p.read_bytes() for p in (project / "exports").rglob("*") if p.is_file()}
        assert after == before
        assert run_cli("build", "--out", "exports", "-q")[0] == 0
        assert {p: p.read_bytes() for p in (project / "exports").rglob("*") if p.is_file()} != before  # the change does reach every format
    finally:
        shutil.rmtree(project)


# 7. the user cache unpickles only the user's own files ---------------------------------------------

class _Payload:
    def __init__(self, marker: str):
        self.marker = marker

    def __reduce__(self):
        return (Path.touch, (Path(self.marker),))


def _plant(path: Path, marker: Path) -> None:
    import pickle

    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(pickle.dumps(_Payload(str(marker))))


@pytest.mark.parametrize("how", ["own", "other-user", "world-writable-file", "group-writable-folder-of-another"])
def test_a_planted_pickle_in_the_user_cache_never_runs(tmp_path, monkeypatch, how):
    from aistack_bank.cache.validation import StatMemo
    from aistack_bank.cache.store import Store, cache_dir

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "common-cache"))
    marker = tmp_path / "ran"
    for make in (lambda: Store("questions", tmp_path), lambda: StatMemo([tmp_path])):
        store = make()
        _plant(store.path, marker)
        os.chmod(store.path, 0o644)
        for folder in (cache_dir(), store.path.parent):
            os.chmod(folder, 0o755)
        if how == "other-user":
            os.chown(store.path, 65534, 65534)
        elif how == "world-writable-file":
            os.chmod(store.path, 0o666)
        elif how == "group-writable-folder-of-another":
            os.chown(store.path.parent, 65534, 65534)
            os.chmod(store.path.parent, 0o775)
        if isinstance(store, Store):
            store.get("anything")
        else:
            make()
        assert marker.exists() == (how == "own"), how  # the control case shows the payload runs when unpickled
        marker.unlink(missing_ok=True)
        shutil.rmtree(cache_dir())


def test_cache_folders_are_created_private_and_a_loose_own_folder_is_tightened(tmp_path, monkeypatch):
    from aistack_bank.cache.store import Store, cache_dir

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "c"))
    old = os.umask(0o002)
    try:
        store = Store("questions", tmp_path)
        store.put("k", {"v": 1})
        store.save()
    finally:
        os.umask(old)
    assert store.path.is_file()
    for folder in (cache_dir(), store.path.parent):
        assert not os.stat(folder).st_mode & 0o077, oct(os.stat(folder).st_mode)
    os.chmod(store.path.parent, 0o777)
    assert Store("questions", tmp_path).get("k") == {"v": 1}
    assert not os.stat(store.path.parent).st_mode & 0o022


def test_a_gift_file_of_several_categories_imports_one_topic_per_category(tmp_path, run_cli, monkeypatch):
    from aistack_bank.load import read_library

    monkeypatch.chdir(tmp_path)
    source = REPO / "tests" / "data" / "imports" / "gift" / "moodle-4.5-every-type.gift"
    code, out = run_cli("import", "gift", str(source))
    assert code == 0 and "created bank/geography/topic.yaml" in out and "created bank/europe/topic.yaml" in out, out
    library = read_library(tmp_path / "bank")
    assert [d for d in library.diagnostics if d.severity.value == "error"] == []
    assert [c.id for c in library.categories] == ["geography"]
    assert {t.topic.id: (t.topic.category, t.topic.title, len(t.topic.questions)) for t in library.topics} == {
        "geography": ("geography", "Geography", 4), "europe": ("geography", "Europe", 4)}


def test_several_categories_into_a_bank_reuse_its_categories_and_add_the_others(project, run_cli):
    keep_only(project)
    (project / "in.gift").write_text("$CATEGORY: $course$/top/Computer systems/Caches\n\n" + _gift(2) + "\n$CATEGORY: $course$/top/Networks\n\n" + _gift(1, start=5))
    code, out = run_cli("import", "gift", "in.gift")
    assert code == 0 and "created bank/caches/topic.yaml" in out and "created bank/networks/topic.yaml" in out, out
    categories = (project / "bank" / "categories.yaml").read_text(encoding="utf-8")
    assert categories.startswith("# yaml-language-server") and categories.count("- id: computer-systems") == 1 and "- id: networks" in categories
    assert "category: computer-systems" in (project / "bank" / "caches" / "topic.yaml").read_text(encoding="utf-8")
    code, out = run_cli("validate", "--no-cache", "--no-translations")
    assert code == 0 and "0 error(s)" in out, out


def test_a_failure_while_copying_in_puts_everything_back_and_keeps_existing_folders(project, run_cli, monkeypatch):
    import errno

    import aistack_bank.writing as writing

    assert run_cli("topic", "new", "extra", "--category", "computer-systems")[0] == 0
    assert (project / "bank" / "extra" / "questions").is_dir()
    topic = project / "bank" / "extra" / "topic.yaml"
    topic.write_text(re.sub(r'(?m)^(summary|title|  general): .*$', r'\1: Extra questions.', topic.read_text(encoding="utf-8")), encoding="utf-8")
    before = snapshot(project)
    (project / "in.gift").write_text(_gift(3))
    real, calls = writing.write_atomic, []

    def failing(path, data):
        calls.append(path)
        if len(calls) == 3:  # the journal, the first question, then the disk is full
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
        return real(path, data)

    monkeypatch.setattr(writing, "write_atomic", failing)
    code, out = run_cli("import", "gift", "in.gift", "--topic", "extra")
    assert code == 1 and "E605" in out and "No space left on device" in out, out
    assert snapshot(project) == before and not (project / ".bank.import").exists()
    assert (project / "bank" / "extra" / "questions").is_dir()
