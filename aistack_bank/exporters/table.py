"""The table of which format carries which question kind, generated from the format records.

``python3 -m aistack_bank.exporters.table`` rewrites the table in README.md (between its
``kinds-table`` markers); ``tests/test_kinds_formats.py`` fails when the committed table is stale.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from pathlib import Path

from ..kinds import NAMES

START = "<!-- kinds-table: generated from the format records by `python3 -m aistack_bank.exporters.table`; do not edit -->"
END = "<!-- /kinds-table -->"
_BLOCK = re.compile(re.escape(START) + r".*?" + re.escape(END), re.S)


def kinds_table() -> str:
    """The Markdown table: a row per question kind, a column per format (in build order)."""
    from . import FORMATS

    formats = list(FORMATS.values())
    lines = ["| kind | " + " | ".join(f"`{f.name}`" for f in formats) + " |", "| --- |" + " --- |" * len(formats)]
    for kind in NAMES:
        cells = ["yes" if kind in f.writers else f"left out ({f.left_out_code})" if f.left_out_code else "left out" for f in formats]
        lines.append(f"| {kind} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def with_table(text: str) -> str:
    """``text`` (README.md) with its generated block replaced by the current table."""
    return _BLOCK.sub(lambda _: f"{START}\n{kinds_table()}\n{END}", text)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m aistack_bank.exporters.table",
                                     description="Write the kind x format table into README.md's generated block.")
    parser.add_argument("readme", nargs="?", default="README.md", help="the file holding the block (default: README.md)")
    args = parser.parse_args(argv)
    file = Path(args.readme)
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        print(f"{file}: {error}", file=sys.stderr)
        return 2
    if not _BLOCK.search(text):
        print(f"{file}: no block between {START} and {END}", file=sys.stderr)
        return 2
    file.write_text(with_table(text), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
