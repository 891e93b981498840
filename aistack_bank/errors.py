"""Diagnostics and the project's error types: every user mistake becomes one of these.

A rule that finds a problem returns a :class:`Diagnostic` (located, with a code of
:data:`CODES`); work that cannot go on raises a :class:`BankError` (or :class:`UsageError` for
a flag the command cannot use). The command line maps each error type to its exit code in one
table (``cli.ERROR_EXITS``).
"""

from __future__ import annotations

import enum
import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path


@dataclass(frozen=True, order=True)
class Location:
    """A 1-based position in a file; ``line``/``column`` are 0 when unknown."""

    path: str
    line: int = 0
    column: int = 0

    def __str__(self) -> str:
        if self.line <= 0:
            return self.path
        if self.column <= 0:
            return f"{self.path}:{self.line}"
        return f"{self.path}:{self.line}:{self.column}"

    @classmethod
    def of(cls, path: str | Path, line: int = 0, column: int = 0) -> "Location":
        return cls(display_path(path), line, column)


def display_path(path: str | Path) -> str:
    """The path as the user should see it: relative to the working directory when inside it."""
    return _display_path(str(path), os.getcwd())


@lru_cache(maxsize=1 << 17)  # one entry per file: a 10 000-question bank must fit
def _display_path(path: str, cwd: str) -> str:
    absolute = os.path.abspath(os.path.join(cwd, path))  # string work only: no syscalls per file
    relative = os.path.relpath(absolute, cwd)
    if relative.startswith(".." + os.sep) or relative == "..":
        return Path(path).as_posix()
    return Path(relative).as_posix()


class Severity(str, enum.Enum):
    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True)
class Diagnostic:
    """One problem found in the bank, its catalogs or its checks."""

    severity: Severity
    code: str
    message: str
    location: Location | None = None

    def __str__(self) -> str:
        where = f"{self.location}: " if self.location else ""
        return f"{where}{self.severity.value} {self.code}: {self.message}"

    def sort_key(self) -> tuple:
        loc = self.location or Location("")
        return (loc.path, loc.line, loc.column, self.code, self.message)

    def as_dict(self) -> dict:
        loc = self.location
        return {
            "severity": self.severity.value,
            "code": self.code,
            "message": self.message,
            "path": loc.path if loc else None,
            "line": loc.line if loc and loc.line else None,
            "column": loc.column if loc and loc.column else None,
        }


def error(code: str, message: str, location: Location | None = None) -> Diagnostic:
    assert code in CODES, code
    return Diagnostic(Severity.ERROR, code, message, location)


def warning(code: str, message: str, location: Location | None = None) -> Diagnostic:
    assert code in CODES, code
    return Diagnostic(Severity.WARNING, code, message, location)


# The one table of diagnostic codes, by family; docs/error-codes.md is generated from it
# (`bank codes --markdown`). Errors are E, warnings W; the hundreds digit is the family.
CODES: dict[str, str] = {
    # 0xx  general
    "E000": "a problem without a more specific code (its message says what to do)",
    # 1xx  files and YAML
    "E101": "file cannot be read (missing, a directory, or permission denied)",
    "E102": "file is not valid UTF-8",
    "E103": "file is empty",
    "E104": "file is larger than the size limit",
    "E105": "YAML syntax error",
    "E106": "duplicate key in a mapping",
    "E107": "tab character in indentation",
    "E108": "YAML anchors, aliases, tags or merge keys are not allowed",
    "E109": "text is not in Unicode NFC normal form",
    "E110": "forbidden control or bidirectional-override character",
    "E111": "mixed line endings (CRLF and LF in one file)",
    "E112": "the file must hold exactly one YAML mapping",
    "E113": "nesting deeper than the limit",
    "E114": "merge-conflict marker left in the file",
    "E115": "symbolic link leads outside the project (copy the file in instead)",
    "E116": "text must be on one line (it goes into a line-based format or a comment)",
    "W101": "byte-order mark at the start of the file (ignored)",
    "W102": "CRLF line endings (read as LF)",
    # 13x  starting a project (`bank init`)
    "E131": "the folder for a new bank is not empty (use --force to add to it)",
    "E132": "not a language code (such as fr, pt_BR or zh_CN), or the source language",
    "E133": "project title or category is empty, too long, or holds characters not allowed",
    "E134": "the folder already holds a bank (bank/, translations/, schema/ or exports/)",
    "E139": "`bank init --requirement` is not a requirement, a URL or an existing wheel of aistack-bank",
    "W131": "no plural rule is known for the language; the two-form default was written",
    # 2xx  fields
    "E201": "required field is missing",
    "E202": "unknown field",
    "E203": "field has the wrong type or an invalid value",
    "E204": "identifier has the wrong form",
    "E205": "text is empty or only whitespace",
    "E206": "a numerical question's tolerance (or a near miss's) is negative",
    "E207": "a numerical question has no check (its check script is mandatory)",
    "E208": "a credit is out of range (near miss: 0 to below 1; accepted answer: above 0 to 1)",
    "E209": "a kind's list is empty or out of range (correct options, accepted answers, 2–12 pairs)",
    "E210": "a numerical question's number is not finite (.inf or .nan)",
    # 3xx  the bank as a whole, answer cues and content lints
    "E301": "question id does not match its file name",
    "E302": "question id used by more than one file",
    "E303": "option ids are not unique",
    "E304": "the key does not name exactly one existing option",
    "E305": "two options have the same text",
    "E306": "topic lists a question that has no file",
    "E307": "question file is not listed in the topic",
    "E308": "topic lists a question more than once",
    "E309": "tag is not in the topic's vocabulary",
    "E310": "question file name is not `<id>-<slug>.yaml`",
    "E311": "topic file is missing",
    "E312": "the bank has the single-topic layout (run `bank migrate`)",
    "E313": "question is listed in more than one topic",
    "E314": "topic names a category that is not in categories.yaml",
    "E315": "two topics have the same id",
    "E316": "two categories have the same id",
    "E317": "topic folder name differs from the topic id",
    "E318": "question file lives in another topic's folder than the topic that lists it",
    "E319": "the bank folder or its categories.yaml is missing, or a topic operation (migrate, new, rename) is refused",
    "E320": "a multiple-response question's `correct` names an id that is not an option",
    "E321": "a multiple-response question's `correct` lists an option twice",
    "E322": "a numerical question lists a unit name twice",
    "E323": "a numerical question's first unit (the answer's own) does not have multiplier 1",
    "E324": "a numerical near-miss range overlaps the right range (it would be marked right)",
    "E325": "a short-answer question has no accepted answer with full credit",
    "E326": "a short-answer question accepts the same answer twice (as answers are compared: case, spaces, quotes, hyphens, diacritics)",
    "E347": "a short-answer question's accepted answer is only wildcards (`*`): it would accept anything",
    "E327": "a matching question's pair and distractor ids are not all different",
    "E328": "a matching question's distractor equals an answer, or two of its answers differ only in case or spacing",
    "E329": "a matching question has two equal prompts",
    "W301": "correct answers are concentrated on one position",
    "W302": "the correct option is too often the longest",
    "W303": "category has no topic",
    "W310": "a question has no explanation (general feedback)",
    "W320": "a text refers to an option by its letter or position (options are shuffled)",
    "W321": "a text refers to another question (questions are drawn at random)",
    "W322": "a text gives away the answer of another question: its words, its figure, most of its content words, or its declared key terms (answer leak)",
    "W323": "a multiple-response question has every option correct, or exactly one (a single-choice question)",
    "W324": "a true-false stem ends with a question mark (it should be a statement)",
    "W325": "a true-false question gives the same feedback for both answers",
    "W326": "the stem gives the answer away (a short answer or the numerical value in the stem)",
    "W347": "a short-answer question's accepted answer is already accepted, with as much credit, by another answer's wildcard",
    "W327": "a numerical unit's multiplier disagrees with what the unit is (MB is 0.001 GB)",
    "E371": "an accepted answer, a unit, a near miss or a topic's key point has no id (run `bank migrate`)",
    "E372": "two accepted answers, units or near misses of a question, or two key points of a topic, have the same id",
    "E380": "a topic's question group names a question the topic does not list, or one already in another group",
    # 4xx  numeric assertion checks
    "E401": "check script is outside the check language",
    "E402": "check script exceeds a limit (size, depth, exponent, steps)",
    "E403": "an assertion in a check script failed",
    "E404": "the correct option does not show the checked value",
    "E405": "a wrong option shows the checked value",
    "E406": "check script calls answer()/answer_formula() wrongly",
    "E407": "a numerical key is not within its tolerance of the value the check computes",
    "E408": "the unit of a numerical check's answer() is not the question's unit",
    "E409": "a translated unit of a numerical question is another unit than the English one",
    # 5xx  translations: catalogs, glossary, typography, the site interface
    "E501": "catalog (.po) cannot be read or has a syntax error",
    "E502": "numbers or units differ between the English text and its translation",
    "E503": "markup or placeholders differ between the English text and its translation",
    "E504": "translation is fuzzy in a key-bearing field (stem or option)",
    "E505": "catalog header is missing or invalid (Language, Plural-Forms, charset)",
    "E506": "duplicate entry in a catalog",
    "E507": "formula tokens differ between the English text and its translation",
    "E508": "translation was made for another English text (catalog not updated)",
    "E509": "translation is missing where a localized export needs it",
    "E510": "translation is empty or only whitespace",
    "E511": "translation breaks a rule of its field (the rules of the English text)",
    "E512": "a translation makes two texts of a question equal that must differ (options, match answers or prompts, accepted answers, units)",
    "E520": "the terminology glossary (translations/glossary.yaml) cannot be read or is invalid",
    "E530": "msgctxt shared by entries with different msgids (each field has one msgctxt)",
    "E531": "plural entry's msgstr[N] forms disagree with the header's nplurals",
    "E540": "catalog string holds a forbidden character or is not in NFC",
    "E541": "catalog file name is not a language code (BCP 47 or POSIX locale)",
    "E542": "a translated catalog entry that a merge of the catalogs (`bank i18n update`, `bank migrate`, `bank topic rename`) cannot keep (no msgctxt, or plural forms): it is refused, nothing written, rather than dropped",
    "W501": "translation is missing",
    "W502": "translation is fuzzy (out of date with the English)",
    "W503": "catalog entry no longer exists in the template (run `bank i18n update`)",
    "W504": "catalog is out of date with the template (run `bank i18n update`)",
    "W505": "a translated catalog entry no text of the bank reads and `bank i18n update` cannot keep (no msgctxt, or plural forms): the update will refuse it (E542) until its translation is moved to its text's entry or it is deleted",
    "W520": "French typography: ordinary or missing space before ? ! : ; » or after « (run `bank i18n fix-typography`)",
    "W528": "French typography: a number and its unit not joined by a no-break space (U+00A0), or a number of five digits or more not grouped by narrow no-break spaces (U+202F)",
    "W521": "translation lacks the glossary's required term for an English term it translates",
    "W522": "translation uses a variant the glossary forbids",
    "W551": "practice-site interface strings are not translated; shown in English",
    "W552": "no text of the language is translated yet; it is left out of the exports",
    "W558": "the language is in progress (translated below the `ready` percentage of bank.toml); it is left out of the exports",
    "W559": "the language is exported with some texts in English (fallback), marked as English where the format can say so",
    # 6xx  exports
    "E601": "unknown export or import format",
    "E602": "export failed",
    "E603": "an output folder is, or passes through, a symbolic link",
    "E604": "another build is writing the same exports folder, or another command (an import, a build, `bank new`) is using the bank",
    "E605": "an output file cannot be written (permissions, disk full, read-only)",
    "E606": "an export would hold a character its format cannot carry",
    "W651": "a question's kind cannot be carried by the Canvas QTI 1.2 export; it is left out",
    "W652": "a question's kind cannot be carried by the Common Cartridge export; it is left out",
    "W653": "the Aiken export loses the explanations and per-option feedback",
    "W654": "a question cannot be carried by Aiken (kind, line break, or a stem Aiken would misread); it is left out",
    "W669": "a question's kind cannot be carried by the format; it is left out",
    "W660": "QTI and Canvas have no units: a numerical question's prompt names the unit to answer in, and other units are not accepted",
    "W661": "the format reads numbers with a decimal point only: a learner's decimal comma (3,5) is not accepted",
    "W662": "the exporter has no words for the language (True/False, the unit sentence, the model-answer label): English words are used",
    "W663": "Canvas scores part of a question otherwise than the bank (partial credit, case, all-or-nothing)",
    "W664": "Common Cartridge's QTI profile, or Moodle's restore of it, changes part of a question (scoring, case, feedback, an essay's model answer)",
    "W655": "Moodle has no all-or-nothing multiple response: the question is exported with partial grades",
    "W656": "a credit is not one of the grades Moodle accepts; it is exported as the nearest one",
    "W657": "GIFT cannot carry part of a question (units, case sensitivity, an answer with \"->\")",
    # 7xx  imports
    "E701": "import file cannot be read",
    "E702": "import file is not in the stated format, or is unsafe",
    "E703": "the bank cannot take imported questions (its topic has errors)",
    "E704": "import file holds more questions than the limit",
    "E705": "import file cannot be decoded in its encoding (or the --encoding is unknown)",
    "E721": "import archive is unsafe (zip bomb, too many members, a path escaping the folder, a link)",
    "E722": "import package has no usable manifest or names a file it does not hold",
    "E723": "a QTI file in the package is not well-formed, declares a DTD or entities, or is no QTI",
    "E724": "Aiken file is malformed (an option or answer line out of place)",
    "E725": "text2qti file is malformed (an option, feedback or answer line out of place)",
    "W741": "an import was interrupted before it changed the bank and left its staging folder (`bank import --recover` removes it)",
    "E742": "an import was interrupted while it wrote the bank (`bank import --recover` completes it)",
    "E750": "a translation makes an answer two matching prompts share into two different answers",
    "W751": "Moodle takes two different answers of a matching question for one (two numeric texts of one value, such as 1.0 and 1)",
    "W752": "every prompt of a matching question has the same answer and there is no distractor: one answer to choose",
    # 8xx  LMS targets: export settings and what each LMS keeps of an import (`bank lint --target`)
    "E801": "export settings (bank.toml [export] or a flag) are invalid",
    "W801": "an export option cannot be carried by this format; the LMS applies its own default",
    "W802": "Moodle cuts a question or category name longer than 255 characters",
    "W803": "two languages share one category title: imported into one course, idnumbers are dropped",
    "W804": "Moodle shows or stores a plain-text field (name, category) differently from the bank",
    "W805": "the Moodle files cannot all be imported into one course (duplicate idnumbers)",
    "W806": "Moodle reads the GIFT file differently from the Moodle XML file (GIFT special characters)",
    "W807": "Canvas's quiz import loses or misreads part of a quiz or question (settings, key, feedback)",
    "W808": "a QTI test player scores a choice wrongly, hides feedback, or lists identifiers for titles",
    "W809": "a QTI identifier or file name collides between languages or breaks OpenOlat's rules",
    # 90x  item analysis (`bank analyze`): reading learners' results
    "E901": "results file cannot be read (missing, too large, binary or not UTF-8)",
    "E902": "results file is in no known format (Moodle responses CSV, QTI assessmentResult, practice-site answers)",
    "E903": "results file is malformed or unsafe (header, syntax, DTD or entities)",
    "E904": "results name a question or language that is not in the bank",
    "E905": "a response is no response to its question (no option of it, not a number, an unknown unit)",
    "E906": "results cannot be mapped unambiguously (question, option or language)",
    "E907": "results file belongs to another bank",
    "E908": "nothing to analyze: no usable responses",
    "W901": "results rows or records skipped (unfinished attempts, empty rows)",
    # 91x  item analysis: findings about questions, at the question's YAML line
    "W911": "possible miskey: the upper group prefers a distractor to the key",
    "W912": "a distractor almost nobody chooses",
    "W913": "negative discrimination: stronger learners get the question wrong more often",
    "W914": "near-zero discrimination: the question does not separate stronger from weaker learners",
    "W915": "question is too easy",
    "W916": "question is too hard",
    "W917": "facility differs between languages more than chance allows (check the translation)",
}


class BankError(Exception):
    """A problem the user can fix, optionally located; prints as ``path:line:col: message``."""

    code = "E000"

    def __init__(self, message: str, location: Location | None = None, code: str | None = None):
        super().__init__(message)
        self.message = message
        self.location = location
        if code:
            self.code = code

    def __str__(self) -> str:
        return f"{self.location}: {self.message}" if self.location else self.message

    def diagnostic(self) -> Diagnostic:
        return Diagnostic(Severity.ERROR, self.code, self.message, self.location)


class CheckError(BankError):
    """Raised inside the check language; the caller adds the location."""

    code = "E401"


class UnknownFormatError(BankError):
    code = "E601"

    def __init__(self, name: str, known: list[str]):
        super().__init__(f"unknown format {name!r}; known formats: {', '.join(known)}")


class ExportError(BankError):
    code = "E602"


class DiagnosticsError(BankError):
    """Work refused because the bank has errors; carries them all."""

    def __init__(self, diagnostics: list[Diagnostic], what: str = "the bank has errors"):
        super().__init__(what)
        self.diagnostics = diagnostics


class SettingsError(BankError):
    """`bank.toml`'s export settings are invalid (read like the flags: exit 2)."""

    code = "E801"


class InitError(Exception):
    """`bank init` refused; ``diagnostics`` say why (nothing was written)."""

    def __init__(self, diagnostics: list[Diagnostic]):
        super().__init__("; ".join(d.message for d in diagnostics))
        self.diagnostics = diagnostics


class UsageError(Exception):
    """A flag or argument the command cannot use (an unknown language, a bad value): exit 2.

    Not located in a file, so it carries no diagnostic code; the message names the flag."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


PATH_ONLY_CODES = ("E101", "E103", "E104", "E115", "E311", "E312", "E541", "E603", "E604", "E605", "E701", "E703", "E704", "W741", "E742", "W301", "W302", "W501", "W504", "W552", "W558", "W559")
"""Codes about a whole file, folder or language, reported with the path alone (or no line)."""


def render_code_table() -> str:
    """docs/error-codes.md, generated from :data:`CODES` (`bank codes --markdown`)."""
    lines = [
        "# Diagnostic codes",
        "",
        "Every problem `bank validate`, `bank check`, the `i18n` commands and the exports report carries one",
        "of these codes, printed as `path:line:col: error E123: message` (or `warning W123`). Errors make",
        "the command exit 1; warnings do so only with `--strict`. Generated by `bank codes --markdown`.",
        "",
        "Problems that concern a whole file or folder carry the path alone (`path: error E104: …`):",
        f"{', '.join(PATH_ONLY_CODES)}; also E501 and E702 when the file as a whole cannot be read,",
        "and E504, E509 and W501 when a catalog has no entry at all for a text. E601, E602 and E606 name",
        "the format and the text's key (`q001.stem (fr)`) instead of a file position. Every other",
        "diagnostic carries a line and a column.",
        "",
        "| code | meaning |",
        "| --- | --- |",
    ]
    lines += [f"| {code} | {meaning} |" for code, meaning in sorted(CODES.items())]
    return "\n".join(lines) + "\n"
