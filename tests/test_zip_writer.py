"""The packages' zip writer (``exporters/common.py``, ``deterministic_zip``) writes its records
itself instead of through :mod:`zipfile`'s per-member work: its bytes are compared with the
writer it replaced (kept below, verbatim, with zlib-ng's module as zipfile's ``zlib``) on random
members (names ASCII or not, as paths or texts, a null byte; members as bytes, as a function, as
pieces, empty), and with zipfile's size limits made small, so that its ZIP64 records (a member's
local header, the central directory's sizes and offsets, the end records) are written where
zipfile writes them. Every member is deflated by zlib-ng (the version pyproject.toml pins) at
``ZIP_LEVEL``, the same members give the same bytes every time, and each member is checked
against what its headers claim with the standard library's zlib: its method, CRC-32 and sizes,
and that it inflates to the member's bytes."""

from __future__ import annotations

import io
import random
import struct
import zipfile
import zlib
from pathlib import PurePosixPath
from typing import Callable, Iterable, Mapping
from unittest import mock

import pytest
from zlib_ng import zlib_ng

from aistack_bank.exporters import common
from aistack_bank.exporters.common import ZIP_DATE, ZIP_LEVEL, deterministic_zip


def reference_zip(files: Mapping[PurePosixPath | str, "bytes | Callable[[], bytes | Iterable[bytes]]"], level: int | None = ZIP_LEVEL) -> bytes:
    """``deterministic_zip`` as it was, through zipfile (at ``level``; None: zipfile's default),
    zipfile's compressor zlib-ng's (its ``zlib`` module replaced while it writes)."""
    buffer = io.BytesIO()
    with mock.patch.object(zipfile, "zlib", zlib_ng), zipfile.ZipFile(buffer, "w") as zf:
        for name in sorted(files, key=str):
            info = zipfile.ZipInfo(str(name), date_time=ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            info.create_system = 3
            data = files[name]
            data = data() if callable(data) else data
            if isinstance(data, (bytes, bytearray)):
                zf.writestr(info, data, compresslevel=level)
            else:  # as ``writestr`` writes it, its size and checksum counted as the pieces come
                if hasattr(info, "compress_level"):
                    info.compress_level = level
                else:
                    info._compresslevel = level
                with zf.open(info, "w") as member:
                    for piece in data:
                        member.write(piece)
            del data
    return buffer.getvalue()


def checked_members(package: bytes) -> dict[str, bytes]:
    """Each member of ``package`` checked against what its local header and its central
    directory record claim, with the standard library's zlib (not the writer's zlib-ng): DEFLATE,
    the fixed time and attributes, the compressed size the bytes up to the next record, the
    CRC-32 and size of what they inflate to; its bytes by name."""
    members = {}
    with zipfile.ZipFile(io.BytesIO(package)) as zf:
        infos = zf.infolist()
        ends = [info.header_offset for info in infos[1:]] + [zf.start_dir]
        for info, end in zip(infos, ends):
            (sign, version, flags, method, dostime, dosdate, crc, compressed, size, name_length,
             extra_length) = struct.unpack("<4sHHHHHIIIHH", package[info.header_offset:info.header_offset + 30])
            assert sign == b"PK\x03\x04" and method == info.compress_type == zipfile.ZIP_DEFLATED
            assert (flags, (dosdate, dostime), info.date_time, info.external_attr, info.create_system) == (
                info.flag_bits, (33, 0), ZIP_DATE, 0o644 << 16, 3)
            start = info.header_offset + 30 + name_length + extra_length
            assert package[info.header_offset + 30:info.header_offset + 30 + name_length] == info.orig_filename.encode("utf-8" if flags & 0x800 else "ascii")
            stored = package[start:end]
            assert len(stored) == info.compress_size
            if extra_length == 0:  # (ZIP64: the local header's sizes are in its extra field)
                assert (crc, compressed, size) == (info.CRC, info.compress_size, info.file_size)
            inflater = zlib.decompressobj(-15)
            data = inflater.decompress(stored)
            assert inflater.eof and not inflater.unused_data, info.filename  # (one whole DEFLATE stream)
            assert (len(data), zlib.crc32(data)) == (info.file_size, info.CRC), info.filename
            members[info.filename] = data
    return members


NAMES = ["imsmanifest.xml", "items/q001.xml", "a", "b/c/d.xml", "é/ü.xml", "日本/試験.xml", "x\0hidden", "Z", "items/q010.xml", "-", "bank-en/x.xml"]


def member(rng: random.Random):
    """A member's bytes (text-like, random or empty), as bytes, a function, or pieces."""
    kind = rng.choice(["text", "random", "empty"])
    data = (b"".join(rng.choice([b"<item>", b"\n  ", "\u00e9t\u00e9".encode(), b"&amp;", b"x" * rng.randint(1, 50)]) for _ in range(rng.randint(1, 400)))
            if kind == "text" else rng.randbytes(rng.randint(1, 3000)) if kind == "random" else b"")
    how = rng.choice(["bytes", "bytearray", "function", "pieces"])
    if how == "bytes":
        return data
    if how == "bytearray":
        return bytearray(data)
    if how == "function":
        return lambda: data
    cuts = sorted(rng.randint(0, len(data)) for _ in range(rng.randint(0, 5)))
    return lambda: iter([data[a:b] for a, b in zip([0, *cuts], [*cuts, len(data)])])


def files(rng: random.Random) -> dict:
    names = rng.sample(NAMES, rng.randint(0, len(NAMES)))
    return {(PurePosixPath(name) if rng.random() < 0.5 and "\0" not in name else name): member(rng) for name in names}


def contents(made: Mapping) -> dict[str, bytes]:
    """What each member of ``made`` holds, by the name zipfile gives it."""
    found = {}
    for name, data in made.items():
        data = data() if callable(data) else data
        found[str(name).split("\0")[0]] = bytes(data) if isinstance(data, (bytes, bytearray)) else b"".join(data)
    return found


@pytest.mark.parametrize("seed", range(40))
def test_the_zip_is_zipfiles_bytes(seed):
    rng = random.Random(seed)
    made = files(rng)
    package = deterministic_zip(made)
    assert package == reference_zip(made)
    assert checked_members(package) == contents(made)


@pytest.mark.parametrize("seed", range(30))
def test_zip64_records_are_written_where_zipfile_writes_them(seed, monkeypatch):
    rng = random.Random(1000 + seed)
    monkeypatch.setattr(zipfile, "ZIP64_LIMIT", rng.choice([200, 1500, 4000, 20000]))
    monkeypatch.setattr(zipfile, "ZIP_FILECOUNT_LIMIT", rng.choice([2, 5, 65535]))
    made = {name: data for name, data in files(rng).items() if not callable(data)}  # (pieces past the limit: zipfile refuses them, below)
    made.update({f"small-{n}": rng.randbytes(rng.randint(0, 150)) for n in range(rng.randint(0, 8))})
    package = deterministic_zip(made)
    assert package == reference_zip(made)
    assert checked_members(package) == contents(made)


def test_pieces_past_the_size_limit_are_refused_as_zipfile_refuses_them(monkeypatch):
    monkeypatch.setattr(zipfile, "ZIP64_LIMIT", 1000)
    made = {"big": lambda: iter([b"x" * 800, b"y" * 800])}
    with pytest.raises(RuntimeError, match="too large") as ours:
        deterministic_zip(made)
    with pytest.raises(RuntimeError, match="too large") as theirs:
        reference_zip(made)
    assert str(ours.value) == str(theirs.value)


def test_a_package_reads_back():
    made = {"b.xml": b"<b/>", PurePosixPath("a/\u00e9.xml"): lambda: iter([b"<a>", b"</a>"])}
    with zipfile.ZipFile(io.BytesIO(deterministic_zip(made))) as zf:
        assert zf.testzip() is None
        assert [(i.filename, i.date_time, i.external_attr >> 16) for i in zf.infolist()] == [("a/\u00e9.xml", ZIP_DATE, 0o644), ("b.xml", ZIP_DATE, 0o644)]
        assert zf.read("a/\u00e9.xml") == b"<a></a>"


def test_every_member_is_zlib_ngs_deflate_at_the_level_and_the_bytes_repeat():
    rng = random.Random(5)
    data = {f"items/q{n:03d}.xml": b"".join(rng.choice([b"<item>", b"\n  ", b"&amp;", "\u00e9t\u00e9".encode(), b"x" * rng.randint(1, 50)]) for _ in range(300)) for n in range(20)}
    data["big.xml"] = b"".join(rng.choice([b"<item>", b"\n  ", b"&amp;", rng.randbytes(3)]) for _ in range(60000))  # (past zlib-ng's buffers)
    made = {name: (lambda d=d: d) if n % 2 else (lambda d=d: iter([d[:100], d[100:7000], d[7000:]])) for n, (name, d) in enumerate(data.items())}
    package = deterministic_zip(made)
    assert deterministic_zip(made) == package == deterministic_zip(dict(reversed(made.items()))) == deterministic_zip(data)
    assert checked_members(package) == data
    with zipfile.ZipFile(io.BytesIO(package)) as zf:
        assert [i.filename for i in zf.infolist()] == sorted(data)
        assert zf.testzip() is None
        for info in zf.infolist():
            start = info.header_offset + 30 + len(info.filename.encode())
            assert package[start:start + info.compress_size] == zlib_ng.compress(data[info.filename], ZIP_LEVEL, -15)
            assert zf.read(info) == data[info.filename]


def test_a_member_in_pieces_is_the_member_whole_at_the_level():
    """zlib-ng's levels 5 and 6 (its medium strategy) deflate a text cut in pieces into other
    bytes than the text whole; at ``ZIP_LEVEL`` the cut does not matter, so a package is the
    same whether its writer streams a member or not (``tests/test_streamed_zip.py``)."""
    rng = random.Random(8)
    text = b"".join(rng.choice([b"<item>", b"\n  ", b"&amp;", b"x" * rng.randint(1, 50), rng.randbytes(2)]) for _ in range(30000))
    whole = deterministic_zip({"a.xml": text})
    for _ in range(10):
        cuts = sorted(rng.randrange(len(text)) for _ in range(rng.randint(1, 30)))
        assert deterministic_zip({"a.xml": lambda: iter([text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)])])}) == whole


def test_the_writer_claims_what_it_writes():
    """The check of what a member's records claim fails on a package whose member is not what
    they say: another CRC-32, the bytes of another member, a size off by one, another method."""
    package = deterministic_zip({"a.xml": b"<a>" * 500, "b.xml": b"<b>" * 400})
    assert checked_members(package) == {"a.xml": b"<a>" * 500, "b.xml": b"<b>" * 400}
    with zipfile.ZipFile(io.BytesIO(package)) as zf:
        a, b = zf.infolist()
    central = package.index(b"PK\x01\x02")
    broken = [
        package[:central + 16] + struct.pack("<I", a.CRC ^ 1) + package[central + 20:],  # the central directory's CRC-32
        package[:central + 24] + struct.pack("<I", a.file_size + 1) + package[central + 28:],  # its size
        package[:central + 10] + struct.pack("<H", zipfile.ZIP_STORED) + package[central + 12:],  # its method
        package[:30 + 5] + b"\x03" + package[30 + 6:],  # a byte of the first member's deflated bytes
    ]
    for bad in broken:
        with pytest.raises((AssertionError, zlib.error, zipfile.BadZipFile)):
            checked_members(bad)


@pytest.mark.parametrize("level", [2, 9])
def test_the_level_is_the_one_set(level, monkeypatch):
    """Another level written where ``ZIP_LEVEL`` says."""
    monkeypatch.setattr(common, "ZIP_LEVEL", level)
    for seed in range(10):
        made = files(random.Random(3000 + seed))
        assert deterministic_zip(made) == reference_zip(made, level=level)
