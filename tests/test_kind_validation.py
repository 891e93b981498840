"""A question file is validated by its kind's own model, with the verdicts of the union of the
question models on `kind` (`load.checked_question` against that union, on every kind's
questions changed at random), and without building the union."""

from __future__ import annotations

import copy
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings, strategies as st
from pydantic import ValidationError

from aistack_bank.kinds import NAMES
from aistack_bank.load import _adapters, checked_question, model_errors
from aistack_bank.yamlsource import YamlDocument

from conftest import REPO

QUESTIONS = [yaml.safe_load(path.read_text(encoding="utf-8")) for path in sorted((REPO / "examples" / "every-kind" / "bank").glob("*/questions/q*.yaml"))]

values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 300) | st.floats(allow_nan=False, width=32) | st.sampled_from(["", " ", "a", "b", "q001", "text", "kg", *NAMES]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(["id", "text", "feedback", "value", "prompt", "answer", "bogus"]), inner, max_size=3),
    max_leaves=8,
)


def _paths(node, at=()):
    """Every place in ``node`` (a path of keys and indexes), the root included."""
    yield at
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, (*at, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _paths(value, (*at, index))


@st.composite
def questions(draw):
    """A question of the bundled example of every kind, changed in up to four places: a value
    replaced or removed, a key added, or its kind changed."""
    data = copy.deepcopy(draw(st.sampled_from(QUESTIONS)))
    for _ in range(draw(st.integers(0, 4))):
        places = [p for p in _paths(data) if p]
        action = draw(st.sampled_from(["replace", "remove", "add", "kind"]))
        if action == "kind":
            data["kind"] = draw(st.sampled_from([*NAMES, "essay ", "bogus", 3, None, ["essay"]]))
            continue
        if not places:
            continue
        place = draw(st.sampled_from(places))
        parent = data
        for step in place[:-1]:
            parent = parent[step]
        if action == "replace":
            parent[place[-1]] = draw(values)
        elif action == "remove":
            del parent[place[-1]]
        elif isinstance(parent, dict):
            parent[draw(st.sampled_from(["bogus", "stem", "id", "kind", "single-choice", "options"]))] = draw(values)
    return data


def _union(data):
    try:
        return _adapters()[0].validate_python(data), []
    except ValidationError as exc:
        return None, exc.errors(include_url=False)


@settings(max_examples=400, deadline=None)
@given(questions())
def test_the_kinds_own_model_gives_the_unions_verdicts(data):
    expected = _union(data)
    got = checked_question(data)
    assert got == expected
    doc = YamlDocument(path=Path("q.yaml"), data=data, values={(): (1, 1)})
    if expected[1]:
        assert model_errors(got[1], doc, strip_union_tag=True) == model_errors(expected[1], doc, strip_union_tag=True)


def test_every_kind_is_checked_and_a_refusal_is_located_after_the_kinds_name():
    assert {q["kind"] for q in QUESTIONS} == set(NAMES)
    for data in QUESTIONS:
        question, refusals = checked_question(data)
        assert refusals == [] and question == _union(data)[0] and question.kind == data["kind"]
        wrong = {**data, "bogus": 1}
        assert checked_question(wrong) == _union(wrong) != (None, [])
        assert checked_question(wrong)[1][0]["loc"] == (data["kind"], "bogus")


def test_reading_a_question_builds_no_union():
    code = ("from pathlib import Path\n"
            "from aistack_bank import load\n"
            f"path = sorted(Path({str(REPO / 'bank')!r}).glob('*/questions/q*.yaml'))[0]\n"
            "source, diags = load.read_question(path)\n"
            "assert source.question is not None and not diags, diags\n"
            "print(load._adapters.cache_info().currsize)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=120, check=True).stdout
    assert out.strip() == "0"


def test_a_kinds_module_is_imported_when_the_kind_is_asked_for():
    code = ("import sys\n"
            "from pathlib import Path\n"
            "from aistack_bank import load, model\n"
            "from aistack_bank.kinds import NAMES, REGISTRY\n"
            "import aistack_bank.rules.validate, aistack_bank.i18n.verify\n"
            "def loaded(): return sorted(m.rsplit('.', 1)[1] for m in sys.modules if m.startswith('aistack_bank.kinds.') and not m.rsplit('.', 1)[1].startswith(('_', 'registry')))\n"
            "assert tuple(REGISTRY) == NAMES and len(REGISTRY) == len(NAMES) and 'essay' in REGISTRY and 'bogus' not in REGISTRY\n"
            "print(loaded())\n"
            f"source, diags = load.read_question(Path({str(REPO / 'examples' / 'every-kind' / 'bank')!r}).glob('*/questions/q*.yaml').__next__())\n"
            "print(source.question.kind, loaded())\n"
            "model.AnyQuestion\n"
            "print(loaded())\n")
    lines = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=120, check=True).stdout.splitlines()
    modules = sorted(name.replace("-", "_") for name in NAMES)
    assert lines[0] == "[]"
    kind, _, first = lines[1].partition(" ")
    assert first == str([kind.replace("-", "_")])
    assert lines[2] == str(modules)


def test_the_registry_gives_each_kinds_record_once():
    from aistack_bank import kinds, model

    assert [kind.name for kind in kinds.REGISTRY.values()] == list(NAMES)
    assert all(kinds.REGISTRY[name] is kind for name, kind in kinds.REGISTRY.items())
    assert kinds.REGISTRY.get("bogus") is None and kinds.REGISTRY.get(3) is None
    assert model.AnyQuestion.__args__ == tuple(kind.model for kind in kinds.REGISTRY.values())
    assert model.SingleChoiceQuestion is kinds.REGISTRY["single-choice"].model and "Unit" in dir(model)


def test_a_bank_holds_and_dumps_its_questions_as_the_union_of_the_kinds_did():
    """`model.Bank` checks its questions as question models of any kind; a copy of the former
    Bank (a tuple of the union) dumps every kind's question the same."""
    from pydantic import BaseModel, ConfigDict

    from aistack_bank import model

    class FormerBank(BaseModel):
        model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)
        topic: model.Topic
        questions: tuple[model.AnyQuestion, ...]
        category: model.Category
        lang: str = "en"

    questions = tuple(checked_question(data)[0] for data in QUESTIONS)
    topic = model.Topic(id="t", category="c", title="T", summary="S", tags={"x": "y"}, questions=[q.id for q in questions])
    args = {"topic": topic, "questions": questions, "category": model.Category(id="c", title="C")}
    bank, former = model.Bank(**args), FormerBank(**args)
    assert all(a is b for a, b in zip(bank.questions, questions))
    assert bank.model_dump_json() == former.model_dump_json()
    assert bank.model_dump() == former.model_dump() and bank.model_dump(mode="json") == former.model_dump(mode="json")
    library = model.Library(categories=(args["category"],), topics=(bank,))
    assert library.model_dump_json() == model.Library(categories=(args["category"],), topics=(model.Bank(**args),)).model_dump_json()
    for not_a_question in (topic, QUESTIONS[0]):  # another model, a question's mapping
        with pytest.raises(ValidationError):
            model.Bank(**{**args, "questions": (not_a_question,)})


def test_no_list_field_of_the_models_defaults_to_a_builtin():
    """A default factory that is a built-in (``list``) makes pydantic parse the built-in's text
    signature when the model is built: about 15 ms in every command that reads a question."""
    import inspect

    from pydantic import BaseModel

    from aistack_bank import model
    from aistack_bank.kinds import REGISTRY

    models = {value for value in (getattr(model, name) for name in dir(model)) if isinstance(value, type) and issubclass(value, BaseModel)}
    models |= {kind.model for kind in REGISTRY.values()}
    models |= {m for kind in REGISTRY.values() for m in vars(inspect.getmodule(kind.model)).values() if isinstance(m, type) and issubclass(m, BaseModel)}
    factories = {(m.__name__, name): f.default_factory for m in models for name, f in m.model_fields.items() if f.default_factory is not None}
    assert factories and {key: f for key, f in factories.items() if not inspect.isfunction(f)} == {}
