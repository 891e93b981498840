"""The answer-leak lint with its stems taken together (:func:`lints._stems`: the keys' words
that may be shortened, in :func:`lints._near_index`, and the texts' new words as they are learnt,
in :func:`lints._match_uncollected`) and its texts made LeakTexts in C
(:func:`lints._question_leak_texts`), against the code before, kept below as it was written
(each word stemmed by :func:`lints._stem`, one call per word; each LeakText made by its class).

:func:`lints._stems` is compared with :func:`lints._stem` on random words (every suffix, twice
over, an "e" before and after, short words, digits, joiners, letters outside ASCII) and on every
word of the bundled bank and ``examples/every-kind``; :func:`lints._match` and
:func:`lints._near_index` with the code before on the banks of ``test_leak_learn_equivalence``
(random banks, inflected banks, the two projects as they are and with every text moved to
another question), with pieces of one and seven texts and the lint's own."""

from __future__ import annotations

import random
from operator import itemgetter
from pathlib import Path

import pytest

from aistack_bank.rules import lints
from aistack_bank.rules.lints import (
    _HEDGES,
    _SCAN_PIECE,
    _STEM_ENDS,
    _SUFFIXES,
    LEAK_MIN_KEY_WORDS,
    NEAR_MIN_TERMS,
    STOPWORDS,
    KeyInfo,
    LeakText,
    _figures,
    _needed,
    _ranked,
    _read,
    _run_rule,
    _scanned,
    _stem,
)

import leak_now
from test_leak_learn_equivalence import PIECES, _banks

REPO = Path(__file__).resolve().parents[1]


# ----------------------------------------------------------------------------- the code before

def _old_near_index(keys: dict[str, KeyInfo], read=_read, stems_out: dict[str, str] | None = None):
    """The index of :func:`_near_matcher`: (each key's place, the keys that are a figure by
    each of their figures, each key's distinct content words, the keys of
    :data:`NEAR_MIN_TERMS` content words or more by each of their rarest ones: as many as a
    text may lack and still hold :data:`NEAR_SHARE` of them, and one more).

    The rarest words are taken by their rank (:func:`_ranked`), sorted as integers. A key's
    figures are read only when it has at most three words besides the hedges (as
    :func:`figure_of_key`: a longer key is no figure); its content words are its words' stems
    (:func:`_content_of`), each distinct word of the keys stemmed once, and only a word that
    ends as :func:`_stem` may shorten (:data:`_STEM_ENDS`) by that function: any other is its
    own stem. With ``stems_out``, the stem of each content word of the keys is put in it."""
    from collections import Counter
    from itertools import chain, filterfalse
    from operator import methodcaller

    order = {qid: i for i, qid in enumerate(keys)}
    figures: dict[tuple[str, str], list[str]] = {}
    read_keys: list[tuple[str, list[str]]] = []
    for qid, info in keys.items():
        normal, key_words = read(info.text)
        read_keys.append((qid, key_words))
        if (len(key_words) if _HEDGES.isdisjoint(key_words) else len([w for w in key_words if w not in _HEDGES])) <= 3:
            for figure in _figures(normal):
                figures.setdefault(figure, []).append(qid)
    words = set(chain.from_iterable(key_words for _, key_words in read_keys))
    words.difference_update(STOPWORDS)
    words = list(filterfalse(str.isdigit, words))
    stems = dict(zip(words, words))
    for word in filter(methodcaller("endswith", _STEM_ENDS), words):
        stems[word] = _stem(word)
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



def _old_match_uncollected(keys: dict[str, KeyInfo], texts: list[LeakText]) -> list[tuple[tuple[str, tuple, str], str]]:
    if not texts:  # (the keys are indexed only for texts to match)
        return []
    from collections import Counter
    from itertools import chain

    # each text read once for both rules; the findings in the order of answer_leaks then near_leaks
    known: dict[str, tuple[str, list[str]]] = {}  # the keys, read once for both indexes (and as texts)

    def read(text: str) -> tuple[str, list[str]]:
        found = known.get(text)
        if found is None:
            found = known[text] = _read(text)
        return found

    anchors, run_hits = _run_rule({qid: info.text for qid, info in keys.items()}, read)
    stem_of: dict[str, str] = {}  # (the keys' content words' stems, as the near index took them)
    near = _near_rule_with(_old_near_index, keys, read, stem_of)
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
        """The owners of ``words`` (words of texts, repeats allowed) not met before, learnt."""
        new = set(words)
        new.difference_update(seen)
        seen.update(new)
        new.difference_update(STOPWORDS)
        for word in new:
            if not word.isdigit():
                qids = by_word.get(stem_of.get(word) or _stem(word))
                if qids is not None:
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



def _near_rule_with(index, keys, read, stems):
    """:func:`lints._near_rule` with ``index`` in place of :func:`lints._near_index`."""
    saved = lints._near_index
    lints._near_index = index
    try:
        return lints._near_rule(keys, read, stems)
    finally:
        lints._near_index = saved


def _old_match(keys, texts):
    return _old_match_uncollected(keys, texts)




def _old_question_leak_texts(qid: str, qs) -> list[LeakText]:
    texts = getattr(qs, "texts", None)  # as the worker that checked the file listed them
    if texts is None:
        fields = qs.derived.get("fields")  # kept with the file's record: the same texts, already listed
        texts = lints.question_texts(qs.question) if fields is None else lints._leak_texts(fields)
    return [LeakText(qid, path, text) for path, text in texts]


# ----------------------------------------------------------------------------- the tests


def _random_words(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    letters = "abcdeilmnorstuyé0'.,"
    ends = ("", "", "e", "ee", *_SUFFIXES, *(a + b for a in ("e", "s", "ic", "at") for b in _SUFFIXES), *(a + b for a in _SUFFIXES for b in _SUFFIXES))
    words = []
    for _ in range(count):
        base = "".join(rng.choice(letters) for _ in range(rng.randint(0, 8)))
        words.append(base + rng.choice(ends))
    return words


def _project_words() -> list[str]:
    words: set[str] = set()
    for _, (keys, texts) in _banks():
        for text in [info.text for info in keys.values()] + [item.text for item in texts]:
            words.update(_read(text)[1])
    return sorted(words)


def test_the_stems_taken_together_are_those_of_stem():
    words = _random_words(1, 40000) + _project_words() + ["", "e", "es", "ically", "creates", "fused", "uses", "naïveté", "ſtates", "2024s"]
    stems = lints._stems(words)
    assert len(stems) == len(words)
    assert stems == [_stem.__wrapped__(word) for word in words]
    assert sum(stem != word for stem, word in zip(stems, words)) > 10000
    assert lints._stems([]) == [] and lints._stems(["creates"]) == ["creat"]
    for size in (1, 2, 3, 50):  # (any part of a list alone)
        assert lints._stems(words[:size]) == [_stem.__wrapped__(word) for word in words[:size]]


def test_the_near_index_is_the_one_before():
    for name, (keys, _texts) in _banks():
        stems: dict[str, str] = {}
        old: dict[str, str] = {}
        assert lints._near_index(keys, stems_out=stems) == _old_near_index(keys, stems_out=old), name
        assert stems == old, name


_BEFORE: dict[int, list] = {}


def _before(index: int, keys, texts) -> list:
    """:func:`_old_match` of the bank at ``index`` of :func:`_banks`, worked out once per test
    process with the lint's own piece (what the lint found before depends on the keys and the
    texts alone: a word's owner is that of the keys, however many texts are screened together)
    for the pieces' tests."""
    if index not in _BEFORE:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(lints, "_SCAN_PIECE", _SCAN_PIECE)
            lints._stem.cache_clear()
            _BEFORE[index] = _old_match(keys, texts)
    return _BEFORE[index]


@pytest.mark.parametrize("piece", PIECES)
def test_the_lint_finds_what_it_found_before(piece, monkeypatch):
    monkeypatch.setattr(lints, "_SCAN_PIECE", piece)
    found = 0
    for index, (name, (keys, texts)) in enumerate(_banks()):
        now = leak_now.match(name, keys, texts)  # (found once per process for the five modules)
        assert now == _before(index, keys, texts), name
        found += len(now)
    assert found > 2000


def test_the_texts_are_the_leak_texts_made_before():
    from aistack_bank.load import read_library

    count = 0
    for root in (REPO, REPO / "examples" / "every-kind"):
        source = read_library(root / "bank")
        for topic in source.topics:
            for qs in topic.questions:
                if qs.question is None:
                    continue
                now = list(lints._question_leak_texts(qs.question.id, qs))  # (its LeakTexts, iterated)
                before = _old_question_leak_texts(qs.question.id, qs)
                assert now == before and all(type(item) is LeakText for item in now)
                assert [(item.question_id, item.field, item.text) for item in now] == [tuple(item) for item in before]
                count += len(now)
    assert count > 100
