"""Each catalog entry's own findings, kept between commands: one edited entry is checked again, not the catalog.

The checks of one entry against its field (:func:`.verify.verify_catalog`: untranslated, made
for another English text, fuzzy, the field's rules, numbers, quantities, formulas, markup, one
line) read only the field's key, English text and key-bearing flag, the entry's msgid, msgstr
and fuzzy flag, and the catalog's language. An :class:`EntryMemo` keeps what they found for
exactly those values (a digest of them, written as one string by :func:`entry_parts`),
*without a location*: the caller locates each finding
in the catalog as read now, so an entry that moves, or a comment line added above it, is
reported at its new line. Rules over the whole catalog (length cues, duplicates, translated
checks, obsolete entries) are not kept here and run every time.

The translation lints that look at one entry (W320/W321: an option named by its letter, a
reference to another question) keep their hits the same way (``kind="references"``), as
(code, message, offset in the msgstr), located afterwards too.

One store per catalog file and kind (so that catalogs verified in parallel never write the same
store), keyed by the language, the package (version and source) and the working directory; it
holds the entries of the latest run only. Disabled, or with a damaged store, every entry is checked.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Callable

from ..errors import Diagnostic, Severity
from .store import Store, key_of

Finding = tuple[Severity, str, str]
"""(severity, code, message) of a diagnostic found in one entry, before it is located."""
Hit = tuple[str, str, int]
"""(code, message, offset in the msgstr) of a lint hit in one entry's translation."""


class EntryMemo:
    """Location-free findings of each entry of one catalog, by the values the checks read."""

    def __init__(self, path: Path, language: str, *, enabled: bool, kind: str = "entries") -> None:
        self.enabled = enabled
        self._types = (Severity, str, str) if kind == "entries" else (str, str, int)
        self._old: dict = {}
        self._new: dict[bytes, tuple[Finding, ...]] = {}
        self._missed = False
        if not enabled:
            return
        self._store = Store(f"catalog-{kind}", path)
        # (an entry's values digested as :func:`entry_parts` writes them: a store of digests made otherwise is not read)
        self._key = key_of(f"catalog-{kind}", language, *(("entry_parts",) if kind == "entries" else ()))
        found = self._store.get(self._key)
        self._old = found if isinstance(found, dict) else {}

    def findings(self, parts: tuple, compute: Callable[[], list[Diagnostic]]) -> tuple[Finding, ...]:
        """What ``compute()`` finds (its diagnostics without location), or what it found for
        the same ``parts`` (every value the entry's checks read) in the latest run."""
        return self.values(parts, lambda: strip(compute()))

    def values(self, parts: tuple | str, compute: Callable[[], tuple]) -> tuple:
        """``compute()`` (a tuple of findings or hits), or what it gave for the same ``parts``
        in the latest run (``parts``: the values read, a tuple, or one string that tells them
        apart, such as :func:`entry_parts`)."""
        digest, found = self.lookup(parts)
        return found if found is not None else self.missed(digest, compute())

    def lookup(self, parts: tuple | str) -> tuple[bytes | None, tuple | None]:
        """(the digest of ``parts``, what was kept for it in the latest run, or None), for a
        caller that computes the findings itself when none are kept and then hands them to
        :meth:`missed` with the digest (:meth:`values` without a closure per entry).
        Disabled: (None, None)."""
        if not self.enabled:
            return None, None
        digest = hashlib.blake2b((parts if type(parts) is str else repr(parts)).encode("utf-8", "surrogatepass"), digest_size=16).digest()
        found = self._old.get(digest)
        if found is None or not _well_formed(found, self._types):
            return digest, None
        self._new[digest] = found
        return digest, found

    def missed(self, digest: bytes | None, found: tuple) -> tuple:
        """Keep ``found``, computed for the digest :meth:`lookup` answered without findings; ``found``."""
        if digest is not None:
            self._new[digest] = found
            self._missed = True
        return found

    def save(self) -> None:
        """Keep this run's findings (only when some entry was checked, or some dropped)."""
        if self.enabled and (self._missed or len(self._new) != len(self._old)):
            self._store.put(self._key, self._new)
            self._store.save()


def entry_parts(key: str, english: str, key_bearing: bool, msgid: str, msgstr: str, fuzzy: bool, language: str) -> str:
    """The values one entry's checks read (its field's key, English and key-bearing flag, its
    msgid, msgstr and fuzzy flag, the language) as one string, which tells any two sets of
    values apart: the strings' lengths and the flags first, then the strings one after the
    other, the msgid left out (its length written -1) when it is the English, as in nearly
    every entry. Its digest costs about half of that of the values' tuple's ``repr``, which
    escaped each string and held the English twice."""
    same = msgid == english
    return (f"{len(key)},{len(english)},{-1 if same else len(msgid)},{len(msgstr)},{len(language)},{'1' if key_bearing else '0'}{'1' if fuzzy else '0'}\0"
            f"{key}{english}{'' if same else msgid}{msgstr}{language}")


def strip(diags: list[Diagnostic]) -> tuple[Finding, ...]:
    """Diagnostics as findings: without their location."""
    return tuple((d.severity, d.code, d.message) for d in diags)


def _well_formed(found, types: tuple[type, type, type]) -> bool:
    return type(found) is tuple and all(
        type(item) is tuple and len(item) == 3 and all(isinstance(value, kind) for value, kind in zip(item, types))
        for item in found)


def located(found: tuple[Finding, ...], where) -> list[Diagnostic]:
    """The findings as diagnostics at ``where`` (a location)."""
    return [Diagnostic(severity, code, message, where) for severity, code, message in found]
