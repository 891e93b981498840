"""Export options: one immutable record with documented defaults; CLI flags map onto it."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal, Mapping


@dataclass(frozen=True)
class ExportOptions:
    """How exporters render a bank. `bank export`/`bank build` take these from flags and from the
    ``[export]`` table of ``bank.toml`` (:mod:`aistack_bank.project.settings`, which also lists which
    formats can carry each option); tests run with the defaults."""

    shuffle: bool = True
    """Ask the LMS to shuffle the options of each question."""
    answer_numbering: Literal["abc", "ABCD", "123", "iii", "IIII", "none"] = "abc"
    """Moodle's option numbering style."""
    multilang: Literal["span", "mlang"] = "span"
    """Multilingual markup: Moodle core's `<span class="multilang">` filter, or the
    `{mlang xx}` syntax of the filter_multilang2 plugin."""
    penalty: float = 0.3333333
    """Moodle's penalty per wrong try in adaptive mode (a value from Moodle's list)."""
    ui: Mapping[str, Mapping[str, str]] = field(default_factory=lambda: MappingProxyType({}))
    """Translated user-interface strings of the practice site, by language then msgctxt
    (read from `translations/site/<lang>.po` by the build; English is the exporter's own)."""
    english: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: MappingProxyType({}))
    """The English texts (sorted) each language shows for want of a current translation (a language
    exported with fallback, `bank.toml` ``[languages]``): exporters mark them as English where
    their format can (``lang="en"``, Moodle's ``en`` multilang block)."""
    site_id: str = "aistack-bank"
    """The project's id in the practice site's storage keys (``<site_id>/<topic-id>/answers``), so
    that two banks published on one web origin keep their learners' answers apart: the build
    makes it of the project's name (its template, ``<project>.pot``) as ``<project>-bank``."""
