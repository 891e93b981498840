"""French numbers: a number joined to its unit by U+00A0, large numbers grouped by U+202F,
four-digit numbers and identifiers left alone; the fixer changes only those spaces."""

from __future__ import annotations

import re

import polib
import pytest

from aistack_bank.i18n.typography import NBSP, NNBSP, fix_typography, number_issues, same_but_spaces


@pytest.mark.parametrize("text,fixed", [
    ("environ 14 Go", f"environ 14{NBSP}Go"),
    ("2 To/s et 7 ms", f"2{NBSP}To/s et 7{NBSP}ms"),
    ("50\u202f% des poids", f"50{NBSP}% des poids"),
    ("10 FLOP/octet, sur 4 bits, 2 octets", f"10{NBSP}FLOP/octet, sur 4{NBSP}bits, 2{NBSP}octets"),
    ("7 × 10⁹ o", f"7 × 10⁹{NBSP}o"),
    ("3,5 Go", f"3,5{NBSP}Go"),
    ("ln 65504", f"ln 65{NNBSP}504"),
    ("1000000 jetons", f"1{NNBSP}000{NNBSP}000 jetons"),
    ("65 504 et 65\u00a0504", f"65{NNBSP}504 et 65{NNBSP}504"),
    ("12 345,5 Go", f"12{NNBSP}345,5{NBSP}Go"),
])
def test_numbers_are_reported_and_fixed_changing_only_spaces(text, fixed):
    assert number_issues(text)
    assert fix_typography(text) == fixed
    assert number_issues(fixed) == []
    assert re.sub(r"\s", "", fix_typography(text)) == re.sub(r"\s", "", text)


@pytest.mark.parametrize("text", [
    "4096 jetons, 2000 jetons par seconde, en 2024",  # four digits: written without a space
    "FP16, INT8, 7B, 2N, 6ND, A100, H100",  # digits glued to letters
    "3,14159 et 0,00001",  # decimals
    "2 × 32 × 32 × 128, un lot de 8 256 fois",  # products and counts, not a grouped number
    "les 2 couches et 4 têtes",  # words, not unit symbols
    "voir `x = 65504` et https://example.org/10000",  # code and URLs
    f"14{NBSP}Go, 65{NNBSP}504",
])
def test_numbers_left_alone(text):
    assert number_issues(text) == []
    assert fix_typography(text) == text


def test_the_published_page_compares_equal_whatever_the_number_spaces():
    assert same_but_spaces(f"environ 14{NBSP}Go et ln 65{NNBSP}504 ?", "environ 14 Go et ln 65504 ?")
    assert not same_but_spaces(f"environ 14{NBSP}Go", "environ 15 Go")


def test_the_lint_reports_w528_at_the_number_and_the_fixer_repairs_it(project, run_cli):
    from conftest import keep_only

    path = keep_only(project) / "translations" / "fr.po"  # q015 among twelve questions: two validations
    po = polib.pofile(str(path))
    entry = next(e for e in po if e.msgctxt == "q015.option.a")
    entry.msgstr = "Environ 7 ms"
    po.save(str(path))
    code, out = run_cli("validate")
    assert re.search(r"translations/fr\.po:\d+:\d+: warning W528: q015\.option\.a: an ordinary space between a number and its unit", out), out
    assert run_cli("i18n", "fix-typography", "--lang", "fr")[0] == 0
    assert next(e for e in polib.pofile(str(path)) if e.msgctxt == "q015.option.a").msgstr == f"Environ 7{NBSP}ms"
    code, out = run_cli("validate")
    assert "W528" not in out


def test_the_bundled_french_has_its_numbers_right():
    from conftest import REPO

    from aistack_bank.rules.validate import validate_bank

    for bank in (REPO / "bank", REPO / "examples" / "every-kind" / "bank"):
        report = validate_bank(bank, translations=bank.parent / "translations", run_checks=False)
        assert [str(d) for d in report.diagnostics if d.code in ("W520", "W528")] == []
