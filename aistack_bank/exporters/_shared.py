"""Helpers shared by exporters: escaping, multilingual markup, deterministic zips."""

from __future__ import annotations

import io
import zipfile
from html import escape as _html_escape
from pathlib import PurePosixPath
from typing import Mapping

from ..model import Bank

ZIP_DATE = (1980, 1, 1, 0, 0, 0)
"""Timestamp of every zip member: the zip epoch, so packages are byte-identical on rebuild."""


def html_text(text_raw: str) -> str:
    """Plain text as HTML character data (``&``, ``<``, ``>`` and quotes escaped)."""
    return _html_escape(text_raw, quote=True)


def html_paragraph(text_raw: str) -> str:
    """Plain text as one HTML paragraph, lines kept as ``<br/>`` (well-formed in XML and in HTML)."""
    return "<p>" + "<br/>".join(html_text(line) for line in text_raw.split("\n")) + "</p>"


def cdata(html: str) -> str:
    """``html`` inside CDATA, with any ``]]>`` split so it cannot end the section early."""
    return "<![CDATA[" + html.replace("]]>", "]]]]><![CDATA[>") + "]]>"


def multilang_html(texts_raw: Mapping[str, str], syntax: str = "span") -> str:
    """One paragraph holding every language, English first, for Moodle's multilang filters.

    The core filter needs two or more adjacent ``<span lang class="multilang">`` blocks with
    no ``<span>`` inside them; the text is escaped, so none can appear.
    """
    if syntax == "mlang":
        body = "".join(f"{{mlang {lang}}}{html_text(text)}{{mlang}}" for lang, text in texts_raw.items())
    else:
        body = "".join(f'<span lang="{lang}" class="multilang">{html_text(text)}</span>' for lang, text in texts_raw.items())
    return f"<p>{body}</p>"


def deterministic_zip(files: Mapping[PurePosixPath | str, bytes]) -> bytes:
    """A zip of ``files`` with sorted members, fixed timestamps and fixed compression."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        for name in sorted(files, key=str):
            info = zipfile.ZipInfo(str(name), date_time=ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            info.create_system = 3
            zf.writestr(info, files[name], compresslevel=9)
    return buffer.getvalue()


def short(text: str, limit: int = 80) -> str:
    """``text`` cut at a word boundary to at most ``limit`` characters, with an ellipsis."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[: limit - 1].rsplit(" ", 1)[0]
    return cut + "…"


def languages(banks: Mapping[str, Bank]) -> list[str]:
    """Languages in export order: English first, then the others sorted."""
    return sorted(banks, key=lambda lang: (lang != "en", lang))


def file_name(lang: str, suffix: str) -> PurePosixPath:
    return PurePosixPath(f"aistack-{lang}{suffix}")
