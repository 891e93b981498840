"""JSON Schemas of the content files, generated from the model (`bank schema`)."""

from __future__ import annotations

import json
from pathlib import PurePosixPath

SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"


def _document(schema: dict, name: str, title: str) -> bytes:
    head = {"$schema": SCHEMA_DIALECT, "$id": f"https://aistack-bank.invalid/schema/{name}", "title": title}
    body = {k: v for k, v in schema.items() if k != "title"}
    return (json.dumps(head | body, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


_COMMON = {"tags": ["memory"], "difficulty": 2}

KIND_EXAMPLES: dict[str, dict] = {
    "single-choice": {
        "id": "q001", "kind": "single-choice", "stem": "How many bytes does one FP16 weight take?",
        "options": [
            {"id": "a", "text": "2 bytes", "feedback": "Right: 16 bits are 2 bytes."},
            {"id": "b", "text": "4 bytes", "feedback": "That is FP32."},
            {"id": "c", "text": "1 byte", "feedback": "That is INT8."},
        ],
        "correct": "a", "explanation": "FP16 stores each value in 16 bits, which is 2 bytes.", **_COMMON,
    },
    "multiple-response": {
        "id": "q002", "kind": "multiple-response", "stem": "Which number formats use 16 bits per value?",
        "options": [
            {"id": "a", "text": "FP16"}, {"id": "b", "text": "BF16"},
            {"id": "c", "text": "FP32", "feedback": "FP32 uses 32 bits."}, {"id": "d", "text": "INT8", "feedback": "INT8 uses 8 bits."},
        ],
        "correct": ["a", "b"], "scoring": "partial", "explanation": "FP16 and BF16 both use 16 bits; they split them differently.", **_COMMON,
    },
    "true-false": {
        "id": "q003", "kind": "true-false", "stem": "BF16 keeps the exponent range of FP32.", "answer": True,
        "feedback_true": "Right: both have 8 exponent bits.", "feedback_false": "BF16 keeps all 8 exponent bits of FP32; it drops mantissa bits.",
        "explanation": "BF16 is FP32 with the mantissa cut to 7 bits.", **_COMMON,
    },
    "numerical": {
        "id": "q004", "kind": "numerical", "stem": "How many gigabytes do the FP16 weights of a 7-billion-parameter model take?",
        "answer": 14, "tolerance": 0.5, "units": [{"name": "GB", "multiplier": 1}, {"name": "MB", "multiplier": 0.001}],
        "near_misses": [{"value": 28, "tolerance": 1, "credit": 0, "feedback": "That is FP32, four bytes per weight."}],
        "check": {"script": 'params = 7 * billion\nanswer(params * 2, unit="GB")\n'},
        "explanation": "Each FP16 weight takes 2 bytes.", **_COMMON,
    },
    "short-answer": {
        "id": "q005", "kind": "short-answer", "stem": "Which open format exchanges trained models between frameworks?",
        "answers": [{"text": "ONNX", "feedback": "Right."}, {"text": "Open Neural Network Exchange"}], "case_sensitive": False,
        "explanation": "ONNX is an open format read by most inference runtimes.", **_COMMON,
    },
    "matching": {
        "id": "q006", "kind": "matching", "stem": "Match each format with the bytes it takes per value.",
        "pairs": [{"id": "a", "prompt": "FP16", "answer": "2 bytes"}, {"id": "b", "prompt": "FP32", "answer": "4 bytes"}, {"id": "c", "prompt": "INT8", "answer": "1 byte"}],
        "distractors": [{"id": "d", "text": "3 bytes"}],
        "explanation": "The number in the name counts bits; a byte has 8.", **_COMMON,
    },
}
"""A complete question of each kind: the `examples` of its schema, which editors offer."""

_MODELS = {
    "single-choice": "SingleChoiceQuestion", "multiple-response": "MultipleResponseQuestion", "true-false": "TrueFalseQuestion",
    "numerical": "NumericalQuestion", "short-answer": "ShortAnswerQuestion", "matching": "MatchingQuestion",
}


def _question_schema(schema: dict) -> dict:
    """The question schema with a description of the kinds and an example of each kind."""
    for kind, model in _MODELS.items():
        definition = schema["$defs"][model]
        definition["description"] = f"`kind: {kind}`. {definition['description']}"
        definition["examples"] = [KIND_EXAMPLES[kind]]
    return {"description": "One question file. `kind` selects the fields: " + ", ".join(_MODELS) + " (see bank/README.md).", **schema}


def render_schemas() -> dict[PurePosixPath, bytes]:
    """Every committed schema, by file name."""
    from pydantic import TypeAdapter

    from .exchange import CONTRACT_VERSION, ExportBankDocument, ExportDocument
    from .model import Categories, Question, Topic

    return {
        PurePosixPath("categories.schema.json"): _document(TypeAdapter(Categories).json_schema(), "categories.schema.json", "aistack-bank categories file (bank/categories.yaml)"),
        PurePosixPath("topic.schema.json"): _document(TypeAdapter(Topic).json_schema(), "topic.schema.json", "aistack-bank topic file (bank/<topic-id>/topic.yaml)"),
        PurePosixPath("export.schema.json"): _document(ExportDocument.model_json_schema(), "export.schema.json", f"aistack-bank JSON export (exports/json/aistack*.json), contract version {CONTRACT_VERSION.split('.')[0]}"),
        PurePosixPath("export-bank.schema.json"): _document(ExportBankDocument.model_json_schema(), "export-bank.schema.json", f"aistack-bank JSON export of a whole bank (exports/json/bank*.json), contract version {CONTRACT_VERSION.split('.')[0]}"),
        PurePosixPath("question.schema.json"): _document(_question_schema(TypeAdapter(Question).json_schema()), "question.schema.json", "aistack-bank question file (bank/<topic-id>/questions/<id>-<slug>.yaml)"),
    }
