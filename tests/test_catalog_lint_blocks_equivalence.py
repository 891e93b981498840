"""The references' lint of a catalog reads its translations a block at a time
(aistack_bank/rules/lints.py, ``_referring``): the same translations are let through to the
references' patterns, in the same order, as by the code before (spelled out here), which asked
``may_refer`` of each translation."""

from __future__ import annotations

import random
import unicodedata
from pathlib import Path
from types import SimpleNamespace

import polib

from aistack_bank.i18n.catalog import read_catalog, render_catalog
from aistack_bank.i18n.fields import bank_fields
from aistack_bank.i18n.locations import current_translations
from aistack_bank.load import read_library
from aistack_bank.rules import lints
from aistack_bank.rules.lints import _referring, may_refer

ROOT = Path(__file__).resolve().parent.parent

PIECES = [
    "la", "réponse", "RÉPONSE", "Réponse", "option", "OPTION", "Optie", "antwoord", "KEUZE", "\u212aeuze", "alternatie", "choix", "CHOIX",
    "proposition", "question", "QUESTION", "vraag", "Vragen", "answer", "Choice", "above", "below", "q", "Q", "q1", "Q7", "q\u0663", "Q\u0663",
    "q0012", "q\0" "1", "\u0130", "\u0131", "\u017f", "\u0130STANBUL", "opt\u0130on", "\u017fuivante", "i\u0307", "\u03a3\u0391\u03a3", "\u03c3",
    "\0", "é", "É", "’", "\u00a0", "\u202f", " ", "\n", "x", "Mémoire", "3,5", "14 Go", "de", "het", "the", "l’option B", "(c)", "optie b",
    "r\u00e9pon", "se", "opti", "on", "ques", "tion", "\U0001d400", "ß", "ﬁ",
]


def _text(rng: random.Random) -> str:
    return "".join(rng.choice(PIECES) + rng.choice(("", " ", "", "\u00a0")) for _ in range(rng.randint(1, 6)))


def _referring_before(current: list, lang: str) -> list:
    """The filter of catalog_reference_diagnostics before: each translation asked on its own."""
    return [pair for pair in current if pair[0].question_id is not None and may_refer(pair[1].msgstr, lang)]


def test_referring_lets_through_what_may_refer_let_through():
    rng = random.Random(1500)
    for round_ in range(300):
        # (mostly plain texts, as a bank's, with now and then one that may refer)
        share = rng.choice((0.0, 0.002, 0.02, 0.3, 1.0))
        current = []
        for index in range(rng.randint(0, 700)):
            text = _text(rng) if rng.random() < share else rng.choice(("Une phrase simple", "Een zin", "Mémoire vive", "A plain text", "x"))
            field = SimpleNamespace(question_id=None if rng.random() < 0.1 else f"q{index:04d}", key=f"q{index:04d}.stem")
            current.append((field, SimpleNamespace(msgstr=text)))
        for lang in ("en", "fr", "nl", "de", "pt"):
            assert _referring(current, lang) == _referring_before(current, lang), (round_, lang)


def test_referring_without_the_lowered_search(monkeypatch):
    """A language whose words the lowered search cannot take is asked text by text."""
    rng = random.Random(1501)
    current = [(SimpleNamespace(question_id="q0001"), SimpleNamespace(msgstr=_text(rng))) for _ in range(500)]
    monkeypatch.setattr(lints, "_MAY_REFER_LOWERED", {})
    for lang in ("en", "fr", "nl"):
        assert _referring(current, lang) == _referring_before(current, lang)


def test_the_bundled_french_catalog_damaged_as_before(tmp_path):
    fields = bank_fields(read_library(ROOT / "bank"))
    rng = random.Random(1504)
    po = polib.pofile((ROOT / "translations" / "fr.po").read_text(encoding="utf-8"))
    for entry in po:
        if not entry.obsolete and entry.msgstr and rng.random() < 0.05:
            entry.msgstr = unicodedata.normalize("NFC", _text(rng).replace("\0", "")) or "x"
    path = tmp_path / "fr.po"
    path.write_bytes(render_catalog(po))
    for catalog in (read_catalog(ROOT / "translations" / "fr.po", light=True), read_catalog(path, light=True)):
        assert not catalog.diagnostics
        active = catalog.active()
        current = current_translations(active, fields)
        assert _referring(current, "fr") == _referring_before(current, "fr")


def test_the_kept_field_keys_with_the_map_s_length_are_those_of_the_set():
    """_Owners.save tells _kept_fields whether every key is there once from the length of its
    map of the keys (made from the same keys and as many owners) instead of a set of them."""
    from aistack_bank.i18n import verify

    rng = random.Random(1505)
    pieces = ["q", "1", ".", "stem", "option", "a", "topic", "", "\0", "\1", "é"]
    kept = refused = 0
    for _ in range(20000):
        keys = ["".join(rng.choice(pieces) for _ in range(rng.randint(0, 4))) for _ in range(rng.choice([0, 1, 2, 3, 5, 8]))]
        owners = ["".join(rng.choice(pieces) for _ in range(rng.randint(0, 3))) for _ in keys]
        if rng.random() < 0.7:
            keys = [key.replace("\0", "").replace("\1", "") for key in keys]
            owners = [owner.replace("\0", "").replace("\1", "") for owner in owners]
        before = verify._kept_fields(keys, owners)
        assert verify._kept_fields(keys, owners, len(dict(zip(keys, owners))) == len(keys)) == before, (keys, owners)
        kept += before is not None
        refused += before is None
    assert kept > 3000 and refused > 3000
