"""After one question edited, `bank validate` finds the other files' stored verdicts with the
digests its input digest just took, and keeps the edited file's verdict in a journal frame
appended to the per-file store's records file instead of writing the store's index again.

A stored verdict is only ever served for the bytes it was computed from: a frame cut short,
damaged or followed by garbage serves nothing from there on (randomized against a model of
what was stored, `test_random_puts_and_damage_never_serve_another_value`), and a file rewritten
while a run validates, with its size and modification time set back, never lets that run's
verdict stand for the bytes the file had before.
"""

from __future__ import annotations

import os
import random

import pytest

from conftest import keep_only, question_file


@pytest.fixture
def store_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    scope = tmp_path / "scope"
    scope.mkdir()
    return scope


def _open(scope, positional=False):
    from aistack_bank.cache.store import SplitStore

    return SplitStore("questions", scope, positional=positional)


def _get(scope, key, positional=False):
    found = _open(scope, positional).get(key)
    return None if found is None else (found[0], bytes(found[1]))


def test_a_few_new_entries_are_appended_as_a_frame_and_the_index_stays(store_dir):
    store = _open(store_dir)
    store.put("a", ("small a",), b"A" * 100)
    store.save()  # no index yet: written whole
    index = store.path.read_bytes()
    for step in range(3):
        store = _open(store_dir)
        assert _get(store_dir, "a") == (("small a",), b"A" * 100)
        store.put(f"k{step}", (f"small {step}",), bytes([step]) * 50)
        store.save()
        assert store.path.read_bytes() == index  # the index as it was: a frame appended instead
    assert {key: _get(store_dir, key, positional) for key in ("a", "k0", "k1", "k2") for positional in (False, True)} == {
        "a": (("small a",), b"A" * 100), "k0": (("small 0",), b"\0" * 50), "k1": (("small 1",), b"\1" * 50), "k2": (("small 2",), b"\2" * 50)}
    # a later frame's entry stands over an earlier one's
    store = _open(store_dir)
    store.put("k0", ("again",), b"z" * 7)
    store.save()
    assert _get(store_dir, "k0") == (("again",), b"z" * 7)


def test_the_index_is_written_anew_after_enough_frames(store_dir, monkeypatch):
    from aistack_bank.cache import store as store_module

    monkeypatch.setattr(store_module, "MAX_JOURNAL_FRAMES", 3)
    store = _open(store_dir)
    store.put("base", (0,), b"b")
    store.save()
    indexes = [store.path.read_bytes()]
    for step in range(5):
        store = _open(store_dir)
        store.put(f"k{step}", (step,), b"x" * (step + 1))
        store.save()
        indexes.append(store.path.read_bytes())
    # two frames after each index written; the third save writes the index with them
    assert [indexes[i] == indexes[i - 1] for i in range(1, 6)] == [True, True, False, True, True]
    assert all(_get(store_dir, f"k{step}") == ((step,), b"x" * (step + 1)) for step in range(5))


def _damage(store, rng):
    """Damage the records file: cut short anywhere, one bit of the journal changed (the records
    the index names are not digested: a private cache file, not a defence against the disk),
    garbage or a frame of the wrong digest appended."""
    import pickle

    path = store.records_path
    raw = path.read_bytes()
    named = pickle.loads(store.path.read_bytes())["size"]
    how = rng.randrange(4)
    if how == 0:
        path.write_bytes(raw[: rng.randrange(16, len(raw) + 1)])  # cut short anywhere after the token
    elif how == 1 and named < len(raw):
        at = rng.randrange(named, len(raw))
        path.write_bytes(raw[:at] + bytes([raw[at] ^ (1 << rng.randrange(8))]) + raw[at + 1:])  # one bit changed
    elif how <= 2:
        path.write_bytes(raw + rng.randbytes(rng.randrange(1, 80)))  # garbage appended
    else:
        from aistack_bank.cache.store import _FRAME, _FRAME_MARK

        path.write_bytes(raw + _FRAME.pack(_FRAME_MARK, 3, 3, b"\0" * 20) + b"abcdef")  # a frame of the wrong digest


@pytest.mark.parametrize("seed", range(3))
def test_random_puts_and_damage_never_serve_another_value(store_dir, seed, monkeypatch):
    """Runs that put random entries, the records file damaged now and then: every entry served
    is the one put under its key (a key names its value, as a digest of the inputs does), and an
    undamaged store serves every entry put since the last damage."""
    from aistack_bank.cache import store as store_module

    monkeypatch.setattr(store_module, "MAX_JOURNAL_FRAMES", 5)
    monkeypatch.setattr(store_module, "MAX_JOURNAL_BYTES", 3000)
    rng = random.Random(seed)
    latest: dict[str, tuple] = {}
    surely: set[str] = set()  # put since the records file was last damaged
    for step in range(60):
        store = _open(store_dir, positional=rng.random() < 0.5)
        for _ in range(rng.randrange(1, 4)):
            key = f"k{rng.randrange(40)}"
            named = random.Random(key)
            value = ((key, named.random()), named.randbytes(named.randrange(0, 300)))
            store.put(key, *value)
            latest[key] = value
            surely.add(key)
        store.save()
        if store.records_path.exists() and rng.random() < 0.25:
            _damage(store, rng)
            surely.clear()
        for key, value in latest.items():
            found = _get(store_dir, key, positional=rng.random() < 0.5)
            assert found is None or found == value, (step, key)
            assert found is not None or key not in surely, (step, key)


def test_a_question_edited_looks_no_other_file_up_again(project, run_cli, monkeypatch):
    """The other files' verdicts are found with the digests the input digest took (no file
    looked at again), the edited file's verdict is kept in a frame (under the digest of the bytes
    it was read with, which the reading took: that file is not looked at again either), and
    every run prints what a run without cache prints."""
    from aistack_bank.cache import questionfiles

    keep_only(project)
    monkeypatch.setenv("AISTACK_BANK_JOBS", "1")
    reference = run_cli("validate", "--no-cache")
    assert run_cli("validate") == reference
    (index,) = _indexes()
    before = index.read_bytes()
    looked: list = []
    real = questionfiles.file_digest
    monkeypatch.setattr(questionfiles, "file_digest", lambda path, **kw: looked.append(path) or real(path, **kw))
    path = question_file(project, "q005")
    path.write_text(path.read_text(encoding="utf-8") + "# a comment\n", encoding="utf-8")
    assert run_cli("validate") == reference
    assert not [p for p in looked if p.parent.name == "questions"]  # (the edited file's new verdict kept under the bytes read)
    assert index.read_bytes() == before
    looked.clear()
    path.write_text(path.read_text(encoding="utf-8") + "# another\n", encoding="utf-8")
    assert run_cli("validate") == reference
    assert not [p for p in looked if p.parent.name == "questions"]


def _indexes():
    from aistack_bank.cache.store import cache_dir

    return sorted((cache_dir() / "files").glob("questions-*.pickle"))


@pytest.mark.parametrize("when", ["before the files are read", "after the files are read"])
def test_a_file_rewritten_during_the_run_with_its_size_and_times_set_back_is_caught(project, run_cli, monkeypatch, when):
    """A question file given new bytes, then rewritten while `bank validate` runs (after its
    input digest was taken), same size and modification time, then set back to the bytes the
    input digest took the same way: the next run prints what a run without cache prints for
    those bytes, not the verdict of the bytes the file had during the run."""
    from aistack_bank.cache import questionfiles

    keep_only(project)
    monkeypatch.setenv("AISTACK_BANK_JOBS", "1")
    assert run_cli("validate")[0] == 0
    path = question_file(project, "q005")
    edited = path.read_bytes() + b"# a comment\n"  # bytes no store has a verdict of
    broken = edited.replace(b"correct: ", b"correct:_", 1)  # the same size, an error
    assert broken != edited and len(broken) == len(edited)

    def rewrite(data: bytes, times) -> None:
        path.write_bytes(data)
        os.utime(path, ns=(times.st_atime_ns, times.st_mtime_ns))

    path.write_bytes(edited)
    settled = path.stat()
    os.utime(path, ns=(settled.st_atime_ns - 60_000_000_000, settled.st_mtime_ns - 60_000_000_000))  # not in the racy window
    settled = path.stat()
    reference = run_cli("validate", "--no-cache")
    assert reference[0] == 0
    real = questionfiles.QuestionFiles.read_topics

    def read_topics(self, topics):
        if when.startswith("before"):
            rewrite(broken, settled)
        try:
            return real(self, topics)
        finally:
            if when.startswith("after"):
                rewrite(broken, settled)

    monkeypatch.setattr(questionfiles.QuestionFiles, "read_topics", read_topics)
    run_cli("validate")
    monkeypatch.setattr(questionfiles.QuestionFiles, "read_topics", real)
    assert path.stat().st_size == settled.st_size
    rewrite(edited, settled)
    assert run_cli("validate") == reference
    rewrite(broken, settled)
    assert run_cli("validate") == run_cli("validate", "--no-cache")


def test_a_digest_that_is_not_of_the_whole_content_is_neither_kept_nor_looked_up_with(tmp_path, monkeypatch):
    """A file that cannot be read when the input digest is taken: what stands for it in the
    digest is not kept in the stat memo nor given as a lookup key, and the next digest reads it."""
    from aistack_bank.cache import validation

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    bank = tmp_path / "bank"
    bank.mkdir()
    locked, fine = bank / "locked.yaml", bank / "fine.yaml"
    locked.write_text("id: q001\n", encoding="utf-8")
    fine.write_text("id: q002\n", encoding="utf-8")
    past = locked.stat().st_mtime_ns - 60_000_000_000
    for path in (locked, fine):
        os.utime(path, ns=(past, past))
    real_open = os.open

    def refusing(name, *args, **kwargs):
        if os.fspath(name) == str(locked):
            raise PermissionError(13, "Permission denied", os.fspath(name))
        return real_open(name, *args, **kwargs)

    monkeypatch.setattr(validation.os, "open", refusing)
    first = validation.input_digest(bank, None)
    memo = validation._LAST[0][1]
    assert str(locked) not in memo.new and memo.walked(locked) is None
    assert memo.walked(fine) is not None
    monkeypatch.setattr(validation.os, "open", real_open)
    second = validation.input_digest(bank, None)  # read now: another digest
    assert second != first
    assert validation._LAST[0][1].walked(locked) is not None


def test_the_stat_memo_is_written_only_with_a_digest_to_add(tmp_path, monkeypatch):
    """The input digest writes its stat memo again only when it took a digest the memo lacks
    of a file written long enough before (not after an edit of a file written just now)."""
    import pickle

    from aistack_bank.cache import validation

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    bank = tmp_path / "bank"
    bank.mkdir()
    for name in ("a.yaml", "b.yaml"):
        (bank / name).write_text(f"id: {name}\n", encoding="utf-8")
    monkeypatch.setattr(validation, "RACY_NS", -10**15)  # every file written long enough before
    validation.input_digest(bank, None)
    memo = validation.StatMemo([bank]).path
    written = memo.stat()
    # (with the head of the input digest that wrote it: see validation.edited_catalog_only)
    assert set(pickle.loads(memo.read_bytes())) == {str(bank / "a.yaml"), str(bank / "b.yaml"), validation._HEAD}
    validation.input_digest(bank, None)
    assert memo.stat().st_mtime_ns == written.st_mtime_ns and memo.stat().st_ino == written.st_ino  # nothing to add
    (bank / "a.yaml").write_text("id: changed\n", encoding="utf-8")
    monkeypatch.setattr(validation, "RACY_NS", 10**15)  # every file written just now
    validation.input_digest(bank, None)
    assert memo.stat().st_ino == written.st_ino  # its new digest is not kept: nothing to add
    monkeypatch.setattr(validation, "RACY_NS", -10**15)
    validation.input_digest(bank, None)
    kept = pickle.loads(memo.read_bytes())
    assert memo.stat().st_ino != written.st_ino  # written anew, with the new digest
    assert kept[str(bank / "a.yaml")][0][4] == (bank / "a.yaml").stat().st_ctime_ns
