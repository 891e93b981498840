"""A rendering worker writes a format's files of a bank of several topics one at a time
(``build._render_piece`` with a staging folder): each file is written and dropped before the next
is rendered, so the worker holds at most one topic's files, or one whole-bank file, not every
topic's files and the whole-bank files at once (at 10 000 questions in 100 topics × 3 languages,
311 MB of Moodle XML; docs/performance.md, "Round 24: peak memory of a build of 10 000 questions
in 100 topics"). The files staged are those of the whole format, in order; a staging folder that
cannot be written sends them back whole, as before."""

from __future__ import annotations

import pickle
import weakref
from pathlib import Path

import pytest

from aistack_bank import build
from aistack_bank.exporters import FORMATS, record
from aistack_bank.options import ExportOptions


@pytest.fixture(scope="module")
def libraries(tmp_path_factory):
    """The bank of 3 categories × 4 topics × 5 questions in English, French and Dutch (tests/topicbank.py)."""
    from topicbank import write_topic_bank

    root = write_topic_bank(tmp_path_factory.mktemp("topics") / "project")
    libraries, _ = build.load_libraries(root / "bank", root / "translations", build.available_languages(root / "translations"))
    assert list(libraries) == ["en", "fr", "nl"] and len(libraries["en"].topics) == 12
    return libraries


def _payload(libraries) -> tuple:
    """What a worker is sent: every language's library pickled, under a token of this test."""
    return (f"many-topics-{id(libraries)}", tuple((lang, pickle.dumps(library, protocol=pickle.HIGHEST_PROTOCOL)) for lang, library in libraries.items()))


class _Held:
    """Every :class:`~aistack_bank.exporters.record.ExportedFile` made while it watches, and the
    most of them alive at once (counted as each is made: the files a worker holds while it renders)."""

    def __init__(self, monkeypatch) -> None:
        self.alive: weakref.WeakSet = weakref.WeakSet()
        self.most = 0
        held = self

        class Watched(record.ExportedFile):
            def __init__(self, *args, **kwargs) -> None:
                super().__init__(*args, **kwargs)
                held.alive.add(self)
                held.most = max(held.most, len(held.alive))

        monkeypatch.setattr(record, "ExportedFile", Watched)


@pytest.mark.parametrize("name", [name for name, export_format in FORMATS.items() if export_format.bank_layout is None])
def test_a_worker_holds_one_topics_files_at_a_time_and_stages_the_whole_format(libraries, name, monkeypatch, tmp_path):
    export_format = FORMATS[name]
    options = ExportOptions()
    whole = export_format.part_files(libraries, options, None)
    per_topic = len(export_format.files(record.topic_banks(libraries)[0], options))
    assert len(whole) >= 12 * per_topic  # (every topic's files, and the whole-bank files of a format that has them)
    monkeypatch.setattr(build, "_RECEIVED", {})
    held = _Held(monkeypatch)
    staged = build._render_sent(_payload(libraries), name, None, build._options_sent(options), str(tmp_path), "7")
    assert isinstance(staged, build.StagedFiles)
    assert [(path, language) for path, language, *_ in staged] == [(file.path, file.language) for file in whole]
    assert [Path(where).read_bytes() for *_, where in staged] == [file.data for file in whole]
    # a topic's files (made, then each named under its topic's folder) and the file being made
    assert 0 < held.most <= 2 * per_topic + 1, (name, held.most, len(whole))


def test_a_staging_folder_that_cannot_be_written_sends_every_file_back(libraries, monkeypatch, tmp_path):
    monkeypatch.setattr(build, "_RECEIVED", {})
    options = ExportOptions()
    back = build._render_sent(_payload(libraries), "moodle-xml", None, build._options_sent(options), str(tmp_path / "no-such-folder"), "7")
    assert not isinstance(back, build.StagedFiles)
    assert back == FORMATS["moodle-xml"].part_files(libraries, options, None)
