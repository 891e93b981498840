"""A bank in one language: every text replaced by its current, non-fuzzy translation.

Exporters only ever see the result; they never read catalogs. An untranslated, fuzzy or
out-of-date entry is an error naming the entries, unless ``allow_fallback`` is set, in which
case that one text stays in English (visibly, never a stale translation).
"""

from __future__ import annotations

from ..errors import Diagnostic, Location, error, warning
from .fields import bank_fields
from .status import entry_state


def localize(source, bank, catalog, *, allow_fallback: bool = False):
    """(localized Bank or None, diagnostics) for ``catalog``'s language."""
    fields = bank_fields(source)
    active = catalog.active()
    texts: dict[str, str] = {}
    diags: list[Diagnostic] = []
    for f in fields:
        entry = active.get(f.key)
        state = entry_state(entry, f.text)
        if state == "translated":
            texts[f.key] = entry.msgstr
            continue
        where = Location.of(catalog.path, entry.linenum or 0, 1 if entry.linenum else 0) if entry is not None else Location.of(catalog.path)
        what = "is not translated" if state == "untranslated" else "is fuzzy or out of date with the English"
        if allow_fallback:
            diags.append(warning("W501" if state == "untranslated" else "W502", f"{f.key} {what}; exported in English", where))
        else:
            code = "E504" if state == "fuzzy" else "E509"
            diags.append(error(code, f"{f.key} {what} (use --allow-fallback to export it in English)", where))
    if any(d.severity.value == "error" for d in diags):
        return None, diags
    return apply_texts(bank, texts, catalog.language), diags


def apply_texts(bank, texts: dict[str, str], language: str):
    """``bank`` with every text whose key is in ``texts`` replaced."""
    t = bank.topic
    topic = t.model_copy(update={
        "title": texts.get("topic.title", t.title),
        "category": texts.get("topic.category", t.category),
        "summary": texts.get("topic.summary", t.summary),
        "key_points": [texts.get(f"topic.key_point.{i}", p) for i, p in enumerate(t.key_points, 1)],
    })
    questions = []
    for q in bank.questions:
        options = [
            o.model_copy(update={
                "text": texts.get(f"{q.id}.option.{o.id}", o.text),
                "feedback": texts.get(f"{q.id}.option.{o.id}.feedback", o.feedback) if o.feedback is not None else None,
            })
            for o in q.options
        ]
        questions.append(q.model_copy(update={
            "stem": texts.get(f"{q.id}.stem", q.stem),
            "explanation": texts.get(f"{q.id}.explanation", q.explanation),
            "options": options,
        }))
    return bank.model_copy(update={"topic": topic, "questions": tuple(questions), "lang": language})
