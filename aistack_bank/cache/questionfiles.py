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

import gc
import pickle
from pathlib import Path
from typing import Any, Callable

from ..errors import Diagnostic
from .store import SplitStore, file_digest, key_hasher, key_with
from ..load import FileSummary, QuestionSource, read_question
from ..parallel import jobs, run_all
from ..safety import folders_settled

FILE_POOL_MIN = 1500
"""Question files to read and check before a process pool pays for itself (measured on 2 cores)."""

Rules = Callable[[QuestionSource, Path, Any, bool], list[Diagnostic]]


class QuestionFiles:
    """Reads question files through the per-file store; :meth:`rule_diagnostics` gives what
    the files' own rules found, in the order the files were read."""

    def __init__(self, rules: Rules, *, run_checks: bool = True, use_cache: bool = True) -> None:
        self.rules = rules
        self.run_checks = run_checks
        self.use_cache = use_cache
        self._rule_diags: list[Diagnostic] = []
        self._hashers: dict[tuple, Any] = {}

    def rule_diagnostics(self) -> list[Diagnostic]:
        return list(self._rule_diags)

    def key(self, path: Path, root: Path, topic: Any, project: Path | None = None) -> str | None:
        digest = file_digest(path) if self.use_cache else None
        if digest is None:
            return None
        vocabulary = tuple(sorted(topic.tags)) if topic is not None else None
        shared = (str(root), str(project), vocabulary, self.run_checks)  # the same for every file of a topic
        hasher = self._hashers.get(shared)
        if hasher is None:
            hasher = self._hashers[shared] = key_hasher("question-file", *shared)
        return key_with(hasher, str(path), digest)

    def _one(self, path: Path, root: Path, topic: Any, project: Path | None) -> bytes:
        """The stored form of one file's verdict (as a worker process returns it)."""
        return pickle.dumps(self._checked(path, root, topic, project, stored=True)[0], protocol=pickle.HIGHEST_PROTOCOL)

    def _checked(self, path: Path, root: Path, topic: Any, project: Path | None, *, stored: bool) -> tuple[tuple, QuestionSource]:
        """((summary, read diagnostics, rule diagnostics, pickled record or None), the record
        itself): read and checked in this process, the record is used as it is, and pickled only
        to be stored (``stored``)."""
        qs, read_diags = read_question(path, root=root, project=project)
        rule_diags = self.rules(qs, root, topic, self.run_checks)
        summary, qs.summary = qs.summary, None
        record = pickle.dumps(qs, protocol=pickle.HIGHEST_PROTOCOL) if stored else None
        return (summary, read_diags, rule_diags, record), qs

    def _chunk(self, items: list[tuple[Path, Path, Any, Path | None]]) -> list[bytes]:
        with folders_settled():
            return [self._one(*item) for item in items]

    def _compute(self, items: list[tuple[Path, Path, Any, Path | None]]) -> list[tuple[bytes | None, tuple | None, QuestionSource | None]]:
        """(stored form, its values, record) of each (path, topic folder, topic, project), in
        order; in the process pool when there are many, whichever topics they belong to (then
        only the stored form: the values and the record are unpickled from it)."""
        if len(items) < FILE_POOL_MIN or jobs() < 2:
            with folders_settled():
                return [(None, *self._checked(*item, stored=self.use_cache)) for item in items]
        size = max(50, len(items) // (jobs() * 8))
        chunks = [items[i:i + size] for i in range(0, len(items), size)]
        tasks = [lambda chunk=chunk: self._chunk(chunk) for chunk in chunks]
        return [(blob, None, None) for found in run_all(tasks, work=len(items), min_work=FILE_POOL_MIN) for blob in found]

    def read(self, paths: list[Path], root: Path, topic: Any, project: Path | None = None) -> list[tuple[QuestionSource, list[Diagnostic]]]:
        """(record, read diagnostics) of each file, in order (see :func:`~aistack_bank.load.read_bank`).

        Each record is a :class:`StoredQuestion`: its summary at once, the rest when first used."""
        return self.read_topics([(paths, root, topic, project)])[0]

    def read_topics(self, topics: list[tuple[list[Path], Path, Any, Path | None]]) -> list[list[tuple[QuestionSource, list[Diagnostic]]]]:
        """:meth:`read` for several topics (paths, topic folder, topic, project) at once: the
        files no store holds are read and checked together (in the pool when there are many
        in all), each topic's results in its files' order (see :func:`~aistack_bank.load.read_library`)."""
        # each topic's store: the summaries and diagnostics of its files in one index, their
        # records (read when first used) in a records file that a run appends its new ones to
        stores = [SplitStore("questions", root, enabled=self.use_cache) for _, root, _, _ in topics]
        keys = [[self.key(path, root, topic, project) for path in paths] for paths, root, topic, project in topics]
        results: list[list[Any]] = [[None] * len(paths) for paths, _, _, _ in topics]
        todo = []
        for t, (store, topic_keys) in enumerate(zip(stores, keys)):
            for index, key in enumerate(topic_keys):
                found = store.get(key) if key is not None else None
                if found is not None and _well_formed(found[0]):
                    results[t][index] = (*found[0], found[1])
                else:
                    todo.append((t, index))
        computed = self._compute([(topics[t][0][index], *topics[t][1:]) for t, index in todo])
        live: dict[tuple[int, int], QuestionSource] = {}
        for (t, index), (blob, found, qs) in zip(todo, computed):
            if found is None:
                found = pickle.loads(blob)
            results[t][index] = found
            if qs is not None:
                live[(t, index)] = qs
            key = keys[t][index]
            paths, root, topic, project = topics[t]
            # stored only if the file still has the bytes the key was made from
            if found[3] is not None and key is not None and self.key(paths[index], root, topic, project) == key:
                stores[t].put(key, found[:3], found[3])
        out = []
        for t, (store, (paths, _, _, _), found) in enumerate(zip(stores, topics, results)):
            store.save()
            records = []
            for index, (path, (summary, read_diags, rule_diags, record)) in enumerate(zip(paths, found)):
                self._rule_diags += rule_diags
                records.append((StoredQuestion(path, summary, record, live.get((t, index))), read_diags))
            out.append(records)
        return out


def _unpickled(name: str) -> property:
    """An attribute of the record, unpickled with the others when one of them is first read."""

    def get(self):
        if name not in self.__dict__:
            full = _loads_uncollected(self.__dict__.pop("_record"))
            self.__dict__.update(doc=full.doc, question=full.question, derived=full.derived)
        return self.__dict__[name]

    def set(self, value) -> None:
        self.__dict__[name] = value

    return property(get, set)


def _loads_uncollected(blob: bytes) -> Any:
    """``pickle.loads(blob)`` with the cyclic garbage collector paused: a record is a few hundred
    new objects that stay (nothing to collect), and a cold run unpickles every record of the
    bank in a row, during which the collector would otherwise walk the ever larger heap again
    and again (at N = 10 000, 2.6 s -> 0.85 s of CPU for all the records)."""
    paused = gc.isenabled()
    gc.disable()
    try:
        return pickle.loads(blob)
    finally:
        if paused:
            gc.enable()


class StoredQuestion(QuestionSource):
    """A question file's record as the per-file store keeps it: its summary
    (:class:`~aistack_bank.load.FileSummary`, what the rules across files read) at once, its
    document, model and derived values unpickled when one of them is first read (a rule that
    reports, the catalogs' verification, the build), or, for a file read and checked in this
    process, taken as they are (``live``)."""

    doc = _unpickled("doc")
    question = _unpickled("question")
    derived = _unpickled("derived")

    def __init__(self, path: Path, summary: FileSummary | None, record: bytes | memoryview | None, live: QuestionSource | None = None) -> None:
        self.path = path
        self.summary = summary
        if live is not None:  # read and checked in this process: nothing to unpickle
            self.__dict__.update(doc=live.doc, question=live.question, derived=live.derived)
        else:
            self._record = record  # (a view into the store's records file as read)

    def __reduce__(self):
        # pickled as the plain record it stands for
        return (QuestionSource, (self.path, self.doc, self.question, self.derived, self.summary))


def _well_formed(found: Any) -> bool:
    """Whether a stored entry's small part is (summary, read diagnostics, rule diagnostics)."""
    return (isinstance(found, tuple) and len(found) == 3 and (found[0] is None or isinstance(found[0], FileSummary))
            and isinstance(found[1], list) and isinstance(found[2], list)
            and all(isinstance(d, Diagnostic) for d in found[1] + found[2]))
