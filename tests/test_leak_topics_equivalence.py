"""The answer-leak lint with each rule run on a text only when the text holds that rule's words
of another question's key (:func:`lints._matched`'s screen, for a text of one question), the
words' stems kept across the topics of a run (:data:`lints._WORD_STEMS`), and the keys' indexes
and the rules' hits built with fewer steps, finds what the lint found before.

The lint as it was before (its matching, :func:`lints._matched`, and the two rules' indexes and
hits: ``_run_rule``, ``_run_index``, ``_near_rule``, ``_near_index``) is kept below as it was
written, and compared with :func:`lints._match_files` and :func:`lints._match` (the findings,
their order and how each was found) on the banks of ``test_leak_learn_equivalence`` (random and
inflected banks, the bundled bank and ``examples/every-kind``, as they are and with every text
moved to another question), random banks without declared terms, and all of them one after
another in one process (as a bank's topics are), with the kept stems emptied between banks or
not, and with pieces of one and seven texts and the lint's own."""

from __future__ import annotations

import gc
import random
from collections import Counter
from itertools import chain, compress, count, filterfalse
from operator import itemgetter

import pytest

from aistack_bank.rules import lints
from aistack_bank.rules.lints import (
    _HEDGES,
    LEAK_MIN_KEY_WORDS,
    LEAK_WORDS,
    NEAR_MIN_TERMS,
    KeyInfo,
    LeakText,
    _clean,
    _close_together,
    _content_of,
    _content_words,
    _entry_found,
    _figures,
    _grams,
    _least_of_runs,
    _NearRule,
    _needed,
    _prefiltered,
    _ranked,
    _read,
    _scanned,
    _shortened_stems,
)

import leak_now
from test_leak_learn_equivalence import PIECES, _banks as _learn_banks
from test_lints_leak_index import _bank as _mixed_bank

# ----------------------------------------------------------------------------- the lint before

def _old_run_rule(keys: dict[str, str], read=_read):
    """The keys indexed for the rule of runs of words: (the keys by anchor word, see
    :func:`_run_index`; the ids, in the order of ``keys``, of the keys whose runs (or whole
    short key) a text's words hold, its own included). Only a text that holds an anchor of a
    key can hold that key's run: the caller refuses the others."""
    order, by_run, shared_runs, by_start, anchors = _old_run_index(keys, read)

    def all_hits(words: list[str]) -> list[str]:
        hits: set[str] = set()
        # The text's runs are compared with the index as sets (in C); the rare runs that start a
        # short key are then matched at each of their positions.
        if by_run and len(words) >= LEAK_WORDS:
            for gram in by_run.keys() & _grams(words, LEAK_WORDS):
                hits.add(by_run[gram])
                hits.update(shared_runs.get(gram, ()))
        if by_start and not by_start.keys().isdisjoint(_grams(words, LEAK_MIN_KEY_WORDS)):
            for i in range(len(words) - LEAK_MIN_KEY_WORDS + 1):
                for qid, key_words in by_start.get(tuple(words[i:i + LEAK_MIN_KEY_WORDS]), ()):
                    if words[i:i + len(key_words)] == key_words:
                        hits.add(qid)
        return sorted(hits, key=order.__getitem__)

    return anchors, all_hits


def _old_run_index(keys: dict[str, str], read=_read):
    """The index of :func:`_run_matcher`: (each key's place, the key by each run of
    :data:`LEAK_WORDS` words of a key (the first key that has it), the other keys that have a
    run (the few runs several keys share), the short keys by their first
    :data:`LEAK_MIN_KEY_WORDS` words, the keys by anchor word).

    A key's anchors are the rarest word of each of its runs (and of the key, when short), by a
    rank of the words by how many keys hold them (:func:`_ranked`): ranked once, each key's
    words are their ranks, and its anchors the least ranks of its runs (:func:`_least_of_runs`).
    A key's runs are filed under it together (a dictionary of them, in C), not one by one."""
    order = {qid: i for i, qid in enumerate(keys)}
    by_run: dict[tuple[str, ...], str] = {}
    shared_runs: dict[tuple[str, ...], list[str]] = {}
    by_start: dict[tuple[str, ...], list[tuple[str, list[str]]]] = {}
    read_keys: list[tuple[str, list[str]]] = []
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
    ranked, rank = _ranked(Counter(chain.from_iterable(dict.fromkeys(words) for _, words in read_keys)))
    anchors: dict[str, list[str]] = {}
    for qid, words in read_keys:
        if len(words) >= LEAK_MIN_KEY_WORDS:
            ranks = list(map(rank.__getitem__, words))
            for least in (_least_of_runs(ranks, LEAK_WORDS) if len(words) >= LEAK_WORDS else (min(ranks),)):
                qids = anchors.get(ranked[least])
                if qids is None:
                    anchors[ranked[least]] = [qid]
                else:
                    qids.append(qid)
    return order, by_run, shared_runs, by_start, {word: tuple(qids) for word, qids in anchors.items()}  # (tuples: smaller than lists)


def _old_near_rule(keys: dict[str, KeyInfo], read=_read, stems: dict[str, str] | None = None) -> _NearRule:
    """The keys indexed for the near-leak rules: a text gives a key away only if it holds a word
    whose stem is one filed under the key in ``by_word``, one of the key's figures, or when the
    key declares terms; the caller refuses the others. ``stems``: see :func:`_near_index`."""
    order, figures, contents, by_word = _old_near_index(keys, read, stems)
    declared = {qid: [_prefiltered(entry) for entry in info.terms] for qid, info in keys.items() if info.terms}

    def all_hits(text: str, normal: str, text_words: list[str]) -> dict[str, str]:
        hits: dict[str, str] = {}
        for figure in _figures(normal) & figures.keys():
            for qid in figures[figure]:
                hits.setdefault(qid, "its figure")
        words = _content_of(text_words)
        present = set(words)
        candidates = {qid for word in present for qid in by_word.get(word, ())}
        for qid in candidates - hits.keys():
            if _close_together(contents[qid], words, present):
                hits[qid] = "most of its words"
        cleaned = _clean(text) if declared else ""
        lowered = cleaned.lower() if cleaned.isascii() else None  # (see _term_firsts)
        for qid, entries in declared.items():
            if qid in hits:
                continue
            for patterns in entries:
                if _entry_found(patterns, cleaned, lowered):
                    hits[qid] = "its key terms"
                    break
        return hits

    def found(item: LeakText, hits: dict[str, str]) -> list[tuple[LeakText, str, str]]:
        own = item.question_id
        return [(item, qid, hits[qid]) for qid in sorted(hits, key=order.__getitem__) if qid != own]

    return _NearRule(figures, by_word, declared, all_hits, found)


def _old_near_index(keys: dict[str, KeyInfo], read=_read, stems_out: dict[str, str] | None = None):
    """The index of :func:`_near_matcher`: (each key's place, the keys that are a figure by
    each of their figures, each key's distinct content words, the keys of
    :data:`NEAR_MIN_TERMS` content words or more by each of their rarest ones: as many as a
    text may lack and still hold :data:`NEAR_SHARE` of them, and one more).

    The rarest words are taken by their rank (:func:`_ranked`), sorted as integers. A key's
    figures are read only when it has at most three words besides the hedges (as
    :func:`figure_of_key`: a longer key is no figure); its content words are its words' stems
    (:func:`_content_of`), each distinct word of the keys stemmed once, and only a word that
    ends as :func:`_stem` may shorten (:data:`_STEM_ENDS`), all at once (:func:`_stems`): any
    other is its own stem. With ``stems_out``, the stem of each content word of the keys is put in it."""
    order = {qid: i for i, qid in enumerate(keys)}
    figures: dict[tuple[str, str], list[str]] = {}
    read_keys: list[tuple[str, list[str]]] = []
    for qid, info in keys.items():
        normal, key_words = read(info.text)
        read_keys.append((qid, key_words))
        if (len(key_words) if _HEDGES.isdisjoint(key_words) else len([w for w in key_words if w not in _HEDGES])) <= 3:
            for figure in _figures(normal):
                figures.setdefault(figure, []).append(qid)
    words = _content_words(set(chain.from_iterable(key_words for _, key_words in read_keys)))
    stems = dict(zip(words, words))
    stems.update(_shortened_stems(words))
    if stems_out is not None:
        stems_out.update(stems)
    contents = {qid: list(dict.fromkeys(map(stems.__getitem__, filter(stems.__contains__, key_words)))) for qid, key_words in read_keys}
    ranked, rank = _ranked(Counter(chain.from_iterable(contents.values())))
    by_word: dict[str, list[str]] = {}
    for qid, words in contents.items():
        if len(words) >= NEAR_MIN_TERMS:
            missing = len(words) - _needed(len(words))
            for least in sorted(map(rank.__getitem__, words))[: int(missing) + 1]:
                by_word.setdefault(ranked[least], []).append(qid)
    return order, figures, contents, by_word


def _old_matched(keys: dict[str, KeyInfo], questions: list[str], texts: list[str], field_of) -> list[tuple[tuple[str, tuple, str], str]]:
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

    anchors, run_hits = _old_run_rule({qid: info.text for qid, info in keys.items()}, read)
    stem_of: dict[str, str] = {}  # (the keys' content words' stems, as the near index took them, then the texts' as learnt)
    near = _old_near_rule(keys, read, stem_of)
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
    counts = Counter(texts)  # each distinct text in the order met, with how many texts are it
    first = dict(zip(reversed(texts), reversed(questions)))  # (the question of its first)
    distinct = list(zip(counts, map(first.__getitem__, counts), counts.values()))
    matched: dict[str, tuple[list[str], dict[str, str]]] = {}
    for part in _scanned(scan, distinct, len(texts)):
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


def _old_match(keys: dict[str, KeyInfo], texts: list[LeakText]):
    paused = gc.isenabled()
    gc.disable()
    try:
        return _old_matched(keys, list(map(itemgetter(0), texts)), list(map(itemgetter(2), texts)), lambda index: texts[index][1])
    finally:
        if paused:
            gc.enable()


# ----------------------------------------------------------------------------- the tests


def _banks():
    yield from _learn_banks()
    for seed in range(12):  # (no declared terms: each rule screened apart)
        keys, texts = _mixed_bank(100 + seed, n_keys=40 + seed * 7, n_texts=300)
        yield f"mixed without terms {seed}", ({qid: KeyInfo(info.text) for qid, info in keys.items()}, texts)


_files = leak_now.files


_LINT_PIECE = lints._SCAN_PIECE
_BEFORE: dict[int, list] = {}


def _before(index: int, keys, texts) -> list:
    """:func:`_old_match` of the bank at ``index`` of :func:`_banks`, worked out once per test
    process with the lint's own piece (what the lint found before depends on the keys and the
    texts alone: a word's owner is that of the keys, however many texts are screened together)
    for the pieces' tests and the three runs of the topics one after another."""
    if index not in _BEFORE:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(lints, "_SCAN_PIECE", _LINT_PIECE)
            _BEFORE[index] = _old_match(keys, texts)
    return _BEFORE[index]


@pytest.mark.parametrize("piece", PIECES)
def test_the_lint_finds_what_it_found_before_in_the_same_order(piece, monkeypatch):
    monkeypatch.setattr(lints, "_SCAN_PIECE", piece)
    found = 0
    hows = set()
    for index, (name, (keys, texts)) in enumerate(_banks()):
        before = _before(index, keys, texts)
        assert leak_now.match(name, keys, texts) == before, name  # (found once per process for the five modules)
        assert leak_now.match_files(name, keys, texts) == before, name
        found += len(before)
        hows.update(how for _, how in before)
    assert found > 2000 and hows == {"its words", "its figure", "most of its words", "its key terms"}


@pytest.mark.parametrize("most", [0, 50, 1 << 19])
def test_the_topics_of_a_run_one_after_another_find_what_each_found_before(most, monkeypatch):
    """The banks matched in turn in one process (the stems kept from one to the next), as a
    bank's topics are, the kept stems emptied when they hold more than ``most`` words."""
    banks = list(_banks())
    before = [_before(index, keys, texts) for index, (_, (keys, texts)) in enumerate(banks)]
    monkeypatch.setattr(lints, "_WORD_STEMS_MOST", most)
    lints._WORD_STEMS.clear()
    rng = random.Random(most)
    for _ in range(2):
        order = list(range(len(banks)))
        rng.shuffle(order)
        for index in order:
            name, (keys, texts) = banks[index]
            assert lints._match_files(keys, _files(texts)) == before[index], name
    assert len(lints._WORD_STEMS) > 0
    lints._WORD_STEMS.clear()


def test_the_kept_stems_are_those_of_stem():
    for _name, (keys, texts) in _banks():
        lints._match(keys, texts)
    assert len(lints._WORD_STEMS) > 1000
    for word, stem in lints._WORD_STEMS.items():
        content = _content_of([word])
        assert stem == (content[0] if content else None), word
