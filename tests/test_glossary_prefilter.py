"""The glossary's check looks for a term's first word before anything else: on random
glossaries and texts it finds what the check without that first look found, in the same order
and at the same offsets (the former check is kept below as the reference)."""

from __future__ import annotations

import random
from pathlib import Path

from aistack_bank.i18n.glossary import Glossary, Rule, Term


def reference_check(glossary: Glossary, english: str, translation: str, language: str, key: str | None = None):
    """The check as it was before the first-word search (product names masked in every term)."""
    lang = language.split("_")[0]
    found = []
    plain = translation.replace("\u00a0", " ").replace("\u202f", " ")
    for term in glossary.terms:
        rule = term.rules.get(language) or term.rules.get(lang)
        if rule is None or (key is not None and key in rule.published):
            continue
        source, text = english, plain
        for name_pattern in glossary._patterns(term.names, english=True):
            source = name_pattern.sub(lambda m: " " * len(m.group(0)), source)
            text = name_pattern.sub(lambda m: " " * len(m.group(0)), text)
        if not any(p.search(source) for p in glossary._patterns(term.english, english=True)):
            continue
        name = term.english[0].rstrip("$")
        shared = any(p.search(source) for p in glossary._patterns(term.unless, english=True))
        for form, pattern in zip(() if shared else rule.avoid, glossary._patterns(rule.avoid)):
            match = pattern.search(text)
            if match:
                want = " or ".join(repr(u.rstrip("$")) for u in rule.use) or "another wording"
                found.append(("W522", f"{name!r} is translated with the avoided variant {match.group(0)!r}; the glossary asks for {want}", match.start()))
        if rule.use and not any(p.search(text) for p in glossary._patterns(rule.use)):
            found.append(("W521", f"the English has {name!r}, but the translation has none of {', '.join(repr(u.rstrip('$')) for u in rule.use)} (glossary)", 0))
    return found


# Words that overlap each other, a product name made of a term, and letters that match other
# letters when case is ignored (the Kelvin sign and K, the long s and s).
WORDS = ["kv", "cache", "kvcache", "run", "runtime", "onnx", "time", "flash", "attention", "s", "ſ", "\u212a", "K"]
GLUE = [" ", "-", "", "\u00a0", "\u202f", "  ", ". ", "é"]


def phrase(rng: random.Random, most: int = 3) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(1, most))]
    return "".join(word + rng.choice(GLUE) for word in words[:-1]) + words[-1]


def form(rng: random.Random) -> str:
    return rng.choice(["", "", "*", "-"]) + phrase(rng, 2) + rng.choice(["", "", "$"])


def text(rng: random.Random) -> str:
    return "".join(phrase(rng) + rng.choice(GLUE) for _ in range(rng.randint(0, 4)))


def test_the_first_word_search_finds_what_the_full_check_found():
    rng = random.Random(20261202)
    differing = 0
    for _ in range(300):
        terms = [Term(tuple(form(rng) for _ in range(rng.randint(1, 3))),
                      rules={"fr": Rule(tuple(form(rng) for _ in range(rng.randint(0, 2))),
                                        tuple(form(rng) for _ in range(rng.randint(0, 2))))},
                      names=tuple(phrase(rng, 2) for _ in range(rng.randint(0, 2))),
                      unless=tuple(form(rng) for _ in range(rng.randint(0, 1))))
                 for _ in range(rng.randint(1, 4))]
        glossary = Glossary(Path("glossary.yaml"), terms)
        for _ in range(20):
            english, translation = text(rng), text(rng)
            expected = reference_check(glossary, english, translation, "fr_BE")
            assert glossary.check(english, translation, "fr_BE") == expected, (terms, english, translation)
            differing += bool(expected)
    assert differing > 500  # the draws do find breaches, and not only empty results
