"""The English library and the bank's fields a build makes of every record
(:func:`aistack_bank.i18n.fields.english_library_and_fields`) read each stored record's question
and derived values without unpickling its document (:meth:`aistack_bank.cache.questionfiles.StoredQuestion.model_and_derived`).

Compared with the code before (spelled out here: the question and the derived values read as
attributes, which unpickle the record whole), on the bundled bank copied into three topics and
on ``examples/every-kind``, its records in a spill file (a cold run), in the stores' records
files (a run that finds them stored) and in memory, with random records read first (among the
latest used: :data:`~aistack_bank.cache.questionfiles.RECENT_RECORDS`): the same library and
fields, and each record's question and derived values equal to those read as attributes."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from aistack_bank.cache import questionfiles
from aistack_bank.i18n import fields as fields_module
from aistack_bank.load import read_library
from aistack_bank.rules.lints import file_leak_texts
from aistack_bank.rules.validate import question_file_rules

REPO = Path(__file__).resolve().parent.parent


def _topic_source_fields_before(source, by_id=None):
    """_topic_source_fields as it was: each record's question and derived values read as attributes."""
    found: list = []
    if source.topic is not None:
        found += fields_module.topic_fields(source.topic, source.topic_doc, source.root / "topic.yaml")
    order = {qid: i for i, qid in enumerate(source.topic.questions)} if source.topic is not None else {}
    keyed = []
    for qs in source.questions:
        question = qs.question
        if question is not None:
            if by_id is not None:
                by_id[question.id] = question
            keyed.append(((order.get(question.id, len(order)), question.id), qs.derived.get("fields"), qs))
    keyed.sort(key=lambda item: item[0])
    for _, known, qs in keyed:
        found += known if known is not None else fields_module.question_fields(qs.question, qs.doc, qs.path)
    return found


def _read(cache: Path, monkeypatch, spill: bool):
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    files = questionfiles.QuestionFiles(question_file_rules, use_cache=True, spill=spill, texts=file_leak_texts)
    return files, read_library(Path("bank"), read_topics=files.read_topics)


def _compare(source, rng: random.Random, monkeypatch) -> set:
    """Check the library and fields against the code before; the kinds of records met."""
    questions = [qs for topic in source.topics for qs in topic.questions]
    for qs in rng.sample(questions, rng.randint(0, len(questions))):  # (some among the latest used)
        qs.question  # noqa: B018
    after = fields_module.english_library_and_fields(source)
    with monkeypatch.context() as patched:
        patched.setattr(fields_module, "_topic_source_fields", _topic_source_fields_before)
        before = fields_module.english_library_and_fields(source)
    assert after[0] == before[0]
    assert [(type(field), dict(zip(field._fields, field))) for field in after[1]] == [(type(field), dict(zip(field._fields, field))) for field in before[1]] and len(after[1]) > 10
    kinds = set()
    for qs in rng.sample(questions, len(questions)):
        record = qs.__dict__.get("_record")
        kinds.add(type(record).__name__ if "question" not in qs.__dict__ else "held")
        question, derived = qs.model_and_derived()
        assert question == qs.question and derived == qs.derived
    return kinds


@pytest.mark.parametrize("seed", range(3))
def test_the_library_and_fields_made_without_the_documents_are_those_read_with_them(project, monkeypatch, tmp_path, seed):
    rng = random.Random(seed)
    topic = next(folder for folder in Path("bank").iterdir() if (folder / "topic.yaml").is_file())
    for copy in ("second", "third"):
        shutil.copytree(topic, Path("bank") / f"{topic.name}-{copy}")
    monkeypatch.setenv("AISTACK_BANK_JOBS", "2")
    monkeypatch.setattr(questionfiles, "FILE_POOL_MIN", 0)
    monkeypatch.setattr(questionfiles, "SPILL_MIN_FILES", 0)
    monkeypatch.setattr(questionfiles, "RECENT_RECORDS", rng.choice([1, 7, 512]))
    kinds = set()
    for spill in (True, True, False):  # cold (the spill file), stored (the stores' records files), in memory
        files, source = _read(tmp_path / "cache", monkeypatch, spill)
        kinds |= _compare(source, rng, monkeypatch)
        files.close()
    assert {"Spilled", "StoreRecord"} <= kinds


def test_every_kind_gives_the_same_library_and_fields(tmp_path, monkeypatch):
    shutil.copytree(REPO / "examples" / "every-kind", tmp_path / "every-kind", ignore=shutil.ignore_patterns("exports", ".bank-cache"))
    monkeypatch.chdir(tmp_path / "every-kind")
    monkeypatch.setenv("AISTACK_BANK_JOBS", "2")
    monkeypatch.setattr(questionfiles, "FILE_POOL_MIN", 0)
    monkeypatch.setattr(questionfiles, "SPILL_MIN_FILES", 0)
    kinds = set()
    for spill in (True, True):
        files, source = _read(tmp_path / "cache", monkeypatch, spill)
        kinds |= _compare(source, random.Random(5), monkeypatch)
        files.close()
    assert {"Spilled", "StoreRecord"} <= kinds
