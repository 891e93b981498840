"""A self-contained HTML report of an item analysis: tables and small inline SVG plots.

No script, no external asset, no network: a Content-Security-Policy forbids every load, and
every text from the bank or the results is HTML-escaped.
"""

from __future__ import annotations

from html import escape

from . import Report

_PALETTE = ["#1b6ca8", "#c0392b", "#d68910", "#7d3c98", "#138d75", "#5d6d7e"]
_LANG_COLORS = ["#1b6ca8", "#c0392b", "#138d75", "#d68910", "#7d3c98", "#5d6d7e"]

_CSS = """
body{font:15px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:72rem;padding:0 1rem;color:#1c2833}
h1{font-size:1.5rem}h2{font-size:1.2rem;margin-top:2rem}h3{font-size:1rem;margin:1.5rem 0 .3rem}
table{border-collapse:collapse;margin:.5rem 0}td,th{border:1px solid #d5d8dc;padding:.2rem .5rem;text-align:right}
th{background:#f4f6f7}td.l,th.l{text-align:left}.flag{color:#922b21}.ok{color:#1e8449}
.flags li{margin:.3rem 0}code{font-size:.9em}svg{display:block;margin:.3rem 0}
.item{border-top:1px solid #d5d8dc;padding-top:.5rem}.legend span{display:inline-block;margin-right:1rem}
.sw{display:inline-block;width:.8em;height:.8em;margin-right:.3em;vertical-align:-.05em}
"""


def _n(x: float | None, spec: str = ".2f") -> str:
    return "–" if x is None else format(x, spec)


def _facility_svg(report: Report) -> str:
    """Facility of every question, one small bar per language."""
    a = report.analysis
    qids = list(report.bank.items)
    langs = a.languages
    bar, gap, height = 4, 4, 120
    width = len(qids) * (len(langs) * bar + gap) + 40
    parts = [f'<svg role="img" aria-label="Facility by question and language" width="{width}" height="{height + 30}" viewBox="0 0 {width} {height + 30}">']
    for frac in (0, 0.5, 1):
        y = 10 + height * (1 - frac)
        parts.append(f'<line x1="30" x2="{width}" y1="{y:.1f}" y2="{y:.1f}" stroke="#d5d8dc"/><text x="0" y="{y + 4:.1f}" font-size="10">{frac:.1f}</text>')
    for i, qid in enumerate(qids):
        x0 = 34 + i * (len(langs) * bar + gap)
        for j, lang in enumerate(langs):
            s = a.items.get((qid, lang))
            if s is None:
                continue
            h = height * s.facility
            parts.append(f'<rect x="{x0 + j * bar}" y="{10 + height - h:.1f}" width="{bar}" height="{h:.1f}" fill="{_LANG_COLORS[j % 6]}">'
                         f'<title>{escape(qid)} {escape(lang)}: facility {s.facility:.2f} (n={s.responses})</title></rect>')
        if i % 5 == 0:
            parts.append(f'<text x="{x0}" y="{height + 25}" font-size="9">{escape(qid)}</text>')
    parts.append("</svg>")
    legend = "".join(f'<span><span class="sw" style="background:{_LANG_COLORS[j % 6]}"></span>{escape(lang)}</span>' for j, lang in enumerate(langs))
    return "".join(parts) + f'<p class="legend">{legend}</p>'


def _options_svg(report: Report, qid: str) -> str:
    """Option shares of one question: one stacked bar per language, the key outlined."""
    a = report.analysis
    rows = [(lang, a.items[(qid, lang)]) for lang in a.languages if (qid, lang) in a.items]
    width, row_h = 320, 16
    parts = [f'<svg role="img" aria-label="Option shares of {escape(qid)}" width="{width + 40}" height="{len(rows) * (row_h + 4) + 4}">']
    for r, (lang, s) in enumerate(rows):
        y = 2 + r * (row_h + 4)
        parts.append(f'<text x="0" y="{y + 12}" font-size="11">{escape(lang)}</text>')
        x = 30.0
        for k, o in enumerate(s.options):
            w = width * o.share
            stroke = ' stroke="#000" stroke-width="2"' if o.key else ""
            parts.append(f'<rect x="{x:.1f}" y="{y}" width="{w:.1f}" height="{row_h}" fill="{_PALETTE[k % 6]}"{stroke}>'
                         f'<title>{escape(lang)} option {escape(o.option)}{" (key)" if o.key else ""}: {100 * o.share:.0f} %</title></rect>')
            if w > 18:
                parts.append(f'<text x="{x + 3:.1f}" y="{y + 12}" font-size="10" fill="#fff">{escape(o.option)}</text>')
            x += w
    parts.append("</svg>")
    return "".join(parts)


def render_html(report: Report) -> str:
    a = report.analysis
    bank = report.bank
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">",
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>Item analysis: {escape(bank.topic_id)}</title><style>{_CSS}</style></head><body>",
        f"<h1>Item analysis: {escape(bank.topic_id)}</h1>",
        f"<p>{report.persons} learner(s), {report.answers} answer(s) from "
        + escape(", ".join(f"{n} {kind}" for kind, n in sorted(report.sources.items()))) + ".</p>",
        "<h2>Scores and reliability</h2><table><tr><th class=l>language</th><th>learners</th><th>mean score</th><th>SD</th>"
        "<th>alpha (KR-20)</th><th>on questions</th><th class=l>scores by tenths (0–10 % … 90–100 %)</th></tr>",
    ]
    for g in a.groups:
        out.append(f"<tr><td class=l>{escape(g.language)}</td><td>{g.persons}</td><td>{_n(g.mean_score and 100 * g.mean_score, '.1f')} %</td>"
                   f"<td>{_n(g.sd_score and 100 * g.sd_score, '.1f')}</td><td>{_n(g.alpha, '.3f')}</td><td>{g.alpha_items}</td>"
                   f"<td class=l>{_histogram_svg(g.histogram)}</td></tr>")
    out.append("</table>")
    out.append("<h2>Findings</h2>")
    if report.flags:
        out.append('<ul class="flags">')
        for f in report.flags:
            where = ", ".join(escape(str(d.location)) for d in f.diagnostics if d.location)
            out.append(f'<li><a href="#{escape(f.question)}">{escape(f.question)}</a> <code>{escape(f.code)}</code> '
                       f'<span class="flag">{escape(f.message)}</span><br><code>{where}</code></li>')
        out.append("</ul>")
    else:
        out.append('<p class="ok">No question was flagged.</p>')
    out.append("<h2>Facility by question and language</h2>")
    out.append(_facility_svg(report))
    out.append("<h2>Questions</h2>")
    flagged = {f.question for f in report.flags}
    for qid, item in bank.items.items():
        if not any((qid, lang) in a.items for lang in a.languages):
            continue
        mark = ' <span class="flag">(flagged)</span>' if qid in flagged else ""
        out.append(f'<div class="item" id="{escape(qid)}"><h3>{escape(qid)}{mark}</h3><p>{escape(item.stems["en"])}</p>')
        out.append(_options_svg(report, qid))
        out.append("<table><tr><th class=l>language</th><th>n</th><th>facility</th><th>point-biserial</th><th>upper–lower</th>"
                   + "".join(f"<th>{escape(o)}{' (key)' if o in item.keys else ''}</th>" for o in item.options) + "</tr>")
        for lang in a.languages:
            s = a.items.get((qid, lang))
            if s is None:
                continue
            cells = "".join(f"<td>{100 * o.share:.0f} % · {_n(o.mean_score and 100 * o.mean_score, '.0f')}</td>" for o in s.options)
            out.append(f"<tr><td class=l>{escape(lang)}</td><td>{s.responses}</td><td>{s.facility:.2f}</td><td>{_n(s.point_biserial)}</td>"
                       f"<td>{_n(s.upper_lower, '+.2f')}</td>{cells}</tr>")
        out.append("</table><p><small>Each option: share of learners who chose it · their mean score (%).</small></p></div>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def _histogram_svg(bins: list[int]) -> str:
    top = max(bins) or 1
    w, h = 10, 24
    bars = "".join(f'<rect x="{i * (w + 1)}" y="{h - h * c / top:.1f}" width="{w}" height="{h * c / top:.1f}" fill="#1b6ca8"><title>{10 * i}–{10 * i + 10} %: {c}</title></rect>'
                   for i, c in enumerate(bins))
    return f'<svg role="img" aria-label="Score distribution" width="{len(bins) * (w + 1)}" height="{h}">{bars}</svg>'
