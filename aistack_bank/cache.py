"""A content-hash cache of `bank validate` verdicts, so an unchanged bank validates instantly.

The key is a digest of every input byte (each bank file and catalog, by path and content) and
of the package's own source, so any change to content or code misses the cache: it can serve a
verdict only for exactly the inputs that produced it. The cache lives in `.bank-cache/` beside
the bank (git-ignored); if it cannot be read or written, validation simply runs.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from .errors import Diagnostic, Location, Severity

CACHE_DIR = ".bank-cache"
_FORMAT = 1


def _package_digest() -> str:
    digest = hashlib.blake2b(digest_size=16)
    package = Path(__file__).parent
    for path in sorted(package.rglob("*")):
        if path.suffix in (".py", ".js", ".css", ".html") and path.is_file():
            digest.update(path.relative_to(package).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def input_digest(bank: Path, translations: Path | None, extra: str = "") -> str:
    """A digest of every file validation reads, plus the code and ``extra`` (the options)."""
    digest = hashlib.blake2b(digest_size=32)
    digest.update(f"{_FORMAT}\0{_package_digest()}\0{extra}\0{os.getcwd()}\0".encode())
    roots = [bank] + ([translations] if translations is not None else [])
    for root in roots:
        digest.update(f"\0root {root.as_posix()}\0".encode())
        if not root.exists():
            continue
        entries = []
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames.sort()
            entries += [os.path.join(dirpath, name) for name in filenames]
        for name in sorted(entries):
            digest.update(name.encode("utf-8", "surrogateescape") + b"\0")
            try:
                with open(name, "rb") as fh:
                    digest.update(fh.read())
            except OSError as exc:
                digest.update(f"unreadable {exc.errno}".encode())
            digest.update(b"\0")
    return digest.hexdigest()


def _cache_file(bank: Path) -> Path:
    return bank.resolve().parent / CACHE_DIR / "validate.json"


def load(bank: Path, key: str) -> tuple[list[Diagnostic], dict] | None:
    """The cached (diagnostics, summary) for ``key``, or None."""
    try:
        data = json.loads(_cache_file(bank).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    entry = data.get(bank.resolve().as_posix()) if isinstance(data, dict) else None
    if not isinstance(entry, dict) or entry.get("key") != key:
        return None
    diags = []
    for d in entry["diagnostics"]:
        loc = Location(d["path"], d["line"] or 0, d["column"] or 0) if d["path"] is not None else None
        diags.append(Diagnostic(Severity(d["severity"]), d["code"], d["message"], loc))
    return diags, entry["summary"]


def store(bank: Path, key: str, diagnostics: list[Diagnostic], summary: dict) -> None:
    """Remember the verdict for ``key`` (best effort, atomic)."""
    from .writing import write_atomic

    path = _cache_file(bank)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict):
            data = {}
    except (OSError, ValueError):
        data = {}
    data[bank.resolve().as_posix()] = {"key": key, "diagnostics": [d.as_dict() for d in diagnostics], "summary": summary}
    try:
        write_atomic(path, json.dumps(data).encode("utf-8"))
    except OSError:
        pass
