"""Reading YAML files into plain data with the line and column of every key and value.

libyaml (PyYAML's C composer) composes the text into nodes with marks, and one converter turns
them into plain Python data, resolving plain scalars by the YAML 1.2 core schema (see
:func:`resolve_scalar` and "How values are read" in ``bank/README.md``): ``yes``/``no``/
``on``/``off`` are strings, ``0x10`` and ``0o7`` are integers, ``.inf`` and ``.nan`` floats.
ruamel.yaml is used only where files are written back with their comments kept
(:mod:`aistack_bank.project.authoring`); it never reads a file for validation.

Policy for what an editor may leave in a file, applied before parsing:

* a UTF-8 byte-order mark is ignored with warning W101;
* CRLF line endings are read as LF with warning W102; CRLF mixed with LF is error E111;
* bytes that are not UTF-8 (E102), tabs in indentation (E107), control and bidirectional
  override characters (E110), text not in NFC (E109), an empty file (E103) and a file over
  :data:`MAX_FILE_BYTES` (E104) are errors;
* anchors, aliases, merge keys and explicit tags are refused (E108): bank files never need
  them, and refusing them removes alias-expansion bombs.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from .errors import Diagnostic, Location, error, warning
from .safety import FORBIDDEN, UnsafeFile, read_regular

MAX_FILE_BYTES = 1 << 20
"""Largest bank file accepted, in bytes (1 MiB; a question file is about 2 kB)."""

MAX_DEPTH = 32
"""Deepest nesting of mappings and sequences accepted."""

YamlPath = tuple[Any, ...]

_STD_TAGS = {
    "tag:yaml.org,2002:str", "tag:yaml.org,2002:int", "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool", "tag:yaml.org,2002:null", "tag:yaml.org,2002:timestamp",
    "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq",
}
# The YAML 1.2 core schema (https://yaml.org/spec/1.2.2/#1023-core-schema), exactly.
_NULL = frozenset({"~", "null", "Null", "NULL", ""})
_BOOL = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_INT10 = re.compile(r"[-+]?[0-9]+")
_INT8 = re.compile(r"0o[0-7]+")
_INT16 = re.compile(r"0x[0-9a-fA-F]+")
_FLOAT = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?")
_INF = re.compile(r"[-+]?\.(?:inf|Inf|INF)")
_NAN = frozenset({".nan", ".NaN", ".NAN"})
_CAN_START_OTHER = frozenset("0123456789+-.~nNtTfF")
"""The first characters of every plain scalar that is not a string: any other is one at once."""
# C0 and C1 controls other than tab and newline, bidi embeddings/overrides/isolates, and
# stray BOMs / zero-width no-break spaces.
_CONFLICT = re.compile(r"^(?:<{7}|={7}|>{7}|\|{7})(?: |$)")
_CONFLICT_ANY = re.compile(_CONFLICT.pattern, re.MULTILINE)
_FORBIDDEN = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ufeff\ufff9-\ufffb]"
)


_ASCII_ALLOWED = bytes(range(0x20, 0x7F)) + b"\t\n"
"""The ASCII characters :data:`~aistack_bank.safety.FORBIDDEN` does not hold (every other ASCII
character it does)."""
_LATIN1_ALLOWED = _ASCII_ALLOWED + bytes(range(0xA0, 0x100))
"""The Latin-1 characters (U+0000 to U+00FF) :data:`~aistack_bank.safety.FORBIDDEN` does not
hold (every other one it does: the C0 and C1 controls but tab and newline, and DEL)."""


def _latin1(text: str) -> bytes | None:
    """``text`` in Latin-1 when every character of it is one (U+0000 to U+00FF), else None.

    Such a text is in NFC: each of these characters is its own NFC and a starter (combining
    class 0), and no two of them compose (``tests/test_check_source_latin1.py``)."""
    try:
        return text.encode("latin-1")
    except UnicodeEncodeError:
        return None


@dataclass
class YamlDocument:
    """Plain data read from one file, with the position of every key and value."""

    path: Path
    data: Any
    text: str = ""
    values: dict[YamlPath, tuple[int, int]] = field(default_factory=dict)
    keys: dict[YamlPath, tuple[int, int]] = field(default_factory=dict)
    _lines: list[str] | None = field(default=None, repr=False, compare=False)
    _from_text = None
    """(set on the instance) For a document :func:`parse_yaml` read quickly: the data and tables
    it was given, which :func:`document_of_text` makes again from its text alone (:func:`from_text`);
    True for one made by :func:`document_of_text` whose data and tables are not read yet."""

    def __getattr__(self, name: str):
        # (only for an attribute the instance lacks: the data and tables of a document made by
        # document_of_text, read from its text when one of them is first read; the keys' table
        # of one parse_yaml read quickly without it, read from its text when first read, and
        # pickled or copied without it until then: the copy reads it from its text)
        attributes = self.__dict__
        if name in _READ_AGAIN and "text" in attributes:
            marks = attributes.get("_from_text")
            if marks is True:
                _read_again(self)
                return attributes[name]
            if name == "keys" and type(marks) is tuple and len(marks) == 3 and marks[2] is None:
                _keys_again(self)
                return attributes[name]
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def line(self, number: int) -> str | None:
        """Line ``number`` (1-based) of the text, or None past its end; the text is split once."""
        if self._lines is None:
            self._lines = self.text.split("\n")
        return self._lines[number - 1] if 0 < number <= len(self._lines) else None

    def locate(self, path: YamlPath = (), *, key: bool = False) -> Location:
        """Where ``path`` is (its key with ``key=True``), or its nearest located ancestor."""
        return Location.of(self.path, *self.position(path, key=key))

    def position(self, path: YamlPath = (), *, key: bool = False) -> tuple[int, int]:
        """(line, column) of :meth:`locate`, without the file's name."""
        p = tuple(path)
        table = self.keys if key else self.values
        while p:
            if p in table:
                return table[p]
            if p in self.values:
                return self.values[p]
            p = p[:-1]
        return self.values.get((), (1, 1))

    def locate_in_scalar(self, path: YamlPath, line: int, column: int) -> Location:
        """Where line/column (1-based) of the text of the scalar at ``path`` is in the file."""
        start_line, start_col = self.values.get(tuple(path), (0, 0))
        if not start_line:
            return self.locate(path)
        first = (self.line(start_line) or "")[start_col - 1:]
        if first[:1] in ("|", ">"):  # block scalar: content starts on the next line
            target = start_line + line
            text = self.line(target)
            if text is None:
                return Location.of(self.path, start_line, start_col)
            indent = len(text) - len(text.lstrip(" "))
            return Location.of(self.path, target, indent + column)
        return Location.of(self.path, start_line + line - 1, (start_col if line == 1 else 1) + column)


_READ_AGAIN = ("data", "values", "keys")
"""The fields of a :class:`YamlDocument` made by :func:`document_of_text` read from its text when first read."""


class _Refused(Exception):
    def __init__(self, code: str, message: str, line: int, column: int):
        self.code, self.message, self.line, self.column = code, message, line, column


def read_source(path: Path, *, max_bytes: int = MAX_FILE_BYTES, root: Path | None = None) -> tuple[str | None, list[Diagnostic]]:
    """The text of ``path`` after the encoding, line-ending and character policy above.

    Only a regular file is read, after its size is checked; with ``root``, a symbolic link
    that leads outside it is refused (E115).
    """
    return _read_source(path, max_bytes, root)[:2]


def _read_source(path: Path, max_bytes: int, root: Path | None, read=None) -> tuple[str | None, list[Diagnostic], bool]:
    """:func:`read_source`, and :func:`_police_all` of the text (see :func:`_check_source`);
    ``read(raw)``, when given, is called with the file's bytes once they are read."""
    try:
        raw = read_regular(path, max_bytes, root=root)
    except UnsafeFile as exc:
        return None, [error(exc.code, exc.message, Location.of(path))], True
    if read is not None:
        read(raw)
    return _check_source(raw, path)


def check_source(raw: bytes, path: Path) -> tuple[str | None, list[Diagnostic]]:
    """Decode and police ``raw`` (see the module docstring); text is None on any error."""
    return _check_source(raw, path)[:2]


def _check_source(raw: bytes, path: Path) -> tuple[str | None, list[Diagnostic], bool]:
    """:func:`check_source`, and :func:`_police_all` of the text it gives (True without one).

    A text it gives is in NFC (a line that is not is an error), so :func:`_police_all` of it is
    whether it holds a character of :data:`~aistack_bank.safety.FORBIDDEN`: one search of the
    text for both, since that set holds every character of :data:`_FORBIDDEN` (the line rules'
    E110), a text without any needs no search for them either."""
    diags: list[Diagnostic] = []
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
        diags.append(warning("W101", "byte-order mark at the start of the file is ignored; save as UTF-8 without BOM", Location.of(path, 1, 1)))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        return None, diags + [error("E102", f"byte 0x{raw[exc.start]:02x} is not valid UTF-8; save the file as UTF-8", Location.of(path, line, col))], True
    if not text or text.isspace():  # (nothing but white space: what strip() would leave nothing of, without a copy)
        return None, diags + [error("E103", "file is empty", Location.of(path))], True
    if "\r" in text:
        crlf = text.count("\r\n")
        lone_cr = text.count("\r") - crlf
        lf_only = text.count("\n") - crlf
        if lone_cr or (crlf and lf_only):
            lone = re.search(r"\r(?!\n)", text)  # a lone CR at the very end is on no "\n"-split line's inside
            split = text.split("\n")
            first_crlf = split[0].endswith("\r")
            first = next((i for i, ln in enumerate(split, 1) if ln.endswith("\r") != first_crlf or "\r" in ln[:-1]),
                         text.count("\n", 0, lone.start()) + 1 if lone else 1)
            return None, diags + [error("E111", f"mixed line endings: {crlf} CRLF and {lf_only} LF line ends (and {lone_cr} lone CR); use LF throughout", Location.of(path, first, 1))], True
        text = text.replace("\r\n", "\n")
        diags.append(warning("W102", "CRLF line endings are read as LF; save the file with LF line endings", Location.of(path, 1, 1)))
    # The rules below, on the whole text first: a text they all pass (nearly every file) is not
    # walked line by line; otherwise the lines locate each problem. ("\n" composes with
    # nothing, so the text is NFC exactly when each of its lines is.)
    # (An ASCII or Latin-1 text (nearly every English one): its bytes without the characters
    # allowed, one C pass, faster than the pattern; and a Latin-1 text is in NFC.)
    latin = text.encode("ascii") if text.isascii() else _latin1(text)
    if latin is not None:
        forbidden = bool(latin.translate(None, _LATIN1_ALLOWED))
    else:
        forbidden = FORBIDDEN.search(text) is not None
    clean = (not _may_conflict(text) and "\t" not in text and not (forbidden and _FORBIDDEN.search(text))
             and (latin is not None or unicodedata.is_normalized("NFC", text)))
    for lineno, line in enumerate(() if clean else text.split("\n"), 1):
        if _CONFLICT.match(line):
            diags.append(error("E114", "merge-conflict marker; resolve the conflict before validating", Location.of(path, lineno, 1)))
            continue
        indent = len(line) - len(line.lstrip(" \t"))
        if "\t" in line[:indent]:
            diags.append(error("E107", "tab in indentation; YAML indents with spaces only", Location.of(path, lineno, line.index("\t") + 1)))
        bad = _FORBIDDEN.search(line)
        if bad:
            diags.append(error("E110", f"forbidden character U+{ord(bad.group()):04X} ({unicodedata.name(bad.group(), 'control')})", Location.of(path, lineno, bad.start() + 1)))
        if not line.isascii() and not unicodedata.is_normalized("NFC", line):
            col = _first_not_nfc(line)
            diags.append(error("E109", "text is not NFC-normalized (a decomposed accent, as copied from some PDFs); re-type it or normalize the file to NFC", Location.of(path, lineno, col)))
    if diags and any(d.severity.value == "error" for d in diags):
        return None, diags, True
    return text, diags, forbidden


def _may_conflict(text: str) -> bool:
    """Whether ``text`` may hold a merge-conflict marker line (:data:`_CONFLICT_ANY`): each
    begins with seven of the same character, which four substring searches look for first."""
    return ("<<<<<<<" in text or "=======" in text or ">>>>>>>" in text or "|||||||" in text) and _CONFLICT_ANY.search(text) is not None


def _first_not_nfc(line: str) -> int:
    """The 1-based column of the first character where ``line`` stops being NFC.

    One pass: a prefix can stop being NFC only at a combining mark or where a character
    composes with (or decomposes from) its neighbours, so each character is tested with the
    one before it and the one after it instead of testing every prefix again.
    """
    is_normalized, combining = unicodedata.is_normalized, unicodedata.combining
    for i, ch in enumerate(line):
        if combining(ch):
            return i + 1
        if not ch.isascii() or (i + 1 < len(line) and not line[i + 1].isascii()):
            if not is_normalized("NFC", line[max(0, i - 1): i + 2]):
                return i + 1 if i == 0 or is_normalized("NFC", line[i - 1: i + 1]) else i
    return 1


def parse_yaml(text: str, path: Path, *, police_all: bool | None = None) -> tuple[YamlDocument | None, list[Diagnostic]]:
    """Compose ``text`` with libyaml and convert it to plain data with positions. ``police_all``:
    :func:`_police_all` of ``text`` when the caller has it (from :func:`_check_source`)."""
    if police_all is None:
        police_all = _police_all(text)
    quick = None if police_all else _quick(text, screened=True, keys=False)
    if quick is not None:  # (a mapping with nothing to report, and no anchor: see :func:`_quick`)
        if quick[2] is None:  # (its keys' table read from the text when first used: _keys_again)
            doc = YamlDocument(path=path, data=quick[0], text=text, values=quick[1])
            del doc.__dict__["keys"]
        else:
            doc = YamlDocument(path=path, data=quick[0], text=text, values=quick[1], keys=quick[2])
        doc._from_text = quick
        return doc, []
    try:
        root = _compose(text)
    except _Refused as exc:
        return None, [error(exc.code, exc.message, Location.of(path, exc.line, exc.column))]
    if root is None:
        return None, [error("E103", "file holds no YAML document (only comments?)", Location.of(path))]
    doc = YamlDocument(path=path, data=None, text=text)
    diags: list[Diagnostic] = []
    try:
        doc.data = _Converter(doc, diags, police_all).convert(root, (), 0)
    except _Refused as exc:
        return None, diags + [error(exc.code, exc.message, Location.of(path, exc.line, exc.column))]
    if "&" in text:
        diags += _anchors(text, path)
    if not isinstance(doc.data, dict):
        diags.append(error("E112", "the file must hold one YAML mapping (key: value lines) at the top level", doc.locate(())))
    return (None if diags and any(d.severity.value == "error" for d in diags) else doc), diags


def document_of_text(path: Path, text: str) -> YamlDocument:
    """The document :func:`parse_yaml` made of ``text``, a text it read quickly (its document's
    ``_from_text``: a text with no character of :data:`~aistack_bank.safety.FORBIDDEN` and nothing
    to report), whose data and tables are read again from the text when one of them is first
    read (:meth:`YamlDocument.__getattr__`): the same data and tables in the same order
    (:func:`_quick` is a function of the text alone). A question file's record keeps such a
    document as its path and text (:func:`aistack_bank.cache.questionfiles._dumped`): a record is
    unpickled whole for its model (the document then never read) or to locate a finding."""
    doc = YamlDocument.__new__(YamlDocument)
    doc.__dict__.update(path=path, text=text, _from_text=True)
    return doc


def _read_again(doc: YamlDocument) -> None:
    """The data and tables of a document made by :func:`document_of_text`, read from its text."""
    quick = _quick(doc.text, screened=True)
    if quick is None:  # (never for a text read quickly: read as any other)
        again = parse_yaml(doc.text, doc.path)[0]
        quick = (None, {}, {}) if again is None else (again.data, again.values, again.keys)
    attributes = doc.__dict__
    for name, value in zip(_READ_AGAIN, quick):
        attributes.setdefault(name, value)
    attributes["_from_text"] = tuple(attributes[name] for name in _READ_AGAIN)


def _keys_again(doc: YamlDocument) -> None:
    """The keys' table of a document :func:`parse_yaml` made without it (read quickly by the
    pass, :func:`_quick_lines`, which was asked for no keys: no rule of a file without a finding
    reads where a key is), read again from its text, each key's path the tuple of the values'
    table, put in its place among the attributes (as one made with it: a document is pickled by
    its attributes in their order, a tuple held twice written once), and its ``_from_text`` given it."""
    attributes = doc.__dict__
    marks = attributes["_from_text"]
    quick = _quick(doc.text, screened=True)
    if quick is None:  # (never for a text read quickly: read as any other)
        again = parse_yaml(doc.text, doc.path)[0]
        quick = (None, {}, {}) if again is None else (again.data, again.values, again.keys)
    values = attributes.get("values")
    if type(values) is dict:  # (each key's path the very tuple of the values' table, as when made together)
        same = {path: path for path in values}
        keys = {same.get(path, path): place for path, place in quick[2].items()}
    else:
        keys = quick[2]
    names = list(attributes)
    at = names.index("values") + 1 if "values" in names else len(names)
    later = {name: attributes.pop(name) for name in names[at:]}
    attributes["keys"] = keys
    attributes.update(later)
    attributes["_from_text"] = (marks[0], marks[1], keys)


def from_text(doc: YamlDocument) -> bool:
    """Whether ``doc``'s data and tables are those :func:`parse_yaml` read quickly from its text
    (:func:`document_of_text` makes them again): not given others since (a value changed in them
    in place is not seen: nothing changes a document read)."""
    attributes = doc.__dict__
    marks = attributes.get("_from_text")
    if marks is True:
        return "data" not in attributes and "values" not in attributes and "keys" not in attributes
    return (type(marks) is tuple and len(marks) == 3 and attributes.get("data") is marks[0] and attributes.get("values") is marks[1]
            and attributes.get("keys") is marks[2])


def load_yaml(path: Path, *, root: Path | None = None, read=None) -> tuple[YamlDocument | None, list[Diagnostic]]:
    """Read, police and parse one YAML file; never raises for a user mistake. ``read(raw)``,
    when given, is called with the bytes read of the file (not at all when it could not be read)."""
    text, diags, police_all = _read_source(path, MAX_FILE_BYTES, root, read)
    if text is None:
        return None, diags
    doc, more = parse_yaml(text, path, police_all=police_all)
    return doc, diags + more


def _anchors(text: str, path: Path) -> list[Diagnostic]:
    """E108 for each anchor (``&name``), even one that no alias uses."""
    import yaml

    found = []
    try:
        for event in yaml.parse(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
            if getattr(event, "anchor", None) is not None and not isinstance(event, yaml.AliasEvent):
                mark = event.start_mark
                found.append(error("E108", f"anchor &{event.anchor} is not allowed; bank files write every value out", Location.of(path, mark.line + 1, mark.column + 1)))
    except yaml.YAMLError:
        pass
    return found


def _compose(text: str):
    import yaml

    try:
        return _composer()(text).get_single_node()
    except yaml.MarkedYAMLError as exc:
        raise _yaml_error(exc) from None
    except yaml.YAMLError as exc:
        raise _Refused("E105", str(exc).strip(), 1, 1) from None


_STR_TAG, _SEQ_TAG, _MAP_TAG = "tag:yaml.org,2002:str", "tag:yaml.org,2002:seq", "tag:yaml.org,2002:map"
_MERGE_TAG, _VALUE_TAG, _YAML_TAG = "tag:yaml.org,2002:merge", "tag:yaml.org,2002:value", "tag:yaml.org,2002:yaml"
UNSAFE_IMPLICIT_TAGS = {"<<": _MERGE_TAG, "=": _VALUE_TAG, "!": _YAML_TAG, "&": _YAML_TAG, "*": _YAML_TAG}
"""The plain scalars PyYAML's resolver gives a tag outside the standard ones (merge, value, and
yaml, which no plain scalar can have), which the converter refuses; every other scalar is
converted by its style and text alone (:func:`resolve_scalar`), whatever tag a resolver would
give it."""


@lru_cache(maxsize=1)
def _composer():
    """libyaml's composer (PyYAML's pure-Python one without libyaml), with a resolver that gives
    each node only what the converter reads of its tag: the plain scalars of
    :data:`UNSAFE_IMPLICIT_TAGS` theirs, every other scalar, sequence and mapping a standard one.
    PyYAML's resolver tries a list of patterns on each scalar: a Python call and several
    regular expressions per value, a good part of composing a file."""
    import operator

    import yaml
    from yaml.nodes import ScalarNode, SequenceNode

    try:
        from yaml._yaml import CParser as parser
    except ImportError:  # pragma: no cover - PyYAML without libyaml
        parser = yaml.SafeLoader

    class Composer(parser):
        def resolve(self, kind, value, implicit):
            if kind is ScalarNode:
                return UNSAFE_IMPLICIT_TAGS.get(value, _STR_TAG) if implicit[0] else _STR_TAG
            return _SEQ_TAG if kind is SequenceNode else _MAP_TAG

        # No path resolvers: the composer calls these two around every node, here C functions
        # that do nothing with what they are given (instead of two Python calls per node).
        descend_resolver = staticmethod(operator.is_)
        ascend_resolver = staticmethod(tuple)

    return Composer


def _yaml_error(exc) -> _Refused:
    mark = exc.problem_mark or exc.context_mark
    problem = (exc.problem or "syntax error").strip()
    if exc.context and "single document" not in exc.context:
        problem = f"{problem} ({exc.context.strip()})"
    if "single document" in str(exc.context or ""):
        problem = "the file must hold a single YAML document (found a second '---')"
    if "found character '\\t'" in problem:
        return _Refused("E107", "tab character where YAML expects spaces", mark.line + 1, mark.column + 1)
    if "mapping values are not allowed" in problem:
        problem += '; a text holding ": " (a colon and a space) must be quoted: "…" or \'…\', or written as a block after >-'
    return _Refused("E105", problem, (mark.line + 1) if mark else 1, (mark.column + 1) if mark else 1)


def _police_all(text: str) -> bool:
    """Whether the character rules must be applied to every parsed value of ``text``, not only to
    its double-quoted ones.

    A value that is not double-quoted is made of the characters of the text, in their order, some
    left out (indentation, a quote doubled in single quotes, trailing spaces) and line breaks
    folded to spaces: it holds a forbidden character only if the text does, and it is in NFC when
    the text is (nothing is joined that the text kept apart; a composing pair needs the two
    characters side by side). Only escapes (``"\\0"``, ``"\\u202E"``) make characters that the
    text does not hold, and only in double quotes."""
    return FORBIDDEN.search(text) is not None or not (text.isascii() or unicodedata.is_normalized("NFC", text))


class _Converter:
    """Nodes composed by libyaml turned into plain data, with the position of every key and value
    recorded in the document (see :func:`parse_yaml`)."""

    def __init__(self, doc: YamlDocument, diags: list[Diagnostic], police_all: bool) -> None:
        self.doc, self.diags, self.police_all = doc, diags, police_all
        self.values, self.keys = doc.values, doc.keys
        self.seen: set[int] | None = set() if "*" in doc.text and "&" in doc.text else None
        """The nodes met (by id), to refuse an alias; None for a text without "*" or without "&",
        which can hold no alias to an anchor (nothing else makes libyaml give one node twice, and
        an alias to no anchor stops the composer: "found undefined alias", E105)."""
        self.scalar, self.sequence = _node_classes()

    def convert(self, node, path: YamlPath, depth: int) -> Any:
        mark = node.start_mark
        line, col = mark.line + 1, mark.column + 1
        self.values[path] = (line, col)
        seen = self.seen
        if seen is not None:
            if id(node) in seen:
                # Fatal: an alias can multiply the document (a "billion laughs"), so stop here.
                raise _Refused("E108", "alias (*name) refers to an anchor; write the value out instead", line, col)
            seen.add(id(node))
        if depth > MAX_DEPTH:
            raise _Refused("E113", f"nesting deeper than {MAX_DEPTH} levels", line, col)
        tag = node.tag
        if tag not in _STD_TAGS:
            tag = str(getattr(tag, "value", tag))
            if tag not in _STD_TAGS:
                self.diags.append(error("E108", f"explicit YAML tag {tag!r} is not allowed", Location.of(self.doc.path, line, col)))
                return None
        kind = type(node)
        scalar = self.scalar
        if kind is scalar:
            value, style = node.value, node.style
            if self.police_all or style == '"':
                _police(value, self.doc, self.diags, line, col)
            return value if style else resolve_scalar(value)
        depth += 1
        # A child that is a scalar with a standard tag within the depth (nearly every value of a
        # question file) is converted here as :meth:`convert` would, without a call.
        inline = depth <= MAX_DEPTH
        values, keys, police_all = self.values, self.keys, self.police_all
        if kind is self.sequence:
            items = []
            for i, item in enumerate(node.value):
                if inline and type(item) is scalar and item.tag in _STD_TAGS:
                    mark = item.start_mark
                    values[path + (i,)] = (mark.line + 1, mark.column + 1)
                    if seen is not None:
                        if id(item) in seen:
                            raise _Refused("E108", "alias (*name) refers to an anchor; write the value out instead", mark.line + 1, mark.column + 1)
                        seen.add(id(item))
                    value, style = item.value, item.style
                    if police_all or style == '"':
                        _police(value, self.doc, self.diags, mark.line + 1, mark.column + 1)
                    items.append(value if style or value and value[0] not in _CAN_START_OTHER else resolve_scalar(value))
                else:
                    items.append(self.convert(item, path + (i,), depth))
            return items
        result: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            mark = key_node.start_mark
            kline, kcol = mark.line + 1, mark.column + 1
            if type(key_node) is not scalar:
                self.diags.append(error("E112", "mapping keys must be plain words", Location.of(self.doc.path, kline, kcol)))
                continue
            key, tag = key_node.value, key_node.tag
            if (tag if type(tag) is str else _tag(key_node)) == _MERGE_TAG or key == "<<" and not key_node.style:
                self.diags.append(error("E108", "merge keys (<<) are not allowed", Location.of(self.doc.path, kline, kcol)))
                continue
            if police_all or key_node.style == '"':
                _police(key, self.doc, self.diags, kline, kcol)
            key_path = path + (key,)
            if key in result:
                first = keys[key_path]
                self.diags.append(error("E106", f"duplicate key {key!r} (first defined at line {first[0]})", Location.of(self.doc.path, kline, kcol)))
                continue
            keys[key_path] = (kline, kcol)
            if inline and type(value_node) is scalar and value_node.tag in _STD_TAGS:
                mark = value_node.start_mark
                values[key_path] = (mark.line + 1, mark.column + 1)
                if seen is not None:
                    if id(value_node) in seen:
                        raise _Refused("E108", "alias (*name) refers to an anchor; write the value out instead", mark.line + 1, mark.column + 1)
                    seen.add(id(value_node))
                value, style = value_node.value, value_node.style
                if police_all or style == '"':
                    _police(value, self.doc, self.diags, mark.line + 1, mark.column + 1)
                # (a plain one that starts as no other kind of value can is a string: :func:`resolve_scalar` without a call)
                result[key] = value if style or value and value[0] not in _CAN_START_OTHER else resolve_scalar(value)
            else:
                result[key] = self.convert(value_node, key_path, depth)
        return result


@lru_cache(maxsize=1)
def _node_classes() -> tuple:
    """PyYAML's scalar and sequence node classes, imported once: a ``from yaml.nodes import`` in
    :class:`_Converter` ran the import system's code for every file read (about 2.7 µs a file)."""
    from yaml.nodes import ScalarNode, SequenceNode

    return ScalarNode, SequenceNode


def _tag(node) -> str:
    tag = node.tag
    return str(getattr(tag, "value", tag))


def _police(value: str, doc: YamlDocument, diags: list[Diagnostic], line: int, col: int) -> None:
    """The character rules on a parsed value: escapes such as ``"\\0"`` or ``"\\u202E"`` are
    only visible after parsing. Located at the start of the value."""
    from .safety import character_problem

    if value.isascii() and value.isprintable():
        return
    problem = character_problem(value)
    if problem is not None:
        _, code, message = problem
        diags.append(error(code, message, Location.of(doc.path, line, col)))


# A question file is nearly always written in a small part of YAML: block mappings of plain keys,
# block sequences, one-line plain, quoted and flow-sequence values and block texts. Such a text is
# read here straight into plain data and positions, without libyaml's nodes (about 50 a file, each
# with two marks made by a call and freed again); anything else, or anything this reader is unsure
# of, gives None, and the text is composed by libyaml as before. The two are compared by
# tests/test_yaml_quick_equivalence.py (random texts, mutated, and every YAML file of the repository).
_QUICK_KEY = re.compile(r"([A-Za-z_][A-Za-z0-9_-]*):(?: +|$)")
_QUICK_KEY_MOST = 1024
"""The longest key the quick reader takes: libyaml refuses a simple key of more characters
(E105, "could not find expected ':'")."""
_QUICK_ENTRY = re.compile(rf"([A-Za-z_][A-Za-z0-9_-]{{0,{_QUICK_KEY_MOST - 1}}}):(?: +(.*))?$")
"""A line of a block mapping from its key on: the key (of at most :data:`_QUICK_KEY_MOST`
characters, as libyaml takes; a longer one does not match) and what follows it after its
spaces (None: nothing), with any trailing spaces."""
_QUICK_NOT_FIRST = frozenset("-?:,[]{}#&*!|>'\"%@` ")
"""The first characters of a one-line value that the quick reader leaves to libyaml (indicators,
quotes and the rest): a plain value starts with none of them."""
_QUICK_ODD = re.compile("[^\n\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]")
"""A character of a text beyond ASCII that the quick reader leaves to libyaml: one libyaml does
not print or reads as a line break (NEL, LS, PS), a tab, a CR, a BOM or a control."""
_QUICK_ASCII = bytes(range(0x20, 0x7F)) + b"\n"
_QUICK_BLOCK = {">": (True, True), ">-": (True, False), "|": (False, True), "|-": (False, False)}
"""The block headers the quick reader takes: (folded, its last line break kept)."""
_QUICK_DEPTH = MAX_DEPTH - 2


class _NotQuick(Exception):
    """The text is left to libyaml (see :func:`_quick`)."""


def _quick(text: str, screened: bool = False, keys: bool = True):
    """(data, values, keys) of ``text`` as :func:`parse_yaml` makes them through libyaml and the
    converter, for a text whose top-level mapping and everything in it are of the small part of
    YAML above, with no diagnostic to give; None for any other text (composed by libyaml then).

    ``screened``: the caller knows that ``text`` holds no character of
    :data:`~aistack_bank.safety.FORBIDDEN` (:func:`_police_all` of it is false); of the characters
    left to libyaml (:data:`_QUICK_ODD`, :data:`_QUICK_ASCII`) it can then hold only a tab, which
    one search finds, instead of a pass over the text with a character class.

    ``keys`` false: the keys' table is None when the pass (:func:`_quick_lines`) reads the text
    (it is made only by the line reader, which reads the rest)."""
    if not text.endswith("\n"):
        return None
    if screened:
        if "\t" in text:
            return None
    elif (text.isascii() and text.encode("ascii").translate(None, _QUICK_ASCII)) or (not text.isascii() and _QUICK_ODD.search(text)):
        return None
    found = _quick_lines(text, keys)
    if found is not None:
        return found
    return _quick_read(text)


def _quick_read(text: str):
    """:func:`_quick` of a text it has screened, read line by line (:class:`_QuickReader`)."""
    lines = text.split("\n")
    values: dict = {}
    keys: dict = {}
    reader = _QuickReader(lines, values, keys)
    try:
        start = reader.next_content(0)
        if start is None or lines[start][:1] == " ":
            return None
        data, end = reader.mapping(start, 0, (), 0)
        if reader.next_content(end) is not None:
            return None
    except _NotQuick:
        return None
    return data, values, keys


_QUICK_LINE = re.compile(
    r"( *+)(- +)?+(([A-Za-z_][A-Za-z0-9_-]{0,%d}):(?: +|(?=\n)))?"
    r"(?:([>|]-?) *\n(( ++)[^ \n][^\n]*\n(?:\7[^ \n][^\n]*\n)*+)|([^\n]*)\n)" % (_QUICK_KEY_MOST - 1))
"""A line of a text :func:`_quick_lines` reads, all of them found by one pass over the text: its
indentation (1), its dash and the spaces after it (2), its key with its colon and the spaces after
it (3) and the key (4); then either a block text's header (5) and its lines (6), all at one
indentation (7) and none blank, or what follows on the line (8, with any trailing spaces). Every
line of a text ending with a line break is one (a blank line or a comment too: without a key nor
a dash), or one of a block text's."""


def _quick_lines(text: str, keys_wanted: bool = True):
    """:func:`_quick` of a text it has screened, for the commonest shape of a question file: from
    one pass of :data:`_QUICK_LINE` over the text, each line then read by a few operations on the
    strings it found (no line split, no match a line, a block text taken whole by the pass). None
    when the text has anything else: a blank line or a comment but at its top, a line at an
    indentation other than the mapping's or sequence's it is in, a block text with a blank line
    or a line further in, or anything the line reader (:func:`_quick_read`) would refuse; the text
    is then read by :func:`_quick_read`, which gives the same for any text this reads.

    ``keys_wanted`` false: the keys' table is not made (None in its place): a file's rules read
    where a key is only to report it, and a document read so reads it again when asked
    (:func:`_keys_again`)."""
    line = 1
    start = 0
    while text.startswith("#", start):  # (comments at its top: its schema's line)
        start = text.find("\n", start) + 1
        line += 1
    tokens = _QUICK_LINE.findall(text, start)
    if not tokens or tokens[0][0] or tokens[0][1] or not tokens[0][3]:
        return None
    values: dict = {}
    keys: dict | None = {} if keys_wanted else None
    try:
        data, k, _ = _lines_mapping(tokens, 0, 0, (), 0, line, values, keys)
    except _NotQuick:
        return None
    if k != len(tokens):
        return None
    return data, values, keys


def _lines_scalar(rest: str, line: int, at: int, path: tuple, values: dict):
    """The one-line value ``rest`` (rstripped) of a line of :func:`_quick_lines`, at column ``at``
    (0-based) of line ``line``: as :meth:`_QuickReader.scalar` reads it (a line after it further
    in is a line at an unexpected indentation, refused by the caller)."""
    values[path] = (line, at + 1)
    first = rest[0]
    if first not in _QUICK_NOT_FIRST:  # a plain value on one line
        if ": " in rest or " #" in rest or rest[-1] == ":" or rest in UNSAFE_IMPLICIT_TAGS:
            raise _NotQuick
        return rest if first not in _CAN_START_OTHER else resolve_scalar(rest)
    if first == "'":
        inner = rest[1:-1]
        if len(rest) < 2 or rest[-1] != "'" or "'" in inner.replace("''", ""):
            raise _NotQuick
        return inner.replace("''", "'")
    if first == '"':
        inner = rest[1:-1]
        if len(rest) < 2 or rest[-1] != '"' or '"' in inner or "\\" in inner:
            raise _NotQuick
        if not (inner.isascii() and inner.isprintable()):
            raise _NotQuick  # (what the converter polices in double quotes)
        return inner
    if first == "[":
        return _QuickReader(None, values, None).flow(rest, line - 1, at, path)
    raise _NotQuick  # (a block text's header without its lines, and the rest)


def _lines_mapping(tokens: list, k: int, col: int, path: tuple, depth: int, line: int, values: dict, keys: dict | None):
    """The block mapping whose first key is that of ``tokens[k]`` (line ``line``), at column
    ``col``: (it, the index of the line after it, that line's number); the keys' places put in
    ``keys`` unless it is None."""
    if depth > _QUICK_DEPTH:
        raise _NotQuick
    values[path] = (line, col + 1)
    result: dict = {}
    end = len(tokens)
    pad = " " * col
    while True:
        _, _, head, key, header, block, indent, rest = tokens[k]
        if key in result:
            raise _NotQuick
        key_path = path + (key,)
        if keys is not None:
            keys[key_path] = (line, col + 1)
        k += 1
        if header:
            if len(indent) <= col:
                raise _NotQuick  # (a text not further in than its key)
            values[key_path] = (line, col + len(head) + 1)
            value = block[len(indent):-1].replace("\n" + indent, " " if header[0] == ">" else "\n")
            result[key] = value + "\n" if len(header) == 1 else value
            line += 1 + block.count("\n")
        else:
            if rest and rest[-1] == " ":
                rest = rest.rstrip(" ")
            if rest and rest[0] not in _QUICK_NOT_FIRST:  # (a plain value on one line: _lines_scalar)
                if ": " in rest or " #" in rest or rest[-1] == ":" or rest in UNSAFE_IMPLICIT_TAGS:
                    raise _NotQuick
                values[key_path] = (line, col + len(head) + 1)
                result[key] = rest if rest[0] not in _CAN_START_OTHER else resolve_scalar(rest)
                line += 1
            elif rest and rest[0] != "#":
                result[key] = _lines_scalar(rest, line, col + len(head), key_path, values)
                line += 1
            else:  # (its value on the lines after it)
                if k == end:
                    raise _NotQuick
                indent, dash, _, first = tokens[k][:4]
                if dash:
                    if len(indent) < col:
                        raise _NotQuick
                    result[key], k, line = _lines_sequence(tokens, k, len(indent), key_path, depth + 1, line + 1, values, keys)
                elif first and len(indent) > col:
                    result[key], k, line = _lines_mapping(tokens, k, len(indent), key_path, depth + 1, line + 1, values, keys)
                else:
                    raise _NotQuick
        if k == end:
            return result, k, line
        token = tokens[k]
        if token[0] != pad or token[1] or not token[3]:  # (not the usual next line: a key at this column)
            if len(token[0]) < col:
                return result, k, line
            raise _NotQuick


def _lines_sequence(tokens: list, k: int, col: int, path: tuple, depth: int, line: int, values: dict, keys: dict | None):
    """The block sequence whose first dash is that of ``tokens[k]`` (line ``line``), at column
    ``col``: (it, the index of the line after it, that line's number)."""
    if depth > _QUICK_DEPTH:
        raise _NotQuick
    values[path] = (line, col + 1)
    items: list = []
    end = len(tokens)
    pad = " " * col
    while True:
        _, dash, _, key, header, _, _, rest = tokens[k]
        item_path = path + (len(items),)
        at = col + len(dash)
        if key:
            item, k, line = _lines_mapping(tokens, k, at, item_path, depth + 1, line, values, keys)
        else:
            if header:
                raise _NotQuick
            if rest and rest[-1] == " ":
                rest = rest.rstrip(" ")
            if not rest or rest[0] in "#-":
                raise _NotQuick
            item = _lines_scalar(rest, line, at, item_path, values)
            k += 1
            line += 1
        items.append(item)
        if k == end:
            return items, k, line
        token = tokens[k]
        if token[0] != pad or not token[1]:  # (not the usual next line: the next item's dash at this column)
            if len(token[0]) < col or (token[0] == pad and token[3]):
                return items, k, line  # (less far in, or a key of the mapping the sequence is the value of)
            raise _NotQuick


class _QuickReader:
    """The lines of a text read by :func:`_quick`, and the positions found in them; each method
    raises :class:`_NotQuick` for what it leaves to libyaml."""

    def __init__(self, lines: list, values: dict, keys: dict) -> None:
        self.lines, self.values, self.keys = lines, values, keys

    def next_content(self, i: int):
        """The index of the first line from ``i`` that is neither blank nor a comment (None: none)."""
        lines = self.lines
        for j in range(i, len(lines)):
            content = lines[j].lstrip(" ")
            if content and content[0] != "#":
                return j
        return None

    def mapping(self, i: int, col: int, path: tuple, depth: int):
        """The block mapping whose first key is at line ``i``, column ``col`` (0-based) and the
        index of the line after it."""
        if depth > _QUICK_DEPTH:
            raise _NotQuick
        lines, values, keys = self.lines, self.values, self.keys
        values[path] = (i + 1, col + 1)
        result: dict = {}
        line = lines[i]
        pad = " " * col
        entry = _QUICK_ENTRY.match
        while True:
            found = entry(line, col)  # (its key, and what follows it, from its first character on)
            if found is None:
                raise _NotQuick
            key, rest = found.group(1, 2)
            if key in result:
                raise _NotQuick
            key_path = path + (key,)
            keys[key_path] = (i + 1, col + 1)
            if rest and rest[-1] == " ":
                rest = rest.rstrip(" ")
            if not rest or rest[0] == "#":
                result[key], i = self.nested(i + 1, col, key_path, depth + 1)
            else:
                result[key], i = self.scalar(rest, i, found.start(2), col, key_path)
            if i < len(lines):
                line = lines[i]
                first = line[col:col + 1]
                if first > " " and first != "#" and line.startswith(pad):
                    continue  # (the usual next line: a key at this column)
            i = self.next_content(i)
            if i is None:
                return result, len(lines)
            line = lines[i]
            indent = len(line) - len(line.lstrip(" "))
            if indent < col:
                return result, i
            if indent > col:
                raise _NotQuick

    def nested(self, i: int, col: int, path: tuple, depth: int):
        """The node that starts on the lines after a key (at column ``col``) with nothing after it."""
        j = self.next_content(i)
        if j is None:
            raise _NotQuick
        line = self.lines[j]
        content = line.lstrip(" ")
        indent = len(line) - len(content)
        if content[:2] == "- ":
            if indent >= col:  # (at the key's column: a sequence that is a mapping's value may be)
                return self.sequence(j, indent, path, depth)
            raise _NotQuick
        if indent > col:
            return self.mapping(j, indent, path, depth)
        raise _NotQuick

    def sequence(self, i: int, col: int, path: tuple, depth: int):
        """The block sequence whose first dash is at line ``i``, column ``col``, and the index of
        the line after it."""
        if depth > _QUICK_DEPTH:
            raise _NotQuick
        lines, values = self.lines, self.values
        values[path] = (i + 1, col + 1)
        items: list = []
        pad = " " * col
        while True:
            line = lines[i]
            at = col + 2
            while line[at:at + 1] == " ":
                at += 1
            rest = line[at:].rstrip(" ")
            item_path = path + (len(items),)
            if not rest or rest[0] in "#-" or _QUICK_BLOCK.get(rest) is not None:
                raise _NotQuick
            if _QUICK_KEY.match(rest) is not None:
                item, i = self.mapping(i, at, item_path, depth + 1)
            else:
                item, i = self.scalar(rest, i, at, col, item_path)
            items.append(item)
            if i < len(lines) and lines[i][col:col + 2] == "- " and lines[i].startswith(pad):
                continue  # (the usual next line: the next item's dash at this column)
            i = self.next_content(i)
            if i is None:
                return items, len(lines)
            line = lines[i]
            indent = len(line) - len(line.lstrip(" "))
            if indent < col:
                return items, i
            if indent > col:
                raise _NotQuick
            if line[col:col + 2] != "- ":
                return items, i  # (a key of the mapping the sequence is the value of, at its column)

    def scalar(self, rest: str, i: int, at: int, col: int, path: tuple):
        """The value ``rest`` (rstripped) that starts at column ``at`` of line ``i``, in a node
        at column ``col``, and the index of the line after it."""
        self.values[path] = (i + 1, at + 1)
        first = rest[0]
        if first not in _QUICK_NOT_FIRST:  # a plain value on one line
            if ": " in rest or " #" in rest or rest[-1] == ":" or rest in UNSAFE_IMPLICIT_TAGS:
                raise _NotQuick
            lines = self.lines
            j = i + 1
            # (a line after it further in, even a comment, could go on with it)
            while j < len(lines):
                line = lines[j]
                content = line.lstrip(" ")
                if content:
                    if len(line) - len(content) > col:
                        raise _NotQuick
                    break
                j += 1
            return (rest if first not in _CAN_START_OTHER else resolve_scalar(rest)), i + 1
        if first == "'":
            inner = rest[1:-1]
            if len(rest) < 2 or rest[-1] != "'" or "'" in inner.replace("''", ""):
                raise _NotQuick
            return inner.replace("''", "'"), i + 1
        if first == '"':
            inner = rest[1:-1]
            if len(rest) < 2 or rest[-1] != '"' or '"' in inner or "\\" in inner:
                raise _NotQuick
            if not (inner.isascii() and inner.isprintable()):
                raise _NotQuick  # (what the converter polices in double quotes)
            return inner, i + 1
        if first == "[":
            return self.flow(rest, i, at, path), i + 1
        block = _QUICK_BLOCK.get(rest)
        if block is None:
            raise _NotQuick
        return self.block(i + 1, col, *block)

    def flow(self, rest: str, i: int, at: int, path: tuple) -> list:
        """A flow sequence of plain values on one line."""
        inner = rest[1:-1]
        if (rest[-1] != "]" or "[" in inner or "]" in inner or "{" in inner or "}" in inner or "#" in inner or "'" in inner
                or '"' in inner or ":" in inner):  # (each tested in C: no generator resumed per character)
            raise _NotQuick
        if not inner.strip(" "):
            if inner:
                raise _NotQuick
            return []
        values = self.values
        items = []
        start = at + 1
        for index, part in enumerate(inner.split(",")):
            value = part.strip(" ")
            if not value or value[0] in _QUICK_NOT_FIRST or value in UNSAFE_IMPLICIT_TAGS:
                raise _NotQuick
            values[path + (index,)] = (i + 1, start + len(part) - len(part.lstrip(" ")) + 1)
            items.append(value if value[0] not in _CAN_START_OTHER else resolve_scalar(value))
            start += len(part) + 1
        return items

    def block(self, i: int, col: int, folded: bool, keep: bool):
        """A block text whose lines start at line ``i``, in a node at column ``col``."""
        lines = self.lines
        if i >= len(lines):
            raise _NotQuick
        line = lines[i]
        content = line.lstrip(" ")
        indent = len(line) - len(content)
        if not content or indent <= col:
            raise _NotQuick  # (a leading blank line, or an empty text)
        # The usual text: lines each at the text's indentation exactly, up to a line that is
        # not (taken one by one below then); such lines are joined by one string operation
        # (a line break and the indentation, a space in a folded text).
        pad = line[:indent]
        j = i + 1
        while j < len(lines):
            line = lines[j]
            if line[indent:indent + 1] > " " and line.startswith(pad):
                j += 1
                continue
            content = line.lstrip(" ")
            if (content and len(line) - len(content) < indent) or j + 1 == len(lines) and not line:
                value = "\n".join(lines[i:j])[indent:].replace("\n" + pad, " " if folded else "\n")
                return (value + "\n" if keep else value), j
            break
        texts = [text[indent:] for text in lines[i:j]]
        while j < len(lines):
            line = lines[j]
            content = line.lstrip(" ")
            if not content:
                if len(line) > indent:
                    raise _NotQuick
                texts.append("")
            elif len(line) - len(content) < indent:
                break
            else:
                texts.append(line[indent:])
            j += 1
        while texts and not texts[-1]:
            texts.pop()
        if folded:
            out = []
            blank = 0
            for k, text in enumerate(texts):
                if not text:
                    blank += 1
                    continue
                if text[0] == " ":
                    raise _NotQuick
                if k:
                    out.append("\n" * blank if blank else " ")
                blank = 0
                out.append(text)
            value = "".join(out)
        else:
            value = "\n".join(texts)
        return (value + "\n" if keep else value), j


MAX_NUMBER_DIGITS = 100
"""Longer digit strings stay text (and fail the field's type check) instead of being converted."""


def resolve_scalar(value: str) -> Any:
    """A plain (unquoted) scalar by the YAML 1.2 core schema; anything else stays a string.

    ``~``, ``null``, ``Null``, ``NULL`` and nothing are null; ``true``/``false`` (also
    capitalised or upper case) booleans; ``12``, ``0o17``, ``0x1F`` integers; ``1.5``,
    ``1e9``, ``.inf``, ``-.inf``, ``.nan`` floats; ``012`` is the integer 12. The YAML 1.1
    forms (``yes``/``no``/``on``/``off``, ``0b1``, ``1_000``, ``1:20``, dates) are strings.
    """
    if len(value) > MAX_NUMBER_DIGITS or value and value[0] not in _CAN_START_OTHER:
        return value
    if value in _NULL:
        return None
    if value in _BOOL:
        return _BOOL[value]
    if _INT10.fullmatch(value):
        return int(value)
    if _INT8.fullmatch(value):
        return int(value[2:], 8)
    if _INT16.fullmatch(value):
        return int(value[2:], 16)
    if _FLOAT.fullmatch(value) and any(c.isdigit() for c in value):
        return float(value)
    if _INF.fullmatch(value):
        return float("-inf") if value[0] == "-" else float("inf")
    if value in _NAN:
        return float("nan")
    return value
