"""Writing imported questions as bank files: next free ids, slugs from names, topic updated."""

from __future__ import annotations

import re
from pathlib import Path

from ..authoring import TOPIC_SCHEMA_COMMENT, append_to_topic, next_ids, render_question_yaml, slugify
from ..load import QUESTIONS_DIR, TOPIC_FILE
from ..writing import write_atomic
from . import ImportedQuestion, ImportReport

IMPORTED_TAG = "imported"


def _tag(tag: str) -> str:
    return slugify(tag, words=6) if tag else IMPORTED_TAG


def _question_data(qid: str, q: ImportedQuestion) -> dict:
    options = []
    for index, (text, feedback) in enumerate(q.options):
        option = {"id": chr(ord("a") + index), "text": text}
        if feedback:
            option["feedback"] = feedback
        options.append(option)
    tags = list(dict.fromkeys(_tag(t) for t in q.tags)) or [IMPORTED_TAG]
    return {
        "id": qid, "kind": "single-choice", "stem": q.stem, "options": options,
        "correct": chr(ord("a") + q.correct), "explanation": q.explanation,
        "tags": tags, "difficulty": q.difficulty,
    }


def _create_topic(bank: Path, questions: list[ImportedQuestion], source_name: str) -> None:
    category = next((q.category for q in questions if q.category), None) or "Imported questions"
    leaf = [part for part in re.split(r"(?<!/)/(?!/)", category) if part and not part.startswith("$")][-1:] or ["Imported questions"]
    title = leaf[0].replace("//", "/").strip() or "Imported questions"
    from ..importers._html import html_to_text

    title = html_to_text(title)[0] or "Imported questions"
    lines = [
        TOPIC_SCHEMA_COMMENT,
        f"id: {slugify(title, words=8)}",
        "category: Imported",
        f"title: {_quote(title)}",
        f"summary: {_quote(f'Questions imported from {source_name}.')}",
        "key_points: []",
        "tags:",
        f"  {IMPORTED_TAG}: \"questions imported from another system\"",
        "questions: []",
    ]
    write_atomic(bank / TOPIC_FILE, ("\n".join(lines) + "\n").encode("utf-8"))


def _quote(text: str) -> str:
    import json

    return json.dumps(text, ensure_ascii=False)


def _add_tags_to_topic(bank: Path, tags: set[str], source_name: str) -> None:
    from ..authoring import _yaml
    import io

    path = bank / TOPIC_FILE
    yaml = _yaml()
    data = yaml.load(path.read_text(encoding="utf-8"))
    vocabulary = data.get("tags")
    missing = sorted(t for t in tags if vocabulary is None or t not in vocabulary)
    if not missing:
        return
    for tag in missing:
        vocabulary[tag] = f"tag imported from {source_name}"
    buffer = io.StringIO()
    yaml.dump(data, buffer)
    write_atomic(path, buffer.getvalue().encode("utf-8"))


def write_imported(questions: list[ImportedQuestion], bank: Path, translations: Path | None, *, source_name: str) -> ImportReport:
    report = ImportReport()
    if not questions:
        return report
    if not (bank / TOPIC_FILE).exists():
        bank.mkdir(parents=True, exist_ok=True)
        _create_topic(bank, questions, source_name)
        report.topic_created = True
    ids = next_ids(bank, translations, len(questions))
    used_slugs = {p.name.split("-", 1)[-1] for p in (bank / QUESTIONS_DIR).glob("*.yaml")} if (bank / QUESTIONS_DIR).is_dir() else set()
    all_tags: set[str] = set()
    for qid, q in zip(ids, questions):
        data = _question_data(qid, q)
        all_tags |= set(data["tags"])
        name = re.sub(r"^q[0-9]{3,}\b", "", q.name).strip() or q.stem
        slug = slugify(name)
        path = bank / QUESTIONS_DIR / f"{qid}-{slug}.yaml"
        write_atomic(path, render_question_yaml(data))
        used_slugs.add(path.name.split("-", 1)[-1])
        report.written.append(path)
        for note in q.notes:
            report.notes.append(f"{path.as_posix()}: {note}")
        if not q.explanation:
            report.notes.append(f"{path.as_posix()}: the source has no general feedback; write the explanation")
    _add_tags_to_topic(bank, all_tags, source_name)
    append_to_topic(bank, ids)
    return report
