"""A fast, strict reader of `.po`/`.pot` files that locates every grammar error.

polib's parser accepts broken escapes, a missing ``msgstr`` and unterminated strings without a
word, so catalogs used to be read twice: once by a grammar checker, once by polib. This reader
checks the grammar and builds the entries in the same single pass (as fast as polib's parser
alone, about 0.7 s for the 10 000 entries of a 1 000-question catalog) and returns polib's own
``POFile``/``POEntry`` objects, so merging, writing and compiling keep using polib.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..errors import Diagnostic, Location, error

_KEYWORD = re.compile(r"^(msgctxt|msgid_plural|msgid|msgstr\[[0-9]+\]|msgstr)[ \t]+(.*)$")
_CONFLICT = re.compile(r"^(<{7}|={7}|>{7})(?: |$)")
_GOOD_STRING = re.compile(r'"((?:[^"\\]|\\(?:[\\"ntrabfv]|[0-7]{1,3}|x[0-9A-Fa-f]+))*)"\s*')
_ESCAPE = re.compile(r'\\(?:[\\"ntrabfv]|[0-7]{1,3}|x[0-9A-Fa-f]+)')
_SIMPLE = {"\\\\": "\\", '\\"': '"', "\\n": "\n", "\\t": "\t", "\\r": "\r", "\\a": "\a", "\\b": "\b", "\\f": "\f", "\\v": "\v"}  # GNU refuses C's \\?


class _EscapeRange(ValueError):
    pass


def _unescape_match(m: re.Match) -> str:
    s = m.group()
    if s in _SIMPLE:
        return _SIMPLE[s]
    value = int(s[2:], 16) if s[1] == "x" and len(s) <= 10 else int(s[1:], 8) if s[1] != "x" else -1
    if not 0 <= value <= 0x10FFFF:
        raise _EscapeRange(s)
    return chr(value)


def _decode(body: str) -> str:
    return _ESCAPE.sub(_unescape_match, body) if "\\" in body else body


def _decode_checked(body: str, lineno: int, col: int, path: Path, diags: list[Diagnostic]) -> str:
    """``_decode`` plus the character rules on the decoded text, errors located at the string."""
    try:
        value = _decode(body)
    except _EscapeRange as exc:
        where = body.find(str(exc))
        diags.append(error("E501", f"escape {str(exc)[:12]!r} is out of range (above U+10FFFF)", Location.of(path, lineno, col + 1 + max(where, 0))))
        return ""
    if not (value.isascii() and value.isprintable()):
        from ..safety import character_problem

        problem = character_problem(value)
        if problem is not None:
            diags.append(error("E540", problem[2].replace("text is", "the string is"), Location.of(path, lineno, col)))
    return value


def _bad_string(text: str, lineno: int, col: int, path: Path) -> Diagnostic:
    """The precise error in a string that failed the fast pattern."""
    if not text.startswith('"'):
        return error("E501", f"expected a quoted string, found {text[:20]!r}", Location.of(path, lineno, col))
    i = 1
    while i < len(text):
        ch = text[i]
        if ch == "\\":
            m = _ESCAPE.match(text, i)
            if not m:
                return error("E501", f"invalid escape sequence {text[i:i + 2]!r} (use \\\\, \\\", \\n or \\t)", Location.of(path, lineno, col + i))
            i = m.end()
            continue
        if ch == '"':
            rest = text[i + 1:].strip()
            return error("E501", f"unexpected text after the closing quote: {rest[:20]!r}", Location.of(path, lineno, col + i + 1))
        i += 1
    return error("E501", "unterminated string (missing closing \")", Location.of(path, lineno, col + len(text)))


class _Entry:
    __slots__ = ("line", "obsolete", "tcomment", "comment", "occurrences", "flags", "previous", "fields", "order", "last", "last_previous", "lines")

    def __init__(self, line: int):
        self.line = line
        self.obsolete = False
        self.tcomment: list[str] = []
        self.comment: list[str] = []
        self.occurrences: list[tuple[str, str]] = []
        self.flags: list[str] = []
        self.previous: dict[str, str] = {}
        self.fields: dict[str, str] = {}
        self.order: list[tuple[str, int]] = []
        self.last: str | None = None
        self.last_previous: str | None = None


def parse_po(text: str, path: Path):
    """(polib.POFile or None, diagnostics): the catalog in ``text``, or every error in it."""
    import polib

    diags: list[Diagnostic] = []
    entries: list[_Entry] = []
    cur: _Entry | None = None

    def flush() -> None:
        nonlocal cur
        if cur is not None:
            keywords = [k for k, _ in cur.order]
            if "msgid" in keywords and not any(k.startswith("msgstr") for k in keywords):
                line = dict(cur.order)["msgid"]
                diags.append(error("E501", "msgid without msgstr; add msgstr \"\" if it is not translated yet", Location.of(path, line, 1)))
            elif "msgctxt" in keywords and "msgid" not in keywords:
                diags.append(error("E501", "msgctxt without msgid", Location.of(path, cur.order[0][1], 1)))
            elif keywords:
                entries.append(cur)
        cur = None

    def entry(lineno: int, for_comment: bool = False) -> _Entry:
        nonlocal cur
        if cur is not None and for_comment and any(k.startswith("msgstr") for k, _ in cur.order):
            flush()
        if cur is None:
            cur = _Entry(lineno)
        return cur

    for lineno, raw in enumerate(text.split("\n"), 1):
        line = raw[:-1] if raw.endswith("\r") else raw
        if not line.strip():
            continue  # GNU's grammar ignores blank lines: they do not end an entry
        if line[0] in "<=>" and _CONFLICT.match(line):
            diags.append(error("E501", "merge-conflict marker; resolve the conflict (keep both translators' work) before running the pipeline", Location.of(path, lineno, 1)))
            continue
        obsolete = False
        body, offset = line, 0
        if line.startswith("#~"):
            obsolete = True
            body = line[2:].lstrip(" \t")
            offset = len(line) - len(body)
            if body.startswith("|"):
                _previous(entry(lineno, True), body[1:].lstrip(" \t"), lineno, path, diags)
                continue
        elif line.startswith("#"):
            kind = line[1:2]
            if kind == "|":
                _previous(entry(lineno, True), line[2:].lstrip(" \t"), lineno, path, diags)
            elif kind == ",":
                entry(lineno, True).flags += [f.strip() for f in line[2:].split(",") if f.strip()]
            elif kind == ".":
                entry(lineno, True).comment.append(line[3:] if line[2:3] == " " else line[2:])
            elif kind == ":":
                e = entry(lineno, True)
                for ref in line[2:].split():
                    p, _, n = ref.rpartition(":")
                    e.occurrences.append((p, n) if p and n.isdigit() else (ref, ""))
            else:
                entry(lineno, True).tcomment.append(line[2:] if line[1:2] == " " else line[1:])
            continue
        stripped = body.lstrip()
        col = offset + len(body) - len(stripped) + 1
        if stripped.startswith('"'):
            if cur is None or cur.last is None:
                diags.append(error("E501", "string continuation without a keyword before it", Location.of(path, lineno, col)))
                continue
            m = _GOOD_STRING.fullmatch(stripped)
            if m is None:
                diags.append(_bad_string(stripped.rstrip(), lineno, col, path))
                continue
            cur.fields[cur.last] += _decode_checked(m.group(1), lineno, col, path, diags)
            continue
        m = _KEYWORD.match(stripped)
        if not m:
            word = stripped.split()[0] if stripped.split() else stripped
            diags.append(error("E501", f"unknown keyword {word[:30]!r}; expected msgctxt, msgid, msgid_plural, msgstr or a comment", Location.of(path, lineno, col)))
            continue
        keyword = m.group(1)
        base = keyword.split("[")[0]
        prev = cur.order[-1][0].split("[")[0] if cur is not None and cur.order else None
        if base == "msgctxt" and prev is not None:
            flush()
        elif base == "msgid" and prev not in (None, "msgctxt"):
            flush()
        elif base == "msgid_plural" and prev != "msgid":
            diags.append(error("E501", "msgid_plural must follow msgid", Location.of(path, lineno, col)))
        elif base == "msgstr" and prev not in ("msgid", "msgid_plural", "msgstr"):
            diags.append(error("E501", "msgstr without a msgid before it", Location.of(path, lineno, col)))
        e = entry(lineno)
        e.obsolete = e.obsolete or obsolete
        e.order.append((keyword, lineno))
        value = m.group(2).rstrip()
        sm = _GOOD_STRING.fullmatch(value)
        if sm is None:
            diags.append(_bad_string(value, lineno, col + m.start(2), path))
            e.fields[keyword] = ""
        else:
            e.fields[keyword] = _decode_checked(sm.group(1), lineno, col + m.start(2), path, diags)
        e.last = keyword
    flush()
    if diags:
        return None, diags
    po = polib.POFile(wrapwidth=79)
    header_found = False
    for e in entries:
        msgid = e.fields.get("msgid", "")
        if msgid == "" and "msgctxt" not in e.fields and not e.obsolete and not header_found:
            # GNU takes the first active entry with an empty msgid and no context as the header,
            # wherever it is, and msgcat writes it back in the same place among active entries.
            header_found = True
            po.header = "\n".join(e.tcomment)
            po.header_lines = list(e.tcomment)
            po.metadata_is_fuzzy = ["fuzzy"] if "fuzzy" in e.flags else []
            raw = e.fields.get("msgstr", "")
            for meta_line in raw.split("\n"):
                key, sep, value = meta_line.partition(":")
                if sep:
                    po.metadata[key.strip()] = value.strip()
            po.raw_header = raw
            po.raw_metadata = dict(po.metadata)
            po.header_index = sum(1 for x in po if not x.obsolete)
            po.header_line = e.line
            continue
        plural = {int(k[7:-1]): v for k, v in e.fields.items() if k.startswith("msgstr[")}
        entry = polib.POEntry(
            msgctxt=e.fields.get("msgctxt"), msgid=msgid, msgstr=e.fields.get("msgstr", ""),
            msgid_plural=e.fields.get("msgid_plural", ""), msgstr_plural=plural,
            occurrences=e.occurrences, comment="\n".join(e.comment), tcomment="\n".join(e.tcomment),
            flags=e.flags, previous_msgctxt=e.previous.get("msgctxt"), previous_msgid=e.previous.get("msgid"),
            previous_msgid_plural=e.previous.get("msgid_plural"), obsolete=e.obsolete, linenum=e.line,
        )
        entry.comment_lines = (list(e.tcomment), list(e.comment))
        entry.plural_lines = [(int(k[7:-1]), n) for k, n in e.order if k.startswith("msgstr[")]
        po.append(entry)
    return po, []


def _previous(e: _Entry, body: str, lineno: int, path: Path, diags: list[Diagnostic]) -> None:
    """A ``#| msgid "…"`` line (or its continuation) of the entry's previous source."""
    if body.startswith('"'):
        m = _GOOD_STRING.fullmatch(body)
        if m and e.last_previous:
            e.previous[e.last_previous] += _decode_checked(m.group(1), lineno, 1, path, diags)
        return
    m = _KEYWORD.match(body)
    if m and m.group(1) in ("msgctxt", "msgid", "msgid_plural"):
        sm = _GOOD_STRING.fullmatch(m.group(2).rstrip())
        e.previous[m.group(1)] = _decode_checked(sm.group(1), lineno, 1, path, diags) if sm else ""
        e.last_previous = m.group(1)
