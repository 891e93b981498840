"""``read_regular`` reads a file that still has the size its status gave in one read of one
byte more (its end); a file whose status gives another size than it holds (it grew or shrank
after the status, or a file of ``/proc`` whose status gives 0) is read to its end as before,
within the limit. The status is made to lie here: each case gives the bytes, or the refusal,
that reading to an empty read gives."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from aistack_bank import safety
from aistack_bank.safety import UnsafeFile, read_regular


def _with_size(monkeypatch, size_of) -> list[int]:
    """``os.fstat`` giving ``size_of(real size)`` as the size; the sizes each read asked for."""
    real_fstat, real_read = os.fstat, os.read
    asked: list[int] = []

    class Status:
        def __init__(self, st):
            self._st = st
            self.st_mode = st.st_mode
            self.st_size = size_of(st.st_size)

    monkeypatch.setattr(safety.os, "fstat", lambda fd: Status(real_fstat(fd)))

    def read(fd, n):
        asked.append(n)
        return real_read(fd, n)

    monkeypatch.setattr(safety.os, "read", read)
    return asked


@pytest.mark.parametrize("length", [0, 1, 2, 100, 4095, 4096, 4097, 70_000])
def test_exact_size_is_one_read(tmp_path: Path, monkeypatch, length: int) -> None:
    data = bytes(random.Random(length).randrange(256) for _ in range(length))
    path = tmp_path / "f.yaml"
    path.write_bytes(data)
    asked = _with_size(monkeypatch, lambda size: size)
    assert read_regular(path, 1 << 20) == data
    assert asked == [length + 1]


@pytest.mark.parametrize("shift", [-5000, -100, -1, 1, 2, 100, 5000])
@pytest.mark.parametrize("length", [0, 1, 300, 9000])
def test_another_size_reads_to_the_end(tmp_path: Path, monkeypatch, shift: int, length: int) -> None:
    data = bytes(random.Random(length * 7 + shift).randrange(256) for _ in range(length))
    path = tmp_path / "f.yaml"
    path.write_bytes(data)
    _with_size(monkeypatch, lambda size: max(0, size + shift))
    assert read_regular(path, 1 << 20) == data


@pytest.mark.parametrize("told", [0, 10, 63, 64])
def test_over_the_limit_while_read(tmp_path: Path, monkeypatch, told: int) -> None:
    path = tmp_path / "f.yaml"
    path.write_bytes(b"x" * 65)
    _with_size(monkeypatch, lambda size: told)
    with pytest.raises(UnsafeFile) as caught:
        read_regular(path, 64)
    assert (caught.value.code, caught.value.message) == ("E104", "file is over the limit of 64 bytes")


def test_at_the_limit(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "f.yaml"
    path.write_bytes(b"x" * 64)
    for told in (0, 10, 64):
        _with_size(monkeypatch, lambda size, told=told: told)
        assert read_regular(path, 64) == b"x" * 64


def test_proc_file_whose_status_gives_nothing() -> None:
    path = Path("/proc/self/cmdline")
    if not path.exists() or os.stat(path).st_size != 0:
        pytest.skip("no /proc file whose status gives size 0")
    assert read_regular(path, 1 << 20) == path.read_bytes()
