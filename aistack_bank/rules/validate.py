"""`bank validate`: every rule over the whole bank, all problems collected in one run."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from .checks import check_diagnostics
from .cues import AnswerCueStats, answer_cue_stats, cue_stats, cue_warnings
from ..errors import Diagnostic, Location, Severity, error, warning
from ..kinds import item_id_rules, kind_rules, slug_of
from .lints import content_lints, file_leak_texts, file_summary, question_reference_lints, summary_of
from ..load import CATEGORIES_FILE, QUESTIONS_DIR, BankSource, LibrarySource, QuestionSource, is_topic_folder, read_bank, read_library
from .quantities import parity_sides

if TYPE_CHECKING:
    from ..i18n.catalog import Catalogs

ONE_LINE_FIELDS = ("title",)
"""Topic fields that go into line-based contexts (GIFT ``$CATEGORY:`` and ``//`` lines, comments);
category titles are one line too."""

@dataclass
class ValidationReport:
    """What `bank validate` found."""

    source: LibrarySource
    diagnostics: list[Diagnostic]
    cues: AnswerCueStats
    bank_part: tuple | None = None
    """With the stores, for a whole bank with catalogs: (the bank's own diagnostics, in the order
    found, and, when none is an error, :func:`~aistack_bank.cache.catalogs.bank_share` of it,
    else None), what :mod:`aistack_bank.cache.validation` keeps under the digest of the bank's
    files alone."""

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity is Severity.ERROR]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity is Severity.WARNING]


def _inside(diagnostic: Diagnostic, folder: Path) -> bool:
    from ..errors import display_path

    if diagnostic.location is None:
        return False
    prefix = display_path(folder).rstrip("/") + "/"
    return diagnostic.location.path.startswith(prefix)


def validate_bank(root: Path, *, translations: Path | None = None, run_checks: bool = True, catalogs: Catalogs | None = None, use_cache: bool = False,
                  walked=None, one_catalog: bool = False, meanwhile=None, bank_read=None, unknown_catalogs: frozenset[str] | None = None,
                  workers=None) -> ValidationReport:
    """Read the bank at ``root`` and apply every rule; never raises for content mistakes.

    ``root`` is a bank folder, or one topic folder of a bank (`bank/<topic-id>/`): then the whole
    bank is read (ids must be unique across it) and only the problems located in that topic are
    reported, without the catalogs. Catalogs are read through ``catalogs`` when given, so that
    the caller can localize from the same reads. With ``use_cache``, each question file's own
    verdict and each catalog's are taken from the per-file stores (:mod:`aistack_bank.cache.questionfiles`)
    when their inputs are byte for byte those of a stored one; ``walked(path)`` gives the digest
    of a question file that the verdict's input digest just took, to look its verdict up with
    (:attr:`~aistack_bank.cache.questionfiles.QuestionFiles.walked`).

    For a large bank the catalogs are verified in worker processes forked before the bank is
    read (:class:`~aistack_bank.parallel.Workers`), so that they do not hold its pages, unless
    ``one_catalog`` (the caller's input digest found no input changed since its latest run but
    one catalog, at most: :func:`~aistack_bank.cache.validation.edited_catalog_only`): that
    catalog is then verified again in this process, for the owners of the entries the edit
    touched, and the others' verdicts are kept; should more work turn up (a stored verdict
    gone), it runs as without workers, with the same diagnostics. Without
    ``catalogs`` (nothing is localized after), the records of a bank of many question files
    are kept in a spill file as they are read (:class:`~aistack_bank.cache.questionfiles.Spill`),
    not in memory, and the workers read them from it a part at a time, a large catalog a piece
    at a time (:func:`~aistack_bank.i18n.verify.verify_streamed`).

    ``meanwhile(source)``, when given, is called once with the read bank when the catalogs are
    verified (a bank without errors), while the catalogs' workers verify when they do.
    ``bank_read()``, when given, is called once when nothing of this validation reads a file of
    the bank folder any more (after the question files' reads and the lints: while the catalogs'
    workers verify when they do): the caller's check that none of them changed since its input
    digest (:func:`~aistack_bank.cache.validation.input_digest`).

    The catalogs' workers, once forked, each read a catalog at once (while the bank is read:
    :func:`~aistack_bank.i18n.verify.read_early`), of those in ``unknown_catalogs`` (absolute
    paths: the caller's guess of those without a stored verdict; None: all of them).
    ``workers``: the catalogs' workers the caller forked already, before its input digest, each
    reading a catalog (:func:`early_workers`; the caller ends them): used instead of forking."""

    from ..parallel import Workers

    root = Path(root)
    only = root if is_topic_folder(root) else None
    # the catalogs' workers forked now, before the bank is read, when the catalogs are large
    # enough to be verified in parallel (see verify_catalogs)
    wanted = only is None and translations is not None and catalogs is None and not (use_cache and one_catalog)
    if workers is not None and workers.started:
        # (forked by the caller, their early reads sent: left idle, and ended by the caller,
        # should this validation have nothing for them)
        return _validate_bank(root, only, translations=translations, run_checks=run_checks, catalogs=catalogs, use_cache=use_cache,
                              workers=workers if wanted else Workers(False), walked=walked, meanwhile=meanwhile, bank_read=bank_read)
    with Workers(wanted and catalog_bytes(translations) >= POOL_MIN_CATALOG_BYTES, imports=WORKER_IMPORTS) as workers:
        if wanted and workers.started:
            from ..i18n.verify import read_early

            read_early(workers, translations, use_cache, unknown_catalogs)
        return _validate_bank(root, only, translations=translations, run_checks=run_checks, catalogs=catalogs, use_cache=use_cache, workers=workers,
                              walked=walked, meanwhile=meanwhile, bank_read=bank_read)


WORKER_IMPORTS = ("aistack_bank.i18n.verify", "aistack_bank.i18n.extract", "aistack_bank.i18n.stream", "aistack_bank.i18n.typography",
                  "aistack_bank.cache.questionfiles", "aistack_bank.cache.catalogs")
"""What the catalogs' workers import to verify a catalog (and the question files' workers, forked
later, to check a file): imported in the parent before the catalogs' workers are forked, once,
rather than in each worker after (the parent imports all but the catalog stream's and the
typography's modules itself later). A cold validate of the 10 000-question bank imported these
in each of its four workers."""

POOL_MIN_CATALOG_BYTES = 4_000_000
"""Least size of a bank's catalogs together for which :func:`validate_bank` forks the catalogs'
workers before reading the bank: about the size of two catalogs of 10 000 entries, the work
(fields × catalogs) from which the catalogs are verified in parallel (:data:`~aistack_bank.parallel.POOL_MIN_WORK`)."""


def early_workers(translations: Path):
    """The catalogs' workers (:class:`~aistack_bank.parallel.Workers`, as :func:`validate_bank`
    forks them) forked now, each reading a catalog of ``translations`` at once
    (:func:`~aistack_bank.i18n.verify.read_early`, every catalog read whole), for a caller that
    knows no verdict of this validation can be stored (a cold run: see
    :func:`~aistack_bank.cache.validation.validate_cached`), to be given to
    :func:`validate_bank` after its input digest: their reads run beside that digest instead of
    after it. None (nothing made: the caller goes on as without it, and :func:`validate_bank`
    decides as ever) when the workers could not start (one process for cold work), the catalogs
    are too small for them, or none of them is read whole; when they could not be forked, a
    :class:`~aistack_bank.parallel.Workers` not started."""
    from ..parallel import Workers, jobs

    if jobs() < 2 or catalog_bytes(translations) < POOL_MIN_CATALOG_BYTES:
        return None
    from ..i18n.verify import early_paths, read_early

    if not early_paths(translations):
        return None
    workers = Workers(True, imports=WORKER_IMPORTS)
    if workers.started:
        try:
            read_early(workers, translations, True)
        except BaseException:
            workers.close()  # (none left behind: the caller has not taken them yet)
            raise
    return workers


def catalog_bytes(translations: Path) -> int:
    """The size of the catalogs (``*.po``) in ``translations`` together (0 when unreadable)."""
    import os

    total = 0
    try:
        with os.scandir(translations) as found:
            for entry in found:
                if entry.name.endswith(".po") and entry.is_file(follow_symlinks=False):
                    total += entry.stat(follow_symlinks=False).st_size
    except OSError:
        return 0
    return total


def _validate_bank(root: Path, only: Path | None, *, translations: Path | None, run_checks: bool, catalogs: Catalogs | None, use_cache: bool, workers,
                   walked=None, meanwhile=None, bank_read=None) -> ValidationReport:
    from ..cache.questionfiles import QuestionFiles

    # A large bank's records go to a spill file as they are read (the catalogs' workers read
    # them there), unless the caller goes on to localize the bank (it passes its catalogs).
    # With the catalogs' workers, the question files' stores are written while they verify.
    checked = QuestionFiles(question_file_rules, run_checks=run_checks, use_cache=use_cache, spill=catalogs is None, texts=file_leak_texts,
                           walked=walked, later=workers.started)
    try:
        return _validate_read(root, only, checked, translations=translations, run_checks=run_checks, catalogs=catalogs, use_cache=use_cache, workers=workers,
                              meanwhile=meanwhile, bank_read=bank_read)
    finally:
        checked.close()


def _validate_read(root: Path, only: Path | None, checked, *, translations: Path | None, run_checks: bool, catalogs: Catalogs | None, use_cache: bool, workers,
                   meanwhile=None, bank_read=None) -> ValidationReport:
    source = read_library(root.parent if only is not None else root, read_topics=checked.read_topics, topic_reader=checked.read_topic)
    diags = list(source.diagnostics)
    diags += checked.rule_diagnostics()  # each file's own rules and numeric check
    diags += library_rules(source, cross_file_only=True)
    linted: list[Diagnostic] = []
    done: list[bool] = []

    def lint() -> None:
        """The topics' answer-leak lint and answer-cue warnings (warnings only), once; then
        ``bank_read()``: nothing after reads the bank's files (the catalogs' verification reads
        the records read, the translations' folder and the cache's files)."""
        if done:
            return
        done.append(True)
        import gc

        for topic in source.topics:
            if only is not None and topic.root != only:
                continue
            # (the collector paused over each topic's lints: what they make, its texts listed
            # and its keys indexed, is gone when they end but for their warnings, so a
            # collection meanwhile would walk it for nothing)
            paused = gc.isenabled()
            gc.disable()
            try:
                linted.extend(content_lints(topic, references=False, memo=use_cache))  # W320/W321 are rules of each file
                if topic.topic is not None:
                    linted.extend(cue_warnings(summary_cue_stats(topic.questions), Location.of(topic.topic_path)))
            finally:
                if paused:
                    gc.enable()
        if bank_read is not None:
            bank_read()

    # The catalogs are verified only for a bank without errors; the lints above give none, so
    # with the catalogs' workers the lints run here while the workers verify (see
    # verify_catalogs: ``meanwhile``), their findings listed before the catalogs' as before.
    if only is not None:
        translations = None
    found: list[Diagnostic] = []
    share = None
    if translations is not None and not any(d.severity is Severity.ERROR for d in diags):
        from ..i18n.verify import verify_catalogs

        if use_cache and catalogs is None:
            from ..cache.catalogs import bank_share

            share = bank_share(source)

        def during() -> None:
            """The question files' stores written, the caller's work on the read bank (see
            validate_bank), then the lints."""
            checked.save_stores()  # (their records dropped first)
            if meanwhile is not None:
                meanwhile(source)
            lint()

        found = verify_catalogs(source, translations, run_checks=run_checks, catalogs=catalogs, use_cache=use_cache, workers=workers,
                                share=share[0] if share is not None else None, meanwhile=during, last=True)  # (validate_bank's workers do nothing after)
    lint()
    diags += linted
    questions = source.questions if only is None else [qs for t in source.topics if t.root == only for qs in t.questions]
    cues = summary_cue_stats(questions)
    if only is not None:
        diags = [d for d in diags if _inside(d, only)]
    # the bank's own verdict (kept apart when the cache is used: see cache.validation)
    bank_part = (list(diags), share) if translations is not None and use_cache and catalogs is None else None
    diags += found
    diags.sort(key=Diagnostic.sort_key)
    return ValidationReport(source=source, diagnostics=diags, cues=cues, bank_part=bank_part)


def summary_cue_stats(questions: list[QuestionSource]) -> AnswerCueStats:
    """:func:`~.cues.answer_cue_stats` of the questions with a model, from their summaries."""
    summaries = [summary_of(qs) for qs in questions]
    return cue_stats(s.cue for s in summaries if s.question_id is not None)


def library_rules(source: LibrarySource, *, cross_file_only: bool = False) -> list[Diagnostic]:
    """The rules within each topic, and across topics and categories (of the question files'
    rules, only those across files with ``cross_file_only``)."""
    diags: list[Diagnostic] = []
    doc = source.categories_doc
    # categories: unique ids, one-line titles, each used by a topic
    seen_categories: dict[str, int] = {}
    for index, category in enumerate(source.categories):
        if category.id in seen_categories and doc is not None:
            first = doc.locate(("categories", seen_categories[category.id], "id"))
            diags.append(error("E316", f"category id {category.id!r} is used twice (first at line {first.line})", doc.locate(("categories", index, "id"))))
            continue
        seen_categories[category.id] = index
        if "\n" in category.title and doc is not None:
            diags.append(error("E116", "a category title must be one line: it becomes a GIFT `$CATEGORY` line and a comment line", doc.locate(("categories", index, "title"))))
    used = {t.topic.category if t.topic is not None else (t.topic_doc.data or {}).get("category")
            for t in source.topics if t.topic is not None or (t.topic_doc is not None and isinstance(t.topic_doc.data, dict))}
    for category_id, index in seen_categories.items():
        if category_id not in used and doc is not None:
            diags.append(warning("W303", f"category {category_id!r} has no topic; give a topic `category: {category_id}` or remove the category", doc.locate(("categories", index, "id"))))
    # topics: unique ids, folder named after the id, a known category
    seen_topics: dict[str, BankSource] = {}
    for topic in source.topics:
        if topic.topic is None or topic.topic_doc is None:
            continue
        tdoc = topic.topic_doc
        if topic.topic.id in seen_topics:
            other = seen_topics[topic.topic.id]
            diags.append(error("E315", f"topic id {topic.topic.id!r} is also the id of {Location.of(other.topic_path)}; every topic needs its own id", tdoc.locate(("id",))))
        else:
            seen_topics[topic.topic.id] = topic
        if topic.root.name != topic.topic.id:
            diags.append(error("E317", f"topic id {topic.topic.id!r} differs from its folder name {topic.root.name!r}; rename the folder to {topic.topic.id}/ (git mv) or fix the id", tdoc.locate(("id",))))
        if topic.topic.category not in seen_categories and source.categories_doc is not None:
            known = ", ".join(seen_categories) or "none"
            diags.append(error("E314", f"category {topic.topic.category!r} is not in {CATEGORIES_FILE} (known: {known})", tdoc.locate(("category",))))
    # questions: ids unique across the bank, each listed by exactly one topic, in its folder
    first_seen: dict[str, QuestionSource] = {}
    file_topic: dict[str, BankSource] = {}
    for topic in source.topics:
        for qs in topic.questions:
            qid = summary_of(qs).question_id
            if qid is not None:
                file_topic.setdefault(qid, topic)
    listed_by: dict[str, BankSource] = {}  # the first topic that lists each question
    for topic in source.topics:
        if topic.topic is not None and topic.topic_doc is not None:
            for qid in topic.topic.questions:
                listed_by.setdefault(qid, topic)
    for topic in source.topics:
        diags += question_rules(topic, first_seen=first_seen, cross_file_only=cross_file_only)
        diags += topic_rules(topic, listed_by=listed_by, file_topic=file_topic)
    return diags


def question_rules(source: BankSource, *, first_seen: dict[str, QuestionSource] | None = None, cross_file_only: bool = False) -> list[Diagnostic]:
    """Rules within each question file of a topic and across question files (``first_seen`` is
    shared across the topics of a bank, so that ids are unique in the whole bank). Only those
    across files with ``cross_file_only``: :func:`question_file_rules` gives the others, file by file."""
    diags: list[Diagnostic] = []
    vocabulary = set(source.topic.tags) if source.topic is not None else None
    first_seen = {} if first_seen is None else first_seen
    for qs in source.questions:
        if cross_file_only:  # from the file's summary: its record is read only to locate a finding
            summary = summary_of(qs)
            if not summary.located:
                continue
            if summary.question_id in first_seen:
                other = first_seen[summary.question_id]
                diags.append(error("E302", f"id {summary.question_id!r} is also used by {Location.of(other.path)}", qs.doc.locate(("id",))))
            else:
                first_seen[summary.question_id] = qs
            continue
        question, doc = qs.question, qs.doc
        if question is None or doc is None:
            continue
        if question.id in first_seen:
            other = first_seen[question.id]
            diags.append(error("E302", f"id {question.id!r} is also used by {Location.of(other.path)}", doc.locate(("id",))))
        else:
            first_seen[question.id] = qs
        diags += _own_rules(qs, question, doc, vocabulary, source)
    return diags


def _own_rules(qs: QuestionSource, question, doc, vocabulary: set[str] | None, source) -> list[Diagnostic]:
    """The rules of one question file of :func:`question_rules` past E302 (``source``: its topic
    folder, a :class:`~aistack_bank.load.BankSource` or what has its ``topic_path``)."""
    diags: list[Diagnostic] = []
    name = qs.path.name
    if slug_of(name) is None:
        diags.append(error("E310", f"file name {name!r} is not `<id>-<slug>.yaml` (e.g. {question.id}-short-slug.yaml, lowercase words joined by hyphens)", Location.of(qs.path)))
    elif not name.startswith(question.id + "-"):
        diags.append(error("E301", f"id {question.id!r} does not match the file name {name!r}; rename the file to {question.id}-{slug_of(name)}.yaml or fix the id", doc.locate(("id",))))
    if question.explanation is None:
        diags.append(warning("W310", f"{question.id} has no explanation: learners get no general feedback after answering; write two to four sentences on why the key is right", doc.locate(("id",))))
    diags += kind_rules(question, doc)
    if vocabulary is not None:
        for index, tag in enumerate(question.tags):
            if tag not in vocabulary:
                diags.append(error("E309", f"tag {tag!r} is not in the vocabulary of {Location.of(source.topic_path)} ({', '.join(sorted(vocabulary))})", doc.locate(("tags", index))))
    return diags


def question_file_rules(qs: QuestionSource, root: Path, topic, run_checks: bool) -> list[Diagnostic]:
    """The rules of one read question file on its own (with its topic's tag vocabulary), and
    its numeric check: what a file's cached verdict keeps (see :mod:`aistack_bank.cache.questionfiles`)."""
    if qs.question is None or qs.doc is None:
        qs.summary = file_summary(qs)
        return []
    # question_rules of a topic of this one file (no other file: no E302), without the topic's
    # source made and its tags' set made again for every file (kept for the latest topic)
    diags = _own_rules(qs, qs.question, qs.doc, _vocabulary(topic), _TopicPath(root))
    qs.derived["fields"] = _question_fields()(qs.question, qs.doc, qs.path)  # kept with the file's record
    diags += question_reference_lints(qs.question, qs.doc, qs.derived["fields"])
    # the English side of the catalogs' parity checks, made once here for every language
    qs.derived["parity"] = parity_sides([field.text for field in qs.derived["fields"]])
    # what the catalogs' checks read of its model, as plain data (a catalog worker restores no model)
    qs.derived["catalog"] = _catalog_view()(qs.question)
    qs.summary = file_summary(qs)  # kept apart from it
    if run_checks and qs.question.check is not None:
        diags += check_diagnostics(qs)
    return diags


def _vocabulary(topic) -> set[str] | None:
    """``set(topic.tags)`` (None without a topic), made once for the latest topic and tags
    objects (a worker's files share their topic's; a topic is a frozen model, and nothing
    changes its tags in place)."""
    if topic is None:
        return None
    tags = topic.tags
    kept = _vocabulary_kept
    if not kept or kept[0] is not topic or kept[1] is not tags:
        kept[:] = [topic, tags, set(tags)]  # (both held, so that neither's id is taken by another)
    return kept[2]


_vocabulary_kept: list = []
"""The latest topic given to :func:`_vocabulary`, its tags and their set."""


class _TopicPath:
    """What :func:`_own_rules` reads of a topic folder: its ``topic_path`` (as
    :attr:`~aistack_bank.load.BankSource.topic_path`), made only for a message."""

    __slots__ = ("root",)

    def __init__(self, root: Path) -> None:
        self.root = root

    @property
    def topic_path(self) -> Path:
        return BankSource(root=self.root).topic_path


@lru_cache(maxsize=None)
def _question_fields():
    """:func:`~aistack_bank.i18n.fields.question_fields`, imported once (a ``from`` import in
    :func:`question_file_rules` went through importlib's Python code on every file)."""
    from ..i18n.fields import question_fields

    return question_fields


@lru_cache(maxsize=None)
def _catalog_view():
    """:func:`~aistack_bank.i18n.catalogview.catalog_view`, imported once, as :func:`_question_fields`."""
    from ..i18n.catalogview import catalog_view

    return catalog_view


def topic_rules(source: BankSource, *, listed_by: dict[str, BankSource] | None = None, file_topic: dict[str, BankSource] | None = None) -> list[Diagnostic]:
    """The topic lists every question file of its folder exactly once and nothing else.

    Across a bank, ``listed_by`` (shared) records which topic listed each question first, and
    ``file_topic`` which topic folder holds each question file."""
    topic, doc = source.topic, source.topic_doc
    if topic is None or doc is None:
        return []
    listed_by = {} if listed_by is None else listed_by
    file_topic = {} if file_topic is None else file_topic
    diags = []
    for name in ONE_LINE_FIELDS:
        if "\n" in getattr(topic, name):
            diags.append(error("E116", f"{name} must be one line: it becomes a GIFT `$CATEGORY` line and a comment line", doc.locate((name,))))
    diags += item_id_rules(topic.key_points, "key_points", "key point", doc)
    summaries = [(qs, summary_of(qs)) for qs in source.questions]
    on_disk = {s.question_id for qs, s in summaries if s.question_id is not None}
    unreadable = {qs.path.name.split("-", 1)[0] for qs, s in summaries if s.question_id is None}
    seen: dict[str, int] = {}
    for index, qid in enumerate(topic.questions):
        if qid in seen:
            diags.append(error("E308", f"{qid} is listed twice (first at line {doc.locate(('questions', seen[qid])).line})", doc.locate(("questions", index))))
            continue
        seen[qid] = index
        other = listed_by.get(qid)
        if other is not None and other is not source:
            where = other.topic_doc.locate(("questions", other.topic.questions.index(qid)))
            diags.append(error("E313", f"{qid} is also listed in {where}; a question belongs to one topic: remove it from one of the two", doc.locate(("questions", index))))
            continue
        listed_by.setdefault(qid, source)
        if qid not in on_disk and qid not in unreadable:
            home = file_topic.get(qid)
            if home is not None and home is not source:
                diags.append(error("E318", f"{qid} is listed here but its file is in {Location.of(home.root / QUESTIONS_DIR)}/; move the file into {Location.of(source.root / QUESTIONS_DIR)}/ (git mv), or list it in {Location.of(home.topic_path)} instead", doc.locate(("questions", index))))
            else:
                diags.append(error("E306", f"{qid} is listed but there is no {QUESTIONS_DIR}/{qid}-<slug>.yaml in {Location.of(source.root)}", doc.locate(("questions", index))))
    grouped: dict[str, int] = {}
    for g, group in enumerate(topic.groups):
        for i, qid in enumerate(group.questions):
            where = doc.locate(("groups", g, "questions", i))
            if qid not in seen:
                diags.append(error("E380", f"group {g + 1} names {qid}, which this topic does not list; a group holds questions of its own topic", where))
            elif qid in grouped:
                diags.append(error("E380", f"{qid} is already in group {grouped[qid] + 1}; a question belongs to one group at most (merge the two groups)", where))
            else:
                grouped[qid] = g
    for qs, s in summaries:
        if s.question_id is not None and s.question_id not in seen:
            lister = listed_by.get(s.question_id)
            if lister is not None and lister is not source:
                continue  # E318, at the topic that lists it
            diags.append(error("E307", f"{s.question_id} is not listed in the `questions:` of {Location.of(source.topic_path)} (nor of any other topic)", Location.of(qs.path, 1, 1) if qs.doc is None else qs.doc.locate(("id",))))
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
        last = LibrarySource(root=root.parent, topics=[source], diagnostics=list(source.diagnostics))
        diags += [d for d in source.diagnostics if d.code != "E311"]
        diags += question_rules(source)
        diags += content_lints(source)  # leaks only among the given files
        if source.topic is not None:
            listed = set(source.topic.questions)
            for qs in source.questions:
                if qs.question is not None and qs.question.id not in listed:
                    diags.append(error("E307", f"{qs.question.id} is not listed in the `questions:` of {Location.of(source.topic_path)}", qs.doc.locate(("id",))))
        for qs in source.questions:
            if qs.question is not None:
                questions.append(qs.question)
                if qs.question.check is not None:
                    diags += check_diagnostics(qs)
    diags.sort(key=Diagnostic.sort_key)
    return ValidationReport(source=last, diagnostics=diags, cues=answer_cue_stats(questions))
