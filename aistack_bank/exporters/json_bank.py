"""Conversion of a bank to the versioned JSON contract of :mod:`aistack_bank.exchange`."""

from __future__ import annotations

import json
from typing import Sequence

from ..exchange import ExportDocument, ExportedOption, ExportedQuestion, ExportedTopic
from ..model import Bank
from ..options import ExportOptions
from ._format import Format


def build_document(banks: Sequence[Bank]) -> ExportDocument:
    first = banks[0]

    def texts(get) -> dict[str, str]:
        return {b.lang: get(b) for b in banks}

    topic = ExportedTopic(
        id=first.topic.id,
        category=texts(lambda b: b.category.title),
        category_id=first.category.id,
        title=texts(lambda b: b.topic.title),
        summary=texts(lambda b: b.topic.summary),
        key_points=[texts(lambda b, i=i: b.topic.key_points[i]) for i in range(len(first.topic.key_points))],
        tags=dict(first.topic.tags),
    )
    questions = []
    for index, q in enumerate(first.questions):
        options = [
            ExportedOption(
                id=o.id,
                text=texts(lambda b, i=i: b.questions[index].options[i].text),
                correct=o.id == q.correct,
                feedback=texts(lambda b, i=i: b.questions[index].options[i].feedback) if o.feedback is not None else None,
            )
            for i, o in enumerate(q.options)
        ]
        questions.append(ExportedQuestion(
            id=q.id, kind=q.kind, stem=texts(lambda b: b.questions[index].stem), options=options,
            correct=q.correct, explanation=texts(lambda b: b.questions[index].explanation),
            tags=list(q.tags), difficulty=q.difficulty,
        ))
    return ExportDocument(languages=[b.lang for b in banks], topic=topic, questions=questions)


def render_json(document: ExportDocument) -> bytes:
    data = document.model_dump(mode="json", exclude_none=True)
    return (json.dumps(data, ensure_ascii=False, indent=2) + "\n").encode("utf-8")


def _render(banks: Sequence[Bank], options: ExportOptions) -> bytes:
    return render_json(build_document(banks))


FORMAT = Format(
    name="json", folder="json", honours=frozenset(),
    render=_render, per_language="{stem}-{lang}.json", multilingual="{stem}.json", multilingual_with_one_language=True,
)
export = FORMAT
