"""A record's pickler (``cache.questionfiles._dumped``) reduces each pydantic model by one
Python function (``_model_reduced``) instead of pydantic's reduction: the record's bytes are
those of the pickler before, kept below, on every question file of the bundled bank and of
``examples/every-kind`` (every kind), after the file's own rules, and on models with private
attributes, extra fields and fields left unset; the state given is pydantic's ``__getstate__``."""

from __future__ import annotations

import copyreg
import io
import pickle
from pathlib import Path

import pytest
from pydantic import BaseModel, ConfigDict, PrivateAttr

from aistack_bank.cache import questionfiles
from aistack_bank.cache.questionfiles import RECORD_HEAD, _dumped, _model_reduced
from aistack_bank.i18n.fields import TextField
from aistack_bank.load import QuestionSource, read_question, read_topic
from aistack_bank.rules.validate import question_file_rules
from aistack_bank.yamlsource import from_text

ROOT = Path(__file__).resolve().parent.parent


def _dumped_before(qs) -> tuple[bytes, int]:
    """The record as the pickler before gave it, and where its document's pickle starts (a document
    read quickly is now kept as its text: tests/test_record_document_from_text.py)."""
    out = io.BytesIO()
    pickler = pickle.Pickler(out, protocol=pickle.HIGHEST_PROTOCOL)
    # (the paths as a record's pickler reduces them: tests/test_record_paths.py)
    pickler.dispatch_table = {**copyreg.dispatch_table, **({type(Path()): questionfiles._path_reduced} if questionfiles._PARSED_PARTS else {}),
                              # (the record and the models' classes as the record's pickler reduces them: tests/test_record_globals_equivalence.py)
                              QuestionSource: questionfiles._source_reduced, type(BaseModel): questionfiles._class_reduced,
                              questionfiles._TupleOf: questionfiles._tuple_of_reduced}
    # (the fields' maker made by _rebuilt, tests/test_record_head_globals_equivalence.py: in the
    # table once a record with fields was pickled, as `_dumped` did first; a record before its
    # rules has none)
    reduced = questionfiles._models_reduced()
    if TextField in reduced:
        pickler.dispatch_table[TextField] = reduced[TextField]
    else:
        assert not qs.derived.get("fields")
    pickler.dump((RECORD_HEAD, qs.path, qs.derived))
    doc = qs.doc
    qs.doc = ...
    try:
        pickler.dump(qs)
    finally:
        qs.doc = doc
    start = out.tell()
    lines = getattr(doc, "_lines", None)
    if lines is not None:
        doc._lines = None
    pickler.fast = True  # (the document with nothing of its own remembered: tests/test_record_document_fast_equivalence.py)
    try:
        pickler.dump(doc)
    finally:
        pickler.fast = False
        if lines is not None:
            doc._lines = lines
    return out.getvalue(), start


def _same_record(qs, where) -> None:
    """The head and the model pickled to the same bytes as before, the document (unpickled) the same."""
    blob = _dumped(qs)
    before, start = _dumped_before(qs)
    assert blob[:start] == before[:start], where
    if qs.doc is None or not from_text(qs.doc):
        assert blob == before, where
    got, want = questionfiles.loads_record(blob).doc, questionfiles.loads_record(before).doc
    assert repr((got, got and list(got.values.items()), got and list(got.keys.items()))) == repr(
        (want, want and list(want.values.items()), want and list(want.keys.items()))), where


def _files() -> list[Path]:
    return sorted([*ROOT.glob("bank/*/questions/*.yaml"), *ROOT.glob("examples/every-kind/bank/*/questions/*.yaml")])


def test_every_question_file_pickles_as_before():
    files = _files()
    assert len(files) > 20
    topics = {}
    kinds = set()
    for path in files:
        root = path.parent.parent
        if root not in topics:
            topics[root] = read_topic(root)[0]
        qs, _ = read_question(path, root=root, project=root.parent.parent)
        _same_record(qs, path)  # (before its rules: no derived values)
        question_file_rules(qs, root, topics[root], True)
        qs.summary = None
        _same_record(qs, path)
        if qs.question is not None:
            kinds.add(type(qs.question))
            assert type(qs.question) in questionfiles._MODELS_REDUCED
    assert len(kinds) >= 8, kinds
    # (the fields reduced to their values, their maker, tuple.__new__ of their class, made by _rebuilt)
    assert questionfiles._MODELS_REDUCED[TextField].__qualname__ == "_fields_reduction.<locals>.reduced"


class _OwnReduce:
    def __init__(self, a, b):
        self.a, self.b = a, b

    def __reduce__(self):
        return _OwnReduce, (self.a, self.b)


class _OwnReduceEx(_OwnReduce):
    def __reduce__(self):
        return _OwnReduce, (self.a, self.b)

    def __reduce_ex__(self, protocol):
        return _OwnReduce, (self.b, self.a)


class _OwnGetattribute(_OwnReduce):
    def __reduce__(self):
        return _OwnReduce, (self.a, self.b)

    def __getattribute__(self, name):
        if name == "__reduce__":
            return lambda: (_OwnReduce, ("swapped", 0))
        return object.__getattribute__(self, name)


class _Inherited(_OwnReduce):
    pass


@pytest.mark.parametrize("cls", [_OwnReduce, _OwnReduceEx, _OwnGetattribute, _Inherited])
def test_a_field_class_pickles_as_it_would_alone(cls, monkeypatch):
    """A record's field class is reduced by its own ``__reduce__`` only where ``object.__reduce_ex__``
    would call just that: the same bytes as without the table, whatever the class."""
    monkeypatch.setattr(questionfiles, "_REDUCING", {cls})
    table = questionfiles._models_reduced()
    assert (cls in table) == (cls is _OwnReduce)
    obj = [cls(1, "x"), cls(2, "y")]
    fast = io.BytesIO()
    pickler = pickle.Pickler(fast, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = table
    pickler.dump(obj)
    assert fast.getvalue() == pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)


class _Inner(BaseModel):
    model_config = ConfigDict(extra="allow")
    a: int = 1
    b: str = "x"


class _Outer(BaseModel):
    inner: _Inner
    items: list[_Inner] = []
    _note: str = PrivateAttr(default="kept")
    _unset: int = PrivateAttr()


def test_models_of_every_shape_pickle_as_pydantic_pickles_them():
    questionfiles._models_reduced()
    for model in (_Inner(), _Inner(a=2, c=[1, 2]), _Inner.model_construct(b="y"), _Outer(inner=_Inner(z=3), items=[_Inner(), _Inner(a=5)]),
                  _Outer.model_construct(inner=_Inner())):
        for obj in (model, [model, model], {"m": model}):
            fast = io.BytesIO()
            pickler = pickle.Pickler(fast, protocol=pickle.HIGHEST_PROTOCOL)
            # (the models' classes named as pickle names them: tests/test_record_globals_equivalence.py)
            pickler.dispatch_table = {cls: reduce for cls, reduce in questionfiles._MODELS_REDUCED.items() if cls is not type(BaseModel)}
            pickler.dump(obj)
            assert fast.getvalue() == pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL), obj
            assert pickle.loads(fast.getvalue()) == obj
        if not model.__pydantic_private__:
            assert _model_reduced(model)[2] == model.__getstate__()


@pytest.mark.parametrize("cls", [_Inner, _Outer])
def test_the_table_holds_the_models(cls):
    assert questionfiles._models_reduced()[cls] is _model_reduced
