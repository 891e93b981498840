"""The bank as item analysis needs it: every language's texts, keys and where each question lives."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import Diagnostic, Location, Severity


def norm(text: str) -> str:
    """Text as compared with what an LMS shows: NFC, whitespace runs collapsed, ends stripped."""
    return " ".join(unicodedata.normalize("NFC", text).split())


@dataclass(frozen=True)
class ItemInfo:
    """One question: its options and keys (a kind with lettered options), its text in every
    language, and the question itself in every language, which reads and scores responses."""

    id: str
    options: tuple[str, ...]  # the lettered options' ids (none for a kind without options)
    keys: tuple[str, ...]  # the right options' ids
    stems: dict[str, str]  # language -> stem
    option_texts: dict[str, dict[str, str]]  # language -> option id -> text
    location: Location  # the question's `id` in its YAML file
    key_location: Location  # the `correct:` value (the `id` for a kind without options)
    option_locations: dict[str, Location]
    stem_entries: dict[str, Location] = field(default_factory=dict)  # language -> catalog line of `<id>.stem`
    questions: dict[str, object] = field(default_factory=dict, compare=False)  # language -> the localized question

    @property
    def key(self) -> str | None:
        """The first right option's id (None for a kind without options)."""
        return self.keys[0] if self.keys else None

    @property
    def kind(self) -> str:
        return next(iter(self.questions.values())).kind

    @property
    def scored(self) -> bool:
        """Whether responses to it are scored automatically (item statistics need it)."""
        return next(iter(self.questions.values())).SCORED

    def response_problem(self, language: str, response: str) -> str | None:
        """Why ``response`` (as the practice site records it) is no response to this question
        in ``language``, or None when it is one. Any text answers a question graded by a person."""
        if not self.scored:
            return None
        try:
            self.questions[language].parse_response(response)
        except ValueError as exc:
            return str(exc)
        return None

    def score(self, language: str, response: str | None) -> float:
        """The marks (0 to 1) ``response`` earns in ``language``; no response earns 0."""
        if response is None:
            return 0.0
        question = self.questions[language]
        return question.score(question.parse_response(response))

    def picked(self, language: str, response: str | None) -> frozenset[str]:
        """The options ``response`` picks (none for a kind without options)."""
        if response is None or not self.options:
            return frozenset()
        parsed = self.questions[language].parse_response(response)
        return frozenset([parsed]) if isinstance(parsed, str) else frozenset(parsed)


@dataclass
class BankInfo:
    topic_id: str
    languages: list[str]
    items: dict[str, ItemInfo]  # in the topic's order

    def split_identifier(self, identifier: str) -> tuple[str, str | None] | None:
        """``q001`` → (q001, None); ``q001-fr``/``q001_fr``/``q001.fr`` → (q001, fr); else None."""
        m = re.fullmatch(r"(q[0-9]{3,})(?:[-_.]([A-Za-z]{2,3}(?:[-_][A-Za-z]{2,4})?))?", identifier.strip())
        if not m or m.group(1) not in self.items:
            return None
        lang = m.group(2)
        if lang:
            primary, _, region = lang.replace("-", "_").partition("_")
            lang = primary.lower() + (f"_{region.upper()}" if region else "")
        return m.group(1), lang


def load_bank_info(bank: Path, translations: Path | None) -> tuple[BankInfo | None, list[Diagnostic]]:
    """The bank in every language (untranslated texts stay English); (None, errors) if unusable."""
    from ..build import available_languages
    from ..i18n.catalog import read_catalog
    from ..i18n.localize import localize
    from ..load import english_library, read_library
    from ..rules.validate import library_rules

    source = read_library(bank)
    errors = [d for d in source.diagnostics + library_rules(source) if d.severity is Severity.ERROR]
    if not source.topics or errors:
        return None, errors
    by_id = {qs.question.id: qs for qs in source.questions if qs.question is not None}
    english = english_library(source)
    banks = {"en": english}
    entries: dict[str, dict[str, Location]] = {}
    problems: list[Diagnostic] = []
    tr = translations if translations is not None and translations.is_dir() else None
    for lang in available_languages(tr)[1:]:
        catalog = read_catalog(tr / f"{lang}.po")
        if catalog.diagnostics and catalog.po is None:
            problems += catalog.diagnostics
            continue
        localized, _ = localize(source, english, catalog, allow_fallback=True)
        banks[lang] = localized
        entries[lang] = _msgstr_lines(catalog)
    if problems:
        return None, problems
    items: dict[str, ItemInfo] = {}
    questions = {lang: b.questions for lang, b in banks.items()}  # every topic's, in bank order (computed once)
    for index, q in enumerate(english.questions):
        qs = by_id[q.id]
        doc = qs.doc
        items[q.id] = ItemInfo(
            id=q.id,
            options=tuple(o.id for o in q.choices()),
            keys=q.right_ids(),
            stems={lang: qs[index].stem for lang, qs in questions.items()},
            option_texts={lang: {o.id: o.text for o in qs[index].choices()} for lang, qs in questions.items()},
            location=doc.locate(("id",)),
            key_location=doc.locate(("correct",) if q.PICKS_OPTIONS else ("id",)),
            option_locations={o.id: doc.locate(("options", i, "id")) for i, o in enumerate(q.choices())},
            stem_entries={lang: e[f"{q.id}.stem"] for lang, e in entries.items() if f"{q.id}.stem" in e},
            questions={lang: qs[index] for lang, qs in questions.items()},
        )
    return BankInfo(topic_id=",".join(b.topic.id for b in english.topics), languages=list(banks), items=items), []


def _msgstr_lines(catalog) -> dict[str, Location]:
    """Where each stem's translation (its ``msgstr`` line) is in the catalog."""
    try:
        lines = catalog.path.read_text(encoding="utf-8").split("\n")
    except (OSError, UnicodeDecodeError):
        lines = []
    found = {}
    for key, entry in catalog.active().items():
        if not key.endswith(".stem"):
            continue
        line = entry.linenum or 0
        for n in range(max(line, 1), min(len(lines), line + 200) + 1):
            if lines[n - 1].startswith("msgstr"):
                line = n
                break
        found[key] = Location.of(catalog.path, line, 1 if line else 0)
    return found
