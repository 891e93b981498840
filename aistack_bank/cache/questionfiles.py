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
from .store import Store, file_digest, key_of
from ..load import QuestionSource, read_question
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

    def rule_diagnostics(self) -> list[Diagnostic]:
        return list(self._rule_diags)

    def key(self, path: Path, root: Path, topic: Any, project: Path | None = None) -> str | None:
        digest = file_digest(path) if self.use_cache else None
        if digest is None:
            return None
        vocabulary = tuple(sorted(topic.tags)) if topic is not None else None
        return key_of("question-file", str(path), str(root), str(project), digest, vocabulary, self.run_checks)

    def _one(self, path: Path, root: Path, topic: Any, project: Path | None) -> bytes:
        qs, read_diags = read_question(path, root=root, project=project)
        return pickle.dumps((qs, read_diags, self.rules(qs, root, topic, self.run_checks)), protocol=pickle.HIGHEST_PROTOCOL)

    def _compute(self, paths: list[Path], root: Path, topic: Any, project: Path | None) -> list[bytes]:
        if len(paths) < FILE_POOL_MIN or jobs() < 2:
            return [self._one(path, root, topic, project) for path in paths]
        size = max(50, len(paths) // (jobs() * 8))
        chunks = [paths[i:i + size] for i in range(0, len(paths), size)]
        tasks = [lambda chunk=chunk: [self._one(path, root, topic, project) for path in chunk] for chunk in chunks]
        return [blob for found in run_all(tasks, work=len(paths), min_work=FILE_POOL_MIN) for blob in found]

    def read(self, paths: list[Path], root: Path, topic: Any, project: Path | None = None) -> list[tuple[QuestionSource, list[Diagnostic]]]:
        """(record, read diagnostics) of each file, in order (see :func:`~aistack_bank.load.read_bank`)."""
        store = Store("questions", root, enabled=self.use_cache)
        keys = [self.key(path, root, topic, project) for path in paths]
        results: list[Any] = [None] * len(paths)
        todo = []
        for index, key in enumerate(keys):
            found = store.get(key) if key is not None else None
            if _well_formed(found):
                results[index] = found
            else:
                todo.append(index)
        blobs = self._compute([paths[i] for i in todo], root, topic, project)
        for index, blob in zip(todo, blobs):
            results[index] = pickle.loads(blob)
            key = keys[index]
            # stored only if the file still has the bytes the key was made from
            if key is not None and self.key(paths[index], root, topic, project) == key:
                store.put_blob(key, blob)
        store.save()
        out = []
        for qs, read_diags, rule_diags in results:
            self._rule_diags += rule_diags
            out.append((qs, read_diags))
        return out


def _well_formed(found: Any) -> bool:
    return (isinstance(found, tuple) and len(found) == 3 and isinstance(found[0], QuestionSource)
            and isinstance(found[1], list) and isinstance(found[2], list)
            and all(isinstance(d, Diagnostic) for d in found[1] + found[2]))
