"""Zip members written as pieces of their bytes (``deterministic_zip`` given an iterable,
``utf8_pieces``) are byte for byte the members written whole, as the package writers did
before they streamed: compared, at random, with a copy of the old writer kept here."""

from __future__ import annotations

import io
import random
import zipfile
from unittest import mock

from zlib_ng import zlib_ng

from aistack_bank.exporters.common import ZIP_DATE, ZIP_LEVEL, deterministic_zip, utf8_pieces

ALPHABET = "abc XYZ 012 <>&\"' é ß € ☃ 𝔘 \u2067ع\u2069 \t"


def _old_zip(files: dict[str, bytes]) -> bytes:
    """The package writer before members could come in pieces: each member whole, ``writestr``
    (with zlib-ng, the packages' DEFLATE, as zipfile's ``zlib``)."""
    buffer = io.BytesIO()
    with mock.patch.object(zipfile, "zlib", zlib_ng), zipfile.ZipFile(buffer, "w") as zf:
        for name in sorted(files, key=str):
            info = zipfile.ZipInfo(str(name), date_time=ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            info.create_system = 3
            zf.writestr(info, files[name], compresslevel=ZIP_LEVEL)
    return buffer.getvalue()


def _lines(rng: random.Random) -> list[str]:
    return ["".join(rng.choice(ALPHABET) for _ in range(rng.randrange(0, 40))) for _ in range(rng.randrange(1, 600))]


def test_utf8_pieces_are_the_joined_text():
    rng = random.Random(7)
    for _ in range(20):
        lines = _lines(rng)
        batch = rng.choice([1, 2, 3, 7, 512])
        assert b"".join(utf8_pieces(lines, batch)) == ("\n".join(lines) + "\n").encode("utf-8")
        assert b"".join(utf8_pieces(iter(lines), batch)) == ("\n".join(lines) + "\n").encode("utf-8")


def test_streamed_members_are_the_members_written_whole():
    rng = random.Random(11)
    for _ in range(8):
        members = {f"d{rng.randrange(3)}/m{i}.xml": _lines(rng) for i in range(rng.randrange(1, 5))}
        whole = {name: ("\n".join(lines) + "\n").encode("utf-8") for name, lines in members.items()}
        streamed = {name: (lambda lines=lines: utf8_pieces(lines, rng.choice([1, 5, 512]))) for name, lines in members.items()}
        mixed = {name: (streamed[name] if rng.random() < 0.5 else (lambda data=data: data)) for name, data in whole.items()}
        expected = _old_zip(whole)
        assert deterministic_zip(streamed) == expected
        assert deterministic_zip(mixed) == expected
        assert deterministic_zip(whole) == expected


def test_an_empty_member_in_pieces():
    assert deterministic_zip({"a.txt": lambda: iter(())}) == _old_zip({"a.txt": b""})
