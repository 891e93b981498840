"""`bank i18n compile` compiles what GNU msgfmt compiles: an entry translated in plural forms (which
the bank's texts never have, and `bank validate` warns of, W505) is compiled with its plural
msgid and every form, as msgfmt compiles it, not left out without a word. Compared with msgfmt by
what `msgunfmt` reads back from each .mo file (msgfmt's has a hash table ours has not)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import polib
from hypothesis import given, settings, strategies as st

HEADER = '''msgid ""
msgstr ""
"Language: fr\\n"
"MIME-Version: 1.0\\n"
"Content-Type: text/plain; charset=UTF-8\\n"
"Content-Transfer-Encoding: 8bit\\n"
"Plural-Forms: nplurals=2; plural=(n > 1);\\n"
'''

ENTRIES = '''
msgctxt "q1.stem"
msgid "Hello"
msgstr "Bonjour"

msgid "no context"
msgstr "sans contexte"

msgctxt "p.full"
msgid "one file"
msgid_plural "%d files"
msgstr[0] "un fichier"
msgstr[1] "%d fichiers"

msgctxt "p.first"
msgid "one dog"
msgid_plural "%d dogs"
msgstr[0] "un chien"
msgstr[1] ""

msgctxt "p.second"
msgid "one cat"
msgid_plural "%d cats"
msgstr[0] ""
msgstr[1] "%d chats"

#, fuzzy
msgctxt "p.fuzzy"
msgid "one x"
msgid_plural "%d x"
msgstr[0] "un x"
msgstr[1] "%d x"

msgid "loose"
msgid_plural "looses"
msgstr[0] "l"
msgstr[1] "ls"

#~ msgctxt "p.obs"
#~ msgid "one y"
#~ msgid_plural "%d y"
#~ msgstr[0] "un y"
#~ msgstr[1] "%d y"
'''


def _tool(name: str) -> str:
    tool = shutil.which(name)
    assert tool, f"GNU gettext's {name} is required for this test (Debian package gettext)"
    return tool


def _unformatted(mo: Path) -> str:
    result = subprocess.run([_tool("msgunfmt"), str(mo)], capture_output=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout.decode("utf-8")


def _both(folder: Path, text: str) -> tuple[str, str]:
    """What msgunfmt reads of msgfmt's .mo of the catalog ``text`` and of ours."""
    from aistack_bank.i18n.catalog import compile_catalog, read_catalog

    po = folder / "fr.po"
    po.write_text(text, encoding="utf-8")
    result = subprocess.run([_tool("msgfmt"), "-o", str(folder / "gnu.mo"), str(po)], capture_output=True, timeout=60)
    assert result.returncode == 0, result.stderr
    catalog = read_catalog(po)
    assert not catalog.diagnostics
    (folder / "ours.mo").write_bytes(compile_catalog(catalog.po))
    return _unformatted(folder / "gnu.mo"), _unformatted(folder / "ours.mo")


def test_plural_entries_are_compiled_as_msgfmt_compiles_them(tmp_path):
    gnu, ours = _both(tmp_path, HEADER + ENTRIES)
    assert ours == gnu
    back = {(e.msgctxt, e.msgid): e for e in polib.pofile(ours)}
    assert set(back) == {("q1.stem", "Hello"), (None, "no context"), ("p.full", "one file"), ("p.first", "one dog"), (None, "loose")}
    assert back[("p.full", "one file")].msgstr_plural == {0: "un fichier", 1: "%d fichiers"}
    assert back[("p.first", "one dog")].msgstr_plural == {0: "un chien", 1: ""}  # msgstr[0] makes it translated, as for msgfmt


def test_an_empty_context_is_a_context(tmp_path):
    """``msgctxt ""`` is a context of its own, apart from no context: msgfmt keys the entry
    ``"\\x04" + msgid``, and ``pgettext("", msgid)`` finds it. Keyed as if it had no context,
    it would collide with the entry without one and one of the two translations would be lost."""
    import gettext

    text = HEADER + '''
msgctxt ""
msgid "Hello"
msgstr "Bonjour (contexte vide)"

msgid "Hello"
msgstr "Bonjour"

msgctxt "p.full"
msgid "one file"
msgid_plural "%d files"
msgstr[0] "un fichier"
msgstr[1] "%d fichiers"
'''
    gnu, ours = _both(tmp_path, text)
    assert ours == gnu
    with open(tmp_path / "ours.mo", "rb") as fh:
        translations = gettext.GNUTranslations(fh)
    assert translations.pgettext("", "Hello") == "Bonjour (contexte vide)"
    assert translations.gettext("Hello") == "Bonjour"
    assert translations.npgettext("p.full", "one file", "%d files", 2) == "%d fichiers"


def test_the_command_compiles_them(project, run_cli, tmp_path):
    import gettext

    fr = project / "translations" / "fr.po"
    fr.write_text(fr.read_text(encoding="utf-8") + ENTRIES, encoding="utf-8")
    code, out = run_cli("i18n", "compile", "--out", tmp_path)
    assert code == 0, out
    with open(tmp_path / "fr.mo", "rb") as fh:
        translations = gettext.GNUTranslations(fh)
    assert translations.npgettext("p.full", "one file", "%d files", 3) == "%d fichiers"
    assert translations.ngettext("loose", "looses", 1) == "l"
    assert translations.pgettext("topic.ai-hardware-software-stack.title", "AI Hardware & Software Stack") == "Pile matérielle et logicielle de l'IA"


_TEXT = st.text(st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="\\\""), min_size=1, max_size=10)


@st.composite
def _catalogs(draw) -> str:
    """The text of a catalog of varied entries msgfmt accepts: with and without a context,
    plural (two forms, either or both translated) or not, fuzzy, obsolete, untranslated."""
    blocks, keys = [HEADER], set()
    for n in range(draw(st.integers(0, 12))):
        context = draw(st.none() | st.just(f"k.{n}") | st.just(""))
        msgid = draw(_TEXT)
        if (context, msgid) in keys or (context == "" and "" in {c for c, _ in keys}):
            continue  # one msgctxt for two msgids is E530
        keys.add((context, msgid))
        lines = ['#, fuzzy'] if draw(st.integers(0, 5)) == 0 else []
        lines += [f'msgctxt "{context}"'] if context is not None else []
        lines.append(f'msgid "{msgid}"')
        if draw(st.booleans()):
            lines.append(f'msgid_plural "{draw(_TEXT)}"')
            lines += [f'msgstr[{i}] "{draw(st.just("") | _TEXT)}"' for i in range(2)]
        else:
            lines.append(f'msgstr "{draw(st.just("") | _TEXT)}"')
        if draw(st.integers(0, 7)) == 0:
            lines = ["#~ " + line if not line.startswith("#,") else line for line in lines]
        blocks.append("\n".join(lines) + "\n")
    return "\n".join(blocks)


@settings(max_examples=25, deadline=None)
@given(_catalogs())
def test_varied_catalogs_compile_as_with_msgfmt(tmp_path_factory, text):
    gnu, ours = _both(tmp_path_factory.mktemp("mo"), text)
    assert ours == gnu
