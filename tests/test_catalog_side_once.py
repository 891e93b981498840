"""The catalogs' side of `bank validate`, work done once: each rule that was made cheaper gives
what the way before it gave (the way before spelled out here), on random inputs."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from aistack_bank.i18n import verify
from aistack_bank.i18n.pofile import LightEntry
from aistack_bank.kinds import translation_duplicates, translation_splits
from aistack_bank.rules.lints import _NEEDS, may_refer, reference_hits
from conftest import keep_only
from inprocess_workers import in_process_workers
from test_catalog_views import _OLD_GIVEAWAYS

REPO = Path(__file__).resolve().parents[1]

_WORDS = sorted({w for table in _NEEDS.values() for words in table.values() for w in words}) + [
    "Option", "ANSWER", "Réponse", "RÉPONSE", "Vraag", "QUESTION", "questions", "q12", "Q123", "q", "1", "42", "a", "B", "(c)", "d)",
    "the", "first", "second", "last", "above", "below", "ci-dessus", "hierboven", "précédente", "vorige", "see", "in", "la", "les",
    "İ", "ı", "ſ", "optİon", "queſtion", "kıeuze", "\u00a0", "\u202f", ",", ".", "?", "all", "none", "of", "de", "het", "x²", "é"]


def _text(rng: random.Random) -> str:
    parts = [rng.choice(_WORDS) for _ in range(rng.randint(0, 9))]
    return "".join(p + rng.choice(["", " ", "  ", "\n", "\u00a0"]) for p in parts)


def test_may_refer_is_false_only_where_the_reference_lint_finds_nothing():
    """:func:`may_refer` (one search, before the reference lint of a translation) never rules
    out a text that :func:`reference_hits` finds something in: the lint's hits with the
    prefilter are those without it, whatever the text, language, question id and options."""
    rng = random.Random(3)
    ruled_out = 0
    for _ in range(8000):
        text, lang = _text(rng), rng.choice(["en", "fr", "nl", "de", "fr_CA"])
        own_id, options = rng.choice([None, "q12", "q123"]), rng.random() < 0.5
        before = reference_hits(text, lang.split("_")[0], own_id=own_id, options=options)
        after = reference_hits(text, lang.split("_")[0], own_id=own_id, options=options) if may_refer(text, lang.split("_")[0]) else []
        assert after == before, (text, lang)
        ruled_out += not may_refer(text, lang.split("_")[0])
    assert 400 < ruled_out < 7600  # both ways taken often


def _old_duplicate_texts(questions: list, catalog, active: dict):
    """The duplicate-text rule as it was: each question's English from its fields made again."""
    from aistack_bank.errors import error, warning
    from aistack_bank.i18n.fields import question_fields
    from aistack_bank.i18n.status import entry_state

    for qs in questions:
        question = qs.question
        diags = []
        english = {field.key: field.text for field in question_fields(question, None, None)}

        def text_of(key: str) -> str | None:
            entry = active.get(key)
            return entry.msgstr if entry is not None and key in english and entry_state(entry, english[key]) == "translated" else None

        for key, message in translation_duplicates(question, text_of):
            diags.append(error("E512", f"{message} ({catalog.language})", verify.msgstr_location(catalog, active[key])))
        for key, message in translation_splits(question, text_of):
            diags.append(error("E750", f"{message} ({catalog.language})", verify.msgstr_location(catalog, active[key])))
        stem = text_of(f"{question.id}.stem")
        giveaway = _OLD_GIVEAWAYS.get(question.kind)  # (the kinds' search of a stem as it was, reading the model)
        if giveaway is not None and stem is not None:
            shown = giveaway(question, stem, text_of)
            if shown is not None:
                diags.append(warning("W326", f"{question.id}.stem ({catalog.language}): the stem contains the accepted answer {shown!r}; a learner can copy it",
                                     verify.msgstr_location(catalog, active[f"{question.id}.stem"])))
        yield question.id, diags


@pytest.mark.parametrize("root", ["", "examples/every-kind"])
def test_the_duplicate_text_rule_reads_the_fields_kept_with_a_question(root):
    """E512, E750 and W326 with each question's English taken from the fields its file's rules
    listed (kept with its record) are those with its fields made again, on random translations
    (equal texts, an accepted answer in the stem, fuzzy, blank or stale entries)."""
    from aistack_bank.i18n.catalog import Catalogs
    from aistack_bank.i18n.fields import bank_fields, question_fields
    from aistack_bank.load import read_library

    source = read_library(REPO / root / "bank")
    questions = [qs for qs in source.questions if qs.question is not None]
    for qs in questions[::2]:  # as the file's own rules keep them (rules/validate.py); the others without
        qs.derived["fields"] = question_fields(qs.question, qs.doc, qs.path)
    fields = bank_fields(source)
    catalog = Catalogs(light=True).read(REPO / root / "translations" / "fr.po")
    real = catalog.active()
    answers: dict[str, list[str]] = {}
    for field in fields:
        if field.question_id is not None and field.key.startswith(field.question_id + ".answer"):
            answers.setdefault(field.question_id, []).append(field.key)
    rng = random.Random(5)
    found = 0
    for _ in range(20):
        pool = [f.text for f in rng.sample(fields, 6)] + ["même texte", "Même texte", "x", "42"]
        active = {}
        for field in fields:
            if rng.random() < 0.1:
                continue  # no entry
            english = field.text if rng.random() < 0.9 else field.text + " (old)"
            text = rng.choice(pool) if rng.random() < 0.4 else field.text + " fr"
            if rng.random() < 0.05:
                text = ""
            line = real[field.key].linenum if field.key in real else rng.randint(1, 50)
            active[field.key] = LightEntry((field.key, english, text, None, {}, [], "", "", ["fuzzy"] if rng.random() < 0.05 else [],
                                            None, None, None, False, 0, 0, line))
        for qs in questions:  # an accepted answer in the stem, some of the time
            stem = active.get(f"{qs.question.id}.stem")
            answer = next((active[k] for k in answers.get(qs.question.id, ()) if k in active), None)
            if stem is not None and answer is not None and answer.msgstr and rng.random() < 0.5:
                active[stem.msgctxt] = LightEntry((*stem[:2], f"{stem.msgstr} {answer.msgstr}", *stem[3:]))
        new = list(verify._duplicate_texts(questions, catalog, active))
        assert new == list(_old_duplicate_texts(questions, catalog, active))
        found += sum(len(d) for _, d in new)
    assert found > 20  # the rule found something to compare


@pytest.mark.parametrize("stale", [False, True])
def test_the_template_compared_with_the_fields_a_worker_holds(project, monkeypatch, tmp_path, stale):
    """The template, compared last with the bank's fields the worker already read for a
    catalog, is found as fresh or as stale as when its fields are read again from the spill
    file, and as by the whole read (W504)."""
    from aistack_bank import parallel
    from aistack_bank.cache import questionfiles
    from aistack_bank.rules import validate

    keep_only(project)
    if stale:
        pot = project / "translations" / "aistack.pot"
        lines = pot.read_text(encoding="utf-8").split("\n")
        at = [i for i, ln in enumerate(lines) if ln.startswith("#: ")][-5]
        lines[at] = lines[at].rsplit(":", 1)[0] + ":9999"  # one reference's line
        pot.write_text("\n".join(lines), encoding="utf-8")

    def verdict(jobs: str, cache: str, **patch):
        monkeypatch.setenv("AISTACK_BANK_JOBS", jobs)
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / cache))
        report = validate.validate_bank(Path("bank"), translations=Path("translations"))
        return [d.as_dict() for d in report.diagnostics]

    whole = verdict("1", "whole")
    assert any(d["code"] == "W504" for d in whole) == stale

    calls, parts = [], []

    real_parts = verify._bank_parts
    monkeypatch.setattr(verify, "_bank_parts", lambda manifest: parts.append(1) or real_parts(manifest))
    monkeypatch.setattr(parallel, "Workers", in_process_workers(calls))  # the workers' calls made here, in order
    monkeypatch.setattr(validate, "POOL_MIN_CATALOG_BYTES", 0)
    monkeypatch.setattr(questionfiles, "SPILL_MIN_FILES", 0)
    assert verdict("1", "held") == whole
    assert calls == ["_verify_sent", "_verify_sent", "_template_sent"]
    assert len(parts) == 1  # the bank's records read once, for the first catalog

    # a worker that holds nothing of this run reads the fields from the spill file
    monkeypatch.setattr(verify, "_RECEIVED", [None, None])
    monkeypatch.setattr(verify, "_manifest_bank", lambda manifest, token: real_parts(manifest) and pytest.fail("not read whole"))
    monkeypatch.setattr(verify, "catalog_paths", lambda translations: [])
    parts.clear()
    assert [d for d in verdict("1", "parts") if d["code"] == "W504"] == [d for d in whole if d["code"] == "W504"]
    assert calls[-1] == "_template_sent" and len(parts) == 1


def _old_strings_refused(parts: list[str]) -> bool:
    """The row reader's check of a block's strings without escapes as it was: each string and
    each run of continuation lines as written, one at a time."""
    from unicodedata import is_normalized

    from aistack_bank.safety import FORBIDDEN

    for part in parts:
        if part.isascii():
            if not part.isprintable() and FORBIDDEN.search(part):
                return True
        elif FORBIDDEN.search(part) or not is_normalized("NFC", part):
            return True
    return False


def test_the_row_reader_checks_a_blocks_strings_at_once_as_one_at_a_time():
    """A block of the bank's shape is refused by the row reader (read by the entry reader
    instead) exactly when one of its strings, checked on its own, holds a forbidden character or
    is not NFC, whatever sits at the strings' edges (combining marks first or last, a base they
    could compose with, forbidden characters, tabs)."""
    from aistack_bank.i18n.pofile import read_rows

    alphabet = ["e", "c", "<", "=", "A", "é", " ", "\t", "\u0301", "\u0338", "\u0327", "\u202e", "\x01", "\u2028", "ö", "o\u0308", "x"]
    rng = random.Random(9)
    refused = 0
    for _ in range(2500):
        def string() -> str:
            return "".join(rng.choice(alphabet) if rng.random() < 0.15 else rng.choice("abc ") for _ in range(rng.randint(0, 6)))

        strings = [string() for _ in range(3)]
        more = [[string() for _ in range(rng.choice([0, 0, 1, 2]))] for _ in range(3)]
        lines = ["#. A note.", "#: bank/t/q1.yaml:3"]
        for keyword, first, rest in zip(("msgctxt", "msgid", "msgstr"), strings, more):
            lines.append(f'{keyword} "{first}"')
            lines += [f'"{piece}"' for piece in rest]
        text = "\n".join(lines) + "\n"
        written = [strings[0], "".join(f'"{p}"\n' for p in more[0]), strings[1], "".join(f'"{p}"\n' for p in more[1]),
                   strings[2], "".join(f'"{p}"\n' for p in more[2])]
        found = read_rows(text, 0, 1, Path("fr.po"))
        assert (found is None) == _old_strings_refused(written), text
        refused += found is None
    assert 250 < refused < 2250  # both ways taken often
