"""The English parity side of a text beyond ASCII whose characters are all Latin-1 (a text with
``×``, ``²`` or ``³``: nearly every such text of a bank) is read from the classes of its bytes
as an ASCII text's is (``quantities._latin1_parity``), its formula tokens by ``formula_tokens``
when it holds a token character beyond ASCII; and ``formula_tokens`` squeezes the spaces around
``×`` and ``·`` by ``str.replace`` (``quantities._squeezed``) instead of the pattern
``_SQUEEZE``'s substitution.

Compared with the code before, kept here (``_side_of`` reading every text beyond ASCII by
``english_parity``, ``formula_tokens`` with the substitution): the same sides (values, their
types, and the same object where a token is the text itself, so that a record pickles the
same bytes), the same tokens with and without variables, and the same squeezed text (the
text itself exactly when the substitution gives it back), on hypothesis texts of the
characters the scans look for (spaces of every kind, runs of them, the operators, digits,
superscripts, letters beyond ASCII, units, markup) and of any Latin-1 characters, on random
texts of numbers, units, formula tokens and acronyms, on hostile texts (controls, surrogates,
characters past Latin-1, long runs) and on every text of the bundled bank and
``examples/every-kind``. It fails with a text holding ``²`` screened for formulas by its
classes, with the squeezing done in one pass, and with the text itself given back unsqueezed."""

from __future__ import annotations

import pickle
import random
import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from aistack_bank.rules import quantities as Q

ROOT = Path(__file__).resolve().parent.parent


# ---------------------------------------------------------------- the code before

_SQUEEZE_BEFORE = re.compile(rf"[{Q._SPACES}]*([×·])[{Q._SPACES}]*")


def _formula_tokens_before(text: str, variables=None) -> list[str]:
    if variables is None and not Q._FORMULA_HINT.search(text):
        return []
    squeezed = _SQUEEZE_BEFORE.sub(r"\1", text) if "×" in text or "·" in text else text
    found = []
    for m in (Q._FORMULA_TOKEN if variables is not None else Q._FORMULA_CANDIDATE).finditer(squeezed):
        token = m.group()
        while token and token[-1] == ")" and token.count(")") > token.count("("):
            token = token[:-1]
        while token and token[0] == "(" and token.count("(") > token.count(")"):
            token = token[1:]
        letters = [c for c in token if c.isalpha()]
        if not letters:
            continue
        if variables is not None:
            if all(c in variables for c in letters):
                found.append(token)
        elif token[0].isdigit() or (any(c in token for c in "²³⁴·×/^") and not token[:2].isalpha()):
            found.append(token)
    return found


def _english_parity_before(text: str) -> tuple:
    numbers, found = Q.numbers_and_quantities(text, "en")
    numbers.sort()
    found.sort()
    formulas = _formula_tokens_before(text)
    formulas.sort()
    return tuple(numbers), tuple(found), tuple(formulas), tuple(Q.markup_tokens(text))


def _side_of_before(text: str):
    if text.isascii():
        classes = text.encode("ascii").translate(Q._ASCII_CLASSES)
        if classes.find(b"0") >= 0 or classes.find(b"/") >= 0 or classes.find(b"<") >= 0:
            return Q._ascii_parity(text, classes)
        return None
    if Q.has_token_hint(text):
        return _english_parity_before(text)
    return None


# ---------------------------------------------------------------- comparisons


def _same_side(text: str) -> None:
    got, want = Q._side_of(text), _side_of_before(text)
    assert got == want, (text, got, want)
    if want is None:
        return
    assert [[type(v) for v in part] for part in got] == [[type(v) for v in part] for part in want], text
    for part in (2, 3):  # a token that is the text itself is so in both
        assert [token is text for token in got[part]] == [token is text for token in want[part]], text
    assert pickle.dumps((text, got), protocol=5) == pickle.dumps((text, want), protocol=5), text
    assert Q._holds_itself(got, text) == Q._holds_itself(want, text), text


def _same_squeeze(text: str) -> None:
    if "×" not in text and "·" not in text:
        return
    got, want = Q._squeezed(text), _SQUEEZE_BEFORE.sub(r"\1", text)
    assert got == want, (text, got, want)
    assert (got is text) == (want is text), text


def _same_tokens(text: str) -> None:
    assert Q.formula_tokens(text) == _formula_tokens_before(text), text
    for variables in (("N",), ("M", "N", "K"), ()):
        assert Q.formula_tokens(text, variables) == _formula_tokens_before(text, variables), (text, variables)


def _same(text: str) -> None:
    _same_squeeze(text)
    _same_tokens(text)
    _same_side(text)


SPACES = [" ", "\u00a0", "\u202f", "\u2009"]
LATIN1 = (SPACES * 3 + ["×", "·", "²", "³", "¹", "¼", "µ", "é", "ß", "º", "ª", "÷", "±", "°", "\u00ad", "\xa0×\xa0", " × ", "  ·  "]
          + list("0123456789") * 2 + ["1,000", "3.5", ".5", "2N", "N", "M", "K", "MNK", "GB", " GB", " ms", "-bit", "/", "^", "(", ")",
                                      "<b>", "{x}", "%s", "a", "x", "The", "_", ".", ",", "-"])
BEYOND = ["⁴", "\u2074", "\u0660", "\uff10", "\U0001d7ce", "\u0130", "\u212a", "\x00", "\x1f", "\x7f", "\x85", "\ud800", "\n", "\t", "\u2028"]


@settings(max_examples=max(400, settings.default.max_examples), deadline=None)  # (more with HYPOTHESIS_PROFILE=long)
@given(st.lists(st.sampled_from(LATIN1), max_size=16).map("".join))
def test_latin1_texts_of_the_pieces(text):
    _same(text)


@settings(max_examples=max(400, settings.default.max_examples), deadline=None)  # (more with HYPOTHESIS_PROFILE=long)
@given(st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0xFF), max_size=40))
def test_any_latin1_text(text):
    _same(text)


@settings(max_examples=max(400, settings.default.max_examples), deadline=None)  # (more with HYPOTHESIS_PROFILE=long)
@given(st.lists(st.sampled_from(LATIN1 + BEYOND), max_size=16).map("".join), st.text(max_size=6))
def test_hostile_texts(pieces, anything):
    _same(pieces)
    _same(pieces + anything)
    _same(anything + "×" + pieces)


def test_every_latin1_character_alone_and_between_others():
    for code in range(256):
        c = chr(code)
        for text in (c, f"ab{c}cd", f"2{c}N", f"N{c}2", f"1{c}000", f"3{c}GB", f"A{c}1", f"{c}12 GB", f"2 ×{c}N", f"{c}×{c}", f"N²{c}3",
                     f"{c} × ", f"×{c}"):
            _same(text)


# The two random tests below: 5 000 texts each (20 000 before: the same lines and branches of
# rules/quantities.py and of the code before reached, `coverage run --branch`).
def test_runs_of_spaces_around_the_operators():
    rng = random.Random(20261204)
    for _ in range(5_000):
        text = "".join(rng.choice(SPACES + ["×", "·", "N", "2", "a", "(", "/"]) for _ in range(rng.randint(1, 12)))
        _same(text)
    for text in ("×", "·", " ×", "× ", "××", "N×N", "N ×  \u00a0\u2009N", "2 · N²", "(2 × N)²", "x" * 2000 + " × " * 500):
        _same(text)


PIECES = ["1", "12", "208", "1,000", "12,345,678", "3.5", ".5", "5.", "1,000.25", " GB", "GB", " ms", " MB/s", "/s", " bytes", "-bit",
          " TFLOPS", " FLOP/byte", " %", " KiB", " W", " s", " us", "FP32", "INT8", "W4A16", "q003", "2MNK", "N/3", "N^2", "(2N)", "2(MN)",
          "M/(K)", "MAC/2", "MAC×2", "N×N", "2N²", "N³/3", "(N·K)", "<b>", "</i>", "{x}", "%s", "%(n)d", "About", "per", " ", "  ", "\n"]


def test_random_texts_of_pieces():
    rng = random.Random(20261205)
    pieces = PIECES + LATIN1
    for _ in range(5_000):
        _same("".join(rng.choice(pieces) for _ in range(rng.randint(0, 12))))


def test_every_text_of_the_bundled_bank_and_every_kind():
    from aistack_bank.i18n.fields import question_fields
    from aistack_bank.load import read_question

    texts = []
    for path in sorted(ROOT.glob("bank/*/questions/*.yaml")) + sorted(ROOT.glob("examples/every-kind/bank/*/questions/*.yaml")):
        qs, _ = read_question(path, root=path.parent.parent)
        if qs.question is not None:
            texts += [field.text for field in question_fields(qs.question, qs.doc, qs.path)]
    assert len(texts) > 400
    for text in texts:
        _same(text)
    assert any(not text.isascii() and ("×" in text or "²" in text) for text in texts)
