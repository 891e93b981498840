"""Per-file results kept between commands, keyed by the bytes they were computed from.

A :class:`Store` maps a key (a digest of everything a result depends on: the file's bytes,
its path as shown in diagnostics, the working directory, the package's version and source,
and whatever else the caller names, such as the topic's tag vocabulary) to a pickled result.
A result is served only for exactly the inputs that produced it, so editing, renaming,
deleting or touching a file can never bring back a stale verdict: a changed byte is a new key.

The stores live in the user's cache folder (``$XDG_CACHE_HOME/aistack-bank/files``), one file
per namespace and folder (the question files of one bank, the catalogs of one translations
folder), written atomically. Any problem with them (missing, truncated, corrupt, from another
version, unwritable folder) means working without them: a store that cannot be read is
empty, and one that cannot be written is dropped.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import stat
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

from .. import __version__

_FORMAT = 1
MAX_STORE_BYTES = 1 << 30
"""A store larger than this is not read (and so is rebuilt from scratch)."""
MAX_KEPT_ENTRIES = 200_000
"""Entries a store keeps: those used by the latest run first, then older ones up to this count."""
MAX_FILE_BYTES = 256 << 20
"""Files up to this size are digested by content; larger ones are never served from a store."""


def cache_dir() -> Path:
    """``$XDG_CACHE_HOME/aistack-bank`` (``~/.cache/aistack-bank`` by default)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "aistack-bank"


def _private(st: os.stat_result) -> bool:
    """Whether the file or folder of ``st`` is the user's own and writable by no one else."""
    return st.st_uid == os.geteuid() and not st.st_mode & 0o022


def private_folder(folder: Path, *, create: bool = True) -> bool:
    """Make ``folder`` (a folder of :func:`cache_dir`) and the cache folders above it exist as
    the user's own, writable by no one else (created 0700; a group- or world-writable one of
    the user's is tightened); False when one is not the user's (then it is neither read nor
    written: another user could have planted a pickle there)."""
    root = cache_dir()
    try:
        parts = folder.relative_to(root).parts
    except ValueError:
        return False
    current = root
    if create:
        try:
            root.parent.mkdir(parents=True, exist_ok=True)  # $XDG_CACHE_HOME itself: not ours to set
        except OSError:
            return False
    for part in ("", *parts):
        current = current / part if part else current
        if create:
            try:
                os.mkdir(current, 0o700)
            except FileExistsError:
                pass
            except OSError:
                return False
        try:
            st = os.lstat(current)
            if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.geteuid():
                return False
            if st.st_mode & 0o022:
                os.chmod(current, stat.S_IMODE(st.st_mode) & ~0o022)
        except OSError:
            return False
    return True


def read_private(path: Path, max_bytes: int) -> bytes | None:
    """The bytes of the cache file ``path`` if it and its folders are the user's own and
    writable by no one else, a regular file (not a link) of at most ``max_bytes``; else None.

    Pickles run code when loaded: only files this user wrote, and that no one else could have
    replaced, are unpickled."""
    if not private_folder(path.parent, create=False):
        return None
    opened = _open_regular(path)
    if opened is None:
        return None
    fd, st = opened
    try:
        if not _private(st) or st.st_size > max_bytes:
            return None
        chunks, total = [], 0
        while total <= max_bytes:
            chunk = os.read(fd, min(1 << 20, max_bytes + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        return b"".join(chunks) if total <= max_bytes else None
    except OSError:
        return None
    finally:
        os.close(fd)


def _open_regular(path: Path | str) -> tuple[int, os.stat_result] | None:
    """A descriptor of ``path`` and its status when it is a regular file, opened without following
    a symbolic link or blocking on a FIFO; else None, with nothing left open."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        st = os.fstat(fd)
    except OSError:
        st = None
    if st is None or not stat.S_ISREG(st.st_mode):
        os.close(fd)
        return None
    return fd, st


def write_private(path: Path, data: bytes) -> bool:
    """Write the cache file ``path`` atomically (mode 0644) into a folder of the user's own;
    False, writing nothing, when the folder is not (see :func:`private_folder`)."""
    from ..writing import write_atomic

    if not private_folder(path.parent):
        return False
    write_atomic(path, data)
    return True


@lru_cache(maxsize=1)
def package_digest() -> str:
    """A digest of the package's version and of every source file it runs (code and assets)."""
    digest = hashlib.blake2b(digest_size=16)
    digest.update(f"{_FORMAT}\0{__version__}\0".encode())
    package = Path(__file__).parent.parent  # the whole package, not only cache/
    for path in sorted(package.rglob("*")):
        if path.suffix in (".py", ".js", ".css", ".html") and path.is_file():
            digest.update(path.relative_to(package).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


_SETTLED: list[tuple[dict, int]] = []
"""Content digests this process already took: ({file name: (identity, digest)}, when they were taken)."""


def identity(st: os.stat_result) -> tuple:
    """What any write to a file changes: device, inode, size, modification and change times."""
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def remember_digests(entries: dict, now_ns: int) -> None:
    """Let :func:`file_digest` reuse, in this process, the content digests of ``entries``
    ({file name as walked: (identity, blake2b digest of 20 bytes of its content)}, taken at
    ``now_ns``): for a file of the same name and identity (:func:`identity`) that was last
    written more than :data:`RACY_NS` before they were taken (a later write then changes its
    modification or change time)."""
    _SETTLED[:] = [(entries, now_ns)]


def _remembered(path: Path | str, st: os.stat_result) -> str | None:
    for entries, now_ns in _SETTLED:
        known = entries.get(str(path))
        if (type(known) is tuple and len(known) == 2 and known[0] == identity(st) and type(known[1]) is bytes
                and now_ns - max(st.st_mtime_ns, st.st_ctime_ns) > RACY_NS):
            return known[1].hex()
    return None


RACY_NS = 3_000_000_000
"""A file written this recently is digested again: a second write in the same timestamp tick
would leave its identity unchanged."""


def file_digest(path: Path | str) -> str | None:
    """The content digest of a regular file that is not a symbolic link, else None.

    None means "do not cache": links (whose verdict depends on where they lead), special files,
    unreadable and oversized files are always read and checked afresh. A digest this process
    already took of the same file, unchanged since (:func:`remember_digests`), is not taken again."""
    opened = _open_regular(path)
    if opened is None:
        return None
    fd, st = opened
    try:
        if st.st_size > MAX_FILE_BYTES:
            return None
        known = _remembered(path, st) if _SETTLED else None
        if known is not None:
            return known
        digest = hashlib.blake2b(digest_size=20)
        total = 0
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            total += len(chunk)
            if total > MAX_FILE_BYTES:
                return None
            digest.update(chunk)
        return digest.hexdigest()
    except OSError:
        return None
    finally:
        os.close(fd)


def key_of(*parts: object) -> str:
    """One key for the given parts, the package (version and source) and the working directory."""
    digest = hashlib.blake2b(digest_size=20)
    digest.update(f"{package_digest()}\0{os.getcwd()}\0".encode("utf-8", "surrogateescape"))
    for part in parts:
        digest.update(repr(part).encode("utf-8", "surrogateescape"))
        digest.update(b"\0")
    return digest.hexdigest()


class Store:
    """Pickled results by key for one namespace and folder; read on first use, saved by :meth:`save`."""

    def __init__(self, namespace: str, scope: Path, *, enabled: bool = True, keep: int = MAX_KEPT_ENTRIES) -> None:
        name = hashlib.blake2b(f"{namespace}\0{os.path.abspath(scope)}".encode("utf-8", "surrogateescape"), digest_size=12).hexdigest()
        self.path = cache_dir() / "files" / f"{namespace}-{name}.pickle"
        self.enabled = enabled
        self.keep = keep
        self._entries: dict[str, bytes] | None = None
        self._used: dict[str, bytes] = {}
        self._dirty = False

    def _load(self) -> dict[str, bytes]:
        if self._entries is None:
            self._entries = {}
            if self.enabled:
                self._entries = _read_entries(self.path)
        return self._entries

    def get(self, key: str) -> Any:
        """The result stored under ``key``, or None (also for an entry that cannot be read)."""
        if not self.enabled:
            return None
        blob = self._load().get(key)
        if blob is None:
            return None
        try:
            value = pickle.loads(blob)
        except Exception:  # a damaged entry is a miss, whatever the unpickler raises
            return None
        self._used[key] = blob
        return value

    def forget(self, key: str) -> None:
        """Drop what was read or put under ``key`` from memory (it is not saved again): for a
        large result that the caller holds unpickled and will put anew or not at all."""
        self._load().pop(key, None)
        self._used.pop(key, None)

    def put(self, key: str, value: Any) -> None:
        if not self.enabled:
            return
        try:
            blob = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:
            return
        self.put_blob(key, blob)

    def put_blob(self, key: str, blob: bytes) -> None:
        """Store an already pickled result (as a worker process returns it)."""
        if self.enabled:
            self._used[key] = blob
            self._dirty = True

    def save(self) -> None:
        """Write the store (atomically) if this run added anything; never raises."""
        if not (self.enabled and self._dirty):
            return
        entries = dict(self._used)
        for key, blob in self._load().items():
            if len(entries) >= max(self.keep, len(self._used)):
                break
            entries.setdefault(key, blob)
        try:
            data = pickle.dumps({"format": _FORMAT, "package": package_digest(), "entries": entries}, protocol=pickle.HIGHEST_PROTOCOL)
            write_private(self.path, data)
        except Exception:  # unwritable cache folder, full disk: work on without a store
            pass
        self._dirty = False


def _read_entries(path: Path) -> dict[str, bytes]:
    raw = read_private(path, MAX_STORE_BYTES)
    if raw is None:
        return {}
    try:
        data = pickle.loads(raw)
    except Exception:
        return {}
    if not isinstance(data, dict) or data.get("format") != _FORMAT or data.get("package") != package_digest():
        return {}
    entries = data.get("entries")
    if not isinstance(entries, dict):
        return {}
    return {k: v for k, v in entries.items() if isinstance(k, str) and isinstance(v, bytes)}


def cached(store: Store, key: str | None, compute: Callable[[], Any]) -> Any:
    """``compute()``, or the result stored under ``key`` (stored now if it was computed)."""
    if key is not None:
        found = store.get(key)
        if found is not None:
            return found
    value = compute()
    if key is not None:
        store.put(key, value)
    return value
