"""The catalog reader against GNU gettext: it accepts exactly the catalogs `msgfmt -c` accepts.

Each case is a small catalog as translators' tools write them (or break them). `msgfmt -c`
decides whether it is valid; our reader, with the project's own conventions left aside (E530:
one msgctxt per field), must agree, and say where the problem is when it refuses.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from aistack_bank.i18n.catalog import read_catalog, render_catalog

MSGFMT = shutil.which("msgfmt")
MSGCAT = shutil.which("msgcat")
needs_gettext = pytest.mark.skipif(MSGFMT is None and not os.environ.get("CI"), reason="GNU gettext is not installed")

HEADER = (
    'msgid ""\nmsgstr ""\n"Project-Id-Version: aistack-bank\\n"\n"PO-Revision-Date: 2026-11-29 12:00+0000\\n"\n'
    '"Last-Translator: Zoë <zoe@example.org>\\n"\n"Language-Team: Polish <https://hosted.weblate.org/projects/'
    'aistack-bank/question-bank-translations/pl/>\\n"\n"Language: pl\\n"\n"MIME-Version: 1.0\\n"\n'
    '"Content-Type: text/plain; charset=UTF-8\\n"\n"Content-Transfer-Encoding: 8bit\\n"\n'
    '"Plural-Forms: nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<12 || n%100>14) ? 1 : 2);\\n"\n'
    '"X-Generator: Weblate 5.8.4\\n"\n'
)
ONE = 'msgctxt "q001.stem"\nmsgid "Why?"\nmsgstr "Dlaczego?"\n'
PLURAL3 = 'msgid "one file"\nmsgid_plural "%d files"\nmsgstr[0] "plik"\nmsgstr[1] "pliki"\nmsgstr[2] "plików"\n'

# name: (catalog text, accepted by msgfmt -c)
CASES = {
    "basic": (HEADER + "\n" + ONE, True),
    "header not first": (ONE + "\n" + HEADER + "\n" + 'msgid "b"\nmsgstr "c"\n', True),
    "msgctxt reused with other msgids": (HEADER + "\n" + ONE + "\n" + 'msgctxt "q001.stem"\nmsgid "How?"\nmsgstr "Jak?"\n', True),
    "same msgid in two contexts": (HEADER + '\nmsgctxt "a"\nmsgid "x"\nmsgstr "y"\n\nmsgctxt "b"\nmsgid "x"\nmsgstr "y"\n', True),
    "plural with nplurals forms": (HEADER + "\n" + PLURAL3, True),
    "obsolete plural with fewer forms": (HEADER + '\n#~ msgid "a"\n#~ msgid_plural "b"\n#~ msgstr[0] "c"\n', True),
    "previous msgid_plural continued": (HEADER + '\n#, fuzzy\n#| msgid "old"\n#| msgid_plural ""\n#| "olds"\n' + PLURAL3, True),
    "previous msgid after a tab": (HEADER + '\n#, fuzzy\n#|\tmsgid "Why"\nmsgid "Why?"\nmsgstr "Dlaczego?"\n', True),
    "escapes": (HEADER + '\nmsgid "a\\tb \\"c\\" \\\\ d\\n"\nmsgstr "e\\tf \\"g\\" \\\\ h\\n"\n', True),
    "fuzzy header": ("#, fuzzy\n" + HEADER + "\n" + ONE, True),
    "comments of every kind": (HEADER + "\n# translator\n#. extracted\n#: bank/topic.yaml:4\n#, fuzzy\n" + ONE, True),
    "crlf line ends": ((HEADER + "\n" + ONE).replace("\n", "\r\n"), True),
    "duplicate msgid": (HEADER + '\nmsgid "a"\nmsgstr "b"\n\nmsgid "a"\nmsgstr "c"\n', False),
    "duplicate context and msgid": (HEADER + "\n" + ONE + "\n" + ONE, False),
    "obsolete duplicate of an active entry": (HEADER + "\n" + ONE + "\n" + "".join("#~ " + line + "\n" for line in ONE.splitlines()), False),
    "too many plural forms": (HEADER + "\n" + PLURAL3.replace('msgstr[2] "plików"\n', 'msgstr[2] "plików"\nmsgstr[3] "x"\n'), False),
    "too few plural forms": (HEADER + "\n" + PLURAL3.replace('msgstr[2] "plików"\n', ""), False),
    "fuzzy plural with fewer forms": (HEADER + "\n#, fuzzy\n" + PLURAL3.replace('msgstr[2] "plików"\n', ""), True),
    "untranslated plural with fewer forms": (HEADER + '\nmsgid "a"\nmsgid_plural "b"\nmsgstr[0] ""\nmsgstr[1] "x"\n', True),
    "lone empty comment lines": ("#\n" + HEADER + "\n#\n#.\n" + ONE, True),
    "plural index gap": (HEADER + "\n" + PLURAL3.replace("msgstr[1]", "msgstr[3]"), False),
    "missing msgstr": (HEADER + '\nmsgid "a"\n', False),
    "unterminated string": (HEADER + '\nmsgid "a\nmsgstr "b"\n', False),
    "invalid escape": (HEADER + '\nmsgid "a\\qb"\nmsgstr "b"\n', False),
    "question-mark escape": (HEADER + '\nmsgid "a\\?"\nmsgstr "b"\n', False),
    "control characters and hex escapes": (HEADER + '\nmsgid "a\\001b\\x02c\\td"\nmsgstr ""\n', True),
    "msgctxt without msgid": (HEADER + '\nmsgctxt "a"\nmsgstr "b"\n', False),
    "unknown keyword": (HEADER + '\nmsgid "a"\nmsgtr "b"\n', False),
    "conflict marker": (HEADER + "\n<<<<<<< HEAD\n" + ONE + "=======\n" + ONE + ">>>>>>> theirs\n", False),
    "continuation without keyword": ('"a"\n' + HEADER, False),
    "continuation after a blank line": (HEADER + '\n"X-Poedit-Basepath: .\\n"\n\n' + ONE, True),
    "blank line inside an entry": (HEADER + '\nmsgid "a"\n\nmsgstr "b"\n', True),
    "text after the closing quote": (HEADER + '\nmsgid "a" x\nmsgstr "b"\n', False),
    "msgid_plural before msgid": (HEADER + '\nmsgid_plural "a"\nmsgid "b"\nmsgstr[0] "c"\n', False),
}


def _ours(text: str, tmp_path: Path) -> list:
    path = tmp_path / "pl.po"
    path.write_bytes(text.encode("utf-8"))
    catalog = read_catalog(path, template=True)
    return [d for d in catalog.diagnostics if d.code not in ("E530", "E540")]


@needs_gettext
@pytest.mark.parametrize("name", sorted(CASES))
def test_reader_accepts_what_msgfmt_accepts(name, tmp_path):
    text, expected = CASES[name]
    path = tmp_path / "gnu.po"
    path.write_bytes(text.encode("utf-8"))
    gnu = subprocess.run([MSGFMT, "-c", "-o", os.devnull, str(path)], capture_output=True, text=True, timeout=120)
    assert (gnu.returncode == 0) == expected, gnu.stderr  # the case is labelled as GNU decides
    diags = _ours(text, tmp_path)
    assert (not diags) == expected, [str(d) for d in diags]
    assert all(d.location is not None and d.location.line for d in diags), [str(d) for d in diags]


def _read(text: str, tmp_path: Path, name: str = "pl.po"):
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8"))
    return read_catalog(path, template=True)


def test_previous_msgid_plural_keeps_its_continuation_lines(tmp_path):
    text = HEADER + '\n#, fuzzy\n#| msgid "old file"\n#| msgid_plural ""\n#| "old "\n#| "files"\n' + PLURAL3
    entry = _read(text, tmp_path).po[0]
    assert entry.previous_msgid == "old file"
    assert entry.previous_msgid_plural == "old files"
    assert '#| msgid_plural "old files"\n' in render_catalog(_read(text, tmp_path).po).decode()


def test_previous_lines_indented_with_a_tab_are_kept(tmp_path):
    text = HEADER + '\n#, fuzzy\n#|\tmsgctxt "q001.stem"\n#|\tmsgid "Why"\n' + ONE
    entry = _read(text, tmp_path).po[0]
    assert (entry.previous_msgctxt, entry.previous_msgid) == ("q001.stem", "Why")


def test_header_found_when_it_is_not_the_first_entry(tmp_path):
    catalog = _read(ONE + "\n" + HEADER, tmp_path)
    assert not catalog.diagnostics, [str(d) for d in catalog.diagnostics]
    assert catalog.po.metadata["Language"] == "pl" and catalog.po.metadata["X-Generator"] == "Weblate 5.8.4"
    assert [e.msgid for e in catalog.po] == ["Why?"]


def test_one_msgctxt_per_field_is_the_projects_own_check(tmp_path):
    text = HEADER + "\n" + ONE + "\n" + 'msgctxt "q001.stem"\nmsgid "How?"\nmsgstr "Jak?"\n'
    diags = _read(text, tmp_path).diagnostics
    line = text.count("\n", 0, text.index('msgctxt "q001.stem"\nmsgid "How?"')) + 1
    assert [(d.code, d.location.line) for d in diags] == [("E530", line)]


def test_plural_count_disagreeing_with_nplurals_is_located(tmp_path):
    text = HEADER + "\n" + PLURAL3.replace('msgstr[2] "plików"\n', "")
    diags = _read(text, tmp_path).diagnostics
    line = text.count("\n", 0, text.index("msgstr[0]")) + 1
    assert [(d.code, d.location.line) for d in diags] == [("E531", line)]
    assert "2 plural forms" in diags[0].message and "nplurals=3" in diags[0].message


@needs_gettext
@pytest.mark.parametrize("name", ["lone empty comment lines", "header not first", "previous msgid_plural continued", "previous msgid after a tab", "msgctxt reused with other msgids"])
def test_what_gnu_reads_we_write_back_as_msgcat_does(name, tmp_path):
    path = tmp_path / "pl.po"
    path.write_bytes(CASES[name][0].encode("utf-8"))
    gnu = subprocess.run([MSGCAT, str(path)], capture_output=True, check=True, timeout=120).stdout
    assert render_catalog(read_catalog(path, template=True).po) == gnu
