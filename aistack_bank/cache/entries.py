"""Each catalog entry's own findings, kept between commands: one edited entry is checked again, not the catalog.

The checks of one entry against its field (:func:`.verify.verify_catalog`: untranslated, made
for another English text, fuzzy, the field's rules, numbers, quantities, formulas, markup, one
line) read only the field's key, English text and key-bearing flag, the entry's msgid, msgstr
and fuzzy flag, and the catalog's language. An :class:`EntryMemo` keeps what they found for
exactly those values (a digest of them, their tuple as :func:`entry_values` makes it written by
:mod:`marshal`: :meth:`EntryMemo.recall` and :meth:`EntryMemo.keep`), *without a location*:
the caller locates each finding
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
import marshal
from functools import partial
from itertools import repeat
from operator import methodcaller
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
        self._pending: list[tuple[tuple, tuple]] = []
        """(values, findings) kept by :meth:`keep` without their digest, taken by :meth:`save` in one pass."""
        if not enabled:
            return
        self._store = Store(f"catalog-{kind}", path)
        # (an entry's values digested as :func:`entry_digest` writes them: a store of digests made otherwise is not read)
        self._key = key_of(f"catalog-{kind}", language, *(("entry-values",) if kind == "entries" else ()))
        found = self._store.get(self._key)
        self._old = found if isinstance(found, dict) else {}

    def findings(self, parts: tuple, compute: Callable[[], list[Diagnostic]]) -> tuple[Finding, ...]:
        """What ``compute()`` finds (its diagnostics without location), or what it found for
        the same ``parts`` (every value the entry's checks read) in the latest run."""
        return self.values(parts, lambda: strip(compute()))

    def values(self, parts: tuple | str, compute: Callable[[], tuple]) -> tuple:
        """``compute()`` (a tuple of findings or hits), or what it gave for the same ``parts``
        in the latest run (``parts``: the values read, a tuple, or one string that tells them
        apart)."""
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

    def recall(self, values: tuple) -> tuple[bytes | None, tuple | None]:
        """(the digest of an entry's ``values``, :func:`entry_values`, or None; the findings
        kept for them in the latest run, or None): :meth:`lookup` for one entry's checks, whose
        findings, when none are kept, are handed to :meth:`keep` with that digest. When the
        latest run kept nothing (a cold run: nothing can be found), the digest is not taken
        here: :meth:`save` takes those of the entries kept, in one pass. Disabled, or values
        that :mod:`marshal` does not write (then never kept): (None, None)."""
        if not self._old:
            return None, None
        try:
            digest = entry_digest(values)
        except ValueError:
            return None, None
        found = self._old.get(digest)
        if found is None or not _well_formed(found, self._types):
            return digest, None
        self._new[digest] = found
        return digest, found

    def keep(self, digest: bytes | None, values: tuple, found: tuple) -> tuple:
        """Keep ``found``, the findings of an entry's ``values`` for which :meth:`recall`
        answered ``digest`` and no findings; ``found``."""
        if digest is not None:
            self._new[digest] = found
            self._missed = True
        elif self.enabled:
            self._pending.append((values, found))
            self._missed = True
        return found

    def cold_pending(self) -> list | None:
        """For a caller that checks entries itself, without :meth:`recall` and :meth:`keep`, when
        neither would do more than keep the entry's values (enabled, and nothing kept by the
        latest run: a cold run, in which :meth:`recall` answers (None, None) for any values):
        the list that :meth:`keep` appends ``(values, findings)`` to, to append them to in the
        order the entries are checked (as :meth:`keep` does: :meth:`save` digests and keeps
        them). Else None (disabled: nothing to keep; or a memo to look each entry up in)."""
        return self._pending if self.enabled and not self._old else None

    def _digest_pending(self) -> None:
        """The digests of the values :meth:`keep` (or a caller of :meth:`cold_pending`) was given
        without one, taken in one pass (a chain of ``map``: no Python call per entry), each kept
        with its findings; values that :mod:`marshal` does not write are not kept."""
        pending, self._pending = self._pending, []
        if not pending:
            return
        self._missed = True  # (as keep marks it: an entry was checked)
        values = [value for value, _ in pending]
        try:
            digests = list(map(_DIGEST_OF, map(_BLAKE2B_16, map(marshal.dumps, values, repeat(_MARSHAL_VERSION)))))
        except ValueError:
            digests = []
            for value in values:
                try:
                    digests.append(entry_digest(value))
                except ValueError:
                    digests.append(None)
        new = self._new
        for digest, (_, found) in zip(digests, pending):
            if digest is not None:
                new[digest] = found

    def save(self) -> None:
        """Keep this run's findings (only when some entry was checked, or some dropped)."""
        self._digest_pending()
        if self.enabled and (self._missed or len(self._new) != len(self._old)):
            self._store.put(self._key, self._new)
            self._store.save()


def entry_values(key: str, english: str, key_bearing: bool, msgid: str, msgstr: str, fuzzy: bool) -> tuple:
    """The values one entry's checks read besides the catalog's language (which the memo's
    store is kept under): its field's key, English and key-bearing flag, its msgid, msgstr and
    fuzzy flag, the msgid None when it is the English, as in nearly every entry (the caller
    may build the same tuple in place)."""
    return (key, english, key_bearing, None if msgid == english else msgid, msgstr, fuzzy)


_MARSHAL_VERSION = 2
"""The :mod:`marshal` format an entry's values are written in for their digest: version 2
writes every string, flag and None alike wherever it is (from version 3 on, an object seen
twice may be written as a reference to the first, depending on its reference count), and
reads back the same values, so two sets of values are written alike exactly when they are
equal. (Faster than :func:`repr`, which escaped each string, or a string of the values'
lengths and the values joined, made by a Python call per entry.)"""

_BLAKE2B_16 = partial(hashlib.blake2b, digest_size=16)
_DIGEST_OF = methodcaller("digest")


def entry_digest(values: tuple) -> bytes:
    """The memo's digest of an entry's values (:func:`entry_values`); ValueError for values
    that :mod:`marshal` does not write (an object of a class of its own: such an entry is
    never kept)."""
    return _BLAKE2B_16(marshal.dumps(values, _MARSHAL_VERSION)).digest()


def strip(diags: list[Diagnostic]) -> tuple[Finding, ...]:
    """Diagnostics as findings: without their location. No diagnostics (an entry's checks find
    none in nearly every entry) are answered without the generator the others are read by
    (about 0.6 µs a call: 36 681 calls in a catalog worker of a cold validate of the
    10 000-question bank)."""
    if not diags:
        return ()
    return tuple((d.severity, d.code, d.message) for d in diags)


def _well_formed(found, types: tuple[type, type, type]) -> bool:
    return type(found) is tuple and all(
        type(item) is tuple and len(item) == 3 and all(isinstance(value, kind) for value, kind in zip(item, types))
        for item in found)


def located(found: tuple[Finding, ...], where) -> list[Diagnostic]:
    """The findings as diagnostics at ``where`` (a location)."""
    return [Diagnostic(severity, code, message, where) for severity, code, message in found]
