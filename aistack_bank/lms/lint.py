"""`bank lint --target moodle|gift|canvas|qti`: what each LMS would change or lose, before upload.

The exports are rendered in memory exactly as `bank build` writes them, then read back with the
importer models of :mod:`.models`. Every finding is a warning located in the bank (a YAML field
or a catalog entry) when the content causes it, or in the export file (as `bank build` would
write it, with the line or the zip member) when the writer does.
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Mapping
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from ..errors import Diagnostic, Location, warning
from ..exporters import get_format
from ..exporters.record import forget_kinds, languages
from ..model import Bank
from ..options import ExportOptions
from ..parallel import run_each
from ..readers.qti import descendants as qti_descendants, manifest_resources
from . import models

if TYPE_CHECKING:
    from ..project.settings import LanguagePolicy

TARGETS = ("moodle", "gift", "canvas", "qti")
FORMATS = {"moodle": ["moodle-xml"], "gift": ["moodle-xml", "gift"], "canvas": ["canvas-qti12"], "qti": ["qti21", "qti30"]}


class _Locator:
    """Where a topic field is written: the topic's YAML for English, the catalog entry otherwise.
    Only the topic's document is kept of the read bank (``topic_doc``, None when it has none:
    then the topic's folder, ``root``)."""

    def __init__(self, topic_id: str, topic_doc, root: Path, translations: Path | None):
        self.topic_id = topic_id
        self.topic_doc = topic_doc
        self.root = root
        self.translations = translations
        self._catalogs: dict[str, dict[str, int]] = {}

    def __call__(self, lang: str, field: str) -> Location:
        if lang == "en" or self.translations is None:
            doc = self.topic_doc
            return doc.locate((field,)) if doc is not None else Location.of(self.root)
        lines = self._catalogs.get(lang)
        path = self.translations / f"{lang}.po"
        if lines is None:  # the msgstr line of each entry, by msgctxt
            lines, context = {}, None
            try:
                text = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                text = ""
            for number, line in enumerate(text.split("\n"), start=1):
                if line.startswith("msgctxt "):
                    context = line[8:].strip().strip('"')
                elif line.startswith("msgstr") and context is not None:
                    lines.setdefault(context, number)
                    context = None
            self._catalogs[lang] = lines
        context = f"topic.{self.topic_id}.{field}"
        return Location.of(path, lines.get(context, 0))


_CHECKS = (("moodle", "gift"), ("canvas",), ("qti21",), ("qti30",))
"""The targets checked together (Moodle and GIFT read the same Moodle XML files; the qti target
is its two packages, each a check of its own). Moodle and GIFT are one task per topic (the files
are imported one after the other into one course, the multilingual file from every language);
each package check is one task per topic and language (the package of a language is rendered
from that language's library alone)."""

LINT_POOL_MIN = 4_000
"""Least work (questions × languages × checks) for which the checks run in worker processes;
from it on, the localized libraries are also kept pickled in files rather than in memory
(:class:`_Kept`)."""


class _Kept:
    """The exported languages' libraries as `bank lint` holds them between loading and checking,
    each topic of each language apart: in memory (``folder`` None), or pickled into a file of
    ``folder`` as soon as the language is localized (:func:`~aistack_bank.build.load_exported`'s
    ``keep`` hook), so that no process holds every localized library at once: the checks' tasks
    each unpickle only the languages they render (:func:`_banks`). Also what the parent needs
    of each: the topics and their questions (of the first language kept: English), and the
    first text of each topic that no format can carry, by language."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder
        self.held: dict[str, dict[str, object]] = {}  # language -> topic id -> Library of that topic, or the path of its pickle
        self.questions: dict[str, int] = {}
        self.uncarriable: dict[str, dict[str, tuple]] = {}

    def keep(self, lang: str, library) -> dict[str, object]:
        import pickle

        from ..build import first_uncarriable

        first = not self.held
        topics: dict[str, object] = {}
        for index, bank in enumerate(library.topics):
            topic_id = bank.topic.id
            if first:
                self.questions[topic_id] = len(bank.questions)
            alone = library.only(topic_id)
            found = first_uncarriable({lang: alone})
            if found is not None:
                self.uncarriable.setdefault(topic_id, {})[lang] = found
            if self.folder is None:
                topics[topic_id] = alone
                continue
            path = self.folder / f"{lang}-{index}.pickle"
            with open(path, "wb") as fh:
                pickle.dump(alone, fh, protocol=pickle.HIGHEST_PROTOCOL)
            topics[topic_id] = str(path)
            del alone
        self.held[lang] = topics
        return topics


_HELD: dict[str, tuple[str, Bank]] = {}
"""In the process running a check: the topic banks unpickled last, by language (with the path
they came from), kept for the next task that renders the same ones."""


def _banks(held: dict[str, dict[str, object]], topic_id: str, langs: list[str]) -> dict[str, Bank]:
    """Topic ``topic_id``'s bank in each language of ``langs`` (in that order); one that was
    pickled is unpickled here, and those held for a task before and not asked for now are
    dropped first."""
    import gc
    import pickle

    for lang in [lang for lang in _HELD if lang not in langs]:
        del _HELD[lang]
        forget_kinds()  # (the exporters keep the banks last rendered from)
    if isinstance(held, tuple):  # (a payload: each language's whole library pickled in a file, :func:`_lint_in`)
        return _payload_banks(held, topic_id, langs)
    out: dict[str, Bank] = {}
    for lang in langs:
        item = held[lang][topic_id]
        if not isinstance(item, str):
            out[lang] = item.topics[0]
            continue
        if _HELD.get(lang, ("",))[0] != item:
            _HELD.pop(lang, None)
            paused = gc.isenabled()
            gc.disable()  # (a few million objects made at once: no collection walks them meanwhile)
            try:
                with open(item, "rb") as fh:
                    _HELD[lang] = (item, pickle.load(fh).topics[0])
            finally:
                if paused:
                    gc.enable()
        out[lang] = _HELD[lang][1]
    return out


def _payload_banks(payload: tuple, topic_id: str, langs: list[str]) -> dict[str, Bank]:
    """:func:`_banks` from a payload (``(token, ((lang, file), ...))``, as :meth:`~aistack_bank.build._Sent.payload`
    writes it): each language's library unpickled once per token and worker, and held for the
    next task (those not asked for are dropped by :func:`_banks` first)."""
    libraries = _payload_libraries(payload, langs)
    return {lang: next(bank for bank in library.topics if bank.topic.id == topic_id) for lang, library in libraries.items()}


def _payload_libraries(payload: tuple, langs: list[str]) -> dict:
    """The libraries of ``langs`` in ``payload``, each unpickled in this worker once per token
    and held (:data:`_HELD`) for the calls to come."""
    from ..build import payload_libraries, payload_library

    token = payload[0]
    where = payload_libraries(payload)  # (what a localizing call left in this worker dropped)
    for lang in langs:
        if _HELD.get(lang, ("",))[0] != token:
            _HELD.pop(lang, None)
            _HELD[lang] = (token, payload_library(where[lang]))
    return {lang: _HELD[lang][1] for lang in langs}


def _drop_held() -> None:
    """Drop the banks :func:`_banks` holds for the next task."""
    _HELD.clear()
    forget_kinds()
    from ..build import release_pages

    release_pages()  # (given back to the system before the file rendered from them is read)


class _Pieces(Mapping[PurePosixPath, bytes]):
    """A topic's files of one per-language format by name, each rendered when it is asked for
    (a language's file from that language's bank alone, the multilingual file from every
    language's) and not kept."""

    def __init__(self, fmt: str, topic, langs: list[str], held, options: ExportOptions):
        from ..exporters.record import ALL, file_stem

        self._format = get_format(fmt)
        self._held, self._topic_id, self._langs, self._options = held, topic.id, langs, options
        self._parts: dict[PurePosixPath, str] = {}
        for part in self._format.parts(langs, 1):
            name = (PurePosixPath(self._format.multilingual.format(stem=file_stem(topic))) if part == ALL
                    else self._format.language_file(topic, part, options.english))
            self._parts[name] = part

    def __getitem__(self, name: PurePosixPath) -> bytes:
        part = self._parts[name]
        every = part not in self._langs
        banks = _banks(self._held, self._topic_id, self._langs if every else [part])
        (file,) = self._format.files(banks, self._options, only=part)
        del banks
        if every:  # (every language's bank held for the multilingual file: dropped before it is read)
            _drop_held()
        assert file.path == name, (file.path, name)
        return file.data

    def with_other(self, name: PurePosixPath, other: _Pieces, other_name: PurePosixPath) -> tuple[bytes, bytes]:
        """This file ``name`` and ``other``'s ``other_name`` (of the same language, or both
        multilingual), rendered from one loading of their banks (dropped after a multilingual
        pair, before either file is read)."""
        part = self._parts[name]
        assert other._parts[other_name] == part and other._langs == self._langs, (name, other_name)
        every = part not in self._langs
        banks = _banks(self._held, self._topic_id, self._langs if every else [part])
        (file,) = other._format.files(banks, other._options, only=part)
        assert file.path == other_name, (file.path, other_name)
        other_data = file.data
        del file
        (file,) = self._format.files(banks, self._options, only=part)
        del banks
        if every:
            _drop_held()
        assert file.path == name, (file.path, name)
        return file.data, other_data

    def __iter__(self):
        return iter(self._parts)

    def __len__(self) -> int:
        return len(self._parts)


def _moodle_task(check: tuple[str, ...], held, topic_id: str, langs: list[str], options: ExportOptions, exports: Path, several: bool) -> tuple[list[Diagnostic], dict[str, str]]:
    """The Moodle and GIFT findings of ``check`` for one topic's files, each rendered, read once
    and dropped, in the order Moodle imports them; and the topic's title in each language (the
    caller locates what Moodle makes of them: :func:`_moodle_titles`)."""
    from ..exporters.moodle_common import gift_leaves_out

    banks = _banks(held, topic_id, langs)
    titles = {lang: banks[lang].topic.title for lang in languages(banks)}
    left_out = gift_leaves_out(banks) if "gift" in check else set()
    topic = banks[languages(banks)[0]].topic
    del banks
    where = _where(exports, topic_id, several)
    xml = _Pieces("moodle-xml", topic, langs, held, options)
    gift = _Pieces("gift", topic, langs, held, options) if "gift" in check else None
    found = _moodle_and_gift(xml, gift, left_out, "moodle" in check, lambda n, line=0: where("moodle-xml", n, line), lambda n, line=0: where("gift", n, line))
    return found, titles


def _package_task(fmt: str, held, topic_id: str, lang: str, options: ExportOptions, exports: Path, several: bool):
    """The findings of package format ``fmt`` (canvas-qti12, qti21 or qti30) for one topic in one
    language, rendered from that language's bank alone; for QTI also the identifiers its package
    uses and where its manifest is (:func:`_collisions` compares the languages')."""
    banks = _banks(held, topic_id, [lang])
    (file,) = get_format(fmt).files(banks, options, only=lang)
    tree = {file.path: file.data}
    del file
    where = _where(exports, topic_id, several)
    if fmt == "canvas-qti12":
        return _canvas(banks, tree, lambda n: where(fmt, n), options.english), [], None
    return _qti_language(lang, banks[lang], tree, lambda n: where(fmt, n), options.english)


def _where(exports: Path, topic_id: str, several: bool):
    from ..exporters import FORMATS as EXPORT_FORMATS

    prefix = topic_id + "/" if several else ""

    def where(fmt: str, name: PurePosixPath | str, line: int = 0) -> Location:
        return Location.of(exports / EXPORT_FORMATS[fmt].folder / (prefix + str(name)), line)

    return where


def lint(bank_dir: Path, translations: Path | None, targets: list[str], options: ExportOptions = ExportOptions(),
         exports: Path = Path("exports"), *, policy: LanguagePolicy | None = None, allow_fallback: bool = False,
         languages: str = "all") -> list[Diagnostic]:
    """Warnings for ``targets``, topic by topic, over the languages `bank build` exports
    (``policy``, ``allow_fallback``: the same language states, whose warnings come first);
    raises DiagnosticsError when the bank itself has errors."""
    import shutil
    import tempfile

    from ..build import load_exported, refuse_found, release_pages, resolve_languages, validated_bank, with_english
    from ..i18n.catalog import Catalogs
    from ..parallel import Workers
    from ..project.settings import LanguagePolicy

    tr = translations if translations is not None and translations.is_dir() else None
    langs = resolve_languages(languages, tr)
    if "en" not in langs:
        langs = ["en", *langs]  # the source: every file is checked against it
    asked = {*targets, *(("qti21", "qti30") if "qti" in targets else ())}
    checks = [mine for mine in (tuple(t for t in check if t in asked) for check in _CHECKS) if mine]
    formats = sorted({f for t in targets for f in FORMATS[t]})
    with Workers(_large(tr)) as workers:
        if workers.started:
            return _lint_in(workers, bank_dir, tr, langs, checks, formats[0], options, exports, policy or LanguagePolicy(), allow_fallback)
    catalogs = Catalogs()
    library_source, english = validated_bank(bank_dir, tr, catalogs)  # (a verdict cached for these inputs is not computed again)
    large = len(english.questions) * len(langs) * len(checks) >= LINT_POOL_MIN
    kept = _Kept(Path(tempfile.mkdtemp(prefix="aistack-bank-lint-")) if large else None)
    try:
        libraries, notes, in_english = load_exported(bank_dir, tr, langs, policy or LanguagePolicy(), allow_fallback=allow_fallback, catalogs=catalogs,
                                                     source=(library_source, english), keep=kept.keep)
        del english
        places: dict[str, tuple] = {}  # (the topics' documents: nothing else of the read bank is kept for the checks)
        for topic_source in library_source.topics:
            if topic_source.topic is not None:
                places.setdefault(topic_source.topic.id, (topic_source.topic_doc, topic_source.root))
        topic_source = library_source = catalogs = None
        options = with_english(options, in_english, tr)
        exported = list(libraries)
        topics = list(kept.questions)
        several = len(topics) > 1
        for topic_id in topics:  # (what rendering every format at once did first, under the first format's name)
            bad = kept.uncarriable.get(topic_id, {})
            for lang in exported:
                if lang in bad:
                    refuse_found(formats[0], bad[lang])
        package_checks = [("canvas-qti12" if check == ("canvas",) else check[0]) for check in checks if check[0] not in ("moodle", "gift")]
        moodle_check = next((check for check in checks if check[0] in ("moodle", "gift")), None)
        tasks, groups = [], []
        for topic_id in topics:
            if moodle_check is not None:
                locate = _Locator(topic_id, *places[topic_id], tr)
                tasks.append(lambda t=topic_id, locate=locate: (_located_titles(moodle_check, locate, *_moodle_task(moodle_check, kept.held, t, exported, options, exports, several)), [], None))
                groups.append(None)
            for lang in exported:  # (a worker keeps the language it unpickled for the next task)
                for fmt in package_checks:
                    tasks.append(lambda t=topic_id, lang=lang, fmt=fmt: _package_task(fmt, kept.held, t, lang, options, exports, several))
                    groups.append((topic_id, fmt, lang))
        del places
        work = sum(kept.questions.values()) * len(exported) * len(checks)
        if large:  # (the read bank freed, and its pages given back, before workers fork)
            import gc

            gc.collect()
            release_pages()
        found: list[Diagnostic] = []
        owners: dict[tuple[str, str], dict] = {}
        for group, (part, identifiers, manifest) in zip(groups, run_each(tasks, work, LINT_POOL_MIN)):
            found += part
            if group is not None and group[1] != "canvas-qti12":
                found += _collisions(owners.setdefault(group[:2], {}), group[2], identifiers, manifest)
    finally:
        _drop_held()
        if kept.folder is not None:
            shutil.rmtree(kept.folder, ignore_errors=True)
    unique = {(d.code, d.message, d.location): d for d in found}
    states = [d for d in notes if d.code in ("W552", "W558", "W559")]
    return states + sorted(unique.values(), key=Diagnostic.sort_key)


def _large(translations: Path | None) -> bool:
    """Whether `bank lint` forks its workers before reading the bank, as `bank build` does (the
    bank's texts, guessed from its catalogs' size, at least :data:`~aistack_bank.build.PARALLEL_MIN_TEXTS`)."""
    from ..build import PARALLEL_MIN_TEXTS, expected_texts

    return expected_texts(translations) >= PARALLEL_MIN_TEXTS


def _lint_in(workers, bank_dir: Path, tr: Path | None, langs: list[str], checks: list[tuple[str, ...]], first_format: str, options: ExportOptions,
             exports: Path, policy: LanguagePolicy, allow_fallback: bool) -> list[Diagnostic]:
    """:func:`lint` with ``workers`` forked before the bank is read, as `bank build` bounds the
    same steps (:func:`~aistack_bank.build._build_with`): validated (the catalogs verified in
    validation's own workers), each translated language localized in a worker and handed back
    pickled, this process keeping only the topics' documents (to locate titles) and each
    language's pickle in a file; then each check a call sent only the languages it renders
    (:func:`_payload_banks`: a worker unpickles a language once and keeps it for its next call).
    The same findings and refusals as the serial way."""
    import shutil
    import tempfile

    from ..build import localized_pickled, options_sent, payload_part, refuse_found, with_english

    folder = Path(tempfile.mkdtemp(prefix="aistack-bank-lint-"))
    try:
        places: dict[str, tuple] = {}  # (the topics' documents: nothing else of the read bank is kept)

        def seen(read) -> None:
            for topic_source in read.topics:
                if topic_source.topic is not None:
                    places.setdefault(topic_source.topic.id, (topic_source.topic_doc, topic_source.root))

        payload, notes, in_english = localized_pickled(workers, bank_dir, tr, langs, policy, allow_fallback, folder, seen=seen)
        options = with_english(options, in_english, tr)
        exported = [lang for lang, _ in payload[1]]
        topics, bad = workers.run_all([(_survey_call, (payload, exported))])[0]
        if bad is not None:  # (what rendering every format at once did first, under the first format's name)
            refuse_found(first_format, bad)
        several = len(topics) > 1
        sent_options = options_sent(options)
        package_checks = [("canvas-qti12" if check == ("canvas",) else check[0]) for check in checks if check[0] not in ("moodle", "gift")]
        moodle_check = next((check for check in checks if check[0] in ("moodle", "gift")), None)
        calls, groups = [], []
        for topic_id in topics:
            if moodle_check is not None:
                calls.append((_moodle_call, (moodle_check, payload_part(payload, exported), topic_id, exported, sent_options, exports, several)))
                groups.append(topic_id)
            for lang in exported:  # (a worker keeps the language it unpickled for the next call)
                for fmt in package_checks:
                    calls.append((_package_call, (fmt, payload_part(payload, [lang]), topic_id, lang, sent_options, exports, several)))
                    groups.append((topic_id, fmt, lang))
        found: list[Diagnostic] = []
        owners: dict[tuple[str, str], dict] = {}
        for group, result in zip(groups, workers.run_each(calls, last=True)):
            if isinstance(group, str):
                part, titles = result
                found += _located_titles(moodle_check, _Locator(group, *places[group], tr), part, titles)
                continue
            part, identifiers, manifest = result
            found += part
            if group[1] != "canvas-qti12":
                found += _collisions(owners.setdefault(group[:2], {}), group[2], identifiers, manifest)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    unique = {(d.code, d.message, d.location): d for d in found}
    states = [d for d in notes if d.code in ("W552", "W558", "W559")]
    return states + sorted(unique.values(), key=Diagnostic.sort_key)


def _located_titles(check: tuple[str, ...], locate: _Locator, found: list[Diagnostic], titles: dict[str, str]) -> list[Diagnostic]:
    """What Moodle makes of the topic's titles (with the moodle target), then ``found``."""
    return (_moodle_titles(titles, locate) if "moodle" in check else []) + found


def _survey_call(payload: tuple, exported: list[str]):
    """In a worker: the topics' ids in bank order, and the first text of a topic (topic by topic,
    then language by language) that no format can carry, or None."""
    from ..build import first_uncarriable

    libraries = _payload_libraries(payload, exported)
    topics = [bank.topic.id for bank in libraries[exported[0]].topics]
    for topic_id in topics:
        found = first_uncarriable({lang: library.only(topic_id) for lang, library in libraries.items()})
        if found is not None:
            return topics, found
    return topics, None


def _moodle_call(check: tuple[str, ...], payload: tuple, topic_id: str, exported: list[str], sent_options: dict, exports: Path, several: bool):
    """In a worker: :func:`_moodle_task`."""
    from ..build import options_received

    return _moodle_task(check, payload, topic_id, exported, options_received(sent_options), exports, several)


def _package_call(fmt: str, payload: tuple, topic_id: str, lang: str, sent_options: dict, exports: Path, several: bool):
    """In a worker: :func:`_package_task`."""
    from ..build import options_received

    return _package_task(fmt, payload, topic_id, lang, options_received(sent_options), exports, several)


# --- Moodle ---------------------------------------------------------------------------------

def _moodle(banks: dict[str, Bank], tree, locate, where) -> list[Diagnostic]:
    titles = {lang: banks[lang].topic.title for lang in languages(banks)}
    return _moodle_titles(titles, locate) + _moodle_and_gift(tree, None, set(), True, where, where)


def _moodle_titles(titles: dict[str, str], locate) -> list[Diagnostic]:
    """The categories' names (each language's topic title, in export order) as Moodle keeps them."""
    out = []
    seen: dict[str, str] = {}
    for lang, title in titles.items():
        if len(title) > models.MOODLE_NAME_MAX:
            out.append(warning("W802", f"the category name ({lang}) has {len(title)} characters; Moodle cuts category names at {models.MOODLE_NAME_MAX}", locate(lang, "title")))
        if title in seen:
            out.append(warning("W803", f"the {lang} title is the same as the {seen[title]} one: imported into one course, both files share one category and Moodle drops the second file's question idnumbers", locate(lang, "title")))
        seen.setdefault(title, lang)
    return out


def _import_order(names) -> list:
    return sorted(names, key=lambda n: (n.stem.endswith("multilang"), str(n)))


def _moodle_and_gift(xml_tree, gift_tree, left_out: set[str], moodle: bool, xml_where, gift_where) -> list[Diagnostic]:
    """The Moodle XML files' findings (with ``moodle``) and the GIFT files' (with a ``gift_tree``:
    each against the Moodle XML file of the same name), each format's files imported into a
    course of its own in Moodle's order; each Moodle XML file is read once for both, streamed
    beside its GIFT file (both rendered at once: :func:`_rendered`)."""
    out: list[Diagnostic] = []
    xml_order = _import_order(xml_tree)
    gift_order = _import_order(gift_tree) if gift_tree is not None else []
    together = [name.with_suffix(".xml") for name in gift_order] == xml_order
    course, gift_course = models.MoodleCourse(), models.MoodleCourse()
    if moodle or together:
        for index, name in enumerate(xml_order):
            gift_name = gift_order[index] if gift_tree is not None and together else None
            xml_data, gift_text = _rendered(xml_tree, name, gift_tree, gift_name)
            out += _file_pair(course if moodle else None, gift_course, left_out, name, xml_data, gift_name, gift_text, xml_where, gift_where)
            del xml_data, gift_text
    if gift_tree is not None and not together:
        for name in gift_order:
            out += _file_pair(None, gift_course, left_out, name.with_suffix(".xml"), xml_tree[name.with_suffix(".xml")], name, gift_tree[name].decode("utf-8"), xml_where, gift_where)
    return out


def _rendered(xml_tree, name, gift_tree, gift_name) -> tuple[bytes, str | None]:
    """The Moodle XML file ``name`` and the GIFT file ``gift_name`` (None: none) as text; two
    :class:`_Pieces` are rendered from one loading of their banks (:meth:`_Pieces.with_other`)."""
    if gift_name is None:
        return xml_tree[name], None
    if isinstance(xml_tree, _Pieces) and isinstance(gift_tree, _Pieces):
        xml_data, gift_data = xml_tree.with_other(name, gift_tree, gift_name)
    else:
        xml_data, gift_data = xml_tree[name], gift_tree[gift_name]
    gift_text = gift_data.decode("utf-8")
    del gift_data
    return xml_data, gift_text


def _file_pair(course, gift_course, left_out: set[str], name, xml_data: bytes, gift_name, gift_text: str | None, xml_where, gift_where) -> list[Diagnostic]:
    """One Moodle XML file's findings (with a ``course``, into which it is imported after the
    files before it), then its GIFT file's (with a ``gift_text``: :func:`_compared`), the Moodle
    XML file read streamed, question by question beside the GIFT file's; if the file's lines
    cannot be told (:class:`~aistack_bank.readers.moodle_xml.Streamed`), read again without them."""
    from ..readers.moodle_xml import Streamed

    stream = Streamed(xml_data)
    found = _compared(course, gift_course, left_out, name, models.moodle_xml_entries(stream), gift_name, gift_text, xml_where, gift_where, lambda: stream.lines_told)
    if found is None:
        found = _compared(course, gift_course, left_out, name, (_unlined(e) for e in models.moodle_xml_entries(Streamed(xml_data))), gift_name, gift_text, xml_where, gift_where, lambda: True)
    return found


def _unlined(entry):
    entry.line = 0
    return entry


def _compared(course, gift_course, left_out: set[str], name, xml_entries, gift_name, gift_text: str | None, xml_where, gift_where, told) -> list[Diagnostic] | None:
    """The findings of one Moodle XML file (its categories and questions one at a time, as
    :func:`~.models.moodle_xml_entries` gives them) with a ``course``, then of its GIFT file with
    a ``gift_text``, each question of the one compared with its own of the other as both are read
    (the questions GIFT cannot write, ``left_out``, skipped); neither file's questions are held,
    only what their import into a course needs. None, with no file imported, if ``told()`` says
    the lines were wrong once the Moodle XML file is read."""
    categories: list = []
    light: list = []  # (each question as its import sees it: its name, idnumber, category and line)
    category_found: list[Diagnostic] = []
    question_found: list[Diagnostic] = []
    gift = models.gift_entries(gift_text) if gift_text is not None else None
    g_categories: list = []
    g_light: list = []
    compared: list[Diagnostic] = []
    xml_count = 0

    def next_gift():
        for g in gift:
            if isinstance(g, models.MoodleCategory):
                g_categories.append(g)
                continue
            g_light.append(_light(g))
            return g
        return None

    exhausted = gift is None
    for x in xml_entries:
        if isinstance(x, models.MoodleCategory):
            categories.append(x)
            if course is not None:
                category_found += _plain_field_findings(x.path[-1], "category name", xml_where(name, x.line))
            continue
        light.append(_light(x))
        if course is not None:
            question_found += _question_findings(x, name, xml_where)
        if gift is None or x.idnumber in left_out:
            continue
        xml_count += 1
        g = None if exhausted else next_gift()
        if g is None:
            exhausted = True
            continue
        # Units and case sensitivity are not compared: GIFT has neither, and the export says so (W657).
        for label, a, b in (("idnumber", g.idnumber, x.idnumber), ("tags", g.tags, x.tags), ("name", g.name, x.name),
                            ("question type", g.qtype, x.qtype), ("single or multiple answer", g.single, x.single),
                            ("question text", g.questiontext, x.questiontext), ("general feedback", g.generalfeedback, x.generalfeedback),
                            ("answers", g.answers, [(t, f, fb) for t, f, fb in x.answers]), ("tolerances", g.tolerances, x.tolerances),
                            ("matching subquestions", g.subquestions, x.subquestions)):
            if a != b:
                compared.append(warning("W806", f"question {x.idnumber}: Moodle reads another {label} from GIFT than from Moodle XML (GIFT special characters?): {_diff(a, b)}", gift_where(gift_name, g.line)))
    if not told():
        return None
    out: list[Diagnostic] = []
    if course is not None:
        out += category_found + question_found + _imported(course, models.MoodleFile(categories, light), xml_where(name, categories[0].line if categories else 0),
                                                           "imported after the other files into one course, question {} loses its idnumber (already used in its category)",
                                                           lambda line: xml_where(name, line))
    if gift is None:
        return out
    while next_gift() is not None:
        pass
    # The categories that hold questions (Moodle XML also creates each topic's parent category first).
    used = {tuple(q.category) for q in light}
    x_paths = [c.path for c in categories if tuple(c.path) in used]
    for index, x_path in enumerate(x_paths):
        g_cat = g_categories[index] if index < len(g_categories) else None
        if g_cat is None or g_cat.path != x_path:
            out.append(warning("W806", f"Moodle reads the GIFT category as {g_cat.path[2:] if g_cat else None!r}, the Moodle XML one as {x_path[2:]!r}", gift_where(gift_name, g_cat.line if g_cat else 0)))
    # A question GIFT cannot write is left out of it, and the export says so (W657).
    if len(g_light) != xml_count:
        out.append(warning("W806", f"Moodle reads {len(g_light)} questions from the GIFT file and {xml_count} from the Moodle XML one", gift_where(gift_name)))
    out += compared
    out += _imported(gift_course, models.MoodleFile(g_categories, g_light), gift_where(gift_name), "imported after the other GIFT files into one course, question {} loses its idnumber", None)
    return out


def _light(q):
    """What a course's import of a question looks at (:meth:`~.models.MoodleCourse.import_file`),
    and its line."""
    return models.MoodleQuestion(name=q.name, idnumber=q.idnumber, tags=[], category=q.category, line=q.line)


def _imported(course, moodle_file, aborted_at: Location, dropped: str, line_at) -> list[Diagnostic]:
    """What importing ``moodle_file`` into ``course`` after the files before it loses: W805 for an
    import the database refuses (at ``aborted_at``), or for each question idnumber dropped (at
    its question's line with ``line_at``, else at ``aborted_at``)."""
    out = []
    try:
        result = course.import_file(moodle_file)
    except models.MoodleImportAborted as exc:
        out.append(warning("W805", f"importing this file after the others into one course fails: {exc}", aborted_at))
        return out
    for idnumber in result.dropped_idnumbers:
        where = aborted_at if line_at is None else line_at(next((q.line for q in moodle_file.questions if q.idnumber == idnumber), 0))
        out.append(warning("W805", dropped.format(idnumber), where))
    return out


def _question_findings(q, name, where) -> list[Diagnostic]:
    """One Moodle XML question's findings (its name, matching answers Moodle merges, grades it
    refuses)."""
    out = _plain_field_findings(q.name, f"question name of {q.idnumber}", where(name, q.line))
    if q.qtype == "match":
        choices, _ = q.match_choices()
        merged = [a for a in dict.fromkeys(answer for _, answer in q.subquestions) if a not in choices]
        if merged:
            one = next(c for c in choices if models.php_loose_equal(c, merged[0]))
            out.append(warning("W751", f"question {q.idnumber}: Moodle offers {merged[0]!r} and {one!r} as one answer (PHP compares two numeric texts as numbers); "
                                       "the bank offers them apart: write them so that they differ as words", where(name, q.line)))
    unlisted = q.unlisted_fractions()
    if unlisted:
        out.append(warning("W656", f"question {q.idnumber}: Moodle refuses the question on import (\"Error if grade not listed\"): grade(s) {', '.join(f'{f * 100:g} %' for f in unlisted)} are not in its list", where(name, q.line)))
    return out


def _plain_field_findings(value: str, what: str, location: Location) -> list[Diagnostic]:
    out = []
    stored, cut = models.moodle_clean_question_name(value)
    if models.ENTITY.search(value):
        out.append(warning("W804", f"the {what} holds an HTML entity ({models.ENTITY.search(value).group(0)}), which Moodle shows as typed", location))
    if cut:
        out.append(warning("W802", f"the {what} has {len(value)} characters; Moodle cuts it to {len(stored)} without a message", location))
    elif stored != value.strip():
        out.append(warning("W804", f"Moodle changes the {what} on import (tags are stripped from plain-text fields): {stored!r}", location))
    return out


# --- GIFT -----------------------------------------------------------------------------------

def _gift(banks: dict[str, Bank], xml_tree, gift_tree, where) -> list[Diagnostic]:
    """A GIFT file must give Moodle what the Moodle XML file of the same language gives it."""
    from ..exporters.moodle_common import gift_leaves_out

    return _moodle_and_gift(xml_tree, gift_tree, gift_leaves_out(banks), False, None, where)


def _diff(a, b) -> str:
    a, b = repr(a), repr(b)
    start = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    return f"…{a[max(0, start - 20):start + 40]}… instead of …{b[max(0, start - 20):start + 40]}…"


# --- Canvas and QTI -------------------------------------------------------------------------

class _Members(Mapping[str, bytes]):
    """A zip package's members by name, each read (inflated) when it is asked for, so that a
    package of thousands of items is never held inflated at once."""

    def __init__(self, data: bytes):
        self._archive = zipfile.ZipFile(io.BytesIO(data))
        self._names = {n: None for n in self._archive.namelist()}

    def __getitem__(self, name: str) -> bytes:
        if name not in self._names:
            raise KeyError(name)
        return self._archive.read(name)

    def __iter__(self):
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)


def _members(data: bytes) -> _Members:
    return _Members(data)


def _items(files: Mapping[str, bytes]):
    for member in sorted(files):
        if member.startswith("items/"):
            data = files[member]
            yield member, data, models.parse_xml(data)


def _questions_by_identifier(bank: Bank) -> dict:
    """The question an item identifier names: its id, or its id and language joined by a hyphen
    (the first question in bank order that either names, as a search through them would find)."""
    index: dict = {}
    for q in bank.questions:
        index.setdefault(q.id, q)
        index.setdefault(f"{q.id}-{bank.lang}", q)
    return index


def _said(text) -> str:
    from ..exporters.common import html_paragraph

    return html_paragraph(text) if text else ""


def _canvas_options(q, lang: str) -> list:
    return [(o.text, 100 if o.id in q.right_ids() else 0, _said(o.feedback)) for o in q.options]


def _canvas_true_false(q, lang: str) -> list:
    from ..exporters.words import words

    labels = words(lang)
    return [(labels.true, 100 if q.answer else 0, _said(q.feedback_true)), (labels.false, 0 if q.answer else 100, _said(q.feedback_false))]


def _canvas_short_answer(q, lang: str) -> list:
    from ..exporters.qti12_common import full_credit_answers

    return [(a.text, 100, _said(a.feedback)) for a in full_credit_answers(q, canvas=True)]


def _canvas_general(q, lang: str) -> tuple[str, str]:
    return (_said(q.explanation), "the explanation")


def _canvas_essay_general(q, lang: str) -> tuple[str, str]:
    from ..exporters.qti12_common import canvas_general_feedback

    # the explanation, then the model answer (Canvas's essay has no other place for it)
    return (canvas_general_feedback(q, lang) or "", "the explanation and the model answer")


def _read_answers(read: dict) -> list:
    return [(a["text"], a["weight"], a["comments"]) for a in read["answers"]]


CANVAS = {
    "single-choice": (_canvas_options, _read_answers, _canvas_general),
    "multiple-response": (_canvas_options, _read_answers, _canvas_general),
    "true-false": (_canvas_true_false, _read_answers, _canvas_general),
    "short-answer": (_canvas_short_answer, _read_answers, _canvas_general),
    "numerical": (lambda q, lang: [(float(q.answer), round(float(q.absolute_tolerance), 12))],
                  lambda read: [(a["exact"], round(a["margin"], 12)) for a in read["answers"]], _canvas_general),
    "matching": (lambda q, lang: [(pair.prompt, pair.answer) for pair in q.pairs],
                 lambda read: [(a["left"], a["right"]) for a in read["answers"]], _canvas_general),
    # nothing to score with: Canvas reads it as an essay only without answers
    "essay": (lambda q, lang: [("essay_question",)],
              lambda read: [(read["question_type"],)] + [(a["text"],) for a in read["answers"]], _canvas_essay_general),
}
"""Per kind the Canvas export carries: what Canvas should read of each answer of a question in
the Canvas QTI 1.2 quiz (what the export says it leaves out, W663, is not expected), the same
taken from what its import read (:func:`.models.canvas_read_qti12_item`), and the general
feedback it should keep, with what that holds."""


def _canvas(banks: dict[str, Bank], tree, where, english=None) -> list[Diagnostic]:
    """The Canvas QTI 1.2 quiz (``canvas-qti12/``, the package Canvas admins import) as Canvas's
    Classic Quizzes import reads it: the package's cross-references, then each question's
    answers, weights, per-answer feedback and explanation. ``english``: the texts each language
    shows in English (``ExportOptions.english``), marked so in the package as in the expectation."""
    from ..exporters.qti12_common import item_ident
    from ..exporters.common import english_fallback

    out = []
    for lang, bank in banks.items():
        with english_fallback(english or {}, [lang]):  # the expectation marked as the package is
            name = get_format("canvas-qti12").language_file(bank.topic, lang, english)
            files = _members(tree[name])
            here = lambda member, n=name: where(f"{n}:{member}")  # noqa: E731
            by_ident = {item_ident(q.id, lang): q for q in bank.questions}
            for quiz in models.canvas_read_qti12_package(files):
                for problem in quiz["problems"]:
                    out.append(warning("W807", f"Canvas drops the quiz's settings: {problem}", here("imsmanifest.xml")))
                member = quiz["file"]
                for read in quiz["questions"]:
                    q = by_ident.get(read["migration_id"] or "")
                    if q is None:
                        continue
                    expect, read_back, general = CANVAS[q.kind]
                    expected, found = expect(q, lang), read_back(read)
                    if found != expected:
                        wrong = [str(n + 1) for n, (a, b) in enumerate(zip(found, expected)) if a != b]
                        detail = f"answer(s) {', '.join(wrong)}" if wrong and len(found) == len(expected) else f"{len(found)} answer(s) instead of {len(expected)}"
                        out.append(warning("W807", f"question {q.id}: Canvas reads another key, weight or answer feedback ({detail})", here(member)))
                    for key in ("correct_comments", "incorrect_comments"):
                        if read[key]:
                            out.append(warning("W807", f"question {q.id}: Canvas shows {read[key][:60]!r} as its {key.replace('_', ' ')} (an identifier matches its correct/incorrect pattern)", here(member)))
                    kept, what = general(q, lang)
                    if read["neutral_comments"] != kept:
                        out.append(warning("W807", f"question {q.id}: Canvas does not keep {what} as general feedback", here(member)))
    return out


_OPENOLAT_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_-]*$")


def _qti_matching_key(q):
    from ..exporters.qti_common import match_targets, ncname

    target = {text: identifier for identifier, text, _ in match_targets(q)}
    return [f"{ncname('source-' + pair.id)} {target[pair.answer]}" for pair in q.pairs]


def _choice(identifier: str) -> str:
    from ..exporters.qti_common import choice_identifier

    return choice_identifier(identifier)


QTI_KEYS = {
    "multiple-response": lambda q: [_choice(c) for c in q.right_ids()],
    "true-false": lambda q: _choice("true" if q.answer else "false"),
    "numerical": lambda q: repr(q.answer),
    "short-answer": lambda q: next(a.text for a in q.answers if a.credit >= 1) if any(a.credit >= 1 for a in q.answers) else q.answers[0].text,
    "ordering": lambda q: [_choice(item.id) for item in q.items],
    "matching": _qti_matching_key,
}
"""The right response to a QTI item of each scored kind (single choice aside: each option is
tried), as the QTI exports name it."""


def _qti(banks: dict[str, Bank], tree, where, english=None) -> list[Diagnostic]:
    out = []
    owners: dict[str, str] = {}
    for lang, bank in banks.items():
        found, identifiers, manifest = _qti_language(lang, bank, tree, where, english)
        out += found + _collisions(owners, lang, identifiers, manifest)
    return out


def _collisions(owners: dict[str, str], lang: str, identifiers: list, manifest: Location | None) -> list[Diagnostic]:
    """A warning for each of ``lang``'s package's ``identifiers`` that a language before it uses
    (``owners``: the first language that used each, to which ``lang``'s are added)."""
    out = []
    for ident in identifiers:
        if ident in owners and owners[ident] != lang:
            out.append(warning("W809", f"identifier {ident!r} is also used by the {owners[ident]} package: two languages imported into one place collide", manifest))
        owners.setdefault(ident, lang)
    return out


def _qti_language(lang: str, bank: Bank, tree, where, english=None) -> tuple[list[Diagnostic], list, Location]:
    """The findings of ``lang``'s QTI package (in ``tree``), the identifiers it uses, and where
    its manifest is."""
    out = []
    name = get_format("qti21").language_file(bank.topic, lang, english)
    files = _members(tree[name])
    here = lambda member, n=name: where(f"{n}:{member}")  # noqa: E731
    test = models.parse_xml(files["assessment.xml"])
    control = models.qti_item_session_control(test)
    if not control["showFeedback"]:
        out.append(warning("W808", "the test does not set itemSessionControl showFeedback=\"true\": players hide all modal feedback", here("assessment.xml")))
    manifest = models.parse_xml(files["imsmanifest.xml"])
    if not any(models.local(e.tag) == "lom" for e in manifest.iter()):
        out.append(warning("W808", "the manifest has no LOM metadata: players show identifiers instead of titles", here("imsmanifest.xml")))
    identifiers = [manifest.get("identifier"), test.get("identifier")] + [r.identifier for r in manifest_resources(manifest)]
    by_identifier = _questions_by_identifier(bank)
    for member, data, doc in _items(files):
        identifiers.append(doc.get("identifier"))
        stem = PurePosixPath(member).stem
        if not _OPENOLAT_NAME.match(stem):
            out.append(warning("W809", f"file name {member!r}: OpenOlat needs a letter first and no periods or spaces", here(member)))
        q = by_identifier.get(doc.get("identifier") or "")
        if q is None:
            continue
        if not q.SCORED:  # graded by a person: no response is right or wrong here
            continue
        processing = models.QtiProcessing(doc)  # (read once for every response tried)
        if not (q.PICKS_OPTIONS and q.ONE_KEY):
            score = processing.outcomes(QTI_KEYS[q.kind](q)).get("SCORE")
            if score != 1.0:
                out.append(warning("W808", f"question {q.id}: its right answer scores {score}", here(member)))
            continue
        choices = qti_descendants(doc, "simpleChoice")
        for option, choice in zip(q.options, choices):
            outcomes = processing.outcomes(choice.get("identifier"))
            if outcomes.get("SCORE") != q.score(option.id):
                out.append(warning("W808", f"question {q.id}: choosing {option.id} scores {outcomes.get('SCORE')}", here(member)))
            shown = processing.shown_feedback(outcomes)
            wanted = ([" ".join(option.feedback.split())] if option.feedback else []) + ([" ".join(q.explanation.split())] if q.explanation else [])
            if sorted(shown) != sorted(wanted):
                out.append(warning("W808", f"question {q.id}: choosing {option.id} shows {len(shown)} feedback block(s), not its feedback and the explanation", here(member)))
    return out, identifiers, here("imsmanifest.xml")
