"""Reading single-choice questions from QTI packages: QTI 1.2 (Canvas, Blackboard, Common
Cartridge) and QTI 2.1/2.2 (TAO, OpenOlat, this tool's own exports; QTI 3.0 items too).

Items are found through ``imsmanifest.xml``: every resource whose type names QTI (``imsqti_*``,
Blackboard's ``assessment/x-bb-qti-*``) is read, tests excepted (their items are resources of
their own). Each item that is not one single-choice question is reported as skipped, with why.
The same question found twice (a Canvas or cartridge export holds a bank and a quiz) is taken once.
"""

from __future__ import annotations

import re
from pathlib import Path, PurePosixPath

from ..errors import BankError
from .records import ImportedQuestion, Skipped
from ._archive import Package, open_package
from ._html import html_to_text

MANIFEST = "imsmanifest.xml"
OUTCOME_FEEDBACK = {"correct_fb": "the comment for any right answer", "general_incorrect_fb": "the comment for any wrong answer",
                    "correct": "the comment for any right answer", "incorrect": "the comment for any wrong answer"}
"""Canvas's (``*_fb``) and Blackboard's identifiers of feedback shown for any right or any wrong answer."""
CANVAS_CHOICE_TYPES = {"multiple_choice_question", "true_false_question"}


def _local(tag) -> str:
    if not isinstance(tag, str):
        return ""
    name = tag.rsplit("}", 1)[-1]
    if name.startswith("qti-"):  # QTI 3: qti-choice-interaction → choiceInteraction
        parts = name[4:].split("-")
        name = parts[0] + "".join(p[:1].upper() + p[1:] for p in parts[1:])
    return name


def _attr(element, name: str) -> str | None:
    kebab = re.sub(r"(?<!^)([A-Z])", r"-\1", name).lower()
    return element.get(name, element.get(kebab))


def _parse(package: Package, name: str, data: bytes):
    import defusedxml.ElementTree as SafeET
    from defusedxml import DefusedXmlException
    from xml.etree.ElementTree import ParseError

    try:
        return SafeET.fromstring(data, forbid_dtd=True)
    except DefusedXmlException as exc:
        raise BankError(f"refused: the XML declares a DTD or entities ({type(exc).__name__}); QTI packages need neither", package.where(name), code="E723") from None
    except ParseError as exc:
        line, col = getattr(exc, "position", (0, 0))
        raise BankError(f"not well-formed XML: {exc}", package.where(name, line, col + 1), code="E723") from None


def _children(element, local: str):
    return [c for c in element if _local(c.tag) == local]


def _descendants(element, local: str):
    return [c for c in element.iter() if _local(c.tag) == local]


def _resources(package: Package) -> list[tuple[str, str]]:
    """(type, file path) of every QTI resource the manifest lists, in manifest order."""
    raw = package.get(MANIFEST)
    if raw is None:
        raise BankError(f"no {MANIFEST} at the top of the package; export the quiz or bank again as a QTI or Common Cartridge package", package.where(MANIFEST), code="E722")
    root = _parse(package, MANIFEST, raw)
    if _local(root.tag) != "manifest":
        raise BankError(f"{MANIFEST} is not an IMS manifest (its root is <{_local(root.tag)}>)", package.where(MANIFEST), code="E722")
    found = []
    for resource in _descendants(root, "resource"):
        kind = resource.get("type", "")
        low = kind.lower()
        if "qti" not in low or "test" in low.rsplit("/", 1)[-1] and "x-bb" not in low:
            continue
        base = resource.get("{http://www.w3.org/XML/1998/namespace}base", "")
        hrefs = [(base, resource.get("href"))] + [(base, f.get("href")) for f in _children(resource, "file")]
        # Blackboard names a resource's file at the package's top (its xml:base is for attachments).
        hrefs.append(("", resource.get("{http://www.blackboard.com/content-packaging/}file")))
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
        top = _local(root.tag)
        if top == "questestinterop":
            found = _read_qti12(root, language)
        elif top == "assessmentItem":
            found = [_read_qti2(root, language)]
        elif top == "assessmentTest":
            continue
        else:
            raise BankError(f"not a QTI file: its root element is <{top}>", package.where(name), code="E723")
        category = _category(root)
        for item in found:
            label = f"{name}: {item.name}"
            if isinstance(item, Skipped):
                skipped.append(Skipped(label, item.reason))
                continue
            key = (item.stem, tuple(item.options), item.correct)
            if key in seen:
                skipped.append(Skipped(label, f"the same question as {seen[key]} (a package can hold a question bank and a quiz of the same questions)"))
                continue
            seen[key] = label
            item.category = item.category or category
            questions.append(item)
    return questions, skipped


def _category(root) -> str | None:
    for tag in ("assessment", "objectbank", "section"):
        for el in _descendants(root, tag):
            title = el.get("title")
            if title:
                return title
    return None


# --- QTI 1.2 -----------------------------------------------------------------------------


def _mattext(element, language: str) -> tuple[str, set[str]]:
    """The text of the material (mattext, mat_formattedtext) under ``element``, HTML made plain."""
    parts, dropped = [], set()
    for node in element.iter():
        local = _local(node.tag)
        if local in ("mattext", "mat_formattedtext", "matemtext"):
            raw = node.text or ""
            if (node.get("texttype") or "text/plain").lower() == "text/html" or local == "mat_formattedtext":
                text, d = html_to_text(raw, language)
                dropped |= d
            else:
                text = raw.strip()
            if text:
                parts.append(text)
        elif local in ("matimage", "mataudio", "matvideo", "matapplet", "matapplication"):
            dropped.add(local)
    return "\n".join(parts), dropped


def _metadata(item) -> dict[str, str]:
    fields = {}
    for field in _descendants(item, "qtimetadatafield"):
        label = next(iter(_children(field, "fieldlabel")), None)
        entry = next(iter(_children(field, "fieldentry")), None)
        if label is not None and label.text:
            fields[label.text.strip()] = (entry.text or "").strip() if entry is not None else ""
    for local in ("bbmd_questiontype", "qmd_itemtype"):
        for el in _descendants(item, local):
            fields[local] = (el.text or "").strip()
    return fields


def _read_qti12(root, language: str) -> list:
    out = []
    for index, item in enumerate(_descendants(root, "item"), 1):
        out.append(_item12(item, language, index))
    return out


def _item12(item, language: str, index: int):
    name = item.get("title") or item.get("ident") or f"item {index}"
    meta = _metadata(item)
    qtype = meta.get("question_type") or ""
    profile = meta.get("cc_profile") or ""
    bbtype = meta.get("bbmd_questiontype") or ""
    if qtype and qtype not in CANVAS_CHOICE_TYPES:
        return Skipped(name, f"Canvas question type {qtype!r}; only single-choice questions are imported")
    if profile and profile not in ("cc.multiple_choice.v0p1", "cc.true_false.v0p1"):
        return Skipped(name, f"Common Cartridge question profile {profile!r}; only single-choice questions are imported")
    if bbtype and bbtype not in ("Multiple Choice", "True/False", "Either/Or"):
        return Skipped(name, f"Blackboard question type {bbtype!r}; only single-choice questions are imported")
    presentation = next(iter(_descendants(item, "presentation")), None)
    if presentation is None:
        return Skipped(name, "no presentation (a text-only item); only single-choice questions are imported")
    lids = _descendants(presentation, "response_lid")
    others = [_local(e.tag) for e in presentation.iter() if _local(e.tag) in ("response_str", "response_num", "response_xy", "response_grp", "response_extension")]
    if others or len(lids) != 1:
        what = ", ".join(sorted(set(others))) or f"{len(lids)} choice responses"
        return Skipped(name, f"not one choice response ({what}): fill-in, numeric, matching or multi-part questions are not imported")
    lid = lids[0]
    if (lid.get("rcardinality") or "Single").lower() != "single":
        return Skipped(name, f"rcardinality {lid.get('rcardinality')!r} (multiple answers); only single-answer questions are imported")
    response_id = lid.get("ident", "")
    dropped: set[str] = set()
    inside = set(lid.iter())
    stem_parts = []
    for material in _descendants(presentation, "material"):
        if material in inside:
            continue
        text, d = _mattext(material, language)
        dropped |= d
        if text:
            stem_parts.append(text)
    labels = _descendants(lid, "response_label")
    options: list[tuple[str, str]] = []
    for label in labels:
        text, d = _mattext(label, language)
        dropped |= d
        options.append((label.get("ident", ""), text))
    if not 2 <= len(options) <= 6:
        return Skipped(name, f"{len(options)} options; the bank takes 2 to 6")
    feedback_text: dict[str, str] = {}
    for fb in _descendants(item, "itemfeedback"):
        text, d = _mattext(fb, language)
        dropped |= d
        feedback_text[fb.get("ident", "")] = text
    answer_ids = {o[0] for o in options}
    right: list[str] = []
    per_option: dict[str, list[str]] = {}
    general: list[str] = []
    for cond in _descendants(item, "respcondition"):
        conditionvar = next(iter(_children(cond, "conditionvar")), None)
        # Blackboard writes an answer's own feedback rule as <varequal respident="ANSWER"/>.
        equals = [(e.text or "").strip() if e.get("respident") in (None, response_id) else e.get("respident")
                  for e in (conditionvar.iter() if conditionvar is not None else []) if _local(e.tag) == "varequal"
                  and (e.get("respident") in (None, response_id) or (e.get("respident") in answer_ids and not (e.text or "").strip()))]
        negated = conditionvar is not None and any(_local(e.tag) == "not" for e in conditionvar.iter())
        links = [d.get("linkrefid", "") for d in _children(cond, "displayfeedback")]
        for setvar in _children(cond, "setvar"):
            value = (setvar.text or "").strip()
            variable = setvar.get("varname") or setvar.get("variablename") or "SCORE"
            positive = value == "SCORE.max" or _number(value) > 0
            if variable.upper() == "SCORE" and positive and (setvar.get("action") or "Set") in ("Set", "Add") and equals and not negated:
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
    imported = ImportedQuestion(name=name, stem=stem, options=result, correct=correct, explanation=explanation)
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


def _html_of(element, skip=()) -> str:
    """The markup of ``element``'s content, namespaces dropped, ``skip`` elements left out."""
    from html import escape

    parts = [escape(element.text or "", quote=False)]
    for child in element:
        if child not in skip:
            tag = _local(child.tag)
            tag = {"prompt": "p", "contentBody": "div"}.get(tag, tag)
            parts.append(f"<{tag}>" + _html_of(child, skip) + f"</{tag}>")
        parts.append(escape(child.tail or "", quote=False))
    return "".join(parts)


def _read_qti2(root, language: str):
    name = root.get("title") or root.get("identifier") or "item"
    body = next(iter(_descendants(root, "itemBody")), None)
    if body is None:
        return Skipped(name, "no item body")
    interactions = [e for e in body.iter() if _local(e.tag).endswith("Interaction")]
    kinds = sorted({_local(e.tag) for e in interactions})
    if len(interactions) != 1 or kinds != ["choiceInteraction"]:
        return Skipped(name, f"interactions {', '.join(kinds) or 'none'}; only one choiceInteraction (single choice) is imported")
    interaction = interactions[0]
    response_id = _attr(interaction, "responseIdentifier") or "RESPONSE"
    declaration = next((d for d in _descendants(root, "responseDeclaration") if d.get("identifier") == response_id), None)
    max_choices = _attr(interaction, "maxChoices") or "1"
    if max_choices != "1" or (declaration is not None and declaration.get("cardinality", "single") != "single"):
        return Skipped(name, f"maxChoices {max_choices} (multiple response); only single-answer questions are imported")
    correct_values = [v for c in (_descendants(declaration, "correctResponse") if declaration is not None else []) for v in [(x.text or "").strip() for x in _descendants(c, "value")]]
    if len(correct_values) != 1:
        return Skipped(name, f"{len(correct_values)} correct responses declared; only questions with one right option are imported")
    dropped: set[str] = set()
    choices = _descendants(interaction, "simpleChoice")
    if not 2 <= len(choices) <= 6:
        return Skipped(name, f"{len(choices)} options; the bank takes 2 to 6")
    ids = [c.get("identifier", "") for c in choices]
    if correct_values[0] not in ids:
        return Skipped(name, f"the correct response {correct_values[0]!r} is none of the choices")
    prompt = _descendants(interaction, "prompt")
    # The stem: the item body with the interaction replaced by its prompt.
    stem_html = _html_of(body, skip={interaction}) + "".join("<p>" + _html_of(p) + "</p>" for p in prompt)
    stem, d = html_to_text(stem_html, language)
    dropped |= d
    options = []
    inline_feedback: dict[str, str] = {}
    for choice in choices:
        inline = _descendants(choice, "feedbackInline")
        text, d = html_to_text(_html_of(choice, skip=set(x for f in inline for x in f.iter())), language)
        dropped |= d - {"feedbackinline"}
        options.append(text)
        if inline:
            inline_feedback[choice.get("identifier", "")] = "\n".join(html_to_text(_html_of(f), language)[0] for f in inline)
    modal = {m.get("identifier", ""): m for m in _descendants(root, "modalFeedback")}
    modal_text = {k: html_to_text(_html_of(m), language)[0] for k, m in modal.items()}
    per_choice: dict[str, list[str]] = {}
    for branch in [e for e in root.iter() if _local(e.tag) in ("responseIf", "responseElseIf")]:
        condition = next(iter(branch), None)
        if condition is None or _local(condition.tag) != "match":
            continue
        operands = list(condition)
        if len(operands) != 2 or _local(operands[0].tag) != "variable" or operands[0].get("identifier") != response_id or _local(operands[1].tag) != "baseValue":
            continue
        choice = (operands[1].text or "").strip()
        for setter in _children(branch, "setOutcomeValue"):
            per_choice.setdefault(choice, []).extend((v.text or "").strip() for v in setter.iter() if _local(v.tag) == "baseValue")
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
    imported = ImportedQuestion(name=name, stem=stem, options=result, correct=ids.index(correct_values[0]), explanation=explanation)
    dropped.discard("p")
    if dropped:
        imported.notes.append(f"markup dropped ({', '.join(sorted(dropped))}): the bank holds plain text")
    return imported
