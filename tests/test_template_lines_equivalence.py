"""The template's lean read (`verify._template_read_lean`) reads each piece with
`pofile.read_template_rows(..., lines=False)`: the piece's newlines are not counted (nothing of
that stream reads a line), the line after the piece is the line given. The items and verdicts
must be those of the read that counts them (spelled out below): on random templates of the
bank's shape and every other, hostile ones among them, whole and from a block's start; on
random templates compared with random fields (with one change or none), read a few bytes at a
time; and on the bundled bank's and `examples/every-kind`'s templates and catalogs.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from test_catalog_quick_pattern_equivalence import _hostile
from test_catalog_read_text import _damaged, _texts
from test_template_lean_read import _fields, _old_template_is_current, _template

from aistack_bank.i18n import pofile, stream, verify

ROOT = Path(__file__).resolve().parents[1]
PATH = Path("translations/aistack.pot")


def _old_template_read_lean(pot: Path, fields, ref) -> bool | None:
    """_template_read_lean as it was: each piece read by read_template_rows, its lines counted."""
    return verify._template_pieces(pot, lambda s: verify._template_compared(s.pieces(pofile.read_template_rows), fields, ref))


def _same(text: str, line: int) -> object:
    counted = pofile.read_template_rows(text, line, PATH)
    found = pofile.read_template_rows(text, line, PATH, lines=False)
    if counted is None:
        assert found is None, text
        return None
    assert counted[1] == line + text.count("\n")
    assert found is not None and found[0] == counted[0] and found[1] == line, text
    return found


@pytest.mark.parametrize("seed", range(2))
def test_the_items_are_those_of_the_read_that_counts_lines(seed):
    rng = random.Random(20261717 + seed)
    read = refused = cut = 0
    for text in _texts(rng):
        for text in (text, _damaged(rng, text.encode("utf-8", "surrogatepass")).decode("utf-8", "replace"), _hostile(rng, text)):
            if not text.endswith("\n"):
                text += "\n"
            pos = len(text) - len(text.lstrip("\n"))
            found = _same(text[pos:], pos + 1)
            read += found is not None
            refused += found is None
            starts = [i + 2 for i in range(pos, len(text) - 2) if text.startswith("\n\n#", i)]
            if starts:  # (from a block's start)
                _same(text[rng.choice(starts):], rng.randint(1, 50))
                cut += 1
    assert read > 500 and refused > 500 and cut > 500


def test_the_lean_verdict_is_that_of_the_read_that_counts_lines(tmp_path, monkeypatch):
    rng = random.Random(1717)
    ref = lambda field: field.path.as_posix()
    pot = tmp_path / "translations" / "aistack.pot"
    pot.parent.mkdir()
    seen = {True: 0, False: 0, None: 0}
    for size in (64, 7, 1 << 20):
        monkeypatch.setattr(stream, "PIECE_BYTES", size)  # several pieces per template, or one
        for _ in range(150):
            fields = _fields(rng)
            text, _ = _template(rng, fields)
            pot.write_text(text, encoding="utf-8")
            found = verify._template_read_lean(pot, iter(fields), ref)
            assert found is _old_template_read_lean(pot, iter(fields), ref), text
            if found is not None:
                assert found is _old_template_is_current(pot, fields, ref), text
            seen[found] += 1
    assert all(count > 20 for count in seen.values()), seen


def test_the_bundled_templates_and_catalogs_are_read_as_before():
    paths = [path for root in (ROOT / "translations", ROOT / "examples" / "every-kind" / "translations")
             for path in sorted(root.glob("*.po*"))]
    assert len(paths) >= 3
    read = 0
    for path in paths:
        text = path.read_text(encoding="utf-8")
        pos = len(text) - len(text.lstrip("\n"))
        read += _same(text[pos:], pos + 1) is not None
    assert read >= 2
