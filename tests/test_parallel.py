"""Work in a process pool (catalogs verified, formats rendered) gives the serial run's results, in its order."""

from __future__ import annotations

from pathlib import Path

import pytest

from aistack_bank import parallel
from aistack_bank.rules.validate import validate_bank

from conftest import keep_only


def _break_translations(project: Path) -> None:
    """A few errors and warnings in both catalogs, so the verdict has something to order."""
    for name in ("fr.po", "nl.po"):
        po = project / "translations" / name
        lines = po.read_text(encoding="utf-8").split("\n")
        filled = [i for i, ln in enumerate(lines) if ln.startswith('msgstr "') and ln != 'msgstr ""' and i > 20]
        for i in filled[:40:7]:
            lines[i] = lines[i][:-1] + ' 4096 GB"'
        for i in filled[3:40:9]:
            lines[i] = 'msgstr ""'
        po.write_text("\n".join(lines), encoding="utf-8")


def _verdict(project: Path, monkeypatch, jobs: str, pool_min: int):
    monkeypatch.setenv("AISTACK_BANK_JOBS", jobs)
    monkeypatch.setattr(parallel, "POOL_MIN_WORK", pool_min)
    report = validate_bank(Path("bank"), translations=Path("translations"))
    return [d.as_dict() for d in report.diagnostics]


def test_pool_and_serial_runs_give_the_same_diagnostics(project, monkeypatch):
    keep_only(project)  # the work is pooled whatever its size (POOL_MIN_WORK = 0): a dozen questions are enough
    _break_translations(project)
    serial = _verdict(project, monkeypatch, "1", 0)
    pooled = _verdict(project, monkeypatch, "2", 0)
    assert pooled == serial
    assert sum(d["severity"] == "error" for d in serial) >= 4 and any(d["severity"] == "warning" for d in serial)


def test_the_question_files_of_every_topic_are_read_in_one_pool(project, monkeypatch):
    """A bank of several small topics, none above the pool's threshold but all together: their
    question files are read and checked in one pool (whatever topic each is in), and the
    verdict is the serial one, each record in its topic."""
    from aistack_bank.cache import questionfiles
    from conftest import topic_dir

    keep_only(project)  # two validations: a dozen questions, five of them moved, are enough
    other = project / "bank" / "second-topic"
    (other / "questions").mkdir(parents=True)
    moved = sorted((topic_dir(project) / "questions").glob("*.yaml"))[:5]
    for path in moved:
        path.rename(other / "questions" / path.name)
    (other / "topic.yaml").write_text("id: second-topic\ncategory: computer-systems\ntitle: A second topic\n"
                                     "summary: Questions moved here.\nkey_points:\n  - id: k1\n    text: One point.\nquestions: []\n", encoding="utf-8")
    serial = _verdict(project, monkeypatch, "1", 0)
    assert any("second-topic" in (d["path"] or "") for d in serial)
    calls = []
    real = questionfiles.run_each
    monkeypatch.setattr(questionfiles, "run_each", lambda tasks, work, min_work: calls.append(work) or real(tasks, work, min_work))
    total = sum(1 for _ in (project / "bank").glob("*/questions/*.yaml"))
    monkeypatch.setattr(questionfiles, "FILE_POOL_MIN", total)  # more than either topic has
    assert _verdict(project, monkeypatch, "2", 0) == serial
    assert calls == [total]


def test_tasks_run_in_workers_and_come_back_in_order(monkeypatch):
    import os

    monkeypatch.setenv("AISTACK_BANK_JOBS", "2")
    monkeypatch.setattr(parallel, "POOL_MIN_WORK", 0)
    results = parallel.run_all([lambda i=i: (i, os.getpid()) for i in range(6)], work=1)
    assert [i for i, _ in results] == list(range(6))
    assert os.getpid() not in {pid for _, pid in results}


@pytest.mark.parametrize(("jobs", "work"), [("1", 10**9), ("2", 0)])
def test_small_work_or_one_job_stays_in_this_process(monkeypatch, jobs, work):
    import os

    monkeypatch.setenv("AISTACK_BANK_JOBS", jobs)
    monkeypatch.setattr(parallel, "POOL_MIN_WORK", 10)
    results = parallel.run_all([lambda: os.getpid()] * 3, work=work)
    assert results == [os.getpid()] * 3


def test_run_each_yields_the_workers_results_in_order(monkeypatch):
    import os

    monkeypatch.setenv("AISTACK_BANK_JOBS", "2")
    results = list(parallel.run_each([lambda i=i: (i, os.getpid()) for i in range(5)], work=1, min_work=0))
    assert [i for i, _ in results] == list(range(5))
    assert os.getpid() not in {pid for _, pid in results}
    import gc

    assert gc.get_freeze_count() == 0  # the parent's heap is given back to the collector


def test_run_each_below_its_threshold_stays_in_this_process(monkeypatch):
    import os

    monkeypatch.setenv("AISTACK_BANK_JOBS", "2")
    assert list(parallel.run_each([lambda: os.getpid()] * 2, work=5, min_work=10)) == [os.getpid()] * 2


def _build_files(monkeypatch, jobs: str, out: str) -> dict:
    from aistack_bank import build

    monkeypatch.setenv("AISTACK_BANK_JOBS", jobs)
    monkeypatch.setattr(build, "PARALLEL_MIN_TEXTS", 0)
    outputs, _ = build.build(Path("bank"), Path("translations"), Path(out))
    root = Path(out)
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}, [(o.format, o.language, str(o.path)) for o in outputs]


@pytest.fixture(scope="module")
def serial_build(tmp_path_factory) -> tuple[dict, list]:
    """The serial build (AISTACK_BANK_JOBS=1) of the bundled bank cut to a dozen questions, made
    once per module: (its files, its outputs), for the tests that compare a pooled build with it."""
    import shutil

    from conftest import REPO

    root = tmp_path_factory.mktemp("serial") / "project"
    shutil.copytree(REPO / "bank", root / "bank")
    shutil.copytree(REPO / "translations", root / "translations")
    keep_only(root)
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(root)
        patch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("user-cache")))
        return _build_files(patch, "1", "serial")


def test_a_build_rendered_in_workers_writes_the_serial_builds_bytes(project, monkeypatch, tmp_path, serial_build):
    keep_only(project)  # rendered in workers whatever its size (PARALLEL_MIN_TEXTS = 0)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    serial, serial_outputs = serial_build
    pooled, pooled_outputs = _build_files(monkeypatch, "2", "pooled")
    assert pooled == serial and len(serial) > 30
    assert pooled_outputs == [(f, lang, path.replace("serial", "pooled", 1)) for f, lang, path in serial_outputs]


def test_a_format_failing_in_a_worker_writes_nothing(project, monkeypatch, tmp_path):
    from aistack_bank import build
    from aistack_bank.exporters import FORMATS

    keep_only(project)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("AISTACK_BANK_JOBS", "2")
    monkeypatch.setattr(build, "PARALLEL_MIN_TEXTS", 0)

    monkeypatch.setitem(FORMATS, "aiken", _Broken(FORMATS["aiken"]))
    with pytest.raises(OSError, match="the exporter broke"):
        build.build(Path("bank"), Path("translations"), Path("out"))
    assert not [p for p in Path("out").rglob("*") if p.is_file()]


class _Broken:
    """A format whose rendering fails (the last one `bank build` writes)."""

    def __init__(self, real):
        self._real = real

    def __getattr__(self, name):
        return getattr(self._real, name)

    def bank_files(self, libraries, options):
        raise OSError("the exporter broke")

    def part_files(self, libraries, options, part):  # (a piece of its files, rendered in a worker)
        raise OSError("the exporter broke")

    def each_part_file(self, libraries, options, part):  # (the same, one file at a time, as a worker writes them)
        raise OSError("the exporter broke")


def test_catalogs_are_verified_in_workers_forked_before_the_bank_is_read(project, monkeypatch, tmp_path):
    """With catalogs large enough, `bank validate` forks the catalogs' workers before it reads
    the question files (so that they do not hold the parent's pages), sends them the bank's
    fields, and gets the serial run's diagnostics, with and without the cache; after a catalog
    edit, the edited catalog is verified again from the kept findings in the parent (only the
    questions the edit touched: no worker is sent the bank), with the same diagnostics."""
    from aistack_bank.rules import validate

    keep_only(project)  # "large enough": POOL_MIN_CATALOG_BYTES = 0 below
    _break_translations(project)
    events, lasts = [], []
    real_init, real_submit, real_read = parallel.Workers.__init__, parallel.Workers.submit, validate.read_library

    def init(self, wanted, *args, **kwargs):
        real_init(self, wanted, *args, **kwargs)
        events.append(("fork", self.started))

    def submit(self, calls, last=False, to=None):
        events.append(("run", [function.__name__ for function, _ in calls]))
        lasts.append(last)  # (nothing is sent after: each worker ends once it has no call left)
        return real_submit(self, calls, last, to)

    monkeypatch.setattr(parallel.Workers, "__init__", init)
    monkeypatch.setattr(parallel.Workers, "submit", submit)
    monkeypatch.setattr(validate, "read_library", lambda *a, **k: events.append(("read",)) or real_read(*a, **k))
    real_lints = validate.content_lints
    # the topics' leak lint runs in the parent while the workers verify the catalogs
    monkeypatch.setattr(validate, "content_lints", lambda *a, **k: (events[-1:] != [("lint",)] and events.append(("lint",))) or real_lints(*a, **k))
    monkeypatch.setattr(validate, "POOL_MIN_CATALOG_BYTES", 0)

    def verdict(jobs: str, use_cache: bool, cache: str):
        monkeypatch.setenv("AISTACK_BANK_JOBS", jobs)
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / cache))
        monkeypatch.setattr(parallel, "POOL_MIN_WORK", 0)
        report = validate_bank(Path("bank"), translations=Path("translations"), use_cache=use_cache)
        return [d.as_dict() for d in report.diagnostics]

    serial = verdict("1", False, "serial")
    assert events == [("fork", False), ("read",), ("lint",)]
    events.clear()
    assert verdict("2", False, "pooled") == serial
    # (each worker reads a catalog as soon as it is forked, while the bank is read)
    assert events == [("fork", True), ("run", ["_read_early", "_read_early"]), ("read",), ("run", ["_verify_sent", "_verify_sent", "_template_sent"]), ("lint",)]
    events.clear()
    assert verdict("2", True, "pooled") == serial
    assert events[-2:] == [("run", ["_verify_sent", "_verify_sent", "_template_sent"]), ("lint",)]
    assert lasts == [False, True, False, True]
    # a catalog edit: the edited catalog verified again in the parent, from the kept findings
    po = project / "translations" / "fr.po"
    lines = po.read_text(encoding="utf-8").split("\n")
    edited = [i for i, ln in enumerate(lines) if ln.startswith('msgstr "') and ln != 'msgstr ""' and i > 60][0]
    lines[edited] = lines[edited][:-1] + ' 4096 GB"'
    po.write_text("\n".join(lines), encoding="utf-8")
    events.clear()
    after = verdict("2", True, "pooled")
    # (no worker is sent the bank; called without the input digest's guess, validate_bank
    # has each worker read a catalog as it starts, whose verification then is not sent)
    assert events[0] == ("fork", True) and [e for e in events if e[0] == "run"] == [("run", ["_read_early", "_read_early"])]
    assert after == verdict("1", False, "serial") and after != serial


def test_a_catalog_worker_locates_in_a_check_script_as_the_whole_document_does(project):
    """What a catalog worker is sent of a question's document with a numeric check places a
    line and column of the script where the whole document places them."""
    import pickle

    from aistack_bank.i18n import verify
    from aistack_bank.load import read_library

    checked = [qs for qs in read_library(Path("bank")).questions if qs.question is not None and qs.question.check is not None]
    assert checked
    for qs in checked:
        sent = pickle.loads(pickle.dumps(verify._script_doc(qs.doc)))
        assert sent.data is None and len(sent.values) <= 3
        for line in range(1, len(qs.question.check.script.split("\n")) + 2):
            for column in (1, 5):
                assert sent.locate_in_scalar(("check", "script"), line, column) == qs.doc.locate_in_scalar(("check", "script"), line, column)


@pytest.mark.parametrize("root", ["", "examples/every-kind"])
def test_a_formats_pieces_are_its_files(root, tmp_path):
    """Every format's files rendered piece by piece (each language's file, then the
    multilingual one, as workers render them) are the files of the whole format, in order
    (the bundled bank cut to a dozen questions: its three languages, its topic)."""
    import shutil

    from conftest import REPO

    from aistack_bank.build import available_languages, load_libraries
    from aistack_bank.exporters import FORMATS
    from aistack_bank.exporters.record import ALL
    from aistack_bank.options import ExportOptions

    project = REPO / root
    if not root:
        project = tmp_path
        shutil.copytree(REPO / "bank", project / "bank")
        shutil.copytree(REPO / "translations", project / "translations")
        keep_only(project)
    libraries, _ = load_libraries(project / "bank", project / "translations", available_languages(project / "translations"), allow_fallback=True)
    options = ExportOptions()
    split = 0
    for name, export_format in FORMATS.items():
        parts = export_format.parts(list(libraries), len(libraries["en"].topics))
        pieces = [file for part in parts for file in export_format.part_files(libraries, options, part)]
        assert pieces == export_format.bank_files(libraries, options), name
        split += len(parts) > 1
        if len(parts) > 1:
            assert parts[: len(libraries)] == list(libraries) and set(parts[len(libraries):]) <= {ALL}
    assert split >= 6  # most formats write one file per language


def test_the_rendering_workers_are_forked_before_the_bank_is_read(project, monkeypatch, tmp_path, serial_build):
    """A large build forks its workers before validation reads the bank, has each language
    localized in them, sends them the localized banks and has each format rendered piece by
    piece: the serial build's files, the parent never holding a catalog or a localized bank."""
    from aistack_bank import build
    from aistack_bank.rules import validate

    events = []
    real_init, real_each, real_read = parallel.Workers.__init__, parallel.Workers.run_each, validate.read_library
    real_submit = parallel.Workers.submit

    def init(self, wanted, *args, **kwargs):
        real_init(self, wanted, *args, **kwargs)
        events.append(("fork", self.started))

    def each(self, calls):
        events.append(("run", [function.__name__ for function, _ in calls]))
        return real_each(self, calls)

    keep_only(project)  # "large": PARALLEL_MIN_TEXTS = 0 in _build_files
    serial, serial_outputs = serial_build
    monkeypatch.setattr(parallel.Workers, "__init__", init)
    monkeypatch.setattr(parallel.Workers, "run_each", each)
    sent_first = []
    monkeypatch.setattr(parallel.Workers, "submit", lambda self, calls, last=False, to=None: sent_first.extend(a for _, a in calls) or events.append(("run", [f.__name__ for f, _ in calls])) or real_submit(self, calls, last, to))
    monkeypatch.setattr(validate, "read_library", lambda *a, **k: events.append(("read",)) or real_read(*a, **k))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache-pooled"))  # validated again, from the bank's files
    pooled, pooled_outputs = _build_files(monkeypatch, "2", "pooled")
    assert pooled == serial
    assert pooled_outputs == [(f, lang, path.replace("serial", "pooled", 1)) for f, lang, path in serial_outputs]
    assert events[:2] == [("fork", True), ("fork", False)] and events[2] == ("read",)  # (the second: validation's catalog workers, not needed here)
    runs = [names for event, *names in events if event == "run" for names in names]
    assert runs[0] == ["_localize_sent", "_localize_sent"]  # French and Dutch, each localized in a worker
    assert sent_first and all(isinstance(args[0], build._Awaited) for args in sent_first)  # (the English library and fields waited for in a file)
    rendered = runs[1]
    assert rendered[0] == "_notes_sent" and rendered.count("_render_sent") > len(build.FORMATS)  # in pieces
    assert runs[-1] == ["_guide_sent"]
