"""Orchestration of exports: validate → localize → export → write (atomically), for `bank export`/`bank build`."""

from __future__ import annotations

from collections import _tuplegetter
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from .errors import Diagnostic, DiagnosticsError, ExportError, Location, Severity, UsageError, warning
from .exporters import FORMATS, LISTED, ExportTree, export_notes, get_format
from .i18n.fields import question_fields
from .options import ExportOptions

if TYPE_CHECKING:
    from .i18n.catalog import Catalogs
    from .model import Bank, Library
    from .project.settings import LanguagePolicy


@dataclass(frozen=True)
class OutputFile:
    """One file an export wrote (or, with ``--compare``, found stale)."""

    format: str
    language: str
    questions: int
    size: int
    path: Path
    changed: bool
    removed: bool = False
    """A file of an earlier build that this one no longer produces, deleted (or, with ``--compare``, found there)."""


def available_languages(translations: Path | None) -> list[str]:
    """English, then every language that has a catalog."""
    from .i18n.update import catalog_paths

    others = [p.stem for p in catalog_paths(translations)] if translations is not None and translations.is_dir() else []
    return ["en", *sorted(others)]


def resolve_languages(requested: str, translations: Path | None) -> list[str]:
    """``en``, ``fr``, ``all`` or a comma list, checked against the catalogs that exist."""
    available = available_languages(translations)
    if requested == "all":
        return available
    wanted = [lang.strip() for lang in requested.split(",") if lang.strip()]
    unknown = [lang for lang in wanted if lang not in available]
    if unknown or not wanted:
        raise UsageError(f"unknown language {', '.join(unknown) or requested!r}; available: {', '.join(available)}, all")
    return sorted(set(wanted), key=lambda lang: (lang != "en", lang))


def topic_banks(libraries: dict[str, Library]) -> list[dict[str, Bank]]:
    """Each topic of the bank as the exporters take it: its :class:`Bank` by language, in bank order."""
    from .exporters.record import topic_banks as by_topic

    return by_topic(libraries)


def restrict(library: Library, topic: str | None) -> Library:
    """``library`` with only the topic ``topic`` (all of it when None); UsageError naming the topics."""
    if topic is None:
        return library
    try:
        return library.only(topic)
    except KeyError:
        raise _no_such_topic(topic, [b.topic.id for b in library.topics]) from None


def _no_such_topic(topic: str, topics: list[str]) -> UsageError:
    """The refusal of ``--topic`` ``topic`` in a bank of the topics ``topics`` (in bank order)."""
    return UsageError(f"--topic {topic!r}: no such topic; the topics are: {', '.join(topics) or 'none'}")


def as_libraries(banks: dict[str, Bank] | dict[str, Library]) -> dict[str, Library]:
    """``banks`` as libraries: a :class:`Bank` (one topic) becomes a library of that one topic."""
    from .model import Bank, Library

    return {lang: Library(categories=(b.category,), topics=(b,), lang=b.lang) if isinstance(b, Bank) else b for lang, b in banks.items()}


def load_localized(bank: Path, translations: Path | None, languages: list[str], *, topic: str | None = None, **flags) -> tuple[dict[str, Bank], list[Diagnostic]]:
    """One topic of the bank (``topic``, or the only one) in each language, as the exporters
    take it; like :func:`load_libraries` otherwise (UsageError naming the topics when the bank
    has several and ``topic`` is None)."""
    libraries, notes = load_libraries(bank, translations, languages, topic=topic, **flags)
    first = next(iter(libraries.values()), None)
    if first is not None and len(first.topics) != 1:
        raise UsageError(f"the bank has {len(first.topics)} topics; choose one with --topic: {', '.join(b.topic.id for b in first.topics)}")
    return {lang: library.topics[0] for lang, library in libraries.items()}, notes


def load_libraries(bank: Path, translations: Path | None, languages: list[str], *, allow_fallback: bool = False, skip_unstarted: bool = False, catalogs: Catalogs | None = None, topic: str | None = None) -> tuple[dict[str, Library], list[Diagnostic]]:
    """The bank (every topic, or only ``topic``) in each language, refusing (DiagnosticsError)
    when the bank or a language has errors or, without ``allow_fallback``, a missing text.

    With ``skip_unstarted``, a language of which nothing is translated yet (a catalog just
    created) is left out with a warning instead of refusing. The exports decide by the
    project's language states instead: :func:`load_exported`."""
    libraries, notes, _ = _load(bank, translations, languages, catalogs=catalogs, topic=topic,
                                 decide=lambda lang, status: "unstarted" if skip_unstarted and not allow_fallback and not status.translated else ("fallback" if allow_fallback else "strict"))
    return libraries, notes


def load_exported(bank: Path, translations: Path | None, languages: list[str], policy: LanguagePolicy, *, allow_fallback: bool = False, catalogs: Catalogs | None = None, topic: str | None = None, source=None, keep=None, fields=None) -> tuple[dict[str, Library], list[Diagnostic], dict[str, frozenset[str]]]:
    """What `bank build`, `bank export` and `bank lint` export: the bank in each *ready* language
    (``policy``, the ``[languages]`` table of bank.toml), with the English texts each language
    shows for want of a translation (by language; only languages that have some).

    A language of which nothing is translated is left out (W552) whatever the policy; one below
    ``policy.ready`` percent is left out with one warning (W558), unless fallback is chosen
    (``policy.fallback`` or ``allow_fallback``); a language exported with texts in English gets
    one warning (W559) counting them. Refuses (DiagnosticsError) when the bank or an exported
    language has errors. ``source``: the bank as :func:`validated_bank` gave it, when the caller
    has it already. ``keep(lang, library)``: what to hold of each exported language's library,
    called as soon as that language is localized (the returned mapping holds what it returns;
    every topic only), so that the caller need not hold every localized library at once.
    ``fields``: the read bank's :func:`~aistack_bank.i18n.fields.bank_fields`, when the caller
    has them (then ``source`` need only hold the English library: ``(None, english)``)."""

    return _load(bank, translations, languages, catalogs=catalogs, topic=topic, decide=_exported_decision(policy, allow_fallback), policy=policy, source=source, keep=keep, fields=fields)


def _exported_decision(policy: LanguagePolicy, allow_fallback: bool):
    """What :func:`load_exported` does with a language, by its status (see :func:`_load`)."""
    def decide(lang: str, status) -> str:
        if not status.translated:
            return "unstarted"
        if status.percent < policy.ready and not (policy.fallback or allow_fallback):
            return "in progress"
        return "fallback"

    return decide


def _load(bank: Path, translations: Path | None, languages: list[str], *, decide, catalogs: Catalogs | None = None, topic: str | None = None, policy=None, source=None, keep=None, fields=None) -> tuple[dict[str, Library], list[Diagnostic], dict[str, frozenset[str]]]:
    """The work of :func:`load_libraries` and :func:`load_exported`: ``decide(lang, status)``
    says what becomes of each language: ``unstarted`` or ``in progress`` (left out with a
    warning), ``fallback`` (missing texts in English) or ``strict`` (a missing text is an error).
    Validation and localization share one read of each catalog, through ``catalogs``; a passing
    verdict cached for exactly these input bytes is reused instead of validating again."""
    from .i18n.catalog import Catalogs
    from .i18n.fields import bank_fields

    catalogs = catalogs if catalogs is not None else Catalogs()
    source, english = validated_bank(bank, translations, catalogs) if source is None else source
    restrict(english, topic)  # an unknown topic: fail before reading the catalogs
    assert keep is None or topic is None
    keep = keep if keep is not None else (lambda lang, library: library)
    banks: dict[str, Library] = {}
    notes: list[Diagnostic] = []
    problems: list[Diagnostic] = []
    in_english: dict[str, frozenset[str]] = {}
    for lang in languages:
        if lang == "en":
            banks[lang] = keep(lang, english)
            continue
        fields = fields if fields is not None else bank_fields(source)
        more, wrong, missing, localized = _one_language(lang, translations, catalogs, fields, source, english, decide, policy)
        notes += more
        problems += wrong
        if missing:
            in_english[lang] = missing
        if localized is not None and not problems:
            banks[lang] = keep(lang, localized)
        del localized
    if problems:
        raise DiagnosticsError(problems, "some languages are not ready; nothing was exported")
    return {lang: restrict(library, topic) for lang, library in banks.items()}, notes, in_english


def _one_language(lang: str, translations: Path, catalogs: Catalogs, fields, source, english: Library, decide, policy):
    """What :func:`_load` makes of one translated language: (its notes, its errors, the English
    texts it shows for want of a translation (or None), its localized library (or None)). Its
    catalog is dropped once it is localized."""
    from .i18n.localize import localize
    from .i18n.status import column_states, field_states, has_columns, language_status

    notes: list[Diagnostic] = []
    catalog = catalogs.read(translations / f"{lang}.po")
    if catalog.diagnostics:
        return notes, list(catalog.diagnostics), None, None
    active = catalog.active()
    translations_of = None
    if has_columns(catalog.po):  # (a localizing worker's read: the states and the translations from the columns, no entry made)
        states, translations_of = column_states(fields, catalog.po)
    else:
        states = field_states(fields, active)  # (each field's state taken once, for the status and the localizing)
    status = language_status(fields, catalog, states)
    state = decide(lang, status)
    if state == "unstarted":
        notes.append(warning("W552", f"nothing in {lang} is translated yet; {lang} is left out of the exports until its translation starts", Location.of(catalog.path)))
        return notes, [], None, None
    if state == "in progress":
        notes.append(warning("W558", f"{lang} is {status.percent:.1f}% translated (ready at {policy.ready:g}%); it is left out of the exports until it is ready. "
                                     f"`bank i18n todo {lang}` lists what is missing; `fallback = true` under [languages] in bank.toml exports it with English for the missing texts",
                             Location.of(catalog.path)))
        return notes, [], None, None
    untranslated: list[str] = []  # (the English texts of the fields not translated, as localize found them)
    localized, diags = localize(source, english, catalog, allow_fallback=state == "fallback", fields=fields, untranslated=untranslated, active=active, states=states,
                                translations=translations_of)
    del active, states, translations_of
    problems = [d for d in diags if d.severity is Severity.ERROR]
    missing = None
    if state == "fallback":
        missing = frozenset(untranslated)
        if missing:
            count = status.total - status.translated
            notes.append(warning("W559", f"{lang} is {status.percent:.1f}% translated: {count} text{'' if count == 1 else 's'} {'is' if count == 1 else 'are'} exported in English, "
                                         f"marked as English where the format can say so (`bank i18n todo {lang}` lists them)", Location.of(catalog.path)))
        notes += [d for d in diags if d.severity is Severity.WARNING and d.code not in ("W501", "W502")]
    else:
        notes += [d for d in diags if d.severity is Severity.WARNING]
    catalogs.forget(catalog.path)  # localized: the parsed entries go before the next language's are read
    return notes, problems, missing, localized


def validated_source(bank: Path, translations: Path | None, catalogs: Catalogs | None, **hooks):
    """The read bank once its validation verdict (cached or computed now) has no error
    (DiagnosticsError otherwise); ``hooks``: those of :func:`~.cache.validation.validated_source`."""
    from .cache.validation import validated_source as validated

    return validated(bank, translations if translations is not None and translations.is_dir() else None, catalogs, **hooks)


def validated_bank(bank: Path, translations: Path | None, catalogs: Catalogs):
    """(the read bank, its English :class:`Library`) once its validation verdict (cached or
    computed now) has no error (DiagnosticsError otherwise)."""
    from .load import english_library

    source = validated_source(bank, translations, catalogs)
    return source, english_library(source)


ALL_LANGUAGES = "all"
"""The language of an output that concerns every language (the exports' README)."""

UI_CATALOGS = "site"
"""Subfolder of the translations folder holding the practice site's interface catalogs."""


def load_ui_texts(translations: Path | None, languages: list[str], catalogs: Catalogs | None = None) -> tuple[dict[str, dict[str, str]], list[Diagnostic]]:
    """Translated, current interface strings by language (msgctxt → text), and catalog errors."""
    from .i18n.catalog import Catalogs

    catalogs = catalogs if catalogs is not None else Catalogs()

    texts: dict[str, dict[str, str]] = {}
    problems: list[Diagnostic] = []
    if translations is None:
        return texts, problems
    for lang in languages:
        path = translations / UI_CATALOGS / f"{lang}.po"
        if lang == "en" or not path.exists():
            continue
        catalog = catalogs.read(path)
        if catalog.diagnostics:
            problems += catalog.diagnostics
            continue
        texts[lang] = {e.msgctxt: e.msgstr for e in catalog.po.translated_entries() if e.msgctxt}
    return texts, problems


def ui_fallback_notes(translations: Path | None, languages: list[str], catalogs: Catalogs | None = None) -> list[Diagnostic]:
    """A warning for each language whose practice-site interface is not (fully) translated.

    Such strings are shown in English: an interface catalog that is missing, or not yet
    translated, never blocks a build."""
    from .site_strings import UI_STRINGS
    from .i18n.catalog import Catalogs

    catalogs = catalogs if catalogs is not None else Catalogs()
    notes = []
    for lang in languages:
        if lang == "en":
            continue
        path = translations / UI_CATALOGS / f"{lang}.po" if translations is not None else Path(UI_CATALOGS) / f"{lang}.po"
        if not path.exists():
            notes.append(warning("W551", f"no interface catalog for {lang}; the practice site's buttons and messages are shown in English (run `bank i18n update`)", Location.of(path)))
            continue
        catalog = catalogs.read(path)
        if catalog.po is None:
            continue  # its errors are reported by load_ui_texts
        done = {e.msgctxt for e in catalog.po.translated_entries() if e.msgctxt in UI_STRINGS and e.msgid == UI_STRINGS[e.msgctxt]}
        missing = len(UI_STRINGS) - len(done)
        if missing:
            notes.append(warning("W551", f"{missing} of {len(UI_STRINGS)} interface strings of the practice site are not translated into {lang}; they are shown in English", Location.of(path)))
    return notes


def with_ui(options: ExportOptions, formats: list[str], translations: Path | None, languages: list[str], catalogs: Catalogs | None = None) -> ExportOptions:
    """``options`` with the interface strings the practice site needs (refusing broken catalogs)."""
    from dataclasses import replace

    if not any("ui" in FORMATS[name].honours for name in formats) or options.ui:
        return options
    texts, problems = load_ui_texts(translations, languages, catalogs)
    if problems:
        raise DiagnosticsError(problems, "an interface catalog has errors; nothing was exported")
    return replace(options, ui=texts)


def bank_texts(bank: Bank):
    """(key, text) for every text of ``bank`` (one topic) that an exporter writes."""
    t = bank.topic
    yield "topic.id", t.id
    yield f"topic.{t.id}.title", t.title
    yield f"category.{bank.category.id}.title", bank.category.title
    yield f"topic.{t.id}.summary", t.summary
    for point in t.key_points:
        yield f"topic.{t.id}.key_point.{point.id}", point.text
    for tag, text in t.tags.items():
        yield f"topic.tags.{tag}", tag
        yield f"topic.tags.{tag}", text
    for q in bank.questions:
        yield f"{q.id}.stem", q.stem
        if q.explanation is not None:
            yield f"{q.id}.explanation", q.explanation
        for tag in q.tags:
            yield f"{q.id}.tags", tag
        # Every other text of the question's kind (options, answers, pairs, units, …).
        for field in question_fields(q, None, Path(f"{q.id}.yaml")):
            if field.key not in (f"{q.id}.stem", f"{q.id}.explanation"):
                yield field.key, field.text


def first_uncarriable(libraries: dict[str, Library] | dict[str, Bank]) -> tuple[str, str, str, int] | None:
    """The first text of ``libraries`` (language by language, in bank order) holding a character
    that no format can carry: (key, language, the character, its 0-based index), or None.

    Every format refuses the same characters, so one scan serves every format of a build."""
    from .safety import UNCARRIABLE

    for lang, library in as_libraries(libraries).items():
        if _none_in_json(library):  # (the usual case, found in compiled code: no string of the library holds one)
            continue
        if not UNCARRIABLE.search("\n".join(_library_texts(library))):  # (a newline is carriable, so no text has one)
            continue
        for key, text in (item for bank in library.topics for item in bank_texts(bank)):
            bad = UNCARRIABLE.search(text)
            if bad:
                return key, lang, bad.group(), bad.start()
    return None


_JSON_ALARM = None
"""What in a library's JSON may be an uncarriable character (:func:`_none_in_json`)."""


def _none_in_json(library: Library) -> bool:
    """Whether no string of ``library`` holds a character :data:`~.safety.UNCARRIABLE` names, as
    its JSON (made by pydantic in Rust, every model of every kind as its own kind dumps it)
    shows: every text :func:`bank_texts` yields is one of its strings. The JSON writes a control
    character as ``\\b``, ``\\f`` or ``\\u00XX`` (tab, newline and carriage return, which are
    carriable, as ``\\t``, ``\\n``, ``\\r``), DEL, U+FFFE and U+FFFF as themselves; it cannot
    write a surrogate in a value (the texts are then scanned one by one) and writes one in a
    dict's key (a tag) as U+FFFD. Anything from U+FFC0 to U+FFFF (``EF BF ..`` in UTF-8, U+FFFD
    among them), or a backslash before ``b``, ``f`` or ``u00`` in a text, is a false alarm:
    False, and the texts are scanned one by one."""
    global _JSON_ALARM
    if _JSON_ALARM is None:
        import re

        _JSON_ALARM = re.compile(rb"\\(?:[bf]|u00[01]|u007[fF])")  # (a backslash first: searched for as a byte, in C)
    try:
        data = library.__pydantic_serializer__.to_json(library, warnings=False)
    except Exception:  # (a surrogate, say)
        return False
    return _JSON_ALARM.search(data) is None and b"\x7f" not in data and b"\xef\xbf" not in data


def _library_texts(library: Library) -> list[str]:
    """Every text :func:`bank_texts` yields for ``library``'s topics (and, of a question, any
    other text its kind names), without their keys: each question's texts taken from its kind
    without making its translatable fields (:func:`~.i18n.fields.question_fields`)."""
    from .kinds import kind_of

    texts: list[str] = []
    add = texts.append

    def take(key, text, *rest) -> None:
        add(text)

    for bank in library.topics:
        t = bank.topic
        texts += (t.id, t.title, bank.category.title, t.summary)
        texts += [point.text for point in t.key_points]
        for tag, text in t.tags.items():
            texts += (tag, text)
        for q in bank.questions:
            add(q.stem)
            if q.explanation is not None:
                add(q.explanation)
            texts += q.tags
            kind_of(q).fields(q, take, (), ())
    return texts


def refuse_uncarriable(name: str, libraries: dict[str, Library] | dict[str, Bank]) -> None:
    """ExportError E606 if a text holds a character that ``name``'s format cannot carry (every
    format refuses the same characters, so one scan serves all the formats of a command).

    Validation refuses these characters where they are written; this is the exporters' own
    guard, so nothing unparseable is written whatever the path the text came by.
    """
    found = first_uncarriable(libraries)
    if found:
        _refuse(name, found)


def render(formats: list[str], libraries: dict[str, Library] | dict[str, Bank], options: ExportOptions, *, scanned: bool = False) -> dict[str, ExportTree]:
    """Every requested format's virtual file tree (pure: nothing is written).

    A bank of one topic writes that topic's files at the top of the format's folder; a bank of
    several topics each topic's files under `<topic-id>/` and the whole-bank files at the top
    (:meth:`~.exporters.Format.bank_files`).
    A bank that loaded and validated is one every exporter can write: an exception from an
    exporter is a bug in it, and is left to propagate as one. With ``scanned``, the caller has
    already refused uncarriable text (:func:`refuse_uncarriable`) in exactly these libraries."""
    libraries = as_libraries(libraries)
    exporters = {name: get_format(name) for name in formats}
    if formats and not scanned:
        refuse_uncarriable(formats[0], libraries)
    return {name: ExportTree(export_format.bank_files(libraries, options)) for name, export_format in exporters.items()}


def _release_memory() -> None:
    """Collect what the steps before left behind and give the freed pages back to the system,
    so that the rendering (and each worker forked for it) does not start from them."""
    import gc

    gc.collect()
    _trim()


def _release_pages() -> None:
    """Give back to the system the pages freed by what the build's process just dropped, without
    a collection: what it drops there (the read bank, the localized libraries once pickled) is
    freed by reference counting, and a full collection at N = 10 000 walked a heap of about
    300 MB for about 0.4 s to find nothing, while the workers forked before waited."""
    _trim()


def _trim() -> None:
    """Give the pages freed since the last call back to the system (glibc keeps them for reuse until told)."""
    try:
        import ctypes

        ctypes.CDLL(None).malloc_trim(0)
    except (OSError, AttributeError):
        pass


PARALLEL_MIN_TEXTS = 2_000
"""Least questions × languages for which `bank build` renders its formats in worker processes
(:func:`render_each`); below it, starting them costs more than it saves."""


def render_each(formats: list[str], libraries: dict[str, Library] | dict[str, Bank], options: ExportOptions):
    """The files of each format of ``formats`` (a list of :class:`~.exporters.ExportedFile`), one
    format after the other, in order; uncarriable text already refused by the caller.

    The formats are independent, so a large bank's are rendered in worker processes on every
    core (:func:`~aistack_bank.parallel.run_each`), each format's files handed back as soon as
    they and the formats before them are ready, for the caller to write and drop."""
    from .parallel import run_each

    libraries = as_libraries(libraries)
    tasks = [lambda name=name: render([name], libraries, options, scanned=True)[name].files() for name in formats]
    return run_each(tasks, work=_texts(libraries), min_work=PARALLEL_MIN_TEXTS)


def _texts(libraries: dict[str, Library]) -> int:
    """Questions × languages: the size of a build's rendering."""
    return len(libraries) * max((len(library.questions) for library in libraries.values()), default=0)


def library_notes(names: list[str], libraries: dict[str, Library], options: ExportOptions) -> list[Diagnostic]:
    """The formats' notes about what they leave out, for every topic (each note once)."""
    notes: list[Diagnostic] = []
    for banks in topic_banks(as_libraries(libraries)):
        notes += [note for note in export_notes(names, banks, options) if note not in notes]
    return notes


MANIFEST = ".bank-manifest"
"""In each output folder: the files the build wrote there; pruning deletes only those."""
MAX_MANIFEST_BYTES = 16 << 20


def _no_links(folder: Path, rels, *, include_folder: bool = True) -> None:
    """ExportError E603 if ``folder`` or a folder or file under it on the way to ``rels`` is a symlink."""
    checked: set[Path] = set() if include_folder else {folder}
    for rel in [PurePosixPath("."), *rels]:
        path = folder
        for part in ("", *PurePosixPath(rel).parts):
            path = path / part if part else path
            if path in checked:
                continue
            checked.add(path)
            if path.is_symlink():
                raise ExportError("is a symbolic link; the build writes and deletes only inside its own folders (replace it with a real folder)", Location.of(path), code="E603")


def _manifest(tree) -> bytes:
    names = sorted(str(rel) for rel in tree)
    return ("# Written by `bank build`; it deletes only files listed here.\n" + "".join(f"{n}\n" for n in names)).encode("utf-8")


def _read_manifest(folder: Path) -> list[str]:
    from .safety import UnsafeFile, read_regular

    try:
        raw = read_regular(folder / MANIFEST, MAX_MANIFEST_BYTES, what="manifest")
    except UnsafeFile:
        return []
    names = []
    for line in raw.decode("utf-8", "replace").split("\n"):
        rel = PurePosixPath(line)
        if line and not line.startswith("#") and not rel.is_absolute() and ".." not in rel.parts and line == str(rel):
            names.append(line)
    return names


def _write(path: Path, data: bytes, compare: bool, staged=None) -> bool:
    from .errors import ExportError, Location
    from .writing import write_or_compare

    try:
        if staged is not None and not compare:
            return staged.write(path, data)
        return write_or_compare(path, data, compare=compare)
    except OSError as exc:
        raise ExportError(f"cannot write: {exc.strerror or exc}", Location.of(path), code="E605") from None


def write_outputs(trees: dict[str, ExportTree], targets: dict[str, Path], banks: dict[str, Library], *, compare: bool = False, prune: bool = False, progress=None, staged=None, count: int | None = None) -> list[OutputFile]:
    """Write each tree under its target folder atomically (or compare, with ``compare``); with
    ``staged`` (a :class:`~aistack_bank.writing.StagedWrites`), only make the writes and the
    pruning ready, for the caller to commit once every format is ready.

    Nothing is written through a symbolic link (E603). With ``prune``, the folder's manifest
    records what was written, and files that an earlier build wrote but this one no longer
    produces (a language that was removed, say) are deleted: never a file the build did not write.
    ``count`` (the questions of each file, for the report) is taken from ``banks`` when None.
    """
    outputs = []
    step = progress(sum(len(tree) for tree in trees.values())) if progress is not None else None
    if count is None:
        count = len(next(iter(as_libraries(banks).values())).questions) if banks else 0
    for name, tree in trees.items():
        folder = targets[name]
        _no_links(folder, list(tree) + ([PurePosixPath(MANIFEST)] if prune else []), include_folder=prune)
        standing = getattr(tree, "standing", False)  # files found on disk with the bytes the format writes
        written = getattr(tree, "written", False)  # files written as they were rendered (``write_pieces``)
        for rel in sorted(tree, key=str):
            path = folder / str(rel)
            if standing:
                outputs.append(OutputFile(name, tree.language(rel), count, tree.size(rel), path, False))
            elif written:
                outputs.append(OutputFile(name, tree.language(rel), count, tree.size(rel), path, tree.changed(rel)))
            else:
                data = tree[rel]
                changed = _write(path, data, compare, staged)
                outputs.append(OutputFile(name, tree.language(rel), count, len(data), path, changed))
            if step is not None:
                step(path)
        if prune:
            keep = {str(rel) for rel in tree}
            for old in sorted(set(_read_manifest(folder)) - keep, reverse=True):
                extra = folder / old
                _no_links(folder, [PurePosixPath(old)])
                if extra.is_file():
                    if not compare:
                        if staged is not None:
                            staged.after.append(lambda extra=extra, folder=folder: _delete(extra, folder))
                        else:
                            _delete(extra, folder)
                    outputs.append(OutputFile(name, "-", 0, 0, extra, True, removed=True))
            if _write(folder / MANIFEST, _manifest(tree), compare, staged) and compare:
                outputs.append(OutputFile(name, "-", 0, 0, folder / MANIFEST, True))
    return outputs


def _delete(extra: Path, folder: Path) -> None:
    """Delete ``extra`` (a file the build wrote before) and the folders it leaves empty."""
    try:
        extra.unlink()
    except OSError as exc:
        raise ExportError(f"cannot delete: {exc.strerror or exc}", Location.of(extra), code="E605") from None
    for parent in extra.parents:
        if parent == folder or folder not in parent.parents:
            break
        try:
            parent.rmdir()  # only if empty
        except OSError:
            break


@contextmanager
def build_lock(out: Path, *, compare: bool = False):
    """Hold an exclusive lock on the exports folder (E604 if another build holds it)."""
    import fcntl
    import os

    from .errors import ExportError, Location

    if compare and not out.is_dir():
        yield
        return
    if out.is_symlink():
        raise ExportError("is a symbolic link; give the real exports folder", Location.of(out), code="E603")
    try:
        out.mkdir(parents=True, exist_ok=True)
        fd = os.open(out, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError as exc:
        raise ExportError(f"cannot create the exports folder: {exc.strerror or exc}", Location.of(out), code="E605") from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise ExportError("another `bank build` is writing this folder; wait for it to finish", Location.of(out), code="E604") from None
        if not compare:
            _remove_stale_staging(out)
        yield
    finally:
        os.close(fd)


def export(format_name: str, bank: Path, translations: Path | None, out: Path, *, languages: str = "all", allow_fallback: bool = False, options: ExportOptions = ExportOptions(), progress=None, topic: str | None = None, policy: LanguagePolicy | None = None) -> tuple[list[OutputFile], list[Diagnostic]]:
    """`bank export FORMAT`: one format into ``out`` (every topic, or only ``topic``), for the
    languages of ``languages`` that are ready (``policy``, as for `bank build`).

    A large bank (:func:`expected_texts` at least :data:`PARALLEL_MIN_TEXTS`, as for a build:
    validation verifies every catalog whatever the languages asked for) is exported the way of
    a large build (:func:`_export_in`): its workers forked before the bank is read, each language
    localized in one, the format rendered piece by piece in them into a staging folder; the same
    files, notes and refusals."""
    from .parallel import Workers
    from .project.settings import LanguagePolicy

    get_format(format_name)  # unknown format: fail before any work
    langs = resolve_languages(languages, translations)
    policy = policy or LanguagePolicy()
    staging = _Staging(out)
    try:
        with Workers(expected_texts(translations) >= PARALLEL_MIN_TEXTS) as workers:
            if workers.started:
                return _export_in(workers, staging, format_name, bank, translations, out, langs, allow_fallback=allow_fallback, options=options, progress=progress, topic=topic, policy=policy)
    finally:
        staging.remove()  # (the workers have stopped: nothing more is written into it)
    return _export_here(format_name, bank, translations, out, langs, allow_fallback=allow_fallback, options=options, progress=progress, topic=topic, policy=policy)


def _export_here(format_name: str, bank: Path, translations: Path | None, out: Path, langs: list[str], *, allow_fallback: bool, options: ExportOptions, progress, topic: str | None, policy: LanguagePolicy) -> tuple[list[OutputFile], list[Diagnostic]]:
    """:func:`export` in this process: every language's library held at once, the format rendered whole."""
    from .i18n.catalog import Catalogs

    catalogs = Catalogs()
    banks, notes, in_english = load_exported(bank, translations, langs, policy, allow_fallback=allow_fallback, catalogs=catalogs, topic=topic)
    options = with_english(options, in_english, translations)
    if not banks:
        return _nothing_exported(format_name, notes, options)
    trees = render([format_name], banks, with_ui(options, [format_name], translations, list(banks), catalogs))
    from .project.settings import option_notes

    if "ui" in FORMATS[format_name].honours and not options.ui:
        notes += ui_fallback_notes(translations, list(banks), catalogs)
    notes += library_notes([format_name], banks, options)
    return write_outputs(trees, {format_name: out}, banks, progress=progress), notes + option_notes(options, [format_name])


def _nothing_exported(format_name: str, notes: list[Diagnostic], options: ExportOptions) -> tuple[list[OutputFile], list[Diagnostic]]:
    """What an export none of whose languages is exported (each left out: ``notes`` say why)
    reports: no file, and the notes."""
    from .project.settings import option_notes

    return [], notes + option_notes(options, [format_name])


def _export_in(workers, staging: _Staging, format_name: str, bank: Path, translations: Path | None, out: Path, langs: list[str], *, allow_fallback: bool, options: ExportOptions, progress, topic: str | None, policy: LanguagePolicy) -> tuple[list[OutputFile], list[Diagnostic]]:
    """:func:`export` with ``workers`` forked before the bank is read, as :func:`_build_with`
    does a build: validated (its catalogs verified in validation's own workers), each translated
    language localized in a worker (:func:`_localized_in`) and kept there, pickled here, and the
    format's pieces rendered by the workers into the staging folder, then renamed into place
    together (nothing written if any piece fails). The same files (sorted), notes (in the same
    order) and refusals as :func:`_export_here`."""
    from .cache.outputs import WrittenTree
    from .i18n.catalog import Catalogs
    from .load import ordered_topics
    from .project.settings import option_notes

    if not out.is_symlink() and out.is_dir():
        _remove_stale_staging(out)  # (of an export or a build killed outright)
    localizing = _Localizing(workers, _Sent(), translations, langs, policy, allow_fallback, topic)
    read = validated_source(bank, translations, None, meanwhile=localizing.prepare)  # (the English library and the fields made while validation's catalog workers verify)
    if topic is not None:  # an unknown topic: fail before the catalogs are read to be localized
        topics = [source.topic.id for source in ordered_topics(read)]
        if topic not in topics:
            raise _no_such_topic(topic, topics)
    sent = localizing.sent
    localizing.send(staging.folder())
    localizing.prepare(read)  # (unless made while validating)
    del read
    _release_pages()  # (the read bank dropped)
    count, topics_exported = localizing.shape
    banks, notes, in_english = _localized_in(localizing, langs)
    options = with_english(options, in_english, translations)
    if not banks:
        return _nothing_exported(format_name, notes, options)
    langs = list(banks)
    interface = Catalogs()
    rendered = with_ui(options, [format_name], translations, langs, interface)
    if "ui" in FORMATS[format_name].honours and not options.ui:
        notes += ui_fallback_notes(translations, langs, interface)
    del interface
    folder = staging.folder()
    payload = sent.payload(banks, folder)
    del banks
    _release_pages()
    export_format = FORMATS[format_name]
    parts = export_format.parts(langs, topics_exported)
    pieces = [(format_name, part, index == len(parts) - 1) for index, part in enumerate(parts)]
    order = _longest_first(pieces) if folder is not None else list(range(len(pieces)))  # (as a build sends its pieces)
    sent_options = _options_sent(rendered)
    results = workers.run_each([(_notes_sent, (payload, [format_name], _options_sent(options), True)),
                                *[(_render_sent, (_part_payload(payload, export_format.part_languages(parts[index], langs)), format_name, parts[index], sent_options, folder and str(folder), str(index)))
                                  for index in order]])
    more, found = next(results)
    if found:
        _refuse(format_name, found)
    notes += more
    staged = _staged()
    with _all_or_nothing(staged, out):
        written = []
        for files in _in_order(results, order):
            if isinstance(files, StagedFiles):  # written by the worker that rendered them
                written += adopt_piece(out, files, staged=staged, own_folder=False)
            else:
                written += write_piece(out, files, compare=False, staged=staged, own_folder=False)
            del files
        outputs = write_outputs({format_name: WrittenTree(written)}, {format_name: out}, {}, progress=progress, staged=staged, count=count)
    return outputs, notes + option_notes(options, [format_name])


def localized_pickled(workers, bank: Path, translations: Path | None, languages: list[str], policy: LanguagePolicy, allow_fallback: bool, folder: Path, *, seen=None) -> tuple[tuple, list[Diagnostic], dict[str, frozenset[str]]]:
    """What :func:`load_exported` gives, with ``workers`` forked before the bank is read, as
    :func:`_export_in` does an export: validated (the catalogs verified in validation's own
    workers), each translated language localized in a worker and handed back pickled; the
    libraries as a payload (:meth:`_Sent.payload`, each written in ``folder``) for the calls
    that render from them (:func:`payload_part`, :func:`payload_library`), the notes and the
    English texts by language. ``seen(read)``: given the read bank before it is dropped."""
    localizing = _Localizing(workers, _Sent(), translations, languages, policy, allow_fallback)
    read = validated_source(bank, translations, None, meanwhile=localizing.prepare)  # (the English library and the fields made while validation's catalog workers verify)
    if seen is not None:
        seen(read)
    sent = localizing.sent
    localizing.send(folder)
    localizing.prepare(read)  # (unless made while validating)
    del read
    _release_pages()  # (the read bank dropped)
    banks, notes, in_english = _localized_in(localizing, languages)
    del localizing
    payload = sent.payload(banks, folder)
    del banks
    _release_pages()
    return payload, notes, in_english


def payload_part(payload: tuple, langs: list[str]) -> tuple:
    """``payload`` (:func:`localized_pickled`'s) with the libraries of ``langs`` only."""
    return _part_payload(payload, langs)


def payload_libraries(payload: tuple) -> dict:
    """In a worker: the pickled libraries of ``payload`` by language (bytes or a file), what the
    localizing calls left in this worker dropped first."""
    _LOCALIZING.clear()
    _RECEIVED.clear()
    return dict(payload[1])


def payload_library(data) -> Library:
    """A library :func:`payload_libraries` gave, unpickled with the garbage collector paused."""
    import pickle

    return _uncollected(pickle.loads, data.read() if isinstance(data, _OnDisk) else data)


def options_sent(options: ExportOptions) -> dict:
    """``options`` as a worker call is sent them (:func:`options_received` there)."""
    return _options_sent(options)


def options_received(sent: dict) -> ExportOptions:
    return _options_received(sent)


def refuse_found(name: str, found: tuple[str, str, str, int]) -> None:
    """ExportError E606 for what :func:`first_uncarriable` found."""
    _refuse(name, found)


def release_pages() -> None:
    """Give back to the system the pages this process freed (:func:`_release_pages`)."""
    _release_pages()


def with_english(options: ExportOptions, in_english: dict[str, frozenset[str]], translations: Path | None = None) -> ExportOptions:
    """``options`` knowing which texts each language shows in English (unchanged when none), and
    the project's id for the practice site (from its template's name, when ``translations`` has one)."""
    from dataclasses import replace
    from types import MappingProxyType

    from .i18n import template_path

    if translations is not None and template_path(translations).is_file():
        options = replace(options, site_id=f"{template_path(translations).stem}-bank")
    if not in_english:
        return options
    return replace(options, english=MappingProxyType({lang: tuple(sorted(texts)) for lang, texts in sorted(in_english.items())}))


def build(bank: Path, translations: Path | None, out: Path, *, allow_fallback: bool = False, compare: bool = False, options: ExportOptions = ExportOptions(), progress=None, policy: LanguagePolicy | None = None) -> tuple[list[OutputFile], list[Diagnostic]]:
    """`bank build`: validate (numeric checks included) and write every format for every ready
    language into ``out`` (with ``compare``, only compare with the files there)
    (``policy``: the ``[languages]`` table of bank.toml; its defaults when None), holding the
    project lock shared (an import waits for no build: it is refused, E604)."""
    from .cache.store import deferred_writes
    from .writing import bank_lock

    with bank_lock(bank, shared=True, command="bank build"), deferred_writes():  # (cache files flushed together at the end)
        return _build(bank, translations, out, allow_fallback=allow_fallback, compare=compare, options=options, progress=progress, policy=policy)


def _build(bank: Path, translations: Path | None, out: Path, *, allow_fallback: bool, compare: bool, options: ExportOptions, progress, policy: LanguagePolicy | None = None) -> tuple[list[OutputFile], list[Diagnostic]]:
    from .errors import DiagnosticsError
    from .parallel import Workers
    from .writing import leftover_diagnostics

    interrupted = [d for d in leftover_diagnostics(bank) if d.severity.value == "error"]
    if interrupted:
        raise DiagnosticsError(interrupted, "an interrupted import left the bank half changed; nothing was exported")
    # a large bank's rendering workers forked now, before the bank is read: each then holds
    # what it is sent of the localized banks, not the parent's pages; on a cold run, the
    # validation's catalogs' workers forked first (see _cold_catalog_workers)
    staging = _Staging(out)
    parallel = expected_texts(translations) >= PARALLEL_MIN_TEXTS
    try:
        with _cold_catalog_workers(bank, translations, parallel) as early, Workers(_writers_first(parallel)) as workers:
            return _build_with(bank, translations, out, allow_fallback=allow_fallback, compare=compare, options=options, progress=progress, policy=policy, workers=workers,
                               staging=staging, early=early)
    finally:
        staging.remove()  # (the workers have stopped: nothing more is written into it)


def _cold_catalog_workers(bank: Path, translations: Path | None, parallel: bool):
    """The catalogs' workers of a cold build's validation (no verdict can be found:
    :func:`~.cache.validation.cold_workers`), forked before the writers are imported and the
    rendering workers forked, each reading a catalog at once, as a cold `bank validate` forks
    them before its input digest: their reads run beside the writers' imports, the input digest
    and the bank's read, instead of after the digest. Only when the rendering workers are
    wanted (``parallel``: the build's validation then has no catalogs of its own and takes
    them). A :class:`~.parallel.Workers` (not started when they could not be forked), or a
    context of None when none were wanted."""
    found = None
    if parallel and translations is not None and translations.is_dir():
        from .cache.validation import cold_workers

        found = cold_workers(bank, translations)
    return found if found is not None else nullcontext()


def _read_early_all(early, translations: Path | None, languages: list[str]) -> bool:
    """Whether ``early`` (the catalogs' workers forked before a cold build's input digest, or
    None) were given the catalog of each of ``languages`` to read early
    (:func:`~.i18n.verify.read_early`: at most one a worker, none streamed): only then does
    sending the localizing calls before validation ends find each catalog's read kept by
    validation's workers; with a third language, a catalog read a piece at a time, or no early
    read at all, a call could read its catalog first, in about twice the CPU and with a higher
    peak, so the calls wait for validation's end, as they did before."""
    if early is None or not early.started or translations is None or not languages:
        return False
    import os

    held = early.holding
    return all(os.path.abspath(translations / f"{lang}.po") in held for lang in languages)


STAGING_PREFIX = ".bank-build-"
"""The name of the folder, in the exports folder, where the rendering workers of a build write
the files they render until the build renames them into place (:class:`_Staging`)."""


STAGING_STALE_SECONDS = 60
"""A staging folder nobody holds is removed by the next build only when it is at least this old
(a build makes its folder, then locks it: never in the moment between)."""


def _remove_stale_staging(out: Path) -> None:
    """Remove the staging folders that builds killed outright (SIGKILL, a power cut) left in the
    exports folder ``out``: those no running build holds a lock on (:class:`_Staging` locks its
    own for as long as it exists) and older than :data:`STAGING_STALE_SECONDS`."""
    import fcntl
    import os
    import shutil
    import time

    try:
        entries = [entry for entry in os.scandir(out) if entry.name.startswith(STAGING_PREFIX) and entry.is_dir(follow_symlinks=False)]
    except OSError:
        return
    for entry in entries:
        try:
            fd = os.open(entry.path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
        except OSError:
            continue
        try:
            if time.time() - os.fstat(fd).st_mtime < STAGING_STALE_SECONDS:
                continue
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            shutil.rmtree(entry.path, ignore_errors=True)
        except OSError:  # (BlockingIOError: a running build's)
            continue
        finally:
            os.close(fd)


class _Staging:
    """A folder in the exports folder ``out`` where each rendering worker writes the files of its
    pieces (:func:`_render_sent`), so that neither it nor the parent holds a rendered file longer
    than it takes to write it, nor sends it through a pipe; the parent renames them into place
    with the build's other writes (all or nothing). Made when first asked for; removed, with
    anything left in it, once the workers have stopped (and ``out`` too, if it was made for it
    and nothing else was put there). The folder is locked (flock) while it exists, so that the
    next build removes it if this one is killed outright (:func:`_remove_stale_staging`)."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self.path: Path | None = None
        self._fd: int | None = None
        self._made_out: list[Path] = []
        """The folders made for ``out`` (``out`` first, then each parent made with it)."""

    def folder(self) -> Path | None:
        """The staging folder (made now if needed), or None where it cannot be made (then the
        rendered files come back through the pipes, and the writing step reports the problem)."""
        if self.path is None:
            import fcntl
            import os
            import shutil
            import tempfile

            try:
                if self.out.is_symlink():
                    return None  # (refused by the writing step, E603)
                if not self.out.exists():
                    missing = [self.out, *[parent for parent in self.out.parents if not parent.exists()]]
                    self.out.mkdir(parents=True)
                    self._made_out = missing
                self.path = Path(tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=self.out))
                self._fd = os.open(self.path, os.O_RDONLY | os.O_DIRECTORY)
                fcntl.flock(self._fd, fcntl.LOCK_EX)  # (held while the folder exists: no other build removes it)
            except OSError:
                if self.path is not None:
                    shutil.rmtree(self.path, ignore_errors=True)
                    self.path = None
                return None
        return self.path

    def remove(self) -> None:
        import os
        import shutil

        if self.path is not None:
            shutil.rmtree(self.path, ignore_errors=True)
            self.path = None
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
        made, self._made_out = self._made_out, []
        for folder in made:  # (each only if empty: a build that wrote nothing leaves no folder)
            try:
                folder.rmdir()
            except OSError:
                break


CATALOG_BYTES_PER_TEXT = 4_000
"""About the size of one question's entries in one catalog (about 20 entries): what
:func:`expected_texts` divides the catalogs' size by."""


def expected_texts(translations: Path | None) -> int:
    """A guess, before the bank is read, at the questions × translated languages a build
    renders: the size of the language catalogs over :data:`CATALOG_BYTES_PER_TEXT`."""
    from .rules.validate import catalog_bytes

    return catalog_bytes(translations) // CATALOG_BYTES_PER_TEXT if translations is not None else 0


def _writers_first(parallel: bool) -> bool:
    """``parallel``, the writers (and the model) imported first when it is true: the rendering
    workers about to be forked then inherit them rather than each importing them."""
    if parallel:
        FORMATS.load()
    return parallel


def _build_with(bank: Path, translations: Path | None, out: Path, *, allow_fallback: bool, compare: bool, options: ExportOptions, progress, policy: LanguagePolicy | None, workers,
                staging: _Staging | None = None, early=None) -> tuple[list[OutputFile], list[Diagnostic]]:
    """:func:`_build` with its rendering ``workers`` and the validation's catalogs' workers it
    forked on a cold run (``early``: :func:`_cold_catalog_workers`; ended by the caller)."""
    from .i18n.catalog import Catalogs
    from .project.settings import LanguagePolicy

    policy = policy or LanguagePolicy()
    langs = available_languages(translations)
    catalogs = Catalogs(light=True, use_cache=not workers.started)  # validation and localization only read the language catalogs: light entries
    # Localization reuses validation's reads of the catalogs, unless the bank is large: then
    # validation verifies each catalog in its own workers, forked before the bank is read, and
    # localization reads each again, holding one at a time (see "Round 2: build, third part"
    # in docs/performance.md)
    localizing = _Localizing(workers, _Sent(), translations, langs, policy, allow_fallback) if workers.started else None
    from .cache.outputs import OutputMemo

    if localizing is not None:
        # validated now (no verdict kept): the English library and the fields are made, and the
        # localizing calls sent, while validation's catalog workers verify (see _Localizing), unless an earlier build kept
        # its plan for these very inputs: then its files most likely all stand, and nothing is
        # localized (prepared below if one does not)
        # (the memo made then is the build's: the same read bank, its key taken before the
        # catalogs could be saved again during the build)
        def meanwhile(source) -> None:
            made.append(OutputMemo(out, source, translations, (options, policy, allow_fallback), enabled=not compare))
            if made[0].plan() is None:
                localizing.prepare(source)
                # the calls sent now, not once validation ends, when each language's catalog is
                # read by an early worker of validation (a cold build: see _read_early_all): the
                # workers localize while this process ends validation alone (the answer-leak
                # lint, after the catalogs' workers), and each finds its catalog's read kept
                if _read_early_all(early, translations, localizing.others):
                    localizing.send(staging.folder() if staging is not None and not compare else None)

        made: list[OutputMemo] = []
        try:
            read = validated_source(bank, translations, None, meanwhile=meanwhile, workers=early if early is not None and early.started else None)
        finally:
            if early is not None:
                early.close()  # (ended with validation, as a cold validate's are: none left idle through the rendering)
    else:
        if early is not None:
            early.close()  # (validated in this process, localized from its reads: not used)
        made = []
        read = validated_source(bank, translations, catalogs)
    memo = made[0] if made else OutputMemo(out, read, translations, (options, policy, allow_fallback), enabled=not compare)  # unchanged inputs: the files on disk stand
    plan = memo.plan()
    standing: dict[str, dict[str, ExportTree] | None] = {}
    if plan is not None:  # the same inputs as a build whose notes and README were kept: no catalog read, nothing localized if every format stands
        for name, listed in LISTED.items():  # (the formats' light table: no writer imported while every file stands)
            standing[name] = memo.stored(name, out / listed.folder)
            if standing[name] is None:
                break
        else:
            with build_lock(out, compare=compare):
                outputs, staged = [], _staged()
                with _all_or_nothing(staged, out):
                    for name, listed in LISTED.items():
                        outputs += write_outputs(standing[name], {name: out / listed.folder}, {}, compare=compare, prune=True, progress=progress, staged=staged, count=plan["count"])
                    outputs.append(_write_guide(out, plan["guide"], plan["count"], compare=compare, staged=staged))
            memo.save()
            return outputs, list(plan["notes"])
    scan = not all(memo.known(name) for name in FORMATS)  # (a format kept for these very inputs was made after they passed the uncarriable-text scan)
    if localizing is not None:  # each language localized in a worker from the bank's fields and the English library; the read bank dropped first
        sent = localizing.sent
        localizing.send(staging.folder() if staging is not None and not compare else None)  # (unless sent while validating; compared: nothing is written, the calls carry the bytes)
        localizing.prepare(read)  # (unless made while validating: no record of the bank is unpickled before, the files on disk may all stand; each is read once here)
        del read
        _release_pages()  # (the read bank dropped)
        banks, notes, in_english = _localized_in(localizing, langs)
    else:
        from .load import english_library

        sent = None
        source = (read, english_library(read))
        del read
        banks, notes, in_english = load_exported(bank, translations, langs, policy, allow_fallback=allow_fallback, catalogs=catalogs, source=source)
        del source
    options = with_english(options, in_english, translations)
    langs = list(banks)
    interface = catalogs  # (each language's catalog was dropped once localized; the site's, read whole, remain)
    del catalogs
    if any("ui" in f.honours for f in FORMATS.values()) and not options.ui:
        notes += ui_fallback_notes(translations, langs, interface)
    options = with_ui(options, list(FORMATS), translations, langs, interface)
    del interface
    from .project.settings import option_notes

    notes = notes + option_notes(options, list(FORMATS))
    if sent is not None:  # the localized banks, sent to the workers forked before they were read
        folder = staging.folder() if staging is not None and not compare else None  # (compared: the bytes come back)
        payload = sent.payload(banks, folder)
        del banks
        _release_pages()
        count = sent.count
        todo = [name for name in FORMATS if (standing[name] if name in standing else memo.stored(name, out / FORMATS[name].folder)) is None]
        sent_options = _options_sent(options)
        pieces = [(name, part, index == len(parts) - 1) for name in todo for parts in [FORMATS[name].parts(langs, sent.topics)] for index, part in enumerate(parts)]
        # Staged, each piece comes back as the names of its files: the pieces go out longest
        # first, so that the last to end are short, and are taken back in their own order (one
        # its worker could not write, a full disk say, comes back whole and waits its turn).
        # Not staged, each piece comes back whole, and is taken as soon as it comes
        order = _longest_first(pieces) if folder is not None else list(range(len(pieces)))
        results = workers.run_each([(_notes_sent, (payload, list(FORMATS), sent_options, scan)),
                                    *[(_render_sent, (_part_payload(payload, FORMATS[name].part_languages(part, langs)), name, part, sent_options, folder and str(folder), str(index)))
                                      for index in order for name, part, _ in [pieces[index]]]])
        more, found = next(results)
        results = _in_order(results, order)
        if found:
            _refuse(next(iter(FORMATS)), found)
        notes += more
        outputs = _render_and_write(out, memo, standing, todo, ((name, files, last) for (name, _, last), files in zip(pieces, results)), notes, count,
                                    compare=compare, progress=progress, guide=lambda: workers.run_all([(_guide_sent, (payload, notes, dict(options.english)))])[0])
        memo.remember_plan(notes, outputs.guide, count)
        memo.save()
        return outputs.files, notes
    if _texts(as_libraries(banks)) >= PARALLEL_MIN_TEXTS:  # (about 25 ms: worth it only before a large rendering)
        _release_memory()
    notes += library_notes(list(FORMATS), banks, options)
    count = len(next(iter(as_libraries(banks).values())).questions) if banks else 0
    if scan:
        refuse_uncarriable(next(iter(FORMATS)), banks)  # before anything is written, in any format
    todo = [name for name in FORMATS if (standing[name] if name in standing else memo.stored(name, out / FORMATS[name].folder)) is None]
    outputs = _render_and_write(out, memo, standing, todo, ((name, files, True) for name, files in zip(todo, render_each(todo, banks, options))), notes, count, compare=compare, progress=progress,
                                guide=lambda: render_guide_of(banks, notes, options.english))
    memo.remember_plan(notes, outputs.guide, count)
    memo.save()
    return outputs.files, notes


_LONGEST_FIRST = (("html", "all"), ("common-cartridge", "language"), ("qti30", "language"), ("qti21", "language"), ("moodle-xml", "all"), ("gift", "all"),
                  ("json", "all"), ("canvas-qti12", "language"), ("json", "language"), ("moodle-xml", "language"), ("gift", "language"), ("aiken", "language"))
"""The pieces of each format (``"all"``: its multilingual file, or its only piece; ``"language"``:
one language's file) by how long one takes to render, longest first: measured at 10 000
questions in three languages (docs/performance.md, "Round 7: the cold build"). A piece not
named goes first."""


def _longest_first(pieces: list[tuple[str, str | None, bool]]) -> list[int]:
    """The indices of ``pieces`` (``(format, part, last)``) in the order they are sent to the
    workers: by :data:`_LONGEST_FIRST`, then in their own order."""
    from .exporters.record import ALL

    def rank(index: int) -> int:
        name, part, _ = pieces[index]
        kind = (name, "all" if part in (ALL, None) else "language")
        return _LONGEST_FIRST.index(kind) + 1 if kind in _LONGEST_FIRST else 0

    return sorted(range(len(pieces)), key=rank)


def _in_order(results, order: list[int]):
    """The results of ``results`` (those of the pieces sent in ``order``, as they come) in the
    pieces' own order, each as soon as it and those before it have come."""
    held: dict = {}
    wanted = 0
    for index, result in zip(order, results):
        held[index] = result
        while wanted in held:
            yield held.pop(wanted)
            wanted += 1


@dataclass
class _Written:
    files: list[OutputFile]
    guide: bytes


def _render_and_write(out: Path, memo, standing: dict, todo: list[str], rendered, notes: list[Diagnostic], count: int, *, compare: bool, progress, guide) -> _Written:
    """Write every format: the files on disk that stand, and those of the formats in ``todo``
    as ``rendered`` yields them (``(name, files, last)`` in ``todo``'s order: a format's files
    in one piece, or in several, ``last`` on its last), each piece written and dropped before
    the next; then the exports' README (``guide()``). All or nothing."""
    staged = _staged()  # every format made ready beside its files, then all renamed in together
    with build_lock(out, compare=compare):
        with _all_or_nothing(staged, out):
            written: dict[str, list[OutputFile]] = {}

            def take(name: str, trees: dict[str, ExportTree]) -> None:
                written[name] = write_outputs(trees, {name: out / FORMATS[name].folder}, {}, compare=compare, prune=True, progress=progress, staged=staged, count=count)
                memo.remember(name, trees)

            for name, export_format in FORMATS.items():  # the files on disk that stand, one format at a time
                if name not in todo:
                    take(name, standing[name] if name in standing else memo.stored(name, out / export_format.folder))
            pieces: list = []  # what was written of the format whose pieces are coming
            for name, files, last in rendered:
                if isinstance(files, StagedFiles):  # written by the worker that rendered them
                    pieces += adopt_piece(out / FORMATS[name].folder, files, staged=staged)
                elif last and not pieces:  # the whole format at once
                    take(name, {name: ExportTree(files)})
                    continue
                else:
                    pieces += write_piece(out / FORMATS[name].folder, files, compare=compare, staged=staged)
                del files
                if last:
                    from .cache.outputs import WrittenTree

                    take(name, {name: WrittenTree(pieces)})
                    pieces = []
            outputs = [output for name in FORMATS for output in written[name]]
            data = guide()
            outputs.append(_write_guide(out, data, count, compare=compare, staged=staged))
    return _Written(outputs, data)


class _Localizing:
    """The localizing calls of a build whose workers were forked before the bank was read: each
    translated language localized in a worker, sent the English library and the bank's fields
    once (pickled: :func:`_fields_sent`).

    With a staging folder (:meth:`send`), the calls are handed to the workers before the
    English library and the fields are made (or, made already, as soon as they are written):
    each reads its catalog meanwhile, then waits for them in a file of that folder
    (:class:`_Awaited`), which :meth:`prepare` writes. A build that validates the bank now
    prepares them while validation's catalog workers verify (the build's process would
    otherwise wait for them), not after, and, when each language's catalog is read by an early
    worker of validation (:func:`_read_early_all`), sends the calls as soon as they are made: the
    workers localize while the build's process ends validation alone (the answer-leak lint
    after the catalogs' workers are done); a bank found with errors then exports nothing, as
    before (the calls' work is lost). A call whose file could not be written comes back and is
    sent the bytes as before.

    (The calls are not sent as validation starts: a localizing worker's read of its catalog
    made once validation's catalog workers have read theirs finds the catalog's read kept by
    them, in about half the CPU and 30 MB less than a first read; sent as validation started,
    the rendering workers peaked at 470–500 MB at 10 000 questions instead of 390–430 MB.)"""

    def __init__(self, workers, sent: _Sent, translations: Path | None, languages: list[str], policy: LanguagePolicy, allow_fallback: bool, topic: str | None = None) -> None:
        self.workers, self.sent = workers, sent
        self.translations, self.policy, self.allow_fallback = translations, policy, allow_fallback
        self.topic = topic
        """With a topic (`bank export --topic`), each language is localized whole (its notes and
        English texts are those of the whole bank) and kept with that topic only
        (:func:`restrict`), as :func:`load_exported` does with ``topic``."""
        self.shown: bytes | None = None
        """The English library exported, pickled (``read``'s, or that of the topic only)."""
        self.shape: tuple[int, int] | None = None
        """The questions and topics of the English library exported."""
        self.others = [lang for lang in languages if lang != "en"]
        self.token = sent.token()
        self.render = sent.reserve()  # (the token of the libraries the rendering calls will be sent: each worker keeps those it holds already)
        self.awaited: _Awaited | None = None
        self.pending = None
        self.read: tuple | None = None

    def calls(self, read, languages: list[str]) -> list:
        return [(_localize_sent, (read, lang, self.translations, self.policy, self.allow_fallback, self.render, *([self.topic] if self.topic is not None else []))) for lang in languages]

    def send(self, folder: Path | None) -> None:
        """Hand the calls to the workers now, to wait in ``folder`` for what :meth:`prepare`
        makes, or made (once; nothing without a folder or a language to localize)."""
        if self.pending is not None or not self.others or folder is None:
            return
        self.awaited = _Awaited.make(folder, self.token)
        if self.awaited is not None:
            if self.read is not None:  # (made already: delivered first, its bytes written in a few milliseconds, so that each call finds it ready, :func:`_localize_work`)
                self.awaited.deliver(self.read)
            self.pending = self.workers.submit(self.calls(self.awaited, self.others))

    def prepare(self, source) -> None:
        """Make the English library and the fields of ``source`` (a bank without errors), pickled,
        and deliver them to the calls sent (once)."""
        if self.read is not None:
            return
        _uncollected(self._prepare, source)

    def _prepare(self, source) -> None:
        """:meth:`prepare`'s work, with the cyclic garbage collector paused: every record of the
        bank is unpickled (its question and its fields kept), the English library and the fields
        pickled, a few million objects made that stay or are freed as they are dropped (no
        cycle), while the build's process holds the read bank, which each full collection would
        walk again (at 10 000 questions, 2.4–3.3 s of CPU for the English library and the
        fields with the collector running, 0.8–0.9 s paused)."""
        from .i18n.fields import english_library_and_fields

        english, fields = english_library_and_fields(source)
        self.read = (self.token, self.sent.keep("en", english), _fields_sent(fields))
        exported = english if self.topic is None else next((bank for bank in english.topics if bank.topic.id == self.topic), None)  # (an unknown topic: refused by the caller)
        if exported is not None and self.topic is not None:
            import pickle

            exported = restrict(english, self.topic)
            self.shown = pickle.dumps(exported, protocol=pickle.HIGHEST_PROTOCOL)
        else:
            self.shown = self.read[1]
        self.shape = (len(exported.questions), len(exported.topics)) if exported is not None else None
        del english, fields, exported
        if self.awaited is not None:
            self.awaited.deliver(self.read)

    def results(self) -> list:
        """What each call returned, in the order of :attr:`others`."""
        read = self.read
        if self.pending is None:
            return self.workers.run_all(self.calls(read, self.others)) if self.others else []
        results = list(self.pending)
        self.awaited.remove()
        again = [lang for lang, result in zip(self.others, results) if result == _RESEND]
        if again:  # (the file could not be written: these calls are sent the bytes)
            redone = iter(self.workers.run_all(self.calls(read, again)))
            results = [next(redone) if result == _RESEND else result for result in results]
        return results


def _localized_in(localizing: _Localizing, languages: list[str]) -> tuple[dict[str, bytes], list[Diagnostic], dict[str, frozenset[str]]]:
    """:func:`load_exported` of every topic, each translated language localized in a worker
    (:class:`_Localizing`, prepared), and kept pickled: the same banks, notes and English texts,
    the same refusal (DiagnosticsError) of a language with errors."""
    import pickle

    banks: dict[str, bytes] = {}
    notes: list[Diagnostic] = []
    problems: list[Diagnostic] = []
    in_english: dict[str, frozenset[str]] = {}
    sent = localizing.sent
    results = iter(localizing.results())
    english, localizing.read, localizing.shown = localizing.shown, None, None  # (the fields' bytes not held while rendering)
    for lang in languages:
        if lang == "en":
            banks[lang] = english
            continue
        more, wrong, missing, localized = next(results)
        notes += more
        problems += wrong
        if missing:
            in_english[lang] = missing
        if localized is not None and not problems:
            banks[lang] = localized
            sent.counted(pickle.loads(localized) if not sent.count else None)
    if problems:
        raise DiagnosticsError(problems, "some languages are not ready; nothing was exported")
    return banks, notes, in_english


_RESEND = "resend"
"""What a localizing call returns when the file it waited for (:class:`_Awaited`) was not written."""


class _Awaited:
    """What a localizing call handed to a worker before the English library and the bank's fields
    are made is sent instead of them: a file of the staging folder, made empty before the call
    (:meth:`make`), that the build's process replaces, all at once, by the pickled
    ``(token, English library, fields)`` (:meth:`deliver`), or removes when it cannot write it.
    The worker reads its catalog first, then waits for the file (:meth:`wait`)."""

    __slots__ = ("path", "parent")

    WAIT_SECONDS = 0.005

    def __init__(self, path: str, parent: int) -> None:
        self.path = path
        self.parent = parent
        """The build's process (the workers' parent)."""

    @classmethod
    def make(cls, folder: Path, token: str) -> "_Awaited | None":
        """The empty file in ``folder`` (None when it cannot be made: the calls then carry the bytes)."""
        import os

        path = os.path.join(folder, f"{token}-read.pickle")
        try:
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600))
        except OSError:
            return None
        return cls(path, os.getpid())

    def deliver(self, read: tuple) -> bool:
        """Put ``read`` in the file (False, and the file removed, when it cannot be written)."""
        import os
        import pickle

        part = self.path + ".part"
        try:
            with open(part, "xb") as fh:
                pickle.dump(read, fh, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(part, self.path)
            return True
        except OSError:
            for path in (part, self.path):
                try:
                    os.unlink(path)
                except OSError:
                    pass
            return False

    def ready(self) -> bool:
        """Whether what :meth:`wait` waits for is delivered already (or will never be: the file was removed)."""
        import os

        try:
            return os.stat(self.path).st_size > 0
        except OSError:
            return True

    def wait(self) -> tuple | None:
        """In a worker: what was delivered, once it is (None when the file was removed instead).
        The worker ends when the build's process is gone (killed outright before it delivered):
        nothing would ever write the file, nor read what the worker returns."""
        import os
        import pickle
        import time

        while True:
            try:
                if os.stat(self.path).st_size:
                    with open(self.path, "rb") as fh:
                        return pickle.load(fh)
            except OSError:
                return None
            if os.getppid() != self.parent and os.getpid() != self.parent:  # (a worker whose build's process is gone)
                os._exit(1)
            time.sleep(self.WAIT_SECONDS)

    def remove(self) -> None:
        import os

        try:
            os.unlink(self.path)
        except OSError:
            pass


def _localize_sent(read: tuple, lang: str, translations: Path, policy: LanguagePolicy, allow_fallback: bool, render: str | None = None, topic: str | None = None):
    """In a worker: :func:`_one_language` of ``lang``, its library pickled (when it has no error).
    With ``render`` (the token the rendering calls' libraries will be sent under), the English
    library and the localized one are kept as that payload's (:func:`_received`): the pickled
    bytes the build's process writes for them are those of these very objects, which this
    worker then need not unpickle again to render. With ``topic``, both are kept, and the
    localized one returned, with that topic only (:func:`restrict`).

    The garbage collector is paused meanwhile, as while rendering (:func:`_render_sent`): the
    catalog's entries, the English library unpickled and the localized one are a few million
    objects that stay, which each full collection would walk again as they pile up."""
    return _uncollected(_localize_work, read, lang, translations, policy, allow_fallback, render, topic)


def _uncollected(work, *args):
    """``work(*args)`` with the cyclic garbage collector paused (the objects it makes are freed
    as they are dropped; the few cycles among them are collected once the collector runs again)."""
    import gc

    paused = gc.isenabled()
    gc.disable()
    try:
        return work(*args)
    finally:
        if paused:
            gc.enable()


def _localize_work(read: tuple, lang: str, translations: Path, policy: LanguagePolicy, allow_fallback: bool, render: str | None, topic: str | None):
    """:func:`_localize_sent`'s work."""
    import pickle

    from .i18n.catalog import Catalogs

    catalogs = Catalogs(light=True, columns=True)  # (its catalog's columns: no entry made for the states and the translations)
    read_first = False
    if isinstance(read, _Awaited):
        if not read.ready():
            catalogs.read(translations / f"{lang}.po")  # (while the build's process makes the English library and the fields)
            read_first = True
        read = read.wait()
        if read is None:
            return _RESEND
    token, english, fields = read
    if _LOCALIZING.get("token") != token:
        _LOCALIZING.clear()
        _LOCALIZING["read"] = (pickle.loads(english), _fields_received(fields))
        _LOCALIZING["token"] = token
        if not read_first:  # (its catalog, read later, is not among them: see below)
            _kept_out_of_collections()
    english, fields = _LOCALIZING["read"]
    notes, problems, missing, localized = _one_language(lang, translations, catalogs, fields, None, english, _exported_decision(policy, allow_fallback), policy)
    if localized is None or problems:
        return notes, problems, missing, None
    if topic is not None:
        english, localized = restrict(english, topic), restrict(localized, topic)
    del catalogs
    if render is not None:
        _hold(render, english, lang, localized)
    # The library held put out of the collector's reach too (left to it, the next collections
    # walked every object of the worker), with no collection first: the catalog's read, dropped,
    # was freed at once (its active entries' map holds no cycle with it, i18n/pofile.py), and the
    # call makes no other cycle (a collection here walked the localized library, 0.10-0.13 s at
    # 10 000 questions, to free nothing).
    _kept_out_of_collections()
    return notes, problems, missing, pickle.dumps(localized, protocol=pickle.HIGHEST_PROTOCOL)


_LOCALIZING: dict = {}
"""In a localizing worker: the English library and the bank's fields of the last call, by its token."""


def _hold(token: str, english: Library, lang: str, localized: Library) -> None:
    """In a worker: keep ``english`` and ``lang``'s ``localized`` library as those of the payload
    named ``token`` (:func:`_received`); only one localized library (a worker that localizes a
    second language keeps no more than one that localizes one, as it did before keeping any)."""
    if _RECEIVED.get("token") != token:
        _RECEIVED.clear()
        _RECEIVED["libraries"] = {}
        _RECEIVED["token"] = token
    held = _RECEIVED["libraries"]
    held["en"] = english
    if len(held) == 1:
        held[lang] = localized


class LocalizedField(tuple):
    """What localization reads of one of the bank's fields (:class:`~.i18n.fields.TextField`):
    its key, its English text, its question and its place in the question's model. A
    localizing worker is sent these (:func:`_fields_sent`), not the fields' files, lines and
    notes, which it never reads (reading them raises AttributeError).

    A tuple of the four, read by name through ``collections.namedtuple``'s own descriptors (the
    item taken in C), as :class:`~.i18n.fields.TextField` is: :func:`_fields_received` makes
    each by ``tuple.__new__`` called in C, where an ``__init__`` setting four slots was a Python
    call per field (100 005 of them in each localizing worker at 10 000 questions)."""

    __slots__ = ()

    key = _tuplegetter(0, "The field's key (its msgctxt).")
    text = _tuplegetter(1, "Its English text (the msgid).")
    question_id = _tuplegetter(2, "Its question's id (None for a topic's or a category's field).")
    loc = _tuplegetter(3, "Where the text sits in its question's model (``(\"options\", 2, \"text\")``).")


def _fields_sent(fields) -> bytes:
    """The bank's fields pickled as a localizing worker is sent them: the columns of
    :class:`LocalizedField` (lists of strings and tuples pickle and unpickle without a call per
    field: about a tenth of the time of the fields themselves at 100 000 fields)."""
    import pickle

    return pickle.dumps(([f.key for f in fields], [f.text for f in fields], [f.question_id for f in fields], [f.loc for f in fields]),
                        protocol=pickle.HIGHEST_PROTOCOL)


def _fields_received(blob: bytes) -> list[LocalizedField]:
    """The fields :func:`_fields_sent` pickled, in the same order (each made in C: see :class:`LocalizedField`)."""
    import pickle
    from itertools import repeat

    keys, texts, questions, locs = pickle.loads(blob)
    return list(map(tuple.__new__, repeat(LocalizedField), zip(keys, texts, questions, locs)))


def write_piece(folder: Path, files, *, compare: bool, staged, own_folder: bool = True) -> list[tuple[PurePosixPath, str, int, bool, str]]:
    """Write (or compare) some of a format's files under ``folder`` as :func:`write_outputs`
    does, links refused first; what a :class:`~.cache.outputs.WrittenTree` keeps of each.
    ``own_folder``: ``folder`` is a build's (with its manifest), not `bank export`'s ``--out``,
    which may be a link and holds no manifest."""
    from .cache.outputs import output_digest

    _no_links(folder, [file.path for file in files] + ([PurePosixPath(MANIFEST)] if own_folder else []), include_folder=own_folder)
    return [(file.path, file.language, len(file.data), _write(folder / str(file.path), file.data, compare, staged), output_digest(file.data)) for file in files]


class StagedFiles(list):
    """The files of a piece as a rendering worker wrote them into the staging folder
    (:func:`_render_sent`): ``(path in the format's folder, language, size, digest, staged file)``."""


def adopt_piece(folder: Path, files: StagedFiles, *, staged, own_folder: bool = True) -> list[tuple[PurePosixPath, str, int, bool, str]]:
    """Make the files a worker wrote into the staging folder ready to be renamed into place under
    ``folder`` with the build's other writes (``staged``), as :func:`write_piece` makes ready
    the files it is given: links refused first, a file whose bytes are already there left as it
    is (its staged copy deleted); what a :class:`~.cache.outputs.WrittenTree` keeps of each
    (``own_folder`` as for :func:`write_piece`)."""
    import os

    _no_links(folder, [rel for rel, *_ in files] + ([PurePosixPath(MANIFEST)] if own_folder else []), include_folder=own_folder)
    kept = []
    for rel, language, size, digest, path in files:
        target = folder / str(rel)
        try:
            if _holds(target, size, digest):
                os.unlink(path)
                changed = False
            else:
                target.parent.mkdir(parents=True, exist_ok=True)
                os.chmod(path, target.stat().st_mode & 0o777 if target.exists() else 0o644)
                staged.pending.append((path, target))
                staged.unsynced.append((path, target))  # (flushed with the build's other writes, before the first rename)
                changed = True
        except OSError as exc:
            raise ExportError(f"cannot write: {exc.strerror or exc}", Location.of(target), code="E605") from None
        kept.append((rel, language, size, changed, digest))
    return kept


def _holds(path: Path, size: int, digest: str) -> bool:
    """Whether ``path`` is a regular file of ``size`` bytes whose digest is ``digest``
    (:func:`~.cache.outputs.output_digest`; never blocks, reads at most its size, a megabyte at a time)."""
    import os
    import stat

    from .cache.outputs import output_hasher

    try:
        st = os.lstat(path)
        if not stat.S_ISREG(st.st_mode) or st.st_size != size:
            return False
        hasher, total = output_hasher(), 0
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
        try:
            while total <= size:
                chunk = os.read(fd, min(1 << 20, size + 1 - total))
                if not chunk:
                    break
                hasher.update(chunk)
                total += len(chunk)
        finally:
            os.close(fd)
        return total == size and hasher.hexdigest() == digest
    except OSError:
        return False


class _Sent:
    """What the parent keeps of the localized banks when workers render them: each language's
    library pickled as soon as it is localized (the next language's localization reuses its
    memory), and its number of questions."""

    def __init__(self) -> None:
        self.count = self.topics = 0
        self._first = True
        self._reserved: str | None = None

    def keep(self, lang: str, library: Library) -> bytes:
        import pickle

        self.counted(library)
        return pickle.dumps(library, protocol=pickle.HIGHEST_PROTOCOL)

    def counted(self, library: Library | None) -> None:
        """Count the questions and topics of the first library kept (English, when it is exported)."""
        if self._first and library is not None:
            self.count, self.topics, self._first = len(library.questions), len(library.topics), False

    def token(self) -> str:
        """A name for what is sent next, unique in this process: a worker keeps what it last unpickled by it."""
        import os

        global _SENT_COUNTER
        _SENT_COUNTER += 1
        return f"{os.getpid()}-{_SENT_COUNTER}"

    def reserve(self) -> str:
        """The token :meth:`payload` will name the libraries by (made now, so that the localizing
        workers can keep what they made under it)."""
        self._reserved = self.token()
        return self._reserved

    def payload(self, banks: dict[str, bytes], folder: Path | None = None) -> tuple:
        """What each worker call is sent: the pickled libraries by language, with a token naming
        them. With ``folder`` (the staging folder), each pickled library is written there and the
        calls are sent where it is (:class:`_OnDisk`): a worker reads a library once, when it first
        needs it, and no call holds the libraries' bytes while it renders, nor sends them through
        a pipe."""
        token, self._reserved = self._reserved or self.token(), None
        if folder is None:
            return (token, tuple(banks.items()))
        sent = []
        try:
            for lang, data in banks.items():
                path = folder / f"{token}-{lang}.pickle"
                path.write_bytes(data)
                sent.append((lang, _OnDisk(str(path))))
        except OSError:  # (a full disk, say: the bytes go with the calls, as without a staging folder)
            return (token, tuple(banks.items()))
        return (token, tuple(sent))


class _OnDisk:
    """A pickled library sent as the file holding it (:meth:`_Sent.payload`)."""

    __slots__ = ("path",)

    def __init__(self, path: str) -> None:
        self.path = path

    def read(self) -> bytes:
        with open(self.path, "rb") as fh:
            return fh.read()


def _part_payload(payload: tuple, langs: list[str]) -> tuple:
    """``payload`` with the libraries of ``langs`` only: what a call rendering a piece that needs
    no other language is sent (a third of the bytes through the pipe for a language's file)."""
    token, pickled = payload
    return (token, tuple((lang, data) for lang, data in pickled if lang in langs))


_SENT_COUNTER = 0

_RECEIVED: dict = {}
"""In a rendering worker: the libraries of the last payload received, by its token."""


def _received(payload: tuple) -> dict[str, Library]:
    """The libraries of ``payload`` by language (each unpickled once per worker and token:
    a call may be sent some of the languages, :func:`_part_payload`)."""
    import pickle

    _LOCALIZING.clear()  # (rendering: the bank's fields are no longer needed)
    token, pickled = payload
    if _RECEIVED.get("token") != token:
        _RECEIVED.clear()
        _RECEIVED["libraries"] = {}
        _RECEIVED["token"] = token
    held = _RECEIVED["libraries"]
    unpickled = False
    for lang, data in pickled:
        if lang not in held:
            held[lang] = pickle.loads(data.read() if isinstance(data, _OnDisk) else data)
            unpickled = True
    if unpickled:
        _kept_out_of_collections()
    return {lang: held[lang] for lang, _ in pickled}


def _kept_out_of_collections(collect: bool = False) -> None:
    """In a worker: every object alive now put out of the cyclic garbage collector's reach
    (``gc.freeze``), after the libraries it keeps for the calls to come were unpickled or made
    (:func:`_received`, :func:`_localize_work`) with the collector paused. Otherwise the first
    collection once the collector runs again walks those few million objects (0.18 s after a
    localizing call, 0.28–0.35 s after a worker's first rendering call at 10 000 questions), and
    later ones again as they grow old. They are still freed as they are dropped; only a cycle
    among them would wait for the worker's end: with ``collect``, the objects not yet out of
    reach are collected first (a cycle of garbage among them freed)."""
    from .parallel import in_worker

    if in_worker():
        import gc

        if collect:
            gc.collect()
        gc.freeze()


def _notes_sent(payload: tuple, names: list[str], options_sent: dict, scan: bool):
    """In a worker: the formats' notes (:func:`library_notes`) and the first uncarriable text (or
    None, when not ``scan``); the garbage collector paused, as while rendering (the libraries
    unpickled here stay for the rendering)."""
    return _uncollected(_notes_work, payload, names, options_sent, scan)


def _notes_work(payload: tuple, names: list[str], options_sent: dict, scan: bool):
    """:func:`_notes_sent`'s work."""
    libraries = _received(payload)
    return library_notes(names, libraries, _options_received(options_sent)), first_uncarriable(libraries) if scan else None


def _render_sent(payload: tuple, name: str, part: str | None, options_sent: dict, staging: str | None = None, tag: str = ""):
    """In a worker: the files of piece ``part`` of format ``name`` (:meth:`~.exporters.Format.parts`);
    with ``staging`` (the staging folder, :class:`_Staging`), each written there as soon as it is
    rendered, named by ``tag`` (unique to the piece), and what it became returned instead
    (:class:`StagedFiles`). What the worker freed of the pieces before is given back to the
    system first.

    The garbage collector is paused while the piece is rendered: the worker holds the bank's
    libraries (a few million objects, unpickled here, out of ``gc.freeze``'s reach), which each
    full collection would walk again while a large file's records pile up; a renderer's objects
    are freed as they are dropped (it makes no cycles but a few short-lived ones, collected once
    the collector runs again)."""
    return _uncollected(_render_piece, payload, name, part, options_sent, staging, tag)


def _render_piece(payload: tuple, name: str, part: str | None, options_sent: dict, staging: str | None, tag: str):
    """:func:`_render_sent`'s work."""
    # (the pages freed by the piece before are not given back to the system here: the next piece
    # fills them again, a sixth of a cold build's page faults, for 6-8 MiB less at the workers' peak)
    export_format, libraries, options = get_format(name), _received(payload), _options_received(options_sent)
    if staging is None:
        return export_format.part_files(libraries, options, part)
    import os

    from .cache.outputs import output_digest

    made = StagedFiles()
    for file in export_format.each_part_file(libraries, options, part):  # each written and dropped before the next is rendered
        path = os.path.join(staging, f"{tag}-{len(made)}")
        try:
            with open(path, "xb") as fh:
                fh.write(file.data)
                fh.flush()
                _start_writeback(fh.fileno())  # (flushed by the build before it renames it: adopt_piece)
        except OSError:  # (a full disk, say: the piece's files go back, rendered again, to be written, and their error reported, by the build)
            del file
            return export_format.part_files(libraries, options, part)
        made.append((file.path, file.language, len(file.data), output_digest(file.data), path))
        del file
    return made


_SYNC_FILE_RANGE_WRITE = 2
"""Linux's ``SYNC_FILE_RANGE_WRITE``: start writing the range's dirty pages, without waiting."""

_WRITEBACK: list = []
"""In a rendering worker: libc's ``sync_file_range``, or None where there is none (found once)."""


def _start_writeback(fd: int) -> None:
    """Have the system start writing the file ``fd`` to the disk, without waiting for it
    (Linux's ``sync_file_range``; nothing elsewhere). A staged file is flushed by the build's
    process with its other writes before the first rename (:meth:`~.writing.StagedWrites.commit`,
    as :func:`adopt_piece` adds it), which then finds it written or nearly: the rendering
    worker no longer waits for each file's flush (about 1.1 s of the two workers' time at
    10 000 questions, docs/performance.md, "Round 11: the cold build around and within rendering")."""
    if not _WRITEBACK:
        try:
            import ctypes

            call = ctypes.CDLL(None, use_errno=True).sync_file_range
            call.argtypes = (ctypes.c_int, ctypes.c_int64, ctypes.c_int64, ctypes.c_uint)
            call.restype = ctypes.c_int
        except (OSError, AttributeError):
            call = None
        _WRITEBACK.append(call)
    call = _WRITEBACK[0]
    if call is not None:
        call(fd, 0, 0, _SYNC_FILE_RANGE_WRITE)  # (a failure here shows again at the flush, which reports it)


def _guide_sent(payload: tuple, notes: list[Diagnostic], english: dict):
    """In a worker: the exports' README."""
    return render_guide_of(_received(payload), notes, english)


def _options_sent(options: ExportOptions) -> dict:
    """``options`` as a worker is sent them (a read-only mapping does not pickle: sent as a dict)."""
    from dataclasses import fields
    from types import MappingProxyType

    sent = {}
    for f in fields(options):
        value = getattr(options, f.name)
        sent[f.name] = ("proxy", dict(value)) if isinstance(value, MappingProxyType) else ("value", value)
    return sent


def _options_received(sent: dict) -> ExportOptions:
    """The options :func:`_options_sent` sent."""
    from types import MappingProxyType

    return ExportOptions(**{name: MappingProxyType(value) if how == "proxy" else value for name, (how, value) in sent.items()})


def _refuse(name: str, found: tuple[str, str, str, int]) -> None:
    from .safety import describe

    key, lang, char, index = found
    raise ExportError(f"{name}: {key} ({lang}) holds {describe(char)} at character {index + 1}, which the format cannot carry; nothing was written", code="E606")


def _staged():
    from .writing import StagedWrites

    return StagedWrites()


@contextmanager
def _all_or_nothing(staged, out: Path):
    """Every write made ready in ``staged`` renamed in together at the end, or none if anything failed."""
    try:
        yield
    except BaseException:
        staged.abort()
        raise
    try:
        staged.commit()
    except OSError as exc:
        raise ExportError(f"cannot write: {exc.strerror or exc}", Location.of(Path(exc.filename or out)), code="E605") from None


def render_guide_of(banks: dict[str, Library], notes: list[Diagnostic], english=None) -> bytes:
    """The exports' README for ``banks`` and ``notes``."""
    from .exporters.guide import render_guide

    return render_guide(as_libraries(banks), notes, english)


def _write_guide(out: Path, data: bytes, count: int, *, compare: bool = False, staged=None) -> OutputFile:
    from .exporters.guide import README

    _no_links(out, [PurePosixPath(README)], include_folder=False)
    changed = _write(out / README, data, compare, staged)
    return OutputFile("readme", ALL_LANGUAGES, count, len(data), out / README, changed)


def write_guide(out: Path, banks: dict[str, Library], notes: list[Diagnostic], *, compare: bool = False, staged=None, english=None) -> OutputFile:
    """Write (or with ``compare`` only compare) ``out/README.md``, which says which file goes where."""
    count = len(next(iter(as_libraries(banks).values())).questions) if banks else 0
    return _write_guide(out, render_guide_of(banks, notes, english), count, compare=compare, staged=staged)
