"""The answer-leak lint files the keys' runs (:func:`lints._run_runs`) at the first text the rule
of runs matches, not when the keys are indexed: the screen needs only the anchors.

Compared with the index as it was built before, all at once (kept here as it was written), on
random keys (hypothesis: unicode, digits, one-letter words, keys repeated whole, runs shared by
several keys, a key that repeats its own run) and on the random banks of ``test_lints_leak_index``:
the same index, the same hits for each text, the same findings; and the runs are not filed at
all when no text gets past the screen."""

from __future__ import annotations

from collections import Counter
from itertools import chain

from hypothesis import given, settings
from hypothesis import strategies as st

from aistack_bank.rules import lints
from aistack_bank.rules.lints import LEAK_MIN_KEY_WORDS, LEAK_WORDS, KeyInfo, LeakText, _grams, _least_of_runs, _ranked, _read

from test_lints_leak_index import _bank


def _old_run_index(keys: dict[str, str], read=_read, met: Counter | None = None):
    """``lints._run_index`` before the runs were filed apart, as it was written."""
    order = {qid: i for i, qid in enumerate(keys)}
    by_run: dict = {}
    shared_runs: dict = {}
    by_start: dict = {}
    read_keys: list = []
    for qid, text in keys.items():
        words = read(text)[1]
        read_keys.append((qid, words))
        if len(words) >= LEAK_WORDS:
            grams = _grams(words, LEAK_WORDS)
            if not by_run.keys().isdisjoint(grams):
                for gram in by_run.keys() & grams:
                    shared_runs.setdefault(gram, []).append(qid)
                grams.difference_update(by_run.keys())
            by_run.update(dict.fromkeys(grams, qid))
        elif len(words) >= LEAK_MIN_KEY_WORDS:
            by_start.setdefault(tuple(words[:LEAK_MIN_KEY_WORDS]), []).append((qid, words))
    frequency = Counter(chain.from_iterable(dict.fromkeys(words) for _, words in read_keys))
    if met is not None:
        frequency = {word: frequency[word] for word in sorted(frequency, key=met.__getitem__)}
    ranked, rank = _ranked(frequency)
    anchors: dict = {}
    for qid, words in read_keys:
        if len(words) >= LEAK_MIN_KEY_WORDS:
            ranks = list(map(rank.__getitem__, words))
            for least in (_least_of_runs(ranks, LEAK_WORDS) if len(words) >= LEAK_WORDS else (min(ranks),)):
                qids = anchors.get(ranked[least])
                if qids is None:
                    anchors[ranked[least]] = [qid]
                else:
                    qids.append(qid)
    return order, by_run, shared_runs, by_start, {word: tuple(qids) for word, qids in anchors.items()}


def _same_index(keys: dict[str, str], texts: list[str]) -> None:
    met = Counter(chain.from_iterable(_read(text)[1] for text in texts))
    for counts in (None, met):
        old = _old_run_index(keys, _read, counts)
        new = lints._run_index(keys, _read, counts)
        assert old == new
        assert [list(part) for part in old] == [list(part) for part in new]  # (the same order)
        assert [list(words) for words in old[2].values()] == [list(words) for words in new[2].values()]
        anchors, all_hits = lints._run_rule(keys, _read, counts)
        assert anchors == old[4] and list(anchors) == list(old[4])
        order, by_run, shared_runs, by_start = old[:4]
        for text in texts:
            words = _read(text)[1]
            hits = set()
            if len(words) >= LEAK_WORDS:
                for gram in _grams(words, LEAK_WORDS) & by_run.keys():
                    hits.add(by_run[gram])
                    hits.update(shared_runs.get(gram, ()))
            for i in range(len(words) - LEAK_MIN_KEY_WORDS + 1):
                for qid, key_words in by_start.get(tuple(words[i:i + LEAK_MIN_KEY_WORDS]), ()):
                    if words[i:i + len(key_words)] == key_words:
                        hits.add(qid)
            assert all_hits(words) == sorted(hits, key=order.__getitem__), text


_WORDS = st.sampled_from(["a", "b", "x", "7", "42", "3.5", "GB", "ms", "fuse", "fuses", "fused", "de", "het", "été",
                          "Ünïcode", "ﬁle", "Ⅻ", "straße", "STRASSE", "naïve", "日本", "²", "×", "the", "of", "km/h"])
_KEY = st.lists(_WORDS, min_size=0, max_size=20).map(" ".join)


@settings(max_examples=300, deadline=None)
@given(st.lists(_KEY, min_size=1, max_size=12), st.lists(st.integers(0, 11), max_size=6), st.lists(_KEY, max_size=8))
def test_the_runs_filed_late_are_those_filed_with_the_anchors(keys, repeated, others):
    texts = list(keys)
    keys = keys + [keys[i % len(keys)] for i in repeated]  # (keys said again whole: their runs shared)
    keys.append(" ".join([keys[0]] * 3))  # (a key that repeats its own run)
    _same_index({f"q{i}": key for i, key in enumerate(keys)}, texts + others + [" ".join(others)])


def test_on_random_banks_the_index_and_the_findings_are_the_same():
    for seed in range(12):
        keys, texts = _bank(seed, n_keys=40 + seed * 5, n_texts=120)
        _same_index({qid: info.text for qid, info in keys.items()}, [text.text for text in texts])


def test_the_runs_are_filed_only_when_a_text_gets_past_the_screen(monkeypatch):
    filed = []
    runs = lints._run_runs
    monkeypatch.setattr(lints, "_run_runs", lambda read_keys: filed.append(1) or runs(read_keys))
    keys = {
        "q1": KeyInfo("the quorum read waits for a majority of the replicas before it answers the client"),
        "q2": KeyInfo("a vector clock orders the events of each replica without a global clock at all"),
    }
    quiet = [LeakText("q1", ("options", 0, "text"), "nothing of the other key here"),
             LeakText("q2", ("options", 0, "text"), "nor here, in plain words")]
    assert lints.leak_findings(keys, quiet) == []
    assert filed == []
    leaking = quiet + [LeakText("q2", ("options", 1, "text"), "so the quorum read waits for a majority of the replicas before it answers")]
    found = lints.leak_findings(keys, leaking)
    assert filed == [1]  # (once, for every text matched)
    assert ("q2", ("options", 1, "text"), "q1") in [where for where, _ in found]
