"""Writing bank files: new questions from a template, imported ones, topic updates.

Files written here go through ruamel.yaml's round-trip mode, so the topic file keeps its
comments and layout when a question id is appended, and every write is atomic.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

from ..errors import BankError, Location, UsageError
from ..kinds import DEFAULT_KIND, REGISTRY
from ..load import QUESTIONS_DIR, TOPIC_FILE, question_files
from ..writing import write_atomic

QUESTION_SCHEMA_COMMENT = "# yaml-language-server: $schema=../../../schema/question.schema.json"
TOPIC_SCHEMA_COMMENT = "# yaml-language-server: $schema=../../schema/topic.schema.json"


def slugify(text: str, words: int = 5) -> str:
    """A file-name slug: lowercase ASCII words joined by hyphens.

    >>> slugify("What is the KV-cache for? (LLM inference)")
    'what-is-the-kv-cache'
    """
    import unicodedata

    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii").lower()
    parts = re.findall(r"[a-z0-9]+", ascii_text)
    return "-".join(parts[:words]) or "question"


def _text_of(path: Path) -> str:
    """The text of a regular file within the size limit of catalogs, or "" (never blocks)."""
    from ..i18n.catalog import MAX_CATALOG_BYTES
    from ..safety import UnsafeFile, read_regular

    try:
        return read_regular(path, MAX_CATALOG_BYTES).decode("utf-8", errors="replace")
    except UnsafeFile:
        return ""


def topic_folder(root: Path, topic: str | None) -> Path:
    """The folder of the topic ``topic`` in the bank at ``root``: the only topic when ``topic`` is
    None. UsageError naming the topics when there is no such topic or the choice is ambiguous."""
    from ..errors import BankError
    from ..load import CATEGORIES_FILE, is_single_topic_layout, single_topic_layout_error, topic_folders

    if not root.is_dir():
        raise BankError(f"no bank folder {root.as_posix()}: is --bank the bank folder?", Location.of(root))
    if is_single_topic_layout(root) and not (root / CATEGORIES_FILE).exists():
        found = single_topic_layout_error(root)
        raise BankError(found.message, found.location, code=found.code)
    try:
        folders = topic_folders(root)
    except OSError as exc:
        raise BankError(f"cannot list the topic folders: {exc.strerror or exc}; is --bank the bank folder?", Location.of(root)) from None
    names = ", ".join(folder.name for folder in folders) or "none yet; create one with `bank topic new ID --category CAT`"
    if topic is None:
        if len(folders) == 1:
            return folders[0]
        raise UsageError(f"the bank has several topics; choose one with --topic: {names}" if folders else f"the bank has no topic: {names}")
    for folder in folders:
        if folder.name == topic:
            return folder
    raise UsageError(f"--topic {topic!r}: no such topic; the topics are: {names}")


def _topic_roots(root: Path) -> list[Path]:
    """Every topic folder of the bank at ``root`` (``root`` itself for a lone topic folder)."""
    from ..load import topic_folders

    if (root / TOPIC_FILE).exists() or (root / QUESTIONS_DIR).is_dir():
        return [root]
    try:
        return topic_folders(root)
    except OSError:
        return []


def used_ids(root: Path, translations: Path | None = None) -> set[int]:
    """Every question number ever used in the bank at ``root``, in every topic: files, the
    topic lists, and catalog keys (obsolete too)."""
    numbers: set[int] = set()
    for folder in _topic_roots(root):
        for path in question_files(folder):
            match = re.match(r"q([0-9]{3,})", path.name)
            if match:
                numbers.add(int(match.group(1)))
        topic = folder / TOPIC_FILE
        if topic.exists():
            numbers |= {int(n) for n in re.findall(r"^\s*-\s*q([0-9]{3,})\s*$", _text_of(topic), re.M)}
    if translations is not None and translations.is_dir():
        for po in translations.glob("*.po*"):
            numbers |= {int(n) for n in re.findall(r'msgctxt "q([0-9]{3,})\.', _text_of(po))}
    return numbers


def next_ids(root: Path, translations: Path | None, count: int = 1) -> list[str]:
    """The next ``count`` free question ids, after every id ever used (ids are never reused)."""
    start = max(used_ids(root, translations), default=0) + 1
    return [f"q{n:03d}" for n in range(start, start + count)]


def round_trip_yaml():
    """ruamel.yaml in round-trip mode, laid out as the bank's files are (comments kept)."""
    from ruamel.yaml import YAML

    yaml = YAML(typ="rt", pure=True)
    yaml.width = 92
    yaml.indent(mapping=2, sequence=4, offset=2)
    yaml.preserve_quotes = True
    return yaml


def topic_with(path: Path, text: str, question_ids: list[str], tags: dict[str, str] | None = None) -> bytes:
    """The topic file ``text`` with ``tags`` ({tag: description}) added to its vocabulary and
    ``question_ids`` appended to its `questions:` list, comments and layout kept.

    The one writer of topic files (new questions and imports); ``path`` locates its errors."""
    yaml = round_trip_yaml()
    try:
        data = yaml.load(text)
    except Exception as exc:  # ruamel raises many types for a broken file
        raise BankError(f"cannot update the topic file: {exc}", Location.of(path)) from None
    if not isinstance(data, dict) or not isinstance(data.get("questions"), list):
        raise BankError("the topic file has no `questions:` list to add to; run `bank validate`", Location.of(path))
    vocabulary = data.get("tags")
    for tag, description in sorted((tags or {}).items()):
        if tag not in vocabulary:
            vocabulary[tag] = description
    for qid in question_ids:
        if qid not in data["questions"]:
            data["questions"].append(qid)
    buffer = io.StringIO()
    yaml.dump(data, buffer)
    return buffer.getvalue().encode("utf-8")


def topic_text(path: Path) -> str:
    """The text of the topic file ``path``, read as `bank validate` reads it: only a regular file
    within the size limit (a FIFO in its place is refused, not waited on; a device is not read
    without end); BankError, located, otherwise."""
    from ..safety import UnsafeFile, read_regular
    from ..yamlsource import MAX_FILE_BYTES

    try:
        return read_regular(path, MAX_FILE_BYTES, what="topic file").decode("utf-8")
    except UnsafeFile as exc:
        raise BankError(exc.message, Location.of(path), code=exc.code) from None
    except UnicodeDecodeError as exc:
        raise BankError(f"cannot update the topic file: {exc}", Location.of(path)) from None


def append_to_topic(root: Path, question_ids: list[str]) -> None:
    """Append ids to the topic's `questions:` list, keeping the file's comments and layout."""
    path = root / TOPIC_FILE
    write_atomic(path, topic_with(path, topic_text(path), question_ids))


_TEMPLATE_HEAD = """{schema}
# Fill in every empty text; `bank validate` points at each one until it is done.
# The format of each kind, the tags and the numeric checks are described in bank/README.md.
id: {qid}
kind: {kind}
"""

_TEMPLATE_TAIL = """explanation: ""
tags: [{tag}]
difficulty: 2
"""

KIND_TEMPLATES = {name: kind.template for name, kind in REGISTRY.items()}
"""The body of a new question of each kind (`bank new --kind`): every text left empty."""

NEW_QUESTION_TEMPLATE = _TEMPLATE_HEAD.replace("{kind}", DEFAULT_KIND) + KIND_TEMPLATES[DEFAULT_KIND] + _TEMPLATE_TAIL
"""A new single-choice question (the default kind)."""


def question_template(kind: str) -> str:
    """The template of a new question of ``kind``, with ``{schema}``, ``{qid}`` and ``{tag}`` to fill."""
    return _TEMPLATE_HEAD.replace("{kind}", kind) + KIND_TEMPLATES[kind] + _TEMPLATE_TAIL


def new_question(root: Path, translations: Path | None, slug: str, topic: str | None = None, kind: str = DEFAULT_KIND) -> Path:
    """Create the next question of ``kind`` (an id never used in the whole bank) from its template
    in the topic ``topic`` (the only topic when None) and list it there; return its path."""
    from ..writing import bank_lock

    with bank_lock(root, command="bank new"):
        return _new_question(root, translations, slug, topic, kind)


def _new_question(root: Path, translations: Path | None, slug: str, topic: str | None = None, kind: str = DEFAULT_KIND) -> Path:
    if kind not in KIND_TEMPLATES:
        raise UsageError(f"--kind {kind!r} is not a question kind; use one of: {', '.join(KIND_TEMPLATES)}")
    if not re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)*", slug):
        raise UsageError(f"--slug {slug!r} must be lowercase words joined by hyphens, e.g. kv-cache-size")
    folder = topic_folder(root, topic)
    topic_path = folder / TOPIC_FILE
    if not topic_path.exists():
        raise BankError(f"no {TOPIC_FILE} in {folder.as_posix()}: create the topic with `bank topic new`", Location.of(topic_path))
    tags = re.search(r"^tags:\n\s+([a-z0-9-]+):", topic_text(topic_path), re.M)
    (qid,) = next_ids(root, translations)
    path = folder / QUESTIONS_DIR / f"{qid}-{slug}.yaml"
    write_atomic(path, question_template(kind).format(schema=QUESTION_SCHEMA_COMMENT, qid=qid, tag=tags.group(1) if tags else "").encode("utf-8"))
    append_to_topic(folder, [qid])
    return path


def yaml_text(text: str, indent: int, width: int = 92) -> str:
    """``text`` as a YAML value at ``indent``: plain-looking block text, or a quoted string.

    Simple one-line texts become a folded block (``>-``) wrapped at ``width``, like the files
    authors write; anything folding could alter (newlines, runs of spaces, edge spaces) is
    written double-quoted, which represents every string exactly.
    """
    import json
    import textwrap

    simple = text and "\n" not in text and "  " not in text and text == text.strip() and "\t" not in text
    if simple and len(text) + indent <= width:
        if re.search(r"^[\[\]{}>|*&!%@`'\"#,?:-]|: | #|:$|^(?:true|false|null|yes|no|on|off|~|[-+.0-9].*)$", text, re.I):
            return " " + json.dumps(text, ensure_ascii=False)
        return " " + text
    if simple:
        lines = textwrap.wrap(text, width - indent - 2, break_long_words=False, break_on_hyphens=False)
        pad = " " * (indent + 2)
        return " >-\n" + "\n".join(pad + line for line in lines)
    return " " + json.dumps(text, ensure_ascii=False)


def render_question_yaml(data: dict) -> bytes:
    """A question file for ``data`` (in field order), in the bundled bank's style."""
    out = [QUESTION_SCHEMA_COMMENT]
    for key, value in data.items():
        if key == "options":
            out.append("options:")
            for option in value:
                out.append(f"  - id: {option['id']}")
                for field in ("text", "feedback"):
                    if option.get(field) is not None:
                        out.append(f"    {field}:" + yaml_text(option[field], 4))
        elif key == "tags":
            out.append(f"tags: [{', '.join(value)}]")
        elif isinstance(value, str) and key not in ("id", "kind", "correct"):
            out.append(f"{key}:" + yaml_text(value, 0))
        else:
            out.append(f"{key}: {value}")
    return ("\n".join(out) + "\n").encode("utf-8")
