"""A finding located in a catalog does not split the catalog's text into a string per line.

A catalog finding is reported at its entry's msgstr line (`locations.msgstr_location`), found
in the catalog's lines read on first use (`Catalog.file_lines`). Those lines were the whole
text split into a list of strings: for the 44 MB `fr.po` of a 10 000-question bank, about
150 MB more at the peak of the worker that verifies it, for one finding. They are now the
file's bytes, each line decoded with its window's (`catalog.BytesLines`): the same lines as the
text split (random files with line ends of every kind, bytes that are not UTF-8 and a
byte-order mark, windows of every size), and a finding located near the end of a catalog of
20 000 entries holds little more than the file's bytes.
"""

from __future__ import annotations

import random
import tracemalloc

import pytest

from aistack_bank.i18n import catalog as catalog_module
from aistack_bank.i18n.catalog import BytesLines, read_catalog
from aistack_bank.i18n.locations import msgstr_location, msgstr_offset_location

PIECES = [b"a", b"bc", b" ", b"\xc3\xa9", b"\n", b"\n", b"\r", b"\r\n", b"\xe2\x82", b"\xff", b"\xef\xbb\xbf", b"\xf0\x9f\x98\x80", b'"', b"\\n"]


def _split(path) -> list[str]:
    """The catalog's lines as they were read before: the whole text, split."""
    return path.read_text(encoding="utf-8", errors="replace").split("\n")


@pytest.mark.parametrize("seed", range(4))
def test_the_lines_are_those_of_the_text_split(tmp_path, monkeypatch, seed):
    rng = random.Random(seed)
    path = tmp_path / "fr.po"
    for _ in range(60):
        monkeypatch.setattr(BytesLines, "WINDOW", rng.choice([1, 2, 3, 7, 16, 1 << 16]))
        path.write_bytes(b"".join(rng.choice(PIECES) for _ in range(rng.choice([0, 1, 5, 40, 400]))))
        expected = _split(path)
        lines = BytesLines(path.read_bytes())
        assert len(lines) == len(expected)
        order = list(range(len(expected)))
        rng.shuffle(order)
        for i in order:
            assert lines[i] == expected[i]
        assert lines[-1] == expected[-1] and lines[-len(expected)] == expected[0]
        with pytest.raises(IndexError):
            lines[len(expected)]
        with pytest.raises(IndexError):
            lines[-len(expected) - 1]


def _large_catalog(path, n: int) -> None:
    head = 'msgid ""\nmsgstr ""\n"Language: fr\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Plural-Forms: nplurals=2; plural=(n > 1);\\n"\n'
    blocks = [f'#: bank/t/q{i:05d}.yaml:3\nmsgctxt "q{i:05d}.stem"\nmsgid ""\n"What is {i} plus one, written with its digits?"\nmsgstr ""\n"Combien font {i} plus un, écrit en chiffres ?"\n'
              for i in range(n)]
    path.write_text(head + "\n" + "\n".join(blocks), encoding="utf-8")


def test_a_finding_located_near_the_end_of_a_large_catalog_holds_its_bytes_not_its_lines(tmp_path):
    path = tmp_path / "fr.po"
    _large_catalog(path, 20_000)
    catalog = read_catalog(path, light=True)
    assert not catalog.diagnostics
    entry = catalog.active()["q19990.stem"]
    size = path.stat().st_size
    tracemalloc.start()
    try:
        where = msgstr_location(catalog, entry)
        column = msgstr_offset_location(catalog, entry, 10)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    lines = _split(path)
    assert lines[where.line - 1] == 'msgstr ""' and lines[where.line - 4] == 'msgctxt "q19990.stem"'
    assert (column.line, column.column) == (where.line + 1, 12)
    # the text split took about four times the file's size (the text, then a string per line)
    assert peak < 1.5 * size, (peak, size)
    assert isinstance(catalog.file_lines(), catalog_module.BytesLines) and catalog.file_lines().held() < len(lines) // 20
