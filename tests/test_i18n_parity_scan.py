"""The translation checks' one-scan parity (numbers with their units, then formulas and markup,
skipped when neither text holds a character any of them needs) finds exactly what the
separate scans found.

Each is compared, on random pairs of texts over the characters that matter, with the same
check spelled out as it was before: every scanner run on both texts, compared as multisets."""

from __future__ import annotations

import inspect
import random
from collections import Counter
from pathlib import Path

from aistack_bank.errors import Location, error
from aistack_bank.i18n.fields import TextField
from aistack_bank.i18n.verify import parity_diagnostics
from aistack_bank.rules.quantities import TOKEN_HINT, formula_tokens, markup_tokens, numbers, numbers_and_quantities, quantities

PIECES = list("aZMNK xy09 5,.-()") + ["²", "³", "·", "×", "/", "^", "<b>", "</b>", "{n}", "%s", "%", "\u00a0", "\u202f", "\u2009", "٣", "½",
                                      "GB", "Go", "MB", "ms", "s", "bits", "bytes", "/s", "µs", "FLOP", "FLOP/byte", "k", "o", "1,000", "1 000",
                                      "1.000", "000", "2MNK", "N×N", "M × K", "6ND", "FP16"]
WHERE = Location.of(Path("translations/fr.po"), 12, 8)


def _texts(rng: random.Random, count: int):
    for _ in range(count):
        yield "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 10)))


def _fmt(values) -> str:
    return ", ".join(f"{v:g}" for v in values) or "none"


def _parity_spelled_out(field: TextField, translation: str, language: str, where: Location):
    """parity_diagnostics as it was: each scanner on both texts, Counters compared."""
    diags = []
    en_numbers, tr_numbers = sorted(numbers(field.text, "en")), sorted(numbers(translation, language))
    if en_numbers != tr_numbers:
        diags.append(error("E502", f"{field.key}: numbers differ: English has {_fmt(en_numbers)}, {language} has {_fmt(tr_numbers)}", where))
    else:
        en_q = Counter((q.dimension, round(q.base, 9)) for q in quantities(field.text, "en"))
        tr_q = Counter((q.dimension, round(q.base, 9)) for q in quantities(translation, language))
        if en_q != tr_q:
            en_text = ", ".join(q.text for q in quantities(field.text, "en")) or "none"
            tr_text = ", ".join(q.text for q in quantities(translation, language)) or "none"
            diags.append(error("E502", f"{field.key}: quantities differ: English has {en_text}, {language} has {tr_text}", where))
    en_f, tr_f = Counter(formula_tokens(field.text)), Counter(formula_tokens(translation))
    if en_f != tr_f:
        diags.append(error("E507", f"{field.key}: formulas differ: English has {', '.join(sorted(en_f.elements())) or 'none'}, {language} has {', '.join(sorted(tr_f.elements())) or 'none'}", where))
    en_m, tr_m = markup_tokens(field.text), markup_tokens(translation)
    if en_m != tr_m:
        diags.append(error("E503", f"{field.key}: markup/placeholders differ: English has {en_m or 'none'}, {language} has {tr_m or 'none'}", where))
    return diags


def test_numbers_and_quantities_in_one_scan_are_those_of_the_two_scanners():
    rng = random.Random(3)
    found = 0
    for text in _texts(rng, 10_000):
        for lang in ("en", "fr", "nl", "de"):
            values, units = numbers_and_quantities(text, lang)
            assert values == numbers(text, lang), (text, lang)
            assert units == [(q.dimension, round(q.base, 9)) for q in quantities(text, lang)], (text, lang)
            found += bool(units)
        if TOKEN_HINT.search(text) is None:
            assert not numbers(text, "fr") and not quantities(text, "nl") and not formula_tokens(text) and not markup_tokens(text), text
    assert found > 1_000  # the comparison met many quantities


def test_parity_finds_what_each_scanner_on_both_texts_found():
    rng = random.Random(5)
    codes = Counter()
    english_texts = list(_texts(rng, 1_500))
    for english in english_texts:
        field = TextField("q001.stem", english, Path("bank/t/q001.yaml"), 3)
        # a translation of its own, the English itself, and the English with one piece changed
        pieces = [english, next(_texts(rng, 1)), english.replace(rng.choice(PIECES), rng.choice(PIECES), 1)]
        for translation in pieces:
            for lang in ("fr", "nl", "en"):
                expected = _parity_spelled_out(field, translation, lang, WHERE)
                assert parity_diagnostics(field, translation, lang, WHERE) == expected, (english, translation, lang)
                codes.update(d.code for d in expected)
    assert codes["E502"] > 250 and codes["E507"] > 100 and codes["E503"] > 100, codes
    assert sum(1 for d in _parity_spelled_out(TextField("k", "2 GB", Path("x"), 1), "2 MB", "fr", WHERE) if "quantities" in d.message) == 1


def test_text_rule_is_the_models():
    """text_rule_problem, which calls the text type's validator itself, gives pydantic's verdict."""
    from pydantic import TypeAdapter, ValidationError

    from aistack_bank.i18n.verify import text_rule_problem
    from aistack_bank.model import Text

    adapter = TypeAdapter(Text)
    rng = random.Random(7)
    alphabet = [" ", "\t", "\n", "\u00a0", "\u3000", "\u2028", "\x1c", "\u200b", "a", "é", "\ud800", "\x00", "1"]
    refused = 0
    for _ in range(3_000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 4)))
        try:
            adapter.validate_python(text)
            expected = None
        except ValidationError as exc:
            expected = (exc.errors()[0]["type"], exc.errors()[0]["msg"])
            refused += 1
        assert text_rule_problem(text) == expected, repr(text)
    assert refused > 100


def test_the_text_type_refuses_the_blank_strings_alone():
    """What lets text_rule_problem answer a string that is not blank without pydantic: the
    model's text type is a string with one after-validator, which refuses what kinds.blank finds."""
    from typing import get_args

    from pydantic import AfterValidator

    from aistack_bank.kinds import blank
    from aistack_bank.kinds._base import _not_blank
    from aistack_bank.model import Text

    assert get_args(Text) == (str, AfterValidator(_not_blank))
    assert "blank(text)" in inspect.getsource(_not_blank) and _not_blank.__code__.co_names.count("blank") == 1
    assert blank("") and blank(" \t\n\u3000") and not blank("a") and not blank("\u200b")


def test_number_typography_finds_what_it_found_without_the_digit_refusal(monkeypatch):
    """number_issues refuses a text without a decimal digit at once (it looked for any
    character str.isdigit accepts, superscripts and other scripts' digits included): the same
    issues as with the refusal let through."""
    import re

    from aistack_bank.i18n import typography

    rng = random.Random(11)
    pieces = ["12", "65 504", "10000", "²", "³", "٣", "①", " ", "\u00a0", "\u202f", "Go", "ms", "%", "a", "`", "x"]
    texts = ["".join(rng.choice(pieces) for _ in range(rng.randint(0, 8))) for _ in range(5_000)]
    found = [typography.number_issues(text) for text in texts]
    monkeypatch.setattr(typography, "_DIGIT", re.compile(""))  # every text goes through
    assert [typography.number_issues(text) for text in texts] == found
    assert sum(map(bool, found)) > 500
