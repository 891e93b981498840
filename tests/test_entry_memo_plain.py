"""Each catalog entry's own findings: an entry whose translation and English hold no character of
``TOKEN_HINT`` (no number, formula or markup: most entries) is checked again every time instead
of being looked up in the entry memo, whose digest costs more than its checks.

Compared, on random catalogs (fuzzy, untranslated, blank, made for another English text,
one-line titles with a newline, numbers, units, formulas and markup that agree or not), with
``_entry_findings`` as it was (spelled out here: every entry through the memo): the same
diagnostics, in the same order, with the memo off, cold, and warm from a memo either version
saved; the entries with a hint are still answered from the memo."""

from __future__ import annotations

import random
from pathlib import Path

import polib

from aistack_bank.cache.entries import EntryMemo, located
from aistack_bank.i18n import verify
from aistack_bank.i18n.catalog import new_catalog, read_catalog, render_catalog
from aistack_bank.i18n.fields import TextField
from aistack_bank.i18n.locations import msgstr_location
from aistack_bank.rules.quantities import TOKEN_HINT, parity_sides

WORDS = ["the", "option", "memory", "la", "mémoire", "het", "geheugen", "GPU", "?", ":", "é", "«", "»", "\u00a0"]
HINTED = ["14 GB", "14 Go", "2 ms", "3,5", "3.5", "2MNK", "N×N", "x²", "<b>", "</b>", "{n}", "%s", "50 %", "1/2", "6ND", "12"]


def _text(rng: random.Random, hint: float) -> str:
    pieces = [rng.choice(WORDS) for _ in range(rng.randint(1, 6))]
    if rng.random() < hint:
        pieces.insert(rng.randrange(len(pieces) + 1), rng.choice(HINTED))
    return " ".join(pieces)


def _findings_before(entries, field, entry, lang, catalog, sides=None):
    """_entry_findings as it was: every entry's findings through the memo."""
    parts = (field.key, field.text, field.key_bearing, entry.msgid, entry.msgstr, "fuzzy" in entry.flags, lang)
    found = entries.findings(parts, lambda: verify.entry_diagnostics(field, entry, lang, None, sides))
    if not found:
        return []
    return located(found, msgstr_location(catalog, entry))


def _random_catalog(rng: random.Random, folder: Path, lang: str, count: int):
    fields, po = [], new_catalog(lang, "test")
    for index in range(count):
        if rng.random() < 0.05:
            key = f"topic.t{index}.title"
        else:
            key = f"q{index:04d}.{rng.choice(['stem', 'option.a', 'option.b', 'feedback'])}"
        english = _text(rng, 0.4)
        fields.append(TextField(key, english, Path("bank/t/q.yaml"), index + 1, key_bearing=rng.random() < 0.3))
        roll = rng.random()
        msgid, flags = english, []
        if roll < 0.05:
            translation = ""
        elif roll < 0.1:
            translation, flags = _text(rng, 0.4), ["fuzzy"]
        elif roll < 0.15:
            msgid, translation = _text(rng, 0.4), _text(rng, 0.4)
        elif roll < 0.18:
            translation = "   "
        elif roll < 0.22:
            translation = _text(rng, 0.2) + "\n" + _text(rng, 0.2)
        elif roll < 0.6:
            translation = english.replace("the", "la").replace("memory", "mémoire")  # agrees
        else:
            translation = _text(rng, 0.5)
        po.append(polib.POEntry(msgctxt=key, msgid=msgid, msgstr=translation, flags=flags))
    path = folder / f"{lang}.po"
    path.write_bytes(render_catalog(po))
    return fields, read_catalog(path, light=True)


def _all(find, memo, fields, catalog, sides):
    active = catalog.active()
    out = []
    for field in fields:
        entry = active.get(field.key)
        if entry is not None:
            out += find(memo, field, entry, catalog.language, catalog, sides)
    return out


def test_the_same_findings_with_plain_entries_checked_again(tmp_path, monkeypatch):
    rng = random.Random(20261202)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    total = 0
    for round_ in range(4):
        folder = tmp_path / f"r{round_}"
        folder.mkdir()
        lang = rng.choice(["fr", "nl"])
        fields, catalog = _random_catalog(rng, folder, lang, 300)
        sides = parity_sides(f.text for f in fields) if round_ % 2 else None
        off = _all(_findings_before, EntryMemo(catalog.path, lang, enabled=False), fields, catalog, sides)
        total += len(off)
        assert _all(verify._entry_findings, EntryMemo(catalog.path, lang, enabled=False), fields, catalog, sides) == off
        # cold, then warm from the memo each version saved, crosswise
        for first, second in ((_findings_before, verify._entry_findings), (verify._entry_findings, _findings_before),
                              (verify._entry_findings, verify._entry_findings)):
            memo = EntryMemo(catalog.path, lang, enabled=True)
            memo._old = {}  # (cold: whatever the previous pair saved)
            assert _all(first, memo, fields, catalog, sides) == off
            memo.save()
            assert _all(second, EntryMemo(catalog.path, lang, enabled=True), fields, catalog, sides) == off
    assert total > 500  # (every kind of finding is met)


def test_entries_with_a_hint_are_still_answered_from_the_memo(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    rng = random.Random(7)
    fields, catalog = _random_catalog(rng, tmp_path, "fr", 300)
    memo = EntryMemo(catalog.path, "fr", enabled=True)
    _all(verify._entry_findings, memo, fields, catalog, None)
    memo.save()
    checked = []
    real = verify.entry_diagnostics
    monkeypatch.setattr(verify, "entry_diagnostics", lambda field, entry, *a: checked.append(entry) or real(field, entry, *a))
    _all(verify._entry_findings, EntryMemo(catalog.path, "fr", enabled=True), fields, catalog, None)
    hinted = [e for e in catalog.active().values() if e.msgstr and TOKEN_HINT.search(e.msgstr)]
    english = {f.key: f.text for f in fields}
    assert hinted and checked  # (the plain ones: checked again)
    assert not any(TOKEN_HINT.search(e.msgstr) or TOKEN_HINT.search(english[e.msgctxt]) for e in checked if e.msgstr)
