"""The answer-leak rule's words of an ASCII text are found by translating its bytes and
splitting, not by the word pattern: on random texts made of letters, digits, joiners
(``.``, ``,``, ``'``), doubled and trailing joiners, spaces, punctuation, controls, symbols and
non-ASCII letters, and on every English text of the bundled bank, ``_words_of`` gives the words
the code before gives (kept below)."""

from __future__ import annotations

import random
import re
from pathlib import Path

from aistack_bank.rules import lints
from aistack_bank.rules.lints import _normal, _words_of

REPO = Path(__file__).resolve().parent.parent

_WORD_BEFORE = re.compile(r"[^\W_]+(?:[.,'’][^\W_]+)*|[²³×÷→≈∝]")
_PLAIN_WORD_BEFORE = re.compile(r"[^\W_]+(?:[.,'’][^\W_]+)*")
_SYMBOL_BEFORE = re.compile(r"[²³×÷→≈∝]")


def _words_of_before(normal: str) -> list[str]:
    folded = normal.casefold()
    if folded.isascii() or _SYMBOL_BEFORE.search(folded) is None:
        return _PLAIN_WORD_BEFORE.findall(folded)
    return _WORD_BEFORE.findall(folded)


_PIECES = (["word", "Word", "WORDS", "a", "I", "x1", "3", "42", "3.5", "1,000", "don't", "it's", "e.g.", "U.S.A", "GPU", "FP16"]
           + list(".,'") + ["..", ",,", "''", ".,", "',", " ", "  ", "\n", "\t", "_", "-", "(", ")", "[", "]", "/", ":", ";", "!", "?",
                            '"', "%", "+", "=", "*", "#", "@", "&", "~", "`", "^", "|", "\\", "{", "}", "<", ">", "$", "\x00", "\x7f"]
           + ["é", "naïve", "Straße", "İ", "ı", "ſ", "’", "×", "²", "→", "µ", "Ω", "中文", "\u00a0", "\u2009", "①", "ǅ"])


def _random_text(rng: random.Random) -> str:
    pieces = [rng.choice(_PIECES) for _ in range(rng.randint(0, 30))]
    if rng.random() < 0.7:  # mostly ASCII, as the bank's texts are
        pieces = [p for p in pieces if p.isascii()]
    return "".join(pieces) if rng.random() < 0.5 else " ".join(pieces)


def test_words_are_the_words_found_before_on_random_texts():
    rng = random.Random(7)
    ascii_texts = 0
    for _ in range(40_000):
        text = _random_text(rng)
        for normal in (text, _normal(text)):
            assert _words_of(normal) == _words_of_before(normal), repr(normal)
        ascii_texts += text.casefold().isascii()
    assert ascii_texts > 20_000


def test_every_joiner_at_every_place():
    """Each ASCII character, and every pair, between, before and after letters and digits."""
    for a in map(chr, range(128)):
        for b in ".,' x9":
            for text in (a, a + b, b + a, "x" + a + "y", "1" + a + b + "2", "w" + a + "w" + b + "w", a + a + "z" + b + b):
                assert _words_of(text) == _words_of_before(text), repr(text)


def test_every_text_of_the_bundled_bank():
    from aistack_bank.load import read_library

    source = read_library(REPO / "bank")
    texts = [text for qs in source.questions if qs.question is not None for _, text in lints.question_texts(qs.question)]
    assert len(texts) > 100
    for text in texts:
        normal = _normal(text)
        assert _words_of(normal) == _words_of_before(normal), text
