"""The orchestration of a bank of many topics and many files: the topic files read in worker
processes (`load._started_banks`), the check after validating that no input changed
(`validation._unchanged`) for files the input digest takes by their status (a catalog over
`MAX_HASHED_BYTES`), and `edited_catalog_only`'s early answer; each compared with the code
before (the serial read, the whole digest taken again, a copy of the former function)."""

from __future__ import annotations

import os
import random
import shutil
from pathlib import Path

import pytest

from aistack_bank import load, parallel
from aistack_bank.cache import store, validation


def _many_topics(rng: random.Random, count: int) -> None:
    """Copies of the bundled topic under other names in ``bank/``, some of them damaged."""
    topic = next(folder for folder in Path("bank").iterdir() if (folder / "topic.yaml").is_file())
    for n in range(count):
        copy = Path("bank") / f"{topic.name}-{n:02d}"
        shutil.copytree(topic, copy)
        what = rng.choice(["same", "same", "broken", "renamed", "tags", "no-questions", "no-topic", "extra"])
        text = (copy / "topic.yaml").read_text(encoding="utf-8")
        if what == "broken":
            (copy / "topic.yaml").write_text(text + "\n  : [unclosed\n", encoding="utf-8")
        elif what == "renamed":
            (copy / "topic.yaml").write_text(text.replace(f"id: {topic.name}", f"id: other-{n}", 1), encoding="utf-8")
        elif what == "tags":
            (copy / "topic.yaml").write_text(text.replace("tags:", "tags:\n  - extra-tag", 1), encoding="utf-8")
        elif what == "no-questions":
            shutil.rmtree(copy / "questions")
        elif what == "no-topic":
            (copy / "topic.yaml").unlink()
        elif what == "extra":
            (copy / "questions" / "notes.txt").write_text("not a question\n", encoding="utf-8")


def _plain(started) -> list:
    out = []
    for bank, files in started:
        doc = bank.topic_doc
        out.append((bank.root, bank.topic, bank.diagnostics, bank.questions, files,
                    None if doc is None else (doc.path, doc.text, doc.data, doc.values, doc.keys)))
    return out


@pytest.mark.parametrize("seed", range(3))
def test_topics_read_in_workers_are_the_serial_reads(project, monkeypatch, tmp_path, seed):
    from aistack_bank.cache.questionfiles import QuestionFiles
    from aistack_bank.rules.validate import question_file_rules

    rng = random.Random(seed)
    _many_topics(rng, rng.randrange(5, 12))
    monkeypatch.setenv("AISTACK_BANK_JOBS", "2")
    monkeypatch.setattr(load, "TOPIC_POOL_MIN", 2)
    root = Path("bank")
    topics = load.topic_folders(root)
    project_folder = load.project_of(root)
    pids = tmp_path / "pids"

    def reader(folder, *, project=None):
        with open(pids, "a", encoding="utf-8") as out:
            out.write(f"{os.getpid()}\n")
        return QuestionFiles(question_file_rules, use_cache=use_cache).read_topic(folder, project=project)

    for use_cache in (False, True, True):  # (the second with the topics' stores written)
        pooled = _plain(load._started_banks(topics, project_folder, reader))
        readers = set(pids.read_text(encoding="utf-8").split())
        pids.unlink()
        assert str(os.getpid()) not in readers and len(readers) >= 1  # read in the workers
        serial = _plain([load._start_bank(folder, None, project_folder, reader) for folder in topics])
        pids.unlink()
        assert pooled == serial


def test_validation_with_topics_read_in_workers_gives_the_serial_verdict(project, monkeypatch, tmp_path):
    from aistack_bank.cache.validation import validate_cached

    _many_topics(random.Random(7), 8)
    monkeypatch.setenv("AISTACK_BANK_JOBS", "2")
    found = {}
    for name, least in (("serial", 10 ** 9), ("pooled", 2), ("pooled-cached", 2)):
        monkeypatch.setattr(load, "TOPIC_POOL_MIN", least)
        if name != "pooled-cached":
            monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / name))
        store.drop_bytes()
        validation._LAST.clear()
        diagnostics, summary = validate_cached(Path("bank"), Path("translations"), use_cache=name != "serial")
        found[name] = ([d.as_dict() for d in diagnostics], summary)
    assert found["pooled"] == found["serial"] == found["pooled-cached"]
    assert any(d["code"] == "E317" for d in found["serial"][0])  # (the damaged copies were read)


def _tree(rng: random.Random, tmp_path: Path) -> tuple[Path, Path, list[Path]]:
    bank, translations = tmp_path / "bank", tmp_path / "translations"
    (bank / "t" / "questions").mkdir(parents=True)
    (translations / "site").mkdir(parents=True)
    names = [bank / "t" / "questions" / f"q{i}.yaml" for i in range(rng.randrange(1, 12))]
    names += [translations / f"{lang}.po" for lang in rng.sample(["fr", "nl", "de"], rng.randrange(1, 4))]
    names += [translations / "bank.pot", translations / "site" / "fr.po"]
    for name in names:
        name.write_bytes(rng.randbytes(9000 if name.name == "bank.pot" else rng.choice([10, 500, 3000, 9000])))
    return bank, translations, names


def _change(rng: random.Random, names: list[Path], translations: Path) -> None:
    for name in rng.sample(names, rng.randrange(0, 3)):
        how = rng.choice(["same size", "grown", "shrunk", "removed", "fifo"])
        if not name.exists() or name.is_fifo():
            continue
        size = name.stat().st_size
        if how == "same size":
            name.write_bytes(rng.randbytes(size))
        elif how == "grown":
            with open(name, "ab") as out:
                out.write(b"x" * rng.choice([1, 4000]))
        elif how == "shrunk":
            name.write_bytes(rng.randbytes(rng.choice([5, 400])))
        elif how == "removed":
            name.unlink()
        else:
            name.unlink()
            os.mkfifo(name)
    if rng.random() < 0.2:
        (translations / f"new{rng.randrange(100)}.po").write_bytes(rng.randbytes(rng.choice([10, 5000])))


@pytest.mark.parametrize("seed", range(16))
def test_the_check_after_validating_takes_files_digested_by_status_as_a_whole_digest_does(tmp_path, monkeypatch, seed):
    """`input_digest(again=True)` against the digest taken again whole (what it did for a file
    the first digest took by its status, such as a catalog of more than 256 MB), with files of
    both kinds unchanged, written, grown, shrunk past the limit, removed or made special."""
    rng = random.Random(seed)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(validation, "MAX_HASHED_BYTES", rng.choice([1000, 4000]))
    monkeypatch.setattr(validation, "RACY_NS", 0)  # (settled at once: the identities decide)
    bank, translations, names = _tree(rng, tmp_path)
    for step in range(3):
        store.drop_bytes()
        validation._LAST.clear()
        first = validation.input_digest(bank, translations)
        memo = validation._LAST[0][1]
        by_status = [name for name, value in memo.values.items() if value.startswith(b"special ")]
        assert by_status or step  # (the template, 9 000 bytes: over the limit)
        changed = rng.random() < 0.7
        if changed:
            _change(rng, names, translations)
        retaken = []
        real_tree, real_unchanged = validation._digest_tree, validation._unchanged
        try:
            validation._digest_tree = lambda *a: retaken.append(1) or real_tree(*a)
            again = validation.input_digest(bank, translations, again=True)
            quick = not retaken
            validation._unchanged = lambda *a, **k: False  # the whole digest taken again
            whole = validation.input_digest(bank, translations, again=True)
        finally:
            validation._digest_tree, validation._unchanged = real_tree, real_unchanged
        assert again == whole
        if not changed:
            assert again == first and quick  # (not taken again, whatever was digested by its status)


def _edited_catalog_only_before(memo, bank, translations, bank_kept):
    """`edited_catalog_only` as it was, from the memo on."""
    if memo is None:
        return False
    fresh = memo.fresh
    if bank_kept:
        inside = os.path.join(os.path.abspath(bank), "")
        fresh = [name for name in fresh if not os.path.abspath(name).startswith(inside)]
    if not memo.complete or not memo.old or memo.seen_head != memo.head or len(fresh) > 1:
        return False
    if not fresh:
        return True
    name = fresh[0]
    return (name.endswith(".po") and name not in memo.links and os.path.dirname(name) == os.fspath(translations)
            and store.store_exists("catalog-owners", Path(name)))


class _Memo:
    pass


def test_edited_catalog_only_answers_as_before(tmp_path, monkeypatch):
    rng = random.Random(3)
    bank, translations = tmp_path / "bank", tmp_path / "translations"
    candidates = [str(bank / "t" / "questions" / "q1.yaml"), str(bank / "t" / "topic.yaml"), str(translations / "fr.po"),
                  str(translations / "nl.po"), str(translations / "aistack.pot"), str(translations / "site" / "fr.po"), str(tmp_path / "fr.po")]
    owners = set(rng.sample(candidates, 3))
    monkeypatch.setattr(validation, "store_exists", lambda kind, path: str(path) in owners)
    monkeypatch.setattr(store, "store_exists", lambda kind, path: str(path) in owners)
    for _ in range(3000):
        memo = None if rng.random() < 0.05 else _Memo()
        if memo is not None:
            memo.complete = rng.random() < 0.9
            memo.old = {"x": 1} if rng.random() < 0.85 else {}
            memo.head = "h"
            memo.seen_head = "h" if rng.random() < 0.85 else rng.choice([None, "g"])
            memo.fresh = [rng.choice(candidates) for _ in range(rng.choice([0, 1, 1, 2, 3]))]
            memo.links = set(rng.sample(candidates, rng.randrange(0, 2)))
        monkeypatch.setattr(validation, "_latest_memo", lambda b, t: memo)
        bank_kept = rng.random() < 0.5
        assert validation.edited_catalog_only(bank, translations, bank_kept=bank_kept) == _edited_catalog_only_before(memo, bank, translations, bank_kept)


def test_a_bank_of_many_topics_reads_them_once_per_command(project, monkeypatch, tmp_path):
    """The pooled read is of each topic once (not once more in this process)."""
    _many_topics(random.Random(1), 6)
    monkeypatch.setenv("AISTACK_BANK_JOBS", "2")
    monkeypatch.setattr(load, "TOPIC_POOL_MIN", 2)
    calls = []
    real = parallel.run_each
    monkeypatch.setattr(parallel, "run_each", lambda tasks, work, min_work=None: calls.append(len(tasks)) or real(tasks, work, min_work))
    source = load.read_library(Path("bank"), read_topics=lambda topics: [[] for _ in topics])
    assert calls and len(source.topics) == len(load.topic_folders(Path("bank")))
