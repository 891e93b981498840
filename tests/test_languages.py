"""Any language: plural rules GNU gettext accepts, regional codes, several plural forms, RTL."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from aistack_bank.i18n.catalog import read_catalog, render_catalog
from aistack_bank.i18n.languages import LANGUAGES, check_code, is_rtl, plural_forms, same_plural_rule


def test_the_table_covers_gnu_gettexts_common_languages():
    common = "de es fr nl it pt pt_BR pl ru uk cs ar he ja zh_CN ko tr sv da fi nb el hu ro sk sl lt lv bg hr sr vi".split()
    assert [c for c in common if plural_forms(c) is None] == []
    assert plural_forms("pl").startswith("nplurals=3;") and plural_forms("ar").startswith("nplurals=6;")
    assert plural_forms("ja") == plural_forms("zh_CN") == "nplurals=1; plural=0;"
    assert plural_forms("fr") == plural_forms("pt_BR") == "nplurals=2; plural=(n > 1);"


def test_every_plural_rule_passes_msgfmt_check(tmp_path):
    """msgfmt --check evaluates the rule and refuses one that picks a form >= nplurals."""
    msgfmt = shutil.which("msgfmt")
    assert msgfmt, "GNU gettext's msgfmt is required for this test (Debian package gettext)"
    for code, lang in sorted(LANGUAGES.items()):
        nplurals = int(lang.plural_forms.split(";")[0].split("=")[1])
        forms = "\n".join(f'msgstr[{i}] "{i} files ({code})"' for i in range(nplurals))
        po = tmp_path / f"{code}.po"
        po.write_text(
            'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
            f'"Language: {code}\\n"\n"Plural-Forms: {lang.plural_forms}\\n"\n\n'
            f'msgid "{{n}} file"\nmsgid_plural "{{n}} files"\n{forms}\n', encoding="utf-8")
        result = subprocess.run([msgfmt, "--check", "-o", "/dev/null", str(po)], capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, (code, result.stderr)


def test_a_rule_spelled_differently_is_the_same_rule():
    weblate_ru = "nplurals=3; plural=n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2;"
    assert same_plural_rule(weblate_ru, plural_forms("ru"))
    assert not same_plural_rule(plural_forms("pl"), plural_forms("ru"))  # Polish differs at n = 21
    assert not same_plural_rule("nplurals=3; plural=(n != 1);", "nplurals=2; plural=(n != 1);")


def _catalog(tmp_path, name: str, language: str, plural: str, body: str = ""):
    path = tmp_path / name
    path.write_text(
        f'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: {language}\\n"\n'
        f'"Plural-Forms: {plural}\\n"\n\n{body}', encoding="utf-8")
    return read_catalog(path)


@pytest.mark.parametrize("code", ["pt_BR", "zh_CN", "sr_Latn"])
def test_a_regional_catalog_with_its_own_language_header_is_accepted(tmp_path, code):
    catalog = _catalog(tmp_path, f"{code}.po", code, plural_forms(code) or "nplurals=2; plural=(n != 1);")
    assert catalog.diagnostics == []


def test_a_catalog_whose_language_header_names_another_language_is_refused(tmp_path):
    catalog = _catalog(tmp_path, "pt_BR.po", "es", plural_forms("pt_BR"))
    assert [d.code for d in catalog.diagnostics] == ["E505"]
    assert "set Language: pt_BR" in catalog.diagnostics[0].message


def test_a_wrong_plural_rule_is_refused_and_the_right_one_named(tmp_path):
    catalog = _catalog(tmp_path, "pl.po", "pl", "nplurals=2; plural=(n != 1);")
    assert [d.code for d in catalog.diagnostics] == ["E505"]
    assert plural_forms("pl") in catalog.diagnostics[0].message


@pytest.mark.parametrize("code", ["pl", "ar"])
def test_catalogs_with_several_plural_forms_read_and_write_back_unchanged(tmp_path, code):
    nplurals = int(plural_forms(code).split(";")[0].split("=")[1])
    forms = "".join(f'msgstr[{i}] "form {i}"\n' for i in range(nplurals))
    body = f'msgctxt "site.count"\nmsgid "{{count}} question"\nmsgid_plural "{{count}} questions"\n{forms}'
    catalog = _catalog(tmp_path, f"{code}.po", code, plural_forms(code), body)
    assert catalog.diagnostics == []
    (entry,) = list(catalog.po)
    assert sorted(entry.msgstr_plural) == list(range(nplurals))
    again = tmp_path / "again" / f"{code}.po"
    again.parent.mkdir()
    again.write_bytes(render_catalog(catalog.po))
    assert read_catalog(again).diagnostics == []
    assert render_catalog(read_catalog(again).po) == render_catalog(catalog.po)


def test_language_codes():
    assert check_code("fr") is None and check_code("pt_BR") is None and check_code("sr_Latn") is None
    assert "did you mean pt_BR" in check_code("pt-br")
    assert "did you mean de" in check_code("DE")
    assert "source language" in check_code("en")
    assert check_code("french") is not None and check_code("") is not None
    assert is_rtl("ar") and is_rtl("he") and is_rtl("fa") and not is_rtl("pl")



def test_starting_a_language_with_several_plural_forms(project, run_cli):
    code, out = run_cli("i18n", "update", "--lang", "pl", "--lang", "ar")
    assert code == 0, out
    from aistack_bank.i18n.catalog import read_catalog as read

    for lang, forms in (("pl", 3), ("ar", 6)):
        for path in (project / "translations" / f"{lang}.po", project / "translations" / "site" / f"{lang}.po"):
            catalog = read(path)
            assert catalog.diagnostics == [] and catalog.po.metadata["Plural-Forms"].startswith(f"nplurals={forms};")
    code, out = run_cli("i18n", "update", "--lang", "pt-BR")
    assert code == 2 and "did you mean pt_BR?" in out
    assert not (project / "translations" / "pt-BR.po").exists()
    shutil.copytree(Path(__file__).resolve().parents[1] / "exports", project / "exports")
    code, out = run_cli("build", "--compare")
    assert code == 0, out  # the new languages hold nothing yet: left out, with a warning
    assert "translations/pl.po: warning W552:" in out and "translations/ar.po: warning W552:" in out
