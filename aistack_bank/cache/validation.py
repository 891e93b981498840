"""A content-hash cache of `bank validate` verdicts, so an unchanged bank validates instantly.

The key is a digest of every input (each bank file and catalog, by path and content), of the
tool's version and of the package's own source, so any change to content or code misses the
cache: it can serve a verdict only for exactly the inputs that produced it.

The cache lives in the user's cache folder (``$XDG_CACHE_HOME/aistack-bank``, by default
``~/.cache/aistack-bank``), never in the repository: a verdict file committed by a pull request
(``.bank-cache/validate.json``, the old location) is never read, so nobody but the user can make
a failing bank pass. Only verdicts this tool computed are stored there; an entry that cannot be
read or does not have the expected shape is ignored and validation simply runs.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import time
from stat import S_ISREG
from pathlib import Path
from typing import TYPE_CHECKING

from .. import __version__
from ..errors import Diagnostic, Location, Severity
from .store import CONTENT_ALGORITHM, RACY_NS, cache_dir, clear_reads, content_hasher, keep_bytes, keep_no_bytes, read_digest, remember_digests, store_exists
from .store import identity as file_identity
from .store import package_digest as _package_digest

if TYPE_CHECKING:
    from ..i18n.catalog import Catalogs

_FORMAT = 5
MAX_HASHED_BYTES = 256 << 20
"""Files up to this size are hashed by content; larger ones (refused by validation anyway) by metadata."""
KEEP_MIN_BYTES = 1 << 20
"""Least size of a changed catalog that the input digest keeps as read (see :meth:`StatMemo.digest`)."""
PREFETCH_MIN_BYTES = 1 << 20
"""Least size of a catalog that the input digest starts digesting in a thread, while it digests
the bank's files (see :meth:`StatMemo.prefetch`)."""
DIGEST_POOL_MIN = 20_000
"""Least number of files of one root that the memo file does not know from which the input
digest digests the later half of them in a worker process while it digests the others
(:meth:`StatMemo.digest_all`): at 100 000 question files about 1.2 s of the digest's 1.5-1.7 s
is the files' status, reading and hashing."""
MAX_ENTRY_BYTES = 64 << 20
MAX_ENTRIES = 64
"""Verdicts kept; the oldest go first."""


def _by_status(st: os.stat_result) -> bytes:
    """What the input digest takes of a file it does not digest by content (not a regular
    file, or larger than :data:`MAX_HASHED_BYTES`): its type, size, inode and modification time."""
    return f"special {st.st_mode} {st.st_size} {st.st_ino} {st.st_mtime_ns}".encode()


def _hash_file(digest, name: str, keep: list | None = None, st: os.stat_result | None = None) -> bool:
    """Content of a regular file (read in bounded chunks, never blocking); metadata otherwise.
    True when ``digest`` took the file's whole content (and nothing else). With ``keep``, a
    regular file is read in one piece and [its identity while read, its bytes] appended to
    ``keep``. ``st``: the file's status as the caller has just taken it, showing a regular file
    of at most :data:`MAX_HASHED_BYTES` (not taken again: the file is opened, and what is
    opened is checked again by its own status, as without it)."""
    try:
        if st is None:
            st = os.stat(name)
            if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_HASHED_BYTES:
                digest.update(_by_status(st))
                return False
        fd = os.open(name, os.O_RDONLY | os.O_NONBLOCK)
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):
                digest.update(b"special")
                return False
            total, chunks = 0, []
            while total <= MAX_HASHED_BYTES:
                # (kept: in one read, as far as the file's size)
                wanted = 1 << 20 if keep is None else max(st.st_size + 1 - total, 1 << 20)
                chunk = os.read(fd, wanted)
                if not chunk:
                    break
                total += len(chunk)
                digest.update(chunk)
                if keep is not None:
                    chunks.append(chunk)
                if len(chunk) < wanted and total == st.st_size:
                    # a short read ending where the file ended when opened: its end, without a
                    # read more to see it (one system call of six per file; a file written
                    # meanwhile has another identity, which the digest's second pass and the
                    # memo compare)
                    break
            if keep is not None and total <= MAX_HASHED_BYTES:
                keep += [file_identity(os.fstat(fd)), chunks[0] if len(chunks) == 1 else b"".join(chunks)]
            return total <= MAX_HASHED_BYTES
        finally:
            os.close(fd)
    except OSError as exc:
        digest.update(f"unreadable {exc.errno}".encode())
        return False




class StatMemo:
    """Content digests of files by (device, inode, size, mtime, ctime), so an unchanged bank is
    not read again: any write changes mtime and ctime (which no user can set back), a rename or
    copy changes the inode. Kept in the user cache folder; any problem means hashing everything.

    Used for the verdict's input digest and for the outputs of `bank build` that stand on disk
    (:mod:`~aistack_bank.cache.outputs`)."""

    def __init__(self, roots: list[Path], *, after: StatMemo | None = None, algorithm: str = CONTENT_ALGORITHM, keep: bool = False,
                 borrowed: StatMemo | None = None) -> None:
        # ``algorithm``: of the content digests (store.CONTENT_ALGORITHM, SHA-256, as the outputs
        # of a build are digested: processors with the SHA extensions compute it in hardware)
        self.algorithm = after.algorithm if after is not None else algorithm
        self.keep = keep and after is None and self.algorithm == CONTENT_ALGORITHM  # (see digest)
        self.path = _memo_path(roots, self.algorithm)
        self.old: dict[str, tuple] = {}
        self.new: dict[str, tuple] = {}
        self.now = time.time_ns()
        self.first: dict[str, tuple] = {}
        self.links: set[str] = set()
        """The files walked that are symbolic links (see :meth:`walked`)."""
        self.walks: list[tuple[str, bool, list, list]] = []
        """What the walk of each root found: (root, whether it existed, its files as listed,
        each with whether it is a link, the folders under it), or nothing when a folder could
        not be listed."""
        self.values: dict[str, bytes] = {}
        """What the walk digested for each file: its content digest, or what stands for it."""
        self.targets: dict[str, bytes] = {}
        """What the walk digested of where each link leads."""
        self.fresh: list[str] = []
        """The files this memo's walk digested (or found unreadable or special) instead of
        taking their digest from the memo file: the inputs written since the latest run (or
        just before it, or never digested), as far as this memo can tell."""
        self.complete = True
        """Whether :attr:`walks`, :attr:`values` and :attr:`targets` hold all the walk digested."""
        self.parts: dict[str, str] = {}
        """The digest of what the walk of each root gave (:func:`_digest_tree`), by root."""
        self.head = ""
        self.result = ""
        """What the input digest took besides the files, and the digest it gave (:func:`input_digest`)."""
        self.seen_head: str | None = None
        """:attr:`head` of the input digest that last wrote the memo file (None: not known)."""
        self.borrowed: dict[str, tuple] = {}
        """With ``borrowed`` (this process's latest input digest's memo, of the same algorithm):
        the digests it took of files last written more than :data:`~.store.RACY_NS` before it,
        used as the memo file's are (a file of the same identity has those bytes)."""
        if borrowed is not None and borrowed.algorithm == self.algorithm and after is None:
            self.borrowed = {name: entry for name, entry in borrowed.new.items() if borrowed.now - max(entry[0][3], entry[0][4]) > RACY_NS}
        self.prefetched: dict[str, list] = {}
        """What :meth:`prefetch` digests in its thread, by file: [identity, (whether whole,
        digest, kept or None) once done, the event set then]."""
        self._fetcher = None
        if after is not None:
            # A second pass of this process over the same roots: the digests the first took, of
            # the files written more than RACY_NS before it (as the memo file would have kept them).
            self.old = {name: entry for name, entry in after.new.items() if after.now - max(entry[0][3], entry[0][4]) > RACY_NS}
            self.first = after.new
            self.seen_head = after.seen_head
            return
        try:
            import pickle

            from .store import read_private

            raw = read_private(self.path, MAX_ENTRY_BYTES)  # only the user's own: a pickle runs code
            data = pickle.loads(raw) if raw is not None else None
            if isinstance(data, dict):
                self.old = data
                head = data.pop(_HEAD, None)
                self.seen_head = head if type(head) is str else None
        except Exception:
            self.old = {}

    def digest(self, name: str) -> bytes:
        try:
            st = os.stat(name)
        except OSError as exc:
            self.fresh.append(name)
            return f"unreadable {exc.errno}".encode()
        if not S_ISREG(st.st_mode) or st.st_size > MAX_HASHED_BYTES:
            self.fresh.append(name)
            return _by_status(st)
        identity = file_identity(st)
        known = self.old.get(name)
        if known is None and self.borrowed:
            known = self.borrowed.get(name)
        if type(known) is tuple and len(known) == 2 and known[0] == identity and type(known[1]) is bytes:
            self.new[name] = known
            return known[1]
        self.fresh.append(name)
        first = self.first.get(name)
        if first is not None and first[0] == identity and read_digest(name) == first[1].hex():
            # Written just before the first pass, so its identity proves nothing; but the bytes
            # this command read of it and used are those the first pass digested. (Not kept in
            # the memo: its identity was taken while the file may still have been written.)
            return first[1]
        fetched = self._fetched(name, identity)
        if fetched is not None:
            whole, value, keep = fetched
        else:
            whole, value, keep = self._hashed(name, st)
        if whole:  # (a file unreadable now, or that grew too large while read, is digested again next time)
            self.new[name] = (identity, value)
        if keep:
            keep_bytes(name, keep[0], keep[1], value.hex())
        return value

    def digest_all(self, names: list[str]) -> list[bytes]:
        """:meth:`digest` of each of ``names`` (one root's files, in order), with the same
        effects on this memo. When many of them are unknown to the memo file (a cold run), the
        later half of those, catalogs aside (see :func:`~.store.keep_bytes`), are digested by a
        worker process forked now (:class:`~aistack_bank.parallel.Workers`: it sees this memo by
        the fork) while this process digests the others; the worker hands back each file's
        digest, its memo entry and whether it was digested (not taken from the memo file): the
        same that :meth:`digest` gives here, read from the same files."""
        unknown = 0
        if not self.first and len(names) >= DIGEST_POOL_MIN:
            old = self.old
            unknown = sum(1 for name in names if name not in old)
        if unknown < DIGEST_POOL_MIN:
            return [self.digest(name) for name in names]
        from ..parallel import Workers

        half = unknown // 2
        cut = len(names)
        for index in range(len(names) - 1, -1, -1):  # (from the end: where the later half of the unknown files starts)
            if names[index] not in self.old:
                half -= 1
                if half <= 0:
                    cut = index
                    break
        theirs = [name for name in names[cut:] if not name.endswith(".po") and name not in self.prefetched]
        _FORKED[:] = [self]
        try:
            with Workers(True, most=1) as workers:
                if not workers.started:
                    return [self.digest(name) for name in names]
                sent = workers.submit([(_digest_forked, (theirs,))])
                mine = set(theirs)
                start = len(self.fresh)
                values = {name: self.digest(name) for name in names if name not in mine}
                try:
                    found, entries, fresh = next(iter(sent))
                except Exception:  # (the worker lost: digested here)
                    found, entries, fresh = None, None, None
        finally:
            _FORKED.clear()
        if found is None:
            values.update((name, self.digest(name)) for name in theirs)
            digested = set(self.fresh[start:])
            self.fresh[start:] = [name for name in names if name in digested]
            return [values[name] for name in names]
        for name, value, entry in zip(theirs, found, entries):
            values[name] = value
            if entry is not None:
                self.new[name] = entry
        digested = set(self.fresh[start:]).union(fresh)
        self.fresh[start:] = [name for name in names if name in digested]  # (in the order of a serial walk)
        return [values[name] for name in names]

    def _hashed(self, name: str, st: os.stat_result) -> tuple[bool, bytes, list | None]:
        """(whether the digest took the file's whole content, the digest, [identity, bytes] kept
        or None) of the regular file ``name`` whose status was ``st``."""
        file_digest = content_hasher() if self.algorithm == CONTENT_ALGORITHM else hashlib.new(self.algorithm)
        # A large catalog digested by the first pass is kept in memory as read, for the
        # catalog's read to use: one read and one digest of it per command (at most one
        # catalog's bytes: see store.keep_bytes).
        keep = [] if (self.keep and name.endswith(".po") and st.st_size >= KEEP_MIN_BYTES) else None
        whole = _hash_file(file_digest, name, keep, st)  # (``st``: a regular file, not too large)
        return whole, file_digest.digest(), keep

    def prefetch(self, roots: list[Path]) -> None:
        """Start digesting, in a thread, the large regular files directly in ``roots`` (the
        catalogs' folder) that the memo file does not know as they are: the digests (and the
        bytes kept) are those :meth:`digest` would take, which takes them from there when the
        file still has the identity it had then (else it digests the file itself). Reading and
        digesting a large file leave the interpreter's lock to the walk of the bank's many
        small files meanwhile, so both cores work on a cold input digest."""
        if self.first:  # (a second pass: its digests come from the first, or files written since)
            return
        todo: list[tuple[str, os.stat_result]] = []
        for root in roots:
            try:
                with os.scandir(root) as listing:
                    found = sorted(entry.path for entry in listing)
            except OSError:
                continue
            for name in found:
                try:
                    st = os.stat(name)
                except OSError:
                    continue
                if not S_ISREG(st.st_mode) or not PREFETCH_MIN_BYTES <= st.st_size <= MAX_HASHED_BYTES:
                    continue
                known = self.old.get(name)
                if type(known) is tuple and len(known) == 2 and known[0] == file_identity(st):
                    continue
                todo.append((name, st))
        if not todo:
            return
        if self.keep and sum(name.endswith(".po") and st.st_size >= KEEP_MIN_BYTES for name, st in todo) >= 2:
            # Two catalogs or more to keep: keep_bytes would keep none of them (at most one
            # file's bytes), so none is read whole into memory to be dropped (at N = 10 000, two
            # buffers of 44 MB, about 22 000 page faults); each is digested a piece at a time.
            self.keep = False
            keep_no_bytes()
        import threading

        for name, st in todo:
            self.prefetched[name] = [file_identity(st), None, threading.Event()]

        def fetch() -> None:
            for name, st in todo:
                found = self.prefetched[name]
                try:
                    found[1] = self._hashed(name, st)
                except BaseException:  # (then digested by the walk)
                    pass
                finally:
                    found[2].set()

        self._fetcher = threading.Thread(target=fetch, name="input-digest", daemon=True)
        self._fetcher.start()

    def _fetched(self, name: str, identity: tuple) -> tuple | None:
        """What :meth:`prefetch` digested of ``name`` when the file had ``identity`` then (None otherwise)."""
        found = self.prefetched.pop(name, None)
        if found is None:
            return None
        found[2].wait()
        return found[1] if found[0] == identity else None

    def settle(self) -> None:
        """Wait for :meth:`prefetch`'s thread, and drop what the walk did not use."""
        if self._fetcher is not None:
            self._fetcher.join()
            self._fetcher = None
        self.prefetched.clear()

    def walked(self, name: str | Path) -> str | None:
        """The content digest (hex, as :func:`~.store.file_digest` gives it) that this memo's walk
        took, or found in the memo, of the regular file ``name`` that is not a symbolic link,
        without looking at the file again; None for any other file.

        A key to look a result up with, never one to keep a result under: the result found is
        that of the bytes the file had when it was digested, whatever it has now. The verdict's
        input digest is taken again after validating (:func:`_validate_and_store`), and the
        verdict is kept only when it is the same (a file written since has another identity,
        or, written in the same timestamp tick as the first digest, is digested again); a result
        computed now is kept only under a digest of the bytes it was computed from."""
        name = str(name)
        found = self.new.get(name)
        if found is None or name in self.links or self.algorithm != CONTENT_ALGORITHM:
            return None
        return found[1].hex()

    def save(self) -> None:
        now = time.time_ns()
        keep = {name: entry for name, entry in self.new.items() if now - max(entry[0][3], entry[0][4]) > RACY_NS}
        old = self.old
        if (self.seen_head or "") == self.head and len(keep) <= len(old) and all(old.get(name) == entry for name, entry in keep.items()):
            # nothing to add (a file written just now is left out, and an entry the memo
            # file keeps of a file since written or removed never matches again: each is
            # checked against the file's identity when used)
            return
        try:
            import pickle

            from .store import write_private

            if self.head:
                keep[_HEAD] = self.head  # (never a file's name: every name is a path)
            write_private(self.path, pickle.dumps(keep, protocol=pickle.HIGHEST_PROTOCOL))
        except Exception:  # an unwritable cache folder: hash everything next time
            pass


def _memo_path(roots: list[Path], algorithm: str = CONTENT_ALGORITHM) -> Path:
    """The memo file of the stat memo of ``roots`` (:class:`StatMemo`)."""
    scope = "\0".join(os.path.abspath(root) for root in roots) + ("" if algorithm == CONTENT_ALGORITHM else f"\0{algorithm}")
    name = hashlib.blake2b(f"{_FORMAT}\0{scope}".encode("utf-8", "surrogateescape"), digest_size=12).hexdigest()
    return cache_dir() / "stat" / f"{name}.pickle"


_FORKED: list[StatMemo] = []
"""The memo whose :meth:`StatMemo.digest_all` forks a worker (seen there by the fork)."""


def _digest_forked(names: list[str]) -> tuple[list[bytes], list, list[str]]:
    """In the worker of :meth:`StatMemo.digest_all`: (the digest of each of ``names``, its memo
    entry or None, the files digested rather than taken from the memo file)."""
    memo = _FORKED[0]
    memo.keep = False  # (no catalog here; and bytes kept in a worker serve nothing)
    memo.fresh = []
    values = [memo.digest(name) for name in names]
    return values, [memo.new.get(name) for name in names], memo.fresh


_HEAD = "\0head"
"""The memo file's entry of :attr:`StatMemo.head`."""

_LAST: list[tuple[tuple, StatMemo]] = []
"""The roots and stat memo of this process's latest :func:`input_digest` (see ``again``)."""


def input_digest(bank: Path, translations: Path | None, extra: str = "", *, again: bool = False, checked: frozenset[int] = frozenset()) -> str:
    """A digest of every file validation reads (its path, whether it is a link and where to, and
    its content), plus the tool and ``extra`` (the options). Content digests of files whose size,
    inode and times did not change are taken from a memo (see :class:`StatMemo`).

    With ``again`` (the check, after validating, that no input changed meanwhile), this
    process's latest digest of the same folders is given again when every input is as it found
    it (:func:`_unchanged`: the same listings and link targets, each file of the same identity
    and last written long enough before that digest, or digested again); else the digest is
    taken again whole, with the memo that digest made, in memory: the same digests the memo
    file would give, without reading it again (it is written again when files written just
    before the first pass have settled since). ``checked``: the indexes of the roots (the bank
    folder: 0) that the caller already found as this digest found them, after the last read of
    their files (:class:`_BankRead`): not looked at again."""
    head = f"{_FORMAT}\0{__version__}\0{_package_digest()}\0{extra}\0{os.getcwd()}\0"
    roots = [bank] + ([translations] if translations is not None else [])
    scope = tuple(os.path.abspath(root) for root in roots)
    previous = _LAST[0][1] if again and _LAST and _LAST[0][0] == scope else None
    if previous is not None and _unchanged(previous, head, roots, skip=checked):
        return previous.result
    digest = hashlib.blake2b(digest_size=32)
    digest.update(head.encode())
    if not again:
        clear_reads()  # a new run: the reads noted are this one's
    memo = StatMemo(roots, after=previous, keep=not again)
    memo.head = head
    memo.prefetch(roots[1:])  # (the catalogs, while the bank's files are digested)
    try:
        for root in roots:
            _digest_tree(digest, root, memo)
    finally:
        memo.settle()
    memo.save()  # (again: with the files that have settled since the first pass)
    memo.result = digest.hexdigest()
    if previous is None:
        _LAST[:] = [(scope, memo)]
    remember_digests(memo.new, memo.now)  # the per-file stores' keys reuse them (files settled before)
    return memo.result


def _unchanged(first: StatMemo, head: str, roots: list[Path], only: int | None = None, skip: frozenset[int] = frozenset()) -> bool:
    """Whether every input is as the input digest of ``first`` found it: what is digested
    besides the files, each folder's listing, where each link leads, and each file's identity
    (device, inode, size, modification and change times), for a file last written more than
    :data:`~.store.RACY_NS` before that digest was taken; any other file (written just before
    it, in a timestamp tick a later write could share) is digested again, unless this command
    read and used its whole bytes and they have the digest taken then (as :meth:`StatMemo.digest`
    decides for a second pass). True means the digest taken again would be the same; False
    (at the first difference found) that it is to be taken again whole. With ``only``, the
    inputs under that root alone (its index in ``roots``); with ``skip``, not those under the
    roots of these indexes (found unchanged by the caller: see :class:`_BankRead`)."""
    if not first.complete or first.head != head or len(first.walks) != len(roots):
        return False
    settled_before = first.now - RACY_NS
    known, values, targets = first.new, first.values, first.targets
    for index, (root, (posix, existed, entries, folders)) in enumerate(zip(roots, first.walks)):
        if (only is not None and index != only) or index in skip:
            continue
        if root.as_posix() != posix or root.exists() != existed:
            return False
        if not existed:
            continue
        listing: list[tuple[str, bool]] = []
        failed: list = []
        below: list[str] = []
        _list_files(os.fspath(root), listing, failed.append, below)
        if failed:
            return False
        listing.sort()
        if listing != entries or sorted(below) != folders:
            return False
        for name, link in listing:
            if link and _link_part(name) != targets.get(name):
                return False
            try:
                st = os.stat(name)
            except OSError:
                return False
            if not S_ISREG(st.st_mode) or st.st_size > MAX_HASHED_BYTES:
                # digested by its status, not its bytes (StatMemo.digest: a catalog of more than
                # 256 MB): the digest taken again takes the same when the status is the same
                if _by_status(st) != values.get(name):
                    return False
                continue
            entry = known.get(name)
            if (entry is not None and entry[0] == file_identity(st) and S_ISREG(st.st_mode)
                    and st.st_mtime_ns < settled_before and st.st_ctime_ns < settled_before):
                continue
            if entry is not None and entry[0] == file_identity(st) and read_digest(name) == entry[1].hex():
                continue  # (the bytes this command used are those the first digest took)
            found = content_hasher() if first.algorithm == CONTENT_ALGORITHM else hashlib.new(first.algorithm)
            if not _hash_file(found, name, None, st) or found.digest() != values.get(name):
                return False
    return True


def _link_part(name: str) -> bytes:
    """What the input digest takes of where the link ``name`` leads."""
    try:
        return b"link " + os.readlink(name).encode("utf-8", "surrogateescape") + b"\0"
    except OSError:
        return b"link ?\0"


def edited_catalog_only(bank: Path, translations: Path | None, *, bank_kept: bool = False) -> bool:
    """Whether this process's latest input digest of ``bank`` and ``translations`` found at
    most one input written since the memo file's digests, and that one a catalog (``*.po``)
    directly in ``translations`` whose findings some earlier run kept (its store of owners
    exists: see :func:`~aistack_bank.i18n.verify._verify_kept`), with the same tool,
    package and options as the digest that wrote the memo file: no question file, template or
    other catalog changed, so at most that catalog needs verifying again. False when it cannot
    tell (no such digest, a folder it could not list, no memo file, another head).

    With ``bank_kept`` (the bank folder's files are, byte for byte, those of a kept bank part:
    see :func:`bank_key`), the bank's files that were digested again (written just before the
    latest run, so not kept in the memo file) do not count: none of them changed since.

    A guess about the work ahead (whether to start the catalogs' workers), never a verdict:
    what is verified is decided by the stored verdicts' keys, as before."""
    memo = _latest_memo(bank, translations)
    if memo is None:
        return False
    if not memo.complete or not memo.old or memo.seen_head != memo.head:
        return False  # (before looking at the files digested: every file of a cold run's bank)
    fresh = memo.fresh
    if bank_kept:
        inside = os.path.join(os.path.abspath(bank), "")
        fresh = [name for name in fresh if not os.path.abspath(name).startswith(inside)]
    if len(fresh) > 1:
        return False
    if not fresh:
        return True
    name = fresh[0]
    return (name.endswith(".po") and name not in memo.links and os.path.dirname(name) == os.fspath(translations)
            and store_exists("catalog-owners", Path(name)))


def unknown_catalogs(bank: Path, translations: Path | None) -> frozenset[str] | None:
    """The catalogs (``*.po`` directly in ``translations``, absolute paths) that this process's
    latest input digest of ``bank`` and ``translations`` digested instead of taking their digest
    from the memo file (written since the latest run, or just before it); None (any of them)
    when it cannot tell, or when the memo file is of another tool, package or options (a cold
    run: every stored verdict's key differs).

    A guess about the work ahead (which catalogs the catalogs' workers read as they start:
    :func:`~aistack_bank.i18n.verify.read_early`), never a verdict: a catalog not changed since
    the latest run may still need verifying (the bank's texts changed), and it is then read
    when it is verified, as before."""
    memo = _latest_memo(bank, translations)
    if memo is None or not memo.complete or not memo.old or memo.seen_head != memo.head:
        return None
    folder = os.path.abspath(translations)
    return frozenset(name for name in map(os.path.abspath, memo.fresh) if name.endswith(".po") and os.path.dirname(name) == folder)


def _walked(bank: Path, translations: Path | None):
    """:meth:`StatMemo.walked` of this process's latest input digest of ``bank`` and
    ``translations`` (None when it was of other folders)."""
    scope = tuple(os.path.abspath(root) for root in [bank] + ([translations] if translations is not None else []))
    return _LAST[0][1].walked if _LAST and _LAST[0][0] == scope else None


def tree_digest(root: Path) -> str:
    """A digest of every file under ``root`` (its path, whether it is a link and where to, and
    its content, through the stat memo of ``root`` and the digests this process's latest input
    digest took: see :attr:`StatMemo.borrowed`), as :func:`input_digest` takes it."""
    digest = hashlib.blake2b(digest_size=32)
    memo = StatMemo([root], borrowed=_LAST[0][1] if _LAST else None)  # (files the input digest just took: not digested again)
    _digest_tree(digest, root, memo)
    memo.save()
    return digest.hexdigest()


def _digest_tree(digest, root: Path, memo: StatMemo) -> None:
    digest.update(f"\0root {root.as_posix()}\0".encode())
    if not root.exists():
        memo.walks.append((root.as_posix(), False, [], []))
        return
    entries: list[tuple[str, bool]] = []  # (file name, whether it is a symbolic link)

    def unlistable(exc: OSError) -> None:
        memo.complete = False
        digest.update(f"unlistable {exc.filename} {exc.errno}".encode())

    folders: list[str] = []
    _list_files(os.fspath(root), entries, unlistable, folders)
    entries.sort()
    folders.sort()
    memo.walks.append((root.as_posix(), True, entries, folders))
    parts = []  # (digested at once: the digest of the parts one after another)
    add = parts.append
    values = memo.values
    digests = memo.digest_all([name for name, _ in entries])
    for (name, link), value in zip(entries, digests):
        add(name.encode("utf-8", "surrogateescape") + b"\0")
        if link:
            memo.links.add(name)
            part = memo.targets[name] = _link_part(name)
            add(part)
        values[name] = value
        add(value)
        add(b"\0")
    # the folders too: one that holds no file can still change the verdict (an empty
    # questions/ folder makes its parent a topic, without its topic.yaml)
    for folder in folders:
        add(b"folder " + folder.encode("utf-8", "surrogateescape") + b"\0")
    joined = b"".join(parts)
    digest.update(joined)
    memo.parts[root.as_posix()] = hashlib.blake2b(joined, digest_size=32).hexdigest()


def _list_files(top: str, entries: list[tuple[str, bool]], onerror, below: list[str] | None = None, depth: int = 0) -> None:
    """The files under ``top`` (a folder is not a file), each with whether it is a symbolic
    link, from the folder listing's entry types (no call per file); with ``below``, the folders
    walked under ``top`` are added to it. A link to a folder is walked as a folder where the bank
    and its catalogs are read through one (:func:`_read_through`), and only there."""
    folders = []
    try:
        with os.scandir(top) as listing:
            for entry in listing:
                try:
                    is_dir = entry.is_dir()
                except OSError:
                    is_dir = False
                try:
                    link = entry.is_symlink()
                except OSError:
                    link = False
                if not is_dir:
                    entries.append((entry.path, link))  # (os.path.join(top, entry.name))
                elif not link or _read_through(entry.path, entry.name, depth + 1):
                    folders.append(entry.path)
    except OSError as exc:
        onerror(exc)
        return
    folders.sort()
    if below is not None:
        below += folders
    for folder in folders:
        _list_files(folder, entries, onerror, below, depth + 1)


def _read_through(path: str, name: str, depth: int) -> bool:
    """Whether the link to a folder at ``path`` (``depth`` 1: directly in a root) is one the bank
    or its catalogs are read through, which the input digest walks as a folder: a topic folder
    (it holds topic.yaml or questions/, its name no dot or underscore first), a topic's
    questions/, the catalogs' site/. Any other is not followed (a link to a large folder
    elsewhere is not walked); a link is followed only at those two depths, so that none
    leads the walk round in a circle."""
    if depth == 1:
        if name == "site":
            return True
        return not name.startswith((".", "_")) and (os.path.isfile(os.path.join(path, "topic.yaml")) or os.path.isdir(os.path.join(path, "questions")))
    return depth == 2 and name == "questions"


def _cache_file(bank: Path, key: str) -> Path:
    return cache_dir() / "validate" / f"{key}.json"


def _diagnostic(d: dict) -> Diagnostic:
    loc = Location(str(d["path"]), int(d["line"] or 0), int(d["column"] or 0)) if d["path"] is not None else None
    return Diagnostic(Severity(d["severity"]), str(d["code"]), str(d["message"]), loc)


def load(bank: Path, key: str) -> tuple[list[Diagnostic], dict] | None:
    """The cached (diagnostics, summary) for ``key``, or None (also for any malformed entry)."""
    from ..safety import UnsafeFile, read_regular

    try:
        entry = json.loads(read_regular(_cache_file(bank, key), MAX_ENTRY_BYTES, what="cache entry"))
        if not isinstance(entry, dict) or entry.get("key") != key or entry.get("bank") != Path(bank).resolve().as_posix():
            return None
        diags = [_diagnostic(d) for d in entry["diagnostics"]]
        summary = entry["summary"]
        if not (isinstance(summary, dict) and isinstance(summary.get("questions"), int) and isinstance(summary.get("line"), str)
                and isinstance(summary.get("key_positions"), dict) and isinstance(summary.get("key_longest_share"), (int, float))):
            return None
        return diags, summary
    except (UnsafeFile, ValueError, TypeError, KeyError, AttributeError):
        return None


def store(bank: Path, key: str, diagnostics: list[Diagnostic], summary: dict) -> None:
    """Remember the verdict this run computed for ``key`` (best effort, atomic)."""
    from ..writing import write_atomic

    entry = {"key": key, "bank": Path(bank).resolve().as_posix(), "diagnostics": [d.as_dict() for d in diagnostics], "summary": summary}
    path = _cache_file(bank, key)
    try:
        write_atomic(path, json.dumps(entry).encode("utf-8"))
        old = sorted(path.parent.glob("*.json"), key=lambda p: p.stat().st_mtime_ns)
        for stale in old[:-MAX_ENTRIES]:
            stale.unlink()
    except OSError:
        pass


def summary_of(report) -> dict:
    """The figures of a validation report that a cached verdict keeps (see :func:`load`)."""
    cues = report.cues
    return {"questions": cues.questions, "key_positions": cues.position_shares,
            "key_longest_share": cues.longest_share, "line": f"{cues.questions} question{'' if cues.questions == 1 else 's'}; {cues.summary()}"}


def _validate_and_store(bank: Path, translations: Path | None, key: str | None, catalogs: Catalogs | None = None, own: str | None = None, meanwhile=None,
                        workers=None):
    """Validate now; store the verdict under ``key`` if no input changed meanwhile (and the
    bank's own part of it under ``own``, :func:`bank_key`). ``meanwhile`` and ``workers``: as for
    :func:`~aistack_bank.rules.validate.validate_bank`."""
    from ..rules.validate import validate_bank

    bank_read = _BankRead(bank, translations, key) if key is not None else None
    report = validate_bank(bank, translations=translations, catalogs=catalogs, use_cache=key is not None,
                           walked=_walked(bank, translations) if key is not None else None,
                           one_catalog=key is not None and edited_catalog_only(bank, translations), meanwhile=meanwhile,
                           bank_read=bank_read, unknown_catalogs=unknown_catalogs(bank, translations) if key is not None else None, workers=workers)
    summary = summary_of(report)
    if key is not None and Path(bank).is_dir() and input_digest(bank, translations, again=True, checked=bank_read.checked) == key:
        store(bank, key, report.diagnostics, summary)
        if own is not None and report.bank_part is not None:
            _store_bank_part(bank, own, report.bank_part, summary)
    return report, summary


class _BankRead:
    """Called by the validation once nothing of it reads a file of the bank folder any more
    (:func:`~aistack_bank.rules.validate.validate_bank`'s ``bank_read``): the check that no
    input changed meanwhile (:func:`_unchanged`) made then for the bank folder's inputs, beside
    the catalogs' workers, instead of after them. Every read of the bank's files by this
    validation came after its input digest (whose digest is ``key``) and before this check: a
    file the check finds as that digest found it had those bytes for every read (as the check
    at the end would say), and a change made after this check can no longer reach the verdict.
    (A difference found here leaves the whole check to the end, as before.)"""

    def __init__(self, bank: Path, translations: Path | None, key: str) -> None:
        self.bank, self.translations, self.key = bank, translations, key
        self.checked: frozenset[int] = frozenset()
        """The indexes of the roots (the bank folder: 0) found as the input digest found them."""

    def __call__(self) -> None:
        memo = _latest_memo(self.bank, self.translations)
        if memo is None or memo.result != self.key:
            return
        if _unchanged(memo, memo.head, [Path(self.bank), Path(self.translations)], only=0):
            self.checked = frozenset({0})


def _latest_memo(bank: Path, translations: Path | None):
    """This process's latest input digest's memo when it was of ``bank`` and ``translations``
    (both given), else None."""
    if translations is None:
        return None
    scope = tuple(os.path.abspath(root) for root in [bank, translations])
    if not _LAST or _LAST[0][0] != scope:
        return None
    return _LAST[0][1]


def bank_key(bank: Path, translations: Path | None) -> str | None:
    """The key of the bank's own part of a verdict (:func:`validate_cached`): the tool, the
    package, the options and the working directory (the input digest's head), the two folders
    and what this process's latest input digest of them took of the bank folder's files alone
    (their paths, links and contents). None when it cannot tell (no such digest, a folder it
    could not list, no catalogs)."""
    memo = _latest_memo(bank, translations)
    if memo is None:
        return None
    part = memo.parts.get(Path(bank).as_posix())
    if not memo.complete or part is None:
        return None
    from .store import key_of

    scope = tuple(os.path.abspath(root) for root in [bank, translations])
    return key_of("bank-verdict", memo.head, scope, part)


def _bank_store(bank: Path):
    from .store import Store

    return Store("bank-verdict", bank, keep=4)


def _store_bank_part(bank: Path, own: str, part: tuple, summary: dict) -> None:
    """Keep the bank's own diagnostics, the verdict's figures and the catalogs' share of the
    bank's inputs (:func:`~aistack_bank.cache.catalogs.bank_share`) under ``own``."""
    diagnostics, share = part
    found = _bank_store(bank)
    found.put(own, (list(diagnostics), summary, share))
    found.save()


def _load_bank_part(bank: Path, own: str):
    """(diagnostics, summary, share or None) kept under ``own``, or None (also for any malformed entry)."""
    from ..i18n.fields import TextField

    found = _bank_store(bank).get(own)
    if not (isinstance(found, tuple) and len(found) == 3 and isinstance(found[0], list) and all(isinstance(d, Diagnostic) for d in found[0])):
        return None
    diagnostics, summary, share = found
    if not (isinstance(summary, dict) and isinstance(summary.get("questions"), int) and isinstance(summary.get("line"), str)
            and isinstance(summary.get("key_positions"), dict) and isinstance(summary.get("key_longest_share"), (int, float))):
        return None
    if share is not None and not (isinstance(share, tuple) and len(share) == 3 and type(share[0]) is str
                                  and isinstance(share[1], list) and all(type(f) is TextField for f in share[1])
                                  and isinstance(share[2], list) and all(type(q) is str for q in share[2])):
        return None
    return diagnostics, summary, share


def _catalog_edited(bank: Path, translations: Path, key: str, own: str, *, one_catalog: bool):
    """(diagnostics, summary) of a bank whose files are those of a kept verdict's bank part
    (under ``own``): the bank's own diagnostics and figures as kept; with errors among them,
    nothing else (the catalogs are not verified); else, when at most one catalog changed since
    (``one_catalog``: :func:`edited_catalog_only`), the catalogs verified as
    :func:`~aistack_bank.i18n.verify.verify_catalogs` does (that one catalog again for the
    owners of the entries the edit touched: see :func:`~aistack_bank.i18n.verify.verify_catalogs_kept`),
    without running the bank's rules nor reading its files' summaries, unless an entry of a
    question was touched. None when that does not apply (the caller validates the bank).
    Stored under ``key`` as any verdict, when no input changed meanwhile."""
    kept = _load_bank_part(bank, own)
    if kept is None:
        return None
    diagnostics, summary, share = kept
    if share is not None and not one_catalog:
        return None
    diagnostics = list(diagnostics)
    with _BankReader(bank, translations) as reader:
        if share is not None:
            from ..i18n.verify import KeptBank, verify_catalogs_kept

            found = verify_catalogs_kept(KeptBank(share[0], share[1], frozenset(share[2]), reader.read), translations)
            if found is None:
                return None
            diagnostics += found
        read = reader.source is not None
    diagnostics.sort(key=Diagnostic.sort_key)
    # Kept under the key of the inputs it comes from: the bank's files as the input digest
    # found them (its part is the verdict kept for those bytes; unless the bank was read just
    # now, nothing here read them), and the catalogs as read and verified here.
    if Path(bank).is_dir() and ((not read and _translations_unchanged(bank, translations, key))
                                or input_digest(bank, translations, again=True) == key):
        store(bank, key, diagnostics, summary)
    return diagnostics, summary


def _translations_unchanged(bank: Path, translations: Path, key: str) -> bool:
    """Whether every input under ``translations`` is as this process's latest input digest
    (whose digest is ``key``) of ``bank`` and ``translations`` found it (:func:`_unchanged`
    for that folder alone)."""
    memo = _latest_memo(bank, translations)
    if memo is None or memo.result != key:
        return False
    return _unchanged(memo, memo.head, [bank, translations], only=1)


class _BankReader:
    """The bank read as :func:`~aistack_bank.rules.validate.validate_bank` reads it (each file's
    record from the per-file store), once, when :meth:`read` is first called."""

    def __init__(self, bank: Path, translations: Path) -> None:
        self.bank, self.translations = bank, translations
        self.files = self.source = None

    def read(self):
        if self.source is None:
            from .questionfiles import QuestionFiles
            from ..load import read_library
            from ..rules.lints import file_leak_texts
            from ..rules.validate import question_file_rules

            self.files = QuestionFiles(question_file_rules, use_cache=True, spill=True, texts=file_leak_texts, walked=_walked(self.bank, self.translations))
            self.source = read_library(self.bank, read_topics=self.files.read_topics, topic_reader=self.files.read_topic)
        return self.source

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        if self.files is not None:
            self.files.close()


def validate_cached(bank: Path, translations: Path | None, *, use_cache: bool = True):
    """(diagnostics, summary) of validating ``bank``: from the cache when its inputs are byte
    for byte those of a stored verdict, else validated now (and stored). When only catalogs
    changed since a verdict of the same bank's files, the bank's own part of that verdict is
    taken (:func:`_catalog_edited`)."""
    if use_cache and translations is not None:
        workers = cold_workers(bank, translations)
        if workers is not None:
            with workers:
                return _validate_cached(bank, translations, workers if workers.started else None)
    return _validate_cached(bank, translations, None, use_cache=use_cache)


def cold_workers(bank: Path, translations: Path):
    """On a cold run (:func:`_never_kept`), the catalogs' workers of validating ``bank`` forked
    now, each reading a catalog at once (:func:`~aistack_bank.rules.validate.early_workers`):
    their reads run beside the input digest and whatever the caller does before it. Each read
    is verified only if its bytes are those the catalog's key is taken of (see
    ``verify._keyed_digests``). None when the run could find a verdict, or as ``early_workers``
    says; the caller hands them to the validation when started, and ends them."""
    if not _never_kept(bank, translations):
        return None
    from ..rules.validate import early_workers

    return early_workers(translations)


def _validate_cached(bank: Path, translations: Path | None, workers, *, use_cache: bool = True):
    """:func:`validate_cached`, with the catalogs' workers it forked (or None)."""
    key = input_digest(bank, translations) if use_cache else None
    cached = load(bank, key) if key is not None else None
    if cached is not None:
        return cached
    own = bank_key(bank, translations) if key is not None else None
    # The bank's part kept for the bank's files as they are now, when there is one, says that
    # nothing in the bank changed (also for a file digested again because it was written just
    # before the latest run): only catalogs did.
    if own is not None:
        found = _catalog_edited(bank, translations, key, own, one_catalog=edited_catalog_only(bank, translations, bank_kept=True))
        if found is not None:
            return found
    report, summary = _validate_and_store(bank, translations, key, own=own, workers=workers)
    return report.diagnostics, summary


def _never_kept(bank: Path, translations: Path) -> bool:
    """Whether no verdict of validating ``bank`` with ``translations`` can be found, by what is
    cheap to look at: no stat memo file of the two folders (every input digest of them writes
    one) and no verdict of any bank stored (a fresh cache, as on a new CI runner). A run that
    could find a verdict, or the kept findings of a catalog, is never taken for a cold one."""
    try:
        os.stat(_memo_path([bank, translations]))
        return False
    except FileNotFoundError:
        pass
    except OSError:
        return False  # (the cache not usable as it is: no guess, the run as ever)
    try:
        with os.scandir(cache_dir() / "validate") as found:
            return not any(entry.name.endswith(".json") for entry in found)
    except FileNotFoundError:
        return True  # (no verdicts' folder)
    except OSError:
        return False


def validated_source(bank: Path, translations: Path | None, catalogs: Catalogs | None = None, *, meanwhile=None, workers=None):
    """The read bank, once its validation verdict (cached or computed now) has no error.

    Catalogs read while validating go through ``catalogs``, so that localization reuses them.
    Raises :class:`~aistack_bank.errors.DiagnosticsError` with the errors otherwise. With a
    cached verdict the bank is read and its inputs digested once more: a file changed since the
    verdict was computed means validating now instead. ``meanwhile(source)``, when the bank is
    validated now, as :func:`~aistack_bank.rules.validate.validate_bank` says (the caller's work
    on the read bank, beside the catalogs' verification). ``workers``: the catalogs' workers
    the caller forked already (:func:`cold_workers`, without ``catalogs``), used when the bank
    is validated now, as :func:`~aistack_bank.rules.validate.validate_bank` says (the caller
    ends them)."""
    from ..errors import DiagnosticsError
    from .questionfiles import QuestionFiles
    from ..load import read_library
    from ..rules.validate import question_file_rules

    key = input_digest(bank, translations)
    cached = load(bank, key)
    if cached is not None and not any(d.severity is Severity.ERROR for d in cached[0]):
        files = QuestionFiles(question_file_rules, walked=_walked(bank, translations))
        source = read_library(bank, read_topics=files.read_topics, topic_reader=files.read_topic)
        if input_digest(bank, translations, again=True) == key:
            return source
    report, _ = _validate_and_store(bank, translations, key, catalogs, meanwhile=meanwhile, workers=workers)
    if report.errors:
        raise DiagnosticsError(report.errors, "the bank has errors; nothing was exported")
    return report.source
