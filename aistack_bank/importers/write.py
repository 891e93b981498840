"""Writing imported questions as bank files: next free ids, slugs from names, topic updated."""

from __future__ import annotations

import re
from pathlib import Path

from ..authoring import QUESTION_SCHEMA_COMMENT, TOPIC_SCHEMA_COMMENT, next_ids, render_question_yaml, slugify, topic_with, yaml_text
from ..load import QUESTIONS_DIR, TOPIC_FILE
from ..writing import write_atomic
from .records import ImportedQuestion, ImportReport

IMPORTED_TAG = "imported"
IMPORTED_CATEGORY = "imported"
"""The category of a topic created by an import into an empty bank (titled "Imported")."""


def _tag(tag: str) -> str:
    return slugify(tag, words=6) if tag else IMPORTED_TAG


def _question_data(qid: str, question: ImportedQuestion) -> dict:
    options = []
    for index, (text, feedback) in enumerate(question.options):
        option = {"id": chr(ord("a") + index), "text": text}
        if feedback:
            option["feedback"] = feedback
        options.append(option)
    tags = list(dict.fromkeys(_tag(t) for t in question.tags)) or [IMPORTED_TAG]
    if question.kind == "single-choice":
        body = {"options": options, "correct": chr(ord("a") + question.correct)}
    else:
        body = {**({"options": options} if options else {}), **question.fields}
    if question.kind == "numerical" and "check" not in body:
        # The kind's check is mandatory: restate the imported value, for the author to replace.
        body["check"] = {"script": f"answer({yaml_number(body['answer'])})"}
    return {
        "id": qid, "kind": question.kind, "stem": question.stem, **body,
        **({"explanation": question.explanation} if question.explanation else {}),
        "tags": tags, "difficulty": question.difficulty,
    }


IMPORTED_CHECK_COMMENT = ("# Imported: this check only restates the value from the file. Replace it with the\n"
                          "# computation that gives the answer (bank/README.md, numeric checks).")


def yaml_number(value) -> str:
    """A number as YAML 1.1 reads it back as a number (``1.0e-20``, never ``1e-20``, a string)."""
    value = float(value)
    if value == int(value) and abs(value) < 1e15:
        return str(int(value))
    text = repr(value)
    if "e" in text and "." not in text.split("e")[0]:
        mantissa, exponent = text.split("e")
        text = f"{mantissa}.0e{exponent if exponent[0] in '+-' else '+' + exponent}"
    return text


def _scalar(key: str, value, indent: int) -> str:
    if isinstance(value, bool):
        return " true" if value else " false"
    if isinstance(value, (int, float)):
        return " " + yaml_number(value)
    if isinstance(value, list):
        return " [" + ", ".join(str(v) for v in value) + "]"
    if key in ("id", "kind", "scoring"):
        return f" {value}"
    return yaml_text(str(value), indent)


def render_imported_yaml(data: dict) -> bytes:
    """A question file of any kind for ``data``, in the bundled bank's style: lists of records
    as block sequences, texts as :func:`~aistack_bank.authoring.yaml_text` writes them."""
    if data["kind"] == "single-choice":
        return render_question_yaml(data)
    out = [QUESTION_SCHEMA_COMMENT]
    for key, value in data.items():
        if isinstance(value, list) and value and isinstance(value[0], dict):
            out.append(f"{key}:")
            for record in value:
                first = True
                for field, item in record.items():
                    if item is None:
                        continue
                    out.append(("  - " if first else "    ") + f"{field}:" + _scalar(field, item, 4))
                    first = False
        elif isinstance(value, dict):
            if key == "check":
                out += IMPORTED_CHECK_COMMENT.split("\n")
            out.append(f"{key}:")
            out += [f"  {field}:" + _scalar(field, item, 2) for field, item in value.items()]
        else:
            out.append(f"{key}:" + _scalar(key, value, 0))
    return ("\n".join(out) + "\n").encode("utf-8")


def _new_topic(questions: list[ImportedQuestion], source_name: str) -> str:
    """The text of a topic file for a bank created by an import."""
    category = next((q.category for q in questions if q.category), None) or "Imported questions"
    leaf = [part for part in re.split(r"(?<!/)/(?!/)", category) if part and not part.startswith("$")][-1:] or ["Imported questions"]
    title = leaf[0].replace("//", "/").strip() or "Imported questions"
    from ..importers._html import html_to_text

    title = " ".join(html_to_text(title)[0].split()) or "Imported questions"
    lines = [
        TOPIC_SCHEMA_COMMENT,
        f"id: {slugify(title, words=8)}",
        f"category: {IMPORTED_CATEGORY}",
        f"title: {_quote(title)}",
        f"summary: {_quote(f'Questions imported from {source_name}.')}",
        "key_points: []",
        "tags:",
        f"  {IMPORTED_TAG}: \"questions imported from another system\"",
        "questions: []",
    ]
    return "\n".join(lines) + "\n"


def _quote(text: str) -> str:
    import json

    return json.dumps(text, ensure_ascii=False)


def _checked_topic(bank_dir: Path) -> None:
    """BankError E703 unless the bank's topic file is valid and has a `questions:` list."""
    from ..errors import BankError, Location
    from ..load import read_topic

    topic, doc, diags = read_topic(bank_dir)
    problems = [d for d in diags if d.severity.value == "error"]
    if problems:
        first = problems[0]
        raise BankError(f"the topic file has errors; fix them first (`bank validate`): {first}", first.location or Location.of(bank_dir / TOPIC_FILE), code="E703")
    if not isinstance(doc.data.get("questions"), list):
        raise BankError("the topic file has no `questions:` list to add the imported questions to; add `questions: []`", doc.locate(()), code="E703")


def write_imported(questions: list[ImportedQuestion], bank_dir: Path, translations: Path | None, *, source_name: str, topic: str | None = None) -> ImportReport:
    """Write the questions into the topic ``topic`` (the only one when None) and list them
    there, all or nothing; into an empty bank, a new topic (and category) is created.

    Everything is rendered in memory first; the files are written into a temporary folder
    inside the bank, then moved into ``questions/`` and the topic is replaced last. If anything
    fails (or the import is interrupted) before the move, the bank is untouched; a failure
    during the move takes the moved files back out.
    """
    import os
    import shutil
    import tempfile

    from ..authoring import topic_folder
    from ..load import CATEGORIES_FILE, is_single_topic_layout, topic_folders
    from ..topics import categories_file

    report = ImportReport()
    if not questions:
        return report
    categories_path = bank_dir / CATEGORIES_FILE
    categories_bytes = None
    empty = bank_dir.is_dir() is False or (not categories_path.exists() and not is_single_topic_layout(bank_dir) and not topic_folders(bank_dir))
    if empty:
        topic_text = _new_topic(questions, source_name)
        folder = bank_dir / re.search(r"^id: (\S+)$", topic_text, re.M).group(1)
        categories_bytes = categories_file([(IMPORTED_CATEGORY, "Imported")])
    else:
        folder = topic_folder(bank_dir, topic)
    topic_path = folder / TOPIC_FILE
    if topic_path.exists():
        _checked_topic(folder)
        from ..safety import read_regular
        from ..yamlsource import MAX_FILE_BYTES

        topic_text = read_regular(topic_path, MAX_FILE_BYTES).decode("utf-8")
    else:
        topic_text = _new_topic(questions, source_name)
        report.topic_created = True
    ids = next_ids(bank_dir, translations, len(questions))
    planned: list[tuple[Path, bytes]] = []
    all_tags: set[str] = set()
    for qid, question in zip(ids, questions):
        data = _question_data(qid, question)
        all_tags |= set(data["tags"])
        name = re.sub(r"^q[0-9]{3,}\b", "", question.name).strip() or question.stem
        path = folder / QUESTIONS_DIR / f"{qid}-{slugify(name)}.yaml"
        planned.append((path, render_imported_yaml(data)))
        for note in question.notes:
            report.notes.append(f"{path.as_posix()}: {note}")
        if not question.explanation:
            report.notes.append(f"{path.as_posix()}: the source has no general feedback; write the explanation")
    topic_bytes = topic_with(topic_path, topic_text, ids, dict.fromkeys(all_tags, f"tag imported from {source_name}"))
    (folder / QUESTIONS_DIR).mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".import-", dir=folder))
    moved: list[Path] = []
    try:
        for path, data in planned:
            write_atomic(staging / path.name, data)
        for path, _ in planned:
            if path.exists():
                raise FileExistsError(f"{path.as_posix()} already exists")
            os.replace(staging / path.name, path)
            moved.append(path)
        write_atomic(topic_path, topic_bytes)
        if categories_bytes is not None:
            write_atomic(categories_path, categories_bytes)
    except BaseException:
        for path in moved:
            path.unlink(missing_ok=True)
        if report.topic_created:
            topic_path.unlink(missing_ok=True)
        raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    report.written = [path for path, _ in planned]
    report.topic_file = topic_path
    return report
