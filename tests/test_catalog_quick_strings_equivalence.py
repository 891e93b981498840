"""The catalog worker's row reader (which also makes the rows' columns as it reads them, the
columns `pofile.pack_rows` makes of them) and the template's lean reader take the quick pattern's match
of a block (`pofile._QUICK_BYTES`, `pofile._QUICK_BLOCK`) when no string of it holds a newline as
its decoded strings tell it (no count of the block's quotes and newlines), count a block's lines
from its parts (its notes' lines counted once per notes), decode a reference once per distinct
bytes, and look for the character rules with one search for a character not of `_OLD_INERT`.
Each must give what it gave before (spelled out below): rows, block starts, last line or None;
the template's items and last line or None; whether the rules hold throughout. On random
catalogs of the bank's shape and every other, hostile ones among them (newlines, quotes,
backslashes, escapes and carriage returns put anywhere, bytes that are not UTF-8), from a
block's start too, on blocks made to break each condition, and on the bundled bank's and
`examples/every-kind`'s catalogs and templates.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from test_catalog_quick_pattern_equivalence import _hostile
from test_catalog_read_text import _damaged, _texts

from aistack_bank.i18n import pofile
from aistack_bank.safety import FORBIDDEN
from unicodedata import is_normalized

ROOT = Path(__file__).resolve().parents[1]
PATH = Path("translations/fr.po")
_OLD_INERT = frozenset(map(chr, [*range(0xA0, 0x300), *range(0x2010, 0x2028), *range(0x202F, 0x2060), *range(0x20A0, 0x20C0)]))


def _old_read_rows_bytes(raw: bytes, pos: int, lineno: int, path: Path) -> tuple[list[pofile.LightEntry], list[int], int] | None:
    """read_rows_bytes as it was: the quick pattern's match checked by counts over its strings, each block's lines counted."""
    rows: list[tuple] = []
    starts: list[int] = []
    append = rows.append
    mark = starts.append
    common = pofile._COMMON_BYTES.match
    match = pofile._FAST_BYTES.match
    count = raw.count
    shared: dict[str, str] = {}
    share = shared.setdefault
    notes_read: dict[bytes, tuple[str, tuple[list, list[str]]]] = {}
    entry = pofile.LightEntry
    end = len(raw)
    checked = _old_bytes_allowed_throughout(raw)
    quick = pofile._QUICK_BYTES.match if raw.find(b"\r") < 0 else None
    backslash = raw.find(b"\\", pos)
    if backslash < 0:
        backslash = end
    try:
        while pos < end:
            m = quick(raw, pos) if quick is not None else None
            if m is not None:
                strings, after, last = m.start(5), m.end(10), m.end()
                if (backslash < last or (last == after and last < end)
                        or count(b'"', strings, after) != 2 * count(b"\n", strings, after) - 1):
                    m = None  # (a backslash in the block, no blank line after it, or a newline in a string: read as before)
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
                    found_notes = notes_read[notes] = (share(comment, comment), ([], comment.split("\n")))
                comment, comment_lines = found_notes
            else:
                comment, comment_lines = "", pofile._NO_COMMENT_LINES
            ref = ref.decode("ascii")
            append(entry((ctxt, msgid, msgstr, "", pofile._NO_PLURALS, [(share(ref, ref), number.decode("ascii"))], comment, "",
                          pofile._FUZZY if fuzzy else pofile._NO_FLAGS, None, None, None, False, comment_lines, pofile._NO_LINES, line)))
    except UnicodeDecodeError:
        return None
    return rows, starts, lineno


def _old_read_template_rows(text: str, lineno: int, path: Path) -> tuple[list[tuple | None], int] | None:
    """read_template_rows as it was: every block of the common shape matched by the block pattern."""
    items: list[tuple | None] = []
    append = items.append
    common = pofile._COMMON_BLOCK.match
    pos, end = 0, len(text)
    checked = _old_allowed_throughout(text)  # (as read_rows looks for the rules and the escapes)
    backslash = text.find("\\")
    if backslash < 0:
        backslash = end
    notes_read: dict[str, str] = {}
    while pos < end:
        m = common(text, pos)
        if m is None:
            m = pofile._FAST_BLOCK.match(text, pos)
            if m is None or m.end() == pos:
                return None
            e, _ = pofile._block(m, lineno, path)  # (its line is not compared: only its strings' rules matter)
            if e is None or "msgctxt" in e.fields or e.fields.get("msgid", "") != "":
                return None
            append(None)
            pos = m.end()
        else:
            pos = m.end()
            notes, ref, number, _, ctxt, ctxt_more, msgid, msgid_more = m.group(1, 2, 3, 4, 5, 6, 7, 8)
            if backslash < pos and text.find("\\", m.start(5), m.end(10)) >= 0:  # decoded and checked as read_rows does it
                found = pofile._strings(((ctxt, ctxt_more), (msgid, msgid_more), m.group(9, 10)), 0, path)
                if found is None:
                    return None
                ctxt, msgid = found[0], found[1]
            elif not checked and pofile._unescaped_refused(text[m.start(5):m.end(10)]):
                return None
            else:
                if ctxt_more:
                    ctxt += ctxt_more[1:-2].replace('"\n"', "")
                if msgid_more:
                    msgid += msgid_more[1:-2].replace('"\n"', "")
            if notes:
                comment = notes_read.get(notes)
                if comment is None:
                    comment = notes_read[notes] = notes[3:-1].replace("\n#. ", "\n")
            else:
                comment = ""
            append((ctxt, msgid, comment, ref, number))
        if backslash < pos:
            backslash = text.find("\\", pos)
            if backslash < 0:
                backslash = end
    return items, lineno + text.count("\n")


def _old_bytes_allowed_throughout(raw: bytes) -> bool:
    """_bytes_allowed_throughout as it was: the characters looked up in a set."""
    rest = raw.translate(None, pofile._PLAIN_ASCII)
    if not rest:
        return True
    try:
        chars = rest.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return FORBIDDEN.search(chars) is None and set(chars) <= _OLD_INERT


def _old_allowed_throughout(text: str) -> bool:
    """_allowed_throughout as it was: every piece's characters searched and kept."""
    found: set[str] = set()
    for at in range(0, len(text), pofile._PIECE):
        # (a lone surrogate is encoded and decoded back as itself: FORBIDDEN holds it)
        rest = text[at:at + pofile._PIECE].encode("utf-8", "surrogatepass").translate(None, pofile._PLAIN_ASCII).decode("utf-8", "surrogatepass")
        if rest:
            if FORBIDDEN.search(rest) is not None:
                return False
            found.update(rest)
    return found <= _OLD_INERT or is_normalized("NFC", text)


def _same(data: bytes, pos: int, line: int) -> object:
    found = pofile.read_rows_bytes(data, pos, line, PATH)
    assert found == _old_read_rows_bytes(data, pos, line, PATH), data
    packed: list = []
    assert pofile.read_rows_bytes(data, pos, line, PATH, packed) == found
    # the columns made as the rows are read: pack_rows' of the rows (each of the same type)
    assert packed == ([] if found is None else [pofile.pack_rows(found[0])]), data
    if packed:
        for made, columns in zip(packed[0], pofile.pack_rows(found[0])):
            assert [type(x) for x in made] == [type(x) for x in columns]
    return found


def _same_template(text: str, line: int) -> object:
    found = pofile.read_template_rows(text, line, PATH)
    assert found == _old_read_template_rows(text, line, PATH), text
    return found


def _text_of(data: bytes) -> str | None:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


# One seed, 3 000 random catalogs, each as made, damaged and made hostile: seeds 1 and 2 (another
# 6 000) reached no branch, of the package or of the code before, that seed 0 does not reach
# (`coverage run --branch`), for 4.8 s of CPU.
@pytest.mark.parametrize("seed", [0])
def test_the_readers_read_what_they_read_before(seed):
    rng = random.Random(20261303 + seed)
    read = refused = cut = templates = 0
    for text in _texts(rng):
        data = text.encode("utf-8", errors="surrogatepass")
        for data in (data, _damaged(rng, data), _hostile(rng, text).encode("utf-8", errors="surrogatepass")):
            if not data.endswith(b"\n") and rng.random() < 0.9:
                data += b"\n"
            pos = len(data) - len(data.lstrip(b"\n"))
            found = _same(data, pos, pos + 1)
            read += found is not None
            refused += found is None
            starts = found[1] if found is not None else []
            if starts:
                at = rng.choice(starts)  # from a block's start, from another line
                _same(data, at, rng.randint(1, 50))
                cut += 1
            text_read = _text_of(data)
            if text_read is not None and text_read.endswith("\n"):
                pos = len(text_read) - len(text_read.lstrip("\n"))
                templates += _same_template(text_read[pos:], pos + 1) is not None
                if starts:  # (a piece of a template cut where a block starts: the byte offset of a character)
                    at = len(data[:rng.choice(starts)].decode("utf-8", errors="surrogatepass"))
                    _same_template(text_read[at:], rng.randint(1, 50))
    # many read and many refused, from a block's start too, and templates read
    assert read > 1000 and refused > 3000 and cut > 1000 and templates > 500


def test_a_string_with_a_newline_or_an_escape_is_read_as_before():
    """Blocks the quick pattern matches where the block pattern does not, or matches otherwise:
    a newline in each string (first line, continuation lines, an empty first string), escapes,
    a carriage return, no blank line after a block, fuzzy blocks, notes that hold quotes."""
    head = b'msgid ""\nmsgstr ""\n"Language: fr\\n"\n\n'
    block = b'#. Note "quoted".\n#. Second "line".\n#: bank/q"x.yaml:3\n%smsgctxt "%s"\n%smsgid "%s"\n%smsgstr "%s"\n%s%s'
    strings = [(b"q.stem", b""), (b"q.\nstem", b""), (b"", b'"q.\n"\n"stem"\n'), (b"q", b'"\n"\n'), (b"", b'""\n'), (b"q\\n", b""),
               (b"q", b'"a\nb"\n"c"\n'), (b"", b'"a"\n"\nb"\n'), (b"Ti\\qge", b""), (b"T\\x41", b'"\\101"\n'), (b"Tige\r", b""), (b"\xc3", b'"\xa9"\n')]
    rng = random.Random(5)
    for _ in range(3000):
        parts = []
        for _ in range(rng.randint(1, 3)):
            (c, cm), (i, im), (s, sm) = (rng.choice(strings) for _ in range(3))
            fuzzy = b"#, fuzzy\n" if rng.random() < 0.3 else b""
            parts.append(block % (fuzzy, c, cm, i, im, s, sm, rng.choice([b"\n", b"\n\n", b""])))
        data = head + b"".join(parts)
        if rng.random() < 0.2:
            data = data.replace(b"#. Note", b"#. No\rte")
        _same(data, 0, 1)
        text = _text_of(data)
        if text is not None:
            _same_template(text, 1)
            _same_template(text[len(head):], 4)


def _catalogs():
    for root in (ROOT / "translations", ROOT / "examples" / "every-kind" / "translations"):
        yield from sorted(root.glob("*.po"))
        yield from sorted(root.glob("*.pot"))


def test_the_bundled_catalogs_are_read_as_before():
    paths = list(_catalogs())
    assert len(paths) >= 3
    templates = 0
    for path in paths:
        data = path.read_bytes()
        pos = len(data) - len(data.lstrip(b"\n"))
        found = _same(data, pos, pos + 1)
        assert found is not None and len(found[0]) > 10, path
        text = data.decode("utf-8")
        templates += _same_template(text[pos:], pos + 1) is not None
    assert templates >= 2


@pytest.mark.parametrize("piece", [1 << 20, 7])
def test_the_rules_are_seen_as_before(piece, monkeypatch):
    """Whether the rules hold throughout, of texts of printable ASCII and characters of
    _INERT, forbidden, not NFC or of neither (and of their bytes, some of them not UTF-8),
    looked at whole and a few characters at a time (some pieces up to U+00FF, others not)."""
    assert pofile._INERT == _OLD_INERT and not any(FORBIDDEN.match(c) for c in pofile._INERT)
    monkeypatch.setattr(pofile, "_PIECE", piece)
    rng = random.Random(11 + piece)
    inert = sorted(pofile._INERT)
    others = ["\x01", "\x7f", "\u2028", "\u202e", "\ufeff", "e\u0301", "\u0301", "\u00e9", "\u4e2d", "\U0001f600", "\u2029", "\u200b", "\u205f", "\u2060",
              "\u009f", "\u00a0", "\u02ff", "\u0300", "\u2010", "\u2027", "\u202f", "\u20a0", "\u20bf", "\u20c0", "\ud800"]
    seen = {True: 0, False: 0}
    for _ in range(4000):
        chars = [rng.choice("abc \t\n\"#") for _ in range(rng.randint(0, 30))]
        for _ in range(rng.randint(0, 6)):
            chars.insert(rng.randint(0, len(chars)), rng.choice(inert))
        if rng.random() < 0.5:
            chars.insert(rng.randint(0, len(chars)), rng.choice(others))
        text = "".join(chars)
        found = pofile._allowed_throughout(text)
        assert found == _old_allowed_throughout(text), text
        seen[found] += 1
        data = text.encode("utf-8", "surrogatepass")
        if rng.random() < 0.2 and data:
            at = rng.randrange(len(data))
            data = data[:at] + bytes([rng.choice([0x80, 0xc3, 0xe2, 0xff])]) + data[at:]
        assert pofile._bytes_allowed_throughout(data) == _old_bytes_allowed_throughout(data), data
    assert seen[True] > 500 and seen[False] > 500


def _old_active(catalog) -> dict:
    """Catalog.active as it was, of a catalog that is not a ColumnCatalog."""
    return {e.msgctxt: e for e in catalog.po if e.msgctxt is not None and not e.obsolete}


def _same_active(catalog) -> dict:
    found = catalog.active()
    old = _old_active(catalog)
    assert list(found.items()) == list(old.items())  # (the same keys, in the same order)
    assert all(found[key] is old[key] for key in old)  # (each the same entry)
    return found


def test_the_active_entries_are_those_before():
    """The active entries by context of light catalogs with repeated contexts, entries without
    one, obsolete entries or none, and of the bundled catalogs (light and polib's)."""
    from aistack_bank.i18n.catalog import Catalog, read_catalog

    rng = random.Random(3)
    for _ in range(2000):
        rows = []
        for line in range(rng.randint(0, 12)):
            ctx = rng.choice([None, None, "", "a", "b", "c", "q.stem", "q.option.a"])
            msgid = rng.choice(["", "x", "y"])
            obsolete = rng.random() < (0.15 if rng.random() < 0.5 else 0)
            rows.append((ctx, msgid, "s", "", pofile._NO_PLURALS, [("f", "1")], "", "", [], None, None, None, obsolete,
                         ([], []), pofile._NO_LINES, line + 1))
        po = pofile.light_catalog(rows)
        _same_active(Catalog(path=PATH, language="fr", po=po, diagnostics=[]))
    for path in _catalogs():
        for light in (True, False):
            catalog = read_catalog(path, template=path.suffix == ".pot", light=light)
            assert len(_same_active(catalog)) > 10
