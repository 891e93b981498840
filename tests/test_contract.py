"""The JSON export's contract version: one number, bumped as docs/json-contract.md says."""

from __future__ import annotations

import functools
import json
from pathlib import PurePosixPath

from aistack_bank.exchange import CONTRACT_VERSION
from aistack_bank.project.schemas import render_schemas

from conftest import REPO

SNAPSHOTS = REPO / "tests" / "data" / "json-contract"


@functools.cache
def _rendered() -> dict:
    """The schemas as `bank schema` writes them, rendered once per test process (each test reads
    its own copy of the one it needs; nothing changes the models while the tests run)."""
    return render_schemas()


def _schema() -> dict:
    return json.loads(_rendered()[PurePosixPath("export.schema.json")])


def _fields(schema: dict) -> dict[str, object]:
    """Every property path of the contract with its JSON type(s) and whether it is required."""
    defs = schema.get("$defs", {})
    out: dict[str, object] = {}

    def walk(node: dict, path: str, required: bool) -> None:
        if "$ref" in node:
            node = defs[node["$ref"].split("/")[-1]]
        if "anyOf" in node:
            for i, branch in enumerate(node["anyOf"]):
                walk(branch, f"{path}|{i}", required)
            return
        if "oneOf" in node:  # a tagged union (the question kinds): each branch named by its tag
            tag = node.get("discriminator", {}).get("propertyName")
            for i, branch in enumerate(node["oneOf"]):
                resolved = defs[branch["$ref"].split("/")[-1]] if "$ref" in branch else branch
                name = resolved.get("properties", {}).get(tag, {}).get("const", i) if tag else i
                walk(branch, f"{path}<{name}>", required)
            return
        out[path] = (node.get("type"), node.get("const"), tuple(node.get("enum", ())), node.get("pattern"), required)
        for name, child in node.get("properties", {}).items():
            walk(child, f"{path}.{name}", name in node.get("required", []))
        if isinstance(node.get("items"), dict):
            walk(node["items"], f"{path}[]", True)
        if isinstance(node.get("additionalProperties"), dict):
            walk(node["additionalProperties"], f"{path}{{}}", True)

    walk(schema, "$", True)
    return out


def _version(text: str) -> tuple[int, int]:
    major, minor = text.split(".")
    return int(major), int(minor)


def test_the_schema_the_exporter_and_the_docs_state_one_version():
    schema = _schema()
    assert schema["properties"]["version"]["default"] == CONTRACT_VERSION
    assert schema["title"].endswith(f"contract version {_version(CONTRACT_VERSION)[0]}")
    committed = json.loads((REPO / "schema" / "export.schema.json").read_text(encoding="utf-8"))
    assert committed["properties"]["version"]["default"] == CONTRACT_VERSION
    for path in (REPO / "exports" / "json").glob("*.json"):
        assert json.loads(path.read_text(encoding="utf-8"))["version"] == CONTRACT_VERSION, path
    assert f"The current version is **{CONTRACT_VERSION}**" in (REPO / "docs" / "json-contract.md").read_text(encoding="utf-8")


def test_a_changed_contract_has_a_new_version():
    """The schema of the current version is kept; any change to it needs a new version number."""
    snapshot = SNAPSHOTS / f"{CONTRACT_VERSION}.schema.json"
    assert snapshot.exists(), f"record the contract of version {CONTRACT_VERSION}: copy schema/export.schema.json to {snapshot.relative_to(REPO)}"
    assert json.loads(snapshot.read_text(encoding="utf-8")) == _schema(), (
        "the JSON contract changed: raise CONTRACT_VERSION in aistack_bank/exchange.py (major for a removed, renamed "
        "or retyped field, minor for an added one), then record the new schema in tests/data/json-contract/")


def test_a_minor_version_only_adds_fields():
    current = _version(CONTRACT_VERSION)
    fields = _fields(_schema())
    for snapshot in sorted(SNAPSHOTS.glob("*.schema.json")):
        old = _version(snapshot.name.removesuffix(".schema.json"))
        assert old <= current, snapshot
        if old[0] != current[0]:
            continue
        for path, shape in _fields(json.loads(snapshot.read_text(encoding="utf-8"))).items():
            assert fields.get(path) == shape, f"{path} was removed or changed since {snapshot.name}: that needs a new major version"


def test_the_field_walk_sees_a_rename_and_a_retype():
    """The check above fails for the changes the policy calls incompatible."""
    schema = _schema()
    before = _fields(schema)
    renamed = json.loads(json.dumps(schema))
    renamed["properties"]["langs"] = renamed["properties"].pop("languages")
    assert set(before) - set(_fields(renamed)) == {"$.languages", "$.languages[]"}
    retyped = json.loads(json.dumps(schema))
    retyped["$defs"]["ExportedSingleChoice"]["properties"]["difficulty"]["type"] = "string"
    path = "$.questions[]<single-choice>.difficulty"
    assert _fields(retyped)[path] != before[path]


def test_the_field_walk_sees_every_kind_and_a_kind_removed():
    """Each question kind is a branch of the union: a reader can rely on its fields, and dropping a kind is incompatible."""
    from aistack_bank.model import KINDS

    schema = _schema()
    fields = _fields(schema)
    for kind in KINDS:
        assert f"$.questions[]<{kind}>.kind" in fields, kind
    assert fields["$.questions[]<numerical>.units[].name{}"][0] == "string"
    assert fields["$.questions[]<short-answer>.answers{}[].text"][0] == "string"
    assert fields["$.questions[]<multiple-response>.scoring"][2] == ("partial", "all-or-nothing")
    assert fields["$.questions[]<single-choice>.explanation|0"][4] is False  # optional since 2.0
    fewer = json.loads(json.dumps(schema))
    union = fewer["properties"]["questions"]["items"]
    union["oneOf"] = [b for b in union["oneOf"] if not b["$ref"].endswith("/ExportedMatching")]
    assert {p for p in fields if p.startswith("$.questions[]<matching>")} == set(fields) - set(_fields(fewer))


BANK_SNAPSHOTS = SNAPSHOTS / "bank"


def _bank_schema() -> dict:
    return json.loads(_rendered()[PurePosixPath("export-bank.schema.json")])


def test_the_whole_bank_document_states_the_same_version_and_is_recorded():
    """The whole-bank file (since 2.2) follows the same version, kept under tests/data/json-contract/bank/."""
    schema = _bank_schema()
    assert schema["properties"]["version"]["default"] == CONTRACT_VERSION
    assert schema["title"].endswith(f"contract version {_version(CONTRACT_VERSION)[0]}")
    committed = json.loads((REPO / "schema" / "export-bank.schema.json").read_text(encoding="utf-8"))
    assert committed == schema
    snapshot = BANK_SNAPSHOTS / f"{CONTRACT_VERSION}.schema.json"
    assert snapshot.exists(), f"record the whole-bank contract of version {CONTRACT_VERSION}: copy schema/export-bank.schema.json to {snapshot.relative_to(REPO)}"
    assert json.loads(snapshot.read_text(encoding="utf-8")) == schema, "the whole-bank JSON contract changed: raise CONTRACT_VERSION"
    current, fields = _version(CONTRACT_VERSION), _fields(schema)
    for older in sorted(BANK_SNAPSHOTS.glob("*.schema.json")):
        old = _version(older.name.removesuffix(".schema.json"))
        assert old <= current, older
        if old[0] == current[0]:
            for path, shape in _fields(json.loads(older.read_text(encoding="utf-8"))).items():
                assert fields.get(path) == shape, f"{path} was removed or changed since bank/{older.name}: that needs a new major version"


def test_a_topic_of_the_whole_bank_holds_the_records_of_a_topic_file():
    """Each topic's questions in the whole-bank file are the same union of kinds as in a topic's own file."""
    fields = _fields(_bank_schema())
    single = _fields(_schema())
    for path, shape in single.items():
        if path.startswith("$.questions[]"):
            assert fields.get("$.topics[]" + path[1:]) == shape, path
    assert fields["$.categories[].title{}"][0] == "string" and fields["$.topics[].category_id"][4] is True
