"""A language exported with fallback takes the English texts it shows for want of a translation
from localization's own pass over the fields (``localize(..., untranslated=...)``), not from a
pass of its own over every field and the catalog's entries.

Compared with the code before (spelled out here: every field's entry looked up and its state
taken again), on the bundled bank and ``examples/every-kind``, the catalogs as they are and with
random entries untranslated, fuzzy, blank, very long or made for another English text, strict
and with fallback: the same notes, errors, English texts and library."""

from __future__ import annotations

import random
import shutil

import polib
import pytest

from conftest import REPO
from aistack_bank import build
from aistack_bank.i18n.catalog import Catalogs
from aistack_bank.i18n.fields import english_library_and_fields
from aistack_bank.i18n.status import entry_state
from aistack_bank.load import read_library
from aistack_bank.project.settings import LanguagePolicy


def _spoil(path, rng: random.Random) -> None:
    po = polib.pofile(str(path))
    entries = [e for e in po if e.msgstr and not e.obsolete]
    for entry in rng.sample(entries, rng.randint(0, min(40, len(entries)))):
        how = rng.choice(["untranslated", "fuzzy", "blank", "long", "other-english"])
        if how == "untranslated":
            entry.msgstr = ""
        elif how == "fuzzy":
            entry.flags.append("fuzzy")
        elif how == "blank":
            entry.msgstr = "   "
        elif how == "long":
            entry.msgstr = "x" * 20_000
        else:
            entry.msgid = entry.msgid + " (before)"
    po.save(str(path))


def _one_language_before(lang, translations, catalogs, fields, source, english, decide, policy):
    """build._one_language as it was: the English texts shown taken by a pass of their own."""
    from aistack_bank.errors import Location, Severity, warning
    from aistack_bank.i18n.localize import localize
    from aistack_bank.i18n.status import language_status

    notes = []
    catalog = catalogs.read(translations / f"{lang}.po")
    if catalog.diagnostics:
        return notes, list(catalog.diagnostics), None, None
    status = language_status(fields, catalog)
    state = decide(lang, status)
    if state == "unstarted":
        notes.append(warning("W552", f"nothing in {lang} is translated yet; {lang} is left out of the exports until its translation starts", Location.of(catalog.path)))
        return notes, [], None, None
    if state == "in progress":
        notes.append(warning("W558", f"{lang} is {status.percent:.1f}% translated (ready at {policy.ready:g}%); it is left out of the exports until it is ready. "
                                     f"`bank i18n todo {lang}` lists what is missing; `fallback = true` under [languages] in bank.toml exports it with English for the missing texts",
                             Location.of(catalog.path)))
        return notes, [], None, None
    localized, diags = localize(source, english, catalog, allow_fallback=state == "fallback", fields=fields)
    problems = [d for d in diags if d.severity is Severity.ERROR]
    missing = None
    if state == "fallback":
        active = catalog.active()
        missing = frozenset(f.text for f in fields if entry_state(active.get(f.key), f.text) != "translated")
        if missing:
            count = status.total - status.translated
            notes.append(warning("W559", f"{lang} is {status.percent:.1f}% translated: {count} text{'' if count == 1 else 's'} {'is' if count == 1 else 'are'} exported in English, "
                                         f"marked as English where the format can say so (`bank i18n todo {lang}` lists them)", Location.of(catalog.path)))
        notes += [d for d in diags if d.severity is Severity.WARNING and d.code not in ("W501", "W502")]
    else:
        notes += [d for d in diags if d.severity is Severity.WARNING]
    catalogs.forget(catalog.path)
    return notes, problems, missing, localized


def _outcome(result):
    notes, problems, missing, localized = result
    return [d.as_dict() for d in notes], [d.as_dict() for d in problems], missing, localized.model_dump_json() if localized is not None else None


class _KeptRead(Catalogs):
    """Each file read on the first call and kept though :func:`build._one_language` lets it go
    when done: a language's runs (the policies, the fields as made and as sent) localize from one read of its file (which
    never changes here), and a run that changed what it was given would make the next differ
    from the code before's."""

    def forget(self, path) -> None:
        pass


@pytest.mark.parametrize("root", [REPO, REPO / "examples" / "every-kind"], ids=["bundled", "every-kind"])
@pytest.mark.parametrize("seed", [None, 1, 2, 3])
def test_the_english_texts_shown_are_those_a_pass_of_their_own_found(root, seed, tmp_path):
    translations = tmp_path / "translations"
    shutil.copytree(root / "translations", translations)
    if seed is not None:
        rng = random.Random(seed)
        for path in sorted(translations.glob("*.po")):
            _spoil(path, rng)
    english, fields = english_library_and_fields(read_library(root / "bank"))
    sent = build._fields_received(build._fields_sent(fields))
    seen = set()
    after_reads, before_reads = {}, {}  # one read of each file for the code now's six runs of a language, one for the code before's
    for policy, fallback in [(LanguagePolicy(), False), (LanguagePolicy(), True), (LanguagePolicy(ready=50.0), False)]:
        for lang in sorted(p.stem for p in translations.glob("*.po")):
            decide = build._exported_decision(policy, fallback)
            for given in (fields, sent):
                after = build._one_language(lang, translations, after_reads.setdefault(lang, _KeptRead(light=True, use_cache=False)), given, None, english, decide, policy)
                before = _one_language_before(lang, translations, before_reads.setdefault(lang, _KeptRead(light=True, use_cache=False)), given, None, english, decide, policy)
                assert _outcome(after) == _outcome(before)
                seen |= {d.code for d in after[0] + after[1]} | ({"missing"} if after[2] else set())
    if seed is not None:
        assert "missing" in seen
