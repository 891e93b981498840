"""Reading a package (a zip or a folder) for import, refusing hostile archives before reading them.

Nothing is extracted to disk: the members the manifest names are read into memory, and only
after the whole archive has passed the checks (E721) that need no decompression: member count, every name (no ``..``, no
absolute path, no drive letter, no backslash), no symbolic links, the declared total size and the
compression ratio of each member. Reading then stops at the declared size of each member, so a
member that lies about its size cannot inflate past the limit either.
"""

from __future__ import annotations

import io
import re
import stat
import zipfile
from pathlib import Path, PurePosixPath

from ..errors import BankError, Location
from .records import read_import_file

MAX_ARCHIVE_BYTES = 256 << 20
"""Largest zip file read."""
MAX_MEMBERS = 5_000
"""Most files a package may hold (a course of 10 000 questions in one file per item fits twice)."""
MAX_TOTAL_BYTES = 512 << 20
"""Most bytes all members may hold once decompressed."""
MAX_RATIO = 200
"""Highest compression ratio of a member over 1 MiB (XML compresses 10-30 times; bombs 1000+)."""
RATIO_FLOOR = 1 << 20


def _refuse(message: str, where: Location) -> BankError:
    return BankError(f"refused: {message}; nothing was imported", where, code="E721")


def _check_name(name: str, where: Location) -> None:
    if "\\" in name or "\0" in name:
        raise _refuse(f"the member {name!r} has a backslash or NUL in its name", where)
    if name.startswith("/") or re.match(r"^[A-Za-z]:", name):
        raise _refuse(f"the member {name!r} has an absolute path", where)
    if ".." in PurePosixPath(name).parts:
        raise _refuse(f"the member {name!r} escapes the package folder (..)", where)


class Package:
    """The files of a package by their POSIX path inside it (``a/b.xml``), read on demand."""

    def __init__(self, source: Path, files: dict[str, bytes] | None = None, archive: zipfile.ZipFile | None = None, infos: dict | None = None):
        self.source = source
        self.files = files or {}
        self.archive = archive
        self.infos = infos or {}

    def where(self, name: str, line: int = 0, column: int = 0) -> Location:
        """A location inside the package: ``pkg.zip/path/in/it.xml:line:col``."""
        return Location.of(f"{self.source}/{name}", line, column)

    def get(self, name: str) -> bytes | None:
        name = str(PurePosixPath(name))
        if name in self.files or self.archive is None or name not in self.infos:
            return self.files.get(name)
        info = self.infos[name]
        try:
            with self.archive.open(info) as member:
                data = member.read(info.file_size + 1)
        except (zipfile.BadZipFile, NotImplementedError, RuntimeError, OSError, EOFError) as exc:
            raise BankError(f"the member {info.filename!r} cannot be read: {exc}", Location.of(self.source), code="E702") from None
        if len(data) > info.file_size:
            raise _refuse(f"the member {info.filename!r} holds more than its declared size", Location.of(self.source))
        self.files[name] = data
        return data


def open_package(path: Path) -> Package:
    """The files of the zip or folder at ``path`` (BankError E721 if it is unsafe, E701 unreadable)."""
    if path.is_dir() and not path.is_symlink():
        return _open_folder(path)
    raw = read_import_file(path, MAX_ARCHIVE_BYTES)
    where = Location.of(path)
    try:
        zf = zipfile.ZipFile(io.BytesIO(raw))
        infos = zf.infolist()
    except (zipfile.BadZipFile, ValueError, OSError) as exc:
        raise BankError(f"not a zip file or a folder ({exc}); give the package as exported (.zip or .imscc) or its unpacked folder", where, code="E702") from None
    if len(infos) > MAX_MEMBERS:
        raise _refuse(f"the archive has {len(infos)} members; the limit is {MAX_MEMBERS}", where)
    total = 0
    for info in infos:
        _check_name(info.filename, where)
        mode = info.external_attr >> 16
        if stat.S_ISLNK(mode):
            raise _refuse(f"the member {info.filename!r} is a symbolic link", where)
        if info.flag_bits & 0x1:
            raise _refuse(f"the member {info.filename!r} is encrypted", where)
        total += info.file_size
        if total > MAX_TOTAL_BYTES:
            raise _refuse(f"the archive would expand to more than {MAX_TOTAL_BYTES} bytes (a zip bomb?)", where)
        if info.file_size > RATIO_FLOOR and info.file_size > MAX_RATIO * max(info.compress_size, 1):
            raise _refuse(f"the member {info.filename!r} expands {info.file_size // max(info.compress_size, 1)} times (more than {MAX_RATIO}: a zip bomb?)", where)
    names: dict[str, zipfile.ZipInfo] = {}
    for info in infos:
        if info.is_dir():
            continue
        name = str(PurePosixPath(info.filename))
        if name in names:
            raise _refuse(f"the member {info.filename!r} appears twice", where)
        names[name] = info
    return Package(path, archive=zf, infos=names)


def _open_folder(root: Path) -> Package:
    import os

    from ..safety import UnsafeFile, read_regular

    where = Location.of(root)
    files: dict[str, bytes] = {}
    total = 0
    for folder, dirs, names in os.walk(root, followlinks=False):
        for d in dirs:
            if (Path(folder) / d).is_symlink():
                raise _refuse(f"{(Path(folder) / d).relative_to(root).as_posix()!r} is a symbolic link", where)
        for n in sorted(names):
            p = Path(folder) / n
            rel = p.relative_to(root).as_posix()
            if p.is_symlink():
                raise _refuse(f"{rel!r} is a symbolic link", where)
            if len(files) >= MAX_MEMBERS:
                raise _refuse(f"the folder has more than {MAX_MEMBERS} files", where)
            try:
                data = read_regular(p, MAX_TOTAL_BYTES - total)
            except UnsafeFile as exc:
                raise BankError(exc.message, Location.of(p), code="E721") from None
            total += len(data)
            files[rel] = data
    return Package(root, files)
