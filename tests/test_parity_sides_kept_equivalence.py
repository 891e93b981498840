"""``quantities.parity_sides`` keeps each text's English parity side (or that it has none) for
the texts met since, at most ``_SIDES_KEPT`` of them: the same sides, in the same order, as
the sides made afresh for every text as before (kept here, ``_parity_sides_before``).

Compared on random lists of texts that repeat each other (numbers, units, formula tokens,
markup, texts beyond ASCII, texts that differ by a space or a character's case), with the
bound left as it is and made tiny (so that the kept sides are let go every few texts), and on
every text of the bundled bank and ``examples/every-kind`` in a shuffled order, twice; and a
file's texts pickle with their sides to the same bytes when a text is one whole token (whose side
made afresh holds the text object itself). It fails with a side kept under the text lowered, and
the last test with a side kept that holds its own text."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from aistack_bank.rules import quantities as Q
from aistack_bank.rules.quantities import _ASCII_CLASSES, _ascii_parity, english_parity, has_token_hint, parity_sides

ROOT = Path(__file__).resolve().parent.parent


def _parity_sides_before(texts) -> dict[str, tuple]:
    sides = {}
    for text in texts:
        if text.isascii():
            classes = text.encode("ascii").translate(_ASCII_CLASSES)
            if b"0" in classes or b"/" in classes or b"<" in classes:
                sides[text] = _ascii_parity(text, classes)
        elif has_token_hint(text):
            sides[text] = english_parity(text)
    return sides


PIECES = ["1", "7", "12", "1,000", "3.5", " GB", "GB", " ms", " MB/s", "-bit", " TFLOPS", " %", "FP32", "W4A16", "q003", "2MNK",
          "N/3", "N^2", "(2N)", "M/(K)", "<b>", "{x}", "%s", "About", "the", "per", " ", "  ", "\n", "é", "×", "·", "²", "\u00a0",
          "µs", "\u0660", "Option", "option", "A", "a"]


def _same_lists(rng: random.Random, count: int) -> None:
    pool = ["".join(rng.choice(PIECES) for _ in range(rng.randint(0, 6))) for _ in range(60)]
    pool += [text + " " for text in pool[:10]] + [text.upper() for text in pool[10:20]]
    for _ in range(count):
        texts = [rng.choice(pool) for _ in range(rng.randint(0, 12))]
        got, want = parity_sides(texts), _parity_sides_before(texts)
        assert got == want and list(got) == list(want), texts


@pytest.mark.parametrize("kept", [None, 1, 3, 17])
def test_random_texts_that_repeat(monkeypatch, kept):
    Q._sides.clear()
    if kept is not None:
        monkeypatch.setattr(Q, "_SIDES_KEPT", kept)
    _same_lists(random.Random(kept or 0), 6000)
    assert len(Q._sides) <= (kept or Q._SIDES_KEPT)


def test_every_text_of_both_banks_shuffled_twice():
    from aistack_bank.i18n.fields import question_fields
    from aistack_bank.load import read_question

    files = []
    for path in sorted(ROOT.glob("bank/*/questions/*.yaml")) + sorted(ROOT.glob("examples/every-kind/bank/*/questions/*.yaml")):
        qs, _ = read_question(path, root=path.parent.parent)
        if qs.question is not None:
            files.append([field.text for field in question_fields(qs.question, qs.doc, qs.path)])
    assert len(files) > 40
    rng = random.Random(5)
    Q._sides.clear()
    for _ in range(2):
        rng.shuffle(files)
        for texts in files:
            got, want = parity_sides(texts), _parity_sides_before(texts)
            assert got == want and list(got) == list(want), texts


def test_a_record_pickles_to_the_same_bytes():
    """A text that is one whole token (its side holds the text object itself) pickles with its
    side as it did with the side made afresh, whichever file's equal text was met first."""
    import pickle

    rng = random.Random(9)
    Q._sides.clear()
    whole = ["2MNK", "N/3", "<b>", "{x}", "%s", "2MNK ", "(N/3)", "M×K", "12 GB", "About 2MNK", "N²/3"]
    for _ in range(400):
        texts = ["".join(rng.choice(whole)) + "" for _ in range(rng.randint(1, 5))]
        texts = [text.encode().decode() for text in texts]  # (each file's texts are objects of its own)
        assert pickle.dumps((texts, parity_sides(texts))) == pickle.dumps((texts, _parity_sides_before(texts))), texts
