"""The entry memo digests an entry's values written as one string (``entry_parts``: their
lengths and flags, then the strings, the msgid left out when it is the English) instead of the
``repr`` of their tuple, which escaped each string and held the English twice.

Compared with the tuple as it was keyed (spelled out here) on random sets of values made to
be alike (strings of separators, digits and NUL characters, one character moved from a string
to the next, the msgid the English or not, the flags flipped, lone surrogates): two sets get
the same string exactly when they got the same tuple. A memo saved with the tuples' digests is
not read (its store's key changed), and an entry edited in a memo saved now is the only one
checked again.
"""

from __future__ import annotations

import hashlib
import random

from aistack_bank.cache.entries import EntryMemo, entry_parts
from aistack_bank.cache.store import Store, key_of
from aistack_bank.errors import Location, error

PIECES = ["", "a", "q1", ".", ",", "0", "1", "-1", "12", "\0", "\0\0", "1,", ",0", "é", "\u00a0", "'", '"', "\\", "\n", "\ud800", "10", "01"]


def _string(rng: random.Random) -> str:
    return "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 4)))


def _values(rng: random.Random) -> tuple:
    english = _string(rng)
    msgid = english if rng.random() < 0.5 else _string(rng)
    return (_string(rng), english, rng.random() < 0.5, msgid, _string(rng), rng.random() < 0.5, rng.choice(["fr", "nl", "", "f", "fr_CA"]))


def _alike(rng: random.Random, values: tuple) -> tuple:
    """``values`` with one change that a careless joining of the strings would not see."""
    changed = list(values)
    strings = [0, 1, 3, 4, 6]
    roll = rng.random()
    if roll < 0.4:  # one character moved to the next string
        i = rng.randrange(len(strings) - 1)
        a, b = strings[i], strings[i + 1]
        if changed[a]:
            changed[a], changed[b] = changed[a][:-1], changed[a][-1] + changed[b]
    elif roll < 0.6:
        flag = rng.choice([2, 5])
        changed[flag] = not changed[flag]
    elif roll < 0.8:
        changed[3] = changed[1] if changed[3] != changed[1] else changed[1] + rng.choice(PIECES[1:])
    else:
        changed[rng.choice(strings)] = _string(rng)
    return tuple(changed)


def test_two_sets_of_values_get_one_string_exactly_when_they_got_one_tuple():
    rng = random.Random(13)
    same = differ = 0
    for _ in range(60000):
        first = _values(rng)
        second = _alike(rng, first) if rng.random() < 0.9 else first
        before = repr(first) == repr(second)  # (the tuple as it was digested)
        assert (entry_parts(*first) == entry_parts(*second)) == before, (first, second)
        same += before
        differ += not before
    assert same > 5000 and differ > 40000


def test_a_memo_of_the_tuples_digests_is_not_read_and_an_edited_entry_alone_is_checked_again(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    catalog = tmp_path / "fr.po"
    entries = [(f"q{i}.stem", f"About {i} GB", False, f"About {i} GB", f"Environ {i} Go", False, "fr") for i in range(20)]
    where = Location.of(catalog, 3, 1)

    def finding(parts):
        return [error("E502", f"{parts[0]}: numbers differ", where)]

    # a store as the tuples' digests kept it, under the store's former key: every entry found wrong
    old = Store("catalog-entries", catalog)
    old.put(key_of("catalog-entries", "fr"), {hashlib.blake2b(repr(parts).encode("utf-8", "surrogatepass"), digest_size=16).digest(): ()
                                              for parts in entries})
    old.save()
    calls: list = []

    def run(values):
        memo = EntryMemo(catalog, "fr", enabled=True)
        found = [memo.findings(entry_parts(*parts), lambda parts=parts: calls.append(parts) or finding(parts)) for parts in values]
        memo.save()
        return found

    first = run(entries)
    assert len(calls) == len(entries) and all(found for found in first)  # (not read: checked)
    calls.clear()
    assert run(entries) == first and not calls
    edited = list(entries)
    edited[7] = edited[7][:4] + ("Environ 8 Go",) + edited[7][5:]
    assert run(edited) == first and calls == [edited[7]]
