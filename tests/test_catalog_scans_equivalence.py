"""The catalog workers' per-translation scans, made cheaper, answer what they answered before.

- ``has_token_hint`` (:mod:`aistack_bank.rules.quantities`) searches one class without a
  category (the hint's characters below U+0660, and every character from U+0660 on) and asks
  ``TOKEN_HINT`` only of a character from U+0660 on; before, ``TOKEN_HINT`` was searched for.
- ``may_refer`` (:mod:`aistack_bank.rules.lints`) searches the text lowered by ``str.lower``
  once for a word, a "q" before a digit or a character ``_folded`` replaces; before, the text was
  folded (its dotted capital I, dotless i and long s replaced) and lowered, then searched.
- ``_Owners.save`` tells whether a field key or owner holds a separator from the strings joined
  (``verify._kept_fields``), not by asking each string.
- The lints of a catalog (references, French typography, glossary) are given the translated,
  not fuzzy entries and their fields as ``verify_catalog`` went through them
  (``current``), instead of looking each field's entry up again.

Each is compared with the code before, spelled out below, on random inputs.
"""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

import pytest

from aistack_bank.i18n import verify
from aistack_bank.rules import lints, quantities
from aistack_bank.rules.quantities import TOKEN_HINT, has_token_hint

DIGIT = re.compile(r"\d")

# characters around the boundaries the new searches draw: ASCII digits and the hint's own
# characters, digits of other scripts (below U+0660 there are none; Arabic-Indic, Devanagari,
# fullwidth, and outside the BMP), other characters from U+0660 on (letters, spaces, marks,
# emoji), superscripts that are digits but not decimal ones
CHARS = (list("0123456789aZ .,/^<{%-()") + ["²", "³", "⁴", "·", "×", "¹", "⁰", "½", "\u065f", "\u0660", "\u0669", "\u06f5", "\u0966", "\uff13",
                                           "\U0001d7d9", "\U000104a3", "\U0001f600", "\u202f", "\u00a0", "\u2019", "é", "ß", "\u4e00", "\u0307",
                                           "\ud800", "\U0010ffff", "\u2074", "\u2083", "\u3007"])


def _text(rng: random.Random, pieces=CHARS, longest: int = 12) -> str:
    return "".join(rng.choice(pieces) for _ in range(rng.randint(0, longest)))


def test_the_hint_search_answers_as_before_for_every_character():
    has_token_hint("")  # (its class made: the characters below U+0660 of TOKEN_HINT, all from U+0660 on)
    wide = quantities._hint_class()
    assert all((wide.match(chr(code)) is not None) == (code >= 0x660 or TOKEN_HINT.match(chr(code)) is not None) for code in range(sys.maxunicode + 1))
    hint = digit = 0
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        before = TOKEN_HINT.search(char) is not None
        assert has_token_hint(char) is before, hex(code)
        hint += before
        digit += DIGIT.search(char) is not None
    assert digit > 600 and hint == digit + 10  # (every decimal digit, and ² ³ ⁴ · × / ^ < { %)


@pytest.mark.parametrize("seed", range(3))
def test_the_hint_search_answers_as_before_in_random_texts(seed):
    rng = random.Random(3300 + seed)
    fewer = [c for c in CHARS if not ("0" <= c <= "9" or c in "²³·×/^<{%")]  # (no hint but ⁴ and other scripts' digits)
    found = high_first = 0
    for _ in range(20000):
        text = _text(rng, CHARS if rng.random() < 0.4 else fewer)
        before = TOKEN_HINT.search(text) is not None
        assert has_token_hint(text) is before, text
        found += before
        first = quantities._hint_class().search(text)
        high_first += first is not None and first.group() >= "\u0660" and TOKEN_HINT.match(text, first.start()) is None
    assert 3000 < found < 18000 and high_first > 5000  # (both answers, and a character from U+0660 on, not a hint, first many times)


def _may_refer_before(text: str, lang: str = "en") -> bool:
    """lints.may_refer as it was: the folded text searched."""
    return lints._MAY_REFER[lints._language(lang)].search(lints._folded(text)) is not None


WORD_PIECES = ["option", "OPTION", "Option", "optıon", "OPTİON", "questİon", "QUESTION", "queſtion", "réponse", "RÉPONSE", "choix", "CHOİX",
               "proposition", "antwoord", "ANTWOORD", "keuze", "vraag", "VRAGEN", "optie", "alternatie", "above", "ABOVE", "below", "answer",
               "choice", "alternative", "q", "Q", "q1", "Q12", "q٣", "İ", "ı", "ſ", "\u0307", "i\u0307", "I", "i", "s", "S", "o", "ption",
               "uestion", " ", "\u00a0", "\u202f", "é", "e\u0301", "x", "1", "-", "K"]


@pytest.mark.parametrize("lang", ["fr", "nl", "en", "de", "fr_CA"])
def test_may_refer_answers_as_before(lang):
    rng = random.Random(4400 + sum(map(ord, lang)))
    answers = set()
    odd = 0
    for _ in range(20000):
        text = _text(rng, WORD_PIECES, 8)
        before = _may_refer_before(text, lang)
        assert lints.may_refer(text, lang) is before, (text, lang)
        answers.add(before)
        odd += any(c in text for c in "İıſ\u0307")
    assert answers == {True, False} and odd > 5000


def test_may_refer_keeps_the_lowered_search_for_every_language():
    # (a language whose words would break the argument of may_refer would be searched as before)
    assert set(lints._MAY_REFER_LOWERED) == set(lints._MAY_REFER)


def _kept_fields_before(keys: list[str], owners: list[str]):
    """What _Owners.save kept before (None: nothing)."""
    if not any("\0" in text or "\1" in text for text in (*keys, *owners)) and len(set(keys)) == len(keys):
        pairs = "\0" + "\0".join(f"{key}\1{owner}" for key, owner in zip(keys, owners)) + "\0"
        return "\0".join(keys), pairs
    return None


def test_the_kept_field_keys_are_those_kept_before():
    rng = random.Random(6600)
    pieces = ["q", "1", ".", "stem", "option", "a", "topic", "", "\0", "\1", "é", "\u0307"]
    kept = refused = 0
    for _ in range(20000):
        count = rng.choice([0, 0, 1, 2, 3, 5, 8])
        keys = [_text(rng, pieces, 4) for _ in range(count)]
        owners = [_text(rng, pieces, 3) for _ in range(count + rng.choice([0, 0, 0, -1, 1]) if count else rng.choice([0, 0, 1]))]
        if rng.random() < 0.6:  # (mostly strings without a separator)
            keys = [key.replace("\0", "").replace("\1", "") for key in keys]
            owners = [owner.replace("\0", "").replace("\1", "") for owner in owners]
        before = _kept_fields_before(keys, owners)
        assert verify._kept_fields(keys, owners) == before, (keys, owners)
        kept += before is not None
        refused += before is None
    assert kept > 3000 and refused > 3000


def _warnings_before(catalog, active, fields, find):
    """locations.translation_warnings as it was: each field's entry looked up."""
    from aistack_bank.errors import warning
    from aistack_bank.i18n.locations import msgstr_offset_location

    found = []
    for field in fields:
        entry = active.get(field.key)
        if entry is None or not entry.msgstr or "fuzzy" in entry.flags:
            continue
        for code, message, offset in find(field, entry.msgstr):
            found.append(warning(code, f"{field.key}: {message}", msgstr_offset_location(catalog, entry, offset)))
    return found


LINT_PIECES = ["Quelle", "option", "B", "b)", "l’option B", "la réponse C", "l’option b", "la réponse", "question", "q012", "q7", " ", "\u00a0", "?", ":", "«", "»", "65504", "3,5", "Go",
               "14 Go", "\u202f", "`code`", "première", "ci-dessus", "GPU", "mémoire", "\n"]


@pytest.mark.parametrize("light", [True, False])
def test_the_lints_given_the_current_translations_warn_as_before(tmp_path, light):
    """References, typography and glossary of a random French catalog (entries fuzzy, empty,
    missing, made for another English text), given the current translations as verify_catalog
    lists them, against the lints as they were (each field's entry looked up)."""
    import polib

    from aistack_bank.i18n.catalog import new_catalog, read_catalog, render_catalog
    from aistack_bank.i18n.fields import TextField
    from aistack_bank.i18n.glossary import Glossary, Rule, Term, catalog_glossary_diagnostics
    from aistack_bank.i18n.locations import current_translations

    rng = random.Random(7700 + light)
    fields, po = [], new_catalog("fr", "test")
    for index in range(1200):
        qid = f"q{index:04d}"
        key, loc = rng.choice([(f"{qid}.stem", ("stem",)), (f"{qid}.option.b", ("options", 1, "text")), (f"{qid}.answer.a1", ("answers", 0, "text")),
                               (f"topic.t.key_point.k{index}", ())])
        if any(field.key == key for field in fields[-3:]):
            continue
        english = rng.choice(["The GPU memory", "Option B above", "14 GB of memory"])
        fields.append(TextField(key, english, Path("bank/t/q.yaml"), index + 1, question_id=None if key.startswith("topic.") else qid, loc=loc))
        if rng.random() < 0.08:
            continue  # (no entry)
        text = _text(rng, LINT_PIECES, 8) if rng.random() < 0.9 else ""
        msgid = english if rng.random() < 0.95 else "Another text"
        po.append(polib.POEntry(msgctxt=key, msgid=msgid, msgstr=text, flags=["fuzzy"] if rng.random() < 0.05 else []))
    path = tmp_path / "fr.po"
    path.write_bytes(render_catalog(po))
    catalog = read_catalog(path, light=light)
    active = catalog.active()
    # as verify_catalog lists them while it checks each entry
    current = []
    for field in fields:
        entry = active.get(field.key)
        if entry is None:
            continue
        if entry.msgstr and "fuzzy" not in entry.flags:
            current.append((field, entry))
    assert current_translations(active, fields) == current
    before = lints.translation_lints(catalog, active, fields)
    assert lints.translation_lints(catalog, active, fields, current=current) == before
    assert {d.code for d in before} >= {"W320", "W321", "W520", "W528"} and len(before) > 300

    def hits(field, msgstr):
        return [("W320", "hit", 0)] if "mémoire" in msgstr else []

    from aistack_bank.i18n.locations import translation_warnings

    assert translation_warnings(catalog, active, fields, hits, current) == _warnings_before(catalog, active, fields, hits)
    assert translation_warnings(catalog, active, fields, hits) == _warnings_before(catalog, active, fields, hits)
    glossary = Glossary(tmp_path / "glossary.yaml", [Term(("memory",), "", {"fr": Rule(use=("mémoire",), avoid=("Go",))}, 1)])
    shown = catalog_glossary_diagnostics(glossary, catalog, active, fields)
    assert catalog_glossary_diagnostics(glossary, catalog, active, fields, current) == shown
    assert {d.code for d in shown} == {"W521", "W522"}
