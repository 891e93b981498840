"""The entry memo digests an entry's values as :mod:`marshal` writes their tuple
(``entry_values``, ``entry_digest``) instead of one string of their lengths and the values
joined (``entry_parts``, kept here as it was), and, in a run whose memo kept nothing, takes the
digests in one pass when it is saved instead of one by one as the entries are checked.

Compared with the string as it was keyed on random sets of values made to be alike (strings
of separators, digits and NUL characters, one character moved from a string to the next, the
msgid the English or not, the flags flipped, lone surrogates): two sets get the same digest
exactly when they got the same string. Runs of the memo through ``recall``/``keep`` and through
the former keys (``lookup``/``missed`` of ``entry_parts``) find the same and check the same
entries again; a memo saved by the former keys is not read, and an edited entry is the only
one checked again, whether the memo was saved by a cold run or by a warm one.
"""

from __future__ import annotations

import hashlib
import random

from aistack_bank.cache.entries import EntryMemo, entry_digest, entry_values, strip
from aistack_bank.cache.store import Store, key_of
from aistack_bank.errors import Location, error

PIECES = ["", "a", "q1", ".", ",", "0", "1", "-1", "12", "\0", "\0\0", "1,", ",0", "é", "\u00a0", "'", '"', "\\", "\n", "\ud800", "10", "01",
          "\u202f", "\U0001f600", ")", "\xa9", "N", "T", "F", "u"]


def entry_parts(key: str, english: str, key_bearing: bool, msgid: str, msgstr: str, fuzzy: bool, language: str) -> str:
    """The memo's former writing of an entry's values (as it was in ``aistack_bank.cache.entries``)."""
    same = msgid == english
    return (f"{len(key)},{len(english)},{-1 if same else len(msgid)},{len(msgstr)},{len(language)},{'1' if key_bearing else '0'}{'1' if fuzzy else '0'}\0"
            f"{key}{english}{'' if same else msgid}{msgstr}{language}")


def _string(rng: random.Random) -> str:
    return "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 4)))


def _values(rng: random.Random) -> tuple:
    english = _string(rng)
    msgid = english if rng.random() < 0.5 else _string(rng)
    return (_string(rng), english, rng.random() < 0.5, msgid, _string(rng), rng.random() < 0.5)


def _alike(rng: random.Random, values: tuple) -> tuple:
    """``values`` with one change that a careless joining of the strings would not see."""
    changed = list(values)
    strings = [0, 1, 3, 4]
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


def test_two_sets_of_values_get_one_digest_exactly_when_they_got_one_string():
    rng = random.Random(21)
    same = differ = 0
    for _ in range(60000):
        first = _values(rng)
        second = _alike(rng, first) if rng.random() < 0.9 else first
        if rng.random() < 0.3:  # (equal strings that are not the same objects)
            second = tuple("".join(list(v)) if type(v) is str else v for v in second)
        before = entry_parts(*first, "fr") == entry_parts(*second, "fr")
        assert (entry_digest(entry_values(*first)) == entry_digest(entry_values(*second))) == before, (first, second)
        same += before
        differ += not before
    assert same > 5000 and differ > 40000


def _finding(values: tuple) -> list:
    return [error("E502", f"{values[0]}: numbers differ", Location.of("fr.po", 3, 1))] if "1" in values[4] else []


def _run_new(catalog, entries: list[tuple], calls: list) -> list:
    memo = EntryMemo(catalog, "fr", enabled=True)
    found = []
    for values in entries:
        kept_values = entry_values(*values)
        digest, kept = memo.recall(kept_values)
        if kept is None:
            calls.append(values)
            kept = memo.keep(digest, kept_values, strip(_finding(values)))
        found.append(kept)
    memo.save()
    return found


def _run_old(catalog, entries: list[tuple], calls: list) -> list:
    """The memo as ``verify._entry_findings`` asked it before: the digest of ``entry_parts``."""
    memo = EntryMemo(catalog, "fr", enabled=True)
    found = []
    for values in entries:
        digest, kept = memo.lookup(entry_parts(*values, "fr"))
        if kept is None:
            calls.append(values)
            kept = memo.missed(digest, strip(_finding(values)))
        found.append(kept)
    memo.save()
    return found


def test_the_memo_finds_and_checks_again_what_it_did_with_the_former_keys(tmp_path, monkeypatch):
    rng = random.Random(7)
    catalog = tmp_path / "fr.po"
    pool = [_values(rng) for _ in range(40)]
    runs = [pool[:20], pool[:20], pool[5:25], [_alike(rng, v) if rng.random() < 0.3 else v for v in pool[:30]]]
    runs += [[rng.choice(pool) if rng.random() < 0.7 else _alike(rng, rng.choice(pool)) for _ in range(rng.randrange(0, 40))] for _ in range(25)]
    runs += [pool[:10], [], pool[:10]]
    seen = []
    for runner, cache in ((_run_old, tmp_path / "old"), (_run_new, tmp_path / "new")):
        monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
        results = []
        for entries in runs:
            calls: list = []
            results.append((runner(catalog, entries, calls), calls))
        seen.append(results)
    assert seen[0] == seen[1]
    assert any(calls for _, calls in seen[1][1:]) and any(not calls and found for found, calls in seen[1][1:])


def test_values_marshal_does_not_write_are_checked_every_time(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    catalog = tmp_path / "fr.po"

    class Text(str):
        pass

    odd = ("q9.stem", "About 1 GB", False, "About 1 GB", Text("Environ 1 Go"), False)
    plain = [(f"q{i}.stem", f"About {i} GB", False, f"About {i} GB", f"Environ {i} Go", False) for i in range(3)]
    for entries in ([odd] + plain, plain + [odd]):  # (first: no memo yet, the digests taken when saved; then one by one)
        for _ in range(2):
            calls: list = []
            assert _run_new(catalog, entries, calls) == [strip(_finding(v)) for v in entries]
            assert odd in calls
    calls = []
    _run_new(catalog, plain, calls)
    assert not calls


def test_a_memo_of_the_former_keys_is_not_read_and_an_edited_entry_alone_is_checked_again(tmp_path, monkeypatch):
    catalog = tmp_path / "fr.po"
    entries = [(f"q{i}.stem", f"About {i} GB", False, f"About {i} GB", f"Environ {i} Go", False) for i in range(20)]
    for cache in ("a", "b"):
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / cache))
        # a store as the former keys kept it, under the store's former key: every entry found wrong
        old = Store("catalog-entries", catalog)
        old.put(key_of("catalog-entries", "fr", "entry_parts"),
                {hashlib.blake2b(entry_parts(*values, "fr").encode("utf-8", "surrogatepass"), digest_size=16).digest(): ((error("E502", "x").severity, "E502", "x"),)
                 for values in entries})
        old.save()
        calls: list = []
        first = _run_new(catalog, entries, calls)
        assert calls == entries and first == [strip(_finding(v)) for v in entries]  # (not read: checked)
        if cache == "b":  # the memo saved by a warm run (each digest taken as the entry was checked)
            calls.clear()
            edited = list(entries)
            edited[3] = edited[3][:4] + ("Environ 4 Go",) + edited[3][5:]
            _run_new(catalog, edited, calls)
            assert calls == [edited[3]]
            _run_new(catalog, entries, calls)
        calls.clear()
        assert _run_new(catalog, entries, calls) == first and not calls
        edited = list(entries)
        edited[7] = edited[7][:4] + ("Environ 8 Go",) + edited[7][5:]
        assert _run_new(catalog, edited, calls) == [strip(_finding(v)) for v in edited] and calls == [edited[7]]


def test_a_catalog_checked_from_the_memo_of_another_finds_what_it_finds_alone(tmp_path, monkeypatch):
    """``verify._entry_findings`` through the memo saved by the checks of a catalog of the same
    keys whose entries differ in one value each (made fuzzy or not, the msgstr, the msgid, the
    English, the key-bearing flag): what it finds without the memo, entry by entry."""
    from pathlib import Path

    import polib

    from aistack_bank.i18n import verify
    from aistack_bank.i18n.catalog import new_catalog, read_catalog, render_catalog
    from aistack_bank.i18n.fields import TextField

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    rng = random.Random(11)
    base = []
    for index in range(200):
        english = f"About {rng.randrange(1, 50)} GB of {rng.choice(['memory', 'disk', 'VRAM'])}"
        translation = english.replace("About", "Environ").replace("GB", "Go") if rng.random() < 0.8 else f"Environ {rng.randrange(50)} Go"
        base.append([f"q{index:04d}.{rng.choice(['stem', 'option.a'])}", english, rng.random() < 0.5, english, translation, rng.random() < 0.2])

    def changed(values: list) -> list:
        values = list(values)
        roll = rng.randrange(6)
        if roll == 0:
            values[5] = not values[5]
        elif roll == 1:
            values[4] = values[4].replace("Environ", "Env.") + " 7"
        elif roll == 2:
            values[3] = values[3] + " 3"
        elif roll == 3:
            values[1] = values[1] + " 5"
        elif roll == 4:
            values[2] = not values[2]
        return values

    def checked(rows: list, memo: bool, name: str) -> list:
        folder = tmp_path / name
        folder.mkdir(exist_ok=True)
        po = new_catalog("fr", "test")
        for key, _, _, msgid, msgstr, fuzzy in rows:
            po.append(polib.POEntry(msgctxt=key, msgid=msgid, msgstr=msgstr, flags=["fuzzy"] if fuzzy else []))
        path = tmp_path / "fr.po"
        path.write_bytes(render_catalog(po))
        catalog = read_catalog(path, light=True)
        fields = [TextField(key, english, Path("bank/t/q.yaml"), 1, key_bearing=bearing) for key, english, bearing, _, _, _ in rows]
        active = catalog.active()
        entries = EntryMemo(catalog.path, "fr", enabled=memo)
        found = [verify._entry_findings(entries, field, active[field.key], "fr", catalog) for field in fields]
        entries.save()
        return found

    assert checked(base, True, "a") == checked(base, False, "b")
    other = [changed(values) for values in base]
    alone = checked(other, False, "c")
    assert sum(map(bool, alone)) > 40
    assert checked(other, True, "d") == alone
    assert checked(base, True, "e") == checked(base, False, "f")
