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


def _walk(holder: Element):
    """Each node under ``holder`` (not itself, comments included) as ``(its parent, it, the names
    of the path from below holder down to it)``, in document order; the one walk of this module,
    without recursion (no nesting makes it overflow the stack)."""
    stack = [(holder, child, (local(child.tag),)) for child in reversed(list(holder))]
    while stack:
        parent, node, path = stack.pop()
        yield parent, node, path
        stack.extend((node, child, path + (local(child.tag),)) for child in reversed(list(node)))


# --- the package's manifest ------------------------------------------------------------------

XML_BASE = "{http://www.w3.org/XML/1998/namespace}base"
BB_FILE = "{http://www.blackboard.com/content-packaging/}file"


@dataclass(frozen=True)
class Resource:
    """A ``resource`` of a package's ``imsmanifest.xml``, every value as written (None when absent)."""

    identifier: str | None
    type: str | None
    href: str | None
    base: str | None
    """Its ``xml:base``."""
    bb_file: str | None
    """Blackboard's ``bb:file``: the resource's file at the package's top."""
    files: tuple[str | None, ...]
    """The ``href`` of each of its ``file`` children, in order."""
    dependencies: tuple[str | None, ...]
    """The ``identifierref`` of each of its ``dependency`` children, in order."""


def manifest_resources(manifest: Element) -> list[Resource]:
    """Every ``resource`` under a manifest's root element, in document order."""
    return [Resource(r.get("identifier"), r.get("type"), r.get("href"), r.get(XML_BASE), r.get(BB_FILE),
                     tuple(f.get("href") for f in children(r, "file")), tuple(d.get("identifierref") for d in children(r, "dependency")))
            for r in descendants(manifest, "resource")]


# --- QTI 1.2 items -------------------------------------------------------------------------

def items(root: Element, at: tuple[str, ...] = ()) -> list[Element]:
    """The ``item`` elements of a QTI 1.2 file: every one under ``root`` (itself included), in
    document order; with ``at``, only those at that path of elements below ``root``
    (``("objectbank",)``: ``root/objectbank/item``; ``("assessment", "section")``)."""
    if not at:
        return xml_descendants(root, "item")
    holders = [root]
    for name in at:
        holders = [child for holder in holders for child in xml_children(holder, name)]
    return [item for holder in holders for item in xml_children(holder, "item")]


CONTAINERS = ("assessment", "objectbank", "section")
"""The QTI 1.2 elements that hold items, in the order :func:`container_title` asks them."""


def container_title(root: Element) -> str | None:
    """The ``title`` of the first assessment under ``root`` that has one, else of the first
    object bank, else of the first section (None without any)."""
    for name in CONTAINERS:
        for element in descendants(root, name):
            title = element.get("title")
            if title:
                return title
    return None


ITEM_TYPE_ELEMENTS = ("bbmd_questiontype", "qmd_itemtype")
"""Where a QTI 1.2 item names its type outside ``qtimetadatafield``: Blackboard's
``bbmd_questiontype``, QTI 1.2's own ``qmd_itemtype``."""


def item_types(item: Element) -> list[tuple[str, str | None]]:
    """Each :data:`ITEM_TYPE_ELEMENTS` element under ``item``: ``(its name, its own text as
    written)``, by name in that order, then in document order."""
    return [(name, element.text) for name in ITEM_TYPE_ELEMENTS for element in xml_descendants(item, name)]


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
    return [Qti12Test(path[-1], node.get("respident"), node.get("case"), node.text, text_of(node), local(parent.tag), len(path), index)
            for parent, node, path in _walk(conditionvar) if isinstance(node.tag, str)]


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
    found = [(holder, ())] + [(node, path) for _, node, path in _walk(holder)]
    return tuple(Qti12Mat(local(node.tag), node.get("texttype"), node.text, text_of(node), path)
                 for node, path in found if local(node.tag) in MATERIAL_ELEMENTS)


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


def responses(holder: Element | None) -> list[Qti12Response]:
    """Every response element under ``holder`` (an item's ``presentation``, or the item), in
    document order; ``[]`` for None."""
    if holder is None:
        return []
    out = []
    for _, node, path in _walk(holder):
        if path[-1] in RESPONSE_ELEMENTS:
            prompt = next(iter(xml_children(node, "material")), None)
            labels = tuple(response_labels(node))
            out.append(Qti12Response(path[-1], node.get("ident"), node.get("rcardinality"),
                                     material(prompt) if prompt is not None else None, labels, path))
    return out


def response_labels(holder: Element) -> list[Qti12Label]:
    """Every ``response_label`` under ``holder`` (an item), in any response or none, in document
    order."""
    return [Qti12Label(node.get("ident"), material(node), path) for _, node, path in _walk(holder) if path[-1] == "response_label"]


@dataclass(frozen=True)
class Qti12Presentation:
    """A ``presentation`` of a QTI 1.2 item: what the learner is shown and asked."""

    flow: bool
    """Whether it has a ``flow`` child (Moodle reads its responses at ``presentation/flow/…``
    then, else at ``presentation/…``)."""
    material: tuple[Qti12Mat, ...]
    """Every material element under it (:func:`material`)."""
    materials: tuple[tuple[tuple[str, ...], tuple[Qti12Mat, ...]], ...]
    """Each ``material`` element under it, in document order: the names of the path down to it
    (``("flow", "material")``) and its material."""
    responses: tuple[Qti12Response, ...]
    """Its responses (:func:`responses`)."""

    def materials_outside(self, responses: tuple[str, ...]) -> list[tuple[Qti12Mat, ...]]:
        """The material of each ``material`` element not inside an element named in ``responses``
        (a question's stem beside its responses), in document order."""
        return [mats for path, mats in self.materials if not any(name in responses for name in path[:-1])]


def presentations(item: Element, *, placed: bool) -> list[Qti12Presentation]:
    """The ``presentation`` elements of a QTI 1.2 item, in document order: its direct children
    (``placed``, where QTI puts them), or every one under it."""
    found = xml_children(item, "presentation") if placed else [p for p in xml_descendants(item, "presentation") if p is not item]
    return [Qti12Presentation(bool(xml_children(p, "flow")), material(p),
                              tuple((path, material(node)) for _, node, path in _walk(p) if path[-1] == "material"),
                              tuple(responses(p))) for p in found]
