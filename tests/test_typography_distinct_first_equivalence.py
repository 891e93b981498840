"""French typography of a catalog (aistack_bank/i18n/typography.py, catalog_typography_diagnostics)
lists the distinct (text, hint) pairs of its current translations first and looks at each, and
walks the entries one by one only when some text has a hit: the same warnings, in the same
order, as the loop it replaced (kept below as it was: each entry's text looked up in a map of
the texts seen, by hint, and looked at when first met), whatever the texts, the hints (none,
every one, some, given as a list or as an iterator) and whether the current translations are
given."""

from __future__ import annotations

import pickle
import random
from itertools import repeat
from pathlib import Path

import polib

from aistack_bank.errors import warning
from aistack_bank.i18n import typography
from aistack_bank.i18n.catalog import read_catalog, render_catalog
from aistack_bank.i18n.fields import bank_fields
from aistack_bank.i18n.locations import current_translations, msgstr_offset_location
from aistack_bank.i18n.typography import _typography_hits, catalog_typography_diagnostics
from aistack_bank.load import read_library
from aistack_bank.rules.quantities import has_token_hint

ROOT = Path(__file__).resolve().parent.parent


def _typography_before(catalog, active: dict, fields, current=None, hints=None) -> list:
    """catalog_typography_diagnostics as it was before the distinct texts were listed first."""
    if not catalog.language.split("_")[0] == "fr":
        return []
    if current is None:
        current = current_translations(active, fields)
    if hints is None:
        hints = repeat(True)
    found: list = []
    seen: tuple[dict, dict] = ({}, {})
    for (field, entry), hint in zip(current, hints):
        msgstr = entry.msgstr
        kept = seen[1 if hint else 0]
        hits = kept.get(msgstr)
        if hits is None:
            hits = kept[msgstr] = _typography_hits(field, msgstr, hint)
        for code, message, offset in hits:
            found.append(warning(code, f"{field.key}: {message}", msgstr_offset_location(catalog, entry, offset)))
    return found


MARKS = ["?", "!", ":", ";", "«", "»"]
SPACES = [" ", "\u00a0", "\u202f", "\u2009", "\u2007", "", "\n"]
PIECES = ["Vrai", "ou", "faux", "10:30", "3350", "65504", "65 504", "65\u202f504", "14", "Go", "Go/s", "ms", "%", "°C", "1,5", "x!=y",
          "`a: b`", "https://example.org/a?b", "www.x.fr;", "a@b.fr", "², ³", "¹", "×", "·", "ß", "İ", "\u0301", "٣", "é", "œ", "Ω"]


def _text(rng: random.Random) -> str:
    """A text of words, numbers, units, marks and spaces of every kind (often wrong for French)."""
    out = []
    for _ in range(rng.randint(1, 9)):
        out.append(rng.choice(PIECES))
        if rng.random() < 0.5:
            out.append(rng.choice(SPACES) + rng.choice(MARKS) + rng.choice(SPACES))
        else:
            out.append(rng.choice(SPACES[:5]))
    return "".join(out).strip("\n") or "x"


_FRENCH: list[bytes] = []


def _french() -> polib.POFile:
    """The bundled French catalog as polib reads it, a new copy at each call: read once per test
    process and pickled (its copy renders the same bytes as a new read), then each copy unpickled
    (a tenth of a read: the catalogs of the cases of the test below were a sixth of its time)."""
    if not _FRENCH:
        po = polib.pofile((ROOT / "translations" / "fr.po").read_text(encoding="utf-8"))
        _FRENCH.append(pickle.dumps(po, protocol=pickle.HIGHEST_PROTOCOL))
        assert render_catalog(pickle.loads(_FRENCH[0])) == render_catalog(po)
    return pickle.loads(_FRENCH[0])


def _catalog(tmp_path: Path, seed: int, language: str = "fr", share: float = 0.5, clean: bool = False):
    """The bundled French catalog with ``share`` of its translations replaced by random texts,
    a few of them repeated (each entry verified where it is); with ``clean``, only by texts
    without any mark or digit, so that nothing is found."""
    rng = random.Random(seed)
    po = _french()
    pool = [_text(rng) for _ in range(12)]
    for entry in po:
        if entry.obsolete or not entry.msgstr:
            continue
        if clean:
            entry.msgstr = rng.choice(["Vrai", "Faux", "Une réponse", "Ça dépend", "Œuvre"])
        elif rng.random() < share:
            entry.msgstr = rng.choice(pool) if rng.random() < 0.5 else _text(rng)
        if rng.random() < 0.05:
            entry.flags.append("fuzzy")
    path = tmp_path / f"{language}-{seed}-{share}-{clean}" / f"{language}.po"
    path.parent.mkdir()
    path.write_bytes(render_catalog(po))
    return read_catalog(path, light=True)


def _hints(rng: random.Random, current: list, how: str):
    if how == "none":
        return None
    found = [has_token_hint(entry.msgstr) for _, entry in current]
    if how == "some":
        found = [hint and rng.random() < 0.5 for hint in found]
    if how == "ints":
        found = [1 if hint else 0 for hint in found]
    if how == "short":
        found = found[: len(found) // 2]  # (zip stops at the shorter)
    if how == "iterator":
        return iter(found)
    return found


def test_distinct_first_equals_the_loop_before(tmp_path):
    fields = bank_fields(read_library(ROOT / "bank"))
    rng = random.Random(20)
    compared = found_any = 0
    # Three of the eight seeds once drawn (0-7): their catalogs reach every line and branch of the
    # package (the writer of the catalogs included) and of the code before that the eight seeds'
    # reached (`coverage run --branch`), in about three eighths of the time.
    for seed in (0, 1, 4):
        for share, clean in ((0.5, False), (0.02, False), (1.0, False), (0.0, True)):
            catalog = _catalog(tmp_path, seed, share=share, clean=clean)
            active = catalog.active()
            current = current_translations(active, fields)
            without_hints = None  # (the code before without hints: the same for the three calls that give none)
            for how in ("none", "all", "some", "ints", "short", "iterator"):
                hints = _hints(rng, current, how)
                listed = list(hints) if hints is not None else None
                before = _typography_before(catalog, active, fields, current, None if listed is None else list(listed))
                if listed is None:
                    without_hints = before
                given = None if listed is None else iter(listed) if how == "iterator" else list(listed)
                assert catalog_typography_diagnostics(catalog, active, fields, current, given) == before, (seed, share, clean, how)
                compared += 1
                found_any += bool(before)
            # without the current translations given (the code before made them as `current` is
            # made: current_translations of the same entries and fields), and with them as an iterator
            assert catalog_typography_diagnostics(catalog, active, fields) == without_hints
            assert catalog_typography_diagnostics(catalog, active, fields, iter(current), None) == without_hints
            if clean:
                assert catalog_typography_diagnostics(catalog, active, fields, current) == []
    assert compared and found_any > 10


def test_not_french_finds_nothing(tmp_path):
    fields = bank_fields(read_library(ROOT / "bank"))
    catalog = _catalog(tmp_path, 1)
    nl = type(catalog)(path=catalog.path.with_name("nl.po"), language="nl", po=catalog.po, diagnostics=[])
    assert catalog_typography_diagnostics(nl, nl.active(), fields) == [] == _typography_before(nl, nl.active(), fields)


def test_each_distinct_text_looked_at_once(tmp_path, monkeypatch):
    """A text repeated in many entries is looked at once per hint; its warnings are each entry's."""
    fields = bank_fields(read_library(ROOT / "bank"))
    catalog = _catalog(tmp_path, 3, share=1.0)
    active = catalog.active()
    current = current_translations(active, fields)
    hints = [has_token_hint(entry.msgstr) for _, entry in current]
    calls = []
    real = typography._typography_hits

    def counted(field, msgstr, digits=True):
        calls.append((msgstr, bool(digits)))
        return real(field, msgstr, digits)

    monkeypatch.setattr(typography, "_typography_hits", counted)
    found = catalog_typography_diagnostics(catalog, active, fields, current, hints)
    assert len(calls) == len(set(calls)) == len({(entry.msgstr, bool(hint)) for (_, entry), hint in zip(current, hints)})
    monkeypatch.setattr(typography, "_typography_hits", real)
    assert found == _typography_before(catalog, active, fields, current, hints)
