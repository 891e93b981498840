"""A translatable field (:class:`~aistack_bank.i18n.fields.TextField`) is made with its
attributes put in its dict instead of one ``object.__setattr__`` call each (the frozen
dataclass's own ``__init__``). Compared on random values with a copy of the class before (kept
here): the same attributes, ``repr``, equality, hash, order of fields, ``dataclasses.replace``
and ``asdict``, the same pickle (apart from the class's name), still frozen, no larger (its
attributes in the class's shared-key dict), and a field pickled by the code before (a store or spill file written by it) unpickles to an equal field."""

from __future__ import annotations

import dataclasses
import pickle
import random
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from aistack_bank.i18n.fields import TextField


@dataclass(frozen=True)
class _FieldBefore:
    key: str
    text: str
    path: Path
    line: int
    notes: tuple[str, ...] = ()
    question_id: str | None = None
    key_bearing: bool = False
    loc: tuple = ()

    def __reduce__(self):
        return (_FieldBefore, (self.key, self.text, self.path, self.line, self.notes, self.question_id, self.key_bearing, self.loc))


TEXTS = ["", "a", "About 28 GB", "x\ny", "l’option « b »", "\u00a0", "é", "e\u0301", "\udc80", "q0001.stem"]


def _values(rng: random.Random) -> tuple[tuple, dict]:
    values = [rng.choice(TEXTS) + str(rng.randrange(5)), rng.choice(TEXTS), Path(rng.choice(["bank/a/q1.yaml", "bank/b/q2.yaml", "x"])), rng.randrange(0, 300),
              tuple(rng.choice(TEXTS) for _ in range(rng.randrange(3))), rng.choice([None, "q0001", "q0002"]), rng.choice([False, True]),
              tuple(rng.choice(["options", 2, "text", "stem", 0]) for _ in range(rng.randrange(4)))]
    names = [f.name for f in dataclasses.fields(_FieldBefore)]
    cut = rng.randrange(4, 9)  # positional first, then some of the rest by name, some left out
    kwargs = {name: value for name, value in zip(names[cut:], values[cut:]) if rng.random() < 0.7}
    return tuple(values[:cut]), kwargs


def _as_tuple(field) -> tuple:
    return tuple(getattr(field, f.name) for f in dataclasses.fields(field))


def test_fields_as_before_on_random_values():
    rng = random.Random(20261202)
    assert [f.name for f in dataclasses.fields(TextField)] == [f.name for f in dataclasses.fields(_FieldBefore)]
    made = []
    for _ in range(3000):
        args, kwargs = _values(rng)
        new, old = TextField(*args, **kwargs), _FieldBefore(*args, **kwargs)
        assert _as_tuple(new) == _as_tuple(old)
        assert repr(new) == repr(old).replace("_FieldBefore(", "TextField(", 1)
        assert hash(new) == hash(old)
        assert dataclasses.asdict(new) == dataclasses.asdict(old)
        assert pickle.dumps(new.__reduce__()[1]) == pickle.dumps(old.__reduce__()[1])
        assert pickle.loads(pickle.dumps(new)) == new
        change = {"text": rng.choice(TEXTS), "line": rng.randrange(9)}
        assert _as_tuple(dataclasses.replace(new, **change)) == _as_tuple(dataclasses.replace(old, **change))
        with pytest.raises(dataclasses.FrozenInstanceError):
            new.text = "changed"
        # its attributes in the class's shared-key dict, as before (a dict of its own is twice the size)
        assert sys.getsizeof(new.__dict__) <= sys.getsizeof(old.__dict__)
        made.append((new, old))
    for (a, a_old), (b, b_old) in zip(made, made[1:] + made[:1]):
        assert (a == b) == (a_old == b_old)
        assert a != a_old  # (another class, as before)


def test_a_field_pickled_before_unpickles_equal():
    rng = random.Random(7)
    for _ in range(500):
        args, kwargs = _values(rng)
        old = _FieldBefore(*args, **kwargs)
        written = pickle.dumps((TextField, old.__reduce__()[1]))  # what the code before wrote for its field
        read_callable, read_args = pickle.loads(written)
        read = read_callable(*read_args)
        assert read == TextField(*args, **kwargs)
        assert type(read) is TextField and _as_tuple(read) == _as_tuple(old)
