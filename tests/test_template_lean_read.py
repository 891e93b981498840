"""The template's freshness (W504), compared without making the template's rows, finds what the rows found.

`bank validate` compares the template with the bank's fields: each entry's context, English,
notes and reference. The template is first read by `pofile.read_template_rows`, which takes
of each block of the bank's shape only those five strings (and gives up on any other block,
an escape or a second header: the rows of `read_rows` are then compared, as before). On random
templates made from random fields, with one change or none (a note, a reference's line, an
entry missing, added or moved, the header moved, doubled or missing, a translator comment, an
obsolete entry, an escape, a fuzzy flag, quotes and backslashes written escaped, a character the rules refuse, text that is not NFC,
wrapped strings, blank lines, no final newline), the verdict is the one of the code before,
spelled out below, read whole and a piece at a time.
"""

from __future__ import annotations

import random
from pathlib import Path

from aistack_bank.i18n import stream, verify
from aistack_bank.i18n.catalog import MAX_CATALOG_BYTES
from aistack_bank.i18n.fields import TextField
from aistack_bank.i18n.pofile import read_light_rows
from aistack_bank.i18n.stream import BlockStream, NotStreamable
from aistack_bank.safety import UnsafeFile, read_regular


def _old_template_is_current(pot: Path, fields: list[TextField], ref) -> bool:
    """``template_is_current`` before: the rows of the whole read compared."""
    try:
        rows, _ = read_light_rows(read_regular(pot, MAX_CATALOG_BYTES).decode("utf-8"), pot)
    except (UnsafeFile, UnicodeError):
        return False
    if rows is None:
        return False
    rows = [r for r in rows if not r[12]]
    header = next((i for i, r in enumerate(rows) if r[1] == "" and r[0] is None), None)
    if header is not None:
        del rows[header]
    if len(rows) != len(fields):
        return False
    refs: dict = {}
    for row, field in zip(rows, fields):
        if row[0] != field.key or row[1] != field.text or row[6] != "\n".join(field.notes):
            return False
        if len(row[5]) != 1:
            return False
        if field.path not in refs:
            refs[field.path] = ref(field)
        if row[5][0] != (refs[field.path], str(field.line)):
            return False
    return True


def _old_template_streamed(pot: Path, ref, held: list[TextField]) -> bool | None:
    """``_template_streamed`` before (the fields held): the rows of each piece compared."""
    try:
        stream_ = BlockStream(pot, MAX_CATALOG_BYTES)
    except NotStreamable:
        return None
    refs: dict = {}
    with stream_:
        fields = iter(held)
        try:
            for piece in stream_.pieces():
                for entry in piece:
                    field = next(fields, None)
                    if field is None or (entry.msgctxt, entry.msgid, entry.comment) != (field.key, field.text, "\n".join(field.notes)):
                        return False
                    if field.path not in refs:
                        refs[field.path] = ref(field)
                    if entry.occurrences != [(refs[field.path], str(field.line))]:
                        return False
        except NotStreamable:
            return None
        return next(fields, None) is None


WORDS = ["What", "is", "the", "mémoire", "GB", "3.5", "«", "»", "{x}", "<b>", "N×N", "a", "é", " ", "(", ")", "?", ":", '"', "\\"]
HEADER = 'msgid ""\nmsgstr ""\n"Project-Id-Version: aistack-bank\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"'


def _text(rng: random.Random) -> str:
    return "".join(rng.choice(WORDS) for _ in range(rng.randint(1, 8)))


def _fields(rng: random.Random) -> list[TextField]:
    fields = []
    for i in range(rng.randint(0, 12)):
        notes = tuple(_text(rng) for _ in range(rng.choice([0, 1, 1, 2])))
        fields.append(TextField(f"q{i:03d}.{rng.choice(['stem', 'option.a', 'feedback'])}", _text(rng), Path(f"bank/t/questions/q{i % 4}.yaml"),
                                rng.randint(1, 40), notes))
    return fields


def _escaped(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


def _quoted(keyword: str, text: str, rng: random.Random) -> list[str]:
    if len(text) > 6 and rng.random() < 0.3:  # wrapped as msgcat wraps a long string
        cut = rng.randrange(1, len(text))
        return [f'{keyword} ""', f'"{_escaped(text[:cut])}"', f'"{_escaped(text[cut:])}"']
    return [f'{keyword} "{_escaped(text)}"']


def _block(field: TextField, rng: random.Random) -> list[str]:
    lines = [f"#. {note}" for note in field.notes]
    lines.append(f"#: {field.path.as_posix()}:{field.line}")
    lines += _quoted("msgctxt", field.key, rng) + _quoted("msgid", field.text, rng) + ['msgstr ""']
    return lines


def _template(rng: random.Random, fields: list[TextField]) -> tuple[str, str]:
    blocks = [_block(field, rng) for field in fields]
    header_at = 0
    change = rng.randrange(20)
    name = "none"
    if blocks and change == 0:
        name = "note changed"
        b = rng.choice(blocks)
        b.insert(0, "#. Changed")
    elif blocks and change == 1:
        name = "reference line"
        b = rng.choice(blocks)
        i = next(i for i, ln in enumerate(b) if ln.startswith("#: "))
        b[i] = b[i].rsplit(":", 1)[0] + ":999"
    elif blocks and change == 2:
        name = "entry missing"
        del blocks[rng.randrange(len(blocks))]
    elif change == 3:
        name = "entry added"
        blocks.insert(rng.randrange(len(blocks) + 1), ['#: bank/t/x.yaml:1', 'msgctxt "extra"', 'msgid "Extra"', 'msgstr ""'])
    elif len(blocks) > 1 and change == 4:
        name = "entries swapped"
        i = rng.randrange(len(blocks) - 1)
        blocks[i], blocks[i + 1] = blocks[i + 1], blocks[i]
    elif change == 5:
        name = "header moved"
        header_at = rng.randrange(len(blocks) + 1)
    elif change == 6:
        name = "header doubled"
        blocks.insert(rng.randrange(len(blocks) + 1), HEADER.split("\n"))
    elif change == 7:
        name = "no header"
        header_at = -1
    elif blocks and change == 8:
        name = "translator comment"
        rng.choice(blocks).insert(0, "# a translator's note")
    elif change == 9:
        name = "obsolete entry"
        blocks.insert(rng.randrange(len(blocks) + 1), ['#~ msgctxt "gone"', '#~ msgid "Gone"', '#~ msgstr ""'])
    elif blocks and change == 10:
        name = "escape"
        b = rng.choice(blocks)
        i = next(i for i, ln in enumerate(b) if ln.startswith("msgid"))
        b[i] = b[i][:-1] + '\\"q\\""'
    elif blocks and change == 11:
        name = "fuzzy"
        b = rng.choice(blocks)
        i = next(i for i, ln in enumerate(b) if ln.startswith("msgctxt"))
        b.insert(i, "#, fuzzy")
    elif blocks and change == 12:
        name = "refused character"
        b = rng.choice(blocks)
        i = next(i for i, ln in enumerate(b) if ln.startswith("msgid"))
        b[i] = b[i][:-1] + rng.choice(["\u200b", "e\u0301", "\x01"]) + '"'
    elif blocks and change == 13:
        name = "two references"
        b = rng.choice(blocks)
        i = next(i for i, ln in enumerate(b) if ln.startswith("#: "))
        b[i] += " other.yaml:2"
    if header_at >= 0:
        blocks.insert(header_at, HEADER.split("\n"))
    text = rng.choice(["\n\n", "\n\n", "\n\n\n"]).join("\n".join(b) for b in blocks)
    return rng.choice(["", "", "\n\n"]) + text + rng.choice(["\n", "\n", "", "\n\n"]), name


def test_the_lean_template_read_gives_the_verdict_of_the_rows(tmp_path, monkeypatch):
    rng = random.Random(7700)
    ref = lambda field: field.path.as_posix()
    pot = tmp_path / "translations" / "aistack.pot"
    pot.parent.mkdir()
    monkeypatch.setattr(stream, "PIECE_BYTES", 64)  # several pieces per template
    lean = fell_back = fresh = 0
    names = set()
    for _ in range(300):
        fields = _fields(rng)
        text, name = _template(rng, fields)
        pot.write_text(text, encoding="utf-8")
        expected = _old_template_is_current(pot, fields, ref)
        assert verify.template_is_current(pot, fields, ref) is expected, (name, text)
        old_streamed = _old_template_streamed(pot, ref, fields)
        new_streamed = verify._template_streamed(None, pot, ref, fields)
        assert new_streamed == old_streamed, (name, text)
        if old_streamed is not None:
            assert old_streamed is expected, (name, text)
        found = verify._template_read_lean(pot, iter(fields), ref)
        if found is None:
            fell_back += 1
        else:
            assert found is expected, (name, text)
            lean += 1
        fresh += expected
        names.add(name)
    assert lean > 180 and fell_back > 30 and 80 < fresh < 270 and len(names) == 15  # (each change, and none)


def test_a_second_header_sends_the_template_to_the_rows_an_escape_is_read_there(tmp_path):
    ref = lambda field: field.path.as_posix()
    field = TextField("q001.stem", "What?", Path("bank/t/questions/q1.yaml"), 3, ("Stem.",))
    quoted = TextField("q001.stem", 'What "is"?', Path("bank/t/questions/q1.yaml"), 3, ("Stem.",))
    block = '#. Stem.\n#: bank/t/questions/q1.yaml:3\nmsgctxt "q001.stem"\nmsgid "What?"\nmsgstr ""\n'
    pot = tmp_path / "aistack.pot"
    for text, fields, lean in ((HEADER + "\n\n" + block, [field], True), (block + "\n" + HEADER + "\n", [field], True),
                               (HEADER + "\n\n" + HEADER + "\n\n" + block, [field], None),
                               (HEADER + "\n\n" + block.replace("What?", 'What \\"is\\"?'), [quoted], True),
                               (HEADER + "\n\n" + block.replace("What?", 'What \\"is\\"?'), [field], False),
                               (HEADER + "\n\n" + block.replace("What?", 'What \\qis?'), [field], None),  # an escape the reader refuses
                               (HEADER + "\n\n# note\n" + block, [field], None)):
        pot.write_text(text, encoding="utf-8")
        found = verify._template_read_lean(pot, iter(fields), ref)
        assert found is lean, text
        expected = _old_template_is_current(pot, fields, ref)
        assert verify.template_is_current(pot, fields, ref) is expected, text
        assert lean is None or lean is expected, text
