"""Reading learners' results into one shape: who answered which question, in which language, what.

Three sources, told apart by their content (not their name): Moodle's quiz *Responses* report
(CSV), QTI ``assessmentResult`` XML (2.1 and 3.0), and the practice site's *Export my answers*
file (JSON). Every problem is a located diagnostic; nothing here raises for a user's file.
"""

from __future__ import annotations

import codecs
import csv
import io
import json
import re
from dataclasses import dataclass
from pathlib import Path

from ..errors import Diagnostic, Location, error, warning
from .bankinfo import BankInfo, norm

MAX_RESULTS_BYTES = 64 * 1024 * 1024
"""Results files larger than this are refused before being parsed."""
MAX_ERRORS_PER_FILE = 20
SITE_FORMAT = "aistack-bank-practice-answers"
SITE_VERSION = 1


@dataclass(frozen=True)
class Answer:
    """One response: ``choice`` is the bank's option id, or None when the learner gave none."""

    person: str
    question: str
    language: str
    choice: str | None


@dataclass
class ReadResult:
    answers: list[Answer]
    diagnostics: list[Diagnostic]
    source: str  # "moodle-csv", "qti-2.1", "qti-3.0", "site", or "" when unreadable


class _Collector:
    def __init__(self, path: Path):
        self.path = path
        self.diags: list[Diagnostic] = []
        self.dropped = 0
        self.errors = 0

    def error(self, code: str, message: str, line: int = 0, column: int = 0) -> None:
        self.errors += 1
        if self.errors > MAX_ERRORS_PER_FILE:
            self.dropped += 1
            return
        self.diags.append(error(code, message, Location.of(self.path, line, column)))

    def finish(self) -> list[Diagnostic]:
        if self.dropped:
            self.diags.append(error("E906" if any(d.code == "E906" for d in self.diags) else self.diags[-1].code,
                                    f"… and {self.dropped} more problem(s) of this kind in this file", Location.of(self.path)))
        return self.diags

    @property
    def failed(self) -> bool:
        return self.errors > 0


def _line_col(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def read_text(path: Path) -> tuple[str | None, list[Diagnostic]]:
    """The file as text (BOM removed), or None with a located E901."""
    where = Location.of(path)
    try:
        if not path.is_file():
            return None, [error("E901", "no such file" if not path.exists() else "not a regular file", where)]
        size = path.stat().st_size
        if size > MAX_RESULTS_BYTES:
            return None, [error("E901", f"file is {size} bytes; results files over {MAX_RESULTS_BYTES} bytes are refused", where)]
        raw = path.read_bytes()
    except OSError as exc:
        return None, [error("E901", f"cannot read the file: {exc.strerror or exc}", where)]
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    if not raw.strip():
        return None, [error("E908", "the file is empty", where)]
    nul = raw.find(b"\x00")
    if nul >= 0:
        return None, [error("E901", "binary data (a NUL byte): results files are text (CSV, XML or JSON)", Location.of(path, *_line_col(raw.decode("latin-1"), nul)))]
    try:
        return raw.decode("utf-8"), []
    except UnicodeDecodeError as exc:
        line, col = _line_col(raw[: exc.start].decode("utf-8", "replace"), exc.start)
        return None, [error("E901", f"not UTF-8 (byte 0x{raw[exc.start]:02x}); save the file as UTF-8 (Moodle's downloads are)", Location.of(path, line, col))]


def _scan(path: Path) -> tuple[str | None, bool]:
    """(the first character that is not white space, whether the file passes read_text's checks),
    read a block at a time; when it does not, read_text says why."""
    try:
        if not path.is_file() or path.stat().st_size > MAX_RESULTS_BYTES:
            return None, False
        decoder = codecs.getincrementaldecoder("utf-8")()
        head: str | None = None
        blank = True
        with path.open("rb") as f:
            start = True
            while block := f.read(1 << 20):
                if start and block.startswith(b"\xef\xbb\xbf"):
                    block = block[3:]
                start = False
                if b"\x00" in block:
                    return None, False
                blank = blank and not block.strip()
                text = decoder.decode(block)
                if head is None and (left := text.lstrip()):
                    head = left[0]
            decoder.decode(b"", final=True)
    except (OSError, UnicodeDecodeError):
        return None, False
    return head, not blank


def read_results(path: Path, bank: BankInfo, *, language: str | None = None, sink=None) -> ReadResult:
    """Answers from one results file, whatever its kind; errors are located diagnostics.

    A Moodle report is read as a stream, twice (to tell which question each column holds, then to
    read the answers): its rows go to ``sink.row(language, [(question, response), …])`` when a
    sink is given, else into ``answers``. QTI results and practice-site files hold one learner
    each and are read whole."""
    head, fine = _scan(path)
    if not fine or head is None or head in "{[<":
        text, diags = read_text(path)
        if text is None:
            return ReadResult([], diags, "")
        head = text.lstrip()[:1]
        if head == "{" or head == "[":
            return read_site(path, text, bank)
        if head == "<":
            return read_qti(path, text, bank, language=language)
        return read_moodle_csv(path, text, bank, language=language, sink=sink)
    return read_moodle_csv(path, None, bank, language=language, sink=sink)


# --- Moodle quiz "Responses" report ----------------------------------------------------------

_RESPONSE = re.compile(r"^Response ([0-9]{1,6})$")
_QUESTION = re.compile(r"^Question ([0-9]{1,6})$")
_RIGHT = re.compile(r"^Right answer ([0-9]{1,6})$")
_GRADES = re.compile(r"^Q\. ?(\d+) ?/")
_SKIPPED_STATES = {"in progress", "overdue", "never submitted", "abandoned"}


def _dialect(first_line: str) -> str:
    counts = {d: first_line.count(d) for d in (",", ";", "\t")}
    return max(counts, key=counts.get) if max(counts.values()) else ","


class _MoodleIndex:
    """Option and stem texts of every question in every language, normalized."""

    def __init__(self, bank: BankInfo):
        self.options: dict[str, set[tuple[str, str, str]]] = {}
        self.keys: dict[str, set[str]] = {}
        self.stems: dict[str, set[tuple[str, str]]] = {}
        for item in bank.items.values():
            for lang, texts in item.option_texts.items():
                for oid, text in texts.items():
                    self.options.setdefault(norm(text), set()).add((item.id, lang, oid))
                for key in item.keys:
                    self.keys.setdefault(norm(texts[key]), set()).add(item.id)
            for lang, stem in item.stems.items():
                self.stems.setdefault(norm(stem), set()).add((item.id, lang))
        self.bank = bank

    def question_cell(self, cell: str) -> set[tuple[str, str | None]]:
        """(question, language or None) that a `Question N` cell names: by id prefix or by stem."""
        cell = norm(cell)
        m = re.match(r"(q[0-9]{3,})\b", cell)
        if m and m.group(1) in self.bank.items:
            return {(m.group(1), None)}
        found: set[tuple[str, str | None]] = set(self.stems.get(cell, ()))
        at = cell.find(":")
        while at >= 0:  # the stem, then ":" and the attempt's choices
            found |= self.stems.get(cell[:at].rstrip(), set())
            at = cell.find(":", at + 1)
        return found


_OMITTED = ("", "-")
_CACHED = 4096
"""Distinct cell values whose reading is remembered per column (a hostile file cannot grow it)."""


def _opener(path: Path, text: str | None):
    """A function opening the report's text afresh (BOM removed), for each pass over it."""
    if text is not None:
        return lambda: io.StringIO(text, newline="")
    return lambda: path.open(encoding="utf-8-sig", newline="")


def _first_line(stream) -> str:
    parts = []
    while block := stream.read(1 << 16):
        at = block.find("\n")
        if at >= 0:
            parts.append(block[:at])
            break
        parts.append(block)
    return "".join(parts)


def _numbered(reader):
    """(line where the row starts, row) of a csv reader."""
    line = 1
    for row in reader:
        yield line, row
        line = reader.line_num + 1


class _Cache(dict):
    def get_or(self, key, compute):
        got = self.get(key, _MISSING)
        if got is _MISSING:
            got = compute(key)
            if len(self) < _CACHED:
                self[key] = got
        return got


_MISSING = object()


def read_moodle_csv(path: Path, text: str | None, bank: BankInfo, *, language: str | None = None, sink=None) -> ReadResult:
    """A quiz Responses report, from ``text`` or (None) streamed from ``path``: a first pass checks
    the rows and tells which question each column holds, a second reads the answers; only a
    row at a time is held. Without ``sink`` the answers are returned."""
    out = _Collector(path)
    opened = _opener(path, text)
    try:
        with opened() as stream:
            first_line = _first_line(stream)
        delimiter = _dialect(first_line)
        with opened() as stream:
            header_row = next(csv.reader(stream, delimiter=delimiter, strict=True), None)
    except csv.Error:
        header_row = None  # the first pass reports it, at its line
    except (OSError, UnicodeDecodeError) as exc:
        out.error("E901", f"cannot read the file: {getattr(exc, 'strerror', None) or exc}", 1)
        return ReadResult([], out.finish(), "")
    header = [h.strip() for h in header_row] if header_row else []
    slots = {int(m.group(1)): i for i, h in enumerate(header) if (m := _RESPONSE.match(h))}
    if not slots and header_row is not None:
        if any(_GRADES.match(h) for h in header):
            out.error("E902", "this is Moodle's Grades report (marks only, no responses); download the quiz's Responses report instead", 1, 1)
        elif header and header[0] in ("Last name", "First name", "Email address"):
            out.error("E903", "Moodle CSV without `Response N` columns; download the quiz's Responses report", 1, 1)
        else:
            out.error("E902", "not a Moodle quiz Responses report (no `Response 1` column), QTI results or practice-site answers", 1, 1)
        # a CSV syntax error further down is reported first, as when the whole file was parsed
    questions = {int(m.group(1)): i for i, h in enumerate(header) if (m := _QUESTION.match(h))}
    rights = {int(m.group(1)): i for i, h in enumerate(header) if (m := _RIGHT.match(h))}
    status_col = next((i for i, h in enumerate(header) if h in ("Status", "State")), None)
    index = _MoodleIndex(bank) if bank is not None else None

    def header_col(col: int) -> int:
        """The column (1-based) where the header cell ``col`` starts in the first line."""
        at = first_line.find(header[col])
        return at + 1 if at >= 0 else 0

    counted = {"skipped": 0}

    def data_rows(stream, report: bool):
        """(line, row) of the finished attempts; with ``report``, rows of the wrong length are
        errors and the skipped ones are counted."""
        skipped = 0
        reader = csv.reader(stream, delimiter=delimiter, strict=True)
        next(reader, None)
        line = reader.line_num + 1
        width = len(header)
        slot_cols = tuple(slots.values())
        for row in reader:
            at, line = line, reader.line_num + 1
            if not "".join(row).strip():
                continue
            if len(row) != width:
                if report:
                    out.error("E903", f"row has {len(row)} fields, the header has {width}", at)
                continue
            if (row[0].strip().lower() == "overall average"
                    or (status_col is not None and row[status_col].strip().lower() in _SKIPPED_STATES)):
                skipped += 1
                continue
            for c in slot_cols:
                if row[c].strip() not in _OMITTED:
                    break
            else:
                skipped += 1
                continue
            yield at, row
        if report:
            counted["skipped"] = skipped

    # First pass: the rows checked; the options each column's answers fit, and the keys of the
    # `Right answer N` columns. Problems are kept per column and reported column by column.
    inferred = sorted((slot, col) for slot, col in slots.items() if slot not in questions)
    candidates: dict[int, set[str] | None] = {slot: None for slot, _ in inferred}
    unknown: dict[int, list[tuple[str, int]]] = {slot: [] for slot, _ in inferred}
    unknown_more: dict[int, int] = {slot: 0 for slot, _ in inferred}
    keyed: dict[int, set[str]] = {slot: set() for slot in rights}
    fits_any: dict[str, frozenset[str]] = {}
    keys_of = _Cache()
    data_count = 0
    try:
        with opened() as stream:
            if slots and index is not None:
                for line, row in data_rows(stream, True):
                    data_count += 1
                    if out.failed:
                        continue
                    for slot, col in inferred:
                        value = row[col].strip()
                        if value in _OMITTED:
                            continue
                        found = fits_any.get(value)
                        if found is None:
                            found = frozenset(q for q, _lang, _o in index.options.get(norm(value), ()))
                            if len(fits_any) < _CACHED:
                                fits_any[value] = found
                        if not found:
                            if len(unknown[slot]) < MAX_ERRORS_PER_FILE:
                                unknown[slot].append((value, line))
                            else:
                                unknown_more[slot] += 1
                            continue
                        known = candidates[slot]
                        candidates[slot] = set(found) if known is None else known & found
                    for slot, col in rights.items():
                        value = row[col].strip()
                        if value not in _OMITTED:
                            keyed[slot] |= keys_of.get_or(value, lambda v: frozenset(index.keys.get(norm(v), ())))
            else:
                for _row in _numbered(csv.reader(stream, delimiter=delimiter, strict=True)):
                    pass
    except csv.Error as exc:
        out = _Collector(path)
        out.error("E903", f"CSV syntax error: {exc}", _csv_error_line(opened, delimiter))
        return ReadResult([], out.finish(), "moodle-csv")
    except (OSError, UnicodeDecodeError) as exc:
        out.error("E901", f"cannot read the file: {getattr(exc, 'strerror', None) or exc}", 1)
        return ReadResult([], out.finish(), "")
    if not slots:
        return ReadResult([], out.finish(), "")
    if language is not None and language not in bank.languages:
        out = _Collector(path)
        out.error("E904", f"--lang {language}: the bank has {', '.join(bank.languages)}", 0)
        return ReadResult([], out.finish(), "moodle-csv")
    skipped = counted["skipped"]
    if out.failed:
        return ReadResult([], out.finish(), "moodle-csv")

    # Which question each slot holds: per row from `Question N` when present, else per column.
    column_question: dict[int, str] = {}
    for slot, col in inferred:
        for value, line in unknown[slot]:
            out.error("E905", f"{header[col]} = {_shown(value)} is the text of no option of any question, in any language", line)
        if unknown_more[slot]:
            out.dropped += unknown_more[slot]
        found = candidates[slot]
        if found is None:
            out.diags.append(warning("W901", f"{header[col]} has no answers in any row; left out", Location.of(path, 1, header_col(col))))
            continue
        if len(found) > 1 and slot in rights:
            found = found & keyed[slot] if found & keyed[slot] else found
        if not found:
            out.error("E906", f"the answers in {header[col]} belong to no single question of the bank (answers of different questions in one column?)", 1, header_col(col))
        elif len(found) > 1:
            out.error("E906", f"the answers in {header[col]} fit {', '.join(sorted(found)[:6])} alike; download the report with \"Question text\" ticked", 1, header_col(col))
        else:
            column_question[slot] = next(iter(found))
    if out.failed:
        return ReadResult([], out.finish(), "moodle-csv")
    seen_columns: dict[str, int] = {}
    for slot, qid in sorted(column_question.items()):
        if qid in seen_columns:
            out.error("E906", f"Response {seen_columns[qid]} and Response {slot} both hold {qid}", 1, header_col(slots[slot]))
        seen_columns[qid] = slot
    if out.failed:
        return ReadResult([], out.finish(), "moodle-csv")

    # Second pass: the answers, a row at a time.
    answers: list[Answer] = []
    delivered = 0
    ordered = sorted(slots.items())
    all_languages = frozenset(bank.languages)
    named_by = _Cache()
    fits_in = _Cache()
    choices_in = _Cache()

    def lang_fits(key: tuple[str, str]) -> frozenset[str]:
        qid, value = key
        return frozenset(lang for q, lang, _o in index.options.get(norm(value), ()) if q == qid)

    def choices(key: tuple[str, str, str]) -> frozenset[str]:
        qid, value, lang = key
        return frozenset(o for q, lg, o in index.options[norm(value)] if q == qid and lg == lang)

    try:
        with opened() as stream:
            for line, row in data_rows(stream, False):
                langs = all_languages
                mapped: list[tuple[str, str]] = []  # question, value
                in_row: set[str] = set()
                row_ok = True
                for slot, col in ordered:
                    value = row[col].strip()
                    if slot in questions:
                        asked = row[questions[slot]].strip()
                        named = named_by.get_or(asked, index.question_cell)
                        qids = {q for q, _ in named}
                        if not qids:
                            if asked in _OMITTED:
                                continue
                            out.error("E904", f"Question {slot} = {_shown(asked)} is no question of the bank, in any language", line)
                            row_ok = False
                            continue
                        if len(qids) > 1:
                            out.error("E906", f"Question {slot} fits {', '.join(sorted(qids))} alike", line)
                            row_ok = False
                            continue
                        qid = next(iter(qids))
                        stem_langs = {lang for _, lang in named if lang is not None}
                        if stem_langs:
                            langs = langs & stem_langs
                    elif slot in column_question:
                        qid = column_question[slot]
                    else:
                        continue
                    if qid in in_row:
                        out.error("E906", f"{qid} appears twice in this attempt", line)
                        row_ok = False
                    in_row.add(qid)
                    mapped.append((qid, value))
                    if value not in _OMITTED:
                        fits = fits_in.get_or((qid, value), lang_fits)
                        if not fits:
                            out.error("E905", f"{header[slots[slot]]} = {_shown(value)} is no option of {qid}, in any language", line)
                            row_ok = False
                        langs = langs & (fits or langs)
                if not row_ok:
                    continue
                if not langs:
                    out.error("E906", "the answers of this attempt are in different languages", line)
                    continue
                if len(langs) > 1 and language in langs:
                    langs = frozenset([language])
                if len(langs) > 1:
                    out.error("E906", f"the language of this attempt cannot be told (its answers read the same in {', '.join(sorted(langs))}); pass --lang", line)
                    continue
                lang = next(iter(langs))
                row_answers: list[tuple[str, str | None]] = []
                for qid, value in mapped:
                    choice = None
                    if value not in _OMITTED:
                        found = choices_in.get_or((qid, value, lang), choices)
                        if len(found) != 1:
                            out.error("E906", f"{_shown(value)} is the text of several options of {qid} in {lang}", line)
                            continue
                        choice = next(iter(found))
                    row_answers.append((qid, choice))
                if not row_answers:
                    continue
                delivered += 1
                if out.failed:
                    continue
                if sink is not None:
                    sink.row(lang, row_answers)
                else:
                    person = f"{path.as_posix()}:{line}"
                    answers += [Answer(person, qid, lang, choice) for qid, choice in row_answers]
    except (csv.Error, OSError, UnicodeDecodeError) as exc:
        out.error("E901", f"the file changed while it was read: {exc}", 1)
        return ReadResult([], out.finish(), "moodle-csv")
    if skipped:
        out.diags.append(warning("W901", f"{skipped} row(s) skipped: unfinished attempts, empty rows or averages", Location.of(path)))
    if out.failed:
        return ReadResult([], out.finish(), "moodle-csv")
    if not delivered:
        out.error("E908", "the report holds no finished attempt with answers", 1, 1)
    return ReadResult(answers, out.finish(), "moodle-csv")


def _csv_error_line(opened, delimiter: str) -> int:
    """The line the csv reader had reached when it failed (read again up to the failure)."""
    reader = None
    try:
        with opened() as stream:
            reader = csv.reader(stream, delimiter=delimiter, strict=True)
            for _row in reader:
                pass
    except csv.Error:
        return reader.line_num or 1
    return 1


def _shown(value: str, limit: int = 60) -> str:
    value = " ".join(value.split())
    return json.dumps(value if len(value) <= limit else value[: limit - 1] + "…", ensure_ascii=False)


# --- QTI assessmentResult ---------------------------------------------------------------------

_QTI_NAMESPACES = {
    "http://www.imsglobal.org/xsd/imsqti_result_v2p1": "qti-2.1",
    "http://www.imsglobal.org/xsd/imsqti_v2p1": "qti-2.1",
    "http://www.imsglobal.org/xsd/imsqti_result_v3p0": "qti-3.0",
}


def _local(tag: str) -> tuple[str, str]:
    if tag.startswith("{"):
        ns, _, name = tag[1:].partition("}")
        return ns, name
    return "", tag


def _find_offset(text: str, *needles: str) -> tuple[int, int]:
    """Line and column of the first of ``needles`` found in ``text`` (1, 1 when none is)."""
    for needle in needles:
        at = text.find(needle)
        if at >= 0:
            return _line_col(text, at)
    return 1, 1


def read_qti(path: Path, text: str, bank: BankInfo, *, language: str | None = None) -> ReadResult:
    from ..readers.xml import XmlMalformed, XmlRefused, parse

    out = _Collector(path)
    try:
        root = parse(text.encode("utf-8"))
    except XmlRefused as exc:
        out.error("E903", f"refused: the XML declares a DTD or entities ({exc.what}); QTI results never need one", exc.line, exc.column)
        return ReadResult([], out.finish(), "")
    except XmlMalformed as exc:
        out.error("E903", f"XML syntax error: {re.sub(r': line [0-9]+, column [0-9]+$', '', exc.reason)}", exc.line, exc.column)
        return ReadResult([], out.finish(), "")
    except (ValueError, RecursionError) as exc:
        out.error("E903", f"XML cannot be read: {type(exc).__name__}", 1)
        return ReadResult([], out.finish(), "")
    ns, name = _local(root.tag)
    if name != "assessmentResult":
        what = {"assessmentItem": "a QTI item", "qti-assessment-item": "a QTI 3 item", "assessmentTest": "a QTI test",
                "qti-assessment-test": "a QTI 3 test", "quiz": "Moodle XML questions"}.get(name, f"<{name}>")
        out.error("E902", f"this is {what}, not QTI results (<assessmentResult>)", 1, 1)
        return ReadResult([], out.finish(), "")
    kind = _QTI_NAMESPACES.get(ns)
    if kind is None:
        out.error("E902", f"<assessmentResult> in namespace {ns or '(none)'!r}; expected QTI 2.1 or 3.0 results ({', '.join(sorted(set(_QTI_NAMESPACES)))})", 1, 1)
        return ReadResult([], out.finish(), "")
    if language is not None and language not in bank.languages:
        out.error("E904", f"--lang {language}: the bank has {', '.join(bank.languages)}", 0)
        return ReadResult([], out.finish(), kind)
    q = (lambda n: f"{{{ns}}}{n}") if ns else (lambda n: n)
    context = root.find(q("context"))
    learner = (context.get("sourcedId") if context is not None else None) or path.name
    answers: list[Answer] = []
    seen: set[tuple[str, str]] = set()
    unknown_language = False
    for item in root.iter(q("itemResult")):
        identifier = item.get("identifier") or ""
        where = _find_offset(text, f'identifier="{identifier}"', f"identifier='{identifier}'")
        split = bank.split_identifier(identifier)
        if split is None:
            out.error("E904", f"item {_shown(identifier)} is no question of the bank (expected a bank id such as q001, optionally with a language: q001-fr)", *where)
            continue
        qid, lang = split
        if lang is not None and lang not in bank.languages:
            out.error("E904", f"item {identifier}: the bank has no language {lang!r} ({', '.join(bank.languages)})", *where)
            continue
        if lang is None:
            lang = language
        if lang is None:
            if not unknown_language:
                out.error("E906", f"item {identifier}: the language is not known (no suffix such as {qid}-fr); pass --lang", *where)
            unknown_language = True
            continue
        if (item.get("sessionStatus") or "final") == "initial":
            continue  # presented but never answered or never reached
        response = next((rv for rv in item.findall(q("responseVariable")) if rv.get("identifier") == "RESPONSE"), None)
        if response is None:
            response = next(iter(item.findall(q("responseVariable"))), None)
        values = [] if response is None else [(v.text or "").strip() for cr in response.findall(q("candidateResponse")) for v in cr.findall(q("value"))]
        values = [v for v in values if v]
        info = bank.items[qid]
        one_key = info.questions[lang].ONE_KEY
        if len(values) > 1 and one_key:
            out.error("E905", f"item {identifier}: {len(values)} responses to a single-choice question", *where)
            continue
        choice = None
        if values:
            choice = _qti_response(info.questions[lang], values)
            problem = info.response_problem(lang, choice)
            if problem is not None and one_key:
                out.error("E905", f"item {identifier}: response {_shown(values[0])} is no option of {qid} (options {', '.join('choice_' + o for o in info.options)})", *where)
                continue
            if problem is not None:
                out.error("E905", f"item {identifier}: response {_shown(' '.join(values))} is no response to {qid}: {problem}", *where)
                continue
        if (qid, lang) in seen:
            out.error("E906", f"item {identifier}: {qid} answered twice in one result", *where)
            continue
        seen.add((qid, lang))
        answers.append(Answer(f"{path.as_posix()}#{learner}", qid, lang, choice))
    if out.failed:
        return ReadResult([], out.finish(), kind)
    if not answers:
        out.error("E908", "no answered <itemResult> in these results", 1, 1)
    return ReadResult(answers, out.finish(), kind)


def _qti_response(question, values: list[str]) -> str:
    """QTI response values as the practice site records a response: option identifiers
    (``choice-a``, ``choice_true``) as ids joined by commas, a matching question's directed pairs
    (``source-a target-b``) as ``a=b;…``, a number or a typed text as it is."""
    from ..exporters.qti_common import match_targets, ncname

    pairs = getattr(question, "pairs", None)
    if pairs is not None:  # a matching item: the exporter's source and target identifiers
        sources = {ncname(f"source-{pair.id}"): pair.id for pair in pairs}
        texts = {identifier: text for identifier, text, _ in match_targets(question)}
        ids = {text: answer_id for answer_id, text in question.offered()}  # an answer two prompts share: one id
        chosen = []
        for value in values:
            source, _, target = value.partition(" ")
            chosen.append(f"{sources.get(source, source)}={ids.get(texts.get(target, ''), target)}")
        return ";".join(chosen)
    stripped = [re.sub(r"^choice[-_]", "", value) for value in values]
    return ",".join(stripped)


# --- the practice site's "Export my answers" file -----------------------------------------------


def read_site(path: Path, text: str, bank: BankInfo) -> ReadResult:
    out = _Collector(path)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        out.error("E903", f"JSON syntax error: {exc.msg}", exc.lineno, exc.colno)
        return ReadResult([], out.finish(), "")
    except RecursionError:
        out.error("E903", "JSON nested too deeply", 1, 1)
        return ReadResult([], out.finish(), "")
    except ValueError:  # an integer of more digits than Python converts (4 300)
        long = re.search(r"[0-9]{4000,}", text)
        at = long.start() if long else 0
        line, column = text.count("\n", 0, at) + 1, at - (text.rfind("\n", 0, at) + 1) + 1
        out.error("E903", "a number of more than 4 000 digits; no answers file holds one", line, column)
        return ReadResult([], out.finish(), "")
    if not isinstance(data, dict) or data.get("format") != SITE_FORMAT:
        out.error("E902", f"JSON that is not the practice site's answers (expected \"format\": \"{SITE_FORMAT}\")", 1, 1)
        return ReadResult([], out.finish(), "")
    version = data.get("version")
    if version != SITE_VERSION:
        out.error("E903", f"version {version!r} of the answers format; this bank reads version {SITE_VERSION}", 1, 1)
        return ReadResult([], out.finish(), "site")
    if data.get("bank") != bank.topic_id:
        out.error("E907", f"answers for the bank {data.get('bank')!r}; this bank is {bank.topic_id!r}", 1, 1)
        return ReadResult([], out.finish(), "site")
    learner = data.get("learner")
    answers_in = data.get("answers")
    if not isinstance(learner, str) or not learner.strip():
        out.error("E903", "\"learner\" must be a non-empty string", 1, 1)
    if not isinstance(answers_in, list):
        out.error("E903", "\"answers\" must be a list", 1, 1)
    if out.failed:
        return ReadResult([], out.finish(), "site")
    first: dict[tuple[str, str], tuple[str, int, str]] = {}
    for i, a in enumerate(answers_in):
        at = f"answers[{i}]"
        if not isinstance(a, dict):
            out.error("E903", f"{at} must be an object", 1, 1)
            continue
        missing = [k for k in ("question", "language", "choice", "answered_at") if not isinstance(a.get(k), str)]
        if missing:
            out.error("E903", f"{at}: {', '.join(repr(k) for k in missing)} missing or not a string", 1, 1)
            continue
        qid, lang, choice = a["question"], a["language"], a["choice"]
        if qid not in bank.items:
            out.error("E904", f"{at}: question {_shown(qid)} is not in the bank", 1, 1)
            continue
        if lang not in bank.languages:
            out.error("E904", f"{at}: language {_shown(lang)} is not in the bank ({', '.join(bank.languages)})", 1, 1)
            continue
        problem = bank.items[qid].response_problem(lang, choice)
        if problem is not None:
            out.error("E905", f"{at}: choice {_shown(choice)} is no response to {qid}: {problem}", 1, 1)
            continue
        key = (qid, lang)
        stamp = (a["answered_at"], i, choice)
        if key not in first or stamp < first[key]:
            first[key] = stamp
    if out.failed:
        return ReadResult([], out.finish(), "site")
    answers = [Answer(f"site:{learner}:{lang}", qid, lang, choice) for (qid, lang), (_t, _i, choice) in first.items()]
    if not answers:
        out.error("E908", "the file holds no answers", 1, 1)
    return ReadResult(answers, out.finish(), "site")
