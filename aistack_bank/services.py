"""The commands' work without the command line: what `bank` calls, and what tests call directly.

Each function takes paths and plain values, returns a result (or raises one of the error
types of :mod:`aistack_bank.errors`), and prints nothing; :mod:`aistack_bank.cli` parses the
flags, calls one of these, prints the result and picks the exit code.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from .errors import Diagnostic, Severity, UsageError

if TYPE_CHECKING:
    from .i18n.status import LanguageStatus
    from .options import ExportOptions

QUESTION_FILE_SUFFIXES = (".yaml", ".yml")


# ----------------------------------------------------------------------------- bank validate

@dataclass
class ProjectValidation:
    """What `bank validate` found in its folders and files, with the figures it reports."""

    diagnostics: list[Diagnostic] = field(default_factory=list)
    summary: dict = field(default_factory=lambda: {"questions": 0})
    parts: list[str] = field(default_factory=list)

    @property
    def errors(self) -> int:
        return sum(1 for diagnostic in self.diagnostics if diagnostic.severity is Severity.ERROR)

    @property
    def warnings(self) -> int:
        return len(self.diagnostics) - self.errors

    @property
    def summary_line(self) -> str:
        return f"{'; '.join(self.parts)}. {self.errors} error(s), {self.warnings} warning(s)."

    def failed(self, strict: bool = False) -> bool:
        return bool(self.errors or (strict and self.warnings))


def split_targets(targets: list[Path]) -> tuple[list[Path], list[Path]]:
    """(bank folders, single question files) among the paths given to `bank validate`."""
    folders = [target for target in targets if target.is_dir() or target.suffix not in QUESTION_FILE_SUFFIXES]
    return folders, [target for target in targets if target not in folders]


def translations_of(folder: Path, bank_dir: Path, translations: Path) -> Path | None:
    """The catalogs folder of a bank folder: ``translations`` for the ``--bank`` folder, else the
    `translations/` beside it; None when that folder does not exist."""
    guess = translations if folder == bank_dir else folder.parent / "translations"
    return guess if guess.is_dir() else None


def _import_leftovers(folder: Path) -> list[Diagnostic]:
    """What an interrupted import left next to the bank folder ``folder`` (W741, E742)."""
    from .load import is_topic_folder  # (not validate: the verdict is looked up before the model is imported)
    from .writing import leftover_diagnostics

    return [] if is_topic_folder(folder) else leftover_diagnostics(folder)


def _validate_folder(folder: Path, translations: Path | None, use_cache: bool) -> tuple[list[Diagnostic], dict]:
    """(diagnostics, figures) of one bank folder, from the content-hash cache when it is current
    (a verdict is stored only if no input changed while it was computed)."""
    from .cache.store import deferred_writes
    from .cache.validation import validate_cached
    from .load import is_topic_folder  # (not validate: the verdict is looked up before the model is imported)

    if is_topic_folder(folder):  # one topic of a bank: its verdict depends on the rest of the bank
        use_cache = False
    with deferred_writes():  # the cache files flushed to the disk together at the end
        return validate_cached(folder, translations, use_cache=use_cache)


def validate_project(targets: list[Path], bank_dir: Path, translations: Path, *, use_translations: bool = True, use_cache: bool = True,
                     languages: list[str] | None = None) -> ProjectValidation:
    """Validate bank folders (with their catalogs) and single question files, as `bank validate` does.

    With ``languages``, only the findings in those languages' catalogs are kept (with the bank's
    own, in English); ``["en"]`` keeps the bank's alone. The bank folder that is the default
    target must exist: outside a project this is a UsageError."""
    if targets == [bank_dir] and not bank_dir.exists() and not Path("bank.toml").is_file():
        raise UsageError(f"no bank here: {bank_dir}/ does not exist (run the command in a bank project, give -C PATH, or start one with `bank init`)")
    if languages is not None:
        from .i18n.languages import check_code

        for code in languages:
            problem = check_code(code) if code != "en" else None
            if problem:
                raise UsageError(f"--lang: {problem}")
    result = ProjectValidation()
    folders, files = split_targets(targets)
    for folder in folders:
        catalogs = translations_of(folder, bank_dir, translations) if use_translations else None
        found, figures = _validate_folder(folder, catalogs, use_cache)
        result.diagnostics += found + _import_leftovers(folder)
        result.summary["questions"] += figures["questions"]
        result.summary["key_positions"] = figures["key_positions"]
        result.summary["key_longest_share"] = figures["key_longest_share"]
        result.parts.append(figures["line"])
    if files:
        from .rules.validate import validate_files

        report = validate_files(files)
        result.diagnostics += report.diagnostics
        result.summary["questions"] += report.cues.questions
        result.parts.append(f"{len(files)} file(s)")
    if languages is not None:
        result.diagnostics = [d for d in result.diagnostics if catalog_language(d) in (None, *languages)]
    result.summary.update(errors=result.errors, warnings=result.warnings)
    return result


def catalog_language(diagnostic: Diagnostic) -> str | None:
    """The language of the catalog a diagnostic is located in (``translations/de.po``,
    ``translations/site/de.po``), or None for any other file."""
    loc = diagnostic.location
    if loc is None or not loc.path.endswith(".po"):
        return None
    return PurePosixPath(loc.path).stem


# ----------------------------------------------------------------------------- bank check

def run_all_checks(bank_dir: Path, translations: Path | None, lang: str = "all") -> tuple[dict[str, tuple[int, int]], list[Diagnostic]]:
    """Run every numeric check in English and in each catalog language (``lang`` narrows it).

    Returns ({language: (checked, failing)}, diagnostics); UsageError for a language without
    a catalog. A ``translations`` folder that does not exist means English only."""
    from .rules.checks import check_diagnostics
    from .load import read_library

    if translations is not None and not translations.is_dir():
        translations = None

    source = read_library(bank_dir)
    diagnostics = list(source.diagnostics)
    results: dict[str, tuple[int, int]] = {}
    checked = [qs for qs in source.questions if qs.question is not None and qs.question.check is not None]
    if lang in ("all", "en"):
        failing = [check_diagnostics(qs) for qs in checked]
        diagnostics += [diagnostic for found in failing for diagnostic in found]
        results["en"] = (len(checked), sum(1 for found in failing if found))
    if lang != "en" and translations is not None:
        from .i18n.verify import check_translated_answers

        languages = None if lang == "all" else [lang]
        for language, count, failed, found in check_translated_answers(source, translations, languages):
            results[language] = (count, failed)
            diagnostics += found
    elif lang not in ("all", "en"):
        raise UsageError(f"no catalog for language {lang!r}")
    diagnostics.sort(key=Diagnostic.sort_key)
    return results, diagnostics


# ----------------------------------------------------------------------------- export settings

def export_options(settings: Path, **flags: object) -> ExportOptions:
    """Export options from the settings file and the flags (flags win).

    A bad flag value is a UsageError; a bad settings file raises SettingsError (located)."""
    from .project.settings import resolve_options

    try:
        return resolve_options(settings, **flags)
    except ValueError as exc:  # settings.check_value names the flag and what it allows
        raise UsageError(str(exc)) from None


# ----------------------------------------------------------------------------- bank i18n

@dataclass
class TranslationStatus:
    """`bank i18n status`: each language of the bank (English first) and of the site interface."""

    languages: list[LanguageStatus]
    interface: list[LanguageStatus]
    diagnostics: list[Diagnostic]
    ready: float = 100.0
    """The percentage from which a language is exported (`ready` under [languages] in bank.toml)."""
    fallback: bool = False

    def state(self, status: LanguageStatus) -> str:
        """``source``, ``ready`` (exported), ``in progress`` (left out unless fallback is chosen;
        exported with it) or ``not started`` (never exported), as `bank build` decides."""
        if status.source:
            return "source"
        if not status.translated:
            return "not started"
        return "ready" if status.percent >= self.ready else "in progress"

    @property
    def targets(self) -> list[LanguageStatus]:
        """The translated languages (not the source)."""
        return [status for status in self.languages if not status.source]

    @property
    def total(self) -> dict[str, float]:
        """The counts over every translated language, with their percentage."""
        counts: dict[str, float] = {name: sum(getattr(status, name) for status in self.targets) for name in ("total", "translated", "fuzzy", "untranslated", "obsolete")}
        counts["percent"] = 100.0 * counts["translated"] / counts["total"] if counts["total"] else 100.0
        return counts

    def below(self, percent: float) -> list[LanguageStatus]:
        """Languages (of the bank or the interface) translated less than ``percent``."""
        return [status for status in self.targets + self.interface if status.percent < percent]

    def as_dict(self) -> dict:
        total = self.total
        return {"languages": [status.as_dict() | {"state": self.state(status)} for status in self.languages],
                "total": {name: int(value) for name, value in total.items() if name != "percent"} | {"percent": round(total["percent"], 1)},
                "interface": [status.as_dict() for status in self.interface]}

    def table(self) -> list[str]:
        """The text report: one row per language, the total, what is not fully translated."""
        lines = [f"{'language':<10}{'translated':>11}{'fuzzy':>7}{'untransl.':>10}{'obsolete':>9}{'percent':>9}"]
        for status in self.languages:
            if status.source:
                lines.append(f"{status.language + ' (source)':<10}{status.total:>11}{'-':>7}{'-':>10}{'-':>9}{'source':>9}")
            else:
                lines.append(f"{status.language:<10}{status.translated:>11}{status.fuzzy:>7}{status.untranslated:>10}{status.obsolete:>9}{status.percent:>8.1f}%")
        total = self.total
        lines.append(f"{'total':<10}{int(total['translated']):>11}{int(total['fuzzy']):>7}{int(total['untranslated']):>10}{int(total['obsolete']):>9}{total['percent']:>8.1f}%")
        for status in self.targets:
            state = self.state(status)
            if state == "in progress":
                exported = "exported with English for the missing texts (fallback)" if self.fallback else "left out of the exports"
                lines.append(f"{status.language}: in progress (ready at {self.ready:g}%): {exported}; `bank i18n todo {status.language}` lists what is missing")
            elif state == "not started":
                lines.append(f"{status.language}: not started: left out of the exports")
        lines += [f"{status.language}: not fully translated: {', '.join(status.incomplete_questions)}" for status in self.targets if status.incomplete_questions]
        lines += [f"practice-site interface, {status.language}: {status.translated}/{status.total} translated, {status.fuzzy} fuzzy ({status.percent:.1f}%)" for status in self.interface]
        return lines


    def markdown(self) -> list[str]:
        """The report as a GitHub job summary: a heading, a Markdown table with each language's
        state, and what is not fully translated."""
        lines = ["## Translations", "", "| language | state | translated | fuzzy | untranslated | obsolete | percent |", "| --- | --- | ---: | ---: | ---: | ---: | ---: |"]
        for status in self.languages:
            if status.source:
                lines.append(f"| {status.language} | source | {status.total} | - | - | - | - |")
            else:
                lines.append(f"| {status.language} | {self.state(status)} | {status.translated} | {status.fuzzy} | {status.untranslated} | {status.obsolete} | {status.percent:.1f}% |")
        total = self.total
        lines.append(f"| **total** | | {int(total['translated'])} | {int(total['fuzzy'])} | {int(total['untranslated'])} | {int(total['obsolete'])} | {total['percent']:.1f}% |")
        lines.append("")
        lines += [f"- `{status.language}`: in progress (ready at {self.ready:g}%); `bank i18n todo {status.language}` lists what is missing"
                  for status in self.targets if self.state(status) == "in progress"]
        lines += [f"- `{status.language}`: not fully translated: {', '.join(status.incomplete_questions)}" for status in self.targets if status.incomplete_questions]
        lines += [f"- practice-site interface, `{status.language}`: {status.translated}/{status.total} translated, {status.fuzzy} fuzzy ({status.percent:.1f}%)" for status in self.interface]
        return lines


def translation_status(bank_dir: Path, translations: Path, settings: Path = Path("bank.toml")) -> TranslationStatus:
    """How complete and current each catalog is, and each language's state (`bank i18n status`)."""
    from .i18n.status import catalog_status, site_status
    from .project.settings import load_language_policy

    policy = load_language_policy(settings)
    languages, diagnostics = catalog_status(bank_dir, translations)
    interface, more = site_status(translations)
    return TranslationStatus(languages, interface, diagnostics + more, ready=policy.ready, fallback=policy.fallback)


def check_new_languages(languages: list[str]) -> None:
    """UsageError unless every language of `bank i18n update --lang` is a language code."""
    from .i18n.languages import check_code

    for code in languages:
        problem = check_code(code)
        if problem:
            raise UsageError(f"--lang: {problem}")


def typography_catalog(translations: Path, lang: str) -> Path:
    """The catalog `bank i18n fix-typography --lang` fixes; UsageError unless it is French and exists."""
    if lang.split("_")[0] != "fr":
        raise UsageError(f"--lang {lang!r}: only French (fr) typography is known")
    path = translations / f"{lang}.po"
    if not path.is_file():
        raise UsageError(f"{path}: no such catalog")
    return path


def compile_catalogs(translations: Path, out: Path | None) -> tuple[list[tuple[Path, bytes]], list[Diagnostic]]:
    """The .mo file of each catalog ((target, bytes) to write), or the catalogs' errors."""
    from .i18n.catalog import compile_catalog, read_catalog
    from .i18n.update import catalog_paths

    diagnostics: list[Diagnostic] = []
    planned: list[tuple[Path, bytes]] = []
    for path in catalog_paths(translations):
        catalog = read_catalog(path)
        if catalog.diagnostics:
            diagnostics += catalog.diagnostics
            continue
        planned.append(((out or translations) / f"{path.stem}.mo", compile_catalog(catalog.po)))
        del catalog  # (else the read stays held while the next catalog is read: two catalogs' entries at the peak)
    return ([], diagnostics) if diagnostics else (planned, [])
