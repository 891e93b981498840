"""What a format is: one record per format, and the virtual file tree every exporter returns.

A format either writes one file per language plus (optionally) one multilingual file, from a
``render(banks, options)`` that turns one bank (or, for the multilingual file, every language's
bank) into bytes, or lays out its own tree (``layout``). Either way each file carries its
language, so nothing downstream guesses it from the file name.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Callable, Iterable, Iterator, Mapping, Sequence

from ..errors import Diagnostic, warning
from ..kinds import NAMES as KIND_NAMES, a_kind
from ..options import ExportOptions
from .common import english_fallback, file_language

if TYPE_CHECKING:  # (the model, and with it pydantic, is imported by the writers, not by the records' names)
    from ..model import Bank, Library, Topic

ALL = "all"
"""The language of a file that holds every language (a multilingual file, a whole-bank file)."""

OPTION_NAMES = frozenset(f.name for f in fields(ExportOptions))


def file_stem(topic: Topic) -> str:
    """The start of every export file's name: the topic's ``file_stem``, else its id."""
    return topic.file_stem or topic.id


def languages(banks: Mapping[str, object]) -> list[str]:
    """Languages in export order: English first, then the others sorted."""
    return sorted(banks, key=lambda lang: (lang != "en", lang))


def as_library(bank: Bank) -> Library:
    """One topic as a whole bank of one topic (in its category), in the topic's language."""
    from ..model import Library

    return Library(categories=(bank.category,), topics=(bank,), lang=bank.lang)


def topic_banks(libraries: Mapping[str, Library]) -> list[dict[str, Bank]]:
    """Each topic of the bank as the exporters take it: its :class:`Bank` by language, in bank order."""
    if not libraries:
        return []
    first = libraries[languages(libraries)[0]]
    return [{lang: libraries[lang].bank(bank.topic.id) for lang in languages(libraries)} for bank in first.topics]


def by_category(library: Library) -> list[tuple[object, tuple[Bank, ...]]]:
    """``(category, its topics)`` for every category that has topics, in the bank's order."""
    return [(category, library.topics_in(category.id)) for category in library.categories if library.topics_in(category.id)]


WHOLE_BANK_STEM = "bank"
"""The start of the names of the whole-bank files of a bank of several topics (``bank-en.xml``)."""


_KINDS: dict[int, tuple[Bank, frozenset[str]]] = {}
"""The kinds of the questions of the banks asked about last (:func:`_kinds_of`), by the bank's
identity, with the bank (kept so that its identity is not another's)."""


def forget_kinds() -> None:
    """Drop the banks :func:`_kinds_of` keeps (a process that drops the banks it rendered from, to
    read others, frees them only then)."""
    _KINDS.clear()


def _kinds_of(bank: Bank) -> frozenset[str]:
    """The kinds of ``bank``'s questions, found once per bank: a bank and its questions are
    frozen, and every format's every piece asks about each language's bank again (twice a
    piece), each time touching every question."""
    known = _KINDS.get(id(bank))
    if known is not None and known[0] is bank:
        return known[1]
    kinds = frozenset(q.kind for q in bank.questions)
    if len(_KINDS) >= 16:  # (a few libraries' worth: a worker renders from the same few banks)
        _KINDS.clear()
    _KINDS[id(bank)] = (bank, kinds)
    return kinds


@dataclass(frozen=True)
class ExportedFile:
    """One file of an export: where it goes (relative to the format's folder), its language, its bytes."""

    path: PurePosixPath
    language: str
    """A language code, or :data:`ALL` for a file holding every language."""
    data: bytes


class ExportTree(Mapping[PurePosixPath, bytes]):
    """A format's virtual file tree: relative path → bytes, each file knowing its language."""

    def __init__(self, files: Iterable[ExportedFile]):
        self._files: dict[PurePosixPath, ExportedFile] = {}
        for file in files:
            if file.path in self._files:
                raise AssertionError(f"two files at {file.path}")  # an exporter bug, never a user's
            self._files[file.path] = file

    def __getitem__(self, path: PurePosixPath) -> bytes:
        return self._files[path].data

    def __iter__(self) -> Iterator[PurePosixPath]:
        return iter(self._files)

    def __len__(self) -> int:
        return len(self._files)

    def language(self, path: PurePosixPath) -> str:
        """The language of the file at ``path`` (:data:`ALL` for a multilingual file)."""
        return self._files[path].language

    def files(self) -> list[ExportedFile]:
        return list(self._files.values())


Render = Callable[[Sequence["Bank"], ExportOptions], bytes]
Layout = Callable[[Mapping[str, "Bank"], ExportOptions], Iterable[ExportedFile]]
RenderBank = Callable[[Sequence["Library"], ExportOptions], bytes]
BankLayout = Callable[[Mapping[str, "Library"], ExportOptions], Iterable[ExportedFile]]
Notes = Callable[[Mapping[str, "Bank"], ExportOptions], list]


@dataclass(frozen=True)
class Format:
    """Everything the build needs to know about one export format.

    ``per_language`` and ``multilingual`` are file-name templates (``{stem}`` is
    :func:`file_stem` of the topic, ``{lang}`` the language, ``de-with-en`` for a language
    whose missing texts are English fallbacks); ``render`` writes one of those
    files from the banks it holds, English first. A format whose files do not follow that
    pattern gives ``layout`` instead and writes its whole tree itself.
    """

    name: str
    """The name `bank export` takes."""
    folder: str
    """Its folder under ``exports/`` in `bank build`."""
    honours: frozenset[str]
    """The :class:`ExportOptions` fields that change what it writes."""
    writers: Mapping[str, Callable] = field(default_factory=dict, compare=False)
    """Per question kind it carries, the function that writes a question of that kind (the
    format's renderer calls it). A kind that is not here is left out of the format's files,
    with the warning ``left_out_code`` for each question of it."""
    left_out_code: str | None = "W669"
    """The warning for a question of a kind the format cannot carry (None: the format's own
    ``notes`` say what it leaves out, as Aiken's W654 does)."""
    render: Render | None = None
    per_language: str | None = None
    """The file each language gets, e.g. ``{stem}-{lang}.xml``."""
    multilingual: str | None = None
    """The file holding every language, if the format has one, e.g. ``{stem}-multilang.xml``."""
    multilingual_with_one_language: bool = False
    """Write the multilingual file even when there is only one language (a whole-bank file)."""
    layout: Layout | None = None
    notes: Notes | None = None
    """Warnings for `bank build` and `bank export`: what the format leaves out, question by question."""
    render_bank: RenderBank | None = None
    """The whole bank (every topic, in its category) in one file, from each language's
    :class:`Library`; written next to the topics' files when the bank has several topics, with
    the names ``per_language`` and ``multilingual`` give for the stem :data:`WHOLE_BANK_STEM`."""
    bank_layout: BankLayout | None = None
    """A format that lays out a bank of several topics itself (the practice site)."""
    platforms: str = ""
    """Where its files go and how they are imported, for the exports' README (Markdown)."""
    loses: str = ""
    """What the format cannot carry of any bank, for the exports' README (Markdown); what it
    leaves out of a given bank is in its ``notes``."""

    def __post_init__(self) -> None:
        assert (self.layout is None) == (self.render is not None and self.per_language is not None), self.name
        assert self.honours <= OPTION_NAMES, sorted(self.honours - OPTION_NAMES)
        assert self.writers and set(self.writers) <= set(KIND_NAMES), (self.name, sorted(set(self.writers) - set(KIND_NAMES)))

    def carries(self, question) -> bool:
        """Whether the format writes questions of ``question``'s kind."""
        return question.kind in self.writers

    def writer(self, question) -> Callable:
        """The function that writes ``question`` (of a kind the format carries)."""
        return self.writers[question.kind]

    def carried(self, bank: Bank) -> list[int]:
        """Indexes of the questions of ``bank`` whose kind the format carries."""
        writers = self.writers  # (as :meth:`carries` asks, without its call per question)
        return [index for index, question in enumerate(bank.questions) if question.kind in writers]

    def carried_bank(self, bank: Bank) -> Bank:
        """``bank`` without the questions of kinds the format does not carry (``bank`` itself
        when it carries them all)."""
        if _kinds_of(bank) <= self.writers.keys():
            return bank
        kept = tuple(q for q in bank.questions if self.carries(q))
        ids = {q.id for q in kept}
        topic = bank.topic.model_copy(update={"questions": [qid for qid in bank.topic.questions if qid in ids]})
        return bank.model_copy(update={"questions": kept, "topic": topic})

    def carried_library(self, library: Library) -> Library:
        """``library`` with each topic as :meth:`carried_bank` leaves it."""
        topics = tuple(self.carried_bank(bank) for bank in library.topics)
        if all(a is b for a, b in zip(topics, library.topics)):
            return library
        return library.model_copy(update={"topics": topics})

    def left_out(self, banks: Mapping[str, Bank]) -> list[Diagnostic]:
        """A warning (``left_out_code``) for each question, of the English bank, whose kind the
        format cannot carry."""
        if not banks or self.left_out_code is None:
            return []
        bank = banks.get("en") or next(iter(banks.values()))
        return [warning(self.left_out_code, f"{self.name}: {q.id} is {a_kind(q.kind)} question, which {self.name} cannot carry; it is left out of the export")
                for q in bank.questions if not self.carries(q)]

    def language_file(self, topic: Topic, lang: str, english: Mapping[str, object] | None = None) -> PurePosixPath:
        """Where the file of language ``lang`` goes (formats with ``per_language`` only); a
        language with English fallbacks (``english``: ``ExportOptions.english``) is named so
        (``aistack-de-with-en.xml``)."""
        return PurePosixPath(self.language_name(file_stem(topic), lang, english))

    def language_name(self, stem: str, lang: str, english: Mapping[str, object] | None = None) -> str:
        """The name of the file of language ``lang`` for ``stem`` (formats with ``per_language``
        only): ``aistack-de.xml``, or ``aistack-de-with-en.xml`` for a language with English
        fallbacks (``english``: ``ExportOptions.english``); the one place such a name is made."""
        assert self.per_language is not None, self.name
        return self.per_language.format(stem=stem, lang=file_language(lang, english or {}))

    def files(self, banks: Mapping[str, Bank], options: ExportOptions, only: str | None = None) -> list[ExportedFile]:
        """One file per language, then the multilingual file; or the format's own layout. The
        questions of a kind the format does not carry are left out before it renders. With
        ``only`` (a piece of :meth:`parts`), only that language's file, or (:data:`ALL`) only
        the multilingual file."""
        banks = {lang: self.carried_bank(bank) for lang, bank in banks.items()}
        if self.layout is not None:
            assert only is None, self.name
            with english_fallback(options.english, languages(banks)):
                return list(self.layout(banks, options))
        assert self.render is not None
        order = languages(banks)
        topic = banks[order[0]].topic
        out = []
        for lang in order:
            if only is not None and only != lang:
                continue
            with english_fallback(options.english, [lang]):
                out.append(ExportedFile(self.language_file(topic, lang, options.english), lang, self.render([banks[lang]], options)))
        if self.multilingual is not None and (len(order) > 1 or self.multilingual_with_one_language) and only in (None, ALL):
            path = PurePosixPath(self.multilingual.format(stem=file_stem(topic)))
            with english_fallback(options.english, order):
                out.append(ExportedFile(path, ALL, self.render([banks[lang] for lang in order], options)))
        return out

    def bank_files(self, libraries: Mapping[str, Library], options: ExportOptions) -> list[ExportedFile]:
        """The files of a whole bank (``libraries`` by language).

        A bank of one topic gets that topic's files, named as always (``<stem>-<lang>.xml``). A
        bank of several topics gets each topic's files under ``<topic-id>/`` and, for a format
        with ``render_bank``, the whole-bank files at the top (``bank-<lang>.xml``)."""
        return list(self.each_bank_file(libraries, options))

    def each_bank_file(self, libraries: Mapping[str, Library], options: ExportOptions) -> Iterator[ExportedFile]:
        """:meth:`bank_files` one file at a time, each rendered only once the one before was
        taken: a caller that writes and drops each file holds one file's bytes, not the whole
        format's (a bank of many topics: every topic's files, then the whole-bank files, in the
        same bytes again; 311 MB of Moodle XML at 10 000 questions in 100 topics × 3 languages).
        A topic's own files are rendered together (:meth:`files`), as is the practice site's
        layout."""
        libraries = {lang: self.carried_library(library) for lang, library in libraries.items()}
        if self.bank_layout is not None and len(next(iter(libraries.values())).topics) > 1:
            with english_fallback(options.english, languages(libraries)):
                site = list(self.bank_layout(libraries, options))
            yield from site
            return
        per_topic = topic_banks(libraries)
        if len(per_topic) == 1:
            yield from self.files(per_topic[0], options)
            return
        for banks in per_topic:
            yield from self._topic_files(banks, options)
        if self.render_bank is not None and self.per_language is not None:
            order = languages(libraries)
            for lang in order:
                yield ExportedFile(PurePosixPath(self.language_name(WHOLE_BANK_STEM, lang, options.english)), lang, self._whole_bank([libraries[lang]], [lang], options))
            if self.multilingual is not None and (len(order) > 1 or self.multilingual_with_one_language):
                yield ExportedFile(PurePosixPath(self.multilingual.format(stem=WHOLE_BANK_STEM)), ALL, self._whole_bank([libraries[lang] for lang in order], order, options))

    def _topic_files(self, banks: Mapping[str, Bank], options: ExportOptions) -> Iterator[ExportedFile]:
        """The files of one topic of a bank of several (``banks`` by language), under ``<topic-id>/``."""
        prefix = PurePosixPath(next(iter(banks.values())).topic.id)
        for file in self.files(banks, options):
            yield ExportedFile(prefix / file.path, file.language, file.data)

    def _whole_bank(self, libraries: list[Library], order: list[str], options: ExportOptions) -> bytes:
        """The whole-bank file of the languages ``order`` (``libraries``, in that order)."""
        assert self.render_bank is not None
        with english_fallback(options.english, order):
            return self.render_bank(libraries, options)

    def parts(self, langs: Sequence[str], topics: int) -> list[str | None]:
        """The pieces in which :meth:`bank_files` can be rendered, each on its own
        (:meth:`part_files`), in the order of its files: for a bank of one topic (``topics``) in
        a format of one file per language, each language of ``langs`` (in export order), then
        :data:`ALL` for the multilingual file if the format writes one; otherwise one piece,
        None: every file."""
        if self.layout is not None or self.render is None or topics != 1:
            return [None]
        order = languages(dict.fromkeys(langs))
        return [*order, *([ALL] if self.multilingual is not None and (len(order) > 1 or self.multilingual_with_one_language) else [])]

    def part_languages(self, part: str | None, langs: Sequence[str]) -> list[str]:
        """The languages of ``langs`` whose libraries piece ``part`` of :meth:`parts` is
        rendered from: a language's file from that language's alone (:meth:`part_files` gives
        the same files from it as from every language), the multilingual file or every file
        (None) from all."""
        return [part] if part in langs else list(langs)

    def part_files(self, libraries: Mapping[str, Library], options: ExportOptions, part: str | None) -> list[ExportedFile]:
        """The files of piece ``part`` of :meth:`parts` (None: :meth:`bank_files`, every file)."""
        return list(self.each_part_file(libraries, options, part))

    def each_part_file(self, libraries: Mapping[str, Library], options: ExportOptions, part: str | None) -> Iterator[ExportedFile]:
        """:meth:`part_files` one file at a time, as :meth:`each_bank_file` gives them."""
        if part is None:
            yield from self.each_bank_file(libraries, options)
            return
        (banks,) = topic_banks({lang: self.carried_library(library) for lang, library in libraries.items()})
        yield from self.files(banks, options, only=part)

    def __call__(self, banks: Mapping[str, Bank], options: ExportOptions) -> ExportTree:
        """The format's virtual file tree for ``banks`` (by language); nothing is written."""
        return ExportTree(self.files(banks, options))
