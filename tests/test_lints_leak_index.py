"""The answer-leak lint's index (each text matched only against the keys whose anchor words it
holds, each distinct text read and matched once) never changes what it finds.

:func:`lints._match`, :func:`answer_leaks` and :func:`near_leaks` are compared, on random
keys and texts (English, French and Dutch words, figures with their units, declared key terms,
texts that repeat a key whole, in part, reordered or inflected, the same text in several
questions, and characters that NFKC or case folding change), with the matchers as they were
before the index, kept here as they were written."""

from __future__ import annotations

import random
import re

from aistack_bank.rules import lints
from aistack_bank.rules.lints import LEAK_MIN_KEY_WORDS, LEAK_WORDS, NEAR_MIN_TERMS, KeyInfo, LeakText, answer_leaks, near_leaks

# ----------------------------------------------------------------------------- the matchers before the index

_WORD = re.compile(r"[^\W_]+(?:[.,'’][^\W_]+)*|[²³×÷→≈∝]")


def _words_of(normal: str) -> list[str]:
    return _WORD.findall(normal.casefold())


def _words(text: str) -> list[str]:
    return _words_of(lints._normal(text))


def _content(text: str) -> list[str]:
    return lints._content_of(_words(text))


def _figure_of_key(key: str) -> set[tuple[str, str]]:
    figures = lints.quantities(key)
    if not figures:
        return set()
    rest = [w for w in _words(key) if w not in lints._HEDGES]
    return figures if len(rest) <= 3 else set()


def _old_run_matcher(keys: dict[str, str]):
    order = {qid: i for i, qid in enumerate(keys)}
    by_run: dict = {}
    by_start: dict = {}
    for qid, text in keys.items():
        words = _words(text)
        for gram in lints._ngrams(words, LEAK_WORDS):
            by_run.setdefault(gram, []).append(qid)
        if LEAK_MIN_KEY_WORDS <= len(words) < LEAK_WORDS:
            by_start.setdefault(tuple(words[:LEAK_MIN_KEY_WORDS]), []).append((qid, words))

    def match(item, words):
        if len(words) < LEAK_MIN_KEY_WORDS:
            return []
        hits: set[str] = set()
        if by_run and len(words) >= LEAK_WORDS:
            for gram in by_run.keys() & lints._grams(words, LEAK_WORDS):
                hits.update(by_run[gram])
        if by_start and not by_start.keys().isdisjoint(lints._grams(words, LEAK_MIN_KEY_WORDS)):
            for i in range(len(words) - LEAK_MIN_KEY_WORDS + 1):
                for qid, key_words in by_start.get(tuple(words[i:i + LEAK_MIN_KEY_WORDS]), ()):
                    if words[i:i + len(key_words)] == key_words:
                        hits.add(qid)
        hits.discard(item.question_id)
        return [(item, qid) for qid in sorted(hits, key=order.__getitem__)]

    return match


def _old_near_matcher(keys: dict[str, KeyInfo]):
    order = {qid: i for i, qid in enumerate(keys)}
    figures: dict = {}
    contents: dict = {}
    frequency: dict = {}
    for qid, info in keys.items():
        for figure in _figure_of_key(info.text):
            figures.setdefault(figure, []).append(qid)
        words = list(dict.fromkeys(_content(info.text)))
        contents[qid] = words
        for word in words:
            frequency[word] = frequency.get(word, 0) + 1
    by_word: dict = {}
    for qid, words in contents.items():
        if len(words) >= NEAR_MIN_TERMS:
            missing = len(words) - lints._needed(len(words))
            for word in sorted(words, key=lambda w: (frequency[w], w))[: int(missing) + 1]:
                by_word.setdefault(word, []).append(qid)
    declared = {qid: [lints.parse_key_terms(entry) for entry in info.terms] for qid, info in keys.items() if info.terms}

    def match(item, normal, text_words):
        hits: dict[str, str] = {}
        for figure in lints._figures(normal) & figures.keys():
            for qid in figures[figure]:
                hits.setdefault(qid, "its figure")
        words = lints._content_of(text_words)
        present = set(words)
        candidates = {qid for word in present for qid in by_word.get(word, ())}
        for qid in candidates - hits.keys():
            if lints._close_together(contents[qid], words, present):
                hits[qid] = "most of its words"
        cleaned = lints._clean(item.text) if declared else ""
        for qid, entries in declared.items():
            if qid in hits:
                continue
            for patterns in entries:
                if all(p.search(cleaned) for p in patterns):
                    hits[qid] = "its key terms"
                    break
        hits.pop(item.question_id, None)
        return [(item, qid, hits[qid]) for qid in sorted(hits, key=order.__getitem__)]

    return match


def _old_answer_leaks(keys, texts):
    match = _old_run_matcher(keys)
    return [found for item in texts for found in match(item, _words(item.text))]


def _old_near_leaks(keys, texts):
    match = _old_near_matcher(keys)
    found = []
    for item in texts:
        normal = lints._normal(item.text)
        found += match(item, normal, _words_of(normal))
    return found


def _old_match(keys, texts):
    found: dict = {}
    if not texts:
        return []
    runs, near = _old_run_matcher({qid: info.text for qid, info in keys.items()}), _old_near_matcher(keys)
    by_runs, by_near = [], []
    for item in texts:
        normal = lints._normal(item.text)
        words = _words_of(normal)
        by_runs += runs(item, words)
        by_near += near(item, normal, words)
    for item, other in by_runs:
        found[(item.question_id, item.field, other)] = "its words"
    for item, other, what in by_near:
        found.setdefault((item.question_id, item.field, other), what)
    return list(found.items())


# ----------------------------------------------------------------------------- random banks

WORDS = """
the a an of to in for and or with per about roughly approximately nearly ~ ≈ it is are was each
memory bandwidth kernel fused fuses fusing fusion weights weight token tokens throughput latency cache
cached caching compute computation operations operands reused reuse traffic chip off on accelerator
pipeline parallelism tensor batch batches request requests error errors model models layer layers
mémoire débit noyau fusionné poids jeton requête erreur modèle couche précision à où être déjà l’accélérateur
geheugen bandbreedte gewichten verzoek fout laag nauwkeurigheid rekenkracht één ook
don't it's l'opération d’un 3.5 3,5 28 14 2 1 0 100 16 7.0 2N 4N 7B BF16 FP8
GB MB ms µs μs % TB/s GB/s
Paveriroro Nepokamimi kasitodimi ﬁne ﬂow ½ ² ³ × ÷ → ∝ ß straße STRASSE İ ı ſ Σ ς é É e\u0301 ２８ Ｇ
""".split()
SPACES = [" ", " ", " ", " ", "\u00a0", "\u202f", "\n", ", ", ". ", " (", ") ", ": ", "—", "_", "'"]
TERMS = ["fus*", "memory|mémoire", "off-chip", "reuse* + operand*", "bandwidth + kernel", "poids|gewichten", "token*"]


def _join(words: list[str], rng: random.Random) -> str:
    return "".join(w + rng.choice(SPACES) for w in words).strip()


def _key(rng: random.Random) -> str:
    kind = rng.random()
    if kind < 0.2:  # a figure
        return _join([rng.choice(["About", "about", "Roughly", "≈", ""]), rng.choice(["14", "3,5", "3.5", "28", "7.0", "2N", "100"]) + rng.choice(["", " ", "\u00a0", "\u202f"]) + rng.choice(["GB", "ms", "µs", "μs", "%", "operations", "TB/s"])], rng)
    return _join([rng.choice(WORDS) for _ in range(rng.choice([1, 3, 4, 5, 6, 7, 8, 9, 12, 16, 21]))], rng)


def _inflected(word: str, rng: random.Random) -> str:
    return word + rng.choice(["", "s", "es", "ed", "ing", "ly", "ation"]) if word.isalpha() else word


def _text(keys: dict[str, KeyInfo], rng: random.Random) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(0, 14))]
    key = rng.choice(list(keys.values())).text
    kind = rng.random()
    if kind < 0.3:  # the key whole or a run of it, in another case or spacing
        key_words = key.split()
        start = rng.randint(0, max(0, len(key_words) - 1))
        piece = key_words[start:start + rng.choice([5, 8, 9, 30])] if rng.random() < 0.5 else key_words
        piece = [w.upper() if rng.random() < 0.2 else w for w in piece]
        words[rng.randint(0, len(words)):0] = piece
    elif kind < 0.5:  # its words reordered and inflected, some left out
        key_words = [_inflected(w, rng) for w in key.split() if rng.random() < 0.85]
        rng.shuffle(key_words)
        words[rng.randint(0, len(words)):0] = key_words
    elif kind < 0.6:  # a figure
        words.append(rng.choice(["14", "3,5", "3.50", "28", "7", "2N", "100", "１４"]) + rng.choice(["", " ", "\u00a0"]) + rng.choice(["GB", "gb", "ms", "µs", "μs", "%", "operations"]))
    return _join(words, rng)


def _bank(seed: int, n_keys: int, n_texts: int):
    rng = random.Random(seed)
    ids = [f"q{i:03d}" for i in range(n_keys + 5)]
    keys = {}
    for qid in rng.sample(ids, n_keys):  # in no particular order
        terms = tuple(rng.sample(TERMS, rng.randint(1, 2))) if rng.random() < 0.05 else ()
        keys[qid] = KeyInfo(_key(rng), terms)
    texts: list[LeakText] = []
    for number in range(n_texts):
        if texts and rng.random() < 0.25:  # the same text in another (or the same) question
            text = rng.choice(texts).text
        elif rng.random() < 0.15:  # a key as an option of its own or another question
            text = rng.choice(list(keys.values())).text
        else:
            text = _text(keys, rng)
        texts.append(LeakText(rng.choice(ids), ("options", number % 4, "text"), text))
    return keys, texts


def test_the_words_of_a_text_are_those_of_the_one_pattern():
    rng = random.Random(7)
    for _ in range(4000):
        text = _join([rng.choice(WORDS) for _ in range(rng.randint(0, 12))], rng)
        normal = lints._normal(text)
        assert lints._words_of(normal) == _words_of(normal), text


def test_the_indexed_matchers_find_what_the_plain_ones_find_in_the_same_order():
    findings = 0
    for seed in range(24):
        keys, texts = _bank(seed, n_keys=60 + seed * 3, n_texts=150)
        if seed % 4 == 0:  # a bank without declared terms: texts are then refused by their words alone
            keys = {qid: KeyInfo(info.text) for qid, info in keys.items()}
        found = lints._match(keys, texts)
        assert found == _old_match(keys, texts), seed
        plain = {qid: info.text for qid, info in keys.items()}
        assert answer_leaks(plain, texts) == _old_answer_leaks(plain, texts), seed
        assert near_leaks(keys, texts) == _old_near_leaks(keys, texts), seed
        findings += len(found)
    assert findings > 1000  # the banks do leak, by every rule
    assert {how for seed in range(0, 24, 4) for _, how in lints._match(*_bank_without_terms(seed))} == {"its words", "its figure", "most of its words"}
    assert {how for _, how in lints._match(*_bank(1, n_keys=63, n_texts=150))} == {"its words", "its figure", "most of its words", "its key terms"}


def _bank_without_terms(seed: int):
    keys, texts = _bank(seed, n_keys=60 + seed * 3, n_texts=150)
    return {qid: KeyInfo(info.text) for qid, info in keys.items()}, texts


def test_no_keys_or_no_texts_find_nothing():
    keys, texts = _bank(1, n_keys=20, n_texts=30)
    assert lints._match({}, texts) == _old_match({}, texts) == []
    assert lints._match(keys, []) == []
    assert answer_leaks({}, texts) == [] and near_leaks({}, texts) == []
