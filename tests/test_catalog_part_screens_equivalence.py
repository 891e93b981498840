"""The checks of a catalog's translations called without ``current`` (the references, French
typography) find what they found before.

- ``catalog_reference_diagnostics`` without ``current`` lists the current translations itself
  and lets only those the references' filter (``lints._referring``) lets through reach the
  memo and the patterns, instead of asking ``may_refer`` of each one through
  ``translation_warnings``.
- ``catalog_typography_diagnostics`` without ``current`` or ``hints`` looks at each distinct
  text once (its numbers looked for in every one) instead of at every entry.

The code before is spelled out here (and in ``test_catalog_lookups_once_equivalence``) and
compared on the bundled bank's catalogs damaged at random, split into random parts as
``verify_streamed`` splits a bank, with the memos and without.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from aistack_bank.cache.entries import EntryMemo
from aistack_bank.i18n.catalog import read_catalog
from aistack_bank.i18n.typography import catalog_typography_diagnostics
from aistack_bank.rules.lints import catalog_reference_diagnostics

from test_catalog_checks_collector import REFERRING
from test_catalog_lookups_once_equivalence import ROOT, _damaged, _references_before, _source, _typography_before

REPEATED = [
    "Vrai ou faux? La mémoire HBM3 offre 3350 Go/s",
    "Le débit: 65504 jetons par seconde",
    "« Roofline» et «fusion »",
    "Réponse : 14 Go",
    "Pourquoi ?",
    "Voir `x: y` et https://example.org/a?b",
    "3,5 Go et 2×N",
    "1.234 ms",
]


def _catalog(tmp_path: Path, language: str, seed: int, name: str | None = None):
    rng = random.Random(7730 + seed)
    folder = tmp_path / f"{language}-{seed}-{name}"
    folder.mkdir()
    (folder / "glossary.yaml").write_bytes((ROOT / "translations" / "glossary.yaml").read_bytes())
    path = folder / f"{name or language}.po"
    path.write_bytes(_damaged(rng, (ROOT / "translations" / f"{language}.po").read_text(encoding="utf-8")))
    return read_catalog(path, light=seed % 2 == 0)


def _parts(rng: random.Random, fields: list, active: dict) -> list[tuple[dict, list]]:
    """``fields`` cut into runs of random length, each with the entries of its keys (a part's buffer)."""
    parts, start = [], 0
    while start < len(fields):
        size = rng.choice([1, 3, 17, 60, 250])
        chunk = fields[start:start + size]
        parts.append(({field.key: active[field.key] for field in chunk if field.key in active}, chunk))
        start += size
    return parts


def _retexted(rng: random.Random, active: dict, fields: list) -> None:
    """A share of the translations made one of a few repeated texts or given a word that may refer."""
    for field in fields:
        entry = active.get(field.key)
        if entry is None or not entry.msgstr:
            continue
        roll = rng.random()
        text = rng.choice(REPEATED) if roll < 0.3 else " ".join([entry.msgstr, rng.choice(REFERRING)]) if roll < 0.45 else None
        if text is not None:
            if isinstance(entry, tuple):  # (a light entry: a tuple)
                active[field.key] = type(entry)(entry[:2] + (text,) + entry[3:])
            else:
                entry.msgstr = text


@pytest.mark.parametrize("seed", range(4))
def test_the_lints_of_a_part_are_found_as_before(tmp_path, monkeypatch, seed):
    rng = random.Random(seed)
    _, fields = _source(with_records=False)
    codes = set()
    for language, name in (("fr", "fr"), ("nl", "nl"), ("fr", "fr_CA"), ("fr", "de")):
        catalog = _catalog(tmp_path, language, seed, name)
        active = dict(catalog.active())
        _retexted(rng, active, fields)
        parts = _parts(rng, fields, active)
        for memo in (False, True):
            found: dict[str, list] = {}
            for side, references, typography in (("before", _references_before, _typography_before),
                                                 ("after", catalog_reference_diagnostics, catalog_typography_diagnostics)):
                monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / f"cache-{seed}-{name}-{memo}-{side}"))
                kept = EntryMemo(catalog.path, catalog.language, enabled=memo, kind="references")
                diags = []
                for buffer, chunk in parts:
                    diags += references(catalog, buffer, chunk, memo=memo, kept=kept)
                    diags += typography(catalog, buffer, chunk)
                kept.save()
                # the memo kept, then read again (each translation's hits from it)
                again = EntryMemo(catalog.path, catalog.language, enabled=memo, kind="references")
                for buffer, chunk in parts:
                    diags += references(catalog, buffer, chunk, memo=memo, kept=again)
                found[side] = diags
            assert found["after"] == found["before"]
            codes |= {d.code for d in found["before"]}
        # the whole catalog as one part, with nothing shared
        assert catalog_reference_diagnostics(catalog, active, fields) == _references_before(catalog, active, fields)
        assert catalog_typography_diagnostics(catalog, active, fields) == _typography_before(catalog, active, fields)
    assert {"W320", "W321", "W520", "W528"} <= codes
