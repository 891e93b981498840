"""The catalog reader's two ways through a text read the same entries.

`read_entries` reads a catalog of entries of the common shape block by block with one pattern
and sends any other text to the line-by-line reader (every error located). Random catalogs,
made of well-formed entries and of the shapes only the line reader takes (obsolete entries,
previous msgids, plurals, spaces, carriage returns, escapes, characters the rules refuse), must
give the same entries and diagnostics either way, and the common shape must take the fast way.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

from aistack_bank.i18n import pofile
from aistack_bank.i18n.pofile import read_entries, read_po

ROOT = Path(__file__).resolve().parent.parent
PATH = Path("translations/fr.po")

WORDS = ["Quelle", "mémoire", "GB", "3,5", "n’est", "«", "»", "{x}", "<b>", "a\\nb", "\\\"q\\\"", "\\t", "\\101", "\\x41",
         "\\x4", "\\1", "é", "x", " ", ""]
REFUSED = ["e\u0301", "\u200b", "\\x01", "\\777777777", "\\q", "\u00a0\u0301"]
COMMENTS = ["# Translator note", "#", "#. Stem of a question.", "#.", "#: bank/t/questions/q1.yaml:4",
            "#: a.yaml:1 b.yaml c:x", "#, fuzzy", "#, fuzzy, python-format", "#,", "#| msgid \"old\"", "#~ msgid \"gone\"",
            "#~| msgctxt \"old\"", "# \r", "#x"]


def _string(rng: random.Random) -> str:
    return "".join(rng.choice(REFUSED if rng.random() < 0.005 else WORDS) for _ in range(rng.randint(0, 4)))


def _strings(rng: random.Random, keyword: str) -> list[str]:
    lines = [f'{keyword} "{_string(rng)}"']
    lines += [f'"{_string(rng)}"' for _ in range(rng.choice([0, 0, 1, 3]))]
    return lines


def _entry(rng: random.Random, odd: bool) -> list[str]:
    """One entry; ``odd``: with one change that may take it out of the common shape."""
    lines = [rng.choice(COMMENTS[:8]) for _ in range(rng.randint(0, 3))]
    if rng.random() < 0.7:
        lines += _strings(rng, "msgctxt")
    lines += _strings(rng, "msgid")
    lines += _strings(rng, "msgstr")
    if odd:
        i = rng.randrange(len(lines) + 1)
        change = rng.randrange(9)
        if change == 0:
            lines.insert(i, rng.choice(COMMENTS))
        elif change == 1:
            lines.insert(i, rng.choice(["", " ", "\t", "\r", "<<<<<<< HEAD", "garbage"]))
        elif change == 2 and i < len(lines):
            lines[i] = lines[i] + rng.choice([" ", "\r", "\t", " x"])
        elif change == 3 and i < len(lines):
            lines[i] = rng.choice(["  ", "\t", "#~ "]) + lines[i]
        elif change == 4:
            lines += ['msgid_plural "files"', 'msgstr[0] "un"', 'msgstr[1] "des"']
        elif change == 5 and i < len(lines):
            lines[i] = lines[i].replace('"', "", 1)
        elif change == 6 and i < len(lines):
            lines[i] = lines[i].replace(" ", "\t", 1)
        elif change == 7:
            del lines[rng.randrange(len(lines))]
        else:
            lines.insert(i, f'"{_string(rng)}"')
    return lines


def _catalog(rng: random.Random) -> str:
    blocks = ['msgid ""\nmsgstr ""\n"Language: fr\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"']
    count = rng.randint(0, 6)
    odd = rng.randrange(count) if count and rng.random() < 0.7 else -1  # at most one odd entry
    for i in range(count):
        blocks.append("\n".join(_entry(rng, i == odd)))
    rng.shuffle(blocks)
    text = rng.choice(["\n\n", "\n", "\n\n\n"]).join(blocks)
    return rng.choice(["", "\n"]) + text + rng.choice(["\n", "", "\n\n"])


def _shape(entries):
    if entries is None:
        return None
    return [(e.line, e.obsolete, e.tcomment, e.comment, e.occurrences, e.flags, e.previous, e.fields, e.order,
             e.last, e.last_previous, e.has_msgstr) for e in entries]


def test_block_and_line_readers_agree_on_random_catalogs():
    rng = random.Random(20261201)
    fast = 0
    for _ in range(4000):
        text = _catalog(rng)
        by_line = pofile._read_entries_by_line(text, PATH)
        by_block = pofile._read_entries_by_block(text if text.endswith("\n") else text + "\n", PATH)
        if by_block is not None:
            fast += 1
            assert by_line[1] == [], text
            assert _shape(by_block) == _shape(by_line[0]), text
        entries, diags = read_entries(text, PATH)
        assert (_shape(entries), diags) == (_shape(by_line[0]), by_line[1]), text
    assert 500 < fast < 3500  # both ways were exercised


def test_the_bundled_catalogs_take_the_block_reader_and_read_the_same():
    for path in sorted((ROOT / "translations").glob("*.po*")):
        text = path.read_text(encoding="utf-8")
        by_block = pofile._read_entries_by_block(text, path)
        assert by_block is not None, path
        assert _shape(by_block) == _shape(pofile._read_entries_by_line(text, path)[0])
        po, diags = read_po(text, path)
        assert diags == [] and len(po) > 0


def test_a_refused_character_in_a_common_entry_is_located_by_the_line_reader():
    text = 'msgid ""\nmsgstr ""\n"Language: fr\\n"\n\nmsgctxt "q.stem"\nmsgid "Why?"\nmsgstr ""\n"ok "\n"Pourquoi\\x01 ?"\n'
    assert pofile._read_entries_by_block(text, PATH) is None
    entries, diags = read_entries(text, PATH)
    assert entries is None
    assert [(d.code, d.location.line) for d in diags] == [("E540", 9)]


def test_template_freshness_is_read_from_the_entries_wherever_the_header_is():
    from aistack_bank.i18n.catalog import read_catalog
    from aistack_bank.i18n.fields import TextField
    from aistack_bank.i18n.verify import template_is_current

    pot = ROOT / "translations" / "aistack.pot"
    catalog = read_catalog(pot, template=True)
    fields = [TextField(e.msgctxt, e.msgid, Path(e.occurrences[0][0]), int(e.occurrences[0][1]), tuple(e.comment.split("\n")) if e.comment else ())
              for e in catalog.po]
    ref = lambda field: field.path.as_posix()  # noqa: E731
    assert template_is_current(pot, fields, ref)

    import tempfile

    text = pot.read_text(encoding="utf-8")
    header, _, rest = text.partition("\n\n")
    first, _, others = rest.partition("\n\n")
    variants = {
        "header after the first entry, an obsolete entry at the end": (first + "\n\n" + header + "\n\n" + others + '\n#~ msgctxt "gone"\n#~ msgid "Gone"\n#~ msgstr ""\n', True),
        "a note changed": (text.replace("#. ", "#. Changed: ", 1), False),
        "an entry missing": (header + "\n\n" + others, False),
        "a reference's line changed": (re.sub(r"(#: \S+:)(\d+)", lambda m: m.group(1) + str(int(m.group(2)) + 1), text, count=1), False),
    }
    with tempfile.TemporaryDirectory() as folder:
        for name, (variant, current) in variants.items():
            path = Path(folder) / "aistack.pot"
            path.write_text(variant, encoding="utf-8")
            assert template_is_current(path, fields, ref) is current, name


def test_light_entries_hold_what_polib_entries_hold():
    """`bank validate` verifies catalogs from LightCatalog entries: every attribute the checks
    can read, the header as read and the catalog checks' findings are polib's, and a stored
    light catalog unpickles to the same."""
    import pickle

    from aistack_bank.i18n.catalog import Catalog, check_duplicates, check_header, check_one_context_per_field, check_plural_counts
    from aistack_bank.i18n.pofile import LightCatalog, LightEntry, catalog_of

    rng = random.Random(20261202)
    compared = 0
    for _ in range(2000):
        text = _catalog(rng)
        if read_entries(text, PATH)[0] is None:
            continue
        full = catalog_of(read_entries(text, PATH)[0])
        light = catalog_of(read_entries(text, PATH)[0], light=True)
        assert isinstance(light, LightCatalog) and len(light) == len(full)
        for catalog in (light, pickle.loads(pickle.dumps(light))):
            for a, b in zip(full, catalog):
                assert [getattr(a, name) for name in LightEntry.FIELDS] == [getattr(b, name) for name in LightEntry.FIELDS], text
            for name in ("header", "metadata", "metadata_is_fuzzy", "wrapwidth"):
                assert getattr(full, name) == getattr(catalog, name), (name, text)
            for name in ("header_lines", "raw_header", "raw_metadata", "header_index", "header_line"):
                assert getattr(full, name, None) == getattr(catalog, name, None), (name, text)
            assert [e.linenum for e in full.obsolete_entries()] == [e.linenum for e in catalog.obsolete_entries()]
            for check in (check_header, check_duplicates, check_one_context_per_field, check_plural_counts):
                assert check(Catalog(PATH, "fr", full, [])) == check(Catalog(PATH, "fr", catalog, [])), text
        compared += 1
    assert compared > 250  # catalogs the reader accepts (most random ones have an error)


def test_the_bundled_catalogs_verify_the_same_from_light_entries():
    from aistack_bank.i18n.catalog import read_catalog
    from aistack_bank.i18n.fields import bank_fields
    from aistack_bank.i18n.update import catalog_paths
    from aistack_bank.i18n.verify import verify_catalog
    from aistack_bank.load import read_library

    source = read_library(ROOT / "bank")
    fields = bank_fields(source)
    for path in catalog_paths(ROOT / "translations")[:1]:  # one language is enough: the same code reads each
        full, light = read_catalog(path), read_catalog(path, light=True)
        assert verify_catalog(source, fields, light) == verify_catalog(source, fields, full)
        assert light.active().keys() == full.active().keys()


NOTES = ["#. Stem of a question.", "#. ", "#.  two spaces", "#.", "#.x", "#. « Note » é", "#. a\tb"]
REFERENCES = ["#: bank/t/q1.yaml:4", "#: bank/t/q1.yaml:4 bank/t/q2.yaml:5", "#: bank/t/é.yaml:4", "#: a:b:4", "#: bank/t/q1.yaml", "#:  x.yaml:3",
              "#: x.yaml:3 ", "#: x.yaml:٣"]


def _bank_entry(rng: random.Random) -> list[str]:
    """An entry of the shape a bank's catalogs have (notes, one reference, maybe fuzzy), now and then not quite."""
    lines = [rng.choice(NOTES[:2] if rng.random() < 0.8 else NOTES) for _ in range(rng.choice([0, 1, 1, 2, 3]))]
    lines.append(REFERENCES[0] if rng.random() < 0.8 else rng.choice(REFERENCES))
    if rng.random() < 0.2:
        lines.append(rng.choice(["#, fuzzy", "#, fuzzy", "#, python-format", "#,  fuzzy"]))
    if rng.random() < 0.1:
        rng.shuffle(lines)
    def strings(keyword: str) -> list[str]:
        if rng.random() < 0.1:
            return _strings(rng, keyword)
        # without the escapes of a refused character, with a combining accent that starts a
        # string (allowed: each string is NFC on its own) and now and then one that is not NFC
        words = [w for w in WORDS if w not in ("\\x4", "\\1")] + ["\u0301", "x\u0301"] + (["e\u0301", "\u200b"] if rng.random() < 0.05 else [])
        return [f'{keyword} "{"".join(rng.choice(words) for _ in range(rng.randint(0, 4)))}"'] + [
            f'"{"".join(rng.choice(words) for _ in range(rng.randint(1, 4)))}"' for _ in range(rng.choice([0, 0, 1, 3]))]

    if rng.random() < 0.95:
        lines += strings("msgctxt")
    return lines + strings("msgid") + strings("msgstr")


def _bank_catalog(rng: random.Random) -> str:
    entries = [_bank_entry(rng) if rng.random() < 0.9 else _entry(rng, rng.random() < 0.3) for _ in range(rng.randint(0, 8))]
    blocks = ['# Header\nmsgid ""\nmsgstr ""\n"Language: fr\\n"'] + ["\n".join(lines) for lines in entries]
    return rng.choice(["", "\n"]) + rng.choice(["\n\n", "\n\n\n"]).join(blocks) + rng.choice(["\n", ""])


def test_the_row_reader_reads_the_rows_of_the_entry_reader():
    """read_rows (no entry object per block of the bank's shape) gives the rows light_rows makes
    of read_blocks' entries, the same block starts and last line, and refuses what it refuses;
    read_light_rows gives light_rows of read_entries' entries, or the same errors."""
    from aistack_bank.i18n.pofile import light_rows, read_blocks, read_light_rows, read_rows

    rng = random.Random(20261203)
    read = common = 0
    for n in range(2000):
        text = _bank_catalog(rng) if n % 3 else _catalog(rng)
        full = text if text.endswith("\n") else text + "\n"
        pos = len(full) - len(full.lstrip("\n"))
        blocks = read_blocks(full, pos, pos + 1, PATH)
        rows = read_rows(full, pos, pos + 1, PATH)
        if blocks is None:
            assert rows is None, text
        else:
            entries, starts, line = blocks
            assert rows == (light_rows(entries), starts, line), text
            read += 1
            common += sum(1 for start in starts if pofile._COMMON_BLOCK.match(full, start))
        entries, diags = read_entries(text, PATH)
        assert read_light_rows(text, PATH) == (None if entries is None else light_rows(entries), diags), text
    assert read > 550 and common > 600  # both readers took many catalogs, with many entries of the bank's shape
