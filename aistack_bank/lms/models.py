"""Small models of what Moodle's and Canvas's importers and a QTI test player do with a file.

Each function follows the named importer code line by line for the parts that decide what
survives an import; everything else (files, HTML cleaning, question types we never write) is
left out. Sources:

- Moodle 4.5 ``question/format.php`` (``create_category_path``, ``split_category_path``,
  ``clean_question_name``, the idnumber check in ``importprocess``), ``lib/moodlelib.php``
  (``clean_param(PARAM_TEXT)``), ``question/format/xml/format.php`` and
  ``question/format/gift/format.php`` (``readquestions``, ``readquestion``,
  ``escapedchar_pre``/``_post``, ``extract_idnumber_and_tags_from_comment``);
- Canvas ``gems/plugins/qti_exporter/lib/qti/`` (``assessment_item_converter.rb``,
  ``choice_interaction.rb``, ``assessment_test_converter.rb``, ``converter.rb``), and what its
  Classic Quizzes import keeps of its own QTI 1.2 dialect;
- Moodle 4.5 ``backup/converter/imscc11/lib.php``, ``backup/cc/entity11.quiz.class.php`` and
  ``backup/cc/sheets/`` (the restore of a Common Cartridge 1.1);
- QTI 2.1/3.0 response processing and ``itemSessionControl`` (``showFeedback`` defaults to false).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from xml.etree.ElementTree import Element

from ..readers import gift as gift_records, moodle_xml as moodle_records
from ..readers.qti import Qti12Condition, Qti12Field, Qti12Mat, item_feedback, items, manifest_resources, metadata_fields, presentations, qti_name, response_conditions, response_labels, responses
from ..readers.xml import children, descendants, iterparse_own, local, parse_own, text_of

MOODLE_NAME_MAX = 255
"""``question.name`` and ``question_categories.name`` are char(255); longer names are cut."""

_MULTILANG_SPAN = re.compile(r'<span lang="[a-zA-Z0-9_-]+" class="multilang">[^<]*</span>')


def parse_xml(data: bytes) -> Element:
    """The root of an exported file (entities refused)."""
    return parse_own(data)


# --- Moodle ---------------------------------------------------------------------------------

def moodle_param_text(value: str) -> str:
    """``clean_param($value, PARAM_TEXT)``: multilang spans are kept when every tag is one; else
    every tag is stripped (``strip_tags``). Entities are left as they are, so ``&#x27;`` is shown
    literally wherever Moodle prints the field as text."""
    if "</span>" in value and "<" not in _MULTILANG_SPAN.sub("", value):
        return value
    return re.sub(r"<[^\s<>][^>]*>?", "", value)


def moodle_clean_question_name(name: str) -> tuple[str, bool]:
    """``qformat_default::clean_question_name``: the name Moodle stores, and whether it was cut."""
    cleaned = moodle_param_text(name).strip()
    if len(cleaned) <= MOODLE_NAME_MAX:
        return cleaned, False
    return cleaned[: MOODLE_NAME_MAX - 4].rsplit(" ", 1)[0] + "...", True


def moodle_split_category_path(path: str) -> list[str]:
    """``split_category_path``: split on single slashes; ``//`` is a literal slash."""
    return [moodle_param_text(part.replace("//", "/").strip()) for part in re.split(r"(?<!/)/(?!/)", path)]


ENTITY = re.compile(r"&(?:#[0-9]+|#x[0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);")
"""An HTML character reference; in a plain-text field Moodle shows it as typed."""


@dataclass
class MoodleQuestion:
    name: str
    """The name as written in the file (after XML or GIFT unescaping)."""
    idnumber: str
    tags: list[str]
    category: list[str]
    """The category path the question goes into (``$course$``/``top`` first)."""
    answers: list[tuple[str, float, str]] = field(default_factory=list)
    """(text, fraction, feedback) per answer."""
    questiontext: str = ""
    generalfeedback: str = ""
    line: int = 0
    qtype: str = "multichoice"
    """Moodle's question type (``multichoice``, ``truefalse``, ``numerical``, ``shortanswer``,
    ``match``, ``essay``, …), as the importer decides it."""
    single: bool = True
    """``multichoice``: one answer (``trans_single``) or several."""
    tolerances: list[float] = field(default_factory=list)
    """``numerical``: each answer's tolerance (absolute: Moodle's ``nominal`` type)."""
    units: list[tuple[str, float]] = field(default_factory=list)
    """``numerical``: (unit name, multiplier), the answer's unit first; GIFT has none."""
    unitgradingtype: int = 0
    showunits: int | None = None
    usecase: bool = False
    """``shortanswer``: whether case matters."""
    subquestions: list[tuple[str, str]] = field(default_factory=list)
    """``match``: (text, answer) per subquestion; an empty text with an answer is a distractor."""

    def match_choices(self) -> tuple[list[str], dict[int, int]]:
        """``match``: the answers Moodle offers and, per subquestion with a text, the index of its
        right one (``qtype_match::initialise_question_instance``): an answer is looked up among
        those already offered with ``array_search``, PHP's loose ``==``, so equal texts are one
        answer, and so are two numeric strings of one value (``1.0`` and ``1``)."""
        choices: list[str] = []
        right: dict[int, int] = {}
        for index, (text, answer) in enumerate(self.subquestions):
            key = next((n for n, offered in enumerate(choices) if php_loose_equal(offered, answer)), None)
            if key is None:
                key = len(choices)
                choices.append(answer)
            if text != "":
                right[index] = key
        return choices, right

    def unlisted_fractions(self) -> list[float]:
        """Grades ``match_grade_options()`` refuses (the import fails for this question under the
        default "Error if grade not listed"); true-false skips the check."""
        if self.qtype not in ("multichoice", "numerical", "shortanswer"):
            return []
        return [f for _, f, _ in self.answers if not any(abs(abs(f) - g) < MOODLE_FRACTION_MATCH for g in MOODLE_FRACTIONS)]


_PHP_NUMERIC = re.compile(r"[ \t\n\r\v\f]*[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?[ \t\n\r\v\f]*")


def php_loose_equal(a: str, b: str) -> bool:
    """PHP 8's ``$a == $b`` for two strings: as numbers when both are numeric strings, else as strings."""
    if _PHP_NUMERIC.fullmatch(a) and _PHP_NUMERIC.fullmatch(b):
        return float(a) == float(b)
    return a == b


MOODLE_FRACTIONS = (1.0, 0.9, 0.8333333, 0.8, 0.75, 0.7, 0.6666667, 0.6, 0.5, 0.4, 0.3333333, 0.3, 0.25, 0.2,
                    0.1666667, 0.1428571, 0.125, 0.1111111, 0.1, 0.05, 0.0)
"""``question_bank::fraction_options_full()`` (Moodle 4.5 ``question/engine/bank.php``); the
negatives are accepted too (``match_grade_options()`` in ``lib/questionlib.php``)."""
MOODLE_FRACTION_MATCH = 1e-5


@dataclass
class MoodleCategory:
    path: list[str]
    idnumber: str
    line: int = 0


@dataclass
class MoodleFile:
    categories: list[MoodleCategory]
    questions: list[MoodleQuestion]


def read_moodle_xml(data: bytes) -> MoodleFile:
    """The questions and categories ``qformat_xml::readquestions`` finds, with their lines."""
    stream = moodle_records.Streamed(data)
    categories, questions = [], []
    for entry in moodle_xml_entries(stream):
        (categories if isinstance(entry, MoodleCategory) else questions).append(entry)
    if not stream.lines_told:  # (:func:`~..readers.moodle_xml.read_own`: no line told)
        for entry in [*categories, *questions]:
            entry.line = 0
    return MoodleFile(categories, questions)


def moodle_xml_entries(entries: Iterable) -> Iterator[MoodleCategory | MoodleQuestion]:
    """:func:`read_moodle_xml`'s categories and questions one at a time, in file order, from the
    records of a Moodle XML file (:class:`~..readers.moodle_xml.Streamed`, or a file's
    ``entries``): each question in the category last named before it."""
    current = ["$course$", "top"]
    for entry in entries:
        if isinstance(entry, moodle_records.Category):
            path = moodle_split_category_path(entry.path.strip())
            current = path
            yield MoodleCategory(path, (entry.idnumber or "").strip(), entry.line)
            continue
        qtype = {"matching": "match", "cloze": "multianswer"}.get(entry.type, entry.type)
        answers, tolerances = [], []
        for answer in entry.answers:
            text = answer.text
            if qtype in ("truefalse", "numerical", "shortanswer"):  # import_answer(..., false): plain text, trimmed
                text = text.strip()
            answers.append((text, float(answer.fraction or 0) / 100, answer.feedback.text))
            tolerances.append(float(answer.tolerance or 0))
        if qtype == "truefalse":  # Moodle keys the answers on their texts "true" and "false"
            answers = sorted(answers, key=lambda a: a[0] != "true")
        units = [(u.name.strip(), float(u.multiplier or 1)) for u in entry.units]
        settings = entry.settings
        yield MoodleQuestion(
            name=entry.name,
            idnumber=(entry.idnumber or "").strip(),
            tags=list(entry.tags),
            category=current,
            answers=answers,
            questiontext=entry.questiontext.text,
            generalfeedback=entry.generalfeedback.text,
            line=entry.line,
            qtype=qtype,
            single=(settings.get("single") or "true").strip().lower() in ("true", "1"),
            tolerances=tolerances if qtype == "numerical" else [],
            units=units,
            unitgradingtype=int(settings.get("unitgradingtype") or 0),
            showunits=None if "showunits" not in settings else int(settings["showunits"]),
            usecase=(settings.get("usecase") or "0").strip() in ("1", "true"),
            subquestions=[(s.text.text, s.answer.strip()) for s in entry.subquestions],
        )


_GIFT_ESCAPES = gift_records.Escapes(moodle=True)
"""``escapedchar_pre`` and ``escapedchar_post``, with Moodle's own placeholders."""
_gift_post = _GIFT_ESCAPES.restore


def _gift_text(text: str) -> str:
    return _gift_post(gift_records.format_prefix(text)[1]).strip()


_GIFT_ID = re.compile(r"\[id:((?:\\]|[^\]\x00-\x1f\x7f])+)]")
_GIFT_TAG = re.compile(r"\[tag:((?:\\]|[^\]<>`\x00-\x1f\x7f])+)]")


def gift_idnumber_and_tags(comments: str) -> tuple[str, list[str]]:
    """``extract_idnumber_and_tags_from_comment``: the first ``[id:…]`` and every ``[tag:…]``."""
    found = _GIFT_ID.search(comments)
    idnumber = found.group(1).strip().replace("\\]", "]") if found else ""
    return idnumber, [t.strip().replace("\\]", "]") for t in _GIFT_TAG.findall(comments)]


def read_gift(text: str) -> MoodleFile:
    """What ``qformat_gift`` reads: blocks between blank lines, ``//`` lines as the block's comment."""
    categories, questions = [], []
    for entry in gift_entries(text):
        (categories if isinstance(entry, MoodleCategory) else questions).append(entry)
    return MoodleFile(categories, questions)


def gift_entries(text: str) -> Iterator[MoodleCategory | MoodleQuestion]:
    """:func:`read_gift`'s categories and questions one at a time, in file order."""
    current = ["$course$", "top"]
    for block in gift_records.iter_blocks(text):
        first = block.first
        comments = "".join(item.strip() + "\n" for item in block.comments)
        body = _GIFT_ESCAPES.protect("\n".join(" " if block.is_comment(item) else item.strip() for _, item in block.lines).strip())
        if not body:
            continue
        if body.startswith("$CATEGORY:"):
            path = moodle_split_category_path(body[10:].strip())  # escapedchar_post is never applied here
            current = path
            yield MoodleCategory(path, "", first)
            continue
        name = ""
        if body.startswith("::") and "::" in body[2:]:
            end = body.index("::", 2)
            name, body = _gift_post(body[2:end]), body[end + 2:].strip()
        start, finish = body.find("{"), body.find("}")
        answer_text = body[start + 1:finish].strip() if start >= 0 and finish >= 0 else ""
        question_text = body[:start] if start >= 0 else body
        general = ""
        if "####" in answer_text:
            cut = answer_text.rindex("####")
            answer_text, general = answer_text[:cut].strip(), answer_text[cut + 4:]
        question = MoodleQuestion(name=name, idnumber="", tags=[], category=current, questiontext=_gift_text(question_text.strip()),
                                  generalfeedback=_gift_text(general.strip()), line=first)
        question.idnumber, question.tags = gift_idnumber_and_tags(comments)
        _gift_answers(question, answer_text)
        yield question


_GIFT_WEIGHT = re.compile(r"^%\-*([0-9]{1,2})\.?([0-9]*)%")


def _gift_weight(answer: str, default: float) -> tuple[float, str]:
    """``answerweightparser``: the text between the percent signs, over 100."""
    if not _GIFT_WEIGHT.match(answer):
        return default, answer
    answer = answer[1:]
    end = answer.index("%")
    return float(answer[:end]) / 100, answer[end + 1:]


def _gift_answers(q: MoodleQuestion, answer_text: str) -> None:
    """``readquestion``'s typing and answers (descriptions and essays get none)."""
    if answer_text == "":
        q.qtype = "essay"
    elif answer_text[0] == "#":
        q.qtype = "numerical"
        rest = answer_text[1:]
        wrong = None
        if "~" in rest:
            rest, wrong = rest[:rest.index("~")], rest[rest.index("~"):]
        for piece in gift_records.explode(rest, "="):
            weight, piece = _gift_weight(piece.strip(), 1.0)
            answer, _, feedback = piece.partition("#")
            answer = _gift_text(answer.strip())
            if ".." in answer[1:]:
                low, high = answer.split("..", 1)
                value, tolerance = (float(low) + float(high)) / 2, (float(high) - float(low)) / 2
                answer = repr(value)
            elif ":" in answer[1:]:
                answer, tol = answer.split(":", 1)
                tolerance = float(tol.strip())
                answer = answer.strip()
            else:
                tolerance = 0.0
            q.answers.append((answer, weight, _gift_text(feedback.strip())))
            q.tolerances.append(tolerance)
        if wrong:
            q.answers.append(("*", 0.0, _gift_text(wrong.partition("#")[2].strip())))
            q.tolerances.append(0.0)
    elif "~" in answer_text:
        q.qtype, q.single = "multichoice", "=" in answer_text
        for piece in gift_records.explode(answer_text.replace("=", "~="), "~"):
            piece = piece.strip()
            if piece.startswith("="):
                weight, piece = 1.0, piece[1:]
            else:
                weight, piece = _gift_weight(piece, 0.0)
            answer, _, feedback = piece.partition("#")
            q.answers.append((_gift_text(answer.strip()), weight, _gift_text(feedback.strip())))
    elif "=" in answer_text and "->" in answer_text:
        q.qtype = "match"
        for piece in gift_records.explode(answer_text, "="):
            piece = piece.strip()
            marker = piece.find("->")
            q.subquestions.append((_gift_text(piece[:marker].strip()), _gift_post(piece[marker + 2:]).strip()))
    else:
        check = answer_text.split("#", 1)[0].strip() if answer_text.find("#") > 0 else answer_text
        if check in ("T", "TRUE", "F", "FALSE"):
            q.qtype = "truefalse"
            bits = answer_text.split("#", 2) + ["", ""]
            wrong, right = _gift_text(bits[1].strip()), _gift_text(bits[2].strip())
            truth = check in ("T", "TRUE")
            q.answers = [("true", 1.0 if truth else 0.0, right if truth else wrong), ("false", 0.0 if truth else 1.0, wrong if truth else right)]
        else:
            q.qtype = "shortanswer"
            for piece in gift_records.explode(answer_text, "="):
                weight, piece = _gift_weight(piece.strip(), 1.0)
                answer, _, feedback = piece.partition("#")
                q.answers.append((_gift_text(answer.strip()), weight, _gift_text(feedback.strip())))


class MoodleImportAborted(Exception):
    """The database refused a row: Moodle shows an error page and the import saves nothing."""


@dataclass
class MoodleImport:
    dropped_idnumbers: list[str] = field(default_factory=list)
    cut_names: list[str] = field(default_factory=list)
    categories: list[tuple[str, ...]] = field(default_factory=list)


@dataclass
class MoodleCourse:
    """One course's question-bank context, as the tables ``question_categories`` and
    ``question_bank_entries`` constrain it: category idnumbers unique per context
    (``mdl_quescate_conidn_uix``), question idnumbers unique per category."""

    categories: dict[tuple[str, ...], str] = field(default_factory=dict)
    """Category path (below ``top``) → its idnumber ('' for none)."""
    questions: dict[tuple[str, ...], dict[str, str]] = field(default_factory=dict)
    """Category path → {idnumber: question name} of the questions it holds."""

    def import_file(self, moodle_file: MoodleFile) -> MoodleImport:
        """Import with *Get category from file* ticked; raises :class:`MoodleImportAborted` like the
        database would, leaving the course unchanged (the import runs in one transaction)."""
        categories = dict(self.categories)
        questions = {k: dict(v) for k, v in self.questions.items()}
        result = MoodleImport()
        info = {tuple(c.path): c.idnumber for c in moodle_file.categories}
        for path, idnumber in info.items():
            names = [n for n in path if n not in ("$course$", "top")]
            for depth in range(1, len(names) + 1):
                key = tuple(names[:depth])
                wanted = idnumber if depth == len(names) else ""
                if key in categories:
                    if wanted and categories[key] == "":
                        self._claim(categories, wanted)
                        categories[key] = wanted
                    continue
                if wanted:
                    self._claim(categories, wanted)
                categories[key] = wanted
                if len(names[depth - 1]) > MOODLE_NAME_MAX:
                    result.cut_names.append(names[depth - 1])
            result.categories.append(tuple(names))
        for q in moodle_file.questions:
            key = tuple(n for n in q.category if n not in ("$course$", "top"))
            held = questions.setdefault(key, {})
            name, cut = moodle_clean_question_name(q.name)
            if cut:
                result.cut_names.append(q.name)
            if q.idnumber and q.idnumber in held:
                result.dropped_idnumbers.append(q.idnumber)
            elif q.idnumber:
                held[q.idnumber] = name
        self.categories, self.questions = categories, questions
        return result

    @staticmethod
    def _claim(categories: dict[tuple[str, ...], str], idnumber: str) -> None:
        if idnumber in categories.values():
            raise MoodleImportAborted(f'duplicate key value violates unique constraint "mdl_quescate_conidn_uix" (idnumber {idnumber!r})')


# --- Canvas ---------------------------------------------------------------------------------

CANVAS_INCORRECT = re.compile(r"wrong|incorrect|(_IC$)", re.I)
CANVAS_CORRECT = re.compile(r"correct|(_C$)", re.I)
CANVAS_GENERAL = re.compile(r"general_|_all", re.I)
CANVAS_NOT_PER_ANSWER = re.compile(r"general_|_all|wrong|incorrect|correct|(_IC$)|(_C$)", re.I)


def canvas_recognises_qti2(manifest: Element) -> bool:
    """``Qti::Converter``: a QTI 2.x package is one whose manifest schema says so."""
    return any((s.text or "").strip().startswith("QTIv2") for s in descendants(manifest, "schema"))


def _canvas_feedback_id(condition: Element) -> str | None:
    """``get_feedback_id``: the fixed identifier a rule adds to FEEDBACK (with FEEDBACK itself)."""
    for setter in descendants(condition, "setOutcomeValue"):
        if setter.get("identifier") != "FEEDBACK":
            continue
        if not any(v.get("identifier") == "FEEDBACK" for v in descendants(setter, "variable")):
            return None
        value = next((b for b in descendants(setter, "baseValue") if b.get("baseType") == "identifier"), None)
        ident = (value.text or "").strip() if value is not None else None
        return None if ident is None or CANVAS_NOT_PER_ANSWER.search(ident) else ident
    return None


def canvas_read_choice_item(data: bytes) -> dict:
    """``ChoiceInteraction#parse_question_data`` for a single-choice QTI 2.1 item."""
    doc = parse_xml(data)
    question: dict = {"question_name": doc.get("title"), "migration_id": doc.get("identifier"), "answers": [],
                      "correct_comments": "", "incorrect_comments": "", "neutral_comments": ""}
    by_id = {}
    for choice in descendants(doc, "simpleChoice"):
        answer = {"migration_id": choice.get("identifier"), "text": " ".join(text_of(choice).split()), "weight": 0, "comments": "", "feedback_id": None}
        question["answers"].append(answer)
        by_id[answer["migration_id"]] = answer
    processing = next(iter(descendants(doc, "responseProcessing")), None)
    for condition in descendants(processing, "responseCondition") if processing is not None else []:
        for branch in [c for c in condition if local(c.tag) in ("responseIf", "responseElseIf")]:
            value = next((b for m in descendants(branch, "match") for b in descendants(m, "baseValue") if b.get("baseType") == "identifier"), None)
            if value is None:
                continue
            answer = by_id.get((value.text or "").strip())
            if answer is None:
                continue
            answer["weight"] = _canvas_weight(branch)
            answer["feedback_id"] = answer["feedback_id"] or _canvas_feedback_id(branch)
    for value in descendants(doc, "correctResponse"):
        for v in children(value, "value"):
            if (v.text or "") in by_id:
                by_id[v.text]["weight"] = 100
    feedback_nodes = {}
    for node in descendants(doc, "modalFeedback"):
        first = next((e for e in node.iter() if local(e.tag) == "p"), None)
        first = first if first is not None else next((e for e in node.iter() if local(e.tag) == "div"), None)
        if first is not None:
            feedback_nodes[node.get("identifier")] = first
    for answer in question["answers"]:
        if answer["feedback_id"] in feedback_nodes:
            answer["comments"] = " ".join(text_of(feedback_nodes[answer["feedback_id"]]).split())
        del answer["feedback_id"]
    for node in descendants(doc, "modalFeedback"):  # get_feedback: question-level comments
        ident = node.get("identifier") or ""
        text = " ".join(text_of(node).split())
        if CANVAS_INCORRECT.search(ident):
            question["incorrect_comments"] = text
        elif CANVAS_CORRECT.search(ident):
            question["correct_comments"] = text
        elif CANVAS_GENERAL.search(ident):
            question["neutral_comments"] = text
    return question


def _canvas_weight(branch: Element) -> int:
    for setter in descendants(branch, "setOutcomeValue"):
        if setter.get("identifier") == "SCORE":
            value = next(iter(descendants(setter, "baseValue")), None)
            if value is not None and value.get("baseType") == "float" and float(value.text or 0) > 0:
                return 100
    return 0


def canvas_read_test(data: bytes) -> list[dict]:
    """``AssessmentTestConverter#process_section``: the quiz's entries, text-only ones included."""
    doc = parse_xml(data)
    entries: list[dict] = []

    def section(node: Element) -> None:
        if re.search("true", node.get("visible") or "", re.I) and node.get("title"):
            entries.append({"question_type": "text_only_question", "question_text": node.get("title")})
        for child in node:
            if local(child.tag) == "assessmentSection":
                section(child)
            elif local(child.tag) == "assessmentItemRef":
                entries.append({"question_type": "question_reference", "migration_id": child.get("identifier").replace(":", "-")})

    part = next(iter(descendants(doc, "testPart")), None)
    if part is not None:
        section(part)
    return entries


# --- Canvas Classic Quizzes: the QTI 1.2 package (canvas-qti12) ------------------------------

CANVAS_QTI12_META_NS = "http://canvas.instructure.com/xsd/cccv1p0"


def _qti12_text(mats: tuple[Qti12Mat, ...]) -> str:
    """The first ``material/mattext`` of an element's material (the HTML Canvas keeps, as typed)."""
    return next((m.value for m in mats if m.name == "mattext"), "")


def _qti12_score(condition: Qti12Condition) -> float:
    total = 0.0
    for setter in condition.setvars:
        try:
            total += float(setter.value)
        except ValueError:
            pass
    return total


def canvas_read_qti12_item(item: Element) -> dict:
    """What Canvas's Classic Quizzes import keeps of a Canvas QTI 1.2 item (its own quiz export's
    dialect: ``question_type`` in the item's metadata, ``general_fb`` and ``<answer>_fb``
    feedback), by question type:

    - choices (multiple choice, true/false, multiple answers): weight 100 for an answer that a
      rule setting SCORE above 0 names (outside a ``not``), else 0; a true/false question whose
      answers do not read *true* and *false* is imported as multiple choice;
    - short answer: the texts of the rules setting SCORE above 0, each at 100;
    - numerical: the exact value and the margin of the scoring rule (``varequal``, ``vargte``,
      ``varlte``);
    - matching: for each prompt (a ``response_lid``), the text of the answer its ``Add`` rule names;
    - essay: a text response (``response_str``) read as a short answer, whose answers are the texts
      of the rules setting SCORE above 0; with none it is an essay (``ExtendedTextInteraction``: "a
      short answer question with no answers is an essay question"), and one with answers is a
      short answer whatever its metadata says.

    Feedback: ``general_fb`` is the neutral comment, ``correct_fb`` the correct one and
    ``general_incorrect_fb`` the incorrect one; an answer's comment is the ``itemfeedback`` a
    rule naming it displays, unless its identifier matches Canvas's correct/incorrect/general
    patterns, which file it as the question's comment instead (as for QTI 2.1,
    ``CANVAS_NOT_PER_ANSWER``)."""
    fields = {f.label: f.entry for f in metadata_fields(item)}
    qtype = fields.get("question_type", "")
    feedback = {fb.ident: _qti12_text(fb.material) for fb in item_feedback(item) if fb.placed}
    question: dict = {"migration_id": item.get("ident"), "question_type": qtype, "points_possible": fields.get("points_possible"),
                      "answers": [], "neutral_comments": feedback.get("general_fb", ""), "correct_comments": "", "incorrect_comments": ""}
    conditions = [c for c in response_conditions(item) if c.placed]

    def named(condition: Qti12Condition) -> list[str]:
        """``.//xmlns:varequal[not(parent::xmlns:not)]``."""
        return [t.value for t in condition.tests if t.name == "varequal" and t.parent != "not"]

    def comments_of(value: str) -> str:
        for condition in conditions:
            if value in named(condition):
                for ref in condition.feedback:
                    ref = ref or ""
                    if ref in feedback and not CANVAS_NOT_PER_ANSWER.search(ref):
                        return feedback[ref]
        return ""

    for ident, text in feedback.items():
        ident = ident or ""
        if ident == "general_fb":
            continue
        if CANVAS_INCORRECT.search(ident):
            question["incorrect_comments"] = text
        elif CANVAS_CORRECT.search(ident):
            question["correct_comments"] = text
    scoring = [c for c in conditions if _qti12_score(c) > 0]
    if qtype in ("multiple_choice_question", "true_false_question", "multiple_answers_question"):
        right = {value for c in scoring for value in named(c)}
        for label in response_labels(item):
            ident = label.ident or ""
            question["answers"].append({"migration_id": ident, "text": _qti12_text(label.material), "weight": 100 if ident in right else 0,
                                        "comments": comments_of(ident)})
        if qtype == "true_false_question":
            texts = [a["text"] for a in question["answers"]]
            if not (len(texts) == 2 and re.search("true", texts[0], re.I) and re.search("false", texts[1], re.I)):
                question["question_type"] = "multiple_choice_question"
    elif qtype in ("short_answer_question", "essay_question"):
        for condition in scoring:
            for value in named(condition):
                question["answers"].append({"text": value, "weight": 100, "comments": comments_of(value)})
        question["question_type"] = "short_answer_question" if question["answers"] else "essay_question"
    elif qtype == "numerical_question":
        for condition in scoring:
            exact = [t.value for t in condition.tests if t.name == "varequal"]
            low = [t.value for t in condition.tests if t.name == "vargte"]
            high = [t.value for t in condition.tests if t.name == "varlte"]
            if exact:
                # Canvas keeps the exact value and the margin above it (hi − exact); a range whose
                # bounds are not symmetric around the value shows as another margin below
                value = float(exact[0])
                margin = float(high[0]) - value if high else 0.0
                if low and abs((value - float(low[0])) - margin) > 1e-9:
                    margin = float("nan")
                question["answers"].append({"exact": value, "margin": margin, "weight": 100})
    elif qtype == "matching_question":
        texts = {label.ident: _qti12_text(label.material) for label in response_labels(item)}
        for lid in [r for r in responses(item) if r.name == "response_lid"]:
            match = next((t.value for c in conditions for t in c.tests if t.name == "varequal" and t.respident == lid.ident), None)
            question["answers"].append({"left": _qti12_text(lid.prompt or ()), "right": texts.get(match, "")})
    return question


def canvas_read_qti12_package(members: dict[str, bytes]) -> list[dict]:
    """Each quiz of a Canvas QTI 1.2 package: its ``imsqti_xmlv1p2`` resource, whether the manifest
    resource, the ``assessment ident`` and the ``quiz identifier`` of ``assessment_meta.xml``
    agree (Canvas drops the quiz's settings when they do not), and its questions."""
    manifest = parse_xml(members["imsmanifest.xml"])
    resources = {r.identifier: r for r in manifest_resources(manifest)}
    quizzes = []
    for identifier, resource in resources.items():
        if resource.type != "imsqti_xmlv1p2":
            continue
        href = next(iter(resource.files), "")
        quiz = {"resource": identifier, "file": href, "problems": [], "questions": []}
        deps = [resources.get(ref) for ref in resource.dependencies]
        meta_href = next((d.href for d in deps if d is not None and (d.href or "").endswith("assessment_meta.xml")), None)
        if meta_href is None or meta_href not in members:
            quiz["problems"].append("the quiz resource has no assessment_meta.xml dependency")
        else:
            meta = parse_xml(members[meta_href])
            if meta.get("identifier") != identifier:
                quiz["problems"].append(f"assessment_meta.xml names the quiz {meta.get('identifier')!r}, the manifest {identifier!r}")
        if href not in members:
            quiz["problems"].append(f"the quiz file {href!r} is missing")
            quizzes.append(quiz)
            continue
        assessment: list = []
        quiz["questions"] = [canvas_read_qti12_item(item) for item in _streamed_items(members[href], assessment)]
        ident = assessment[0] if assessment else None
        if ident is None or ident != identifier:
            quiz["problems"].append(f"the assessment ident is {ident!r}, the manifest's {identifier!r}")
        quizzes.append(quiz)
    return quizzes


def _streamed_items(data: bytes, assessment: list):
    """The ``item`` elements of a QTI 1.2 file, as :func:`~..readers.qti.items` finds them (every
    one, the root included, in document order), each complete when it is yielded and emptied
    once the next is asked for (with the items nested in it), so that a quiz of thousands of
    items is never held parsed at once; ``assessment`` gets the ``ident`` of the root's first
    ``assessment`` child (None when that has none; nothing when there is no such child)."""
    depth = 0
    open_items: list[Element] = []
    pending: list[Element] = []
    for event, element in iterparse_own(data, events=("start", "end")):
        if event == "start":
            if depth == 1 and not assessment and local(element.tag) == "assessment":
                assessment.append(element.get("ident"))
            depth += 1
            if local(element.tag) == "item":
                open_items.append(element)
                pending.append(element)
            continue
        depth -= 1
        if open_items and element is open_items[-1]:
            open_items.pop()
            if not open_items:  # (the outermost item closed: it and those in it are complete)
                yield from pending
                pending = []
                element.clear()


# --- QTI response processing and test feedback ------------------------------------------------

def _qti_value(base_type: str | None, text: str | None):
    """A QTI single value as Python: a float, a pair (a tuple) or a string; None if it cannot be
    read as its base type (a float response "3,5")."""
    raw = (text or "").strip()
    if base_type in ("float", "integer"):
        try:
            return float(raw)
        except ValueError:
            return None
    if base_type in ("pair", "directedPair"):
        parts = tuple(raw.split())
        return tuple(sorted(parts)) if base_type == "pair" else parts
    return raw


@functools.lru_cache(maxsize=None)
def _name(tag) -> str:
    """:func:`~..readers.qti.qti_name`, once per tag (an item has a few dozen distinct tags)."""
    return qti_name(tag)


@functools.lru_cache(maxsize=None)
def _kebab(name: str) -> str:
    return re.sub(r"(?<!^)([A-Z])", r"-\1", name).lower()


def _attr(element: Element, name: str) -> str | None:
    """:func:`~..readers.qti.attr`, its QTI 3 spelling of ``name`` made once per name."""
    return element.get(name, element.get(_kebab(name)))


def qti_outcomes(item: Element, response) -> dict[str, object]:
    """Run an item's response processing (the subset the exports use) for one response: an
    identifier or text (single cardinality), a list of them (multiple), or None (no answer).

    The subset: ``match``, ``member``, ``isNull``, ``not``, ``and``, ``gte``/``lte``/``gt``/``lt``,
    ``stringMatch``, ``correct``, ``multiple`` and ``mapResponse`` over a declaration's mapping
    (each distinct value counted once, ``defaultValue`` for an unmapped one, bounds applied)."""
    return QtiProcessing(item).outcomes(response)


class QtiProcessing:
    """An item's response processing, read once and run for as many responses as wanted
    (:meth:`outcomes` gives what :func:`qti_outcomes` gives); what does not depend on the
    response (the declarations, the correct response, the mapping, each modal feedback's text)
    is read at the first call that needs it."""

    def __init__(self, item: Element):
        self.item = item
        self._prepared = False
        self._entries: list | None = None
        self._feedback: list | None = None

    def _prepare(self) -> None:
        item = self.item
        self._defaults = []
        for declaration in [c for c in item if _name(c.tag) == "outcomeDeclaration"]:
            default = next((v for v in declaration.iter() if _name(v.tag) == "value"), None)
            card = declaration.get("cardinality")
            # (a multiple outcome starts as a new empty set at each run)
            self._defaults.append((declaration.get("identifier"), (float(default.text) if default is not None else None) if card == "single" and _attr(declaration, "baseType") == "float" else (set if card == "multiple" else None)))
        declaration = next((c for c in item if _name(c.tag) == "responseDeclaration" and c.get("identifier") == "RESPONSE"), None)
        self._base_type = _attr(declaration, "baseType") if declaration is not None else "identifier"
        self._multiple = declaration is not None and declaration.get("cardinality") in ("multiple", "ordered")
        self._ordered = declaration is not None and declaration.get("cardinality") == "ordered"
        self._correct = [_qti_value(self._base_type, v.text) for c in item.iter() if _name(c.tag) == "correctResponse" for v in c]
        self._mapping = next((m for m in (declaration.iter() if declaration is not None else []) if _name(m.tag) == "mapping"), None)
        processing = next((c for c in item if _name(c.tag) == "responseProcessing"), None)
        self._rules = list(processing) if processing is not None else None
        self._prepared = True

    def _mapping_entries(self) -> list:
        if self._entries is None:
            entries = []
            for entry in self._mapping:
                if _name(entry.tag) == "mapEntry":
                    key = _qti_value(self._base_type, _attr(entry, "mapKey"))
                    case = _attr(entry, "caseSensitive")
                    entries.append((key, float(_attr(entry, "mappedValue") or 0), case != "false" if case is not None else local(self.item.tag) == "assessmentItem"))
            self._entries = entries
        return self._entries

    def outcomes(self, response) -> dict[str, object]:
        """The outcome variables after processing ``response`` (see :func:`qti_outcomes`)."""
        if not self._prepared:
            self._prepare()
        base_type, multiple, ordered, correct, mapping = self._base_type, self._multiple, self._ordered, self._correct, self._mapping
        outcomes: dict[str, object] = {identifier: default() if default is set else default for identifier, default in self._defaults}
        if response is None or response == [] or response == "":
            given = None
        elif ordered:  # an ordered container: the same values in another order are another value
            given = tuple(_qti_value(base_type, r) for r in response)
        elif multiple:
            given = {_qti_value(base_type, r) for r in (response if isinstance(response, (list, tuple, set)) else [response])}
        else:
            given = _qti_value(base_type, response)
        variables = {"RESPONSE": given}

        def map_response():
            if given is None or mapping is None:
                return 0.0
            entries = self._mapping_entries()
            default = float(_attr(mapping, "defaultValue") or 0)
            total = 0.0
            for value in given if isinstance(given, set) else {given}:
                found = [mapped for key, mapped, case in entries
                         if key == value or (not case and isinstance(key, str) and isinstance(value, str) and key.casefold() == value.casefold())]
                total += found[0] if found else default
            low, high = _attr(mapping, "lowerBound"), _attr(mapping, "upperBound")
            if low is not None:
                total = max(total, float(low))
            if high is not None:
                total = min(total, float(high))
            return total

        def value(expr: Element):
            name = _name(expr.tag)
            operands = list(expr)
            if name == "variable":
                ident = expr.get("identifier")
                return variables[ident] if ident in variables else outcomes.get(ident)
            if name == "correct":
                return tuple(correct) if ordered else set(correct) if multiple else (correct[0] if correct else None)
            if name == "baseValue":
                return _qti_value(_attr(expr, "baseType"), expr.text)
            if name == "multiple":
                members: set = set()
                for sub in operands:
                    v = value(sub)
                    if isinstance(v, set):
                        members |= v
                    elif v is not None:
                        members.add(v)
                return members
            if name == "mapResponse":
                return map_response()
            if name == "isNull":
                v = value(operands[0])
                return v is None or v == set() or v == ""
            if name == "patternMatch":
                v = value(operands[0])
                return None if v is None else _xsd_fullmatch(_attr(expr, "pattern") or "", str(v))
            if name == "not":
                v = value(operands[0])
                return None if v is None else not v
            if name == "and":
                values = [value(sub) for sub in operands]
                return None if None in values else all(values)
            if name == "or":
                values = [value(sub) for sub in operands]
                return True if True in values else (None if None in values else False)
            a, b = (value(sub) for sub in operands[:2])
            if a is None or b is None:
                return None
            if name == "match":
                return a == b
            if name == "member":
                return a in b
            if name == "stringMatch":
                sensitive = (_attr(expr, "caseSensitive") or "true") == "true"
                return a == b if sensitive else a.casefold() == b.casefold()
            if name in ("gte", "lte", "gt", "lt"):
                return {"gte": a >= b, "lte": a <= b, "gt": a > b, "lt": a < b}[name]
            raise ValueError(f"unsupported expression {name}")

        def run(rules):
            for rule in rules:
                name = _name(rule.tag)
                if name == "setOutcomeValue":
                    outcomes[rule.get("identifier")] = value(next(iter(rule)))
                elif name == "responseCondition":
                    for branch in rule:
                        if _name(branch.tag) == "responseElse":
                            run(list(branch))
                            break
                        test, *body = list(branch)
                        if value(test):
                            run(body)
                            break

        if self._rules is not None:
            run(self._rules)
        return outcomes

    def shown_feedback(self, outcomes: dict[str, object]) -> list[str]:
        """:func:`qti_shown_feedback` with ``show_feedback=True``, each block's text read once."""
        if self._feedback is None:
            self._feedback = [[node, None] for node in self.item if local(node.tag) in ("modalFeedback", "qti-modal-feedback")]
        shown = []
        for pair in self._feedback:
            node = pair[0]
            value = outcomes.get(node.get("outcomeIdentifier", node.get("outcome-identifier")))
            member = node.get("identifier") in value if isinstance(value, set) else node.get("identifier") == value
            if member == ((node.get("showHide", node.get("show-hide")) or "show") == "show"):
                if pair[1] is None:
                    pair[1] = " ".join(text_of(node).split())
                shown.append(pair[1])
        return shown


def qti_shown_feedback(item: Element, outcomes: dict[str, object], *, show_feedback: bool) -> list[str]:
    """Texts of the modal feedback a conforming test player shows (none when showFeedback is false)."""
    if not show_feedback:
        return []
    shown = []
    for node in [c for c in item if local(c.tag) in ("modalFeedback", "qti-modal-feedback")]:
        value = outcomes.get(node.get("outcomeIdentifier", node.get("outcome-identifier")))
        member = node.get("identifier") in value if isinstance(value, set) else node.get("identifier") == value
        if member == ((node.get("showHide", node.get("show-hide")) or "show") == "show"):
            shown.append(" ".join(text_of(node).split()))
    return shown


def qti_item_session_control(test: Element) -> dict[str, bool]:
    """The effective ``itemSessionControl`` of the first test part (QTI defaults when absent)."""
    control = next((e for e in test.iter() if local(e.tag) in ("itemSessionControl", "qti-item-session-control")), None)
    settings = {"showFeedback": False, "allowReview": True, "showSolution": False}
    if control is not None:
        for key in settings:
            raw = control.get(key, control.get(re.sub(r"([A-Z])", r"-\1", key).lower()))
            if raw is not None:
                settings[key] = raw == "true"
    return settings


# --- Moodle's Common Cartridge 1.1 converter (restore of an .imscc) -------------------------

CC11_DETECT_BYTES = 500
"""``imscc11_converter::detect_format`` reads this many bytes of ``imsmanifest.xml``."""
CC11_DETECT = "xmlns=http://www.imsglobal.org/xsd/imsccv1p1/imscp_v1p1"
CC_QUIZ_RESOURCE = "imsqti_xmlv1p2/imscc_xmlv1p1/assessment"
CC_BANK_RESOURCE = "imsqti_xmlv1p2/imscc_xmlv1p1/question-bank"
CC_MOODLE_TYPES = {
    "cc.multiple_choice.v0p1": "multichoice", "cc.multiple_response.v0p1": "multichoice",
    "cc.true_false.v0p1": "truefalse", "cc.essay.v0p1": "essay",
    "cc.fib.v0p1": "shortanswer", "cc.pattern_match.v0p1": "shortanswer",
}
"""``cc11_quiz::get_question_type``: the Moodle type of each profile; an item of any other
profile (or none) is skipped without a word."""
CC_ESSAY_DEFAULTS = {"responseformat": "editor", "responserequired": 1, "responsefieldlines": 15, "attachments": 0,
                     "attachmentsrequired": 0, "graderinfo": "", "responsetemplate": ""}
"""``restore_qtype_essay_plugin::after_execute_question``: the options of an essay restored
without any (every essay of a cartridge): no grader information (the model answer), no template."""
CC_QUIZ_SUMGRADES = 4
CC_QUIZ_GRADE = 10
"""``backup/cc/sheets/course_modules_mod_quiz.xml``: every restored quiz gets total marks 4 and
a maximum grade of 10, whatever its questions hold."""


class MoodleRestoreFailed(Exception):
    """The converter throws (``coding_exception``): the whole restore is lost and the course is
    left empty, "Course restoration in progress"."""


@dataclass
class CcAnswer:
    identifier: str
    title: str
    score: float
    feedback: str


@dataclass
class CcQuestion:
    ident: str
    name: str
    cc_type: str
    moodle_type: str
    questiontext: str
    generalfeedback: str
    """What Moodle stores as the question's general feedback (each text followed by a space)."""
    defaultgrade: int
    answers: list[CcAnswer]
    usecase: bool = False
    essay_options: dict | None = None
    """An essay's options after the restore (None for other types): the converter writes none,
    so ``restore_qtype_essay_plugin::after_execute_question`` gives it the defaults."""

    @property
    def single(self) -> bool:
        return self.cc_type != "cc.multiple_response.v0p1"


@dataclass
class CcInstance:
    resource: str
    is_question_bank: bool
    questions: list[CcQuestion]
    sumgrades: int = CC_QUIZ_SUMGRADES
    grade: int = CC_QUIZ_GRADE


def moodle_cc11_detects(manifest: bytes) -> bool:
    """``imscc11_converter::detect_format``: the first bytes, lower-cased, without spaces and quotes."""
    snippet = manifest[:CC11_DETECT_BYTES].decode("utf-8", "ignore").lower()
    snippet = re.sub(r"\s*", "", snippet).replace("'", "").replace('"', "")
    return CC11_DETECT in snippet


class _QtiFile:
    """A cartridge's QTI file with its items by identifier (what ``//xmlns:item[@ident="…"]`` finds)."""

    def __init__(self, root: Element):
        self.root = root
        self.by_ident: dict[str, list[Element]] = {}
        for item in items(root):
            self.by_ident.setdefault(item.get("ident") or "", []).append(item)


def _items_named(doc: _QtiFile, ident: str) -> list[Element]:
    """``//xmlns:item[@ident="…"]``: every item of the file with that identifier."""
    return doc.by_ident.get(ident, [])


# The combining marks (\p{Mn}) of the scripts the bank's patterns fold, for Python's re.
_MARKS = "[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]"


def _xsd_fullmatch(pattern: str, text: str) -> bool:
    """QTI's ``patternMatch``: an XML Schema regular expression, implicitly anchored, matched
    against the whole response (the subset the bank writes: classes, groups, ``.*``, ``\\s`` in classes,
    ``\\p{Mn}``; XSD's ``\\s`` is only space, tab, line feed and carriage return)."""
    translated = pattern.replace("\\p{Mn}", _MARKS).replace("\\s", " \t\n\r")
    return re.fullmatch(translated, text) is not None


def _conditions(doc: _QtiFile, ident: str) -> list[Qti12Condition]:
    """``//xmlns:item[@ident=…]/xmlns:resprocessing/xmlns:respcondition``."""
    return [c for item in _items_named(doc, ident) for c in response_conditions(item) if c.placed]


def _first_varequal(condition: Qti12Condition) -> str:
    """The value of ``xmlns:conditionvar/xmlns:varequal`` item(0), a varequal directly in a
    conditionvar (``""`` without one)."""
    return next((t.value for t in condition.tests if t.depth == 1 and t.name == "varequal"), "")


def _feedback_texts(doc: _QtiFile, ident: str, conditions: list[Qti12Condition]) -> str:
    """Each ``displayfeedback``'s linked ``itemfeedback`` text, each followed by a space."""
    out = ""
    for condition in conditions:
        for ref in condition.feedback:
            ref = ref or ""
            if not ref:
                continue
            texts = [m for item in _items_named(doc, ident) for fb in item_feedback(item) if fb.placed and fb.ident == ref
                     for m in fb.material if m.path == ("flow_mat", "material", "mattext")]
            value = texts[0].value if texts else ""
            out += value + " " if value else ""
    return out


def _php_empty(value: str) -> bool:
    return value in ("", "0")


def _cc_general_feedback(doc: _QtiFile, ident: str) -> str:
    """``get_general_feedback``: the feedback of every condition marked ``continue="Yes"``."""
    chosen = [c for c in _conditions(doc, ident) if (c.continue_ or "").lower() == "yes"]
    return _feedback_texts(doc, ident, chosen)


def _cc_answer_feedback(doc: _QtiFile, ident: str, answer: str) -> str:
    """``get_feedback``: the feedback of every condition whose first direct varequal is the answer."""
    chosen = [c for c in _conditions(doc, ident) if _first_varequal(c).lower() == answer.lower()]
    return _feedback_texts(doc, ident, chosen)


def _cc_score(doc: _QtiFile, ident: str, answer: str) -> float:
    """``get_score``: the setvar of the last condition whose first direct varequal is the answer;
    1 if it is not PHP-empty, else 0."""
    score = ""
    for condition in _conditions(doc, ident):
        if _first_varequal(condition).lower() == answer.lower():
            setvar = condition.setvars
            score = setvar[0].value if setvar and not _php_empty(setvar[0].value) else ""
    return 0.0 if _php_empty(score) else 1.0


def _cc_fib_answers(doc: _QtiFile, ident: str) -> list[CcAnswer]:
    """``get_answers_fib``: the varequals of the first condition with a setvar of exactly ``100``
    are the right answers (full marks, no feedback: the feedback found for one is written to a
    misspelt variable and lost); every other condition with a varequal adds a wrong answer."""
    conditions = _conditions(doc, ident)
    scoring = next((c for c in conditions if any((s.text or "") == "100" for s in c.setvars)), None)
    right: dict[str, CcAnswer] = {}
    for t in [t for t in scoring.tests if t.depth == 1 and t.name == "varequal"] if scoring is not None else []:
        title = t.value
        if title:
            right[title] = CcAnswer(title, title, 1.0, "")
    wrong = []
    for condition in conditions:
        setvar = condition.setvars
        if setvar and setvar[0].value == "100":
            continue
        if not any(t.depth == 1 and t.name == "varequal" for t in condition.tests):
            continue
        title = _first_varequal(condition)
        feedback = _feedback_texts(doc, ident, [condition])
        if title not in right:
            wrong.append(CcAnswer(title, title, 0.0, feedback))
    return list(right.values()) + wrong


def _cc_question(doc: _QtiFile, item: Element) -> CcQuestion | None:
    ident = item.get("ident") or ""
    if not ident:
        return None
    profile = ""
    for field_ in _metadata_fields(doc, ident, deep=False):
        if field_.label == "cc_profile":
            profile = field_.entry
    moodle_type = CC_MOODLE_TYPES.get(profile, "")
    if not moodle_type:
        return None
    presentation = next(iter(presentations(item, placed=True)), None)
    mats = presentation.material if presentation is not None else ()
    texts = [m for m in mats if m.path == ("flow", "material", "mattext")] or [m for m in mats if m.path == ("material", "mattext")]
    grade = 1  # get_defaultgrade: the first cc_weighting, kept if 0-99
    weighting = [f for f in _metadata_fields(doc, ident, deep=True) if f.label == "cc_weighting"]
    if weighting:
        raw = re.match(r"\s*(-?\d*)", weighting[0].entry).group(1)
        number = int(raw) if raw not in ("", "-") else 0
        grade = number if 0 <= number <= 99 else 1
    if profile in ("cc.fib.v0p1", "cc.pattern_match.v0p1"):
        answers = _cc_fib_answers(doc, ident) if profile == "cc.fib.v0p1" else []
    elif moodle_type == "essay":
        # get_answers lists one answer per response_str (score 0, every rule's feedback), but the
        # essay type restores no answers: they are dropped (restore_qtype_essay_plugin).
        answers = []
    else:
        labels = []
        for found in _items_named(doc, ident):
            for pres in presentations(found, placed=True):
                # presentation/flow/response_lid, or presentation/response_lid when it has no flow
                where = ("flow", "response_lid") if pres.flow else ("response_lid",)
                labels += [label for lid in pres.responses if lid.path == where
                           for label in lid.labels if label.path == ("render_choice", "response_label")]
        right: dict[str, bool] = {}
        share = 0.0
        if profile == "cc.multiple_response.v0p1":
            keys = []
            for found in _items_named(doc, ident):
                for condition in response_conditions(found):
                    for setvar in condition.setvars:
                        try:
                            hundred = setvar.varname == "SCORE" and float(setvar.value) == 100
                        except ValueError:
                            hundred = False
                        if hundred:  # its condition's varequals outside a not, case-sensitive
                            keys += [t for t in condition.tests if t.name == "varequal" and t.parent != "not" and t.case == "Yes"]
            if keys:
                share = round(1.0 / len(keys), 7)
                right = {t.value: True for t in keys}
        answers = []
        for label in labels:
            answer = label.ident or ""
            title = next((m.value for m in label.material if m.path == ("material", "mattext")), "")
            score = _cc_score(doc, ident, answer)
            if profile == "cc.multiple_response.v0p1" and answer in right:
                score = share
            answers.append(CcAnswer(answer, title, score, _cc_answer_feedback(doc, ident, answer)))
    question = CcQuestion(ident=ident, name=item.get("title") or "", cc_type=profile, moodle_type=moodle_type,
                          questiontext=texts[0].value if texts else "", generalfeedback=_cc_general_feedback(doc, ident),
                          defaultgrade=grade, answers=answers, essay_options=dict(CC_ESSAY_DEFAULTS) if moodle_type == "essay" else None)
    if moodle_type == "truefalse" and answers:
        # create_node_course_question_categories_question_category_question_true_false
        for answer in answers:
            if answer.identifier not in ("true", "false"):
                raise MoodleRestoreFailed(f"Unknown answer identifier detected in true/false quiz question {ident} ({answer.identifier!r})")
        if {a.identifier for a in answers} != {"true", "false"}:
            raise MoodleRestoreFailed(f"Unable to correctly identify the true and false answers in the question {ident}")
    return question


def _metadata_fields(doc: _QtiFile, ident: str, *, deep: bool) -> list[Qti12Field]:
    """``//item[@ident]/itemmetadata/qtimetadata/qtimetadatafield`` (or ``//item[@ident]//qtimetadatafield``)."""
    return [f for item in _items_named(doc, ident) for f in metadata_fields(item) if deep or f.placed]


def moodle_cc11_restore(members: dict[str, bytes]) -> list[CcInstance]:
    """What ``cc112moodle`` and ``cc11_quiz`` (Moodle 4.5 ``backup/cc/``) make of a cartridge's
    assessments and question banks: a quiz per assessment and a question category per question
    bank that holds at least one question, each question with the answers, grades and feedback
    the converter reads. Raises ``MoodleRestoreFailed`` where the converter throws."""
    manifest_data = members["imsmanifest.xml"]
    if not moodle_cc11_detects(manifest_data):
        raise MoodleRestoreFailed("not detected as Common Cartridge 1.1 (imscc11_converter::detect_format)")
    manifest = parse_xml(manifest_data)
    found: dict[bool, list[tuple[str, str]]] = {False: [], True: []}
    for resource in manifest_resources(manifest):
        kind = resource.type
        if kind in (CC_QUIZ_RESOURCE, CC_BANK_RESOURCE):
            href = next((href for href in resource.files if href), "")
            found[kind == CC_BANK_RESOURCE].append((resource.identifier or "", href))
    instances = []
    for is_bank in (False, True):  # generate_instances: quizzes first, then question banks
        for identifier, href in found[is_bank]:
            if not href or href not in members:
                continue
            root = parse_xml(members[href])
            placed = items(root, ("objectbank",) if is_bank else ("assessment", "section"))
            doc = _QtiFile(root)
            questions = [q for q in (_cc_question(doc, item) for item in placed) if q is not None]
            if questions:
                instances.append(CcInstance(identifier, is_bank, questions))
    return instances
