"""The answer-leak lint, in a topic whose distinct texts are one piece of its screen (a topic
of a hundred questions, as a bank of many topics has), reads those texts into its reads kept
(``known``) by one ``map`` of :func:`lints._read` and counts their words for the keys' ranking
(``met``) from them, in C, rather than through a generator and a look-up function per text; its
screen then takes each text's read from ``known`` by one ``map``; and the screen looks each text's
words up in a view of the words' owners (``owner.keys()``) and their getter made once per part,
not once per text (live: the words learnt piece by piece are in them). It finds what it found
before.

The lint's matching as it was before (:func:`lints._matched`, as written before this change) is
kept below and compared with :func:`lints._match_files` and :func:`lints._match` (the findings,
their order and how each was found) on the banks of ``test_leak_topics_equivalence`` (random and
inflected banks, the bundled bank and ``examples/every-kind``, as they are and with every text
moved to another question, random banks without declared terms) with pieces of one, two, three,
seven texts and the lint's own (one piece: every bank read for ``met``); all of them one after
another in one process (the stems kept across them); with the parts scanned in forked
processes; and on random small topics of hostile texts (upper case, non-breaking spaces,
ligatures, joiners, figures, accents, non-ASCII words, keys repeated in other texts, the same
text in several questions, empty texts), in one piece and a few texts a piece.
"""

from __future__ import annotations

import gc
import random
from collections import Counter
from itertools import chain, compress, count, filterfalse
from operator import attrgetter, itemgetter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aistack_bank.rules import lints
from aistack_bank.rules.lints import (
    LEAK_MIN_KEY_WORDS,
    KeyInfo,
    LeakText,
    _WORD_STEMS,
    _figures,
    _learn_stems,
    _near_rule,
    _other_figure,
    _read,
    _run_rule,
)

import leak_now
from test_leak_topic_words_learnt_once import _small_topic
from test_leak_topics_equivalence import _banks, _files

# ----------------------------------------------------------------------------- the lint before


def _before_matched(keys: dict[str, KeyInfo], questions: list[str], texts: list[str], field_of) -> list[tuple[tuple[str, tuple, str], str]]:
    """The findings of :func:`leak_findings` of the texts ``texts`` of the questions
    ``questions`` (each text's, in the same order); ``field_of(index)`` gives the field of the
    text at ``index``."""
    if not texts:  # (the keys are indexed only for texts to match)
        return []
    # each text read once for both rules; the findings in the order of answer_leaks then near_leaks
    known: dict[str, tuple[str, list[str]]] = {}  # the keys, read once for both indexes (and as texts)

    def read(text: str) -> tuple[str, list[str]]:
        found = known.get(text)
        if found is None:
            found = known[text] = _read(text)
        return found

    counts = Counter(texts)  # each distinct text in the order met, with how many texts are it
    first = dict(zip(reversed(texts), reversed(questions)))  # (the question of its first)
    distinct = list(zip(counts, map(first.__getitem__, counts), counts.values()))
    del first
    # A topic's texts that are one piece of the screen (a topic of a hundred questions, as a
    # bank of many topics has) are read before the keys are indexed, and the words of the keys'
    # runs ranked by how often they hold them (see _run_index): a key's anchors are then the
    # words of it that the fewest texts hold, so that few texts of other questions get past the
    # screen. (Their reads are kept in ``known`` for the screen; a larger topic is read a piece
    # at a time, and ranks its words by the keys alone.)
    met = Counter(chain.from_iterable(read(text)[1] for text in counts)) if len(counts) <= lints._SCAN_PIECE else None
    anchors, run_hits = _run_rule({qid: info.text for qid, info in keys.items()}, read, met)
    near = _near_rule(keys, read)  # (the keys' words' stems kept in _WORD_STEMS, then the texts' as learnt)
    figures, by_word, declared, near_hits = near.figures, near.by_word, near.declared, near.all_hits
    # The words that may give a key away, each with the one question whose key it stands for
    # (None: several): the keys' anchors (the rule of runs), and the words of the texts whose
    # stem is filed under a key (the near rule), added as they are met. A text is matched only
    # when such a word, or a figure of a key, stands for another question than its own, or when
    # keys declare terms: each a necessary condition of a finding of one rule or the other, and
    # a text is matched by both rules then (what a rule finds in a text that holds none of its
    # necessary words is only the text's own question, which is never reported).
    owner: dict[str, str | None] = {word: qids[0] if len(qids) == 1 else None for word, qids in anchors.items()}
    run_owner = owner.copy()  # (each rule's words apart: a text of one question that only one rule's words let through is matched by that rule alone)
    near_owner: dict[str, str | None] = {}
    seen: set[str] = set()  # words of the texts met so far

    def learn(words) -> None:
        """The owners of ``words`` (words of texts, repeats allowed) not met before, learnt: their
        stems from :data:`_WORD_STEMS` (those not there yet taken together, :func:`_learn_stems`),
        and only a word whose stem is filed under a key is looked at alone."""
        new = set(words)
        new.difference_update(seen)
        seen.update(new)
        unknown = list(filterfalse(_WORD_STEMS.__contains__, new))
        if unknown:
            _learn_stems(unknown)
        filed = list(map(by_word.get, map(_WORD_STEMS.__getitem__, new)))  # (None, a word that is not a content word, is filed under no key)
        for word, qids in compress(zip(new, filed), filed):
            one = near_owner[word] = qids[0] if len(qids) == 1 else None
            owner[word] = one if owner.get(word, one) == one else None

    def scan(part: list) -> dict[str, tuple[list[str], dict[str, str]]]:
        """What each distinct text of ``part`` ((text, its question, how many texts are it))
        gives away, by the rule of runs and the near rule (its own question included), for the
        texts that give another question's key away (or that several questions hold)."""
        matched: dict[str, tuple[list[str], dict[str, str]]] = {}
        # (read a piece of texts at a time, and their words' owners learnt together before any
        # of them is screened: a word's owner depends on the keys alone, not on the texts met)
        for at in range(0, len(part), lints._SCAN_PIECE):
            piece = part[at:at + lints._SCAN_PIECE]
            reads = [known.get(text) or _read(text) for text, _, _ in piece]
            if met is None:
                learn(chain.from_iterable(map(itemgetter(1), reads)))
            for (text, own, count), (normal, words) in zip(piece, reads):
                held = owner.keys() & words
                if held:
                    owners = set(map(owner.__getitem__, held))
                    worth = count > 1 or len(owners) > 1 or own not in owners
                else:
                    worth = False
                if not worth and figures:
                    for figure in _figures(normal) & figures.keys():
                        qids = figures[figure]
                        if count > 1 or len(qids) > 1 or own not in qids:
                            worth = True
                            break
                if not (worth or declared):  # nothing of another question's key can be in this text
                    continue
                if count > 1:  # (each question that holds it is matched: every rule)
                    runs = run_hits(words) if worth and len(words) >= LEAK_MIN_KEY_WORDS else []
                    hits = near_hits(text, normal, words)
                else:
                    # A rule finds another question's key in a text only when the text holds one
                    # of that rule's words of it (or, for the near rule, its figure, or with keys'
                    # declared terms); without, all it could find is the text's own key.
                    runs = run_hits(words) if worth and len(words) >= LEAK_MIN_KEY_WORDS and any(run_owner.get(word, own) != own for word in held) else []
                    if declared or any(near_owner.get(word, own) != own for word in held) or _other_figure(normal, figures, own):
                        hits = near_hits(text, normal, words)
                    else:
                        hits = {}
                if count > 1 or any(qid != own for qid in runs) or any(qid != own for qid in hits):
                    matched[text] = runs, hits
        return matched

    # Each finding is one text against the keys' index, whatever other texts are matched (what
    # the matchers keep as they go only saves work): with many texts, the keys are indexed here
    # and the distinct texts matched a part at a time in processes forked after (on every core),
    # each part's findings by text; taken in the order of the texts, they are the same.
    matched: dict[str, tuple[list[str], dict[str, str]]] = {}
    if met is not None:
        # (a topic whose texts are one piece: the words of every one of them are those counted
        # in ``met``, learnt here at once, from its keys, each word once, rather than from the
        # piece's words with their repeats; a part scanned in a forked process inherits them)
        learn(met)
    for part in lints._scanned(scan, distinct, len(texts)):
        matched.update(part)
    if not matched:
        return []
    held = [LeakText(questions[index], field_of(index), texts[index]) for index in compress(count(), map(matched.__contains__, texts))]
    found: dict[tuple[str, tuple, str], str] = {}
    for item in held:
        for other in matched[item.text][0]:
            if other != item.question_id:
                found[(item.question_id, item.field, other)] = "its words"
    for item in held:
        for _, other, what in near.found(item, matched[item.text][1]):
            found.setdefault((item.question_id, item.field, other), what)
    return list(found.items())


def _before_match_files(keys: dict[str, KeyInfo], files: list):
    paused = gc.isenabled()
    gc.disable()
    try:
        pairs = list(chain.from_iterable(map(attrgetter("pairs"), files)))
        questions = list(chain.from_iterable(map(lambda found: [found.question_id] * len(found.pairs), files)))
        return _before_matched(keys, questions, list(map(itemgetter(1), pairs)), lambda index: pairs[index][0])
    finally:
        if paused:
            gc.enable()


# ----------------------------------------------------------------------------- the tests

_PIECE = lints._SCAN_PIECE
_BEFORE: dict[int, list] = {}


def _before(index: int, keys, texts) -> list:
    """:func:`_before_match_files` of the bank at ``index`` of :func:`_banks`, once per test
    process, with the lint's own piece and the stems learnt afresh (what the lint found depends
    on the keys and the texts alone, not on the piece nor on the stems already kept)."""
    if index not in _BEFORE:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(lints, "_SCAN_PIECE", _PIECE)
            lints._stem.cache_clear()
            _WORD_STEMS.clear()
            _BEFORE[index] = _before_match_files(keys, _files(texts))
    return _BEFORE[index]


@pytest.mark.parametrize("piece", [1, 2, 3, 7, _PIECE])
def test_the_lint_finds_what_it_found_before_in_the_same_order(piece, monkeypatch):
    monkeypatch.setattr(lints, "_SCAN_PIECE", piece)
    found = Counter()
    for index, (name, (keys, texts)) in enumerate(_banks()):
        before = _before(index, keys, texts)
        assert leak_now.match_files(name, keys, texts) == before, name  # (found once per process for the leak modules)
        assert leak_now.match(name, keys, texts) == before, name
        found.update(how for _, how in before)
    assert sum(found.values()) > 2000
    assert set(found) == {"its words", "its figure", "most of its words", "its key terms"}, found


def test_the_topics_of_a_run_one_after_another_find_what_each_found_before(monkeypatch):
    """The banks matched in turn in one process, the stems kept from one to the next (as a
    bank's topics are), in two shuffled orders, a few texts a piece."""
    banks = list(_banks())
    before = [_before(index, keys, texts) for index, (_, (keys, texts)) in enumerate(banks)]
    _WORD_STEMS.clear()
    monkeypatch.setattr(lints, "_SCAN_PIECE", 5)
    rng = random.Random(22)
    for _ in range(2):
        order = list(range(len(banks)))
        rng.shuffle(order)
        for index in order:
            name, (keys, texts) = banks[index]
            assert lints._match_files(keys, _files(texts)) == before[index], name


def test_the_parts_scanned_in_forked_processes_find_the_same(monkeypatch):
    banks = list(_banks())[:6]
    before = [_before(index, keys, texts) for index, (_, (keys, texts)) in enumerate(banks)]
    monkeypatch.setattr(lints, "LEAK_POOL_MIN", 1)
    monkeypatch.setattr(lints, "_SCAN_PIECE", 4)
    for (name, (keys, texts)), found in zip(banks, before):
        assert lints._match_files(keys, _files(texts)) == found, name


_HOSTILE = ["", " ", "\u00a0", "Caf\u00e9 na\u00efve", "\ufb01ne", "\u0130STANBUL", "\u00c9t\u00e9", "3.5 GB", "2N", "x\u00b2",
            "don't", "e.g. a..b", "\u4e2d\u6587", "\u00ab quoted \u00bb", "\u200d", "7 ms"]


def _hostile_topic(seed: int):
    """A random small topic (``test_leak_topic_words_learnt_once``'s) with hostile texts put
    in: empty ones, accents, non-ASCII words, ligatures, figures, keys repeated in other texts."""
    keys, texts = _small_topic(seed)
    rng = random.Random(seed)
    qids = list(keys)
    out = []
    for item in texts:
        out.append(item)
        roll = rng.random()
        if roll < 0.2:
            out.append(LeakText(item.question_id, item.field + ("x",), rng.choice(_HOSTILE) + " " + item.text))
        elif roll < 0.3:
            out.append(LeakText(item.question_id, item.field + ("k",), keys[rng.choice(qids)].text + rng.choice(_HOSTILE)))
        elif roll < 0.35:
            out.append(LeakText(item.question_id, item.field + ("e",), rng.choice(_HOSTILE)))
    return keys, out


@settings(max_examples=max(150, settings.default.max_examples), deadline=None)  # (more with HYPOTHESIS_PROFILE=long)
@given(st.integers(0, 10**9), st.sampled_from([1, 3, 7, _PIECE]))
def test_random_hostile_topics_find_what_they_found_before(seed, piece):
    keys, texts = _hostile_topic(seed)
    _WORD_STEMS.clear()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(lints, "_SCAN_PIECE", _PIECE)
        before = _before_match_files(keys, _files(texts))
        patch.setattr(lints, "_SCAN_PIECE", piece)
        _WORD_STEMS.clear()
        assert lints._match_files(keys, _files(texts)) == before
        assert lints._match_files(keys, _files(texts)) == before  # (the stems kept from the run before)


def test_the_hostile_topics_find_leaks_of_every_rule():
    """(So that the test above compares findings, not empty lists.)"""
    hows = Counter()
    for seed in range(200):
        keys, texts = _hostile_topic(seed)
        hows.update(how for _, how in _before_match_files(keys, _files(texts)))
    assert hows["its words"] > 20 and hows["most of its words"] > 20 and hows["its figure"] + hows["its key terms"] > 0, hows
