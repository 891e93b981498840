"""short-answer: a typed word or short phrase, with accepted answers and their credit."""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import ClassVar, Literal

from pydantic import Field

from ..errors import Diagnostic, error, warning
from ._base import ItemId, ItemIds, Kind, QuestionBase, missing_item_id, Strict, Text, limits
from ._folding import APOSTROPHES, DASHES, QUOTES, Folded, answers_giveaway, fold  # noqa: F401 (QUOTES: read from here)
from ._rules import COMMON_EXAMPLE, stem_giveaway

# The folding rule (`fold`) is in ._folding, which imports no model: a catalog's checks read it.
WILDCARD = "\ue000"
"""Stands for an unescaped run of ``*`` while an answer is folded (a private-use character no one types)."""
_WORD_DASH = re.compile(f"(?<=[^\\W_])[{re.escape(DASHES)}](?=[^\\W_])")
_WORD_SPACE = re.compile(r"(?<=[^\W_]) (?=[^\W_])")
_STARS = re.compile(r"(?<!\\)\*+")


def has_wildcard(text: str) -> bool:
    """Whether an accepted answer holds Moodle's wildcard: a ``*`` not escaped as ``\\*``."""
    return bool(_STARS.search(text))


def literal(text: str) -> str:
    """An accepted answer as a learner would type it, ``\\*`` as ``*`` (wildcards kept as ``*``)."""
    return _STARS.sub("*", text).replace("\\*", "*")


def answer_pattern(text: str, case_sensitive: bool = False, fold_diacritics: bool = False) -> re.Pattern:
    """An accepted answer as a pattern over folded responses: Moodle's semantics, an unescaped run
    of ``*`` matches any run of characters (none included), ``\\*`` is a literal star, every
    other character is itself as folded."""
    folded = fold(_STARS.sub(WILDCARD, text).replace("\\*", "*"), case_sensitive, fold_diacritics)
    return re.compile(".*".join(re.escape(piece) for piece in folded.split(WILDCARD)), re.S)


def answer_matches(text: str, response: str, case_sensitive: bool = False, fold_diacritics: bool = False) -> bool:
    """Whether a typed response matches an accepted answer (wildcards and folding applied)."""
    return answer_pattern(text, case_sensitive, fold_diacritics).fullmatch(fold(response, case_sensitive, fold_diacritics)) is not None


def spellings(text: str, fold_diacritics: bool = False) -> list[str]:
    """An accepted answer and the spellings of it a learner commonly types that an LMS comparing
    exactly (Moodle, Canvas) would not credit, each once, the answer first: every apostrophe as
    ``'`` and as ``’``; the hyphens or dashes between two letters or digits as ``-`` and as
    spaces, or, in an answer without one, its spaces between words as hyphens; without
    diacritics when the question folds them. Exports that cannot fold write these as extra
    answers with the same credit."""
    def apostrophes(t):
        return [t.translate({ord(c): q for c in APOSTROPHES}) for q in ("'", "’")] if any(c in APOSTROPHES for c in t) else [t]

    def hyphens(t):
        if _WORD_DASH.search(t):
            return [_WORD_DASH.sub("-", t), _WORD_DASH.sub(" ", t)]
        return [_WORD_SPACE.sub("-", t)] if _WORD_SPACE.search(t) else [t]

    def diacritics(t):
        bare = unicodedata.normalize("NFC", "".join(c for c in unicodedata.normalize("NFD", t) if unicodedata.category(c) != "Mn"))
        return [t, bare] if fold_diacritics else [t]

    out = [text]
    for step in (apostrophes, hyphens, diacritics):
        out = [v for t in out for v in [t] + step(t)]
    return list(dict.fromkeys(out))


_XSD_SPECIAL = set("\\|.?*+(){}-[]^")
_XSD_IN_CLASS = set("\\[]-^")
SPACES = "".join(chr(c) for c in range(0x80, 0x3001) if chr(c).isspace())
"""Unicode whitespace beyond XSD's ``\\s`` (space, tab, line feed, carriage return)."""


def _xsd_class(chars) -> str:
    return "[" + "".join("\\" + c if c in _XSD_IN_CLASS else c for c in sorted(set(chars))) + "]"


_SPACE_CLASS = "[\\s" + SPACES + "]"


@functools.cache
def _with_diacritics() -> dict[str, frozenset[str]]:
    """Each Latin letter and the precomposed letters that are it with diacritics (``e``: ``é``, ``è``, …)."""
    out: dict[str, set[str]] = {}
    for code in list(range(0xC0, 0x250)) + list(range(0x1E00, 0x1F00)):
        parts = unicodedata.normalize("NFD", chr(code))
        if len(parts) > 1 and all(unicodedata.category(m) == "Mn" for m in parts[1:]):
            out.setdefault(parts[0], set()).add(chr(code))
    return {base: frozenset(chars) for base, chars in out.items()}


def xsd_pattern(text: str, case_sensitive: bool = False, fold_diacritics: bool = False) -> str:
    """An accepted answer as an XML Schema regular expression (QTI's ``patternMatch``) that
    matches what :func:`answer_matches` accepts, as far as such a pattern can: the wildcard as
    ``[\\s\\S]*`` (any characters, line breaks too); each folded apostrophe, quote or dash as
    the class of what folds to it; a space as a run of whitespace or one dash; each letter with
    its other case unless case-sensitive, and its forms with diacritics (and combining marks
    after it) when the question folds them; whitespace allowed at both ends; a letter whose case
    folds to two (``ß``, ``ﬁ``) as itself or its two letters in either case."""
    # Case is expressed by classes below, not folded here: a letter whose case folds to two
    # (``ß``, ``ﬁ``) stays itself, with its two-letter forms as alternatives.
    folded = fold(_STARS.sub(WILDCARD, text).replace("\\*", "*"), True, fold_diacritics)
    dashes = _xsd_class(DASHES)
    out = [_SPACE_CLASS + "*"]
    for c in folded:
        if c == WILDCARD:
            out.append("[\\s\\S]*")
        elif c == " ":
            out.append(f"({_SPACE_CLASS}+|{dashes})")
        elif c == "'":
            out.append(_xsd_class(APOSTROPHES))
        elif c == '"':
            out.append(_xsd_class(QUOTES))
        elif c == "-":
            out.append(dashes)
        else:
            chars, longer = {c}, set()
            if not case_sensitive:
                forms = {c.upper(), c.lower(), c.title(), c.upper().lower()}
                chars |= {x for x in forms if len(x) == 1}
                longer = {x.lower() for x in forms if len(x) > 1}
            if fold_diacritics:
                chars |= {x for base in set(chars) for x in _with_diacritics().get(base, ())}
            one = _xsd_class(chars) if len(chars) > 1 else ("\\" + c if c in _XSD_SPECIAL else c)
            if longer:  # ß as ß, ss or SS; ﬁ as ﬁ or fi
                one = "(" + "|".join([one] + ["".join(_xsd_class({x, x.upper()}) if x.upper() != x else x for x in form) for form in sorted(longer)]) + ")"
            out.append(one)
            if fold_diacritics and c.isalpha():
                out.append("\\p{Mn}*")
    out.append(_SPACE_CLASS + "*")
    return "".join(out)


class AcceptedAnswer(Strict):
    """A response the question accepts, with its credit."""

    id: ItemId
    """Stable id of the answer within its question (`a1`, `a2`, …); its translations are keyed
    on it, so deleting or reordering answers keeps each translation on its answer."""
    text: Text
    """The accepted response, in the bank's language; translated per language (a learner types their own)."""
    credit: float = Field(default=1.0, gt=0, le=1)
    """The fraction of the marks it earns (1 for a fully right answer)."""
    feedback: Text | None = None
    """Shown to a learner who gives this answer."""


class ShortAnswerQuestion(QuestionBase):
    """A question answered by typing a word or short phrase."""

    kind: Literal["short-answer"]
    """The question kind."""
    answers: list[AcceptedAnswer] = Field(min_length=1, max_length=20)
    """Accepted answers, at least one with full credit."""
    case_sensitive: bool = False
    """Whether `ONNX` and `onnx` are different answers."""
    fold_diacritics: bool = False
    """Whether `reseau` matches `réseau` (accents and other diacritics ignored)."""

    ANSWER_FIELD: ClassVar[str] = "answer"

    def answer_texts(self):
        return [(a.id, a.text) for a in self.answers], self.right_texts()

    def right_texts(self):
        return frozenset(a.id for a in self.answers if a.credit >= 1)

    def parse_response(self, text: str) -> str:
        """The typed text."""
        return text

    def key(self, text: str) -> str:
        """An answer or response as this question compares it (see :func:`fold`)."""
        return fold(text, self.case_sensitive, self.fold_diacritics)

    def score(self, response: str) -> float:
        """The most credit among the accepted answers the typed text matches (0 if none); ``*``
        in an answer matches any run of characters, ``\\*`` a star."""
        return max((a.credit for a in self.answers if answer_matches(a.text, response, self.case_sensitive, self.fold_diacritics)), default=0.0)


def _rules(question: ShortAnswerQuestion, doc) -> list[Diagnostic]:
    diags = []
    if not any(answer.credit >= 1 for answer in question.answers):
        diags.append(error("E325", f"{question.id}: no accepted answer has full credit (credit: 1); a learner could never get full marks", doc.locate(("answers",))))
    seen: dict[str, int] = {}
    ids: dict[str, int] = {}
    for index, answer in enumerate(question.answers):
        if answer.id in ids:
            diags.append(error("E372", f"accepted answer {index + 1} has the id {answer.id!r} of accepted answer {ids[answer.id] + 1}; each answer's id must differ (its translations are keyed on it)", doc.locate(("answers", index, "id"))))
        ids.setdefault(answer.id, index)
        if "\n" in answer.text.strip():
            diags.append(error("E116", f"accepted answer {index + 1} must be one line: a learner types one line (translations list other spellings one per line)", doc.locate(("answers", index, "text"))))
        if has_wildcard(answer.text) and not _STARS.sub("", answer.text).strip():
            diags.append(error("E347", f"accepted answer {index + 1} {answer.text!r} is only wildcards: it would accept anything a learner types (write `\\*` for a star)", doc.locate(("answers", index, "text"))))
            continue
        key = question.key(answer.text)
        if key in seen:
            how = "" if question.case_sensitive else " (answers are compared ignoring case; set `case_sensitive: true` if case matters)"
            diags.append(error("E326", f"accepted answer {index + 1} {answer.text!r} is the same as accepted answer {seen[key] + 1}{how}", doc.locate(("answers", index, "text"))))
        seen.setdefault(key, index)
        covering = next((j for j, other in enumerate(question.answers) if j != index and has_wildcard(other.text) and other.credit >= answer.credit
                         and not (has_wildcard(answer.text) and j > index) and question.key(other.text) != key
                         and answer_matches(other.text, literal(answer.text), question.case_sensitive, question.fold_diacritics)), None)
        if covering is not None:
            diags.append(warning("W347", f"accepted answer {index + 1} {answer.text!r} is already accepted by the wildcard of accepted answer {covering + 1} "
                                         f"{question.answers[covering].text!r}, with as much credit: it never changes the score", doc.locate(("answers", index, "text"))))
    shown = stem_giveaway(question.stem, [a.text for a in question.answers if a.credit >= 1 and not has_wildcard(a.text)], question.case_sensitive)
    if shown is not None:
        diags.append(warning("W326", f"{question.id}: the stem contains the accepted answer {shown!r}; a learner can copy it", doc.locate(("stem",))))
    return diags


ANSWER_LINES = ("Accepted answer: type it as a learner of your language would. Put each other spelling "
                "that should also be accepted on a line of its own.")


def _fields(question, add, checked, base_notes) -> None:
    for index, answer in enumerate(question.answers):
        credit = "full credit" if answer.credit == 1 else f"{answer.credit:g} of the marks"
        add(f"answer.{answer.id}", answer.text, ("answers", index, "text"), (f"{ANSWER_LINES} ({credit})",) + checked, True)
        if answer.feedback is not None:
            add(f"answer.{answer.id}.feedback", answer.feedback, ("answers", index, "feedback"), (f"Feedback shown to a learner who gives accepted answer {answer.id}.",) + base_notes)


def _duplicates(question) -> list:
    return [("accepted answer", [(f"answer.{a.id}", a.text) for a in question.answers], Folded(question.case_sensitive, question.fold_diacritics))]


def _model_error(loc: tuple, err_type: str, data) -> tuple[str, str] | None:
    if loc and loc[-1] == "credit" and err_type in ("greater_than_equal", "greater_than", "less_than", "less_than_equal"):
        return "E208", "an accepted answer's credit must be above 0 and at most 1 (1 is full marks)"
    missing = missing_item_id(loc, err_type, "answers", "accepted answer")
    if missing is not None:
        return missing
    if loc == ("answers",) and err_type == "too_short":
        return "E209", "a short-answer question needs at least one accepted answer with full credit"
    return None


def _split_answers(data: dict) -> None:
    """A short answer's translation may list several accepted spellings, one per line."""
    answers = []
    for answer in data["answers"]:
        lines = [line.strip() for line in answer["text"].split("\n")]
        lines = [line for line in lines if line] or [answer["text"]]
        answers += [{**answer, "text": line} for line in lines]
    data["answers"] = answers


def _translated_giveaway(question: ShortAnswerQuestion) -> tuple:
    """What a translated stem is searched for: the full-credit answers' ids and English, and
    whether case counts (see :func:`._folding.answers_giveaway`)."""
    return answers_giveaway, (question.id, tuple((a.id, a.text) for a in question.answers if a.credit >= 1), question.case_sensitive)


KIND = Kind(
    name="short-answer",
    model=ShortAnswerQuestion,
    example={
        "id": "q005", "kind": "short-answer", "stem": "Which open format exchanges trained models between frameworks?",
        "answers": [{"id": "a1", "text": "ONNX", "feedback": "Right."}, {"id": "a2", "text": "Open Neural Network Exchange"}], "case_sensitive": False,
        "explanation": "ONNX is an open format read by most inference runtimes.", **COMMON_EXAMPLE,
    },
    template=(
        'stem: ""\n# At least one answer with full credit (credit: 1, the default); others may earn less.\n'
        '# Each answer keeps its id (a1, a2, …: translations are keyed on it); a new answer takes a new one.\n'
        'answers:\n  - id: a1\n    text: ""\n    feedback: ""\n# A * in an answer matches any run of characters (\\* is a star).\ncase_sensitive: false\n'
    ),
    fields=_fields,
    rules=_rules,
    duplicates=_duplicates,
    model_error=_model_error,
    translated_giveaway=_translated_giveaway,
    split_translation=_split_answers,
    multiline_answers=True,
    item_ids=(ItemIds("answers", "answer", "a", ("", ".feedback")),),
)

MAX_ANSWERS = limits(ShortAnswerQuestion, "answers")[1]
"""The most accepted answers a question takes (from the model)."""
