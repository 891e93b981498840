"""Crash-safe file writing: every output goes to a temporary file, then is renamed into place."""

from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path, PurePosixPath
from typing import Callable, Mapping

Tree = Mapping[PurePosixPath | str, bytes]


def same_bytes(path: Path, data: bytes) -> bool:
    """Whether ``path`` is a regular file holding exactly ``data`` (never blocks, reads at most its size)."""
    return regular_bytes(path, len(data)) == data


def regular_bytes(path: Path, size: int | None = None) -> bytes | None:
    """The bytes of ``path`` when it is a regular file (not followed if a link, never blocks:
    what :func:`same_bytes` compares with), else None; with ``size``, None unless the file has
    that size, and at most ``size + 1`` bytes read (a file that grew reads as longer)."""
    import stat

    try:
        st = os.lstat(path)
        if not stat.S_ISREG(st.st_mode) or (size is not None and st.st_size != size):
            return None
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
        try:
            limit = None if size is None else size + 1
            chunks, total = [], 0
            while limit is None or total < limit:
                chunk = os.read(fd, max(st.st_size + 1, 1 << 16) if limit is None else limit - total)
                if not chunk:
                    break
                chunks.append(chunk)
                total += len(chunk)
            return b"".join(chunks)
        finally:
            os.close(fd)
    except OSError:
        return None


def write_atomic(path: Path, data: bytes) -> bool:
    """Write ``data`` to ``path`` atomically; return False (and touch nothing) if unchanged.

    The bytes go to a temporary file in the same folder, are flushed to disk, and replace
    ``path`` in one rename: a reader or a crash sees the old file or the new one, never half.
    """
    if same_bytes(path, data):
        return False
    fd, tmp = _temporary(path)
    try:
        try:
            _write_all(fd, data)
            os.fchmod(fd, _mode_of(path))
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return True


def _temporary(path: Path) -> tuple[int, str]:
    """A new temporary file beside ``path`` (its descriptor and name): ``.NAME.XXXXXXXX.tmp``,
    mode 0600 until its writer sets it. The folder is made only when the file cannot be made
    without it (then with the error making it gives, as when it was made first)."""
    try:
        return tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError:
        path.parent.mkdir(parents=True, exist_ok=True)
        return tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


_MISSING_ERRNOS = (errno.ENOENT, errno.ENOTDIR, errno.EBADF, errno.ELOOP)
"""The errors of a status for which ``Path.exists()`` says False (pathlib's ignored errors)."""


def _mode_of(path: Path) -> int:
    """The permission bits of ``path`` (followed), 0644 when there is none: what
    ``path.stat().st_mode & 0o777 if path.exists() else 0o644`` gives, in one status."""
    try:
        return os.stat(path).st_mode & 0o777
    except OSError as exc:
        if exc.errno in _MISSING_ERRNOS:
            return 0o644
        raise


class StagedWrites:
    """Writes made ready beside their targets and renamed into place together.

    :meth:`write` puts the bytes in a temporary file in the target's folder (where a read-only
    folder or a full disk shows), :meth:`commit` flushes every one to the disk, then renames
    every one into place and then runs the deletions; :meth:`abort` removes the temporary
    files, so that nothing was changed.

    The temporary files are flushed together at :meth:`commit` (:func:`sync_files`), not one
    after the other as they are written: each is on the disk before the first rename, as
    before, and the file system commits them in a few journal transactions instead of one each
    (40 files: about 0.25 s of waiting became about 0.02 s)."""

    def __init__(self) -> None:
        self.pending: list[tuple[str, Path]] = []
        self.after: list = []
        self.unsynced: list[tuple[str, Path]] = []

    def write(self, path: Path, data: bytes) -> bool:
        if same_bytes(path, data):
            return False
        stage_file(path, data, self.pending)
        self.unsynced.append(self.pending[-1])
        return True

    def commit(self) -> None:
        """Flush every file written here, then rename each into place; if a flush fails
        (a full disk shows here at the latest), nothing was renamed and every temporary file is
        removed before the error (its ``filename`` the target) is raised."""
        try:
            sync_files(self.unsynced)
        except BaseException:
            self.abort()
            raise
        self.unsynced = []
        for tmp, path in self.pending:
            os.replace(tmp, path)
        self.pending = []
        for step in self.after:
            step()
        self.after = []

    def abort(self) -> None:
        for tmp, _ in self.pending:
            try:
                os.unlink(tmp)
            except OSError:
                pass
        self.pending, self.after, self.unsynced = [], [], []


SYNC_THREADS = 8
"""Flushes :func:`sync_files` waits for at once."""


def _sync_file(tmp: str, target: Path) -> None:
    """Flush the file ``tmp`` (written and closed by this process) to the disk; an error names
    ``target``. (Opened for reading: its mode may already be that of a read-only target.)"""
    try:
        fd = os.open(tmp, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, str(target)) from None


def stage_file(path: Path, data: bytes | Callable[[int], None], pending: list[tuple[str, Path]]) -> str:
    """Write ``data`` to a new temporary file beside ``path`` (``path``'s mode, or 0644), not
    yet flushed to the disk, and add ``(temporary file, path)`` to ``pending`` as soon as it
    exists (for the caller to remove it if anything fails); its name. ``data`` is the bytes, or
    a function that writes them through the open file's descriptor (bytes copied from another
    file within the kernel, never held here).

    The folder is made only when the temporary file cannot be made without it, the bytes are
    written and the mode set through the descriptor, and the target's mode is taken in one
    status: a cache file staged in the cache's folder takes four system calls fewer."""
    fd, tmp = _temporary(path)
    try:
        pending.append((tmp, path))
        if callable(data):
            data(fd)
        else:
            _write_all(fd, data)
        os.fchmod(fd, _mode_of(path))
    finally:
        os.close(fd)
    return tmp


def sync_files(files: list[tuple[str, Path]]) -> None:
    """Flush each ``(file, target)`` to the disk; return when every one is there.

    The flushes run at once, from a few threads: a file system that commits flushes in journal
    transactions takes the waiting ones in one transaction, where one flush after the other
    waits for one transaction each. Raises the error of the first file in ``files`` that
    failed (its ``filename`` the target)."""
    failed = sync_each(files)
    if failed:
        raise failed[min(failed)]


def sync_each(files: list[tuple[str, Path]]) -> dict[int, BaseException]:
    """Flush each ``(file, target)`` to the disk as :func:`sync_files` does; the error of each
    one that failed, by its index in ``files``."""
    if len(files) < 2:
        failed = {}
        for index, (tmp, target) in enumerate(files):
            try:
                _sync_file(tmp, target)
            except OSError as exc:
                failed[index] = exc
        return failed
    import threading

    todo, lock, failed = iter(enumerate(files)), threading.Lock(), {}

    def work() -> None:
        while True:
            with lock:
                item = next(todo, None)
            if item is None:
                return
            index, (tmp, target) = item
            try:
                _sync_file(tmp, target)
            except BaseException as exc:  # handed to the caller's thread
                failed[index] = exc

    threads = [threading.Thread(target=work, daemon=True) for _ in range(min(SYNC_THREADS, len(files)))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return failed


def write_or_compare(path: Path, data: bytes, *, compare: bool) -> bool:
    """Whether ``path`` changes: with ``compare`` only compare, otherwise write atomically."""
    if not compare:
        return write_atomic(path, data)
    return not same_bytes(path, data)


def write_tree(root: Path, tree: Tree) -> list[Path]:
    """Write every file of ``tree`` under ``root`` atomically; return the paths that changed."""
    written = []
    for name in sorted(tree, key=str):
        path = root / str(name)
        if write_atomic(path, tree[name]):
            written.append(path)
    return written


def stale_files(root: Path, tree: Tree) -> list[str]:
    """Names in ``tree`` whose file under ``root`` is missing or has other bytes."""
    stale = []
    for name in sorted(tree, key=str):
        if not same_bytes(root / str(name), tree[name]):
            stale.append(str(name))
    return stale


# ----------------------------------------------------------------------------- the bank lock and transactions

FAULT_ENV = "AISTACK_BANK_FAULT"
"""Test hook: ``POINT:SIGNAL`` (``journaled:KILL``) makes the process send SIGNAL to itself when a
transaction reaches POINT (``staging``, ``staged``, ``journaled``, ``moved-1``, ``moved``), so
that tests interrupt an import at a chosen moment. Unset, it costs one lookup per point."""

JOURNAL = "journal.json"
"""In a staging folder: the list of changes, written in one rename (the commit point)."""


def _fault(point: str) -> None:
    spec = os.environ.get(FAULT_ENV)
    if spec and spec.partition(":")[0] == point:
        import signal

        os.kill(os.getpid(), getattr(signal, "SIG" + spec.partition(":")[2], signal.SIGKILL))


def _project_of(bank_dir: Path) -> Path:
    return Path(os.path.abspath(bank_dir)).parent


def staging_folder(bank_dir: Path) -> Path:
    """Where a transaction on ``bank_dir`` stages its files: next to the bank, outside it
    (``.bank.import/`` beside ``bank/``), on the same file system."""
    bank = Path(os.path.abspath(bank_dir))
    return bank.parent / f".{bank.name}.import"


class _Locked(Exception):
    pass


def _flock(fd: int, shared: bool) -> None:
    import fcntl

    try:
        fcntl.flock(fd, (fcntl.LOCK_SH if shared else fcntl.LOCK_EX) | fcntl.LOCK_NB)
    except BlockingIOError:
        raise _Locked from None


class bank_lock:
    """The project lock: ``bank import`` holds it exclusively while it changes ``bank_dir``,
    ``bank build`` shared while it reads it (its exports folder has a lock of its own). Taken on
    the folder that holds the bank; BankError E604 when another command holds it."""

    def __init__(self, bank_dir: Path, *, shared: bool = False, command: str = "bank import"):
        self.bank_dir, self.shared, self.command = Path(bank_dir), shared, command
        self.fd: int | None = None

    def __enter__(self):
        from .errors import BankError, Location

        project = _project_of(self.bank_dir)
        try:
            if not self.shared:  # an import may create the bank, and the folder that holds it
                project.mkdir(parents=True, exist_ok=True)
            self.fd = os.open(project, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        except OSError as exc:
            raise BankError(f"cannot open the project folder to lock it: {exc.strerror or exc}", Location.of(project), code="E605") from None
        try:
            _flock(self.fd, self.shared)
        except _Locked:
            os.close(self.fd)
            self.fd = None
            other = "an import is changing this bank" if self.shared else "another `bank import` or `bank build` is using this bank"
            raise BankError(f"{other}; wait for it to finish ({self.command} was refused, nothing was changed)", Location.of(self.bank_dir), code="E604") from None
        return self

    def __exit__(self, *exc) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


def is_locked(bank_dir: Path) -> bool:
    """Whether a command holds the project lock of ``bank_dir`` exclusively (an import runs)."""
    try:
        fd = os.open(_project_of(bank_dir), os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return False
    try:
        _flock(fd, True)
        return False
    except _Locked:
        return True
    finally:
        os.close(fd)


class _deferred_signals:
    """SIGINT, SIGTERM and SIGHUP held back (delivered on leaving) in the main thread."""

    SIGNALS = ("SIGINT", "SIGTERM", "SIGHUP")

    def __enter__(self):
        import signal
        import threading

        self.old = None
        if threading.current_thread() is threading.main_thread():
            self.old = signal.pthread_sigmask(signal.SIG_BLOCK, {getattr(signal, name) for name in self.SIGNALS})
        return self

    def __exit__(self, *exc) -> None:
        import signal

        if self.old is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, self.old)


class _terminate_as_exit:
    """SIGTERM and SIGHUP raise SystemExit (so that ``finally`` blocks clean up) in the main thread."""

    def __enter__(self):
        import signal
        import threading

        self.old = {}
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGTERM, signal.SIGHUP):
                self.old[sig] = signal.getsignal(sig)
                signal.signal(sig, self._raise)
        return self

    @staticmethod
    def _raise(signum, frame):
        raise SystemExit(128 + signum)

    def __exit__(self, *exc) -> None:
        import signal

        for sig, handler in self.old.items():
            signal.signal(sig, handler)


def _fsync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _read_file(path: Path, *, follow: bool = True, limit: int = -1) -> bytes:
    """The bytes of the regular file ``path`` (at most ``limit``), opened without blocking and
    without following a symbolic link unless ``follow``: anything else (a FIFO, a device) in its
    place is refused with OSError, never waited on (recovery reads with SIGINT and SIGTERM held
    back, and `bank validate` and `bank build` read an interrupted import's journal)."""
    import errno
    import stat

    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | (0 if follow else getattr(os, "O_NOFOLLOW", 0)))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", os.fspath(path))
        with open(fd, "rb", closefd=False) as fh:
            return fh.read(limit)
    finally:
        os.close(fd)


def _write_new(path: Path, data: bytes) -> None:
    with open(path, "xb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())


def _safe_target(bank: Path, rel: object) -> Path | None:
    """``bank / rel`` when ``rel`` is a plain relative path inside the bank, through no link."""
    if not isinstance(rel, str) or not rel or rel.startswith("/") or "\\" in rel or "\x00" in rel:
        return None
    parts = PurePosixPath(rel).parts
    if any(part in ("..", ".", "") for part in parts) or str(PurePosixPath(*parts)) != rel:
        return None
    path = bank
    for part in parts:
        path = path / part
        if path.is_symlink():
            return None
    return path


def _read_journal(staging: Path, bank: Path) -> tuple[str, list[tuple[Path, Path, Path | None, Path | None]]] | None:
    """(state, [(target, staged file, backup or None, the first folder the commit creates for it
    or None)]) of a journal, None when it is unusable."""
    import json

    try:
        data = json.loads(_read_file(staging / JOURNAL, follow=False, limit=16 << 20))
        state, entries = data["state"], data["entries"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if state not in ("commit", "rollback") or not isinstance(entries, list):
        return None
    out = []
    for entry in entries:
        if not isinstance(entry, dict):
            return None
        target = _safe_target(bank, entry.get("target"))
        staged, backup, made = entry.get("staged"), entry.get("backup"), entry.get("made")
        if target is None or not isinstance(staged, str) or not staged.isalnum() or not (backup is None or (isinstance(backup, str) and backup.isalnum())):
            return None
        made_path = _safe_target(bank, made) if made is not None else None
        if made is not None and (made_path is None or made_path not in target.parents):
            return None
        out.append((target, staging / staged, staging / backup if backup else None, made_path))
    return state, out


def _journal_bytes(state: str, entries: list[dict]) -> bytes:
    import json

    return json.dumps({"state": state, "entries": entries}, indent=1).encode("utf-8")


def _apply(bank: Path, state: str, entries: list[tuple[Path, Path, Path | None, Path | None]]) -> None:
    """Bring every target to its state after the commit (``commit``) or before it (``rollback``);
    each step can be repeated, so an interrupted recovery is completed by the next."""
    for index, (target, staged, backup, made) in enumerate(entries):
        if state == "commit":
            write_atomic(target, _read_file(staged, follow=False))
            if index == 0:
                _fault("moved-1")
        elif backup is not None:
            write_atomic(target, _read_file(backup, follow=False))
        else:
            try:
                target.unlink()
            except FileNotFoundError:
                pass
            if made is not None:  # the folders the commit created for it, if now empty
                for parent in target.parents:
                    if bank not in parent.parents and parent != bank:
                        break
                    try:
                        parent.rmdir()
                    except OSError:
                        break
                    if parent == made:
                        break


def _finish(staging: Path) -> None:
    import shutil

    try:
        (staging / JOURNAL).unlink()
    except FileNotFoundError:
        pass
    _fsync_folder(staging)
    shutil.rmtree(staging, ignore_errors=True)


def commit_files(bank_dir: Path, changes: list[tuple[Path, bytes]]) -> None:
    """Write ``changes`` (paths under ``bank_dir`` and their new bytes) all or nothing, under any
    signal. Call it holding :class:`bank_lock`.

    The files are first staged in :func:`staging_folder`, outside the bank; the journal listing
    them is renamed into place (the commit point) and the files are then copied into the bank
    with SIGINT/SIGTERM held back. Interrupted before the commit point, the bank is untouched
    (and the staging is removed, or reported by `bank validate` after a SIGKILL); after it,
    :func:`recover` completes the commit. A failure while copying in (a read-only folder, a full
    disk) puts every file back as it was. OSError is left to the caller."""
    import shutil

    bank = Path(os.path.abspath(bank_dir))
    staging = staging_folder(bank_dir)
    staging.mkdir()
    journal: list[dict] = []
    entries: list[tuple[Path, Path, Path | None, Path | None]] = []
    with _terminate_as_exit():  # a signal after the commit point is delivered once it is done
        try:
            for index, (path, data) in enumerate(changes):
                target = Path(os.path.abspath(path))
                staged = staging / f"n{index:06d}"
                _write_new(staged, data)
                backup = None
                if target.exists():
                    backup = staging / f"b{index:06d}"
                    _write_new(backup, _read_file(target))
                missing = [folder for folder in target.parents if (folder == bank or bank in folder.parents) and not folder.exists()]
                made = missing[-1] if missing else None
                journal.append({"target": target.relative_to(bank).as_posix(), "staged": staged.name, "backup": backup.name if backup else None,
                                "made": made.relative_to(bank).as_posix() if made is not None and made != bank else None})
                entries.append((target, staged, backup, made if made != bank else None))
                if index == 0:
                    _fault("staging")
            _fault("staged")
            _fsync_folder(staging)
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
        with _deferred_signals():
            try:
                write_atomic(staging / JOURNAL, _journal_bytes("commit", journal))  # the commit point
            except BaseException:
                shutil.rmtree(staging, ignore_errors=True)
                raise
            _fsync_folder(staging)
            _fault("journaled")
            try:
                _apply(bank, "commit", entries)
            except OSError:
                write_atomic(staging / JOURNAL, _journal_bytes("rollback", journal))
                _apply(bank, "rollback", entries)
                _finish(staging)
                raise
            _fault("moved")
            _finish(staging)


def recover(bank_dir: Path) -> str | None:
    """Complete (or undo) a transaction on ``bank_dir`` that was interrupted, and remove its
    staging; what was done, or None when there was nothing. Call it holding :class:`bank_lock`."""
    staging = staging_folder(bank_dir)
    if not staging.is_dir() or staging.is_symlink():
        return None
    bank = Path(os.path.abspath(bank_dir))
    if not (staging / JOURNAL).exists():
        _finish(staging)
        return f"removed {staging.as_posix()}, left by an import interrupted before it changed the bank"
    found = _read_journal(staging, bank)
    if found is None:
        from .errors import BankError, Location

        raise BankError("the journal of an interrupted import cannot be read; restore the bank from version control, then delete this folder", Location.of(staging / JOURNAL), code="E742")
    state, entries = found
    with _deferred_signals():
        _apply(bank, state, entries)
        _finish(staging)
    return (f"completed an interrupted import ({len(entries)} file(s) written)" if state == "commit"
            else f"undid an interrupted import ({len(entries)} file(s) restored)")


def leftover_diagnostics(bank_dir: Path) -> list:
    """`bank validate`'s report of an interrupted import's staging next to ``bank_dir``."""
    from .errors import Location, error, warning

    staging = staging_folder(bank_dir)
    if not staging.is_dir() or is_locked(bank_dir):
        return []
    shown = Path(os.path.relpath(staging)) if not Path(bank_dir).is_absolute() else staging
    if not (staging / JOURNAL).exists():
        return [warning("W741", "an import was interrupted before it changed the bank and left this staging folder; "
                        "`bank import --recover` removes it", Location.of(shown))]
    found = _read_journal(staging, Path(os.path.abspath(bank_dir)))
    what = "completes it" if found is None or found[0] == "commit" else "undoes it"
    return [error("E742", f"an import was interrupted while it wrote the bank, which is half changed; `bank import --recover` {what}",
                  Location.of(shown))]
