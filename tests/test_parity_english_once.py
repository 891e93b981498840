"""The English side of the translation parity checks (numbers, quantities, formulas, markup) is
made once per question file, with its fields (``derived["parity"]``), and each language's
catalog compares its translations with it instead of reading the English again.

Compared, on random pairs of texts over the characters that matter, with
:func:`parity_diagnostics` as it was (spelled out here): the same findings, in the same order,
with the English side given for the text, absent (a record made before), or given for another
text only; the sides given are not changed by a comparison, so a second language finds the same.
The sides are kept with a question file's record, sent with it to the catalogs' workers, and
read only for the fields whose English text they were made from."""

from __future__ import annotations

import copy
import random
from pathlib import Path

from aistack_bank.errors import Location, error
from aistack_bank.i18n.fields import TextField
from aistack_bank.i18n.verify import _listed, _parity_sides, _fmt_numbers, _where, parity_diagnostics
from aistack_bank.load import QuestionSource
from aistack_bank.rules.quantities import TOKEN_HINT, formula_tokens, markup_tokens, numbers_and_quantities, parity_sides, quantities

PIECES = list("aZMNK xy09 5,.-()") + ["²", "³", "·", "×", "/", "^", "<b>", "</b>", "{n}", "%s", "%", "\u00a0", "\u202f", "\u2009", "٣", "½",
                                      "GB", "Go", "MB", "ms", "s", "bits", "bytes", "/s", "µs", "FLOP", "FLOP/byte", "k", "o", "1,000", "1 000",
                                      "1.000", "000", "2MNK", "N×N", "M × K", "6ND", "FP16", "word", "the option"]
WHERE = Location.of(Path("translations/fr.po"), 12, 8)


def _parity_before(field: TextField, translation: str, language: str, where: Location):
    """parity_diagnostics as it was before the English side was kept: both sides read here."""
    english = field.text
    if TOKEN_HINT.search(translation) is None and TOKEN_HINT.search(english) is None:
        return []
    diags = []
    en_numbers, en_q = numbers_and_quantities(english, "en")
    tr_numbers, tr_q = numbers_and_quantities(translation, language)
    en_numbers.sort()
    tr_numbers.sort()
    if en_numbers != tr_numbers:
        diags.append(error("E502", f"{field.key}: numbers differ: English has {_fmt_numbers(en_numbers)}, {language} has {_fmt_numbers(tr_numbers)}", _where(where)))
    else:
        en_q.sort()
        tr_q.sort()
        if en_q != tr_q:
            en_text = ", ".join(q.text for q in quantities(english, "en")) or "none"
            tr_text = ", ".join(q.text for q in quantities(translation, language)) or "none"
            diags.append(error("E502", f"{field.key}: quantities differ: English has {en_text}, {language} has {tr_text}", _where(where)))
    en_f, tr_f = formula_tokens(english), formula_tokens(translation)
    if en_f or tr_f:
        en_f.sort()
        tr_f.sort()
        if en_f != tr_f:
            diags.append(error("E507", f"{field.key}: formulas differ: English has {', '.join(en_f) or 'none'}, {language} has {', '.join(tr_f) or 'none'}", _where(where)))
    en_m, tr_m = markup_tokens(english), markup_tokens(translation)
    if en_m != tr_m:
        diags.append(error("E503", f"{field.key}: markup/placeholders differ: English has {en_m or 'none'}, {language} has {tr_m or 'none'}", _where(where)))
    return diags


def _text(rng: random.Random) -> str:
    return "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 10)))


def _translation(rng: random.Random, english: str) -> str:
    """Often the English with one piece changed (so that most pairs agree, as a bank's do)."""
    if rng.random() < 0.3:
        return _text(rng)
    pieces = list(english)
    if pieces and rng.random() < 0.7:
        pieces[rng.randrange(len(pieces))] = rng.choice(PIECES)
    return "".join(pieces)


def test_the_same_findings_with_the_english_side_kept():
    rng = random.Random(20261202)
    found = 0
    for index in range(6000):
        english = _text(rng)
        field = TextField(f"q{index:04d}.stem", english, Path("bank/t/q.yaml"), 3)
        sides = parity_sides([english, _text(rng)])
        kept = copy.deepcopy(sides)
        other = parity_sides([_text(rng)])
        other.pop(english, None)
        for language in ("fr", "nl", "de"):
            translation = _translation(rng, english)
            before = _parity_before(field, translation, language, WHERE)
            assert parity_diagnostics(field, translation, language, WHERE, sides) == before
            assert parity_diagnostics(field, translation, language, WHERE, other) == before
            assert parity_diagnostics(field, translation, language, WHERE, None) == before
            assert parity_diagnostics(field, translation, language, WHERE) == before
            found += bool(before)
        assert sides == kept  # not changed by the comparisons
        assert (english in sides) == (TOKEN_HINT.search(english) is not None)
    assert found > 3000  # (most pairs differ somewhere: each kind of finding is met)


def test_the_sides_travel_with_the_fields_and_are_read_by_text():
    fields = [TextField("q0001.stem", "About 14 GB at 2N", Path("q.yaml"), 1), TextField("q0001.option.a", "no figure", Path("q.yaml"), 2)]
    derived = {"fields": fields, "parity": parity_sides([f.text for f in fields]), "other": 1}
    assert list(derived["parity"]) == ["About 14 GB at 2N"]
    assert _listed(derived) == {"fields": fields, "parity": derived["parity"]}
    assert _listed({"fields": fields}) == {"fields": fields}  # a record made before: none
    questions = [QuestionSource(path=Path("q.yaml"), doc=None, question=None, derived=_listed(derived)), QuestionSource(path=Path("r.yaml"), doc=None, question=None, derived={})]
    assert _parity_sides(questions) == derived["parity"]


def test_the_catalogs_read_the_english_side_the_question_files_kept(project, monkeypatch, tmp_path):
    """Through `bank validate` of the bundled bank, its records in the spill file and the
    catalogs' workers' calls made here: each catalog reads again only the English of fields
    whose file kept no side (topics, categories), and finds what it finds when it reads every
    English text again."""
    from aistack_bank import parallel
    from aistack_bank.cache import questionfiles
    from aistack_bank.i18n import verify
    from aistack_bank.rules import validate
    from inprocess_workers import in_process_workers

    monkeypatch.setattr(parallel, "Workers", in_process_workers([]))
    monkeypatch.setattr(validate, "POOL_MIN_CATALOG_BYTES", 0)
    monkeypatch.setattr(questionfiles, "SPILL_MIN_FILES", 0)
    read_again: list[str] = []
    real = verify.english_parity
    monkeypatch.setattr(verify, "english_parity", lambda text: read_again.append(text) or real(text))

    def verdict(cache: str):
        monkeypatch.setenv("AISTACK_BANK_JOBS", "1")
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / cache))
        monkeypatch.setattr(verify, "_RECEIVED", [None, None])
        return [d.as_dict() for d in validate.validate_bank(Path("bank"), translations=Path("translations")).diagnostics]

    kept = verdict("kept")
    question_texts = {field.text for qs in validate.validate_bank(Path("bank")).source.questions if qs.question is not None
                      for field in qs.derived["fields"]}
    assert read_again and not set(read_again) & question_texts  # (topics' and categories' texts only)
    read_again.clear()
    monkeypatch.setattr(verify, "_parity_sides", lambda questions: {})  # as a record kept without the sides
    assert verdict("again") == kept
    assert set(read_again) & question_texts
