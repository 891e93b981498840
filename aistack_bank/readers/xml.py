"""Safe XML reading for every XML format the bank reads: no DTD, no entities, no network, and
every refusal located (line and column) in the file.

The element helpers work on names without their namespace (``{ns}item`` is ``item``), as the
formats are written with, without or with another namespace by different systems.
"""

from __future__ import annotations

from xml.etree.ElementTree import Element

MAX_DEPTH = 100
"""The deepest nesting of elements a question file may have (items nest a few levels; a file
nesting hundreds is hostile or broken)."""


class XmlRefused(Exception):
    """The XML declares a DTD or entities; ``line``/``column`` are where the declaration starts."""

    def __init__(self, what: str, line: int, column: int):
        super().__init__(what)
        self.what, self.line, self.column = what, line, column


class XmlMalformed(Exception):
    """The XML is not well-formed; ``line``/``column`` (1-based) are where the parser stopped."""

    def __init__(self, reason: str, line: int, column: int):
        super().__init__(reason)
        self.reason, self.line, self.column = reason, line, column


def declaration_position(raw: bytes) -> tuple[int, int]:
    """(line, column) of the first ``<!DOCTYPE`` or ``<!ENTITY`` in ``raw``, (1, 1) if none."""
    found = [at for at in (raw.find(b"<!DOCTYPE"), raw.find(b"<!ENTITY")) if at >= 0]
    if not found:
        return 1, 1
    at = min(found)
    return raw.count(b"\n", 0, at) + 1, at - (raw.rfind(b"\n", 0, at) + 1) + 1


def parse(raw: bytes) -> Element:
    """The root element of an untrusted file: :class:`XmlRefused` when it declares a DTD or
    entities, :class:`XmlMalformed` when it is not well-formed."""
    from xml.etree.ElementTree import ParseError

    import defusedxml.ElementTree as SafeET
    from defusedxml import DefusedXmlException

    try:
        return SafeET.fromstring(raw, forbid_dtd=True)
    except DefusedXmlException as exc:
        raise XmlRefused(type(exc).__name__, *declaration_position(raw)) from None
    except ParseError as exc:
        line, column = getattr(exc, "position", (0, 0))
        raise XmlMalformed(str(exc), line, column + 1) from None
    except LookupError as exc:  # the declaration names an encoding Python does not know, or one that is not text
        raise XmlMalformed(f"the XML declaration's encoding: {exc}", 1, 1) from None


def parse_own(raw: bytes) -> Element:
    """The root element of a file this tool wrote (an export read back): entities are still
    refused, a DTD is not looked for."""
    import defusedxml.ElementTree as SafeET

    return SafeET.fromstring(raw)


def iterparse_own(raw: bytes, events=("end",)):
    """The ``(event, element)`` pairs of a file this tool wrote, as :func:`parse_own` reads it but
    one element at a time, so that a large export read back need not be held parsed at once."""
    import io

    import defusedxml.ElementTree as SafeET

    return SafeET.iterparse(io.BytesIO(raw), events=events)


def local(tag) -> str:
    """An element's name without its namespace (``""`` for a comment or processing instruction)."""
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def children(element: Element, name: str) -> list[Element]:
    """The direct children named ``name`` (any namespace)."""
    return [c for c in element if local(c.tag) == name]


def descendants(element: Element, name: str) -> list[Element]:
    """``element`` and every element under it named ``name`` (any namespace), in document order."""
    return [c for c in element.iter() if local(c.tag) == name]


def text_of(element: Element | None) -> str:
    """The whole text of an element, its descendants' included (``""`` for None)."""
    return "" if element is None else "".join(element.itertext())


def depth_of(element: Element) -> int:
    """How deep elements nest under ``element`` (1 for a leaf), without recursion; the count
    stops past :data:`MAX_DEPTH`."""
    deepest, stack = 0, [(element, 1)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        if deepest > MAX_DEPTH:
            return deepest
        stack.extend((child, depth + 1) for child in node)
    return deepest

