"""Helpers shared by exporters: escaping, multilingual markup, deterministic zips."""

from __future__ import annotations

import re
import zipfile
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import PurePosixPath
from typing import Callable, Iterable, Iterator, Mapping, Sequence

from ..i18n.languages import is_rtl, moodle_code

ZIP_DATE = (1980, 1, 1, 0, 0, 0)
"""Timestamp of every zip member: the zip epoch, so packages are byte-identical on rebuild."""

ZIP_LEVEL = 7
"""zlib-ng's level for every zip member (DEFLATE, :mod:`zlib_ng.zlib_ng`, the version pinned in
``pyproject.toml``): on the members of a 10 000-question build's twelve packages it took 22 %
less CPU than the standard library's zlib at its default level 6 (the level :mod:`zipfile`
writes) for 1.1 % fewer bytes (docs/performance.md, "Round 20: the packages' compression").
zlib-ng's levels 7-9 (and 2-4) give a member the same bytes whether it comes whole or in
pieces; its levels 5 and 6 do not."""


_IN_ENGLISH: ContextVar[Mapping[str, frozenset[str]]] = ContextVar("in_english", default={})
"""While a file is rendered: the English texts each of its languages shows for want of a
translation (empty for a bank without fallback, the usual case: nothing is marked)."""


@contextmanager
def english_fallback(english: Mapping[str, "tuple[str, ...] | frozenset[str]"], langs):
    """Render the file of ``langs`` knowing which of their texts are English fallbacks
    (``ExportOptions.english``): :func:`in_english` answers for them meanwhile."""
    token = _IN_ENGLISH.set({lang: frozenset(english[lang]) for lang in langs if lang in english})
    try:
        yield
    finally:
        _IN_ENGLISH.reset(token)


@contextmanager
def placeholders_in_english(fallbacks: frozenset[str]):
    """While an item's template is written: its placeholders ``fallbacks`` answer
    :func:`in_english` as the English fallbacks they stand for (``qti_common`` and
    ``qti12_common`` templates), beside the file's own fallbacks."""
    token = _IN_ENGLISH.set({**_IN_ENGLISH.get(), "\ue000": fallbacks})
    try:
        yield
    finally:
        _IN_ENGLISH.reset(token)


FALLBACK_MARK = "with-en"
"""What the file names of a language add when some of its texts are English fallbacks: its
files are named for what they hold (`aistack-de-with-en.xml`, `site/de-with-en/`)."""


def file_language(lang: str, english: Mapping[str, object]) -> str:
    """``lang`` as export file and folder names write it: ``de``, or ``de-with-en`` when the
    language shows English for want of translations (``english``: ``ExportOptions.english``)."""
    return f"{lang}-{FALLBACK_MARK}" if lang != "en" and english.get(lang) else lang


def in_english(text_raw: str, lang: str | None = None) -> bool:
    """Whether ``text_raw`` is shown in English for want of a translation: in ``lang``, or
    (None) in any language of the file being rendered."""
    sets = _IN_ENGLISH.get()
    if not sets:
        return False
    if lang is not None:
        return text_raw in sets.get(lang, ())
    return any(text_raw in texts for texts in sets.values())


def english_texts(lang: str) -> frozenset[str]:
    """The texts of the file being rendered that ``lang`` shows in English for want of a
    translation (empty for every usual file): :func:`in_english` is True for ``lang`` exactly on these."""
    return _IN_ENGLISH.get().get(lang) or frozenset()


def any_in_english() -> bool:
    """Whether any text of the file being rendered is shown in English for want of a
    translation (when not, :func:`in_english` is False for every text)."""
    return any(_IN_ENGLISH.get().values())


def html_text(text_raw: str) -> str:
    """Plain text as HTML character data (``&``, ``<``, ``>`` and quotes escaped): exactly
    ``html.escape(text_raw, quote=True)``, without its call.

    Each character is replaced only where the text holds it (the escapes here and in
    ``gift.py`` alike): ``str.replace`` of one character by several first counts that
    character over the whole text, one character at a time, even where there is none, while
    ``in`` finds it by ``memchr``; most texts hold none of the characters an escape replaces
    (docs/performance.md, "Round 24: the cold build's rendering workers")."""
    if "&" in text_raw:
        text_raw = text_raw.replace("&", "&amp;")
    if "<" in text_raw:
        text_raw = text_raw.replace("<", "&lt;")
    if ">" in text_raw:
        text_raw = text_raw.replace(">", "&gt;")
    if '"' in text_raw:
        text_raw = text_raw.replace('"', "&quot;")
    if "'" in text_raw:
        text_raw = text_raw.replace("'", "&#x27;")
    return text_raw


def html_paragraph(text_raw: str) -> str:
    """Plain text as one HTML paragraph, lines kept as ``<br/>`` (well-formed in XML and in HTML)."""
    start = '<p lang="en">' if in_english(text_raw) else "<p>"  # an English fallback says so
    escaped = html_text(text_raw)
    return start + (escaped.replace("\n", "<br/>") if "\n" in escaped else escaped) + "</p>"  # (escaping leaves line breaks as they are)


def html_paragraph_escaped(text_raw: str) -> str:
    """``html_text(html_paragraph(text_raw))``: the paragraph as the character data of an XML
    element (QTI 1.2's ``mattext``), its text escaped twice in one pass of replacements."""
    start = "&lt;p lang=&quot;en&quot;&gt;" if in_english(text_raw) else "&lt;p&gt;"
    return start + paragraph_escaped_body(text_raw) + "&lt;/p&gt;"


def paragraph_escaped_body(text_raw: str) -> str:
    """What :func:`html_paragraph_escaped` writes between its paragraph's tags (each character
    replaced only where the text holds it, as :func:`html_text` replaces them)."""
    if "&" in text_raw:
        text_raw = text_raw.replace("&", "&amp;amp;")
    if "<" in text_raw:
        text_raw = text_raw.replace("<", "&amp;lt;")
    if ">" in text_raw:
        text_raw = text_raw.replace(">", "&amp;gt;")
    if '"' in text_raw:
        text_raw = text_raw.replace('"', "&amp;quot;")
    if "'" in text_raw:
        text_raw = text_raw.replace("'", "&amp;#x27;")
    if "\n" in text_raw:
        text_raw = text_raw.replace("\n", "&lt;br/&gt;")
    return text_raw


def cdata(html: str) -> str:
    """``html`` inside CDATA, with any ``]]>`` split so it cannot end the section early."""
    return "<![CDATA[" + html.replace("]]>", "]]]]><![CDATA[>") + "]]>"


RLI, PDI = "\u2067", "\u2069"
"""Unicode's right-to-left isolate and its end: text in them is laid out right to left and
cannot reorder the text around it (Unicode bidi algorithm, UAX #9, since Unicode 6.3)."""


def _isolated(lang: str, text: str) -> str:
    """A right-to-left language's text between RLI and PDI; any other text as it is."""
    return f"{RLI}{text}{PDI}" if is_rtl(lang) else text


def multilang_html(texts_raw: Mapping[str, str], syntax: str = "span") -> str:
    """One paragraph holding every language, English first, for Moodle's multilang filters.

    The core filter needs two or more adjacent ``<span lang class="multilang">`` blocks with
    exactly those two attributes and no ``<span>`` inside them (its pattern is
    ``<span(\\s+lang="…"|\\s+class="multilang"){2}\\s*>``); the text is escaped, so none can
    appear. A right-to-left language's text therefore gets its direction from Unicode isolates
    (RLI … PDI), which survive the filter and Moodle's HTML cleaning; a ``{mlang}`` block can
    hold markup, so there it is a ``<span dir="rtl">``. Codes are Moodle's (``pt_br``). A
    language that shows a text in English for want of a translation gets no block of its own:
    the filter then shows it the first block, the English one.
    """
    texts_raw = _without_fallbacks(texts_raw)
    if syntax == "mlang":
        body = "".join(
            f"{{mlang {moodle_code(lang)}}}"
            + (f'<span dir="rtl">{html_text(text)}</span>' if is_rtl(lang) else html_text(text))
            + "{mlang}"
            for lang, text in texts_raw.items()
        )
    else:
        parts = ["<p>"]
        for lang, text in texts_raw.items():
            start, rtl = _span(lang)
            parts += (start, html_text(f"{RLI}{text}{PDI}" if rtl else text), "</span>")
        parts.append("</p>")
        return "".join(parts)
    return f"<p>{body}</p>"


def span_paragraphs(langs: Sequence[str], escape: Callable[[str], str], start_escape: Callable[[str], str] | None = None) -> Callable[[Sequence[str]], str] | None:
    """For a file of ``langs`` in the ``span`` syntax in which no text is an English fallback
    (else None): a function of each language's text (in the order of ``langs``) giving
    :func:`multilang_html`'s paragraph of them, each text written by ``escape`` (:func:`html_text`
    for :func:`multilang_html`) after its block's start written by ``start_escape`` (as it is
    when None): each block's start and direction taken once per file, not once per text, and
    no map of the texts made per paragraph (GIFT's and Moodle XML's multilingual files)."""
    if any_in_english():
        return None
    heads = [(start if start_escape is None else start_escape(start), rtl) for lang in langs for start, rtl in [_span(lang)]]

    def paragraph(texts: Sequence[str]) -> str:
        parts = ["<p>"]
        for (start, rtl), text in zip(heads, texts):
            parts += (start, escape(f"{RLI}{text}{PDI}" if rtl else text), "</span>")
        parts.append("</p>")
        return "".join(parts)

    return paragraph


def multilang_spans(texts_raw: Mapping[str, str]) -> list[tuple[str, str]]:
    """The blocks :func:`multilang_html` writes in its ``span`` syntax, unescaped: (the block's
    start tag, its text, between isolates in a right-to-left language), English first, the
    languages whose text is an English fallback left out; for a format that escapes them
    itself (GIFT: :func:`~.gift.gift_multilang`)."""
    return [(start, f"{RLI}{text}{PDI}" if rtl else text) for lang, text in _without_fallbacks(texts_raw).items() for start, rtl in [_span(lang)]]


_SPANS: dict[str, tuple[str, bool]] = {}
"""By language: the start of its multilang block (``<span lang="pt_br" class="multilang">``)
and whether it is written right to left (:func:`_isolated`), made once."""


def _span(lang: str) -> tuple[str, bool]:
    found = _SPANS.get(lang)
    if found is None:
        found = _SPANS[lang] = (f'<span lang="{moodle_code(lang)}" class="multilang">', is_rtl(lang))
    return found


def _without_fallbacks(texts_raw: Mapping[str, str]) -> Mapping[str, str]:
    """``texts_raw`` without the languages whose text is an English fallback (English kept)."""
    if not _IN_ENGLISH.get() or "en" not in texts_raw:  # one language's text: it stays
        return texts_raw
    return {lang: text for lang, text in texts_raw.items() if lang == "en" or not in_english(text, lang)}


def plain_field(text_raw: str) -> str:
    """Text for a field Moodle stores as plain text (names, categories): written as it is, but
    with ``<`` and ``>`` as ``‹ ›``, since ``clean_param(PARAM_TEXT)`` deletes anything that looks
    like a tag (and a ``<`` would end a multilang block early)."""
    return text_raw.replace("<", "\u2039").replace(">", "\u203a")  # (``str.translate`` would look each character up)


def multilang_plain(texts_raw: Mapping[str, str], syntax: str = "span") -> str:
    """Every language in one plain-text field (a name or a category), English first.

    Moodle keeps multilang spans in plain-text fields (``clean_param(PARAM_TEXT)``) and stores
    the rest as typed, so the text is written as it is, never as HTML entities. A right-to-left
    language's text is isolated (RLI … PDI): a plain-text field has no ``dir``. A language that
    shows the text in English gets no block (the filter shows it the English one)."""
    texts_raw = _without_fallbacks(texts_raw)
    if syntax == "mlang":
        return "".join(f"{{mlang {moodle_code(lang)}}}{plain_field(_isolated(lang, text))}{{mlang}}" for lang, text in texts_raw.items())
    parts = []
    for lang, text in texts_raw.items():
        start, rtl = _span(lang)
        parts += (start, plain_field(f"{RLI}{text}{PDI}" if rtl else text), "</span>")
    return "".join(parts)


MOODLE_NAME_MAX = 255
"""Moodle cuts question and category names longer than this (characters), without a message."""

NAME_STEM_CHARS = 60
"""How much of the stem a question name shows in a one-language file."""


def multilang_name(prefix: str, texts_raw: Mapping[str, str], syntax: str = "span", limit: int = NAME_STEM_CHARS) -> str:
    """``prefix`` and every language's text in one plain-text name of at most
    :data:`MOODLE_NAME_MAX` characters in all: each language gets an equal share of what the
    prefix and the multilang markup leave (at most ``limit``). With too many languages for a
    readable share (fewer than 8 characters), the first language alone. A language whose text is
    an English fallback gets no share (Moodle shows it the English)."""
    texts_raw = _without_fallbacks(texts_raw)
    first = next(iter(texts_raw.values()))
    if len(texts_raw) == 1:
        return prefix + plain_field(short(first, limit))
    overhead = len(prefix) + _markup_length(tuple(texts_raw), syntax)
    share = min(limit, (MOODLE_NAME_MAX - overhead) // len(texts_raw))
    if share < 8:
        return prefix + plain_field(short(first, min(limit, MOODLE_NAME_MAX - len(prefix))))
    return prefix + multilang_plain({lang: short(text, share) for lang, text in texts_raw.items()}, syntax)


_MARKUP_LENGTHS: dict[tuple, int] = {}
"""By languages and syntax: the length of :func:`multilang_plain`'s markup around empty texts."""


def _markup_length(langs: tuple[str, ...], syntax: str) -> int:
    """``len(multilang_plain({lang: "" for lang in langs}, syntax))``, kept once made while no
    text is an English fallback (an empty text could be one, and lose its block)."""
    if _IN_ENGLISH.get():
        return len(multilang_plain(dict.fromkeys(langs, ""), syntax))
    key = (langs, syntax)
    found = _MARKUP_LENGTHS.get(key)
    if found is None:
        if len(_MARKUP_LENGTHS) >= 1 << 10:
            _MARKUP_LENGTHS.clear()
        found = _MARKUP_LENGTHS[key] = len(multilang_plain(dict.fromkeys(langs, ""), syntax))
    return found


def question_name(question_id: str, stems_raw: Mapping[str, str], syntax: str = "span") -> str:
    """``q001 <short stem>``: plain text, within Moodle's 255 characters in every file.

    With several languages each stem gets an equal share of what the multilang markup leaves."""
    return multilang_name(f"{question_id} ", stems_raw, syntax)


def category_title(titles_raw: Mapping[str, str], syntax: str = "span") -> str:
    """The category's name in every language, within Moodle's 255 characters (a category name
    is a ``varchar(255)`` like a question's): each title whole while they fit, else shortened
    alike."""
    titles_raw = _without_fallbacks(titles_raw)
    if len(titles_raw) == 1:
        return plain_field(next(iter(titles_raw.values())))
    whole = multilang_plain(titles_raw, syntax)
    if len(whole) <= MOODLE_NAME_MAX:
        return whole
    return multilang_name("", titles_raw, syntax, limit=MOODLE_NAME_MAX)


def category_path(*titles_plain: str) -> str:
    """Moodle's category path for nested titles: ``$course$/top/<category>/<topic>``, a literal
    ``/`` in a title written ``//``."""
    return "$course$/top/" + "/".join(title.replace("/", "//") for title in titles_plain)


def category_idnumber(topic_id: str, langs: list[str]) -> str:
    """A question category's idnumber, one per file: ``<topic>-<lang>`` or ``<topic>-multilang``
    (a category of topics passes ``category-<id>``).

    Moodle keeps category idnumbers unique per context: one value for every language would make
    the second language's import fail."""
    return f"{topic_id}-{langs[0] if len(langs) == 1 else 'multilang'}"


def deterministic_zip(files: Mapping[PurePosixPath | str, "bytes | Callable[[], bytes | Iterable[bytes]]"]) -> bytes:
    """A zip of ``files`` with sorted members, fixed timestamps and fixed compression. A member
    given as a function is rendered when its turn comes, and dropped once compressed: a large
    package holds one uncompressed member at a time. A function may give the member as pieces
    of its bytes (an iterable, :func:`utf8_pieces`), each compressed as it comes: then the
    package never holds the member whole (the bytes written are the same).

    The bytes are exactly those :mod:`zipfile` writes for these members with zlib-ng's
    :mod:`zlib_ng.zlib_ng` as its ``zlib`` (``ZipInfo`` with :data:`ZIP_DATE`, deflated at
    :data:`ZIP_LEVEL`, mode 0644 from a Unix system, written to a seekable file; ZIP64 records
    where it writes them), without its work per member in Python: each member's local header is
    made once its size and checksum are known, and the pieces are joined at the end. The same
    members give the same bytes with the same zlib-ng, whatever the system's zlib."""
    import os
    import struct

    from zlib_ng import zlib_ng as zlib

    limit = zipfile.ZIP64_LIMIT  # (read when called, as zipfile reads them)
    dt = ZIP_DATE
    dosdate = (dt[0] - 1980) << 9 | dt[1] << 5 | dt[2]
    dostime = dt[3] << 11 | dt[4] << 5 | (dt[5] // 2)
    pack = struct.pack
    header_format, central_format = zipfile.structFileHeader, zipfile.structCentralDir
    header_sign, central_sign = zipfile.stringFileHeader, zipfile.stringCentralDir
    deflated, zip64_version = zipfile.ZIP_DEFLATED, zipfile.ZIP64_VERSION
    level = ZIP_LEVEL
    compress, compressobj, crc32 = zlib.compress, zlib.compressobj, zlib.crc32
    other_sep = os.sep if os.sep != "/" else None
    external = 0o644 << 16
    chunks: list[bytes] = []
    central: list[bytes] = []
    offset = 0
    for name in sorted(files, key=str):
        arcname = str(name)
        if "\0" in arcname:  # (as ZipInfo cuts a name and turns a separator)
            arcname = arcname[:arcname.find("\0")]
        if other_sep is not None and other_sep in arcname:
            arcname = arcname.replace(other_sep, "/")
        if arcname.isascii():
            encoded, flags = arcname.encode("ascii"), 0
        else:
            encoded, flags = arcname.encode("utf-8"), 0x800
        data = files[name]
        if callable(data):
            data = data()
        if isinstance(data, (bytes, bytearray)):  # (one call: the bytes a compressor gives)
            size = len(data)
            zip64 = size * 1.05 > limit
            crc = crc32(data)
            body = (compress(data, level, -15),)
            compressed = len(body[0])
        else:  # (the pieces compressed as they come; its header is made after them)
            zip64 = False
            size = crc = 0
            compressor = compressobj(level, deflated, -15)
            body = []
            for piece in data:
                size += len(piece)
                crc = crc32(piece, crc)
                body.append(compressor.compress(piece))
            body.append(compressor.flush())
            compressed = sum(map(len, body))
            del compressor
        del data
        if not zip64:
            if size > limit:
                raise RuntimeError("File size too large, try using force_zip64")
            if compressed > limit:
                raise RuntimeError("Compressed size too large, try using force_zip64")
            version, extra = 20, b""
            header = pack(header_format, header_sign, 20, 0, flags, deflated, dostime, dosdate, crc, compressed, size, len(encoded), 0)
        else:
            version, extra = zip64_version, pack("<HHQQ", 1, 16, size, compressed)
            header = pack(header_format, header_sign, version, 0, flags, deflated, dostime, dosdate, crc, 0xFFFFFFFF, 0xFFFFFFFF, len(encoded), len(extra))
        chunks += (header, encoded, extra, *body)
        if size > limit or compressed > limit or offset > limit:  # (ZIP64 in the central directory)
            larger = [size, compressed] if size > limit or compressed > limit else []
            if offset > limit:
                larger.append(offset)
            central_extra = pack("<HH" + "Q" * len(larger), 1, 8 * len(larger), *larger)
            central_version = max(version, zip64_version)
            central.append(pack(central_format, central_sign, central_version, 3, central_version, 0, flags, deflated, dostime, dosdate, crc,
                                0xFFFFFFFF if size > limit or compressed > limit else compressed, 0xFFFFFFFF if size > limit or compressed > limit else size,
                                len(encoded), len(central_extra), 0, 0, 0, external, 0xFFFFFFFF if offset > limit else offset) + encoded + central_extra)
        else:
            central.append(pack(central_format, central_sign, version, 3, version, 0, flags, deflated, dostime, dosdate, crc,
                                compressed, size, len(encoded), 0, 0, 0, 0, external, offset) + encoded)
        offset += len(header) + len(encoded) + len(extra) + compressed
    start = offset
    size = sum(map(len, central))
    count = len(central)
    chunks += central
    if count > zipfile.ZIP_FILECOUNT_LIMIT or start > limit or size > limit:
        chunks.append(pack(zipfile.structEndArchive64, zipfile.stringEndArchive64, 44, 45, 45, 0, 0, count, count, size, start))
        chunks.append(pack(zipfile.structEndArchive64Locator, zipfile.stringEndArchive64Locator, 0, start + size, 1))
        count, size, start = min(count, 0xFFFF), min(size, 0xFFFFFFFF), min(start, 0xFFFFFFFF)
    chunks.append(pack(zipfile.structEndArchive, zipfile.stringEndArchive, 0, 0, count, count, size, start, 0))
    return b"".join(chunks)


def utf8_pieces(lines: Iterable[str | bytes], batch: int = 512) -> Iterator[bytes]:
    """``lines`` (texts, or already in UTF-8: bytes), each followed by a line break, in UTF-8
    ``batch`` lines a piece (a text encoded on its own): ``b"".join(utf8_pieces(lines))`` is
    ``("\\n".join(lines) + "\\n").encode("utf-8")`` for a non-empty list of texts, without the
    whole text ever held at once."""
    pending: list[bytes] = []
    for line in lines:
        pending.append(line if isinstance(line, bytes) else line.encode("utf-8"))
        if len(pending) >= batch:
            pending.append(b"")
            yield b"\n".join(pending)
            pending = []
    if pending:
        pending.append(b"")
        yield b"\n".join(pending)


class EncodedLines:
    """The lines of a text file, encoded in UTF-8 a few hundred at a time as they come
    (``append`` and ``+=`` as on a list): a large file is held as its bytes, never also as a
    list of every line and their join. :meth:`data` is ``("\\n".join(lines) + end).encode("utf-8")``."""

    __slots__ = ("_lines", "_chunks")

    FLUSH = 1024
    """Lines kept as text before they are encoded."""

    def __init__(self, lines: list[str] | None = None) -> None:
        self._lines: list[str] = list(lines or ())
        self._chunks: list[bytes] = []

    def _encode(self) -> None:  # every line but the last, each with its line break
        lines = self._lines
        if len(lines) < 2:
            return
        self._chunks.append(("\n".join(lines[:-1]) + "\n").encode("utf-8"))
        self._lines = lines[-1:]

    def append(self, line: str) -> None:
        self._lines.append(line)
        if len(self._lines) >= self.FLUSH:
            self._encode()

    def __iadd__(self, lines: list[str]) -> EncodedLines:
        self._lines += lines
        if len(self._lines) >= self.FLUSH:
            self._encode()
        return self

    def data(self, end: str = "") -> bytes:
        """The file: the lines joined by line breaks, then ``end``."""
        self._chunks.append(("\n".join(self._lines) + end).encode("utf-8"))
        self._lines = []
        data = b"".join(self._chunks)
        self._chunks = []
        return data


def json_utf8(data: object) -> bytes:
    """``(json.dumps(data, ensure_ascii=False, indent=2) + "\\n").encode("utf-8")`` for ``data``
    made of what ``model_dump(mode="json")`` gives (dicts with string keys, lists, strings,
    numbers, booleans, None).

    Written by ``pydantic_core.to_json`` (the same layout, strings escaped alike, in Rust: about
    a fifth of the standard library's Python encoder's time, which ``json.dumps`` uses with an
    indent), unless its bytes could differ: it writes a float under 1e-4 otherwise
    (``0.00001`` and ``1e-7`` where ``json.dumps`` writes ``1e-05`` and ``1e-07``), and cannot
    write a lone surrogate. A file where such a number may stand (:data:`_OTHER_FLOATS`, also
    found, harmlessly, in a text that merely looks like one), or that it refuses, is written by
    :func:`_json_utf8_stdlib`; so is every file when the installed ``pydantic_core`` fails the
    check made once per process (:func:`_rust_json_agrees`)."""
    if not _rust_json_agrees():
        return _json_utf8_stdlib(data)
    from pydantic_core import to_json

    try:
        text = to_json(data, indent=2)
    except Exception:  # (a lone surrogate, say: the standard library's encoder and UTF-8 decide, as they always did)
        return _json_utf8_stdlib(data)
    if _json_may_differ(text):
        return _json_utf8_stdlib(data)
    return text + b"\n"


def json_compact_utf8(data: object) -> bytes | None:
    """``json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")`` for
    ``data`` as :func:`json_utf8` takes it, written by ``pydantic_core.to_json`` (in Rust, about
    a third of the standard library's C encoder's time on a practice page's records); None
    (the caller writes it with ``json.dumps``) when its bytes could differ (a float it writes
    otherwise, :data:`_OTHER_COMPACT_FLOATS`; a text it refuses) or the installed
    ``pydantic_core`` fails the checks made once per process (:func:`_rust_json_agrees`,
    :func:`_rust_compact_agrees`)."""
    if not (_rust_json_agrees() and _rust_compact_agrees()):
        return None
    from pydantic_core import to_json

    try:
        text = to_json(data)
    except Exception:  # (a lone surrogate, say: the standard library's encoder decides, as it always did)
        return None
    if b"0.0000" in text or _OTHER_COMPACT_FLOATS.search(text) is not None:
        return None
    return text


def _json_compact_stdlib(data: object) -> bytes:
    import json

    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


_OTHER_COMPACT_FLOATS = re.compile(rb"e-[1-9](?:[,\]}]|\Z)")
""":data:`_OTHER_FLOATS` in compact JSON: a number stands before a comma, the end of its list or
object, or at the end of a document that is one number."""

_COMPACT_AGREES: list[bool] = []


def _rust_compact_agrees() -> bool:
    """Whether the installed ``pydantic_core.to_json`` writes without an indent what ``json.dumps``
    writes with the separators ``,`` and ``:`` (every value :func:`_rust_json_agrees` checks with an
    indent, nested, the floats it writes otherwise found by :data:`_OTHER_COMPACT_FLOATS`): once per process."""
    if not _COMPACT_AGREES:
        try:
            from pydantic_core import to_json

            texts = ["".join(map(chr, range(0x80))) + "\x85\xa0\u2028\u2029\ufeff\u2067\U0001F600é<>&", ""]
            floats = [float(f"{mantissa}e{exponent}") for exponent in range(-330, 309) for mantissa in ("1", "-3.7", "9.876543210123")]
            band = [x for x in floats if 1e-10 < abs(x) < 1e-4]
            whole = [*texts, 0, -1, 2**70, -(2**64), True, False, None, {}, [], {"a": [1, {"b": None, "c": [2.5, [], {}]}], "d": "e"},
                     float("inf"), float("-inf"), float("nan"), *[x for x in floats if not 1e-10 < abs(x) < 1e-4]]
            agrees = to_json(whole) == _json_compact_stdlib(whole)
            agrees = agrees and all(to_json(value) == _json_compact_stdlib(value) or _OTHER_COMPACT_FLOATS.search(to_json(value)) is not None
                                    or b"0.0000" in to_json(value) for x in band for value in (x, [x], {"k": x}, [x, 1]))
        except Exception:
            agrees = False
        _COMPACT_AGREES.append(agrees)
    return _COMPACT_AGREES[0]


def _json_may_differ(text: bytes) -> bool:
    """Whether ``pydantic_core.to_json``'s ``text`` may hold a float that ``json.dumps`` writes otherwise."""
    return b"0.0000" in text or _OTHER_FLOATS.search(text) is not None


_OTHER_FLOATS = re.compile(rb"e-[1-9](?:[,\n]|\Z)")
"""A float that ``pydantic_core.to_json`` writes with a one-digit negative exponent, and
``json.dumps`` with two (``1e-7``, ``1e-07``); with ``0.0000`` (the floats from 1e-5 to 1e-4,
which it writes without an exponent), every float on which the two differ: a number stands at
the end of its line, before a comma or a line break (or ends a document that is one number)."""


_AGREES: list[bool] = []
"""Whether the installed ``pydantic_core`` writes as ``json.dumps`` does (:func:`_rust_json_agrees`), once known."""


def _rust_json_agrees() -> bool:
    """Whether the installed ``pydantic_core.to_json`` writes, as ``json.dumps`` does, a float of
    every decimal magnitude (or its output is one :func:`_json_may_differ` sends to
    ``json.dumps``), the infinities, NaN, large integers and a text of every control character,
    the characters JSON escapes and a few beyond: checked once per process (a few
    milliseconds), so that a version that writes them otherwise is never used."""
    if not _AGREES:
        import json

        try:
            from pydantic_core import to_json

            texts = ["".join(map(chr, range(0x80))) + "\x85\xa0\u2028\u2029\ufeff\u2067\U0001F600é", ""]
            floats = [float(f"{mantissa}e{exponent}") for exponent in range(-330, 309) for mantissa in ("1", "-3.7", "9.876543210123")]
            band = [x for x in floats if 1e-10 < abs(x) < 1e-4]  # (the floats written otherwise: each must be one sent to json.dumps)
            whole = [*texts, 0, -1, 2**70, -(2**64), True, False, None, {}, [], {"a": [1, {"b": None}]}, float("inf"), float("-inf"), float("nan"),
                     *[x for x in floats if not 1e-10 < abs(x) < 1e-4]]
            agrees = to_json(whole, indent=2) == json.dumps(whole, ensure_ascii=False, indent=2).encode("utf-8")
            agrees = agrees and all(to_json(x) == json.dumps(x).encode("ascii") or _json_may_differ(to_json(x)) for x in band)
        except Exception:
            agrees = False
        _AGREES.append(agrees)
    return _AGREES[0]


def _json_utf8_stdlib(data: object) -> bytes:
    """:func:`json_utf8` by the standard library's encoder (the one ``json.dumps`` uses with an
    indent), encoded a few thousand pieces at a time as it yields them, so that a large file is
    not also held as a list of every piece and their join."""
    import json

    chunks: list[bytes] = []
    pending: list[str] = []
    for piece in json.JSONEncoder(ensure_ascii=False, indent=2).iterencode(data):
        pending.append(piece)
        if len(pending) >= 4096:
            chunks.append("".join(pending).encode("utf-8"))
            pending = []
    pending.append("\n")
    chunks.append("".join(pending).encode("utf-8"))
    return b"".join(chunks)


def short(text: str, limit: int = 80) -> str:
    """``text`` cut at a word boundary to at most ``limit`` characters, with an ellipsis."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[: limit - 1].rsplit(" ", 1)[0]
    return cut + "…"



MOODLE_FRACTIONS = (1.0, 0.9, 0.8333333, 0.8, 0.75, 0.7, 0.6666667, 0.6, 0.5, 0.4, 0.3333333, 0.3, 0.25, 0.2,
                    0.1666667, 0.1428571, 0.125, 0.1111111, 0.1, 0.05, 0.0)
"""The grades Moodle's importers accept (``question_bank::fraction_options_full()``, Moodle 4.5
``question/engine/bank.php``), as fractions; their negatives and -1 are accepted too. An import
refuses a question with any other value ("Error if grade not listed", ``match_grade_options()``
in ``lib/questionlib.php``, which allows a difference below 1e-5)."""

MOODLE_FRACTION_MATCH = 1e-5
"""How far a grade may be from a listed one for ``match_grade_options()`` to accept it."""


def moodle_fraction(value: float) -> tuple[float, bool]:
    """The listed Moodle grade nearest to ``value`` (a fraction from -1 to 1), and whether
    ``value`` is itself one (within Moodle's 1e-5)."""
    listed = [f for f in MOODLE_FRACTIONS] + [-f for f in MOODLE_FRACTIONS if f]
    nearest = min(listed, key=lambda f: (abs(f - value), -f))
    return nearest, abs(nearest - value) < MOODLE_FRACTION_MATCH


def moodle_percent(fraction: float) -> str:
    """A listed fraction as Moodle writes it in ``fraction="…"``: a percentage with up to five
    decimals (``33.33333``, ``-50``, ``100``). Each value's text made once (a file writes the
    same few grades for every answer: :data:`_PERCENTS`)."""
    text = _PERCENTS.get(fraction)
    if text is None:
        if len(_PERCENTS) >= 1 << 12:
            _PERCENTS.clear()
        text = _PERCENTS[fraction] = _moodle_percent(fraction)
    return text


_PERCENTS: dict[float, str] = {}
""":func:`moodle_percent`'s texts by value (0.0 and -0.0, equal keys, are both written ``0``;
NaN, equal to nothing, is made each time)."""


def _moodle_percent(fraction: float) -> str:
    text = f"{fraction * 100:.5f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def plain_number(value: float) -> str:
    """A number as Moodle's numerical importer and GIFT read it: ``14``, ``3.5``, ``0.0007``, never
    a decimal comma (Moodle's answer processor would read ``1,5`` with the learner's separators)."""
    value = float(f"{value:.12g}")
    if value != value or value in (float("inf"), float("-inf")):
        return repr(value)  # no number for Moodle: its importer refuses the question
    if value == int(value) and abs(value) < 1e15:
        return str(int(value))
    text = repr(value)
    if "e" in text:
        text = f"{value:.15f}".rstrip("0").rstrip(".")
        if float(text) != value:
            text = repr(value)
    return text
