"""JSON Schemas of the content files, generated from the model (`bank schema`)."""

from __future__ import annotations

import json
from pathlib import PurePosixPath

SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"


def _document(schema: dict, name: str, title: str) -> bytes:
    head = {"$schema": SCHEMA_DIALECT, "$id": f"https://aistack-bank.invalid/schema/{name}", "title": title}
    body = {k: v for k, v in schema.items() if k != "title"}
    return (json.dumps(head | body, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def _question_schema(schema: dict) -> dict:
    """The question schema with a description of the kinds and an example of each kind (its
    :attr:`~aistack_bank.kinds.Kind.example`)."""
    from ..kinds import REGISTRY

    for kind in REGISTRY.values():
        definition = schema["$defs"][kind.model.__name__]
        definition["description"] = f"`kind: {kind.name}`. {definition['description']}"
        definition["examples"] = [kind.example]
    return {"description": "One question file. `kind` selects the fields: " + ", ".join(REGISTRY) + " (see bank/README.md).", **schema}


def render_schemas() -> dict[PurePosixPath, bytes]:
    """Every committed schema, by file name."""
    from pydantic import TypeAdapter

    from ..exchange import CONTRACT_VERSION, ExportBankDocument, ExportDocument
    from ..model import Categories, Question, Topic

    return {
        PurePosixPath("categories.schema.json"): _document(TypeAdapter(Categories).json_schema(), "categories.schema.json", "aistack-bank categories file (bank/categories.yaml)"),
        PurePosixPath("topic.schema.json"): _document(TypeAdapter(Topic).json_schema(), "topic.schema.json", "aistack-bank topic file (bank/<topic-id>/topic.yaml)"),
        PurePosixPath("export.schema.json"): _document(ExportDocument.model_json_schema(), "export.schema.json", f"aistack-bank JSON export (exports/json/aistack*.json), contract version {CONTRACT_VERSION.split('.')[0]}"),
        PurePosixPath("export-bank.schema.json"): _document(ExportBankDocument.model_json_schema(), "export-bank.schema.json", f"aistack-bank JSON export of a whole bank (exports/json/bank*.json), contract version {CONTRACT_VERSION.split('.')[0]}"),
        PurePosixPath("question.schema.json"): _document(_question_schema(TypeAdapter(Question).json_schema()), "question.schema.json", "aistack-bank question file (bank/<topic-id>/questions/<id>-<slug>.yaml)"),
    }
