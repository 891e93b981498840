"""A large `bank export FORMAT` goes the way of a large `bank build` (at the same threshold,
``build.PARALLEL_MIN_TEXTS``, of the languages asked for): its workers forked before the bank is
read, each translated language localized in one, the format rendered piece by piece in them
into a staging folder and renamed into place. It writes the files, and reports the outputs,
notes and refusals, of the export made in one process, with its validation cached or not."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import polib
import pytest

from conftest import half_german_course, keep_only

FORMATS = ("moodle-xml", "qti21", "html", "common-cartridge")
"""A multilingual file beside one file per language, one file per language, one piece (the
practice site, with its interface strings), a package."""


def _files(root: Path) -> dict[str, bytes] | None:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()} if root.exists() else None


def _export(monkeypatch, tmp_path: Path, fmt: str, out: str, *, pooled: bool, cache: str = "cache", **flags):
    """`bank export fmt --out out` (in this process, or with two workers when ``pooled``): its
    outputs, notes and files, or its refusal and the files there; no staging folder is left."""
    from aistack_bank import build
    from aistack_bank.errors import BankError, UsageError

    monkeypatch.setenv("AISTACK_BANK_JOBS", "2" if pooled else "1")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / cache))
    target = Path(out)
    try:
        outputs, notes = build.export(fmt, Path("bank"), Path("translations"), target, **flags)
    except (BankError, UsageError) as exc:
        result = ("refused", type(exc).__name__, str(exc), [str(d) for d in getattr(exc, "diagnostics", [])], _files(target))
    else:
        result = ([(o.format, o.language, o.questions, o.size, str(o.path.relative_to(target)), o.changed) for o in outputs], [str(n) for n in notes], _files(target))
    assert not list(Path(".").rglob(build.STAGING_PREFIX + "*"))
    return result


def _watch(monkeypatch) -> list:
    """The workers' events of the exports that follow: ``("fork", started)`` and the names of the functions each batch of calls runs."""
    from aistack_bank import parallel

    events: list = []
    real_init, real_each, real_submit = parallel.Workers.__init__, parallel.Workers.run_each, parallel.Workers.submit

    def init(self, wanted, *args, **kwargs):
        real_init(self, wanted, *args, **kwargs)
        events.append(("fork", self.started))

    monkeypatch.setattr(parallel.Workers, "__init__", init)
    monkeypatch.setattr(parallel.Workers, "run_each", lambda self, calls: events.append([f.__name__ for f, _ in calls]) or real_each(self, calls))
    monkeypatch.setattr(parallel.Workers, "submit", lambda self, calls, last=False, to=None: events.append([f.__name__ for f, _ in calls]) or real_submit(self, calls, last, to))
    return events


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_large_export_renders_in_workers_the_files_of_an_export_in_one_process(project, monkeypatch, tmp_path, fmt):
    from aistack_bank import build

    keep_only(project)
    events = _watch(monkeypatch)
    threshold = build.expected_texts(Path("translations"))
    assert threshold > 0
    monkeypatch.setattr(build, "PARALLEL_MIN_TEXTS", threshold + 1)  # just too small: in this process
    alone = _export(monkeypatch, tmp_path, fmt, "alone", pooled=True)
    assert events[0] == ("fork", False) and not [e for e in events if isinstance(e, list)]  # (nothing sent to a worker)
    assert isinstance(alone[0], list) and len(alone[2]) >= 1

    events.clear()
    monkeypatch.setattr(build, "PARALLEL_MIN_TEXTS", threshold)  # large enough: the build's way
    cold = _export(monkeypatch, tmp_path, fmt, "pooled", pooled=True, cache="pooled-cache")
    assert events[0] == ("fork", True)
    batches = [e for e in events if isinstance(e, list)]
    assert batches[0] == ["_localize_sent", "_localize_sent"]  # French and Dutch, each in a worker
    assert batches[1][0] == "_notes_sent" and batches[1].count("_render_sent") == len(build.FORMATS[fmt].parts(["en", "fr", "nl"], 1))
    assert cold == alone

    shutil.rmtree("pooled")
    assert _export(monkeypatch, tmp_path, fmt, "pooled", pooled=True, cache="pooled-cache") == alone  # the verdict cached
    again = _export(monkeypatch, tmp_path, fmt, "pooled", pooled=True, cache="pooled-cache")  # the files already there: left as they are
    assert again[2] == alone[2] and again[1] == alone[1] and not any(changed for *_, changed in again[0])


def test_a_large_bank_exported_in_some_languages_or_english_alone_goes_through_the_workers_too(project, monkeypatch, tmp_path):
    """The threshold is the build's, whatever the languages asked for: validation verifies every catalog."""
    from aistack_bank import build

    keep_only(project)
    events = _watch(monkeypatch)
    monkeypatch.setattr(build, "PARALLEL_MIN_TEXTS", build.expected_texts(Path("translations")))
    for languages, localized in (("en", []), ("nl,fr", ["_localize_sent", "_localize_sent"]), ("fr", ["_localize_sent"])):
        events.clear()
        pooled = _export(monkeypatch, tmp_path, "json", "pooled", pooled=True, languages=languages)
        batches = [e for e in events if isinstance(e, list)]
        assert events[0] == ("fork", True) and (batches[0] if localized else []) == localized and batches[-1][0] == "_notes_sent"
        assert pooled == _export(monkeypatch, tmp_path, "json", "alone", pooled=False, languages=languages)
        assert set(pooled[2]) == {f"aistack-{lang}.json" for lang in languages.split(",")} | {"aistack.json"}  # (JSON: the multilingual file too, whatever the languages)
        shutil.rmtree("pooled")
        shutil.rmtree("alone")


@pytest.fixture(scope="module")
def topic_bank(tmp_path_factory) -> Path:
    from topicbank import write_topic_bank

    return write_topic_bank(tmp_path_factory.mktemp("topics") / "bank-of-topics")


@pytest.mark.parametrize("fmt", ["moodle-xml", "qti30", "json"])
def test_one_topic_of_several_and_an_unknown_topic(topic_bank, monkeypatch, tmp_path, fmt):
    from aistack_bank import build

    shutil.copytree(topic_bank, tmp_path / "project")
    monkeypatch.chdir(tmp_path / "project")
    monkeypatch.setattr(build, "PARALLEL_MIN_TEXTS", 0)
    for flags in ({}, {"topic": "cells"}, {"topic": "cells", "languages": "nl"}, {"topic": "no-such-topic"}):
        alone = _export(monkeypatch, tmp_path, fmt, "alone", pooled=False, **flags)
        pooled = _export(monkeypatch, tmp_path, fmt, "pooled", pooled=True, **flags)
        assert pooled == alone, flags
        if flags.get("topic") == "no-such-topic":
            assert alone[:2] == ("refused", "UsageError") and "the topics are: " in alone[2] and alone[-1] is None
        else:
            assert alone[2] and all(o[2] == (5 if "topic" in flags else 60) for o in alone[0])
        shutil.rmtree("alone", ignore_errors=True)
        shutil.rmtree("pooled", ignore_errors=True)


@pytest.fixture(scope="module")
def half_german_template(tmp_path_factory) -> Path:
    return half_german_course(tmp_path_factory.mktemp("half-german"))


def test_languages_in_progress_left_out_or_with_english_and_none_ready(half_german_template, monkeypatch, tmp_path, run_cli):
    from aistack_bank import build

    shutil.copytree(half_german_template, tmp_path / "course", symlinks=True, ignore=shutil.ignore_patterns(".bank-cache"))
    monkeypatch.chdir(tmp_path / "course")
    monkeypatch.setattr(build, "PARALLEL_MIN_TEXTS", 0)
    for flags in ({}, {"allow_fallback": True}, {"allow_fallback": True, "languages": "de"}, {"languages": "de,es"}):
        for fmt in ("gift", "html"):
            alone = _export(monkeypatch, tmp_path, fmt, "alone", pooled=False, **flags)
            pooled = _export(monkeypatch, tmp_path, fmt, "pooled", pooled=True, **flags)
            assert pooled == alone, (fmt, flags)
            notes = "\n".join(alone[1])
            assert ("W552" in notes) == ("es" in flags.get("languages", "es")) and ("W559" in notes) == bool(flags.get("allow_fallback")) and ("W558" in notes) != bool(flags.get("allow_fallback"))
            if flags.get("languages") == "de,es":  # none of them ready: no file, the warnings say why
                assert alone[0] == [] and alone[-1] is None
            shutil.rmtree("alone", ignore_errors=True)
            shutil.rmtree("pooled", ignore_errors=True)
    for fmt in ("json", "html", "gift"):  # (JSON and the site stopped on a traceback)
        code, out = run_cli("export", fmt, "--lang", "es", "--out", "none")
        assert code == 0 and "translations/es.po: warning W552" in out and "0 file(s) written" in out and not Path("none").exists(), out


def test_a_language_with_an_error_and_a_linked_folder(project, monkeypatch, tmp_path):
    from aistack_bank import build

    keep_only(project)
    monkeypatch.setattr(build, "PARALLEL_MIN_TEXTS", 0)
    (tmp_path / "elsewhere").mkdir()
    Path("linked").symlink_to(tmp_path / "elsewhere")  # `bank export --out` may be a link (a build's folder may not)
    alone = _export(monkeypatch, tmp_path, "qti21", "linked", pooled=False)
    shutil.rmtree(tmp_path / "elsewhere")
    (tmp_path / "elsewhere").mkdir()
    assert _export(monkeypatch, tmp_path, "qti21", "linked", pooled=True) == alone and len(alone[2]) == 3
    Path("a-file").write_text("not a folder")
    for fmt in ("json", "gift"):
        refusals = [_export(monkeypatch, tmp_path, fmt, "a-file", pooled=pooled) for pooled in (False, True)]
        assert refusals[0][:3] == ("refused", "ExportError", f"a-file/aistack-en.{fmt}: cannot write: File exists") and refusals[1] == refusals[0]

    po = polib.pofile("translations/fr.po")
    entry = next(e for e in po if re.search(r"\d", e.msgstr) and e.msgctxt.endswith(".stem"))
    entry.msgstr = re.sub(r"\d", lambda m: str((int(m[0]) + 1) % 10), entry.msgstr, count=1)  # a number the English does not have
    po.save()
    refusals = [_export(monkeypatch, tmp_path, "moodle-xml", "broken", pooled=pooled, cache=f"cache-{pooled}") for pooled in (False, True)]
    assert refusals[0] == refusals[1] and refusals[0][:2] == ("refused", "DiagnosticsError") and refusals[0][-1] is None


def test_an_export_that_writes_nothing_leaves_no_folder_it_made_on_the_way(half_german_template, monkeypatch, tmp_path):
    """`--out new/deep`, neither folder there: an export through the workers none of whose
    languages is ready makes no folder, as the export in one process makes none (the staging
    folder's parents are removed with it when it made them)."""
    from aistack_bank import build

    shutil.copytree(half_german_template, tmp_path / "course", symlinks=True, ignore=shutil.ignore_patterns(".bank-cache"))
    monkeypatch.chdir(tmp_path / "course")
    monkeypatch.setattr(build, "PARALLEL_MIN_TEXTS", 0)
    for pooled in (False, True):
        outputs, _, files = _export(monkeypatch, tmp_path, "gift", "new/deep", pooled=pooled, languages="de,es")
        assert outputs == [] and files is None
        assert not Path("new").exists(), pooled
