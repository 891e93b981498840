"""Conversion of a bank to Canvas-flavoured QTI 1.2 (one zip per language, one quiz per topic).

The package is what Canvas's own quiz exporter writes and its Classic Quizzes importer reads
(Settings → Import Course Content → QTI .zip file): ``imsmanifest.xml`` in the Common Cartridge
namespaces, a folder named after the quiz holding ``<quiz>.xml`` (QTI 1.2) and Canvas's
``assessment_meta.xml``, whose ``quiz identifier`` and ``assessment ident`` match the manifest's
resource (mismatched identifiers make Canvas drop the quiz's settings and description).
"""

from __future__ import annotations

from itertools import chain
from typing import Iterator, Mapping

from ..errors import Diagnostic, warning
from ..model import Bank, Library
from ..options import ExportOptions
from .qti_common import WORDS_USED as qti_words_used, bank_title, language_notes, ncname
from ..kinds.short_answer import has_wildcard
from .qti12_common import CANVAS_TYPES, ITEM_PARTS, POINTS, assessment_ident, canvas_essay_item, items_utf8, questestinterop_open, render_item
from .record import WHOLE_BANK_STEM, Format, by_category, languages
from .common import deterministic_zip, html_paragraph, html_text, utf8_pieces

NAME = "canvas-qti12"
CANVAS_NS = "http://canvas.instructure.com/xsd/cccv1p0"
CP_NS = "http://www.imsglobal.org/xsd/imsccv1p1/imscp_v1p1"
IMSMD_NS = "http://www.imsglobal.org/xsd/imsmd_v1p2"


def render_quiz(bank: Bank, options: ExportOptions) -> bytes:
    return b"".join(quiz_pieces(bank, options))


def quiz_pieces(bank: Bank, options: ExportOptions) -> Iterator[bytes]:
    """The quiz file of ``bank`` (:func:`render_quiz`) in pieces of its bytes, each item's lines
    joined at once and encoded a few hundred items at a time: a large quiz is never held whole."""
    ident = assessment_ident(bank)
    head = ['<?xml version="1.0" encoding="UTF-8"?>', questestinterop_open(),
            f'  <assessment ident="{ident}" title="{html_text(bank.topic.title)}">', "    <qtimetadata>",
            "      <qtimetadatafield>\n        <fieldlabel>cc_maxattempts</fieldlabel>\n        <fieldentry>1</fieldentry>\n      </qtimetadatafield>",
            "    </qtimetadata>", '    <section ident="root_section">']
    return utf8_pieces(chain(head, items_utf8(FORMAT, bank, canvas=True), ["    </section>", "  </assessment>", "</questestinterop>"]))


def render_meta(bank: Bank, options: ExportOptions) -> bytes:
    ident = assessment_ident(bank)
    count = len(FORMAT.carried(bank))
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<quiz xmlns="{CANVAS_NS}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
        f'xsi:schemaLocation="{CANVAS_NS} https://canvas.instructure.com/xsd/cccv1p0.xsd" identifier="{ident}">',
        f"  <title>{html_text(bank.topic.title)}</title>",
        f"  <description>{html_text(html_paragraph(bank.topic.summary))}</description>",
        f"  <shuffle_answers>{'true' if options.shuffle else 'false'}</shuffle_answers>",
        "  <scoring_policy>keep_highest</scoring_policy>",
        "  <hide_results></hide_results>",
        "  <quiz_type>practice_quiz</quiz_type>",
        f"  <points_possible>{count * POINTS:.1f}</points_possible>",
        "  <require_lockdown_browser>false</require_lockdown_browser>",
        "  <require_lockdown_browser_for_results>false</require_lockdown_browser_for_results>",
        "  <require_lockdown_browser_monitor>false</require_lockdown_browser_monitor>",
        "  <lockdown_browser_monitor_data/>",
        "  <show_correct_answers>true</show_correct_answers>",
        "  <anonymous_submissions>false</anonymous_submissions>",
        "  <could_be_locked>false</could_be_locked>",
        "  <allowed_attempts>-1</allowed_attempts>",
        "  <one_question_at_a_time>false</one_question_at_a_time>",
        "  <cant_go_back>false</cant_go_back>",
        "  <available>false</available>",
        "  <one_time_results>false</one_time_results>",
        "  <show_correct_answers_last_attempt>false</show_correct_answers_last_attempt>",
        "  <only_visible_to_overrides>false</only_visible_to_overrides>",
        "  <module_locked>false</module_locked>",
        "  <assignment_overrides>\n  </assignment_overrides>",
        "</quiz>",
    ]
    return ("\n".join(out) + "\n").encode("utf-8")


def render_manifest(bank: Bank) -> bytes:
    return render_bank_manifest([bank], ident=assessment_ident(bank), title=bank.topic.title, lang=bank.lang)


def render_bank_manifest(banks: list[Bank], *, ident: str, title: str, lang: str) -> bytes:
    """The manifest of a package holding one Canvas quiz per topic of ``banks``."""
    resources = []
    for bank in banks:
        quiz = assessment_ident(bank)
        meta = ncname(f"{quiz}-meta")
        resources += [
            f'    <resource identifier="{quiz}" type="imsqti_xmlv1p2">',
            f'      <file href="{quiz}/{quiz}.xml"/>',
            f'      <dependency identifierref="{meta}"/>',
            "    </resource>",
            f'    <resource identifier="{meta}" type="associatedcontent/imscc_xmlv1p1/learning-application-resource" href="{quiz}/assessment_meta.xml">',
            f'      <file href="{quiz}/assessment_meta.xml"/>',
            "    </resource>",
        ]
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<manifest identifier="{ncname("manifest-" + ident)}" xmlns="{CP_NS}" xmlns:imsmd="{IMSMD_NS}" '
        'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
        f'xsi:schemaLocation="{CP_NS} http://www.imsglobal.org/xsd/imscp_v1p1.xsd {IMSMD_NS} http://www.imsglobal.org/xsd/imsmd_v1p2p2.xsd">',
        "  <metadata>",
        "    <schema>IMS Content</schema>",
        "    <schemaversion>1.1.3</schemaversion>",
        "    <imsmd:lom>",
        "      <imsmd:general>",
        "        <imsmd:title>",
        f'          <imsmd:langstring xml:lang="{lang}">{html_text(title)}</imsmd:langstring>',
        "        </imsmd:title>",
        "      </imsmd:general>",
        "    </imsmd:lom>",
        "  </metadata>",
        "  <organizations/>",
        "  <resources>",
        *resources,
        "  </resources>",
        "</manifest>",
    ]
    return ("\n".join(out) + "\n").encode("utf-8")


def package(bank: Bank, options: ExportOptions) -> bytes:
    ident = assessment_ident(bank)
    return deterministic_zip({  # (each member rendered when the zip comes to it)
        "imsmanifest.xml": lambda: render_manifest(bank),
        f"{ident}/{ident}.xml": lambda: quiz_pieces(bank, options),
        f"{ident}/assessment_meta.xml": lambda: render_meta(bank, options),
    })


def bank_package(library: Library, options: ExportOptions) -> bytes:
    """One package of the whole bank: a Canvas quiz per topic, in category order."""
    banks = [bank for _, topics in by_category(library) for bank in topics]
    files = {"imsmanifest.xml": render_bank_manifest(banks, ident=ncname(f"{WHOLE_BANK_STEM}-{library.lang}"), title=bank_title(library), lang=library.lang)}
    for bank in banks:
        ident = assessment_ident(bank)
        files[f"{ident}/{ident}.xml"] = lambda bank=bank: quiz_pieces(bank, options)
        files[f"{ident}/assessment_meta.xml"] = render_meta(bank, options)
    return deterministic_zip(files)


def _multiple_response_notes(q) -> list[Diagnostic]:
    if q.scoring != "all-or-nothing":
        return []
    return [warning("W663", f"{NAME}: {q.id} is all-or-nothing, but Canvas grades a multiple-answers question partially "
                            "(right picks minus wrong picks, over the right options)")]


def _numerical_notes(q) -> list[Diagnostic]:
    if not q.near_misses:
        return []
    return [warning("W663", f"{NAME}: {q.id}'s near misses are left out: Canvas gives every numerical answer full marks, "
                            "so a near miss would be marked right")]


def _short_answer_notes(q) -> list[Diagnostic]:
    out = []
    dropped = [a.text for a in q.answers if a.credit < 1]
    if dropped:
        out.append(warning("W663", f"{NAME}: {q.id}'s partial-credit answer(s) {', '.join(repr(t) for t in dropped)} are left out: "
                                   "Canvas gives every short answer full marks"))
    if q.case_sensitive:
        out.append(warning("W663", f"{NAME}: {q.id} is case-sensitive, but Canvas compares short answers ignoring case"))
    starred = [a.text for a in q.answers if a.credit >= 1 and has_wildcard(a.text)]
    if starred:
        how = ("they are written as they are, and Canvas credits only that text" if len(starred) == len([a for a in q.answers if a.credit >= 1])
               else "they are left out")
        out.append(warning("W663", f"{NAME}: {q.id}'s answer(s) {', '.join(repr(t) for t in starred)} use Moodle's wildcard *, which Canvas "
                                   f"does not have (it compares exactly): {how}"))
    return out


SCORING_NOTES = {"multiple-response": _multiple_response_notes, "numerical": _numerical_notes, "short-answer": _short_answer_notes}
"""What Canvas's importer and grader do otherwise than the bank with a question of each kind (W663)."""


def scoring_notes(banks: Mapping[str, Bank]) -> list[Diagnostic]:
    """What Canvas's importer and grader do otherwise than the bank, question by question (W663)."""
    if not banks:
        return []
    return [note for q in banks[languages(banks)[0]].questions if q.kind in SCORING_NOTES for note in SCORING_NOTES[q.kind](q)]


WORDS_USED = {
    **qti_words_used,
    # An essay's model answer goes into Canvas's general comment after a label in the question's language.
    "essay": lambda q, lang: f"no label for the model answer in {lang}" if q.model_answer is not None else None,
}
"""What the Canvas writer of each kind takes from the exporter's words (W662 when it has none for a language)."""


def notes(banks: Mapping[str, Bank], options: ExportOptions) -> list[Diagnostic]:
    """A warning for each question, or part of one, that Canvas cannot carry as the bank scores it."""
    return scoring_notes(banks) + language_notes(NAME, banks, words=WORDS_USED)


FORMAT = Format(
    name=NAME, folder="canvas-qti12", honours=frozenset({"shuffle"}),
    writers={kind: render_item if kind in ITEM_PARTS else canvas_essay_item for kind in CANVAS_TYPES}, left_out_code="W651",
    render=lambda banks, options: package(banks[0], options), per_language="{stem}-{lang}.zip", notes=notes,
    render_bank=lambda libraries, options: bank_package(libraries[0], options),
    platforms="Canvas Classic Quizzes: *Course → Settings → Import Course Content → Content Type: QTI .zip file* (one quiz per topic; Canvas New Quizzes can migrate it or import the same package). Blackboard Learn: *Course Tools → Tests, Surveys, and Pools → Pools → Import QTI 1.2 Pool*.",
    loses="The kinds Canvas cannot carry (W651); Canvas's own grading of partial credit, near misses and case (W663); units and decimal commas (W660, W661); an essay's response template (its model answer goes into the general comment).",
)
"""One Canvas quiz of the topic per language (with several topics, also ``bank-<lang>.zip``: one quiz per topic)."""
export = FORMAT
