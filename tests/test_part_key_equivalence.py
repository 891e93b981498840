"""The keys a catalog worker keeps of each part of the bank for the template's freshness
(``verify._part_key``, a digest of the fields read a column at a time) against the former
ones (a row at a time, each string written after its length in one text): the same runs of
files, digests equal exactly when the former digests are, and the template compared by parts
with the same verdicts."""

from __future__ import annotations

import hashlib
import random
from pathlib import Path

from aistack_bank.i18n import verify
from aistack_bank.i18n.fields import TextField


# ----------------------------------------------------------------------------- the former code

def old_part_key(fields):
    runs: list[list] = []
    last, last_name = None, None
    for field in fields:
        path = field.path
        if path is not last:
            last, name = path, str(path)
            if name != last_name or not runs:
                runs.append([name, 0])
                last_name = name
        runs[-1][1] += 1
    digest = old_fields_digest((field.key, field.text, "\n".join(field.notes), str(field.line)) for field in fields)
    return len(fields), digest, [(name, count) for name, count in runs]


def old_fields_digest(rows) -> bytes:
    text = "".join([f"{len(a)}.{a}{len(b)}.{b}{len(c)}.{c}{len(d)}.{d}" for a, b, c, d in rows])
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=32).digest()


class _OldSecondHeader(Exception):
    pass


def old_parts_compared(pieces, parts, ref, *, headers: bool = True):
    refs: dict = {}
    header = not headers

    def items():
        nonlocal header
        for found in pieces:
            for item in found:
                if item is None:
                    if header:
                        raise _OldSecondHeader
                    header = True
                    continue
                yield item

    rest = items()
    try:
        for count, digest, runs in parts:
            rows = []
            for name, many in runs:
                if name not in refs:
                    refs[name] = ref(name)
                reference = refs[name]
                for _ in range(many):
                    item = next(rest, None)
                    if item is None or len(item) != 5 or item[3] != reference or not all(isinstance(value, str) for value in item):
                        return False
                    rows.append((item[0], item[1], item[2], item[4]))
            if len(rows) != count or old_fields_digest(rows) != digest:
                return False
        return next(rest, None) is None
    except _OldSecondHeader:
        return None


# ----------------------------------------------------------------------------- cases

WORDS = ["", "a", "1", "1.", "1.a", "a1.", "é", "x\ny", "\U0001d49c", "\ud800", "12", "2.1.", "..", "q1.stem", "\n"]


def _text(rng: random.Random) -> str:
    return "".join(rng.choice(WORDS) for _ in range(rng.randint(0, 3)))


def _fields(rng: random.Random) -> list[TextField]:
    names = ["bank/t/q0.yaml", "bank/t/q1.yaml", "bank/t/topic.yaml", "bank/u/q0.yaml"]
    shared = [Path(name) for name in names]
    fields = []
    for n in range(rng.randint(0, 12)):
        name = names[min(n // 3, 3)] if rng.random() < 0.7 else rng.choice(names)
        # the same path object most often, an equal one made again now and then
        path = shared[names.index(name)] if rng.random() < 0.8 else Path(name)
        notes = tuple(_text(rng) for _ in range(rng.randint(0, 2)))
        fields.append(TextField(_text(rng), _text(rng), path, rng.randint(0, 120), notes))
    return fields


def _rows(fields):
    return [(f.key, f.text, "\n".join(f.notes), str(f.line)) for f in fields]


def test_part_keys_as_before():
    """Randomized: the same count and runs; the digests of two parts equal exactly when the
    former digests are (rows of strings made of digits, dots and lengths' look-alikes)."""
    rng = random.Random(17)
    seen_old: dict = {}
    seen_new: dict = {}
    for _ in range(4000):
        fields = _fields(rng)
        old = old_part_key(fields)
        new = verify._part_key(fields)
        assert new[0] == old[0] and new[2] == old[2]
        rows = tuple(_rows(fields))
        # each digest stands for one sequence of rows, in both ways
        assert seen_old.setdefault(old[1], rows) == rows
        assert seen_new.setdefault(new[1], rows) == rows
    assert len(seen_new) == len(seen_old) > 1000


def test_digest_tells_apart_rows_that_read_alike():
    """Rows whose strings joined read alike, split at other places, are told apart."""
    cases = [
        [("ab", "", "", "1")], [("a", "b", "", "1")], [("", "ab", "", "1")],
        [("a", "", "", "1"), ("b", "", "", "1")], [("1.a", "", "", "")], [("1", ".a", "", "")],
        [], [("", "", "", "")], [("", "", "", ""), ("", "", "", "")],
    ]
    digests = {verify._fields_digest(*[list(column) for column in zip(*rows)] if rows else ([], [], [], [])) for rows in cases}
    assert len(digests) == len(cases)


def _items(rng: random.Random, fields):
    items = [None] + [(f.key, f.text, "\n".join(f.notes), f"t/{f.path.name}", str(f.line)) for f in fields]
    for _ in range(rng.randint(0, 2)):
        change = rng.randrange(8)
        if change == 0 and len(items) > 1:
            del items[rng.randrange(1, len(items))]
        elif change == 1:
            items.insert(rng.randrange(1, len(items) + 1), ("q1.stem", "a", "", "t/q0.yaml", "1"))
        elif change == 2 and any(i and item and len(item) == 5 and all(isinstance(v, str) for v in item) for i, item in enumerate(items)):
            i = rng.choice([i for i, item in enumerate(items) if i and item and len(item) == 5 and all(isinstance(v, str) for v in item)])
            j = rng.randrange(5)
            item = list(items[i])
            item[j] = rng.choice([item[j] + "x", item[j][:-1], _text(rng), "t/q1.yaml", "1" + item[j], None, 3])
            items[i] = tuple(item)
        elif change == 3 and len(items) > 2:
            i, j = rng.sample(range(1, len(items)), 2)
            items[i], items[j] = items[j], items[i]
        elif change == 4:
            items.insert(rng.randrange(len(items) + 1), None)  # a second header
        elif change == 5 and len(items) > 1:
            items[rng.randrange(1, len(items))] = ()  # an entry without exactly one reference
        elif change == 6 and len(items) > 1:
            i = rng.randrange(1, len(items))
            if items[i]:
                items[i] = items[i][:4]
        else:
            items = items[:1] + items[2:] if len(items) > 1 else items
    return items


def test_template_compared_by_parts_as_before():
    """Randomized: the template's items compared with the new parts' keys give what the former
    comparison with the former keys gives, each file's reference asked as often."""
    rng = random.Random(33)
    asked_old: list = []
    asked_new: list = []

    def ref(asked):
        def of(name):
            asked.append(name)
            return f"t/{Path(name).name}"
        return of

    verdicts = set()
    for _ in range(3000):
        fields = _fields(rng)
        cuts = sorted(rng.sample(range(len(fields) + 1), rng.randint(0, min(3, len(fields) + 1))))
        parts = [fields[a:b] for a, b in zip([0, *cuts], [*cuts, len(fields)])]
        items = _items(rng, fields)
        cut = rng.randint(0, len(items))
        headers = rng.random() < 0.8
        pieces = [items[:cut], items[cut:]] if headers else [[i for i in items[:cut] if i is not None], [i for i in items[cut:] if i is not None]]
        asked_old.clear()
        asked_new.clear()
        old = old_parts_compared(iter(pieces), [old_part_key(p) for p in parts], ref(asked_old), headers=headers)
        new = verify._template_parts_compared(iter(pieces), [verify._part_key(p) for p in parts], ref(asked_new), headers=headers)
        assert new == old, (fields, items)
        assert asked_new == asked_old
        verdicts.add(old)
    assert verdicts == {True, False, None}


def test_a_part_whose_strings_are_not_strings_is_not_known():
    """A field whose text is not a string gives no key (the template is compared with the fields)."""
    field = TextField("q1.stem", 3, Path("bank/t/q1.yaml"), 1, ())  # type: ignore[arg-type]
    assert verify._part_key([field]) is None


def test_digest_of_values_alone():
    """The digest depends on the strings' values: not on which are the same object, whether the
    columns are lists or tuples, or whether a string is of a subclass of ``str``."""
    class Text(str):
        pass

    key = "q1.stem"
    same = [[key, key], ["a b", "a b"], ["", ""], ["1", "1"]]
    copies = [["q1.stem", "".join(["q1.", "stem"])], ("a b", " ".join(["a", "b"])), (Text(""), ""), ["1", str(1)]]
    assert verify._fields_digest(*same) == verify._fields_digest(*copies)
    assert verify._fields_digest(*same) != verify._fields_digest(["q1.stem", "q1.stem"], ["a b", "a b"], ["", ""], ["1", "2"])
