"""The `bank` command: parses flags, calls the services, prints, and picks the exit code.

This is the only module that prints or exits. Heavy libraries are imported inside the
commands that need them, so `bank --help` stays fast.
"""

from __future__ import annotations

import enum
import json
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

EXIT_OK, EXIT_ERRORS, EXIT_USAGE, EXIT_STALE = 0, 1, 2, 4

app = typer.Typer(
    name="bank",
    help="Author, check, translate and export the aistack question bank.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # plain help: rich costs more start-up time than the whole help screen
    context_settings={"help_option_names": ["-h", "--help"]},
)

def _show_version(value: bool) -> None:
    if value:
        from . import __version__

        typer.echo(f"bank (aistack-bank) {__version__}")
        raise typer.Exit(EXIT_OK)


@app.callback()
def _root(
    version: Annotated[bool, typer.Option("--version", help="Print the version and exit.", is_eager=True, callback=_show_version)] = False,
) -> None:
    """Author, check, translate and export a question bank."""


BankOption = Annotated[Path, typer.Option("--bank", help="The bank folder (topic.yaml and questions/).")]
TranslationsOption = Annotated[Path, typer.Option("--translations", help="The folder of the .pot template and .po catalogs.")]


class OutputFormat(str, enum.Enum):
    text = "text"
    json = "json"
    github = "github"


def _gh_data(text: str) -> str:
    """Escape workflow-command data as the Actions toolkit does (``%``, CR, LF)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _gh_property(text: str) -> str:
    """Escape a workflow-command property as the Actions toolkit does (also ``:`` and ``,``)."""
    return _gh_data(text).replace(":", "%3A").replace(",", "%2C")


def _print_diagnostics(diagnostics, fmt: OutputFormat, summary: dict | None = None, summary_line: str = "") -> None:
    from .errors import Diagnostic

    ordered = sorted(diagnostics, key=Diagnostic.sort_key)
    if fmt is OutputFormat.json:
        typer.echo(json.dumps({"diagnostics": [d.as_dict() for d in ordered], "summary": summary or {}}, indent=2, ensure_ascii=False))
        return
    for d in ordered:
        if fmt is OutputFormat.github:
            loc = d.location
            parts = [f"file={_gh_property(loc.path)}"] if loc else []
            if loc and loc.line:
                parts.append(f"line={loc.line}")
            if loc and loc.column:
                parts.append(f"col={loc.column}")
            parts.append(f"title={d.code}")
            message = _gh_data(d.message)
            typer.echo(f"::{'error' if d.severity.value == 'error' else 'warning'} {','.join(parts)}::{message}")
        else:
            typer.echo(str(d))
    if summary_line:
        typer.echo(summary_line, err=fmt is OutputFormat.github)


def _fail(message: str, code: int = EXIT_ERRORS) -> None:
    typer.echo(f"bank: {message}", err=True)
    raise typer.Exit(code)


@app.command()
def validate(
    paths: Annotated[Optional[list[Path]], typer.Argument(help="Bank folders or question files (default: the --bank folder).", show_default=False)] = None,
    bank: BankOption = Path("bank"),
    translations: TranslationsOption = Path("translations"),
    fmt: Annotated[OutputFormat, typer.Option("--format", help="text, json (for editors) or github (Actions annotations).")] = OutputFormat.text,
    strict: Annotated[bool, typer.Option("--strict", help="Fail on warnings too.")] = False,
    no_translations: Annotated[bool, typer.Option("--no-translations", help="Skip the .po catalogs.")] = False,
    no_cache: Annotated[bool, typer.Option("--no-cache", help="Validate from scratch, ignoring the content-hash cache.")] = False,
) -> None:
    """Check the bank and its translations; report every problem.

    Numeric answer checks run too, in every language."""

    diagnostics, summary_parts, summary = [], [], {"questions": 0}
    targets = paths or [bank]
    folders = [p for p in targets if p.is_dir() or p.suffix not in (".yaml", ".yml")]
    files = [p for p in targets if p not in folders]
    for folder in folders:
        tr = None if no_translations else (translations if folder == bank else folder.parent / "translations")
        tr = tr if tr is not None and tr.is_dir() else None
        from .cache import validate_cached

        found, figures = validate_cached(folder, tr, use_cache=not no_cache)
        diagnostics += found
        summary["questions"] += figures["questions"]
        summary["key_positions"] = figures["key_positions"]
        summary["key_longest_share"] = figures["key_longest_share"]
        summary_parts.append(figures["line"])
    if files:
        from .validate import validate_files

        report = validate_files(files)
        diagnostics += report.diagnostics
        summary["questions"] += report.cues.questions
        summary_parts.append(f"{len(files)} file(s)")
    errors = sum(1 for d in diagnostics if d.severity.value == "error")
    warnings = len(diagnostics) - errors
    summary.update(errors=errors, warnings=warnings)
    line = f"{'; '.join(summary_parts)}. {errors} error(s), {warnings} warning(s)."
    _print_diagnostics(diagnostics, fmt, summary, line)
    if errors or (strict and warnings):
        raise typer.Exit(EXIT_ERRORS)


@app.command()
def check(
    bank: BankOption = Path("bank"),
    translations: TranslationsOption = Path("translations"),
    lang: Annotated[str, typer.Option("--lang", help="en, a catalog language, or all.")] = "all",
) -> None:
    """Run the numeric answer checks, in every language."""
    from .validate import run_all_checks

    try:
        results, diagnostics = run_all_checks(bank, translations if translations.is_dir() else None, lang)
    except ValueError as exc:
        _fail(str(exc), EXIT_USAGE)
    _print_diagnostics(diagnostics, OutputFormat.text)
    for language, (checked, failed) in results.items():
        typer.echo(f"{language}: {checked} checked question(s), {failed} failing")
    if diagnostics:
        raise typer.Exit(EXIT_ERRORS)


@app.command()
def schema(
    out: Annotated[Path, typer.Option("--out", help="Where the JSON Schemas go.")] = Path("schema"),
    check_only: Annotated[bool, typer.Option("--check", help="Write nothing; exit 4 if a committed schema is stale.")] = False,
) -> None:
    """Write the JSON Schemas (content files and JSON export)."""
    from .schemas import render_schemas
    from .writing import stale_files, write_tree

    tree = render_schemas()
    if check_only:
        stale = stale_files(out, tree)
        for name in stale:
            typer.echo(f"{out / name}: stale; run `bank schema`")
        raise typer.Exit(EXIT_STALE if stale else EXIT_OK)
    for path in write_tree(out, tree):
        typer.echo(f"wrote {path}")


@app.command()
def codes(
    markdown: Annotated[bool, typer.Option("--markdown", help="Print docs/error-codes.md.")] = False,
) -> None:
    """List every diagnostic code with its meaning."""
    from .errors import CODES, render_code_table

    if markdown:
        typer.echo(render_code_table(), nl=False)
        return
    for code, meaning in sorted(CODES.items()):
        typer.echo(f"{code}  {meaning}")


def _report_outputs(outputs, quiet: bool, check: bool) -> None:
    if quiet:
        return
    for o in outputs:
        if check:
            if o.changed:
                typer.echo(f"{o.path}: stale")
            continue
        state = "wrote" if o.changed else "unchanged"
        typer.echo(f"{state:<9} {o.format:<10} {o.language:<5} {o.questions:>4} questions {o.size:>9} bytes  {o.path}")


PROGRESS_THRESHOLD = 20
"""Show a progress bar when an export writes more files than this (on a terminal)."""


def _progress_factory(quiet: bool):
    """A callback factory for build.write_outputs that draws a progress bar on a terminal."""
    if quiet or not sys.stderr.isatty():
        return None
    bars = []

    def start(total: int):
        if total <= PROGRESS_THRESHOLD:
            return None
        bar = typer.progressbar(length=total, label="writing", file=sys.stderr)
        bar.__enter__()
        bars.append(bar)
        return lambda path: bar.update(1)

    start.bars = bars
    return start


def _run_export(work, quiet: bool, check: bool = False) -> None:
    from .errors import BankError, DiagnosticsError

    progress = _progress_factory(quiet)
    try:
        outputs, notes = work(progress)
    except DiagnosticsError as exc:
        _print_diagnostics(exc.diagnostics, OutputFormat.text)
        _fail(exc.message)
    except BankError as exc:
        typer.echo(str(exc.diagnostic()), err=True)
        raise typer.Exit(EXIT_ERRORS)
    except ValueError as exc:
        _fail(str(exc), EXIT_USAGE)
    finally:
        for bar in getattr(progress, "bars", []):
            bar.__exit__(None, None, None)
    if notes and not quiet:
        _print_diagnostics(notes, OutputFormat.text)
    _report_outputs(outputs, quiet, check)
    if check:
        stale = [o for o in outputs if o.changed]
        typer.echo(f"{len(stale)} stale file(s)" if stale else "exports are up to date")
        if stale:
            raise typer.Exit(EXIT_STALE)
    elif not quiet:
        typer.echo(f"{sum(o.changed for o in outputs)} file(s) written, {sum(not o.changed for o in outputs)} unchanged")


ShuffleOption = Annotated[Optional[bool], typer.Option("--shuffle/--no-shuffle", help="Ask the LMS to shuffle the options (default: bank.toml, else shuffle).", show_default=False)]
NumberingOption = Annotated[Optional[str], typer.Option("--answer-numbering", help="abc, ABCD, 123, iii, IIII or none (Moodle XML, QTI 3.0).", show_default=False)]
MultilangOption = Annotated[Optional[str], typer.Option("--multilang", help="span (Moodle's core filter) or mlang (filter_multilang2).", show_default=False)]
PenaltyOption = Annotated[Optional[float], typer.Option("--penalty", help="Moodle's penalty per wrong try: 1, 0.5, 0.3333333, 0.25, 0.2, 0.1 or 0.", show_default=False)]
SettingsOption = Annotated[Path, typer.Option("--settings", help="The settings file: its [export] table sets shuffle, answer_numbering, multilang and penalty (flags win).")]


def _export_options(settings: Path, **flags):
    """Export options from bank.toml and the flags; a bad value is a usage error."""
    from .errors import BankError
    from .settings import resolve_options

    try:
        return resolve_options(settings, **flags)
    except BankError as exc:
        _print_diagnostics([exc.diagnostic()], OutputFormat.text)
        _fail("invalid export settings; nothing was exported", EXIT_USAGE)
    except ValueError as exc:
        _fail(str(exc), EXIT_USAGE)


FallbackOption = Annotated[bool, typer.Option("--allow-fallback", help="Export untranslated or fuzzy texts in English instead of refusing.")]
QuietOption = Annotated[bool, typer.Option("--quiet", "-q", help="Print nothing but errors.")]


@app.command("export")
def export_cmd(
    fmt: Annotated[str, typer.Argument(metavar="FORMAT", help="moodle-xml, qti21, qti30, gift, json or html (the practice site).")],
    lang: Annotated[str, typer.Option("--lang", help="en, fr, nl, a comma list, or all.")] = "all",
    out: Annotated[Path, typer.Option("--out", help="Folder to write into.")] = Path("."),
    bank: BankOption = Path("bank"),
    translations: TranslationsOption = Path("translations"),
    allow_fallback: FallbackOption = False,
    quiet: QuietOption = False,
    shuffle: ShuffleOption = None,
    answer_numbering: NumberingOption = None,
    multilang: MultilangOption = None,
    penalty: PenaltyOption = None,
    settings: SettingsOption = Path("bank.toml"),
) -> None:
    """Export the bank in one format."""
    from .build import export

    options = _export_options(settings, shuffle=shuffle, answer_numbering=answer_numbering, multilang=multilang, penalty=penalty)
    _run_export(lambda progress: export(fmt, bank, translations, out, languages=lang, allow_fallback=allow_fallback, options=options, progress=progress), quiet)


@app.command()
def build(
    out: Annotated[Path, typer.Option("--out", help="The exports folder.")] = Path("exports"),
    bank: BankOption = Path("bank"),
    translations: TranslationsOption = Path("translations"),
    allow_fallback: FallbackOption = False,
    check_only: Annotated[bool, typer.Option("--check", help="Write nothing; exit 4 if any committed export is stale.")] = False,
    quiet: QuietOption = False,
    shuffle: ShuffleOption = None,
    answer_numbering: NumberingOption = None,
    multilang: MultilangOption = None,
    penalty: PenaltyOption = None,
    settings: SettingsOption = Path("bank.toml"),
) -> None:
    """Validate, then write every format and language to exports/."""
    from .build import build as run_build

    options = _export_options(settings, shuffle=shuffle, answer_numbering=answer_numbering, multilang=multilang, penalty=penalty)
    _run_export(lambda progress: run_build(bank, translations, out, allow_fallback=allow_fallback, check=check_only, options=options, progress=progress), quiet, check_only)


class LintTarget(str, enum.Enum):
    moodle = "moodle"
    gift = "gift"
    canvas = "canvas"
    qti = "qti"


@app.command()
def lint(
    target: Annotated[Optional[list[LintTarget]], typer.Option("--target", help="moodle, gift, canvas or qti (repeatable; default: all).", show_default=False)] = None,
    bank: BankOption = Path("bank"),
    translations: TranslationsOption = Path("translations"),
    fmt: Annotated[OutputFormat, typer.Option("--format", help="text, json or github (Actions annotations).")] = OutputFormat.text,
    strict: Annotated[bool, typer.Option("--strict", help="Fail on warnings too.")] = False,
    settings: SettingsOption = Path("bank.toml"),
) -> None:
    """What each LMS would change or lose on import, before upload.

    Renders the exports as `bank build` would and reads them back as Moodle, Canvas and a QTI
    test player do; each finding is a located warning (docs/lms-notes.md)."""
    from .errors import BankError, DiagnosticsError
    from .lms.lint import TARGETS
    from .lms.lint import lint as run_lint

    targets = [t.value for t in target] if target else list(TARGETS)
    options = _export_options(settings)
    try:
        found = run_lint(bank, translations, targets, options)
    except DiagnosticsError as exc:
        _print_diagnostics(exc.diagnostics, OutputFormat.text)
        _fail(exc.message)
    except BankError as exc:
        _fail(str(exc))
    line = f"{len(found)} warning(s) for {', '.join(targets)}"
    _print_diagnostics(found, fmt, {"warnings": len(found), "targets": targets}, line)
    if strict and found:
        raise typer.Exit(EXIT_ERRORS)


@app.command()
def new(
    slug: Annotated[str, typer.Option("--slug", help="Short name for the file: lowercase words joined by hyphens.")],
    bank: BankOption = Path("bank"),
    translations: TranslationsOption = Path("translations"),
) -> None:
    """Create the next question from a template.

    The new id is the next one never used; the question is listed in the topic and its path
    printed."""
    from .authoring import new_question
    from .errors import BankError

    try:
        path = new_question(bank, translations, slug)
    except ValueError as exc:
        _fail(str(exc), EXIT_USAGE)
    except BankError as exc:
        _fail(str(exc))
    typer.echo(path.as_posix())


@app.command()
def init(
    folder: Annotated[Path, typer.Argument(help="The folder of the new bank (created if missing).")],
    languages: Annotated[Optional[str], typer.Option("--languages", help="Target languages, comma-separated: fr,nl,de.")] = None,
    title: Annotated[Optional[str], typer.Option("--title", help="The topic title (default: from the folder name).")] = None,
    category: Annotated[Optional[str], typer.Option("--category", help="The category (default: the title).")] = None,
    force: Annotated[bool, typer.Option("--force", help="Add the bank to a folder that holds other files (none is overwritten).")] = False,
) -> None:
    """Start a new bank project: a topic with an example question, catalogs, schemas, CI.

    `bank validate`, `bank build` and `bank i18n status` pass in it at once."""
    from .scaffold import InitError, init_project

    try:
        report = init_project(folder, languages=languages, title=title, category=category, force=force)
    except InitError as exc:
        _print_diagnostics(exc.diagnostics, OutputFormat.text)
        raise typer.Exit(EXIT_USAGE)
    _print_diagnostics(report.notes, OutputFormat.text)
    for path in report.kept:
        typer.echo(f"kept      {path.as_posix()} (already there; not overwritten)")
    typer.echo(f"created a bank in {folder.as_posix()} ({len(report.written)} files), languages: {', '.join(['en', *report.languages])}")
    typer.echo(f"next: cd {folder.as_posix()} && bank validate")


@app.command()
def stats(
    bank: BankOption = Path("bank"),
    translations: TranslationsOption = Path("translations"),
    fmt: Annotated[OutputFormat, typer.Option("--format", help="text or json.")] = OutputFormat.text,
) -> None:
    """Counts by tag, difficulty, kind and language."""
    from .stats import bank_stats

    figures, diagnostics = bank_stats(bank, translations)
    _exit_on_errors(diagnostics)
    if fmt is OutputFormat.json:
        typer.echo(json.dumps(figures.as_dict(), indent=2))
        return
    typer.echo(f"questions: {figures.questions} ({', '.join(f'{k} {v}' for k, v in figures.by_kind.items())}); with numeric checks: {figures.checked}")
    typer.echo("difficulty: " + ", ".join(f"{k}: {v}" for k, v in figures.by_difficulty.items()))
    typer.echo("tags: " + ", ".join(f"{k} {v}" for k, v in figures.by_tag.items()))
    if figures.languages:
        typer.echo("languages: " + ", ".join(f"{k} {v:g}%" for k, v in figures.languages.items()))
    typer.echo("key position: " + " ".join(f"{k} {v:.0%}" for k, v in figures.key_positions.items()) + f"; key is the longest option in {figures.key_longest_share:.0%} of questions")


@app.command("import")
def import_cmd(
    fmt: Annotated[str, typer.Argument(metavar="FORMAT", help="moodle (Moodle XML) or gift.")],
    file: Annotated[Path, typer.Argument(help="The file to import.")],
    bank: BankOption = Path("bank"),
    translations: TranslationsOption = Path("translations"),
) -> None:
    """Import multiple-choice questions from Moodle XML or GIFT."""
    from .errors import BankError
    from .importers import import_file

    try:
        report = import_file(fmt, file, bank, translations)
    except BankError as exc:
        _print_diagnostics([exc.diagnostic()], OutputFormat.text)
        raise typer.Exit(EXIT_USAGE if exc.code == "E601" else EXIT_ERRORS)
    if report.topic_created:
        typer.echo(f"created {bank / 'topic.yaml'}")
    for path in report.written:
        typer.echo(f"wrote {path.as_posix()}")
    for note in report.notes:
        typer.echo(f"note: {note}")
    for skip in report.skipped:
        where = f"{file}:{skip.line}: " if skip.line else f"{file}: "
        typer.echo(f"{where}skipped {skip.name!r}: {skip.reason}")
    typer.echo(f"{len(report.written)} question(s) imported, {len(report.skipped)} skipped; run `bank validate`")


@app.command()
def analyze(
    results: Annotated[list[Path], typer.Argument(help="Results files or folders: Moodle Responses CSV, QTI assessmentResult XML, practice-site answers JSON.", show_default=False)],
    bank: BankOption = Path("bank"),
    translations: TranslationsOption = Path("translations"),
    lang: Annotated[Optional[str], typer.Option("--lang", help="The language of results that do not tell it (QTI items without a suffix, Moodle CSV).")] = None,
    fmt: Annotated[OutputFormat, typer.Option("--format", help="text, json or github (Actions annotations).")] = OutputFormat.text,
    html: Annotated[Optional[Path], typer.Option("--html", help="Also write a self-contained HTML report to this file.")] = None,
    strict: Annotated[bool, typer.Option("--strict", help="Exit 1 when any question is flagged.")] = False,
    min_responses: Annotated[int, typer.Option("--min-responses", min=1, help="Responses per question and language before flagging it.")] = 30,
    too_easy: Annotated[float, typer.Option("--too-easy", min=0, max=1, help="Flag facility above this.")] = 0.95,
    too_hard: Annotated[float, typer.Option("--too-hard", min=0, max=1, help="Flag facility below this.")] = 0.20,
    dead_distractor: Annotated[float, typer.Option("--dead-distractor", min=0, max=1, help="Flag a distractor chosen by fewer than this share.")] = 0.05,
    near_zero: Annotated[float, typer.Option("--near-zero", min=0, max=1, help="Flag a point-biserial below this.")] = 0.10,
    language_alpha: Annotated[float, typer.Option("--language-alpha", min=0, max=1, help="Family-wise error rate of the language comparisons (Holm).")] = 0.05,
    language_min_difference: Annotated[float, typer.Option("--language-min-difference", min=0, max=1, help="Smallest difference of facility between languages worth flagging.")] = 0.10,
    language_min_responses: Annotated[int, typer.Option("--language-min-responses", min=1, help="Responses per language before comparing languages.")] = 50,
) -> None:
    """Item analysis of learners' results: facility, discrimination, distractors, reliability, languages.

    Findings are warnings at the question's YAML line; exit 1 on unreadable results (or, with
    --strict, on any finding)."""
    from .analyze import Thresholds, analyze as run_analysis
    from .analyze.report import render_json, render_text

    thresholds = Thresholds(min_responses=min_responses, too_easy=too_easy, too_hard=too_hard, dead_distractor=dead_distractor,
                            near_zero=near_zero, language_alpha=language_alpha, language_min_difference=language_min_difference,
                            language_min_responses=language_min_responses)
    report = run_analysis(results, bank, translations, language=lang, thresholds=thresholds)
    diagnostics = report.all_diagnostics()
    errors = len(report.errors)
    summary = {"errors": errors, "flags": len(report.flags), "questions_flagged": len({f.question for f in report.flags})}
    if report.analysis is not None and html is not None:
        from .analyze.html import render_html
        from .writing import write_atomic

        try:
            write_atomic(html, render_html(report).encode("utf-8"))
        except OSError as exc:
            _fail(f"{html}: cannot write the report: {exc.strerror or exc}")
    if fmt is OutputFormat.json:
        body = render_json(report) if report.analysis is not None else {}
        typer.echo(json.dumps(body | {"diagnostics": [d.as_dict() for d in sorted(diagnostics, key=lambda d: d.sort_key())], "summary": summary},
                              indent=2, ensure_ascii=False))
    else:
        if fmt is OutputFormat.text:
            for line in render_text(report):
                typer.echo(line)
        line = f"{len(report.flags)} finding(s) on {summary['questions_flagged']} question(s), {errors} error(s)."
        _print_diagnostics(diagnostics, fmt, summary, line)
    if errors or (strict and report.flags):
        raise typer.Exit(EXIT_ERRORS)


i18n_app = typer.Typer(help="Translation catalogs: extract, update, status, compile.", no_args_is_help=True, rich_markup_mode=None)
app.add_typer(i18n_app, name="i18n")


def _exit_on_errors(diagnostics) -> None:
    if diagnostics:
        _print_diagnostics(diagnostics, OutputFormat.text)
        raise typer.Exit(EXIT_ERRORS)


@i18n_app.command("extract")
def i18n_extract(
    bank: BankOption = Path("bank"),
    translations: TranslationsOption = Path("translations"),
    check_only: Annotated[bool, typer.Option("--check", help="Write nothing; exit 4 if the committed template is stale.")] = False,
) -> None:
    """Write the template (aistack.pot) of every translatable English text."""
    from .i18n.extract import extract

    path, changed, diagnostics = extract(bank, translations, check=check_only)
    _exit_on_errors(diagnostics)
    if check_only:
        typer.echo(f"{path}: {'stale; run `bank i18n extract`' if changed else 'up to date'}")
        raise typer.Exit(EXIT_STALE if changed else EXIT_OK)
    typer.echo(f"{'wrote' if changed else 'unchanged'} {path}")


@i18n_app.command("update")
def i18n_update(
    bank: BankOption = Path("bank"),
    translations: TranslationsOption = Path("translations"),
    lang: Annotated[Optional[list[str]], typer.Option("--lang", help="Also create the catalog of this language (repeatable).")] = None,
    check_only: Annotated[bool, typer.Option("--check", help="Write nothing; exit 4 if any catalog would change.")] = False,
) -> None:
    """Refresh the template and merge it into every catalog (changed English turns fuzzy)."""
    from .i18n.update import update_catalogs

    from .i18n.languages import check_code

    for code in lang or []:
        problem = check_code(code)
        if problem:
            _fail(f"--lang: {problem}", EXIT_USAGE)
    results, diagnostics = update_catalogs(bank, translations, languages=lang, check=check_only)
    _exit_on_errors(diagnostics)
    stale = False
    for path, changed, stats in results:
        detail = ""
        if stats is not None:
            detail = f" ({stats.kept} kept, {stats.added} new, {stats.fuzzied} now fuzzy, {stats.revived} revived, {stats.obsoleted} now obsolete)"
        if check_only:
            stale |= changed
            typer.echo(f"{path}: {'stale' if changed else 'up to date'}")
        else:
            typer.echo(f"{'updated' if changed else 'unchanged'} {path}{detail}")
    if stale:
        raise typer.Exit(EXIT_STALE)


@i18n_app.command("fix-typography")
def i18n_fix_typography(
    translations: TranslationsOption = Path("translations"),
    lang: Annotated[str, typer.Option("--lang", help="The catalog to fix (French typography: fr).")] = "fr",
    check_only: Annotated[bool, typer.Option("--check", help="Write nothing; exit 4 if anything would change.")] = False,
) -> None:
    """Put a no-break space before ? ! : ; and » and after « in a French catalog; only spaces change."""
    from .i18n.typography import fix_catalog_typography

    if lang.split("_")[0] != "fr":
        _fail(f"--lang {lang!r}: only French (fr) typography is known", EXIT_USAGE)
    path = translations / f"{lang}.po"
    if not path.is_file():
        _fail(f"{path}: no such catalog", EXIT_USAGE)
    changed, diagnostics = fix_catalog_typography(path, check=check_only)
    _exit_on_errors(diagnostics)
    if check_only:
        typer.echo(f"{path}: {changed} entr{'y' if changed == 1 else 'ies'} to fix" if changed else f"{path}: typography is clean")
        raise typer.Exit(EXIT_STALE if changed else EXIT_OK)
    typer.echo(f"{'fixed' if changed else 'unchanged'} {path}" + (f" ({changed} entr{'y' if changed == 1 else 'ies'})" if changed else ""))


@i18n_app.command("status")
def i18n_status(
    bank: BankOption = Path("bank"),
    translations: TranslationsOption = Path("translations"),
    fmt: Annotated[OutputFormat, typer.Option("--format", help="text or json.")] = OutputFormat.text,
    fail_under: Annotated[Optional[float], typer.Option("--fail-under", min=0, max=100, help="Exit 1 if any language is below this percentage.")] = None,
) -> None:
    """How complete and current each language is, with the questions not fully translated."""
    from .i18n.status import catalog_status, site_status

    statuses, diagnostics = catalog_status(bank, translations)
    interface, more = site_status(translations)
    _exit_on_errors(diagnostics + more)
    targets = [s for s in statuses if not s.source]
    total = {k: sum(getattr(s, k) for s in targets) for k in ("total", "translated", "fuzzy", "untranslated", "obsolete")}
    total_pct = 100.0 * total["translated"] / total["total"] if total["total"] else 100.0
    if fmt is OutputFormat.json:
        typer.echo(json.dumps({"languages": [s.as_dict() for s in statuses], "total": total | {"percent": round(total_pct, 1)},
                               "interface": [s.as_dict() for s in interface]}, indent=2))
    else:
        typer.echo(f"{'language':<10}{'translated':>11}{'fuzzy':>7}{'untransl.':>10}{'obsolete':>9}{'percent':>9}")
        for s in statuses:
            name = f"{s.language} (source)" if s.source else s.language
            typer.echo(f"{name:<10}{s.translated:>11}{s.fuzzy:>7}{s.untranslated:>10}{s.obsolete:>9}{s.percent:>8.1f}%" if not s.source else f"{name:<10}{s.total:>11}{'-':>7}{'-':>10}{'-':>9}{'source':>9}")
        typer.echo(f"{'total':<10}{total['translated']:>11}{total['fuzzy']:>7}{total['untranslated']:>10}{total['obsolete']:>9}{total_pct:>8.1f}%")
        for s in targets:
            if s.incomplete_questions:
                typer.echo(f"{s.language}: not fully translated: {', '.join(s.incomplete_questions)}")
        for s in interface:
            typer.echo(f"practice-site interface, {s.language}: {s.translated}/{s.total} translated, {s.fuzzy} fuzzy ({s.percent:.1f}%)")
    if fail_under is not None:
        low = [s for s in targets + interface if s.percent < fail_under]
        if low:
            typer.echo(f"bank: below {fail_under:g}%: {', '.join(f'{s.language} {s.percent:.1f}%' for s in low)}", err=True)
            raise typer.Exit(EXIT_ERRORS)


@i18n_app.command("compile")
def i18n_compile(
    translations: TranslationsOption = Path("translations"),
    out: Annotated[Optional[Path], typer.Option("--out", help="Folder for the .mo files (default: beside the catalogs).")] = None,
) -> None:
    """Write a binary .mo file for each catalog (fuzzy entries are left out, as msgfmt does)."""
    from .i18n.catalog import compile_catalog, read_catalog
    from .i18n.update import catalog_paths
    from .writing import write_atomic

    diagnostics, planned = [], []
    for path in catalog_paths(translations):
        catalog = read_catalog(path)
        if catalog.diagnostics:
            diagnostics += catalog.diagnostics
            continue
        planned.append(((out or translations) / f"{path.stem}.mo", compile_catalog(catalog.po)))
    _exit_on_errors(diagnostics)
    for target, data in planned:
        write_atomic(target, data)
        typer.echo(f"wrote {target} ({len(data)} bytes)")


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:
        typer.echo("bank: interrupted", err=True)
        sys.exit(130)
