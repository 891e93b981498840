"""A catalog's checks, with each lookup and hint search made once, find what they found before.

- ``verify_catalog`` tells a field's missing entry (W501) as it looks the entry up for its
  checks, instead of asking for every key of the bank first; and, every key of the bank having
  an entry and there being as many entries as keys, it looks for no entry the bank no longer
  has (W503) in the catalog's entries.
- The hint search of each current translation (``has_token_hint``) is made once, for its own
  checks and French typography's: a translation without a hint holds no decimal digit, so
  no number issue (W528) is looked for in it.
- The references (W320, W321) make the set of questions with options only when a translation
  may refer to something.
- The length cue takes no kept questions out of an empty set.

``verify_catalog`` as it was, and the lints it called, are spelled out below and compared with
the code now on the bundled bank's catalogs damaged at random.
"""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import polib
import pytest

from aistack_bank.errors import Diagnostic, Location, warning
from aistack_bank.i18n import verify
from aistack_bank.i18n.catalog import Changes, read_catalog, render_catalog
from aistack_bank.i18n.fields import bank_fields, question_fields
from aistack_bank.i18n.locations import translation_warnings
from aistack_bank.i18n.typography import number_issues, typography_issues
from aistack_bank.load import read_library
from aistack_bank.rules.lints import may_refer, reference_hits
from aistack_bank.rules.quantities import parity_sides

ROOT = Path(__file__).resolve().parent.parent


# ----------------------------------------------------------------------------- the code before

def _references_before(catalog, active: dict, fields, *, memo: bool = False, kept=None, current: list | None = None) -> list[Diagnostic]:
    from aistack_bank.cache.entries import EntryMemo

    fields = list(fields)
    with_options = {field.question_id for field in fields if field.question_id is not None and ".option." in field.key}
    lang = catalog.language.split("_")[0]
    shared = kept is not None
    kept = kept if shared else EntryMemo(catalog.path, catalog.language, enabled=memo, kind="references")

    def hits(field, msgstr: str):
        if field.question_id is None or not may_refer(msgstr, lang):
            return ()
        options = field.question_id in with_options
        return kept.values((field.question_id, options, msgstr, lang), lambda: tuple(
            (hit.code, hit.message, hit.offset) for hit in reference_hits(msgstr, lang, own_id=field.question_id, options=options)))

    diags = translation_warnings(catalog, active, fields, hits, current)
    if not shared:
        kept.save()
    return diags


def _typography_hits_before(field, msgstr: str):
    marks, numbers = typography_issues(msgstr), number_issues(msgstr)
    if not marks and not numbers:
        return ()
    return [*(("W520", f"{issue.describe()}; run `bank i18n fix-typography --lang fr`", issue.offset) for issue in marks),
            *(("W528", f"{issue.describe()}; run `bank i18n fix-typography --lang fr`", issue.offset) for issue in numbers)]


def _typography_before(catalog, active: dict, fields, current: list | None = None) -> list:
    if not catalog.language.split("_")[0] == "fr":
        return []
    return translation_warnings(catalog, active, fields, _typography_hits_before, current)


def _translation_lints_before(catalog, active: dict, fields, *, memo: bool = False, current: list | None = None) -> list[Diagnostic]:
    from aistack_bank.i18n.glossary import catalog_glossary_diagnostics, read_glossary

    glossary, diags = read_glossary(catalog.path.parent)
    diags = list(diags)
    diags += _references_before(catalog, active, fields, memo=memo, current=current)
    diags += _typography_before(catalog, active, fields, current)
    diags += catalog_glossary_diagnostics(glossary, catalog, active, fields, current)
    return diags


def _verify_catalog_before(source, fields, catalog, *, run_checks: bool = True, bank_checks: bool = True,
                           memo: bool = False, inputs: str | None = None, owners=None):
    from aistack_bank.cache.entries import EntryMemo

    if catalog.po is None or catalog.diagnostics:
        return list(catalog.diagnostics)
    lang = catalog.language
    active = catalog.active()
    partial = owners is not None
    if owners is None:
        owners = verify._Owners(catalog, fields, inputs, run_checks) if memo and inputs is not None and bank_checks and catalog.changes is not None else None
        affected = owners.affected() if owners is not None else None
    else:
        affected = owners.verified
    keys = owners.keys if partial else [field.key for field in fields]
    known = owners.owner_of if partial else set(keys)
    diags: list[Diagnostic] = []
    owned: dict[str, list[Diagnostic]] = {}
    mine = fields if affected is None else [field for field in fields if verify.field_owner(field) in affected]
    questions = [qs for qs in source.questions if (affected is None or verify._question_id(qs) in affected) and qs.question is not None] if bank_checks else []
    present = active.keys()
    missing = False
    if not (partial and owners.none_missing(present)):
        if partial:
            keys = owners.all_keys()
        for key in keys if not all(map(present.__contains__, keys)) else ():
            if key not in present:
                missing = True
                diags.append(warning("W501", f"{key} has no entry in {catalog.path.name}; run `bank i18n update`", Location.of(catalog.path)))
    entries = EntryMemo(catalog.path, lang, enabled=memo and affected is None)
    sides = verify._parity_sides(questions)
    current = []
    for field in mine:
        entry = active.get(field.key)
        if entry is None:
            continue
        if entry.msgstr and "fuzzy" not in entry.flags:
            current.append((field, entry))
        found = verify._entry_findings(entries, field, entry, lang, catalog, sides)
        if found:
            owned.setdefault(verify.field_owner(field), []).extend(found)
    entries.save()
    if bank_checks:
        diags += verify.length_cue_diagnostics(source, catalog) if owners is None else _length_cues_before(owners, source, questions, active)
        for owner, found in verify._duplicate_texts(questions, catalog, active):
            owned.setdefault(owner, []).extend(found)
        lints = _translation_lints_before(catalog, active, mine, memo=memo and affected is None, current=current)
        if owners is None:
            diags += lints
        else:
            for d in lints:
                owner = owners.owner_at(d)
                if owner is None:
                    diags.append(d)
                else:
                    owned.setdefault(owner, []).append(d)
    unknown = active.items() if affected is None else sorted(((key, active[key]) for key in affected if key in present and key not in known),
                                                             key=lambda pair: pair[1].linenum or 0)
    for key, entry in unknown:
        if key not in known:
            owned.setdefault(key, []).append(warning("W503", f"{key} is no longer in the bank; run `bank i18n update` to make it obsolete", Location.of(catalog.path, entry.linenum or 0, 1 if entry.linenum else 0)))
    if run_checks and bank_checks:
        for owner, _, found in verify._translated_checks(questions, catalog, active):
            owned.setdefault(owner, []).extend(found)
    if owners is not None:
        if affected is not None and not owners.keep_others(owned):
            if partial:
                return None
            whole = replace(catalog, changes=Changes(catalog.changes.token))
            return _verify_catalog_before(source, fields, whole, run_checks=run_checks, bank_checks=bank_checks, memo=memo, inputs=inputs)
        owners.save(owned, missing)
    for found in owned.values():
        diags += found
    return diags


def _length_cues_before(owners, source, questions: list, active: dict):
    from aistack_bank.rules.cues import AnswerCueStats, length_warnings

    measured, longest = owners.cues if owners.delta else (0, frozenset())
    if not owners.delta:
        questions = [qs for qs in source.questions if qs.question is not None]
    longest = set(longest) - {qs.question.id for qs in questions}
    for question_id, keys_longest in verify._cues(questions, lambda question: verify._translated_options(question, active)):
        if not owners.delta:
            measured += 1
        if keys_longest:
            longest.add(question_id)
    owners.cues = (measured, frozenset(longest))
    return length_warnings(AnswerCueStats(measured=measured, key_longest=len(longest)), Location.of(owners.catalog.path), owners.catalog.language)


# ----------------------------------------------------------------------------- random damage

PIECES = [" 3,5", " 14 Go", " 14\u00a0Go", " 65504", " 65\u202f504", " 2MNK", " M×K", " {n}", " <b>x</b>", " %s", " l’option B", " la réponse C", " q0012", " optie b",
          " ?", " :", " «\u00a0x\u00a0»", " «x»", "\n", " `a:b`", " https://x.y/a?b", " 7B", " FP16", " 1/3", "²", " \u0663"]


def _damaged(rng: random.Random, text: str) -> bytes:
    """The catalog ``text`` with about a third of its entries damaged at random, some removed
    and some the bank does not have added."""
    po = polib.pofile(text)
    entries = [entry for entry in po if not entry.obsolete]
    by_context = {entry.msgctxt: entry for entry in entries}
    for entry in entries:
        roll = rng.random()
        if roll < 0.03:
            po.remove(entry)
        elif roll < 0.06:
            entry.flags.append("fuzzy")
        elif roll < 0.08:
            entry.msgid += " (old)"
        elif roll < 0.10:
            entry.msgstr = rng.choice(["", "   "])
        elif roll < 0.14 and entry.msgctxt and ".option." in entry.msgctxt:
            other = by_context.get(entry.msgctxt.rsplit(".", 1)[0] + ".a")
            if other is not None:
                entry.msgstr = other.msgstr
        elif roll < 0.35:
            entry.msgstr += "".join(rng.choice(PIECES) for _ in range(rng.randint(1, 3)))
    for index in range(rng.randint(0, 3)):
        po.append(polib.POEntry(msgctxt=f"q9{index:03d}.stem", msgid="Gone", msgstr="Parti 3 Go"))
    return render_catalog(po)


def _source(with_records: bool):
    source = read_library(ROOT / "bank")
    fields = bank_fields(source)
    if with_records:  # (the English side of the parity checks as a question file's record carries it)
        for qs in source.questions:
            if qs.question is not None:
                qs.derived["fields"] = question_fields(qs.question, qs.doc, qs.path)
                qs.derived["parity"] = parity_sides([field.text for field in qs.derived["fields"]])
    return source, fields


@pytest.mark.parametrize("seed", range(4))
def test_a_damaged_catalog_is_verified_as_before(tmp_path, monkeypatch, seed):
    rng = random.Random(5150 + seed)
    source, fields = _source(with_records=seed % 2 == 0)
    codes = set()
    for language in ("fr", "nl"):
        folder = tmp_path / f"{language}-{seed}"
        folder.mkdir()
        (folder / "glossary.yaml").write_bytes((ROOT / "translations" / "glossary.yaml").read_bytes())
        path = folder / f"{language}.po"
        path.write_bytes(_damaged(rng, (ROOT / "translations" / f"{language}.po").read_text(encoding="utf-8")))
        for light in (True, False):
            for options in ({}, {"run_checks": False}, {"bank_checks": False}):
                before = _verify_catalog_before(source, fields, read_catalog(path, light=light), **options)
                assert verify.verify_catalog(source, fields, read_catalog(path, light=light), **options) == before
                codes |= {d.code for d in before}
            # with the memos and the kept findings by owner, each in a cache of its own, cold
            for name, verifier in (("before", _verify_catalog_before), ("after", verify.verify_catalog)):
                monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / f"cache-{name}-{language}-{light}"))
                found = verifier(source, fields, read_catalog(path, light=light), memo=True, inputs="inputs")
                if name == "before":
                    kept = found
            assert found == kept
        # every key with an entry and none the bank lacks: no W501, no W503
        whole = polib.pofile((ROOT / "translations" / f"{language}.po").read_text(encoding="utf-8"))
        (folder / "clean").mkdir()
        clean = folder / "clean" / f"{language}.po"
        clean.write_bytes(render_catalog(whole))
        assert verify.verify_catalog(source, fields, read_catalog(clean, light=True)) == _verify_catalog_before(source, fields, read_catalog(clean, light=True))
    assert {"W501", "W502", "W503", "E502", "E503", "E507", "E508", "E512", "W320", "W321", "W520", "W528"} <= codes, codes


def test_a_fields_key_twice_is_missing_twice_as_before(tmp_path):
    """A key the bank has twice, without an entry: reported for each field, as before."""
    source, fields = _source(with_records=False)
    fields = fields + [fields[-1]]
    po = polib.pofile((ROOT / "translations" / "fr.po").read_text(encoding="utf-8"))
    po.remove(next(entry for entry in po if entry.msgctxt == fields[-1].key))
    path = tmp_path / "fr.po"
    path.write_bytes(render_catalog(po))
    before = _verify_catalog_before(source, fields, read_catalog(path, light=True))
    assert verify.verify_catalog(source, fields, read_catalog(path, light=True)) == before
    assert [d.code for d in before].count("W501") == 2
