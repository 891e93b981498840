"""The large text exports (Moodle XML, GIFT, JSON) are encoded as they are written
(``exporters/common.py``: ``EncodedLines``, ``json_utf8``) instead of joined whole and then
encoded: the bytes are those of the join (``"\\n".join(lines) + end``) and of ``json.dumps``
they replaced, on random lines and documents (hostile characters, empty lines, non-BMP text,
any number of lines around the encoding threshold, added one at a time or several at once)."""

from __future__ import annotations

import json
import random

from aistack_bank.exporters import common
from aistack_bank.exporters.common import EncodedLines, json_utf8

CHARS = ["a", "é", " ", "\t", "\r", "\u2028", "\x85", "<", "&", '"', "\\", "\U0001F600", "\u0627", "\u2067", "\x00", "\n"]


def text(rng: random.Random) -> str:
    return "".join(rng.choice(CHARS) for _ in range(rng.randint(0, 6)))


def test_encoded_lines_are_the_join_encoded(monkeypatch):
    for seed in range(300):
        rng = random.Random(seed)
        monkeypatch.setattr(EncodedLines, "FLUSH", rng.choice([1, 2, 3, 5, 8, 1024]))
        start = [text(rng) for _ in range(rng.randint(0, 3))]
        lines, out = list(start), EncodedLines(start)
        for _ in range(rng.randint(0, 40)):
            if rng.random() < 0.5:
                line = text(rng)
                lines.append(line)
                out.append(line)
            else:
                more = [text(rng) for _ in range(rng.randint(0, 6))]
                lines += more
                out += more
        end = rng.choice(["", "\n"])
        assert out.data(end=end) == ("\n".join(lines) + end).encode("utf-8"), seed


def value(rng: random.Random, depth: int = 0):
    roll = rng.random()
    if depth < 4 and roll < 0.25:
        return {text(rng): value(rng, depth + 1) for _ in range(rng.randint(0, 4))}
    if depth < 4 and roll < 0.45:
        return [value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return rng.choice([text(rng), rng.randint(-10**6, 10**6), rng.random() * 1e3, True, False, None, 0.5, -0.0])


def test_json_is_dumps_encoded(monkeypatch):
    for seed in range(300):
        rng = random.Random(seed)
        data = {"questions": [value(rng) for _ in range(rng.randint(0, 30))]}
        assert json_utf8(data) == (json.dumps(data, ensure_ascii=False, indent=2) + "\n").encode("utf-8"), seed
    big = {"questions": [{"id": f"q{n}", "stem": "é" * (n % 7)} for n in range(3000)]}  # many more pieces than one encoding
    assert json_utf8(big) == (json.dumps(big, ensure_ascii=False, indent=2) + "\n").encode("utf-8")
    assert common.json_utf8([]) == b"[]\n"
