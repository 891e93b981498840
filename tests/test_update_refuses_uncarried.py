"""`bank i18n update` never drops a translator's string: a translated entry the merge cannot
carry (no msgctxt, or plural forms) is refused with a located E542 and nothing is written."""

from __future__ import annotations

import pytest

from aistack_bank.i18n.update import update_catalogs

PLANTED = {
    "no context": 'msgid "no context active"\nmsgstr "sans contexte"\n',
    "no context, obsolete": '#~ msgid "no context gone"\n#~ msgstr "parti"\n',
    "plural forms": 'msgctxt "gone.plural"\nmsgid "a"\nmsgid_plural "b"\nmsgstr[0] "x"\nmsgstr[1] "y"\n',
    "plural forms of a text of the bank": 'msgctxt "topic.extra.plural"\nmsgid "one"\nmsgid_plural "two"\nmsgstr[0] ""\nmsgstr[1] "deux"\n',
}


def _files(project):
    return {p: p.read_bytes() for p in sorted((project / "translations").rglob("*")) if p.is_file()}


@pytest.mark.parametrize("case", sorted(PLANTED))
def test_a_translated_entry_the_merge_cannot_carry_is_refused_and_nothing_written(project, case):
    fr = project / "translations" / "fr.po"
    text = fr.read_text(encoding="utf-8")
    line = text.count("\n") + 2
    fr.write_text(text + "\n" + PLANTED[case], encoding="utf-8")
    (project / "bank" / "ai-hardware-software-stack" / "topic.yaml").write_text(
        (project / "bank" / "ai-hardware-software-stack" / "topic.yaml").read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    before = _files(project)
    results, diagnostics = update_catalogs(project / "bank", project / "translations")
    assert results == [] and [d.code for d in diagnostics] == ["E542"]
    assert diagnostics[0].location.path.endswith("fr.po") and diagnostics[0].location.line == line
    assert _files(project) == before


def test_untranslated_entries_without_a_context_are_still_let_go(project):
    fr = project / "translations" / "fr.po"
    fr.write_text(fr.read_text(encoding="utf-8") + '\nmsgid "nothing to keep"\nmsgstr ""\n', encoding="utf-8")
    results, diagnostics = update_catalogs(project / "bank", project / "translations")
    assert not diagnostics and "nothing to keep" not in fr.read_text(encoding="utf-8")
