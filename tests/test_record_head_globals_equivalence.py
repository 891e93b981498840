"""A record's head names one global (``cache.questionfiles._rebuilt``) for its path and its
fields' maker, where it named ``_path_restored`` for the path and ``TextField`` for the fields:
the path reduced to ``_rebuilt`` with its parts, each field (a tuple subclass) to its values with
its maker, ``tuple.__new__`` of its class, stood for by a ``_TupleOf`` (made again by
``_rebuilt`` as a ``functools.partial``), and the model's ``_rebuilt`` then a reference to the
head's.

Compared with the pickler before (kept here: the path reduced to ``_path_restored`` and the
fields by ``TextField.__reduce__``), on every question file of the bundled bank and of
``examples/every-kind`` before and after its rules, in order and in reverse, on random
question-file texts (the quick reader's random shapes, half of them mutated) and on hypothesis
fields of any values: the head (what a catalog worker reads) and the record, whole and without
its document, unpickle to the same values of the same types, the fields' path the head's own
object as before, with fewer globals; a field class whose reduction is not its class and its
values in order, whose call by position does not keep them in order, that is not a tuple, not
found by its name or of one field is pickled by its own reduction, as before."""

from __future__ import annotations

import dataclasses
import io
import pickle
import pickletools
import random
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aistack_bank.cache import questionfiles
from aistack_bank.i18n.fields import TextField
from aistack_bank.load import QuestionSource
from aistack_bank.yamlsource import document_of_text
from test_record_globals_equivalence import _bank_records, _same
from test_yaml_quick_equivalence import _documents

PATH = Path("bank/t/questions/q00001-x.yaml")


def _path_restored_before(drv, root, parts):
    if questionfiles._PARSED_PARTS:
        return questionfiles._PATH._from_parsed_parts(drv, root, parts if type(parts) is list else list(parts))
    return questionfiles._PATH(*parts)


def _path_reduced_before(path):
    return _path_restored_before, (path._drv, path._root, path._parts)


def _table_before() -> dict:
    table = dict(questionfiles._models_reduced())
    table.pop(questionfiles._TupleOf)
    table[TextField] = TextField.__reduce__
    if type(Path()) in table:
        table[type(Path())] = _path_reduced_before
    return table


def _dumped_before(qs) -> bytes:
    """``_dumped`` as it was: the head's path and fields' class each named by a global of its own."""
    out = io.BytesIO()
    pickler = pickle.Pickler(out, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = _table_before()
    questionfiles._dump_record(pickler, qs)  # (the same three pickles: only the table was other)
    return out.getvalue()


def _globals(blob: bytes, head_only: bool = False) -> list[str]:
    """The names of the globals the record's pickles (its head alone: ``head_only``) name."""
    stream, names = io.BytesIO(blob), []
    while stream.tell() < len(blob):
        strings = []
        for op, arg, _ in pickletools.genops(stream):
            if isinstance(arg, str):
                strings.append(arg)
            if op.name == "STACK_GLOBAL":
                names.append(strings[-1])
        if head_only:
            break
    return names


def _check(qs: QuestionSource) -> None:
    blob = questionfiles._dumped(qs)
    before = _dumped_before(qs)
    head, head_before = pickle.loads(blob), pickle.loads(before)  # (what a catalog worker reads)
    assert head[0] == questionfiles.RECORD_HEAD
    _same(head, head_before, str(qs.path))
    for fields, path in ((head[2].get("fields", ()), head[1]), (head_before[2].get("fields", ()), head_before[1])):
        assert all(type(field) is TextField for field in fields)
        assert all((field.path is path) == (field.path == path) for field in fields), qs.path  # (one path object, as before)
    for whole in (True, False):
        new = questionfiles._loads_uncollected(blob, document=whole)
        old = questionfiles._loads_uncollected(before, document=whole)
        _same(new, old, str(qs.path))
        assert (new.doc is ...) == (not whole)
        if new.derived.get("fields"):
            assert all((field.path is new.path) == (old_field.path is old.path) for field, old_field in zip(new.derived["fields"], old.derived["fields"]))
    names, names_before = _globals(blob), _globals(before)
    assert "TextField" not in names and "_path_restored" not in names, qs.path
    assert len(names) <= len(names_before), qs.path
    if qs.derived.get("fields") or type(qs.path) is questionfiles._PATH and questionfiles._PARSED_PARTS:
        assert len(names) < len(names_before), qs.path
    head_names, head_names_before = _globals(blob, head_only=True), _globals(before, head_only=True)
    assert head_names.count("_rebuilt") == 1 and "_rebuilt" not in _globals(blob)[len(head_names):], qs.path
    assert [name for name in head_names if name != "_rebuilt"] == [name for name in head_names_before if name not in ("_path_restored_before", "TextField")], qs.path


@pytest.fixture(scope="module")
def records():
    found = _bank_records()
    assert sum(bool(qs.derived.get("fields")) for qs in found) > 20
    return found


def test_every_question_file_as_before(records):
    for qs in records:
        _check(qs)
    for qs in reversed(records):  # (each after another record: the kept pickler as it was left)
        _check(qs)


def test_random_texts_as_before():
    rng = random.Random(22)
    done = 0
    for text in _documents(rng, 1200):
        doc = document_of_text(PATH, text)
        if doc is None:
            continue
        qs = QuestionSource(path=PATH, doc=doc, question=None, derived={"summary": [1.5, -0.0, float("nan")]})
        _check(qs)
        done += 1
    assert done > 300


_TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=30) | st.text(max_size=8)
_PATHS = st.sampled_from([PATH, Path("/abs/bank/t/questions/q.yaml"), Path("x.yaml"), Path("a/./b/../c d/é.yaml"), Path(".")])


@st.composite
def _fields(draw):
    path = draw(_PATHS)
    count = draw(st.integers(0, 6))
    fields = [TextField(draw(_TEXT), draw(_TEXT), draw(st.sampled_from([path, draw(_PATHS)])), draw(st.integers(-3, 2**70)),
                        tuple(draw(st.lists(_TEXT, max_size=3))), draw(st.none() | _TEXT), draw(st.booleans()),
                        tuple(draw(st.lists(_TEXT | st.integers(-5, 5), max_size=3))))
              for _ in range(count)]
    return path, fields


@settings(max_examples=200, deadline=None)
@given(_fields())
def test_any_fields_as_before(found):
    path, fields = found
    qs = QuestionSource(path=path, doc=None, question=None, derived={"fields": fields, "parity": {f.text: (f.key,) for f in fields}})
    _check(qs)
    head = pickle.loads(questionfiles._dumped(qs))
    assert head[2]["fields"] == fields
    assert [tuple(f) for f in head[2]["fields"]] == [tuple(f) for f in fields]
    assert all(type(f) is TextField for f in head[2]["fields"])


class _Tuple(tuple):
    __slots__ = ()
    _fields = ("a", "b")

    def __new__(cls, a, b):
        return tuple.__new__(cls, (a, b))

    def __reduce__(self):
        return type(self), tuple(self)


class _Swapped(_Tuple):
    __slots__ = ()

    def __reduce__(self):
        return _Swapped, (self[1], self[0])


class _More(_Tuple):
    __slots__ = ()

    def __new__(cls, a, b, c=None):
        return tuple.__new__(cls, (a, b))

    def __reduce__(self):
        return _More, (self[0], self[1], "more")


class _Alone(tuple):
    __slots__ = ()
    _fields = ("a",)

    def __new__(cls, a):
        return tuple.__new__(cls, (a,))

    def __reduce__(self):
        return _Alone, (self[0],)


class _Reversed(_Tuple):
    """Its reduction its values in order, but its call by position keeps them the other way round."""

    __slots__ = ()

    def __new__(cls, b, a):
        return tuple.__new__(cls, (a, b))

    def __reduce__(self):
        return _Reversed, tuple(self)


@dataclasses.dataclass(frozen=True)
class _Dataclass:
    a: str
    b: str

    def __reduce__(self):
        return _Dataclass, (self.a, self.b)


class _Plain(_Tuple):
    __slots__ = ()

    def __reduce__(self):
        return type(self), tuple(self)


@pytest.mark.parametrize("cls", [_Swapped, _More, _Alone, _Reversed, _Dataclass, _Plain])
def test_a_field_class_reduced_by_its_own_reduction_unless_its_fields_in_order(cls, monkeypatch):
    monkeypatch.setattr(questionfiles, "_REDUCING", {cls})
    table = questionfiles._models_reduced()
    own = cls.__dict__["__reduce__"]
    assert (table[cls] is own) == (cls is not _Plain)
    values = [cls("x", "y") if cls is not _Alone else cls("x"), cls("z", "x") if cls is not _Alone else cls("z")]
    out = io.BytesIO()
    pickler = pickle.Pickler(out, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = table
    pickler.dump(values)
    if cls is _Plain:  # (its maker made by _rebuilt, named once)
        assert _globals(out.getvalue()) == ["_rebuilt"]
        assert pickle.loads(out.getvalue()) == values
        assert [type(value) for value in pickle.loads(out.getvalue())] == [_Plain, _Plain]
    else:
        assert out.getvalue() == pickle.dumps(values, protocol=pickle.HIGHEST_PROTOCOL)


def test_a_field_class_not_found_by_its_name_is_refused_as_before(monkeypatch):
    monkeypatch.setattr(questionfiles, "_REDUCING", {_Plain})
    table = questionfiles._models_reduced()
    value = _Plain("x", "y")
    monkeypatch.setattr(sys.modules[__name__], "_Plain", _Swapped)  # (the name now another class)
    for reduced in (table, {}):
        pickler = pickle.Pickler(io.BytesIO(), protocol=pickle.HIGHEST_PROTOCOL)
        pickler.dispatch_table = reduced
        with pytest.raises(pickle.PicklingError):
            pickler.dump([value])
