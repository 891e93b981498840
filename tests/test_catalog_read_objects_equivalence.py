"""The catalog readers' rows hold fewer objects of their own, their columns are taken in C, and
the kept read is pickled without the memo where it costs more than it saves: what is read,
packed, kept and read back is what the code before gave.

`pofile.read_rows` and `pofile.read_rows_bytes` give a row of the bank's shape the module's
empty flags, plural map, plural lines and comment lines (one object each, and one pair of
comment lines per notes) instead of new ones; `pofile.pack_rows` looks one by one only at the
rows not made so (and those without a comment), and takes the columns with ``map``; the kept
read's msgids, msgstrs, contexts and lines are pickled with ``Pickler.fast``. Random catalogs
(the bank's shape and every other, an empty note among them) must give the columns the old
``pack_rows`` (spelled out below) gives, the same rows back, the same bytes written, and
``read_catalog`` the same entries from its kept read after edits. `stream.BlockStream` reads
each piece's rows from its bytes (`read_rows_bytes`) instead of decoding it for `read_rows`:
the same pieces, header, checkpoints and stops as the code before (spelled out below).
"""

from __future__ import annotations

import io
import pickle
import random
from pathlib import Path

import pytest
from test_catalog_read_text import _damaged, _spiced, _texts
from test_po_block_reader import _bank_catalog

from aistack_bank.i18n import pofile

PATH = Path("translations/fr.po")


def _old_pack_rows(rows: list[tuple]) -> tuple:
    """pack_rows as it was: every row looked at in Python."""
    ctx, ids, strs, paths, numbers, comments, tcomments, flags, lines = [], [], [], [], [], [], [], [], []
    other = {}
    for index, r in enumerate(rows):
        msgctxt, msgid, msgstr, plural_id, plurals, occurrences, comment, tcomment, flag, p1, p2, p3, obsolete, comment_lines, plural_lines, line = r
        if (plural_id == "" and not plurals and len(occurrences) == 1 and p1 is None and p2 is None and p3 is None and not obsolete
                and not plural_lines and "," not in "".join(flag) and "" not in flag
                and comment_lines == (tcomment.split("\n") if tcomment else [], comment.split("\n") if comment else [])):
            path, number = occurrences[0]
        else:
            other[index] = r if type(r) is tuple else tuple(r)
            path = number = ""
        ctx.append(msgctxt)
        ids.append(msgid)
        strs.append(msgstr)
        paths.append(path)
        numbers.append(number)
        comments.append(comment)
        tcomments.append(tcomment)
        flags.append(",".join(flag))
        lines.append(line)
    return ctx, ids, strs, paths, numbers, comments, tcomments, flags, lines, other


def _rows_of_every_reader(rng: random.Random, text: str):
    """The rows of ``text`` as each reader gives them (those that read it)."""
    full = text if text.endswith("\n") else text + "\n"
    pos = len(full) - len(full.lstrip("\n"))
    found = pofile.read_rows(full, pos, pos + 1, PATH)
    if found is not None:
        yield found[0]
        yield pofile.unpack_rows(_old_pack_rows(found[0]))
    data = _damaged(rng, full.encode("utf-8", errors="surrogatepass"))
    found = pofile.read_rows_bytes(data, pos, pos + 1, PATH)
    if found is not None:
        yield found[0]  # (LightEntry items)
    entries, _ = pofile.read_entries(text, PATH)
    if entries is not None:
        yield pofile.light_rows(entries)


@pytest.mark.parametrize("seed", range(2))
def test_the_columns_are_those_of_the_old_packer(seed):
    rng = random.Random(4242 + seed)
    packed = empty_notes = kept_whole = 0
    for text in _texts(rng):
        for rows in _rows_of_every_reader(rng, text):
            new, old = pofile.pack_rows(rows), _old_pack_rows(rows)
            assert new == old, text
            assert [type(value) for value in new[9].values()] == [type(value) for value in old[9].values()]
            assert pofile.unpack_rows(new) == [tuple(r) for r in rows], text
            packed += 1
            kept_whole += len(new[9])
            # a row of the bank's shape whose notes are one empty line: kept whole, as before
            empty_notes += sum(1 for r in rows if r[14] is pofile._NO_LINES and r[6] == "" and r[13] is not pofile._NO_COMMENT_LINES)
    assert packed > 2000 and empty_notes > 20 and kept_whole > 1000


def test_the_shared_objects_are_never_changed():
    """Reading, packing, writing and reading the rows back leave the rows' shared objects as
    they were made (a change would show in every row that holds them)."""
    rng = random.Random(77)
    for _ in range(400):
        text = _spiced(rng, _bank_catalog(rng))
        full = text if text.endswith("\n") else text + "\n"
        found = pofile.read_rows_bytes(full.encode("utf-8", errors="surrogatepass"), 0, 1, PATH)
        if found is None:
            continue
        catalog = pofile.light_catalog(found[0], entries=True)
        written = pofile.write_po(catalog)
        fresh = [tuple(pickle.loads(pickle.dumps(tuple(r)))) for r in found[0]]  # (new objects, equal)
        assert pofile.write_po(pofile.light_catalog(fresh)) == written
        pofile.unpack_rows(pofile.pack_rows(found[0]))
    assert (pofile._NO_FLAGS, pofile._FUZZY, pofile._NO_LINES, pofile._NO_COMMENT_LINES, pofile._NO_PLURALS) == ([], ["fuzzy"], [], ([], []), {})


@pytest.mark.parametrize("seed", range(2))
def test_the_kept_read_is_read_back_as_pickled_before(seed, tmp_path, monkeypatch):
    """The kept read (pickled partly without the memo) read back after edits, whole and by
    context, gives the entries a read without the cache gives; a kept read in the former
    layout (one pickle of the texts) is not taken for one (the file is read whole)."""
    from aistack_bank.i18n import catalog as catalog_module
    from aistack_bank.i18n.catalog import read_catalog

    rng = random.Random(9090 + seed)
    folder = tmp_path / "translations"
    folder.mkdir()
    path = folder / "fr.po"

    def entries(catalog):
        return None if catalog.po is None else [tuple(getattr(e, name) for name in pofile.LightEntry.FIELDS) for e in catalog.po]

    formers = 0
    for n in range(30):
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / f"cache-{n}"))
        text = _bank_catalog(rng)
        for step in range(catalog_module.MAX_PATCHES + 2):
            path.write_text(text, encoding="utf-8")
            plain = read_catalog(path, light=True)
            for columns in (False, True):
                kept = read_catalog(path, use_cache=True, light=True, columns=columns)
                assert (entries(kept), kept.diagnostics) == (entries(plain), plain.diagnostics), text
            if step == 1 and n % 3 == 0:  # the texts as the code before pickled them
                texts = next(tmp_path.glob(f"cache-{n}/**/*.texts"), None)
                if texts is not None:
                    stream = io.BytesIO(texts.read_bytes())
                    (token, strings), rest = pickle.load(stream), pickle.load(stream)
                    texts.write_bytes(pickle.dumps((token, strings + rest), protocol=pickle.HIGHEST_PROTOCOL))
                    formers += 1
            at = text.find('msgstr "', rng.randrange(len(text) + 1))
            if at < 0:
                at = text.find('msgstr "')
            text = text[:at + 8] + rng.choice(["x", "é", "\u202f", ""]) + text[at + 8:] if at >= 0 else text
    assert formers > 3


def test_the_fast_pickle_reads_back_equal():
    rng = random.Random(3)
    for _ in range(200):
        words = ["", "a", "é", "x\u202fy", "\U0001f600", "line\nline"]
        column = [rng.choice(words) + str(rng.random()) for _ in range(rng.randint(0, 50))]
        other = {i: (rng.choice(words), [rng.choice(words)] * 2, {0: "x"}) for i in range(rng.randint(0, 3))}
        value = ("token", (column, list(range(len(column))), other), [1, 2, 3])
        from aistack_bank.i18n.catalog import _fast_pickled

        assert pickle.loads(_fast_pickled(value)) == pickle.loads(pickle.dumps(value)) == value


def _old_pieces(stream):
    """BlockStream.pieces() as it was: each piece decoded, its rows read from the text and
    copied into LightEntry items."""
    import os

    from aistack_bank.i18n import stream as stream_module

    held, held_at, lineno, started, total = b"", 0, 1, False, 0
    while True:
        chunk = os.read(stream.fd, stream_module.PIECE_BYTES)
        total += len(chunk)
        if total > stream.max_bytes:
            raise stream_module.NotStreamable
        data = held + chunk if held else chunk
        at = held_at
        if not started:
            if data.startswith(b"\xef\xbb\xbf"):
                data, at = data[3:], at + 3
            stripped = data.lstrip(b"\n")
            if not stripped and chunk:
                held, held_at = data, at
                continue
            lineno += len(data) - len(stripped)
            at += len(data) - len(stripped)
            data = stripped
            started = True
        if chunk:
            cut = stream_module._block_start(data)
            if cut is None:
                if len(data) > stream_module.MAX_PIECE_BYTES:
                    raise stream_module.NotStreamable
                held, held_at = data, at
                continue
            piece, held, held_at = data[:cut], data[cut:], at + cut
            end = at + cut
        else:
            piece, held = data, b""
            end = at + len(piece)
            if piece and not piece.endswith(b"\n"):
                piece += b"\n"
        if piece:
            stream.checkpoints.append((lineno, at if lineno > 1 else 0, end, not chunk))
            try:
                text = piece.decode("utf-8")
            except UnicodeDecodeError:
                raise stream_module.NotStreamable from None
            found = pofile.read_rows(text, 0, lineno, stream.path)
            if found is None:
                raise stream_module.NotStreamable
            rows, _, lineno = found
            if stream.header is None:
                index = next((i for i, r in enumerate(rows) if stream_module._is_header(r)), None)
                if index is not None:
                    stream.header = rows.pop(index)
            stream.entries += len(rows)
            yield list(map(pofile.LightEntry, rows))
        if not chunk:
            return


@pytest.mark.parametrize("seed", range(2))
def test_the_stream_reads_the_pieces_it_read_from_their_text(seed, tmp_path, monkeypatch):
    """BlockStream.pieces() reads each piece's bytes (read_rows_bytes): the pieces' entries,
    the header, the checkpoints and where it stops (NotStreamable) are those of the code
    before, which decoded each piece and read its text (catalogs with bytes that are not UTF-8,
    a byte-order mark, blank lines first, no final newline, pieces of a few hundred bytes)."""
    from aistack_bank.i18n import stream as stream_module

    rng = random.Random(6060 + seed)
    path = tmp_path / "fr.po"
    streamed = stopped = 0
    for n in range(300):
        text = "\n\n".join(_bank_catalog(rng) for _ in range(rng.randint(1, 4)))
        if n % 2:
            text = _spiced(rng, text)
        data = text.encode("utf-8", errors="surrogatepass")
        if n % 3 == 0:
            data = _damaged(rng, data)
        data = (b"\xef\xbb\xbf" if n % 5 == 0 else b"") + (b"\n\n" if n % 7 == 0 else b"") + (data.rstrip(b"\n") if n % 4 == 0 else data)
        path.write_bytes(data)
        monkeypatch.setattr(stream_module, "PIECE_BYTES", rng.choice([64, 300, 1000, 1 << 20]))
        results = []
        for pieces in (lambda s: s.pieces(), _old_pieces):
            with stream_module.BlockStream(path, 1 << 20) as stream:
                got = []
                try:
                    for piece in pieces(stream):
                        assert all(type(e) is pofile.LightEntry for e in piece)
                        got.append([tuple(e) for e in piece])
                except stream_module.NotStreamable:
                    got.append("not streamable")
                header = None if stream.header is None else tuple(stream.header)
                results.append((got, header, stream.checkpoints, stream.entries))
        assert results[0] == results[1], data
        streamed += results[0][0][-1:] != ["not streamable"]
        stopped += results[0][0][-1:] == ["not streamable"]
    assert streamed > 30 and stopped > 50
