"""Conversion of a bank to IMS Common Cartridge 1.1 (one ``.imscc`` per language).

Each cartridge holds the topic's questions twice, in the cartridge's own QTI 1.2 profile: as a
question bank (``imsqti_xmlv1p2/imscc_xmlv1p1/question-bank``, which Canvas, Blackboard and
Brightspace import as a bank or pool) and as an assessment
(``imsqti_xmlv1p2/imscc_xmlv1p1/assessment``, a quiz, listed in the cartridge's organization).
CC 1.1 is the version all three read; 1.3 adds nothing these question resources use.
"""

from __future__ import annotations

from itertools import chain
from typing import Iterator, Mapping

from ..errors import Diagnostic, warning
from ..model import Bank, Library
from ..options import ExportOptions
from .qti_common import bank_title, language_notes, ncname
from ..kinds.short_answer import has_wildcard
from .qti12_common import CC_PROFILES, ITEM_PARTS, SharedTexts, assessment_ident, cartridge_essay_item, items_utf8, questestinterop_open, render_item
from .record import WHOLE_BANK_STEM, Format, by_category, languages
from .common import deterministic_zip, html_text, utf8_pieces

NAME = "common-cartridge"
CC_NS = "http://www.imsglobal.org/xsd/imsccv1p1/imscp_v1p1"
LOM_NS = "http://ltsc.ieee.org/xsd/imsccv1p1/LOM/manifest"
ASSESSMENT_TYPE = "imsqti_xmlv1p2/imscc_xmlv1p1/assessment"
BANK_TYPE = "imsqti_xmlv1p2/imscc_xmlv1p1/question-bank"
CC_QTI_XSD = "http://www.imsglobal.org/profile/cc/ccv1p1/ccv1p1_qtiasiv1p2p1_v1p0.xsd"


def _field(label: str, entry: str) -> str:
    return f"      <qtimetadatafield>\n        <fieldlabel>{label}</fieldlabel>\n        <fieldentry>{entry}</fieldentry>\n      </qtimetadatafield>"


def _open() -> str:
    return questestinterop_open().replace("http://www.imsglobal.org/xsd/ims_qtiasiv1p2p1.xsd", CC_QTI_XSD)


def render_assessment(bank: Bank) -> bytes:
    return b"".join(assessment_pieces(bank))


def assessment_pieces(bank: Bank, shared: SharedTexts | None = None) -> Iterator[bytes]:
    """The assessment file of ``bank`` (:func:`render_assessment`) in pieces of its bytes, each
    item's lines joined at once and encoded a few hundred items at a time; with ``shared``, a
    choice item's texts are shared with the question bank's item (:func:`bank_pieces`)."""
    ident = assessment_ident(bank)
    head = ['<?xml version="1.0" encoding="UTF-8"?>', _open(), f'  <assessment ident="{ident}" title="{html_text(bank.topic.title)}">', "    <qtimetadata>",
            _field("cc_profile", "cc.exam.v0p1"), _field("qmd_assessmenttype", "Examination"), _field("qmd_scoretype", "Percentage"),
            _field("qmd_feedbackpermitted", "Yes"), _field("qmd_hintspermitted", "No"), _field("qmd_solutionspermitted", "Yes"),
            _field("cc_maxattempts", "unlimited"), "    </qtimetadata>", '    <section ident="root_section">']
    return utf8_pieces(chain(head, items_utf8(FORMAT, bank, canvas=False, shared=shared), ["    </section>", "  </assessment>", "</questestinterop>"]))


def render_bank(bank: Bank) -> bytes:
    return b"".join(bank_pieces(bank))


def bank_pieces(bank: Bank, shared: SharedTexts | None = None) -> Iterator[bytes]:
    """The question bank file of ``bank`` (:func:`render_bank`) in pieces of its bytes (with
    ``shared``, as :func:`assessment_pieces`)."""
    ident = ncname(assessment_ident(bank) + "-bank")
    head = ['<?xml version="1.0" encoding="UTF-8"?>', _open(), f'  <objectbank ident="{ident}">', "    <qtimetadata>",
            _field("cc_profile", "cc.exam.v0p1"), "    </qtimetadata>"]
    return utf8_pieces(chain(head, items_utf8(FORMAT, bank, canvas=False, shared=shared, indent="    ", suffix="-bank"), ["  </objectbank>", "</questestinterop>"]))


def paths(bank: Bank) -> tuple[str, str]:
    ident = assessment_ident(bank)
    return f"{ident}/assessment.xml", f"{ident}-bank/question_bank.xml"


def render_manifest(bank: Bank) -> bytes:
    return render_bank_manifest([bank], ident=assessment_ident(bank), title=bank.topic.title, lang=bank.lang)


def render_bank_manifest(banks: list[Bank], *, ident: str, title: str, lang: str) -> bytes:
    """The manifest of a cartridge holding each topic of ``banks`` as an assessment and a question bank."""
    items, resources = [], []
    for bank in banks:
        topic_ident = assessment_ident(bank)
        assessment_path, bank_path = paths(bank)
        items += [
            f'        <item identifier="{ncname("item-" + topic_ident)}" identifierref="{ncname("res-" + topic_ident)}">',
            f"          <title>{html_text(bank.topic.title)}</title>",
            "        </item>",
        ]
        resources += [
            f'    <resource identifier="{ncname("res-" + topic_ident)}" type="{ASSESSMENT_TYPE}">',
            f'      <file href="{assessment_path}"/>',
            "    </resource>",
            f'    <resource identifier="{ncname("res-" + topic_ident + "-bank")}" type="{BANK_TYPE}">',
            f'      <file href="{bank_path}"/>',
            "    </resource>",
        ]
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<manifest identifier="{ncname("manifest-" + ident)}" xmlns="{CC_NS}" xmlns:lomimscc="{LOM_NS}" '
        'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
        f'xsi:schemaLocation="{CC_NS} http://www.imsglobal.org/profile/cc/ccv1p1/ccv1p1_imscp_v1p2_v1p0.xsd '
        f'{LOM_NS} http://www.imsglobal.org/profile/cc/ccv1p1/LOM/ccv1p1_lommanifest_v1p0.xsd">',
        "  <metadata>",
        "    <schema>IMS Common Cartridge</schema>",
        "    <schemaversion>1.1.0</schemaversion>",
        "    <lomimscc:lom>",
        "      <lomimscc:general>",
        "        <lomimscc:title>",
        f'          <lomimscc:string language="{lang}">{html_text(title)}</lomimscc:string>',
        "        </lomimscc:title>",
        f"        <lomimscc:language>{lang}</lomimscc:language>",
        "      </lomimscc:general>",
        "    </lomimscc:lom>",
        "  </metadata>",
        "  <organizations>",
        f'    <organization identifier="{ncname("org-" + ident)}" structure="rooted-hierarchy">',
        '      <item identifier="LearningModules">',
        *items,
        "      </item>",
        "    </organization>",
        "  </organizations>",
        "  <resources>",
        *resources,
        "  </resources>",
        "</manifest>",
    ]
    return ("\n".join(out) + "\n").encode("utf-8")


def package(bank: Bank) -> bytes:
    assessment_path, bank_path = paths(bank)
    shared = SharedTexts()  # (whichever of the two files the zip writes first keeps its choice items' texts for the other's)
    return deterministic_zip({"imsmanifest.xml": lambda: render_manifest(bank), assessment_path: lambda: assessment_pieces(bank, shared),
                              bank_path: lambda: bank_pieces(bank, shared)})  # (each member rendered when the zip comes to it)


def bank_package(library: Library) -> bytes:
    """One cartridge of the whole bank: an assessment and a question bank per topic, in category order."""
    banks = [bank for _, topics in by_category(library) for bank in topics]
    files = {"imsmanifest.xml": render_bank_manifest(banks, ident=ncname(f"{WHOLE_BANK_STEM}-{library.lang}"), title=bank_title(library), lang=library.lang)}
    for bank in banks:
        assessment_path, bank_path = paths(bank)
        shared = SharedTexts()
        files[assessment_path] = lambda bank=bank, shared=shared: assessment_pieces(bank, shared)
        files[bank_path] = lambda bank=bank, shared=shared: bank_pieces(bank, shared)
    return deterministic_zip(files)


def _multiple_response_notes(q) -> list[Diagnostic]:
    if q.scoring == "partial":
        return [warning("W664", f"{NAME}: {q.id} scores partially, but the profile's multiple response is all-or-nothing "
                                "(Moodle's restore gives each right option 1/n and takes nothing for a wrong one)")]
    return [warning("W664", f"{NAME}: {q.id} is all-or-nothing, but Moodle's restore gives each right option 1/n and takes "
                            "nothing for a wrong one: part of the right options earns part of the marks, and ticking every option full marks")]


def _short_answer_notes(q) -> list[Diagnostic]:
    out = []
    kept = [a for a in q.answers if a.credit >= 1]
    dropped = [a.text for a in q.answers if a.credit < 1]
    if dropped:
        out.append(warning("W664", f"{NAME}: {q.id}'s partial-credit answer(s) {', '.join(repr(t) for t in dropped)} are left out: "
                                   "the profile's fill-in-the-blank gives every answer full marks"))
    if q.case_sensitive:
        out.append(warning("W664", f"{NAME}: {q.id} is case-sensitive, but the profile's fill-in-the-blank ignores case"))
    if any(a.feedback is not None for a in kept):
        out.append(warning("W664", f"{NAME}: {q.id}'s answer feedback is lost in Moodle's restore (its converter drops the "
                                   "feedback of right answers); the explanation is kept"))
    starred = [a.text for a in kept if "*" in a.text and not has_wildcard(a.text)]
    if starred:
        out.append(warning("W664", f"{NAME}: {q.id}'s answer(s) {', '.join(repr(t) for t in starred)} hold a '*', which Moodle's "
                                   "restore reads as its wildcard (any characters)"))
    wild = [a.text for a in kept if has_wildcard(a.text)]
    if wild:
        out.append(warning("W664", f"{NAME}: {q.id}'s answer(s) {', '.join(repr(t) for t in wild)} use Moodle's wildcard *, which the "
                                   "profile's fill-in-the-blank does not have: Moodle's restore keeps it a wildcard, other LMSs credit "
                                   "only the text as written"))
    return out


def _essay_notes(q) -> list[Diagnostic]:
    lost = [name for name, value in (("model answer", q.model_answer), ("response template", q.response_template)) if value is not None]
    if not lost:
        return []
    return [warning("W664", f"{NAME}: {q.id}'s {' and '.join(lost)} {'are' if len(lost) > 1 else 'is'} left out: the profile's essay has no place for {'them' if len(lost) > 1 else 'it'} "
                            "(Moodle's restore gives the essay its default options, an empty grader information and template)")]


KIND_NOTES = {"multiple-response": _multiple_response_notes, "short-answer": _short_answer_notes, "essay": _essay_notes}
"""What the profile scores otherwise than the bank, or Moodle's restore changes, in a question of each kind (W664)."""


def notes(banks: Mapping[str, Bank], options: ExportOptions) -> list[Diagnostic]:
    """What the profile scores otherwise than the bank, and what Moodle's converter (its restore
    of a cartridge) changes in a question (a question of a kind the profile lacks is left out
    with W652 by the format record)."""
    out = [note for q in (banks[languages(banks)[0]].questions if banks else ()) if q.kind in KIND_NOTES for note in KIND_NOTES[q.kind](q)]
    return out + language_notes(NAME, banks, kinds=frozenset(FORMAT.writers))


FORMAT = Format(
    name=NAME, folder="common-cartridge", honours=frozenset(),
    writers={kind: render_item if kind in ITEM_PARTS else cartridge_essay_item for kind in CC_PROFILES}, left_out_code="W652",
    render=lambda banks, options: package(banks[0]), per_language="{stem}-{lang}.imscc", notes=notes,
    render_bank=lambda libraries, options: bank_package(libraries[0]),
    platforms="IMS Common Cartridge 1.1, as a question bank and a quiz: D2L Brightspace (*Course Admin → Import/Export/Copy Components → Import Components → from a package*), Blackboard Learn (*Course Management → Packages and Utilities → Import Package*; Ultra: *Course Content → ⋯ → Import Content → Import Course Package*), Canvas (*Import Course Content → Common Cartridge 1.x Package*), Schoology (*Course Options → Import → Common Cartridge*).",
    loses="The kinds Common Cartridge's QTI profile cannot carry (W652) and its grading of partial credit and case (W664); an essay's model answer and response template (W664); explanations stay as general feedback.",
)
"""A question bank and an assessment of the topic per language (with several topics, also
``bank-<lang>.imscc``: an assessment and a question bank of each topic)."""
export = FORMAT
