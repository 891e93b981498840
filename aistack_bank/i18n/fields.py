"""The translatable fields of a bank, each with its stable key (the gettext ``msgctxt``)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

KEEP_NUMBERS = "Keep every number, unit and formula exactly as in the English: a numeric check reads them."


@dataclass(frozen=True)
class TextField:
    """One translatable text of the bank."""

    key: str
    """Stable msgctxt, e.g. ``q003.option.c`` or ``topic.key_point.2``."""
    text: str
    """The English text (the msgid)."""
    path: Path
    """The YAML file it comes from."""
    line: int
    """Its line in that file (1-based)."""
    notes: tuple[str, ...] = ()
    """Notes for translators (``#.`` comments)."""
    question_id: str | None = None
    key_bearing: bool = False
    """True for stems and options: a stale translation there can change the answer."""


def topic_fields(topic, doc, path: Path) -> list[TextField]:
    def line(p):
        return doc.locate(p).line if doc is not None else 0

    fields = [
        TextField("topic.title", topic.title, path, line(("title",)), ("Topic title.",)),
        TextField("topic.category", topic.category, path, line(("category",)), ("Category the topic belongs to.",)),
        TextField("topic.summary", topic.summary, path, line(("summary",)), ("Topic summary shown under the title.",)),
    ]
    for i, point in enumerate(topic.key_points, 1):
        fields.append(TextField(f"topic.key_point.{i}", point, path, line(("key_points", i - 1)), (f"Key point {i} of the topic.",)))
    return fields


def question_fields(question, doc, path: Path) -> list[TextField]:
    q = question

    def line(p):
        return doc.locate(p).line if doc is not None else 0

    base_notes = (q.translator_note,) if q.translator_note else ()
    checked = base_notes + ((KEEP_NUMBERS,) if q.check is not None else ())
    fields = [TextField(f"{q.id}.stem", q.stem, path, line(("stem",)), ("Question stem.",) + checked, q.id, True)]
    for i, option in enumerate(q.options):
        role = "the correct option" if option.id == q.correct else "a wrong option"
        fields.append(TextField(f"{q.id}.option.{option.id}", option.text, path, line(("options", i, "text")), (f"Option {option.id} ({role}).",) + checked, q.id, True))
        if option.feedback is not None:
            fields.append(TextField(f"{q.id}.option.{option.id}.feedback", option.feedback, path, line(("options", i, "feedback")), (f"Feedback shown when option {option.id} ({role}) is chosen.",) + base_notes, q.id))
    fields.append(TextField(f"{q.id}.explanation", q.explanation, path, line(("explanation",)), ("Explanation shown after answering.",) + checked, q.id))
    return fields


def bank_fields(source) -> list[TextField]:
    """Every translatable field of a read bank (:class:`~aistack_bank.load.BankSource`), in bank order."""
    fields: list[TextField] = []
    if source.topic is not None:
        fields += topic_fields(source.topic, source.topic_doc, source.root / "topic.yaml")
    order = {qid: i for i, qid in enumerate(source.topic.questions)} if source.topic is not None else {}
    questions = [qs for qs in source.questions if qs.question is not None]
    questions.sort(key=lambda qs: (order.get(qs.question.id, len(order)), qs.question.id))
    for qs in questions:
        fields += question_fields(qs.question, qs.doc, qs.path)
    return fields
