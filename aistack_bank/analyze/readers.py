"""Reading learners' results into one shape: who answered which question, in which language, what.

Three sources, told apart by their content (not their name): Moodle's quiz *Responses* report
(CSV), QTI ``assessmentResult`` XML (2.1 and 3.0), and the practice site's *Export my answers*
file (JSON). Every problem is a located diagnostic; nothing here raises for a user's file.
"""

from __future__ import annotations

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

    def error(self, code: str, message: str, line: int = 0, column: int = 0) -> None:
        if sum(d.severity.value == "error" for d in self.diags) >= MAX_ERRORS_PER_FILE:
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
        return any(d.severity.value == "error" for d in self.diags)


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


def read_results(path: Path, bank: BankInfo, *, language: str | None = None) -> ReadResult:
    """Answers from one results file, whatever its kind; errors are located diagnostics."""
    text, diags = read_text(path)
    if text is None:
        return ReadResult([], diags, "")
    head = text.lstrip()[:1]
    if head == "{" or head == "[":
        return read_site(path, text, bank)
    if head == "<":
        return read_qti(path, text, bank, language=language)
    return read_moodle_csv(path, text, bank, language=language)


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
                self.keys.setdefault(norm(texts[item.key]), set()).add(item.id)
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


def read_moodle_csv(path: Path, text: str, bank: BankInfo, *, language: str | None = None) -> ReadResult:
    out = _Collector(path)
    rows: list[tuple[int, list[str]]] = []
    try:
        reader = csv.reader(io.StringIO(text, newline=""), delimiter=_dialect(text.split("\n", 1)[0]), strict=True)
        line = 1
        for row in reader:
            rows.append((line, row))
            line = reader.line_num + 1
    except csv.Error as exc:
        out.error("E903", f"CSV syntax error: {exc}", reader.line_num or 1)
        return ReadResult([], out.finish(), "moodle-csv")
    header = [h.strip() for h in rows[0][1]] if rows else []
    slots = {int(m.group(1)): i for i, h in enumerate(header) if (m := _RESPONSE.match(h))}
    if not slots:
        if any(_GRADES.match(h) for h in header):
            out.error("E902", "this is Moodle's Grades report (marks only, no responses); download the quiz's Responses report instead", 1, 1)
        elif header and header[0] in ("Last name", "First name", "Email address"):
            out.error("E903", "Moodle CSV without `Response N` columns; download the quiz's Responses report", 1, 1)
        else:
            out.error("E902", "not a Moodle quiz Responses report (no `Response 1` column), QTI results or practice-site answers", 1, 1)
        return ReadResult([], out.finish(), "")
    questions = {int(m.group(1)): i for i, h in enumerate(header) if (m := _QUESTION.match(h))}
    rights = {int(m.group(1)): i for i, h in enumerate(header) if (m := _RIGHT.match(h))}
    status_col = next((i for i, h in enumerate(header) if h in ("Status", "State")), None)
    if language is not None and language not in bank.languages:
        out.error("E904", f"--lang {language}: the bank has {', '.join(bank.languages)}", 0)
        return ReadResult([], out.finish(), "moodle-csv")
    index = _MoodleIndex(bank)
    first_line = text.split("\n", 1)[0]

    def header_col(col: int) -> int:
        """The column (1-based) where the header cell ``col`` starts in the first line."""
        at = first_line.find(header[col])
        return at + 1 if at >= 0 else 0

    def cell(row: list[str], col: int | None) -> str:
        return row[col].strip() if col is not None and col < len(row) else ""

    def omitted(value: str) -> bool:
        return value in ("", "-")

    data: list[tuple[int, list[str]]] = []
    skipped = 0
    for line, row in rows[1:]:
        if not any(c.strip() for c in row):
            continue
        if len(row) != len(header):
            out.error("E903", f"row has {len(row)} fields, the header has {len(header)}", line)
            continue
        first = row[0].strip().lower()
        state = cell(row, status_col).lower()
        if first == "overall average" or state in _SKIPPED_STATES or all(omitted(cell(row, c)) for c in slots.values()):
            skipped += 1
            continue
        data.append((line, row))
    if out.failed:
        return ReadResult([], out.finish(), "moodle-csv")

    # Which question each slot holds: per row from `Question N` when present, else per column.
    column_question: dict[int, str] = {}
    for slot, col in sorted(slots.items()):
        if slot in questions:
            continue
        candidates: set[str] | None = None
        for line, row in data:
            value = cell(row, col)
            if omitted(value):
                continue
            found = {q for q, _lang, _o in index.options.get(norm(value), ())}
            if not found:
                out.error("E905", f"{header[col]} = {_shown(value)} is the text of no option of any question, in any language", line)
                continue
            candidates = found if candidates is None else candidates & found
        if candidates is None:
            out.diags.append(warning("W901", f"{header[col]} has no answers in any row; left out", Location.of(path, 1, header_col(col))))
            continue
        if len(candidates) > 1 and slot in rights:
            keyed = set()
            for _line, row in data:
                value = cell(row, rights[slot])
                if not omitted(value):
                    keyed |= index.keys.get(norm(value), set())
            candidates = candidates & keyed if candidates & keyed else candidates
        if not candidates:
            out.error("E906", f"the answers in {header[col]} belong to no single question of the bank (answers of different questions in one column?)", 1, header_col(col))
        elif len(candidates) > 1:
            out.error("E906", f"the answers in {header[col]} fit {', '.join(sorted(candidates)[:6])} alike; download the report with \"Question text\" ticked", 1, header_col(col))
        else:
            column_question[slot] = next(iter(candidates))
    if out.failed:
        return ReadResult([], out.finish(), "moodle-csv")
    seen_columns: dict[str, int] = {}
    for slot, qid in sorted(column_question.items()):
        if qid in seen_columns:
            out.error("E906", f"Response {seen_columns[qid]} and Response {slot} both hold {qid}", 1, header_col(slots[slot]))
        seen_columns[qid] = slot
    if out.failed:
        return ReadResult([], out.finish(), "moodle-csv")

    answers: list[Answer] = []
    for line, row in data:
        langs = set(bank.languages)
        mapped: list[tuple[str, str, str, int]] = []  # question, value, column header, slot
        in_row: set[str] = set()
        row_ok = True
        for slot, col in sorted(slots.items()):
            value = cell(row, col)
            if slot in questions:
                named = index.question_cell(cell(row, questions[slot]))
                qids = {q for q, _ in named}
                if not qids:
                    if omitted(cell(row, questions[slot])):
                        continue
                    out.error("E904", f"Question {slot} = {_shown(cell(row, questions[slot]))} is no question of the bank, in any language", line)
                    row_ok = False
                    continue
                if len(qids) > 1:
                    out.error("E906", f"Question {slot} fits {', '.join(sorted(qids))} alike", line)
                    row_ok = False
                    continue
                qid = next(iter(qids))
                stem_langs = {lang for _, lang in named if lang is not None}
                if stem_langs:
                    langs &= stem_langs
            elif slot in column_question:
                qid = column_question[slot]
            else:
                continue
            if qid in in_row:
                out.error("E906", f"{qid} appears twice in this attempt", line)
                row_ok = False
            in_row.add(qid)
            mapped.append((qid, value, header[col], slot))
            if not omitted(value):
                fits = {lang for q, lang, _o in index.options.get(norm(value), ()) if q == qid}
                if not fits:
                    out.error("E905", f"{header[col]} = {_shown(value)} is no option of {qid}, in any language", line)
                    row_ok = False
                langs &= fits or langs
        if not row_ok:
            continue
        if not langs:
            out.error("E906", "the answers of this attempt are in different languages", line)
            continue
        if len(langs) > 1 and language in langs:
            langs = {language}
        if len(langs) > 1:
            out.error("E906", f"the language of this attempt cannot be told (its answers read the same in {', '.join(sorted(langs))}); pass --lang", line)
            continue
        lang = next(iter(langs))
        person = f"{path.as_posix()}:{line}"
        for qid, value, _name, _slot in mapped:
            choice = None
            if not omitted(value):
                choices = {o for q, lg, o in index.options[norm(value)] if q == qid and lg == lang}
                if len(choices) != 1:
                    out.error("E906", f"{_shown(value)} is the text of several options of {qid} in {lang}", line)
                    continue
                choice = next(iter(choices))
            answers.append(Answer(person, qid, lang, choice))
    if skipped:
        out.diags.append(warning("W901", f"{skipped} row(s) skipped: unfinished attempts, empty rows or averages", Location.of(path)))
    if out.failed:
        return ReadResult([], out.finish(), "moodle-csv")
    if not answers:
        out.error("E908", "the report holds no finished attempt with answers", 1, 1)
    return ReadResult(answers, out.finish(), "moodle-csv")


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
    import defusedxml.ElementTree as SafeET
    from defusedxml import DefusedXmlException
    from xml.etree.ElementTree import ParseError

    out = _Collector(path)
    try:
        root = SafeET.fromstring(text.encode("utf-8"), forbid_dtd=True, forbid_entities=True, forbid_external=True)
    except DefusedXmlException as exc:
        out.error("E903", f"refused: the XML declares a DTD or entities ({type(exc).__name__}); QTI results never need one", *_find_offset(text, "<!DOCTYPE", "<!ENTITY"))
        return ReadResult([], out.finish(), "")
    except ParseError as exc:
        line, col = getattr(exc, "position", (1, 0))
        out.error("E903", f"XML syntax error: {str(exc).split(':')[0]}", line, col + 1)
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
        if len(values) > 1:
            out.error("E905", f"item {identifier}: {len(values)} responses to a single-choice question", *where)
            continue
        choice = None
        if values:
            value = values[0]
            oid = value[len("choice_"):] if value.startswith("choice_") else value
            if oid not in bank.items[qid].options:
                out.error("E905", f"item {identifier}: response {_shown(value)} is no option of {qid} (options {', '.join('choice_' + o for o in bank.items[qid].options)})", *where)
                continue
            choice = oid
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
        if choice not in bank.items[qid].options:
            out.error("E905", f"{at}: choice {_shown(choice)} is no option of {qid} ({', '.join(bank.items[qid].options)})", 1, 1)
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
