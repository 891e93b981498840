"""Unchanged outputs of `bank build` are not rendered again.

For each format, the digests of the files it wrote are kept (in the user cache folder, per
exports folder) under a key made of everything the exporter reads: the localized banks of every
language, the options (interface texts included), the format's name and the package (version
and source). When a build finds the same key and every file it lists is on disk with exactly
the recorded bytes, those files stand for the rendering: they are what the exporter would write
again. Anything else (a new key, a file missing or edited by hand, a damaged store) means
rendering as usual. The files found go through the same writing step as rendered ones (links
refused, manifest and pruning kept).
"""

from __future__ import annotations

import hashlib
from pathlib import Path, PurePosixPath
from typing import Mapping

from .exporters import ExportedFile, ExportTree
from .filecache import Store, key_of
from .model import Library
from .options import ExportOptions

MAX_OUTPUT_BYTES = 1 << 30


def _digest(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=20).hexdigest()


class OutputMemo:
    """The files each format wrote for given inputs, checked against the disk before reuse."""

    def __init__(self, out: Path, banks: Mapping[str, Library], options: ExportOptions, *, enabled: bool = True) -> None:
        self.enabled = enabled
        self.store = Store("outputs", out, enabled=enabled, keep=64)
        self._inputs = None
        self._served: set[str] = set()
        if enabled:
            try:
                digest = hashlib.blake2b(digest_size=20)
                for lang, bank in banks.items():  # JSON, not pickle: a pickled set's order varies between processes
                    digest.update(lang.encode() + b"\0" + bank.model_dump_json().encode() + b"\0")
                self._inputs = (digest.hexdigest(), repr(options))
            except Exception:  # something that does not serialize: render every time
                self.enabled = False

    def _key(self, name: str) -> str | None:
        return key_of("outputs", name, self._inputs) if self.enabled else None

    def known(self, name: str) -> bool:
        """Whether files of format ``name`` were kept for these very inputs (by an earlier build
        that rendered them from the same banks, after refusing any uncarriable text in them)."""
        key = self._key(name)
        return key is not None and isinstance(self.store.get(key), list)

    def stored(self, name: str, folder: Path) -> dict[str, ExportTree] | None:
        """The files of format ``name`` as they are on disk, if they are what these inputs give."""
        key = self._key(name)
        files = self.store.get(key) if key is not None else None
        if not isinstance(files, list):
            return None
        found = []
        for entry in files:
            try:
                rel, language, digest = entry
                path = folder / rel
                if path.is_symlink() or not path.is_file() or path.stat().st_size > MAX_OUTPUT_BYTES:
                    return None
                data = path.read_bytes()
            except (OSError, ValueError, TypeError):
                return None
            if _digest(data) != digest:
                return None
            found.append(ExportedFile(PurePosixPath(rel), language, data))
        self._served.add(name)
        return {name: ExportTree(found)}

    def remember(self, name: str, trees: Mapping[str, ExportTree]) -> None:
        key = self._key(name)
        if key is not None and name not in self._served:  # files served by stored(): already kept, with these digests
            tree = trees[name]
            self.store.put(key, [(str(rel), tree.language(rel), _digest(tree[rel])) for rel in tree])

    def save(self) -> None:
        self.store.save()
