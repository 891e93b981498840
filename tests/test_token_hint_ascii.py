"""An ASCII text is asked whether it holds a character of :data:`~aistack_bank.rules.quantities.TOKEN_HINT`
by its bytes translated through a table of flags (``has_token_hint``), not by a search of the
pattern's class.

Compared with the search before, kept here, on every ASCII character alone and between others,
on 40 000 random texts (ASCII, and with characters from Latin-1, U+0660 on and every hint
character), and on every text of the bundled bank; it fails with a hint character (``%``)
counted among the others."""

from __future__ import annotations

import random
from pathlib import Path

from aistack_bank.rules import quantities
from aistack_bank.rules.quantities import TOKEN_HINT, has_token_hint

ROOT = Path(__file__).resolve().parent.parent


def has_token_hint_before(text: str) -> bool:
    search = quantities._hint_class().search
    found = search(text)
    while found is not None:
        at = found.start()
        if found.group() < "\u0660" or TOKEN_HINT.match(text, at) is not None:
            return True
        found = search(text, at + 1)
    return False


def test_every_ascii_character_alone_and_between_others():
    for code in range(128):
        c = chr(code)
        for text in (c, f"ab{c}cd", f"{c}  ", f"  {c}", c * 3):
            assert has_token_hint(text) == has_token_hint_before(text) == (TOKEN_HINT.search(text) is not None), repr(text)
    assert not has_token_hint("") and not has_token_hint_before("")


def test_random_texts():
    rng = random.Random(20261202)
    ascii_chars = [chr(c) for c in range(128)]
    others = ascii_chars * 4 + list("éàü×·²³⁴÷\u00a0\u202f") + ["\u0660", "\u0669", "\u06f5", "\u0966", "\uff10", "\U0001d7ce", "\u2028"]
    for n in range(40_000):
        pool = ascii_chars if n % 2 else others
        text = "".join(rng.choice(pool) for _ in range(rng.randint(0, 40)))
        if n % 3 == 0:  # mostly letters and spaces, as texts are
            text = "".join(rng.choice("abcdefgh XYZ,.") for _ in range(rng.randint(0, 60))) + text[: rng.randint(0, 2)]
        assert has_token_hint(text) == has_token_hint_before(text), repr(text)


def test_every_text_of_the_bundled_bank():
    from aistack_bank.i18n.fields import question_fields
    from aistack_bank.load import read_question

    texts = 0
    for path in sorted(ROOT.glob("bank/*/questions/*.yaml")):
        qs, _ = read_question(path, root=path.parent.parent)
        for field in question_fields(qs.question, qs.doc, qs.path):
            assert has_token_hint(field.text) == has_token_hint_before(field.text), field.key
            texts += 1
    assert texts > 400
