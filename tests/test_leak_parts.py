"""The answer-leak lint of many texts matches them a part at a time in forked worker processes,
after indexing the keys once: the findings, and their order, are those of one process.

:func:`lints._match` with the parts in worker processes (any number of texts, two processes)
is compared with it in this process on random keys and texts: texts that hold a key whole, a
run of eight of its words, most of its words reordered, its figure or its declared terms, the
same text in several questions, a question's own key, and texts that hold nothing."""

from __future__ import annotations

import random

import pytest

from aistack_bank.rules import lints
from aistack_bank.rules.lints import KeyInfo, LeakText

WORDS = ("memory bandwidth weights cache decode prefill tokens kernel fused tensor cores batch latency throughput "
         "quantized model layer attention matrix multiply accumulate pipeline stage compiler graph register").split()
FIGURES = ["28 GB", "14 GB", "2 bytes", "40 ms", "4 bits", "100 operations per byte"]


def _bank(seed: int):
    rng = random.Random(seed)
    keys: dict[str, KeyInfo] = {}
    for n in range(rng.randint(20, 60)):
        kind = rng.random()
        if kind < 0.15:
            text = f"About {rng.choice(FIGURES)}"
        else:
            text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 14)))
        terms = (f"{rng.choice(WORDS)} + {rng.choice(WORDS)}",) if rng.random() < 0.1 else ()
        keys[f"q{n:04d}"] = KeyInfo(text, terms)
    qids = list(keys)
    texts = []
    for n in range(rng.randint(150, 400)):
        qid = rng.choice(qids)
        other = keys[rng.choice(qids)].text.split()
        kind = rng.random()
        if kind < 0.15:
            text = " ".join(other)
        elif kind < 0.3:
            start = rng.randrange(max(1, len(other) - 8))
            text = "So " + " ".join(other[start:start + 8]) + " here."
        elif kind < 0.4:
            text = " ".join(rng.sample(other, len(other))) + " " + rng.choice(WORDS)
        elif kind < 0.5 and texts:
            text = rng.choice(texts).text  # the same text in another question
        else:
            text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 20)))
        texts.append(LeakText(qid, rng.choice([("stem",), ("explanation",), ("options", rng.randrange(4), "feedback")]), text))
    return keys, texts


@pytest.mark.parametrize("seed", range(6))
def test_the_parts_matched_in_worker_processes_find_what_one_process_finds(seed, monkeypatch):
    keys, texts = _bank(seed)
    monkeypatch.setattr(lints, "LEAK_POOL_MIN", 10 ** 9)
    alone = lints._match(keys, texts)
    monkeypatch.setattr(lints, "LEAK_POOL_MIN", 0)
    monkeypatch.setenv("AISTACK_BANK_JOBS", "2")
    parts: list[int] = []
    scanned = lints._scanned

    def counted(scan, distinct, count):
        found = scanned(scan, distinct, count)
        parts.append(len(found))
        return found

    monkeypatch.setattr(lints, "_scanned", counted)
    assert lints._match(keys, texts) == alone
    assert parts == [4]  # (in four parts)
    assert len(alone) > 20  # many findings, of every kind below
    assert {how for _, how in alone} >= {"its words", "most of its words"}
