"""The answer-leak lint's texts taken from each question's (field, text) pairs as they are
(:func:`lints._match_files`, from :func:`lints.leak_findings_by_file`: the texts and their
questions as two lists, a :class:`~lints.LeakText` made only for a text that gives a key away)
and :func:`lints._match` through the same code (:func:`lints._matched`) find what the lint
found before.

The lint as it was before (:func:`lints._match_uncollected` over a list of LeakTexts, each made
per text from its question's pairs, and each distinct text's question found by the place of
its first) is kept below as it was written, and compared (the findings, their order and how
each was found) on the banks of ``test_leak_learn_equivalence`` (random and inflected banks,
the bundled bank and ``examples/every-kind``, as they are and with every text moved to another
question), each bank's texts given as runs of one question's texts, as they are and shuffled,
some of them as lists of LeakTexts, with pieces of one and seven texts and the lint's own."""

from __future__ import annotations

import gc
import random
from collections import Counter
from itertools import chain, compress, filterfalse
from operator import itemgetter

import pytest

from aistack_bank.rules import lints
from aistack_bank.rules.lints import (
    LEAK_MIN_KEY_WORDS,
    KeyInfo,
    LeakText,
    _content_words,
    _figures,
    _near_rule,
    _read,
    _run_rule,
    _scanned,
    _shortened_stems,
)

import leak_now
from test_leak_learn_equivalence import PIECES, _banks


# ----------------------------------------------------------------------------- the code before

def _old_match_uncollected(keys: dict[str, KeyInfo], texts: list[LeakText]) -> list[tuple[tuple[str, tuple, str], str]]:
    if not texts:  # (the keys are indexed only for texts to match)
        return []
    # each text read once for both rules; the findings in the order of answer_leaks then near_leaks
    known: dict[str, tuple[str, list[str]]] = {}  # the keys, read once for both indexes (and as texts)

    def read(text: str) -> tuple[str, list[str]]:
        found = known.get(text)
        if found is None:
            found = known[text] = _read(text)
        return found

    anchors, run_hits = _run_rule({qid: info.text for qid, info in keys.items()}, read)
    stem_of: dict[str, str] = {}  # (the keys' content words' stems, as the near index took them, then the texts' as learnt)
    near = _near_rule(keys, read, stem_of)
    figures, by_word, declared, near_hits = near.figures, near.by_word, near.declared, near.all_hits
    # The words that may give a key away, each with the one question whose key it stands for
    # (None: several): the keys' anchors (the rule of runs), and the words of the texts whose
    # stem is filed under a key (the near rule), added as they are met. A text is matched only
    # when such a word, or a figure of a key, stands for another question than its own, or when
    # keys declare terms: each a necessary condition of a finding of one rule or the other, and
    # a text is matched by both rules then (what a rule finds in a text that holds none of its
    # necessary words is only the text's own question, which is never reported).
    owner: dict[str, str | None] = {word: qids[0] if len(qids) == 1 else None for word, qids in anchors.items()}
    seen: set[str] = set()  # words of the texts met so far

    def learn(words) -> None:
        """The owners of ``words`` (words of texts, repeats allowed) not met before, learnt: the
        stems of those the keys do not hold are taken together (:func:`_stems`, for a word that
        may be shortened; any other is its own stem), and only a word whose stem is filed under
        a key is looked at alone."""
        new = set(words)
        new.difference_update(seen)
        seen.update(new)
        new = _content_words(new)
        stem_of.update(_shortened_stems(filterfalse(stem_of.__contains__, new)))
        filed = list(map(by_word.get, map(stem_of.get, new, new)))
        for word, qids in compress(zip(new, filed), filed):
            one = qids[0] if len(qids) == 1 else None
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
                runs = run_hits(words) if worth and len(words) >= LEAK_MIN_KEY_WORDS else []
                hits = near_hits(text, normal, words)
                if count > 1 or any(qid != own for qid in runs) or any(qid != own for qid in hits):
                    matched[text] = runs, hits
        return matched

    # Each finding is one text against the keys' index, whatever other texts are matched (what
    # the matchers keep as they go only saves work): with many texts, the keys are indexed here
    # and the distinct texts matched a part at a time in processes forked after (on every core),
    # each part's findings by text; taken in the order of the texts, they are the same.
    text_of = itemgetter(2)  # (LeakText.text)
    counts = Counter(map(text_of, texts))  # each distinct text in the order met, with how many texts are it
    first = dict(zip(map(text_of, reversed(texts)), range(len(texts) - 1, -1, -1)))
    owns = map(itemgetter(0), map(texts.__getitem__, map(first.__getitem__, counts)))  # (the question of its first)
    distinct = list(zip(counts, owns, counts.values()))
    matched: dict[str, tuple[list[str], dict[str, str]]] = {}
    for part in _scanned(scan, distinct, len(texts)):
        matched.update(part)
    if not matched:
        return []
    held = [item for item in texts if item.text in matched]
    found: dict[tuple[str, tuple, str], str] = {}
    for item in held:
        for other in matched[item.text][0]:
            if other != item.question_id:
                found[(item.question_id, item.field, other)] = "its words"
    for item in held:
        for _, other, what in near.found(item, matched[item.text][1]):
            found.setdefault((item.question_id, item.field, other), what)
    return list(found.items())


def _old_match(keys: dict[str, KeyInfo], texts: list[LeakText]):
    paused = gc.isenabled()
    gc.disable()
    try:
        return _old_match_uncollected(keys, texts)
    finally:
        if paused:
            gc.enable()


def _old_leak_texts(qid: str, pairs) -> list[LeakText]:
    return list(map(tuple.__new__, [LeakText] * len(pairs), map((qid,).__add__, pairs)))


# ----------------------------------------------------------------------------- the tests


def _given(runs, rng: random.Random, lists: bool) -> list:
    """Each run as :func:`lints._question_leak_texts` gives it, or (``lists``) some of them as
    lists of LeakTexts (as another caller of :func:`lints.leak_findings_by_file` may give)."""
    return [_old_leak_texts(qid, pairs) if lists and rng.random() < 0.3 else lints._LeakTextsOf(qid, pairs) for qid, pairs in runs]


_LINT_PIECE = lints._SCAN_PIECE
_BEFORE: dict[int, list] = {}


def _before_in_order(index: int, keys, flat: list[LeakText]) -> list:
    """:func:`_old_match` of the bank at ``index`` of :func:`_banks` with its texts in their
    order, worked out once per test process with the lint's own piece (what the lint found
    before depends on the keys and the texts alone: a word's owner is that of the keys, however
    many texts are screened together) for the pieces' tests."""
    if index not in _BEFORE:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(lints, "_SCAN_PIECE", _LINT_PIECE)
            _BEFORE[index] = _old_match(keys, flat)
    return _BEFORE[index]


def _shuffled_runs(index: int, texts: list[LeakText]) -> list[tuple[str, tuple]]:
    """The runs of the bank at ``index`` of :func:`_banks` in an order drawn from ``index``: the
    same at every piece (until round 23 each piece drew its own, and the code before was run on
    each: with one order per bank, the pieces' tests reach the same lines and branches of the
    package and of the code before, `coverage run --branch`)."""
    runs = leak_now.runs(texts)
    random.Random(index).shuffle(runs)
    return runs


_BEFORE_SHUFFLED: dict[int, list] = {}


def _before_shuffled(index: int, keys, flat: list[LeakText]) -> list:
    """:func:`_old_match` of the bank at ``index`` with its runs in the order of
    :func:`_shuffled_runs`, worked out once per test process (at the piece of the first test
    that asks: what the lint found before does not depend on it)."""
    if index not in _BEFORE_SHUFFLED:
        _BEFORE_SHUFFLED[index] = _old_match(keys, flat)
    return _BEFORE_SHUFFLED[index]


@pytest.mark.parametrize("piece", PIECES)
def test_the_texts_taken_by_question_find_what_the_lint_found_before(piece, monkeypatch):
    monkeypatch.setattr(lints, "_SCAN_PIECE", piece)
    rng = random.Random(piece)
    found = 0
    hows = set()
    for index, (name, (keys, texts)) in enumerate(_banks()):
        for shuffled in (False, True):
            runs = _shuffled_runs(index, texts) if shuffled else leak_now.runs(texts)
            flat = [item for qid, pairs in runs for item in _old_leak_texts(qid, pairs)]
            lints._stem.cache_clear()
            before = _before_shuffled(index, keys, flat) if shuffled else _before_in_order(index, keys, flat)
            if shuffled:
                lints._stem.cache_clear()
                assert lints._match_files(keys, _given(runs, rng, False)) == before, name
            else:  # (the texts in their order: found once per process for the five modules)
                assert leak_now.match_files(name, keys, flat) == before, name
            assert lints._match_files(keys, _given(runs, rng, True)) == before, name
            assert (lints._match(keys, flat) if shuffled else leak_now.match(name, keys, flat)) == before, name
            found += len(before)
            hows.update(how for _, how in before)
    assert found > 2000 and hows == {"its words", "its figure", "most of its words", "its key terms"}


def test_a_question_s_texts_iterated_are_its_leak_texts():
    for _name, (_keys, texts) in _banks():
        for qid, pairs in leak_now.runs(texts):
            now = list(lints._LeakTextsOf(qid, pairs))
            assert now == _old_leak_texts(qid, pairs) and all(type(item) is LeakText for item in now)


def test_no_texts_find_nothing():
    keys = {"q1": KeyInfo("one two three four five six seven eight")}
    assert lints._match_files(keys, []) == [] and lints._match_files(keys, [lints._LeakTextsOf("q1", ())]) == []
