"""`bank lint --target moodle|gift|canvas|qti`: what each LMS would change or lose, before upload.

The exports are rendered in memory exactly as `bank build` writes them, then read back with the
importer models of :mod:`.models`. Every finding is a warning located in the bank (a YAML field
or a catalog entry) when the content causes it, or in the export file (as `bank build` would
write it, with the line or the zip member) when the writer does.
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Mapping
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from ..errors import Diagnostic, Location, warning
from ..exporters import get_format
from ..exporters.record import languages
from ..model import Bank
from ..options import ExportOptions
from ..parallel import run_each
from ..readers.qti import descendants as qti_descendants, manifest_resources
from . import models

if TYPE_CHECKING:
    from ..project.settings import LanguagePolicy

TARGETS = ("moodle", "gift", "canvas", "qti")
FORMATS = {"moodle": ["moodle-xml"], "gift": ["moodle-xml", "gift"], "canvas": ["canvas-qti12"], "qti": ["qti21", "qti30"]}


class _Locator:
    """Where a topic field is written: the topic's YAML for English, the catalog entry otherwise.
    Only the topic's document is kept of the read bank (``topic_doc``, None when it has none:
    then the topic's folder, ``root``)."""

    def __init__(self, topic_id: str, topic_doc, root: Path, translations: Path | None):
        self.topic_id = topic_id
        self.topic_doc = topic_doc
        self.root = root
        self.translations = translations
        self._catalogs: dict[str, dict[str, int]] = {}

    def __call__(self, lang: str, field: str) -> Location:
        if lang == "en" or self.translations is None:
            doc = self.topic_doc
            return doc.locate((field,)) if doc is not None else Location.of(self.root)
        lines = self._catalogs.get(lang)
        path = self.translations / f"{lang}.po"
        if lines is None:  # the msgstr line of each entry, by msgctxt
            lines, context = {}, None
            try:
                text = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                text = ""
            for number, line in enumerate(text.split("\n"), start=1):
                if line.startswith("msgctxt "):
                    context = line[8:].strip().strip('"')
                elif line.startswith("msgstr") and context is not None:
                    lines.setdefault(context, number)
                    context = None
            self._catalogs[lang] = lines
        context = f"topic.{self.topic_id}.{field}"
        return Location.of(path, lines.get(context, 0))


_CHECKS = (("moodle", "gift"), ("canvas",), ("qti21",), ("qti30",))
"""The targets checked together (Moodle and GIFT read the same Moodle XML files; the qti target
is its two packages, each a check of its own); each is a task of its own per topic, rendering
only its formats and dropping them before the next."""

LINT_POOL_MIN = 4_000
"""Least work (questions × languages × checks) for which the checks run in worker processes."""


def _check_topic(check: tuple[str, ...], banks: dict[str, Bank], topic_libraries, locate: _Locator, options: ExportOptions,
                 exports: Path, several: bool) -> list[Diagnostic]:
    """The findings of the targets in ``check`` (those of one of :data:`_CHECKS` asked for) for one
    topic (``topic_libraries``: the libraries of that topic alone, already scanned for text no
    format can carry), in the order the targets are listed there; each format is rendered here,
    read, and dropped before the next."""
    from ..build import render
    from ..exporters import FORMATS as EXPORT_FORMATS

    topic_id = next(iter(banks.values())).topic.id

    def rendered(fmt: str):
        return render([fmt], topic_libraries, options, scanned=True)[fmt]

    def where(fmt: str, name: PurePosixPath | str, line: int = 0, prefix: str = topic_id + "/" if several else "") -> Location:
        return Location.of(exports / EXPORT_FORMATS[fmt].folder / (prefix + str(name)), line)

    found: list[Diagnostic] = []
    if "moodle" in check or "gift" in check:
        xml = rendered("moodle-xml")
        if "moodle" in check:
            found += _moodle(banks, xml, locate, lambda n, line=0: where("moodle-xml", n, line))
        if "gift" in check:
            found += _gift(banks, xml, rendered("gift"), lambda n, line=0: where("gift", n, line))
    if "canvas" in check:
        found += _canvas(banks, rendered("canvas-qti12"), lambda n: where("canvas-qti12", n), options.english)
    for fmt in ("qti21", "qti30"):
        if fmt in check:
            found += _qti(banks, rendered(fmt), lambda n, fmt=fmt: where(fmt, n), options.english)
    return found


def lint(bank_dir: Path, translations: Path | None, targets: list[str], options: ExportOptions = ExportOptions(),
         exports: Path = Path("exports"), *, policy: LanguagePolicy | None = None, allow_fallback: bool = False,
         languages: str = "all") -> list[Diagnostic]:
    """Warnings for ``targets``, topic by topic, over the languages `bank build` exports
    (``policy``, ``allow_fallback``: the same language states, whose warnings come first);
    raises DiagnosticsError when the bank itself has errors."""
    from ..build import load_exported, refuse_uncarriable, resolve_languages, topic_banks, validated_bank, with_english
    from ..i18n.catalog import Catalogs
    from ..project.settings import LanguagePolicy

    tr = translations if translations is not None and translations.is_dir() else None
    langs = resolve_languages(languages, tr)
    if "en" not in langs:
        langs = ["en", *langs]  # the source: every file is checked against it
    catalogs = Catalogs()
    library_source, english = validated_bank(bank_dir, tr, catalogs)  # (a verdict cached for these inputs is not computed again)
    libraries, notes, in_english = load_exported(bank_dir, tr, langs, policy or LanguagePolicy(), allow_fallback=allow_fallback, catalogs=catalogs,
                                                 source=(library_source, english))
    del english
    places: dict[str, tuple] = {}  # (the topics' documents: nothing else of the read bank is kept for the checks)
    for topic_source in library_source.topics:
        if topic_source.topic is not None:
            places.setdefault(topic_source.topic.id, (topic_source.topic_doc, topic_source.root))
    topic_source = library_source = None
    options = with_english(options, in_english, tr)
    formats = sorted({f for t in targets for f in FORMATS[t]})
    topics = topic_banks(libraries)
    several = len(topics) > 1
    asked = {*targets, *(("qti21", "qti30") if "qti" in targets else ())}
    checks = [mine for mine in (tuple(t for t in check if t in asked) for check in _CHECKS) if mine]

    def task(banks: dict[str, Bank], topic_libraries, locate: _Locator, check: tuple[str, ...]):
        return lambda: _check_topic(check, banks, topic_libraries, locate, options, exports, several)

    tasks = []
    for banks in topics:
        topic_id = next(iter(banks.values())).topic.id
        topic_libraries = {lang: library.only(topic_id) for lang, library in libraries.items()}
        refuse_uncarriable(formats[0], topic_libraries)  # (what rendering every format at once did first, under the first format's name)
        locate = _Locator(topic_id, *places[topic_id], tr)
        tasks += [task(banks, topic_libraries, locate, check) for check in checks]
    work = sum(len(next(iter(banks.values())).questions) for banks in topics) * len(libraries) * len(checks)
    if work >= LINT_POOL_MIN:  # (the read bank's documents freed before workers fork, not frozen with the rest)
        import gc

        gc.collect()
    found: list[Diagnostic] = [d for part in run_each(tasks, work, LINT_POOL_MIN) for d in part]
    unique = {(d.code, d.message, d.location): d for d in found}
    states = [d for d in notes if d.code in ("W552", "W558", "W559")]
    return states + sorted(unique.values(), key=Diagnostic.sort_key)


# --- Moodle ---------------------------------------------------------------------------------

def _moodle(banks: dict[str, Bank], tree, locate, where) -> list[Diagnostic]:
    out = []
    order = languages(banks)
    titles: dict[str, str] = {}
    for lang in order:
        title = banks[lang].topic.title
        if len(title) > models.MOODLE_NAME_MAX:
            out.append(warning("W802", f"the category name ({lang}) has {len(title)} characters; Moodle cuts category names at {models.MOODLE_NAME_MAX}", locate(lang, "title")))
        if title in titles:
            out.append(warning("W803", f"the {lang} title is the same as the {titles[title]} one: imported into one course, both files share one category and Moodle drops the second file's question idnumbers", locate(lang, "title")))
        titles.setdefault(title, lang)
    course = models.MoodleCourse()
    for name in sorted(tree, key=lambda n: (n.stem.endswith("multilang"), str(n))):
        data = tree[name]
        parsed = models.read_moodle_xml(data)
        for category in parsed.categories:
            out += _plain_field_findings(category.path[-1], "category name", where(name, category.line))
        for q in parsed.questions:
            out += _plain_field_findings(q.name, f"question name of {q.idnumber}", where(name, q.line))
            if q.qtype == "match":
                choices, _ = q.match_choices()
                merged = [a for a in dict.fromkeys(answer for _, answer in q.subquestions) if a not in choices]
                if merged:
                    one = next(c for c in choices if models.php_loose_equal(c, merged[0]))
                    out.append(warning("W751", f"question {q.idnumber}: Moodle offers {merged[0]!r} and {one!r} as one answer (PHP compares two numeric texts as numbers); "
                                               "the bank offers them apart: write them so that they differ as words", where(name, q.line)))
            unlisted = q.unlisted_fractions()
            if unlisted:
                out.append(warning("W656", f"question {q.idnumber}: Moodle refuses the question on import (\"Error if grade not listed\"): grade(s) {', '.join(f'{f * 100:g} %' for f in unlisted)} are not in its list", where(name, q.line)))
        try:
            result = course.import_file(parsed)
        except models.MoodleImportAborted as exc:
            out.append(warning("W805", f"importing this file after the others into one course fails: {exc}", where(name, parsed.categories[0].line if parsed.categories else 0)))
            continue
        for idnumber in result.dropped_idnumbers:
            line = next((q.line for q in parsed.questions if q.idnumber == idnumber), 0)
            out.append(warning("W805", f"imported after the other files into one course, question {idnumber} loses its idnumber (already used in its category)", where(name, line)))
    return out


def _plain_field_findings(value: str, what: str, location: Location) -> list[Diagnostic]:
    out = []
    stored, cut = models.moodle_clean_question_name(value)
    if models.ENTITY.search(value):
        out.append(warning("W804", f"the {what} holds an HTML entity ({models.ENTITY.search(value).group(0)}), which Moodle shows as typed", location))
    if cut:
        out.append(warning("W802", f"the {what} has {len(value)} characters; Moodle cuts it to {len(stored)} without a message", location))
    elif stored != value.strip():
        out.append(warning("W804", f"Moodle changes the {what} on import (tags are stripped from plain-text fields): {stored!r}", location))
    return out


# --- GIFT -----------------------------------------------------------------------------------

def _gift(banks: dict[str, Bank], xml_tree, gift_tree, where) -> list[Diagnostic]:
    """A GIFT file must give Moodle what the Moodle XML file of the same language gives it."""
    from ..exporters.moodle_common import gift_leaves_out

    out = []
    course = models.MoodleCourse()
    left_out = gift_leaves_out(banks)
    for name in sorted(gift_tree, key=lambda n: (n.stem.endswith("multilang"), str(n))):
        gift = models.read_gift(gift_tree[name].decode("utf-8"))
        xml = models.read_moodle_xml(xml_tree[name.with_suffix(".xml")])
        # The categories that hold questions (Moodle XML also creates each topic's parent category first).
        x_paths = [c.path for c in xml.categories if any(q.category == c.path for q in xml.questions)]
        for index, x_path in enumerate(x_paths):
            g_cat = gift.categories[index] if index < len(gift.categories) else None
            if g_cat is None or g_cat.path != x_path:
                out.append(warning("W806", f"Moodle reads the GIFT category as {g_cat.path[2:] if g_cat else None!r}, the Moodle XML one as {x_path[2:]!r}", where(name, g_cat.line if g_cat else 0)))
        # A question GIFT cannot write is left out of it, and the export says so (W657).
        xml_questions = [x for x in xml.questions if x.idnumber not in left_out]
        if len(gift.questions) != len(xml_questions):
            out.append(warning("W806", f"Moodle reads {len(gift.questions)} questions from the GIFT file and {len(xml_questions)} from the Moodle XML one", where(name)))
        for g, x in zip(gift.questions, xml_questions):
            # Units and case sensitivity are not compared: GIFT has neither, and the export says so (W657).
            for label, a, b in (("idnumber", g.idnumber, x.idnumber), ("tags", g.tags, x.tags), ("name", g.name, x.name),
                                ("question type", g.qtype, x.qtype), ("single or multiple answer", g.single, x.single),
                                ("question text", g.questiontext, x.questiontext), ("general feedback", g.generalfeedback, x.generalfeedback),
                                ("answers", g.answers, [(t, f, fb) for t, f, fb in x.answers]), ("tolerances", g.tolerances, x.tolerances),
                                ("matching subquestions", g.subquestions, x.subquestions)):
                if a != b:
                    out.append(warning("W806", f"question {x.idnumber}: Moodle reads another {label} from GIFT than from Moodle XML (GIFT special characters?): {_diff(a, b)}", where(name, g.line)))
        try:
            result = course.import_file(gift)
        except models.MoodleImportAborted as exc:
            out.append(warning("W805", f"importing this file after the others into one course fails: {exc}", where(name)))
            continue
        for idnumber in result.dropped_idnumbers:
            out.append(warning("W805", f"imported after the other GIFT files into one course, question {idnumber} loses its idnumber", where(name)))
    return out


def _diff(a, b) -> str:
    a, b = repr(a), repr(b)
    start = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    return f"…{a[max(0, start - 20):start + 40]}… instead of …{b[max(0, start - 20):start + 40]}…"


# --- Canvas and QTI -------------------------------------------------------------------------

class _Members(Mapping[str, bytes]):
    """A zip package's members by name, each read (inflated) when it is asked for, so that a
    package of thousands of items is never held inflated at once."""

    def __init__(self, data: bytes):
        self._archive = zipfile.ZipFile(io.BytesIO(data))
        self._names = {n: None for n in self._archive.namelist()}

    def __getitem__(self, name: str) -> bytes:
        if name not in self._names:
            raise KeyError(name)
        return self._archive.read(name)

    def __iter__(self):
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)


def _members(data: bytes) -> _Members:
    return _Members(data)


def _items(files: Mapping[str, bytes]):
    for member in sorted(files):
        if member.startswith("items/"):
            data = files[member]
            yield member, data, models.parse_xml(data)


def _questions_by_identifier(bank: Bank) -> dict:
    """The question an item identifier names: its id, or its id and language joined by a hyphen
    (the first question in bank order that either names, as a search through them would find)."""
    index: dict = {}
    for q in bank.questions:
        index.setdefault(q.id, q)
        index.setdefault(f"{q.id}-{bank.lang}", q)
    return index


def _said(text) -> str:
    from ..exporters.common import html_paragraph

    return html_paragraph(text) if text else ""


def _canvas_options(q, lang: str) -> list:
    return [(o.text, 100 if o.id in q.right_ids() else 0, _said(o.feedback)) for o in q.options]


def _canvas_true_false(q, lang: str) -> list:
    from ..exporters.words import words

    labels = words(lang)
    return [(labels.true, 100 if q.answer else 0, _said(q.feedback_true)), (labels.false, 0 if q.answer else 100, _said(q.feedback_false))]


def _canvas_short_answer(q, lang: str) -> list:
    from ..exporters.qti12_common import full_credit_answers

    return [(a.text, 100, _said(a.feedback)) for a in full_credit_answers(q, canvas=True)]


def _canvas_general(q, lang: str) -> tuple[str, str]:
    return (_said(q.explanation), "the explanation")


def _canvas_essay_general(q, lang: str) -> tuple[str, str]:
    from ..exporters.qti12_common import canvas_general_feedback

    # the explanation, then the model answer (Canvas's essay has no other place for it)
    return (canvas_general_feedback(q, lang) or "", "the explanation and the model answer")


def _read_answers(read: dict) -> list:
    return [(a["text"], a["weight"], a["comments"]) for a in read["answers"]]


CANVAS = {
    "single-choice": (_canvas_options, _read_answers, _canvas_general),
    "multiple-response": (_canvas_options, _read_answers, _canvas_general),
    "true-false": (_canvas_true_false, _read_answers, _canvas_general),
    "short-answer": (_canvas_short_answer, _read_answers, _canvas_general),
    "numerical": (lambda q, lang: [(float(q.answer), round(float(q.absolute_tolerance), 12))],
                  lambda read: [(a["exact"], round(a["margin"], 12)) for a in read["answers"]], _canvas_general),
    "matching": (lambda q, lang: [(pair.prompt, pair.answer) for pair in q.pairs],
                 lambda read: [(a["left"], a["right"]) for a in read["answers"]], _canvas_general),
    # nothing to score with: Canvas reads it as an essay only without answers
    "essay": (lambda q, lang: [("essay_question",)],
              lambda read: [(read["question_type"],)] + [(a["text"],) for a in read["answers"]], _canvas_essay_general),
}
"""Per kind the Canvas export carries: what Canvas should read of each answer of a question in
the Canvas QTI 1.2 quiz (what the export says it leaves out, W663, is not expected), the same
taken from what its import read (:func:`.models.canvas_read_qti12_item`), and the general
feedback it should keep, with what that holds."""


def _canvas(banks: dict[str, Bank], tree, where, english=None) -> list[Diagnostic]:
    """The Canvas QTI 1.2 quiz (``canvas-qti12/``, the package Canvas admins import) as Canvas's
    Classic Quizzes import reads it: the package's cross-references, then each question's
    answers, weights, per-answer feedback and explanation. ``english``: the texts each language
    shows in English (``ExportOptions.english``), marked so in the package as in the expectation."""
    from ..exporters.qti12_common import item_ident
    from ..exporters.common import english_fallback

    out = []
    for lang, bank in banks.items():
        with english_fallback(english or {}, [lang]):  # the expectation marked as the package is
            name = get_format("canvas-qti12").language_file(bank.topic, lang, english)
            files = _members(tree[name])
            here = lambda member, n=name: where(f"{n}:{member}")  # noqa: E731
            by_ident = {item_ident(q.id, lang): q for q in bank.questions}
            for quiz in models.canvas_read_qti12_package(files):
                for problem in quiz["problems"]:
                    out.append(warning("W807", f"Canvas drops the quiz's settings: {problem}", here("imsmanifest.xml")))
                member = quiz["file"]
                for read in quiz["questions"]:
                    q = by_ident.get(read["migration_id"] or "")
                    if q is None:
                        continue
                    expect, read_back, general = CANVAS[q.kind]
                    expected, found = expect(q, lang), read_back(read)
                    if found != expected:
                        wrong = [str(n + 1) for n, (a, b) in enumerate(zip(found, expected)) if a != b]
                        detail = f"answer(s) {', '.join(wrong)}" if wrong and len(found) == len(expected) else f"{len(found)} answer(s) instead of {len(expected)}"
                        out.append(warning("W807", f"question {q.id}: Canvas reads another key, weight or answer feedback ({detail})", here(member)))
                    for key in ("correct_comments", "incorrect_comments"):
                        if read[key]:
                            out.append(warning("W807", f"question {q.id}: Canvas shows {read[key][:60]!r} as its {key.replace('_', ' ')} (an identifier matches its correct/incorrect pattern)", here(member)))
                    kept, what = general(q, lang)
                    if read["neutral_comments"] != kept:
                        out.append(warning("W807", f"question {q.id}: Canvas does not keep {what} as general feedback", here(member)))
    return out


_OPENOLAT_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_-]*$")


def _qti_matching_key(q):
    from ..exporters.qti_common import match_targets, ncname

    target = {text: identifier for identifier, text, _ in match_targets(q)}
    return [f"{ncname('source-' + pair.id)} {target[pair.answer]}" for pair in q.pairs]


def _choice(identifier: str) -> str:
    from ..exporters.qti_common import choice_identifier

    return choice_identifier(identifier)


QTI_KEYS = {
    "multiple-response": lambda q: [_choice(c) for c in q.right_ids()],
    "true-false": lambda q: _choice("true" if q.answer else "false"),
    "numerical": lambda q: repr(q.answer),
    "short-answer": lambda q: next(a.text for a in q.answers if a.credit >= 1) if any(a.credit >= 1 for a in q.answers) else q.answers[0].text,
    "ordering": lambda q: [_choice(item.id) for item in q.items],
    "matching": _qti_matching_key,
}
"""The right response to a QTI item of each scored kind (single choice aside: each option is
tried), as the QTI exports name it."""


def _qti(banks: dict[str, Bank], tree, where, english=None) -> list[Diagnostic]:
    out = []
    owners: dict[str, str] = {}
    for lang, bank in banks.items():
        name = get_format("qti21").language_file(bank.topic, lang, english)
        files = _members(tree[name])
        here = lambda member, n=name: where(f"{n}:{member}")  # noqa: E731
        test = models.parse_xml(files["assessment.xml"])
        control = models.qti_item_session_control(test)
        if not control["showFeedback"]:
            out.append(warning("W808", "the test does not set itemSessionControl showFeedback=\"true\": players hide all modal feedback", here("assessment.xml")))
        manifest = models.parse_xml(files["imsmanifest.xml"])
        if not any(models.local(e.tag) == "lom" for e in manifest.iter()):
            out.append(warning("W808", "the manifest has no LOM metadata: players show identifiers instead of titles", here("imsmanifest.xml")))
        identifiers = [manifest.get("identifier"), test.get("identifier")] + [r.identifier for r in manifest_resources(manifest)]
        by_identifier = _questions_by_identifier(bank)
        for member, data, doc in _items(files):
            identifiers.append(doc.get("identifier"))
            stem = PurePosixPath(member).stem
            if not _OPENOLAT_NAME.match(stem):
                out.append(warning("W809", f"file name {member!r}: OpenOlat needs a letter first and no periods or spaces", here(member)))
            q = by_identifier.get(doc.get("identifier") or "")
            if q is None:
                continue
            if not q.SCORED:  # graded by a person: no response is right or wrong here
                continue
            processing = models.QtiProcessing(doc)  # (read once for every response tried)
            if not (q.PICKS_OPTIONS and q.ONE_KEY):
                score = processing.outcomes(QTI_KEYS[q.kind](q)).get("SCORE")
                if score != 1.0:
                    out.append(warning("W808", f"question {q.id}: its right answer scores {score}", here(member)))
                continue
            choices = qti_descendants(doc, "simpleChoice")
            for option, choice in zip(q.options, choices):
                outcomes = processing.outcomes(choice.get("identifier"))
                if outcomes.get("SCORE") != q.score(option.id):
                    out.append(warning("W808", f"question {q.id}: choosing {option.id} scores {outcomes.get('SCORE')}", here(member)))
                shown = processing.shown_feedback(outcomes)
                wanted = ([" ".join(option.feedback.split())] if option.feedback else []) + ([" ".join(q.explanation.split())] if q.explanation else [])
                if sorted(shown) != sorted(wanted):
                    out.append(warning("W808", f"question {q.id}: choosing {option.id} shows {len(shown)} feedback block(s), not its feedback and the explanation", here(member)))
        for ident in identifiers:
            if ident in owners and owners[ident] != lang:
                out.append(warning("W809", f"identifier {ident!r} is also used by the {owners[ident]} package: two languages imported into one place collide", here("imsmanifest.xml")))
            owners.setdefault(ident, lang)
    return out

