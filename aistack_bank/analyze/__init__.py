"""Item analysis: learners' results read back into the bank, per question and language.

``analyze(paths, bank, translations)`` reads every results file (:mod:`.readers`), computes the
statistics (:mod:`.stats`), raises findings as diagnostics at the question's YAML line
(:mod:`.flags`) and returns them for the renderers (:mod:`.report`, :mod:`.html`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..errors import Diagnostic, Location, Severity, error
from ..kinds import a_kind
from .bankinfo import BankInfo, load_bank_info
from .flags import Flag, Thresholds, find_flags
from .stats import Analysis, Responses, statistics

RESULT_SUFFIXES = (".csv", ".tsv", ".txt", ".xml", ".json")
MAX_FILES = 100_000


@dataclass
class Report:
    bank: BankInfo | None
    analysis: Analysis | None = None
    flags: list[Flag] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)  # reading problems
    sources: dict[str, int] = field(default_factory=dict)  # source kind -> files read
    persons: int = 0
    answers: int = 0
    thresholds: Thresholds = field(default_factory=Thresholds)
    unscored: dict[str, str] = field(default_factory=dict)  # question -> why it has no statistics

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity is Severity.ERROR]

    def all_diagnostics(self) -> list[Diagnostic]:
        return self.diagnostics + [d for f in self.flags for d in f.diagnostics]


class _Ignored:
    """Where the rows of a report read a second time go: its learners are already counted."""

    def row(self, language: str, answers) -> None:
        pass


_IGNORED = _Ignored()


def expand(paths: list[Path]) -> list[Path]:
    """Files as given; a folder stands for the results files directly inside it, sorted."""
    files: list[Path] = []
    for p in paths:
        if p.is_dir():
            files += sorted(c for c in p.iterdir() if c.is_file() and c.suffix.lower() in RESULT_SUFFIXES)
        else:
            files.append(p)
    return files[: MAX_FILES + 1]


def analyze(paths: list[Path], bank: Path, translations: Path | None, *, language: str | None = None,
            thresholds: Thresholds | None = None) -> Report:
    """Read ``paths``, compute the statistics and the flags; problems are in ``report.diagnostics``."""
    from .readers import read_results

    t = thresholds or Thresholds()
    info, diags = load_bank_info(bank, translations)
    report = Report(bank=info, diagnostics=list(diags), thresholds=t)
    if info is None:
        return report
    report.unscored = {qid: f"{a_kind(item.kind)} question is not scored automatically" for qid, item in info.items.items() if not item.scored}
    if language is not None and language not in info.languages:
        report.diagnostics.append(error("E904", f"--lang {language}: the bank has {', '.join(info.languages)}"))
        return report
    files = expand(paths)
    if len(files) > MAX_FILES:
        report.diagnostics.append(error("E901", f"more than {MAX_FILES} results files"))
        return report
    responses = Responses(info.items)
    read_before: set[str] = set()
    for path in files:
        again = path.as_posix() in read_before  # a file named twice: its learners are already in
        read_before.add(path.as_posix())
        read = read_results(path, info, language=language, sink=_IGNORED if again else responses)
        report.diagnostics += read.diagnostics
        if read.source:
            report.sources[read.source] = report.sources.get(read.source, 0) + 1
        if not again:
            for a in read.answers:
                responses.add(a.person, a.language, a.question, a.choice)
    if report.errors:
        return report
    if not responses.persons:
        report.diagnostics.append(error("E908", "no responses to analyze", Location.of(files[0]) if files else None))
        return report
    report.persons = responses.persons
    report.answers = responses.answers
    report.analysis = statistics(responses)
    report.flags = find_flags(report.analysis, info, t)
    return report


__all__ = ["Report", "Thresholds", "analyze"]
