"""Catalogs: complete, faithful to the French and Dutch pages, drift-safe, and friendly to gettext tools."""

from __future__ import annotations

import gettext
import json
import re
import shutil
import subprocess
from pathlib import Path

import polib
import pytest
from hypothesis import given, settings, strategies as st

from aistack_bank.i18n.catalog import read_catalog

from conftest import REPO, keep_only, question_file, source_page


def entries(path: Path) -> dict[str, polib.POEntry]:
    return {e.msgctxt: e for e in polib.pofile(str(path))}


def test_status_is_complete(project, run_cli):
    code, out = run_cli("i18n", "status", "--format", "json", "--fail-under", "100")
    assert code == 0, out
    data = json.loads(out)
    langs = {d["language"]: d for d in data["languages"]}
    assert langs["en"]["source"] is True
    for lang in ("fr", "nl"):
        assert langs[lang]["percent"] == 100.0
        assert langs[lang]["fuzzy"] == langs[lang]["untranslated"] == 0
        assert langs[lang]["incomplete_questions"] == []
    code, out = run_cli("i18n", "status")
    assert "en (source)" in out and "fr" in out and "100.0%" in out


def page_text(lang: str, key: str, published: str) -> str:
    """The published text of ``key``, or the documented correction of it (docs/sources/corrections.yaml)."""
    import yaml

    for c in yaml.safe_load((REPO / "docs" / "sources" / "corrections.yaml").read_text(encoding="utf-8"))["corrections"]:
        if (c["lang"], c["key"]) == (lang, key):
            assert c["published"] == published, f"the page changed for {lang} {key}; review the correction"
            return c["bank"]
    return published


def same_text(lang: str, bank: str, page: str) -> bool:
    """Equal, except that French may use any kind of space before ? ! : ; » and after «."""
    from aistack_bank.i18n.typography import same_but_spaces

    return same_but_spaces(bank, page) if lang == "fr" else bank == page


def test_page_comparison_ignores_only_the_french_space_kind():
    assert same_text("fr", "Quoi\u00a0? « oui\u00a0»", "Quoi ? « oui »")
    assert same_text("fr", "Quoi\u202f?", "Quoi ?")
    assert not same_text("fr", "Quoi\u00a0?", "Quoi !")
    assert not same_text("fr", "Quoi\u00a0?", "Quoi  ?")
    assert not same_text("fr", "Le modèle\u00a0?", "Le  modèle ?")
    assert not same_text("nl", "Wat\u00a0?", "Wat ?")


@pytest.mark.parametrize("lang,key_points_title,category", [
    ("fr", "Pile matérielle et logicielle de l'IA : points clés", "Systèmes informatiques"),
    ("nl", "AI-hardware en softwarestack: kernpunten", "Computersystemen"),
])
def test_official_texts_equal_the_pages(lang, key_points_title, category):
    lines = source_page(lang)
    po = entries(REPO / "translations" / f"{lang}.po")
    assert same_text(lang, po["topic.ai-hardware-software-stack.title"].msgstr, lines[3].strip())
    assert same_text(lang, po["topic.ai-hardware-software-stack.summary"].msgstr, lines[5].strip())
    head = lines.index(key_points_title)
    assert same_text(lang, po["topic.ai-hardware-software-stack.key_point.k1"].msgstr, lines[head + 2].strip())
    assert same_text(lang, po["topic.ai-hardware-software-stack.key_point.k2"].msgstr, lines[head + 4].strip())
    assert category in lines[-1]
    assert po["category.computer-systems.title"].msgstr == category
    stems = [m.group(2).strip() for m in (re.match(r"^\s+(\d+)\. (.*)$", l) for l in lines) if m]
    assert len(stems) == 50
    for i, published in enumerate(stems, 1):
        key = f"q{i:03d}.stem"
        expected = page_text(lang, key, published)
        assert same_text(lang, po[key].msgstr, expected), (key, po[key].msgstr, expected)


def test_template_and_catalogs_are_up_to_date(project, run_cli):
    assert run_cli("i18n", "extract", "--check")[0] == 0
    code, out = run_cli("i18n", "update", "--check")
    assert code == 0, out


def test_changed_english_turns_only_that_entry_fuzzy(project, run_cli):
    from conftest import SAMPLE

    keep_only(project, (*SAMPLE, "q013"))
    path = question_file(project, "q013")
    text = path.read_text(encoding="utf-8")
    old_stem = "What is the role of the KV cache in LLM inference?"
    path.write_text(text.replace(old_stem, "What is NOT the role of the KV cache in LLM inference?"), encoding="utf-8")
    before = {lang: entries(project / "translations" / f"{lang}.po") for lang in ("fr", "nl")}
    assert run_cli("i18n", "update")[0] == 0
    for lang in ("fr", "nl"):
        after = entries(project / "translations" / f"{lang}.po")
        changed = [k for k in after if (after[k].msgid, after[k].msgstr, after[k].flags) != (before[lang][k].msgid, before[lang][k].msgstr, before[lang][k].flags)]
        assert changed == ["q013.stem"]
        entry = after["q013.stem"]
        assert "fuzzy" in entry.flags
        assert entry.previous_msgid == old_stem
        assert entry.msgstr == before[lang]["q013.stem"].msgstr
    snapshot = {p.as_posix(): p.read_bytes() for p in (project / "translations").rglob("*") if p.is_file()}
    code, out = run_cli("i18n", "update")
    assert code == 0 and "updated" not in out
    assert {p.as_posix(): p.read_bytes() for p in (project / "translations").rglob("*") if p.is_file()} == snapshot
    # the fuzzy stem is reported, and never exported as if translated
    code, out = run_cli("validate", "--strict")
    assert code == 1 and "W502" in out and "q013.stem is fuzzy" in out
    code, out = run_cli("export", "moodle-xml", "--lang", "fr", "--out", "out")  # French is in progress again
    assert code == 0 and "fr.po: warning W558: fr is 99." in out and not Path("out/aistack-fr.xml").exists(), out
    code, out = run_cli("i18n", "todo", "fr")
    assert code == 0 and f"changed q013.stem\n    before: {old_stem}\n    after:  " in out, out
    code, out = run_cli("export", "moodle-xml", "--lang", "fr", "--out", "out", "--allow-fallback")
    assert code == 0
    assert not Path("out/aistack-fr.xml").exists()  # named for what it holds: French with English
    assert '<p lang="en">What is NOT the role of the KV cache' in Path("out/aistack-fr-with-en.xml").read_text(encoding="utf-8")


def test_deleted_question_becomes_obsolete_and_comes_back(project, run_cli):
    from conftest import SAMPLE

    fr = keep_only(project, (*SAMPLE, "q050")) / "translations" / "fr.po"  # two updates and a validation: a dozen questions and q050
    kept = {k: e.msgstr for k, e in entries(fr).items() if k.startswith("q050.")}
    others = sum(1 for k, e in entries(fr).items() if k and e.msgstr and not k.startswith("q050."))
    q050 = question_file(project, "q050")
    saved = q050.read_bytes()
    q050.unlink()
    topic = project / "bank" / "ai-hardware-software-stack" / "topic.yaml"
    topic.write_text(topic.read_text(encoding="utf-8").replace("  - q050\n", ""), encoding="utf-8")
    assert run_cli("i18n", "update")[0] == 0
    po = polib.pofile(str(fr))
    obsolete = {e.msgctxt: e.msgstr for e in po.obsolete_entries()}
    assert obsolete == kept
    assert not any(e.msgctxt.startswith("q050.") for e in po if not e.obsolete)
    assert "#~ msgctxt \"q050.stem\"" in fr.read_text(encoding="utf-8")
    q050.write_bytes(saved)
    topic.write_text(topic.read_text(encoding="utf-8") + "  - q050\n", encoding="utf-8")
    code, out = run_cli("i18n", "update")
    assert kept and others
    assert f"updated translations/fr.po ({others} kept, 0 new, 0 now fuzzy, {len(kept)} revived, 0 now obsolete)" in out
    restored = entries(fr)
    assert {k: restored[k].msgstr for k in kept} == kept
    assert not polib.pofile(str(fr)).obsolete_entries()
    assert run_cli("validate", "--strict")[0] == 0


def test_changed_number_in_a_french_option_is_an_error(project, run_cli):
    fr = keep_only(project) / "translations" / "fr.po"  # q003 is kept
    text = fr.read_text(encoding="utf-8")
    match = re.search(r'msgctxt "q003\.option\.c"\nmsgid "[^"]*"\nmsgstr "([^"]*112[^"]*)"', text)
    assert match, "q003.option.c should show 112 GB"
    changed = match.group(1).replace("112", "121")
    fr.write_text(text.replace(match.group(0), match.group(0).replace(match.group(1), changed)), encoding="utf-8")
    line = text[: match.start()].count("\n") + 3
    code, out = run_cli("validate")
    assert code == 1
    assert f"translations/fr.po:{line}:1: error E502: q003.option.c: numbers differ: English has 112, fr has 121" in out
    assert "E404" in out  # and the numeric check, run on the French options, fails too


def test_units_are_compared_not_just_numbers(project, run_cli):
    from aistack_bank.i18n.catalog import render_catalog

    from conftest import SAMPLE

    nl = keep_only(project, (*SAMPLE, "q008")) / "translations" / "nl.po"
    catalog = read_catalog(nl)
    entry = next(e for e in catalog.po if e.msgctxt == "q008.option.a.feedback")
    assert "2 TB/s" in entry.msgstr
    entry.msgstr = entry.msgstr.replace("2 TB/s", "2 GB/s")
    nl.write_bytes(render_catalog(catalog.po))
    code, out = run_cli("validate")
    assert code == 1
    assert "E502: q008.option.a.feedback: quantities differ: English has " in out
    assert "2 TB/s" in out and "2 GB/s" in out


def _gettext_tool(name: str) -> str:
    tool = shutil.which(name)
    assert tool, f"GNU gettext's {name} is required for this test (Debian package gettext)"
    return tool


@pytest.mark.parametrize("lang", ["fr", "nl"])
def test_msgfmt_accepts_the_catalogs_and_agrees_with_status(lang, project, run_cli):
    result = subprocess.run([_gettext_tool("msgfmt"), "--check", "--statistics", "-o", "/dev/null", f"translations/{lang}.po"], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    status = {d["language"]: d for d in json.loads(run_cli("i18n", "status", "--format", "json")[1])["languages"]}[lang]
    assert f"{status['translated']} translated messages" in result.stderr
    assert "fuzzy" not in result.stderr and "untranslated" not in result.stderr


@pytest.mark.parametrize("name", ["aistack.pot", "fr.po", "nl.po"])
def test_msgcat_rewrites_the_catalogs_without_churn(name):
    result = subprocess.run([_gettext_tool("msgcat"), str(REPO / "translations" / name)], capture_output=True, timeout=120)
    assert result.returncode == 0
    assert result.stdout == (REPO / "translations" / name).read_bytes()


def test_compiled_catalog_serves_translations(project, run_cli, tmp_path):
    code, out = run_cli("i18n", "compile", "--out", tmp_path)
    assert code == 0 and "fr.mo" in out
    with open(tmp_path / "fr.mo", "rb") as fh:
        translations = gettext.GNUTranslations(fh)
    assert translations.pgettext("topic.ai-hardware-software-stack.title", "AI Hardware & Software Stack") == "Pile matérielle et logicielle de l'IA"


class _Chosen(polib.POFile):
    """A catalog whose entries are those to compile, every one of them (polib's own test of a
    plural entry wants every form translated; msgfmt's, msgstr[0])."""

    def translated_entries(self):
        return list(self)


def _polib_compile(po) -> bytes:
    """compile_catalog written with polib's quadratic ``to_binary`` (the reference): the entries
    GNU msgfmt compiles (not obsolete, not fuzzy, a msgstr or a msgstr[0]), plural ones whole."""
    mo = _Chosen(wrapwidth=78)
    mo.metadata = dict(po.metadata)
    for entry in po:
        if entry.obsolete or entry.fuzzy or not (entry.msgstr_plural.get(0) if entry.msgid_plural else entry.msgstr):
            continue
        if entry.msgid_plural:
            mo.append(polib.POEntry(msgctxt=entry.msgctxt, msgid=entry.msgid, msgid_plural=entry.msgid_plural, msgstr_plural=dict(entry.msgstr_plural)))
        else:
            mo.append(polib.POEntry(msgctxt=entry.msgctxt, msgid=entry.msgid, msgstr=entry.msgstr))
    return mo.to_binary()


_MO_TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)
_MO_PLAIN = st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=12)


@st.composite
def _mo_catalogs(draw, text=_MO_TEXT, max_size=40):
    """A POFile of varied entries: contexts (empty ones too), plurals, non-ASCII, empty strings,
    fuzzy, obsolete and untranslated entries, extra header fields."""
    po = polib.POFile(wrapwidth=78)
    po.metadata = {"Project-Id-Version": "t", "Content-Type": "text/plain; charset=UTF-8", "Plural-Forms": "nplurals=2; plural=(n > 1);"}
    po.metadata.update(draw(st.dictionaries(st.from_regex(r"X-[A-Za-z0-9]{1,6}", fullmatch=True), _MO_PLAIN, max_size=3)))
    for _ in range(draw(st.integers(0, max_size))):
        msgctxt = draw(st.none() | text)
        msgid, msgstr = draw(text), draw(text)
        if draw(st.integers(0, 3)) == 0:
            forms = draw(st.lists(text, min_size=1, max_size=3))
            order = draw(st.permutations(range(len(forms))))
            entry = polib.POEntry(msgctxt=msgctxt, msgid=msgid, msgid_plural=draw(text), msgstr_plural={i: forms[i] for i in order})
        else:
            entry = polib.POEntry(msgctxt=msgctxt, msgid=msgid, msgstr=msgstr)
        entry.obsolete = draw(st.integers(0, 7)) == 0
        if draw(st.integers(0, 5)) == 0:
            entry.flags.append("fuzzy")
        po.append(entry)
    return po


@given(_mo_catalogs())
def test_mo_writer_is_polibs(po):
    from aistack_bank.i18n.catalog import compile_catalog, mo_binary

    assert mo_binary(po) == po.to_binary()
    # polib keys an entry with an empty context as one without (msgfmt does not: compared with
    # msgfmt in test_compile_like_msgfmt.py); the rest is compiled as with polib
    plain = _Chosen(wrapwidth=78)
    plain.metadata = dict(po.metadata)
    plain.extend(entry for entry in po if entry.msgctxt != "")
    assert compile_catalog(plain) == _polib_compile(plain)


@pytest.mark.parametrize("size", [0, 1, 3000])
def test_mo_writer_is_polibs_on_sizes(size):
    from aistack_bank.i18n.catalog import compile_catalog, mo_binary

    po = polib.POFile(wrapwidth=78)
    po.metadata = {"Project-Id-Version": "t", "Content-Type": "text/plain; charset=UTF-8"}
    for i in range(size):  # keys out of order, a quarter without a context, a tenth untranslated
        po.append(polib.POEntry(msgctxt=None if i % 4 == 0 else f"q.{(i * 7919) % size}.é", msgid=f"Question {i} – ü", msgstr="" if i % 10 == 0 else f"Réponse {i}"))
    assert mo_binary(po) == po.to_binary()
    assert compile_catalog(po) == _polib_compile(po)
    for source in (REPO / "translations" / "fr.po", REPO / "translations" / "nl.po"):
        catalog = read_catalog(source).po
        assert compile_catalog(catalog) == _polib_compile(catalog)


def test_mo_writer_leaves_what_it_is_given_as_it_was():
    """An MOFile's translated_entries() is the file itself: writing it must not reorder it nor
    add a header entry to it, so that writing it again gives the same bytes."""
    from aistack_bank.i18n.catalog import mo_binary

    mo = polib.MOFile()
    mo.metadata = {"Project-Id-Version": "t", "Content-Type": "text/plain; charset=UTF-8"}
    for key in ("q2", "q1", "q3"):
        mo.append(polib.POEntry(msgctxt=key, msgid=f"English {key}", msgstr=f"Français {key}"))
    before = [(e.msgctxt, e.msgid, e.msgstr) for e in mo]
    first = mo_binary(mo)
    assert [(e.msgctxt, e.msgid, e.msgstr) for e in mo] == before
    assert mo_binary(mo) == first == polib.mofile(first).to_binary()


@settings(max_examples=15)
@given(_mo_catalogs(text=_MO_PLAIN, max_size=12))
def test_msgunfmt_reads_back_the_compiled_entries(po):
    from aistack_bank.i18n.catalog import mo_binary

    expected = {(e.msgctxt or None, e.msgid): (e.msgid_plural, e.msgstr, [e.msgstr_plural[i] for i in sorted(e.msgstr_plural)]) for e in po.translated_entries()}
    if len(expected) < len(po.translated_entries()):
        return  # two entries with one key: not a catalog msgfmt would write
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        mo = Path(folder) / "x.mo"
        mo.write_bytes(mo_binary(po))
        result = subprocess.run([_gettext_tool("msgunfmt"), str(mo)], capture_output=True, timeout=60)
    assert result.returncode == 0, result.stderr
    back = polib.pofile(result.stdout.decode("utf-8"))
    assert dict(back.metadata) == (dict(po.metadata) if expected else {})  # (msgunfmt writes nothing for a header alone)
    assert {(e.msgctxt, e.msgid): (e.msgid_plural, e.msgstr, [e.msgstr_plural[i] for i in sorted(e.msgstr_plural)]) for e in back} == expected


# E501 cases add where the error must be: (a substring of the broken line, the 1-based column)
BROKEN_PO = {
    "broken escape": ('msgstr "Pile', 'msgstr "Pi\\qle', "E501", "invalid escape sequence '\\\\q'", ('msgstr "Pi\\qle', len('msgstr "Pi') + 1)),
    "missing msgstr": ('msgstr "Systèmes informatiques"\n', "", "E501", "msgid without msgstr", ('msgid "Computer systems"', 1)),
    "conflict markers": ('msgctxt "category.computer-systems.title"\n', '<<<<<<< HEAD\nmsgctxt "category.computer-systems.title"\n', "E501", "merge-conflict marker", ("<<<<<<< HEAD", 1)),
    "unterminated string": ('msgstr "Systèmes informatiques"', 'msgstr "Systèmes informatiques', "E501", "unterminated string", ('msgstr "Systèmes informatiques', len('msgstr "Systèmes informatiques') + 1)),
    "wrong plural forms": ("nplurals=2; plural=(n > 1);", "nplurals=2; plural=(n != 1);", "E505", "is wrong for fr"),
    "wrong language": ("Language: fr", "Language: de", "E505", "header Language is 'de'"),
}


@pytest.mark.parametrize("case", sorted(BROKEN_PO))
def test_broken_catalog_is_located(case, project, run_cli):
    old, new, code, fragment, *where = BROKEN_PO[case]
    keep_only(project)  # the broken entries are the header's and the topic's: a dozen questions are enough
    fr = project / "translations" / "fr.po"
    text = fr.read_text(encoding="utf-8")
    assert old in text
    fr.write_text(text.replace(old, new, 1), encoding="utf-8")
    catalog = read_catalog(fr)
    assert catalog.diagnostics, case
    d = catalog.diagnostics[0]
    assert d.code == code and fragment in d.message, str(d)
    assert d.location.path == "translations/fr.po", str(d)
    if where:
        (needle, column), = where
        broken = text.replace(old, new, 1).split("\n")
        (line,) = [i for i, content in enumerate(broken, 1) if needle in content]
        assert (d.location.line, d.location.column) == (line, column), str(d)
    exit_code, out = run_cli("validate")
    assert exit_code == 1 and code in out
    # and nothing overwrites the translator's file while it is broken
    assert run_cli("i18n", "update")[0] == 1
    assert fr.read_text(encoding="utf-8") == text.replace(old, new, 1)


def test_duplicate_entries_are_reported(project, run_cli):
    fr = project / "translations" / "fr.po"
    text = fr.read_text(encoding="utf-8")
    block = text[text.index("#. Title of a category of topics."):]
    block = block[: block.index("\n\n") + 2]
    fr.write_text(text + "\n" + block, encoding="utf-8")
    catalog = read_catalog(fr)
    assert [d.code for d in catalog.diagnostics] == ["E506"]
    assert "'category.computer-systems.title' appears twice" in catalog.diagnostics[0].message


def test_translator_comments_and_headers_survive_update(project, run_cli):
    from aistack_bank.i18n.catalog import render_catalog

    from conftest import SAMPLE

    fr = keep_only(project, (*SAMPLE, "q020")) / "translations" / "fr.po"
    catalog = read_catalog(fr)
    entry = next(e for e in catalog.po if e.msgctxt == "q020.explanation")
    entry.tcomment = "Relu par Camille : vérifier « repliement »."
    catalog.po.metadata["Last-Translator"] = "Camille <camille@example.org>"
    fr.write_bytes(render_catalog(catalog.po))
    path = next((project / "bank" / "ai-hardware-software-stack" / "questions").glob("q020-*.yaml"))
    path.write_text(path.read_text(encoding="utf-8").replace("explanation: >-\n  ", "explanation: >-\n  Indeed, ", 1), encoding="utf-8")
    assert run_cli("i18n", "update")[0] == 0
    after = entries(fr)["q020.explanation"]
    assert after.tcomment == "Relu par Camille : vérifier « repliement »."
    assert "fuzzy" in after.flags
    assert polib.pofile(str(fr)).metadata["Last-Translator"] == "Camille <camille@example.org>"


def test_markup_and_placeholders_must_match(project, run_cli):
    from aistack_bank.i18n.catalog import render_catalog

    nl = keep_only(project) / "translations" / "nl.po"
    catalog = read_catalog(nl)
    entry = next(e for e in catalog.po if e.msgctxt == "q001.option.a.feedback")
    entry.msgstr = entry.msgstr + " <b>{name}</b>"
    nl.write_bytes(render_catalog(catalog.po))
    code, out = run_cli("validate")
    assert code == 1 and "E503: q001.option.a.feedback: markup/placeholders differ" in out


def test_validate_notices_a_stale_template(project, run_cli):
    pot = keep_only(project) / "translations" / "aistack.pot"
    pot.write_text(pot.read_text(encoding="utf-8").replace('msgid "AI Hardware & Software Stack"', 'msgid "AI Hardware"'), encoding="utf-8")
    code, out = run_cli("validate", "--strict")
    assert code == 1 and "W504" in out
