"""A large catalog read a piece at a time: its entries, its checks and the positions in it, in bounded memory.

:class:`BlockStream` reads a catalog file in pieces of about :data:`PIECE_BYTES`, each cut where
an entry block starts, and gives each piece's entries as :class:`~.pofile.LightEntry` items (the
row reader of :func:`~.pofile.read_rows_bytes`, which gives the rows :func:`~.pofile.read_rows`
gives of a whole text when every block has the common shape of :func:`~.pofile.read_blocks`). It stops (:class:`NotStreamable`) at anything else: a block of
another shape, bytes that do not decode, a file that is not a plain regular file within the
limits; the caller then reads the catalog whole, as :func:`~.catalog.read_catalog` does, and so
reports exactly what that reader reports.

:class:`StreamChecks` runs the catalog checks of :func:`~.catalog.read_catalog` (header,
duplicates, one msgid per context, plural counts) on the pieces as they go by, keeping a
64-bit digest per entry (the duplicates are then looked for among the few entries that share
one, in a second pass). :class:`FileLines` gives the lines of the file by number from a few
positions kept on the way, for the diagnostics that point into a msgstr
(:mod:`.locations`). :class:`StreamedCatalog` is what the checks of :mod:`.verify` read of a
catalog (path, language, lines) when it is verified a part at a time.
"""

from __future__ import annotations

import os
from array import array
from bisect import bisect_right
from pathlib import Path

from ..errors import Diagnostic
from .pofile import LightCatalog, light_catalog, read_rows_bytes

PIECE_BYTES = 4 << 20
"""Bytes read at a time (a piece ends where an entry block starts, so it may be longer)."""

MAX_PIECE_BYTES = 64 << 20
"""A piece without an entry boundary this long ends the stream (the catalog is read whole)."""


class NotStreamable(Exception):
    """The catalog is not of the common shape, or not a plain file: read it whole."""


def _is_header(row: tuple) -> bool:
    return row[1] == "" and row[0] is None and not row[12]


class BlockStream:
    """The entries of a catalog file, a piece at a time (see the module's text).

    ``path`` is opened as :func:`~.catalog.read_catalog` opens it (a link only within the
    folder above the catalog's, a regular file of at most ``max_bytes``); what it refuses, this
    refuses with :class:`NotStreamable`."""

    def __init__(self, path: Path, max_bytes: int) -> None:
        import stat

        from ..safety import UnsafeFile, check_link

        self.path = path
        self.max_bytes = max_bytes
        try:
            check_link(path, path.absolute().parent.parent)
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
        except (UnsafeFile, OSError):
            raise NotStreamable from None
        try:
            st = os.fstat(fd)
        except OSError:
            os.close(fd)
            raise NotStreamable from None
        if not stat.S_ISREG(st.st_mode) or st.st_size > max_bytes:
            os.close(fd)
            raise NotStreamable
        self.fd = fd
        self.size = st.st_size
        self.checkpoints: list[tuple[int, int, int, bool]] = []
        """Of each piece read: (its first line, its first and end byte offsets in the file, whether it is the last)."""
        self.header: tuple | None = None
        """The header's row (the first active entry with an empty msgid and no context)."""
        self.entries = 0

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None

    def __enter__(self) -> "BlockStream":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def pieces(self, reader=None):
        """Each piece's entries (a list of :class:`~.pofile.LightEntry`, the header left out),
        in file order. Raises :class:`NotStreamable` where the whole read would not use the
        block reader. With ``reader`` (``reader(text, line, path)``, which gives what it reads
        of a piece and the line after it, or None: :func:`~.pofile.read_template_rows`), what
        it gives of each piece instead, the header not looked for."""
        offset = 0  # of the next byte to read, in the file
        held = b""  # bytes read, not yet parsed
        held_at = 0  # their offset in the file
        lineno = 1
        started = False
        total = 0
        while True:
            chunk = os.read(self.fd, PIECE_BYTES)
            total += len(chunk)
            if total > self.max_bytes:
                raise NotStreamable
            offset += len(chunk)
            data = held + chunk if held else chunk
            at = held_at
            if not started:
                if data.startswith(b"\xef\xbb\xbf"):
                    data, at = data[3:], at + 3
                stripped = data.lstrip(b"\n")
                if not stripped and chunk:
                    held, held_at = data, at
                    continue
                lineno += len(data) - len(stripped)
                at += len(data) - len(stripped)
                data = stripped
                started = True
            if chunk:
                cut = _block_start(data)
                if cut is None:
                    if len(data) > MAX_PIECE_BYTES:
                        raise NotStreamable
                    held, held_at = data, at
                    continue
                piece, held, held_at = data[:cut], data[cut:], at + cut
                end = at + cut
            else:
                piece, held = data, b""
                end = at + len(piece)
                if piece and not piece.endswith(b"\n"):
                    piece += b"\n"  # as the whole read reads a text without a final newline
            if piece:
                # where the piece's first line starts (line 1 with its byte-order mark, as the whole text reads it)
                self.checkpoints.append((lineno, at if lineno > 1 else 0, end, not chunk))
                if reader is not None:
                    try:
                        text = piece.decode("utf-8")
                    except UnicodeDecodeError:
                        raise NotStreamable from None
                    del piece
                    read = reader(text, lineno, self.path)
                    del text
                    if read is None:
                        raise NotStreamable
                    items, lineno = read
                    yield items
                    if not chunk:
                        return
                    continue
                # the rows read_rows gives of the piece's text, as LightEntry items, read from
                # its bytes (None too where they are not UTF-8)
                found = read_rows_bytes(piece, 0, lineno, self.path)
                del piece
                if found is None:
                    raise NotStreamable
                rows, _, lineno = found
                if self.header is None:
                    index = next((i for i, r in enumerate(rows) if _is_header(r)), None)
                    if index is not None:
                        self.header = rows.pop(index)
                self.entries += len(rows)
                yield rows
            if not chunk:
                return

    def header_catalog(self) -> LightCatalog:
        """A catalog holding only the header's values (metadata, header line): what the header checks read."""
        return light_catalog([self.header]) if self.header is not None else LightCatalog()


def _block_start(data: bytes) -> int | None:
    """The offset of the last place in ``data`` where an entry block starts after a blank line
    (past the blank lines; None when there is none before the end)."""
    end = len(data)
    while True:
        found = data.rfind(b"\n\n", 0, end)
        if found < 0:
            return None
        cut = found + 2
        while cut < len(data) and data[cut] == 10:
            cut += 1
        if cut < len(data):
            return cut
        end = found + 1
        if end <= 1:
            return None


class StreamChecks:
    """The catalog checks of :func:`~.catalog.read_catalog`, over the pieces as they go by.

    Two entries can be reported by the duplicate checks (E506, E530) only if they share a
    context, or have none and share a msgid: each entry's (context or msgid) is kept as a
    64-bit digest, and the entries whose digest is shared are read again (:meth:`diagnostics`)
    and given to the same checks, which so report what they report on the whole catalog."""

    def __init__(self) -> None:
        self.digests = array("q")

    def add(self, entries: list) -> None:
        digests = self.digests
        for e in entries:
            digests.append(hash(("c", e.msgctxt)) if e.msgctxt is not None else hash(("i", e.msgid)))

    def diagnostics(self, path: Path, language: str, stream: BlockStream, again) -> list[Diagnostic]:
        """The checks' findings for the catalog at ``path`` in ``language``, streamed by
        ``stream``; ``again()`` streams the file once more when some digest is shared."""
        from .catalog import Catalog, check_duplicates, check_header, check_one_context_per_field, check_plural_counts

        po = stream.header_catalog()
        checked = Catalog(path=path, language=language, po=po, diagnostics=[])
        diags = check_header(checked)
        ordered = sorted(self.digests)
        shared = {a for a, b in zip(ordered, ordered[1:]) if a == b}
        del ordered
        if shared:
            for piece in again():
                po.extend(e for e in piece if (hash(("c", e.msgctxt)) if e.msgctxt is not None else hash(("i", e.msgid))) in shared)
        diags += check_duplicates(checked)
        diags += check_one_context_per_field(checked)
        diags += check_plural_counts(checked)
        return diags


class FileLines:
    """The lines of a streamed file (``text.split("\\n")`` of its whole text, decoded with
    replacement as :meth:`~.catalog.Catalog.file_lines` does), read by number from the
    pieces :class:`BlockStream` has read so far: a piece of the file at a time, the latest two
    kept. Their count is taken (one pass over the bytes) when first asked."""

    def __init__(self, path: Path, stream: BlockStream) -> None:
        self.path = path
        self.stream = stream
        self.count: int | None = None
        self._windows: dict[int, tuple[int, list[str]]] = {}

    def __len__(self) -> int:
        if self.count is None:
            newlines = 0
            with open(self.path, "rb") as f:
                for block in iter(lambda: f.read(1 << 22), b""):
                    newlines += block.count(b"\n")
            self.count = newlines + 1
        return self.count

    def __getitem__(self, index: int) -> str:
        if index < 0:
            index += len(self)
        number = index + 1
        starts = self.stream.checkpoints
        k = bisect_right(starts, (number, 1 << 62)) - 1
        first, lines = self._window(k)
        if not 0 <= number - first < len(lines):
            raise IndexError(index)
        return lines[number - first]

    def _window(self, k: int) -> tuple[int, list[str]]:
        found = self._windows.get(k)
        if found is not None:
            return found
        points = self.stream.checkpoints
        if k < 0:  # the lines before the first piece: blank lines (and a byte-order mark)
            first, start, end, last = 1, 0, points[0][1] if points else 0, not points
        else:
            first, start, end, last = points[k]
        with open(self.path, "rb") as f:
            f.seek(start)
            raw = f.read(end - start)
        lines = raw.decode("utf-8", errors="replace").split("\n")
        if not last:
            lines.pop()  # the next piece's first line starts there
        if len(self._windows) >= 2:
            del self._windows[next(iter(self._windows))]
        self._windows[k] = (first, lines)
        return first, lines


class StreamedCatalog:
    """What the checks of one part of a catalog read of it: its path, language and lines."""

    def __init__(self, path: Path, language: str, lines: FileLines | None = None) -> None:
        self.path = path
        self.language = language
        self.lines = lines

    def file_lines(self):
        return self.lines
