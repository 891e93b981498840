"""Shared fixtures: the repository, a scratch copy of the bank, and an in-process CLI runner."""

from __future__ import annotations

import gc
import itertools
import os
import shutil
import sys
from pathlib import Path

import pytest

# Bytecode is written (to the git-ignored __pycache__/ folders) even where PYTHONDONTWRITEBYTECODE
# is set: otherwise every test process compiles the package and rewrites the asserts of every test
# module again at collection (about 8.5 s of CPU per process instead of 3.5 s; pytest-xdist starts
# one per core), and every `python -m aistack_bank` a test starts compiles the package again.
sys.dont_write_bytecode = False

# The tests run the commands in this process (run_cli), where `bank`'s main() does not set the
# garbage collector's thresholds: set them as it does (a full collection after 1 000 of the
# middle generation, not 10). A test process holds every collected test, module and memo while
# the commands allocate, and each full collection walks all of it: with Python's default,
# collections took about a tenth of the CPU time of test_analyze, test_i18n, test_validate and
# the lms tests (2.8 s -> 1.1 s).
gc.set_threshold(700, 10, 1000)

# A test never loses power, so what fsync adds (the bytes on the disk before a rename or an index
# that points to them) is nothing a test can observe, while waiting for the disk was about 8 % of
# the suite's wall time (225 s -> 208 s, back to back on two idle cores). In the test processes
# fsync checks its descriptor as the real one does (a closed or wrong descriptor still raises)
# and does not wait. The bank processes a test starts (`python -m aistack_bank`) keep the real
# fsync, and the tests of a failing fsync (test_writing, test_hardening2) set their own.
def _fsync_without_waiting(fd: int) -> None:
    os.fstat(fd)


os.fsync = _fsync_without_waiting

REPO = Path(__file__).resolve().parents[1]
FLAGSHIP = "ai-hardware-software-stack"
"""The id of the bundled bank's topic: its files are under bank/<FLAGSHIP>/."""
# The topic's public pages in English, French and Dutch: the reference for the seed texts.
SOURCES = REPO / "docs" / "sources"
# The official QTI 2.1/3.0 and content-packaging XSDs with an offline catalog (see its README).
QTI_SCHEMAS = REPO / "tests" / "data" / "schemas" / "qti"

# lxml reads the XML catalog when it is first used; set it before any test imports lxml.
os.environ.setdefault("XML_CATALOG_FILES", str(QTI_SCHEMAS / "catalog.xml"))


LONGEST = (
    "tests/test_wheel.py::",
    "tests/test_typography_distinct_first_equivalence.py::test_distinct_first_equals_the_loop_before",
    "tests/test_benchmark_smoke.py::test_run_quick",
    "tests/test_leak_files_equivalence.py::test_the_texts_taken_by_question_find_what_the_lint_found_before",
    "tests/test_update_stream_equivalence.py::test_streamed_update_equals_the_merged_catalog_written_whole",
    "tests/test_unicode_property.py::",
    "tests/test_parity_sides_latin1_equivalence.py::test_latin1_texts_of_the_pieces",
    "tests/test_yaml_quick_equivalence.py::test_random_texts_read_alike",
    "tests/test_i18n_status_lean.py::test_status_and_todo_as_the_whole_reads_on_varied_catalogs",
    "tests/test_po_msgcat.py::test_writer_matches_msgcat_byte_for_byte",
    "tests/test_topics_exports.py::test_every_qti_package_is_valid_and_the_whole_bank_has_one_section_per_topic",
    "tests/test_translation_parity_equivalence.py::",
    "tests/test_translation_history.py::",
    "tests/test_qti_kinds.py::test_every_item_test_and_manifest_is_valid[en-qti30]",
    "tests/test_topics_kinds_exports.py::test_the_whole_bank_qti_package_holds_every_kind_in_its_topics_section",
    "tests/test_catalog_cue_marks_equivalence.py::test_length_cue_from_lengths_is_the_cue_before",
    "tests/test_properties_kinds.py::",
    "tests/test_leak_topic_words_learnt_once.py::test_the_lint_finds_what_it_found_before_in_the_same_order",
    "tests/test_exporters.py::test_qti_packages_validate_against_the_official_schemas",
    "tests/test_leak_topics_equivalence.py::test_the_lint_finds_what_it_found_before_in_the_same_order[1]",
    "tests/test_i18n.py::test_mo_writer_is_polibs",
    "tests/test_json_render_equivalence.py::test_the_contract_check_accepts_what_the_models_accept",
    "tests/test_catalog_scans_equivalence.py::test_the_hint_search_answers_as_before_for_every_character",
    "tests/test_parity_sides_latin1_equivalence.py::test_hostile_texts",
    "tests/test_catalog_read_lines_equivalence.py::test_the_rows_are_read_as_before",
    "tests/test_catalog_lookups_once_equivalence.py::test_a_damaged_catalog_is_verified_as_before",
    "tests/test_catalog_quick_strings_equivalence.py::test_the_readers_read_what_they_read_before",
    "tests/test_moodle_streamed_equivalence.py::test_combined_defects_are_found_as_the_whole_files_check_found_them",
    "tests/test_interrupted.py::test_a_build_interrupted_while_it_writes_leaves_the_exports_as_they_were",
    "tests/test_catalog_worker_read_equivalence.py::",
    "tests/test_parallel_pool.py::test_workers_ended_while_they_hand_back_large_results_leave_nothing_waiting",
    "tests/test_template_lines_equivalence.py::test_the_items_are_those_of_the_read_that_counts_lines",
    "tests/test_catalog_delta.py::test_catalog_edits_give_the_verdict_of_a_run_without_cache",
    "tests/test_powrap_words.py::",
    "tests/test_properties.py::",
)
"""The tests that take the most CPU (from about 1.5 s to 9 s each, measured test by test with
`-n 0` in round 21, where most tests take under a tenth of a second; the wheel first, by its wall
time: a chain of some twenty processes, pip's among them, that a loaded machine stretches most),
longest first; the Chromium tests are not listed (their CPU is in Chromium's processes, a test's
wall time is at most 3 s, and listed they would start a second Chromium on the other worker).
They are collected first, in this order, so that they start first: pytest-xdist (`--dist
worksteal` in pyproject.toml) hands each worker half of the tests in collection order and lets a
worker that runs out take not-yet-started tests from the other, but a test already running is not
shared, and one of these started last would keep one core busy while the other has nothing left
to do. A stale entry only changes the order."""


def _longest_rank(nodeid: str) -> int:
    """The place in LONGEST of the first entry ``nodeid`` starts with (after them all if none)."""
    for rank, prefix in enumerate(LONGEST):
        if nodeid.startswith(prefix):
            return rank
    return len(LONGEST)


def pytest_collection_modifyitems(items):
    items.sort(key=lambda item: _longest_rank(item.nodeid))  # stable: the rest keep their order


def pytest_collection_finish(session):
    """What the collection leaves (the imported test modules and libraries, the collected tests:
    some 110 MB of a test process, kept to its end) is collected once and frozen out of the
    garbage collector's reach (``gc.freeze``), as `bank` freezes what a command keeps: the
    collections the tests' commands set off, in the test process and in every worker forked from
    it, no longer walk it (and the workers' collections no longer write to the pages they share
    with it). It stays frozen until a pool of ``parallel.imap`` ends (its ``gc.unfreeze`` gives
    back everything frozen): on 51 files in one process, 60.8 and 60.4 s of CPU instead of 68.3 and
    65.5 s (docs/performance.md, round 22)."""
    gc.collect()
    gc.freeze()


def pytest_addoption(parser):
    parser.addoption(
        "--accept-golden", action="store_true", default=False,
        help="Rewrite tests/golden/exports/ from the current exporters instead of comparing (see tests/README.md).",
    )


_USER_CACHES = itertools.count()


@pytest.fixture(autouse=True)
def _user_cache(tmp_path_factory, monkeypatch):
    """The validation cache of tests goes to a scratch folder of each test, not the user's
    ~/.cache: `user-caches/N` under the test process's temporary folder, N counted here.
    (``tmp_path_factory.mktemp`` lists the whole temporary folder to number each new folder:
    one per test, that listing grew with every test of the process, to about 1.5 ms a test
    by the thousandth.)"""
    base = tmp_path_factory.getbasetemp()
    if "XDG_CACHE_HOME" not in os.environ or not os.environ["XDG_CACHE_HOME"].startswith(str(base)):
        folder = base / "user-caches" / str(next(_USER_CACHES))
        folder.mkdir(parents=True)
        monkeypatch.setenv("XDG_CACHE_HOME", str(folder))


@pytest.fixture(scope="session")
def chromium():
    """One Playwright driver and one Chromium per test process, for every browser test module
    (tests/sitebrowser.py's ``browser``): started with the first browser test, closed at the end.
    Started per module, the two took one to four seconds each time, on each worker that ran some of
    a module's tests."""
    from sitebrowser import launch, sync_api

    with sync_api.sync_playwright() as playwright:
        launched = launch(playwright)
        yield launched
        launched.close()


@pytest.fixture
def project(tmp_path, monkeypatch) -> Path:
    """A scratch copy of bank/ and translations/, with the working directory set to it."""
    root = tmp_path / "project"
    root.mkdir()
    shutil.copytree(REPO / "bank", root / "bank")
    shutil.copytree(REPO / "translations", root / "translations")
    monkeypatch.chdir(root)
    return root


SAMPLE = ("q001", "q002", "q003", "q004", "q005", "q007", "q010", "q015", "q018", "q019", "q023", "q027")
"""Twelve questions of the bundled topic that make a clean bank of their own: both of its groups
whole, a numeric check (q004), a runtime (the glossary), each key position three times (no W301)."""


def half_german_course(top: Path) -> Path:
    """`bank init course --languages de,es` in ``top`` (in this process, its user cache in
    ``top``), every other German entry translated, then `bank i18n update`, as a translator's
    tool leaves a catalog half done: the course's folder, for module-scoped starting points that
    each test copies."""
    import polib
    from typer.testing import CliRunner

    from aistack_bank.cli import app

    def run(*args: str) -> None:
        result = CliRunner().invoke(app, list(args), catch_exceptions=False)
        assert result.exit_code == 0, result.output

    root = top / "course"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(top / "user-cache"))
        patch.chdir(top)
        run("init", "course", "--languages", "de,es", "--title", "Statistics", "--category", "Mathematics")
        patch.chdir(root)
        po = polib.pofile(str(root / "translations" / "de.po"))
        for index, entry in enumerate(po):
            if index % 2 == 0:
                entry.msgstr = "Auf Deutsch: " + entry.msgid
        po.save()
        run("i18n", "update")  # the catalog as the tool writes it (as msgmerge would)
    return root


def process_state(pid: int) -> str:
    """The process ``pid``'s state letter from ``/proc`` (``Z``: ended, not yet reaped), ``"gone"``
    once reaped."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "gone"


def keep_only(root: Path, kept: tuple[str, ...] = SAMPLE, topic: str = FLAGSHIP) -> Path:
    """Cut the copy of the bundled bank under ``root`` down to the questions ``kept`` of its topic:
    the other question files, their lines in topic.yaml and their entries in the template and the
    catalogs go. For tests whose every step runs a command on the whole bank and that are about
    what the command does with some questions, not with fifty."""
    import re

    for path in questions_dir(root, topic).glob("q*.yaml"):
        if path.name.split("-", 1)[0] not in kept:
            path.unlink()
    listing = topic_file(root, topic)
    listed = listing.read_text(encoding="utf-8")
    listing.write_text(re.sub(r"^  - (q\d+)\n", lambda m: m[0] if m[1] in kept else "", listed, flags=re.M), encoding="utf-8")
    for catalog in [*(root / "translations").glob("*.po"), *(root / "translations").glob("*.pot")]:
        blocks = catalog.read_text(encoding="utf-8").split("\n\n")
        catalog.write_text("\n\n".join(b for b in blocks if not (m := re.search(r'^(?:#~ )?msgctxt "(q\d+)\.', b, re.M)) or m[1] in kept),
                           encoding="utf-8")
    return root


@pytest.fixture(scope="session", autouse=True)
def _cli_command_built_once():
    """Typer's test runner builds the click command of `bank` from the app at every call (some
    20 ms of signatures and type hints, more than a `bank validate` of a dozen questions takes);
    the app does not change while the tests run, so each test process builds it once. Another
    Typer app is built as before."""
    import typer.main
    import typer.testing

    built: list[tuple[object, object]] = []  # (the app, its command)
    build = typer.main.get_command

    def get_command(typer_app):
        from aistack_bank.cli import app

        if typer_app is not app:
            return build(typer_app)
        if not built or built[0][0] is not app:
            built[:] = [(app, build(app))]
        return built[0][1]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(typer.testing, "_get_command", get_command)
        yield


@pytest.fixture(scope="session", autouse=True)
def _models_described_once():
    """`bank init` and `bank schema` render the JSON schemas, whose ``described`` gives the
    models' fields their attribute docstrings: it reads the source of every model class and
    rebuilds each model (about 0.2 s of CPU), once in the process of a command, at every `bank
    init` in a test process. The descriptions it gives stay on the classes, and a second call
    finds them there and rebuilds the same models: each model is described once per test process,
    by the command's own ``described``."""
    from aistack_bank.project import schemas

    done: set[type] = set()
    describe = schemas.described

    def described(models) -> None:
        fresh = [model for model in models if model not in done]
        if fresh:
            describe(fresh)
            done.update(fresh)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(schemas, "described", described)
        yield


@pytest.fixture
def run_cli():
    """Run `bank ARGS` in-process; return (exit code, stdout+stderr)."""
    from typer.testing import CliRunner

    from aistack_bank.cli import app

    runner = CliRunner()

    def run(*args: str) -> tuple[int, str]:
        result = runner.invoke(app, [str(a) for a in args], catch_exceptions=False)
        return result.exit_code, result.output

    return run


FRESH_RENDER = """
import sys
from pathlib import Path, PurePosixPath
from aistack_bank.build import available_languages, load_localized, render
from aistack_bank.options import ExportOptions

bank, translations, out = (Path(a) for a in sys.argv[1:4])
formats = sys.argv[4].split(",")
languages = list(reversed(available_languages(translations)))  # another order than the caller's
banks = load_localized(bank, translations, languages)[0]
for name, tree in render(formats, banks, ExportOptions()).items():
    for rel, data in tree.items():
        path = out / name / str(rel)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
"""


def render_in_fresh_interpreter(bank: Path, translations: Path, formats: list[str], out: Path) -> dict:
    """Every format's tree rendered by another Python process, with another hash seed, time zone
    and working directory than this one: {format: {relative path: bytes}}."""
    import subprocess
    import sys

    seed = "2" if os.environ.get("PYTHONHASHSEED") == "1" else "1"
    env = {**os.environ, "PYTHONHASHSEED": seed, "TZ": "Pacific/Kiritimati", "PYTHONPATH": str(REPO)}
    out.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-c", FRESH_RENDER, str(bank), str(translations), str(out), ",".join(formats)],
                   cwd=out, env=env, check=True, timeout=300)
    from pathlib import PurePosixPath

    return {name: {PurePosixPath(p.relative_to(out / name).as_posix()): p.read_bytes() for p in sorted((out / name).rglob("*")) if p.is_file()}
            for name in formats}


QTI_XSD = {
    "qti21": ("qti21/imsqti_v2p1.xsd", "cp/qtiv2p1_imscpv1p2_v1p0.xsd"),
    "qti30": ("qti30/imsqti_asiv3p0_sbacv1p0_v1p0.xsd", "cp/imsqtiv3p0_imscpv1p2_v1p0.xsd"),
}
"""(items and tests, package manifest) schemas of each QTI version, relative to QTI_SCHEMAS."""

_COMPILED_XSD: dict[str, object] = {}


def qti_schema(relative: str):
    """The official schema at ``relative`` (under QTI_SCHEMAS), compiled once per test process, offline."""
    if relative not in _COMPILED_XSD:
        from lxml import etree

        parser = etree.XMLParser(no_network=True, resolve_entities=False)
        _COMPILED_XSD[relative] = etree.XMLSchema(etree.parse(str(QTI_SCHEMAS / relative), parser))
    return _COMPILED_XSD[relative]


def source_page(lang: str) -> list[str]:
    """The lines of the topic's public page in ``lang`` (docs/sources/topic-page.<lang>.txt)."""
    return (SOURCES / f"topic-page.{lang}.txt").read_text(encoding="utf-8").split("\n")


def bank_figures(root: Path) -> dict:
    """Figures of the bank at ``root``, counted from its YAML files (not by the code under test):
    ``questions`` (how many the topic lists) and ``positions`` (the key's position spread as
    `bank validate` and `bank stats` print it, e.g. ``a 26% b 24% c 26% d 24%``)."""
    import yaml

    ids = yaml.safe_load(topic_file(root).read_text(encoding="utf-8"))["questions"]
    counts: dict[int, int] = {}
    for qid in ids:
        data = yaml.safe_load(question_file(root, qid).read_text(encoding="utf-8"))
        position = [o["id"] for o in data["options"]].index(data["correct"])
        counts[position] = counts.get(position, 0) + 1
    width = max(counts) + 1
    spread = " ".join(f"{chr(ord('a') + i)} {counts.get(i, 0) / len(ids):.0%}" for i in range(width))
    return {"questions": len(ids), "positions": spread}


def question_file(root: Path, qid: str) -> Path:
    return next((root / "bank").glob(f"*/questions/{qid}-*.yaml"))


def topic_dir(root: Path, topic: str = FLAGSHIP) -> Path:
    """The folder of a topic of the bank under ``root`` (the bundled topic by default)."""
    return root / "bank" / topic


def topic_file(root: Path, topic: str = FLAGSHIP) -> Path:
    return topic_dir(root, topic) / "topic.yaml"


def questions_dir(root: Path, topic: str = FLAGSHIP) -> Path:
    return topic_dir(root, topic) / "questions"


# Property-based tests: a fixed, bounded and derandomized profile in CI; `HYPOTHESIS_PROFILE=long`
# for a deeper local run.
from hypothesis import HealthCheck, settings  # noqa: E402

settings.register_profile("ci", max_examples=60, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
settings.register_profile("long", max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(params=["serial", "pool"])
def file_jobs(request, monkeypatch):
    """Serially, or with question files and catalogs checked in a process pool even for a small bank."""
    from aistack_bank.cache import questionfiles
    from aistack_bank import parallel

    if request.param == "pool":
        monkeypatch.setenv("AISTACK_BANK_JOBS", "2")
        monkeypatch.setattr(parallel, "POOL_MIN_WORK", 0)
        monkeypatch.setattr(questionfiles, "FILE_POOL_MIN", 0)
    else:
        monkeypatch.setenv("AISTACK_BANK_JOBS", "1")
    return request.param
