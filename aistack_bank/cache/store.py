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
import struct
from stat import S_ISREG
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
    written: another user could have planted a pickle there).

    Each folder's status is taken first, and a folder made only when there is none (a command
    checks the same few folders for each of its cache files: at 1 000 topics about 5 000 times,
    each once made)."""
    root = cache_dir()
    base, name = os.fspath(root), os.fspath(folder)
    # (``folder.relative_to(root)`` on the paths' strings: both are normalized paths)
    if name == base:
        parts: list[str] = []
    elif name.startswith(base + os.sep):  # (``base`` ends with the folder's own name, never a separator)
        parts = name[len(base) + 1:].split(os.sep)
    else:
        return False
    current = base
    uid = os.geteuid()
    for part in ("", *parts):
        current = os.path.join(current, part) if part else current
        try:
            st = os.lstat(current)
        except FileNotFoundError:
            if not create:
                return False
            try:
                if not part:
                    root.parent.mkdir(parents=True, exist_ok=True)  # $XDG_CACHE_HOME itself: not ours to set
                try:
                    os.mkdir(current, 0o700)
                except FileExistsError:  # (made meanwhile: checked as any other)
                    pass
                st = os.lstat(current)
            except OSError:
                return False
        except OSError:
            return False
        if not stat.S_ISDIR(st.st_mode) or st.st_uid != uid:
            return False
        if st.st_mode & 0o022:
            try:
                os.chmod(current, stat.S_IMODE(st.st_mode) & ~0o022)
            except OSError:
                return False
    return True


def _open_private(path: Path, max_bytes: int) -> tuple[int, os.stat_result] | None:
    """The cache file ``path`` opened (its descriptor and stat, for the caller to close) if it
    and its folders are the user's own and writable by no one else, and it is a regular file
    (not a link) of at most ``max_bytes``; else None."""
    if not private_folder(path.parent, create=False):
        return None
    opened = _open_regular(path)
    if opened is None:
        return None
    fd, st = opened
    if not _private(st) or st.st_size > max_bytes:
        os.close(fd)
        return None
    return opened


def read_private(path: Path, max_bytes: int) -> bytes | None:
    """The bytes of the cache file ``path`` if it and its folders are the user's own and
    writable by no one else, a regular file (not a link) of at most ``max_bytes``; else None.

    Pickles run code when loaded: only files this user wrote, and that no one else could have
    replaced, are unpickled."""
    opened = _open_private(path, max_bytes)
    if opened is None:
        return None
    fd, st = opened
    try:
        chunks, total = [], 0
        while total <= max_bytes:
            # the whole file in one read when it can (no copy to join), else a chunk at a time
            chunk = os.read(fd, min(max(st.st_size + 1 - total, 1 << 20), max_bytes + 1 - total, 1 << 30))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > max_bytes:
            return None
        return chunks[0] if len(chunks) == 1 else b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(fd)


def map_private(path: Path, max_bytes: int):
    """The cache file ``path`` mapped read-only (an :class:`mmap.mmap`, whose slices are bytes),
    on the conditions of :func:`read_private`; else None. For a large file of which a command
    compares most bytes but keeps none: nothing is copied into the process's own memory. (A
    cache file is replaced whole, never written in place: the mapped one stays as it was.)"""
    import mmap

    opened = _open_private(path, max_bytes)
    if opened is None:
        return None
    fd, st = opened
    try:
        if st.st_size == 0:
            return None
        return mmap.mmap(fd, 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError):
        return None
    finally:
        os.close(fd)


def _open_regular(path: Path | str) -> tuple[int, os.stat_result] | None:
    """A descriptor of ``path`` and its status when it is a regular file, opened without following
    a symbolic link or blocking on a FIFO; else None, with nothing left open. (A cache file this
    process wrote in :func:`deferred_writes` is read from its temporary file until it is renamed in.)"""
    try:
        fd = os.open(_current(path), os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
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


def write_private(path: Path, data: bytes | Callable[[int], None], unchanged: Callable[[Path], bool] | None = None) -> bool:
    """Write the cache file ``path`` atomically (mode 0644) into a folder of the user's own;
    False, writing nothing, when the folder is not (see :func:`private_folder`). Within
    :func:`deferred_writes`, the bytes are in a temporary file beside ``path``, flushed to the
    disk and renamed in at the end of the block. ``data`` is the bytes, or a function that
    writes them through a descriptor (:func:`~aistack_bank.writing.stage_file`). A file that
    already holds the bytes is left as it is: for bytes, when it has them; for a function,
    when ``unchanged(path)`` says so."""
    from ..writing import stage_file, sync_files, write_atomic

    if not private_folder(path.parent):
        return False
    if _DEFERRED is not None and _DEFERRED[0] == os.getpid():
        _defer(path, data, _DEFERRED[1], unchanged)
        return True
    if not callable(data):
        write_atomic(path, data)
        return True
    if unchanged is not None and unchanged(path):
        return True
    staged: list[tuple[str, Path]] = []
    try:
        stage_file(path, data, staged)
        sync_files(staged)
        os.replace(staged[0][0], path)
    except BaseException:
        for tmp, _ in staged:
            _remove(tmp)
        raise
    return True


_DEFERRED: tuple[int, dict[str, tuple[str, Path]]] | None = None
"""While :func:`deferred_writes` runs: the process that runs it and the cache files it wrote,
{path: (temporary file, path)} in the order of their latest writes."""


class deferred_writes:
    """The cache files a command writes (:func:`write_private`) flushed to the disk together at
    its end, then each renamed into place, in the order they were last written.

    One flush after the other waits for a journal transaction each (about 25 cache files in a
    cold ``bank validate`` of a small bank: 0.1–0.2 s of waiting); flushed at once, a few
    transactions take them all (:func:`~aistack_bank.writing.sync_each`). Each file is still on
    the disk before it is renamed in, and the renames come in the order of the writes, so a
    crash leaves what a crash between two writes left before. Until the end, this process reads
    the files it wrote from their temporary files (:func:`_open_regular`, and a records file is
    appended to there); another process (a worker forked from this one included) reads and
    writes as without the block. A file that cannot be flushed or renamed is not written
    (a cache that cannot be written is worked on without). Nested blocks are one."""

    def __enter__(self):
        global _DEFERRED
        self.owner = _DEFERRED is None or _DEFERRED[0] != os.getpid()
        if self.owner:
            _DEFERRED = (os.getpid(), {})
        return self

    def __exit__(self, *exc) -> None:
        global _DEFERRED
        if not self.owner or _DEFERRED is None:
            return
        pid, pending = _DEFERRED
        _DEFERRED = None
        if pid == os.getpid():  # (a forked process that leaves the block settles nothing of its parent's)
            _settle(list(pending.values()))


def _defer(path: Path, data: bytes | Callable[[int], None], pending: dict[str, tuple[str, Path]], unchanged: Callable[[Path], bool] | None = None) -> None:
    from ..writing import same_bytes, stage_file

    earlier = pending.pop(os.fspath(path), None)  # written again: only the latest bytes go in, in its place in the order
    if earlier is not None:
        _remove(earlier[0])
    if same_bytes(path, data) if not callable(data) else unchanged is not None and unchanged(path):
        return
    staged: list[tuple[str, Path]] = []
    try:
        stage_file(path, data, staged)
    except BaseException:
        for tmp, _ in staged:
            _remove(tmp)
        raise
    pending[os.fspath(path)] = staged[0]


def _settle(pending: list[tuple[str, Path]]) -> None:
    """Flush every ``(temporary file, path)`` to the disk, then rename each that was into place,
    in order; remove the others. Never raises an OSError."""
    from ..writing import sync_each

    done = 0
    try:
        failed = sync_each(pending)
        for index, (tmp, path) in enumerate(pending):
            if index in failed:
                _remove(tmp)
            else:
                try:
                    os.replace(tmp, path)
                except OSError:
                    _remove(tmp)
            done = index + 1
    finally:
        for tmp, _ in pending[done:]:  # (interrupted: the one being renamed included, if it was not)
            _remove(tmp)
    _sweep({os.fspath(path.parent) for _, path in pending})


STALE_TEMP_SECONDS = 24 * 3600
"""Age from which a temporary file of a cache write that no command renamed in is removed
(:func:`_sweep`): a command that runs this long after its write loses only that write."""


def _sweep(folders: set[str]) -> None:
    """Remove from the cache ``folders`` the temporary files (``.NAME.XXXXXXXX.tmp``) of cache
    writes and the spill files (``spill-XXXXXXXX.tmp``, :class:`~.questionfiles.Spill`) older
    than :data:`STALE_TEMP_SECONDS`: what a command killed outright (SIGKILL, SIGTERM, a closed
    terminal) left of its :func:`deferred_writes` (a large bank's records files among them),
    which no later command would rename in, and of the records it read. Never raises an OSError."""
    import time

    before = time.time() - STALE_TEMP_SECONDS
    for folder in folders:
        try:
            with os.scandir(folder) as listing:
                for entry in listing:
                    name = entry.name
                    if not (name.endswith(".tmp") and ((name.startswith(".") and name.count(".") >= 3) or name.startswith("spill-"))):
                        continue
                    try:
                        if entry.is_file(follow_symlinks=False) and entry.stat(follow_symlinks=False).st_mtime < before:
                            os.unlink(entry.path)
                    except OSError:
                        pass
        except OSError:
            pass


def _remove(tmp: str) -> None:
    try:
        os.unlink(tmp)
    except OSError:
        pass


def _current(path: Path | str) -> Path | str:
    """The file that holds ``path``'s bytes for this process: its temporary file while
    :func:`deferred_writes` holds it back, else ``path``."""
    if _DEFERRED is None or _DEFERRED[0] != os.getpid():
        return path
    found = _DEFERRED[1].get(os.fspath(path))
    return path if found is None else found[0]


_SOURCE_SUFFIXES = frozenset((".py", ".js", ".css", ".html"))
"""The endings of the files :func:`package_digest` reads: the code and the assets it runs."""


@lru_cache(maxsize=1)
def package_digest() -> str:
    """A digest of the package's version and of every source file it runs (code and assets)."""
    digest = hashlib.blake2b(digest_size=16)
    digest.update(f"{_FORMAT}\0{__version__}\0".encode())
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the whole package, not only cache/
    for name, path in _package_files(package):
        digest.update(name.encode())
        with open(path, "rb") as handle:
            digest.update(handle.read())
    return digest.hexdigest()


def _package_files(package: str) -> list[tuple[str, str]]:
    """(its name under ``package``, with ``/``, its path) for every file :func:`package_digest`
    reads, in the order of their paths (compared part by part, as ``sorted(Path.rglob("*"))``)."""
    return [("/".join(parts), path) for parts, path in sorted(_source_files(package, ()))]


def _source_files(folder: str, parts: tuple[str, ...]) -> list[tuple[tuple[str, ...], str]]:
    """(its path's parts under the package, its path) for every file under ``folder`` whose name
    ends with one of :data:`_SOURCE_SUFFIXES`: the files ``Path.rglob("*")`` lists there and
    ``suffix`` and ``is_file()`` keep (a folder that is a symbolic link is not entered, one that
    cannot be listed is left out); sorted, in the order of their sorted paths."""
    found = []
    try:
        with os.scandir(folder) as entries:
            listed = list(entries)
    except PermissionError:
        return found
    for entry in listed:
        name = entry.name
        dot = name.rfind(".")  # (Path.suffix: the last dot, neither first nor last)
        if 0 < dot < len(name) - 1 and name[dot:] in _SOURCE_SUFFIXES and entry.is_file():
            found.append(((*parts, name), entry.path))
        if entry.is_dir(follow_symlinks=False):
            found += _source_files(entry.path, (*parts, name))
    return found


_SETTLED: list[tuple[dict, int]] = []
"""Content digests this process already took: ({file name: (identity, digest)}, when they were taken)."""


def identity(st: os.stat_result) -> tuple:
    """What any write to a file changes: device, inode, size, modification and change times."""
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def remember_digests(entries: dict, now_ns: int) -> None:
    """Let :func:`file_digest` reuse, in this process, the content digests of ``entries``
    ({file name as walked: (identity, content digest of its bytes: :data:`CONTENT_ALGORITHM`)}, taken at
    ``now_ns``): for a file of the same name and identity (:func:`identity`) that was last
    written more than :data:`RACY_NS` before they were taken (a later write then changes its
    modification or change time)."""
    _SETTLED[:] = [(entries, now_ns)]


def _remembered(path: Path | str, st: os.stat_result, *, unsettled: bool = False) -> str | None:
    for entries, now_ns in _SETTLED:
        known = entries.get(str(path))
        if (type(known) is tuple and len(known) == 2 and known[0] == identity(st) and type(known[1]) is bytes
                and (unsettled or now_ns - max(st.st_mtime_ns, st.st_ctime_ns) > RACY_NS)):
            return known[1].hex()
    return None


_READ: dict[str, str | None] = {}
"""The content digest of the bytes of a file that this command read and used whole, by absolute
path (None: read twice with different bytes, or read again in part: see :func:`note_read`)."""


def clear_reads() -> None:
    """Forget the reads noted so far (a command's first input digest starts a new run)."""
    _READ.clear()
    _BYTES.clear()


def note_read(path: Path | str, digest: str | None) -> None:
    """Note that this command read the whole file at ``path`` and used those bytes, whose content
    digest (as :func:`file_digest` gives it) is ``digest``; None: it also read some of it again
    (then nothing is known of what it used). A second read with other bytes makes it None."""
    name = os.path.abspath(path)
    _READ[name] = digest if _READ.get(name, digest) == digest else None


_BYTES: dict[str, tuple[tuple, bytes, str]] = {}
"""The bytes of the one catalog the input digest read whole and digested this run (see
:func:`keep_bytes`), by absolute path: (identity when read, bytes, their content digest)."""


def keep_bytes(path: Path | str, ident: tuple, data: bytes, digest: str) -> None:
    """Keep the bytes ``data`` just read of ``path`` (whose identity, :func:`identity`, was
    ``ident`` while they were read) and their content ``digest``, for this command's read of
    the same file to use instead of reading and digesting it again (:func:`take_bytes`): at
    most one file's, dropped when a second is offered (then neither is read in this process)."""
    name = os.path.abspath(path)
    if _BYTES and name not in _BYTES:
        keep_no_bytes()  # (a second file)
        return
    if "" not in _BYTES:
        _BYTES[name] = (ident, data, digest)


def keep_no_bytes() -> None:
    """Keep no file's bytes for the rest of this run (:func:`keep_bytes` refuses them all): as
    when a second file is offered, said before either is read by a caller that knows two will be."""
    _BYTES.clear()
    _BYTES[""] = ((), b"", "")


def take_bytes(path: Path | str, st: os.stat_result) -> tuple[bytes, str] | None:
    """(bytes, content digest) kept by :func:`keep_bytes` for ``path`` if the file still has the
    identity it had when they were read (they are handed out once). A command that uses them
    notes them as read (:func:`note_read`) with that digest: what it computes from them is
    kept only under the digest of these bytes, whatever the file holds by then."""
    found = _BYTES.pop(os.path.abspath(path), None)
    if found is None or found[0] != identity(st):
        return None
    return found[1], found[2]


def drop_bytes() -> None:
    """Forget the bytes kept by :func:`keep_bytes` (a new run starts, or they are not needed)."""
    _BYTES.clear()


def read_digest(path: Path | str) -> str | None:
    """The content digest of the bytes this command read of ``path`` (:func:`note_read`), if
    every read of it this command made had those bytes; else None."""
    return _READ.get(os.path.abspath(path))


RACY_NS = 3_000_000_000
"""A file written this recently is digested again: a second write in the same timestamp tick
would leave its identity unchanged."""


CONTENT_ALGORITHM = "sha256"
"""The content digest of a file (:func:`file_digest`, :func:`content_digest`, the input digest's
stat memo, a catalog read's token): SHA-256, which processors with the SHA extensions compute
in hardware (on this project's machine 2.4 times BLAKE2b's speed over large files, twice over
files of a few kilobytes). Every part of the cache that compares content digests takes them from
:func:`content_hasher`."""


def content_hasher():
    """A new hasher of :data:`CONTENT_ALGORITHM`: its ``hexdigest()`` is a content digest."""
    return hashlib.sha256()


def content_digest(data: bytes) -> str:
    """The content digest of a file whose bytes are ``data``, as :func:`file_digest` gives it."""
    digest = content_hasher()
    digest.update(data)
    return digest.hexdigest()


def file_digest(path: Path | str, *, lookup: bool = False) -> str | None:
    """The content digest of a regular file that is not a symbolic link, else None.

    None means "do not cache": links (whose verdict depends on where they lead), special files,
    unreadable and oversized files are always read and checked afresh. A digest this process
    already took of the same file, unchanged since (:func:`remember_digests`), is not taken again
    (one ``lstat``: a regular file, not a link, with the identity it had).

    With ``lookup`` (a key to look a result up with, never one to keep a result under), that
    digest also when the file had been written just before it was taken: a write since in the
    same timestamp tick could have left its identity unchanged, so a result is kept only under
    a key whose digest is of the bytes it was computed from (:func:`read_digest`) or was taken
    again after computing it."""
    if _SETTLED:
        try:
            st = os.lstat(path)
        except OSError:
            return None
        if not S_ISREG(st.st_mode) or st.st_size > MAX_FILE_BYTES:
            return None
        known = _remembered(path, st, unsettled=lookup)
        if known is not None:
            return known
    opened = _open_regular(path)
    if opened is None:
        return None
    fd, st = opened
    try:
        if st.st_size > MAX_FILE_BYTES:
            return None
        digest = content_hasher()
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


_KEY_BASE: list = [None, None]
"""The working directory and the digest of the package and that directory, ready to be copied."""


def key_of(*parts: object) -> str:
    """One key for the given parts, the package (version and source) and the working directory."""
    return key_hasher(*parts).hexdigest()


def key_hasher(*parts: object):
    """The digest of the package, the working directory and ``parts`` (what :func:`key_of` is
    the hex digest of)."""
    cwd = os.getcwd()
    if _KEY_BASE[0] != cwd:
        base = hashlib.blake2b(digest_size=20)
        base.update(f"{package_digest()}\0{cwd}\0".encode("utf-8", "surrogateescape"))
        _KEY_BASE[:] = [cwd, base]
    digest = _KEY_BASE[1].copy()
    for part in parts:
        digest.update(repr(part).encode("utf-8", "surrogateescape"))
        digest.update(b"\0")
    return digest


def _store_path(namespace: str, scope: Path) -> Path:
    """The index file of a store of ``namespace`` for the folder ``scope``."""
    name = hashlib.blake2b(f"{namespace}\0{os.path.abspath(scope)}".encode("utf-8", "surrogateescape"), digest_size=12).hexdigest()
    return cache_dir() / "files" / f"{namespace}-{name}.pickle"


def store_exists(namespace: str, scope: Path) -> bool:
    """Whether a store of ``namespace`` for the folder ``scope`` has an index file (a guess
    about the work ahead: what it holds is read and checked only through :class:`Store`)."""
    return os.path.isfile(_current(_store_path(namespace, scope)))


class Store:
    """Pickled results by key for one namespace and folder; read on first use, saved by :meth:`save`."""

    def __init__(self, namespace: str, scope: Path, *, enabled: bool = True, keep: int = MAX_KEPT_ENTRIES) -> None:
        self.path = _store_path(namespace, scope)
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

    def has(self, key: str) -> bool:
        """Whether a result is stored under ``key`` (without unpickling it: :meth:`get` may still miss)."""
        return self.enabled and key in self._load()

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


MAX_RECORDS_BYTES = 1 << 31
"""A records file larger than this is not read (its entries are then computed again)."""
_TOKEN_BYTES = 16
_FRAME = struct.Struct("<8sQQ20s")
"""A journal frame's head: its mark, the length of its large parts, that of its index part, and
the BLAKE2b digest (20 bytes) of both, which follow it."""
_FRAME_MARK = b"bankjnl1"
MAX_JOURNAL_BYTES = 4 << 20
"""Bytes of journal frames (with their large parts) after the index's records from which a save
writes the index anew (then the frames are part of the records file it names)."""
MAX_JOURNAL_FRAMES = 64
"""Journal frames from which a save writes the index anew."""


class SplitStore:
    """Results by key, each a small part and a large one (bytes), for one namespace and folder.

    The small parts of every entry are pickled together in an index (read at once, as a
    :class:`Store` is); the large parts lie one after another in a records file beside it, which
    a run appends its new ones to instead of writing every entry again. The records file starts
    with a random token that the index names, with the size it had: a records file replaced,
    truncated or of another index means no large part is served (each entry is then a miss).
    Appended bytes are flushed to disk before the index that points to them is written; a
    records file holding more than twice the bytes its index uses is written anew.

    A run that adds a few entries to an index it read does not write the index again: it
    appends one journal frame to the records file, after the bytes the index names (its new
    large parts, then the index part of its new entries, after a head with their lengths and
    the digest of both). Reading the index replays the frames that follow it, in order, up to
    the first that is cut short, damaged or not a frame (the entries of the frames from there
    are misses, and the next save writes the index anew); the index is written anew too once
    the frames hold :data:`MAX_JOURNAL_BYTES` or number :data:`MAX_JOURNAL_FRAMES`. A frame
    needs no flush to disk before it counts: one cut short by a crash fails its digest."""

    def __init__(self, namespace: str, scope: Path, *, enabled: bool = True, keep: int = MAX_KEPT_ENTRIES, positional: bool = False) -> None:
        self.positional = positional
        """Large parts read one at a time from the records file (:class:`_FileRecords`), which is
        then never read whole into memory."""
        self.path = _store_path(namespace, scope)
        self.records_path = self.path.with_suffix(".records")
        self.enabled = enabled
        self.keep = keep
        self._entries: dict[str, tuple] | None = None
        self._token: bytes | None = None
        self._size = 0
        self._records: memoryview | None = None
        self._used: dict[str, tuple] = {}
        self._new: dict[str, bytes] = {}
        self._dirty = False
        self._journal = (0, 0, False)
        """(bytes, frames) of the journal frames replayed after the index's records, and whether
        something that is not a whole frame follows them."""

    def _load(self) -> dict[str, tuple]:
        if self._entries is None:
            self._entries = {}
            if self.enabled:
                raw = read_private(self.path, MAX_STORE_BYTES)
                try:
                    data = pickle.loads(raw) if raw is not None else None
                except Exception:
                    data = None
                if (isinstance(data, dict) and data.get("format") == _FORMAT and data.get("package") == package_digest()
                        and type(data.get("token")) is bytes and len(data["token"]) == _TOKEN_BYTES and type(data.get("size")) is int
                        and isinstance(data.get("entries"), dict)):
                    self._token, self._size, self._entries = data["token"], data["size"], data["entries"]
                    self._replay()
        return self._entries

    def _replay(self) -> None:
        """Apply the journal frames that follow the index's records in the records file (when
        it is the one the index names): their entries, and the records file's size to serve
        from, extended to the end of the last whole frame."""
        if not private_folder(self.records_path.parent, create=False):
            return
        opened = _open_regular(self.records_path)
        if opened is None:
            return
        fd, st = opened
        try:
            if not (_private(st) and self._size <= st.st_size <= MAX_RECORDS_BYTES and os.pread(fd, _TOKEN_BYTES, 0) == self._token):
                return  # (then no large part is served: see _record_bytes)
            length = st.st_size - self._size
            if length == 0:
                return
            if length > 2 * MAX_JOURNAL_BYTES:
                self._journal = (0, 0, True)
                return
            tail = read_at(fd, self._size, length)
        except OSError:
            return
        finally:
            os.close(fd)
        at, frames, entries = 0, 0, self._entries
        while at + _FRAME.size <= length:
            mark, large, small, digest = _FRAME.unpack_from(tail, at)
            start = at + _FRAME.size
            end = start + large + small
            if mark != _FRAME_MARK or end > length or hashlib.blake2b(tail[start:end], digest_size=20).digest() != digest:
                break
            try:
                found = pickle.loads(tail[start + large:end])
            except Exception:
                break
            if not isinstance(found, dict):
                break
            base = self._size + start
            for key, entry in found.items():
                if (type(key) is str and type(entry) is tuple and len(entry) == 3 and type(entry[1]) is int and type(entry[2]) is int
                        and entry[1] >= 0 and entry[2] >= 0 and entry[1] + entry[2] <= large):
                    entries[key] = (entry[0], base + entry[1], entry[2])
            at, frames = end, frames + 1
        self._size += at
        self._journal = (at, frames, at < length)

    def _record_bytes(self) -> "memoryview | _FileRecords | None":
        """The records file as read, if it is the one the index names (else None: no hit)."""
        if self._records is None and self._token is not None and self.positional:
            records = _FileRecords.open(self.records_path, self._size, self._token)
            if records is None:
                self._token = None
            self._records = records
        if self._records is None and self._token is not None:
            raw = read_private(self.records_path, MAX_RECORDS_BYTES)
            if raw is not None and len(raw) >= self._size and raw[:_TOKEN_BYTES] == self._token:
                self._records = memoryview(raw)
            else:
                self._token = None
        return self._records

    def get(self, key: str) -> tuple[Any, memoryview] | None:
        """(small part, large part) stored under ``key``, or None (also for an entry that cannot be read)."""
        if not self.enabled:
            return None
        found = self._load().get(key)
        if not (type(found) is tuple and len(found) == 3 and type(found[1]) is int and type(found[2]) is int
                and _TOKEN_BYTES <= found[1] and found[2] >= 0 and found[1] + found[2] <= self._size):
            return None
        records = self._record_bytes()
        if records is None:
            return None
        try:
            large = records[found[1]:found[1] + found[2]]
        except OSError:  # (a records file read by position, cut short since)
            return None
        self._used[key] = found
        return found[0], large

    def places(self, keys: list[str | None]) -> list[tuple[Any, "_FileRecords", int, int] | None]:
        """For each of ``keys``: (small part, records file, where its large part is, its length),
        without reading the large part (a store with ``positional`` only), or None as
        :meth:`get` gives it (also for a key that is None); in one pass over the keys."""
        if not (self.enabled and self.positional):
            return [None] * len(keys)
        entries, size, used = self._load(), self._size, self._used
        records = None
        out: list = []
        for key in keys:
            found = entries.get(key) if key is not None else None
            if not (type(found) is tuple and len(found) == 3 and type(found[1]) is int and type(found[2]) is int
                    and _TOKEN_BYTES <= found[1] and found[2] >= 0 and found[1] + found[2] <= size):
                out.append(None)
                continue
            if records is None:
                records = self._record_bytes()
                if not isinstance(records, _FileRecords):  # no records file to serve from: every entry a miss
                    return [None] * len(keys)
            used[key] = found
            out.append((found[0], records, found[1], found[2]))
        return out

    def put(self, key: str, small: Any, large: Any) -> None:
        """Store ``small`` (pickled with the index) and ``large`` (appended to the records file):
        bytes, or where they are in a file of this run, not held until the store is written (an
        object with a length, a ``place()`` giving the open file, offset and length, and a static
        ``read_parts(parts)`` giving the bytes of each of a list of them, such as
        :class:`~.questionfiles.Spilled`): a records file written anew then copies them from
        there within the kernel (:func:`_write_parts`)."""
        if self.enabled:
            self._used[key] = (small, -1, len(large))
            self._new[key] = large
            self._dirty = True

    def _read_new(self) -> None:
        """The large parts given by where they are (:meth:`put`) read, together (to be appended
        to a records file; one written anew copies them from where they are: :func:`_write_parts`)."""
        lazy: dict[type, list[str]] = {}
        for key, large in self._new.items():
            if not isinstance(large, (bytes, bytearray, memoryview)):
                lazy.setdefault(type(large), []).append(key)
        for kind, keys in lazy.items():
            for key, large in zip(keys, kind.read_parts([self._new[key] for key in keys])):
                self._new[key] = large

    def save(self) -> None:
        """Write what this run added (a journal frame, or the index anew, atomically); never raises."""
        if not (self.enabled and self._dirty):
            return
        self._dirty = False
        import gc

        # (the collector paused: pickling the index makes many small objects, the summaries'
        # arguments among them, all gone when it is written, which a collection would walk)
        paused = gc.isenabled()
        gc.disable()
        try:
            self._save()
        finally:
            if paused:
                gc.enable()

    def _save(self) -> None:
        try:
            if self._append_frame():
                return
        except Exception:  # (then the index is written anew)
            pass
        entries = dict(self._used)
        for key, found in self._load().items():
            if len(entries) >= max(self.keep, len(self._used)):
                break
            if type(found) is tuple and len(found) == 3 and type(found[1]) is int and type(found[2]) is int and found[1] + found[2] <= self._size:
                entries.setdefault(key, found)
        try:
            live = sum(found[2] for found in entries.values())
            token, size = self._append(entries) if self._token is not None and self._size <= 2 * live + (4 << 20) else (None, 0)
            if token is None:
                token, size = self._rewrite(entries)
            if token is None:
                return
            data = pickle.dumps({"format": _FORMAT, "package": package_digest(), "token": token, "size": size, "entries": entries},
                                protocol=pickle.HIGHEST_PROTOCOL)
            write_private(self.path, data)
        except Exception:  # unwritable cache folder, full disk: work on without a store
            pass

    def _append_frame(self) -> bool:
        """Append this run's new entries to the records file the index names, as one journal
        frame; False (nothing written) when the index is to be written anew instead."""
        entries = self._load()
        held, frames, damaged = self._journal
        if self._token is None or damaged or frames + 1 >= MAX_JOURNAL_FRAMES:
            return False
        new = [key for key in self._used if key in self._new]
        if len(entries) + len(new) > self.keep:
            return False
        self._read_new()
        parts, index, at = [], {}, 0
        for key in new:
            large = self._new[key]
            parts.append(large)
            index[key] = (self._used[key][0], at, len(large))
            at += len(large)
        small = pickle.dumps(index, protocol=pickle.HIGHEST_PROTOCOL)
        body = b"".join(parts) + small
        if held + _FRAME.size + len(body) > MAX_JOURNAL_BYTES:
            return False
        frame = _FRAME.pack(_FRAME_MARK, at, len(small), hashlib.blake2b(body, digest_size=20).digest()) + body
        if not private_folder(self.records_path.parent, create=False):
            return False
        try:
            fd = os.open(_current(self.records_path), os.O_RDWR | os.O_APPEND | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
        except OSError:
            return False
        try:
            st = os.fstat(fd)
            # the file the index names, with no more than the frames read after its records
            if not (stat.S_ISREG(st.st_mode) and _private(st) and st.st_size == self._size and os.pread(fd, _TOKEN_BYTES, 0) == self._token):
                return False
            written = os.write(fd, frame)
        except OSError:
            return False
        finally:
            os.close(fd)
        return written == len(frame)

    def _append(self, entries: dict[str, tuple]) -> tuple[bytes | None, int]:
        """Append the new large parts to the records file the index names (their places set in
        ``entries``); (token, size now), or (None, 0) when that file is not there as it was."""
        if not private_folder(self.records_path.parent, create=False):
            return None, 0
        try:
            fd = os.open(_current(self.records_path), os.O_RDWR | os.O_APPEND | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
        except OSError:
            return None, 0
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode) or not _private(st) or st.st_size < self._size or os.pread(fd, _TOKEN_BYTES, 0) != self._token:
                return None, 0
        except OSError:
            os.close(fd)
            return None, 0
        try:
            self._read_new()
            blob = b"".join(self._new[key] for key in entries if key in self._new)
            if blob:
                if os.write(fd, blob) != len(blob):  # (then the records file is written anew)
                    return None, 0
                os.fsync(fd)  # before the index that points to them
            end = os.lseek(fd, 0, os.SEEK_CUR) if blob else st.st_size
        finally:
            os.close(fd)
        at = end - len(blob)
        for key in entries:
            if key in self._new:
                small, _, length = entries[key]
                entries[key] = (small, at, length)
                at += length
        return self._token, end

    def _rewrite(self, entries: dict[str, tuple]) -> tuple[bytes | None, int]:
        """Write a records file anew with every large part ``entries`` use (their places set)."""
        records = self._record_bytes()
        token = os.urandom(_TOKEN_BYTES)
        parts, at = [token], _TOKEN_BYTES
        for key, (small, offset, length) in list(entries.items()):
            if key in self._new:
                part = self._new[key]
            elif records is not None and offset >= _TOKEN_BYTES and offset + length <= len(records):
                part = records[offset:offset + length]
            else:
                del entries[key]
                continue
            parts.append(part)
            entries[key] = (small, at, length)
            at += length
        if not _write_parts(self.records_path, parts):
            return None, 0
        return token, at


def _write_parts(path: Path, parts: list) -> bool:
    """:func:`write_private` of the bytes of ``parts`` one after the other: each bytes, or a part
    given by where it is (:meth:`SplitStore.put`), copied from its file to this one within the
    kernel (:func:`_copy_parts`), so that a records file of the run's new records is written
    without holding them. The file starts with a new random token, so is never the one there
    already."""
    return write_private(path, lambda fd: _copy_parts(fd, parts))


def _copy_parts(fd: int, parts: list) -> None:
    """Write each of ``parts`` (see :func:`_write_parts`) to the open file ``fd``, in order."""
    index = 0
    while index < len(parts):
        part = parts[index]
        index += 1
        if isinstance(part, (bytes, bytearray, memoryview)):
            view = memoryview(part)
            while view:
                view = view[os.write(fd, view):]
            continue
        source, at, length = part.place()
        while index < len(parts) and not isinstance(parts[index], (bytes, bytearray, memoryview)):
            more = parts[index].place()
            if more[0] != source or more[1] != at + length:
                break
            length += more[2]
            index += 1
        while length > 0:
            copied = 0
            if hasattr(os, "copy_file_range"):
                try:
                    copied = os.copy_file_range(source, fd, length, at)
                except OSError:  # (not between these files: read and written)
                    copied = 0
            if copied <= 0:
                chunk = read_at(source, at, min(length, 1 << 24))
                view = memoryview(chunk)
                while view:
                    view = view[os.write(fd, view):]
                copied = len(chunk)
            at += copied
            length -= copied


def read_at(fd: int, at: int, length: int) -> bytes:
    """``length`` bytes of the open file ``fd`` from offset ``at`` (OSError when it has fewer)."""
    chunks = []
    while length > 0:
        chunk = os.pread(fd, length, at)
        if not chunk:
            raise OSError("file shorter than expected")
        chunks.append(chunk)
        at += len(chunk)
        length -= len(chunk)
    return b"".join(chunks)


class _FileRecords:
    """A records file read by position (``records[at:at + length]`` gives those bytes), held open:
    what :class:`SplitStore` with ``positional`` reads its large parts from, a part at a time."""

    def __init__(self, fd: int, size: int) -> None:
        import weakref

        self.fd, self.size = fd, size
        self._finalizer = weakref.finalize(self, os.close, fd)

    @classmethod
    def open(cls, path: Path, size: int, token: bytes) -> "_FileRecords | None":
        """The records file at ``path`` if it is private, a regular file of at least ``size``
        bytes starting with ``token`` (as :func:`read_private` would read it); else None."""
        if not hasattr(os, "pread") or not private_folder(path.parent, create=False):
            return None
        opened = _open_regular(path)
        if opened is None:
            return None
        fd, st = opened
        try:
            if _private(st) and size <= st.st_size <= MAX_RECORDS_BYTES and os.pread(fd, _TOKEN_BYTES, 0) == token:
                return cls(fd, st.st_size)
        except OSError:
            pass
        os.close(fd)
        return None

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, part: slice) -> bytes:
        at, end, _ = part.indices(self.size)
        chunks = []
        while at < end:
            chunk = os.pread(self.fd, end - at, at)
            if not chunk:
                raise OSError("records file shorter than expected")
            chunks.append(chunk)
            at += len(chunk)
        return b"".join(chunks)
