"""Hostile inputs, second round: nothing outside the project is touched, nothing unparseable is
exported, no input crashes or hangs.

Cases that could hang or exhaust memory on a broken implementation run the CLI in a child
process under a memory limit (the limit bounds the damage; nothing asserts on time). Tests that
validate or build the whole bank to reach what they are about (a folder, a link, a FIFO, a cache
entry) cut their copy down to twelve questions first (`conftest.keep_only`).
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import re
import shutil
import stat
import tempfile
from pathlib import Path

import pytest

import forked
from conftest import REPO, keep_only, question_file


def run_child(*args: str, cwd: Path, env: dict | None = None, timeout: int = 120):
    """`bank ARGS` in a child process (forked from this one, `forked.py`) with 1 GB of address
    space more than this process has; (exit code, output). A child still running after
    ``timeout`` seconds is killed and the test fails."""
    try:
        return forked.run(*args, cwd=cwd, env=env, memory=1 << 30, timeout=timeout)
    except TimeoutError:
        pytest.fail(f"`bank {' '.join(args)}` did not finish (hang)")


def assert_no_traceback(out: str) -> None:
    assert "Traceback" not in out and "Error:" not in out.split("error E")[0][-200:], out


LOCATED = re.compile(r"^\S[^\n]*:\d+:\d+: error E\d{3}: ", re.M)


# 1. bank build never deletes or writes outside its output folders ------------------------------

@pytest.fixture(scope="module")
def built_template(tmp_path_factory) -> Path:
    """The bundled bank cut to a dozen questions and built once per module (`bank build --out
    exports`, in this process); read-only: each test works on its own copy (``built``)."""
    from typer.testing import CliRunner

    from aistack_bank.cli import app

    root = tmp_path_factory.mktemp("built") / "project"
    shutil.copytree(REPO / "bank", root / "bank")
    shutil.copytree(REPO / "translations", root / "translations")
    keep_only(root)
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(root)
        patch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("user-cache")))
        result = CliRunner().invoke(app, ["build", "--out", "exports", "-q"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return root


@pytest.fixture
def built(built_template, tmp_path, monkeypatch) -> Path:
    """A scratch copy of the built dozen-question bank (its exports as `bank build` wrote them),
    with the working directory set to it."""
    root = tmp_path / "project"
    shutil.copytree(built_template, root, symlinks=True)
    monkeypatch.chdir(root)
    return root


def test_build_refuses_a_format_folder_that_is_a_symlink_and_deletes_nothing(project, run_cli):
    keep_only(project)
    (project / "exports").mkdir()
    (project / "exports" / "gift").symlink_to("../translations")
    before = sorted(p.relative_to(project).as_posix() for p in (project / "translations").rglob("*"))
    code, out = run_cli("build", "--out", "exports")
    assert code == 1, out
    assert "E603" in out and "exports/gift" in out
    assert sorted(p.relative_to(project).as_posix() for p in (project / "translations").rglob("*")) == before


def test_build_refuses_a_symlink_inside_a_format_folder(built, run_cli):
    project = built
    outside = project / "outside"
    outside.mkdir()
    (outside / "keep.txt").write_text("mine")
    shutil.rmtree(project / "exports" / "site" / "fr")
    (project / "exports" / "site" / "fr").symlink_to(outside)
    code, out = run_cli("build", "--out", "exports")
    assert code == 1 and "E603" in out and "exports/site/fr" in out, out
    assert [p.name for p in outside.iterdir()] == ["keep.txt"]


def test_build_never_deletes_files_it_did_not_write(built, run_cli):
    project = built
    mine = project / "exports" / "gift" / "notes.txt"
    mine.write_text("the maintainer's notes")
    (project / "exports" / "site" / "extra").mkdir()
    (project / "exports" / "site" / "extra" / "page.html").write_text("x")
    assert run_cli("build", "--out", "exports", "-q")[0] == 0
    assert mine.read_text() == "the maintainer's notes"
    assert (project / "exports" / "site" / "extra" / "page.html").exists()


def test_build_still_prunes_what_it_wrote_before(built, run_cli):
    project = built
    (project / "translations" / "nl.po").unlink()
    (project / "translations" / "site" / "nl.po").unlink(missing_ok=True)
    assert run_cli("build", "--out", "exports", "-q")[0] == 0
    assert not (project / "exports" / "gift" / "aistack-nl.gift").exists()
    assert not (project / "exports" / "site" / "nl").exists()


def test_build_refuses_while_another_build_holds_the_lock(project, run_cli):
    keep_only(project)
    (project / "exports").mkdir()
    fd = os.open(project / "exports", os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        code, out = run_cli("build", "--out", "exports")
    finally:
        os.close(fd)
    assert code == 1 and "E604" in out and "another" in out, out
    assert list((project / "exports").iterdir()) == []


def test_build_reports_a_folder_it_cannot_create(project, run_cli):
    keep_only(project)
    code, out = run_cli("build", "--out", "/proc/x")
    assert code == 1 and "E605" in out and "/proc/x" in out, out


def test_build_reports_a_full_disk_and_leaves_no_temporary_file(project, run_cli, monkeypatch):
    keep_only(project)
    import aistack_bank.writing as writing

    def full(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(writing.os, "fsync", full)
    code, out = run_cli("build", "--out", "exports")
    assert code == 1 and "E605" in out and "No space left on device" in out, out
    assert not [p for p in (project / "exports").rglob("*") if p.is_file()]


# 2. character rules on every parsed value ----------------------------------------------------------

YAML_ESCAPES = {
    "nul": ('"Why\\0 now?"', "E110", "U+0000"),
    "rlo": ('"Why\\u202E now?"', "E110", "U+202E"),
    "escape": ('"Why\\e now?"', "E110", "U+001B"),
    "bom": ('"Why\\uFEFF now?"', "E110", "U+FEFF"),
    "nel": ('"Why\\x85 now?"', "E110", "U+0085"),
    "line-separator": ('"Why\\L now?"', "E110", "U+2028"),
    "surrogate": ('"Why\\uD800 now?"', "E105", "Unicode character escape"),  # libyaml refuses it, at the escape
    "combining": ('"Why e\\u0301 now?"', "E109", "NFC"),
}


@pytest.mark.parametrize("case", sorted(YAML_ESCAPES))
def test_yaml_escapes_meet_the_character_rules_at_the_value(project, case):
    from aistack_bank.load import read_question

    value, code, what = YAML_ESCAPES[case]
    path = question_file(project, "q001")
    lines = path.read_text(encoding="utf-8").split("\n")
    index = next(i for i, line in enumerate(lines) if line.startswith("stem:"))
    end = index + 1
    while lines[end].startswith("  "):
        end += 1
    lines[index:end] = [f"stem: {value}"]
    path.write_text("\n".join(lines), encoding="utf-8")
    source, diags = read_question(path)
    assert source.question is None
    found = [d for d in diags if d.code == code]
    assert found and what in found[0].message, diags
    assert (found[0].location.line, found[0].location.column) == (index + 1, 13 if code == "E105" else 7), diags


def test_yaml_keys_meet_the_character_rules(tmp_path):
    from aistack_bank.yamlsource import load_yaml

    path = tmp_path / "x.yaml"
    path.write_text('a: 1\n"b\\0": 2\n', encoding="utf-8")
    doc, diags = load_yaml(path)
    assert doc is None and [(d.code, d.location.line, d.location.column) for d in diags] == [("E110", 2, 1)]


PO_VALUES = {
    "escaped-nul": ('"Pourquoi\\x00 ?"', "U+0000"),
    "octal-nul": ('"Pourquoi\\0 ?"', "U+0000"),
    "raw-nul": ('"Pourquoi\x00 ?"', "U+0000"),
    "rlo": ('"Pourquoi\u202e ?"', "U+202E"),
    "bom": ('"Pourquoi\ufeff ?"', "U+FEFF"),
    "surrogate": ('"Pourquoi\\xD800 ?"', "U+D800"),
    "escape-out-of-range": ('"Pourquoi\\xFFFFFFFF ?"', "out of range"),
    "non-nfc": ('"Pourquoi e\u0301 ?"', "NFC"),
}


def _set_msgstr(po: Path, key: str, quoted: str) -> int:
    """Replace the msgstr of ``key`` with one line ``msgstr QUOTED``; its line number."""
    lines = po.read_text(encoding="utf-8").split("\n")
    start = lines.index(f'msgctxt "{key}"')
    at = next(i for i in range(start, len(lines)) if lines[i].startswith("msgstr"))
    end = at + 1
    while end < len(lines) and lines[end].startswith('"'):
        end += 1
    lines[at:end] = [f"msgstr {quoted}"]
    po.write_text("\n".join(lines), encoding="utf-8")
    return at + 1


@pytest.mark.parametrize("case", sorted(PO_VALUES))
def test_catalog_values_meet_the_character_rules(project, case):
    from aistack_bank.i18n.catalog import read_catalog

    quoted, what = PO_VALUES[case]
    po = project / "translations" / "fr.po"
    line = _set_msgstr(po, "q001.stem", quoted)
    catalog = read_catalog(po)
    assert catalog.diagnostics, case
    d = catalog.diagnostics[0]
    assert d.code in ("E540", "E501") and what in d.message, catalog.diagnostics
    assert d.location.line == line and d.location.column >= 8, d


def test_a_catalog_nul_never_reaches_an_export(project, run_cli):
    keep_only(project)
    _set_msgstr(project / "translations" / "fr.po", "q001.stem", '"Pourquoi\\x00 ?"')
    code, out = run_cli("build", "--out", "exports")
    assert code == 1 and "E540" in out and LOCATED.search(out), out
    assert not (project / "exports").exists()


@pytest.fixture(scope="module")
def english():
    """The bundled bank in English, read once for the exporter cases below."""
    from aistack_bank.build import load_localized

    banks, _ = load_localized(REPO / "bank", REPO / "translations", ["en"])
    return banks["en"]


def _bank_with(english, text: str):
    """The English bank cut down to its first two questions, the first one's stem ``text``: an
    exporter meets the text in the first question it writes, as in the whole bank."""
    q = english.questions[0]
    q = q.model_copy(update={"stem": text})
    return {"en": english.model_copy(update={"questions": (q, english.questions[1])})}


@pytest.mark.parametrize("fmt", ["moodle-xml", "gift", "qti21", "qti30", "json", "html"])
@pytest.mark.parametrize("bad", ["\x00", "\ud800", "\x1b", "\ufffe"])
def test_every_exporter_refuses_text_its_format_cannot_carry(fmt, bad, tmp_path, english):
    from aistack_bank.build import render, write_outputs
    from aistack_bank.errors import ExportError
    from aistack_bank.options import ExportOptions

    banks = _bank_with(english, f"Why{bad} now?")
    with pytest.raises(ExportError) as info:
        trees = render([fmt], banks, ExportOptions())
        write_outputs(trees, {fmt: tmp_path / "out"}, banks)
    assert info.value.code == "E606" and "U+" in info.value.message
    assert not (tmp_path / "out").exists()


# 3. language codes from catalog file names ---------------------------------------------------------

def test_a_catalog_name_that_is_not_a_language_code_is_refused(project, run_cli):
    keep_only(project)
    shutil.copy(project / "translations" / "fr.po", project / "translations" / 'x" onmouseover="alert(1).po')
    code, out = run_cli("validate", "--no-cache")
    assert code == 1 and "E541" in out, out
    assert re.search(r'translations/x" onmouseover="alert\(1\)\.po: error E541', out), out
    code, out = run_cli("build", "--out", "exports")
    assert code == 1 and "E541" in out
    assert not (project / "exports").exists()


@pytest.mark.parametrize("code,ok", [("fr", True), ("pt_BR", True), ("zh-Hant", True), ("zh_Hant_TW", True), ("sr@latin", True), ("ast", True),
                                     ('x" onmouseover="alert(1)', False), ("../fr", False), ("fr.bak", False), ("e", False), ("FR_", False), ("", False)])
def test_language_code_syntax(code, ok):
    from aistack_bank.i18n.catalog import is_language_code

    assert is_language_code(code) is ok


# 4. line-based formats: newlines in titles, "--" in XML comments ---------------------------------

def test_a_newline_in_the_title_is_refused_at_validation(project, run_cli):
    keep_only(project)
    topic = project / "bank" / "ai-hardware-software-stack" / "topic.yaml"
    text = topic.read_text(encoding="utf-8")
    line = text.split("\n").index("title: AI Hardware & Software Stack") + 1
    topic.write_text(text.replace("title: AI Hardware & Software Stack", 'title: "AI stack\\n$CATEGORY: $course$/top/Evil\\n::q1::[html]x {=y}"'), encoding="utf-8")
    code, out = run_cli("validate", "--no-cache", "--no-translations")
    assert code == 1 and f"bank/ai-hardware-software-stack/topic.yaml:{line}:8: error E116" in out, out


def test_a_newline_in_a_translated_title_is_refused_at_the_msgstr(project, run_cli):
    keep_only(project)
    po = project / "translations" / "fr.po"
    line = _set_msgstr(po, "topic.ai-hardware-software-stack.title", '"Pile IA\\n$CATEGORY: $course$/top/Evil"')
    code, out = run_cli("validate", "--no-cache")
    assert code == 1 and f"translations/fr.po:{line}:1: error E116" in out, out


def test_dashes_in_the_title_keep_the_moodle_xml_comment_well_formed(project, run_cli):
    from lxml import etree

    keep_only(project)
    topic = project / "bank" / "ai-hardware-software-stack" / "topic.yaml"
    topic.write_text(topic.read_text(encoding="utf-8").replace("title: AI Hardware & Software Stack", "title: AI stack --- a -- b -"), encoding="utf-8")
    code, out = run_cli("export", "moodle-xml", "--lang", "en", "--out", "m", "--translations", "none")
    assert code == 0, out
    root = etree.parse(str(project / "m" / "aistack-en.xml"))
    assert root.getroot().tag == "quiz"


# 5. only regular files, size before reading, bounded reads ----------------------------------------

def test_a_fifo_as_a_question_file_is_refused(project):
    keep_only(project)
    path = question_file(project, "q001")
    path.unlink()
    os.mkfifo(path)
    code, out = run_child("validate", "--no-cache", cwd=project)
    assert code == 1 and f"{path.relative_to(project).as_posix()}: error E101: not a regular file" in out, out


def test_a_fifo_as_a_catalog_is_refused(project):
    keep_only(project)
    (project / "translations" / "fr.po").unlink()
    os.mkfifo(project / "translations" / "fr.po")
    code, out = run_child("build", "--out", "exports", cwd=project)
    assert code == 1 and "translations/fr.po: error E501: not a regular file" in out, out


def test_a_fifo_as_an_import_file_is_refused(project):
    os.mkfifo(project / "in.gift")
    code, out = run_child("import", "gift", "in.gift", cwd=project)
    assert code == 1 and "E701" in out and "not a regular file" in out, out


def test_a_symlink_to_dev_zero_is_refused(project):
    keep_only(project)
    path = question_file(project, "q002")
    path.unlink()
    path.symlink_to("/dev/zero")
    code, out = run_child("validate", cwd=project)
    assert code == 1 and f"{path.relative_to(project).as_posix()}: error E115" in out, out
    assert_no_traceback(out)


def test_a_device_named_directly_is_not_read():
    from aistack_bank.yamlsource import load_yaml

    doc, diags = load_yaml(Path("/dev/zero"))
    assert doc is None and [(d.code, d.message) for d in diags] == [("E101", "not a regular file (a device); only regular files are read")]


def test_a_huge_sparse_file_is_never_read_whole(project):
    keep_only(project)
    big = project / "bank" / "ai-hardware-software-stack" / "questions" / "q999-huge.yaml"
    with open(big, "wb") as fh:
        fh.truncate(2 << 30)
    code, out = run_child("validate", cwd=project, env={"XDG_CACHE_HOME": str(project / "cache")})
    assert code == 1 and "q999-huge.yaml: error E104" in out, out


# 6. the cache cannot turn a failing verdict into a passing one; GitHub annotations escaped ----------

def _break_q001(project: Path) -> None:
    path = question_file(project, "q001")
    path.write_text(path.read_text(encoding="utf-8").replace("correct: a", "correct: x"), encoding="utf-8")


def test_a_planted_cache_cannot_pass_a_broken_bank(project, run_cli, monkeypatch):
    from aistack_bank.cache import validation as cache

    keep_only(project)
    monkeypatch.setenv("XDG_CACHE_HOME", str(project / "user-cache"))
    _break_q001(project)
    bank, tr = Path("bank"), Path("translations")
    key = cache.input_digest(bank, tr)
    planted = {bank.resolve().as_posix(): {"key": key, "diagnostics": [], "summary": {"questions": 50, "key_positions": {}, "key_longest_share": 0, "line": "50 questions"}}}
    (project / ".bank-cache").mkdir()
    (project / ".bank-cache" / "validate.json").write_text(json.dumps(planted))
    code, out = run_cli("validate")
    assert code == 1 and "E304" in out, out


@pytest.mark.parametrize("entry", [{"key": "K"}, {"key": "K", "diagnostics": [{"x": 1}], "summary": {}}, {"key": "K", "diagnostics": "no", "summary": 3}, ["K"]])
def test_a_malformed_cache_entry_is_ignored(project, run_cli, monkeypatch, entry):
    keep_only(project)
    from aistack_bank.cache import validation as cache

    monkeypatch.setenv("XDG_CACHE_HOME", str(project / "user-cache"))
    bank, tr = Path("bank"), Path("translations")
    assert run_cli("validate")[0] == 0
    key = cache.input_digest(bank, tr)
    for path in [project / ".bank-cache" / "validate.json", *(project / "user-cache").rglob("*.json")]:
        path.parent.mkdir(parents=True, exist_ok=True)
        raw = json.dumps(entry).replace('"K"', json.dumps(key))
        path.write_text(json.dumps({bank.resolve().as_posix(): json.loads(raw)}) if "validate.json" in path.name else raw)
    code, out = run_cli("validate")
    assert code == 0 and "0 error(s)" in out, out


def test_the_cache_lives_outside_the_repository(project, run_cli, monkeypatch):
    keep_only(project)
    monkeypatch.setenv("XDG_CACHE_HOME", str(project / "user-cache"))
    assert run_cli("validate")[0] == 0
    assert not (project / ".bank-cache").exists()
    assert list((project / "user-cache").rglob("*.json"))


def test_github_annotations_escape_properties_and_data(project, run_cli):
    keep_only(project)
    evil = project / "bank" / "ai-hardware-software-stack" / "questions" / "q998-a\n::error file=x.yaml::forged,b:c%.yaml"
    shutil.copy(question_file(project, "q001"), evil)
    code, out = run_cli("validate", "--no-cache", "--format", "github")
    assert code == 1
    commands = [line for line in out.split("\n") if line.startswith("::")]
    assert commands and not any(line.startswith("::error file=x.yaml") for line in commands), out
    forged = [line for line in commands if "forged" in line]
    assert forged and all("q998-a%0A%3A%3Aerror file=x.yaml%3A%3Aforged%2Cb%3Ac%25.yaml" in line for line in forged), forged


# 7. tracebacks become located errors ----------------------------------------------------------------

def test_a_5000_digit_difficulty_is_a_located_error(project, run_cli):
    keep_only(project)
    path = question_file(project, "q001")
    text = path.read_text(encoding="utf-8")
    line = text.split("\n").index("difficulty: 1") + 1 if "difficulty: 1" in text else text.split("\n").index("difficulty: 2") + 1
    path.write_text(re.sub(r"^difficulty: \d", "difficulty: " + "9" * 5000, text, flags=re.M), encoding="utf-8")
    code, out = run_cli("validate", "--no-cache", "--no-translations")
    assert code == 1 and f"{line}:13: error E203: difficulty" in out, out


def _set_script(project: Path, qid: str, script: str) -> Path:
    path = question_file(project, qid)
    text = path.read_text(encoding="utf-8")
    head, _, _ = text.partition("check:")
    body = "\n".join("    " + line for line in script.split("\n"))
    path.write_text(f"{head}check:\n  script: |\n{body}\n", encoding="utf-8")
    return path


def test_a_400_digit_integer_in_a_check_script_is_a_located_error(project, run_cli):
    keep_only(project)
    path = _set_script(project, "q004", "x = " + "9" * 400 + "\nanswer(x, unit='GB')")
    code, out = run_cli("validate", "--no-cache", "--no-translations")
    line = path.read_text(encoding="utf-8").split("\n").index("  script: |") + 2
    assert code == 1 and f"{line}:9: error E402" in out, out


def test_400_nested_parentheses_in_an_option_formula_is_no_crash(project, run_cli):
    path = question_file(project, "q006")
    path.write_text(path.read_text(encoding="utf-8").replace("text: 2MN\n", "text: " + "(" * 400 + "2MN" + ")" * 400 + "\n"), encoding="utf-8")
    code, out = run_cli("validate", "--no-cache", "--no-translations")
    assert code in (0, 1) and "Traceback" not in out, out


def test_a_formula_nested_too_deep_is_a_syntax_error():
    from aistack_bank.rules.quantities import FormulaSyntaxError, evaluate_formula

    with pytest.raises(FormulaSyntaxError):
        evaluate_formula("(" * 400 + "2N" + ")" * 400, {"N": 3})


def test_an_unreadable_questions_folder_is_a_located_error(run_cli, monkeypatch):
    """As a user who cannot read ``bank/ai-hardware-software-stack/questions/`` (as root, the effective user is dropped)."""
    nobody = 65534
    top = Path(tempfile.mkdtemp(prefix="bank-perm-"))
    try:
        shutil.copytree(REPO / "bank", top / "bank")
        keep_only(top)  # two validations: a dozen questions are enough
        for path in [top, *top.rglob("*")]:
            os.chmod(path, 0o755 if path.is_dir() else 0o644)
        monkeypatch.chdir(top)
        assert run_cli("validate", "--no-translations", "--no-cache")[0] == 0  # every module is imported
        os.chmod(top / "bank" / "ai-hardware-software-stack" / "questions", 0o000)
        if os.geteuid() == 0:
            os.seteuid(nobody)
        try:
            code, out = run_cli("validate", "--no-translations", "--no-cache")
        finally:
            if os.getuid() == 0:
                os.seteuid(0)
        assert code == 1 and "bank/ai-hardware-software-stack/questions: error E101: cannot list the question files: Permission denied" in out, out
    finally:
        os.chmod(top / "bank" / "ai-hardware-software-stack" / "questions", 0o755)
        shutil.rmtree(top)


def _gift(count: int) -> str:
    return "\n\n".join(f"::Q{i}::What is {i}? {{\n=yes\n~no\n}}" for i in range(count)) + "\n"


@pytest.mark.parametrize("damage", ["broken", "no-questions"])
def test_import_into_a_bank_with_a_bad_topic_writes_nothing(project, run_cli, damage):
    topic = project / "bank" / "ai-hardware-software-stack" / "topic.yaml"
    text = topic.read_text(encoding="utf-8")
    topic.write_text(text.replace("id: ai-hardware", "id: [ai-hardware") if damage == "broken" else text.split("\nquestions:")[0] + "\n", encoding="utf-8")
    before = sorted(p.name for p in (project / "bank" / "ai-hardware-software-stack" / "questions").iterdir())
    (project / "in.gift").write_text(_gift(3))
    code, out = run_cli("import", "gift", "in.gift")
    assert code == 1 and "bank/ai-hardware-software-stack/topic.yaml" in out and "E703" in out, out
    assert sorted(p.name for p in (project / "bank" / "ai-hardware-software-stack" / "questions").iterdir()) == before


def test_an_interrupted_import_leaves_nothing_behind(project, run_cli, monkeypatch):
    import aistack_bank.importers.write as write

    calls = []
    real = write.render_question_yaml

    def failing(data):
        calls.append(data)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(data)

    monkeypatch.setattr(write, "render_question_yaml", failing)
    before = {p: p.read_bytes() for p in (project / "bank").rglob("*") if p.is_file()}
    (project / "in.gift").write_text(_gift(5))
    code, out = run_cli("import", "gift", "in.gift")  # click turns the interrupt into "Aborted!"
    assert code != 0 and len(calls) == 3, out
    after = {p: p.read_bytes() for p in (project / "bank").rglob("*") if p.is_file()}
    assert after == before


def test_an_import_over_the_count_limit_is_refused(project, run_cli, monkeypatch):
    import aistack_bank.importers as importers

    monkeypatch.setattr(importers, "MAX_IMPORT_QUESTIONS", 4)
    before = sorted(p.name for p in (project / "bank" / "ai-hardware-software-stack" / "questions").iterdir())
    (project / "in.gift").write_text(_gift(5))
    code, out = run_cli("import", "gift", "in.gift")
    assert code == 1 and "E704" in out and "5 questions" in out, out
    assert sorted(p.name for p in (project / "bank" / "ai-hardware-software-stack" / "questions").iterdir()) == before


# 8. the smaller ones ---------------------------------------------------------------------------------

def test_a_question_file_that_links_outside_the_repository_is_refused(project, tmp_path, run_cli):
    keep_only(project)
    outside = tmp_path / "elsewhere.yaml"
    path = question_file(project, "q003")
    shutil.copy(path, outside)
    path.unlink()
    path.symlink_to(outside)
    code, out = run_cli("validate", "--no-cache", "--no-translations")
    assert code == 1 and f"{path.relative_to(project).as_posix()}: error E115" in out, out


def test_a_catalog_that_links_outside_the_repository_is_refused(project, tmp_path, run_cli):
    keep_only(project)
    outside = tmp_path / "elsewhere.po"
    shutil.copy(project / "translations" / "fr.po", outside)
    (project / "translations" / "fr.po").unlink()
    (project / "translations" / "fr.po").symlink_to(outside)
    code, out = run_cli("validate", "--no-cache")
    assert code == 1 and "translations/fr.po: error E115" in out, out


def test_a_link_inside_the_repository_is_followed(project, run_cli):
    keep_only(project)
    path = question_file(project, "q003")
    (project / "linked.yaml").write_bytes(path.read_bytes())
    path.unlink()
    path.symlink_to(project / "linked.yaml")
    code, out = run_cli("validate", "--no-cache", "--no-translations")
    assert code == 0, out


def test_an_anchor_without_an_alias_is_refused(tmp_path):
    from aistack_bank.yamlsource import load_yaml

    path = tmp_path / "x.yaml"
    path.write_text("a: 1\nb: &here 2\n", encoding="utf-8")
    doc, diags = load_yaml(path)
    assert doc is None and [(d.code, d.location.line, d.location.column) for d in diags] == [("E108", 2, 4)]


def test_an_ampersand_in_text_is_not_an_anchor(tmp_path):
    from aistack_bank.yamlsource import load_yaml

    path = tmp_path / "x.yaml"
    path.write_text('a: "x &y"\nb: AI & ML\nc: |\n  &z\n', encoding="utf-8")
    doc, diags = load_yaml(path)
    assert doc is not None and diags == []


def test_catalog_diagnostics_with_a_line_carry_a_column(project, run_cli):
    po = keep_only(project) / "translations" / "fr.po"  # q001 and the category are kept; the build is of a dozen questions
    text = po.read_text(encoding="utf-8")
    # a duplicate (E506), an entry no longer in the bank (W503) and a fuzzy stem (E504 at export)
    block = text[text.index('msgctxt "category.computer-systems.title"'):].split("\n\n")[0]
    po.write_text(text + "\n" + block + "\n\n" + block.replace("category.computer-systems.title", "q777.stem") + "\n", encoding="utf-8")
    from aistack_bank.i18n.catalog import read_catalog

    d = read_catalog(po).diagnostics
    assert d and d[0].code == "E506" and d[0].location.column == 1, d
    po.write_text(text + "\n" + block.replace("category.computer-systems.title", "q777.stem") + "\n", encoding="utf-8")
    code, out = run_cli("validate", "--no-cache")
    assert re.search(r"translations/fr\.po:\d+:1: warning W503", out), out
    lines = text.split("\n")
    start = lines.index('msgctxt "q001.stem"')
    lines.insert(start, "#, fuzzy")
    po.write_text("\n".join(lines), encoding="utf-8")
    from aistack_bank.build import load_libraries
    from aistack_bank.errors import DiagnosticsError

    with pytest.raises(DiagnosticsError) as info:  # a localization that needs every text
        load_libraries(project / "bank", project / "translations", ["en", "fr"])
    assert any(d.code == "E504" and d.location.line and d.location.column == 1 for d in info.value.diagnostics)
    code, out = run_cli("build", "--out", "exports")  # French is in progress again: left out
    assert code == 0 and "translations/fr.po: warning W558: fr is 9" in out, out
    code, out = run_cli("i18n", "todo", "fr")
    assert re.search(r"^translations/fr\.po:\d+: fuzzy q001\.stem$", out, re.M), out


# the importer unescapes once ------------------------------------------------------------------------

def test_the_importer_unescapes_entities_once():
    from aistack_bank.importers._html import html_to_text

    assert html_to_text("<p>Write &amp;lt;b&amp;gt;</p>")[0] == "Write &lt;b&gt;"
    assert html_to_text("<p>2 &lt; 3 &amp;&amp; 4 &gt; 1</p>")[0] == "2 < 3 && 4 > 1"


def test_a_moodle_xml_import_keeps_escaped_markup_as_text(project, run_cli):
    xml = """<?xml version="1.0" encoding="UTF-8"?>
<quiz><question type="multichoice"><name><text>Tags</text></name>
<questiontext format="html"><text><![CDATA[<p>Write &amp;lt;b&amp;gt; to show a tag</p>]]></text></questiontext>
<generalfeedback format="html"><text>Because.</text></generalfeedback>
<single>true</single>
<answer fraction="100"><text>yes</text></answer><answer fraction="0"><text>no</text></answer>
</question></quiz>
"""
    (project / "in.xml").write_text(xml, encoding="utf-8")
    code, out = run_cli("import", "moodle", "in.xml")
    assert code == 0, out
    written = sorted((project / "bank" / "ai-hardware-software-stack" / "questions").glob("*-tags.yaml"))
    assert written and "Write &lt;b&gt; to show a tag" in written[0].read_text(encoding="utf-8")


def test_a_fifo_in_place_of_an_export_or_the_template_does_not_block(built):
    project = built  # built in this process: only the runs that meet a FIFO are child processes
    target = project / "exports" / "gift" / "aistack-en.gift"
    target.unlink()
    os.mkfifo(target)
    (project / "translations" / "aistack.pot").unlink()
    os.mkfifo(project / "translations" / "aistack.pot")
    code, out = run_child("validate", "--no-cache", cwd=project)
    assert code == 0 and "W504" in out, out
    code, out = run_child("build", "--out", "exports", "-q", cwd=project)
    assert code == 0, out
    assert stat.S_ISREG(os.lstat(target).st_mode) and target.read_bytes().startswith(b"// ")
