"""The converter looks for a node met twice (an alias) only in a text that holds both ``*`` and
``&``: without an anchor an alias stops the composer ("found undefined alias"). On random YAML
texts with aliases, anchors, stars and ampersands in values, comments and quotes, ``parse_yaml``
gives the data, positions and diagnostics it gives when every text with a ``*`` is looked at,
as before (the converter made to keep its set of nodes met for such a text)."""

from __future__ import annotations

import random
from pathlib import Path

from aistack_bank import yamlsource

_PIECES = ["a: 1\n", "b: &x v\n", "c: *x\n", "d: [*x, *y]\n", "e: 2 * 3\n", "f: 'a & b'\n", "g: \"*\"\n", "# & *\n",
           "h:\n  - *x\n  - &y [1, 2]\n  - *y\n", "i: {k: *x}\n", "j: x&y\n", "k: *nowhere\n", "l: &z\n  m: 1\n", "n: *z\n",
           "o: ! '<<'\n", "<<: *z\n", "p: [a*b, c&d]\n"]


def _parse_before(text: str):
    init = yamlsource._Converter.__init__

    def old_init(self, doc, diags, police_all):
        init(self, doc, diags, police_all)
        self.seen = set() if "*" in doc.text else None

    yamlsource._Converter.__init__ = old_init
    try:
        return yamlsource.parse_yaml(text, Path("q.yaml"))
    finally:
        yamlsource._Converter.__init__ = init


def _outcome(found):
    doc, diags = found
    return ((doc.data, doc.values, doc.keys) if doc is not None else None, [str(d) for d in diags])


def test_as_before_on_random_texts():
    rng = random.Random(5)
    kinds = set()
    for _ in range(4000):
        text = "".join(rng.sample(_PIECES, rng.randint(1, 6)))
        want = _outcome(_parse_before(text))
        assert _outcome(yamlsource.parse_yaml(text, Path("q.yaml"))) == want, text
        kinds.add(("E108" in str(want[1]), "E105" in str(want[1]), want[0] is not None))
    assert len(kinds) >= 4, kinds
