"""`bank validate`: every rule over the whole bank, all problems collected in one run."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from .checks import Finding, check_question
from .errors import Diagnostic, Location, Severity, error, warning
from .lints import content_lints
from .load import QUESTIONS_DIR, BankSource, QuestionSource, read_bank
from .model import slug_of

ONE_LINE_FIELDS = ("title", "category")
"""Topic fields that go into line-based contexts (GIFT ``$CATEGORY:`` and ``//`` lines, comments)."""

MAX_POSITION_SHARE = 0.35
"""Above this share of the bank on one key position, W301 is reported."""
MAX_LONGEST_SHARE = 1 / 3
"""Above this share of questions whose key is the strictly longest option, W302 is reported."""


@dataclass
class AnswerCueStats:
    """How the keys are spread: the figures `bank validate` and `bank stats` report."""

    questions: int = 0
    positions: dict[int, int] = field(default_factory=dict)
    key_longest: int = 0

    @property
    def position_shares(self) -> dict[str, float]:
        return {chr(ord("a") + i): n / self.questions for i, n in sorted(self.positions.items())} if self.questions else {}

    @property
    def longest_share(self) -> float:
        return self.key_longest / self.questions if self.questions else 0.0

    def summary(self) -> str:
        spread = " ".join(f"{k} {v:.0%}" for k, v in self.position_shares.items())
        return f"key positions {spread}; key is the longest option in {self.key_longest}/{self.questions} ({self.longest_share:.0%})"


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


def validate_bank(root: Path, *, translations: Path | None = None, run_checks: bool = True) -> ValidationReport:
    """Read the bank at ``root`` and apply every rule; never raises for content mistakes."""
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
    diags += cue_warnings(cues, source)
    if translations is not None and not any(d.severity is Severity.ERROR for d in diags):
        from .i18n.verify import verify_catalogs

        diags += verify_catalogs(source, translations, run_checks=run_checks)
    diags.sort(key=Diagnostic.sort_key)
    return ValidationReport(source=source, diagnostics=diags, cues=cues)


def _normalized(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def question_rules(source: BankSource) -> list[Diagnostic]:
    """Rules within each question file and across question files."""
    diags: list[Diagnostic] = []
    vocabulary = set(source.topic.tags) if source.topic is not None else None
    first_seen: dict[str, QuestionSource] = {}
    for qs in source.questions:
        q, doc = qs.question, qs.doc
        if q is None or doc is None:
            continue
        name = qs.path.name
        if slug_of(name) is None:
            diags.append(error("E310", f"file name {name!r} is not `<id>-<slug>.yaml` (e.g. {q.id}-short-slug.yaml, lowercase words joined by hyphens)", Location.of(qs.path)))
        elif not name.startswith(q.id + "-"):
            diags.append(error("E301", f"id {q.id!r} does not match the file name {name!r}; rename the file to {q.id}-{slug_of(name)}.yaml or fix the id", doc.locate(("id",))))
        if q.id in first_seen:
            other = first_seen[q.id]
            diags.append(error("E302", f"id {q.id!r} is also used by {Location.of(other.path)}", doc.locate(("id",))))
        else:
            first_seen[q.id] = qs
        seen_ids: dict[str, int] = {}
        seen_texts: dict[str, int] = {}
        for i, option in enumerate(q.options):
            if option.id in seen_ids:
                diags.append(error("E303", f"option id {option.id!r} is used twice (also option {seen_ids[option.id] + 1})", doc.locate(("options", i, "id"))))
            seen_ids.setdefault(option.id, i)
            key = _normalized(option.text)
            if key in seen_texts:
                diags.append(error("E305", f"option {option.id!r} has the same text as option {q.options[seen_texts[key]].id!r}", doc.locate(("options", i, "text"))))
            seen_texts.setdefault(key, i)
        if q.correct not in seen_ids:
            diags.append(error("E304", f"correct option {q.correct!r} is not one of the options ({', '.join(o.id for o in q.options)})", doc.locate(("correct",))))
        if vocabulary is not None:
            for i, tag in enumerate(q.tags):
                if tag not in vocabulary:
                    diags.append(error("E309", f"tag {tag!r} is not in the vocabulary of topic.yaml ({', '.join(sorted(vocabulary))})", doc.locate(("tags", i))))
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
    for i, qid in enumerate(topic.questions):
        if qid in seen:
            diags.append(error("E308", f"{qid} is listed twice (first at line {doc.locate(('questions', seen[qid])).line})", doc.locate(("questions", i))))
            continue
        seen[qid] = i
        if qid not in on_disk and qid not in unreadable:
            diags.append(error("E306", f"{qid} is listed but there is no {QUESTIONS_DIR}/{qid}-<slug>.yaml", doc.locate(("questions", i))))
    for qs in source.questions:
        if qs.question is not None and qs.question.id not in seen:
            diags.append(error("E307", f"{qs.question.id} is not listed in the `questions:` of topic.yaml", Location.of(qs.path, 1, 1) if qs.doc is None else qs.doc.locate(("id",))))
    return diags


def check_diagnostics(qs: QuestionSource) -> list[Diagnostic]:
    """Run one question's numeric check on its English options and locate the findings."""
    q, doc = qs.question, qs.doc
    findings = check_question(q, [(o.id, o.text) for o in q.options], "en")
    return [error(f.code, f"{q.id}: {f.message}", _locate_finding(f, q, doc)) for f in findings]


def _locate_finding(finding: Finding, q, doc) -> Location:
    if finding.option_id is not None:
        index = next((i for i, o in enumerate(q.options) if o.id == finding.option_id), None)
        if index is not None:
            return doc.locate(("options", index, "text"))
    return doc.locate_in_scalar(("check", "script"), finding.script_line or 1, finding.script_column or 1)


def answer_cue_stats(questions) -> AnswerCueStats:
    """Key positions and how often the key is strictly the longest option."""
    stats = AnswerCueStats()
    for q in questions:
        ids = [o.id for o in q.options]
        if q.correct not in ids:
            continue
        stats.questions += 1
        pos = ids.index(q.correct)
        stats.positions[pos] = stats.positions.get(pos, 0) + 1
        key_len = len(q.correct_option.text)
        if all(key_len > len(o.text) for o in q.options if o.id != q.correct):
            stats.key_longest += 1
    for i in range(max(stats.positions, default=-1) + 1):
        stats.positions.setdefault(i, 0)
    return stats


def cue_warnings(stats: AnswerCueStats, source: BankSource) -> list[Diagnostic]:
    if stats.questions < 8:  # too few questions for a share to mean anything
        return []
    where = Location.of(source.root / "topic.yaml")
    diags = []
    for letter, share in stats.position_shares.items():
        if share > MAX_POSITION_SHARE:
            diags.append(warning("W301", f"the key is option {letter!r} in {share:.0%} of the questions (limit {MAX_POSITION_SHARE:.0%}); learners can guess by position", where))
    if stats.longest_share > MAX_LONGEST_SHARE:
        diags.append(warning("W302", f"the key is the longest option in {stats.longest_share:.0%} of the questions (limit {MAX_LONGEST_SHARE:.0%}); learners can guess by length", where))
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


def run_all_checks(root: Path, translations: Path | None, lang: str = "all") -> tuple[dict[str, tuple[int, int]], list[Diagnostic]]:
    """Run every numeric check in English and in each catalog language (``lang`` narrows it)."""
    source = read_bank(root)
    diags = list(source.diagnostics)
    results: dict[str, tuple[int, int]] = {}
    checked = [qs for qs in source.questions if qs.question is not None and qs.question.check is not None]
    if lang in ("all", "en"):
        failing = [check_diagnostics(qs) for qs in checked]
        diags += [d for f in failing for d in f]
        results["en"] = (len(checked), sum(1 for f in failing if f))
    if lang != "en" and translations is not None:
        from .i18n.verify import check_translated_answers

        languages = None if lang == "all" else [lang]
        for language, count, failed, found in check_translated_answers(source, translations, languages):
            results[language] = (count, failed)
            diags += found
    elif lang not in ("all", "en"):
        raise ValueError(f"no catalog for language {lang!r}")
    diags.sort(key=Diagnostic.sort_key)
    return results, diags
