"""The translation's side of the parity checks is read once per text and language
(``translation_parity``, kept by text for a catalog), an ASCII translation from its characters'
classes and any translation's formula tokens searched for only where its classes show a token
may be kept, and finds what the scans of each translation found before.

:func:`parity_diagnostics` as it was (spelled out here: each scan of the translation called for
each field) is compared with the code now on random pairs of texts over the characters that
matter (digits of other scripts, the spaces and separators of each language's numbers, units,
operators, superscripts, parentheses, markup), in English, French, Dutch and languages without
a rule of their own, with the translations' sides shared by the fields of a catalog as
``verify_catalog`` shares them; and on every translated entry of the bundled bank's catalogs and
of ``examples/every-kind``'s.
"""

from __future__ import annotations

import random
from pathlib import Path

from aistack_bank.errors import Location, error
from aistack_bank.i18n.catalog import read_catalog
from aistack_bank.i18n.fields import TextField, bank_fields
from aistack_bank.i18n.verify import _fmt_numbers, _where, parity_diagnostics
from aistack_bank.load import read_library
from aistack_bank.rules.quantities import (english_parity, formula_tokens, has_token_hint, markup_tokens, numbers_and_quantities,
                                           parity_sides, quantities, translation_parity)

ROOT = Path(__file__).resolve().parent.parent
WHERE = Location.of(Path("translations/fr.po"), 12, 8)
LANGUAGES = ("en", "fr", "nl", "de", "fr_CA")


# ----------------------------------------------------------------------------- the code before

def _parity_before(field: TextField, translation: str, language: str, where: Location, sides: dict | None = None) -> list:
    english = field.text
    side = sides.get(english) if sides else None
    if side is None:
        if not has_token_hint(translation) and not has_token_hint(english):
            return []  # neither text holds a number, a formula or markup
        side = english_parity(english)
    en_numbers, en_q, en_f, en_m = side  # (tuples, sorted but the markup)
    diags = []
    tr_numbers, tr_q = numbers_and_quantities(translation, language)
    tr_numbers.sort()
    if en_numbers != tuple(tr_numbers):
        diags.append(error("E502", f"{field.key}: numbers differ: English has {_fmt_numbers(en_numbers)}, {language} has {_fmt_numbers(tr_numbers)}", _where(where)))
    else:
        tr_q.sort()
        if en_q != tuple(tr_q):
            en_text = ", ".join(q.text for q in quantities(english, "en")) or "none"
            tr_text = ", ".join(q.text for q in quantities(translation, language)) or "none"
            diags.append(error("E502", f"{field.key}: quantities differ: English has {en_text}, {language} has {tr_text}", _where(where)))
    tr_f = formula_tokens(translation)
    if en_f or tr_f:
        tr_f.sort()
        if en_f != tuple(tr_f):
            diags.append(error("E507", f"{field.key}: formulas differ: English has {', '.join(en_f) or 'none'}, {language} has {', '.join(tr_f) or 'none'}", _where(where)))
    tr_m = markup_tokens(translation)
    if en_m != tuple(tr_m):
        diags.append(error("E503", f"{field.key}: markup/placeholders differ: English has {list(en_m) or 'none'}, {language} has {tr_m or 'none'}", _where(where)))
    return diags


def _translation_side_before(text: str, lang: str) -> tuple:
    numbers, found = numbers_and_quantities(text, lang)
    numbers.sort()
    found.sort()
    formulas = formula_tokens(text)
    formulas.sort()
    return tuple(numbers), tuple(found), tuple(formulas), tuple(markup_tokens(text))


# ----------------------------------------------------------------------------- random texts

PIECES = list("aZMNKQ xyé09 5,.-_()'") + [
    "²", "³", "⁴", "·", "×", "/", "^", " × ", " · ", "<b>", "</b>", "<br/>", "{n}", "{}", "%s", "%(name)s", "%d", "%", "\u00a0", "\u202f",
    "\u2009", "٣", "۴", "½", "é", "ô", "à", "Ü", "ß", "\u00b5", "μ", "GB", "Go", "MB", "Mo", "KiB", "ms", "s", "h", "min", "bits", "bit",
    "-bit", "bytes", "-bytes", "octets", "/s", "µs", "μs", "FLOP", "FLOPS", "TFLOPS", "FLOP/byte", "k", "o", "1,000", "1 000", "1\u202f000",
    "1\u00a0000,5", "1.000", "1.000,5", "3,5", "3.5", "000", "12", "2MNK", "N×N", "M × K", "6ND", "2N²/3", "N^2", "(2N)", "((N))", "N2/3",
    "MAC×2", "FP16", "BF16", "H100", "INT8", "GPT-4", "word", "the option", "Environ", "ongeveer"]


def _text(rng: random.Random) -> str:
    return "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 12)))


def _translation(rng: random.Random, english: str) -> str:
    """Often the English with one piece changed (so that most pairs agree, as a bank's do)."""
    if rng.random() < 0.3:
        return _text(rng)
    pieces = list(english)
    if pieces and rng.random() < 0.7:
        pieces[rng.randrange(len(pieces))] = rng.choice(PIECES)
    return "".join(pieces)


def test_a_translations_side_is_what_its_scans_find():
    rng = random.Random(20261203)
    kept = 0
    for _ in range(40000):
        text = _text(rng)
        if rng.random() < 0.2:
            text = text.encode("ascii", "ignore").decode("ascii")  # (more ASCII texts: their own reading)
        lang = rng.choice(LANGUAGES)
        side = translation_parity(text, lang)
        assert side == _translation_side_before(text, lang), (text, lang)
        assert all(type(part) is tuple for part in side)
        kept += bool(side[2])
    assert kept > 2000  # (formula tokens are met, kept and not)


def test_the_same_findings_with_each_translation_read_once():
    rng = random.Random(33)
    found = 0
    for language in LANGUAGES:
        read: dict = {}  # (shared by the catalog's fields, as verify_catalog shares it)
        texts: list[str] = []
        for index in range(5000):
            english = _text(rng)
            field = TextField(f"q{index:04d}.stem", english, Path("bank/t/q.yaml"), 3)
            sides = parity_sides([english]) if rng.random() < 0.8 else None
            translation = rng.choice(texts) if texts and rng.random() < 0.2 else _translation(rng, english)  # (a text met before)
            texts.append(translation)
            before = _parity_before(field, translation, language, WHERE, sides)
            assert parity_diagnostics(field, translation, language, WHERE, sides, read) == before, (english, translation, language)
            assert parity_diagnostics(field, translation, language, WHERE, sides) == before
            found += bool(before)
    assert found > 10000


def _bank_pairs(root: Path):
    source = read_library(root / "bank")
    fields = bank_fields(source)
    sides = parity_sides(field.text for field in fields)
    for path in sorted((root / "translations").glob("*.po")):
        catalog = read_catalog(path)
        active = catalog.active()
        yield catalog.language, sides, [(field, active[field.key].msgstr) for field in fields
                                        if field.key in active and active[field.key].msgstr]


def test_the_bundled_banks_translations_find_what_they_found():
    checked = 0
    for root in (ROOT, ROOT / "examples" / "every-kind"):
        for language, sides, pairs in _bank_pairs(root):
            read: dict = {}
            for field, msgstr in pairs:
                assert translation_parity(msgstr, language) == _translation_side_before(msgstr, language), msgstr
                before = _parity_before(field, msgstr, language, WHERE, sides)
                assert parity_diagnostics(field, msgstr, language, WHERE, sides, read) == before
                # (and against an English with other figures: findings of every kind)
                other = TextField(field.key, field.text + " 3 GB 2MNK <b>", field.path, field.line)
                assert parity_diagnostics(other, msgstr, language, WHERE, sides, read) == _parity_before(other, msgstr, language, WHERE, sides)
                checked += 1
    assert checked > 500


def test_a_catalog_with_figures_taken_out_or_put_in_is_verified_as_before(tmp_path, monkeypatch):
    """``verify_catalog`` (its translations' sides kept by text, an entry without a hint on
    either side answered without ``_entry_findings``) and the code before (spelled out in
    ``test_catalog_lookups_once_equivalence``) on the bundled bank's catalogs damaged at random,
    with numbers, units, formulas and markup also taken out of translations and lines added."""
    import re

    import polib
    from aistack_bank.i18n import verify
    from test_catalog_lookups_once_equivalence import _damaged, _source, _verify_catalog_before

    rng = random.Random(1313)
    figures = re.compile(r"[0-9²³⁴×·/^<>{}%]|\b(?:Go|GB|Mo|MB|ms)\b")
    codes: set = set()
    for with_records in (True, False):
        source, fields = _source(with_records=with_records)
        for language in ("fr", "nl"):
            folder = tmp_path / f"{language}-{with_records}"
            folder.mkdir()
            (folder / "glossary.yaml").write_bytes((ROOT / "translations" / "glossary.yaml").read_bytes())
            po = polib.pofile(_damaged(rng, (ROOT / "translations" / f"{language}.po").read_text(encoding="utf-8")).decode("utf-8"))
            for entry in po:
                roll = rng.random()
                if roll < 0.15:
                    entry.msgstr = figures.sub("", entry.msgstr)
                elif roll < 0.2:
                    entry.msgstr += rng.choice(["\nx", " 1\u202f000,5 Go", " N × K", " 2N²/3", " <i>", " BF16"])
                elif roll < 0.22:
                    entry.msgstr = entry.msgstr.upper()
            path = folder / f"{language}.po"
            po.save(str(path))
            for light in (True, False):
                before = _verify_catalog_before(source, fields, read_catalog(path, light=light))
                assert verify.verify_catalog(source, fields, read_catalog(path, light=light)) == before
                codes |= {d.code for d in before}
                for name, verifier in (("before", _verify_catalog_before), ("after", verify.verify_catalog)):
                    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / f"cache-{name}-{language}-{light}-{with_records}"))
                    assert verifier(source, fields, read_catalog(path, light=light), memo=True, inputs="inputs") == before
    assert {"W501", "W502", "E502", "E503", "E507", "E508"} <= codes, codes
