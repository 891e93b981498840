"""The answer-leak lint's rule of runs, in a topic whose texts are one piece of its screen,
anchors each run of a key on the word of it that the topic's texts hold least among the words
that as many keys hold (:func:`lints._run_index` with ``met``), so that the texts of other
questions that only share a key's common words do not reach the rule; and finds the same.

- the anchors chosen with any count of the words (random, hostile: the words' counts reversed,
  the key's own words counted most) still cover every run of every key (a text that holds a run
  holds one of them) and the rule's hits are those without;
- in a topic of keys made of common words and a name of their own, the keys' anchors are the
  names, and the rule runs on none of the other questions' texts (it ran on them when the words
  were ranked by the keys alone);
- the lint's findings are the same with the words ranked either way, on the banks of
  ``test_leak_topics_equivalence``.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aistack_bank.rules import lints
from aistack_bank.rules.lints import LEAK_MIN_KEY_WORDS, LEAK_WORDS, KeyInfo, LeakText, _grams, _read

import leak_now
from test_leak_topics_equivalence import _banks, _files

_VOCABULARY = "memory kernel traffic cache bus the a of to fused operands reused moved byte work busy".split()


def _check_cover(keys: dict[str, str], met: Counter | None) -> None:
    anchors = lints._run_index(keys, _read, met)[4]
    filed: dict[str, set[str]] = {}
    for word, qids in anchors.items():
        for qid in qids:
            filed.setdefault(qid, set()).add(word)
    for qid, text in keys.items():
        words = _read(text)[1]
        if len(words) >= LEAK_WORDS:
            for run in _grams(words, LEAK_WORDS):
                assert filed[qid].intersection(run), (qid, run)
        elif len(words) >= LEAK_MIN_KEY_WORDS:
            assert filed[qid].intersection(words), qid


def _random_keys(rng: random.Random, n: int) -> dict[str, str]:
    names = [f"name{i}" for i in range(n)]
    keys = {}
    for i in range(n):
        words = [rng.choice(_VOCABULARY + names) for _ in range(rng.randint(1, 24))]
        keys[f"q{i}"] = " ".join(words)
    return keys


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(["random", "reversed", "own", "none"]))
def test_every_run_keeps_an_anchor_and_the_hits_are_the_same(seed, how):
    rng = random.Random(seed)
    keys = _random_keys(rng, rng.randint(1, 30))
    words = sorted({word for text in keys.values() for word in _read(text)[1]})
    if how == "random":
        met = Counter({word: rng.randint(0, 5) for word in words if rng.random() < 0.8})
    elif how == "reversed":  # (the keys' rarest words counted most)
        by_keys = Counter(word for text in keys.values() for word in set(_read(text)[1]))
        met = Counter({word: 100 - by_keys[word] for word in words})
    elif how == "own":
        met = Counter(_read(next(iter(keys.values())))[1] * 50)
    else:
        met = Counter()
    _check_cover(keys, met)
    _check_cover(keys, None)
    hits_by_keys = lints._run_rule(keys, _read)[1]
    hits_by_met = lints._run_rule(keys, _read, met)[1]
    for _ in range(20):
        text = rng.choice(list(keys.values()))
        cut = _read(text)[1]
        start = rng.randint(0, len(cut))
        words = [rng.choice(_VOCABULARY) for _ in range(rng.randint(0, 4))] + cut[start:] + cut[:start]
        assert hits_by_met(words) == hits_by_keys(words)


def _topic(n: int = 40) -> tuple[dict[str, KeyInfo], list[LeakText]]:
    """Keys of nine words, each held by one key: eight common words (the next question's
    explanation holds the first two of them, an option of its own question all) and, in the
    middle, a name that only the key and another option hold. By the keys alone every word is as rare as another, and the first of a run
    (a common word) is its anchor."""
    keys = {}
    texts = []
    for i in range(n):
        qid = f"q{i:03d}"
        common = [f"term{i}{letter}" for letter in "abcdefgh"]
        key = " ".join(common[:4] + [f"zorblat{i}"] + common[4:])
        keys[qid] = KeyInfo(key)
        texts.append(LeakText(qid, ("options", 0, "text"), key))
        texts.append(LeakText(qid, ("options", 1, "text"), f"not {key} at all"))
        before = [f"term{(i - 1) % n}{letter}" for letter in "ab"]
        texts.append(LeakText(qid, ("options", 2, "text"), " ".join(common)))
        texts.append(LeakText(qid, ("explanation",), f"the {before[1]} and {before[0]} are why"))
    return keys, texts


def _counting(monkeypatch) -> list[int]:
    """Count the texts the rule of runs is run on (its ``all_hits``)."""
    calls = [0]
    rule = lints._run_rule

    def counted(keys, read=_read, met=None):
        anchors, all_hits = rule(keys, read, met)

        def hits(words):
            calls[0] += 1
            return all_hits(words)

        return anchors, hits

    monkeypatch.setattr(lints, "_run_rule", counted)
    return calls


def test_a_key_is_anchored_on_its_own_name_in_a_small_topic(monkeypatch):
    keys, texts = _topic()
    plain = {qid: info.text for qid, info in keys.items()}
    met = Counter(word for item in dict.fromkeys(item.text for item in texts) for word in _read(item)[1])
    anchors = lints._run_index(plain, _read, met)[4]
    assert set(anchors) == {f"zorblat{i}" for i in range(len(keys))}
    by_keys = lints._run_index(plain, _read)[4]
    assert set(by_keys) == {f"term{i}{letter}" for i in range(len(keys)) for letter in "ab"}

    calls = _counting(monkeypatch)
    found = lints._match_files(keys, _files(texts))
    assert found == []
    assert calls[0] == 0  # (no text holds another question's name)

    # the same topic with the words ranked by the keys alone (as a topic larger than a piece):
    # the texts that hold the common first word of other keys reach the rule
    monkeypatch.setattr(lints, "_SCAN_PIECE", 1)
    calls[0] = 0
    assert lints._match_files(keys, _files(texts)) == []
    assert calls[0] == len(keys)


def test_a_leak_in_a_small_topic_is_still_found(monkeypatch):
    keys, texts = _topic()
    leaked = keys["q007"].text
    texts.append(LeakText("q020", ("options", 2, "feedback"), "As said before, " + leaked.upper() + "."))
    texts.append(LeakText("q021", ("options", 2, "feedback"), leaked.replace("zorblat7", "zorblat21")))
    calls = _counting(monkeypatch)
    found = lints._match_files(keys, _files(texts))
    assert found == [(("q020", ("options", 2, "feedback"), "q007"), "its words"),
                     (("q021", ("options", 2, "feedback"), "q007"), "most of its words")]  # (no run of the key without its name)
    assert calls[0] == 1


@pytest.mark.parametrize("piece", [3, lints._SCAN_PIECE])
def test_the_findings_are_those_of_the_words_ranked_by_the_keys(piece, monkeypatch):
    monkeypatch.setattr(lints, "_SCAN_PIECE", piece)
    banks = list(_banks())
    by_met = [leak_now.match_files(name, keys, texts) for name, (keys, texts) in banks]  # (found once per process for the leak modules)
    rule = lints._run_rule
    monkeypatch.setattr(lints, "_run_rule", lambda keys, read=_read, met=None: rule(keys, read))
    found = 0
    for (name, (keys, texts)), before in zip(banks, by_met):
        now = lints._match_files(keys, _files(texts))
        assert before == now, name
        found += len(now)
    assert found > 2000
