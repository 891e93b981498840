"""The check that no input changed while validating is made for the bank folder's files as soon
as nothing of the validation reads them any more (after the question files' reads and the
lints, beside the catalogs' workers), and for the translations' folder at the end
(`cache/validation._BankRead`).

A verdict is kept only under the digest of the bytes it was computed from: a question file
changed before its read, or after it but before the bank's check, keeps nothing; one changed
after the bank's check keeps the verdict of the bytes read (the digest taken at the start), which
a later run serves only for those bytes. Whatever the moment of the change, each run after it
prints what a run without cache prints (`test_random_changes_at_random_moments_...`, randomized);
with the check made before the reads (tried by hand: `bank_read()` called before
`read_library`), the case "before its read" serves a stale verdict and fails.
"""

from __future__ import annotations

import os
import random

import pytest

from conftest import keep_only, question_file


@pytest.fixture(params=["serial", "workers"])
def workers(request, monkeypatch):
    """Serially, or with the catalogs' workers forked (the bank's check then runs beside them)."""
    from aistack_bank.cache import questionfiles
    from aistack_bank.rules import validate

    if request.param == "workers":
        monkeypatch.setenv("AISTACK_BANK_JOBS", "2")
        monkeypatch.setattr(validate, "POOL_MIN_CATALOG_BYTES", 0)
        monkeypatch.setattr(questionfiles, "SPILL_MIN_FILES", 0)
    else:
        monkeypatch.setenv("AISTACK_BANK_JOBS", "1")
    return request.param


def _kept() -> int:
    from aistack_bank.cache.store import cache_dir

    return len(list((cache_dir() / "validate").glob("*.json")))


def _rewrite(path, data: bytes, times) -> None:
    path.write_bytes(data)
    os.utime(path, ns=(times.st_atime_ns, times.st_mtime_ns))


@pytest.mark.parametrize("when", ["before its read", "after its read, before the bank's check", "after the bank's check"])
def test_a_question_file_changed_during_the_run(project, run_cli, monkeypatch, workers, when):
    """A question file given bytes of the same size and times while `bank validate` runs: before
    its read or before the bank's check, nothing is kept; after the check, the verdict of the
    bytes read is kept, and served only for them. The end of the run does not look at the bank's
    files again when the check found them unchanged."""
    from aistack_bank.cache import questionfiles, validation

    keep_only(project)
    path = question_file(project, "q005")
    edited = path.read_bytes() + b"# a comment\n"
    broken = edited.replace(b"correct: ", b"correct:_", 1)  # the same size, an error
    assert broken != edited and len(broken) == len(edited)
    path.write_bytes(edited)
    settled = path.stat()
    os.utime(path, ns=(settled.st_atime_ns - 60_000_000_000, settled.st_mtime_ns - 60_000_000_000))  # not in the racy window
    settled = path.stat()
    reference = run_cli("validate", "--no-cache")
    assert reference[0] == 0
    broken_reference = None

    real_read, real_check, real_unchanged = questionfiles.QuestionFiles.read_topics, validation._BankRead.__call__, validation._unchanged
    skipped = []

    def read_topics(self, topics):
        if when == "before its read":
            _rewrite(path, broken, settled)
        return real_read(self, topics)

    def check(self):
        if when.startswith("after its read"):
            _rewrite(path, broken, settled)
        real_check(self)
        if when == "after the bank's check":
            _rewrite(path, broken, settled)

    def unchanged(first, head, roots, only=None, skip=frozenset()):
        if only is None:
            skipped.append(skip)
        return real_unchanged(first, head, roots, only, skip)

    monkeypatch.setattr(questionfiles.QuestionFiles, "read_topics", read_topics)
    monkeypatch.setattr(validation._BankRead, "__call__", check)
    monkeypatch.setattr(validation, "_unchanged", unchanged)
    before = _kept()
    code, _ = run_cli("validate")
    monkeypatch.setattr(questionfiles.QuestionFiles, "read_topics", real_read)
    monkeypatch.setattr(validation._BankRead, "__call__", real_check)
    assert code == (1 if when == "before its read" else 0)  # (the bytes read)
    assert path.read_bytes() == broken and path.stat().st_size == settled.st_size
    if when == "after the bank's check":
        assert _kept() == before + 1 and skipped == [frozenset({0})]  # (the catalogs' folder alone at the end)
    else:
        assert _kept() == before and skipped == [frozenset()]
    broken_reference = run_cli("validate", "--no-cache")
    assert broken_reference[0] == 1
    assert run_cli("validate") == broken_reference
    _rewrite(path, edited, settled)
    assert run_cli("validate") == reference
    _rewrite(path, broken, settled)
    assert run_cli("validate") == broken_reference


@pytest.mark.parametrize("seed", range(6))
def test_random_changes_at_random_moments_give_the_verdict_of_a_run_without_cache(project, run_cli, monkeypatch, workers, seed):
    """Question files, the topic file and a catalog changed (and set back, with their times) at
    random moments of a run: before the input digest, before the reads, between the reads and the
    bank's check, after it, after the run. The next run gives what a run without cache gives for
    the files as they are, then with every file set back to the bytes that run's input digest took
    (whose key a verdict computed from other bytes must not be kept under), then after more changes."""
    from aistack_bank import load
    from aistack_bank.cache import validation

    rng = random.Random(seed)
    keep_only(project)
    files = [question_file(project, qid) for qid in ("q001", "q004", "q005", "q010")]
    files += [next((project / "bank").glob("*/topic.yaml")), project / "translations" / "fr.po"]
    versions = {}
    for path in files:
        data = path.read_bytes()
        other = data.replace(b"\nid: ", b"\nid: X", 1) if path.suffix == ".yaml" else data.replace(b'msgstr "', b'msgstr "x', 1)
        assert other != data
        times = path.stat()
        os.utime(path, ns=(times.st_atime_ns - 60_000_000_000, times.st_mtime_ns - 60_000_000_000))
        versions[path] = [data, other, data + b"\n# more\n"]
    settled = {path: path.stat() for path in files}
    moments = ["digest", "read", "check", "after check", "end"]
    real_started, real_check = load._started_banks, validation._BankRead.__call__
    real_digest = validation.input_digest
    references: dict[tuple[bytes, ...], tuple[int, str]] = {}

    def without_cache() -> tuple[int, str]:
        """What `bank validate --no-cache` prints for the files as they are, run once for each of
        their contents met (the rest of the bank does not change, and a run without cache
        neither reads nor leaves anything in the cache: the runs with it see the same cache)."""
        contents = tuple(path.read_bytes() for path in files)
        if contents not in references:
            references[contents] = run_cli("validate", "--no-cache")
        return references[contents]

    for _ in range(6):
        for path in files:  # (from the bank as it was, without errors: each change shows)
            _rewrite(path, versions[path][0], settled[path])
        plan = {moment: [] for moment in moments}
        for path in rng.sample(files, rng.randint(1, 2)):
            plan[rng.choice(moments)].append((path, rng.choice(versions[path])))

        def apply(moment) -> None:
            for path, data in plan[moment]:
                _rewrite(path, data, settled[path])

        digested = {}

        def digest(*args, **kwargs):
            if not kwargs.get("again"):
                apply("digest")
                digested.update((path, path.read_bytes()) for path in files)
            return real_digest(*args, **kwargs)

        def started(*args):
            apply("read")
            return real_started(*args)

        def check(self):
            apply("check")
            real_check(self)
            apply("after check")

        monkeypatch.setattr(validation, "input_digest", digest)
        monkeypatch.setattr(load, "_started_banks", started)
        monkeypatch.setattr(validation._BankRead, "__call__", check)
        run_cli("validate")
        monkeypatch.setattr(validation, "input_digest", real_digest)
        monkeypatch.setattr(load, "_started_banks", real_started)
        monkeypatch.setattr(validation._BankRead, "__call__", real_check)
        apply("end")
        assert run_cli("validate") == without_cache()
        # set back to the bytes the input digest took (a verdict of a run may be kept under them)
        for path in files:
            _rewrite(path, digested[path], settled[path])
        assert run_cli("validate") == without_cache()
        for path in rng.sample(files, 2):
            _rewrite(path, rng.choice(versions[path]), settled[path])
        assert run_cli("validate") == without_cache()
