"""The JSON exports are written by ``pydantic_core.to_json`` unless its bytes could differ from
those of ``json.dumps`` (``exporters/common.py``: ``json_utf8``): every file must stay what
``json.dumps(data, ensure_ascii=False, indent=2) + "\\n"`` encoded in UTF-8 made of it. Compared
here on floats of every binary exponent (both signs, the infinities, NaN), on random documents
with hostile texts and keys (every control character, quotes, backslashes, line and paragraph
separators, non-BMP and right-to-left text, texts that look like the numbers the guard looks
for) and on a lone surrogate, which neither can write in UTF-8."""

from __future__ import annotations

import json
import random
import struct

import pytest

from aistack_bank.exporters import common
from aistack_bank.exporters.common import json_utf8


def old_json_utf8(data: object) -> bytes:
    """The writer before: ``json.dumps`` with an indent, then UTF-8."""
    return (json.dumps(data, ensure_ascii=False, indent=2) + "\n").encode("utf-8")


def every_magnitude(rng: random.Random) -> list[float]:
    floats = [0.0, -0.0, float("inf"), float("-inf"), 1e-4, 1e-5, 1e-10, 1e16, 1e-323, 5e-324, 1.7976931348623157e308]
    for exponent in range(2047):  # every binary exponent (2047: the infinities and NaN, above)
        for _ in range(2):
            bits = (exponent << 52) | rng.getrandbits(52)
            floats.append(struct.unpack("<d", struct.pack("<Q", bits))[0])
    for decimal in range(-330, 310):
        floats += [float(f"{rng.randint(1, 9)}e{decimal}"), float(f"{rng.random():.6f}e{decimal}")]
    return [x for x in floats if x == x] + [-x for x in floats if x == x]


def test_floats_of_every_magnitude():
    rng = random.Random(7)
    floats = every_magnitude(rng)
    for x in floats:
        for data in (x, {"a": [x, 1], "b": x}):
            assert json_utf8(data) == old_json_utf8(data), x
    nan = [float("nan")]
    assert json_utf8(nan) == old_json_utf8(nan)
    batch = {"questions": [{"answer": x, "tolerance": rng.choice(floats)} for x in floats]}  # one file, many numbers
    assert json_utf8(batch) == old_json_utf8(batch)


CHARS = [*map(chr, range(0, 0x21)), "\x7f", "\x85", "\xa0", "\u2028", "\u2029", "\ufeff", "\u2067", "\u2069", "\u0627", "é", "ß",
         "\U0001F600", "\U00010348", '"', "\\", "/", "<", "&", "'", "a", "e", "-", "0", "5", ".", ",", "{", "}", "[", "]", ":", " "]
LOOKALIKES = ["e-5", "e-7,", "1e-07", "0.00001", "type-9", "e-1\n", "0.0000", "x\ne-3"]


def text(rng: random.Random) -> str:
    if rng.random() < 0.1:
        return rng.choice(LOOKALIKES)
    return "".join(rng.choice(CHARS) for _ in range(rng.randint(0, 8)))


def value(rng: random.Random, depth: int = 0):
    roll = rng.random()
    if depth < 5 and roll < 0.25:
        return {text(rng): value(rng, depth + 1) for _ in range(rng.randint(0, 4))}
    if depth < 5 and roll < 0.45:
        return [value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return rng.choice([
        text(rng), text(rng), rng.randint(-10**6, 10**6), rng.randint(-2**80, 2**80), rng.random() * 10 ** rng.randint(-12, 20),
        round(rng.uniform(-100, 100), rng.randint(0, 6)), True, False, None, 0.5, -0.0, 1.0, {}, [],
    ])


def test_random_documents():
    for seed in range(400):
        rng = random.Random(seed)
        data = {"languages": ["en", "fr"], "questions": [value(rng) for _ in range(rng.randint(0, 30))]}
        assert json_utf8(data) == old_json_utf8(data), seed
    for data in ([], {}, "", "é", 0, 1e-07, None, True, [[]], [{}], {"": ""}):
        assert json_utf8(data) == old_json_utf8(data), data


def test_a_lone_surrogate_is_refused_as_before():
    data = {"stem": {"en": "a\ud800b"}}
    with pytest.raises(UnicodeEncodeError):
        old_json_utf8(data)
    with pytest.raises(UnicodeEncodeError):
        json_utf8(data)


def test_which_writer(monkeypatch):
    """The fast writer writes what it can (so the comparisons above test it), and a file where a
    float it writes otherwise may stand goes to the standard library's encoder."""
    calls = []
    stdlib = common._json_utf8_stdlib
    monkeypatch.setattr(common, "_json_utf8_stdlib", lambda data: calls.append(data) or stdlib(data))
    usual = {"questions": [{"id": "q1", "answer": 3.25, "tolerance": 0.001, "credit": 1.0, "multiplier": 1e-3, "big": 1e22}]}
    assert json_utf8(usual) == old_json_utf8(usual) and calls == []
    for tiny in (1e-05, 2.5e-07, -3e-9):
        data = {"questions": [{"id": "q1", "multiplier": tiny}]}
        assert json_utf8(data) == old_json_utf8(data) and calls[-1] is data


def test_a_version_that_writes_otherwise_is_not_used(monkeypatch):
    """An installed ``pydantic_core`` that writes large floats otherwise (``1e16`` for
    ``1e+16``), which the check of a file's bytes would not see, fails the check made once per
    process: every file is then written by ``json.dumps``."""
    import pydantic_core

    real = pydantic_core.to_json
    monkeypatch.setattr(pydantic_core, "to_json", lambda value, **kw: real(value, **kw).replace(b"e+", b"e"))
    monkeypatch.setattr(common, "_AGREES", [])
    data = {"questions": [{"id": "q1", "answer": 1e22, "stem": {"en": "x"}}]}
    assert json_utf8(data) == old_json_utf8(data)
    assert common._AGREES == [False]
    monkeypatch.setattr(common, "_AGREES", [])
    monkeypatch.setattr(pydantic_core, "to_json", real)
    assert json_utf8(data) == old_json_utf8(data) and common._AGREES == [True]
