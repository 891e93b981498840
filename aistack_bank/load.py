"""Loading the bank from `bank/`: files → located plain data → typed model, errors collected."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from .errors import Diagnostic, Location, error
from .yamlsource import YamlDocument, load_yaml

TOPIC_FILE = "topic.yaml"
QUESTIONS_DIR = "questions"

KINDS = ("single-choice", "multiple-response", "true-false", "numerical", "short-answer", "matching")
"""The question kinds (as :data:`aistack_bank.model.KINDS`, which imports pydantic)."""

# pydantic error type → our code
_PYDANTIC_CODES = {
    "missing": "E201",
    "extra_forbidden": "E202",
    "string_pattern_mismatch": "E204",
    "empty_text": "E205",
}


@dataclass
class QuestionSource:
    """One question file as read: where it is, its located data, and the model if valid."""

    path: Path
    doc: YamlDocument | None
    question: Any = None  # a model.AnyQuestion, or None


@dataclass
class BankSource:
    """Everything read from a bank folder, with positions, before cross-file rules."""

    root: Path
    topic_doc: YamlDocument | None = None
    topic: Any = None  # Topic | None
    questions: list[QuestionSource] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def source_of(self, question_id: str) -> QuestionSource | None:
        return next((s for s in self.questions if s.question is not None and s.question.id == question_id), None)


@lru_cache(maxsize=None)
def _adapters():
    from pydantic import TypeAdapter

    from .model import Question, Topic

    return TypeAdapter(Question), TypeAdapter(Topic)


def model_errors(exc, doc: YamlDocument, *, strip_union_tag: bool) -> list[Diagnostic]:
    """Turn a pydantic ValidationError into located diagnostics."""
    from .kindmessages import model_error as kind_model_error

    diags = []
    for err in exc.errors(include_url=False):
        loc = tuple(err["loc"])
        if strip_union_tag and loc and isinstance(loc[0], str) and not (loc[0] in (doc.data or {})):
            loc = loc[1:]
        kind = err["type"]
        code = _PYDANTIC_CODES.get(kind, "E203")
        field_name = ".".join(str(p) for p in loc) or "(file)"
        special = kind_model_error(loc, kind, doc.data) if strip_union_tag else None
        if special is not None:  # a refusal that concerns a question kind: its own message
            code, message = special
            where = doc.locate(loc[:-1] if kind == "missing" else loc, key=kind == "missing")
        elif kind == "missing":
            message = f"required field {field_name!r} is missing"
            where = doc.locate(loc[:-1])
        elif kind == "extra_forbidden":
            message = f"unknown field {field_name!r}"
            where = doc.locate(loc, key=True)
        elif kind == "union_tag_invalid" or kind == "union_tag_not_found":
            message = f"'kind' must be one of: {', '.join(KINDS)} (got {err.get('input', {}).get('kind')!r})" if isinstance(err.get("input"), dict) else err["msg"]
            where = doc.locate(("kind",))
        else:
            shown = err.get("input")
            got = f" (got {shown!r})" if isinstance(shown, (str, int, float, bool)) and len(repr(shown)) < 60 else ""
            message = f"{field_name}: {err['msg'][0].lower() + err['msg'][1:]}{got}"
            where = doc.locate(loc)
        diags.append(error(code, message, where))
    return diags


def read_topic(root: Path):
    """The topic of the bank at ``root``: (topic or None, document or None, diagnostics)."""
    from pydantic import ValidationError

    path = root / TOPIC_FILE
    if not path.exists():
        return None, None, [error("E311", f"no {TOPIC_FILE} in {root.as_posix()}; a bank is a folder with {TOPIC_FILE} and {QUESTIONS_DIR}/", Location.of(path))]
    doc, diags = load_yaml(path, root=project_of(root))
    if doc is None:
        return None, None, diags
    try:
        topic = _adapters()[1].validate_python(doc.data)
    except ValidationError as exc:
        return None, doc, diags + model_errors(exc, doc, strip_union_tag=False)
    return topic, doc, diags


def project_of(root: Path) -> Path:
    """The project folder of the bank at ``root`` (its parent): symbolic links must stay inside it."""
    return Path(root).absolute().parent


def read_question(path: Path, *, root: Path | None = None) -> tuple[QuestionSource, list[Diagnostic]]:
    """One question file: its source record (model set when valid) and diagnostics."""
    from pydantic import ValidationError

    doc, diags = load_yaml(path, root=project_of(root) if root is not None else None)
    source = QuestionSource(path=path, doc=doc)
    if doc is None:
        return source, diags
    if "kind" not in doc.data:
        return source, diags + [error("E201", f"required field 'kind' is missing (one of: {', '.join(KINDS)})", doc.locate(()))]
    try:
        source.question = _adapters()[0].validate_python(doc.data)
    except ValidationError as exc:
        diags = diags + model_errors(exc, doc, strip_union_tag=True)
    return source, diags


def question_files(root: Path) -> list[Path]:
    """The question files of a bank, sorted by name (OSError if the folder cannot be listed)."""
    folder = root / QUESTIONS_DIR
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.suffix in (".yaml", ".yml") and not p.name.startswith("."))


def read_bank(root: Path, *, files: list[Path] | None = None) -> BankSource:
    """Read the topic and every question file; collect every diagnostic, raise nothing."""
    source = BankSource(root=root)
    source.topic, source.topic_doc, diags = read_topic(root)
    source.diagnostics.extend(diags)
    if files is None:
        try:
            files = question_files(root)
        except OSError as exc:
            source.diagnostics.append(error("E101", f"cannot list the question files: {exc.strerror or exc}", Location.of(root / QUESTIONS_DIR)))
            files = []
    for path in files:
        qsource, diags = read_question(path, root=root)
        source.questions.append(qsource)
        source.diagnostics.extend(diags)
    return source
