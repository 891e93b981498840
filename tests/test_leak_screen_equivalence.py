"""The answer-leak lint screened a distinct text at a time (the words that stand for a key, each
with its one question, in one dictionary; a text matched only when one stands for another
question than its own), its keys indexed a key at a time (a key's runs filed together, its
anchors found by the least of a part rather than of every run, its content words stemmed once
per distinct word, its figures read only when it is short enough to be one) and its ASCII texts
read into words without a pattern (:func:`lints._ascii_words`) finds what it found before.

The lint as it was (its reading of a text into words, its two matchers and their indexes, and
its matching of the distinct texts) is kept below, as it was written, and compared with
:func:`lints._match` (the findings, their order and how each was found), :func:`lints._read`
and the matchers of :func:`lints.answer_leaks` and :func:`lints.near_leaks`, on random banks:
those of ``test_lints_leak_index`` (English, French and Dutch words, figures with their units,
declared key terms, texts that repeat a key whole, in part, reordered or inflected, characters
that NFKC or case folding change), and banks made here for what the screen decides: the same
text in the questions of several keys (its own among them, or not), keys that share runs and
rare words, a word that is an anchor of one key and a content word of another, figures, and
ASCII texts with joiners in every place (inside a word, at its ends, doubled, alone)."""

from __future__ import annotations

import random
import re

import pytest

from aistack_bank.rules import lints
from aistack_bank.rules.lints import (
    _HEDGES,
    _PLAIN_WORD,
    _SYMBOL,
    _WORD,
    LEAK_MIN_KEY_WORDS,
    LEAK_WORDS,
    NEAR_MIN_TERMS,
    STOPWORDS,
    KeyInfo,
    LeakText,
    _clean,
    _close_together,
    _content_of,
    _entry_found,
    _figures,
    _grams,
    _needed,
    _normal,
    _prefiltered,
    _ranked,
    _stem,
)

from test_lints_leak_index import _bank as _mixed_bank

# ----------------------------------------------------------------------------- the lint before

_old_ASCII_SPACED = bytes(c if chr(c) in "abcdefghijklmnopqrstuvwxyz0123456789.,'" else 0x20 for c in range(256))
"""For ``bytes.translate``: every ASCII character that is neither a lower-case letter, a digit nor
a joiner of :data:`_PLAIN_WORD` (``.``, ``,``, ``'``) made a space."""
_old_ASCII_LONE_JOINER = re.compile(r"[.,'](?:(?![a-z0-9])|(?<![a-z0-9].))")
"""A joiner without a letter or digit on one of its sides (a word's end, a double joiner)."""


def _old_words_of(normal: str) -> list[str]:
    """The words of a text read by :func:`_normal`, case folded.

    An ASCII text (nearly every one), case folded, holds no upper-case letter, and
    :data:`_PLAIN_WORD` finds in it the runs of letters and digits joined by single joiners
    between two of them: the text with every other character made a space (a C translation of
    its bytes) and every other joiner too is split on the spaces instead (two C passes instead
    of the pattern's test of each character for a Unicode letter)."""
    folded = normal.casefold()
    if folded.isascii():
        spaced = folded.encode("ascii").translate(_old_ASCII_SPACED).decode("ascii")
        if "." in spaced or "," in spaced or "'" in spaced:
            spaced = _old_ASCII_LONE_JOINER.sub(" ", spaced)
        return spaced.split()
    if _SYMBOL.search(folded) is None:
        return _PLAIN_WORD.findall(folded)
    return _WORD.findall(folded)


def _old_read(text: str) -> tuple[str, list[str]]:
    """``text`` read by :func:`_normal`, and its words."""
    normal = _normal(text)
    return normal, _old_words_of(normal)


def _old_run_matcher(keys: dict[str, str], read=_old_read):
    """:func:`answer_leaks` of one text (given with its words), with the keys indexed once.

    Each run of a key (and each short key) is also filed under its anchor, the word of it that
    the fewest keys hold: a text can hold the run only if it holds that word, so a text is
    matched only when its words include the anchor of another question's key; most texts hold
    none, and cost one intersection of sets. What a text matches is kept by its text (the same
    text in several questions is matched once). ``read`` gives a text's :func:`_old_read`."""
    order, by_run, by_start, anchors = _old_run_index(keys, read)
    anchor_words = frozenset(anchors)
    matched: dict[str, list[str]] = {}

    def all_hits(words: list[str]) -> list[str]:
        hits: set[str] = set()
        # The text's runs are compared with the index as sets (in C); the rare runs that start a
        # short key are then matched at each of their positions.
        if by_run and len(words) >= LEAK_WORDS:
            for gram in by_run.keys() & _grams(words, LEAK_WORDS):
                hits.update(by_run[gram])
        if by_start and not by_start.keys().isdisjoint(_grams(words, LEAK_MIN_KEY_WORDS)):
            for i in range(len(words) - LEAK_MIN_KEY_WORDS + 1):
                for qid, key_words in by_start.get(tuple(words[i:i + LEAK_MIN_KEY_WORDS]), ()):
                    if words[i:i + len(key_words)] == key_words:
                        hits.add(qid)
        return sorted(hits, key=order.__getitem__)

    def match(item: LeakText, words: list[str]) -> list[tuple[LeakText, str]]:
        if len(words) < LEAK_MIN_KEY_WORDS:
            return []
        own = item.question_id
        for word in anchor_words.intersection(words):
            qids = anchors[word]
            if len(qids) > 1 or own not in qids:
                break
        else:  # no anchor of another question's key: nothing to match
            return []
        hits = matched.get(item.text)
        if hits is None:
            hits = matched[item.text] = all_hits(words)
        return [(item, qid) for qid in hits if qid != own]

    return match


def _old_run_index(keys: dict[str, str], read=_old_read):
    """The index of :func:`_old_run_matcher`: (each key's place, the keys by each of their runs of
    :data:`LEAK_WORDS` words, the short keys by their first :data:`LEAK_MIN_KEY_WORDS` words,
    the keys by anchor word).

    A key's anchors are the rarest word of each of its runs (and of the key, when short), by a
    rank of the words by how many keys hold them (:func:`_ranked`): ranked once, each key's
    words are their ranks, and the anchor of a run the least of its ranks (``min`` of a tuple of
    integers, in C, instead of a comparison by a Python key per word of every run)."""
    from collections import Counter
    from itertools import chain

    order = {qid: i for i, qid in enumerate(keys)}
    by_run: dict[tuple[str, ...], list[str]] = {}
    by_start: dict[tuple[str, ...], list[tuple[str, list[str]]]] = {}
    read_keys: list[tuple[str, list[str]]] = []
    for qid, text in keys.items():
        words = read(text)[1]
        read_keys.append((qid, words))
        for gram in _grams(words, LEAK_WORDS):
            by_run.setdefault(gram, []).append(qid)
        if LEAK_MIN_KEY_WORDS <= len(words) < LEAK_WORDS:
            by_start.setdefault(tuple(words[:LEAK_MIN_KEY_WORDS]), []).append((qid, words))
    ranked, rank = _ranked(Counter(chain.from_iterable(dict.fromkeys(words) for _, words in read_keys)))
    anchors: dict[str, set[str]] = {}
    for qid, words in read_keys:
        if len(words) >= LEAK_WORDS:
            ranks = list(map(rank.__getitem__, words))
            for least in set(map(min, zip(*(ranks[k:] for k in range(LEAK_WORDS))))):
                anchors.setdefault(ranked[least], set()).add(qid)
        if LEAK_MIN_KEY_WORDS <= len(words) < LEAK_WORDS:
            anchors.setdefault(ranked[min(map(rank.__getitem__, words))], set()).add(qid)
    return order, by_run, by_start, {word: tuple(qids) for word, qids in anchors.items()}  # (tuples: smaller than sets)


def _old_near_matcher(keys: dict[str, KeyInfo], read=_old_read):
    """:func:`near_leaks` of one text (given read by :func:`_normal`, and its words), with the
    keys indexed once.

    The words of the texts that stand for an indexed content word are kept as they are met, so a
    text's candidates are one intersection of sets; a text with no candidate, no figure of
    another question's key and no declared terms to search costs nothing more. What a text
    matches is kept by its text (the same text in several questions is matched once). ``read``
    gives a text's :func:`_old_read`."""
    order, figures, contents, by_word = _old_near_index(keys, read)
    declared = {qid: [_prefiltered(entry) for entry in info.terms] for qid, info in keys.items() if info.terms}
    seen: set[str] = set()  # words of the texts met so far
    triggers: dict[str, list[str]] = {}  # those whose stem is indexed: the keys it is filed under
    trigger_words: set[str] = set()
    matched: dict[str, dict[str, str]] = {}

    def all_hits(item: LeakText, normal: str, text_words: list[str]) -> dict[str, str]:
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
        cleaned = _clean(item.text) if declared else ""
        lowered = cleaned.lower() if cleaned.isascii() else None  # (see _term_firsts)
        for qid, entries in declared.items():
            if qid in hits:
                continue
            for patterns in entries:
                if _entry_found(patterns, cleaned, lowered):
                    hits[qid] = "its key terms"
                    break
        return hits

    def others(qids, own: str) -> bool:
        return len(qids) > 1 or (len(qids) == 1 and own not in qids)

    def match(item: LeakText, normal: str, text_words: list[str]) -> list[tuple[LeakText, str, str]]:
        own = item.question_id
        hits = matched.get(item.text)
        if hits is None:
            worth = bool(declared)
            if not worth:
                if not seen.issuperset(text_words):
                    new = set(text_words).difference(seen)
                    seen.update(new)
                    for word in new:
                        if word not in STOPWORDS and not word.isdigit():
                            qids = by_word.get(_stem(word))
                            if qids is not None:
                                triggers[word] = qids
                                trigger_words.add(word)
                for word in trigger_words.intersection(text_words):
                    if others(triggers[word], own):
                        worth = True
                        break
            if not worth and figures:
                for figure in _figures(normal) & figures.keys():
                    if others(figures[figure], own):
                        worth = True
                        break
            if not worth:  # nothing of another question's key can be in this text
                return []
            hits = matched[item.text] = all_hits(item, normal, text_words)
        return [(item, qid, hits[qid]) for qid in sorted(hits, key=order.__getitem__) if qid != own]

    return match


def _old_near_index(keys: dict[str, KeyInfo], read=_old_read):
    """The index of :func:`_old_near_matcher`: (each key's place, the keys that are a figure by
    each of their figures, each key's distinct content words, the keys of
    :data:`NEAR_MIN_TERMS` content words or more by each of their rarest ones: as many as a
    text may lack and still hold :data:`NEAR_SHARE` of them, and one more).

    The rarest words are taken by their rank (:func:`_ranked`), sorted as integers."""
    from collections import Counter
    from itertools import chain

    order = {qid: i for i, qid in enumerate(keys)}
    figures: dict[tuple[str, str], list[str]] = {}
    contents: dict[str, list[str]] = {}
    for qid, info in keys.items():
        normal, key_words = read(info.text)
        key_figures = _figures(normal)  # (as figure_of_key)
        if key_figures and len([w for w in key_words if w not in _HEDGES]) <= 3:
            for figure in key_figures:
                figures.setdefault(figure, []).append(qid)
        contents[qid] = list(dict.fromkeys(_content_of(key_words)))
    ranked, rank = _ranked(Counter(chain.from_iterable(contents.values())))
    by_word: dict[str, list[str]] = {}
    for qid, words in contents.items():
        if len(words) >= NEAR_MIN_TERMS:
            missing = len(words) - _needed(len(words))
            for least in sorted(map(rank.__getitem__, words))[: int(missing) + 1]:
                by_word.setdefault(ranked[least], []).append(qid)
    return order, figures, contents, by_word


def _old_match_uncollected(keys: dict[str, KeyInfo], texts: list[LeakText]) -> list[tuple[tuple[str, tuple, str], str]]:
    found: dict[tuple[str, tuple, str], str] = {}
    if not texts:  # (the keys are indexed only for texts to match)
        return []
    # each text read once for both rules; the findings in the order of answer_leaks then near_leaks
    known: dict[str, tuple[str, list[str]]] = {}  # the keys, read once for both indexes (and as texts)

    def read(text: str) -> tuple[str, list[str]]:
        found = known.get(text)
        if found is None:
            found = known[text] = _old_read(text)
        return found

    runs, near = _old_run_matcher({qid: info.text for qid, info in keys.items()}, read), _old_near_matcher(keys, read)
    # each distinct text read once, for all the questions and fields that hold it, and its words
    # dropped once matched; the findings are then taken in the order of the texts
    where: dict[str, int | list[int]] = {}  # (one index, or several)
    for index, item in enumerate(texts):
        first = where.setdefault(item.text, index)
        if first != index:
            if type(first) is int:
                where[item.text] = first = [first]
            first.append(index)
    def scan(part: list) -> tuple[dict[int, list], dict[int, list]]:
        """The findings of the distinct texts of ``part`` by their index in ``texts``: those of
        runs of words, those of near leaks."""
        by_runs: dict[int, list] = {}
        by_near: dict[int, list] = {}
        for text, indexes in part:
            normal, words = known.get(text) or _old_read(text)
            for index in ((indexes,) if type(indexes) is int else indexes):
                item = texts[index]
                hits = runs(item, words)
                if hits:
                    by_runs[index] = hits
                hits = near(item, normal, words)
                if hits:
                    by_near[index] = hits
        return by_runs, by_near

    # Each finding is one text against the keys' index, whatever other texts are matched (what
    # the matchers keep as they go only saves work): with many texts, the keys are indexed here
    # and the texts matched a part at a time in processes forked after (on every core), each
    # part's findings by their index; taken in the order of the texts, they are the same.
    distinct = list(where.items())
    by_runs: dict[int, list] = {}
    by_near: dict[int, list] = {}
    for part_runs, part_near in [scan(distinct)]:  # (_scanned, in this process)
        by_runs.update(part_runs)
        by_near.update(part_near)
    for index in sorted(by_runs):
        for item, other in by_runs[index]:
            found[(item.question_id, item.field, other)] = "its words"
    for index in sorted(by_near):
        for item, other, what in by_near[index]:
            found.setdefault((item.question_id, item.field, other), what)
    return list(found.items())



def _old_match(keys: dict[str, KeyInfo], texts: list[LeakText]):
    return _old_match_uncollected(keys, texts)


def _old_answer_leaks(keys: dict[str, str], texts: list[LeakText]):
    match = _old_run_matcher(keys)
    return [found for item in texts for found in match(item, _old_read(item.text)[1])]


def _old_near_leaks(keys: dict[str, KeyInfo], texts: list[LeakText]):
    match = _old_near_matcher(keys)
    found = []
    for item in texts:
        normal, words = _old_read(item.text)
        found += match(item, normal, words)
    return found


# ----------------------------------------------------------------------------- random banks

COMMON = ("the a of to for and memory bandwidth kernel fused fuses fusing weights tokens cache cached traffic chip "
          "compute operations operand operands reused reuse batch latency throughput model layer pipeline tensor "
          "parallelism accelerator decode prefill quantized attention").split()
JOINED = ["3.5", "3,5", "1,000", "don't", "it's", "e.g.", "i.e.", "U.S.A", "x86", "FP16", "0.5", "nepo's", "a.b.c"]
PUNCTUATION = [" ", " ", " ", " ", ", ", ". ", "; ", ": ", " (", ") ", " - ", "-", "/", "'", " '", "' ", "..", " .", ".,", ",'",
               "?", "! ", "\n", "\u00a0", "’", " “", "” "]
FIGURES = ["About 14 GB", "about 28 GB", "Roughly 2N operations", "≈ 3.5 ms", "7 µs", "100 %", "About 40 ms per token"]


def _name(rng: random.Random) -> str:
    return "".join(rng.choice("bdgklmnprstvz") + rng.choice("aeiou") for _ in range(rng.randint(3, 6)))


def _spell(words: list[str], rng: random.Random) -> str:
    """``words`` written out: a random case for some, random punctuation between them (joiners
    alone, doubled, at a word's ends), a random start and end."""
    out = rng.choice(["", "", "'", ".", "(", "“"])
    for word in words:
        kind = rng.random()
        out += word.upper() if kind < 0.1 else word.capitalize() if kind < 0.2 else word
        out += rng.choice(PUNCTUATION)
    return out.strip(" ") + rng.choice(["", "", ".", "?", "..", "'", ".'", "!"])


def _screen_bank(seed: int):
    """Keys and texts where the screen decides: rare names held by one to three keys (anchors
    of one key or several), runs shared by keys, each question's texts holding its own key's
    words, texts holding another key's run, whole short key, most words, figure or terms, and
    the same text in several questions."""
    rng = random.Random(seed)
    names = [_name(rng) for _ in range(rng.randint(15, 60))]
    vocabulary = COMMON + JOINED + names
    qids = [f"q{i:03d}" for i in range(rng.randint(20, 70))]
    keys: dict[str, KeyInfo] = {}
    key_words: dict[str, list[str]] = {}
    for qid in qids:
        kind = rng.random()
        if kind < 0.1:
            continue  # a question without a key (no single right option)
        if kind < 0.2:
            words = rng.choice(FIGURES).split()
        elif kind < 0.35 and key_words:  # a run of another key, and more
            other = rng.choice(list(key_words.values()))
            start = rng.randrange(max(1, len(other) - LEAK_WORDS + 1))
            words = [rng.choice(vocabulary) for _ in range(rng.randint(0, 4))] + other[start:start + LEAK_WORDS + rng.randint(0, 3)]
        else:
            size = rng.choice([1, 3, 4, 5, 6, 7, 8, 9, 10, 12, 15, 20, 26])
            words = [rng.choice(names) if rng.random() < 0.3 else rng.choice(vocabulary) for _ in range(size)]
        key_words[qid] = words
        terms = (rng.choice(["fus* + memory", "bandwidth", f"{rng.choice(names)}|kernel", "token*"]),) if rng.random() < 0.04 else ()
        keys[qid] = KeyInfo(_spell(words, rng), terms)
    texts: list[LeakText] = []
    for qid in qids:
        own = key_words.get(qid, [])
        for field in [("stem",), *[("options", i, "text") for i in range(rng.randint(2, 5))], ("explanation",)]:
            kind = rng.random()
            words = [rng.choice(vocabulary) for _ in range(rng.randint(0, 12))]
            if own and kind < 0.5:  # its own key's words (its anchors), whole or in part
                start = rng.randrange(len(own))
                words[rng.randint(0, len(words)):0] = own[start:start + rng.randint(1, 30)]
            if kind > 0.8 and key_words:  # another key's, whole, a run, most words reordered, a figure
                other = rng.choice(list(key_words.values()))
                how = rng.random()
                piece = (other if how < 0.3 else other[rng.randrange(len(other)):][:LEAK_WORDS] if how < 0.6
                         else rng.sample(other, max(1, len(other) * 3 // 4)))
                words[rng.randint(0, len(words)):0] = [w + rng.choice(["", "s", "ed", "ing"]) if how >= 0.6 and w.isalpha() else w for w in piece]
            if texts and rng.random() < 0.2:  # the same text as another question's (or its own)
                text = rng.choice(texts).text
            elif rng.random() < 0.05 and keys:
                text = rng.choice(list(keys.values())).text
            else:
                text = _spell(words, rng)
            texts.append(LeakText(qid, field, text))
    rng.shuffle(texts) if rng.random() < 0.3 else None
    return keys, texts


def _shared_word_bank(seed: int):
    """Keys that share a rare word: an anchor of a long key and one of the rarest content words
    of a short one (which has no anchor), or of both; texts of each question that hold the
    other's key, whole or in part, and their own."""
    rng = random.Random(seed)
    keys: dict[str, KeyInfo] = {}
    texts: list[LeakText] = []
    for pair in range(rng.randint(3, 10)):
        shared = _name(rng)
        long = [rng.choice(COMMON) for _ in range(rng.randint(LEAK_WORDS, 14))]
        long[rng.randrange(len(long))] = shared
        short = [shared, *(_name(rng) for _ in range(rng.choice([3, 4, 6])))]
        rng.shuffle(short)
        a, b = f"a{pair}", f"b{pair}"
        keys[a], keys[b] = KeyInfo(_spell(long, rng)), KeyInfo(_spell(short, rng))
        for qid, own, other in ((a, long, short), (b, short, long)):
            for field in (("stem",), ("options", 0, "text"), ("explanation",)):
                words = own[:rng.randint(0, len(own))]
                if rng.random() < 0.5:
                    words += other if rng.random() < 0.5 else other[:LEAK_WORDS]
                texts.append(LeakText(qid, field, _spell(words + [rng.choice(COMMON)], rng)))
    return keys, texts


def _anchor_and_content_bank(seed: int):
    """A rare word that is the only anchor of a short key (whose other words are stopwords and
    words every key holds) and one of the rarest content words of another key, whose texts hold
    the first key whole: the screen refuses none of them only if it counts the word for both."""
    rng = random.Random(seed)
    frequent = rng.sample([w for w in COMMON if w not in STOPWORDS], 8)
    stop = ["the", "of", "to", "and", "for"]
    keys: dict[str, KeyInfo] = {}
    for n in range(10):  # keys whose rarest words are their own
        words = [_name(rng) for _ in range(6)] + frequent + stop[:2]
        rng.shuffle(words)
        keys[f"f{n}"] = KeyInfo(_spell(words, rng))
    texts = [LeakText(qid, ("stem",), info.text) for qid, info in keys.items()]
    for pair in range(rng.randint(2, 6)):
        rare = _name(rng)
        anchored = [rare, rng.choice(frequent), *rng.sample(stop, 3)]
        rng.shuffle(anchored)
        content = [rare, *rng.sample(frequent, 3)]
        rng.shuffle(content)
        a, b = f"a{pair}", f"b{pair}"
        keys[a], keys[b] = KeyInfo(" ".join(anchored)), KeyInfo(" ".join(content))
        texts += [LeakText(a, ("stem",), " ".join(anchored)), LeakText(b, ("stem",), " ".join(content)),
                  LeakText(b, ("explanation",), "So " + " ".join(anchored) + " " + rng.choice(stop))]
    rng.shuffle(texts)
    return keys, texts


def _banks():
    for seed in range(6):
        yield f"anchor and content word {seed}", _anchor_and_content_bank(seed)
    for seed in range(30):
        yield f"screen {seed}", _screen_bank(seed)
    for seed in range(10):
        yield f"word in two keys {seed}", _shared_word_bank(seed)
    for seed in range(12):
        keys, texts = _mixed_bank(seed, n_keys=50 + seed * 4, n_texts=160)
        if seed % 3 == 0:  # without declared terms: texts are then refused by their words alone
            keys = {qid: KeyInfo(info.text) for qid, info in keys.items()}
        yield f"mixed {seed}", (keys, texts)


# ----------------------------------------------------------------------------- the tests

def test_the_lint_finds_what_it_found_before_in_the_same_order():
    found = 0
    hows = set()
    for name, (keys, texts) in _banks():
        now = lints._match(keys, texts)
        assert now == _old_match(keys, texts), name
        found += len(now)
        hows.update(how for _, how in now)
    assert found > 2000 and hows == {"its words", "its figure", "most of its words", "its key terms"}


def test_the_matchers_find_what_they_found_before():
    for name, (keys, texts) in _banks():
        plain = {qid: info.text for qid, info in keys.items()}
        assert lints.answer_leaks(plain, texts) == _old_answer_leaks(plain, texts), name
        assert lints.near_leaks(keys, texts) == _old_near_leaks(keys, texts), name


def test_a_text_is_read_into_the_same_words():
    rng = random.Random(11)
    pieces = COMMON + JOINED + ["İ", "ß", "ﬁ", "²", "×", "Ｇ", "é", "e\u0301", "ſ", "K"]
    for _ in range(20000):
        text = _spell([rng.choice(pieces) for _ in range(rng.randint(0, 10))], rng)
        assert lints._read(text) == _old_read(text), repr(text)
        assert lints._words_of(_normal(text)) == _old_words_of(_normal(text)), repr(text)
    for _, (keys, texts) in _banks():
        for item in texts:
            assert lints._read(item.text) == _old_read(item.text), repr(item.text)


@pytest.mark.parametrize("size", range(LEAK_WORDS, LEAK_WORDS + 14))
def test_the_least_of_each_run_is_found(size):
    rng = random.Random(size)
    for _ in range(300):
        ranks = [rng.randrange(rng.choice([3, 10, 1000])) for _ in range(size)]
        assert lints._least_of_runs(ranks, LEAK_WORDS) == set(map(min, zip(*(ranks[k:] for k in range(LEAK_WORDS)))))


def test_least_of_runs_is_each_runs_least_as_a_window_slides():
    """`_least_of_runs` against the least of each window, on random ranks and on ranks that only
    rise or only fall (which split one at a time, and finish as a sliding window)."""
    from aistack_bank.rules.lints import _least_of_runs

    rng = random.Random(7)
    for _ in range(3000):
        size = rng.choice([1, 2, 3, 8])
        ranks = [rng.randint(0, rng.choice([5, 50, 10**6])) for _ in range(rng.randint(size, 300))]
        if rng.random() < 0.3:
            ranks.sort(reverse=rng.random() < 0.5)
        assert _least_of_runs(ranks, size) == set(map(min, zip(*(ranks[k:] for k in range(size))))), (ranks, size)
