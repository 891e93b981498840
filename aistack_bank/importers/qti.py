"""Reading questions from QTI packages: QTI 1.2 (Canvas, Blackboard, Common Cartridge) and QTI
2.1/2.2 (TAO, OpenOlat, this tool's own exports; QTI 3.0 items too).

Items are found through ``imsmanifest.xml``: every resource whose type names QTI (``imsqti_*``,
Blackboard's ``assessment/x-bb-qti-*``) is read, tests excepted (their items are resources of
their own). Every kind of the bank is read: single choice, multiple response, true-false (two
choices labelled true and false), numerical, short answer, matching, ordering (QTI 2/3's
``orderInteraction``) and essay (``extendedTextInteraction``; Canvas's ``essay_question``, its
model answer read back from after its label in the general comment; ``cc.essay.v0p1``), in the forms Canvas's
quiz export, the cartridge profile and QTI 2/3 response processing write them (this tool's own
exports among them). An item of another kind is reported as skipped, with why. The same question
found twice (a Canvas or cartridge export holds a bank and a quiz) is taken once.
"""

from __future__ import annotations

import re
from pathlib import Path, PurePosixPath

from ..errors import BankError
from ..kinds.short_answer import fold, xsd_pattern
from ..exporters import qti12_common
from ._kinds import MAX_CHOICES, MAX_OPTIONS, MAX_PAIRS, MIN_CHOICES, MIN_OPTIONS, MIN_PAIRS, NotImported, ordering
from ..readers.qti import attr, children, container_title, manifest_resources, descendants, item_feedback, item_types, items, metadata_fields, presentations, qti_name, response_conditions
from ..readers.xml import MAX_DEPTH, XmlMalformed, XmlRefused, depth_of, parse
from .records import ImportedQuestion, Skipped
from ._archive import Package, open_package
from ._html import html_to_text

MANIFEST = "imsmanifest.xml"
OUTCOME_FEEDBACK = {"correct_fb": "the comment for any right answer", "general_incorrect_fb": "the comment for any wrong answer",
                    "correct": "the comment for any right answer", "incorrect": "the comment for any wrong answer"}
"""Canvas's (``*_fb``) and Blackboard's identifiers of feedback shown for any right or any wrong answer."""
CANVAS_CHOICE_TYPES = {"multiple_choice_question", "true_false_question"}
CANVAS_TYPES = set(qti12_common.CANVAS_TYPES.values())
"""Canvas's question types the importer reads: those the Canvas export writes."""
CC_PROFILES = set(qti12_common.CC_PROFILES.values())
"""The cartridge profiles the importer reads: those the cartridge export writes."""
IDS = "abcdefghijklmnopqrstuvwxyz"


def _parse(package: Package, name: str, data: bytes):
    try:
        return parse(data)
    except XmlRefused as exc:
        raise BankError(f"refused: the XML declares a DTD or entities ({exc.what}); QTI packages need neither", package.where(name, exc.line, exc.column), code="E723") from None
    except XmlMalformed as exc:
        raise BankError(f"not well-formed XML: {exc.reason}", package.where(name, exc.line, exc.column), code="E723") from None


def _resources(package: Package) -> list[tuple[str, str]]:
    """(type, file path) of every QTI resource the manifest lists, in manifest order."""
    raw = package.get(MANIFEST)
    if raw is None:
        raise BankError(f"no {MANIFEST} at the top of the package; export the quiz or bank again as a QTI or Common Cartridge package", package.where(MANIFEST), code="E722")
    root = _parse(package, MANIFEST, raw)
    if qti_name(root.tag) != "manifest":
        raise BankError(f"{MANIFEST} is not an IMS manifest (its root is <{qti_name(root.tag)}>)", package.where(MANIFEST), code="E722")
    found = []
    for resource in manifest_resources(root):
        kind = resource.type or ""
        low = kind.lower()
        if "qti" not in low or "test" in low.rsplit("/", 1)[-1] and "x-bb" not in low:
            continue
        base = resource.base or ""
        hrefs = [(base, resource.href)] + [(base, href) for href in resource.files]
        # Blackboard names a resource's file at the package's top (its xml:base is for attachments).
        hrefs.append(("", resource.bb_file))
        for base, href in dict.fromkeys((b, h) for b, h in hrefs if h):
            if not href.lower().endswith((".xml", ".dat", ".qti")):
                continue
            path = str(PurePosixPath(base) / href) if base else href
            path = str(PurePosixPath(re.sub(r"^\./", "", path)))
            if path.startswith("/") or ".." in PurePosixPath(path).parts:
                raise BankError(f"the manifest names {href!r}, outside the package", package.where(MANIFEST), code="E722")
            if package.get(path) is None:
                raise BankError(f"the manifest names {path!r}, which the package does not hold", package.where(MANIFEST), code="E722")
            found.append((kind, path))
    if not found:
        raise BankError(f"{MANIFEST} lists no QTI items, quizzes or question banks", package.where(MANIFEST), code="E722")
    return found


def read(path: Path, language: str = "en") -> tuple[list[ImportedQuestion], list[Skipped]]:
    package = open_package(path)
    questions: list[ImportedQuestion] = []
    skipped: list[Skipped] = []
    seen: dict[tuple, str] = {}
    for kind, name in dict.fromkeys(_resources(package)):
        root = _parse(package, name, package.get(name))
        top = qti_name(root.tag)
        if depth_of(root) > MAX_DEPTH:
            skipped.append(Skipped(name, f"elements nested more than {MAX_DEPTH} deep; no QTI item needs that many"))
            continue
        if top == "questestinterop":
            found = _read_qti12(root, language)
        elif top == "assessmentItem":
            found = [_read_qti2(root, language)]
        elif top == "assessmentTest":
            continue
        else:
            raise BankError(f"not a QTI file: its root element is <{top}>", package.where(name), code="E723")
        category = container_title(root)
        for item in found:
            label = f"{name}: {item.name}"
            if isinstance(item, Skipped):
                skipped.append(Skipped(label, item.reason))
                continue
            key = (item.stem, tuple(item.options), item.correct, item.kind, repr(item.fields))
            if key in seen:
                skipped.append(Skipped(label, f"the same question as {seen[key]} (a package can hold a question bank and a quiz of the same questions)"))
                continue
            seen[key] = label
            item.category = item.category or category
            questions.append(item)
    return questions, skipped


# --- QTI 1.2 -----------------------------------------------------------------------------


def _mattext_of(mats, language: str) -> tuple[str, set[str]]:
    """The text of a material's mattext, mat_formattedtext and matemtext, HTML made plain, and
    the markup and media left out."""
    parts, dropped = [], set()
    for mat in mats:
        if mat.name in ("mattext", "mat_formattedtext", "matemtext"):
            raw = mat.text or ""
            if (mat.texttype or "text/plain").lower() == "text/html" or mat.name == "mat_formattedtext":
                text, d = html_to_text(raw, language)
                dropped |= d
            else:
                text = raw.strip()
            if text:
                parts.append(text)
        else:
            dropped.add(mat.name)
    return "\n".join(parts), dropped


def _metadata(item) -> dict[str, str]:
    fields = {}
    for f in metadata_fields(item):
        if f.label_text:
            fields[f.label_text.strip()] = (f.entry_text or "").strip()
    for name, text in item_types(item):
        fields[name] = (text or "").strip()
    return fields


def _read_qti12(root, language: str) -> list:
    out = []
    for index, item in enumerate(items(root), 1):
        out.append(_item12(item, language, index))
    return out


def _item12(item, language: str, index: int):
    name = item.get("title") or item.get("ident") or f"item {index}"
    meta = _metadata(item)
    qtype = meta.get("question_type") or ""
    profile = meta.get("cc_profile") or ""
    bbtype = meta.get("bbmd_questiontype") or ""
    if qtype and qtype not in CANVAS_TYPES:
        return Skipped(name, f"Canvas question type {qtype!r}; the bank has no kind for it")
    if profile and profile not in CC_PROFILES:
        return Skipped(name, f"Common Cartridge question profile {profile!r}; the bank has no kind for it")
    if qtype in CANVAS_TYPES - CANVAS_CHOICE_TYPES or profile in ("cc.multiple_response.v0p1", "cc.fib.v0p1", "cc.essay.v0p1"):
        return _kind12(item, language, name, qtype, profile)
    if bbtype and bbtype not in ("Multiple Choice", "True/False", "Either/Or"):
        return Skipped(name, f"Blackboard question type {bbtype!r}; only single-choice questions are imported")
    presentation = next(iter(presentations(item, placed=False)), None)
    if presentation is None:
        return Skipped(name, "no presentation (a text-only item); only single-choice questions are imported")
    found = presentation.responses
    lids = [r for r in found if r.name == "response_lid"]
    others = [r.name for r in found if r.name != "response_lid"]
    if others or len(lids) != 1:
        what = ", ".join(sorted(set(others))) or f"{len(lids)} choice responses"
        return Skipped(name, f"not one choice response ({what}): fill-in, numeric, matching or multi-part questions are not imported")
    lid = lids[0]
    if (lid.rcardinality or "Single").lower() != "single":
        return Skipped(name, f"rcardinality {lid.rcardinality!r} (multiple answers); only single-answer questions are imported")
    response_id = lid.ident or ""
    dropped: set[str] = set()
    stem_parts = []
    for mats in presentation.materials_outside(("response_lid",)):  # the one lid's are its options
        text, d = _mattext_of(mats, language)
        dropped |= d
        if text:
            stem_parts.append(text)
    options: list[tuple[str, str]] = []
    for label in lid.labels:
        text, d = _mattext_of(label.material, language)
        dropped |= d
        options.append((label.ident or "", text))
    if not MIN_CHOICES <= len(options) <= MAX_CHOICES:
        return Skipped(name, f"{len(options)} options; the bank takes {MIN_CHOICES} to {MAX_CHOICES}")
    feedback_text: dict[str, str] = {}
    for fb in item_feedback(item):
        text, d = _mattext_of(fb.material, language)
        dropped |= d
        feedback_text[fb.ident or ""] = text
    answer_ids = {o[0] for o in options}
    right: list[str] = []
    per_option: dict[str, list[str]] = {}
    general: list[str] = []
    for cond in response_conditions(item):
        tests = [t for t in cond.tests if t.conditionvar == 0]
        # Blackboard writes an answer's own feedback rule as <varequal respident="ANSWER"/>.
        equals = [(t.text or "").strip() if t.respident in (None, response_id) else t.respident
                  for t in tests if t.name == "varequal"
                  and (t.respident in (None, response_id) or (t.respident in answer_ids and not (t.text or "").strip()))]
        negated = any(t.name == "not" for t in tests)
        links = [ref or "" for ref in cond.feedback]
        for setvar in cond.setvars:
            value = (setvar.text or "").strip()
            variable = setvar.varname or setvar.variablename or "SCORE"
            positive = value == "SCORE.max" or _number(value) > 0
            if variable.upper() == "SCORE" and positive and (setvar.action or "Set") in ("Set", "Add") and equals and not negated:
                right += equals
        if equals and not negated and len(equals) == 1:
            per_option.setdefault(equals[0], []).extend(links)
        elif not equals:
            general.extend(links)
    right = list(dict.fromkeys(right))
    ids = [o[0] for o in options]
    if len(right) != 1 or right[0] not in ids:
        return Skipped(name, f"{len(right)} right answers found in its scoring; only questions with one right option are imported")
    correct = ids.index(right[0])
    # Canvas's comments for any right and any wrong answer: no place in the bank.
    outcome = {f: feedback_text[f] for f in feedback_text if f in OUTCOME_FEEDBACK and feedback_text[f]}
    general_ids = [g for g in general if g in feedback_text and g not in OUTCOME_FEEDBACK]
    general_ids = general_ids or [i for i in feedback_text if re.search(r"general|_all", i, re.I) and i not in OUTCOME_FEEDBACK]
    explanation = "\n".join(feedback_text[g] for g in dict.fromkeys(general_ids) if feedback_text[g])
    result = []
    for ident, text in options:
        fbs = [feedback_text[f] for f in per_option.get(ident, []) if f in feedback_text and f not in general_ids and f not in OUTCOME_FEEDBACK and feedback_text[f]]
        result.append((text, "\n".join(fbs) or None))
    stem = "\n".join(stem_parts)
    imported = _as_true_false(ImportedQuestion(name=name, stem=stem, options=result, correct=correct, explanation=explanation))
    for ident, text in outcome.items():
        imported.notes.append(f"{OUTCOME_FEEDBACK[ident]} has no place in the bank and was not imported: {text!r}")
    if dropped:
        imported.notes.append(f"markup dropped ({', '.join(sorted(dropped))}): the bank holds plain text")
    return imported


def _number(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        return 0.0


# --- QTI 2.x (and 3.0) --------------------------------------------------------------------


BLANK = "_____"
"""What stands for a text entry written inside a sentence of the stem."""


def _html_of(element, skip=(), blank=None) -> str:
    """The markup of ``element``'s content, namespaces dropped, ``skip`` elements left out and
    ``blank`` (a text entry inside a sentence) written as :data:`BLANK`. A walk without
    recursion: no nesting makes it overflow the stack."""
    from html import escape

    parts = [escape(element.text or "", quote=False)]
    stack = [iter(element)]
    closing: list[str] = []
    while stack:
        child = next(stack[-1], None)
        if child is None:
            stack.pop()
            if closing:
                tag, tail = closing.pop()
                parts.append(f"</{tag}>" + escape(tail, quote=False))
            continue
        if child is blank:
            parts.append(BLANK + escape(child.tail or "", quote=False))
        elif child in skip:
            parts.append(escape(child.tail or "", quote=False))
        else:
            tag = qti_name(child.tag)
            tag = {"prompt": "p", "contentBody": "div"}.get(tag, tag)
            parts.append(f"<{tag}>" + escape(child.text or "", quote=False))
            closing.append((tag, child.tail or ""))
            stack.append(iter(child))
    return "".join(parts)


def _read_qti2(root, language: str):
    name = root.get("title") or root.get("identifier") or "item"
    body = next(iter(descendants(root, "itemBody")), None)
    if body is None:
        return Skipped(name, "no item body")
    interactions = [e for e in body.iter() if qti_name(e.tag).endswith("Interaction")]
    kinds = sorted({qti_name(e.tag) for e in interactions})
    if len(interactions) != 1 or kinds[0] not in ("choiceInteraction", "textEntryInteraction", "matchInteraction", "orderInteraction", "extendedTextInteraction"):
        return Skipped(name, f"interactions {', '.join(kinds) or 'none'}; one choice, text entry, match, order or extended text interaction is imported")
    interaction = interactions[0]
    response_id = attr(interaction, "responseIdentifier") or "RESPONSE"
    declaration = next((d for d in descendants(root, "responseDeclaration") if d.get("identifier") == response_id), None)
    max_choices = attr(interaction, "maxChoices") or "1"
    if kinds[0] != "choiceInteraction" or max_choices != "1" or (declaration is not None and declaration.get("cardinality", "single") != "single"):
        return _kind2(root, body, interaction, declaration, response_id, name, language)
    correct_values = [v for c in (descendants(declaration, "correctResponse") if declaration is not None else []) for v in [(x.text or "").strip() for x in descendants(c, "value")]]
    if len(correct_values) != 1:
        return Skipped(name, f"{len(correct_values)} correct responses declared; only questions with one right option are imported")
    dropped: set[str] = set()
    choices = descendants(interaction, "simpleChoice")
    if not MIN_CHOICES <= len(choices) <= MAX_CHOICES:
        return Skipped(name, f"{len(choices)} options; the bank takes {MIN_CHOICES} to {MAX_CHOICES}")
    ids = [c.get("identifier", "") for c in choices]
    if correct_values[0] not in ids:
        return Skipped(name, f"the correct response {correct_values[0]!r} is none of the choices")
    prompt = descendants(interaction, "prompt")
    # The stem: the item body with the interaction replaced by its prompt.
    stem_html = _html_of(body, skip={interaction}) + "".join("<p>" + _html_of(p) + "</p>" for p in prompt)
    stem, d = html_to_text(stem_html, language)
    dropped |= d
    options = []
    inline_feedback: dict[str, str] = {}
    for choice in choices:
        inline = descendants(choice, "feedbackInline")
        text, d = html_to_text(_html_of(choice, skip=set(x for f in inline for x in f.iter())), language)
        dropped |= d - {"feedbackinline"}
        options.append(text)
        if inline:
            inline_feedback[choice.get("identifier", "")] = "\n".join(html_to_text(_html_of(f), language)[0] for f in inline)
    modal = {m.get("identifier", ""): m for m in descendants(root, "modalFeedback")}
    modal_text = {k: html_to_text(_html_of(m), language)[0] for k, m in modal.items()}
    per_choice: dict[str, list[str]] = {}
    for branch in [e for e in root.iter() if qti_name(e.tag) in ("responseIf", "responseElseIf")]:
        condition = next(iter(branch), None)
        if condition is None or qti_name(condition.tag) != "match":
            continue
        operands = list(condition)
        if len(operands) != 2 or qti_name(operands[0].tag) != "variable" or operands[0].get("identifier") != response_id or qti_name(operands[1].tag) != "baseValue":
            continue
        choice = (operands[1].text or "").strip()
        for setter in children(branch, "setOutcomeValue"):
            per_choice.setdefault(choice, []).extend((v.text or "").strip() for v in setter.iter() if qti_name(v.tag) == "baseValue")
    tied = {f for fs in per_choice.values() for f in fs if f in modal_text and any(f not in per_choice.get(other, []) for other in ids)}
    general = [k for k in modal_text if k not in tied]
    explanation = "\n".join(modal_text[k] for k in general if modal_text[k])
    result = []
    for ident, text in zip(ids, options):
        fbs = [modal_text[f] for f in per_choice.get(ident, []) if f in tied and modal_text[f]]
        if ident in inline_feedback:
            fbs.append(inline_feedback[ident])
        result.append((text, "\n".join(fbs) or None))
    if len(general) > 1:
        dropped.add("several general feedbacks joined")
    imported = _as_true_false(ImportedQuestion(name=name, stem=stem, options=result, correct=ids.index(correct_values[0]), explanation=explanation))
    dropped.discard("p")
    if dropped:
        imported.notes.append(f"markup dropped ({', '.join(sorted(dropped))}): the bank holds plain text")
    return imported


# --- the other kinds ----------------------------------------------------------------------


def _true_false_labels() -> list[tuple[str, str]]:
    from ..exporters.words import WORDS

    return [(w.true.casefold(), w.false.casefold()) for w in WORDS.values()]


def _as_true_false(imported: ImportedQuestion) -> ImportedQuestion:
    """A two-option question whose options read true and false (in a language of the exporter's
    table, or Canvas's English ``True``/``False``) as a true-false question; else as it is."""
    if len(imported.options) != 2:
        return imported
    texts = tuple(text.strip().casefold() for text, _ in imported.options)
    for true, false in _true_false_labels():
        if texts in ((true, false), (false, true)):
            feedback = {texts[i]: imported.options[i][1] for i in (0, 1)}
            answer = texts[imported.correct] == true
            fields = {"answer": answer, **({"feedback_true": feedback[true]} if feedback[true] else {}),
                      **({"feedback_false": feedback[false]} if feedback[false] else {})}
            return ImportedQuestion(name=imported.name, stem=imported.stem, explanation=imported.explanation, notes=imported.notes,
                                    category=imported.category, kind="true-false", fields=fields)
    return imported


def _unit_of(stem: str) -> tuple[str, list[dict]]:
    """The stem without a last line naming the unit to answer in (and asking for a decimal
    point), as this tool's exports write it in every language of its table, and that unit."""
    from ..exporters.words import WORDS

    lines = stem.split("\n")
    last = lines[-1].strip()
    for words in WORDS.values():
        for sentence in (last, last.replace(" " + words.point, "")):
            if sentence == words.point:
                return "\n".join(lines[:-1]).rstrip(), []
            head, _, tail = words.unit.partition("{unit}")
            if sentence.startswith(head) and sentence.endswith(tail) and len(sentence) > len(head) + len(tail):
                unit = sentence[len(head): len(sentence) - len(tail)]
                if 0 < len(unit) <= 20 and unit.strip() == unit:
                    return "\n".join(lines[:-1]).rstrip(), [{"name": unit, "multiplier": 1}]
    return stem, []


def _float(text: str | None) -> float | None:
    try:
        value = float((text or "").strip())
    except ValueError:
        return None
    return value if value == value and abs(value) != float("inf") else None


def _numerical_fields(answer: float, low: float, high: float, near: list[tuple[float, float, float, str]], stem: str) -> tuple[str, dict]:
    stem, units = _unit_of(stem)
    fields = {"answer": answer, "tolerance": _round(max(answer - low, high - answer, 0.0))}
    if units:
        fields["units"] = units
    if near:
        fields["near_misses"] = [{"value": value, "tolerance": tolerance, "credit": credit, "feedback": feedback} for value, tolerance, credit, feedback in near]
    return stem, fields


def _round(value: float) -> float:
    """A bound's difference without the float noise of the subtraction (14.7 - 14 = 0.7)."""
    return float(f"{value:.12g}")


def _split_model_answer(text: str) -> tuple[str, str | None]:
    """(explanation, model answer) of an essay's general comment, where the Canvas export writes
    the model answer after its label (*Model answer:*, *Réponse type :*, … in any language the
    exporters have words for); the whole text and None without such a line."""
    from ..exporters.words import WORDS

    labels = {w.model_answer for w in WORDS.values()}
    lines = text.split("\n")
    at = next((i for i, line in enumerate(lines) if line.strip() in labels), None)
    if at is None or not "\n".join(lines[at + 1:]).strip():
        return text, None
    return "\n".join(lines[:at]).strip(), "\n".join(lines[at + 1:]).strip()


def _kind12(item, language: str, name: str, qtype: str, profile: str):
    """A QTI 1.2 multiple-answers, numerical, short-answer, matching or essay item (Canvas's forms
    and the cartridge profile's)."""
    presentation = next(iter(presentations(item, placed=False)), None)
    if presentation is None:
        return Skipped(name, "no presentation")
    dropped: set[str] = set()
    lids = [r for r in presentation.responses if r.name == "response_lid"]
    inside = ("response_lid", "response_str", "response_num") if qtype == "matching_question" else ("response_lid",)
    stem_parts = []
    for mats in presentation.materials_outside(inside):
        text, d = _mattext_of(mats, language)
        dropped |= d
        if text:
            stem_parts.append(text)
    stem = "\n".join(stem_parts)
    feedback_text: dict[str, str] = {}
    for fb in item_feedback(item):
        text, d = _mattext_of(fb.material, language)
        dropped |= d
        feedback_text[fb.ident or ""] = text
    conditions = []
    for cond in response_conditions(item):
        # the tests of its first conditionvar (None without one)
        tests = [t for t in cond.tests if t.conditionvar == 0] if cond.conditionvars else None
        score = [((s.text or "").strip(), s.action or "Set") for s in cond.setvars if (s.varname or "SCORE").upper() == "SCORE"]
        links = [ref or "" for ref in cond.feedback]
        conditions.append((tests, score, links))
    general = [link for c, score, links in conditions if c is not None and [t.name for t in c if t.depth == 1] == ["other"] for link in links]
    explanation = "\n".join(feedback_text[g] for g in dict.fromkeys(general) if feedback_text.get(g))

    def feedback_for(value: str) -> str | None:
        texts = [feedback_text[link] for c, score, links in conditions if c is not None and not score
                 and [(t.text or "").strip() for t in c if t.depth == 1 and t.name == "varequal"] == [value] for link in links if feedback_text.get(link)]
        return "\n".join(texts) or None

    def done(imported: ImportedQuestion) -> ImportedQuestion:
        if dropped:
            imported.notes.append(f"markup dropped ({', '.join(sorted(dropped))}): the bank holds plain text")
        return imported

    if qtype == "multiple_answers_question" or profile == "cc.multiple_response.v0p1":
        if len(lids) != 1:
            return Skipped(name, f"{len(lids)} choice responses; a multiple-answers question has one")
        options = []
        for label in lids[0].labels:
            text, d = _mattext_of(label.material, language)
            dropped |= d
            options.append((label.ident or "", text))
        if not MIN_OPTIONS <= len(options) <= MAX_OPTIONS:
            return Skipped(name, f"{len(options)} options; a multiple-response question takes {MIN_OPTIONS} to {MAX_OPTIONS}")
        right: list[str] = []
        for c, score, _ in conditions:
            if c is None or not any(_number(v) > 0 or v == "SCORE.max" for v, _ in score):
                continue
            right += [(t.text or "").strip() for t in c if t.name == "varequal" and t.parent != "not"]
        ids = [ident for ident, _ in options]
        right = [r for r in dict.fromkeys(right) if r in ids]
        if not right:
            return Skipped(name, "no right option found in its scoring")
        # Canvas grades a multiple-answers question partially; the cartridge's <and> is all-or-nothing.
        scoring = "all-or-nothing" if profile else "partial"
        return done(ImportedQuestion(name=name, stem=stem, explanation=explanation, kind="multiple-response",
                                     options=[(text, feedback_for(ident)) for ident, text in options],
                                     fields={"correct": [IDS[ids.index(r)] for r in right], "scoring": scoring}))
    if qtype == "numerical_question":
        found = []
        for c, score, links in conditions:
            if c is None or not any(_number(v) > 0 for v, _ in score):
                continue
            exact = [_float(t.text) for t in c if t.name == "varequal"]
            lows = [_float(t.text) for t in c if t.name in ("vargte", "vargt")]
            highs = [_float(t.text) for t in c if t.name in ("varlte", "varlt")]
            if exact and exact[0] is not None:
                value = exact[0]
                low = lows[0] if lows and lows[0] is not None else value
                high = highs[0] if highs and highs[0] is not None else value
            elif lows and highs and None not in (lows[0], highs[0]):
                low, high = lows[0], highs[0]
                value = _round((low + high) / 2)
            else:
                continue
            found.append((value, low, high, links))
        if not found:
            return Skipped(name, "no numeric answer found in its scoring")
        value, low, high, _ = found[0]
        stem, fields = _numerical_fields(value, low, high, [], stem)
        imported = ImportedQuestion(name=name, stem=stem, explanation=explanation, kind="numerical", fields=fields)
        if len(found) > 1:
            imported.notes.append(f"{len(found) - 1} other right answer(s) left out: the bank's numerical question has one answer and its tolerance")
        return done(imported)
    if qtype == "essay_question" or profile == "cc.essay.v0p1":  # graded by a person: no scoring to read
        explanation, model_answer = _split_model_answer(explanation)
        if model_answer is not None:
            dropped.discard("strong")  # the model answer's label, which the export writes
        return done(ImportedQuestion(name=name, stem=stem, explanation=explanation, kind="essay",
                                     fields={"model_answer": model_answer} if model_answer else {}))
    if qtype == "short_answer_question" or profile == "cc.fib.v0p1":
        answers: list[str] = []
        for c, score, _ in conditions:
            if c is not None and any(_number(v) > 0 for v, _ in score):
                answers += [(t.text or "").strip() for t in c if t.name in ("varequal", "varsubstring") and (t.text or "").strip()]
                break
        # Canvas and the cc profile compare exactly, ignoring case: a "*" is a star (the bank's
        # "\\*"); spellings the bank's folding makes equal (its exports write them out) come once.
        firsts: dict[str, str] = {}
        for a in answers:
            firsts.setdefault(fold(a), a.replace("*", "\\*"))
        answers = list(firsts.values())[:20]
        if not answers:
            return Skipped(name, "no accepted answer found in its scoring")
        return done(ImportedQuestion(name=name, stem=stem, explanation=explanation, kind="short-answer", fields={
            "answers": [{"text": a, **({"feedback": f} if (f := feedback_for(a)) else {})} for a in answers]}))
    # matching: one response_lid per prompt, each offering every answer; Add conditions pair them.
    prompts, offered = [], {}
    for lid in lids:
        text, d = _mattext_of(lid.prompt or (), language)
        dropped |= d
        prompts.append((lid.ident or "", text))
        for label in lid.labels:
            if (label.ident or "") not in offered:
                label_text, d = _mattext_of(label.material, language)
                dropped |= d
                offered[label.ident or ""] = label_text
    match_of: dict[str, str] = {}
    for c, score, _ in conditions:
        if c is None or not any(_number(v) > 0 for v, _ in score):
            continue
        for t in c:
            if t.depth == 1 and t.name == "varequal" and t.respident:
                match_of.setdefault(t.respident, (t.text or "").strip())
    return done(_matching(name, stem, explanation, [(text, offered.get(match_of.get(ident, ""))) for ident, text in prompts],
                          [text for ident, text in offered.items() if ident not in match_of.values()]))


def _parent(root, node):
    for parent in root.iter():
        if node in list(parent):
            return parent
    return root


def _matching(name: str, stem: str, explanation: str, pairs: list[tuple[str, str | None]], distractors: list[str]):
    """A matching question from (prompt, its answer or None) and the answers no prompt takes."""
    unmatched = [prompt for prompt, answer in pairs if not answer]
    if unmatched:
        return Skipped(name, f"prompt(s) {', '.join(repr(p) for p in unmatched)} have no right answer in its scoring")
    notes, first = [], {}
    for index, pair in enumerate(pairs):
        if pair in first:
            notes.append(f"prompt {index + 1} repeats prompt {first[pair] + 1} ({pair[0]!r} -> {pair[1]!r}): "
                         "the bank asks it once (a learner could not tell the two apart), so the two are one pair")
        first.setdefault(pair, index)
    pairs = list(first)
    if not MIN_PAIRS <= len(pairs) <= MAX_PAIRS:
        return Skipped(name, f"{len(pairs)} prompts; a matching question takes {MIN_PAIRS} to {MAX_PAIRS}")
    # An answer several prompts take is one answer; a text offered twice is offered once.
    distractors = [d for d in dict.fromkeys(distractors) if d not in {a for _, a in pairs}]
    if len(pairs) + len(distractors) > len(IDS):
        return Skipped(name, f"{len(pairs) + len(distractors)} prompts and answers; the bank names them a to z")
    fields = {"pairs": [{"id": IDS[i], "prompt": prompt, "answer": answer} for i, (prompt, answer) in enumerate(pairs)]}
    if distractors:
        fields["distractors"] = [{"id": IDS[len(pairs) + i], "text": text} for i, text in enumerate(distractors)]
    return ImportedQuestion(name=name, stem=stem, explanation=explanation, kind="matching", fields=fields, notes=notes)


def _kind2(root, body, interaction, declaration, response_id: str, name: str, language: str):
    """A QTI 2.x/3.0 multiple-response choice, text entry (numerical or short answer) or match
    interaction, scored by a mapping, ``match_correct`` or conditions on the response."""
    kind = qti_name(interaction.tag)
    if declaration is None:
        return Skipped(name, f"no response declaration for {response_id!r}")
    dropped: set[str] = set()
    prompt = descendants(interaction, "prompt")
    stem_html = _html_of(body, skip={interaction}) + "".join("<p>" + _html_of(p) + "</p>" for p in prompt)
    if kind == "textEntryInteraction":
        parent = _parent(body, interaction)
        in_sentence = bool((parent.text or "").strip() or (interaction.tail or "").strip() or len(parent) > 1)
        stem_html = _html_of(body, skip={interaction}, blank=interaction if in_sentence else None)
    stem, d = html_to_text(stem_html, language)
    dropped |= d
    correct = [(x.text or "").strip() for c in descendants(declaration, "correctResponse") for x in descendants(c, "value")]
    mapping = next(iter(descendants(declaration, "mapping")), None)
    entries = [(attr(e, "mapKey") or "", _float(attr(e, "mappedValue")) or 0.0, attr(e, "caseSensitive")) for e in (descendants(mapping, "mapEntry") if mapping is not None else [])]
    modal_text = {m.get("identifier", ""): html_to_text(_html_of(m), language)[0] for m in descendants(root, "modalFeedback")}
    branches = _branches(root, response_id, _float(correct[0]) if correct else None)
    keyed = [b for b in branches if b["key"] is not None]
    unkeyed = [b for b in branches if b["key"] is None]

    def general_ids() -> list[str]:
        out = []
        for ident in modal_text:
            in_keyed = [b for b in keyed if ident in b["feedback"]]
            if not in_keyed or any(ident in b["feedback"] for b in unkeyed) or (len(keyed) >= 2 and len(in_keyed) == len(keyed)):
                out.append(ident)
        return out

    general = general_ids()
    explanation = "\n".join(modal_text[g] for g in general if modal_text[g])

    def feedback_of(key) -> str | None:
        texts = [modal_text[f] for b in keyed if b["key"] == key for f in b["feedback"] if f in modal_text and f not in general and modal_text[f]]
        return "\n".join(dict.fromkeys(texts)) or None

    def done(imported):
        dropped.discard("p")
        if isinstance(imported, ImportedQuestion) and dropped:
            imported.notes.append(f"markup dropped ({', '.join(sorted(dropped))}): the bank holds plain text")
        return imported

    base_type = attr(declaration, "baseType") or ""
    if kind == "choiceInteraction":
        choices = descendants(interaction, "simpleChoice")
        if not MIN_OPTIONS <= len(choices) <= MAX_OPTIONS:
            return Skipped(name, f"{len(choices)} options; a multiple-response question takes {MIN_OPTIONS} to {MAX_OPTIONS}")
        ids = [c.get("identifier", "") for c in choices]
        options = []
        for choice in choices:
            text, d = html_to_text(_html_of(choice), language)
            dropped |= d
            options.append(text)
        right = [c for c in correct if c in ids]
        if not right and entries:
            right = [key for key, value, _ in entries if value > 0 and key in ids]
        if not right:
            return Skipped(name, "no right option declared")
        scoring = "partial" if entries and any(qti_name(e.tag) == "mapResponse" for e in root.iter()) else "all-or-nothing"
        return done(ImportedQuestion(name=name, stem=stem, explanation=explanation, kind="multiple-response",
                                     options=[(text, feedback_of(ident)) for ident, text in zip(ids, options)],
                                     fields={"correct": [IDS[ids.index(r)] for r in dict.fromkeys(right)], "scoring": scoring}))
    if kind == "textEntryInteraction" and base_type in ("float", "integer"):
        ranges = [b for b in keyed if isinstance(b["key"], tuple)]
        full = next((b for b in ranges if b["score"] is not None and b["score"] >= 1), None)
        value = _float(correct[0]) if correct else None
        if full is not None:
            low, high = full["key"]
            value = value if value is not None and low <= value <= high else _round((low + high) / 2)
        elif value is not None:
            low = high = value
        else:
            return Skipped(name, "no right number declared or found in its response processing")
        near = []
        for b in ranges:
            if b is full or b["score"] is None or b["score"] >= 1:
                continue
            text = feedback_of(b["key"])
            if text is None:
                continue  # the bank needs each near miss's feedback
            lo, hi = b["key"]
            near.append((_round((lo + hi) / 2), _round((hi - lo) / 2), b["score"], text))
        stem, fields = _numerical_fields(value, low, high, near, stem)
        return done(ImportedQuestion(name=name, stem=stem, explanation=explanation, kind="numerical", fields=fields))
    if kind == "textEntryInteraction":
        entries, fold_diacritics, patterns_read = _short_answer_patterns(entries, keyed, root)
        if entries:
            accepted = [(key, min(value, 1.0), case) for key, value, case in entries if key.strip() and value > 0]
        else:
            accepted = [(c, 1.0, "true") for c in correct if c]
        if not accepted:
            return Skipped(name, "no accepted answer declared")
        # QTI 2.1 leaves a map entry's caseSensitive without a default (engines take true); QTI 3 defaults to false.
        default_case = "false" if qti_name(root.tag) == "assessmentItem" and root.tag.startswith("{http://www.imsglobal.org/xsd/imsqtiasi_v3p0}") else "true"
        cases = {(case or default_case) == "true" for _, _, case in accepted}
        answers = [{"text": key.strip(), **({"credit": credit} if credit < 1 else {}), **({"feedback": f} if (f := feedback_of(key)) else {})}
                   for key, credit, _ in accepted[:20]]
        if not any(a.get("credit", 1) >= 1 for a in answers):
            return Skipped(name, "no accepted answer earns full marks")
        imported = ImportedQuestion(name=name, stem=stem, explanation=explanation, kind="short-answer",
                                    fields={"answers": answers, **({"case_sensitive": True} if cases == {True} else {}),
                                            **({"fold_diacritics": True} if fold_diacritics else {})})
        if not patterns_read:
            imported.notes.append("a patternMatch rule the bank cannot read as one of its answers was left out (the answers are the mapping's)")
        if len(cases) > 1:
            imported.notes.append("some accepted answers are case-sensitive and some not: imported as case-insensitive")
        return done(imported)
    if kind == "matchInteraction":
        sets = children(interaction, "simpleMatchSet")
        if len(sets) != 2:
            return Skipped(name, f"{len(sets)} match sets; a matching question has two")
        def texts(match_set):
            out = {}
            for choice in children(match_set, "simpleAssociableChoice"):
                text, d = html_to_text(_html_of(choice), language)
                dropped.update(d)
                out[choice.get("identifier", "")] = text
            return out
        sources, targets = texts(sets[0]), texts(sets[1])
        pairs_found = correct or [key for key, value, _ in entries if value > 0]
        answer_of = {}
        for pair in pairs_found:
            parts = pair.split()
            if len(parts) == 2:
                if parts[0] in sources and parts[1] in targets:
                    answer_of.setdefault(parts[0], targets[parts[1]])
                elif parts[1] in sources and parts[0] in targets:
                    answer_of.setdefault(parts[1], targets[parts[0]])
        used = set(answer_of.values())
        return done(_matching(name, stem, explanation, [(text, answer_of.get(ident)) for ident, text in sources.items()],
                              [text for text in targets.values() if text not in used]))
    if kind == "extendedTextInteraction":  # an essay: graded by a person, whatever the processing says
        return done(ImportedQuestion(name=name, stem=stem, explanation=explanation, kind="essay", fields={}))
    if kind == "orderInteraction":
        texts = {}
        for choice in descendants(interaction, "simpleChoice"):
            text, d = html_to_text(_html_of(choice), language)
            dropped.update(d)
            texts[choice.get("identifier", "")] = text
        if sorted(correct) != sorted(texts):
            return Skipped(name, "the declared right order does not list each choice once")
        try:
            fields = ordering([texts[ident] for ident in correct])
        except NotImported as exc:
            return Skipped(name, str(exc))
        return done(ImportedQuestion(name=name, stem=stem, explanation=explanation, kind="ordering", fields=fields))
    return Skipped(name, f"a {kind} with a {base_type or 'no'} base type; the bank has no kind for it")


def _short_answer_patterns(entries: list, keyed: list[dict], root) -> tuple[list, bool, bool]:
    """A short answer's mapping entries as the bank holds them, whether they fold diacritics,
    and whether every ``patternMatch`` rule was read. A ``stringMatch`` or mapping compares
    exactly, so a ``*`` in a key is a star (``\\*``), unless a rule matches the key with the
    pattern the bank writes for Moodle's wildcard; ``patternMatch`` rules the bank wrote are read
    back as the answers they stand for (their feedback goes with them), others are left out."""
    patterns = {b["key"][1] for b in keyed if isinstance(b["key"], tuple) and b["key"][0] == "pattern"}
    if not patterns:
        for b in keyed:
            if isinstance(b["key"], str):
                b["key"] = b["key"].replace("*", "\\*")
        return [(key.replace("*", "\\*"), value, case) for key, value, case in entries], False, True
    default_case = "false" if root.tag.startswith("{http://www.imsglobal.org/xsd/imsqtiasi_v3p0}") else "true"
    out, found, read = [], set(), set()
    fold_diacritics = False
    for folds in (False, True):
        out, read = [], set()
        for key, value, case in entries:
            sensitive = (case or default_case) == "true"
            for text in (key, key.replace("*", "\\*")):
                pattern = xsd_pattern(text, sensitive, folds)
                if pattern in patterns:
                    out.append((text, value, case))
                    read.add(pattern)
                    for b in keyed:
                        if b["key"] == ("pattern", pattern):
                            b["key"] = text
                    break
            else:
                out.append((key.replace("*", "\\*"), value, case))
        if read:
            fold_diacritics = folds
            found = read
            break
    return out, fold_diacritics, found == patterns


def _branches(root, response_id: str, correct: float | None = None) -> list[dict]:
    """Every responseIf/ElseIf/Else: its key (a value compared with the response, a (low, high)
    range, or None), the SCORE it sets (None if none) and the feedback identifiers it shows."""
    out = []
    for branch in [e for e in root.iter() if qti_name(e.tag) in ("responseIf", "responseElseIf", "responseElse")]:
        condition = next(iter(branch), None) if qti_name(branch.tag) != "responseElse" else None
        key = None
        if condition is not None:
            name = qti_name(condition.tag)
            operands = list(condition)
            variables = [o for o in operands if qti_name(o.tag) == "variable" and o.get("identifier") == response_id]
            values = [o for o in operands if qti_name(o.tag) == "baseValue"]
            if name in ("match", "member", "stringMatch") and variables and values:
                key = (values[0].text or "").strip()
            elif name == "patternMatch" and variables:
                key = ("pattern", attr(condition, "pattern") or "")
            elif name == "or" and operands and all(qti_name(o.tag) == "stringMatch" for o in operands):
                # the spellings of one answer (the first is the answer as the mapping has it)
                key = next(((v.text or "").strip() for v in operands[0] if qti_name(v.tag) == "baseValue"), None)
            elif name == "and":
                bounds = {}
                for test in operands:
                    inner = list(test)
                    if qti_name(test.tag) in ("gte", "gt", "lte", "lt") and len(inner) == 2 and qti_name(inner[1].tag) == "baseValue":
                        bounds[qti_name(test.tag)[:2]] = _float(inner[1].text)
                if bounds.get("gt") is not None and bounds.get("lt") is not None:
                    key = (bounds["gt"], bounds["lt"])
            elif name == "equal":
                value = next((o for o in operands if qti_name(o.tag) == "baseValue"), None)
                if value is not None:
                    key = _tolerance_range(condition, _float(value.text))
                elif any(qti_name(o.tag) == "correct" for o in operands):
                    key = _tolerance_range(condition, correct)
        score, feedback = None, []
        for setter in children(branch, "setOutcomeValue"):
            if setter.get("identifier") == "SCORE":
                score = next((_float(v.text) for v in setter.iter() if qti_name(v.tag) == "baseValue"), None)
            elif setter.get("identifier") == "FEEDBACK":
                feedback += [(v.text or "").strip() for v in setter.iter() if qti_name(v.tag) == "baseValue"]
        out.append({"key": key, "score": score, "feedback": feedback})
    return out


def _tolerance_range(condition, value: float | None):
    """The range an ``equal`` with a tolerance accepts around ``value`` (relative is in percent)."""
    if value is None:
        return None
    mode = attr(condition, "toleranceMode") or "exact"
    tolerances = [_float(t) or 0.0 for t in (attr(condition, "tolerance") or "0").split()] or [0.0]
    t0, t1 = tolerances[0], tolerances[-1]
    if mode == "absolute":
        return (value - t0, value + t1)
    if mode == "relative":
        return tuple(sorted((value * (1 - t0 / 100), value * (1 + t1 / 100))))
    return (value, value)
