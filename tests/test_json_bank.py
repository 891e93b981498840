"""The whole-bank JSON file of a bank of 3 categories × 4 topics (tests/topicbank.py), as
`bank export json` and `bank build` write it: valid against the published schema, naming every category in every
language, the topics in order with their category, each with the questions of its own file."""

from __future__ import annotations

import json

import jsonschema
import pytest

from aistack_bank.build import export
from aistack_bank.exchange import CONTRACT_VERSION, ExportBankDocument

from conftest import REPO
from topicbank import CATEGORIES, TOPICS, write_topic_bank

LANGS = ("en", "fr", "nl")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = write_topic_bank(tmp_path_factory.mktemp("json-bank") / "project")
    export("json", root / "bank", root / "translations", root / "json")  # what `bank export json` (and `bank build`) writes
    return root / "json"


@pytest.fixture(scope="module")
def schema():
    return json.loads((REPO / "schema" / "export-bank.schema.json").read_text(encoding="utf-8"))


def _load(path):
    return json.loads(path.read_text(encoding="utf-8"))


def test_the_whole_bank_files_validate_against_the_published_schema(built, schema):
    names = sorted(p.name for p in built.glob("bank*.json"))
    assert names == ["bank-en.json", "bank-fr.json", "bank-nl.json", "bank.json"]
    for name in names:
        document = _load(built / name)
        jsonschema.Draft202012Validator(schema).validate(document)
        assert ExportBankDocument.model_validate(document).version == CONTRACT_VERSION
        assert document["scope"] == "bank"
        assert document["languages"] == (list(LANGS) if name == "bank.json" else [name[5:7]])


def test_every_category_is_named_in_every_language(built):
    document = _load(built / "bank.json")
    assert [c["id"] for c in document["categories"]] == list(CATEGORIES)
    for category in document["categories"]:
        assert category["title"] == dict(zip(LANGS, CATEGORIES[category["id"]])), category["id"]
    for lang in LANGS:
        one = _load(built / f"bank-{lang}.json")
        assert [c["title"] for c in one["categories"]] == [{lang: titles[LANGS.index(lang)]} for titles in CATEGORIES.values()]


def test_topics_come_in_order_with_their_category_and_the_questions_of_their_own_file(built):
    document = _load(built / "bank.json")
    # the bank's order: by the order of the categories in categories.yaml, then by topic id
    in_order = [tid for category in CATEGORIES for tid in sorted(t for t, (c, _, _) in TOPICS.items() if c == category)]
    assert [t["id"] for t in document["topics"]] == in_order
    for topic in document["topics"]:
        category, titles, _ = TOPICS[topic["id"]]
        assert topic["category_id"] == category
        assert topic["title"] == dict(zip(LANGS, titles))
        own = _load(built / topic["id"] / f"{topic['id']}.json")
        assert topic["questions"] == own["questions"]
        assert {k: topic[k] for k in ("summary", "key_points", "tags")} == {k: own["topic"][k] for k in ("summary", "key_points", "tags")}
        assert own["topic"]["category_id"] == topic["category_id"] and own["version"] == CONTRACT_VERSION
