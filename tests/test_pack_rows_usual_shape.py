"""A catalog's rows packed as columns (:func:`aistack_bank.i18n.pofile.pack_rows`) come back
as they were (:func:`~aistack_bank.i18n.pofile.unpack_rows`) for entries that are not of the
usual shape: each such row is kept whole, the others as their strings."""

import pytest

from aistack_bank.i18n import pofile

HEADER = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'

ENTRIES = {
    "obsolete with a reference": '#: bank/a.yaml:3\n#~ msgctxt "q1.stem"\n#~ msgid "Old"\n#~ msgstr "Vieux"\n',
    "two references": '#: bank/a.yaml:3 bank/b.yaml:4\nmsgctxt "q1.stem"\nmsgid "A"\nmsgstr "B"\n',
    "previous msgid": '#: bank/a.yaml:3\n#, fuzzy\n#| msgid "Z"\nmsgctxt "q1.stem"\nmsgid "A"\nmsgstr "B"\n',
    "plural": '#: bank/a.yaml:3\nmsgctxt "q1.n"\nmsgid "one"\nmsgid_plural "many"\nmsgstr[0] "un"\nmsgstr[1] "plusieurs"\n',
}
PACKED = {  # (of the usual shape too: their strings hold them)
    "two flags": '#: bank/a.yaml:3\n#, fuzzy, python-format\nmsgctxt "q1.stem"\nmsgid "A"\nmsgstr "B"\n',
    "translator comment": '# a note\n#. q1\n#: bank/a.yaml:3\nmsgctxt "q1.stem"\nmsgid "A"\nmsgstr "B"\n',
}
USUAL = '#. q2\n#: bank/a.yaml:9\nmsgctxt "q2.stem"\nmsgid "C"\nmsgstr "D"\n'


@pytest.mark.parametrize("name", sorted({**ENTRIES, **PACKED}))
def test_unusual_rows_come_back(name, tmp_path):
    text = HEADER + {**ENTRIES, **PACKED}[name] + "\n" + USUAL
    entries, diags = pofile.read_entries(text, tmp_path / "fr.po")
    assert not diags
    rows = pofile.light_rows(entries)
    packed = pofile.pack_rows(rows)
    assert pofile.unpack_rows(packed) == [tuple(row) for row in rows]
    other = packed[-1]
    assert (1 in other) == (name in ENTRIES) and 2 not in other  # (an unusual entry kept whole, the usual ones as their strings)
