"""A catalog read after an edit as columns (`pofile.ColumnCatalog`) answers as the entries made whole do.

After one catalog entry edited, `bank validate` verifies the catalog only for the questions the
edit touched, and asks the catalog for their entries alone: the kept read's columns are not
made into the 100 000 entries of a 10 000-question catalog. Random catalogs of every shape the
reader takes (contexts shared by two entries, entries without a context and the same msgid,
plural forms, obsolete entries, a header missing, moved or doubled, comment and flag lines of
other shapes) must give, from the columns, the entries, header, active entries by context, the
line and context of each entry and the catalog checks' diagnostics of the catalog made whole
(`light_catalog`, as before).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from aistack_bank.i18n import catalog as catalog_module
from aistack_bank.i18n.catalog import Catalog
from aistack_bank.i18n.pofile import ColumnCatalog, block_rows, light_catalog, pack_rows, read_light_rows, read_rows, unpack_rows
from test_catalog_reread import HEADER, _block

OTHER_HEADERS = [HEADER.replace("Language: fr", "Language: nl"), HEADER.replace("nplurals=2", "nplurals=3"), 'msgid ""\nmsgstr ""']


def _catalog(rng: random.Random) -> str:
    blocks = [_block(rng, rng.randrange(100), odd=rng.random() < 0.03) for _ in range(rng.randint(0, 25))]
    for i, block in enumerate(blocks):
        roll = rng.random()
        if roll < 0.08:  # no context, and msgids that recur
            blocks[i] = f'msgid "same {rng.randrange(3)}"\nmsgstr "x"'
        elif roll < 0.12:
            blocks[i] = f'#~ msgctxt "q{rng.randrange(12)}.stem"\n#~ msgid "gone"\n#~ msgstr "parti"'
        elif roll < 0.15:
            blocks[i] = f'msgctxt "q{rng.randrange(12)}.unit"\nmsgid "file"\nmsgid_plural "files"\nmsgstr[0] "un"\nmsgstr[1] "des"'
        elif roll < 0.17:
            blocks[i] = f'msgctxt "q{rng.randrange(12)}.unit"\nmsgid "file"\nmsgid_plural "files"\nmsgstr[0] "un"'
    for _ in range(rng.choice([0, 1, 1, 1, 1, 2])):
        blocks.insert(rng.choice([0, 0, 0, rng.randrange(len(blocks) + 1)]), rng.choice([HEADER, HEADER, *OTHER_HEADERS]))
    return "\n\n".join(blocks) + "\n"


def _active(po) -> list:
    """``Catalog.active`` as it maps a list of entries (by context, the last entry of a context)."""
    return [(key, tuple(entry)) for key, entry in {e.msgctxt: e for e in po if e.msgctxt is not None and not e.obsolete}.items()]


HEADER_NAMES = ("header", "metadata", "metadata_is_fuzzy", "header_lines", "raw_header", "raw_metadata", "header_index", "header_line")


def _kinds(text: str, packed: tuple, path: Path) -> list[tuple[str, object]]:
    """The ways a ColumnCatalog is made of ``packed``: from its columns, and (for a text whose
    blocks :func:`read_rows` reads) from its contexts and lines alone, each row read from the
    text's bytes when asked for (``block_rows``, as a kept read after an edit is made)."""
    made = [("columns", lambda: ColumnCatalog(packed))]
    full = text if text.endswith("\n") else text + "\n"
    pos = len(full) - len(full.lstrip("\n"))
    blocks = read_rows(full, pos, pos + 1, path)
    if blocks is not None:
        raw, starts = full.encode("utf-8"), catalog_module._byte_offsets(full, blocks[1])
        bare = (packed[0], *(None,) * 7, packed[8], packed[9])
        made.append(("blocks", lambda: ColumnCatalog(bare, *block_rows(raw, starts, packed[8], path))))
    return made


@pytest.mark.parametrize("seed", range(2))
def test_a_column_catalog_answers_as_its_entries_made_whole(seed):
    rng = random.Random(4242 + seed)
    path = Path("translations/fr.po")
    compared, distinct, kinds = 0, 0, set()
    for _ in range(300):
        text = _catalog(rng)
        rows, _ = read_light_rows(text, path)
        if rows is None:
            continue
        packed = pack_rows(rows)
        whole = light_catalog(unpack_rows(packed))
        for kind, make in _kinds(text, packed, path):
            kinds.add(kind)
            columns = make()
            # what the checks ask first, before anything makes the entries whole
            active = columns.active()
            assert [(key, tuple(active[key])) for key in active] == _active(whole), (kind, text)
            assert all(tuple(active.get(key)) == tuple(value) for key, value in active.items())
            assert active.get("no such context") is None and "no such context" not in active
            assert set(active.keys()) == {key for key, _ in _active(whole)}
            assert columns.positions() == ([e.linenum or 0 for e in whole], [e.msgctxt for e in whole]), (kind, text)
            for name in HEADER_NAMES:
                assert getattr(columns, name, None) == getattr(whole, name, None), (kind, name, text)
            checked = catalog_module._checked(Catalog(path=path, language="fr", po=make(), diagnostics=[]))
            assert checked.diagnostics == catalog_module._checked(Catalog(path=path, language="fr", po=whole, diagnostics=[])).diagnostics, (kind, text)
            distinct += make().distinct()
            # every entry read alone as the whole read reads it
            assert [tuple(columns.entry(i)) for i in range(len(packed[0]))] == [tuple(r) for r in unpack_rows(packed)], (kind, text)
            # made whole when asked for as a list
            assert [tuple(e) for e in columns] == [tuple(e) for e in whole] and len(columns) == len(whole)
            assert [tuple(e) for e in columns.obsolete_entries()] == [tuple(e) for e in whole.obsolete_entries()]
            if len(whole):
                assert tuple(columns[-1]) == tuple(whole[-1])
            compared += 1
    assert kinds == {"columns", "blocks"}
    assert compared > 300 and 100 < distinct < compared - 100  # both ways of the checks were taken, many times
