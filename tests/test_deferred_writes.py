"""The cache files a command writes are flushed to the disk together at its end, then renamed in
(`cache/store.py`: `deferred_writes`): each one on the disk before it is renamed in, renamed in
the order of its latest write, read back by the same process from its temporary file until then,
and a file that cannot be flushed is not written. Randomized against the same operations made
without the block: every read inside it and every entry served after it are the same."""

from __future__ import annotations

import os
import random

import pytest

import forked


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    from aistack_bank.cache.store import cache_dir

    folder = cache_dir() / "files"
    return folder


def _events(monkeypatch):
    from aistack_bank import writing

    events = []
    real_replace = os.replace
    monkeypatch.setattr(writing.os, "fsync", lambda fd: events.append(("fsync", os.readlink(f"/proc/self/fd/{fd}"))))

    def replace(src, dst):
        events.append(("replace", os.fspath(dst)))
        real_replace(src, dst)

    monkeypatch.setattr(writing.os, "replace", replace)
    return events


def test_flushed_together_then_renamed_in_the_order_of_the_latest_writes(cache, monkeypatch):
    from aistack_bank.cache.store import deferred_writes, read_private, write_private

    a, b, c = (cache / f"{name}.pickle" for name in "abc")
    events = _events(monkeypatch)
    with deferred_writes():
        assert write_private(a, b"first a") and write_private(b, b"b") and write_private(a, b"second a") and write_private(c, b"c")
        assert not a.exists() and not b.exists() and not c.exists() and not events
        assert read_private(a, 100) == b"second a" and read_private(b, 100) == b"b"  # this process reads what it wrote
    flushes = [i for i, (kind, _) in enumerate(events) if kind == "fsync"]
    assert len(flushes) == 3 and max(flushes) < min(i for i, (kind, _) in enumerate(events) if kind == "replace")
    assert [what for kind, what in events if kind == "replace"] == [str(b), str(a), str(c)]
    assert (a.read_bytes(), b.read_bytes(), c.read_bytes()) == (b"second a", b"b", b"c")
    assert sorted(p.name for p in cache.iterdir()) == ["a.pickle", "b.pickle", "c.pickle"]  # no temporary file left


def test_a_file_that_cannot_be_flushed_is_not_written(cache, monkeypatch):
    from aistack_bank import writing
    from aistack_bank.cache.store import deferred_writes, write_private

    a, b, c = (cache / f"{name}.pickle" for name in "abc")
    write_private(b, b"old b")
    with deferred_writes():
        for path in (a, b, c):
            write_private(path, b"new " + path.name.encode())
        failing = {os.path.realpath(tmp) for tmp in os.listdir(cache) if tmp.startswith(".b.pickle.")}

        def fsync(fd):
            if os.path.basename(os.readlink(f"/proc/self/fd/{fd}")).startswith(".b.pickle."):
                raise OSError(28, "No space left on device")

        monkeypatch.setattr(writing.os, "fsync", fsync)
    assert failing and (a.read_bytes(), b.read_bytes(), c.read_bytes()) == (b"new a.pickle", b"old b", b"new c.pickle")
    assert sorted(p.name for p in cache.iterdir()) == ["a.pickle", "b.pickle", "c.pickle"]


def test_a_forked_process_writes_as_without_the_block(cache):
    from aistack_bank.cache.store import deferred_writes, write_private

    path = cache / "child.pickle"
    with deferred_writes():
        write_private(cache / "parent.pickle", b"parent")
        pid = os.fork()
        if pid == 0:  # the child: written and renamed in at once, the parent's file not touched
            write_private(path, b"child")
            os._exit(0 if path.read_bytes() == b"child" and not (cache / "parent.pickle").exists() else 1)
        status = forked.waited(pid, timeout=60)
        assert status == 0 and not (cache / "parent.pickle").exists()
    assert (cache / "parent.pickle").read_bytes() == b"parent"


def test_a_forked_process_that_leaves_the_block_renames_nothing_of_its_parent(cache):
    from aistack_bank.cache.store import deferred_writes, write_private

    block = deferred_writes()
    block.__enter__()
    try:
        write_private(cache / "parent.pickle", b"parent")
        pid = os.fork()
        if pid == 0:  # the child leaves the parent's block as the parent's code would
            block.__exit__(None, None, None)
            os._exit(0 if not (cache / "parent.pickle").exists() else 1)
        status = forked.waited(pid, timeout=60)
        assert status == 0 and not (cache / "parent.pickle").exists()
    finally:
        block.__exit__(None, None, None)
    assert (cache / "parent.pickle").read_bytes() == b"parent"
    assert sorted(p.name for p in cache.iterdir()) == ["parent.pickle"]


def _run(scope, ops, deferred: bool):
    """Apply ``ops`` to the stores of ``scope``; what every read inside gave, and what every key serves after."""
    from aistack_bank.cache.store import SplitStore, Store, deferred_writes

    seen, keys = [], set()

    def body():
        for op in ops:
            kind, key, value = op
            if kind == "split":
                store = SplitStore("questions", scope, positional=value % 2 == 0)
                for n in range(value % 3 + 1):
                    store.put(f"{key}{n}", (key, value, n), bytes([value % 251]) * (value % 97 + n))
                    keys.add(("split", f"{key}{n}"))
                seen.append(sorted((k, store.get(k)[0], bytes(store.get(k)[1])) for _, k in keys if _ == "split" and store.get(k)))
                store.save()
            elif kind == "plain":
                store = Store("leaks", scope, keep=3)
                seen.append(store.get(key))
                store.put(key, (key, value))
                keys.add(("plain", key))
                store.save()
            else:  # a read in a new store, as a later step of the same command does
                split = SplitStore("questions", scope, positional=value % 2 == 0)
                seen.append(sorted((k, split.get(k)[0], bytes(split.get(k)[1])) for _, k in keys if _ == "split" and split.get(k)))
                seen.append(sorted((k, Store("leaks", scope).get(k)) for _, k in keys if _ == "plain"))

    if deferred:
        with deferred_writes():
            body()
    else:
        body()
    split, plain = SplitStore("questions", scope), Store("leaks", scope)
    after = sorted((k, split.get(k)[0], bytes(split.get(k)[1])) if kind == "split" and split.get(k) else (k, plain.get(k) if kind == "plain" else None)
                   for kind, k in keys)
    return seen, after


@pytest.mark.parametrize("seed", range(4))
def test_random_stores_read_and_serve_the_same_with_and_without_the_block(tmp_path, monkeypatch, seed):
    rng = random.Random(seed)
    ops = [(rng.choice(["split", "split", "plain", "read"]), rng.choice("pqrs"), rng.randrange(1000)) for _ in range(25)]
    results = []
    for deferred in (False, True):
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / f"cache-{deferred}"))
        scope = tmp_path / "scope"
        scope.mkdir(exist_ok=True)
        results.append(_run(scope, ops, deferred))
    assert results[0] == results[1]
    for deferred in (False, True):
        left = [p.name for p in (tmp_path / f"cache-{deferred}").rglob("*.tmp")]
        assert left == []


def test_what_a_command_killed_outright_left_is_removed_once_old(cache):
    """A command killed outright (SIGKILL, SIGTERM, a closed terminal) leaves the temporary files
    of its cache writes in the cache folder, and its spill file; the next command that writes
    there removes those older than a day, and leaves a younger one (perhaps a running
    command's) and any other file."""
    import time

    from aistack_bank.cache import store
    from aistack_bank.cache.store import deferred_writes, write_private

    write_private(cache / "a.pickle", b"a")
    old = [cache / ".questions-x.records.abc123.tmp", cache / ".b.pickle.zz_9.tmp", cache / "spill-k2_x.tmp"]
    young = cache / ".c.pickle.young.tmp"
    others = [cache / "notes.tmp", cache / "d.pickle", cache / "spill-k3.pickle"]
    for path in (*old, young, *others):
        path.write_bytes(b"left")
    then = time.time() - store.STALE_TEMP_SECONDS - 60
    for path in (*old, *others):
        os.utime(path, (then, then))
    with deferred_writes():
        write_private(cache / "a.pickle", b"new a")
    assert sorted(p.name for p in cache.iterdir()) == sorted(["a.pickle", young.name, *(p.name for p in others)])


def test_interrupted_while_renaming_no_temporary_file_is_left(cache, monkeypatch):
    """Ctrl-C while the files are renamed in: those renamed stay, the others are not written, and
    no temporary file is left (the one whose rename was interrupted included)."""
    from aistack_bank.cache.store import deferred_writes, write_private

    real_replace, calls = os.replace, []

    def replace(src, dst):
        calls.append(dst)
        if len(calls) == 2:
            raise KeyboardInterrupt
        real_replace(src, dst)

    with pytest.raises(KeyboardInterrupt):
        with deferred_writes():
            for name in "abc":
                write_private(cache / f"{name}.pickle", name.encode())
            monkeypatch.setattr(os, "replace", replace)
    monkeypatch.setattr(os, "replace", real_replace)
    assert sorted(p.name for p in cache.iterdir()) == ["a.pickle"]
