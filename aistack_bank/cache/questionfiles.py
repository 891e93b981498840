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

import pickle
from pathlib import Path
from typing import Any, Callable

from ..errors import Diagnostic
from .store import SplitStore, file_digest, key_hasher, key_with
from ..load import FileSummary, QuestionSource, read_question
from ..parallel import jobs, run_all

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
        qs, read_diags = read_question(path, root=root, project=project)
        rule_diags = self.rules(qs, root, topic, self.run_checks)
        summary, qs.summary = qs.summary, None
        record = pickle.dumps(qs, protocol=pickle.HIGHEST_PROTOCOL)
        return pickle.dumps((summary, read_diags, rule_diags, record), protocol=pickle.HIGHEST_PROTOCOL)

    def _compute(self, items: list[tuple[Path, Path, Any, Path | None]]) -> list[bytes]:
        """The stored form of each (path, topic folder, topic, project), in order; in the process
        pool when there are many, whichever topics they belong to."""
        if len(items) < FILE_POOL_MIN or jobs() < 2:
            return [self._one(*item) for item in items]
        size = max(50, len(items) // (jobs() * 8))
        chunks = [items[i:i + size] for i in range(0, len(items), size)]
        tasks = [lambda chunk=chunk: [self._one(*item) for item in chunk] for chunk in chunks]
        return [blob for found in run_all(tasks, work=len(items), min_work=FILE_POOL_MIN) for blob in found]

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
        blobs = self._compute([(topics[t][0][index], *topics[t][1:]) for t, index in todo])
        for (t, index), blob in zip(todo, blobs):
            results[t][index] = found = pickle.loads(blob)
            key = keys[t][index]
            paths, root, topic, project = topics[t]
            # stored only if the file still has the bytes the key was made from
            if key is not None and self.key(paths[index], root, topic, project) == key:
                stores[t].put(key, found[:3], found[3])
        out = []
        for store, (paths, _, _, _), found in zip(stores, topics, results):
            store.save()
            records = []
            for path, (summary, read_diags, rule_diags, record) in zip(paths, found):
                self._rule_diags += rule_diags
                records.append((StoredQuestion(path, summary, record), read_diags))
            out.append(records)
        return out


def _unpickled(name: str) -> property:
    """An attribute of the record, unpickled with the others when one of them is first read."""

    def get(self):
        if name not in self.__dict__:
            full = pickle.loads(self.__dict__.pop("_record"))
            self.__dict__.update(doc=full.doc, question=full.question, derived=full.derived)
        return self.__dict__[name]

    def set(self, value) -> None:
        self.__dict__[name] = value

    return property(get, set)


class StoredQuestion(QuestionSource):
    """A question file's record as the per-file store keeps it: its summary
    (:class:`~aistack_bank.load.FileSummary`, what the rules across files read) at once, its
    document, model and derived values unpickled when one of them is first read (a rule that
    reports, the catalogs' verification, the build)."""

    doc = _unpickled("doc")
    question = _unpickled("question")
    derived = _unpickled("derived")

    def __init__(self, path: Path, summary: FileSummary | None, record: bytes | memoryview) -> None:
        self.path = path
        self.summary = summary
        self._record = record  # (a view into the store's records file as read)

    def __reduce__(self):
        # pickled as the plain record it stands for
        return (QuestionSource, (self.path, self.doc, self.question, self.derived, self.summary))


def _well_formed(found: Any) -> bool:
    """Whether a stored entry's small part is (summary, read diagnostics, rule diagnostics)."""
    return (isinstance(found, tuple) and len(found) == 3 and (found[0] is None or isinstance(found[0], FileSummary))
            and isinstance(found[1], list) and isinstance(found[2], list)
            and all(isinstance(d, Diagnostic) for d in found[1] + found[2]))
