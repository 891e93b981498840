"""The answer-leak lint's screen with the owners of a piece of texts' words learnt at once
(:func:`lints._match_uncollected`, :data:`lints._SCAN_PIECE` distinct texts at a time) and the
keys' content words stemmed by :func:`lints._stem` only where they end as it may shorten
(:data:`lints._STEM_ENDS`), their stems handed to the screen (:func:`lints._near_index`'s
``stems_out``), finds what the lint found before.

The lint as it was before (its matching of the distinct texts, learning each text's new words
as the text is met, and the near rule's index stemming every content word of the keys) is kept
below as it was written, and compared with :func:`lints._match` (the findings, their order and
how each was found) on the random banks of ``test_lints_leak_index`` and
``test_leak_screen_equivalence``, on the bundled bank and ``examples/every-kind`` (each topic's
keys and texts, and the same with every text of a topic made a text of another question), with
pieces of one and seven texts as well as the lint's own (see :data:`PIECES`); and the stems handed on are
compared with :func:`lints._stem` of random words ending in every suffix."""

from __future__ import annotations

import random
from operator import itemgetter
from pathlib import Path

import pytest

from aistack_bank.rules import lints
from aistack_bank.rules.lints import (
    _HEDGES,
    LEAK_MIN_KEY_WORDS,
    NEAR_MIN_TERMS,
    STOPWORDS,
    KeyInfo,
    LeakText,
    _clean,
    _close_together,
    _content_of,
    _entry_found,
    _figures,
    _NearRule,
    _needed,
    _prefiltered,
    _ranked,
    _read,
    _run_rule,
    _scanned,
    _stem,
)

import leak_now
from test_leak_screen_equivalence import _banks as _screen_banks
from test_lints_leak_index import _bank as _mixed_bank

REPO = Path(__file__).resolve().parents[1]

# ----------------------------------------------------------------------------- the lint before

def _old_near_rule(keys: dict[str, KeyInfo], read=_read) -> _NearRule:
    """The keys indexed for the near-leak rules: a text gives a key away only if it holds a word
    whose stem is one filed under the key in ``by_word``, one of the key's figures, or when the
    key declares terms; the caller refuses the others."""
    order, figures, contents, by_word = _old_near_index(keys, read)
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



def _old_near_index(keys: dict[str, KeyInfo], read=_read):
    """The index of :func:`_near_matcher`: (each key's place, the keys that are a figure by
    each of their figures, each key's distinct content words, the keys of
    :data:`NEAR_MIN_TERMS` content words or more by each of their rarest ones: as many as a
    text may lack and still hold :data:`NEAR_SHARE` of them, and one more).

    The rarest words are taken by their rank (:func:`_ranked`), sorted as integers. A key's
    figures are read only when it has at most three words besides the hedges (as
    :func:`figure_of_key`: a longer key is no figure); its content words are its words' stems
    (:func:`_content_of`), each distinct word of the keys stemmed once."""
    from collections import Counter
    from itertools import chain

    order = {qid: i for i, qid in enumerate(keys)}
    figures: dict[tuple[str, str], list[str]] = {}
    read_keys: list[tuple[str, list[str]]] = []
    for qid, info in keys.items():
        normal, key_words = read(info.text)
        read_keys.append((qid, key_words))
        if (len(key_words) if _HEDGES.isdisjoint(key_words) else len([w for w in key_words if w not in _HEDGES])) <= 3:
            for figure in _figures(normal):
                figures.setdefault(figure, []).append(qid)
    stems = {word: _stem(word) for word in set(chain.from_iterable(key_words for _, key_words in read_keys))
             if word not in STOPWORDS and not word.isdigit()}
    contents = {qid: list(dict.fromkeys(map(stems.__getitem__, filter(stems.__contains__, key_words)))) for qid, key_words in read_keys}
    ranked, rank = _ranked(Counter(chain.from_iterable(contents.values())))
    by_word: dict[str, list[str]] = {}
    for qid, words in contents.items():
        if len(words) >= NEAR_MIN_TERMS:
            missing = len(words) - _needed(len(words))
            for least in sorted(map(rank.__getitem__, words))[: int(missing) + 1]:
                by_word.setdefault(ranked[least], []).append(qid)
    return order, figures, contents, by_word



def _old_match(keys: dict[str, KeyInfo], texts: list[LeakText]) -> list[tuple[tuple[str, tuple, str], str]]:
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
    near = _old_near_rule(keys, read)
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

    def learn(words: list[str]) -> None:
        new = set(words).difference(seen)
        seen.update(new)
        for word in new:
            if word not in STOPWORDS and not word.isdigit():
                qids = by_word.get(_stem(word))
                if qids is not None:
                    one = qids[0] if len(qids) == 1 else None
                    owner[word] = one if owner.get(word, one) == one else None

    def scan(part: list) -> dict[str, tuple[list[str], dict[str, str]]]:
        """What each distinct text of ``part`` ((text, its question, how many texts are it))
        gives away, by the rule of runs and the near rule (its own question included), for the
        texts that give another question's key away (or that several questions hold)."""
        matched: dict[str, tuple[list[str], dict[str, str]]] = {}
        for text, own, count in part:
            normal, words = known.get(text) or _read(text)
            if not seen.issuperset(words):
                learn(words)
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
    from collections import Counter

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



# ----------------------------------------------------------------------------- the banks


def _project_banks(root: Path):
    """Each topic's keys and texts, as the lint gets them (:func:`lints.content_lints`)."""
    from aistack_bank.load import read_library

    source = read_library(root)
    for topic in source.topics:
        keys: dict[str, KeyInfo] = {}
        texts: list[LeakText] = []
        for qs in topic.questions:
            question = qs.question
            if question is None:
                continue
            info = lints.key_info(question)
            if info is not None:
                keys[question.id] = KeyInfo(*info)
            texts += [LeakText(question.id, field, text) for field, text in lints.question_texts(question)]
        yield f"{root.name}/{getattr(topic, 'id', '?')}", (keys, texts)
        if len(keys) > 1:  # every text a text of another question: each key's own texts leak it
            ids = list(keys)
            moved = [LeakText(ids[(ids.index(item.question_id) + 1) % len(ids)] if item.question_id in keys else item.question_id, item.field, item.text)
                     for item in texts]
            yield f"{root.name}/{getattr(topic, 'id', '?')} moved", (keys, moved)


def _inflected_bank(seed: int):
    """Keys of made-up words, and texts of other questions that say a key's words only in other
    inflections, words of no key: only their stems give the key away."""
    rng = random.Random(seed)
    syllables = ["ka", "to", "mi", "ru", "pe", "zo", "li", "na", "vu", "da"]
    keys: dict[str, KeyInfo] = {}
    texts: list[LeakText] = []
    for number in range(40):
        words = ["".join(rng.choice(syllables) for _ in range(3)) + rng.choice("ktpm") for _ in range(rng.randint(4, 7))]
        keys[f"q{number}"] = KeyInfo(" ".join(words))
        texts.append(LeakText(f"q{number}", ("stem",), " ".join(words)))
    ids = list(keys)
    for number in range(120):
        leaked = keys[rng.choice(ids)].text.split()
        said = [word + rng.choice(("s", "ing", "ed", "es", "ly", "")) for word in leaked]
        rng.shuffle(said) if rng.random() < 0.3 else None
        texts.append(LeakText(rng.choice(ids), ("explanation",), "So " + " ".join(said[: rng.randint(2, len(said))]) + "."))
    return keys, texts


def _made_banks():
    for seed in range(4):
        yield f"inflected {seed}", _inflected_bank(seed)
    yield from _screen_banks()
    for seed in range(8):
        yield f"mixed {seed}", _mixed_bank(seed, n_keys=60 + seed * 5, n_texts=200)
    yield from _project_banks(REPO / "bank")
    yield from _project_banks(REPO / "examples" / "every-kind" / "bank")


_MADE: list = []


def _banks():
    """The banks (name, (keys, texts)), made once per test process (the random ones are drawn
    from fixed seeds, the projects' read from their files, which no test changes): the leak
    tests of five modules go through them some thirty times. Each caller gets its own dict and
    list (of frozen keys and texts)."""
    if not _MADE:
        _MADE.extend(_made_banks())
    for name, (keys, texts) in _MADE:
        yield name, (dict(keys), list(texts))


PIECES = [1, 7, lints._SCAN_PIECE]
"""The pieces of texts the leak equivalence tests screen at a time (:data:`lints._SCAN_PIECE`):
each text alone, several texts and the lint's own. Pieces of two and three texts were compared
too until round 22: with them and without, the five modules' tests reach the same lines and
branches of the package and of the code before (`coverage run --branch`)."""

_BEFORE: dict[int, list] = {}


def _before(index: int, keys, texts) -> list:
    """:func:`_old_match` of the bank at ``index`` of :func:`_banks`, worked out once per test
    process: what the lint found before depends on the keys and the texts alone (it screens all
    the distinct texts in one part, whatever :data:`lints._SCAN_PIECE` the test sets)."""
    if index not in _BEFORE:
        _BEFORE[index] = _old_match(keys, texts)
    return _BEFORE[index]


# ----------------------------------------------------------------------------- the tests


@pytest.mark.parametrize("piece", PIECES)
def test_the_lint_finds_what_it_found_before_in_the_same_order(piece, monkeypatch):
    monkeypatch.setattr(lints, "_SCAN_PIECE", piece)
    found = 0
    hows = set()
    projects = 0
    for index, (name, (keys, texts)) in enumerate(_banks()):
        now = leak_now.match(name, keys, texts)  # (found once per process for the five modules)
        assert now == _before(index, keys, texts), name
        found += len(now)
        hows.update(how for _, how in now)
        projects += "/" in name and bool(now)
    assert found > 2000 and hows == {"its words", "its figure", "most of its words", "its key terms"} and projects >= 2


def test_the_stems_handed_on_are_those_of_stem():
    rng = random.Random(3)
    letters = "abcdefghilmnorstuy"
    words = set()
    for _ in range(20000):
        base = "".join(rng.choice(letters) for _ in range(rng.randint(0, 9)))
        words.add(base + rng.choice(("", "", "e", *lints._SUFFIXES, "e" + rng.choice(lints._SUFFIXES))))
    words |= {"2024", "3.5", "don't", "the", "uses", "use", "fused", "fusing", "fuses", "ically", "es", "e", "ee"}
    keys = {f"q{i}": KeyInfo(" ".join(chunk)) for i, chunk in enumerate(zip(*[iter(sorted(words - {""}))] * 6))}
    stems: dict[str, str] = {}
    lints._stem.cache_clear()
    index = lints._near_index(keys, stems_out=stems)
    wanted = {word for info in keys.values() for word in _read(info.text)[1] if word not in STOPWORDS and not word.isdigit()}
    assert set(stems) == wanted
    assert all(stems[word] == _stem.__wrapped__(word) for word in stems)
    assert index == _old_near_index(keys)
    for _, (keys, _texts) in _banks():
        stems = {}
        assert lints._near_index(keys, stems_out=stems) == _old_near_index(keys), _
        assert all(stems[word] == _stem.__wrapped__(word) for word in stems)
