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


def described(models) -> None:
    """Give the fields of ``models`` (model classes), and of the models they are made of, the
    descriptions their attribute docstrings hold, as pydantic's ``use_attribute_docstrings``
    would, and build them again with these descriptions (their base classes and the models of
    their fields first).

    The models are made without reading their docstrings: that reads the source of every model
    class (tokenizes it and looks up its module), about a third of importing the model, which
    every command that reads the bank pays; only the schemas show the descriptions."""
    from pydantic import BaseModel
    from pydantic._internal._docs_extraction import extract_docstrings_from_cls

    done: set[type] = set()

    def nested(annotation) -> list[type]:
        from typing import get_args

        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            return [annotation]
        return [model for arg in get_args(annotation) for model in nested(arg)]

    def visit(cls: type) -> None:
        if cls in done or not (isinstance(cls, type) and issubclass(cls, BaseModel)) or cls is BaseModel:
            return
        done.add(cls)
        for base in cls.__bases__:
            visit(base)
        for info in cls.model_fields.values():
            for model in nested(info.annotation):
                visit(model)
        docs = extract_docstrings_from_cls(cls, use_inspect=True)
        own = cls.__dict__.get("__annotations__", {})
        for name, info in cls.model_fields.items():
            if info.description is not None:
                continue
            if name not in own:  # inherited: the description its base now has (pydantic copied the base's field)
                info.description = next((base.model_fields[name].description for base in cls.__mro__[1:]
                                         if isinstance(base, type) and issubclass(base, BaseModel) and name in getattr(base, "model_fields", {})), None)
            if info.description is None and name in docs:
                info.description = docs[name]
        cls.model_rebuild(force=True)

    for model in models:
        for cls in nested(model):
            visit(cls)


def render_schemas() -> dict[PurePosixPath, bytes]:
    """Every committed schema, by file name."""
    from pydantic import TypeAdapter

    from ..exchange import CONTRACT_VERSION, ExportBankDocument, ExportDocument
    from ..model import Categories, Question, Topic

    described([Categories, Topic, ExportDocument, ExportBankDocument, Question])

    return {
        PurePosixPath("categories.schema.json"): _document(TypeAdapter(Categories).json_schema(), "categories.schema.json", "aistack-bank categories file (bank/categories.yaml)"),
        PurePosixPath("topic.schema.json"): _document(TypeAdapter(Topic).json_schema(), "topic.schema.json", "aistack-bank topic file (bank/<topic-id>/topic.yaml)"),
        PurePosixPath("export.schema.json"): _document(ExportDocument.model_json_schema(), "export.schema.json", f"aistack-bank JSON export (exports/json/aistack*.json), contract version {CONTRACT_VERSION.split('.')[0]}"),
        PurePosixPath("export-bank.schema.json"): _document(ExportBankDocument.model_json_schema(), "export-bank.schema.json", f"aistack-bank JSON export of a whole bank (exports/json/bank*.json), contract version {CONTRACT_VERSION.split('.')[0]}"),
        PurePosixPath("question.schema.json"): _document(_question_schema(TypeAdapter(Question).json_schema()), "question.schema.json", "aistack-bank question file (bank/<topic-id>/questions/<id>-<slug>.yaml)"),
    }
