"""The English parity sides of a question file's ASCII texts (``quantities.parity_sides``) are
read from each text's character classes, made once in C (``_ascii_parity``): its numbers matched
where the runs of digits start, its formula tokens looked for only when a capital letter stands
next to a digit or an operator, its markup only with ``<``, ``{`` or ``%``.

Compared with the sides as they were made before, kept here (``english_parity`` of each text in
which the hint class finds a character, and what it called), on every ASCII character alone and
between others, on 10 000 random texts built of the pieces the scans look for (numbers with
thousands and decimals, units, formula tokens with parentheses and operators, acronyms with
digits, markup, letters before and after digits), on texts with characters beyond ASCII, and on
every text of the bundled bank and ``examples/every-kind``. It fails with the formula refusal
narrowed to a capital letter before a digit (``b"0A"`` left out)."""

from __future__ import annotations

import random
import re
from pathlib import Path

from aistack_bank.rules import quantities as Q
from aistack_bank.rules.quantities import parity_sides

ROOT = Path(__file__).resolve().parent.parent


# ---------------------------------------------------------------- the sides as made before

_DIGIT_BEFORE = re.compile(r"\d")


def _numbers_and_quantities_before(text: str) -> tuple[list[float], list[tuple[str, float]]]:
    if not _DIGIT_BEFORE.search(text):
        return [], []
    found, units = [], []
    for m in Q._NUMBER_RE["en"].finditer(text):
        value = Q.parse_number(m.group(), "en")
        found.append(value)
        u = Q._UNIT_AFTER.match(text, m.end())
        if u is not None:
            dimension, factor = Q.UNITS[u.group(1)]
            units.append((dimension, round(value * factor, 9)))
    return found, units


def _formula_tokens_before(text: str) -> list[str]:
    if not Q._FORMULA_HINT.search(text):
        return []
    squeezed = Q._SQUEEZE.sub(r"\1", text) if "×" in text or "·" in text else text
    found = []
    for m in Q._FORMULA_CANDIDATE.finditer(squeezed):
        token = m.group()
        while token and token[-1] == ")" and token.count(")") > token.count("("):
            token = token[:-1]
        while token and token[0] == "(" and token.count("(") > token.count(")"):
            token = token[1:]
        letters = [c for c in token if c.isalpha()]
        if not letters:
            continue
        if token[0].isdigit() or (any(c in token for c in "²³⁴·×/^") and not token[:2].isalpha()):
            found.append(token)
    return found


def _markup_before(text: str) -> list[str]:
    if "<" not in text and "{" not in text and "%" not in text:
        return []
    return sorted(Q._MARKUP.findall(text))


def _english_parity_before(text: str) -> tuple:
    numbers, found = _numbers_and_quantities_before(text)
    numbers.sort()
    found.sort()
    formulas = _formula_tokens_before(text)
    formulas.sort()
    return tuple(numbers), tuple(found), tuple(formulas), tuple(_markup_before(text))


_HINT_BEFORE = re.compile(r"[\d²³⁴·×/^<{%]")


def parity_sides_before(texts) -> dict[str, tuple]:
    return {text: _english_parity_before(text) for text in texts if _HINT_BEFORE.search(text)}


def _same(texts) -> None:
    texts = list(texts)
    got, want = parity_sides(texts), parity_sides_before(texts)
    assert got == want, [(t, got.get(t), want.get(t)) for t in texts if got.get(t) != want.get(t)][:3]
    for text in texts:  # and each text alone
        assert parity_sides([text]) == parity_sides_before([text]), repr(text)


# ---------------------------------------------------------------- inputs

PIECES = ["1", "7", "12", "208", "1,000", "1,00", "12,345,678", "3.5", "0.5", ".5", "5.", "1.2.3", "1,000.25", "2,5",
          " GB", "GB", " ms", "ms", " MB/s", " GB/s", "/s", " bytes", "-bit", "-bits", "-byte", " TFLOPS", " FLOP/byte", " %", "%", " KiB",
          " B", "B", " W", " kW", " s", " min", " h", " us", " o", " Go",
          "FP32", "INT8", "W4A16", "q003", "Q12", "2MNK", "N/3", "N^2", "(2N)", "2(MN)", "((N))", "(N)2", "M/(K)", "MAC/2", "AB/2", "N/", "/N", "^N", "N(",
          "2", "K", "N", "M", "(", ")", "/", "^", "<b>", "</i>", "<", ">", "{x}", "{}", "{", "%s", "%d", "%(n)d", "% s",
          "a", "b", "x", "About", "The", "per", "token", "_", "__", ".", ",", "-", "'", " ", " ", "  ", "\n", "\t"]
BEYOND = ["é", "×", "·", "²", "³", "⁴", "÷", "\u00a0", "\u202f", "\u2009", "µs", "μs", "\u0660", "\u0669", "\uff10", "\U0001d7ce"]


def _random_text(rng: random.Random, beyond: bool) -> str:
    pieces = PIECES + BEYOND if beyond else PIECES
    return "".join(rng.choice(pieces) for _ in range(rng.randint(0, 12)))


def test_every_ascii_character_alone_and_between_others():
    for code in range(128):
        c = chr(code)
        _same([c, f"ab{c}cd", f"{c}  ", f"  {c}", c * 3, f"2{c}N", f"N{c}2", f"1{c}000", f"3{c}GB", f"A{c}1", f"{c}12 GB"])
    _same([""])


def test_random_texts():
    # (10 000 texts reach the same lines and branches of `quantities` and of the sides before
    # as the 60 000 drawn until round 22: `coverage run --branch`, about a sixth of the time)
    rng = random.Random(20261203)
    for n in range(10_000):
        _same([_random_text(rng, n % 5 == 0) for _ in range(1 + n % 3)])


def test_every_text_of_the_bundled_bank_and_every_kind():
    from aistack_bank.i18n.fields import question_fields
    from aistack_bank.load import read_question

    texts = []
    for path in sorted(ROOT.glob("bank/*/questions/*.yaml")) + sorted(ROOT.glob("examples/every-kind/bank/*/questions/*.yaml")):
        qs, _ = read_question(path, root=path.parent.parent)
        if qs.question is not None:
            texts += [field.text for field in question_fields(qs.question, qs.doc, qs.path)]
    assert len(texts) > 400
    _same(texts)
    assert sum(text.isascii() for text in texts) > 300
