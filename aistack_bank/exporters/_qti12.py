"""QTI 1.2 items shared by the Canvas quiz export and the Common Cartridge export.

Identifiers (stable, from the bank's ids, one set per language so that two languages imported
into one course never collide):
  assessment / quiz folder  <topic>-<lang>             item           <qid>-<lang>
  answer (response_label)   <qid>-<lang>-<option>      its feedback   <qid>-<lang>-<option>_fb
  general feedback          general_fb                 response       response1
Canvas reads ``general_fb`` as the neutral comment and ``<answer>_fb`` as the answer's comment.
"""

from __future__ import annotations

from ..model import Bank
from ._qti import ncname
from ._shared import html_paragraph, html_text, short

QTI12_NS = "http://www.imsglobal.org/xsd/ims_qtiasiv1p2"
QTI12_XSD = "http://www.imsglobal.org/xsd/ims_qtiasiv1p2p1.xsd"
POINTS = 1


def assessment_ident(bank: Bank) -> str:
    return ncname(f"{bank.topic.id}-{bank.lang}")


def item_ident(qid: str, lang: str) -> str:
    return ncname(f"{qid}-{lang}")


def answer_ident(qid: str, lang: str, option_id: str) -> str:
    return ncname(f"{qid}-{lang}-{option_id}")


def _mattext(text_raw: str, indent: str, html: bool = True) -> str:
    if html:
        return f'{indent}<material>\n{indent}  <mattext texttype="text/html">{html_text(html_paragraph(text_raw))}</mattext>\n{indent}</material>'
    return f'{indent}<material>\n{indent}  <mattext texttype="text/plain">{html_text(text_raw)}</mattext>\n{indent}</material>'


def _field(label: str, entry: str, indent: str) -> str:
    return f"{indent}<qtimetadatafield>\n{indent}  <fieldlabel>{label}</fieldlabel>\n{indent}  <fieldentry>{html_text(entry)}</fieldentry>\n{indent}</qtimetadatafield>"


def render_item(bank: Bank, index: int, *, canvas: bool, indent: str = "      ", suffix: str = "") -> list[str]:
    """One single-choice ``<item>``: Canvas's metadata (``question_type``, ``points_possible``,
    ``original_answer_ids``) or the cartridge profile's (``cc_profile``, ``cc_weighting``)."""
    q = bank.questions[index]
    i = indent
    ident = item_ident(q.id, bank.lang) + suffix
    answers = {o.id: answer_ident(q.id, bank.lang, o.id) for o in q.options}
    out = [f'{i}<item ident="{ident}" title="{html_text(short(q.id + " " + q.stem, 120))}">', f"{i}  <itemmetadata>", f"{i}    <qtimetadata>"]
    if canvas:
        fields = [("question_type", "multiple_choice_question"), ("points_possible", f"{POINTS:.1f}"),
                  ("original_answer_ids", ",".join(answers.values())), ("assessment_question_identifierref", ncname(f"{ident}-bank"))]
    else:
        fields = [("cc_profile", "cc.multiple_choice.v0p1"), ("cc_weighting", str(POINTS)), ("question_type", "multiple_choice_question")]
    out += [_field(label, entry, i + "      ") for label, entry in fields]
    out += [f"{i}    </qtimetadata>", f"{i}  </itemmetadata>", f"{i}  <presentation>", _mattext(q.stem, i + "    "),
            f'{i}    <response_lid ident="response1" rcardinality="Single">', f"{i}      <render_choice>"]
    for o in q.options:
        out += [f'{i}        <response_label ident="{answers[o.id]}">', _mattext(o.text, i + "          ", html=False), f"{i}        </response_label>"]
    out += [f"{i}      </render_choice>", f"{i}    </response_lid>", f"{i}  </presentation>", f"{i}  <resprocessing>", f"{i}    <outcomes>",
            f'{i}      <decvar maxvalue="100" minvalue="0" varname="SCORE" vartype="Decimal"/>', f"{i}    </outcomes>",
            f'{i}    <respcondition continue="Yes">', f"{i}      <conditionvar>", f"{i}        <other/>", f"{i}      </conditionvar>",
            f'{i}      <displayfeedback feedbacktype="Response" linkrefid="general_fb"/>', f"{i}    </respcondition>"]
    for o in q.options:
        if o.feedback is None:
            continue
        out += [f'{i}    <respcondition continue="Yes">', f"{i}      <conditionvar>", f'{i}        <varequal respident="response1">{answers[o.id]}</varequal>',
                f"{i}      </conditionvar>", f'{i}      <displayfeedback feedbacktype="Response" linkrefid="{answers[o.id]}_fb"/>', f"{i}    </respcondition>"]
    out += [f'{i}    <respcondition continue="No">', f"{i}      <conditionvar>", f'{i}        <varequal respident="response1">{answers[q.correct]}</varequal>',
            f"{i}      </conditionvar>", f'{i}      <setvar action="Set" varname="SCORE">100</setvar>', f"{i}    </respcondition>", f"{i}  </resprocessing>"]
    if q.explanation is not None:
        out += [f'{i}  <itemfeedback ident="general_fb">', f"{i}    <flow_mat>", _mattext(q.explanation, i + "      "), f"{i}    </flow_mat>", f"{i}  </itemfeedback>"]
    for o in q.options:
        if o.feedback is None:
            continue
        out += [f'{i}  <itemfeedback ident="{answers[o.id]}_fb">', f"{i}    <flow_mat>", _mattext(o.feedback, i + "      "), f"{i}    </flow_mat>", f"{i}  </itemfeedback>"]
    out.append(f"{i}</item>")
    return out


def questestinterop_open() -> str:
    return (f'<questestinterop xmlns="{QTI12_NS}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
            f'xsi:schemaLocation="{QTI12_NS} {QTI12_XSD}">')
