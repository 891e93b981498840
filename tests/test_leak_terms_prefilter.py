"""A declared key term is searched for in an ASCII text only if the text's lower case holds the
first word of one of its alternatives: on random terms and texts (capitals, starred endings,
alternatives, and the letters that match ASCII letters when case is ignored: the Kelvin sign,
the long s, the dotted capital I), the entries the matcher finds are those its patterns alone
find."""

from __future__ import annotations

import random

from aistack_bank.rules.lints import _clean, _entry_found, _prefiltered, parse_key_terms

WORDS = ["Memory", "memory", "MEMORY", "kv", "KV", "cache", "Kernel", "fus", "fused", "off-chip", "Off", "chip", "sk", "s",
         "\u212a", "\u017f", "\u0130", "i", "mémoire", "poids", "token", "tokens", "l'op", "2N", "3.5"]
GLUE = [" ", "  ", "-", "", ", ", ". ", "\u00a0", "\n", "(", ")"]


def _term(rng: random.Random) -> str:
    alternatives = []
    for _ in range(rng.randint(1, 3)):
        words = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 2)))
        alternatives.append(words + rng.choice(["", "", "*"]))
    return "|".join(alternatives)


def _text(rng: random.Random) -> str:
    return "".join(rng.choice(WORDS) + rng.choice(GLUE) for _ in range(rng.randint(0, 8)))


def test_the_first_word_refusal_finds_what_the_patterns_find():
    rng = random.Random(20261202)
    found = 0
    for _ in range(400):
        entry = " + ".join(_term(rng) for _ in range(rng.randint(1, 2)))
        plain, prefiltered = parse_key_terms(entry), _prefiltered(entry)
        assert [p.pattern for p in plain] == [p.pattern for p, _ in prefiltered]
        for _ in range(25):
            cleaned = _clean(_text(rng))
            expected = all(p.search(cleaned) for p in plain)
            assert _entry_found(prefiltered, cleaned, cleaned.lower() if cleaned.isascii() else None) == expected, (entry, cleaned)
            found += expected
    assert found > 500  # the draws do find terms, and not only nothing
