"""A catalog read again after an edit reads only the blocks the edit touched, with the same result.

`bank validate` keeps, per catalog file, the bytes of its latest read and their entries; the
next read compares the new bytes with them and reads again only the blocks between the common
start and end (`catalog.read_catalog` with ``light`` and ``use_cache``). Random sequences of
edits (an entry changed, inserted, deleted or moved, comment and blank lines added, the header
changed, bytes inserted anywhere, broken UTF-8, a byte-order mark, the final newline removed,
shapes only the line reader takes) must give, after every step, the same entries (values and
line numbers), header and diagnostics as a read of the file from scratch.
"""

from __future__ import annotations

import random

import pytest

from aistack_bank.i18n import catalog as catalog_module
from aistack_bank.i18n.catalog import read_catalog
from test_po_block_reader import COMMENTS, _entry

WORDS = ["Quelle", "mémoire", "GB", "3,5", "n’est", "«", "»", "{x}", "<b>", "a\\nb", "\\\"q\\\"", "é", "x", " ", "", " "]
HEADER = 'msgid ""\nmsgstr ""\n"Language: fr\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Plural-Forms: nplurals=2; plural=(n > 1);\\n"'


def _strings(rng: random.Random, keyword: str) -> list[str]:
    lines = [f'{keyword} "{"".join(rng.choice(WORDS) for _ in range(rng.randint(0, 4)))}"']
    return lines + [f'"{"".join(rng.choice(WORDS) for _ in range(rng.randint(1, 4)))}"' for _ in range(rng.choice([0, 0, 1, 3]))]


def _block(rng: random.Random, n: int, odd: bool = False) -> str:
    """An entry of the common shape, or with ``odd`` one that may take another (see test_po_block_reader)."""
    if odd:
        lines = _entry(rng, True)
    else:
        lines = [rng.choice(COMMENTS[:8]) for _ in range(rng.randint(0, 3))] + _strings(rng, "msgid") + _strings(rng, "msgstr")
    if not any(line.startswith("msgctxt") for line in lines) and rng.random() < 0.9:
        lines.insert(len([x for x in lines if x.startswith("#")]), f'msgctxt "q{n}.stem"')
    return "\n".join(lines)


def _edit(rng: random.Random, blocks: list[str], counter: list[int]) -> None:
    """One random edit of the catalog's blocks (in place)."""
    counter[0] += 1
    n = counter[0]
    change = rng.randrange(12)
    i = rng.randrange(len(blocks)) if blocks else 0
    if change == 0 and blocks:
        blocks[i] = _block(rng, n)
    elif change == 1:
        blocks.insert(rng.randrange(len(blocks) + 1), _block(rng, n))
    elif change == 2 and blocks:
        del blocks[i]
    elif change == 3 and len(blocks) > 1:
        blocks.insert(rng.randrange(len(blocks)), blocks.pop(i))
    elif change == 4 and blocks:
        blocks[i] = f"# note {n}\n" + blocks[i]
    elif change == 5 and blocks:
        blocks[i] = blocks[i] + "\n" * rng.randint(1, 2)
    elif change == 6 and blocks:
        blocks[i] = _block(rng, n, odd=True)
    elif change == 7:
        index = next((k for k, b in enumerate(blocks) if b.startswith('msgid ""')), None)
        if index is not None:
            blocks[index] = blocks[index].replace("Language: fr", rng.choice(["Language: nl", "Language: fr", "Language:"]))
    elif change == 8 and blocks:
        text = blocks[i]
        at = rng.randrange(len(text) + 1)
        blocks[i] = text[:at] + rng.choice(["\n", "x", '"', "#", "é", "\\", " ", "\n\n", "msgid "]) + text[at:]
    elif change == 9 and blocks:
        text = blocks[i]
        at = rng.randrange(len(text) + 1)
        blocks[i] = text[:at] + text[at + rng.randint(1, 3):]
    elif change == 10 and blocks:
        blocks[i], blocks[-1] = blocks[-1], blocks[i]
    else:
        blocks.append(_block(rng, n))


def _state(catalog) -> tuple:
    po = catalog.po
    if po is None:
        return None, catalog.diagnostics
    header = tuple(getattr(po, name, None) for name in ("header", "metadata", "metadata_is_fuzzy", "header_lines", "raw_header",
                                                         "raw_metadata", "header_index", "header_line"))
    return [tuple(e) for e in po], header, catalog.diagnostics


@pytest.mark.parametrize("seed", range(4))
def test_a_catalog_read_again_equals_a_read_from_scratch(tmp_path, monkeypatch, seed):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    again = []
    original = catalog_module._read_again

    def counted(*args):
        found = original(*args)
        again.append(found is not None)
        return found

    monkeypatch.setattr(catalog_module, "_read_again", counted)
    rng = random.Random(20261201 + seed)
    folder = tmp_path / "translations"
    folder.mkdir()
    path = folder / "fr.po"
    for _ in range(12):
        counter = [0]
        blocks = [HEADER] + [_block(rng, n) for n in range(rng.randint(0, 30))]
        counter[0] = len(blocks)
        for _ in range(25):
            _edit(rng, blocks, counter)
            text = rng.choice(["\n\n"] * 8 + ["\n", "\n\n\n"]).join(blocks) + "\n"
            data = text.encode("utf-8")
            form = rng.randrange(40)
            if form == 0:
                data = data.rstrip(b"\n")
            elif form == 1:
                data = b"\xef\xbb\xbf" + data
            elif form == 2 and data:
                at = rng.randrange(len(data))
                data = data[:at] + b"\xff" + data[at:]
            elif form == 3:
                data = b"\n" + data
            path.write_bytes(data)
            kept = read_catalog(path, use_cache=True, light=True)
            fresh = read_catalog(path, light=True)
            assert _state(kept) == _state(fresh), text
    assert again.count(True) > 20  # many edits were read again in part (the others broke the common shape)


def test_an_edit_reads_only_the_blocks_it_touched(tmp_path, monkeypatch):
    """One translation changed in a catalog of many entries: the reader sees a few blocks."""
    from aistack_bank.i18n import pofile

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    path = tmp_path / "translations" / "fr.po"
    path.parent.mkdir()
    entries = [f'#. Stem.\n#: bank/q{n}.yaml:3\nmsgctxt "q{n}.stem"\nmsgid "Question {n}"\nmsgstr "Quêstion {n}"' for n in range(500)]
    path.write_text("\n\n".join([HEADER] + entries) + "\n", encoding="utf-8")
    read_catalog(path, use_cache=True, light=True)
    read = []
    original = pofile.read_rows

    def counted(text, pos, line, where):
        found = original(text, pos, line, where)
        read.append(len(found[0]))
        return found

    monkeypatch.setattr(catalog_module, "read_rows", counted)
    entries[250] = entries[250].replace("Quêstion 250", "Question numéro 250\"\n\"sur deux lignes")
    entries.insert(100, '# added\nmsgctxt "new"\nmsgid "New"\nmsgstr ""')
    path.write_text("\n\n".join([HEADER] + entries) + "\n", encoding="utf-8")
    kept = read_catalog(path, use_cache=True, light=True)
    assert read and sum(read) < 160  # from the first change to the last, not the 502 blocks
    assert _state(kept) == _state(read_catalog(path, light=True))
    assert kept.active()["q250.stem"].msgstr == "Question numéro 250sur deux lignes"
    assert kept.active()["q400.stem"].linenum == read_catalog(path).active()["q400.stem"].linenum


@pytest.mark.parametrize("seed", range(2))
def test_a_kept_read_of_edits_on_a_base_equals_a_read_from_scratch_whatever_happens_to_its_files(tmp_path, monkeypatch, seed):
    """The latest read is kept as a base and the edits since (up to ``MAX_PATCHES``): random
    edits, with now and then the base's entries or bytes, or the store of edits, removed,
    truncated, swapped for an older one or replaced by garbage, give the read from scratch."""
    import shutil

    from aistack_bank.cache.store import cache_dir

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    rng = random.Random(7700 + seed)
    folder = tmp_path / "translations"
    folder.mkdir()
    path = folder / "fr.po"
    counter = [40]
    blocks = [HEADER] + [_block(rng, n) for n in range(40)]
    old_copies: dict = {}
    patched = 0
    for step in range(60):
        if rng.random() < 0.2:
            _edit(rng, blocks, counter)
        else:  # an entry of the common shape changed, added or removed
            counter[0] += 1
            i = rng.randrange(1, len(blocks) + 1)
            if i < len(blocks) and rng.random() < 0.7:
                blocks[i] = _block(rng, counter[0])
            elif i < len(blocks) and rng.random() < 0.5:
                del blocks[i]
            else:
                blocks.insert(i, _block(rng, counter[0]))
        path.write_text("\n\n".join(blocks) + "\n", encoding="utf-8")
        kept_files = sorted((cache_dir() / "files").glob("catalog-state-*")) if (cache_dir() / "files").is_dir() else []
        if kept_files and rng.random() < 0.25:
            target = rng.choice(kept_files)
            how = rng.randrange(4)
            if how == 0:
                target.unlink()
            elif how == 1:
                target.write_bytes(target.read_bytes()[: target.stat().st_size // 2])
            elif how == 2 and target in old_copies:
                target.write_bytes(old_copies[target])
            else:
                target.write_bytes(b"\x80\x05garbage")
        elif kept_files and rng.random() < 0.2:
            old_copies = {f: f.read_bytes() for f in kept_files}
        kept = read_catalog(path, use_cache=True, light=True)
        assert _state(kept) == _state(read_catalog(path, light=True)), step
        patched += kept.changes is not None and kept.changes.before is not None and kept.changes.before != kept.changes.token
    assert patched > 15  # many reads were made from a base with edits on it
    shutil.rmtree(cache_dir())
