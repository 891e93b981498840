"""``cache.catalogs.model_json_of`` takes a model's JSON bytes from its serializer's ``to_json``
(the same default arguments as ``model_dump_json``, which decodes those bytes into a string):
the same bytes as ``model_dump_json().encode("utf-8", "surrogateescape")``, as it was made
before, on every question, topic and category of the bundled bank and ``examples/every-kind``,
each kind's example, and questions whose texts hold characters beyond ASCII, beyond the BMP,
quotes, backslashes and controls escaped by JSON. It fails with ``ensure_ascii=True`` given."""

from __future__ import annotations

import random
from pathlib import Path

from aistack_bank.cache.catalogs import model_json_of

ROOT = Path(__file__).resolve().parent.parent


def _before(model) -> bytes:
    return model.model_dump_json().encode("utf-8", "surrogateescape")


def _models():
    from aistack_bank.load import read_library

    for root in (ROOT, ROOT / "examples" / "every-kind"):
        source = read_library(root / "bank")
        yield from source.categories
        for topic in source.topics:
            if topic.topic is not None:
                yield topic.topic
            for qs in topic.questions:
                if qs.question is not None:
                    yield qs.question


def test_every_model_of_both_banks():
    seen = 0
    for model in _models():
        if hasattr(model, "model_dump_json"):
            assert model_json_of(model) == _before(model), model
            seen += 1
    assert seen > 60


def test_every_kind_example_with_odd_texts():
    from aistack_bank.kinds import REGISTRY

    rng = random.Random(11)
    pieces = ["a", "é", "×", "²", "\u00a0", "\u202f", "日本", "\U0001f600", "\"", "\\", "\t", "\n", "\u2028", "</script>", "\u0660", "ß"]
    for kind in REGISTRY.values():
        for _ in range(200):
            data = dict(kind.example)
            data["stem"] = "x" + "".join(rng.choice(pieces) for _ in range(rng.randint(1, 20)))
            data["explanation"] = "y" + "".join(rng.choice(pieces) for _ in range(rng.randint(1, 20)))
            model = kind.model.model_validate(data)
            assert model_json_of(model) == _before(model), data
