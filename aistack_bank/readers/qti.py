"""QTI names: QTI 1.2, 2.x and 3.0 elements and attributes under one spelling.

QTI 3 writes QTI 2's camel-case names in kebab case with a ``qti-`` prefix
(``qti-choice-interaction`` for ``choiceInteraction``, ``response-identifier`` for
``responseIdentifier``); readers ask by QTI 2's name and find either.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from xml.etree.ElementTree import Element

from .xml import children as xml_children, descendants as xml_descendants, local, text_of


def qti_name(tag) -> str:
    """An element's name in QTI 2.1's spelling, without namespace (``qti-map-response`` →
    ``mapResponse``; ``""`` for a comment)."""
    name = local(tag)
    if name.startswith("qti-"):
        first, *rest = name[4:].split("-")
        name = first + "".join(part[:1].upper() + part[1:] for part in rest)
    return name


def attr(element: Element, name: str) -> str | None:
    """An attribute by its QTI 2 name, or by QTI 3's kebab-case spelling of it."""
    kebab = re.sub(r"(?<!^)([A-Z])", r"-\1", name).lower()
    return element.get(name, element.get(kebab))


def children(element: Element, name: str) -> list[Element]:
    """The direct children whose QTI 2 name is ``name``."""
    return [c for c in element if qti_name(c.tag) == name]


def descendants(element: Element, name: str) -> list[Element]:
    """``element`` and every element under it whose QTI 2 name is ``name``."""
    return [c for c in element.iter() if qti_name(c.tag) == name]


@dataclass(frozen=True)
class Qti12Field:
    """A ``qtimetadatafield`` of a QTI 1.2 item: its first ``fieldlabel`` and ``fieldentry``."""

    label: str
    """The label's whole text (``""`` without one)."""
    label_text: str | None
    """The label's own text as written (``element.text``: None when empty or without one)."""
    entry: str
    entry_text: str | None
    """The same for the entry."""
    placed: bool
    """Whether it sits where QTI puts it (``item/itemmetadata/qtimetadata/qtimetadatafield``)."""


def metadata_fields(item: Element) -> list[Qti12Field]:
    """QTI 1.2: every ``qtimetadatafield`` under ``item``, in file order; Canvas names its
    question type there (``question_type``), a cartridge its profile (``cc_profile``) and
    weighting (``cc_weighting``)."""
    placed = [f for md in xml_children(item, "itemmetadata") for qmd in xml_children(md, "qtimetadata")
              for f in xml_children(qmd, "qtimetadatafield")]  # kept alive for lxml's elements
    out = []
    for field in xml_descendants(item, "qtimetadatafield"):
        label = next(iter(xml_children(field, "fieldlabel")), None)
        entry = next(iter(xml_children(field, "fieldentry")), None)
        out.append(Qti12Field(text_of(label), label.text if label is not None else None,
                              text_of(entry), entry.text if entry is not None else None, any(field is f for f in placed)))
    return out


# --- QTI 1.2 response processing -----------------------------------------------------------

@dataclass(frozen=True)
class Qti12Test:
    """An element under a ``respcondition``'s ``conditionvar`` (``varequal``, ``vargte``,
    ``varsubstring``, ``not``, ``and``, ``other``, …), in document order."""

    name: str
    """Its name without namespace."""
    respident: str | None
    """Its ``respident`` attribute as written (None when absent)."""
    case: str | None
    """Its ``case`` attribute as written (None when absent)."""
    text: str | None
    """Its own text as written (``element.text``: None when empty)."""
    value: str
    """Its whole text, its descendants' included (DOM ``nodeValue``)."""
    parent: str
    """The name of the element it sits in (``conditionvar`` for a test directly in it, ``not``
    for a negated one)."""
    depth: int
    """1 for an element directly in the ``conditionvar``, 2 for one in that, …"""
    conditionvar: int
    """Which of the condition's ``conditionvar`` elements it is under (0: the first)."""


@dataclass(frozen=True)
class Qti12SetVar:
    """A ``setvar`` directly in a ``respcondition``: every attribute and text as written."""

    varname: str | None
    variablename: str | None
    action: str | None
    text: str | None
    """Its own text (``element.text``: None when empty)."""
    value: str
    """Its whole text (DOM ``nodeValue``)."""


@dataclass(frozen=True)
class Qti12Condition:
    """A ``respcondition`` of a QTI 1.2 item, in document order."""

    placed: bool
    """Whether it sits where QTI puts it: in a ``resprocessing`` directly in the item
    (``item/resprocessing/respcondition``); False for one found deeper or elsewhere."""
    conditionvars: int
    """How many ``conditionvar`` elements it has directly."""
    tests: tuple[Qti12Test, ...]
    """Every element under its ``conditionvar`` elements, in document order."""
    setvars: tuple[Qti12SetVar, ...]
    """Its ``setvar`` children, in order."""
    feedback: tuple[str | None, ...]
    """The ``linkrefid`` of each of its ``displayfeedback`` children (None when absent)."""
    continue_: str | None
    """Its ``continue`` attribute as written (None when absent)."""


def _tests_under(conditionvar: Element, index: int) -> list[Qti12Test]:
    out, stack = [], [(conditionvar, child, 1) for child in reversed(list(conditionvar))]
    while stack:
        parent, node, depth = stack.pop()
        if isinstance(node.tag, str):
            out.append(Qti12Test(local(node.tag), node.get("respident"), node.get("case"), node.text, text_of(node),
                                 local(parent.tag), depth, index))
        stack.extend((node, child, depth + 1) for child in reversed(list(node)))
    return out


def response_conditions(item: Element) -> list[Qti12Condition]:
    """Every ``respcondition`` under a QTI 1.2 ``item`` as a :class:`Qti12Condition`, in
    document order (each with :attr:`~Qti12Condition.placed` telling whether it is one of
    ``item/resprocessing/respcondition``)."""
    # kept in a list: lxml gives an element the same Python object only while one is alive
    placed = [c for rp in xml_children(item, "resprocessing") for c in xml_children(rp, "respcondition")]
    out = []
    for condition in xml_descendants(item, "respcondition"):
        if condition is item:
            continue
        conditionvars = xml_children(condition, "conditionvar")
        out.append(Qti12Condition(
            placed=any(condition is c for c in placed),
            conditionvars=len(conditionvars),
            tests=tuple(t for index, cv in enumerate(conditionvars) for t in _tests_under(cv, index)),
            setvars=tuple(Qti12SetVar(s.get("varname"), s.get("variablename"), s.get("action"), s.text, text_of(s))
                          for s in xml_children(condition, "setvar")),
            feedback=tuple(d.get("linkrefid") for d in xml_children(condition, "displayfeedback")),
            continue_=condition.get("continue")))
    return out


# --- QTI 1.2 material ------------------------------------------------------------------------

MATERIAL_ELEMENTS = ("mattext", "mat_formattedtext", "matemtext", "matimage", "mataudio", "matvideo", "matapplet", "matapplication")
"""The QTI 1.2 elements that hold a material's content (text, markup, media)."""


@dataclass(frozen=True)
class Qti12Mat:
    """A ``mattext``, ``matimage``, … element, as written."""

    name: str
    """Its name without namespace (one of :data:`MATERIAL_ELEMENTS`)."""
    texttype: str | None
    """Its ``texttype`` attribute (None when absent)."""
    text: str | None
    """Its own text (``element.text``: None when empty)."""
    value: str
    """Its whole text (DOM ``nodeValue``)."""
    path: tuple[str, ...]
    """The names of the elements from below the holder down to it
    (``("flow_mat", "material", "mattext")``; ``()`` for the holder itself)."""


def material(holder: Element | None) -> tuple[Qti12Mat, ...]:
    """Every material element under ``holder`` (itself included), in document order; ``()``
    for None."""
    if holder is None:
        return ()
    out, stack = [], [(holder, ())]
    while stack:
        node, path = stack.pop()
        if isinstance(node.tag, str) and local(node.tag) in MATERIAL_ELEMENTS:
            out.append(Qti12Mat(local(node.tag), node.get("texttype"), node.text, text_of(node), path))
        stack.extend((child, path + (local(child.tag),)) for child in reversed(list(node)))
    return tuple(out)


@dataclass(frozen=True)
class Qti12Feedback:
    """An ``itemfeedback`` of a QTI 1.2 item."""

    ident: str | None
    """Its ``ident`` as written (None when absent)."""
    placed: bool
    """Whether it sits directly in the item (where QTI puts it)."""
    material: tuple[Qti12Mat, ...]
    """Its material elements (:func:`material`)."""


def item_feedback(item: Element) -> list[Qti12Feedback]:
    """Every ``itemfeedback`` under a QTI 1.2 ``item``, in document order."""
    placed = xml_children(item, "itemfeedback")  # kept alive for lxml's elements (as above)
    return [Qti12Feedback(f.get("ident"), any(f is p for p in placed), material(f)) for f in xml_descendants(item, "itemfeedback") if f is not item]


# --- QTI 1.2 presentation ----------------------------------------------------------------------

RESPONSE_ELEMENTS = ("response_lid", "response_str", "response_num", "response_xy", "response_grp", "response_extension")
"""The QTI 1.2 elements that ask for a response."""


@dataclass(frozen=True)
class Qti12Label:
    """A ``response_label`` (an option)."""

    ident: str | None
    """Its ``ident`` as written (None when absent)."""
    material: tuple[Qti12Mat, ...]
    """Its material elements (:func:`material`)."""
    path: tuple[str, ...]
    """The names of the elements from below its response down to it
    (``("render_choice", "response_label")``)."""


@dataclass(frozen=True)
class Qti12Response:
    """A ``response_lid``, ``response_str``, … element, in document order."""

    name: str
    """Its name without namespace (one of :data:`RESPONSE_ELEMENTS`)."""
    ident: str | None
    rcardinality: str | None
    """Its ``ident`` and ``rcardinality`` as written (None when absent)."""
    prompt: tuple[Qti12Mat, ...] | None
    """The material of its first ``material`` child (a matching prompt); None without one."""
    labels: tuple[Qti12Label, ...]
    """Every ``response_label`` under it, in document order."""
    path: tuple[str, ...]
    """The names of the elements from below the holder down to it (``("flow", "response_lid")``)."""


def _under(holder: Element):
    """Each element under ``holder`` (not itself) with the names of the path down to it, in
    document order."""
    stack = [(child, (local(child.tag),)) for child in reversed(list(holder))]
    while stack:
        node, path = stack.pop()
        yield node, path
        stack.extend((child, path + (local(child.tag),)) for child in reversed(list(node)))


def responses(holder: Element | None) -> list[Qti12Response]:
    """Every response element under ``holder`` (an item's ``presentation``, or the item), in
    document order; ``[]`` for None."""
    if holder is None:
        return []
    out = []
    for node, path in _under(holder):
        if path[-1] in RESPONSE_ELEMENTS:
            prompt = next(iter(xml_children(node, "material")), None)
            labels = tuple(response_labels(node))
            out.append(Qti12Response(path[-1], node.get("ident"), node.get("rcardinality"),
                                     material(prompt) if prompt is not None else None, labels, path))
    return out


def materials_outside(holder: Element | None, responses: tuple[str, ...]) -> list[tuple[Qti12Mat, ...]]:
    """The material of each ``material`` element under ``holder`` (itself included) that is not
    inside an element named in ``responses`` (a question's stem beside its responses), in
    document order; ``[]`` for None."""
    if holder is None:
        return []
    out = [material(holder)] if local(holder.tag) == "material" else []
    for node, path in _under(holder):
        if path[-1] == "material" and not any(name in responses for name in path[:-1]):
            out.append(material(node))
    return out


def response_labels(holder: Element) -> list[Qti12Label]:
    """Every ``response_label`` under ``holder`` (an item), in any response or none, in document
    order."""
    return [Qti12Label(node.get("ident"), material(node), path) for node, path in _under(holder) if path[-1] == "response_label"]
