#!/usr/bin/env python3
"""How often does the catalog writer lay out a real catalog differently from GNU msgcat?

Every ``.po``/``.pot`` file under FOLDER is read with ``read_po`` and written again with
``write_po``; the bytes are compared with what ``msgcat --force-po FILE`` writes. A file whose
reading gives a diagnostic is counted apart (the writer is not asked about it). The rate is the
share of read files whose bytes differ.

    python3 -m pip download --no-deps django -d /tmp/dj && unzip -q /tmp/dj/*.whl '*.po' -d /tmp/dj/x
    python3 benchmarks/msgcat_rate.py /tmp/dj/x            # rate, and the first differing files
    python3 benchmarks/msgcat_rate.py /tmp/dj/x --show 20  # … and up to 20 differing lines each

msgcat's output is kept in a cache folder (``--cache``, default: none) so that a second run
only measures the writer.
"""

from __future__ import annotations

import argparse
import difflib
import hashlib
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from aistack_bank.i18n.pofile import read_po, write_po  # noqa: E402


def msgcat_output(path: Path, msgcat: str, cache: Path | None) -> bytes | None:
    data = path.read_bytes()
    key = cache / (hashlib.sha256(data).hexdigest() + ".po") if cache else None
    if key is not None and key.exists():
        return key.read_bytes()
    result = subprocess.run([msgcat, "--force-po", str(path)], capture_output=True)
    if result.returncode != 0:
        return None
    if key is not None:
        key.write_bytes(result.stdout)
    return result.stdout


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--cache", type=Path, help="folder for msgcat's outputs, reused on the next run")
    parser.add_argument("--show", type=int, default=0, help="differing lines shown per file")
    parser.add_argument("--list", type=int, default=10, help="differing files listed")
    args = parser.parse_args(argv)
    msgcat = shutil.which("msgcat")
    if msgcat is None:
        print("msgcat (GNU gettext) is not installed", file=sys.stderr)
        return 2
    if args.cache:
        args.cache.mkdir(parents=True, exist_ok=True)
    files = sorted(p for p in args.folder.rglob("*") if p.suffix in (".po", ".pot") and p.is_file())
    same, differ, unread = 0, [], []
    for path in files:
        gnu = msgcat_output(path, msgcat, args.cache)
        try:
            text = path.read_bytes().decode("utf-8")
        except UnicodeDecodeError:
            text = None
        po, diags = read_po(text, path) if text is not None else (None, ["not UTF-8"])
        if gnu is None or po is None or diags:
            unread.append(path)
            continue
        ours = write_po(po)
        if ours == gnu:
            same += 1
        else:
            differ.append((path, ours, gnu))
    read = same + len(differ)
    rate = 100 * len(differ) / read if read else 0.0
    print(f"{len(files)} files, {read} read, {len(differ)} differ from msgcat ({rate:.2f} %), {len(unread)} not read")
    for path, ours, gnu in differ[: args.list]:
        print(f"  {path.relative_to(args.folder)}")
        if args.show:
            diff = difflib.unified_diff(gnu.decode().splitlines(), ours.decode().splitlines(), "msgcat", "ours", n=0, lineterm="")
            for line in list(diff)[2 : 2 + args.show]:
                print(f"    {line}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
