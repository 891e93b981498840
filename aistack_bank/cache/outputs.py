"""Unchanged outputs of `bank build` are not rendered again.

For each format, the digests of the files it wrote are kept (in the user cache folder, per
exports folder) under a key made of everything the localized banks and the exporters are made
from: the English bank (as JSON, from each question file's summary: :func:`english_digest`), every file of the translations folder (catalogs, interface
catalogs, template) by path and content, the options and language policy, the format's name and
the package (version and source). With them, the build's notes and the exports' README: a build
whose inputs are those of the last one reads no catalog and localizes nothing when its files
stand. When a build finds the same key and every file it lists is on disk with exactly
the recorded bytes, those files stand for the rendering: they are what the exporter would write
again. Anything else (a new key, a file missing or edited by hand, a damaged store) means
rendering as usual. A file whose device, inode, size and times are those recorded when its
bytes were last digested is not read again (the stat memo of
:mod:`~aistack_bank.cache.validation`: any write changes its ctime, which no user can set
back). The files found go through the same writing step as rendered ones (links refused,
manifest and pruning kept), without being read or written again.
"""

from __future__ import annotations

import hashlib
from pathlib import Path, PurePosixPath
from typing import Mapping

from ..exporters import ExportedFile, ExportTree
from .store import Store, key_of

MAX_OUTPUT_BYTES = 1 << 30


DIGEST = "sha256"
"""The digest of the outputs' bytes: SHA-256, which processors compute in hardware (the 550 MB
of a build of 10 000 questions: about 0.33 s, against 0.7 s for BLAKE2b)."""


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


output_digest = _digest


def output_hasher():
    """A hasher of :data:`DIGEST`, to digest a file a piece at a time as :func:`output_digest` digests its bytes."""
    return hashlib.new(DIGEST)
"""The digest the memo keeps of a file's bytes (for a tree whose bytes are already written: :class:`WrittenTree`)."""


def english_digest(source) -> str:
    """A digest of the English library that :func:`~aistack_bank.load.english_library` makes
    of the read bank ``source`` (a :class:`~aistack_bank.load.LibrarySource` without errors):
    its categories, and in bank order each topic and the models of its questions in the topic's
    order, as JSON (not pickle: a pickled set's order varies between processes). Each question's
    part is the digest of its model its file's summary keeps
    (:attr:`~aistack_bank.load.FileSummary.model`), so that no record is unpickled: a file
    edited where its model does not change (a comment) leaves the digest as it was."""
    from .catalogs import model_json_of
    from ..load import category_models, ordered_topics

    def part(model) -> bytes:
        return model_json_of(model) + b"\0"

    digest = hashlib.blake2b(digest_size=20)
    digest.update(b"library\0en\0categories\0")
    for category in category_models(source.categories):
        digest.update(part(category))
    for topic in ordered_topics(source):
        digest.update(b"\0topic\0" + part(topic.topic))
        models = {}
        for qs in topic.questions:
            summary = qs.summary
            if summary is not None and summary.question_id is not None and summary.model:
                models[summary.question_id] = summary.model
            elif qs.question is not None:
                models[qs.question.id] = hashlib.blake2b(model_json_of(qs.question), digest_size=20).digest()
        for qid in topic.topic.questions:
            digest.update(models[qid])
    return digest.hexdigest()


class OutputMemo:
    """The files each format wrote for given inputs, checked against the disk before reuse.

    ``source``: the read bank (see :func:`english_digest`)."""

    def __init__(self, out: Path, source, translations: Path | None, settings: tuple, *, enabled: bool = True) -> None:
        self.enabled = enabled
        self.out = out
        self.translations = translations
        self.store = Store("outputs", out, enabled=enabled, keep=64)
        self._inputs = None
        self._entries: dict[str, list | None] = {}
        self._served: set[str] = set()
        self._stat = None
        if enabled:
            try:
                self._inputs = (english_digest(source), self._translations_digest(), repr(settings))
            except Exception:  # something that does not serialize: render every time
                self.enabled = False

    def _translations_digest(self) -> str:
        from .validation import tree_digest

        folder = self.translations
        return tree_digest(folder) if folder is not None and folder.is_dir() else repr(folder)

    def plan(self) -> dict | None:
        """What an earlier build of these very inputs kept besides the files: its ``notes``, the
        exports' README (``guide``, bytes) and the number of questions (``count``)."""
        key = key_of("outputs-plan", self._inputs) if self.enabled else None
        found = self.store.get(key) if key is not None else None
        return found if isinstance(found, dict) and set(found) == {"notes", "guide", "count"} else None

    def remember_plan(self, notes: list, guide: bytes, count: int) -> None:
        """Keep the notes, README and count of this build, and the formats' files kept by
        :meth:`remember`, only if the catalogs are still those the key was made from (a catalog
        saved during the build may have been read with its new bytes)."""
        if not self.enabled:
            return
        if self._translations_digest() != self._inputs[1]:
            self.store = Store("outputs", self.out, enabled=False)
            return
        self.store.put(key_of("outputs-plan", self._inputs), {"notes": list(notes), "guide": guide, "count": count})

    def _key(self, name: str) -> str | None:
        return key_of("outputs", name, self._inputs) if self.enabled else None

    def _files(self, name: str) -> list | None:
        """The files kept for format ``name`` and these inputs, unpickled once per build."""
        if name not in self._entries:
            key = self._key(name)
            found = self.store.get(key) if key is not None else None
            self._entries[name] = found if isinstance(found, list) else None
        return self._entries[name]

    def known(self, name: str) -> bool:
        """Whether files of format ``name`` were kept for these very inputs (by an earlier build
        that rendered them from the same banks, after refusing any uncarriable text in them)."""
        return self._files(name) is not None

    def stored(self, name: str, folder: Path) -> dict[str, ExportTree] | None:
        """The files of format ``name`` as they are on disk (a :class:`StandingTree`: their
        names, languages and sizes), if they are what these inputs give.

        Their digests come from the stat memo of the exports folder
        (:class:`~aistack_bank.cache.validation.StatMemo`): a file whose device, inode, size,
        mtime and ctime are those recorded when it was last digested is not read again (any
        write changes its ctime, which no user can set back; a rename or copy changes its
        inode); any other is read and digested."""
        import os
        import stat

        files = self._files(name)
        if files is None:
            return None
        memo = self._stat_memo()
        found = []
        for entry in files:
            try:
                rel, language, digest = entry
                path = os.path.abspath(folder / rel)
                st = os.lstat(path)
                if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_OUTPUT_BYTES or memo.digest(path).hex() != digest:
                    return None
            except (OSError, ValueError, TypeError):
                return None
            found.append((rel, language, st.st_size))
        self._served.add(name)
        return {name: StandingTree(found)}

    def _stat_memo(self):
        if self._stat is None:
            from .validation import StatMemo

            self._stat = StatMemo([self.out], algorithm=DIGEST)
        return self._stat

    def remember(self, name: str, trees: Mapping[str, ExportTree]) -> None:
        key = self._key(name)
        if key is not None and name not in self._served:  # files served by stored(): already kept, with these digests
            tree = trees[name]
            digest = tree.digest if isinstance(tree, WrittenTree) else (lambda rel: _digest(tree[rel]))
            self.store.put(key, [(str(rel), tree.language(rel), digest(rel)) for rel in tree])

    def save(self) -> None:
        self.store.save()
        if self._stat is not None:
            self._stat.save()


class StandingTree(ExportTree):
    """A format's files that stand on disk as they are: their names, languages and sizes, not
    their bytes (:meth:`~.build.write_outputs` writes nothing of them but the manifest)."""

    standing = True

    def __init__(self, files: list[tuple[str, str, int]]):
        super().__init__(ExportedFile(PurePosixPath(rel), language, b"") for rel, language, _ in files)
        self._sizes = {PurePosixPath(rel): size for rel, _, size in files}

    def __getitem__(self, path: PurePosixPath) -> bytes:
        raise TypeError("the bytes of a standing file are on disk, not in its tree")

    def size(self, path: PurePosixPath) -> int:
        return self._sizes[path]


class WrittenTree(ExportTree):
    """A format's files already written (or, with ``--compare``, compared) as they were
    rendered, piece by piece, their bytes dropped: their names, languages, sizes, digests and
    whether each changed (:meth:`~.build.write_outputs` reports them and writes the manifest)."""

    written = True

    def __init__(self, files: list[tuple[PurePosixPath, str, int, bool, str]]):
        super().__init__(ExportedFile(rel, language, b"") for rel, language, _, _, _ in files)
        self._facts = {rel: (size, changed, digest) for rel, _, size, changed, digest in files}

    def __getitem__(self, path: PurePosixPath) -> bytes:
        raise TypeError("the bytes of a written file are on disk, not in its tree")

    def size(self, path: PurePosixPath) -> int:
        return self._facts[path][0]

    def changed(self, path: PurePosixPath) -> bool:
        return self._facts[path][1]

    def digest(self, path: PurePosixPath) -> str:
        return self._facts[path][2]
