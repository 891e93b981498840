"""A question file's summary digests its translatable fields once, for the catalogs' keys and
the answer-leak rule's memo together, from the fields' values written by marshal (not their
``repr``): it tells two lists of fields apart whenever either digest of the code before did,
and gives the same digest to equal values, whatever objects hold them.

Compared on random lists of fields, each changed in one value at a time, with copies of the
two digests before (kept here): the catalogs' (key, text, file, line, notes, question,
key-bearing flag, by ``repr``) and the leak rule's (place in the model and text of each text
but the units', by ``repr``)."""

from __future__ import annotations

import hashlib
import random
from pathlib import Path
from types import SimpleNamespace

from aistack_bank.cache.catalogs import fields_bytes, fields_digest, question_inputs
from aistack_bank.i18n.fields import TextField


def _catalog_digest_before(fields) -> str:
    digest = hashlib.blake2b(digest_size=20)
    for f in fields:
        digest.update(repr((f.key, f.text, str(f.path), f.line, f.notes, f.question_id, f.key_bearing)).encode("utf-8", "surrogateescape"))
    return digest.hexdigest()


def _leak_digest_before(fields) -> bytes:
    texts = [(field.loc, field.text) for field in fields if field.loc[:1] != ("units",)]
    return hashlib.blake2b(repr(texts).encode("utf-8", "surrogatepass"), digest_size=20).digest()


def _summary_digest(fields) -> bytes:
    """What the summary keeps for both (a file without a model: its fields alone)."""
    return question_inputs(SimpleNamespace(question=None, doc=None), fields)


TEXTS = ["", "a", "About 28 GB", "x\ny", "l’option « b »", "\u00a0", "'", '"', "\\", "é", "e\u0301", "\udc80", "q0001.stem", "None", "(1, 2)"]
LOCS = [(), ("stem",), ("explanation",), ("options", 0, "text"), ("options", 0, "feedback"), ("options", 1, "text"), ("units", 0, "name"),
        ("pairs", 2, "left"), ("options", "0", "text")]


def _field(rng: random.Random) -> TextField:
    qid = rng.choice([None, "q0001", "q0002", "q1"])
    return TextField(rng.choice(["q0001.stem", "q0001.option.a", "q0002.stem", "topic.t.title", ""]), rng.choice(TEXTS) + rng.choice(TEXTS),
                     Path(rng.choice(["bank/t/questions/q0001-x.yaml", "bank/t/questions/q0002-x.yaml", "bank/t/topic.yaml"])),
                     rng.randint(0, 3), tuple(rng.sample(["Keep it.", "A note.", ""], rng.randint(0, 2))), qid, rng.random() < 0.5,
                     rng.choice(LOCS))


def _changed(field: TextField, rng: random.Random) -> TextField:
    """``field`` with one of its values changed (perhaps to an equal value in another object)."""
    name = rng.choice(["key", "text", "path", "line", "notes", "question_id", "key_bearing", "loc"])
    value = {"key": lambda: field.key + rng.choice(["", "x", "."]), "text": lambda: rng.choice(TEXTS),
             "path": lambda: Path(str(field.path) + rng.choice(["", "x"])), "line": lambda: rng.randint(0, 3),
             "notes": lambda: rng.choice([(), ("A note.",), ("Keep it.", "A note."), ("A note", ".")]),
             "question_id": lambda: rng.choice([None, "q0001", "q0002"]), "key_bearing": lambda: rng.random() < 0.5,
             "loc": lambda: rng.choice(LOCS)}[name]()
    return TextField(*(value if other == name else got for other, got in zip(TextField._fields, field)))


def test_the_summary_digest_tells_apart_what_either_digest_before_did():
    rng = random.Random(20261202)
    apart = same = 0
    for _ in range(4000):
        fields = [_field(rng) for _ in range(rng.randint(0, 5))]
        other = list(fields)
        if other and rng.random() < 0.8:
            index = rng.randrange(len(other))
            other[index] = _changed(other[index], rng)
        elif rng.random() < 0.5:
            other = other[1:] if other else [_field(rng)]
        before_apart = _catalog_digest_before(fields) != _catalog_digest_before(other) or _leak_digest_before(fields) != _leak_digest_before(other)
        now_apart = _summary_digest(fields) != _summary_digest(other)
        if before_apart:
            assert now_apart, (fields, other)
        # and apart only for fields whose values differ (a place in the model, which the
        # catalogs' digest before left out, now counts for both)
        assert now_apart == ([tuple(f) for f in fields] != [tuple(f) for f in other]), (fields, other)
        apart += now_apart
        same += not now_apart
    assert apart > 2000 and same > 400, (apart, same)


def test_equal_values_in_other_objects_give_the_same_bytes():
    """Strings built anew (not interned, not shared) and shared ones: the same bytes."""
    path = Path("bank/t/questions/q0001-x.yaml")
    text = "About 28 GB"
    shared = [TextField("q0001.stem", text, path, 3, ("n",), "q0001", True, ("stem",)),
              TextField("q0001.explanation", text, path, 9, ("n",), "q0001", False, ("explanation",))]
    built = [TextField("".join(["q0001", ".stem"]), "".join(["About ", "28 GB"]), Path(str(path)), 3, ("".join("n"),), "q000" + "1", True, ("st" + "em",)),
             TextField("q0001." + "explanation", " ".join(["About", "28", "GB"]), Path(str(path)), 9, ("n",), "q0001", False, ("explanation",))]
    assert fields_bytes(shared) == fields_bytes(built)
    assert fields_digest(shared) == fields_digest(built)


def test_a_value_marshal_cannot_write_is_digested_by_its_repr():
    class Line(int):
        pass

    path = Path("bank/t/topic.yaml")
    odd = [TextField("topic.t.title", "T", path, Line(3))]
    plain = [TextField("topic.t.title", "T", path, 3)]
    assert fields_bytes(odd).startswith(b"\0repr\0") and fields_bytes(odd) != fields_bytes(plain)
