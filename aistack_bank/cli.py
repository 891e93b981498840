"""The `bank` command: parses flags, calls the services, prints, and picks the exit code.

This is the only module that prints or exits. Heavy libraries are imported inside the
commands that need them, so `bank --help` stays fast.
"""

from __future__ import annotations

import enum
import functools
import inspect
import json
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer
from typer.core import TyperGroup

from .kinds import DEFAULT_KIND, NAMES as KIND_NAMES  # light: the kinds' names, without their models
from .options import ExportOptions  # light: the type of the options the export commands receive

EXIT_OK, EXIT_ERRORS, EXIT_USAGE, EXIT_STALE = 0, 1, 2, 4
EXIT_INTERRUPTED = 130
"""A command interrupted (SIGINT, Ctrl-C), as a shell reports a process its SIGINT ended."""
INTERRUPTED = "bank: interrupted"
"""What an interrupted command prints (to stderr), whenever the interrupt comes."""


def _errors() -> list[tuple[type[BaseException], int, object]]:
    """The one table of the project's error types, most specific first (pandoc's handleError):
    each with its exit code and how it is printed."""
    from .errors import BankError, DiagnosticsError, InitError, SettingsError, UnknownFormatError, UsageError
    from .parallel import WorkerLost

    def usage(exc) -> None:
        typer.echo(f"bank: {exc.message}", err=True)

    def located(exc) -> None:
        typer.echo(str(exc.diagnostic()), err=True)

    def settings(exc) -> None:
        _print_diagnostics([exc.diagnostic()], OutputFormat.text)
        typer.echo("bank: invalid export settings; nothing was exported", err=True)

    def refused(exc) -> None:
        _print_diagnostics(exc.diagnostics, OutputFormat.text)
        typer.echo(f"bank: {exc.message}", err=True)

    def init_refused(exc) -> None:
        _print_diagnostics(exc.diagnostics, OutputFormat.text)

    def lost(exc) -> None:
        typer.echo(f"bank: {exc}; the command stopped and wrote nothing", err=True)

    return [
        (UsageError, EXIT_USAGE, usage),  # a flag or argument the command cannot use
        (UnknownFormatError, EXIT_USAGE, located),  # the FORMAT argument of export or import
        (SettingsError, EXIT_USAGE, settings),  # bank.toml [export], read like the flags
        (InitError, EXIT_USAGE, init_refused),  # `bank init` refused its folder, languages or title
        (DiagnosticsError, EXIT_ERRORS, refused),  # work refused: the bank or its catalogs have errors
        (BankError, EXIT_ERRORS, located),  # any other located problem of the user's files
        (WorkerLost, EXIT_ERRORS, lost),  # a worker process killed (out of memory): nothing written
    ]


def error_exits() -> list[tuple[type[BaseException], int]]:
    """Each error type of the project and its exit code, most specific first."""
    return [(error_type, exit_code) for error_type, exit_code, _ in _errors()]


def handle_error(exc: BaseException) -> int | None:
    """Print ``exc`` as the user should see it and return its exit code; None when it is no error
    type of ours (then it is a bug, and the traceback shows)."""
    for error_type, exit_code, report in _errors():
        if isinstance(exc, error_type):
            report(exc)
            return exit_code
    return None


class _Commands(TyperGroup):
    """Runs a command and turns the project's error types into a message and an exit code."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:  # (typer would end the command with its exit code and no word)
            typer.echo(INTERRUPTED, err=True)
            raise typer.Exit(EXIT_INTERRUPTED) from None
        except Exception as exc:
            code = handle_error(exc)
            if code is None:
                raise
            raise typer.Exit(code) from None


app = typer.Typer(
    cls=_Commands,
    name="bank",
    help="Author, check, translate and export the bank: the questions of the project in the working directory.\n\n"
         "Commands work on the project in the working directory; -C PATH (or --bank PATH, before the "
         "command) runs them on the project in PATH instead: bank -C examples/every-kind build.",
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


PROJECT_HELP = ("Run the command in the project folder PATH (the folder that holds bank/, translations/, exports/ "
                "and bank.toml), as if started there: every path, default or given, is then relative to PATH.")


def _enter_project(ctx: typer.Context, folder: Optional[Path], flag: str) -> None:
    """Change to the project ``folder`` of ``-C``/``--bank`` for the command, and back after it."""
    import os

    from .errors import UsageError

    if folder is None:
        return
    if not folder.is_dir():
        raise UsageError(f"{flag} {folder}: {'not a folder' if folder.exists() else 'no such folder'}")
    bank_files = ("categories.yaml", "topic.yaml")  # a bank of topics, or one still to migrate
    if folder.name == "bank" and any((folder / name).is_file() for name in bank_files) and not (folder / "bank").is_dir():
        folder = folder.parent  # the bank folder itself: its project is the folder that holds it
    if ctx.invoked_subcommand != "init" and not ((folder / "bank").is_dir() or (folder / "bank.toml").is_file()):
        raise UsageError(f"{flag} {folder}: not a bank project (it holds no bank/ folder and no bank.toml); "
                         "start one with `bank init`")
    previous = os.getcwd()
    os.chdir(folder)
    ctx.call_on_close(lambda: os.chdir(previous))


@app.callback()
def _root(
    ctx: typer.Context,
    directory: Annotated[Optional[Path], typer.Option("-C", metavar="PATH", help=PROJECT_HELP, show_default=False)] = None,
    project: Annotated[Optional[Path], typer.Option("--bank", metavar="PATH", show_default=False,
                                                    help="The same as -C PATH; PATH may also be the project's bank/ folder.")] = None,
    version: Annotated[bool, typer.Option("--version", help="Print the version and exit.", is_eager=True, callback=_show_version)] = False,
) -> None:
    """Author, check, translate and export a question bank (the help is the app's)."""
    from .errors import UsageError

    if directory is not None and project is not None:
        raise UsageError("give the project once: -C PATH or --bank PATH, not both")
    _enter_project(ctx, directory if directory is not None else project, "-C" if directory is not None else "--bank")
    _project_help(ctx)


PROJECT_LANGUAGES = "en or a language of the project"
"""Replaced in the help of `--lang` by the project's own languages (:func:`_project_help`)."""


def _project_help(ctx: typer.Context) -> None:
    """Name the project's languages in the help of the command about to run (`export --help`
    in a de/es project offers en, de, es), once the command runs in its project folder."""
    command = getattr(ctx.command, "commands", {}).get(ctx.invoked_subcommand or "")
    params = [param for param in getattr(command, "params", []) if PROJECT_LANGUAGES in getattr(param, "project_help", getattr(param, "help", None) or "")]
    if not params:
        return  # (without importing the build and its exporters, which a command such as validate never needs)
    from .build import available_languages

    try:
        languages = available_languages(Path("translations"))
    except OSError:
        return
    for param in params:
        param.project_help = getattr(param, "project_help", param.help)  # the template, kept for the next project
        param.help = param.project_help.replace(PROJECT_LANGUAGES, ", ".join(languages) + " (the project's languages)")


BankOption = Annotated[Path, typer.Option("--bank", help="The bank folder (categories.yaml and a folder per topic).")]
TopicOption = Annotated[Optional[str], typer.Option("--topic", help="The topic id (default: the only topic).", show_default=False)]
TranslationsOption = Annotated[Path, typer.Option("--translations", help="The folder of the .pot template and .po catalogs.")]
DeprecatedCheckOption = Annotated[bool, typer.Option("--check", hidden=True, help="Old name of --compare.")]


def _compare_flag(compare: bool, deprecated_check: bool) -> bool:
    """``--compare``, also when given by its old name ``--check`` (kept for existing CI and hooks)."""
    if deprecated_check:
        typer.echo("bank: --check is now --compare (the old name still works)", err=True)
    return compare or deprecated_check


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


def collapsed(ordered) -> list[tuple[object, int]]:
    """(diagnostic, how many more like it) for a text report: the warnings of one code in one
    file are shown once, at the first, with the count of the others; errors are all shown."""
    groups: dict[tuple[str, str], list] = {}
    for diagnostic in ordered:
        if diagnostic.severity.value == "warning":
            groups.setdefault((diagnostic.code, diagnostic.location.path if diagnostic.location else ""), []).append(diagnostic)
    out = []
    for diagnostic in ordered:
        group = groups.get((diagnostic.code, diagnostic.location.path if diagnostic.location else "")) if diagnostic.severity.value == "warning" else None
        if group is None:
            out.append((diagnostic, 0))
        elif group[0] is diagnostic:
            out.append((diagnostic, len(group) - 1))
    return out


def _print_diagnostics(diagnostics, fmt: OutputFormat, summary: dict | None = None, summary_line: str = "", *, collapse: bool = False) -> None:
    from .errors import Diagnostic

    ordered = sorted(diagnostics, key=Diagnostic.sort_key)
    if collapse and fmt is OutputFormat.text:
        for diagnostic, more in collapsed(ordered):
            typer.echo(str(diagnostic) + (f" (and {more} more {diagnostic.code} in this file; --verbose lists them)" if more else ""))
        if summary_line:
            typer.echo(summary_line)
        return
    if fmt is OutputFormat.json:
        typer.echo(json.dumps({"diagnostics": [d.as_dict() for d in ordered], "summary": summary or {}}, indent=2, ensure_ascii=False))
        return
    for diagnostic in ordered:
        if fmt is OutputFormat.github:
            loc = diagnostic.location
            parts = [f"file={_gh_property(loc.path)}"] if loc else []
            if loc and loc.line:
                parts.append(f"line={loc.line}")
            if loc and loc.column:
                parts.append(f"col={loc.column}")
            parts.append(f"title={diagnostic.code}")
            message = _gh_data(diagnostic.message)
            typer.echo(f"::{'error' if diagnostic.severity.value == 'error' else 'warning'} {','.join(parts)}::{message}")
        else:
            typer.echo(str(diagnostic))
    if summary_line:
        typer.echo(summary_line, err=fmt is OutputFormat.github)


def _fail(message: str, code: int = EXIT_ERRORS) -> None:
    typer.echo(f"bank: {message}", err=True)
    raise typer.Exit(code)


@app.command()
def validate(
    paths: Annotated[Optional[list[Path]], typer.Argument(help="Bank folders or question files (default: the --bank folder).", show_default=False)] = None,
    bank_dir: BankOption = Path("bank"),
    translations: TranslationsOption = Path("translations"),
    fmt: Annotated[OutputFormat, typer.Option("--format", help="text, json (for editors) or github (Actions annotations).")] = OutputFormat.text,
    strict: Annotated[bool, typer.Option("--strict", help="Fail on warnings too.")] = False,
    no_translations: Annotated[bool, typer.Option("--no-translations", help="Skip the .po catalogs.")] = False,
    no_cache: Annotated[bool, typer.Option("--no-cache", help="Validate from scratch, ignoring the content-hash cache.")] = False,
    lang: Annotated[Optional[list[str]], typer.Option("--lang", help="Report only the catalogs of this language (repeatable; en: the bank alone), with the bank's own findings.", show_default=False)] = None,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="List every warning (text format collapses the warnings of one code in one file into one line).")] = False,
) -> None:
    """Check the bank and its translations; report every problem.

    Numeric answer checks run too, in every language."""
    from .services import validate_project

    result = validate_project(paths or [bank_dir], bank_dir, translations, use_translations=not no_translations, use_cache=not no_cache, languages=lang)
    _print_diagnostics(result.diagnostics, fmt, result.summary, result.summary_line, collapse=not verbose)
    if result.failed(strict):
        raise typer.Exit(EXIT_ERRORS)


@app.command()
def check(
    bank_dir: BankOption = Path("bank"),
    translations: TranslationsOption = Path("translations"),
    lang: Annotated[str, typer.Option("--lang", help=f"{PROJECT_LANGUAGES}, or all.")] = "all",
) -> None:
    """Run the numeric answer checks, in every language."""
    from .services import run_all_checks

    results, diagnostics = run_all_checks(bank_dir, translations, lang)
    _print_diagnostics(diagnostics, OutputFormat.text)
    for language, (checked, failed) in results.items():
        typer.echo(f"{language}: {checked} checked question(s), {failed} failing")
    if diagnostics:
        raise typer.Exit(EXIT_ERRORS)


@app.command()
def schema(
    out: Annotated[Path, typer.Option("--out", help="Where the JSON Schemas go.")] = Path("schema"),
    compare: Annotated[bool, typer.Option("--compare", help="Write nothing; exit 4 if a committed schema is stale.")] = False,
    deprecated_check: DeprecatedCheckOption = False,
) -> None:
    """Write the JSON Schemas (content files and JSON export)."""
    from .project.schemas import render_schemas
    from .writing import stale_files, write_tree

    tree = render_schemas()
    if _compare_flag(compare, deprecated_check):
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


def _report_outputs(outputs, quiet: bool, compare: bool) -> None:
    if quiet:
        return
    for output in outputs:
        if compare:
            if output.changed:
                typer.echo(f"{output.path}: stale")
            continue
        if output.removed:
            typer.echo(f"{'removed':<9} {output.path}")
            continue
        state = "wrote" if output.changed else "unchanged"
        typer.echo(f"{state:<9} {output.format:<10} {output.language:<5} {output.questions:>4} question{' ' if output.questions == 1 else 's'} {output.size:>9} bytes  {output.path}")


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


def _run_export(work, quiet: bool, compare: bool = False) -> None:
    progress = _progress_factory(quiet)
    try:
        outputs, notes = work(progress)
    finally:
        for bar in getattr(progress, "bars", []):
            bar.__exit__(None, None, None)
    if notes and not quiet:
        _print_diagnostics(notes, OutputFormat.text)
    _report_outputs(outputs, quiet, compare)
    if compare:
        stale = [output for output in outputs if output.changed]
        typer.echo(f"{len(stale)} stale file(s)" if stale else "exports are up to date")
        if stale:
            raise typer.Exit(EXIT_STALE)
    elif not quiet:
        removed = sum(output.removed for output in outputs)
        typer.echo(f"{sum(output.changed and not output.removed for output in outputs)} file(s) written, " + (f"{removed} removed, " if removed else "")
                   + f"{sum(not output.changed for output in outputs)} unchanged")


ShuffleOption = Annotated[Optional[bool], typer.Option("--shuffle/--no-shuffle", help="Ask the LMS to shuffle the options (default: bank.toml, else shuffle).", show_default=False)]
NumberingOption = Annotated[Optional[str], typer.Option("--answer-numbering", help="abc, ABCD, 123, iii, IIII or none (Moodle XML, QTI 3.0).", show_default=False)]
MultilangOption = Annotated[Optional[str], typer.Option("--multilang", help="span (Moodle's core filter) or mlang (filter_multilang2).", show_default=False)]
PenaltyOption = Annotated[Optional[float], typer.Option("--penalty", help="Moodle's penalty per wrong try: 1, 0.5, 0.3333333, 0.25, 0.2, 0.1 or 0.", show_default=False)]
SettingsOption = Annotated[Path, typer.Option("--settings", help="The settings file: its [export] table sets shuffle, answer_numbering, multilang and penalty (flags win).")]


FallbackOption = Annotated[bool, typer.Option("--allow-fallback", help="Also export the languages in progress, their untranslated or fuzzy texts in English, marked as English (as fallback = true under [languages] in bank.toml).")]
QuietOption = Annotated[bool, typer.Option("--quiet", "-q", help="Print nothing but errors.")]

EXPORT_FLAGS = (("shuffle", ShuffleOption, None), ("answer_numbering", NumberingOption, None), ("multilang", MultilangOption, None),
                ("penalty", PenaltyOption, None), ("settings", SettingsOption, Path("bank.toml")))
"""The flags that set export options, shared by `bank export` and `bank build`."""


def _with_export_flags(command):
    """``command`` with the flags of :data:`EXPORT_FLAGS`, which it receives as one ``options``
    (ExportOptions from the settings file and the flags, by :func:`services.export_options`)."""
    signature = inspect.signature(command, eval_str=True)
    wants_policy = "policy" in signature.parameters
    kept = [parameter for parameter in signature.parameters.values() if parameter.name not in ("options", "policy")]
    added = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation) for name, annotation, default in EXPORT_FLAGS]

    @functools.wraps(command)
    def run(**values):
        from .services import export_options

        flags = {name: values.pop(name) for name, _, _ in EXPORT_FLAGS}
        settings = flags.pop("settings")
        if wants_policy:
            from .project.settings import load_language_policy

            values["policy"] = load_language_policy(settings)
        return command(**values, options=export_options(settings, **flags))

    run.__signature__ = signature.replace(parameters=kept + added)
    run.__annotations__ = {parameter.name: parameter.annotation for parameter in kept + added} | {"return": None}
    return run


@app.command("export")
@_with_export_flags
def export_cmd(
    fmt: Annotated[str, typer.Argument(metavar="FORMAT", help="moodle-xml, qti21, qti30, gift, json, html (the practice site), canvas-qti12, common-cartridge or aiken.")],
    lang: Annotated[str, typer.Option("--lang", help=f"{PROJECT_LANGUAGES}, a comma list, or all.")] = "all",
    out: Annotated[Path, typer.Option("--out", help="Folder to write into.")] = Path("."),
    bank_dir: BankOption = Path("bank"),
    translations: TranslationsOption = Path("translations"),
    allow_fallback: FallbackOption = False,
    quiet: QuietOption = False,
    topic: Annotated[Optional[str], typer.Option("--topic", help="Export only this topic (default: every topic).", show_default=False)] = None,
    options: Optional[ExportOptions] = None,
    policy: object = None,  # settings.LanguagePolicy, from the settings file
) -> None:
    """Export the bank in one format (the ready languages, as `bank build`)."""
    from .build import export

    _run_export(lambda progress: export(fmt, bank_dir, translations, out, languages=lang, allow_fallback=allow_fallback, options=options, progress=progress, topic=topic, policy=policy), quiet)


@app.command()
@_with_export_flags
def build(
    out: Annotated[Path, typer.Option("--out", help="The exports folder.")] = Path("exports"),
    bank_dir: BankOption = Path("bank"),
    translations: TranslationsOption = Path("translations"),
    allow_fallback: FallbackOption = False,
    compare: Annotated[bool, typer.Option("--compare", help="Write nothing; exit 4 if any committed export is stale.")] = False,
    deprecated_check: DeprecatedCheckOption = False,
    quiet: QuietOption = False,
    options: Optional[ExportOptions] = None,
    policy: object = None,  # settings.LanguagePolicy, from the settings file
) -> None:
    """Validate, then write every format and every ready language to exports/.

    A language in progress (below `ready` under [languages] in bank.toml, 100 % by default) is
    left out with one warning, unless fallback is chosen; one with nothing translated always."""
    from .build import build as run_build

    compare = _compare_flag(compare, deprecated_check)
    _run_export(lambda progress: run_build(bank_dir, translations, out, allow_fallback=allow_fallback, compare=compare, options=options, progress=progress, policy=policy), quiet, compare)


class LintTarget(str, enum.Enum):
    moodle = "moodle"
    gift = "gift"
    canvas = "canvas"
    qti = "qti"


@app.command()
def lint(
    target: Annotated[Optional[list[LintTarget]], typer.Option("--target", help="moodle, gift, canvas or qti (repeatable; default: all).", show_default=False)] = None,
    bank_dir: BankOption = Path("bank"),
    translations: TranslationsOption = Path("translations"),
    fmt: Annotated[OutputFormat, typer.Option("--format", help="text, json or github (Actions annotations).")] = OutputFormat.text,
    strict: Annotated[bool, typer.Option("--strict", help="Fail on warnings too.")] = False,
    settings: SettingsOption = Path("bank.toml"),
    allow_fallback: FallbackOption = False,
    lang: Annotated[str, typer.Option("--lang", help=f"{PROJECT_LANGUAGES}, a comma list, or all (English is always read).")] = "all",
) -> None:
    """What each LMS would change or lose on import, before upload.

    Renders the exports as `bank build` would (the same languages) and reads them back as
    Moodle, Canvas and a QTI test player do; each finding is a located warning (docs/lms-notes.md)."""
    from .lms.lint import TARGETS
    from .lms.lint import lint as run_lint
    from .services import export_options
    from .project.settings import load_language_policy

    targets = [choice.value for choice in target] if target else list(TARGETS)
    found = run_lint(bank_dir, translations, targets, export_options(settings), policy=load_language_policy(settings), allow_fallback=allow_fallback, languages=lang)
    line = f"{len(found)} warning(s) for {', '.join(targets)}"
    _print_diagnostics(found, fmt, {"warnings": len(found), "targets": targets}, line)
    if strict and found:
        raise typer.Exit(EXIT_ERRORS)


@app.command()
def new(
    slug: Annotated[str, typer.Option("--slug", help="Short name for the file: lowercase words joined by hyphens.")],
    bank_dir: BankOption = Path("bank"),
    translations: TranslationsOption = Path("translations"),
    topic: TopicOption = None,
    kind: Annotated[str, typer.Option("--kind", help=f"The question kind, as a question file names it: {', '.join(KIND_NAMES)} (bank/README.md describes each kind).")] = DEFAULT_KIND,
) -> None:
    """Create the next question of a kind from its template, in a topic.

    The new id is the next one never used in the bank; the question is listed in the topic
    (--topic, needed when the bank has several) and its path printed."""
    from .project.authoring import new_question

    typer.echo(new_question(bank_dir, translations, slug, topic, kind).as_posix())


@app.command()
def init(
    folder: Annotated[Path, typer.Argument(help="The folder of the new bank (created if missing).")],
    languages: Annotated[Optional[str], typer.Option("--languages", help="Target languages, comma-separated: fr,nl,de.")] = None,
    title: Annotated[Optional[str], typer.Option("--title", help="The topic title (default: from the folder name).")] = None,
    category: Annotated[Optional[str], typer.Option("--category", help="The category (default: the title).")] = None,
    force: Annotated[bool, typer.Option("--force", help="Add the bank to a folder that holds other files (none is overwritten).")] = False,
    requirement: Annotated[Optional[str], typer.Option("--requirement", metavar="SPEC", show_default=False,
                                                       help="How the project installs this tool (its requirements.txt, used by the README, CI and hooks): "
                                                            "a wheel file (copied into tools/), a URL such as git+https://…, or a version; default: aistack-bank==this version.")] = None,
) -> None:
    """Start a new bank project: a topic with an example question, catalogs, schemas, CI.

    `bank validate`, `bank build` and `bank i18n status` pass in it at once."""
    from .project.init import init_project

    report = init_project(folder, languages=languages, title=title, category=category, force=force, requirement=requirement)
    _print_diagnostics(report.notes, OutputFormat.text)
    for path in report.kept:
        typer.echo(f"kept      {path.as_posix()} (already there; not overwritten)")
    typer.echo(f"created a bank in {folder.as_posix()} ({len(report.written)} files), languages: {', '.join(['en', *report.languages])}")
    import shlex

    typer.echo(f"next: cd {shlex.quote(folder.as_posix())} && bank validate")


@app.command()
def stats(
    bank_dir: BankOption = Path("bank"),
    translations: TranslationsOption = Path("translations"),
    fmt: Annotated[OutputFormat, typer.Option("--format", help="text, json, or github: a Markdown job summary (bank stats --format github >> $GITHUB_STEP_SUMMARY).")] = OutputFormat.text,
) -> None:
    """Counts by tag, difficulty, kind and language."""
    from .project.stats import bank_stats

    figures, diagnostics = bank_stats(bank_dir, translations)
    _exit_on_errors(diagnostics)
    if fmt is OutputFormat.json:
        typer.echo(json.dumps(figures.as_dict(), indent=2))
        return
    if fmt is OutputFormat.github:
        for line in _stats_markdown(figures):
            typer.echo(line)
        return
    typer.echo(f"questions: {figures.questions} ({', '.join(f'{k} {v}' for k, v in figures.by_kind.items())}); with numeric checks: {figures.checked}")
    for category_id, category in figures.by_category.items():
        typer.echo(f"category {category_id} ({category['title']}): {len(category['topics'])} topic(s), {category['questions']} question(s)")
        for topic_id in category["topics"]:
            topic = figures.by_topic[topic_id]
            typer.echo(f"  topic {topic_id}: {topic['questions']} question(s), {topic['checked']} with numeric checks")
    typer.echo("difficulty: " + ", ".join(f"{k}: {v}" for k, v in figures.by_difficulty.items()))
    typer.echo("tags: " + ", ".join(f"{k} {v}" for k, v in figures.by_tag.items()))
    if figures.languages:
        typer.echo("languages: " + ", ".join(f"{k} {v:g}%" for k, v in figures.languages.items()))
    if figures.option_questions:  # key position and length mean something only among options
        typer.echo("key position: " + " ".join(f"{k} {v:.0%}" for k, v in figures.key_positions.items()) + f"; key is the longest option in {figures.key_longest_share:.0%} of questions"
                   + ("" if figures.option_questions == figures.questions else f" (the {figures.option_questions} single-choice and multiple-response questions)"))


def _md(text: object) -> str:
    """A value in a Markdown table cell (``|`` escaped, no line break)."""
    return str(text).replace("|", "\\|").replace("\n", " ")


def _stats_markdown(figures) -> list[str]:
    """`bank stats` as a GitHub job summary: a heading and Markdown tables."""
    lines = ["## Question bank", "",
             f"{figures.questions} question{'' if figures.questions == 1 else 's'}, {figures.checked} with numeric checks.", "",
             "| category | topic | questions | with numeric checks |", "| --- | --- | ---: | ---: |"]
    for category_id, category in figures.by_category.items():
        for topic_id in category["topics"]:
            topic = figures.by_topic[topic_id]
            lines.append(f"| {_md(category['title'])} | {_md(topic_id)} | {topic['questions']} | {topic['checked']} |")
    lines += ["", "| kind | questions |", "| --- | ---: |", *(f"| {_md(k)} | {v} |" for k, v in figures.by_kind.items())]
    lines += ["", "| difficulty | questions |", "| --- | ---: |", *(f"| {_md(k)} | {v} |" for k, v in figures.by_difficulty.items())]
    lines += ["", "| tag | questions |", "| --- | ---: |", *(f"| {_md(k)} | {v} |" for k, v in figures.by_tag.items())]
    if figures.languages:
        lines += ["", "| language | translated |", "| --- | ---: |", *(f"| {_md(k)} | {v:g}% |" for k, v in figures.languages.items())]
    return lines


@app.command("import")
def import_cmd(
    fmt: Annotated[Optional[str], typer.Argument(metavar="FORMAT", help="moodle (Moodle XML), gift, qti (a QTI 1.2/2.x package: .zip, .imscc or folder), aiken or text2qti.", show_default=False)] = None,
    file: Annotated[Optional[Path], typer.Argument(help="The file (or, for qti, the package or its folder) to import.", show_default=False)] = None,
    bank_dir: BankOption = Path("bank"),
    translations: TranslationsOption = Path("translations"),
    topic: TopicOption = None,
    encoding: Annotated[Optional[str], typer.Option("--encoding", help="The encoding of a GIFT file (default utf-8; cp1252 or latin-1 for files saved by Windows or older editors).")] = None,
    recover: Annotated[bool, typer.Option("--recover", help="Only complete (or undo) an import that was interrupted, and remove what it left; takes no FORMAT or FILE.")] = False,
) -> None:
    """Import questions from Moodle XML, GIFT, QTI packages, Aiken or text2qti.

    An import changes the bank all or nothing; one interrupted (killed, a power cut) is
    completed by the next import or by --recover."""
    from .errors import UsageError
    from .importers import import_file, recover_import

    if recover:
        if fmt is not None or file is not None:
            raise UsageError("--recover takes no FORMAT or FILE")
        done = recover_import(bank_dir)
        typer.echo(done or "no interrupted import to recover")
        return
    if fmt is None or file is None:
        raise UsageError("give the FORMAT and the FILE to import (or --recover)")
    report = import_file(fmt, file, bank_dir, translations, topic, encoding)
    for created in report.topics_created:
        typer.echo(f"created {created}")
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
    bank_dir: BankOption = Path("bank"),
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
    report = run_analysis(results, bank_dir, translations, language=lang, thresholds=thresholds)
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
        typer.echo(json.dumps(body | {"diagnostics": [d.as_dict() for d in sorted(diagnostics, key=lambda diagnostic: diagnostic.sort_key())], "summary": summary},
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
    bank_dir: BankOption = Path("bank"),
    translations: TranslationsOption = Path("translations"),
    compare: Annotated[bool, typer.Option("--compare", help="Write nothing; exit 4 if the committed template is stale.")] = False,
    deprecated_check: DeprecatedCheckOption = False,
) -> None:
    """Write the template (translations/<project>.pot) of every translatable English text."""
    from .i18n.extract import extract

    compare = _compare_flag(compare, deprecated_check)
    path, changed, diagnostics = extract(bank_dir, translations, compare=compare)
    _exit_on_errors(diagnostics)
    if compare:
        typer.echo(f"{path}: {'stale; run `bank i18n extract`' if changed else 'up to date'}")
        raise typer.Exit(EXIT_STALE if changed else EXIT_OK)
    typer.echo(f"{'wrote' if changed else 'unchanged'} {path}")


@i18n_app.command("update")
def i18n_update(
    bank_dir: BankOption = Path("bank"),
    translations: TranslationsOption = Path("translations"),
    lang: Annotated[Optional[list[str]], typer.Option("--lang", help="Also create the catalog of this language (repeatable).")] = None,
    compare: Annotated[bool, typer.Option("--compare", help="Write nothing; exit 4 if any catalog would change.")] = False,
    deprecated_check: DeprecatedCheckOption = False,
) -> None:
    """Refresh the template and merge it into every catalog (changed English turns fuzzy)."""
    from .i18n.update import update_catalogs
    from .services import check_new_languages

    compare = _compare_flag(compare, deprecated_check)
    check_new_languages(lang or [])
    results, diagnostics = update_catalogs(bank_dir, translations, languages=lang, compare=compare)
    _exit_on_errors(diagnostics)
    stale = False
    for path, changed, merged in results:
        detail = ""
        if merged is not None:
            detail = f" ({merged.kept} kept, {merged.added} new, {merged.fuzzied} now fuzzy, {merged.revived} revived, {merged.obsoleted} now obsolete)"
        if compare:
            stale |= changed
            typer.echo(f"{path}: {'stale' if changed else 'up to date'}")
        else:
            typer.echo(f"{'updated' if changed else 'unchanged'} {path}{detail}")
            if merged is not None and not compare:
                for key in merged.fuzzied_keys:
                    typer.echo(f"  now fuzzy:    {key}")
                for key in merged.obsoleted_keys:
                    typer.echo(f"  now obsolete: {key}")
                if merged.fuzzied_keys and path.parent.name != "site":
                    typer.echo(f"  (`bank i18n todo {path.stem}` shows each with its line and the English before and after)")
    if stale:
        raise typer.Exit(EXIT_STALE)


@i18n_app.command("fix-typography")
def i18n_fix_typography(
    translations: TranslationsOption = Path("translations"),
    lang: Annotated[str, typer.Option("--lang", help="The catalog to fix (French typography: fr).")] = "fr",
    compare: Annotated[bool, typer.Option("--compare", help="Write nothing; exit 4 if anything would change.")] = False,
    deprecated_check: DeprecatedCheckOption = False,
) -> None:
    """Put a no-break space before ? ! : ; and » and after « in a French catalog; only spaces change."""
    from .i18n.typography import fix_catalog_typography
    from .services import typography_catalog

    compare = _compare_flag(compare, deprecated_check)
    path = typography_catalog(translations, lang)
    changed, diagnostics = fix_catalog_typography(path, compare=compare)
    _exit_on_errors(diagnostics)
    if compare:
        typer.echo(f"{path}: {changed} entr{'y' if changed == 1 else 'ies'} to fix" if changed else f"{path}: typography is clean")
        raise typer.Exit(EXIT_STALE if changed else EXIT_OK)
    typer.echo(f"{'fixed' if changed else 'unchanged'} {path}" + (f" ({changed} entr{'y' if changed == 1 else 'ies'})" if changed else ""))


@i18n_app.command("status")
def i18n_status(
    bank_dir: BankOption = Path("bank"),
    translations: TranslationsOption = Path("translations"),
    fmt: Annotated[OutputFormat, typer.Option("--format", help="text, json, or github: a Markdown job summary (bank i18n status --format github >> $GITHUB_STEP_SUMMARY).")] = OutputFormat.text,
    fail_under: Annotated[Optional[float], typer.Option("--fail-under", min=0, max=100, help="Exit 1 if any language is below this percentage.")] = None,
) -> None:
    """How complete and current each language is, with the questions not fully translated."""
    from .services import translation_status

    status = translation_status(bank_dir, translations)
    _exit_on_errors(status.diagnostics)
    if fmt is OutputFormat.json:
        typer.echo(json.dumps(status.as_dict(), indent=2))
    else:
        for line in status.markdown() if fmt is OutputFormat.github else status.table():
            typer.echo(line)
    if fail_under is not None:
        low = status.below(fail_under)
        if low:
            typer.echo(f"bank: below {fail_under:g}%: {', '.join(f'{language.language} {language.percent:.1f}%' for language in low)}", err=True)
            raise typer.Exit(EXIT_ERRORS)


@i18n_app.command("todo")
def i18n_todo(
    lang: Annotated[str, typer.Argument(metavar="LANG", help="The language whose catalog to list (de, pt_BR, …).")],
    bank_dir: BankOption = Path("bank"),
    translations: TranslationsOption = Path("translations"),
    fmt: Annotated[OutputFormat, typer.Option("--format", help="text, json or github (Actions annotations).")] = OutputFormat.text,
    interface: Annotated[bool, typer.Option("--interface", help="List the practice site's interface catalog (translations/site/LANG.po) instead.")] = False,
) -> None:
    """A translator's to-do: each untranslated, fuzzy or changed entry of LANG as path:line.

    A changed entry shows the English its translation was made for and the English now."""
    from .i18n.todo import language_todo

    entries, diagnostics = language_todo(bank_dir, translations, lang, interface=interface)
    _exit_on_errors(diagnostics)
    counts = {state: sum(e.state == state for e in entries) for state in ("untranslated", "fuzzy", "changed")}
    line = f"{lang}: {len(entries)} entr{'y' if len(entries) == 1 else 'ies'} to do ({', '.join(f'{n} {state}' for state, n in counts.items())})"
    if fmt is OutputFormat.json:
        typer.echo(json.dumps({"language": lang, "entries": [e.as_dict() for e in entries], "summary": counts | {"total": len(entries)}}, indent=2, ensure_ascii=False))
        return
    for entry in entries:
        if fmt is OutputFormat.github:
            parts = [f"file={_gh_property(entry.path)}"] + ([f"line={entry.line}"] if entry.line else []) + [f"title={_gh_property(entry.state)}"]
            message = f"{entry.key}: {entry.english}" if entry.previous is None else f"{entry.key}: the English changed from: {entry.previous}\nto: {entry.english}"
            typer.echo(f"::notice {','.join(parts)}::{_gh_data(message)}")
            continue
        typer.echo(f"{entry.location()}: {entry.state} {entry.key}")
        if entry.previous is not None:
            typer.echo(f"    before: {_one_line(entry.previous)}")
            typer.echo(f"    after:  {_one_line(entry.english)}")
        else:
            typer.echo(f"    {_one_line(entry.english)}")
    typer.echo(line, err=fmt is OutputFormat.github)


def _one_line(text: str) -> str:
    """A text on one line of a terminal report (its line breaks shown as ⏎)."""
    return text.replace("\n", " \u23ce ")


@i18n_app.command("compile")
def i18n_compile(
    translations: TranslationsOption = Path("translations"),
    out: Annotated[Optional[Path], typer.Option("--out", help="Folder for the .mo files (default: beside the catalogs).")] = None,
) -> None:
    """Write a binary .mo file for each catalog (fuzzy entries are left out, as msgfmt does)."""
    from .services import compile_catalogs
    from .writing import write_atomic

    planned, diagnostics = compile_catalogs(translations, out)
    _exit_on_errors(diagnostics)
    for target, data in planned:
        write_atomic(target, data)
        typer.echo(f"wrote {target} ({len(data)} bytes)")


@app.command()
def migrate(
    bank_dir: BankOption = Path("bank"),
    translations: TranslationsOption = Path("translations"),
    category_id: Annotated[Optional[str], typer.Option("--category-id", help="The id of the topic's category (default: made from its title).", show_default=False)] = None,
) -> None:
    """Bring a bank made with an earlier version up to date, keeping every translation.

    Moves a single-topic bank (topic.yaml, questions/) to one folder per topic (writing
    categories.yaml), gives an id to each accepted answer, unit, near miss and key point
    without one, and renames their catalog entries. Refuses when there is nothing left to do."""
    from .project.topics import migrate as run_migrate

    change = run_migrate(bank_dir, translations, category_id=category_id)
    for old, new in change.moved:
        typer.echo(f"moved     {old.as_posix()} -> {new.as_posix()}")
    for path in change.written + change.catalogs:
        typer.echo(f"wrote     {path.as_posix()}")
    typer.echo(f"{len(change.renamed_keys)} catalog key(s) renamed; run `bank validate` and commit the result")


topic_app = typer.Typer(help="Topics of the bank: create and rename them.", no_args_is_help=True, rich_markup_mode=None)
app.add_typer(topic_app, name="topic")


@topic_app.command("new")
def topic_new(
    topic_id: Annotated[str, typer.Argument(metavar="ID", help="The new topic's id: lowercase words joined by hyphens.")],
    category: Annotated[str, typer.Option("--category", help="The id of its category (in categories.yaml).")],
    category_title: Annotated[Optional[str], typer.Option("--category-title", help="Add the category to categories.yaml with this title.", show_default=False)] = None,
    title: Annotated[Optional[str], typer.Option("--title", help="The topic title (default: from the id).", show_default=False)] = None,
    bank_dir: BankOption = Path("bank"),
) -> None:
    """Create a topic folder (topic.yaml and questions/) in a category."""
    from .project.topics import new_topic

    change = new_topic(bank_dir, topic_id, category, title=title, category_title=category_title)
    for path in change.written:
        typer.echo(f"wrote     {path.as_posix()}")
    typer.echo(f"next: fill in its texts, then `bank new --topic {topic_id} --slug ...`")


@topic_app.command("rename")
def topic_rename(
    old_id: Annotated[str, typer.Argument(metavar="OLD", help="The topic's id now.")],
    new_id: Annotated[str, typer.Argument(metavar="NEW", help="Its new id.")],
    bank_dir: BankOption = Path("bank"),
    translations: TranslationsOption = Path("translations"),
) -> None:
    """Rename a topic: its folder, its id and its catalog entries (translations kept)."""
    from .project.topics import rename_topic

    change = rename_topic(bank_dir, translations, old_id, new_id)
    for old, new in change.moved:
        typer.echo(f"moved     {old.as_posix()} -> {new.as_posix()}")
    for path in change.catalogs:
        typer.echo(f"wrote     {path.as_posix()}")


_ROOT_OPTIONS_WITH_VALUE = ("-C", "--bank")
"""The options of `bank` itself that take a value (written before the command's name)."""


def invoked_app(args: list[str]) -> typer.Typer:
    """The app that runs the command line ``args``: when they name a command of `bank` outright
    (`bank -C PATH validate …`, `bank i18n update`), a copy of :data:`app` that holds that
    command alone, so that typer builds one command from its function's signature instead of
    every command (the same command, help and messages: a command runs without its siblings);
    for anything else (`bank --help`, `bank --version`, a misspelt command), :data:`app`."""
    index = 0
    while index < len(args):
        token = args[index]
        if token in _ROOT_OPTIONS_WITH_VALUE:
            index += 2
        elif token.startswith("--bank=") or (token.startswith("-C") and len(token) > 2):
            index += 1
        elif token.startswith("-"):
            return app  # --help, --version, `--` or an option `bank` does not take: as typer answers it
        else:
            break
    if index >= len(args):
        return app
    name = args[index]
    commands = [c for c in app.registered_commands if (c.name or typer.main.get_command_name(c.callback.__name__)) == name]
    groups = [g for g in app.registered_groups if g.name == name]
    if len(commands) + len(groups) != 1:
        return app
    import copy

    lean = copy.copy(app)
    lean.registered_commands, lean.registered_groups = commands, groups
    return lean


def main() -> None:
    import gc

    # A command holds the whole bank (records, catalogs' entries) while it allocates more: a full
    # collection walks every live object, and by default one runs every ten younger ones. Rarer
    # full collections cut 10 to 25 % of the CPU time of `bank validate` and `bank build`; young
    # garbage cycles are still collected as often as before.
    gc.set_threshold(700, 10, 1000)
    try:
        invoked_app(sys.argv[1:])()
    except KeyboardInterrupt:  # (before a command runs: while the app is built)
        typer.echo(INTERRUPTED, err=True)
        sys.exit(EXIT_INTERRUPTED)
