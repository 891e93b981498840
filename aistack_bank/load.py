"""Loading the bank from `bank/`: files → located plain data → typed model, errors collected."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from operator import attrgetter
from pathlib import Path
from typing import Any, NamedTuple

from .errors import Diagnostic, Location, error
from .kinds import NAMES as KINDS
from .yamlsource import YamlDocument, load_yaml

TOPIC_FILE = "topic.yaml"
QUESTIONS_DIR = "questions"
CATEGORIES_FILE = "categories.yaml"
MIGRATE_COMMAND = "bank migrate"


# pydantic error type → our code
_PYDANTIC_CODES = {
    "missing": "E201",
    "extra_forbidden": "E202",
    "string_pattern_mismatch": "E204",
    "empty_text": "E205",
}


class FileSummary(NamedTuple):
    """What the rules across files read of one question file, kept apart from its record in
    the per-file store (:mod:`aistack_bank.cache.questionfiles`) so that a run in which the
    file did not change reads these few values instead of its whole record (document, model,
    fields). A pure function of the file's path, document and model
    (:func:`aistack_bank.rules.validate.file_summary`)."""

    question_id: str | None
    """The id of its model, or None when the file has no valid model."""
    located: bool
    """Whether it has both a model and a document: the files the rules across files look at."""
    key: tuple[str, tuple[str, ...]] | None
    """The text of its key and its declared key terms (what another question could leak), or None."""
    texts: bytes
    """A digest that changes whenever its learner-facing texts or their fields change (what the
    leak rule reads of them): the same as :attr:`catalog`, which covers every translatable field
    with its text and place in the model (and more: notes, lines, the model)."""
    cue: tuple[tuple[int, ...], bool] | None
    """The positions of its right options and whether they are the strictly longest (the
    answer-cue figures), or None for a question those figures do not measure."""
    catalog: bytes
    """A digest of what a catalog's verification reads of it (its fields, model and check)."""
    model: bytes = b""
    """A digest of its model as JSON (what the exports are made of), or empty without a model."""


@dataclass
class QuestionSource:
    """One question file as read: where it is, its located data, and the model if valid."""

    path: Path
    doc: YamlDocument | None
    question: Any = None  # a model.AnyQuestion, or None
    derived: dict = field(default_factory=dict, repr=False, compare=False)
    """What rules derived from this file alone (e.g. its translatable fields), kept with it in
    the per-file store (:mod:`aistack_bank.cache.questionfiles`); a pure function of path, doc and model."""
    summary: FileSummary | None = field(default=None, repr=False, compare=False)
    """What the rules across files read of it, when the file's own rules have run (see :class:`FileSummary`)."""


@dataclass
class BankSource:
    """Everything read from one topic folder (`bank/<topic-id>/`), with positions, before cross-file rules."""

    root: Path
    topic_doc: YamlDocument | None = None
    topic: Any = None  # Topic | None
    questions: list[QuestionSource] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def source_of(self, question_id: str) -> QuestionSource | None:
        return next((s for s in self.questions if s.question is not None and s.question.id == question_id), None)

    @property
    def topic_path(self) -> Path:
        return self.root / TOPIC_FILE


@dataclass
class LibrarySource:
    """Everything read from a bank folder: its categories and every topic folder, before cross-file rules.

    ``diagnostics`` holds every read problem, those of the topics included."""

    root: Path
    categories_doc: YamlDocument | None = None
    categories: list = field(default_factory=list)  # list[CategoryEntry], the valid entries in file order
    topics: list[BankSource] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def categories_path(self) -> Path:
        return self.root / CATEGORIES_FILE

    @property
    def questions(self) -> list[QuestionSource]:
        """Every question file read, topic after topic."""
        return [qs for topic in self.topics for qs in topic.questions]

    def source_of(self, question_id: str) -> QuestionSource | None:
        for topic in self.topics:
            found = topic.source_of(question_id)
            if found is not None:
                return found
        return None

    def topic(self, topic_id: str) -> BankSource | None:
        """The first topic folder whose topic has this id."""
        return next((t for t in self.topics if t.topic is not None and t.topic.id == topic_id), None)

    def topic_of(self, question_id: str) -> BankSource | None:
        """The first topic that lists this question."""
        return next((t for t in self.topics if t.topic is not None and question_id in t.topic.questions), None)


@lru_cache(maxsize=None)
def _adapters():
    """The union of the question models on `kind`, and the topic's adapter."""
    from pydantic import TypeAdapter

    from .model import Question, Topic

    return TypeAdapter(Question), TypeAdapter(Topic)


@lru_cache(maxsize=None)
def _topic_adapter():
    from pydantic import TypeAdapter

    from .model import Topic

    return TypeAdapter(Topic)


def checked_question(data) -> tuple[Any, list[dict]]:
    """(the question model of ``data``, []) or (None, the refusals), as the union of the
    question models on `kind` (:func:`_adapters`) gives them, without building that union: a
    mapping whose `kind` names a kind is validated by that kind's model, which is what the union
    picks, and each refusal is located as the union locates it (after the kind's name, which
    :func:`model_errors` strips). Anything else goes to the union (its refusal names the kinds)."""
    ValidationError, REGISTRY = _validation()
    kind = data.get("kind") if type(data) is dict else None
    model = _KIND_MODELS.get(kind) if type(kind) is str else None
    if model is None and type(kind) is str and kind in REGISTRY:
        model = _KIND_MODELS[kind] = REGISTRY[kind].model
    try:
        if model is None:
            return _adapters()[0].validate_python(data), []
        return model.model_validate(data), []
    except ValidationError as exc:
        errors = exc.errors(include_url=False)
        return None, errors if model is None else [{**err, "loc": (kind, *err["loc"])} for err in errors]


_KIND_MODELS: dict[str, Any] = {}
"""Each kind's model by the kind's name, once :func:`checked_question` has asked the registry for
it (two calls of the registry's Python methods per file otherwise)."""


@lru_cache(maxsize=None)
def _validation():
    """pydantic's ValidationError and the kinds' registry, imported once: a ``from`` import of a
    package inside a function goes through importlib's Python code (and here through the
    packages' lazy ``__getattr__``) on every call, once per question file."""
    from pydantic import ValidationError

    from .kinds import REGISTRY

    return ValidationError, REGISTRY


@lru_cache(maxsize=None)
def _categories_adapter():
    from pydantic import TypeAdapter

    from .model import Categories

    return TypeAdapter(Categories)


@lru_cache(maxsize=None)
def _field_names() -> tuple[str, ...]:
    """Every field name of the bank's files (questions of every kind, topics, categories)."""
    from pydantic import BaseModel

    from . import model

    values = [*vars(model).values(), *(getattr(model, name) for name in dir(model))]
    names = {name for value in values if isinstance(value, type) and issubclass(value, BaseModel) and value is not BaseModel
             for name in value.model_fields}
    return tuple(sorted(names))


def _did_you_mean(name: str) -> str:
    """``; did you mean 'explanation'?`` for a misspelt field name, or nothing."""
    import difflib

    close = difflib.get_close_matches(name, _field_names(), n=1, cutoff=0.75)
    return f"; did you mean {close[0]!r}?" if close and close[0] != name else ""


def key_point_error(loc: tuple, err_type: str, data) -> tuple[str, str] | None:
    """E371 for a topic's key point without its id (a plain paragraph, as before key points had
    ids, or a mapping without `id:`), else None."""
    from .kinds import missing_item_id

    points = data.get("key_points") if isinstance(data, dict) else None
    written = points[loc[1]] if len(loc) == 2 and isinstance(loc[1], int) and isinstance(points, list) and 0 <= loc[1] < len(points) else None
    if loc[:1] == ("key_points",) and err_type == "model_type" and isinstance(written, str):  # a paragraph: a key point as written before ids
        return "E371", (f"key point {loc[1] + 1} has no `id:`; each key point is `- id: k1` with its paragraph as `text:`, so that its "
                        "translations stay on it: run `bank migrate`, which gives every key point an id and renames its catalog entries")
    return missing_item_id(loc, err_type, "key_points", "key point")


def model_errors(exc, doc: YamlDocument, *, strip_union_tag: bool, special_error=None) -> list[Diagnostic]:
    """Turn a pydantic ValidationError (or the list of its errors) into located diagnostics
    (``special_error(loc, type, data)``: the (code, message) of a refusal the file's kind words
    itself, or None)."""
    from .kinds import model_error as kind_model_error

    diags = []
    for err in exc if isinstance(exc, list) else exc.errors(include_url=False):
        loc = tuple(err["loc"])
        if strip_union_tag and loc and isinstance(loc[0], str) and not (loc[0] in (doc.data or {})):
            loc = loc[1:]
        kind = err["type"]
        code = _PYDANTIC_CODES.get(kind, "E203")
        field_name = ".".join(str(p) for p in loc) or "(file)"
        special = kind_model_error(loc, kind, doc.data) if strip_union_tag else special_error(loc, kind, doc.data) if special_error else None
        if special is not None:  # a refusal that concerns a question kind: its own message
            code, message = special
            where = doc.locate(loc[:-1] if kind == "missing" else loc, key=kind == "missing")
        elif kind == "missing":
            message = f"required field {field_name!r} is missing"
            where = doc.locate(loc[:-1])
        elif kind == "extra_forbidden":
            message = f"unknown field {field_name!r}" + _did_you_mean(str(loc[-1]) if loc else "")
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


def read_topic(root: Path, *, project: Path | None = None):
    """The topic of the topic folder ``root``: (topic or None, document or None, diagnostics)."""
    from pydantic import ValidationError

    path = root / TOPIC_FILE
    if not path.exists():
        return None, None, [error("E311", f"no {TOPIC_FILE} in {root.as_posix()}; a topic is a folder `<topic-id>/` with {TOPIC_FILE} and {QUESTIONS_DIR}/", Location.of(path))]
    doc, diags = load_yaml(path, root=project if project is not None else topic_project_of(root))
    if doc is None:
        return None, None, diags
    try:
        topic = _topic_adapter().validate_python(doc.data)
    except ValidationError as exc:
        return None, doc, diags + model_errors(exc, doc, strip_union_tag=False, special_error=key_point_error)
    return topic, doc, diags


def project_of(root: Path) -> Path:
    """The project folder of the bank at ``root`` (its parent): symbolic links must stay inside it."""
    return Path(root).absolute().parent


def topic_project_of(topic_root: Path) -> Path:
    """The project folder of the topic folder ``topic_root`` (`<project>/bank/<topic-id>/`)."""
    return Path(topic_root).absolute().parent.parent


def read_question(path: Path, *, root: Path | None = None, project: Path | None = None, read=None) -> tuple[QuestionSource, list[Diagnostic]]:
    """One question file of the topic folder ``root``: its source record (model set when valid)
    and diagnostics. ``read(raw)``, when given, is called with the bytes read of the file (see
    :func:`~aistack_bank.yamlsource.load_yaml`)."""
    if project is None and root is not None:
        project = topic_project_of(root)
    doc, diags = load_yaml(path, root=project, read=read)
    source = QuestionSource(path=path, doc=doc)
    if doc is None:
        return source, diags
    if "kind" not in doc.data:
        return source, diags + [error("E201", f"required field 'kind' is missing (one of: {', '.join(KINDS)})", doc.locate(()))]
    source.question, refusals = checked_question(doc.data)
    if refusals:
        diags = diags + model_errors(refusals, doc, strip_union_tag=True)
    return source, diags


def question_files(root: Path) -> list[Path]:
    """The question files of a bank, sorted by name (OSError if the folder cannot be listed)."""
    folder = root / QUESTIONS_DIR
    if not folder.is_dir():
        return []
    # sorted by name (the order of the paths, which compare by their parts, without comparing
    # Paths); each path made by the folder's listing, not parsed from a string (10 000 files:
    # about 45 ms -> 18 ms). A name ending in .yaml or .yml and not starting with a dot has
    # that suffix.
    return sorted((path for path in folder.iterdir() if path.name.endswith((".yaml", ".yml")) and not path.name.startswith(".")),
                  key=_name)


_name = attrgetter("name")


def read_bank(root: Path, *, files: list[Path] | None = None, project: Path | None = None, read_files=None) -> BankSource:
    """Read one topic folder: its topic and every question file; collect every diagnostic, raise nothing.

    ``read_files(paths, root, topic, project)``, when given, reads the question files instead of
    :func:`read_question` (same results, in the same order: a cache or a process pool)."""
    source, files = _start_bank(root, files, project)
    results = read_files(files, root, source.topic, project) if read_files is not None else (read_question(path, root=root, project=project) for path in files)
    return _finish_bank(source, results)


def _start_bank(root: Path, files: list[Path] | None, project: Path | None, topic_reader=None) -> tuple[BankSource, list[Path]]:
    """A topic folder's topic read (by ``topic_reader``, :func:`read_topic` when None), and the question files to read."""
    source = BankSource(root=root)
    source.topic, source.topic_doc, diags = (topic_reader or read_topic)(root, project=project)
    source.diagnostics.extend(diags)
    if files is None:
        try:
            files = question_files(root)
        except OSError as exc:
            source.diagnostics.append(error("E101", f"cannot list the question files: {exc.strerror or exc}", Location.of(root / QUESTIONS_DIR)))
            files = []
    return source, files


def _finish_bank(source: BankSource, results) -> BankSource:
    for qsource, diags in results:
        source.questions.append(qsource)
        source.diagnostics.extend(diags)
    return source


RESERVED_TOPIC_IDS = frozenset({QUESTIONS_DIR})
"""Ids no topic may take: a folder `bank/questions/` is the former single-topic layout's."""


def reserved_topic_id(topic_id: str) -> str | None:
    """Why ``topic_id`` cannot name a topic although it is a well-formed slug, or None."""
    if topic_id in RESERVED_TOPIC_IDS:
        return (f"topic id {topic_id!r} is reserved: a folder bank/{topic_id}/ is read as the questions folder of the "
                "former single-topic layout; choose another id")
    return None


def read_question_bytes(raw: bytes, path: Path) -> tuple[QuestionSource, list[Diagnostic]]:
    """The checks of :func:`read_question` on the bytes of a file about to be written at ``path``."""
    from .yamlsource import check_source, parse_yaml

    text, diags = check_source(raw, path)
    source = QuestionSource(path=path, doc=None)
    if text is None:
        return source, diags
    doc, more = parse_yaml(text, path)
    diags = diags + more
    source.doc = doc
    if doc is None:
        return source, diags
    source.question, refusals = checked_question(doc.data)
    if refusals:
        diags = diags + model_errors(refusals, doc, strip_union_tag=True)
    return source, diags


def question_from_data(data: dict, path: Path):
    """(the question, []) built from plain ``data`` by the model `bank validate` builds a
    question file at ``path`` with, or (None, its refusals as that file would get them)."""
    question, refusals = checked_question(data)
    return (question, []) if not refusals else (None, model_errors(refusals, YamlDocument(path, data), strip_union_tag=True))


def is_single_topic_layout(root: Path) -> bool:
    """Whether ``root`` holds a bank in the former layout (`topic.yaml` and `questions/` directly in it)."""
    return (root / TOPIC_FILE).exists() or (root / QUESTIONS_DIR).is_dir()


def single_topic_layout_error(root: Path) -> Diagnostic:
    where = root / TOPIC_FILE if (root / TOPIC_FILE).exists() else root / QUESTIONS_DIR
    return error(
        "E312",
        f"{root.as_posix()} has the single-topic layout ({TOPIC_FILE} and {QUESTIONS_DIR}/ directly in it); "
        f"banks now hold one folder per topic (`<topic-id>/{TOPIC_FILE}`, `<topic-id>/{QUESTIONS_DIR}/`) and {CATEGORIES_FILE}: "
        f"run `{MIGRATE_COMMAND}` to move it",
        Location.of(where),
    )


def topic_folders(root: Path) -> list[Path]:
    """The topic folders of a bank, sorted by name: sub-folders holding `topic.yaml` or `questions/`.

    Other sub-folders (and hidden ones) are not topics. OSError if ``root`` cannot be listed."""
    found = []
    for path in sorted(root.iterdir()):
        if path.name.startswith((".", "_")) or not path.is_dir():
            continue
        if (path / TOPIC_FILE).exists() or (path / QUESTIONS_DIR).is_dir():
            found.append(path)
    return found


class CategoryEntry(NamedTuple):
    """One valid entry of `categories.yaml`, as read: what the rules and the catalogs read of a
    category, without its model (:func:`category_models` builds the models, where a library is
    built of them)."""

    id: str
    title: str


_CATEGORY_ID = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
"""The model's pattern of a category id (``SLUG``), matched against the whole id."""


def plain_categories(data) -> list[CategoryEntry] | None:
    """The entries of a `categories.yaml` document's ``data`` when the model of the file
    (:class:`~aistack_bank.model.Categories`) takes it as it is, without pydantic: a mapping with
    `categories:` alone, a non-empty list of mappings of an `id:` (a slug) and a non-blank
    `title:`, each a string. None for anything else, which the model then checks (and refuses
    or takes: this answers for the plain case only)."""
    if type(data) is not dict or len(data) != 1 or type(items := data.get("categories")) is not list or not items:
        return None
    entries = []
    for item in items:
        if type(item) is not dict or len(item) != 2 or type(cid := item.get("id")) is not str or type(title := item.get("title")) is not str:
            return None
        if not _CATEGORY_ID.fullmatch(cid) or not title.strip():
            return None
        entries.append(CategoryEntry(cid, title))
    return entries


def category_models(categories) -> list:
    """The :class:`~aistack_bank.model.Category` of each category read (:class:`CategoryEntry`)."""
    from .model import Category

    return [c if isinstance(c, Category) else Category(id=c.id, title=c.title) for c in categories]


def read_categories(root: Path, *, project: Path | None = None):
    """`categories.yaml` of the bank at ``root``: (categories, document or None, diagnostics),
    each category a :class:`CategoryEntry`.

    Entries that are not valid categories are reported and left out of the list. A file the
    model takes as it is (:func:`plain_categories`) is read without pydantic."""
    path = root / CATEGORIES_FILE
    if not path.exists():
        return [], None, [error("E319", f"no {CATEGORIES_FILE} in {root.as_posix()}; it lists the categories of the topics (`categories:` then `- id: computer-systems` / `  title: Computer systems`)", Location.of(path))]
    doc, diags = load_yaml(path, root=project if project is not None else project_of(root))
    if doc is None:
        return [], None, diags
    plain = plain_categories(doc.data)
    if plain is not None:
        return plain, doc, diags
    from pydantic import ValidationError

    try:
        return [CategoryEntry(c.id, c.title) for c in _categories_adapter().validate_python(doc.data).categories], doc, diags
    except ValidationError as exc:
        diags = diags + model_errors(exc, doc, strip_union_tag=False)
    from .model import Category

    kept = []
    items = doc.data.get("categories") if isinstance(doc.data, dict) else None
    if isinstance(items, list):
        for item in items:
            try:
                category = Category.model_validate(item)
            except ValidationError:
                continue
            kept.append(CategoryEntry(category.id, category.title))
    return kept, doc, diags


def is_topic_folder(path: Path) -> bool:
    """Whether ``path`` is one topic folder of a bank (`bank/<topic-id>/`, beside `categories.yaml`)."""
    path = Path(path)
    return (path / TOPIC_FILE).is_file() and (path.parent / CATEGORIES_FILE).is_file() and not (path / CATEGORIES_FILE).exists()


def read_library(root: Path, *, topics: list[Path] | None = None, read_files=None, read_topics=None, topic_reader=None) -> LibrarySource:
    """Read a whole bank: `categories.yaml` and every topic folder (or only ``topics``); raise nothing.

    ``read_files`` reads each topic's question files (see :func:`read_bank`); or
    ``read_topics([(paths, root, topic, project), …])`` those of every topic at once, a list of
    results per topic (:meth:`aistack_bank.cache.questionfiles.QuestionFiles.read_topics`),
    and then ``topic_reader``, when given, reads each topic file instead of :func:`read_topic`
    (the same results: :meth:`aistack_bank.cache.questionfiles.QuestionFiles.read_topic`).

    The former single-topic layout is reported (E312) and nothing else is read."""
    root = Path(root)
    source = LibrarySource(root=root)
    if not root.is_dir():
        source.diagnostics.append(error("E319", f"no bank folder {root.as_posix()}: a bank is a folder with {CATEGORIES_FILE} and a folder per topic (`bank init` starts one)", Location.of(root)))
        return source
    if is_single_topic_layout(root):
        source.diagnostics.append(single_topic_layout_error(root))
        return source
    project = project_of(root)
    source.categories, source.categories_doc, diags = read_categories(root, project=project)
    source.diagnostics.extend(diags)
    if topics is None:
        try:
            topics = topic_folders(root)
        except OSError as exc:
            source.diagnostics.append(error("E101", f"cannot list the topic folders: {exc.strerror or exc}", Location.of(root)))
            topics = []
    if read_topics is not None:  # every topic's files read at once (in one process pool when many)
        started = _started_banks(topics, project, topic_reader)
        found = read_topics([(files, bank.root, bank.topic, project) for bank, files in started])
        banks = [_finish_bank(bank, results) for (bank, _), results in zip(started, found)]
    else:
        banks = [read_bank(folder, project=project, read_files=read_files) for folder in topics]
    for topic in banks:
        source.topics.append(topic)
        source.diagnostics.extend(topic.diagnostics)
    return source


TOPIC_POOL_MIN = 500
"""Least number of topics whose topic files :func:`read_library` (with ``read_topics``) reads in
worker processes, before their question files are read: at 1 000 topics about 2 s of CPU in this
process (parsing and storing each topic file, listing its questions) against 1 s to take them
back pickled, 2.2 s in the workers; at 250 topics 0.55 s against 0.27 s and 0.68 s (about as
much wall time on two cores, for more CPU)."""


def _started_banks(topics: list[Path], project: Path | None, topic_reader) -> list[tuple[BankSource, list[Path]]]:
    """:func:`_start_bank` of each topic folder, in order; in worker processes for many topics
    (:func:`~aistack_bank.parallel.run_each`: the same results, pickled back)."""
    from .parallel import jobs, run_each

    if len(topics) < TOPIC_POOL_MIN or jobs() < 2:
        return [_start_bank(folder, None, project, topic_reader) for folder in topics]
    size = -(-len(topics) // (jobs() * 8))  # (about eight tasks per process)
    chunks = [topics[i:i + size] for i in range(0, len(topics), size)]
    tasks = [lambda chunk=chunk: [_start_bank(folder, None, project, topic_reader) for folder in chunk] for chunk in chunks]
    started: list[tuple[BankSource, list[Path]]] = []
    for found in run_each(tasks, work=len(topics), min_work=TOPIC_POOL_MIN):
        started += found
    return started


def ordered_topics(source: LibrarySource) -> list[BankSource]:
    """The topics read (a topic folder whose topic file has errors is left out) in bank order:
    by the order of their categories in `categories.yaml`, then by topic id."""
    order = {}
    for index, category in enumerate(source.categories):
        order.setdefault(category.id, index)
    return sorted((t for t in source.topics if t.topic is not None), key=lambda t: (order.get(t.topic.category, len(order)), t.topic.id, t.root.name))


def english_library(source: LibrarySource):
    """The :class:`~aistack_bank.model.Library` of a source without errors, in the source language.

    Topics come in the order of :func:`ordered_topics`."""
    from .model import Bank, Library

    models = category_models(source.categories)
    categories = {category.id: category for category in models}
    banks = []
    for topic in ordered_topics(source):
        by_id = {qs.question.id: qs.question for qs in topic.questions if qs.question is not None}
        banks.append(Bank(topic=topic.topic, category=categories[topic.topic.category], questions=tuple(by_id[qid] for qid in topic.topic.questions), lang="en"))
    return Library(categories=tuple(models), topics=tuple(banks), lang="en")
