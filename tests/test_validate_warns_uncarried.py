"""`bank validate` warns (W505, located) of a translated entry `bank i18n update` would refuse
(E542): no msgctxt, active or obsolete, or a translation in plural forms. A translator who sees
the validation pass is so told before the update, not by it; as an entry no text of the bank
reads (W503), it is a warning, and the only one of it: W503's advice (run the update to make the
entry obsolete) would be refused by that update. Every way a catalog is verified (whole, a piece
at a time, from the cache, again after an edit) finds the same."""

from __future__ import annotations

from pathlib import Path

import pytest

from aistack_bank.i18n.catalog import read_catalog
from aistack_bank.i18n.pofile import loose_entries
from aistack_bank.rules.validate import validate_bank
from conftest import keep_only
from test_update_refuses_uncarried import PLANTED
from test_validate_bounded import _verdict


def _plant(path: Path, *cases: str) -> list[int]:
    """Append the planted entries of ``cases`` to the catalog at ``path``; their line numbers."""
    text = path.read_text(encoding="utf-8")
    lines = []
    for case in cases:
        lines.append(text.count("\n") + 2)
        text += "\n" + PLANTED[case]
    path.write_text(text, encoding="utf-8")
    return lines


def _found(diagnostics) -> list[tuple]:
    return [(d.severity.value, d.location.path, d.location.line, d.location.column) for d in diagnostics if d.code == "W505"]


@pytest.mark.parametrize("case", sorted(PLANTED))
def test_validate_warns_of_a_translated_entry_the_update_would_refuse(project, case):
    keep_only(project)
    before = validate_bank(Path("bank"), translations=Path("translations")).diagnostics
    [line] = _plant(project / "translations" / "fr.po", case)
    after = validate_bank(Path("bank"), translations=Path("translations")).diagnostics
    assert _found(after) == [("warning", "translations/fr.po", line, 1)]
    assert [d for d in after if d.code != "W505"] == before  # nothing else changes: no W503 advising the update it would refuse
    [w505] = [d for d in after if d.code == "W505"]
    assert "`bank i18n update` would drop it, so it will refuse it (E542)" in w505.message


def test_entries_without_a_translation_and_the_header_are_not_told(project):
    keep_only(project)
    fr = project / "translations" / "fr.po"
    fr.write_text(fr.read_text(encoding="utf-8") + '\nmsgid "nothing to keep"\nmsgstr ""\n\n#~ msgid "gone"\n#~ msgstr ""\n'
                  '\nmsgctxt "x.plural"\nmsgid "a"\nmsgid_plural "b"\nmsgstr[0] ""\nmsgstr[1] ""\n', encoding="utf-8")
    assert _found(validate_bank(Path("bank"), translations=Path("translations")).diagnostics) == []


def test_the_site_catalogs_are_told_too(project):
    site = project / "translations" / "site" / "fr.po"
    [line] = _plant(site, "no context")
    assert _found(validate_bank(Path("bank"), translations=Path("translations")).diagnostics) == [("warning", "translations/site/fr.po", line, 1)]


@pytest.mark.parametrize("case", sorted(PLANTED))
def test_every_way_of_verifying_a_catalog_tells_the_same(project, monkeypatch, tmp_path, case):
    """Whole, a piece at a time (an entry without a context streams; the others make the
    catalog read whole), from the cache, and again after an edit of another entry."""
    keep_only(project)
    fr = project / "translations" / "fr.po"
    [line] = _plant(fr, case)
    whole = _verdict(monkeypatch, tmp_path, bounded=False)
    assert [(d["code"], d["line"]) for d in whole if d["line"] == line] == [("W505", line)]  # (not W503 too)
    assert _verdict(monkeypatch, tmp_path, bounded=True, cache="bounded", forked=False) == whole
    assert _verdict(monkeypatch, tmp_path, bounded=False, use_cache=True, cache="kept") == whole
    assert _verdict(monkeypatch, tmp_path, bounded=False, use_cache=True, cache="kept") == whole  # (the verdict kept)
    text = fr.read_text(encoding="utf-8")
    at = text.index('msgstr "', text.index("msgctxt"))
    fr.write_text(text[:at] + 'msgstr "Changé' + text[at + len('msgstr "'):], encoding="utf-8")  # one entry edited: verified again in part
    again = _verdict(monkeypatch, tmp_path, bounded=False, use_cache=True, cache="kept")
    assert again == _verdict(monkeypatch, tmp_path, bounded=False, cache="fresh")
    assert [(d["code"], d["line"]) for d in again if d["line"] == line] == [("W505", line)]


@pytest.mark.parametrize("cases", [("no context",), tuple(sorted(PLANTED))])
def test_the_loose_entries_of_each_kind_of_read_catalog(project, monkeypatch, tmp_path, cases):
    """:func:`loose_entries` finds the same entries, in the file's order, in a column catalog,
    a light one and a polib one, untranslated ones too; the header is none of them."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    fr = project / "translations" / "fr.po"
    for kind in KINDS:
        catalog = read_catalog(fr, **kind)
        assert loose_entries(catalog.po) == loose_entries(catalog.po, catalog.active()) == []
        assert getattr(catalog.po, "without_plurals", True)  # (a light catalog's read found none: not looked for again)
    lines = _plant(fr, *cases)
    text = fr.read_text(encoding="utf-8")
    fr.write_text(text + '\nmsgid "untranslated"\nmsgstr ""\n', encoding="utf-8")
    expected = [*lines, text.count("\n") + 2]
    kinds = set()
    for kind in KINDS:
        catalog = read_catalog(fr, **kind)
        assert not catalog.diagnostics
        kinds.add(type(catalog.po).__name__)
        assert [e.linenum for e in loose_entries(catalog.po)] == expected, kind
        assert [e.linenum for e in loose_entries(catalog.po, catalog.active())] == expected, kind
        assert [e.msgid for e in loose_entries(catalog.po)][-1] == "untranslated"
    assert kinds == ({"ColumnCatalog", "LightCatalog", "POFile"} if len(cases) == 1 else {"LightCatalog", "POFile"})


KINDS = ({"use_cache": True, "light": True, "columns": True}, {"light": True}, {})
