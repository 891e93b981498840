"""The registry of export formats: one :class:`~.record.Format` record per format.

A format turns the localized banks by language (English first) into a virtual file tree,
``FORMATS[name](banks, options) -> ExportTree`` (relative path → bytes, each file with its
language); only :mod:`aistack_bank.build` touches disk. docs/architecture.md tells how to add one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Mapping

from ..errors import UnknownFormatError
from .record import ALL, ExportedFile, ExportTree, Format, file_stem

if TYPE_CHECKING:
    from ..errors import Diagnostic
    from ..model import Bank
    from ..options import ExportOptions

from . import aiken, canvas_qti12, common_cartridge, gift, json_bank, moodle_xml, qti21, qti30, site_pages

FORMATS: dict[str, Format] = {f.name: f for f in (
    moodle_xml.FORMAT, qti21.FORMAT, qti30.FORMAT, gift.FORMAT, json_bank.FORMAT, site_pages.FORMAT,
    # LMS packages and text formats that carry part of the model
    canvas_qti12.FORMAT, common_cartridge.FORMAT, aiken.FORMAT,
)}
"""Every format by name, in the order `bank build` writes them."""


def export_notes(names: Iterable[str], banks: Mapping[str, Bank], options: ExportOptions) -> list[Diagnostic]:
    """The formats' warnings about what they leave out, for `bank build` and `bank export`: each
    question of a kind the format does not carry, then the format's own notes."""
    out: list[Diagnostic] = []
    for name in names:
        out += FORMATS[name].left_out(banks)
        if FORMATS[name].notes is not None:
            out += FORMATS[name].notes(banks, options)
    return out


def get_format(name: str) -> Format:
    try:
        return FORMATS[name]
    except KeyError:
        raise UnknownFormatError(name, sorted(FORMATS)) from None


__all__ = ["ALL", "FORMATS", "export_notes", "ExportTree", "ExportedFile", "Format", "file_stem", "get_format"]
