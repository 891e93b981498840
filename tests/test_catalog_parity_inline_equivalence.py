"""A Latin-1 translation's side of the parity checks is read from its characters' classes, and
``verify_catalog`` compares the sides of a current one-line entry itself when the entry memo
asks nothing of it (disabled, or cold), and finds what it found before.

``translation_parity`` as it was (``test_translation_parity_equivalence._translation_side_before``:
a text beyond ASCII read by the number pattern's search, each number parsed by
``parse_number``) is compared with the code now on hostile texts (French typography, numbers
with units, thousand separators of each language, no-break, narrow and thin spaces,
apostrophes, digits of other scripts, superscripts, operators, placeholders, markup), in every
language; and ``verify_catalog`` with the code
before (``_verify_catalog_before``, which checks each entry through ``_entry_findings``) on the
bundled bank's catalogs damaged with wrong numbers, figures taken out or put in, fuzzy and
untranslated entries and texts of several lines: the same findings, and the same entry memo
kept (the same values' digests, with the same findings, in the same order), cold, then warm
after an edit.
"""

from __future__ import annotations

import random
from pathlib import Path

import polib
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_translation_parity_equivalence import (
    _translation_side_before as _translation_parity_before,
)

from aistack_bank.cache.entries import EntryMemo
from aistack_bank.i18n import verify
from aistack_bank.i18n.catalog import read_catalog, render_catalog
from aistack_bank.rules.quantities import translation_parity

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = ("en", "fr", "nl", "de", "fr_CA")


# ----------------------------------------------------------------------------- hostile texts

PIECES = list("aZMNKQ xyé09 5,.-_()'") + [
    "²", "³", "⁴", "·", "×", "/", "^", " × ", " · ", "<b>", "</b>", "{n}", "{}", "%s", "%(name)s", "%d", "%", "\u00a0", "\u202f",
    "\u2009", "\u2007", "\u2019", "’", "«\u00a0", "\u00a0»", "\u00a0?", "\u00a0:", " ;", "٣", "۴", "½", "¹", "ª", "º", "é", "ô", "à",
    "Ü", "ß", "œ", "Œ", "\u00b5", "μ", "GB", "Go", "Mo", "Kio", "ms", "s", "h", "min", "bits", "-bit", "bytes", "octets", "/s",
    "µs", "FLOP", "TFLOPS", "FLOP/octet", "o", "1,000", "1 000", "1\u202f000", "1\u2009000", "1\u00a0000,5", "65\u202f504", "1.000",
    "1.000,5", "3,5", "3.5", "000", "12", "2MNK", "N×N", "M × K", "6ND", "2N²/3", "N^2", "(2N)", "N2/3", "MAC×2", "FP16", "A100",
    "\u00a0Go", "\u00a0%", "l’option", "Environ", "ongeveer", "\U0001f600", "\ud800"]


@settings(max_examples=max(800, settings.default.max_examples), deadline=None)  # (more with HYPOTHESIS_PROFILE=long)
@given(st.lists(st.sampled_from(PIECES), max_size=14), st.sampled_from(LANGUAGES))
def test_a_translations_side_is_what_the_scans_found(pieces, lang):
    text = "".join(pieces)
    side = translation_parity(text, lang)
    assert side == _translation_parity_before(text, lang), (text, lang)
    assert all(type(part) is tuple for part in side)


@settings(max_examples=max(400, settings.default.max_examples), deadline=None)  # (more with HYPOTHESIS_PROFILE=long)
@given(st.text(alphabet=st.characters(max_codepoint=0x2100), max_size=40), st.sampled_from(LANGUAGES))
def test_any_text_has_the_side_it_had(text, lang):
    assert translation_parity(text, lang) == _translation_parity_before(text, lang), (text, lang)


def test_each_latin1_and_classed_character_beside_a_number():
    """Every Latin-1 character, and each one written as a space, before, after and inside
    numbers of each language (a number glued to a letter is none; a space may group digits)."""
    checked = 0
    for code in [*range(256), 0x202F, 0x2009, 0x2019, 0x2007, 0x0663, 0x2074]:
        c = chr(code)
        for text in (f"{c}5", f"5{c}", f"1{c}000", f"1{c}000 Go", f"x {c}3,5\u00a0Mo", f"2{c}N", f"N{c}2/3", f"{c}<b>{c}", f"65{c}504{c}"):
            for lang in LANGUAGES:
                assert translation_parity(text, lang) == _translation_parity_before(text, lang), (text, lang)
                checked += 1
    assert checked > 10000


# ----------------------------------------------------------------------------- catalogs

def _memo_kept(path: Path, language: str) -> list:
    """What the entry memo of the catalog at ``path`` keeps, as its store holds it (in order)."""
    memo = EntryMemo(path, language, enabled=True)
    return list(memo._old.items())


FIGURES = [" 3 Go", " 1\u202f000,5\u00a0Go", " 2N²/3", " <i>", " {n}", " 65\u202f504", " 7\u2009ms", " l’option 4", "\nx", " N × K"]


def _damaged(rng: random.Random, language: str) -> bytes:
    import re

    po = polib.pofile((ROOT / "translations" / f"{language}.po").read_text(encoding="utf-8"))
    digits = re.compile(r"\d")
    for entry in po:
        if entry.obsolete or not entry.msgctxt:
            continue
        roll = rng.random()
        if verify.is_one_line_key(entry.msgctxt) and roll < 0.6:
            entry.msgstr += rng.choice(["\n2 Go", "\nx"])  # (a title of two lines)
        elif roll < 0.12:
            entry.msgstr = digits.sub(lambda m: str((int(m.group()) + 1) % 10), entry.msgstr)  # (a wrong number)
        elif roll < 0.2:
            entry.msgstr = re.sub(r"[0-9²³×/<>{}%]", "", entry.msgstr)  # (figures taken out)
        elif roll < 0.3:
            entry.msgstr += rng.choice(FIGURES)
        elif roll < 0.33:
            entry.flags.append("fuzzy")
        elif roll < 0.35:
            entry.msgstr = rng.choice(["", "  "])
        elif roll < 0.37:
            entry.msgid += " (old)"
        elif roll < 0.45:
            entry.msgstr = entry.msgstr.replace(" ", "\u202f").replace("'", "\u2019")
    return render_catalog(po)


@pytest.mark.parametrize("seed", range(3))
def test_a_damaged_catalog_has_its_findings_and_memo_as_before(tmp_path, monkeypatch, seed):
    from test_catalog_lookups_once_equivalence import _source, _verify_catalog_before

    rng = random.Random(2323 + seed)
    source, fields = _source(with_records=seed != 1)
    codes: set = set()
    for language in ("fr", "nl"):
        folder = tmp_path / language
        folder.mkdir()
        (folder / "glossary.yaml").write_bytes((ROOT / "translations" / "glossary.yaml").read_bytes())
        path = folder / f"{language}.po"
        path.write_bytes(_damaged(rng, language))
        for light in (True, False):
            before = _verify_catalog_before(source, fields, read_catalog(path, light=light))
            assert verify.verify_catalog(source, fields, read_catalog(path, light=light)) == before
            codes |= {d.code for d in before}
            kept = {}
            for name, verifier in (("before", _verify_catalog_before), ("after", verify.verify_catalog)):
                monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / f"cache-{name}-{language}-{light}"))
                assert verifier(source, fields, read_catalog(path, light=light), memo=True, inputs="inputs") == before  # (cold)
                kept[name] = _memo_kept(path, language)
                assert verifier(source, fields, read_catalog(path, light=light), memo=True, inputs="inputs") == before  # (warm)
            assert kept["after"] == kept["before"]
            assert len(kept["after"]) > 100
        # then one entry edited: what the memo kept is read warm, the edited entry checked again
        po = polib.pofile(path.read_text(encoding="utf-8"))
        entry = next(e for e in po if e.msgctxt and e.msgstr and any(c.isdigit() for c in e.msgstr))
        entry.msgstr = entry.msgstr.replace(next(c for c in entry.msgstr if c.isdigit()), "8", 1) + " 9 Go"
        path.write_bytes(render_catalog(po))
        found = {}
        for name, verifier in (("before", _verify_catalog_before), ("after", verify.verify_catalog)):
            monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / f"cache-{name}-{language}-True"))
            found[name] = verifier(source, fields, read_catalog(path, light=True), memo=True, inputs="inputs")
            kept[name] = _memo_kept(path, language)
        assert found["after"] == found["before"] == _verify_catalog_before(source, fields, read_catalog(path, light=True))
        assert kept["after"] == kept["before"]
    assert {"W501", "W502", "E502", "E503", "E507", "E508", "E116"} <= codes, codes
