"""QTI names: QTI 1.2, 2.x and 3.0 elements and attributes under one spelling.

QTI 3 writes QTI 2's camel-case names in kebab case with a ``qti-`` prefix
(``qti-choice-interaction`` for ``choiceInteraction``, ``response-identifier`` for
``responseIdentifier``); readers ask by QTI 2's name and find either.
"""

from __future__ import annotations

import re
from xml.etree.ElementTree import Element

from .xml import local


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


def metadata_fields(item: Element) -> list[tuple[Element | None, Element | None]]:
    """QTI 1.2: the ``fieldlabel`` and ``fieldentry`` of every ``qtimetadatafield`` under
    ``item``, in file order (None for a missing one); Canvas names its question type there
    (``question_type``), a cartridge its profile (``cc_profile``)."""
    return [(next(iter(children(field, "fieldlabel")), None), next(iter(children(field, "fieldentry")), None))
            for field in descendants(item, "qtimetadatafield")]
