"""A catalog worker reads the records of a part of the bank that lie one after the other in the
spill file by one read (``i18n.verify._records_read``) instead of one read a record (the code
before, ``read_at`` of each, kept below): on random parts (records in runs, apart, in any order,
of any length, runs longer than ``RUN_BYTES``) the same bytes for each record, in order; and the
parts of the bundled bank and ``examples/every-kind`` read by ``_read_part`` as before (see
tests/test_record_without_doc.py)."""

from __future__ import annotations

import os
import random

from aistack_bank.cache.store import read_at
from aistack_bank.i18n import verify


def _records_read_before(fd: int, refs: list) -> list:
    return [read_at(fd, at, length) for _, at, length in refs]


def test_random_parts_read_as_before(tmp_path, monkeypatch):
    rng = random.Random(5)
    path = tmp_path / "spill"
    data = os.urandom(1 << 16)
    path.write_bytes(data)
    fd = os.open(path, os.O_RDONLY)
    calls = []

    def counted(fd, at, length):
        calls.append(length)
        return read_at(fd, at, length)

    try:
        for trial in range(3000):
            monkeypatch.setattr(verify, "RUN_BYTES", rng.choice([1, 64, 500, 4096, 1 << 20]))
            refs, at = [], rng.randrange(0, 100)
            for i in range(rng.randint(0, 30)):
                length = rng.randint(1, 300)
                if at + length > len(data):
                    break
                refs.append((f"q{i}", at, length))
                at += length + (0 if rng.random() < 0.7 else rng.randint(1, 50))
            if rng.random() < 0.5:
                rng.shuffle(refs)
            if refs and rng.random() < 0.1:
                refs.append(rng.choice(refs))  # (the same record twice)
            calls.clear()
            found = verify._records_read(fd, refs, counted)
            assert [bytes(blob) for blob in found] == _records_read_before(fd, refs), (trial, refs)
            assert all(length <= max(verify.RUN_BYTES, max((r[2] for r in refs), default=0)) for length in calls)
            runs = 1 + sum(1 for a, b in zip(sorted(refs, key=lambda r: r[1]), sorted(refs, key=lambda r: r[1])[1:]) if b[1] != a[1] + a[2]) if refs else 0
            assert len(calls) >= runs
            if verify.RUN_BYTES >= 1 << 20:
                assert len(calls) == runs
    finally:
        os.close(fd)
