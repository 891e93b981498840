"""The registry of export formats: one :class:`~.record.Format` record per format.

A format turns the localized banks by language (English first) into a virtual file tree,
``FORMATS[name](banks, options) -> ExportTree`` (relative path → bytes, each file with its
language); only :mod:`aistack_bank.build` touches disk. docs/architecture.md tells how to add one.

:data:`LISTED` names every format, its module, its folder and the options it honours, without
importing a writer or the model: what `bank build` reads when every file of the last build
stands, and `bank.toml`'s settings (which format carries which option). :data:`FORMATS`
imports the writers on first use and holds each record to its line of :data:`LISTED`.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from importlib import import_module
from typing import TYPE_CHECKING, Iterable, Iterator, Mapping, NamedTuple

from ..errors import UnknownFormatError
from .record import ALL, ExportedFile, ExportTree, Format, file_stem

if TYPE_CHECKING:
    from ..errors import Diagnostic
    from ..model import Bank
    from ..options import ExportOptions


class Listed(NamedTuple):
    """A format as the registry lists it, without its writers."""

    module: str
    """The module of :mod:`aistack_bank.exporters` whose ``FORMAT`` is the format's record."""
    folder: str
    """Its folder under ``exports/`` in `bank build` (the record's ``folder``)."""
    honours: frozenset[str]
    """The :class:`~aistack_bank.options.ExportOptions` fields that change what it writes (the record's ``honours``)."""


LISTED: dict[str, Listed] = {
    "moodle-xml": Listed("moodle_xml", "moodle", frozenset({"shuffle", "answer_numbering", "multilang", "penalty"})),
    "qti21": Listed("qti21", "qti21", frozenset({"shuffle"})),
    "qti30": Listed("qti30", "qti30", frozenset({"shuffle", "answer_numbering"})),
    "gift": Listed("gift", "gift", frozenset({"multilang"})),
    "json": Listed("json_bank", "json", frozenset()),
    "html": Listed("site_pages", "site", frozenset({"ui"})),
    # LMS packages and text formats that carry part of the model
    "canvas-qti12": Listed("canvas_qti12", "canvas-qti12", frozenset({"shuffle"})),
    "common-cartridge": Listed("common_cartridge", "common-cartridge", frozenset()),
    "aiken": Listed("aiken", "aiken", frozenset()),
}
"""Every format by name, in the order `bank build` writes them: its module, folder and the
options it honours. Each record must agree (:data:`FORMATS` refuses to load otherwise)."""

NAMES: tuple[str, ...] = tuple(LISTED)
"""Every format's name, in :data:`LISTED`'s order."""


def _records() -> dict[str, Format]:
    """Each format's record, from its module, checked against its line of :data:`LISTED`."""
    records = {}
    for name, listed in LISTED.items():
        record = import_module(f"{__name__}.{listed.module}").FORMAT
        if (record.name, record.folder, record.honours) != (name, listed.folder, listed.honours):
            raise AssertionError(f"the record of {name} ({record.name}, {record.folder}, {sorted(record.honours)}) is not as LISTED says ({listed.folder}, {sorted(listed.honours)})")
        records[name] = record
    return records


class Formats(MutableMapping):
    """:data:`FORMATS`: the records by name, as a dict in :data:`LISTED`'s order, their modules
    (the writers, the model) imported on first use."""

    def __init__(self) -> None:
        self._loaded: dict[str, Format] | None = None

    def load(self) -> dict[str, Format]:
        """The records, imported now if they were not yet."""
        if self._loaded is None:
            self._loaded = _records()
        return self._loaded

    def __getitem__(self, name: str) -> Format:
        return self.load()[name]

    def __setitem__(self, name: str, record: Format) -> None:
        self.load()[name] = record

    def __delitem__(self, name: str) -> None:
        del self.load()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self.load())

    def __len__(self) -> int:
        return len(self.load())

    def __repr__(self) -> str:
        return f"Formats({self.load()!r})" if self._loaded is not None else f"Formats(<{', '.join(LISTED)}: not imported yet>)"


FORMATS: Formats = Formats()
"""Every format by name, in the order `bank build` writes them (:data:`LISTED`'s)."""


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


__all__ = ["ALL", "FORMATS", "LISTED", "NAMES", "Listed", "export_notes", "ExportTree", "ExportedFile", "Format", "file_stem", "get_format"]
