"""Working with the topics of a bank: migrating a single-topic bank, creating and renaming topics.

Every change here is planned completely before anything is written, and done as one
transaction: moves are plain renames (git sees the same files at new paths), files that change
are rewritten atomically through ruamel.yaml's round-trip mode (comments and layout kept), and
any failure puts back every file as it was. Catalog entries follow their texts: the msgctxt of
each moved topic text is renamed in the template and in every catalog, keeping its translation,
flags and comments, so a migration or a rename leaves nothing fuzzy, untranslated or obsolete.
"""

from __future__ import annotations

import io
import os
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable

from ..errors import BankError, Diagnostic, DiagnosticsError, Location, Severity, UsageError, display_path
from ..load import CATEGORIES_FILE, QUESTIONS_DIR, TOPIC_FILE, question_files, read_library, reserved_topic_id, topic_folders
from ..kinds import item_id_for
from ..model import SLUG
from .authoring import round_trip_yaml

SCHEMA_LINE = re.compile(r"^(# yaml-language-server: \$schema=)((?:\.\./)*)(schema/[a-z]+\.schema\.json)\s*$")
CATEGORIES_HEADER = (
    "# yaml-language-server: $schema={up}schema/categories.schema.json\n"
    "# The categories of the topics, in the order learners see them. A topic names its category\n"
    "# by id (`category:` in <topic-id>/topic.yaml); the titles are translated like other texts.\n"
)


def refuse(message: str, where: Path | Location) -> BankError:
    """The located E319 error of a refused migration or topic operation."""
    location = where if isinstance(where, Location) else Location.of(where)
    return BankError(message, location, code="E319")


class Transaction:
    """File moves and writes that can all be undone, in reverse order, if a later step fails."""

    def __init__(self) -> None:
        self._undo: list[Callable[[], None]] = []
        self._done: list[tuple[str, Path, Path | bytes | None, Path | bytes]] = []
        """Each move (``("move", src, src, dst)``) and write (``("write", path, old bytes or None, new bytes)``), in order."""

    def mkdir(self, path: Path) -> None:
        path.mkdir()
        self._undo.append(lambda: path.rmdir())

    def move(self, src: Path, dst: Path) -> None:
        if dst.exists():
            raise refuse(f"{dst.as_posix()} already exists; nothing was moved", dst)
        os.rename(src, dst)
        self._undo.append(lambda: os.rename(dst, src))
        self._done.append(("move", src, src, dst))

    def write(self, path: Path, data: bytes) -> None:
        from ..writing import write_atomic

        old = path.read_bytes() if path.exists() else None
        write_atomic(path, data)
        self._undo.append(lambda: write_atomic(path, old) if old is not None else path.unlink())
        self._done.append(("write", path, old, data))

    def as_before(self, diagnostics: list[Diagnostic]) -> list[Diagnostic]:
        """``diagnostics`` found in the files as this transaction changed them, located in the
        files as they were before it (as they are again after :meth:`rollback`): a line of a
        rewritten file at its line there, a file moved at the place it came from."""
        out = []
        for diagnostic in diagnostics:
            where = diagnostic.location
            if where is not None:
                for step, path, before, after in reversed(self._done):
                    if step == "write" and isinstance(before, bytes) and display_path(path) == where.path and where.line > 0:
                        line, column = line_before(before.decode("utf-8", "replace"), after.decode("utf-8", "replace"), where.line, where.column)
                        where = Location(where.path, line, column)
                    elif step == "move":
                        src, dst = display_path(before), display_path(after)
                        if where.path == dst or where.path.startswith(dst + "/"):
                            where = Location(src + where.path[len(dst):], where.line, where.column)
            out.append(diagnostic if where is diagnostic.location else replace(diagnostic, location=where))
        return out

    def rollback(self) -> None:
        for undo in reversed(self._undo):
            try:
                undo()
            except OSError:
                pass
        self._undo.clear()


def line_before(before: str, after: str, line: int, column: int) -> tuple[int, int]:
    """Where ``line``:``column`` of ``after`` (a rewrite of ``before`` that added ids and indented
    what it wrapped) was in ``before``: lines are matched on what they hold past their indent and
    list dash; a line the rewrite added is placed at the line it was added before."""
    from difflib import SequenceMatcher

    def body(text: str) -> str:
        return text.lstrip(" -")

    old, new = before.split("\n"), after.split("\n")
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, [body(t) for t in old], [body(t) for t in new], autojunk=False).get_opcodes():
        if j1 <= line - 1 < j2:
            if tag != "equal":
                return min(i1, len(old) - 1) + 1, 1 if column > 0 else 0
            was, now = old[i1 + line - 1 - j1], new[line - 1]
            shift = (len(now) - len(body(now))) - (len(was) - len(body(was)))
            return i1 + line - j1, max(1, column - shift) if column > 0 else 0
    return line, column


@dataclass
class TopicChange:
    """What a migration, a new topic or a rename did."""

    moved: list[tuple[Path, Path]] = field(default_factory=list)
    written: list[Path] = field(default_factory=list)
    renamed_keys: dict[str, str] = field(default_factory=dict)
    catalogs: list[Path] = field(default_factory=list)


def deeper_schema_line(text: str, levels: int = 1) -> str:
    """``text`` with the relative path of its first-line `$schema=` modeline made ``levels`` deeper."""
    first, newline, rest = text.partition("\n")
    match = SCHEMA_LINE.match(first)
    if match is None:
        return text
    return f"{match.group(1)}{'../' * levels}{match.group(2)}{match.group(3)}{newline}{rest}"


def rewrite_yaml(path: Path, text: str, change: Callable[[dict], None], *, width: int | None = None) -> bytes:
    """``text`` (the file at ``path``) with ``change`` applied to its data, comments and layout
    kept (lines longer than ``width``, when given, are not folded again)."""
    from .authoring import round_trip_yaml

    yaml = round_trip_yaml()
    if width is not None:
        yaml.width = width
    try:
        data = yaml.load(text)
    except Exception as exc:  # ruamel raises many types for a broken file
        raise refuse(f"cannot read the file to update it: {exc}", path) from None
    if not isinstance(data, dict):
        raise refuse("the file does not hold a mapping; run `bank validate`", path)
    change(data)
    buffer = io.StringIO()
    yaml.dump(data, buffer)
    return buffer.getvalue().encode("utf-8")


def category_id_of(title: str) -> str:
    """A category id made from its title: ``Computer systems`` → ``computer-systems``."""
    from .authoring import slugify

    return slugify(title, words=8) or "category"


def categories_file(categories: list[tuple[str, str]], *, up: str = "../") -> bytes:
    """A new `categories.yaml` for (id, title) pairs, in order; ``up`` leads from the bank
    folder to the folder holding `schema/`."""
    from .authoring import yaml_text

    lines = [CATEGORIES_HEADER.format(up=up).rstrip("\n"), "categories:"]
    for category_id, title in categories:
        lines.append(f"  - id: {category_id}")
        lines.append("    title:" + yaml_text(title, 4))
    return ("\n".join(lines) + "\n").encode("utf-8")


# ----------------------------------------------------------------------------- catalogs

def plan_catalogs(bank_dir: Path, translations: Path, renames: dict[str, str], command: str = "bank migrate") -> tuple[list[tuple[Path, bytes]], list[Diagnostic]]:
    """The template and every catalog of ``translations`` for the bank as it is now on disk,
    each catalog's entries renamed by ``renames`` (old msgctxt → new) before they are merged.

    Returns ([(path, bytes)], errors); the bank must read without errors, and no catalog may
    hold a translated entry the merge cannot carry (E542, as ``command`` refuses it)."""
    from ..i18n import template_path
    from ..i18n.catalog import read_catalog, render_catalog
    from ..i18n.extract import build_template, folder_header
    from ..i18n.fields import bank_fields
    from ..i18n.update import catalog_header, catalog_paths, merge_catalog, uncarried
    from ..rules.validate import library_rules

    source = read_library(bank_dir)
    problems = [d for d in source.diagnostics + library_rules(source) if d.severity is Severity.ERROR]
    if problems:
        return [], problems
    if not translations.is_dir():
        return [], []
    template = build_template(bank_fields(source), translations.resolve().parent, folder_header(translations))
    planned = [(template_path(translations), render_catalog(template))]
    for path in catalog_paths(translations):
        catalog = read_catalog(path)
        if catalog.diagnostics:
            problems += catalog.diagnostics
            continue
        refused = uncarried(path, catalog.po, command=command)
        if refused:
            problems += refused
            continue
        present = {entry.msgctxt for entry in catalog.po if not entry.obsolete}
        for entry in catalog.po:
            if entry.msgctxt in renames and renames[entry.msgctxt] not in present:  # never onto an entry the catalog holds already
                entry.msgctxt = renames[entry.msgctxt]
        merged, _stats = merge_catalog(template, catalog.po, path.stem, catalog_header(path.stem, template_path(translations).stem))
        planned.append((path, render_catalog(merged)))
    return ([], problems) if problems else (planned, [])


def catalog_problems(translations: Path, command: str = "bank migrate") -> list[Diagnostic]:
    """The read errors of the template and every catalog, and the translated entries the
    catalogs' merge could not carry (E542, as ``command`` refuses them): checked before
    anything moves."""
    from ..i18n import template_path
    from ..i18n.catalog import read_catalog
    from ..i18n.update import catalog_paths, uncarried

    if not translations.is_dir():
        return []
    problems: list[Diagnostic] = []
    pot = template_path(translations)
    if pot.exists():
        problems += read_catalog(pot, template=True).diagnostics
    for path in catalog_paths(translations):
        catalog = read_catalog(path)
        problems += catalog.diagnostics or uncarried(path, catalog.po, command=command)
    return problems


def catalog_keys(translations: Path) -> list[set[str]]:
    """The keys (msgctxt) of the entries, obsolete ones aside, of each catalog of ``translations``
    that reads without errors (:func:`catalog_problems` reports the others)."""
    from ..i18n.catalog import read_catalog
    from ..i18n.update import catalog_paths

    if not translations.is_dir():
        return []
    catalogs = [read_catalog(path) for path in catalog_paths(translations)]
    return [{entry.msgctxt for entry in catalog.po if entry.msgctxt and not entry.obsolete} for catalog in catalogs if not catalog.diagnostics]


def plan_glossary(translations: Path, renames: dict[str, str]) -> list[tuple[Path, bytes]]:
    """The glossary (``translations/glossary.yaml``) with the catalog keys its terms name
    (``published:``) renamed by ``renames``, comments and layout kept; nothing when it names none
    of them (or cannot be read: `bank validate` reports it)."""
    from ..i18n.glossary import GLOSSARY_NAME

    path = translations / GLOSSARY_NAME
    if not renames or not path.is_file() or path.is_symlink():
        return []
    text = path.read_text(encoding="utf-8")

    def keys(data) -> list:
        terms = data.get("terms") if isinstance(data, dict) else None
        return [spec["published"] for term in terms if isinstance(term, dict) for spec in term.values()
                if isinstance(spec, dict) and isinstance(spec.get("published"), list)] if isinstance(terms, list) else []

    try:
        if not any(key in renames for published in keys(round_trip_yaml().load(text)) for key in published if isinstance(key, str)):
            return []
    except Exception:  # ruamel raises many types for a broken file: left to `bank validate`
        return []

    def rename(data) -> None:
        for published in keys(data):
            for index, key in enumerate(published):
                if isinstance(key, str) and key in renames:
                    published[index] = renames[key]

    return [(path, rewrite_yaml(path, text, rename, width=4096))]


def _finish(tx: Transaction, change: TopicChange, bank_dir: Path, translations: Path, command: str) -> None:
    """Bring the catalogs and the glossary in step with the moved files (renaming
    ``change.renamed_keys``); undo everything if the bank or a catalog has errors."""
    planned, problems = plan_catalogs(bank_dir, translations, change.renamed_keys, command)
    if problems:
        problems = tx.as_before(problems)
        tx.rollback()
        raise DiagnosticsError(problems, "the result would have errors; every file was put back as it was")
    planned += plan_glossary(translations, change.renamed_keys)
    for path, data in planned:
        if not path.exists() or path.read_bytes() != data:
            tx.write(path, data)
            change.catalogs.append(path)


# ----------------------------------------------------------------------------- migrate

def migrate(bank_dir: Path, translations: Path, *, category_id: str | None = None) -> TopicChange:
    """Bring a bank to the current format, every step keeping each translation on its text:

    - a single-topic bank (`bank/topic.yaml`, `bank/questions/`) moves to the layout of topics
      (`bank/categories.yaml`, `bank/<topic-id>/topic.yaml`, `bank/<topic-id>/questions/`); the
      topic's category text becomes the title of a category in `categories.yaml` (its id made
      from the title unless ``category_id`` is given) and the topic names it by id;
    - each list item that needs an id and has none (a short answer's accepted answers, a
      numerical question's units and near misses) gets one (``a1``, ``a2``, … by position), and
      its catalog entries, keyed by position until now (``q005.answer.2``), are renamed to the
      id (``q005.answer.a2``) in every catalog;
    - each key point of a topic without an id gets one (``k1``, ``k2``, … by position; a plain
      paragraph becomes ``- id: k1`` with the paragraph as ``text:``), and its catalog entries
      are renamed from ``topic.<topic-id>.key_point.1`` to ``topic.<topic-id>.key_point.k1``.

    Each step runs only where it is needed, so running it again changes nothing. Refuses (E319,
    located) and touches nothing when there is nothing to do or the bank is not as expected."""
    from ..writing import bank_lock

    with bank_lock(bank_dir, command="bank migrate"):
        return _migrate(bank_dir, translations, category_id=category_id)


def ids_given(items: list, prefix: str, *, paragraphs: bool = False) -> list[tuple[int, str]]:
    """(position, id) of each item of ``items``, read with round-trip YAML: the id it was given
    (by hand: a translation still keyed by its position moves to it), or a free one given to it
    now (``prefix`` and its position, :func:`~aistack_bank.kinds.item_id_for`). Items are
    mappings; with ``paragraphs``, a plain text becomes ``{id, text}``. Anything else is left to
    `bank validate`."""
    from ruamel.yaml.comments import CommentedMap

    taken = {item["id"] for item in items if isinstance(item, dict) and isinstance(item.get("id"), str)}
    found = []
    for position, item in enumerate(items, 1):
        if isinstance(item, dict) and "id" in item:
            if isinstance(item["id"], str):
                found.append((position, item["id"]))
            continue
        if not isinstance(item, dict) and not (paragraphs and isinstance(item, str)):
            continue
        new_id = item_id_for(prefix, position, taken)
        taken.add(new_id)
        if isinstance(item, dict):
            item.insert(0, "id", new_id)
        else:
            items[position - 1] = CommentedMap([("id", new_id), ("text", item)])
        found.append((position, new_id))
    return found


def with_item_ids(path: Path, text: str) -> tuple[bytes | None, dict[str, str]]:
    """The question file ``text`` with an id given to each list item of its kind that has none
    (:attr:`~aistack_bank.kinds.Kind.item_ids`), comments and layout kept, and the catalog keys
    renamed (old → new); (None, {}) when every item has its id (or the file is not a question
    this step can read: `bank validate` reports it)."""
    from ..kinds import REGISTRY

    def scan(data) -> bool:
        kind = REGISTRY.get(data.get("kind")) if isinstance(data.get("kind"), str) else None
        return kind is not None and any(
            isinstance(data.get(ids.field), list) and any(isinstance(item, dict) and "id" not in item for item in data[ids.field])
            for ids in kind.item_ids)

    from .authoring import round_trip_yaml

    yaml = round_trip_yaml()
    try:
        needed = scan(yaml.load(text) or {})
    except Exception:  # ruamel raises many types for a broken file: left to `bank validate`
        return None, {}
    if not needed:
        return None, {}
    renames: dict[str, str] = {}

    def give_ids(data) -> None:
        qid, kind = data.get("id"), REGISTRY[data["kind"]]
        for ids in kind.item_ids:
            items = data.get(ids.field)
            if not isinstance(items, list):
                continue
            for position, item_id in ids_given(items, ids.prefix):
                renames.update({f"{qid}.{ids.key}.{position}{suffix}": f"{qid}.{ids.key}.{item_id}{suffix}"
                                for suffix in ids.suffixes if not suffix or suffix[1:] in items[position - 1]})

    return rewrite_yaml(path, text, give_ids, width=4096), renames


KEY_POINT_PREFIX = "k"
"""The letter of the ids `bank migrate` gives key points (``k1``, ``k2``, …)."""


def with_key_point_ids(path: Path, text: str, *, old_prefix: str | None = None) -> tuple[bytes | None, dict[str, str]]:
    """The topic file ``text`` with an id given to each key point that has none (a plain
    paragraph becomes ``- id: k2`` with the paragraph as ``text:``), comments and layout kept,
    and the catalog keys renamed (``topic.<topic-id>.key_point.2`` → ``….key_point.k2``, or
    from ``old_prefix`` + ``key_point.2`` when the keys had another prefix); (None, {}) when
    every key point has its id (or the file cannot be read here: `bank validate` reports it); the
    renames are given then too (a translation keyed by position moves to the id its key point was
    given by hand), for the catalogs that still hold such keys."""
    def needed(data) -> bool:
        points = data.get("key_points") if isinstance(data, dict) else None
        return isinstance(points, list) and any(isinstance(p, str) or (isinstance(p, dict) and "id" not in p) for p in points)

    renames: dict[str, str] = {}

    def rename(data, given: list[tuple[int, str]]) -> None:
        topic_id = data.get("id")
        before = old_prefix if old_prefix is not None else f"topic.{topic_id}."
        ids = {point_id for _, point_id in given}
        for position, point_id in given:
            if str(position) not in ids:  # a key point whose id is a number keeps its key
                renames[f"{before}key_point.{position}"] = f"topic.{topic_id}.key_point.{point_id}"

    try:
        data = round_trip_yaml().load(text)
    except Exception:  # ruamel raises many types for a broken file: left to `bank validate`
        return None, {}
    if not needed(data):
        points = data.get("key_points") if isinstance(data, dict) else None
        if isinstance(points, list) and isinstance(data.get("id"), str):
            rename(data, [(position, p["id"]) for position, p in enumerate(points, 1) if isinstance(p, dict) and isinstance(p.get("id"), str)])
        return None, renames

    def give_ids(data) -> None:
        rename(data, ids_given(data["key_points"], KEY_POINT_PREFIX, paragraphs=True))

    return rewrite_yaml(path, text, give_ids, width=4096), renames


def _migrate(bank_dir: Path, translations: Path, *, category_id: str | None = None) -> TopicChange:
    bank_dir = Path(bank_dir)
    if not bank_dir.is_dir():
        raise refuse(f"no bank folder {bank_dir.as_posix()}", bank_dir)
    if not (bank_dir / CATEGORIES_FILE).exists():
        return _migrate_layout(bank_dir, translations, category_id=category_id)
    problems = catalog_problems(translations)
    planned: list[tuple[Path, bytes]] = []
    renames: dict[str, str] = {}
    by_hand: dict[str, str] = {}
    for folder in topic_folders(bank_dir):
        topic_path = folder / TOPIC_FILE
        if topic_path.is_file() and not topic_path.is_symlink():
            data, renamed = with_key_point_ids(topic_path, topic_path.read_text(encoding="utf-8"))
            if data is not None:
                planned.append((topic_path, data))
                renames |= renamed
            else:  # every key point has its id: only the catalogs still keyed by position change
                by_hand |= renamed
        for path in question_files(folder):
            if path.is_symlink() or not path.is_file():
                continue
            data, renamed = with_item_ids(path, path.read_text(encoding="utf-8"))
            if data is not None:
                planned.append((path, data))
                renames |= renamed
    held = catalog_keys(translations) if by_hand else []
    renames |= {old: new for old, new in by_hand.items() if any(old in keys and new not in keys for keys in held)}
    if not planned and not renames:
        raise refuse(f"the bank is already migrated: it has {CATEGORIES_FILE} and every list item and key point has its id; nothing to do", bank_dir / CATEGORIES_FILE)
    if problems:
        raise DiagnosticsError(problems, "a catalog has errors; fix them first (nothing was changed)")
    change = TopicChange(renamed_keys=renames)
    tx = Transaction()
    try:
        for path, data in planned:
            tx.write(path, data)
            change.written.append(path)
        _finish(tx, change, bank_dir, translations, "bank migrate")
    except BaseException:
        tx.rollback()
        raise
    return change


def _migrate_layout(bank_dir: Path, translations: Path, *, category_id: str | None = None) -> TopicChange:
    from ..yamlsource import load_yaml

    topic_path, questions = bank_dir / TOPIC_FILE, bank_dir / QUESTIONS_DIR
    if not topic_path.is_file():
        folders = topic_folders(bank_dir)
        if folders:
            raise refuse(f"the bank already has topic folders ({', '.join(f.name for f in folders)}) but no {CATEGORIES_FILE}; write it by hand (see bank/README.md)", bank_dir)
        raise refuse(f"no {TOPIC_FILE} in {bank_dir.as_posix()}: this is not a single-topic bank; nothing to migrate", topic_path)
    if not questions.is_dir() or questions.is_symlink():
        raise refuse(f"no {QUESTIONS_DIR}/ folder beside {TOPIC_FILE}; a single-topic bank has both", questions)
    others = [f.name for f in topic_folders(bank_dir) if f != questions]
    if others:
        raise refuse(f"the bank holds both {TOPIC_FILE} and topic folders ({', '.join(others)}); move them by hand", bank_dir)
    doc, diags = load_yaml(topic_path)
    errors = [d for d in diags if d.severity is Severity.ERROR]
    if doc is None or errors:
        raise DiagnosticsError(errors or diags, "the topic file cannot be read; fix it first")
    data = doc.data
    topic_id, category = data.get("id"), data.get("category")
    if not isinstance(topic_id, str) or not re.fullmatch(SLUG, topic_id):
        raise refuse(f"the topic id {topic_id!r} is not lowercase words joined by hyphens; fix it first", doc.locate(("id",)))
    if not isinstance(category, str) or not category.strip() or "\n" in category:
        raise refuse("the topic has no one-line `category:` text to make its category from; fix it first", doc.locate(("category",)))
    if re.fullmatch(SLUG, category) and category_id is None:
        raise refuse(f"`category: {category}` looks like a category id already, not a title; is the bank half migrated? Give --category-id to migrate anyway", doc.locate(("category",)))
    category_id = category_id or category_id_of(category)
    if not re.fullmatch(SLUG, category_id):
        raise UsageError(f"--category-id {category_id!r} must be lowercase words joined by hyphens, e.g. computer-systems")
    target = bank_dir / topic_id
    if target.exists():
        raise refuse(f"{target.as_posix()} already exists; move it away first", target)
    problems = catalog_problems(translations)
    if problems:
        raise DiagnosticsError(problems, "a catalog has errors; fix them first (nothing was moved)")

    topic_text = topic_path.read_text(encoding="utf-8")
    new_topic = rewrite_yaml(topic_path, deeper_schema_line(topic_text), lambda d: d.__setitem__("category", category_id))
    with_ids, key_point_renames = with_key_point_ids(topic_path, new_topic.decode("utf-8"), old_prefix="topic.")
    new_topic = with_ids if with_ids is not None else new_topic
    files = sorted(p for p in questions.iterdir() if p.is_file() and not p.is_symlink() and p.suffix in (".yaml", ".yml"))
    renames = {"topic.category": f"category.{category_id}.title"}
    renames |= {f"topic.{name}": f"topic.{topic_id}.{name}" for name in ("title", "summary")}
    renames |= key_point_renames
    points = data.get("key_points")
    renames |= {f"topic.key_point.{point['id']}": f"topic.{topic_id}.key_point.{point['id']}"  # keyed by id already
                for point in (points if isinstance(points, list) else []) if isinstance(point, dict) and isinstance(point.get("id"), str)}
    change = TopicChange(renamed_keys=renames)

    tx = Transaction()
    try:
        tx.mkdir(target)
        tx.move(topic_path, target / TOPIC_FILE)
        tx.write(target / TOPIC_FILE, new_topic)
        tx.move(questions, target / QUESTIONS_DIR)
        change.moved += [(topic_path, target / TOPIC_FILE), (questions, target / QUESTIONS_DIR)]
        for old in files:
            path = target / QUESTIONS_DIR / old.name
            text = path.read_text(encoding="utf-8")
            deeper = deeper_schema_line(text)
            with_ids, renamed = with_item_ids(path, deeper)
            renames |= renamed
            if with_ids is not None:
                tx.write(path, with_ids)
                change.written.append(path)
            elif deeper != text:
                tx.write(path, deeper.encode("utf-8"))
        modeline = SCHEMA_LINE.match(topic_text.partition("\n")[0])
        tx.write(bank_dir / CATEGORIES_FILE, categories_file([(category_id, category)], up=modeline.group(2) if modeline else "../"))
        change.written.append(bank_dir / CATEGORIES_FILE)
        _finish(tx, change, bank_dir, translations, "bank migrate")
    except BaseException:
        tx.rollback()
        raise
    change.renamed_keys = renames
    return change


# ----------------------------------------------------------------------------- new topic

NEW_TOPIC_TEMPLATE = """# yaml-language-server: $schema=../../schema/topic.schema.json
# Fill in every empty text; `bank validate` points at each one until it is done.
# The format is described in bank/README.md.
id: {topic_id}
category: {category}
title:{title}
summary: ""
# Key points (optional), each a stable id (its translations are keyed on it) and one paragraph:
#   - id: k1
#     text: What a learner should take away.
key_points: []
tags:
  {tag}: ""
questions: []
"""


def new_topic(bank_dir: Path, topic_id: str, category: str, *, title: str | None = None, category_title: str | None = None) -> TopicChange:
    """Create `bank/<topic-id>/topic.yaml` and its empty `questions/` folder in ``category``.

    A category not yet in `categories.yaml` is added there when ``category_title`` is given."""
    from ..writing import bank_lock

    with bank_lock(bank_dir, command="bank topic new"):
        return _new_topic(bank_dir, topic_id, category, title=title, category_title=category_title)


def _new_topic(bank_dir: Path, topic_id: str, category: str, *, title: str | None = None, category_title: str | None = None) -> TopicChange:
    from .authoring import yaml_text
    from ..yamlsource import load_yaml

    bank_dir = Path(bank_dir)
    if not re.fullmatch(SLUG, topic_id):
        raise UsageError(f"topic id {topic_id!r} must be lowercase words joined by hyphens, e.g. memory-hierarchy")
    if reserved_topic_id(topic_id):
        raise UsageError(reserved_topic_id(topic_id))
    if not re.fullmatch(SLUG, category):
        raise UsageError(f"--category {category!r} must be a category id: lowercase words joined by hyphens")
    categories_path = bank_dir / CATEGORIES_FILE
    if not categories_path.is_file():
        if (bank_dir / TOPIC_FILE).exists():
            raise refuse(f"{bank_dir.as_posix()} has the single-topic layout; run `bank migrate` first", bank_dir / TOPIC_FILE)
        raise refuse(f"no {CATEGORIES_FILE} in {bank_dir.as_posix()}: is --bank the bank folder?", categories_path)
    target = bank_dir / topic_id
    if target.exists():
        raise refuse(f"{target.as_posix()} already exists", target)
    source = read_library(bank_dir)
    if source.topic(topic_id) is not None:
        raise refuse(f"topic id {topic_id!r} is already used by {source.topic(topic_id).topic_path.as_posix()}", source.topic(topic_id).topic_path)
    known = [c.id for c in source.categories]
    if source.categories_doc is None:
        raise DiagnosticsError([d for d in source.diagnostics if d.location is not None and d.location.path.endswith(CATEGORIES_FILE)] or source.diagnostics, f"{CATEGORIES_FILE} has errors; fix them first")
    add_category = category not in known
    if add_category and not category_title:
        raise UsageError(f"--category {category!r} is not in {CATEGORIES_FILE} (known: {', '.join(known) or 'none'}); give --category-title to add it")
    title = title or topic_id.replace("-", " ").capitalize()
    tag = "general"
    text = NEW_TOPIC_TEMPLATE.format(topic_id=topic_id, category=category, title=yaml_text(title, 0), tag=tag)
    doc, diags = load_yaml(categories_path)
    tx = Transaction()
    change = TopicChange()
    try:
        if add_category:
            def add(data):
                from ruamel.yaml.comments import CommentedMap

                entry = CommentedMap()
                entry["id"] = category
                entry["title"] = category_title
                data["categories"].append(entry)

            tx.write(categories_path, rewrite_yaml(categories_path, categories_path.read_text(encoding="utf-8"), add))
            change.written.append(categories_path)
        tx.mkdir(target)
        tx.mkdir(target / QUESTIONS_DIR)
        tx.write(target / TOPIC_FILE, text.encode("utf-8"))
        change.written.append(target / TOPIC_FILE)
    except BaseException:
        tx.rollback()
        raise
    return change


# ----------------------------------------------------------------------------- rename

def rename_topic(bank_dir: Path, translations: Path, old_id: str, new_id: str) -> TopicChange:
    """Rename a topic: its folder, its id, and the msgctxt of its texts in every catalog.

    The topic's questions keep their ids and translations; export files named after the topic
    id (when it has no `file_stem`) get the new name."""
    from ..writing import bank_lock

    with bank_lock(bank_dir, command="bank topic rename"):
        return _rename_topic(bank_dir, translations, old_id, new_id)


def _rename_topic(bank_dir: Path, translations: Path, old_id: str, new_id: str) -> TopicChange:
    bank_dir = Path(bank_dir)
    if not re.fullmatch(SLUG, new_id):
        raise UsageError(f"new topic id {new_id!r} must be lowercase words joined by hyphens")
    if reserved_topic_id(new_id):
        raise UsageError(reserved_topic_id(new_id))
    source = read_library(bank_dir)
    fatal = [d for d in source.diagnostics if d.severity is Severity.ERROR and d.code == "E312"]
    if fatal:
        raise DiagnosticsError(fatal, "the bank has the single-topic layout")
    topic = source.topic(old_id)
    if topic is None:
        names = ", ".join(t.topic.id for t in source.topics if t.topic is not None) or "none"
        raise UsageError(f"no topic {old_id!r}; the topics are: {names}")
    if source.topic(new_id) is not None or (bank_dir / new_id).exists():
        raise refuse(f"{(bank_dir / new_id).as_posix()} or a topic {new_id!r} already exists", bank_dir / new_id)
    problems = catalog_problems(translations, "bank topic rename")
    if problems:
        raise DiagnosticsError(problems, "a catalog has errors; fix them first (nothing was moved)")
    old_folder, new_folder = topic.root, bank_dir / new_id
    new_text = rewrite_yaml(topic.topic_path, topic.topic_path.read_text(encoding="utf-8"), lambda d: d.__setitem__("id", new_id))
    prefix = f"topic.{old_id}."
    renames = {f"{prefix}{name}": f"topic.{new_id}.{name}" for name in ("title", "summary")}
    renames |= {f"{prefix}key_point.{point.id}": f"topic.{new_id}.key_point.{point.id}" for point in topic.topic.key_points}
    change = TopicChange(renamed_keys=renames)
    tx = Transaction()
    try:
        tx.move(old_folder, new_folder)
        change.moved.append((old_folder, new_folder))
        tx.write(new_folder / TOPIC_FILE, new_text)
        _finish(tx, change, bank_dir, translations, "bank topic rename")
    except BaseException:
        tx.rollback()
        raise
    return change
