"""The catalog worker's row reader counts the lines of a block's continuation lines from the
characters their join takes out (three a line: no count of their newlines), looks a
reference up only when it is not the previous row's, and makes the rows' columns from one list
that each row's eight values extend (cut into the columns at the end).

The reader must give what it gave before (spelled out below): the rows (each a `LightEntry`),
block starts, last line or None, and the columns made as it reads; on random catalogs of the
bank's shape and every other, hostile ones among them (newlines, quotes, backslashes, escapes
and carriage returns put anywhere, bytes that are not UTF-8), from a block's start too, on
blocks made to break each condition of the quick pattern, with references that repeat, and on
the bundled bank's and `examples/every-kind`'s catalogs and templates.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from test_catalog_quick_pattern_equivalence import _hostile
from test_catalog_read_text import _damaged, _texts

from aistack_bank.i18n import pofile

ROOT = Path(__file__).resolve().parents[1]
PATH = Path("translations/fr.po")


def _old_read_rows_bytes(raw: bytes, pos: int, lineno: int, path: Path, packed: list | None = None) -> tuple[list, list[int], int] | None:
    """read_rows_bytes as it was: each string's continuation lines counted by their newlines, each reference looked up."""
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
    numbers_read: dict[bytes, str] = {}
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
                    ctxt = ctxt.decode() + ctxt_more.decode()[1:-2].replace('"\n"', "") if ctxt_more else ctxt.decode()
                    if msgid_more:
                        msgid = msgid.decode() + msgid_more.decode()[1:-2].replace('"\n"', "") if msgid else msgid_more.decode()[1:-2].replace('"\n"', "")
                    else:
                        msgid = msgid.decode()
                    if msgstr_more:
                        msgstr = msgstr.decode() + msgstr_more.decode()[1:-2].replace('"\n"', "") if msgstr else msgstr_more.decode()[1:-2].replace('"\n"', "")
                    else:
                        msgstr = msgstr.decode()
                    if "\n" in ctxt or "\n" in msgid or "\n" in msgstr:
                        m = None  # (a newline in a string: read as before; see pofile._QUICK_BYTES)
                    else:
                        if not checked and pofile._unescaped_refused(raw[m.start(5):m.end(10)].decode()):
                            return None
                        mark(pos)
                        line = lineno
                        pos = last
                        if notes:
                            found_notes = notes_read.get(notes)
                            if found_notes is None:
                                comment = notes[3:-1].replace(b"\n#. ", b"\n").decode()
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
                            found_ref = ref.decode()
                            found_ref = refs_read[ref] = share(found_ref, found_ref)
                        found_number = numbers_read.get(number)
                        if found_number is None:
                            found_number = numbers_read[number] = number.decode()
                        number = found_number
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
                block = raw[pos:m.end()].decode()
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
                found = pofile._strings(((ctxt.decode(), ctxt_more.decode()), (msgid.decode(), msgid_more.decode()),
                                  (msgstr.decode(), msgstr_more.decode())), 0, path)
                if found is None:
                    return None
                ctxt, msgid, msgstr, _ = found
                backslash = raw.find(b"\\", pos)
                if backslash < 0:
                    backslash = end
            else:
                # no escape: each string is its value, checked as pofile._strings checks it
                if not checked and pofile._unescaped_refused(raw[m.start(5):m.end(10)].decode()):
                    return None
                # (each string's bytes decoded apart: bytes that are not UTF-8 must not be
                # joined into a character)
                ctxt = ctxt.decode() + ctxt_more.decode()[1:-2].replace('"\n"', "") if ctxt_more else ctxt.decode()
                msgid = msgid.decode() + msgid_more.decode()[1:-2].replace('"\n"', "") if msgid_more else msgid.decode()
                msgstr = msgstr.decode() + msgstr_more.decode()[1:-2].replace('"\n"', "") if msgstr_more else msgstr.decode()
                if backslash < pos:  # (in a comment or the reference)
                    backslash = raw.find(b"\\", pos)
                    if backslash < 0:
                        backslash = end
            lineno += count(b"\n", start, pos)
            if notes:
                found_notes = notes_read.get(notes)
                if found_notes is None:
                    comment = notes[3:-1].replace(b"\n#. ", b"\n").decode()
                    found_notes = notes_read[notes] = (share(comment, comment), ([], comment.split("\n")), notes.count(b"\n"))
                comment, comment_lines, _ = found_notes
            else:
                comment, comment_lines = "", pofile._NO_COMMENT_LINES
            ref = ref.decode()
            ref = share(ref, ref)
            found_number = numbers_read.get(number)
            if found_number is None:
                found_number = numbers_read[number] = number.decode()
            number = found_number
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
    if found is not None:
        assert [type(row) for row in found[0]] == [type(row) for row in _old_read_rows_bytes(data, pos, line, PATH)[0]]
        # one string per distinct reference path, as before
        paths = [row[5][0][0] for row in found[0] if row[5]]
        assert len({id(p) for p in paths}) == len(set(paths)), data
    packed: list = []
    old_packed: list = []
    assert pofile.read_rows_bytes(data, pos, line, PATH, packed) == found
    _old_read_rows_bytes(data, pos, line, PATH, old_packed)
    assert packed == old_packed, data
    for made, columns in zip(packed[0] if packed else (), old_packed[0] if old_packed else ()):
        assert [type(x) for x in made] == [type(x) for x in columns]
    return found


@pytest.mark.parametrize("seed", range(3))
def test_the_rows_are_read_as_before(seed):
    rng = random.Random(20261603 + seed)
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


def test_blocks_that_break_each_condition_are_read_as_before():
    """Blocks the quick pattern matches where the block pattern does not, or matches otherwise
    (a newline in each string: first line, continuation lines, an empty first string; escapes,
    a carriage return, a character cut in two across a string's lines, no blank line after a
    block, fuzzy blocks, notes that hold quotes), continuation lines of every string and count,
    and references repeated, alternated and changed from one block to the next."""
    head = b'msgid ""\nmsgstr ""\n"Language: fr\\n"\n\n'
    block = b'%s#: %s:%d\n%smsgctxt "%s"\n%smsgid "%s"\n%smsgstr "%s"\n%s%s'
    strings = [(b"q.stem", b""), (b"q.\nstem", b""), (b"", b'"q.\n"\n"stem"\n'), (b"q", b'"\n"\n'), (b"", b'""\n'), (b"q\\n", b""),
               (b"q", b'"a\nb"\n"c"\n'), (b"", b'"a"\n"\nb"\n'), (b"Ti\\qge", b""), (b"T\\x41", b'"\\101"\n'), (b"Tige\r", b""), (b"\xc3", b'"\xa9"\n'),
               (b"", b'"a"\n'), (b"", b'"a"\n"b"\n'), (b"", b'"\xc3\xa9 b"\n"c "\n"d"\n'), (b"x", b'"y"\n'), (b"\xc3\xa9", b'"a b "\n""\n"c"\n'),
               (b"", b""), (b"plain text", b""), (b"", b'""\n""\n""\n')]
    notes = [b"", b"#. Note.\n", b'#. Note "quoted".\n#. Second "line".\n', b"#. \n", b"#. A\n#. \n"]
    refs = [b"bank/q1.yaml", b"bank/q2.yaml", b'bank/q"x.yaml', b"bank/\xc3\xa9.yaml", b"bank/q1.yam", b"bank/q1.yaml "]
    rng = random.Random(16)
    read = 0
    for _ in range(4000):
        parts = []
        ref = rng.choice(refs)
        for _ in range(rng.randint(1, 6)):
            if rng.random() < 0.3:
                ref = rng.choice(refs)
            (c, cm), (i, im), (s, sm) = (rng.choice(strings) if rng.random() < 0.5 else rng.choice(strings[-8:]) for _ in range(3))
            fuzzy = b"#, fuzzy\n" if rng.random() < 0.3 else b""
            parts.append(block % (rng.choice(notes), ref, rng.randint(1, 30), fuzzy, c, cm, i, im, s, sm, rng.choice([b"\n", b"\n\n", b"\n\n\n", b""])))
        data = head + b"".join(parts)
        if rng.random() < 0.1:
            data = data.replace(b"#. Note", b"#. No\rte")
        found = _same(data, 0, 1)
        read += found is not None
        if found is not None and found[1]:
            _same(data, rng.choice(found[1]), rng.randint(1, 50))
    assert read > 500


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
