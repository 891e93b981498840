"""Question files read and checked one by one, each from its cached verdict when it has one.

:class:`QuestionFiles` is what :func:`aistack_bank.load.read_bank` calls to read the question
files of a bank (its ``read_files`` hook). For each file it gives the same record and
diagnostics as :func:`~aistack_bank.load.read_question`, and keeps aside what the file's own
rules found (``rules``: the rules that look at one file and its topic's tag vocabulary, and
its numeric check). Both come from the per-file store (:mod:`aistack_bank.cache.store`) when the
file's bytes, its path, the working directory, the package (version and source), the tag
vocabulary and the options are exactly those of a stored verdict; otherwise the file is read
and checked now, and, when many files are, in a process pool over the cores
(:mod:`aistack_bank.parallel`). Rules across files (duplicate ids, the topic's list, leaks,
answer cues) always run on the whole bank: they are cheap next to reading.

A rule added to ``rules`` that reads more of the topic than its tags must add it to the key
(:meth:`QuestionFiles.key`).
"""

from __future__ import annotations

import copyreg
import gc
import importlib
import io
import os
import pickle
import sys
from functools import partial
from pathlib import Path, PurePath
from types import FunctionType
from typing import Any, Callable

from ..errors import Diagnostic
from .store import SplitStore, Store, content_digest, file_digest, key_of, read_at
from ..load import FileSummary, QuestionSource, read_question
from ..parallel import jobs, run_each
from ..safety import folders_settled
from ..yamlsource import YamlDocument, document_of_text, from_text

FILE_POOL_MIN = 1500
"""Question files to read and check before a process pool pays for itself (measured on 2 cores)."""

FILE_CHUNK_MAX = 250
"""Most question files read and checked by one task of the pool: a task's results travel back
to the parent together, and are written out before the next ones arrive."""

SPILL_MIN_FILES = 2000
"""Question files read together from which :class:`QuestionFiles` with ``spill`` keeps each
record in a :class:`Spill` file instead of in memory (a 100 000-question bank holds about
2.7 GB of records)."""

RECENT_RECORDS = 512
"""Spilled records kept unpickled, the latest used first: the questions of a topic, which the
rules of a topic read together."""

TEXTS_READ_AHEAD = 1 << 17
"""Bytes of a run of files' texts in a :class:`Spill` file read at once (:meth:`Spill.read_texts`):
the answer-leak rule reads the texts of a topic's files one after the other, which a worker
wrote one after the other."""

Rules = Callable[[QuestionSource, Path, Any, bool], list[Diagnostic]]
Texts = Callable[[QuestionSource], Any]


class QuestionFiles:
    """Reads question files through the per-file store; :meth:`rule_diagnostics` gives what
    the files' own rules found, in the order the files were read."""

    def __init__(self, rules: Rules, *, run_checks: bool = True, use_cache: bool = True, spill: bool = False, texts: Texts | None = None,
                 walked: Callable[[Path], str | None] | None = None, later: bool = False) -> None:
        self.rules = rules
        self._later: list[SplitStore] | None = [] if later else None
        """With ``later``: the store of the topic whose files were done last, written by
        :meth:`save_stores` (or :meth:`close`) instead of at once (the caller then has other
        processes' work to wait for, beside which it is written); each other topic's is written
        as soon as the next topic's files are done (one topic's records held at most, as
        before)."""
        self.walked = walked
        """``walked(path)``: the content digest the verdict's input digest just took of a question
        file (:meth:`aistack_bank.cache.validation.StatMemo.walked`), or None: the key its stored
        verdict is looked up with, without looking at the file again (a verdict computed now is
        kept only under a digest of the bytes it was computed from)."""
        self.texts = texts
        """What a rule across files reads of a file checked in this run (``texts(record)``, after
        its own rules), pickled apart by the worker, sent back with its verdict and kept beside
        its record for the run, in the spill file when the records are
        (:attr:`StoredQuestion.texts`): that rule then reads a few strings instead of unpickling
        the record. Not stored."""
        self.run_checks = run_checks
        self.use_cache = use_cache
        self._rule_diags: list[Diagnostic] = []
        self._hashers: dict[tuple, Any] = {}
        self.spill_wanted = spill
        self.spill: Spill | None = None
        """Where the records are, when they were spilled (see :class:`Spill`)."""

    def rule_diagnostics(self) -> list[Diagnostic]:
        return list(self._rule_diags)

    def key(self, path: Path, root: Path, topic: Any, project: Path | None = None, *, lookup: bool = False) -> str | None:
        """The key of a file's verdict in the store (None: not cached); with ``lookup``, the key
        to look it up with (from :attr:`walked` when it has the file), never one to keep it under."""
        if not self.use_cache:
            return None
        digest = (lookup and self.walked is not None and self.walked(path)) or file_digest(path)
        if digest is None:
            return None
        return f"{self._shared(root, topic, project)}{path}\0{digest}"

    def _shared(self, root: Path, topic: Any, project: Path | None) -> str:
        """The start of the keys of a topic's files: the digest of the parts they share, taken
        once per topic (the topic object is kept with it, so that its id names no other
        object); the file's path and content digest follow as they are (no path holds a NUL)."""
        known = self._hashers.get((id(topic), root, project))
        if known is None or known[0] is not topic:
            vocabulary = tuple(sorted(topic.tags)) if topic is not None else None
            shared = (str(root), str(project), vocabulary, self.run_checks, RECORD_HEAD)
            known = self._hashers[(id(topic), root, project)] = (topic, key_of("question-file", *shared) + "\0")
        return known[1]

    def _lookup_keys(self, paths: list[Path], root: Path, topic: Any, project: Path | None) -> list[str | None]:
        """:meth:`key` with ``lookup`` of each of a topic's files, in one pass."""
        walked = self.walked
        if not self.use_cache or walked is None:
            return [self.key(path, root, topic, project, lookup=True) for path in paths]
        shared = self._shared(root, topic, project)
        keys = []
        for path in paths:
            digest = walked(path)
            keys.append(f"{shared}{path}\0{digest}" if digest else self.key(path, root, topic, project))
        return keys

    def _checked(self, path: Path, root: Path, topic: Any, project: Path | None, *, stored: bool) -> tuple[tuple, QuestionSource]:
        """((summary, read diagnostics, rule diagnostics, pickled record or None, pickled texts
        or None, content digest of the bytes read or None), the record itself): read and checked
        in this process, the record is used as it is, and pickled only to be stored (``stored``;
        its texts only then, and the digest of the bytes it was computed from only for the
        store: the key a verdict computed now may be kept under, see :meth:`read_topics`)."""
        read: list[bytes] = []
        qs, read_diags = read_question(path, root=root, project=project, read=read.append if stored and self.use_cache else None)
        rule_diags = self.rules(qs, root, topic, self.run_checks)
        summary, qs.summary = qs.summary, None
        record = _dumped(qs) if stored else None
        texts = pickle.dumps(self.texts(qs), protocol=pickle.HIGHEST_PROTOCOL) if stored and self.texts is not None else None
        digest = content_digest(read[0]) if len(read) == 1 else None
        return (summary, read_diags, rule_diags, record, texts, digest), qs

    def _chunk(self, items: list[tuple[Path, Path, Any, Path | None]]) -> list[bytes]:
        """The stored form of each file's verdict (as a worker process returns it); with a spill file,
        the records and texts of the files are written there together, here, and each verdict
        carries where its record and texts are instead of their bytes (the parent never holds
        them: :meth:`read_topics`). Nothing here changes the working folder: it is looked up
        once for the chunk, not for each file (:func:`~aistack_bank.safety.folders_settled`)."""
        with folders_settled(working_folder_kept=True):
            found = [self._checked(*item, stored=True)[0] for item in items]
        if self.spill is not None:
            found = self.spill.append_verdicts(found)
        return [pickle.dumps(verdict, protocol=pickle.HIGHEST_PROTOCOL) for verdict in found]

    def _compute(self, items: list[tuple[Path, Path, Any, Path | None]]):
        """(stored form, its values, record) of each (path, topic folder, topic, project),
        yielded in order; in the process pool when there are many, whichever topics they belong
        to (then only the stored form: the values and the record are unpickled from it). Read
        in this process, the record is pickled only to be stored or spilled."""
        if len(items) < FILE_POOL_MIN or jobs() < 2:
            stored = self.use_cache or self.spill is not None
            with folders_settled():
                for item in items:
                    yield (None, *self._checked(*item, stored=stored))
            return
        size = min(FILE_CHUNK_MAX, max(50, len(items) // (jobs() * 8)))
        chunks = [items[i:i + size] for i in range(0, len(items), size)]
        tasks = [lambda chunk=chunk: self._chunk(chunk) for chunk in chunks]
        for found in run_each(tasks, work=len(items), min_work=FILE_POOL_MIN):
            yield from ((blob, None, None) for blob in found)

    def read_topic(self, root: Path, *, project: Path | None = None):
        """:func:`~aistack_bank.load.read_topic` of the topic folder ``root``, from the store of
        its topic file when that file's bytes, path, project folder, the working directory and
        the package are those of a stored read (a topic of 10 000 questions: about 50 ms to read,
        7 ms to unpickle). Without the cache, or for a topic file that is a link or not a
        regular file, read as usual."""
        from ..load import TOPIC_FILE, read_topic

        path = root / TOPIC_FILE
        digest = file_digest(path) if self.use_cache else None
        if digest is None:
            return read_topic(root, project=project)
        store = Store("topic-file", root, keep=2)
        key = key_of("topic-file", str(path), str(project), digest)
        found = store.get(key)
        if type(found) is tuple and len(found) == 3 and type(found[2]) is list and all(isinstance(d, Diagnostic) for d in found[2]):
            return found
        read = read_topic(root, project=project)
        if file_digest(path) == digest:  # stored only if the file still has the bytes the key was made from
            store.put(key, read)
            store.save()
        return read

    def read(self, paths: list[Path], root: Path, topic: Any, project: Path | None = None) -> list[tuple[QuestionSource, list[Diagnostic]]]:
        """(record, read diagnostics) of each file, in order (see :func:`~aistack_bank.load.read_bank`).

        Each record is a :class:`StoredQuestion`: its summary at once, the rest when first used."""
        return self.read_topics([(paths, root, topic, project)])[0]

    def read_topics(self, topics: list[tuple[list[Path], Path, Any, Path | None]]) -> list[list[tuple[QuestionSource, list[Diagnostic]]]]:
        """:meth:`read` for several topics (paths, topic folder, topic, project) at once: the
        files no store holds are read and checked together (in the pool when there are many
        in all), each topic's results in its files' order (see :func:`~aistack_bank.load.read_library`).

        Each topic's store is written, and dropped from memory, as soon as its files are done;
        with ``spill`` and many files, each record read now goes to the :class:`Spill` file as it
        comes (written there by the worker that read it, which sends back where: the store is
        given that place, and copies the record from there when it is written), and each record
        a store had stays in that store's records file (a :class:`StoreRecord`) until a catalog
        worker is to read it (then no record is kept in memory, not even one read in this process)."""
        if self.spill_wanted and sum(len(paths) for paths, _, _, _ in topics) >= SPILL_MIN_FILES:
            self.spill = Spill.create()
        # each topic's store: the summaries and diagnostics of its files in one index, their
        # records (read when first used) in a records file that a run appends its new ones to
        # (with a spill file, a stored record stays in the records file, read by position when
        # used and copied to the spill file only for the catalogs' workers: the records file is
        # never read whole into memory)
        stores: list[SplitStore | None] = [SplitStore("questions", root, enabled=self.use_cache, positional=self.spill is not None)
                                           for _, root, _, _ in topics]
        # looked up with the digests the verdict's input digest just took (kept, when read now,
        # only under a digest taken again of the bytes read)
        keys = [self._lookup_keys(paths, root, topic, project) for paths, root, topic, project in topics]
        results: list[list[Any]] = [[None] * len(paths) for paths, _, _, _ in topics]
        todo = []
        left = [0] * len(topics)
        for t, topic_keys in enumerate(keys):
            store = stores[t]
            placed_all = store.places(topic_keys) if self.spill is not None else None
            for index, key in enumerate(topic_keys):
                if placed_all is not None:  # where the record is: copied to the spill file only if a catalog worker is to read it
                    placed = placed_all[index]
                    found = (placed[0], StoreRecord(self.spill, *placed[1:])) if placed is not None else None
                else:
                    found = store.get(key) if key is not None else None
                if found is not None and _well_formed(found[0]):
                    results[t][index] = (*found[0], found[1], None) if self.spill is not None else self._kept((*found[0], found[1], None))
                else:
                    todo.append((t, index))
                    left[t] += 1
            if not left[t]:
                self._done(stores, t)
        computed = self._compute([(topics[t][0][index], *topics[t][1:]) for t, index in todo])
        live: dict[tuple[int, int], QuestionSource] = {}
        for (t, index), (blob, found, qs) in zip(todo, computed):
            if found is None:
                found = pickle.loads(blob)
                if type(found[3]) is tuple or type(found[4]) is tuple:  # (written to the spill file by the worker)
                    found = (*found[:3], self.spill.placed(found[3]), self.spill.texts_placed(found[4]), found[5])
            del blob
            if qs is not None and self.spill is None:
                live[(t, index)] = qs
            del qs
            key = keys[t][index]
            # stored only under the key of the bytes it was computed from (the worker's digest of
            # what it read: whatever the file holds now, or held when the key was looked up)
            if found[3] is not None and key is not None and found[5] is not None and key.endswith("\0" + found[5]):
                stores[t].put(key, found[:3], found[3])
            found = found[:5]
            results[t][index] = self._kept(found)
            del found
            left[t] -= 1
            if not left[t]:
                self._done(stores, t)
        out = []
        for t, ((paths, _, _, _), found) in enumerate(zip(topics, results)):
            records = []
            for index, (path, (summary, read_diags, rule_diags, record, texts)) in enumerate(zip(paths, found)):
                self._rule_diags += rule_diags
                kept = live.get((t, index))  # (its texts are in it)
                records.append((StoredQuestion(path, summary, record, kept, texts if kept is None else None), read_diags))
            out.append(records)
        return out

    def _kept(self, found: tuple) -> tuple:
        """A stored form with its record in the spill file (when there is one)."""
        if self.spill is None:
            return found
        summary, read_diags, rule_diags, record, texts = found
        return (summary, read_diags, rule_diags, record if isinstance(record, Spilled) else self.spill.add(record),
                texts if texts is None or isinstance(texts, Spilled) else self.spill.add(texts))

    def _done(self, stores: list, t: int) -> None:
        if self._later is not None:
            self.save_stores()
            self._later.append(stores[t])
        else:
            stores[t].save()
        stores[t] = None  # its blobs are not held for the other topics (unless saved later)

    def save_stores(self) -> None:
        """Write the stores held back (``later``), each dropped once written."""
        later = self._later or []
        while later:
            later.pop(0).save()

    def close(self) -> None:
        """Write the stores held back, and remove the spill file's name (the records stay
        readable by this process)."""
        self.save_stores()
        if self.spill is not None:
            self.spill.unlink()


class Spill:
    """Records written to a file of the user's cache folder as they are read, and read back
    by position: what the parent holds of a question file is its summary and where its record
    is, not the record. The file is private like the stores (the records are pickles) and
    removed when the command is done with it (:meth:`unlink`, or when the object goes); the
    catalogs' workers, forked before it was made, open it by :attr:`path`."""

    def __init__(self, fd: int, path: str) -> None:
        import weakref

        self.fd, self.path = fd, path
        self.recent: dict[object, tuple] = {}
        self._run: list[int] | None = None
        """[start, end] of the latest run of texts placed one after the other (:meth:`texts_placed`)."""
        self._window: tuple[int, bytes] | None = None
        """(where, bytes) of the latest read of texts ahead of the one asked (:meth:`read_texts`)."""
        self._appending: tuple[int, int] | None = None
        """(process, descriptor) this process appends to the file with (see :meth:`_append`)."""
        self._appended: list[int] = []
        """The descriptors opened for appending in the process that made this object (closed with it)."""
        self._finalizer = weakref.finalize(self, Spill._release, fd, path, self._appended)

    @classmethod
    def create(cls) -> "Spill | None":
        """A new spill file, or None (records are then kept in memory) when the cache folder cannot hold one."""
        import os
        import tempfile

        from .store import cache_dir, private_folder

        folder = cache_dir() / "files"
        if not (hasattr(os, "pwrite") and hasattr(os, "pread")) or not private_folder(folder):
            return None
        try:
            fd, path = tempfile.mkstemp(prefix="spill-", suffix=".tmp", dir=folder)
        except OSError:
            return None
        return cls(fd, path)

    def add(self, blob: bytes) -> "Spilled | bytes":
        """Where ``blob`` now is (``blob`` itself when it cannot be written)."""
        at = self._append(blob)
        return blob if at is None else Spilled(self, at, len(blob))

    def _append(self, data: bytes) -> int | None:
        """Write ``data`` at the end of the file; where it starts (None: not written whole).

        The question files' workers append their records here as the command's own process
        does (:meth:`append_verdicts`): each process through a descriptor of its own opened for
        appending, so that each write lands after every other whole and where it landed is
        this descriptor's offset after it (a descriptor inherited through a fork shares it)."""
        import os

        pid = os.getpid()
        if self._appending is None or self._appending[0] != pid:
            try:
                fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0))
            except OSError:
                return None
            self._appending = (pid, fd)
            self._appended.append(fd)
        fd = self._appending[1]
        try:
            written = os.write(fd, data)
            end = os.lseek(fd, 0, os.SEEK_CUR)
        except OSError:
            return None
        if written != len(data):
            return None
        return end - written

    def append_verdicts(self, verdicts: list[tuple]) -> list[tuple]:
        """Each stored form of :meth:`QuestionFiles._checked` with its record and texts written to
        this file, in one write (the records together, then the texts): their places instead of
        their bytes, ``(at, length)``; the verdicts as given when that write fails."""
        parts: list[bytes] = []
        for verdict in verdicts:
            if verdict[3] is not None:
                parts.append(verdict[3])
        for verdict in verdicts:
            if verdict[4] is not None:
                parts.append(verdict[4])
        if not parts:
            return verdicts
        at = self._append(b"".join(parts))
        if at is None:
            return verdicts
        out = []
        for verdict in verdicts:
            record = verdict[3]
            if record is not None:
                record, at = (at, len(record)), at + len(record)
            out.append((*verdict[:3], record, *verdict[4:]))
        for index, verdict in enumerate(out):
            texts = verdict[4]
            if texts is not None:
                out[index] = (*verdict[:4], (at, len(texts)), verdict[5])
                at += len(texts)
        return out

    def placed(self, place: "tuple[int, int] | bytes | None") -> "Spilled | bytes | None":
        """A record's or texts' place ``(at, length)`` in this file as a worker sent it (bytes or None as they are)."""
        return Spilled(self, *place) if type(place) is tuple else place

    def texts_placed(self, place: "tuple[int, int] | bytes | None") -> "SpilledTexts | bytes | None":
        """:meth:`placed` for a file's texts: each placed right after the previous one joins its
        run (a worker writes the texts of its task's files together, after their records), which
        :meth:`read_texts` reads ahead in."""
        if type(place) is not tuple:
            return place
        at, length = place
        run = self._run
        if run is None or run[1] != at:
            run = self._run = [at, at]
        run[1] = at + length
        return SpilledTexts(self, at, length, run)

    def read(self, at: int, length: int) -> bytes:
        return read_at(self.fd, at, length)

    def read_texts(self, at: int, length: int, end: int) -> bytes:
        """:meth:`read` of texts that lie in a run of texts ending at ``end``: from the latest read
        ahead when it holds them, else read with up to :data:`TEXTS_READ_AHEAD` bytes of the run
        after them, kept for the next. (Every byte of a run was written, whole, before its places
        were handed back, and a spill file's bytes are never written again: what is read ahead
        stays what the file holds.)"""
        window = self._window
        if window is not None:
            offset = at - window[0]
            if offset >= 0 and offset + length <= len(window[1]):
                return window[1][offset:offset + length]
        try:
            data = os.pread(self.fd, max(length, min(end - at, TEXTS_READ_AHEAD)), at)
        except OSError:
            data = b""
        if len(data) < length:  # (cut short: read as any record is, which says so)
            return self.read(at, length)
        self._window = (at, data)
        return data[:length]

    def unlink(self) -> None:
        import os

        try:
            os.unlink(self.path)
        except OSError:
            pass

    @staticmethod
    def _release(fd: int, path: str, appending: list[int]) -> None:
        import os

        try:
            os.unlink(path)
        except OSError:
            pass
        for one in (fd, *appending):
            try:
                os.close(one)
            except OSError:
                pass


class StoreRecord:
    """Where one record is in a per-file store's records file, read by position (the file held
    open): what a run that spills keeps of a record the store had, instead of copying it to the
    :class:`Spill` file at once; it is copied there (:meth:`spilled`) only when a catalog worker
    is to read it (:attr:`StoredQuestion.spilled`)."""

    __slots__ = ("spill", "records", "at", "length")

    def __init__(self, spill: Spill, records, at: int, length: int) -> None:
        self.spill, self.records, self.at, self.length = spill, records, at, length

    def load(self) -> tuple:
        """(doc, question, derived) of the record, as :meth:`Spilled.load` gives them."""
        recent = self.spill.recent
        place = (id(self.records), self.at)
        found = recent.pop(place, None)
        if found is None:
            full = _loads_uncollected(self.records[self.at:self.at + self.length])
            found = (full.doc, full.question, full.derived)
            if len(recent) >= RECENT_RECORDS:
                del recent[next(iter(recent))]
        recent[place] = found
        return found

    def model(self) -> tuple:
        """(question, derived) of the record, as :meth:`load` gives them, without its document
        when it is not among the latest used (:func:`_model_of`)."""
        return _model_of(self, lambda: self.records[self.at:self.at + self.length])

    def spilled(self) -> "Spilled | bytes":
        """The record copied to the spill file (its bytes when they cannot be written there)."""
        return self.spill.add(self.records[self.at:self.at + self.length])


class Spilled:
    """Where one record is in a :class:`Spill` file."""

    __slots__ = ("spill", "at", "length")

    def __init__(self, spill: Spill, at: int, length: int) -> None:
        self.spill, self.at, self.length = spill, at, length

    def blob(self) -> bytes:
        return self.spill.read(self.at, self.length)

    def __len__(self) -> int:
        return self.length

    def place(self) -> tuple[int, int, int]:
        """(the spill file's descriptor, where this is in it, its length)."""
        return self.spill.fd, self.at, self.length

    @staticmethod
    def read_parts(parts: list["Spilled"]) -> list:
        """The bytes of each of ``parts`` (the records a store keeps: :meth:`SplitStore.put`),
        those that lie one after the other in a spill file read together (a worker's records
        are written together)."""
        out: list = [None] * len(parts)
        order = sorted(range(len(parts)), key=lambda i: (id(parts[i].spill), parts[i].at))
        start = 0
        while start < len(order):
            first = parts[order[start]]
            end, stop = first.at + first.length, start + 1
            while stop < len(order):
                part = parts[order[stop]]
                if part.spill is not first.spill or part.at != end:
                    break
                end, stop = end + part.length, stop + 1
            data = memoryview(first.spill.read(first.at, end - first.at))
            for i in order[start:stop]:
                part = parts[i]
                out[i] = data[part.at - first.at:part.at - first.at + part.length]
            start = stop
        return out

    def model(self) -> tuple:
        """(question, derived) of the record, as :meth:`load` gives them, without its document
        when it is not among the latest used (:func:`_model_of`)."""
        return _model_of(self, self.blob)

    def load(self) -> tuple:
        """(doc, question, derived) of the record, from the latest used when it is one of them."""
        recent = self.spill.recent
        found = recent.pop(self.at, None)
        if found is None:
            full = _loads_uncollected(self.spill.read(self.at, self.length))
            found = (full.doc, full.question, full.derived)
            if len(recent) >= RECENT_RECORDS:
                del recent[next(iter(recent))]
        recent[self.at] = found
        return found


class SpilledTexts(Spilled):
    """Where one file's texts are in a :class:`Spill` file, and the run of texts they lie in
    (:meth:`Spill.texts_placed`), read ahead in (:meth:`Spill.read_texts`)."""

    __slots__ = ("run",)

    def __init__(self, spill: Spill, at: int, length: int, run: list[int]) -> None:
        super().__init__(spill, at, length)
        self.run = run

    def blob(self) -> bytes:
        return self.spill.read_texts(self.at, self.length, self.run[1])


def _model_of(record: "Spilled | StoreRecord", blob) -> tuple:
    """(question, derived) of ``record`` (whose bytes are ``blob()``): those of its latest use
    when it is one of the latest used, else unpickled without the record's document (the last
    of its three pickles, :func:`_dumped`), and not kept among the latest used."""
    found = record.spill.recent.get(record.at if type(record) is Spilled else (id(record.records), record.at))
    if found is not None:
        return found[1], found[2]
    found = _loads_uncollected(blob(), document=False)
    return found.question, found.derived


def _unpickled(name: str) -> property:
    """An attribute of the record, unpickled with the others when one of them is first read."""

    index = ("doc", "question", "derived").index(name)

    def get(self):
        if name not in self.__dict__:
            record = self.__dict__["_record"]
            if isinstance(record, (Spilled, StoreRecord)):  # read again when it is no longer among the latest used
                return record.load()[index]
            full = _loads_uncollected(self.__dict__.pop("_record"))
            self.__dict__.update(doc=full.doc, question=full.question, derived=full.derived)
        return self.__dict__[name]

    def set(self, value) -> None:
        self.__dict__[name] = value

    return property(get, set)


def _loads_uncollected(blob: bytes, record: bool = True, document: bool = True) -> Any:
    """``pickle.loads(blob)`` with the cyclic garbage collector paused: a record is a few hundred
    new objects that stay (nothing to collect), and a cold run unpickles every record of the
    bank in a row, during which the collector would otherwise walk the ever larger heap again
    and again (at N = 10 000, 2.6 s -> 0.85 s of CPU for all the records). A record
    (:func:`_dumped`) is given whole: its head, then the record, then its document; anything
    else (``record`` false: a file's texts) as it is. ``document`` false: a record without its
    document (left ``...``), for its question and derived values only."""
    paused = gc.isenabled()
    gc.disable()
    try:
        if not record:  # (one pickle: read as it is, without an unpickler made for it)
            return pickle.loads(blob)
        unpickler = pickle.Unpickler(io.BytesIO(blob))
        found = unpickler.load()
        if record and type(found) is tuple and len(found) == 3 and found[0] == RECORD_HEAD:  # (its head first)
            found = unpickler.load()
        if document and type(found) is QuestionSource and found.doc is ...:
            found.doc = unpickler.load()
        return found
    finally:
        if paused:
            gc.enable()


def loads_record(blob: bytes) -> QuestionSource:
    """The record stored as ``blob`` (:func:`_dumped`), whole: its document, model and derived values."""
    return _loads_uncollected(blob)


def _dump_record(pickler: pickle.Pickler, qs: QuestionSource) -> None:
    """The three pickles of a record (:func:`_dumped`) written by ``pickler`` (its dispatch table
    set): the head, the :class:`QuestionSource` without its document, the document in the
    pickler's ``fast`` mode, its lines split again when asked (left out)."""
    pickler.dump((RECORD_HEAD, qs.path, qs.derived))
    doc = qs.doc
    qs.doc = ...
    try:
        pickler.dump(qs)
    finally:
        qs.doc = doc
    lines = getattr(doc, "_lines", None)
    if lines is not None:
        doc._lines = None
    pickler.fast = True
    try:
        pickler.dump(doc)
    finally:
        pickler.fast = False
        if lines is not None:
            doc._lines = lines


RECORD_HEAD = "record-head-5"
"""The first item of a record's head (:func:`_dumped`), and a part of every question file's key
in the store (:meth:`QuestionFiles._shared`): a record of another layout is never looked up,
nor read as one of this layout."""


def _dumped(qs: QuestionSource) -> bytes:
    """A record's stored form, three pickles by one pickler (what one holds is not written again
    in the next): its head, ``(RECORD_HEAD, path, derived)``, what the file's rules derived from it
    alone (among them what a catalog worker reads instead of the model: its fields, the
    English side of their parity checks, its catalog view, :mod:`aistack_bank.i18n.catalogview`);
    then ``qs`` without its document (its path and derived values as references to the head's);
    then the document. ``pickle.loads`` of it gives the head (what a catalog worker reads of
    most records: :func:`aistack_bank.i18n.verify._read_part`); :func:`_loads_uncollected` the record whole.

    The document goes without the lines its text was split into (:meth:`~aistack_bank.yamlsource.YamlDocument.line`
    splits it again when asked): the file's numeric check (a third of the files) split them, and
    they were the text a second time in every such record. A document read quickly (nearly every
    question file's) is kept as its path and text, its data and tables read again from the text when
    first read (:func:`_document_reduced`): they were a third of the record's pickle. Any other is
    pickled with nothing of its own
    remembered (the pickler's ``fast`` mode: what the head and the model hold is still referred
    to, a tuple the document holds twice is written twice): the memo then holds some 200 objects
    a record instead of some 320, a table a quarter of the size for :meth:`~pickle.Pickler.clear_memo`
    to walk and zero after each record (the document is unpickled only to locate a finding)."""
    try:
        out, pickler = _PICKLERS.pop()
    except IndexError:
        out = io.BytesIO()
        pickler = pickle.Pickler(out, protocol=pickle.HIGHEST_PROTOCOL)
    table = _MODELS_REDUCED
    fields = qs.derived.get("fields")
    if ((qs.question is not None and type(qs.question) not in table) or (fields and type(fields[0]) not in table)
            or len(copyreg.dispatch_table) != _COPYREG_SEEN[0]):
        if fields:
            _REDUCING.add(type(fields[0]))
        table = _models_reduced()
    pickler.dispatch_table = table
    _dump_record(pickler, qs)
    blob = out.getvalue()
    # kept for the next record only when this one was pickled whole (an error above leaves it)
    pickler.clear_memo()
    out.seek(0)
    out.truncate()
    _PICKLERS.append((out, pickler))
    return blob


_PICKLERS: list = []
"""Records' picklers, each with its buffer, cleared and kept for the next record
(:func:`_dumped`): a new pickler's memo grows through several sizes for a record's few hundred
objects, and is written over with zeros at each size and again when the pickler goes, which
cost about a tenth of a record's pickle; a pickler taken from here (one per record being
pickled at a time, so that threads never share one) has its memo at its size, emptied."""


_NEWOBJ = copyreg.__newobj__


def _model_reduced(model) -> tuple:
    """What pydantic's own reduction of a model gives (``object.__reduce_ex__`` with its
    ``BaseModel.__getstate__``), the same pickle byte for byte, made by one Python call instead
    of the C reduction's lookups and then pydantic's ``__getstate__``: a record holds about five
    models (a question and its options, its check). A model with private attributes set (none
    of the bank's) is reduced by pydantic itself, which leaves out the undefined ones."""
    private = model.__pydantic_private__
    if private:
        return model.__reduce_ex__(pickle.HIGHEST_PROTOCOL)
    return _NEWOBJ, (type(model),), {"__dict__": model.__dict__, "__pydantic_extra__": model.__pydantic_extra__,
                                     "__pydantic_fields_set__": model.__pydantic_fields_set__, "__pydantic_private__": private}


_MODELS_REDUCED: dict = {}
"""The dispatch table of a record's pickler (:func:`_dumped`): :data:`copyreg.dispatch_table`,
:func:`_path_reduced` for the paths and :func:`_model_reduced` for each pydantic model class imported when it was made whose
pickling is pydantic's own (made again when a record's question is of a class it does not
hold, as when a kind's module is imported later, or copyreg's table changed)."""
_COPYREG_SEEN = [-1]
_REDUCING: set = set()
"""Classes of a record's fields met (:func:`_dumped`): each whose pickling is its own
``__reduce__`` is reduced by it, called by the pickler, instead of through
``object.__reduce_ex__`` (which looks it up on the instance and the class, then calls it)."""


_PARSED_PARTS = sys.version_info < (3, 12) and hasattr(PurePath, "_from_parsed_parts") and hasattr(PurePath, "_parts")
"""Whether a path can be made from the parts it was parsed into without parsing them again
(``pathlib``'s own way of making a path from a path's parts, up to Python 3.11)."""


_PATH = type(Path())
"""The class of this system's paths (``PosixPath`` or ``WindowsPath``): a record's paths."""


def _path_reduced(path: Path) -> tuple:
    """A path of a record, reduced to its drive, root and parts, where ``pathlib``'s reduction
    gives its class and parts, which unpickling parses again (a record's path is unpickled by
    every catalog worker, and parsing it again was an eighth of reading a record's head there).
    :func:`_rebuilt` makes it again (of class :data:`_PATH`) as ``pathlib`` makes a path from its
    parts, or, where ``pathlib`` has no such way, from its parts as its reduction does. The
    record's head names :func:`_rebuilt` for it; its fields' maker (:func:`_fields_reduction`)
    and its model refer to that one global."""
    return _rebuilt, (_PATH_PARTS, path._drv, path._root, path._parts)


def _document_reduced(doc: YamlDocument) -> tuple:
    """A record's document (:func:`_dumped`): one read quickly (``_from_text``, see
    :func:`~aistack_bank.yamlsource.document_of_text`) as its path and text, read again when
    unpickled (only to locate a finding in it: its data and tables, some 120 objects, were a
    third of a record's pickle and half of its bytes); any other as ``pickle`` reduces it."""
    if from_text(doc):
        return _rebuilt, (_DOCUMENT, doc.path, doc.text)
    return doc.__reduce_ex__(pickle.HIGHEST_PROTOCOL)


_SOURCE, _CLASS, _DOCUMENT, _PATH_PARTS, _TUPLE_OF = 0, 1, 2, 3, 4
"""What :func:`_rebuilt` makes: a record's :class:`QuestionSource` without its document, a
class (a pydantic model's), a document read quickly, a path from its parts, the maker of a
tuple class's instances from their values (its fields')."""


def _rebuilt(what: int, *args):
    """What a record's pickler reduced (:func:`_source_reduced`, :func:`_class_reduced`,
    :func:`_document_reduced`), made again from ``args``: one function for all of them, so that a
    record's model and document name one global instead of four to six (a global is looked up
    through an import, about 7.6 k instructions, both when a record is pickled and when it is
    unpickled; a call of this function, about a seventh of that). A record's head names it for
    its path, and its fields' maker is made by it (:func:`_fields_reduction`): what a catalog
    worker reads of every record, the path first."""
    if what == _PATH_PARTS:  # (drive, root, parts): see _path_reduced
        if _PARSED_PARTS:
            parts = args[2]
            return _PATH._from_parsed_parts(args[0], args[1], parts if type(parts) is list else list(parts))
        return _PATH(*args[2])
    if what == _SOURCE:  # (path, question, derived, summary): the fields as the dataclass's own pickle sets them
        qs = _SOURCE_NEW(QuestionSource)
        qs.__dict__.update(zip(_SOURCE_FIELDS, (args[0], ..., *args[1:])))
        return qs
    if what == _CLASS or what == _TUPLE_OF:  # (module, name)
        module = sys.modules.get(args[0])
        if module is None:
            module = importlib.import_module(args[0])
        cls = getattr(module, args[1])
        if what == _CLASS:
            return cls
        if not (type(cls) is type and issubclass(cls, tuple)):
            raise pickle.UnpicklingError(f"not a tuple class: {args[0]}.{args[1]}")
        return partial(_TUPLE_NEW, cls)  # (called in C for each field: no Python frame)
    if what == _DOCUMENT:  # (path, text)
        return document_of_text(*args)
    raise pickle.UnpicklingError(f"unknown part of a record: {what!r}")


_SOURCE_NEW = QuestionSource.__new__
_SOURCE_FIELDS = ("path", "doc", "question", "derived", "summary")
"""The fields of a :class:`QuestionSource`, in the order its dataclass sets them."""


def _source_reduced(qs: QuestionSource) -> Any:
    """A record's :class:`QuestionSource` without its document (:func:`_dumped` sets it ``...``
    while the record is pickled) as its other fields, made again by :func:`_rebuilt`; one with its
    document, or other attributes, as ``pickle`` reduces it."""
    state = qs.__dict__
    if len(state) == 5 and state.get("doc", None) is ... and tuple(state) == _SOURCE_FIELDS:
        return _rebuilt, (_SOURCE, state["path"], state["question"], state["derived"], state["summary"])
    return qs.__reduce_ex__(pickle.HIGHEST_PROTOCOL)


def _class_reduced(cls: type) -> Any:
    """A pydantic model class of a record (its metaclass's entry in the pickler's table) as its
    module and name, looked up again by :func:`_rebuilt`; any class that is not found where it says
    it is by its name (as ``pickle`` would name it)."""
    module, name = cls.__module__, cls.__qualname__
    if type(module) is str and type(name) is str and "." not in name and getattr(sys.modules.get(module), name, None) is cls:
        return _rebuilt, (_CLASS, module, name)
    return name


_TUPLE_NEW = tuple.__new__


class _TupleOf:
    """Stands for the maker of a record's fields (:func:`_fields_reduction`), ``tuple.__new__`` of
    their class given their values, in its pickle: reduced to the class's module and name, made
    again by :func:`_rebuilt` as ``functools.partial(tuple.__new__, cls)``, a C callable, so that
    unpickling a field runs no Python code (the class's own ``__new__``, or a call of the class,
    did: about a tenth of reading a record's head, in every catalog worker), and the record names
    no global of its own for it."""

    __slots__ = ("cls",)

    def __init__(self, cls: type) -> None:
        self.cls = cls

    def __call__(self, values: tuple):
        # (a reduction's first item must be callable: this makes what the record unpickled makes)
        return _TUPLE_NEW(self.cls, values)


def _tuple_of_reduced(named: _TupleOf) -> tuple:
    """:class:`_TupleOf`'s entry in the record pickler's table: its class's module and name
    (refused, as ``pickle`` refuses a class not found by its name, when it is no longer found)."""
    cls = named.cls
    module, name = cls.__module__, cls.__qualname__
    if getattr(sys.modules.get(module), name, None) is not cls:
        raise pickle.PicklingError(f"Can't pickle {cls!r}: it's not found as {module}.{name}")
    return _rebuilt, (_TUPLE_OF, module, name)


def _fields_reduction(cls: type, reduce: FunctionType) -> Callable | None:
    """The record pickler's reduction of a field class's instances (a
    :class:`~aistack_bank.i18n.fields.TextField`, about ten a record): a ``tuple`` subclass whose
    ``_fields`` name its items, whose call by position keeps the values in their order, and whose
    own ``reduce`` gives ``(cls, its values)``, as tried on instances made for it here. Reduced to
    its values (a plain tuple, ``tuple(field)``, in C) with a :class:`_TupleOf` of its class, which
    the record's pickle makes by :func:`_rebuilt`: each field is then made again by
    ``tuple.__new__(cls, values)`` called in C, where the class's reduction called the class (its
    ``__new__`` a Python frame each). None (the class's own ``reduce`` is used) for any other
    class, or a class not found by its module and name."""
    if not isinstance(cls, type) or type(cls) is not type or not issubclass(cls, tuple):
        return None
    names = getattr(cls, "_fields", None)
    module, name = cls.__module__, cls.__qualname__
    if (type(names) is not tuple or len(names) < 2 or type(module) is not str or type(name) is not str or "." in name
            or getattr(sys.modules.get(module), name, None) is not cls):
        return None
    marks = tuple(object() for _ in names)
    try:
        probe = _TUPLE_NEW(cls, marks)
        found = reduce(probe)
        made = cls(*marks)
    except Exception:
        return None
    if (type(found) is not tuple or len(found) != 2 or found[0] is not cls or type(found[1]) is not tuple
            or len(found[1]) != len(marks) or any(got is not mark for got, mark in zip(found[1], marks))
            or type(made) is not cls or len(made) != len(marks) or any(got is not mark for got, mark in zip(made, marks))):
        return None
    named = _TupleOf(cls)
    values = _tuple

    def reduced(field):
        return named, (values(field),)

    return reduced


_tuple = tuple


def _models_reduced() -> dict:
    global _MODELS_REDUCED
    from pydantic import BaseModel

    table = dict(copyreg.dispatch_table)
    if _PARSED_PARTS and _PATH not in table and _PATH.__reduce__ is PurePath.__reduce__ and _PATH.__reduce_ex__ is object.__reduce_ex__:
        table[_PATH] = _path_reduced
    for cls in _REDUCING:
        reduce = cls.__dict__.get("__reduce__")
        if (cls not in table and type(reduce) is FunctionType and cls.__reduce__ is reduce and cls.__reduce_ex__ is object.__reduce_ex__
                and cls.__getattribute__ in (object.__getattribute__, tuple.__getattribute__)):
            table[cls] = _fields_reduction(cls, reduce) or reduce
    if (YamlDocument not in table and YamlDocument.__reduce_ex__ is object.__reduce_ex__ and YamlDocument.__reduce__ is object.__reduce__
            and getattr(YamlDocument, "__getstate__", None) is getattr(object, "__getstate__", None)):
        table[YamlDocument] = _document_reduced
    if (QuestionSource not in table and QuestionSource.__reduce_ex__ is object.__reduce_ex__ and QuestionSource.__reduce__ is object.__reduce__
            and getattr(QuestionSource, "__getstate__", None) is getattr(object, "__getstate__", None)
            and QuestionSource.__new__ is object.__new__):
        table[QuestionSource] = _source_reduced
    table.setdefault(_TupleOf, _tuple_of_reduced)
    metaclass = type(BaseModel)
    if metaclass not in table and metaclass.__reduce_ex__ is type.__reduce_ex__ and metaclass.__reduce__ is type.__reduce__:
        table[metaclass] = _class_reduced
    todo = list(BaseModel.__subclasses__())
    while todo:
        cls = todo.pop()
        todo += cls.__subclasses__()
        if (cls.__getstate__ is BaseModel.__getstate__ and cls.__reduce_ex__ is BaseModel.__reduce_ex__ and cls.__reduce__ is BaseModel.__reduce__
                and getattr(cls, "__getnewargs_ex__", None) is None and getattr(cls, "__getnewargs__", None) is None and cls not in table):
            table[cls] = _model_reduced
    _MODELS_REDUCED, _COPYREG_SEEN[0] = table, len(copyreg.dispatch_table)
    return table


class StoredQuestion(QuestionSource):
    """A question file's record as the per-file store keeps it: its summary
    (:class:`~aistack_bank.load.FileSummary`, what the rules across files read) at once, its
    document, model and derived values unpickled when one of them is first read (a rule that
    reports, the catalogs' verification, the build), or, for a file read and checked in this
    process, taken as they are (``live``). A record in a :class:`Spill` file is read from it,
    and only the latest used are kept unpickled (a value set on the record stays)."""

    doc = _unpickled("doc")
    question = _unpickled("question")
    derived = _unpickled("derived")

    def __init__(self, path: Path, summary: FileSummary | None, record: "bytes | memoryview | Spilled | StoreRecord | None",
                 live: QuestionSource | None = None, texts: "bytes | Spilled | None" = None) -> None:
        self.path = path
        self.summary = summary
        self._texts = texts
        if live is not None:  # read and checked in this process: nothing to unpickle
            self.__dict__.update(doc=live.doc, question=live.question, derived=live.derived)
        else:
            self._record = record  # (a view into the store's records file as read)

    def __reduce__(self):
        # pickled as the plain record it stands for
        return (QuestionSource, (self.path, self.doc, self.question, self.derived, self.summary))

    def model_and_derived(self) -> tuple:
        """``(self.question, self.derived)``; a record read from a spill file or a store's records
        file is unpickled without its document (what the English library and the bank's fields
        of a build read of every record: :func:`aistack_bank.i18n.fields.english_library_and_fields`)."""
        attributes = self.__dict__
        if "question" not in attributes and "derived" not in attributes:
            record = attributes.get("_record")
            if isinstance(record, (Spilled, StoreRecord)):
                return record.model()
        return self.question, self.derived

    @property
    def texts(self) -> Any:
        """What :attr:`QuestionFiles.texts` gave for the file when it was checked in this run,
        unpickled now (None when it was not checked in this run, or its record was kept as it is)."""
        texts = self.__dict__.get("_texts")
        if texts is None:
            return None
        return _loads_uncollected(texts.blob() if isinstance(texts, Spilled) else texts, record=False)

    @property
    def spilled(self) -> "Spilled | None":
        """Where the record is in the spill file (None: it is in memory); a record still in a
        store's records file is copied to the spill file now."""
        record = self.__dict__.get("_record")
        if isinstance(record, StoreRecord):
            record = self.__dict__["_record"] = record.spilled()
        return record if isinstance(record, Spilled) else None


def _well_formed(found: Any) -> bool:
    """Whether a stored entry's small part is (summary, read diagnostics, rule diagnostics)."""
    return (isinstance(found, tuple) and len(found) == 3 and (found[0] is None or isinstance(found[0], FileSummary))
            and isinstance(found[1], list) and isinstance(found[2], list)
            and all(isinstance(d, Diagnostic) for d in found[1] + found[2]))
