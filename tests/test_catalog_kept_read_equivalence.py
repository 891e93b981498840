"""A cold catalog read's kept files and checks: the bytes of the latest read are written after
their token's line through the file's descriptor (not joined into one copy first), its texts
and base pickled into their files as the pickler makes each frame (not into a buffer first),
and ``LightCatalog.distinct`` reads the reader's columns (the contexts, the rows kept whole)
instead of each entry.

The files must hold the bytes they held before (spelled out below), and ``distinct`` must
answer as before (spelled out below) on random catalogs of every shape, with contexts repeated
or missing, plural forms, obsolete entries and headers put in, read by the row reader and from
their kept columns; and the bundled bank's and `examples/every-kind`'s catalogs. Then a read of
a catalog with each kind of finding gives the same catalog and diagnostics as a read that does
not use the columns.
"""

from __future__ import annotations

import io
import pickle
import random
from operator import itemgetter
from pathlib import Path

import pytest
from test_catalog_read_text import _texts

from aistack_bank.cache.store import Store
from aistack_bank.i18n import catalog as catalog_module
from aistack_bank.i18n import pofile
from aistack_bank.i18n.catalog import read_catalog

ROOT = Path(__file__).resolve().parents[1]
PATH = Path("translations/fr.po")


def _old_distinct(po) -> bool:
    """``LightCatalog.distinct`` as it was (each entry looked at)."""
    if any(map(itemgetter(3), po)):
        return False
    contexts = list(map(itemgetter(0), po))
    unnamed = contexts.count(None)
    if len(set(contexts)) - (1 if unnamed else 0) != len(contexts) - unnamed:
        return False
    if unnamed:
        loose = [e.msgid for e in po if e.msgctxt is None]
        return len(set(loose)) == len(loose)
    return True


def _old_fast_pickled(obj, *then) -> bytes:
    """``catalog._fast_pickled`` as it was (into a buffer)."""
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.fast = True
    pickler.dump(obj)
    for other in then:
        pickle.dump(other, buffer, protocol=pickle.HIGHEST_PROTOCOL)
    return buffer.getvalue()


def _varied(rng: random.Random, rows: list[tuple]) -> list[tuple]:
    """``rows`` with a few changes a catalog's checks look for: a context repeated, a context
    taken away, plural forms, an entry made obsolete, a header (with plural forms or not)."""
    rows = [tuple(r) for r in rows]
    for _ in range(rng.randint(1, 3)):
        if not rows:
            break
        i = rng.randrange(len(rows))
        r = list(rows[i])
        what = rng.randrange(6)
        if what == 0:
            r[0] = rows[rng.randrange(len(rows))][0]  # (its own, or another's)
        elif what == 1:
            r[0] = None
        elif what == 2:
            r[3], r[4], r[14] = "plural", {0: "a", 1: "b"}, []  # (a row of another shape than the readers' bank shape)
        elif what == 3:
            r[12], r[14] = True, []
        elif what == 4:  # a header, with plural forms now and then
            r[0], r[1], r[2] = None, "", "Content-Type: text/plain; charset=UTF-8\n"
            if rng.random() < 0.3:
                r[3], r[14] = "plural", []
        else:
            r[1] = rows[rng.randrange(len(rows))][1]
        rows[i] = tuple(r)
    return rows


def _check(rows: list[tuple], packed: tuple | None, entries: bool) -> bool:
    made = pofile.light_catalog(rows, entries=entries, packed=packed)
    assert made.read_columns is not None or packed is None or len(packed[0]) != len(rows)
    found = made.distinct()
    assert made.read_columns is None
    assert found == _old_distinct(pofile.light_catalog(rows, entries=entries)) == made.distinct(), rows
    return found


@pytest.mark.parametrize("seed", range(2))
def test_distinct_answers_as_before(seed):
    rng = random.Random(20261503 + seed)
    answers = {True: 0, False: 0}
    for text in _texts(rng):
        data = text.encode("utf-8", errors="surrogatepass")
        if not data.endswith(b"\n"):
            data += b"\n"
        pos = len(data) - len(data.lstrip(b"\n"))
        packed: list = []
        found = pofile.read_rows_bytes(data, pos, pos + 1, PATH, packed)
        if found is None:
            try:
                rows, _ = pofile.read_light_rows(data.decode("utf-8"), PATH)
            except UnicodeDecodeError:
                continue
            if rows is None:
                continue
            answers[_check(rows, pofile.pack_rows(rows), False)] += 1
            continue
        rows = found[0]
        # the reader's columns (as a cold read keeps them), and the columns of a kept read
        answers[_check(rows, packed[0], True)] += 1
        answers[_check(pofile.unpack_rows(packed[0]), packed[0], False)] += 1
        varied = _varied(rng, rows)
        answers[_check(varied, pofile.pack_rows(varied), False)] += 1
        # columns of other rows than the catalog's (another length): not read
        _check(varied, pofile.pack_rows(varied[1:]), False)
    assert answers[True] > 1000 and answers[False] > 200, answers


def _catalogs():
    for root in (ROOT / "translations", ROOT / "examples" / "every-kind" / "translations"):
        yield from sorted(root.glob("*.po"))
        yield from sorted(root.glob("*.pot"))


def test_the_bundled_catalogs_answer_as_before():
    rng = random.Random(3)
    for path in _catalogs():
        data = path.read_bytes()
        pos = len(data) - len(data.lstrip(b"\n"))
        packed: list = []
        found = pofile.read_rows_bytes(data, pos, pos + 1, path, packed)
        assert found is not None, path
        assert _check(found[0], packed[0], True), path
        for _ in range(20):
            varied = _varied(rng, found[0])
            _check(varied, pofile.pack_rows(varied), False)


def test_the_kept_files_hold_the_bytes_they_held(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    rng = random.Random(11)
    for path in [*_catalogs(), None]:
        data = path.read_bytes() if path is not None else bytes(rng.randrange(256) for _ in range(300_000))
        where = path or tmp_path / "random.po"
        store = Store("catalog-state", where, keep=1)
        token = f"{rng.getrandbits(160):040x}"
        assert catalog_module._keep_bytes(store, data, token) == token
        assert store.path.with_suffix(".bytes").read_bytes() == token.encode("ascii") + b"\n" + data
        if path is None:
            continue
        packed: list = []
        found = pofile.read_rows_bytes(data, 0, 1, path, packed)
        starts = found[1]
        packed = packed[0]
        assert catalog_module._keep_base(store, None, token, packed, starts) == token
        assert store.path.with_suffix(".texts").read_bytes() == _old_fast_pickled((token, packed[1:3]), packed[3:8])
        assert store.path.with_suffix(".base").read_bytes() == _old_fast_pickled((token, (packed[0], packed[8], packed[9]), starts))
        assert catalog_module._fast_pickled((token, packed[1:3]), packed[3:8]) == _old_fast_pickled((token, packed[1:3]), packed[3:8])
        # and read back as the kept read
        state = catalog_module._kept_state(store, (token, token, []))
        assert state is not None and state[4] == packed and state[5] == starts and state[3][0:len(data)] == data


def _read(path: Path, **options):
    found = read_catalog(path, light=True, use_cache=True, **options)
    rows = None if found.po is None else [tuple(entry) for entry in found.po]
    return rows, found.diagnostics


def test_a_read_with_findings_gives_what_it_gave(tmp_path, monkeypatch):
    """A cold read and a read from the kept read of catalogs with repeated contexts, plural
    forms and obsolete entries: the same as a read whose catalog checks look at each entry."""
    source = (ROOT / "translations" / "fr.po").read_text(encoding="utf-8")
    blocks = source.split("\n\n")
    changed = [
        source,
        source + "\n" + blocks[3] + "\n",  # a context repeated
        source + '\nmsgctxt "x"\nmsgid "a"\nmsgid_plural "as"\nmsgstr[0] "b"\nmsgstr[1] "bs"\nmsgstr[2] "bss"\n',
        source + '\n#~ msgctxt "gone"\n#~ msgid "a"\n#~ msgstr "b"\n',
        source + '\nmsgid "loose"\nmsgstr "x"\n\nmsgid "loose"\nmsgstr "y"\n',
    ]
    findings = 0
    for n, text in enumerate(changed):
        path = tmp_path / f"catalogs-{n}" / "translations" / "fr.po"
        path.parent.mkdir(parents=True)
        for step, now in enumerate((text, text.replace('msgstr "', 'msgstr "x', 3))):  # cold, then an edit read from the kept read
            path.write_text(now, encoding="utf-8")
            with monkeypatch.context() as patched:
                patched.setattr(pofile.LightCatalog, "distinct", _old_distinct)
                patched.setenv("XDG_CACHE_HOME", str(tmp_path / f"old-{n}-{step}"))
                old = _read(path)
            monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / f"new-{n}"))
            found = _read(path)
            assert found == old, (n, step)
            assert old[0] is not None
            findings += len(old[1])
    assert findings >= 6


def test_kept_bytes_already_there_are_not_written_again(tmp_path, monkeypatch):
    """The kept bytes of a read (up to a catalog's size) are written only when the file beside
    the store does not already hold them: the same token and size leave it as it is (within
    deferred writes too); other bytes replace it."""
    import os

    from aistack_bank.cache import store as cache_store
    from aistack_bank.i18n import catalog

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    po = tmp_path / "fr.po"
    po.write_bytes(b"")
    kept = cache_store.Store("catalog-state", po, keep=1)
    data = b'msgid "a"\nmsgstr "b"\n' * 1000
    path = kept.path.with_suffix(".bytes")
    catalog._keep_bytes(kept, data, "t1")
    first = os.stat(path)
    catalog._keep_bytes(kept, data, "t1")
    with cache_store.deferred_writes():
        catalog._keep_bytes(kept, data, "t1")
    again = os.stat(path)
    assert (again.st_ino, again.st_mtime_ns) == (first.st_ino, first.st_mtime_ns)
    catalog._keep_bytes(kept, data + b"\n", "t2")
    assert path.read_bytes() == b"t2\n" + data + b"\n"
    with cache_store.deferred_writes():
        catalog._keep_bytes(kept, data, "t1")
    assert path.read_bytes() == b"t1\n" + data
