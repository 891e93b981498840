"""A translatable field (:class:`~aistack_bank.i18n.fields.TextField`) is a tuple of its eight
values read by name through ``collections.namedtuple``'s descriptors, where it was a frozen
dataclass (kept here as it was, ``_FieldBefore``). Compared on random and hypothesis values
(hostile ones too: lone surrogates, NaN, values of other types, unhashable notes): every
attribute read, ``repr``, equality and inequality with fields of equal and of other values, with
a plain tuple of the same values, with the old class and with other objects, hash, no order
(the same TypeError), made by position and by name with its defaults, frozen, copied, used as a
dict key, pickled (plainly, as the old class's ``__reduce__`` gave it, and by a record's pickler)
and a field pickled by the code before (a store written by it) read back equal."""

from __future__ import annotations

import copy
import dataclasses
import io
import math
import pickle
import random
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aistack_bank.cache import questionfiles
from aistack_bank.i18n.fields import TextField

NAMES = ("key", "text", "path", "line", "notes", "question_id", "key_bearing", "loc")


@dataclass(frozen=True, init=False)
class _FieldBefore:
    """``TextField`` as it was."""

    key: str
    text: str
    path: Path
    line: int
    notes: tuple[str, ...] = ()
    question_id: str | None = None
    key_bearing: bool = False
    loc: tuple = ()

    def __init__(self, key: str, text: str, path: Path, line: int, notes: tuple[str, ...] = (), question_id: str | None = None,
                 key_bearing: bool = False, loc: tuple = ()) -> None:
        attributes = self.__dict__
        attributes["key"] = key
        attributes["text"] = text
        attributes["path"] = path
        attributes["line"] = line
        attributes["notes"] = notes
        attributes["question_id"] = question_id
        attributes["key_bearing"] = key_bearing
        attributes["loc"] = loc

    def __reduce__(self):
        return (_FieldBefore, (self.key, self.text, self.path, self.line, self.notes, self.question_id, self.key_bearing, self.loc))


TEXTS = ["", "a", "About 28 GB", "x\ny", "l’option « b »", "\u00a0", "é", "e\u0301", "\udc80", "q0001.stem", "'\"\\"]


def _values(rng: random.Random) -> tuple[tuple, dict]:
    values = [rng.choice(TEXTS) + str(rng.randrange(3)), rng.choice(TEXTS), Path(rng.choice(["bank/a/q1.yaml", "bank/b/q2.yaml", "x"])),
              rng.choice([0, 1, 2, 300, -1, 2**70, 1.5, float("nan"), True]),
              tuple(rng.choice(TEXTS) for _ in range(rng.randrange(3))), rng.choice([None, "q0001", "q0002", ""]), rng.choice([False, True, 0, 1]),
              tuple(rng.choice(["options", 2, "text", "stem", 0, float("nan")]) for _ in range(rng.randrange(4)))]
    cut = rng.randrange(4, 9)  # positional first, then some of the rest by name, some left out
    kwargs = {name: value for name, value in zip(NAMES[cut:], values[cut:]) if rng.random() < 0.7}
    if rng.random() < 0.1:  # every value by name
        kwargs = dict(zip(NAMES[:cut], values[:cut])) | kwargs
        return (), kwargs
    return tuple(values[:cut]), kwargs


def _attributes(field) -> tuple:
    return tuple(getattr(field, name) for name in NAMES)


def _outcome(call):
    """What ``call()`` gives: its value, or the type and message of what it raised."""
    try:
        return ("value", call())
    except Exception as error:  # noqa: BLE001 (compared, not handled)
        return ("raised", type(error), str(error))


def _same_values(a: tuple, b: tuple) -> bool:
    """Equal item for item, NaN equal to NaN (the values, not the fields' equality, compared)."""
    return len(a) == len(b) and all(x is y or x == y or (isinstance(x, float) and isinstance(y, float) and math.isnan(x) and math.isnan(y))
                                    or (type(x) is tuple and type(y) is tuple and _same_values(x, y)) for x, y in zip(a, b))


def _pair(args, kwargs):
    return TextField(*args, **kwargs), _FieldBefore(*args, **kwargs)


def _check_one(new, old) -> None:
    assert type(new) is TextField
    assert _attributes(new) == _attributes(old) or _same_values(_attributes(new), _attributes(old))
    assert all(getattr(new, name) is getattr(old, name) for name in NAMES)
    assert repr(new) == repr(old).replace("_FieldBefore(", "TextField(", 1)
    assert _outcome(lambda: hash(new)) == _outcome(lambda: hash(old))
    assert (new == new) == (old == old) and (new != new) == (old != old)  # (one object: equal, NaN or not)
    # not equal to a tuple of its values, to the old class's field, to other objects
    for other, other_old in ((tuple(_attributes(old)), tuple(_attributes(old))), (old, new), (None, None), ("x", "x"), (1, 1)):
        assert (new == other) == (old == other_old) is False
        assert (other == new) == (other_old == old) is False
        assert (new != other) == (old != other_old) is True
        assert (other != new) == (other_old != old) is True
    # not ordered
    for op in ("__lt__", "__le__", "__gt__", "__ge__"):
        compare = {"__lt__": lambda a, b: a < b, "__le__": lambda a, b: a <= b, "__gt__": lambda a, b: a > b, "__ge__": lambda a, b: a >= b}[op]
        assert _outcome(lambda: compare(new, new)) == _outcome(lambda: compare(old, old))[:1] + (TypeError,) + (
            _outcome(lambda: compare(old, old))[2].replace("_FieldBefore", "TextField"),)
        for other in (tuple(_attributes(old)), 1, "x", None):
            assert _outcome(lambda: compare(new, other))[:2] == _outcome(lambda: compare(old, other))[:2] == ("raised", TypeError)
            assert _outcome(lambda: compare(other, new))[:2] == _outcome(lambda: compare(other, old))[:2] == ("raised", TypeError)
    # frozen
    for name in (*NAMES, "other"):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(new, name, "changed")
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(old, name, "changed")
        with pytest.raises(dataclasses.FrozenInstanceError):
            delattr(new, name)
    assert _attributes(new) == _attributes(old) or _same_values(_attributes(new), _attributes(old))
    assert bool(new) is bool(old) is True
    # its pickle: the old class's reduction (the same values), a round trip, copies
    assert new.__reduce__()[0] is TextField
    assert pickle.dumps(new.__reduce__()[1], 5) == pickle.dumps(old.__reduce__()[1], 5)
    for again in (lambda f: pickle.loads(pickle.dumps(f, 5)), lambda f: pickle.loads(pickle.dumps(f, 2)), copy.copy, copy.deepcopy):
        back, back_old = again(new), again(old)
        assert type(back) is TextField and _same_values(_attributes(back), _attributes(new))
        assert (back == new) == (back_old == old) and (back != new) == (back_old != old)


def _check_pairs(made: list) -> None:
    for (a, a_old), (b, b_old) in zip(made, made[1:] + made[:1]):
        assert (a == b) == (a_old == b_old)
        assert (a != b) == (a_old != b_old)
    hashable = [(new, old) for new, old in made if _outcome(lambda: hash(old))[0] == "value"]
    assert len({new: i for i, (new, _) in enumerate(hashable)}) == len({old: i for i, (_, old) in enumerate(hashable)})
    assert len(set(new for new, _ in hashable)) == len(set(old for _, old in hashable))


def test_fields_as_before_on_random_values():
    rng = random.Random(20261204)
    made = []
    for _ in range(1500):
        args, kwargs = _values(rng)
        new, old = _pair(args, kwargs)
        _check_one(new, old)
        made.append((new, old))
        twin = _pair(args, kwargs)  # (equal values, other objects)
        assert (twin[0] == new) == (twin[1] == old) and (twin[0] != new) == (twin[1] != old)
        assert _outcome(lambda: hash(twin[0]) == hash(new)) == _outcome(lambda: hash(twin[1]) == hash(old))
    _check_pairs(made)
    _check_pairs(made[::-3])


def test_made_by_position_and_name_as_before():
    path = Path("bank/t/q.yaml")
    for args, kwargs in [(("k", "t", path, 1), {}), (("k", "t", path, 1, ("n",)), {"loc": ("stem",)}), ((), dict(zip(NAMES, ("k", "t", path, 2)))),
                         (("k", "t", path, 1, (), None, True, ()), {}), (("k", "t"), {"path": path, "line": 3, "key_bearing": True})]:
        _check_one(*_pair(args, kwargs))
    for args, kwargs in [(("k", "t", path), {}), (("k", "t", path, 1, (), None, True, (), "more"), {}), (("k", "t", path, 1), {"text": "twice"}),
                         (("k", "t", path, 1), {"other": 1}), ((), {})]:
        assert _outcome(lambda: TextField(*args, **kwargs))[:2] == _outcome(lambda: _FieldBefore(*args, **kwargs))[:2] == ("raised", TypeError)
    assert TextField.__match_args__ == _FieldBefore.__match_args__ == NAMES
    match TextField("k", "t", path, 4, loc=("stem",)):
        case TextField(key, text, _, line, loc=loc):
            assert (key, text, line, loc) == ("k", "t", 4, ("stem",))


def test_a_field_pickled_before_unpickles_equal():
    rng = random.Random(7)
    for _ in range(500):
        args, kwargs = _values(rng)
        old = _FieldBefore(*args, **kwargs)
        written = pickle.dumps((TextField, old.__reduce__()[1]))  # what the code before wrote for its field
        read_callable, read_args = pickle.loads(written)
        read = read_callable(*read_args)
        assert type(read) is TextField and _same_values(_attributes(read), _attributes(old))
    # a whole field as the code before pickled it (its class named TextField, called with its values)
    before = pickle.dumps([_FieldBefore("k", "t", Path("a.yaml"), 1, ("n",), "q", True, ("stem",))], 2)  # (its globals by name)
    written = before.replace(f"{__name__}\n_FieldBefore\n".encode(), f"{TextField.__module__}\nTextField\n".encode())
    assert b"_FieldBefore" not in written
    assert pickle.loads(written) == [TextField("k", "t", Path("a.yaml"), 1, ("n",), "q", True, ("stem",))]


def _record_pickled(fields: list) -> list:
    """``fields`` through a record's pickler (its dispatch table) and back."""
    questionfiles._REDUCING.add(TextField)
    table = questionfiles._models_reduced()
    out = io.BytesIO()
    pickler = pickle.Pickler(out, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = table
    pickler.dump(fields)
    return pickle.loads(out.getvalue())


_TEXT = st.text(max_size=12) | st.sampled_from(TEXTS)
_ANY = _TEXT | st.integers() | st.floats() | st.none() | st.booleans() | st.tuples(_TEXT) | st.lists(_TEXT, max_size=2)


@st.composite
def _fields_values(draw):
    values = [draw(_TEXT), draw(_TEXT), draw(st.sampled_from([Path("a.yaml"), Path("/x/y/z.yaml"), Path(".")]) | _ANY), draw(st.integers() | _ANY),
              draw(st.tuples(_TEXT, _TEXT) | st.lists(_TEXT, max_size=2) | _ANY), draw(st.none() | _TEXT), draw(st.booleans() | _ANY),
              draw(st.lists(_TEXT | st.integers(), max_size=3).map(tuple) | _ANY)]
    return values


@settings(max_examples=80, deadline=None)
@given(st.lists(_fields_values(), min_size=1, max_size=4))
def test_any_values_as_before(rows):
    made = [_pair(tuple(values), {}) for values in rows]
    for new, old in made:
        _check_one(new, old)
    _check_pairs(made)
    back = _record_pickled([new for new, _ in made])
    assert [type(field) for field in back] == [TextField] * len(made)
    assert all(_same_values(tuple(a), tuple(b)) for a, b in zip(back, (new for new, _ in made)))
