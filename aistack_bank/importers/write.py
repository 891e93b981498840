"""Writing imported questions as bank files: next free ids, slugs from names, topic updated."""

from __future__ import annotations

import re
from pathlib import Path

from ..project.authoring import QUESTION_SCHEMA_COMMENT, TOPIC_SCHEMA_COMMENT, next_ids, render_question_yaml, slugify, topic_with, yaml_text
from ..kinds import REGISTRY, item_id_for, kind_rules
from ..load import QUESTIONS_DIR, TOPIC_FILE
from ..writing import commit_files
from .records import ImportedQuestion, ImportReport, Skipped

IMPORTED_TAG = "imported"
IMPORTED_CATEGORY = "imported"
"""The category of a topic created by an import into an empty bank (titled "Imported")."""


def _tag(tag: str) -> str:
    return slugify(tag, words=6) if tag else IMPORTED_TAG


def _one_key(model) -> bool:
    """Whether a question of ``model``'s kind picks one of its lettered options (single choice):
    an imported one is given as its options and the index of the right one."""
    return model.PICKS_OPTIONS and model.ONE_KEY


def _question_data(qid: str, question: ImportedQuestion) -> dict:
    options = []
    for index, (text, feedback) in enumerate(question.options):
        option = {"id": chr(ord("a") + index), "text": text}
        if feedback:
            option["feedback"] = feedback
        options.append(option)
    tags = list(dict.fromkeys(_tag(t) for t in question.tags)) or [IMPORTED_TAG]
    kind = REGISTRY.get(question.kind)
    if kind is not None and _one_key(kind.model):
        body = {"options": options, "correct": chr(ord("a") + question.correct)}
    else:
        body = {**({"options": options} if options else {}), **question.fields}
    for ids in kind.item_ids if kind is not None else ():
        items = body.get(ids.field)
        if isinstance(items, list):
            body[ids.field] = [item if "id" in item else {"id": item_id_for(ids.prefix, position, ()), **item}
                               for position, item in enumerate(items, 1)]
    if kind is not None and kind.model.model_fields["check"].is_required() and "check" not in body:
        # The kind's check is mandatory (a numerical question's): restate the imported value, for the author to replace.
        body["check"] = {"script": f"answer({yaml_number(body['answer'])})"}
    return {
        "id": qid, "kind": question.kind, "stem": question.stem, **body,
        **({"explanation": question.explanation} if question.explanation else {}),
        "tags": tags, "difficulty": question.difficulty,
    }


FILE_HEAD = ("id", "kind", "stem")
FILE_TAIL = ("check", "explanation", "tags", "difficulty")
"""The order of a question file's fields, as in the bundled bank: these first, the kind's own
fields (in the model's order), then these."""


def file_data(question) -> dict:
    """The fields a question model was given, in the order its file writes them."""
    given = question.model_dump(exclude_unset=True)
    own = [key for key in given if key not in FILE_HEAD and key not in FILE_TAIL]
    return {key: given[key] for key in (*FILE_HEAD, *own, *FILE_TAIL) if key in given}


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
    as block sequences, texts as :func:`~aistack_bank.project.authoring.yaml_text` writes them."""
    kind = REGISTRY.get(data["kind"])
    if kind is not None and _one_key(kind.model):
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


MAX_SLUG = 60
"""The longest slug an import puts in a file or folder name (a 300-letter word is cut)."""


def bounded_slug(text: str, words: int = 5) -> str:
    """:func:`slugify` cut to :data:`MAX_SLUG` characters, at a hyphen when there is one."""
    slug = slugify(text, words=words)
    if len(slug) > MAX_SLUG:
        cut = slug[:MAX_SLUG]
        slug = cut.rsplit("-", 1)[0] if "-" in cut[10:] else cut
    return slug


def topic_id_for(title: str, notes: list[str]) -> str:
    """A topic id made from ``title`` that the bank accepts: a bounded slug that starts with a
    letter and is no reserved id (each change explained in ``notes``)."""
    from ..load import reserved_topic_id

    slug = bounded_slug(title, words=8)
    if not slug[0].isalpha():
        notes.append(f"the topic id from {title!r} would start with a digit, which ids may not; it is topic-{slug}")
        slug = bounded_slug(f"topic-{slug}", words=9)
    why = reserved_topic_id(slug)
    if why:
        notes.append(f"{why.split(';')[0]}; the imported topic's id is {slug}-topic")
        slug = f"{slug}-topic"
    return slug


_LINE_SEPARATORS = {"\u2028": "\n", "\u2029": "\n\n"}


def clean_texts(value, where: str, notes: list[str]):
    """``value`` (a question's data) with every text made one the bank accepts: line and
    paragraph separators as line breaks, the characters no bank text may hold (controls, NUL,
    bidirectional overrides, byte-order marks) removed, NFC; each change explained in ``notes``."""
    import unicodedata

    from ..safety import FORBIDDEN, describe

    if isinstance(value, dict):
        return {key: clean_texts(item, f"{where}.{key}" if where else str(key), notes) for key, item in value.items()}
    if isinstance(value, list):
        return [clean_texts(item, f"{where}[{index}]", notes) for index, item in enumerate(value)]
    if isinstance(value, tuple):
        return tuple(clean_texts(item, f"{where}[{index}]", notes) for index, item in enumerate(value))
    if not isinstance(value, str):
        return value
    text = value
    if FORBIDDEN.search(text):
        found: dict[str, int] = {}

        def fix(match) -> str:
            found[match.group()] = found.get(match.group(), 0) + 1
            return _LINE_SEPARATORS.get(match.group(), "")

        text = FORBIDDEN.sub(fix, text)
        for char, count in found.items():
            what = "written as a line break" if char in _LINE_SEPARATORS else "removed (no bank text may hold it)"
            notes.append(f"{where}: {describe(char)} {what}" + (f", {count} times" if count > 1 else ""))
    if not text.isascii() and not unicodedata.is_normalized("NFC", text):
        text = unicodedata.normalize("NFC", text)
        notes.append(f"{where}: normalized to NFC (decomposed accents composed)")
    return text


def _new_topic(questions: list[ImportedQuestion], source_name: str, notes: list[str] | None = None) -> str:
    """The text of a topic file for a bank created by an import."""
    category = next((q.category for q in questions if q.category), None) or "Imported questions"
    leaf = [part for part in re.split(r"(?<!/)/(?!/)", category) if part and not part.startswith("$")][-1:] or ["Imported questions"]
    title = leaf[0].replace("//", "/").strip() or "Imported questions"
    from ..importers._html import html_to_text

    title = " ".join(clean_texts(html_to_text(title)[0], "title", []).split())[:255].strip() or "Imported questions"
    return _topic_text(topic_id_for(title, notes if notes is not None else []), IMPORTED_CATEGORY, title, source_name)


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


def category_levels(category: str | None) -> list[str]:
    """The levels of a Moodle category path as plain titles: ``$course$/top/A/B`` → [A, B]
    (``$…$`` contexts and the course's ``top`` dropped, ``//`` read as a slash)."""
    from ..importers._html import html_to_text

    if not category:
        return []
    parts = [part.replace("//", "/").strip() for part in re.split(r"(?<!/)/(?!/)", category)]
    parts = [part for part in parts if part and not part.startswith("$")]
    if parts and parts[0].lower() == "top":
        parts = parts[1:]
    titles = [" ".join(clean_texts(html_to_text(part)[0], "category", []).split())[:255].strip() for part in parts]
    return [title for title in titles if title]


def _topic_text(topic_id: str, category_id: str, title: str, source_name: str) -> str:
    lines = [
        TOPIC_SCHEMA_COMMENT,
        f"id: {topic_id}",
        f"category: {category_id}",
        f"title: {_quote(title)}",
        f"summary: {_quote(f'Questions imported from {source_name}.')}",
        "key_points: []",
        "tags:",
        f"  {IMPORTED_TAG}: \"questions imported from another system\"",
        "questions: []",
    ]
    return "\n".join(lines) + "\n"


def _with_categories(path: Path, text: str, added: list[tuple[str, str]]) -> bytes:
    """The categories file ``text`` with the (id, title) categories ``added`` at its end."""
    from ..errors import BankError, Location
    from ..project.topics import rewrite_yaml

    def add(data: dict) -> None:
        for category_id, title in added:
            data["categories"].append({"id": category_id, "title": title})

    try:
        return rewrite_yaml(path, text, add)
    except Exception:  # ruamel raises many types for a broken file; a file without a categories list
        raise BankError("cannot add the imported categories: the file has errors; fix them first (`bank validate`)", Location.of(path), code="E703") from None


def _topics_by_category(questions: list[ImportedQuestion], bank_dir: Path, source_name: str, notes: list[str]):
    """One (folder, topic text or None, category (id, title) or None, questions) per category
    of the file: the first level of its path is the bank category, the rest the topic (one
    level: a topic of that name in it); questions before any category go into "Imported questions"."""
    groups: dict[tuple[str, ...], list[ImportedQuestion]] = {}
    for question in questions:
        groups.setdefault(tuple(category_levels(question.category)), []).append(question)
    taken: dict[str, tuple[str, ...]] = {}
    plans = []
    for levels, members in groups.items():
        if levels:
            category_title = levels[0]
            title = " / ".join(levels[1:]) or levels[0]
        else:
            category_title, title = "Imported", "Imported questions"
        category_id = IMPORTED_CATEGORY if not levels else topic_id_for(category_title, [])
        topic_id = topic_id_for(title, notes)
        if topic_id in taken and taken[topic_id] != levels:
            topic_id = topic_id_for(f"{title} {category_title}", notes)
        taken[topic_id] = levels
        folder = bank_dir / topic_id
        topic_text = None if (folder / TOPIC_FILE).exists() else _topic_text(topic_id, category_id, title, source_name)
        plans.append((folder, topic_text, (category_id, category_title), members))
    return plans


def write_imported(questions: list[ImportedQuestion], bank_dir: Path, translations: Path | None, *, source_name: str, topic: str | None = None,
                   by_category: bool = False) -> ImportReport:
    """Write the questions into the topic ``topic`` (the only one when None) and list them
    there, all or nothing; into an empty bank, a new topic (and category) is created. With
    ``by_category`` (GIFT) and no ``topic``, a file of several categories goes into one topic per
    category, nested under its parent category (both created when missing).

    Everything is rendered in memory first, then written in one transaction
    (:func:`~aistack_bank.writing.commit_files`: staged outside the bank, committed by a journal
    that `bank import --recover` completes after a crash). The caller holds the bank lock.
    """
    from ..project.authoring import topic_folder
    from ..load import CATEGORIES_FILE, is_single_topic_layout, topic_folders
    from ..safety import read_regular
    from ..project.topics import categories_file
    from ..yamlsource import MAX_FILE_BYTES

    report = ImportReport()
    if not questions:
        return report
    categories_path = bank_dir / CATEGORIES_FILE
    empty = bank_dir.is_dir() is False or (not categories_path.exists() and not is_single_topic_layout(bank_dir) and not topic_folders(bank_dir))
    several = by_category and topic is None and len({tuple(category_levels(q.category)) for q in questions}) > 1
    plans: list[tuple[Path, str | None, tuple[str, str] | None, list[ImportedQuestion]]] = []
    if several:
        plans = _topics_by_category(questions, bank_dir, source_name, report.notes)
    elif empty:
        topic_text = _new_topic(questions, source_name, report.notes)
        folder = bank_dir / re.search(r"^id: (\S+)$", topic_text, re.M).group(1)
        plans = [(folder, topic_text, (IMPORTED_CATEGORY, "Imported"), questions)]
    else:
        folder = topic_folder(bank_dir, topic)
        plans = [(folder, None if (folder / TOPIC_FILE).exists() else _new_topic(questions, source_name, report.notes), None, questions)]
    free = iter(next_ids(bank_dir, translations, len(questions)))
    qid = next(free)
    changes: list[tuple[Path, bytes]] = []
    written: list[Path] = []
    needed: dict[str, str] = {}
    for folder, topic_text, category, members in plans:
        topic_path = folder / TOPIC_FILE
        if topic_text is None:
            _checked_topic(folder)
            topic_text = read_regular(topic_path, MAX_FILE_BYTES).decode("utf-8")
        planned, ids, all_tags, qid = _plan_questions(members, folder, qid, free, source_name, report)
        if not planned:
            continue
        if not topic_path.exists():
            report.topic_created = True
            report.topics_created.append(topic_path)
            if category is not None:
                needed.setdefault(*category)
        changes += planned
        changes.append((topic_path, topic_with(topic_path, topic_text, ids, dict.fromkeys(all_tags, f"tag imported from {source_name}"))))
        written += [path for path, _ in planned]
        report.topic_file = topic_path
    if not written:
        report.topic_created = False
        return report
    for path in written:
        if path.exists():
            from ..errors import BankError, Location

            raise BankError("already exists; the import writes only new question files", Location.of(path), code="E703")
    if categories_path.exists():
        from ..load import read_categories

        known = {c.id for c in (read_categories(bank_dir)[0] or [])}
        added = [(cid, title) for cid, title in needed.items() if cid not in known]
        if added:
            changes.append((categories_path, _with_categories(categories_path, read_regular(categories_path, MAX_FILE_BYTES).decode("utf-8"), added)))
    elif needed:
        changes.append((categories_path, categories_file(list(needed.items()))))
    commit_files(bank_dir, changes)
    report.written = written
    return report


def _plan_questions(questions: list[ImportedQuestion], folder: Path, qid: str, free, source_name: str, report: ImportReport):
    """The question files of ``questions`` in ``folder`` (each checked as `bank validate` would),
    their ids, their tags and the next free id; what cannot be written is skipped in ``report``."""
    from ..load import question_from_data, read_question_bytes
    from ..yamlsource import MAX_FILE_BYTES

    planned: list[tuple[Path, bytes]] = []
    ids: list[str] = []
    all_tags: set[str] = set()
    for question in questions:
        notes: list[str] = []
        data = clean_texts(_question_data(qid, question), "", notes)
        name = re.sub(r"^q[0-9]{3,}\b", "", clean_texts(question.name, "name", [])).strip() or data["stem"]
        path = folder / QUESTIONS_DIR / f"{qid}-{bounded_slug(name)}.yaml"
        built, refused = question_from_data(data, path)
        problem = None
        if built is None:
            problem = f"the question would not pass `bank validate`: {refused[0].code} {refused[0].message}"
        else:
            data = file_data(built)
            rendered = render_imported_yaml(data)
            if len(rendered) > MAX_FILE_BYTES:
                problem = f"its question file would be {len(rendered)} bytes; a bank file holds at most {MAX_FILE_BYTES} (E104)"
            else:  # what only the file shows (its size, its YAML), and the kind's own rules (E328, …)
                source, diags = read_question_bytes(rendered, path)
                if source.doc is not None:
                    diags = diags + kind_rules(built, source.doc)
                errors = [d for d in diags if d.severity.value == "error"]
                if errors:
                    problem = f"the question would not pass `bank validate`: {errors[0].code} {errors[0].message}"
        if problem:
            report.skipped.append(Skipped(question.name or data["stem"][:60], problem, question.line))
            continue
        all_tags |= set(data["tags"])
        planned.append((path, rendered))
        ids.append(qid)
        qid = next(free, qid)
        where = f" (line {question.line} of {source_name})" if question.line else ""
        for note in notes + question.notes:
            report.notes.append(f"{path.as_posix()}: {note}{where if note in notes else ''}")
        if not question.explanation:
            report.notes.append(f"{path.as_posix()}: the source has no general feedback; write the explanation")
    return planned, ids, all_tags, qid
