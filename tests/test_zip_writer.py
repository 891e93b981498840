"""The packages' zip writer (``exporters/common.py``, ``deterministic_zip``) writes its records
itself instead of through :mod:`zipfile`'s per-member work: its bytes are compared with the
writer it replaced (kept below, verbatim) on random members (names ASCII or not, as paths or
texts, a null byte; members as bytes, as a function, as pieces, empty), and with zipfile's
size limits made small, so that its ZIP64 records (a member's local header, the central
directory's sizes and offsets, the end records) are written where zipfile writes them. Every
member is deflated at ``ZIP_LEVEL`` (zlib's default, 6: the bytes :mod:`zipfile` writes when no
level is given), and the same members give the same bytes every time."""

from __future__ import annotations

import io
import random
import zipfile
import zlib
from pathlib import PurePosixPath
from typing import Callable, Iterable, Mapping

import pytest

from aistack_bank.exporters import common
from aistack_bank.exporters.common import ZIP_DATE, ZIP_LEVEL, deterministic_zip


def reference_zip(files: Mapping[PurePosixPath | str, "bytes | Callable[[], bytes | Iterable[bytes]]"], level: int | None = ZIP_LEVEL) -> bytes:
    """``deterministic_zip`` as it was, through zipfile (at ``level``; None: zipfile's default)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
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


@pytest.mark.parametrize("seed", range(40))
def test_the_zip_is_zipfiles_bytes(seed):
    rng = random.Random(seed)
    made = files(rng)
    assert deterministic_zip(made) == reference_zip(made)


@pytest.mark.parametrize("seed", range(30))
def test_zip64_records_are_written_where_zipfile_writes_them(seed, monkeypatch):
    rng = random.Random(1000 + seed)
    monkeypatch.setattr(zipfile, "ZIP64_LIMIT", rng.choice([200, 1500, 4000, 20000]))
    monkeypatch.setattr(zipfile, "ZIP_FILECOUNT_LIMIT", rng.choice([2, 5, 65535]))
    made = {name: data for name, data in files(rng).items() if not callable(data)}  # (pieces past the limit: zipfile refuses them, below)
    made.update({f"small-{n}": rng.randbytes(rng.randint(0, 150)) for n in range(rng.randint(0, 8))})
    assert deterministic_zip(made) == reference_zip(made)


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


def test_the_level_is_zlibs_default_as_zipfile_writes_it():
    text = b"".join(random.Random(1).choice([b"<a>", b"x", b"\n", b"&amp;"]) for _ in range(20000))
    assert ZIP_LEVEL == 6 and zlib.compress(text, ZIP_LEVEL) == zlib.compress(text, zlib.Z_DEFAULT_COMPRESSION) != zlib.compress(text, 9)
    for seed in range(10):
        made = files(random.Random(2000 + seed))
        assert deterministic_zip(made) == reference_zip(made, level=None)


@pytest.mark.parametrize("level", [1, 9])
def test_the_level_is_the_one_set(level, monkeypatch):
    """Another level written where ``ZIP_LEVEL`` says (level 9: the packages' bytes before)."""
    monkeypatch.setattr(common, "ZIP_LEVEL", level)
    for seed in range(10):
        made = files(random.Random(3000 + seed))
        assert deterministic_zip(made) == reference_zip(made, level=level)


def test_every_member_is_deflated_at_the_level_and_the_bytes_repeat():
    rng = random.Random(5)
    data = {f"items/q{n:03d}.xml": b"".join(rng.choice([b"<item>", b"\n  ", b"&amp;", "\u00e9t\u00e9".encode(), b"x" * rng.randint(1, 50)]) for _ in range(300)) for n in range(20)}
    made = {name: (lambda d=d: d) if n % 2 else (lambda d=d: iter([d[:100], d[100:]])) for n, (name, d) in enumerate(data.items())}
    package = deterministic_zip(made)
    assert deterministic_zip(made) == package == deterministic_zip(dict(reversed(made.items())))
    with zipfile.ZipFile(io.BytesIO(package)) as zf:
        assert [i.filename for i in zf.infolist()] == sorted(data)
        for info in zf.infolist():
            assert info.compress_type == zipfile.ZIP_DEFLATED
            start = info.header_offset + 30 + len(info.filename.encode())
            assert package[start:start + info.compress_size] == zlib.compress(data[info.filename], ZIP_LEVEL, -15)
            assert zf.read(info) == data[info.filename]
