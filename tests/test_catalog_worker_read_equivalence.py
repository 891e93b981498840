"""A catalog worker's cold read of a catalog: the row reader decodes each string without naming
its encoding (UTF-8, the default: the same characters, and the same refusal of bytes that are
not UTF-8) and a reference's line once per distinct bytes (one string for the rows that share
it); in a pool's worker, `catalog._read_light_kept` reads with the cyclic garbage collector
paused and puts what it read out of the collector's reach (`gc.freeze`).

The reader must give what it gave before (spelled out below): the rows (each a `LightEntry`),
block starts, last line or None, and the columns made as it reads; on random catalogs of the
bank's shape and every other, hostile ones among them (newlines, quotes, backslashes, escapes
and carriage returns put anywhere, bytes that are not UTF-8), from a block's start too, and on
the bundled bank's and `examples/every-kind`'s catalogs. A worker's read must give the same
catalog as any other read (cold, from its kept read after an edit, with located errors), leave
the collector as it found it, and freeze only there.
"""

from __future__ import annotations

import gc
import random
import shutil
from pathlib import Path

import pytest
from test_catalog_quick_pattern_equivalence import _hostile
from test_catalog_read_text import _damaged, _texts

from aistack_bank import parallel
from aistack_bank.i18n import catalog as catalog_module
from aistack_bank.i18n import pofile
from aistack_bank.i18n.catalog import read_catalog

ROOT = Path(__file__).resolve().parents[1]
PATH = Path("translations/fr.po")


def _old_read_rows_bytes(raw: bytes, pos: int, lineno: int, path: Path, packed: list | None = None) -> tuple[list, list[int], int] | None:
    """read_rows_bytes as it was: each line number decoded by its row, each string decoded with its encoding named."""
    rows: list[tuple] = []
    starts: list[int] = []
    append = rows.append
    mark = starts.append
    common = pofile._COMMON_BYTES.match
    match = pofile._FAST_BYTES.match
    count = raw.count
    shared: dict[str, str] = {}
    share = shared.setdefault
    notes_read: dict[bytes, tuple[str, tuple[list, list[str]], int]] = {}
    refs_read: dict[bytes, str] = {}
    entry = pofile.LightEntry
    if packed is not None:  # the columns of pack_rows: contexts, msgids, msgstrs, paths, lines, notes, flags, lines
        columns: tuple[list, ...] = ([], [], [], [], [], [], [], [])
        put_ctx, put_id, put_str, put_path, put_number, put_comment, put_flags, put_line = (column.append for column in columns)
        looked: list[int] = []  # (the rows pack_rows looks at one by one, their columns put in place after)
        look = looked.append
    end = len(raw)
    checked = pofile._bytes_allowed_throughout(raw)
    quick = pofile._QUICK_BYTES.match if raw.find(b"\r") < 0 else None
    backslash = raw.find(b"\\", pos)
    if backslash < 0:
        backslash = end
    try:
        while pos < end:
            m = quick(raw, pos) if quick is not None else None
            if m is not None:
                notes, ref, number, fuzzy, ctxt, ctxt_more, msgid, msgid_more, msgstr, msgstr_more, blank = m.groups()
                last = m.end()
                if backslash < last or (not blank and last < end):
                    m = None  # (a backslash in the block, or no blank line after it: read as before)
                else:
                    # no escape: each string is its value (each string's bytes decoded apart:
                    # bytes that are not UTF-8 must not be joined into a character; a first
                    # string left empty before its lines adds nothing)
                    ctxt = ctxt.decode("utf-8") + ctxt_more.decode("utf-8")[1:-2].replace('"\n"', "") if ctxt_more else ctxt.decode("utf-8")
                    if msgid_more:
                        msgid = msgid.decode("utf-8") + msgid_more.decode("utf-8")[1:-2].replace('"\n"', "") if msgid else msgid_more.decode("utf-8")[1:-2].replace('"\n"', "")
                    else:
                        msgid = msgid.decode("utf-8")
                    if msgstr_more:
                        msgstr = msgstr.decode("utf-8") + msgstr_more.decode("utf-8")[1:-2].replace('"\n"', "") if msgstr else msgstr_more.decode("utf-8")[1:-2].replace('"\n"', "")
                    else:
                        msgstr = msgstr.decode("utf-8")
                    if "\n" in ctxt or "\n" in msgid or "\n" in msgstr:
                        m = None  # (a newline in a string: read as before; see pofile._QUICK_BYTES)
                    else:
                        if not checked and pofile._unescaped_refused(raw[m.start(5):m.end(10)].decode("utf-8")):
                            return None
                        mark(pos)
                        line = lineno
                        pos = last
                        if notes:
                            found_notes = notes_read.get(notes)
                            if found_notes is None:
                                comment = notes[3:-1].replace(b"\n#. ", b"\n").decode("utf-8")
                                found_notes = notes_read[notes] = (share(comment, comment), ([], comment.split("\n")), notes.count(b"\n"))
                            comment, comment_lines, lines = found_notes
                        else:
                            comment, comment_lines, lines = "", pofile._NO_COMMENT_LINES, 0
                        # the block's lines: its notes', the reference's, the fuzzy flag's, the
                        # keywords' and their strings' lines (no string holds a newline), the blank ones
                        lineno += lines + (5 if fuzzy else 4) + len(blank)
                        if ctxt_more:
                            lineno += ctxt_more.count(b"\n")
                        if msgid_more:
                            lineno += msgid_more.count(b"\n")
                        if msgstr_more:
                            lineno += msgstr_more.count(b"\n")
                        found_ref = refs_read.get(ref)
                        if found_ref is None:
                            found_ref = ref.decode("ascii")
                            found_ref = refs_read[ref] = share(found_ref, found_ref)
                        number = number.decode("ascii")
                        if packed is not None:
                            if not comment and comment_lines is not pofile._NO_COMMENT_LINES:
                                look(len(rows))
                            put_ctx(ctxt), put_id(msgid), put_str(msgstr), put_path(found_ref), put_number(number)
                            put_comment(comment), put_flags("fuzzy" if fuzzy else ""), put_line(line)
                        append(entry((ctxt, msgid, msgstr, "", pofile._NO_PLURALS, [(found_ref, number)], comment, "",
                                      pofile._FUZZY if fuzzy else pofile._NO_FLAGS, None, None, None, False, comment_lines, pofile._NO_LINES, line)))
                        continue
            if m is None:
                m = common(raw, pos)
            if m is None:
                m = match(raw, pos)
                if m is None or m.end() == pos:
                    return None
                mark(pos)
                block = raw[pos:m.end()].decode("utf-8")
                pos = m.end()
                m = pofile._FAST_BLOCK.match(block)
                if m is None or m.end() != len(block):
                    return None
                e, lineno = pofile._block(m, lineno, path)
                if e is None:
                    return None
                if packed is not None:  # (its columns put in place after)
                    look(len(rows))
                    for put in (put_ctx, put_id, put_str, put_path, put_number, put_comment, put_flags, put_line):
                        put(None)
                append(entry(pofile._row(e, shared)))
                if backslash < pos:
                    backslash = raw.find(b"\\", pos)
                    if backslash < 0:
                        backslash = end
                continue
            mark(pos)
            line = lineno
            notes, ref, number, fuzzy, ctxt, ctxt_more, msgid, msgid_more, msgstr, msgstr_more, _ = m.groups()
            start = pos
            pos = m.end()
            if backslash < pos and raw.find(b"\\", m.start(5), m.end(10)) >= 0:
                # the strings with an escape: decoded and checked one by one
                found = pofile._strings(((ctxt.decode("utf-8"), ctxt_more.decode("utf-8")), (msgid.decode("utf-8"), msgid_more.decode("utf-8")),
                                  (msgstr.decode("utf-8"), msgstr_more.decode("utf-8"))), 0, path)
                if found is None:
                    return None
                ctxt, msgid, msgstr, _ = found
                backslash = raw.find(b"\\", pos)
                if backslash < 0:
                    backslash = end
            else:
                # no escape: each string is its value, checked as pofile._strings checks it
                if not checked and pofile._unescaped_refused(raw[m.start(5):m.end(10)].decode("utf-8")):
                    return None
                # (each string's bytes decoded apart: bytes that are not UTF-8 must not be
                # joined into a character)
                ctxt = ctxt.decode("utf-8") + ctxt_more.decode("utf-8")[1:-2].replace('"\n"', "") if ctxt_more else ctxt.decode("utf-8")
                msgid = msgid.decode("utf-8") + msgid_more.decode("utf-8")[1:-2].replace('"\n"', "") if msgid_more else msgid.decode("utf-8")
                msgstr = msgstr.decode("utf-8") + msgstr_more.decode("utf-8")[1:-2].replace('"\n"', "") if msgstr_more else msgstr.decode("utf-8")
                if backslash < pos:  # (in a comment or the reference)
                    backslash = raw.find(b"\\", pos)
                    if backslash < 0:
                        backslash = end
            lineno += count(b"\n", start, pos)
            if notes:
                found_notes = notes_read.get(notes)
                if found_notes is None:
                    comment = notes[3:-1].replace(b"\n#. ", b"\n").decode("utf-8")
                    found_notes = notes_read[notes] = (share(comment, comment), ([], comment.split("\n")), notes.count(b"\n"))
                comment, comment_lines, _ = found_notes
            else:
                comment, comment_lines = "", pofile._NO_COMMENT_LINES
            ref = ref.decode("ascii")
            ref = share(ref, ref)
            number = number.decode("ascii")
            if packed is not None:
                if not comment and comment_lines is not pofile._NO_COMMENT_LINES:
                    look(len(rows))
                put_ctx(ctxt), put_id(msgid), put_str(msgstr), put_path(ref), put_number(number)
                put_comment(comment), put_flags("fuzzy" if fuzzy else ""), put_line(line)
            append(entry((ctxt, msgid, msgstr, "", pofile._NO_PLURALS, [(ref, number)], comment, "",
                          pofile._FUZZY if fuzzy else pofile._NO_FLAGS, None, None, None, False, comment_lines, pofile._NO_LINES, line)))
    except UnicodeDecodeError:
        return None
    if packed is not None:
        packed.append(pofile._packed_as_read(rows, columns, looked))
    return rows, starts, lineno


def _same(data: bytes, pos: int, line: int) -> object:
    found = pofile.read_rows_bytes(data, pos, line, PATH)
    assert found == _old_read_rows_bytes(data, pos, line, PATH), data
    packed: list = []
    old_packed: list = []
    assert pofile.read_rows_bytes(data, pos, line, PATH, packed) == found
    _old_read_rows_bytes(data, pos, line, PATH, old_packed)
    assert packed == old_packed, data
    if found is not None:
        assert all(type(row) is pofile.LightEntry for row in found[0])
        for made, columns in zip(packed[0], old_packed[0]):
            assert [type(x) for x in made] == [type(x) for x in columns]
        # each distinct line of the rows' references (those of the bank's shape) one string
        numbers = [row.occurrences[0][1] for row in found[0] if row.plural_lines is pofile._NO_LINES]
        assert len({id(n) for n in numbers}) == len(set(numbers))
    return found


@pytest.mark.parametrize("seed", range(3))
def test_the_rows_are_read_as_before(seed):
    rng = random.Random(20261403 + seed)
    read = refused = cut = 0
    for text in _texts(rng):
        data = text.encode("utf-8", errors="surrogatepass")
        for data in (data, _damaged(rng, data), _hostile(rng, text).encode("utf-8", errors="surrogatepass")):
            if not data.endswith(b"\n") and rng.random() < 0.9:
                data += b"\n"
            pos = len(data) - len(data.lstrip(b"\n"))
            found = _same(data, pos, pos + 1)
            read += found is not None
            refused += found is None
            if found is not None and found[1]:
                _same(data, rng.choice(found[1]), rng.randint(1, 50))  # from a block's start, from another line
                cut += 1
    assert read > 1000 and refused > 3000 and cut > 1000


def _catalogs():
    for root in (ROOT / "translations", ROOT / "examples" / "every-kind" / "translations"):
        yield from sorted(root.glob("*.po"))
        yield from sorted(root.glob("*.pot"))


def test_the_bundled_catalogs_are_read_as_before():
    paths = list(_catalogs())
    assert len(paths) >= 3
    for path in paths:
        data = path.read_bytes()
        pos = len(data) - len(data.lstrip(b"\n"))
        found = _same(data, pos, pos + 1)
        assert found is not None and len(found[0]) > 10, path


def _read(path: Path, **options):
    found = read_catalog(path, light=True, use_cache=True, **options)
    rows = None if found.po is None else [tuple(entry) for entry in found.po]
    return rows, found.diagnostics, None if found.changes is None else (found.changes.first_line, found.changes.after_line, found.changes.moved)


@pytest.fixture
def worker(monkeypatch):
    """This process taken for a pool's worker; what a read froze put back in reach after."""
    monkeypatch.setattr(parallel, "_IN_WORKER", True)
    yield
    assert gc.isenabled()
    gc.unfreeze()


def _edits(rng: random.Random, text: str) -> str:
    for _ in range(rng.randint(1, 3)):
        at = text.find('msgstr "', rng.randrange(len(text)))
        if at >= 0:
            text = text[:at] + rng.choice(['msgstr "Édité "\n"', 'msgstr "x\\q"\n#, fuzzy\n', "msgstr \xff", '#. \n']) + text[at + 8:]
    return text


def test_a_worker_reads_what_any_read_gives(tmp_path, monkeypatch, worker):
    """Cold, from the kept read after an edit, and with located errors: the same catalog as a
    read outside a worker (each in a cache of its own), the collector enabled after, and what
    the read made out of its reach."""
    source = (ROOT / "translations" / "fr.po").read_text(encoding="utf-8")
    rng = random.Random(14)
    for n in range(12):
        text = source if n == 0 else _edits(rng, source)
        found = {}
        for inside in (True, False):
            monkeypatch.setattr(parallel, "_IN_WORKER", inside)
            monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / f"cache-{inside}"))
            folder = tmp_path / "bank" / "translations"
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / "fr.po"
            shutil.copyfile(ROOT / "translations" / "fr.po", path)
            read_catalog(path, light=True, use_cache=True)  # (the kept read an edit is read against)
            path.write_bytes(text.encode("utf-8", errors="surrogateescape").replace(b"\xc3\xbf", b"\xff"))
            frozen = gc.get_freeze_count()
            found[inside] = _read(path)
            assert gc.isenabled()
            assert (gc.get_freeze_count() > frozen) == inside
            gc.unfreeze()
        assert found[True] == found[False]


def test_the_collector_is_left_as_found(tmp_path, monkeypatch, worker):
    path = tmp_path / "translations" / "fr.po"
    path.parent.mkdir()
    shutil.copyfile(ROOT / "translations" / "fr.po", path)
    gc.unfreeze()
    # paused by the caller: left paused, nothing frozen
    gc.disable()
    try:
        read_catalog(path, light=True, use_cache=True)
        assert not gc.isenabled() and gc.get_freeze_count() == 0
    finally:
        gc.enable()
    # a read whose entries are made when asked for (columns): nothing frozen
    read_catalog(path, light=True, use_cache=True, columns=True)
    assert gc.isenabled() and gc.get_freeze_count() == 0

    # a read that fails: the collector enabled again
    def failing(*args, **kwargs):
        raise OSError("no")

    monkeypatch.setattr(catalog_module, "_read_light", failing)
    with pytest.raises(OSError):
        read_catalog(path, light=True, use_cache=True)
    assert gc.isenabled() and gc.get_freeze_count() == 0
