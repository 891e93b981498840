"""`exports/README.md`: which file of a build goes where, written by every `bank build`.

The text is made from the format records (:attr:`~.exporters.Format.platforms` and
:attr:`~.exporters.Format.loses`), the build's own notes about what each format leaves out of
this bank, and the languages it exported, named in English and in their own language. It holds
nothing that changes without the exports changing (no date, no percentage, no language that is not exported), so
`bank build --compare` can check it like any export.
"""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Mapping

from ..errors import Diagnostic
from . import FORMATS
from .record import WHOLE_BANK_STEM, file_stem, languages
from .common import FALLBACK_MARK, file_language

if TYPE_CHECKING:
    from ..model import Library

README = "README.md"
"""The guide's name in the exports folder."""


def language_name(code: str) -> str:
    """``French — français (fr)``; ``English (en)`` when both names are one."""
    from ..i18n.languages import endonym, english_name

    english, own = english_name(code), endonym(code)
    return f"{english} (`{code}`)" if own.casefold() == english.casefold() or own == code else f"{english} — {own} (`{code}`)"


def _files(name: str, libraries: Mapping[str, Library], english: Mapping[str, object]) -> list[str]:
    """The files (or folders) of format ``name`` worth naming in the guide (``english``: the
    texts each language shows in English, which name its files ``…-de-with-en…``)."""
    export_format = FORMATS[name]
    order = languages(libraries)
    first = libraries[order[0]]
    folder = PurePosixPath(export_format.folder)
    if name == "html":
        return [f"`{folder}/index.html`"] + [f"`{folder}/{file_language(lang, english)}/`" for lang in order]
    several = len(first.topics) > 1
    if several and export_format.render_bank is None:  # one file per topic and language only
        return [f"`{folder}/<topic-id>/…` (each topic on its own)"]
    stem = WHOLE_BANK_STEM if several else file_stem(first.topics[0].topic)
    found = []
    if export_format.multilingual is not None and (len(order) > 1 or export_format.multilingual_with_one_language):
        found.append(f"`{folder / export_format.multilingual.format(stem=stem)}` (every language)")
    if export_format.per_language is not None:
        found += [f"`{folder / export_format.language_name(stem, lang, english)}`" for lang in order]
    if several:
        found.append(f"`{folder}/<topic-id>/…` (each topic on its own)")
    return found


def render_guide(libraries: Mapping[str, Library], notes: list[Diagnostic], english: Mapping[str, object] | None = None) -> bytes:
    """The exports' README for the build of ``libraries`` (by language) and its ``notes``
    (``english``: the texts each language shows in English, ``ExportOptions.english``).

    It names the exported languages only: starting or advancing a language that is not exported
    changes nothing in the exports, this file included."""
    english = english or {}
    order = languages(libraries)
    first = libraries[order[0]]
    titles = [bank.topic.title for bank in first.topics]
    shown = ", ".join(titles[:3]) + (f" and {len(titles) - 3} more topics" if len(titles) > 3 else "")
    lines = [
        "# Exports",
        "",
        f"What `bank build` made of the bank ({shown}): {len(first.questions)} question{'' if len(first.questions) == 1 else 's'}, in "
        + ", ".join(language_name(lang) for lang in order) + ".",
        "This folder is generated: do not edit it; the next `bank build` rewrites it, and",
        "`bank build --compare` fails when it is out of step with the bank.",
    ]
    partial = [lang for lang in order if file_language(lang, english) != lang]
    if partial:
        lines += [
            "",
            "Exported with English where a translation is still missing (the project opts into fallback):",
            ", ".join(language_name(lang) for lang in partial) + ". Their files and site folders are named for what they hold: the",
            f"language, then `-{FALLBACK_MARK}` (`…-{partial[0]}-{FALLBACK_MARK}.xml`, `site/{partial[0]}-{FALLBACK_MARK}/`). Every English text in them",
            "is marked as English where the format can say so (`lang=\"en\"`, Moodle's multilang `en` block,",
            "the JSON file's `fallback` list); `bank i18n todo <lang>` lists what is missing.",
            "",
        ]
    lines += ["A language of the project that is not ready yet is not exported (`bank i18n status`)" + (", unless the project opts into fallback." if partial else ".")]
    lines += ["", "## Which file for which platform, and what it loses"]
    for name, export_format in FORMATS.items():
        lines += ["", f"### {name}: `{export_format.folder}/`", "", export_format.platforms, ""]
        lines += [f"- {file}" for file in _files(name, libraries, english)]
        lines += ["", f"Loses: {export_format.loses}"]
        own = sorted({note.message.removeprefix(f"{name}: ") for note in notes if note.message.startswith(f"{name}: ")})
        if own:
            lines += ["", "In this bank:", ""] + [f"- {message}" for message in own]
    lines += [
        "",
        "## Publishing the practice site",
        "",
        "`site/` is a static site: plain HTML pages with their scripts and styles inside, no server",
        "code, no external requests. Copy the whole folder to any static host (GitHub Pages,",
        "GitLab Pages, Netlify, Cloudflare Pages, an S3 or Azure bucket with website hosting, or any",
        "web server's folder) and link to `index.html`; it also works opened from disk or from an",
        "LMS that serves files. Each learner's answers and progress stay in their own browser.",
        "",
    ]
    return "\n".join(lines).encode("utf-8")
