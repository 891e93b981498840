"""The catalogs' checks of a cold `bank validate`, made cheaper, find what they found before.

- A catalog read as light entries whose contexts are distinct (and without plural forms) gets
  only its header checked: the checks of duplicates, contexts and plural counts find nothing
  there (`LightCatalog.distinct`), so they are not run over its 100 000 entries.
- French typography (W520, W528) looks for the protected spans of a text (code, URLs, e-mail
  addresses) only when a mark or a number of it would give an issue.

Each is compared with the code before, spelled out below, on random inputs.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from test_column_catalog import _catalog

from aistack_bank.i18n import catalog as catalog_module
from aistack_bank.i18n import typography
from aistack_bank.i18n.catalog import (
    Catalog,
    check_duplicates,
    check_header,
    check_one_context_per_field,
    check_plural_counts,
)
from aistack_bank.i18n.pofile import light_catalog, read_light_rows
from aistack_bank.i18n.typography import NBSP, NumberIssue, TypographyIssue


def _old_checked_diagnostics(catalog: Catalog) -> list:
    """The catalog checks of a light catalog before: all four, over every entry."""
    found = []
    for check in (check_header, check_duplicates, check_one_context_per_field, check_plural_counts):
        found.extend(check(catalog))
    return found


@pytest.mark.parametrize("seed", range(2))
def test_a_light_catalog_is_checked_as_with_every_check(seed):
    rng = random.Random(9090 + seed)
    path = Path("translations/fr.po")
    compared = distinct = 0
    for _ in range(300):
        text = _catalog(rng)
        rows, _ = read_light_rows(text, path)
        if rows is None:
            continue
        po = light_catalog(rows)
        checked = catalog_module._checked(Catalog(path=path, language="fr", po=po, diagnostics=[]))
        assert checked.diagnostics == _old_checked_diagnostics(Catalog(path=path, language="fr", po=light_catalog(rows), diagnostics=[])), text
        distinct += po.distinct()
        compared += 1
    assert compared > 200 and 50 < distinct < compared - 50  # both ways taken, many times


def test_a_light_catalog_with_a_shared_context_is_not_distinct():
    path = Path("translations/fr.po")
    head = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: fr\\n"\n"Plural-Forms: nplurals=2; plural=(n > 1);\\n"\n\n'
    for body, distinct in (('msgctxt "a"\nmsgid "x"\nmsgstr ""\n\nmsgctxt "b"\nmsgid "x"\nmsgstr ""\n', True),
                           ('msgctxt "a"\nmsgid "x"\nmsgstr ""\n\nmsgctxt "a"\nmsgid "y"\nmsgstr ""\n', False),
                           ('msgctxt "a"\nmsgid "x"\nmsgstr ""\n\n#~ msgctxt "a"\n#~ msgid "x"\n#~ msgstr "z"\n', False),
                           ('msgid "x"\nmsgstr ""\n\nmsgid "x"\nmsgstr "y"\n', False),
                           ('msgid "x"\nmsgstr ""\n\nmsgid "y"\nmsgstr "y"\n', True),
                           ('msgctxt "a"\nmsgid "file"\nmsgid_plural "files"\nmsgstr[0] "un"\nmsgstr[1] "des"\n', False)):
        rows, _ = read_light_rows(head + body, path)
        assert light_catalog(rows).distinct() is distinct, body


# --- French typography: the code before, spelled out --------------------------------------

def _old_typography_issues(text: str) -> list[TypographyIssue]:
    T = typography
    issues = []
    if not T._MARKS.search(text):
        return issues
    spans = T._protected_spans(text)
    size = len(text)
    for match in T._MARKS.finditer(text):
        index, ch = match.start(), match.group()
        if spans and T._inside(spans, index):
            continue
        if ch in T._BEFORE:
            if index == 0:
                continue
            prev = text[index - 1]
            nxt = text[index + 1] if index + 1 < size else ""
            if prev == NBSP:
                continue
            if prev in T._WRONG_SPACES:
                issues.append(TypographyIssue(index - 1, ch, prev, False))
                continue
            if prev in T._BEFORE or prev == "\n":
                continue
            if nxt and not nxt.isspace() and nxt not in "»)]}\"'’.,":
                continue
            if prev in "([{/" or prev.isspace():
                continue
            issues.append(TypographyIssue(index, ch, "", True))
        elif ch == "»":
            prev = text[index - 1] if index else ""
            if prev == NBSP or index == 0:
                continue
            if prev in T._WRONG_SPACES:
                issues.append(TypographyIssue(index - 1, ch, prev, False))
            elif not prev.isspace():
                issues.append(TypographyIssue(index, ch, "", True))
        elif ch == "«":
            nxt = text[index + 1] if index + 1 < size else ""
            if nxt == NBSP or not nxt:
                continue
            if nxt in T._WRONG_SPACES:
                issues.append(TypographyIssue(index + 1, ch, nxt, False))
            elif not nxt.isspace():
                issues.append(TypographyIssue(index + 1, ch, "", True))
    return issues


def _old_number_issues(text: str) -> list[NumberIssue]:
    T = typography
    if not T._DIGIT.search(text):
        return []
    spans = T._protected_spans(text)
    issues = []
    for match in T._UNIT_SPACE.finditer(text):
        if match.group(1) != NBSP and not T._inside(spans, match.start()):
            issues.append(NumberIssue(match.start(1), "unit", match.group(1), NBSP))
    for match in T._LONG_NUMBER.finditer(text):
        if T._inside(spans, match.start()):
            continue
        digits = [i for i in range(match.start(), match.end()) if text[i].isdigit()]
        if len(digits) < 5:
            continue
        if match.group(0).isdigit():
            size = len(digits)
            issues += [NumberIssue(match.start() + i, "group", "", T.NNBSP) for i in range(size % 3 or 3, size, 3)]
        else:
            issues += [NumberIssue(i, "group", text[i], T.NNBSP) for i in range(match.start(), match.end()) if not text[i].isdigit() and text[i] != T.NNBSP]
    return sorted(issues, key=lambda issue: issue.offset)


PIECES = ["Quelle", "mémoire", "?", "!", ":", ";", "«", "»", " ", NBSP, "\u202f", "\u2009", "\u2007", "\n", "(", ")", "/", "x", "10", "30",
          "65504", "65 504", "1 000 000", "3,5", "14", "Go", "ms", "%", "bits", "FP16", "`code ? x`", "`", "https://ex.fr/a?b:c",
          "www.ex.fr/x!", "a@b.fr", "ftp://h/1 000", "'", "’", ".", ",", "]", "\""]


def _text(rng: random.Random) -> str:
    return "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 14)))


def test_french_typography_finds_what_it_found_before():
    rng = random.Random(5150)
    found = protected = 0
    for _ in range(6000):
        text = _text(rng)
        assert typography.typography_issues(text) == _old_typography_issues(text), text
        assert typography.number_issues(text) == _old_number_issues(text), text
        found += bool(_old_typography_issues(text)) + bool(_old_number_issues(text))
        protected += bool(typography._protected_spans(text)) and bool(_old_typography_issues(text) or _old_number_issues(text))
    assert found > 2000 and protected > 300  # issues found, and found next to protected spans, many times


NUMBER_PIECES = ["1", "12", "123", "4096", "65504", "000", "3,5", "²", "³", "⁻", "¹", " ", NBSP, "\u202f", "\u2009", "\u2007", "Go", "Mo/s",
                 "ms", "%", "°C", "bits", "x", "FP16", ".", ",", "a", "٣", "`", "https://h/65 504"]


def test_number_issues_with_the_hint_first_find_what_they_found_before():
    """number_issues looks for its two patterns only in a text its hint finds something in (a
    digit or an exponent then a space other than U+00A0, a digit, U+00A0 and three digits, or
    five digits): compared with the code before on random texts made of numbers and spaces."""
    rng = random.Random(6606)
    skipped = found = 0
    for _ in range(6000):
        text = "".join(rng.choice(NUMBER_PIECES) for _ in range(rng.randint(0, 10)))
        before = _old_number_issues(text)
        assert typography.number_issues(text) == before, text
        found += bool(before)
        skipped += typography._DIGIT.search(text) is not None and typography._NUMBER_HINT.search(text) is None
    assert found > 400 and skipped > 400, (found, skipped)  # (both ways taken many times)


def test_french_typography_of_a_catalog_warns_as_before(tmp_path):
    """The W520 and W528 of a French catalog's translations, made without a list for a text
    without any (``typography._typography_hits``), compared with the finder before (spelled
    out: both lists' issues through generators every time), on random translations, some fuzzy
    or empty."""
    import polib

    from aistack_bank.i18n.catalog import new_catalog, read_catalog, render_catalog
    from aistack_bank.i18n.fields import TextField
    from aistack_bank.i18n.locations import translation_warnings

    def before(field, msgstr):
        return [*(("W520", f"{issue.describe()}; run `bank i18n fix-typography --lang fr`", issue.offset) for issue in typography.typography_issues(msgstr)),
                *(("W528", f"{issue.describe()}; run `bank i18n fix-typography --lang fr`", issue.offset) for issue in typography.number_issues(msgstr))]

    rng = random.Random(7707)
    fields, po = [], new_catalog("fr", "test")
    for index in range(1500):
        key = f"q{index:04d}.stem"
        fields.append(TextField(key, "English", Path("bank/t/q.yaml"), index + 1))
        text = _text(rng).replace("\n", " ") if rng.random() < 0.9 else ""
        po.append(polib.POEntry(msgctxt=key, msgid="English", msgstr=text, flags=["fuzzy"] if rng.random() < 0.05 else []))
    path = tmp_path / "fr.po"
    path.write_bytes(render_catalog(po))
    catalog = read_catalog(path, light=True)
    old = translation_warnings(catalog, catalog.active(), fields, before)
    assert typography.catalog_typography_diagnostics(catalog, catalog.active(), fields) == old
    assert {d.code for d in old} == {"W520", "W528"} and len(old) > 500
