"""A catalog file read and checked: the gettext layer's unit between the files and the pipeline.

:func:`read_catalog` reads one `.po`/`.pot` file with the strict reader of :mod:`.pofile`
(every grammar error located by line and column), then checks what GNU msgfmt checks
(duplicates, plural counts) and the project's own conventions (header fields, one msgctxt per
field). :func:`render_catalog` writes a catalog byte for byte as GNU msgcat does
(:func:`.pofile.write_po`). :class:`Catalogs` is one command's reads, passed down explicitly so
that validation and localization of a build share them.
"""

from __future__ import annotations

import os
import re
from bisect import bisect_right
from dataclasses import dataclass, field
from operator import itemgetter
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import Diagnostic, Location, error
from .site import SITE_DIR
from .languages import LANGUAGES, TWO_FORMS, plural_forms, same_plural_rule
from .pofile import (LINENUM, WRAP_WIDTH, ColumnCatalog, LightCatalog, block_rows, catalog_of, first_msgstr, light_catalog, pack_rows, read_entries, read_light_rows,
                     read_rows, read_rows_bytes, unpack_rows, write_po)

if TYPE_CHECKING:
    import polib

MAX_CATALOG_BYTES = 512 << 20
"""Largest catalog accepted: a 100 000-question bank has catalogs of about 440 MB."""

PLURAL_FORMS = {code: lang.plural_forms for code, lang in LANGUAGES.items()}
LANGUAGE_NAMES = {code: lang.name for code, lang in LANGUAGES.items()}

LANGUAGE_CODE = re.compile(r"^[a-z]{2,3}(?:[_-](?:[A-Z][a-z]{3}|[A-Z]{2}|[0-9]{3})){0,2}(?:@[a-z][a-z0-9]{1,15})?$")
"""A catalog's language: ISO 639 code, optional script and region (``fr``, ``pt_BR``, ``zh-Hant``,
``zh_Hant_TW``, ``es_419``), optional POSIX modifier (``sr@latin``)."""


def is_language_code(code: str) -> bool:
    """Whether ``code`` (a catalog file name's stem) is a language code that is safe in every format."""
    return bool(LANGUAGE_CODE.fullmatch(code))


_PLURAL_SYNTAX = re.compile(r"^\s*nplurals\s*=\s*[1-9][0-9]*\s*;\s*plural\s*=\s*[-+*/%!<>=&|?:()n0-9 \t]+;?\s*$")


@dataclass(frozen=True)
class Changes:
    """What an edit changed in a catalog read with ``light`` and ``use_cache``, against the
    latest read of the same file (``before``: its token; None when there is none to compare
    with). Lines before ``first_line`` are where they were, lines from ``after_line`` of the
    latest read are ``moved`` lines further, and the entries in between, before and after the
    edit, have the contexts ``keys`` (an entry without a context counts as the key None)."""

    token: str
    before: str | None = None
    first_line: int = 0
    after_line: int = 0
    moved: int = 0
    keys: frozenset = frozenset()

    def where(self, line: int) -> int | None:
        """The line now of ``line`` of the latest read, outside the changed entries (else None)."""
        if line < self.first_line:
            return line
        if line >= self.after_line:
            return line + self.moved
        return None


class BytesLines:
    """The lines of a file's bytes as ``text.split("\\n")`` of its text gives them, the text
    decoded as UTF-8 with replacement and its line ends read as a file opened as text reads
    them (``\\r\\n`` and ``\\r`` as ``\\n``), by number (``len`` and ``[i]``).

    Only the bytes are held, with where each window of about :attr:`WINDOW` bytes starts (at a
    line's start) and its first line's number: a line is decoded with its window's, the latest
    window's lines kept. A catalog's text split into a string per line took about four times the
    file's size at its peak (the text, then every line an object): a finding located in a
    100 000-entry catalog must not cost that."""

    WINDOW = 1 << 16

    def __init__(self, data: bytes) -> None:
        from array import array

        if b"\r" in data:
            data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        self._data = data
        self._starts, self._firsts = array("q"), array("q")
        start, first = 0, 0
        while True:
            self._starts.append(start)
            self._firsts.append(first)
            end = data.find(b"\n", start + self.WINDOW)
            if end < 0:
                break
            first += data.count(b"\n", start, end + 1)
            start = end + 1
        self._count = first + data.count(b"\n", start) + 1
        self._window: tuple[int, list[str]] = (-1, [])

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, index: int) -> str:
        if index < 0:
            index += self._count
        if not 0 <= index < self._count:
            raise IndexError(index)
        k = bisect_right(self._firsts, index) - 1
        if self._window[0] != k:
            last = k + 1 == len(self._starts)
            end = len(self._data) if last else self._starts[k + 1]
            lines = self._data[self._starts[k]:end].decode("utf-8", errors="replace").split("\n")
            if not last:
                lines.pop()  # (the window ends with a line end: the next window's first line starts there)
            self._window = (k, lines)
        return self._window[1][index - self._firsts[k]]

    def held(self) -> int:
        """How many decoded lines are held (those of one window at most)."""
        return len(self._window[1])


@dataclass(frozen=True)
class Catalog:
    """A read catalog: where it came from, its entries (``po``) and what is wrong with it.

    ``po`` is None when the file is unusable; ``diagnostics`` then say why. Each call of
    :func:`read_catalog` returns a new one, which the caller owns.
    """

    path: Path
    language: str
    po: polib.POFile | None
    diagnostics: list[Diagnostic]
    changes: Changes | None = field(default=None, compare=False)
    """How the file differs from its latest read (kept reads only: see :func:`read_catalog`)."""
    _text: dict[str, BytesLines] = field(default_factory=dict, init=False, repr=False, compare=False)

    def file_lines(self) -> BytesLines:
        """The lines of the file as it is now, read on first use: diagnostics that point into a
        string (a msgstr line, a column) are rare, so the reader does not keep the text. The
        file's bytes are kept, not a string per line (:class:`BytesLines`)."""
        if "lines" not in self._text:
            from ..cache.store import note_read

            note_read(self.path, None)  # (the bytes read now may not be those the entries were read from)
            try:
                self._text["lines"] = BytesLines(self.path.read_bytes())
            except OSError:
                self._text["lines"] = BytesLines(b"")
        return self._text["lines"]

    def active(self) -> dict[str, polib.POEntry]:
        """Active (non-obsolete) entries by msgctxt (of a :class:`~.pofile.ColumnCatalog`, a
        mapping that makes each entry when asked for)."""
        if isinstance(self.po, ColumnCatalog):
            return self.po.active()
        if type(self.po) is LightCatalog and not any(map(itemgetter(12), self.po)):
            # no entry obsolete: each context's last entry, the contexts in the order they first
            # appear (as the mapping below), made in C; the entries without a context taken out
            found = dict(zip(map(itemgetter(0), self.po), self.po))
            found.pop(None, None)
            return found
        return {e.msgctxt: e for e in self.po if e.msgctxt is not None and not e.obsolete}

    def obsolete(self) -> dict[str, polib.POEntry]:
        return {e.msgctxt: e for e in self.po.obsolete_entries() if e.msgctxt is not None}


render_catalog = write_po
"""The bytes of a catalog's ``po``, as GNU msgcat writes them."""


def read_catalog(path: Path, *, template: bool = False, use_cache: bool = False, light: bool = False, columns: bool = False, texts: bool = False) -> Catalog:
    """Read and check the catalog at ``path`` (a template with ``template``: no language).

    Every call reads the file: to share one read between the steps of a command, pass a
    :class:`Catalogs` down. With ``use_cache``, the parsed entries and their diagnostics come
    from the per-file store when the file's bytes are those of a stored read (each call still
    returns new objects, which the caller owns). With ``light``, ``po`` is a
    :class:`~.pofile.LightCatalog` (for checks that only read it; kept in a store of its own);
    with ``columns`` too, a :class:`~.pofile.ColumnCatalog` when the file is of the common shape
    (its entries made only when asked for: for checks that read a few of them by context);
    with ``texts`` as well, one that holds every column, its texts those of the kept read (for
    localizing, which reads every entry's msgid, msgstr and flags from the columns).
    """
    language = "" if template else path.stem
    if use_cache and light:
        return _read_light_kept(path, language, template, columns, texts)
    if use_cache:
        from ..cache.store import Store, file_digest, key_of

        store = Store("catalog-read", path, keep=1)
        digest = file_digest(path)
        key = key_of("catalog-read", str(path), template, digest) if digest is not None else None
        found = store.get(key) if key is not None else None
        import polib

        if (isinstance(found, tuple) and len(found) == 2 and (found[0] is None or isinstance(found[0], polib.POFile))
                and isinstance(found[1], list) and all(isinstance(d, Diagnostic) for d in found[1])):
            return Catalog(path=path, language=language, po=found[0], diagnostics=found[1])
        catalog = _read_and_check(path, language, light)
        if key is not None and file_digest(path) == digest:  # stored only for the bytes it read
            store.put(key, (catalog.po, catalog.diagnostics))
            store.save()
        return catalog
    return _read_and_check(path, language, light)


def _read_light_kept(path: Path, language: str, template: bool, columns: bool = False, texts: bool = False) -> Catalog:
    """:func:`_read_light`; in a pool's worker, of a catalog whose entries are all made (without
    ``columns``: the worker verifies them), read with the cyclic garbage collector paused, and
    what the worker then holds put out of the collector's reach (``gc.freeze``, as
    :func:`aistack_bank.i18n.verify._manifest_bank` does with the bank).

    A cold read of a catalog of the 10 000-question bank makes 100 000 entries, each a tuple
    and a list of its reference (and a pair in it) that the collector would walk as young
    objects in a few hundred collections while they are read (0.15–0.25 s of a worker's read
    of ``fr.po``), and again in each full collection while the catalog is verified; none of
    them is in a cycle. They are still freed as they are dropped; only a cycle among the
    objects frozen would wait for the worker's end. The worker's garbage is collected first
    (few objects once its bank is frozen), so that no cycle already dropped is frozen with the
    read: without it, the largest process of a cold `bank build` of that bank peaked about
    10 MB higher."""
    import gc

    from ..parallel import in_worker

    if columns or not in_worker() or not gc.isenabled():
        return _read_light(path, language, template, columns, texts)
    gc.collect()
    gc.disable()
    try:
        catalog = _read_light(path, language, template, columns, texts)
        gc.freeze()
    finally:
        gc.enable()
    return catalog


def _read_light(path: Path, language: str, template: bool, columns: bool = False, texts: bool = False) -> Catalog:
    """:func:`read_catalog` with ``light`` and ``use_cache``: the light entries of the file,
    read again only where its bytes differ from the latest read of the same file.

    The user cache keeps, per file, the bytes of the latest read (in a file of their own), its
    entries (:func:`.pofile.light_rows`) and where each entry's block starts, under one token
    that ties the two together. A new text is compared with those bytes (the common start and
    end); only the blocks that the difference touches, and one block on each side, are read
    again (:func:`.pofile.read_rows`), and the entries after them keep their values with
    their line numbers moved. Anything else than blocks of the common shape on either side, or
    bytes that do not decode, mean reading the whole file as :func:`read_catalog` does; the
    catalog's checks always run on the whole.

    The latest read is kept as a base (bytes and entries, written whole) and the edits made
    since (each read's changed bytes and entries, up to :data:`MAX_PATCHES`): an edit adds its
    own to the store instead of writing the 100 000 entries and the file's bytes again."""
    from ..cache.store import Store, key_of, note_read

    raw, failed, bom, digest = _read_raw(path, kept=True)
    if raw is None:
        return Catalog(path=path, language=language, po=None, diagnostics=failed)
    added = not raw.endswith(b"\n")
    if added:
        raw += b"\n"  # as read_entries's block reader reads a text without a final newline
    store = Store("catalog-state", path, keep=1)
    key = key_of("catalog-state", str(path), template)
    kept = _kept_state(store, store.get(key), columns and not texts)
    found_packed = changes = read_columns = None
    if kept is not None:
        token, base, patches, old, packed, starts = kept
        del kept
        if len(old) == len(raw) and _common_prefix(old, raw) == len(raw):
            found_packed, changes = packed, Changes(token, token, 0, 0, 0)
        else:
            found = _read_again((old, packed, starts), raw, path)
            del old
            if found is not None:
                packed, starts, (first_line, after_line, moved, keys), patch = found
                changes = Changes(digest or _token(raw, bom, added), token, first_line, after_line, moved, frozenset(keys))
                note_read(path, changes.token)
                if len(patches) < MAX_PATCHES:
                    store.put(key, (changes.token, base, patches + [patch]))
                else:  # a new base: this read whole
                    store.put(key, (changes.token, _keep_base(store, raw, changes.token, packed, starts), []))
                found_packed = packed
            del packed
    if found_packed is not None:
        if not (columns and found_packed[1] is None):
            del raw, starts
    else:
        # The bytes are kept first, while nothing else of the read is held (bytes that are not
        # UTF-8 too, under their own token, which no base names). The blocks of the common shape
        # are read from the bytes (the text is not made); anything else, and bytes that are not
        # UTF-8, from the text as before.
        token = _keep_bytes(store, raw, digest or _token(raw, bom, added))
        blocks, packed = _blocks_of_bytes(raw, path)
        entries = blocks is not None  # (its rows are LightEntry items already)
        if blocks is not None:
            note_read(path, token)
            del raw
        else:
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                return Catalog(path=path, language=language, po=None, diagnostics=[_not_utf8(raw, exc, path)])
            note_read(path, token)
            del raw  # neither the bytes nor the text are held longer than needed
            blocks = read_rows(text, len(text) - len(text.lstrip("\n")), len(text) - len(text.lstrip("\n")) + 1, path)
            if blocks is None:
                rows, diags = read_light_rows(text[:-1] if added else text, path)
                del text
                if rows is None:
                    return Catalog(path=path, language=language, po=None, diagnostics=diags)
                return _checked(Catalog(path=path, language=language, po=light_catalog(rows), diagnostics=[]))
            blocks = (blocks[0], _byte_offsets(text, blocks[1]), blocks[2])
            del text
        rows, starts, _ = blocks
        del blocks
        changes = Changes(token)
        found_packed = packed if packed is not None else pack_rows(rows)
        store.put(key, (token, _keep_base(store, None, token, found_packed, starts), []))
        if not columns:
            read_columns = found_packed  # (for the catalog checks: see LightCatalog.distinct)
            found_packed = None  # (the rows read are the catalog's)
    store.save()
    store.forget(key)
    if columns and found_packed[1] is None:  # (the kept read's contexts and lines alone: the rows from the bytes)
        po = ColumnCatalog(found_packed, *block_rows(raw, starts, found_packed[8], path))
    elif columns:
        po = ColumnCatalog(found_packed)
    else:
        if found_packed is None:
            po = light_catalog(rows, entries=entries, packed=read_columns)
            read_columns = None
        else:
            po = light_catalog(unpack_rows(found_packed), packed=found_packed)
        rows = None
    del found_packed
    return _checked(Catalog(path=path, language=language, po=po, diagnostics=[], changes=changes))


MAX_PATCHES = 6
"""Edits kept on top of a catalog's base read before the latest read becomes the base."""


def _keep_base(store, raw: bytes | None, token: str, packed: tuple, starts: list[int]) -> str:
    """Keep a read as the base beside ``store`` under ``token`` (:func:`_token`): its bytes
    (unless ``raw`` is None: already kept by :func:`_keep_bytes`) and its entries; the token."""
    from ..cache.store import write_private

    if raw is not None:
        token = _keep_bytes(store, raw, token)
    try:
        # the texts apart from the contexts and lines, which are all that a read verified by
        # context needs (see _kept_state); the texts first: the base is what points to them.
        # The msgids and msgstrs, a string of its own each, and the contexts, lines and rows
        # kept whole are pickled without the pickler's memo (_fast_pickled); the other texts,
        # which many entries share (notes, references), with it, after them.
        # Each is pickled into its file as it goes (_pickled_into), not into a buffer first.
        write_private(store.path.with_suffix(".texts"), _pickled_into((token, packed[1:3]), packed[3:8]))
        write_private(store.path.with_suffix(".base"), _pickled_into((token, (packed[0], packed[8], packed[9]), starts)))
    except Exception:  # an unwritable cache folder: no base (the next read is whole)
        pass
    return token


def _kept_state(store, entry, columns: bool = False) -> tuple | None:
    """(token, base token, patches, bytes, packed entries, block starts) of the latest read kept
    in ``store``'s ``entry`` (the base with its patches replayed), or None when anything of it
    is missing or not of its shape. With ``columns`` (a read whose entries are made from its
    bytes when asked for: :func:`.pofile.block_rows`), only the contexts, lines and rows kept
    whole are unpickled, the other columns None, unless this read is to become the next base."""
    if not (isinstance(entry, tuple) and len(entry) == 3 and isinstance(entry[0], str) and isinstance(entry[1], str)
            and isinstance(entry[2], list) and all(_is_patch(patch) for patch in entry[2])):
        return None
    token, base, patches = entry
    state = _unpickled(store.path.with_suffix(".base"))
    if not (isinstance(state, tuple) and len(state) == 3 and state[0] == base and isinstance(state[1], tuple) and len(state[1]) == 3):
        return None
    if columns and len(patches) < MAX_PATCHES:
        texts = (None,) * 7
    else:
        found = _unpickled(store.path.with_suffix(".texts"), 2)
        if not (found is not None and isinstance(found[0], tuple) and len(found[0]) == 2 and found[0][0] == base and isinstance(found[0][1], tuple)
                and len(found[0][1]) == 2 and isinstance(found[1], tuple) and len(found[1]) == 5):
            return None
        texts = found[0][1] + found[1]
        del found
    (ctx, lines, other), starts = state[1], state[2]
    state = (base, (ctx, *texts, lines, other), starts)
    del texts
    if not _is_packed(state[1], state[2]):
        return None
    kept = _kept_bytes(store, base)
    if kept is None:
        return None
    old = kept  # (each patch's bytes put in place as pieces: nothing is copied)
    del kept
    _, packed, starts = state
    del state
    for patch in patches:
        (p, q, inserted), splice = patch
        if not (0 <= p <= q <= len(old)):
            return None
        old.replace(p, q, inserted)
        packed, starts = _splice(packed, starts, *splice)
        if not _is_packed(packed, starts):
            return None
    return token, base, patches, old, packed, starts


def _unpickled(path: Path, count: int = 0):
    """The object pickled in the private cache file ``path`` (None when it is missing or
    unreadable); with ``count``, the ``count`` objects pickled one after the other in it, as a
    list (None unless the file holds exactly those)."""
    import io
    import pickle

    from ..cache.store import read_private

    found = read_private(path, MAX_CATALOG_BYTES)
    if found is None:
        return None
    try:
        if not count:
            return pickle.loads(found)
        size, stream = len(found), io.BytesIO(found)
        del found
        objects = [pickle.load(stream) for _ in range(count)]
        return objects if stream.tell() == size else None
    except Exception:
        return None


def _fast_pickled(obj, *then) -> bytes:
    """``obj`` pickled without the pickler's memo (``Pickler.fast``): for objects without a
    cycle whose strings are each their own (a column of msgids), whose memo costs more than
    it saves (the strings shared are written once each time they are met, and unpickled as
    copies: equal, not one object); then each of ``then`` pickled after it, with the memo, in
    the same buffer (its bytes are not copied to be joined)."""
    import io

    buffer = io.BytesIO()
    _pickle(buffer, obj, *then)
    return buffer.getvalue()


def _pickle(file, obj, *then) -> None:
    """:func:`_fast_pickled`'s pickles written to the binary ``file``."""
    import pickle

    pickler = pickle.Pickler(file, protocol=pickle.HIGHEST_PROTOCOL)
    try:
        pickler.fast = True  # (documented as deprecated, still there in 3.13; without it, the same objects with the memo)
    except AttributeError:
        pass
    pickler.dump(obj)
    for other in then:
        pickle.dump(other, file, protocol=pickle.HIGHEST_PROTOCOL)


def _pickled_into(obj, *then):
    """A function that writes :func:`_fast_pickled`'s bytes through a file descriptor (for
    :func:`~aistack_bank.cache.store.write_private`): the pickler hands the file each frame
    (about 64 KB) as it is made, so the pickle (26 MB of ``fr.po``'s texts at 10 000
    questions) is never held whole, nor copied as a buffer grows."""

    def write(fd: int) -> None:
        with open(fd, "wb", closefd=False) as file:
            _pickle(file, obj, *then)

    return write


def _is_packed(packed, starts) -> bool:
    """Whether ``packed`` are :func:`.pofile.pack_rows` columns of as many rows as ``starts``
    (the texts, ``packed[1:8]``, all lists or all None: see :func:`_kept_state`)."""
    return (isinstance(packed, tuple) and len(packed) == 10 and isinstance(starts, list)
            and all(isinstance(column, list) and len(column) == len(starts) for column in (packed[0], packed[8]))
            and (all(column is None for column in packed[1:8]) or all(isinstance(column, list) and len(column) == len(starts) for column in packed[1:8]))
            and isinstance(packed[9], dict))


def _is_patch(patch) -> bool:
    return (isinstance(patch, tuple) and len(patch) == 2 and isinstance(patch[0], tuple) and len(patch[0]) == 3
            and type(patch[0][0]) is int and type(patch[0][1]) is int and type(patch[0][2]) is bytes
            and isinstance(patch[1], tuple) and len(patch[1]) == 6 and all(type(patch[1][i]) is int for i in (0, 1, 3, 5))
            and isinstance(patch[1][2], tuple) and len(patch[1][2]) == 10 and isinstance(patch[1][4], list))


def _splice(packed: tuple, starts: list[int], first: int, after: int, region: tuple, moved: int, inner: list[int], shift: int) -> tuple[tuple, list[int]]:
    """The entries and block starts of a read whose entries ``first`` to ``after`` (excluded)
    were read again as ``region`` (packed, starting at the byte offsets ``inner``), the later
    ones ``moved`` lines and ``shift`` bytes further. The columns and ``starts`` are changed in
    place (the caller's own: a kept read just unpickled, whose earlier state nothing keeps), so
    that an edit costs copies of pointers, not a new list per column."""
    lines = packed[8]
    if first < 0 or after < first or after > len(starts) or len(region[8]) != len(inner):
        return (), []
    columns = list(packed[:9])
    for old_column, new_column in zip(columns[:8], region[:8]):
        if old_column is not None:  # (None: texts not read, see _kept_state)
            old_column[first:after] = new_column
    if moved:
        lines[after:] = map(moved.__add__, lines[after:])
    lines[first:after] = region[8]
    count = len(region[8])
    other = {i: r for i, r in packed[9].items() if i < first}
    other.update((first + i, r) for i, r in region[9].items())
    other.update((i - after + first + count, r[:LINENUM] + (r[LINENUM] + moved,)) for i, r in packed[9].items() if i >= after)
    columns.append(other)
    if shift:
        starts[after:] = map(shift.__add__, starts[after:])
    starts[first:after] = inner
    return tuple(columns), starts


def _token(raw: bytes, bom: bool, added: bool) -> str:
    """The token of a read: the content digest of the file's bytes (as
    :func:`aistack_bank.cache.store.file_digest` gives it), from ``raw`` read without its
    byte-order mark (``bom``) and with a final newline ``added``."""
    from ..cache.store import content_hasher

    digest = content_hasher()
    if bom:
        digest.update(_BOM)
    digest.update(memoryview(raw)[:len(raw) - 1] if added else raw)
    return digest.hexdigest()


def _kept_bytes(store, token: str) -> _Pieces | None:
    """The bytes of the latest read kept beside ``store``, if they are those of ``token`` (their
    digest, which the file starts with: it is written whole, atomically, so the two agree):
    the file mapped, not read (see :class:`_Pieces`)."""
    from ..cache.store import map_private

    head = token.encode("ascii") + b"\n"
    found = map_private(store.path.with_suffix(".bytes"), MAX_CATALOG_BYTES + len(head))
    if found is None or found[:len(head)] != head:
        return None
    return _Pieces(found, len(head))


class _Pieces:
    """Bytes made of pieces of other buffers (a mapped file, the bytes of patches), which are
    compared a slice at a time (:func:`_common_prefix`) and never joined whole: slicing gives
    the bytes of that slice alone, and :meth:`replace` puts new bytes in place of a range
    without moving the others."""

    def __init__(self, buffer, start: int = 0) -> None:
        self.pieces: list[tuple[object, int, int]] = [(buffer, start, len(buffer))]  # (buffer, from, to)
        self.size = len(buffer) - start

    def __len__(self) -> int:
        return self.size

    def _cut(self, at: int) -> int:
        """The index of the piece that starts at ``at`` (a piece split there if needed)."""
        offset = 0
        for i, (buffer, begin, end) in enumerate(self.pieces):
            if offset == at:
                return i
            if at < offset + end - begin:
                middle = begin + at - offset
                self.pieces[i:i + 1] = [(buffer, begin, middle), (buffer, middle, end)]
                return i + 1
            offset += end - begin
        return len(self.pieces)

    def replace(self, p: int, q: int, inserted: bytes) -> None:
        """``self[p:q] = inserted`` (0 <= p <= q <= len(self))."""
        first = self._cut(p)
        last = self._cut(q)
        self.pieces[first:last] = [(inserted, 0, len(inserted))] if inserted else []
        self.size += len(inserted) - (q - p)

    def __getitem__(self, span: slice) -> bytes:
        start, stop, _ = span.indices(self.size)
        found, offset = [], 0
        for buffer, begin, end in self.pieces:
            length = end - begin
            if offset + length > start and offset < stop:
                found.append(buffer[begin + max(start - offset, 0):begin + min(stop - offset, length)])
            offset += length
            if offset >= stop:
                break
        return found[0] if len(found) == 1 else b"".join(found)


def _keep_bytes(store, raw: bytes, token: str) -> str:
    """Keep ``raw`` beside ``store`` as the latest read, after its ``token`` (:func:`_token`); the token.

    The token's line and the bytes are written one after the other through the file's
    descriptor: they are not joined into a copy of the catalog's bytes first (44 MB, and as
    many pages touched, for a catalog of the 10 000-question bank)."""
    from ..cache.store import write_private

    head = token.encode("ascii") + b"\n"

    def write(fd: int) -> None:
        for part in (head, raw):
            view = memoryview(part)
            while view:
                view = view[os.write(fd, view):]

    def unchanged(path: Path) -> bool:
        """Whether ``path`` already holds these bytes: its token (their digest) and its size."""
        try:
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        except OSError:
            return False
        try:
            return os.fstat(fd).st_size == len(head) + len(raw) and os.read(fd, len(head)) == head
        except OSError:
            return False
        finally:
            os.close(fd)

    try:
        write_private(store.path.with_suffix(".bytes"), write, unchanged)
    except OSError:
        pass
    return token


def _read_again(kept: tuple[bytes, tuple, list[int]], raw: bytes, path: Path) -> tuple[tuple, list[int], tuple, tuple] | None:
    """(entries, starts, what changed, patch) of ``raw`` from the latest read ``kept`` of the
    same file (its bytes, entries as :func:`.pofile.pack_rows` columns and block starts): only
    the blocks the difference touches read again; None when they are not all blocks of the
    common shape. What changed is (the first line read again, the first line of the latest
    read after those read again, how many lines that one moved, the contexts of the entries
    read again and of those they replace); the patch is what makes ``raw`` and its entries of
    the latest read's (the changed bytes, and the arguments of :func:`_splice`)."""
    old, packed, starts = kept
    lines = packed[8]
    if not starts:
        return None
    p = _common_prefix(old, raw)
    q = len(old) - _common_suffix(old, raw, min(len(old), len(raw)) - p)  # old[p:q] became raw[p:q + shift]
    shift = len(raw) - len(old)
    # From the block before the one holding the first changed byte (the match of a block reads
    # the first character of the next one) to the first block that starts after the last
    # changed byte, which is read again too.
    first = bisect_right(starts, p) - 2
    after = min(bisect_right(starts, q) + 1, len(starts))
    start, line = (starts[first], lines[first]) if first > 0 else (0, 1)
    end = (starts[after] if after < len(starts) else len(old)) + shift
    if end < start:
        return None
    try:
        text = raw[start:end].decode("utf-8")
    except UnicodeDecodeError:
        return None
    pos = 0
    if first <= 0:
        pos = len(text) - len(text.lstrip("\n"))
        line += pos
    blocks = read_rows(text, pos, line, path)
    if blocks is None:
        return None
    rows, inner, next_line = blocks
    first = max(first, 0)
    moved = next_line - lines[after] if after < len(starts) else 0
    region = pack_rows(rows)
    keys = set(region[0]) | set(packed[0][first:after])
    after_line = lines[after] if after < len(starts) else 1 << 62
    splice = (first, after, region, moved, [start + s for s in _byte_offsets(text, inner)], shift)
    columns, new_starts = _splice(packed, starts, *splice)
    patch = ((p, q, raw[p:q + shift]), splice)
    return columns, new_starts, (line if first > 0 else 0, after_line, moved, keys), patch


def _read_and_check(path: Path, language: str, light: bool = False) -> Catalog:
    po, diagnostics = _read_po_file(path, light)
    catalog = Catalog(path=path, language=language, po=po, diagnostics=diagnostics)
    return catalog if po is None else _checked(catalog)


def _checked(catalog: Catalog) -> Catalog:
    """``catalog`` with the findings of the catalog checks (header, duplicates, contexts, plurals).

    Of a :class:`~.pofile.ColumnCatalog` or :class:`~.pofile.LightCatalog` whose contexts are
    distinct (and without plural forms), the header's alone: the other three find nothing there
    (without making a column catalog's entries, or reading each light entry in Python)."""
    if isinstance(catalog.po, (ColumnCatalog, LightCatalog)) and catalog.po.distinct():
        catalog.diagnostics.extend(check_header(catalog))
        return catalog
    for check in (check_header, check_duplicates, check_one_context_per_field, check_plural_counts):
        catalog.diagnostics.extend(check(catalog))
    return catalog


def _read_raw(path: Path, kept: bool = False) -> tuple[bytes | None, list[Diagnostic], bool, str | None]:
    """The bytes of the catalog at ``path`` without a byte-order mark, or (None, why not); and
    whether it had one. With ``kept``, the bytes this command's input digest read of it, if it
    kept them and the file has the identity it had then (:func:`aistack_bank.cache.store.take_bytes`),
    and their content digest (else None)."""
    from ..safety import UnsafeFile, read_regular

    taken: list[str] = []

    def kept_bytes(st) -> bytes | None:
        from ..cache.store import take_bytes

        found = take_bytes(path, st)
        if found is None:
            return None
        taken.append(found[1])
        return found[0]

    try:
        # A catalog may be a symbolic link only within the folder above its own.
        raw = read_regular(path, MAX_CATALOG_BYTES, root=path.absolute().parent.parent, what="catalog", kept=kept_bytes if kept else None)
    except UnsafeFile as exc:
        return None, [error("E115" if exc.code == "E115" else "E501", exc.message, Location.of(path))], False, None
    bom = raw.startswith(_BOM)
    return (raw[3:] if bom else raw), [], bom, (taken[0] if taken else None)


def _blocks_of_bytes(raw: bytes, path: Path) -> tuple[tuple | None, object]:
    """(:func:`.pofile.read_rows_bytes` of a whole file's bytes ``raw``, ending with a newline,
    from its first block: its entries' blocks, or None when they are not all of the common
    shape; the rows' columns made as they were read, or None)."""
    pos = len(raw) - len(raw.lstrip(b"\n"))
    packed: list = []
    blocks = read_rows_bytes(raw, pos, pos + 1, path, packed)
    return blocks, (packed.pop() if packed else None)


_BOM = b"\xef\xbb\xbf"


def _not_utf8(raw: bytes, exc: UnicodeDecodeError, path: Path) -> Diagnostic:
    line = raw.count(b"\n", 0, exc.start) + 1
    return error("E501", "catalog is not valid UTF-8; save it as UTF-8", Location.of(path, line, exc.start - raw.rfind(b"\n", 0, exc.start)))


def _read_po_file(path: Path, light: bool = False) -> tuple[polib.POFile | LightCatalog | None, list[Diagnostic]]:
    """The entries of the file at ``path`` and its read errors (safety, encoding, grammar)."""
    raw, failed, _, _ = _read_raw(path)
    if raw is None:
        return None, failed
    if light:
        # (as the cached read reads it, _read_light: the blocks of the common shape from the
        # bytes, with the rows' columns for LightCatalog.distinct, the text never made; any
        # other file, and bytes that are not UTF-8, from the text as before)
        blocks, packed = _blocks_of_bytes(raw if raw.endswith(b"\n") else raw + b"\n", path)
        if blocks is not None:
            del raw
            return light_catalog(blocks[0], entries=True, packed=packed), []
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return None, [_not_utf8(raw, exc, path)]
    del raw  # neither the bytes nor the text are held longer than needed
    if light:
        rows, diags = read_light_rows(text, path)
        del text
        return (None, diags) if rows is None else (light_catalog(rows), [])
    entries, diags = read_entries(text, path)
    del text
    return (None, diags) if entries is None else (catalog_of(entries), [])


def _byte_offsets(text: str, starts: list[int]) -> list[int]:
    """The UTF-8 byte offsets of the character offsets ``starts`` (ascending) of ``text``."""
    if text.isascii():
        return starts
    found, at, before = [], 0, 0
    for start in starts:
        at += len(text[before:start].encode("utf-8"))
        found.append(at)
        before = start
    return found


def _common_prefix(a: bytes, b: bytes) -> int:
    """How many first bytes ``a`` and ``b`` share (compared a chunk at a time, in C)."""
    n = min(len(a), len(b))
    lo, step = 0, 1 << 16
    while lo < n and a[lo:lo + step] == b[lo:lo + step]:
        lo += step
    hi = min(lo + step, n)
    if lo >= n:
        return n
    while lo < hi:  # a[:lo] == b[:lo] and a[:hi] != b[:hi]
        mid = (lo + hi + 1) // 2
        if a[lo:mid] == b[lo:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _common_suffix(a: bytes, b: bytes, limit: int) -> int:
    """How many last bytes ``a`` and ``b`` share, up to ``limit``."""
    la, lb = len(a), len(b)
    lo, step = 0, 1 << 16
    while lo < limit and a[max(la - lo - step, la - limit):la - lo] == b[max(lb - lo - step, lb - limit):lb - lo]:
        lo = min(lo + step, limit)
    if lo >= limit:
        return limit
    hi = min(lo + step, limit)
    while lo < hi:  # the last lo bytes agree, the last hi do not
        mid = (lo + hi + 1) // 2
        if a[la - mid:la - lo] == b[lb - mid:lb - lo]:
            lo = mid
        else:
            hi = mid - 1
    return lo


class Catalogs:
    """The catalogs of one command, each file read once, on first use.

    A command makes one and passes it to each step that reads catalogs (validation, then
    localization and the practice site's interface texts of a build), so that they share one
    read of each file. Nothing is kept from one command to the next, and no step may change
    what it is given.
    """

    def __init__(self, *, use_cache: bool = True, light: bool = False, columns: bool = False) -> None:
        self._read: dict[str, Catalog] = {}
        self.use_cache = use_cache
        self.columns = columns
        """With ``light`` (and ``use_cache``), each language catalog's ``po`` a
        :class:`~.pofile.ColumnCatalog` of every column where the file is of the common shape
        (``read_catalog(..., columns=True, texts=True)``): a localizing worker reads the
        states and the translations from its columns, without making its entries."""
        # Each language catalog's ``po`` a LightCatalog (for validation and localization, which
        # only read them); the practice site's interface catalogs (``site/``) are small and a
        # build lists their translated entries with polib, so they are read whole either way.
        self.light = light

    def read(self, path: Path) -> Catalog:
        """The catalog at ``path`` (a target-language catalog), read on the first call (from
        the per-file store of parsed catalogs when its bytes are those of a stored read)."""
        key = os.path.abspath(path)
        if key not in self._read:
            light = self.light and Path(key).parent.name != SITE_DIR
            self._read[key] = read_catalog(path, use_cache=self.use_cache, light=light, columns=light and self.columns, texts=light and self.columns)
        return self._read[key]

    def forget(self, path: Path) -> None:
        """Drop the read of ``path``: the step that used it last frees it (a later
        :meth:`read` reads it again)."""
        self._read.pop(os.path.abspath(path), None)


def check_header(catalog: Catalog) -> list[Diagnostic]:
    """Content-Type, Language and Plural-Forms of a target-language catalog."""
    meta = catalog.po.metadata
    where = Location.of(catalog.path, 1, 1)
    diags = []
    content_type = meta.get("Content-Type", "")
    if "charset=utf-8" not in content_type.replace(" ", "").lower():
        diags.append(error("E505", f"header Content-Type must declare charset=UTF-8 (found {content_type!r})", where))
    if not catalog.language:
        return diags
    lang = meta.get("Language", "")
    if lang.replace("-", "_").split("_")[0].lower() != catalog.language.replace("-", "_").split("_")[0].lower():
        diags.append(error("E505", f"header Language is {lang!r} but the file is {catalog.path.name}; set Language: {catalog.language}", where))
    plural = meta.get("Plural-Forms", "")
    expected = plural_forms(catalog.language)
    if not plural:
        diags.append(error("E505", f"header Plural-Forms is missing; for {catalog.language} use: {expected or TWO_FORMS}", where))
    elif not _PLURAL_SYNTAX.match(plural):
        diags.append(error("E505", f"header Plural-Forms {plural!r} is not valid; expected e.g. {expected or TWO_FORMS}", where))
    elif expected and plural.replace(" ", "") != expected.replace(" ", "") and not same_plural_rule(plural, expected):
        diags.append(error("E505", f"header Plural-Forms {plural!r} is wrong for {catalog.language}; use {expected!r}", where))
    return diags


def check_duplicates(catalog: Catalog) -> list[Diagnostic]:
    """E506: two entries with the same (msgctxt, msgid), obsolete or not, which GNU refuses too."""
    diags = []
    seen: dict[tuple, int] = {}
    for entry in catalog.po:
        key = (entry.msgctxt, entry.msgid)
        if key in seen:
            name = entry.msgctxt if entry.msgctxt is not None else f"(no context) {entry.msgid}"
            diags.append(error("E506", f"entry {name!r} appears twice (first at line {seen[key]}); keep one", Location.of(catalog.path, entry.linenum or 0, 1 if entry.linenum else 0)))
        else:
            seen[key] = entry.linenum or 0
    return diags


def check_one_context_per_field(catalog: Catalog) -> list[Diagnostic]:
    """E530: the project names each translatable field by one msgctxt, so a msgctxt shared by
    entries with different msgids (valid for gettext) is ambiguous here."""
    diags = []
    seen: dict[tuple, tuple[int, str]] = {}
    for entry in catalog.po:
        if entry.msgctxt is None:
            continue
        key = (bool(entry.obsolete), entry.msgctxt)
        if key in seen and seen[key][1] != entry.msgid:
            diags.append(error("E530", f"msgctxt {entry.msgctxt!r} is used by two different msgids (first at line {seen[key][0]}); each field has one entry", Location.of(catalog.path, entry.linenum or 0, 1 if entry.linenum else 0)))
        else:
            seen.setdefault(key, (entry.linenum or 0, entry.msgid))
    return diags


_NPLURALS = re.compile(r"(?:^|;)\s*nplurals\s*=\s*([0-9]+)")


def check_plural_counts(catalog: Catalog) -> list[Diagnostic]:
    """E531: as msgfmt, every plural entry has exactly ``nplurals`` forms, msgstr[0] to msgstr[n-1]."""
    plural_forms = catalog.po.metadata.get("Plural-Forms", "")
    m = _NPLURALS.search(plural_forms)
    nplurals = int(m.group(1)) if m else 2
    header_line = getattr(catalog.po, "header_line", 1)
    diags = []
    for entry in catalog.po:
        # msgfmt compiles neither fuzzy nor untranslated entries (empty msgstr[0]) and checks only
        # what it compiles
        if entry.obsolete or not entry.msgid_plural or "fuzzy" in entry.flags or not first_msgstr(entry):
            continue
        lines = getattr(entry, "plural_lines", None) or [(int(i), entry.linenum or 0) for i in sorted(entry.msgstr_plural, key=int)]
        indices = [i for i, _ in lines]
        line = lines[0][1] if lines else entry.linenum or 0
        if indices != list(range(len(indices))):
            bad = next(n for k, (i, n) in enumerate(lines) if i != k)
            diags.append(error("E531", f"plural forms must be numbered msgstr[0] to msgstr[{len(indices) - 1}] in order", Location.of(catalog.path, bad, 1)))
        elif len(indices) != nplurals:
            source = f"Plural-Forms at line {header_line} says nplurals={nplurals}" if m else "there is no Plural-Forms header, so nplurals=2"
            diags.append(error("E531", f"entry has {len(indices)} plural form{'s' if len(indices) != 1 else ''} but {source}", Location.of(catalog.path, line, 1)))
    return diags


def new_catalog(language: str, header_comment: str):
    import polib

    po = polib.POFile(wrapwidth=WRAP_WIDTH)
    po.header = header_comment
    po.metadata = {
        "Project-Id-Version": "aistack-bank",
        "Report-Msgid-Bugs-To": "",
        "Language-Team": f"{LANGUAGE_NAMES.get(language, language)}" if language else "",
        "Language": language,
        "MIME-Version": "1.0",
        "Content-Type": "text/plain; charset=UTF-8",
        "Content-Transfer-Encoding": "8bit",
    }
    if language:
        po.metadata["Plural-Forms"] = plural_forms(language) or TWO_FORMS
    else:
        del po.metadata["Language"]
        del po.metadata["Language-Team"]
    return po


def compile_catalog(po) -> bytes:
    """The .mo bytes of a catalog: its entries GNU msgfmt compiles, the same way: not fuzzy, not
    obsolete, translated (a plural entry: its msgstr[0]), a plural entry with its plural msgid
    and every form. (The bank's texts have no plural forms, and `bank validate` warns of such an
    entry, W505; compiled as msgfmt would rather than left out without a word.)"""
    import polib

    from .pofile import first_msgstr

    mo = polib.POFile(wrapwidth=WRAP_WIDTH)
    mo.metadata = dict(po.metadata)
    for entry in po:
        if entry.obsolete or "fuzzy" in entry.flags or not first_msgstr(entry):
            continue
        if entry.msgid_plural:
            mo.append(polib.POEntry(msgctxt=entry.msgctxt, msgid=entry.msgid, msgid_plural=entry.msgid_plural,
                                    msgstr_plural={int(index): text for index, text in entry.msgstr_plural.items()}))
        else:
            mo.append(polib.POEntry(msgctxt=entry.msgctxt, msgid=entry.msgid, msgstr=entry.msgstr))
    return mo_binary(mo, list(mo), empty_contexts=True)


def mo_binary(po, entries: list | None = None, *, empty_contexts: bool = False) -> bytes:
    """The bytes of ``po.to_binary()`` (polib's .mo writer), written in time linear in the catalog.

    polib appends each string to the growing key and value tables (``ids += msgid + b'\\0'``),
    which copies the tables once per entry: a 200 000-entry catalog took more than 25 minutes.
    Here the strings are joined once and the offsets packed from an array. The layout is
    polib's: the translated, non-fuzzy, non-obsolete entries sorted by their encoded
    ``msgctxt\\x04msgid``, after the header entry; no hash table; native byte order. With
    ``entries``, those entries instead of ``po``'s translated ones (polib's test of a plural
    entry wants every form, msgfmt's only the first: see :func:`compile_catalog`). With
    ``empty_contexts``, an entry whose ``msgctxt`` is ``""`` is keyed ``"\\x04" + msgid`` as GNU
    msgfmt keys it (``pgettext("", msgid)`` finds it), where polib drops the empty context and
    keys it as the entry without one."""
    import struct
    from array import array

    import polib

    # a list of our own: an MOFile's translated_entries() is the file itself, which is not ours to reorder
    if empty_contexts:
        def has_context(e) -> bool:
            return e.msgctxt is not None
    else:
        def has_context(e) -> bool:
            return bool(e.msgctxt)

    def key(e) -> bytes:
        return (e.msgctxt + "\4" + e.msgid if has_context(e) else e.msgid).encode("utf-8")

    entries = [po.metadata_as_entry(), *sorted(po.translated_entries() if entries is None else entries, key=key)]
    encoding = po.encoding
    ids: list[bytes] = []
    strs: list[bytes] = []
    for e in entries:
        msgid = (e.msgctxt + "\4").encode(encoding) if has_context(e) else b""
        if e.msgid_plural:
            msgid += (e.msgid + "\0" + e.msgid_plural).encode(encoding)
            msgstr = "\0".join(e.msgstr_plural[index] for index in sorted(e.msgstr_plural)).encode(encoding)
        else:
            msgid += e.msgid.encode(encoding)
            msgstr = e.msgstr.encode(encoding)
        ids.append(msgid)
        strs.append(msgstr)
    count = len(entries)
    keystart = 7 * 4 + 16 * count  # the header's seven integers, then two (length, offset) tables
    table = array("i", bytes(16 * count))
    offset = keystart
    for i, msgid in enumerate(ids):
        table[2 * i] = len(msgid)
        table[2 * i + 1] = offset
        offset += len(msgid) + 1  # each string is followed by a NUL the length leaves out
    for i, msgstr in enumerate(strs, count):
        table[2 * i] = len(msgstr)
        table[2 * i + 1] = offset
        offset += len(msgstr) + 1
    header = struct.pack("Iiiiiii", polib.MOFile.MAGIC, 0, count, 7 * 4, 7 * 4 + count * 8, 0, keystart)
    return b"".join((header, table.tobytes(), b"\0".join(ids), b"\0", b"\0".join(strs), b"\0"))
