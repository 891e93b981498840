"""The answer-leak lint's key index, built with integer ranks (each run's anchor the least rank
of its words, each key's rarest content words its least ranks), is the index the code before
built, word by word, with the same ranking; and the ranking, by the count of keys alone, stable,
is one by count that the matching never depends on beyond it.

:func:`lints._run_index` and :func:`lints._near_index` are compared, on random banks (those of
``test_lints_leak_index``, whose matching is compared there with the matchers before any
index), with the index-building code as it was before, kept here, given the same ranking."""

from __future__ import annotations

import random

from aistack_bank.rules import lints
from aistack_bank.rules.lints import LEAK_MIN_KEY_WORDS, LEAK_WORDS, NEAR_MIN_TERMS, KeyInfo

from test_lints_leak_index import _bank


def _old_run_index(keys: dict[str, str], rank: dict[str, int] | None = None):
    """The index part of ``_run_matcher`` before, with ``rank`` given (None: its own ranking)."""
    order = {qid: i for i, qid in enumerate(keys)}
    by_run: dict = {}
    by_start: dict = {}
    frequency: dict[str, int] = {}
    for qid, text in keys.items():
        words = lints._read(text)[1]
        for word in set(words):
            frequency[word] = frequency.get(word, 0) + 1
        for gram in lints._grams(words, LEAK_WORDS):
            by_run.setdefault(gram, []).append(qid)
        if LEAK_MIN_KEY_WORDS <= len(words) < LEAK_WORDS:
            by_start.setdefault(tuple(words[:LEAK_MIN_KEY_WORDS]), []).append((qid, words))
    if rank is None:
        rank = {word: i for i, word in enumerate(sorted(frequency, key=lambda w: (frequency[w], w)))}

    def anchor(words) -> str:
        return min(words, key=rank.__getitem__)

    anchors: dict[str, set[str]] = {}
    for gram, qids in by_run.items():
        anchors.setdefault(anchor(gram), set()).update(qids)
    for entries in by_start.values():
        for qid, key_words in entries:
            anchors.setdefault(anchor(key_words), set()).add(qid)
    return order, by_run, by_start, anchors, frequency


def _old_near_index(keys: dict[str, KeyInfo], rank: dict[str, int] | None = None):
    """The index part of ``_near_matcher`` before, with ``rank`` given (None: its own ranking)."""
    order = {qid: i for i, qid in enumerate(keys)}
    figures: dict = {}
    contents: dict[str, list[str]] = {}
    frequency: dict[str, int] = {}
    for qid, info in keys.items():
        normal, key_words = lints._read(info.text)
        key_figures = lints._figures(normal)
        if key_figures and len([w for w in key_words if w not in lints._HEDGES]) <= 3:
            for figure in key_figures:
                figures.setdefault(figure, []).append(qid)
        words = list(dict.fromkeys(lints._content_of(key_words)))
        contents[qid] = words
        for word in words:
            frequency[word] = frequency.get(word, 0) + 1
    if rank is None:
        rank = {word: i for i, word in enumerate(sorted(frequency, key=lambda w: (frequency[w], w)))}
    by_word: dict[str, list[str]] = {}
    for qid, words in contents.items():
        if len(words) >= NEAR_MIN_TERMS:
            missing = len(words) - lints._needed(len(words))
            for word in sorted(words, key=rank.__getitem__)[: int(missing) + 1]:
                by_word.setdefault(word, []).append(qid)
    return order, figures, contents, by_word, frequency


def _banks():
    for seed in range(12):
        keys, _ = _bank(seed, n_keys=40 + seed * 9, n_texts=0)
        yield seed, keys
    rng = random.Random(5)  # long keys of few words: many runs, many words held by as many keys
    words = "memory kernel bandwidth fused tile cache weights tokens operand reuse".split()
    yield "few words", {f"q{i}": KeyInfo(" ".join(rng.choice(words) for _ in range(rng.randint(1, 30)))) for i in range(120)}
    yield "none", {}


def test_ranks_are_by_the_count_of_keys_alone_stable():
    for name, keys in _banks():
        frequency = dict(sorted(_old_run_index({qid: info.text for qid, info in keys.items()})[4].items(), key=lambda item: item[0][::-1]))
        ranked, rank = lints._ranked(frequency)
        assert sorted(ranked) == sorted(frequency) and [rank[word] for word in ranked] == list(range(len(ranked))), name
        counts = [frequency[word] for word in ranked]
        assert counts == sorted(counts), name
        first = {word: i for i, word in enumerate(frequency)}
        for a, b in zip(ranked, ranked[1:]):  # equally rare words in the order they were first met
            assert frequency[a] < frequency[b] or first[a] < first[b], name


def test_the_run_index_is_the_one_built_word_by_word():
    for name, keys in _banks():
        plain = {qid: info.text for qid, info in keys.items()}
        order, by_run, shared_runs, by_start, anchors = lints._run_index(plain)
        by_run = {gram: [qid, *shared_runs.get(gram, ())] for gram, qid in by_run.items()}  # (the keys that have each run)
        assert set(shared_runs) <= set(by_run), name
        counts = _old_run_index(plain)[4]
        # the counts as before, ranked in the order the words are first met (key after key)
        met = list(dict.fromkeys(w for text in plain.values() for w in lints._read(text)[1]))
        assert sorted(met) == sorted(counts), name
        rank = lints._ranked({word: counts[word] for word in met})[1]
        old_order, old_by_run, old_by_start, old_anchors, _ = _old_run_index(plain, rank)
        assert (order, by_run, by_start) == (old_order, old_by_run, old_by_start), name
        assert list(by_run.items()) == list(old_by_run.items()), name
        assert {word: set(qids) for word, qids in anchors.items()} == old_anchors, name
        assert all(type(qids) is tuple and len(set(qids)) == len(qids) for qids in anchors.values()), name


def test_the_near_index_is_the_one_built_word_by_word():
    for name, keys in _banks():
        order, figures, contents, by_word = lints._near_index(keys)
        frequency = _old_near_index(keys)[4]
        rank = lints._ranked(frequency)[1]
        old = _old_near_index(keys, rank)
        assert (order, figures, contents) == old[:3], name
        assert list(by_word.items()) == list(old[3].items()), name  # the same words, in the same order


def test_the_ranking_changes_no_finding():
    """The findings with the index ranked by (count, word), as before, and by count alone."""
    findings = 0
    for seed in range(8):
        keys, texts = _bank(seed, n_keys=60 + seed * 3, n_texts=150)
        now = lints._match(keys, texts)
        ranked = lints._ranked

        def by_count_and_word(frequency):
            words = sorted(frequency, key=lambda w: (frequency[w], w))
            return words, {word: i for i, word in enumerate(words)}

        lints._ranked = by_count_and_word
        try:
            before = lints._match(keys, texts)
        finally:
            lints._ranked = ranked
        assert now == before, seed
        findings += len(now)
    assert findings > 250


def _old_stem(word: str) -> str:
    for suffix in ("ically", "ations", "ation", "ingly", "ing", "edly", "ed", "es", "s", "ly"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            word = word[: -len(suffix)]
            break
    return word[:-1] if word.endswith("e") and len(word) >= 5 else word


def test_stems_are_those_of_the_suffix_loop():
    rng = random.Random(9)
    pieces = ["a", "e", "i", "s", "l", "y", "n", "g", "d", "c", "t", "o", "ing", "ed", "es", "ly", "ation", "ically", "ingly", "edly", "é", "ß"]
    words = ["".join(rng.choice(pieces) for _ in range(rng.randint(0, 6))) for _ in range(20000)]
    words += "fuses fused fusing fuse uses used using kernels basically operations ation ations stations kasitodimi".split()
    assert sum(lints._stem.__wrapped__(w) != w for w in words) > 5000
    for word in words:
        assert lints._stem.__wrapped__(word) == _old_stem(word), word


def test_each_question_key_is_the_one_read_option_by_option():
    """The key's text (its right option's) with the right ids read once, against the test of
    each option as before, on every question of examples/every-kind (every kind), and on
    single-choice questions whose key names no option."""
    from pathlib import Path

    from aistack_bank.load import read_library

    root = Path(__file__).resolve().parent.parent
    questions = [qs.question for topic in read_library(root / "examples" / "every-kind" / "bank").topics for qs in topic.questions
                 if qs.question is not None]
    missing = [q.model_copy(update={"correct": "j"}) for q in questions if q.kind == "single-choice"][:5]
    assert len(questions) > 10 and {q.kind for q in questions} >= {"single-choice", "multiple-response", "true-false"}
    for question in questions + missing:
        before = next((o for o in question.choices() if o.id in question.right_ids()), None) if question.PICKS_OPTIONS and question.ONE_KEY else None
        assert lints._key_text(question) == (before.text if before is not None else None), question.id
    assert all(lints._key_text(q) is None for q in missing)
