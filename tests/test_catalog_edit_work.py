"""What `bank validate` does with a catalog edited just before it runs: no more than the edit needs.

A file written moments before its digest is taken is not trusted by its size and times (a
second write in the same timestamp tick leaves them unchanged), so it used to be digested again
by every step that needed its digest: five times for one validation. Now a large catalog
(a megabyte or more) is read and digested once, by the verdict's input digest, which keeps its
bytes for the read that verifies it (a smaller one is digested twice: by the input digest and
by that read); the steps after take the digest of the bytes that were read and verified, and a
verdict is kept only under the digest of the bytes it was computed from. The catalog is asked for the entries of
the questions verified again only (none of the others is made). The diagnostics are those of
a run without cache, also when the catalog is written again while it is validated.
"""

from __future__ import annotations

import re

import pytest
from conftest import keep_only

from aistack_bank.cache import store, validation
from aistack_bank.i18n import catalog as catalog_module
from aistack_bank.i18n import pofile


def _lines(diags) -> list[str]:
    return [f"{d.location} {d.code} {d.message}" for d in diags]


def _edit(fr, n: int) -> None:
    """A translator comment on the first entry, as the benchmark's edit makes it."""
    text = re.sub(r"^# edit \d+\n", "", fr.read_text(encoding="utf-8"), flags=re.M)
    head, sep, rest = text.partition("\nmsgctxt ")
    fr.write_text(f"{head}\n# edit {n}{sep}{rest}", encoding="utf-8")


def _counting(monkeypatch, fr) -> dict:
    """Count the digests of ``fr``'s bytes and the catalogs made whole (every entry made)."""
    counts = {"digests": 0, "whole": 0}
    name = str(fr.resolve())
    hash_file, open_regular, token, whole = validation._hash_file, store._open_regular, catalog_module._token, pofile.light_catalog

    def hashed(digest, path, *keep):
        counts["digests"] += str(path) == "translations/fr.po" or str(path) == name
        return hash_file(digest, path, *keep)

    def opened(path):
        counts["digests"] += str(path) in ("translations/fr.po", name)
        return open_regular(path)

    def tokened(*args):
        counts["digests"] += 1
        return token(*args)

    def made(rows):
        counts["whole"] += 1
        return whole(rows)

    monkeypatch.setattr(validation, "_hash_file", hashed)
    monkeypatch.setattr(store, "_open_regular", opened)
    monkeypatch.setattr(catalog_module, "_token", tokened)
    monkeypatch.setattr(pofile, "light_catalog", made)
    monkeypatch.setattr(catalog_module, "light_catalog", made)
    return counts


def _large(monkeypatch, large: bool, translations) -> None:
    """With ``large``, the bundled French catalog counts as a large one (kept as read by the
    input digest), and no other (the input digest keeps one catalog's bytes at most)."""
    if large:
        least = max(path.stat().st_size for path in translations.rglob("*.po") if path.name != "fr.po" or path.parent != translations) + 1
        assert (translations / "fr.po").stat().st_size >= least
        monkeypatch.setattr(validation, "KEEP_MIN_BYTES", least)


@pytest.mark.parametrize("large", [False, True])
def test_a_catalog_edited_just_before_is_read_once_or_twice_and_gives_the_verdict_of_a_run_without_cache(project, monkeypatch, large):
    keep_only(project)
    monkeypatch.setenv("XDG_CACHE_HOME", str(project / "user-cache"))
    monkeypatch.setenv("AISTACK_BANK_JOBS", "1")
    bank, translations = project / "bank", project / "translations"
    fr = translations / "fr.po"
    validation.validate_cached(bank, translations)
    validation.validate_cached(bank, translations)
    for n in range(2):  # (the second edit on top of the first's kept read)
        _edit(fr, n)
        counts = _counting(monkeypatch, fr)
        _large(monkeypatch, large, translations)
        diags, _ = validation.validate_cached(bank, translations)
        # (five digests before round 3's changes, two before this one's; the entries made whole before)
        assert counts == {"digests": 1 if large else 2, "whole": 0}, n
        monkeypatch.undo()
        monkeypatch.setenv("XDG_CACHE_HOME", str(project / "user-cache"))
        monkeypatch.setenv("AISTACK_BANK_JOBS", "1")
        assert _lines(diags) == _lines(validation.validate_cached(bank, translations, use_cache=False)[0])
        assert _lines(validation.validate_cached(bank, translations)[0]) == _lines(diags)


COARSE = 10**15
"""A timestamp tick of some eleven days: every write of a test falls in the same one."""


@pytest.mark.parametrize("large", [False, True])
@pytest.mark.parametrize("when", ["before its read", "after its read"])
def test_a_catalog_written_again_while_it_is_validated_gives_the_verdict_of_each_content(project, monkeypatch, when, large):
    """On a file system whose timestamps cannot tell two writes apart (a tick of days, every
    file as recent as the tick), the catalog written again while it is validated, to bytes of
    the same size (a translation given other numbers), after the input digest or after its
    read: the run gives the verdict of the bytes it read (with ``large``, the bytes the input
    digest read and kept), and no verdict is kept under the other content's digest (the next
    runs, of either content, give a run's without cache)."""
    keep_only(project)
    monkeypatch.setenv("XDG_CACHE_HOME", str(project / "user-cache"))
    monkeypatch.setenv("AISTACK_BANK_JOBS", "1")

    def coarse(st):
        return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns // COARSE * COARSE, st.st_ctime_ns // COARSE * COARSE)

    monkeypatch.setattr(store, "identity", coarse)
    monkeypatch.setattr(validation, "file_identity", coarse)
    monkeypatch.setattr(store, "RACY_NS", 2 * COARSE)
    monkeypatch.setattr(validation, "RACY_NS", 2 * COARSE)
    bank, translations = project / "bank", project / "translations"
    fr = translations / "fr.po"
    _large(monkeypatch, large, translations)
    validation.validate_cached(bank, translations)
    _edit(fr, 1)
    first = fr.read_bytes()
    second = re.sub(rb'(msgctxt "q001\.stem"\nmsgid (?:.*\n)*?msgstr ""\n")([^"\n]*)', lambda m: m[1] + b"9" * len(m[2]), first, count=1)
    assert second != first and len(second) == len(first)
    read = catalog_module._read_light_kept

    def written_again(*args, **kwargs):
        if when == "before its read":
            fr.write_bytes(second)
        found = read(*args, **kwargs)
        fr.write_bytes(second)
        return found

    monkeypatch.setattr(catalog_module, "_read_light_kept", written_again)
    during, _ = validation.validate_cached(bank, translations)
    monkeypatch.setattr(catalog_module, "_read_light_kept", read)
    fr.write_bytes(first if when == "after its read" or large else second)
    assert _lines(during) == _lines(validation.validate_cached(bank, translations, use_cache=False)[0])
    for content in (first, second, first):
        fr.write_bytes(content)
        cold = _lines(validation.validate_cached(bank, translations, use_cache=False)[0])
        assert _lines(validation.validate_cached(bank, translations)[0]) == cold
        assert any(" E502 q001.stem: numbers differ" in line for line in cold) == (content == second)


def test_the_bytes_read_are_known_only_while_every_read_had_them(tmp_path):
    path = tmp_path / "fr.po"
    store.clear_reads()
    assert store.read_digest(path) is None
    store.note_read(path, "ab")
    store.note_read(tmp_path / "." / "fr.po", "ab")
    assert store.read_digest(path) == "ab"
    store.note_read(path, "cd")  # read again, other bytes
    assert store.read_digest(path) is None
    store.note_read(path, "ab")
    assert store.read_digest(path) is None  # (for the rest of the run)
    store.clear_reads()
    store.note_read(path, "ab")
    path.write_text('msgid ""\nmsgstr ""\n', encoding="utf-8")
    catalog_module.Catalog(path=path, language="fr", po=None, diagnostics=[]).file_lines()  # read again to locate a finding
    assert store.read_digest(path) is None
    store.clear_reads()


def test_the_kept_bytes_with_their_patches_in_place_are_those_of_a_copy_patched(tmp_path, monkeypatch):
    """The kept read's bytes are mapped and patched as pieces (``catalog._Pieces``), not copied
    and patched in place: every slice, and the common start and end with other bytes, are
    those of a ``bytearray`` copy patched as before."""
    import random

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    folder = store.cache_dir() / "files"
    assert store.private_folder(folder)
    rng = random.Random(7)
    for n in range(300):
        base = bytes(rng.choice(b"ab\n") for _ in range(rng.randrange(0, 60)))
        path = folder / f"kept-{n}.bytes"
        assert store.write_private(path, b"head\n" + base)
        mapped = store.map_private(path, 1 << 20)
        assert mapped is not None
        pieces = catalog_module._Pieces(mapped, 5)
        copy = bytearray(base)
        for _ in range(rng.randrange(0, 7)):
            p = rng.randint(0, len(copy))
            q = rng.randint(p, len(copy))
            inserted = bytes(rng.choice(b"abc\n") for _ in range(rng.randrange(0, 9)))
            copy[p:q] = inserted
            pieces.replace(p, q, inserted)
            assert len(pieces) == len(copy)
        for _ in range(10):
            a, b = sorted(rng.randint(0, len(copy) + 2) for _ in range(2))
            assert pieces[a:b] == bytes(copy[a:b])
        other = bytes(copy[:rng.randint(0, len(copy))]) + bytes(rng.choice(b"abc") for _ in range(rng.randrange(0, 4))) + bytes(copy[rng.randint(0, len(copy)):])
        assert catalog_module._common_prefix(pieces, other) == catalog_module._common_prefix(bytes(copy), other)
        limit = min(len(copy), len(other))
        assert catalog_module._common_suffix(pieces, other, limit) == catalog_module._common_suffix(bytes(copy), other, limit)


def test_the_bytes_the_input_digest_kept_serve_one_read_of_the_same_unchanged_file(tmp_path):
    """The bytes are handed out once, only for a file with the identity it had when they were
    read (one replaced since is read again), and for one catalog at most."""
    import os

    fr, nl = tmp_path / "fr.po", tmp_path / "nl.po"
    fr.write_bytes(b"one")
    nl.write_bytes(b"two")
    store.clear_reads()
    store.keep_bytes(fr, store.identity(os.stat(fr)), b"one", "d1")
    assert store.take_bytes(fr, os.stat(fr)) == (b"one", "d1")
    assert store.take_bytes(fr, os.stat(fr)) is None  # (once)
    store.keep_bytes(fr, store.identity(os.stat(fr)), b"one", "d1")
    (tmp_path / "new").write_bytes(b"one")
    os.replace(tmp_path / "new", fr)  # another file of the same bytes and size: another inode
    assert store.take_bytes(fr, os.stat(fr)) is None
    store.keep_bytes(fr, store.identity(os.stat(fr)), b"one", "d1")
    store.keep_bytes(nl, store.identity(os.stat(nl)), b"two", "d2")  # a second catalog: neither kept
    assert store.take_bytes(fr, os.stat(fr)) is None and store.take_bytes(nl, os.stat(nl)) is None
    store.clear_reads()


def test_the_catalog_workers_are_not_started_when_one_catalog_changed_alone(project, monkeypatch):
    """The catalogs' workers (forked before the bank is read, for a large bank) are started
    when the input digest found more than one input written since its memo file's digests, or
    another one than a catalog; not when it found one known catalog alone (edited: verified
    again in this process, for the owners of the entries the edit touched) or nothing. Either
    way the diagnostics are those of a run without cache, also when the catalogs' stored
    verdicts are gone (the work then runs without workers)."""
    import shutil

    from aistack_bank import parallel
    from aistack_bank.rules import validate

    keep_only(project)
    monkeypatch.setenv("XDG_CACHE_HOME", str(project / "user-cache"))
    monkeypatch.setenv("AISTACK_BANK_JOBS", "1")
    monkeypatch.setattr(validation, "RACY_NS", -10**15)  # every file counts as written long before
    monkeypatch.setattr(validate, "POOL_MIN_CATALOG_BYTES", 0)
    started: list[bool] = []

    class Recorded(parallel.Workers):
        def __init__(self, wanted, *args, **kwargs):
            started.append(wanted)
            super().__init__(wanted, *args, **kwargs)

    monkeypatch.setattr(parallel, "Workers", Recorded)
    bank, translations = project / "bank", project / "translations"
    fr, nl = translations / "fr.po", translations / "nl.po"
    question = sorted((bank).rglob("q*.yaml"))[0]

    def run() -> bool:
        started.clear()
        diags, _ = validation.validate_cached(bank, translations)
        # (validated, not served whole from the verdicts' cache; or, one catalog edited since a
        # verdict of the same bank's files, the bank's own part taken from it: nothing started)
        assert len(started) <= 1
        found = bool(started) and started[0]
        assert _lines(diags) == _lines(validation.validate_cached(bank, translations, use_cache=False)[0])
        return found

    assert run() is True  # no memo file yet: every input is new to it
    _edit(fr, 0)
    assert run() is False
    _edit(fr, 1)
    _edit(nl, 1)
    assert run() is True  # two catalogs
    _edit(fr, 2)
    question.write_text(question.read_text(encoding="utf-8") + "# a comment\n", encoding="utf-8")
    assert run() is True  # a catalog and a question file
    text = fr.read_text(encoding="utf-8")
    fr.write_text(text.replace('msgstr "', 'msgstr "4096 GB ', 3), encoding="utf-8")
    assert run() is False
    for folder in (project / "user-cache" / "aistack-bank").iterdir():
        if folder.name != "stat":
            shutil.rmtree(folder)  # every stored verdict gone, the stat memo kept
    _edit(fr, 3)
    assert run() is True  # no findings kept of that catalog: verified whole
    _edit(fr, 4)
    monkeypatch.setattr(validation, "RACY_NS", 10**15)  # written just now: never kept in the memo file
    assert run() is False
    _edit(fr, 5)
    assert run() is False
    monkeypatch.setattr(validation, "RACY_NS", -10**15)
    shutil.rmtree(project / "user-cache" / "aistack-bank" / "validate")
    assert run() is False  # nothing changed (the verdict gone: validated again)
    new = translations / "es.po"
    new.write_text(fr.read_text(encoding="utf-8").replace('"Language: fr\\n"', '"Language: es\\n"', 1), encoding="utf-8")
    assert run() is True  # a new catalog: no findings of it kept
    monkeypatch.setattr(validation, "_package_digest", lambda: "another version of the tool")
    assert run() is True  # every stored verdict's key changes with the tool
