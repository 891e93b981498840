"""`bank lint`'s memory bound on a large bank, as a test can see it: the localized libraries
kept pickled (no process holds them all once loaded), each package check given its one
language, and the Moodle and GIFT check holding every language only to render the
multilingual files (dropped before those are read), each Moodle XML file and its GIFT file
rendered from one loading of their banks."""

from __future__ import annotations

import gc
import shutil

from aistack_bank.lms import lint as lint_module
from aistack_bank.model import Bank, Library

from conftest import REPO


def _localized(before: tuple = ()) -> list:
    """The localized libraries and banks alive in this process, but those of ``before`` (kept
    alive by an earlier test's caches in the same process, not by this lint)."""
    gc.collect()
    known = {id(o) for o in before}
    return [o for o in gc.get_objects()
            if isinstance(o, (Library, Bank)) and getattr(o, "lang", "en") != "en" and id(o) not in known]


def _localized_alive(before: tuple = ()) -> list[str]:
    return sorted({o.lang for o in _localized(before)})


def test_a_large_banks_checks_unpickle_only_the_languages_they_render(monkeypatch, tmp_path):
    shutil.copytree(REPO / "examples" / "every-kind", tmp_path / "every", ignore=shutil.ignore_patterns("exports"))
    monkeypatch.chdir(tmp_path / "every")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("AISTACK_BANK_JOBS", "1")  # (the tasks in this process, where they can be watched)
    monkeypatch.setattr(lint_module, "LINT_POOL_MIN", 0)  # (a large bank's way)
    asked: list[tuple[str, list[str]]] = []
    held_while_read: list[list[str]] = []
    at_start: list[list[str]] = []
    original_banks, original_run_each, original_read = lint_module._banks, lint_module.run_each, lint_module.models.moodle_xml_entries

    def banks(held, topic_id, langs):
        asked.append((topic_id, list(langs)))
        assert all(isinstance(item, str) for topics in held.values() for item in topics.values()), "a localized library held in memory"
        return original_banks(held, topic_id, langs)

    before = tuple(_localized())  # (held, so that their ids stay theirs)

    def run_each(tasks, work, least):
        at_start.append(_localized_alive(before))
        return original_run_each(tasks, work, least)

    def moodle_xml_entries(entries):
        held_while_read.append(sorted(lint_module._HELD))
        return original_read(entries)

    monkeypatch.setattr(lint_module, "_banks", banks)
    monkeypatch.setattr(lint_module, "run_each", run_each)
    monkeypatch.setattr(lint_module.models, "moodle_xml_entries", moodle_xml_entries)
    found = lint_module.lint(tmp_path / "every" / "bank", tmp_path / "every" / "translations", list(lint_module.TARGETS))

    assert found is not None and at_start == [[]], f"localized libraries alive when the checks start: {at_start}"
    every = ["en", "fr", "nl"]
    several = [langs for _, langs in asked if len(langs) > 1]
    # the Moodle and GIFT task: every language for its titles, then each pair of files (XML and GIFT)
    # from its language alone, the multilingual pair from every language; then each package from its language
    assert several == [every] * 2, asked
    assert [langs for _, langs in asked if len(langs) == 1] == [[lang] for lang in every] + [[lang] for lang in every for _ in range(3)], asked
    # each Moodle XML file read while no more than one language is held (none after a multilingual file)
    assert len(held_while_read) == 4 and all(len(held) <= 1 for held in held_while_read) and held_while_read[-1] == [], held_while_read
    assert not lint_module._HELD, "the banks held for the tasks outlive the command"


def test_a_small_bank_is_kept_in_memory_and_gives_the_same_findings(monkeypatch, tmp_path):
    shutil.copytree(REPO / "examples" / "every-kind", tmp_path / "every", ignore=shutil.ignore_patterns("exports"))
    monkeypatch.chdir(tmp_path / "every")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("AISTACK_BANK_JOBS", "1")
    made = []
    original = lint_module._Kept

    def kept(folder):
        made.append(folder)
        return original(folder)

    monkeypatch.setattr(lint_module, "_Kept", kept)

    def run(least: int):
        monkeypatch.setattr(lint_module, "LINT_POOL_MIN", least)
        return [(d.code, d.message, str(d.location)) for d in lint_module.lint(tmp_path / "every" / "bank", tmp_path / "every" / "translations", list(lint_module.TARGETS))]

    small, large = run(10**9), run(0)
    assert made[0] is None and made[1] is not None and not made[1].exists(), "the pickles' folder is left behind"
    assert small == large


def test_a_large_banks_parent_holds_no_library_and_each_call_is_sent_only_its_languages(monkeypatch, tmp_path):
    """With workers forked before the bank is read (as `bank build`): the parent holds no
    localized library when the checks are sent, each package call is sent its one language,
    the Moodle and GIFT call every language, and the findings are the serial way's."""
    from aistack_bank import parallel

    shutil.copytree(REPO / "examples" / "every-kind", tmp_path / "every", ignore=shutil.ignore_patterns("exports"))
    monkeypatch.chdir(tmp_path / "every")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))

    def run(large: bool):
        monkeypatch.setattr(lint_module, "_large", lambda translations: large)
        return [(d.code, d.message, str(d.location)) for d in lint_module.lint(tmp_path / "every" / "bank", tmp_path / "every" / "translations", list(lint_module.TARGETS))]

    monkeypatch.setenv("AISTACK_BANK_JOBS", "2")
    gc.collect()
    before = {id(o) for o in gc.get_objects() if isinstance(o, (Library, Bank))}  # (what the tests before left: not this run's)
    sent: list[tuple[str, list[str]]] = []
    alive: list[list[str]] = []
    original = parallel.Workers.run_each

    def run_each(self, calls, last=False):
        checks = [(function.__name__, [lang for lang, _ in args[1][1]]) for function, args in calls if function in (lint_module._moodle_call, lint_module._package_call)]
        if checks:
            gc.collect()
            alive.append(sorted({o.lang for o in gc.get_objects() if isinstance(o, (Library, Bank)) and id(o) not in before and getattr(o, "lang", "en") != "en"}))
            sent.extend(checks)
        return original(self, calls, last)

    monkeypatch.setattr(parallel.Workers, "run_each", run_each)
    pooled = run(True)
    monkeypatch.setenv("AISTACK_BANK_JOBS", "1")
    serial = run(False)  # (after: what the serial way holds in memory is not the pooled way's)
    assert alive == [[]], f"localized libraries alive in the parent when the checks are sent: {alive}"
    every = ["en", "fr", "nl"]
    assert sent == [("_moodle_call", every)] + [("_package_call", [lang]) for lang in every for _ in range(3)], sent
    assert pooled == serial and pooled


def _items_parsed_whole(data: bytes):
    """What the Canvas check read of a quiz file before it was streamed: the whole file parsed,
    its root's first ``assessment`` child's ident, and each item read."""
    from aistack_bank.lms import models
    from aistack_bank.readers.qti import items
    from aistack_bank.readers.xml import children

    doc = models.parse_xml(data)
    assessment = next(iter(children(doc, "assessment")), None)
    return ([] if assessment is None else [assessment.get("ident")]), [models.canvas_read_qti12_item(item) for item in items(doc)]


def _items_streamed(data: bytes):
    from aistack_bank.lms import models

    assessment: list = []
    read = [models.canvas_read_qti12_item(item) for item in models._streamed_items(data, assessment)]
    return assessment, read


def test_a_canvas_quiz_read_streamed_gives_what_the_whole_parse_gave():
    import zipfile

    quizzes = []
    for package in sorted((REPO / "examples" / "every-kind" / "exports" / "canvas-qti12").glob("*.zip")):
        with zipfile.ZipFile(package) as archive:
            quizzes += [archive.read(name) for name in archive.namelist() if name.endswith(".xml") and b"<item " in archive.read(name)]
    assert quizzes
    quiz = quizzes[0].decode("utf-8")
    first = quiz.index("<item ")
    end = quiz.index("</item>") + len("</item>")
    one_item = quiz[first:end]
    hostile = [
        quiz.replace("<assessment ", "<assessment data-x=\"1\" ", 1).replace(" ident=", " identx=", 1),  # the assessment without an ident
        quiz.replace("<assessment ", "<notassessment ", 1).replace("</assessment>", "</notassessment>", 1),  # none
        one_item,  # an item as the root
        quiz[:end - len("</item>")] + one_item.replace("ident=\"", "ident=\"inner-", 1) + quiz[end - len("</item>"):],  # an item in an item
        quiz.replace("<section ", "<assessment ident=\"second\"><section ", 1).replace("</section>", "</section></assessment>", 1),  # an assessment deeper
        quiz.replace("<assessment ", "<notassessment ", 1).replace("</assessment>", "</notassessment>", 1)
            .replace("<section ", "<assessment ident=\"deep\"><section ", 1).replace("</section>", "</section></assessment>", 1),  # only deeper
    ]
    for text in [q.decode("utf-8") for q in quizzes] + hostile:
        assert _items_streamed(text.encode("utf-8")) == _items_parsed_whole(text.encode("utf-8")), text[:200]
