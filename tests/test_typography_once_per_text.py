"""French typography (W520, W528) of a catalog's current translations is looked for once per
distinct text and hint (aistack_bank/i18n/typography.py, catalog_typography_diagnostics): the
warnings are those of a look at every entry, each at its own entry's place, in the same order."""

from __future__ import annotations

import random
from pathlib import Path

import polib

from aistack_bank.i18n.catalog import read_catalog, render_catalog
from aistack_bank.i18n.fields import bank_fields
from aistack_bank.i18n.locations import current_translations, translation_warnings
from aistack_bank.i18n.typography import _typography_hits, catalog_typography_diagnostics
from aistack_bank.load import read_library
from aistack_bank.rules.quantities import has_token_hint

ROOT = Path(__file__).resolve().parent.parent

REPEATED = [
    "Vrai ou faux? La mémoire HBM3 offre 3350 Go/s",  # W520 and W528
    "Le débit: 65504 jetons par seconde",
    "« Roofline» et «fusion »",
    "Réponse : 14 Go",  # nothing to report
    "Pourquoi ?",
    "Voir `x: y` et https://example.org/a?b",  # protected spans
]


def _catalog(tmp_path: Path, seed: int):
    rng = random.Random(seed)
    po = polib.pofile((ROOT / "translations" / "fr.po").read_text(encoding="utf-8"))
    for entry in po:
        if not entry.obsolete and entry.msgstr and rng.random() < 0.4:
            entry.msgstr = rng.choice(REPEATED)
    path = tmp_path / f"fr-{seed}" / "fr.po"
    path.parent.mkdir()
    path.write_bytes(render_catalog(po))
    return read_catalog(path, light=True)


def test_each_text_once_gives_every_entry_its_warnings(tmp_path):
    fields = bank_fields(read_library(ROOT / "bank"))
    for seed in range(3):
        catalog = _catalog(tmp_path, seed)
        active = catalog.active()
        current = current_translations(active, fields)
        hints = [has_token_hint(entry.msgstr) for _, entry in current]
        found = catalog_typography_diagnostics(catalog, active, fields, current, hints)
        every = translation_warnings(catalog, active, fields, lambda field, msgstr: _typography_hits(field, msgstr, has_token_hint(msgstr)), current)
        assert found == every
        repeated = {d.location.line for d in found if d.code == "W528"}
        assert len(repeated) > 10  # (the same text's warnings, each at its own entry)
        # a text asked without its hint (no digit looked for) is not answered from one asked with it
        plain = [False] * len(current)
        assert catalog_typography_diagnostics(catalog, active, fields, current, plain) == [d for d in every if d.code == "W520"]
        mixed = [hint and index % 2 == 0 for index, hint in enumerate(hints)]
        assert catalog_typography_diagnostics(catalog, active, fields, current, mixed) == [
            d for d in every if d.code == "W520" or mixed[next(i for i, (field, _) in enumerate(current) if d.message.startswith(field.key + ":"))]]
