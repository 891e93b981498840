"""The commands' work called without the command line (aistack_bank.services)."""

from __future__ import annotations

from pathlib import Path

import pytest

from aistack_bank.errors import UsageError
from aistack_bank.i18n.status import LanguageStatus
from aistack_bank.services import (TranslationStatus, check_new_languages, export_options, run_all_checks, split_targets,
                                   translation_status, translations_of, typography_catalog, validate_project)


def test_validate_project_reads_folders_and_files(project):
    bank_dir, translations = project / "bank", project / "translations"
    result = validate_project([bank_dir], bank_dir, translations)
    assert result.errors == 0 and not result.failed()
    assert result.summary["questions"] == len(list(bank_dir.glob("*/questions/*.yaml")))
    assert result.summary_line.endswith("0 error(s), 0 warning(s).") or "warning(s)." in result.summary_line
    one = next(bank_dir.glob("*/questions/q001-*.yaml"))
    files = validate_project([one], bank_dir, translations, use_cache=False)
    assert files.summary["questions"] == 1 and files.parts == ["1 file(s)"]


def test_validate_project_reports_catalog_errors_unless_translations_are_skipped(project):
    bank_dir, translations = project / "bank", project / "translations"
    catalog = translations / "fr.po"
    catalog.write_text(catalog.read_text(encoding="utf-8") + '\nmsgid "broken\n', encoding="utf-8")
    assert validate_project([bank_dir], bank_dir, translations, use_cache=False).failed()
    assert not validate_project([bank_dir], bank_dir, translations, use_translations=False, use_cache=False).failed()


def test_split_targets_and_the_translations_guess(tmp_path):
    bank_dir = tmp_path / "bank"
    other = tmp_path / "other" / "bank"
    for folder in (bank_dir, other, tmp_path / "translations"):
        folder.mkdir(parents=True)
    question = bank_dir / "questions" / "q001-x.yaml"
    assert split_targets([bank_dir, question]) == ([bank_dir], [question])
    assert translations_of(bank_dir, bank_dir, tmp_path / "translations") == tmp_path / "translations"
    assert translations_of(other, bank_dir, tmp_path / "translations") is None  # no other/translations/
    (tmp_path / "other" / "translations").mkdir()
    assert translations_of(other, bank_dir, tmp_path / "translations") == tmp_path / "other" / "translations"


def test_translation_status_totals_and_table():
    status = TranslationStatus(
        languages=[LanguageStatus("en", 10, 10, source=True),
                   LanguageStatus("fr", 10, 8, fuzzy=1, untranslated=1, incomplete_questions=["q002"]),
                   LanguageStatus("nl", 10, 10)],
        interface=[LanguageStatus("fr", 4, 2, fuzzy=2)], diagnostics=[])
    assert status.total == {"total": 20, "translated": 18, "fuzzy": 1, "untranslated": 1, "obsolete": 0, "percent": 90.0}
    assert [language.language for language in status.below(90)] == ["fr", "fr"]
    table = status.table()
    total = next(line for line in table if line.startswith("total"))
    assert table[1].startswith("en (source)") and table.index(total) == 4 and "90.0%" in total
    assert "fr: not fully translated: q002" in table
    assert "fr: in progress (ready at 100%): left out of the exports; `bank i18n todo fr` lists what is missing" in table
    assert not any(line.startswith("nl: ") for line in table)  # ready: nothing to say
    assert status.as_dict()["total"]["percent"] == 90.0


def test_translation_status_of_the_bundled_bank(project):
    status = translation_status(project / "bank", project / "translations")
    assert not status.diagnostics and status.languages[0].source
    assert {language.language for language in status.targets} == {"fr", "nl"}


def test_usage_errors_of_the_services(project):
    with pytest.raises(UsageError, match="--lang"):
        check_new_languages(["fr", "not a code"])
    with pytest.raises(UsageError, match="only French"):
        typography_catalog(project / "translations", "nl")
    with pytest.raises(UsageError, match="no such catalog"):
        typography_catalog(project / "translations", "fr_CA")
    with pytest.raises(UsageError, match="penalty"):
        export_options(Path("missing.toml"), penalty=0.4)
    with pytest.raises(UsageError, match="no catalog for language 'de'"):
        run_all_checks(project / "bank", project / "translations", "de")
    results, diagnostics = run_all_checks(project / "bank", project / "translations", "fr")
    assert set(results) == {"fr"} and not diagnostics


def test_run_all_checks_without_a_translations_folder_checks_english(project):
    results, diagnostics = run_all_checks(project / "bank", project / "missing", "all")
    assert set(results) == {"en"} and not diagnostics
    with pytest.raises(UsageError, match="no catalog for language 'fr'"):
        run_all_checks(project / "bank", project / "missing", "fr")
