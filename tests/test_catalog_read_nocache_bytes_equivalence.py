"""A light catalog read without the cache (`bank validate --no-cache`'s catalog workers) reads
the blocks of the common shape from the file's bytes with their columns, as the cached read
does, instead of decoding the whole text first (any other file, and bytes that are not UTF-8,
from the text as before).

`catalog._read_po_file` as it was is spelled out here and compared, on random catalogs of the
bank's shape and of any shape (escapes, multi-line strings, fuzzy and obsolete entries, plurals,
duplicate contexts, comments, carriage returns, characters that are not NFC or forbidden), with
a byte-order mark or not, without a final newline, with leading blank lines, and with damaged
bytes: the same entries, the same diagnostics of the read and of the catalog checks, the same
answer of ``distinct``, and the same findings of ``verify_catalog`` for fields of the same keys.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from test_catalog_read_text import _damaged, _spiced
from test_po_block_reader import _bank_catalog, _catalog

from aistack_bank.i18n import catalog as catalog_module
from aistack_bank.i18n import pofile
from aistack_bank.i18n.catalog import Catalog, _checked, _not_utf8, _read_raw
from aistack_bank.i18n.pofile import catalog_of, light_catalog, read_entries, read_light_rows


def _old_read_po_file(path: Path, light: bool = False):
    """``catalog._read_po_file`` as it was: the text decoded whole, then read."""
    raw, failed, _, _ = _read_raw(path)
    if raw is None:
        return None, failed
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return None, [_not_utf8(raw, exc, path)]
    del raw
    if light:
        rows, diags = read_light_rows(text, path)
        del text
        return (None, diags) if rows is None else (light_catalog(rows), [])
    entries, diags = read_entries(text, path)
    del text
    return (None, diags) if entries is None else (catalog_of(entries), [])


def _read(path: Path, reader) -> tuple:
    po, diags = reader(path, True)
    catalog = Catalog(path=path, language="fr", po=po, diagnostics=diags)
    if po is not None:
        catalog = _checked(catalog)
    entries = None if po is None else [tuple(getattr(e, name) for name in pofile.LightEntry.FIELDS) for e in po]
    return entries, catalog.diagnostics, None if po is None else (po.header, po.metadata, po.metadata_is_fuzzy, po.distinct()), catalog


@pytest.mark.parametrize("seed", range(3))
def test_a_light_read_without_the_cache_reads_what_it_read_before(seed, tmp_path):
    from aistack_bank.i18n.fields import TextField
    from aistack_bank.i18n.verify import verify_catalog
    from aistack_bank.load import BankSource

    rng = random.Random(2121 + seed)
    folder = tmp_path / "translations"
    folder.mkdir()
    path = folder / "fr.po"
    shapes = {"bank": 0, "other": 0, "none": 0}
    for n in range(50):
        text = _bank_catalog(rng) if n % 3 else _catalog(rng)
        if n % 4 == 1:
            text = _spiced(rng, text)
        data = text.encode("utf-8")
        if n % 6 == 5:
            data = _damaged(random.Random(n), data)
        if n % 5 == 0:
            data = b"\xef\xbb\xbf" + data
        if n % 7 == 0:
            data = data.rstrip(b"\n")
        if n % 9 == 4:
            data = b"\n\n" + data
        path.write_bytes(data)
        new = _read(path, catalog_module._read_po_file)
        old = _read(path, _old_read_po_file)
        assert new[:3] == old[:3], text
        shapes["none" if new[0] is None else "bank" if n % 3 else "other"] += 1
        if new[0] is not None:
            keys = [row[0] for row in new[0] if row[0]]
            fields = [TextField(key, f"Text {i} of 3 GB", Path("bank/t/q.yaml"), i + 1, key_bearing=i % 2 == 0) for i, key in enumerate(dict.fromkeys(keys))]
            bank = BankSource(root=tmp_path)
            assert (verify_catalog(bank, fields, new[3], bank_checks=False) == verify_catalog(bank, fields, old[3], bank_checks=False)), text
    assert min(shapes.values()) > 0, shapes


def test_a_file_with_bytes_that_are_not_utf8_is_reported_where_it_was(tmp_path):
    folder = tmp_path / "translations"
    folder.mkdir()
    path = folder / "fr.po"
    text = _bank_catalog(random.Random(3))
    data = text.encode("utf-8")
    at = data.index(b'msgstr "', len(data) // 2) + 8
    path.write_bytes(data[:at] + b"\xff\xfe" + data[at:])
    new, old = _read(path, catalog_module._read_po_file), _read(path, _old_read_po_file)
    assert new[0] is None and new[1] and new[:3] == old[:3]
