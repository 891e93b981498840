"""The registry of exporters: every format has one module with the same `export` signature.

``export(banks, options) -> {relative path: bytes}`` takes the localized banks by language
(English first) and returns a virtual file tree; only :mod:`aistack_bank.build` touches disk.
"""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import Callable, Mapping

from ..errors import UnknownFormatError
from ..model import Bank
from ..options import ExportOptions
from . import gift, html_site, json_bank, moodle_xml, qti21, qti30

Exporter = Callable[[Mapping[str, Bank], ExportOptions], dict[PurePosixPath, bytes]]

EXPORTERS: dict[str, Exporter] = {
    moodle_xml.NAME: moodle_xml.export,
    qti21.NAME: qti21.export,
    qti30.NAME: qti30.export,
    gift.NAME: gift.export,
    json_bank.NAME: json_bank.export,
    html_site.NAME: html_site.export,
}

FOLDERS: dict[str, str] = {
    moodle_xml.NAME: "moodle",
    qti21.NAME: "qti21",
    qti30.NAME: "qti30",
    gift.NAME: "gift",
    json_bank.NAME: "json",
    html_site.NAME: "site",
}
"""Where `bank build` puts each format under `exports/`."""

# LMS packages and text formats that carry part of the model (Canvas, Common Cartridge, Aiken).
from . import aiken, canvas_qti12, common_cartridge  # noqa: E402

EXPORTERS.update({canvas_qti12.NAME: canvas_qti12.export, common_cartridge.NAME: common_cartridge.export, aiken.NAME: aiken.export})
FOLDERS.update({canvas_qti12.NAME: "canvas-qti12", common_cartridge.NAME: "common-cartridge", aiken.NAME: "aiken"})
NOTES: dict[str, Callable[[Mapping[str, Bank], ExportOptions], list]] = {
    canvas_qti12.NAME: canvas_qti12.notes, common_cartridge.NAME: common_cartridge.notes, aiken.NAME: aiken.notes,
}
"""Per-format warnings for `bank build` and `bank export`: what a format leaves out, question by question."""


def export_notes(names, banks: Mapping[str, Bank], options: ExportOptions) -> list:
    return [note for name in names if name in NOTES for note in NOTES[name](banks, options)]


def get_exporter(name: str) -> Exporter:
    try:
        return EXPORTERS[name]
    except KeyError:
        raise UnknownFormatError(name, sorted(EXPORTERS)) from None
