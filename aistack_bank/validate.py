"""`bank validate`: every rule over the whole bank, all problems collected in one run."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from .checks import check_diagnostics
from .cues import AnswerCueStats, answer_cue_stats, cue_warnings
from .errors import Diagnostic, Location, Severity, error, warning
from .kindrules import kind_rules
from .lints import content_lints
from .load import QUESTIONS_DIR, BankSource, QuestionSource, read_bank
from .model import slug_of

if TYPE_CHECKING:
    from .i18n.catalog import Catalogs

ONE_LINE_FIELDS = ("title", "category")
"""Topic fields that go into line-based contexts (GIFT ``$CATEGORY:`` and ``//`` lines, comments)."""

@dataclass
class ValidationReport:
    """What `bank validate` found."""

    source: BankSource
    diagnostics: list[Diagnostic]
    cues: AnswerCueStats

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity is Severity.ERROR]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity is Severity.WARNING]


def validate_bank(root: Path, *, translations: Path | None = None, run_checks: bool = True, catalogs: Catalogs | None = None) -> ValidationReport:
    """Read the bank at ``root`` and apply every rule; never raises for content mistakes.

    Catalogs are read through ``catalogs`` when given, so that the caller can localize from the
    same reads."""
    source = read_bank(root)
    diags = list(source.diagnostics)
    diags += question_rules(source)
    diags += topic_rules(source)
    diags += content_lints(source)
    if run_checks:
        for qs in source.questions:
            if qs.question is not None and qs.question.check is not None:
                diags += check_diagnostics(qs)
    cues = answer_cue_stats([qs.question for qs in source.questions if qs.question is not None])
    diags += cue_warnings(cues, Location.of(source.root / "topic.yaml"))
    if translations is not None and not any(d.severity is Severity.ERROR for d in diags):
        from .i18n.verify import verify_catalogs

        diags += verify_catalogs(source, translations, run_checks=run_checks, catalogs=catalogs)
    diags.sort(key=Diagnostic.sort_key)
    return ValidationReport(source=source, diagnostics=diags, cues=cues)


def question_rules(source: BankSource) -> list[Diagnostic]:
    """Rules within each question file and across question files."""
    diags: list[Diagnostic] = []
    vocabulary = set(source.topic.tags) if source.topic is not None else None
    first_seen: dict[str, QuestionSource] = {}
    for qs in source.questions:
        question, doc = qs.question, qs.doc
        if question is None or doc is None:
            continue
        name = qs.path.name
        if slug_of(name) is None:
            diags.append(error("E310", f"file name {name!r} is not `<id>-<slug>.yaml` (e.g. {question.id}-short-slug.yaml, lowercase words joined by hyphens)", Location.of(qs.path)))
        elif not name.startswith(question.id + "-"):
            diags.append(error("E301", f"id {question.id!r} does not match the file name {name!r}; rename the file to {question.id}-{slug_of(name)}.yaml or fix the id", doc.locate(("id",))))
        if question.id in first_seen:
            other = first_seen[question.id]
            diags.append(error("E302", f"id {question.id!r} is also used by {Location.of(other.path)}", doc.locate(("id",))))
        else:
            first_seen[question.id] = qs
        if question.explanation is None:
            diags.append(warning("W310", f"{question.id} has no explanation: learners get no general feedback after answering; write two to four sentences on why the key is right", doc.locate(("id",))))
        diags += kind_rules(question, doc)
        if vocabulary is not None:
            for index, tag in enumerate(question.tags):
                if tag not in vocabulary:
                    diags.append(error("E309", f"tag {tag!r} is not in the vocabulary of topic.yaml ({', '.join(sorted(vocabulary))})", doc.locate(("tags", index))))
    return diags


def topic_rules(source: BankSource) -> list[Diagnostic]:
    """The topic lists every question file exactly once and nothing else."""
    topic, doc = source.topic, source.topic_doc
    if topic is None or doc is None:
        return []
    diags = []
    for name in ONE_LINE_FIELDS:
        if "\n" in getattr(topic, name):
            diags.append(error("E116", f"{name} must be one line: it becomes a GIFT `$CATEGORY` line and a comment line", doc.locate((name,))))
    on_disk = {qs.question.id for qs in source.questions if qs.question is not None}
    unreadable = {qs.path.name.split("-", 1)[0] for qs in source.questions if qs.question is None}
    seen: dict[str, int] = {}
    for index, qid in enumerate(topic.questions):
        if qid in seen:
            diags.append(error("E308", f"{qid} is listed twice (first at line {doc.locate(('questions', seen[qid])).line})", doc.locate(("questions", index))))
            continue
        seen[qid] = index
        if qid not in on_disk and qid not in unreadable:
            diags.append(error("E306", f"{qid} is listed but there is no {QUESTIONS_DIR}/{qid}-<slug>.yaml", doc.locate(("questions", index))))
    for qs in source.questions:
        if qs.question is not None and qs.question.id not in seen:
            diags.append(error("E307", f"{qs.question.id} is not listed in the `questions:` of topic.yaml", Location.of(qs.path, 1, 1) if qs.doc is None else qs.doc.locate(("id",))))
    return diags


def validate_files(files: list[Path]) -> ValidationReport:
    """Validate single question files (as an editor does on save), with their bank's topic."""
    diags: list[Diagnostic] = []
    questions = []
    by_root: dict[Path, list[Path]] = {}
    for path in files:
        root = path.parent.parent if path.parent.name == QUESTIONS_DIR else path.parent
        by_root.setdefault(root, []).append(path)
    last = None
    for root, paths in by_root.items():
        source = read_bank(root, files=paths)
        last = source
        diags += [d for d in source.diagnostics if d.code != "E311"]
        diags += question_rules(source)
        diags += content_lints(source)  # leaks only among the given files
        if source.topic is not None:
            listed = set(source.topic.questions)
            for qs in source.questions:
                if qs.question is not None and qs.question.id not in listed:
                    diags.append(error("E307", f"{qs.question.id} is not listed in the `questions:` of topic.yaml", qs.doc.locate(("id",))))
        for qs in source.questions:
            if qs.question is not None:
                questions.append(qs.question)
                if qs.question.check is not None:
                    diags += check_diagnostics(qs)
    diags.sort(key=Diagnostic.sort_key)
    return ValidationReport(source=last, diagnostics=diags, cues=answer_cue_stats(questions))
