"""GIFT's escaping and Moodle's plain-text fields made by one ``str.replace`` per character
instead of ``str.translate`` with a table (which looks every character up in a dict): the same
text as the tables they replaced (kept here), on random texts of the characters they change,
their escapes and anything else (non-BMP, right-to-left, control characters)."""

from __future__ import annotations

import random

from aistack_bank.exporters.common import plain_field
from aistack_bank.exporters.gift import gift_escape

GIFT_TABLE = str.maketrans({"~": "\\~", "=": "\\=", "#": "\\#", "{": "\\{", "}": "\\}", ":": "\\:", "\\": "\\\\", "\n": "\\n", "\r": ""})
ANGLES_TABLE = str.maketrans({"<": "\u2039", ">": "\u203a"})

CHARS = list("~=#{}:\\\n\r<>n ab") + ["\\~", "\\n", "\u2039", "\u203a", "\U0001F600", "\u0627", "\u2067", "\x00", "\x85", "é", "&lt;"]


def test_the_replacements_are_the_tables():
    rng = random.Random(0)
    for _ in range(5000):
        text = "".join(rng.choice(CHARS) for _ in range(rng.randint(0, 20)))
        assert gift_escape(text) == text.translate(GIFT_TABLE), repr(text)
        assert plain_field(text) == text.translate(ANGLES_TABLE), repr(text)
