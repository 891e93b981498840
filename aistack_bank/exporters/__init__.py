"""The registry of export formats: one :class:`~._format.Format` record per format.

A format turns the localized banks by language (English first) into a virtual file tree,
``FORMATS[name](banks, options) -> ExportTree`` (relative path → bytes, each file with its
language); only :mod:`aistack_bank.build` touches disk. docs/architecture.md tells how to add one.
"""

from __future__ import annotations

from ..errors import UnknownFormatError
from ._format import ALL, ExportedFile, ExportTree, Format, file_stem
from . import gift, html_site, json_bank, moodle_xml, qti21, qti30

FORMATS: dict[str, Format] = {f.name: f for f in (moodle_xml.FORMAT, qti21.FORMAT, qti30.FORMAT, gift.FORMAT, json_bank.FORMAT, html_site.FORMAT)}
"""Every format by name, in the order `bank build` writes them."""


def get_format(name: str) -> Format:
    try:
        return FORMATS[name]
    except KeyError:
        raise UnknownFormatError(name, sorted(FORMATS)) from None


__all__ = ["ALL", "FORMATS", "ExportTree", "ExportedFile", "Format", "file_stem", "get_format"]
