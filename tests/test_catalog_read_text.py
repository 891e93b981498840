"""The catalogs' readers, which look for the character rules and the escapes in the whole text
once, read what they read before.

`pofile.read_rows` and `pofile.read_template_rows` (whose patterns' repeats are possessive
where Python has them) check a text's strings one by one only when
its characters, all together, might break a rule (`pofile._allowed_throughout`), and decode a
block's strings only when a backslash is in them. Random catalogs (escapes, multi-line strings,
fuzzy and obsolete entries, plurals, contexts, comments, references with a backslash, combining
accents, characters that are not NFC or forbidden, in the strings or in the comments, carriage
returns, a byte-order mark, bad syntax) must give what the code before gave, spelled out below,
whole and a piece at a time; and `read_catalog` of such a file (cold, from its kept read, and
without the cache) the same entries and the same located errors.
"""

from __future__ import annotations

import random
import re
import unicodedata
from pathlib import Path

import pytest
from test_po_block_reader import _bank_catalog, _catalog

from aistack_bank.i18n import pofile
from aistack_bank.i18n.pofile import is_normalized  # noqa: F401  (the old code's names)

PATH = Path("translations/fr.po")

# the patterns before (their repeats not possessive)
_OLD_STR = r'[^"\\\n\r]*(?:\\(?:[\\"ntrabfv]|[0-7]{1,3}|x[0-9A-Fa-f]+)[^"\\\n\r]*)*'
_OLD_FAST_BLOCK = re.compile(
    r'((?:#(?![~|])[^\n\r]*\n)*)'
    r'(?:msgctxt "(' + _OLD_STR + r')"\n((?:"' + _OLD_STR + r'"\n)*))?'
    r'msgid "(' + _OLD_STR + r')"\n((?:"' + _OLD_STR + r'"\n)*)'
    r'msgstr "(' + _OLD_STR + r')"\n((?:"' + _OLD_STR + r'"\n)*)'
    r'(\n*)')
_OLD_COMMON_BLOCK = re.compile(
    r'((?:#\. [^\n\r]*\n)*)'
    r'#: ([!-9;-~]+):([0-9]+)\n'
    r'(#, fuzzy\n)?'
    r'msgctxt "(' + _OLD_STR + r')"\n((?:"' + _OLD_STR + r'"\n)*)'
    r'msgid "(' + _OLD_STR + r')"\n((?:"' + _OLD_STR + r'"\n)*)'
    r'msgstr "(' + _OLD_STR + r')"\n((?:"' + _OLD_STR + r'"\n)*)'
    r'(\n*)')


def _old_read_rows(text: str, pos: int, lineno: int, path: Path) -> tuple[list[tuple], list[int], int] | None:
    """:func:`read_blocks` with the entries as the rows :func:`light_rows` makes of them
    (the same rows, without an entry object per block of the bank's shape,
    :data:`_OLD_COMMON_BLOCK`): the rows of ``text[pos:]``, where each block starts and the line
    after the last, or None where :func:`read_blocks` gives None."""
    rows: list[tuple] = []
    starts: list[int] = []
    common = _OLD_COMMON_BLOCK.match
    match = _OLD_FAST_BLOCK.match
    shared: dict[str, str] = {}
    share = shared.setdefault
    end = len(text)
    while pos < end:
        m = common(text, pos)
        if m is None:
            m = match(text, pos)
            if m is None or m.end() == pos:
                return None
            starts.append(pos)
            pos = m.end()
            e, lineno = pofile._block(m, lineno, path)
            if e is None:
                return None
            rows.append(pofile._row(e, shared))
            continue
        starts.append(pos)
        pos = m.end()
        notes, ref, number, fuzzy, ctxt, ctxt_more, msgid, msgid_more, msgstr, msgstr_more, blank = m.groups()
        line = lineno
        lineno += 1 + (notes.count("\n") if notes else 0) + (1 if fuzzy else 0)
        # the three strings and their continuation lines as written, with the keywords, quotes
        # and newlines between them (none of which is a backslash, a forbidden character or
        # one that composes with a neighbour: see _strings)
        strings = text[m.start(5):m.end(10)]
        if "\\" in strings:
            found = pofile._strings(((ctxt, ctxt_more), (msgid, msgid_more), (msgstr, msgstr_more)), lineno, path)
            if found is None:
                return None
            ctxt, msgid, msgstr, lineno = found
        else:
            # no escape: each string is its value, checked as _strings checks it
            if pofile._unescaped_refused(strings):
                return None
            lineno += 3
            if ctxt_more:
                ctxt += ctxt_more[1:-2].replace('"\n"', "")
                lineno += ctxt_more.count("\n")
            if msgid_more:
                msgid += msgid_more[1:-2].replace('"\n"', "")
                lineno += msgid_more.count("\n")
            if msgstr_more:
                msgstr += msgstr_more[1:-2].replace('"\n"', "")
                lineno += msgstr_more.count("\n")
        lineno += len(blank)
        comment = notes[3:-1].replace("\n#. ", "\n") if notes else ""
        rows.append((ctxt, msgid, msgstr, "", {}, [(share(ref, ref), number)], share(comment, comment), "",
                     ["fuzzy"] if fuzzy else [], None, None, None, False, ([], comment.split("\n") if notes else []), [], line))
    return rows, starts, lineno



def _old_read_template_rows(text: str, lineno: int, path: Path) -> tuple[list[tuple | None], int] | None:
    """What the template's freshness compares of each block of ``text`` (a template, or a piece
    of one cut where a block starts), without making its rows: of a block of the bank's shape
    (:data:`_OLD_COMMON_BLOCK`) its (msgctxt, msgid, notes, reference path, reference line), each
    as :func:`read_rows` reads it; None for a block without a context and with an empty msgid
    (a header); and the line after the text; a string with an escape decoded as
    :func:`read_rows` decodes it. None when a block is of another shape (the caller reads the
    text with :func:`read_rows`), or when a string breaks a character rule or holds an escape
    it refuses (:func:`read_rows` gives None there too)."""
    items: list[tuple | None] = []
    append = items.append
    common = _OLD_COMMON_BLOCK.match
    pos, end = 0, len(text)
    while pos < end:
        m = common(text, pos)
        if m is None:
            m = _OLD_FAST_BLOCK.match(text, pos)
            if m is None or m.end() == pos:
                return None
            e, _ = pofile._block(m, lineno, path)  # (its line is not compared: only its strings' rules matter)
            if e is None or "msgctxt" in e.fields or e.fields.get("msgid", "") != "":
                return None
            append(None)
            pos = m.end()
            continue
        pos = m.end()
        notes, ref, number, _, ctxt, ctxt_more, msgid, msgid_more = m.group(1, 2, 3, 4, 5, 6, 7, 8)
        strings = text[m.start(5):m.end(10)]
        if "\\" in strings:  # decoded and checked as read_rows does it
            found = pofile._strings(((ctxt, ctxt_more), (msgid, msgid_more), m.group(9, 10)), 0, path)
            if found is None:
                return None
            ctxt, msgid = found[0], found[1]
        elif pofile._unescaped_refused(strings):
            return None
        else:
            if ctxt_more:
                ctxt += ctxt_more[1:-2].replace('"\n"', "")
            if msgid_more:
                msgid += msgid_more[1:-2].replace('"\n"', "")
        append((ctxt, msgid, notes[3:-1].replace("\n#. ", "\n") if notes else "", ref, number))
    return items, lineno + text.count("\n")





# characters put here and there: accents that compose or not, characters that are or are not
# NFC, forbidden ones, escapes and backslashes outside strings
SPICE = ["\u0301", "e\u0301", "\u00e9", "\u202f", "\u00a0", "\u2026", "\u2000", "\u212b", "\u0958", "\u200b", "\x01", "\x7f",
         "\x85", "\u2028", "\ufeff", "\\n", "\\", "\u1161", "\u0bbe", "\r", "«", "’", "€", "\u20bf", "\U0001f600"]


def _spiced(rng: random.Random, text: str) -> str:
    """``text`` with a few of :data:`SPICE` put in anywhere (strings, comments, keywords)."""
    for _ in range(rng.choice([0, 0, 1, 2, 4])):
        at = rng.randrange(len(text) + 1)
        text = text[:at] + rng.choice(SPICE) + text[at:]
    return text


def _texts(rng: random.Random):
    for n in range(3000):
        text = _bank_catalog(rng) if n % 3 else _catalog(rng)
        if n % 2:
            text = _spiced(rng, text)
        if n % 4 == 1:  # a comment that breaks a rule: the strings are then checked one by one
            text = text.replace("# Header", rng.choice(["# Header e\u0301", "# Header \x7f", "# Header \u2028", "#. a\u0301\n#. x\x01"]), 1)
        if n % 17 == 0:
            text = text.replace("\n", "\r\n")
        yield text


@pytest.mark.parametrize("seed", range(2))
def test_the_row_reader_reads_what_it_read_before(seed):
    rng = random.Random(20261208 + seed)
    read = unchecked = 0
    for text in _texts(rng):
        full = text if text.endswith("\n") else text + "\n"
        pos = len(full) - len(full.lstrip("\n"))
        found = pofile.read_rows(full, pos, pos + 1, PATH)
        assert found == _old_read_rows(full, pos, pos + 1, PATH), text
        read += found is not None
        unchecked += found is not None and not pofile._allowed_throughout(full)
        if found is not None and found[1]:
            # a piece of the text cut where a block starts, from another line
            at = rng.choice(found[1])
            line = rng.randint(1, 50)
            assert pofile.read_rows(full[at:], 0, line, PATH) == _old_read_rows(full[at:], 0, line, PATH), text
            assert pofile.read_rows(full, at, line, PATH) == _old_read_rows(full, at, line, PATH), text
        assert pofile.read_template_rows(full, 1, PATH) == _old_read_template_rows(full, 1, PATH), text
    assert read > 600 and unchecked > 100  # many catalogs read whole, many with their strings checked one by one


def test_a_rule_broken_anywhere_in_the_text_is_seen():
    """Whether the whole text is known to keep the rules: never when a character of it is
    forbidden or it is not NFC."""
    rng = random.Random(7)
    for _ in range(3000):
        text = _spiced(rng, _bank_catalog(rng))
        if pofile._allowed_throughout(text):
            assert pofile.FORBIDDEN.search(text) is None and unicodedata.is_normalized("NFC", text), repr(text)
    for text in ("a\u0301", "x\u2000", "\x00", "\ud800", "\u00e9\r", "\u00e9\u212b", "é\x85", "\t\x1f"):
        assert not pofile._allowed_throughout(text), repr(text)
    for text in ("", "a\tb\n", "é « x » \u202f€", "\u0100\u02ff\u00a0"):
        assert pofile._allowed_throughout(text), repr(text)


def test_the_inert_characters_compose_with_nothing():
    """Each character of ``_INERT`` (and of printable ASCII) has no combining class, is its own
    NFC and is the second character of no canonical composition: a text made of them is NFC."""
    seconds = set()
    for code in range(0x110000):
        mapping = unicodedata.decomposition(chr(code))
        if mapping and not mapping.startswith("<"):
            parts = mapping.split()
            if len(parts) == 2:
                seconds.add(chr(int(parts[1], 16)))
    for ch in [*pofile._INERT, *map(chr, range(0x20, 0x7F))]:
        assert unicodedata.combining(ch) == 0 and unicodedata.normalize("NFC", ch) == ch and ch not in seconds, hex(ord(ch))
        assert pofile.FORBIDDEN.search(ch) is None or ch not in pofile._INERT


@pytest.mark.parametrize("seed", range(2))
def test_read_catalog_reads_what_it_read_before(seed, tmp_path, monkeypatch):
    """The whole read of a file (a byte-order mark, no final newline, bytes that are not UTF-8),
    cold with the cache (its blocks read from the bytes), from the kept read after an edit, and
    without the cache: the entries and diagnostics the old readers give from the text."""
    from aistack_bank.i18n import catalog as catalog_module
    from aistack_bank.i18n.catalog import read_catalog

    rng = random.Random(5150 + seed)
    folder = tmp_path / "translations"
    folder.mkdir()
    path = folder / "fr.po"

    def read_all() -> list:
        found = []
        for options in ({"use_cache": True, "light": True}, {"use_cache": True, "light": True, "columns": True}, {"light": True}, {}):
            catalog = read_catalog(path, **options)
            entries = None if catalog.po is None else [tuple(getattr(e, name) for name in pofile.LightEntry.FIELDS) for e in catalog.po]
            found.append((entries, catalog.diagnostics))
        return found

    for n in range(60):
        texts = [_spiced(rng, _bank_catalog(rng)) if n % 2 else _bank_catalog(rng)]
        texts.append(texts[0].replace("msgstr \"", "msgstr \"x", 1))  # an edit: read again from the kept read
        results = []
        for reader in ("new", "old"):
            monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / f"cache-{n}-{reader}"))
            if reader == "old":
                monkeypatch.setattr(pofile, "read_rows", _old_read_rows)
                monkeypatch.setattr(catalog_module, "read_rows", _old_read_rows)
                monkeypatch.setattr(catalog_module, "read_rows_bytes", lambda *args: None)  # (the text read as before)
            got = []
            for text in texts:
                data = text.encode("utf-8")
                if n % 3 == 2:
                    data = _damaged(random.Random(n), data)
                path.write_bytes((b"\xef\xbb\xbf" if n % 5 == 0 else b"") + (data.rstrip(b"\n") if n % 7 == 0 else data))
                got.append(read_all())
            results.append(got)
            monkeypatch.undo()
        assert results[0] == results[1], texts


def _damaged(rng: random.Random, data: bytes) -> bytes:
    """``data`` with now and then a byte that breaks its UTF-8 (a lead byte cut from its
    continuation by a quote and newline, a stray continuation byte, a cut character)."""
    for _ in range(rng.choice([0, 0, 0, 1, 2])):
        at = rng.randrange(len(data) + 1)
        data = data[:at] + rng.choice([b"\xc3", b"\xa9", b"\xc3\"\n\"\xa9", b"\xe2\x80", b"\xff", b"\xed\xa0\x80"]) + data[at:]
    if rng.random() < 0.2:  # a character cut in two by the end of a string's line
        cuts = [m.start() for m in re.finditer(b'"\n"', data)]
        if cuts:
            at = rng.choice(cuts)
            data = data[:at] + b'\xc3"\n"\xa9' + data[at + 3:]
    return data


@pytest.mark.parametrize("seed", range(2))
def test_the_bytes_reader_reads_the_rows_of_the_text(seed):
    """read_rows_bytes of a text's UTF-8 bytes: the rows read_rows gives of the text, its block
    starts as byte offsets; None for bytes that are not UTF-8."""
    from aistack_bank.i18n.catalog import _byte_offsets

    rng = random.Random(31337 + seed)
    read = 0
    for text in _texts(rng):
        data = _damaged(rng, text.encode("utf-8", errors="surrogatepass"))
        if not data.endswith(b"\n"):
            data += b"\n"
        pos = len(data) - len(data.lstrip(b"\n"))
        found = pofile.read_rows_bytes(data, pos, pos + 1, PATH)
        try:
            full = data.decode("utf-8")
        except UnicodeDecodeError:
            assert found is None, data
            continue
        old = _old_read_rows(full, pos, pos + 1, PATH)
        if found is not None:
            read += 1
            assert old is not None, data
            assert found == (old[0], _byte_offsets(full, old[1]), old[2]), data
        else:
            assert old is None, data
    assert read > 300  # (the others: not UTF-8, or not of the rows' shapes)


def test_a_character_cut_by_the_end_of_a_line_is_not_utf8():
    """A string's lines are not joined before they are decoded: a character's bytes cut by a
    quote and a newline are not UTF-8 (the text's decoding says so), not a character."""
    for keyword in ("msgctxt", "msgid", "msgstr"):
        data = '#: a.yaml:1\nmsgctxt "k"\nmsgid "x"\nmsgstr "y"\n'.replace(f'{keyword} "', f'{keyword} "ab\xc3"\n"\xa9cd').encode("latin-1")
        assert pofile.read_rows_bytes(data, 0, 1, PATH) is None
        data = data.replace(b"\xc3", b"\xc3\xa9").replace(b"\xa9cd", b"cd")
        assert pofile.read_rows_bytes(data, 0, 1, PATH)[0] == _old_read_rows(data.decode("utf-8"), 0, 1, PATH)[0]


def _same_match(new, old) -> bool:
    return (new is None and old is None) or (new is not None and old is not None and new.span() == old.span() and new.groups() == old.groups())


@pytest.mark.parametrize("seed", range(2))
def test_the_possessive_patterns_match_as_the_patterns_before(seed):
    """At every line start of random catalogs (escapes such as \\1234, \\x4g and \\q among them),
    each pattern matches the same span with the same groups as before, over the text and over its
    UTF-8 bytes."""
    rng = random.Random(8080 + seed)
    extra = ['"\\\\1234"', '"\\\\x4g"', '"\\\\q"', '"a\\\\', '"\\\\\\\\"', '#. x\\\\', '#: a\\\\b:1', '#~ msgid "x"', "#|", '""']
    compared = 0
    for text in _texts(rng):
        for _ in range(rng.choice([0, 1, 3])):
            at = rng.randrange(len(text) + 1)
            text = text[:at] + rng.choice(extra) + text[at:]
        data = text.encode("utf-8", errors="surrogatepass")
        starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]
        for new, old in ((pofile._COMMON_BLOCK, _OLD_COMMON_BLOCK), (pofile._FAST_BLOCK, _OLD_FAST_BLOCK)):
            for pos in starts:
                assert _same_match(new.match(text, pos), old.match(text, pos)), (text, pos)
            old_bytes = re.compile(old.pattern.encode("ascii"))
            new_bytes = pofile._COMMON_BYTES if new is pofile._COMMON_BLOCK else pofile._FAST_BYTES
            for pos in [0] + [i + 1 for i, b in enumerate(data) if b == 10]:
                assert _same_match(new_bytes.match(data, pos), old_bytes.match(data, pos)), (data, pos)
                compared += 1
    assert compared > 50000


def test_the_rules_are_looked_for_across_the_pieces_of_a_text(monkeypatch):
    """A text looked at a few characters at a time gives what it gives whole."""
    rng = random.Random(99)
    texts = [_spiced(rng, _bank_catalog(rng)) for _ in range(300)]
    whole = [pofile._allowed_throughout(text) for text in texts]
    monkeypatch.setattr(pofile, "_PIECE", 7)
    assert [pofile._allowed_throughout(text) for text in texts] == whole
    assert 50 < sum(whole) < 250
    for text in ("a\ud800b", "é" * 6 + "\x01", "e" * 7 + "\u0301", "x" * 13 + "\u2028"):
        assert not pofile._allowed_throughout(text), repr(text)
