"""A build takes each field's state in its language's catalog once (:func:`~aistack_bank.i18n.status.field_states`),
for both the language's status and its localizing, not once in each.

Compared with the code before (spelled out here: ``language_status`` and ``localize`` each
looking up every field's entry and taking its state), on the bundled bank and
``examples/every-kind``, the catalogs as they are, with random entries untranslated, fuzzy,
blank, very long or made for another English text, with half of their entries untranslated, and
spoiled (a line that is not PO): strict, with fallback and in progress, the same notes, errors,
English texts and library; and the status the same as ``bank i18n status`` takes it."""

from __future__ import annotations

import random
import shutil

import polib
import pytest

from conftest import REPO
from aistack_bank import build
from aistack_bank.errors import Diagnostic, Location, error, warning
from aistack_bank.i18n.catalog import Catalogs
from aistack_bank.i18n.fields import bank_fields, english_library_and_fields
from aistack_bank.i18n.status import LanguageStatus, _owner, entry_state, language_status
from aistack_bank.load import read_library
from aistack_bank.project.settings import LanguagePolicy


def _language_status_before(fields, catalog):
    active = catalog.active()
    status = LanguageStatus(language=catalog.language, total=len(fields), obsolete=len(catalog.po.obsolete_entries()))
    incomplete = set()
    for text_field in fields:
        state = entry_state(active.get(text_field.key), text_field.text)
        setattr(status, state, getattr(status, state) + 1)
        if state != "translated":
            incomplete.add(_owner(text_field))
    order = {_owner(field): i for i, field in enumerate(reversed(fields))}
    status.incomplete_questions = sorted(incomplete, key=lambda q: -order[q])
    return status


def _localize_before(source, bank, catalog, *, allow_fallback=False, fields=None, untranslated=None):
    from aistack_bank.i18n.localize import apply_library_texts, apply_texts, field_rule_error
    from aistack_bank.model import Library

    fields = bank_fields(source) if fields is None else fields
    active = catalog.active()
    texts: dict[str, str] = {}
    diags: list[Diagnostic] = []
    for field in fields:
        entry = active.get(field.key)
        state = entry_state(entry, field.text)
        if state == "translated":
            texts[field.key] = entry.msgstr
            continue
        if untranslated is not None:
            untranslated.append(field.text)
        where = Location.of(catalog.path, entry.linenum or 0, 1 if entry.linenum else 0) if entry is not None else Location.of(catalog.path)
        what = "is not translated" if state == "untranslated" else "is fuzzy or out of date with the English"
        if allow_fallback:
            diags.append(warning("W501" if state == "untranslated" else "W502", f"{field.key} {what}; exported in English", where))
        else:
            code = "E504" if state == "fuzzy" else "E509"
            diags.append(error(code, f"{field.key} {what} (use --allow-fallback to export it in English)", where))
    by_question: dict[str, list] = {}
    for field in fields:
        if field.question_id is not None:
            by_question.setdefault(field.question_id, []).append(field)
    if isinstance(bank, Library):
        localized, problems = apply_library_texts(bank, texts, catalog.language, fields=by_question)
    else:
        localized, problems = apply_texts(bank, texts, catalog.language, fields=by_question)
    if problems:
        from aistack_bank.i18n.locations import msgstr_location

        for key, kind, message in problems:
            entry = active.get(key)
            where = msgstr_location(catalog, entry) if entry is not None else Location.of(catalog.path)
            diags.append(field_rule_error(key, kind, message, where))
    if any(d.severity.value == "error" for d in diags):
        return None, diags
    return localized, diags


def _one_language_before(lang, translations, catalogs, fields, source, english, decide, policy):
    """build._one_language as it was: the status and the localizing each taking every field's state."""
    from aistack_bank.errors import Severity

    notes = []
    catalog = catalogs.read(translations / f"{lang}.po")
    if catalog.diagnostics:
        return notes, list(catalog.diagnostics), None, None
    status = _language_status_before(fields, catalog)
    state = decide(lang, status)
    if state == "unstarted":
        notes.append(warning("W552", f"nothing in {lang} is translated yet; {lang} is left out of the exports until its translation starts", Location.of(catalog.path)))
        return notes, [], None, None
    if state == "in progress":
        notes.append(warning("W558", f"{lang} is {status.percent:.1f}% translated (ready at {policy.ready:g}%); it is left out of the exports until it is ready. "
                                     f"`bank i18n todo {lang}` lists what is missing; `fallback = true` under [languages] in bank.toml exports it with English for the missing texts",
                             Location.of(catalog.path)))
        return notes, [], None, None
    untranslated: list[str] = []
    localized, diags = _localize_before(source, english, catalog, allow_fallback=state == "fallback", fields=fields, untranslated=untranslated)
    problems = [d for d in diags if d.severity is Severity.ERROR]
    missing = None
    if state == "fallback":
        missing = frozenset(untranslated)
        if missing:
            count = status.total - status.translated
            notes.append(warning("W559", f"{lang} is {status.percent:.1f}% translated: {count} text{'' if count == 1 else 's'} {'is' if count == 1 else 'are'} exported in English, "
                                         f"marked as English where the format can say so (`bank i18n todo {lang}` lists them)", Location.of(catalog.path)))
        notes += [d for d in diags if d.severity is Severity.WARNING and d.code not in ("W501", "W502")]
    else:
        notes += [d for d in diags if d.severity is Severity.WARNING]
    catalogs.forget(catalog.path)
    return notes, problems, missing, localized


def _spoil(path, how: str, rng: random.Random) -> None:
    if how == "broken":
        text = path.read_text(encoding="utf-8").splitlines(keepends=True)
        text.insert(rng.randrange(len(text) // 2, len(text)), "this is not PO\n")
        path.write_text("".join(text), encoding="utf-8")
        return
    po = polib.pofile(str(path))
    entries = [e for e in po if e.msgstr and not e.obsolete and e.msgid]
    if how == "half":
        for entry in rng.sample(entries, len(entries) // 2):
            entry.msgstr = ""
    else:
        for entry in rng.sample(entries, rng.randint(0, min(40, len(entries)))):
            what = rng.choice(["untranslated", "fuzzy", "blank", "long", "other-english"])
            if what == "untranslated":
                entry.msgstr = ""
            elif what == "fuzzy":
                entry.flags.append("fuzzy")
            elif what == "blank":
                entry.msgstr = "   "
            elif what == "long":
                entry.msgstr = "x" * 20_000
            else:
                entry.msgid = entry.msgid + " (before)"
    po.save(str(path))


def _outcome(result):
    notes, problems, missing, localized = result
    return [d.as_dict() for d in notes], [d.as_dict() for d in problems], missing, localized.model_dump_json() if localized is not None else None


class _KeptRead(Catalogs):
    """Each file read on the first call and kept though :func:`build._one_language` lets it go
    when done: a language's eight runs (the policies, the fields as made and as sent) localize
    from one read of its file (which never changes here), and a run that changed what it was
    given would make the next differ from the code before's."""

    def forget(self, path) -> None:
        pass


@pytest.mark.parametrize("root", [REPO, REPO / "examples" / "every-kind"], ids=["bundled", "every-kind"])
@pytest.mark.parametrize("how,seed", [(None, None), ("random", 1), ("random", 2), ("random", 3), ("half", 4), ("half", 5), ("broken", 6)])
def test_one_pass_over_the_fields_states_gives_what_two_did(root, how, seed, tmp_path):
    translations = tmp_path / "translations"
    shutil.copytree(root / "translations", translations)
    paths = sorted(translations.glob("*.po"))
    if how is not None:
        rng = random.Random(seed)
        for index, path in enumerate(paths):
            _spoil(path, how if how != "broken" or index == 0 else "random", rng)
    english, fields = english_library_and_fields(read_library(root / "bank"))
    sent = build._fields_received(build._fields_sent(fields))
    seen = set()
    after_reads, before_reads = {}, {}  # one read of each file for the code now's eight runs of a language, one for the code before's
    for policy, fallback in [(LanguagePolicy(), False), (LanguagePolicy(), True), (LanguagePolicy(ready=50.0), False), (LanguagePolicy(ready=50.0), True)]:
        for lang in [p.stem for p in paths]:
            decide = build._exported_decision(policy, fallback)
            for given in (fields, sent):
                after = build._one_language(lang, translations, after_reads.setdefault(lang, _KeptRead(light=True, use_cache=False)), given, None, english, decide, policy)
                before = _one_language_before(lang, translations, before_reads.setdefault(lang, _KeptRead(light=True, use_cache=False)), given, None, english, decide, policy)
                assert _outcome(after) == _outcome(before)
                seen |= {d.code for d in after[0] + after[1]} | ({"missing"} if after[2] else set()) | ({"localized"} if after[3] is not None else set())
    for lang in [p.stem for p in paths]:  # (the status does not depend on the policy: once per language)
        catalog = Catalogs(light=True, use_cache=False).read(translations / f"{lang}.po")
        if not catalog.diagnostics:
            assert language_status(fields, catalog) == _language_status_before(fields, catalog)
    if how is None:
        assert "localized" in seen
    if how == "half":
        assert {"W558", "W559", "missing"} <= seen
    if how == "broken":
        assert any(code.startswith("E") for code in seen)
