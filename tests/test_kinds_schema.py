"""The JSON Schema and bank/README.md describe every question kind, with examples that validate."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest
import yaml

from aistack_bank.model import KINDS
from aistack_bank.kinds import REGISTRY

KIND_EXAMPLES = {name: kind.example for name, kind in REGISTRY.items()}
from aistack_bank.rules.validate import validate_bank
from banklayout import topic_folder

REPO = Path(__file__).resolve().parents[1]
TOPIC = "id: examples\ncategory: tests\ntitle: Examples\nsummary: Examples.\ntags:\n  {tags}\nquestions: [{ids}]\n"


def validate_questions(root: Path, questions: list[dict]):
    """Validate ``questions`` as the files of a fresh bank (every tag they use in its vocabulary)."""
    bank = root / "bank"
    folder = topic_folder(bank, "examples")
    tags = sorted({tag for q in questions for tag in q["tags"]})
    (folder / "topic.yaml").write_text(TOPIC.format(tags="\n  ".join(f"{t}: the {t} tag" for t in tags), ids=", ".join(q["id"] for q in questions)), encoding="utf-8")
    for q in questions:
        (folder / "questions" / f"{q['id']}-example.yaml").write_text(yaml.safe_dump(q, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return validate_bank(bank)


def readme_examples() -> dict[str, dict]:
    """The YAML example under each `### kind` heading of bank/README.md."""
    text = (REPO / "bank" / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## Question kinds"):text.index("## Difficulty")]
    found = {}
    for part in re.split(r"^### ", section, flags=re.M)[1:]:
        heading = part.split("\n", 1)[0].strip()
        block = re.search(r"```yaml\n(.*?)```", part, re.S)
        if block:
            found[heading] = yaml.safe_load(block.group(1))
    return found


def test_the_question_schema_describes_each_kind_with_an_example():
    schema = json.loads((REPO / "schema" / "question.schema.json").read_text(encoding="utf-8"))
    assert all(kind in schema["description"] for kind in KINDS)
    validator = jsonschema.Draft202012Validator(schema)
    described = {}
    for branch in schema["oneOf"]:
        definition = schema["$defs"][branch["$ref"].rsplit("/", 1)[1]]
        (kind,) = definition["properties"]["kind"]["enum"] if "enum" in definition["properties"]["kind"] else [definition["properties"]["kind"]["const"]]
        assert definition["description"].startswith(f"`kind: {kind}`.")
        (example,) = definition["examples"]
        assert example["kind"] == kind
        validator.validate(example)
        described[kind] = example
    assert set(described) == set(KINDS)
    # An example of one kind is refused as another.
    with pytest.raises(jsonschema.ValidationError):
        validator.validate({**described["numerical"], "kind": "short-answer"})


def test_the_schema_examples_validate_clean(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert set(KIND_EXAMPLES) == set(KINDS)
    report = validate_questions(tmp_path, list(KIND_EXAMPLES.values()))
    assert [str(d) for d in report.diagnostics] == []


def test_bank_readme_has_a_section_with_a_clean_example_for_each_kind(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    examples = readme_examples()
    assert set(KINDS) - {"single-choice"} <= set(examples)
    for kind, example in examples.items():
        assert example["kind"] == kind
    report = validate_questions(tmp_path, list(examples.values()))
    assert [str(d) for d in report.diagnostics] == []
