"""A record's model and document name one global (``cache.questionfiles._rebuilt``) instead of
one for each class and function they need (the ``QuestionSource``, ``...``, each pydantic model
class, ``document_of_text``): ``_source_reduced``, ``_class_reduced`` and ``_document_reduced``
in the record pickler's table.

Compared with the pickler before (kept here: ``_dumped`` with the table as it was), on every
question file of the bundled bank and of ``examples/every-kind`` (every kind), before and after
its rules, in order and in reverse, on random question-file texts (the quick reader's random
shapes, half of them mutated) and on hypothesis values of any characters written into every
kind's file: the head pickles to the same bytes, and the record unpickles, whole and without its
document, to the same values of the same types (models' fields, set fields and extras, the
derived values, dictionaries in their order, the document's data and tables); a record whose
``QuestionSource`` holds more than its fields, or whose model class is not found by its name,
pickles as before."""

from __future__ import annotations

import io
import pickle
import pickletools
import random
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from aistack_bank.cache import questionfiles
from aistack_bank.load import QuestionSource, read_question, read_topic
from aistack_bank.rules.validate import question_file_rules
from aistack_bank.yamlsource import YamlDocument, document_of_text, from_text, parse_yaml
from test_yaml_quick_equivalence import _documents

ROOT = Path(__file__).resolve().parent.parent
PATH = Path("bank/t/questions/q00001-x.yaml")


def _document_reduced_before(doc):
    if from_text(doc):
        return document_of_text, (doc.path, doc.text)
    return doc.__reduce_ex__(pickle.HIGHEST_PROTOCOL)


def _table_before() -> dict:
    table = {cls: reduce for cls, reduce in questionfiles._models_reduced().items() if cls not in (QuestionSource, type(BaseModel))}
    table[YamlDocument] = _document_reduced_before
    return table


def _dumped_before(qs) -> bytes:
    """``_dumped`` as it was: each class and function the model and document need named by itself."""
    out = io.BytesIO()
    pickler = pickle.Pickler(out, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = _table_before()
    questionfiles._dump_record(pickler, qs)  # (the same three pickles: only the table was other)
    return out.getvalue()


def _head_end(blob: bytes) -> int:
    stream = io.BytesIO(blob)
    pickle.Unpickler(stream).load()
    return stream.tell()


def _globals(blob: bytes) -> int:
    """How many globals the record's three pickles name."""
    stream, count = io.BytesIO(blob), 0
    while stream.tell() < len(blob):
        for op, _, _ in pickletools.genops(stream):
            count += op.name in ("STACK_GLOBAL", "GLOBAL")
    return count


def _same(a, b, where="") -> None:
    """The same values of the same types, dictionaries and sets in the same order, models and
    other objects by their attributes."""
    assert type(a) is type(b), where
    if isinstance(a, dict):
        assert list(a) == list(b), where
        for key in a:
            _same(a[key], b[key], f"{where}/{key!r}")
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b)):
            _same(x, y, f"{where}[{i}]")
    elif isinstance(a, (set, frozenset)):
        assert repr(sorted(map(repr, a))) == repr(sorted(map(repr, b))), where
    elif isinstance(a, BaseModel):
        _same(a.__dict__, b.__dict__, f"{where}.__dict__")
        _same(a.__pydantic_extra__, b.__pydantic_extra__, f"{where}.extra")
        _same(a.__pydantic_fields_set__, b.__pydantic_fields_set__, f"{where}.fields_set")
        _same(a.__pydantic_private__, b.__pydantic_private__, f"{where}.private")
    elif isinstance(a, YamlDocument):
        assert repr((a.path, a.text, a.data, list(a.values.items()), list(a.keys.items()))) == repr(
            (b.path, b.text, b.data, list(b.values.items()), list(b.keys.items()))), where
    elif isinstance(a, QuestionSource):
        _same(list(a.__dict__), list(b.__dict__), f"{where} fields")
        for name in a.__dict__:
            _same(a.__dict__[name], b.__dict__[name], f"{where}.{name}")
    elif hasattr(a, "__dict__") and not isinstance(a, type) and not callable(a):
        _same(vars(a), vars(b), f"{where}.vars")
    else:
        assert repr(a) == repr(b), where
        if isinstance(a, float) and a != a:
            assert b != b, where
        else:
            assert a == b or a is b, where


def _check(qs: QuestionSource) -> None:
    blob = questionfiles._dumped(qs)
    before = _dumped_before(qs)
    end = _head_end(before)
    assert blob[:end] == before[:end], qs.path  # (the head: the same bytes, what a catalog worker reads)
    assert _globals(blob) <= _globals(before), qs.path
    if qs.question is not None:
        assert _globals(blob) < _globals(before), qs.path
    for whole in (True, False):
        new = questionfiles._loads_uncollected(blob, document=whole)
        old = questionfiles._loads_uncollected(before, document=whole)
        _same(new, old, str(qs.path))
        assert (new.doc is ...) == (not whole)
    assert pickle.loads(blob) == pickle.loads(before)  # (the head alone, as a catalog worker reads it)


def _bank_records():
    files = sorted([*ROOT.glob("bank/*/questions/*.yaml"), *ROOT.glob("examples/every-kind/bank/*/questions/*.yaml")])
    topics, found = {}, []
    for path in files:
        root = path.parent.parent
        if root not in topics:
            topics[root] = read_topic(root)[0]
        qs, _ = read_question(path, root=root, project=root.parent.parent)
        found.append(qs)  # (without derived values)
        qs, _ = read_question(path, root=root, project=root.parent.parent)
        question_file_rules(qs, root, topics[root], True)
        qs.summary = None
        found.append(qs)
    return found


@pytest.fixture(scope="module")
def records():
    found = _bank_records()
    assert len(found) > 40 and len({type(qs.question) for qs in found}) >= 8
    return found


def test_every_question_file_as_before(records):
    for qs in records:
        _check(qs)
    for qs in reversed(records):  # (each after another record: the kept pickler as it was left)
        _check(qs)


def test_one_global_for_the_model_and_document(records):
    """The model's and document's pickles name ``_rebuilt`` alone (the head names its own)."""
    for qs in records:
        blob = questionfiles._dumped(qs)
        end = _head_end(blob)
        rest = blob[end:]
        assert rest.count(b"_rebuilt") <= 1 and b"document_of_text" not in rest and b"Ellipsis" not in rest, qs.path
        assert b"QuestionSource" not in rest, qs.path


def test_a_source_with_more_than_its_fields_pickles_as_before(records):
    qs = next(qs for qs in records if qs.derived)
    qs.extra_attribute = {"kept": [1, 2]}
    try:
        blob, before = questionfiles._dumped(qs), _dumped_before(qs)
        assert blob[:_head_end(blob)] == before[:_head_end(before)]
        new = questionfiles.loads_record(blob)
        assert new.extra_attribute == {"kept": [1, 2]}
        _same(new, questionfiles.loads_record(before))
    finally:
        del qs.extra_attribute
    _check(qs)


class _Named(BaseModel):
    a: int = 1


def test_a_class_not_found_by_its_name_is_named_as_before():
    found = questionfiles._class_reduced(_Named)
    assert found[0] is questionfiles._rebuilt and found[1][1:] == (__name__, "_Named")
    assert questionfiles._rebuilt(*found[1]) is _Named

    def local():
        class Local(BaseModel):
            a: int = 1
        return Local

    cls = local()
    assert questionfiles._class_reduced(cls) == cls.__qualname__
    table = questionfiles._models_reduced()
    for broken in (cls(), [cls(), cls()]):
        out = io.BytesIO()
        pickler = pickle.Pickler(out, protocol=pickle.HIGHEST_PROTOCOL)
        pickler.dispatch_table = table
        with pytest.raises((pickle.PicklingError, AttributeError)) as new:
            pickler.dump(broken)
        with pytest.raises((pickle.PicklingError, AttributeError)) as old:
            pickle.dumps(broken, protocol=pickle.HIGHEST_PROTOCOL)
        assert type(new.value) is type(old.value)

    shadowed = type("_Named", (BaseModel,), {"__module__": __name__, "__annotations__": {"b": int}, "b": 2})
    assert questionfiles._class_reduced(shadowed) == "_Named"  # (its name finds another class: pickle refuses it, as before)
    with pytest.raises(pickle.PicklingError):
        out = io.BytesIO()
        pickler = pickle.Pickler(out, protocol=pickle.HIGHEST_PROTOCOL)
        pickler.dispatch_table = table
        pickler.dump(shadowed())


def test_a_class_of_a_module_not_imported_is_imported(monkeypatch):
    import colorsys

    monkeypatch.delitem(sys.modules, "colorsys")
    assert questionfiles._rebuilt(questionfiles._CLASS, "colorsys", "rgb_to_hls").__name__ == "rgb_to_hls"
    assert "colorsys" in sys.modules and sys.modules["colorsys"] is not colorsys
    with pytest.raises(pickle.UnpicklingError):
        questionfiles._rebuilt(7, "x")


def test_random_texts_as_before():
    rng = random.Random(21)
    total = 0
    for text in _documents(rng, 600):
        doc, _ = parse_yaml(text, PATH)
        if doc is None:
            continue
        total += 1
        _check(QuestionSource(path=PATH, doc=doc))
        _check(QuestionSource(path=PATH, doc=doc, derived={"any": [doc.path, text, (1, 1.0, True)]}, summary=(text, float("nan"), -0.0)))
    assert total > 300


_TEMPLATE = (ROOT / "examples/every-kind/bank").glob("*/questions/*.yaml")


@pytest.fixture(scope="module")
def every_kind_texts():
    return sorted(path.read_text(encoding="utf-8") for path in _TEMPLATE)


@settings(max_examples=150, deadline=None)
@given(data=st.data(), value=st.text(min_size=0, max_size=40), where=st.integers(min_value=0, max_value=10_000))
def test_hostile_values_of_every_kind(every_kind_texts, tmp_path_factory, data, value, where):
    text = every_kind_texts[where % len(every_kind_texts)]
    lines = text.split("\n")
    candidates = [i for i, line in enumerate(lines) if ": " in line and not line.rstrip().endswith(("|", ">", "|-", ">-"))]
    i = candidates[where % len(candidates)]
    key, _, _ = lines[i].partition(": ")
    style = data.draw(st.sampled_from(["plain", "single", "double", "block"]))
    if style == "single":
        value = "'" + value.replace("'", "''") + "'"
    elif style == "double":
        value = '"' + value.replace("\\", "").replace('"', "") + '"'
    elif style == "block":
        indent = " " * (len(key) - len(key.lstrip(" ")) + 2)
        value = ">-\n" + indent + value.replace("\n", "\n" + indent)
    lines[i] = f"{key}: {value}"
    root = tmp_path_factory.mktemp("bank") / "bank" / "t"
    (root / "questions").mkdir(parents=True)
    path = root / "questions" / "q001-x.yaml"
    path.write_bytes("\n".join(lines).encode("utf-8", "surrogatepass"))
    qs, _ = read_question(path, root=root, project=root.parent.parent)
    _check(qs)
    if qs.question is not None and qs.doc is not None:
        qs.summary = None
        qs.derived["fields"] = None
        _check(qs)
