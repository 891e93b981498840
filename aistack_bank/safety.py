"""The rules every input passes: which characters a text may hold, and which files may be read.

Character rules (applied to every parsed value, from YAML and from catalogs, and to every
export before it is written): no C0 or C1 control other than tab and newline, no bidirectional
embedding, override or isolate, no byte-order mark or zero-width no-break space, no
interlinear-annotation or line/paragraph separator, no lone surrogate, no noncharacter, and
text in Unicode NFC.

File rules: only regular files are read (a FIFO, a device or a socket is refused before it is
opened for reading, so nothing blocks), the size is checked on the open file before reading,
and no more than the limit is ever read. A symbolic link may point anywhere inside the
project (the folder that holds the bank and its translations); one that leaves it is refused.
"""

from __future__ import annotations

import os
import re
import stat
import unicodedata
from contextlib import contextmanager
from pathlib import Path

FORBIDDEN = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff\ufff9-\ufffb"
    "\ud800-\udfff\ufdd0-\ufdef\ufffe\uffff]"
)
"""Characters no bank text may hold (tab and newline are allowed)."""

UNCARRIABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff\ufffe\uffff]")
"""Characters that XML 1.0 cannot carry (nor GIFT, JSON consumers or HTML parsers reliably)."""


def describe(ch: str) -> str:
    return f"U+{ord(ch):04X} ({unicodedata.name(ch, 'control' if ord(ch) < 0xA0 else 'surrogate' if 0xD800 <= ord(ch) <= 0xDFFF else 'unassigned')})"


def character_problem(text: str) -> tuple[int, str, str] | None:
    """The first broken rule in ``text``: (0-based index, code E110/E109, message), or None."""
    bad = FORBIDDEN.search(text)
    if bad:
        return bad.start(), "E110", f"forbidden character {describe(bad.group())}"
    if not text.isascii() and not unicodedata.is_normalized("NFC", text):
        index = next((i for i, ch in enumerate(text) if unicodedata.combining(ch) or not unicodedata.is_normalized("NFC", text[: i + 1])), 0)
        return index, "E109", "text is not NFC-normalized (a decomposed accent?); normalize it to NFC"
    return None


class UnsafeFile(Exception):
    """A file the project refuses to read; ``code`` is the diagnostic to report."""

    def __init__(self, message: str, code: str = "E101"):
        super().__init__(message)
        self.message, self.code = message, code


_REAL_FOLDERS: dict | None = None
"""Within :func:`folders_settled`: the real path of each folder met, by its absolute path; and,
for :func:`_open_settled`, a root's prefixes by ``(_ROOT, root)`` and a folder's as written by
``(_GIVEN, folder, working folder)``."""


@contextmanager
def folders_settled(*, working_folder_kept: bool = False):
    """Within it, the real path of each folder :func:`check_link` meets is worked out once (the
    question files of a topic share their folders): for reading many files in one go, during
    which a folder is not expected to become a link (a file itself is looked at each time).

    ``working_folder_kept``: the caller runs nothing that changes the working folder within it
    (a question files' worker reading its chunk): the working folder is looked up once, on
    entering, instead of for each file given by a relative path (:func:`_open_settled`); without
    it, each read looks it up, so that a change of it within is seen. Not kept when it cannot be
    looked up (each read then looks, as without)."""
    global _REAL_FOLDERS
    outer, _REAL_FOLDERS = _REAL_FOLDERS, ({} if _REAL_FOLDERS is None else _REAL_FOLDERS)
    known, kept = _REAL_FOLDERS, False
    if working_folder_kept and _CWD not in known:
        try:
            known[_CWD] = os.getcwd()
            kept = True
        except OSError:
            pass
    try:
        yield
    finally:
        if kept:
            known.pop(_CWD, None)  # (an outer one shares the dict, and looks it up each time)
        _REAL_FOLDERS = outer


def _realpath(absolute: str) -> str:
    """``os.path.realpath`` of an absolute path, its folder's from :func:`folders_settled` when inside one."""
    known = _REAL_FOLDERS
    if known is None:
        return os.path.realpath(absolute)
    folder, name = os.path.split(absolute)
    if name in ("", ".", "..") or os.path.islink(absolute):
        return os.path.realpath(absolute)
    real = known.get(folder)
    if real is None:
        real = known[folder] = os.path.realpath(folder)
    return os.path.join(real, name)


def check_link(path: Path, root: Path | None) -> None:
    """Refuse (E115) a path that is, or passes through, a symbolic link leading outside ``root``."""
    if root is None:
        return
    absolute, top = os.path.abspath(path), os.path.abspath(root)
    if not (absolute + os.sep).startswith(top.rstrip(os.sep) + os.sep):
        return  # not under root: the caller named this path explicitly
    real, real_root = _realpath(absolute), _realpath(top)
    if not (real + os.sep).startswith(real_root.rstrip(os.sep) + os.sep):
        raise UnsafeFile(f"is a symbolic link to {Path(real).as_posix()}, outside the project; copy the file in instead", "E115")


_READ_FLAGS = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def _open_settled(path: Path, root: Path) -> int | None:
    """Within :func:`folders_settled`, ``path`` opened for :func:`read_regular` when it is a
    file under ``root`` whose folder leads inside ``root`` and which is not itself a symbolic
    link (opened without following one, instead of an ``lstat`` of the file first): what
    :func:`check_link` lets be opened. Otherwise None, and nothing is opened (a link, a path
    outside ``root``, any failure to open): the caller then checks and opens it as usual,
    which decides and reports. The real path of ``root`` (given as an absolute path, as the
    question files' reader gives it) is worked out once, as a folder's is; so are the absolute
    and real paths of the folder of ``path`` as it is written (a relative one in the working
    folder of the read, looked up each time unless :func:`folders_settled` keeps it), so that a file of a known folder costs string
    work only, no ``abspath`` (:func:`_settled_folder`)."""
    if not _NOFOLLOW:
        return None
    known = _REAL_FOLDERS
    found = known.get((_ROOT, root))
    if found is None:
        if not os.path.isabs(root):
            return None  # (kept only for a project given whole: a relative one depends on the working folder)
        top = os.path.abspath(root)
        found = known[_ROOT, root] = (top.rstrip(os.sep) + os.sep, os.path.realpath(top).rstrip(os.sep) + os.sep)
    top, real_root = found
    text = os.fspath(path)
    if type(text) is not str:
        return None
    name = text.rpartition(os.sep)[2]
    if name in ("", ".", "..") or (os.altsep and os.altsep in text):
        return None
    given = text[:len(text) - len(name)]
    key = (_GIVEN, given, None if given[:1] == os.sep else known.get(_CWD) or os.getcwd())
    folder = known.get(key)
    if folder is None:
        folder = known[key] = _settled_folder(given, known)
    absolute_prefix, real_prefix = folder
    if not (absolute_prefix + name + os.sep).startswith(top):
        return None
    if not (real_prefix + name + os.sep).startswith(real_root):
        return None
    try:
        return os.open(path, _READ_FLAGS | _NOFOLLOW)
    except OSError:
        return None


_GIVEN = object()
"""The first item of the keys under which :func:`_open_settled` keeps a folder as written."""
_CWD = object()
"""The key of the working folder taken once by :func:`folders_settled` with ``working_folder_kept``."""
_ROOT = object()
"""The first item of the keys under which :func:`_open_settled` keeps a root's prefixes (apart
from the folders' real paths, keyed by their paths, whatever type the root is given as)."""


def _settled_folder(given: str, known: dict) -> tuple[str, str]:
    """(the absolute path, the real path) of the folder ``given`` (a path's text up to its name,
    with its last separator; "" for the working folder), each ending in a separator: a name
    appended to them gives what ``os.path.abspath`` of the path, and ``os.path.join`` of its
    folder's real path and its name, give (the name being neither "", "." nor "..")."""
    absolute = os.path.abspath(given or os.curdir)
    real = known.get(absolute)
    if real is None:
        real = known[absolute] = os.path.realpath(absolute)
    return (absolute if absolute.endswith(os.sep) else absolute + os.sep), (real if real.endswith(os.sep) else real + os.sep)


def read_regular(path: Path, max_bytes: int, *, root: Path | None = None, what: str = "file", kept=None) -> bytes:
    """The bytes of ``path`` if it is a regular file of at most ``max_bytes`` (UnsafeFile if not).

    ``kept``: a function of the open file's status giving its bytes as this command already
    read them (None: read them now), once the file passed every check."""
    fd = _open_settled(path, root) if _REAL_FOLDERS is not None and root is not None else None
    if fd is None:
        check_link(path, root)
        try:
            fd = os.open(path, _READ_FLAGS)
        except IsADirectoryError:
            raise UnsafeFile("is a directory, not a file") from None
        except OSError as exc:
            raise UnsafeFile(f"cannot read {what}: {exc.strerror or exc}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            kind = "a directory" if stat.S_ISDIR(st.st_mode) else "a FIFO" if stat.S_ISFIFO(st.st_mode) else "a device" if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode) else "a socket or other special file"
            raise UnsafeFile(f"not a regular file ({kind}); only regular files are read")
        if st.st_size > max_bytes:
            raise UnsafeFile(f"{what} is {st.st_size} bytes; the limit is {max_bytes} bytes", "E104")
        found = kept(st) if kept is not None else None
        if found is not None and len(found) <= max_bytes:
            return found
        # One byte more than the size asked first: a file that still has the size it was found
        # to have gives that many bytes, fewer than asked, which is its end (one read instead
        # of a second one that gives nothing, and no buffer of the limit's size made for it);
        # any other count (the file grew or shrank meanwhile) reads on to the end as before.
        size = st.st_size
        first = os.read(fd, size + 1)
        if len(first) == size:
            return first
        chunks, total = [first], len(first)
        if total > max_bytes:
            raise UnsafeFile(f"{what} is over the limit of {max_bytes} bytes", "E104")
        while True:
            chunk = os.read(fd, min(1 << 20, max_bytes + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > max_bytes:  # the file grew while it was read
                raise UnsafeFile(f"{what} is over the limit of {max_bytes} bytes", "E104")
        return b"".join(chunks)
    except OSError as exc:
        raise UnsafeFile(f"cannot read {what}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
