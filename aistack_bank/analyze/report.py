"""Plain-text and JSON renderings of an item analysis (GitHub annotations come from the CLI)."""

from __future__ import annotations

from dataclasses import asdict

from . import Report


def _f(x: float | None, spec: str = ".2f") -> str:
    return "-" if x is None else format(x, spec)


def render_text(report: Report) -> list[str]:
    """The statistics as lines of text (the flags are printed after them as diagnostics)."""
    a = report.analysis
    if a is None:
        return []
    sources = ", ".join(f"{n} {kind}" for kind, n in sorted(report.sources.items()))
    lines = [f"{report.persons} learner(s), {report.answers} answer(s) from {sources}"]
    for g in a.groups:
        alpha = (f"alpha (KR-20) {_f(g.alpha, '.3f')} on {g.alpha_items} question(s) answered by all"
                 if g.alpha is not None else "alpha: not computed (no two questions answered by every learner)")
        lines.append(f"{g.language}: {g.persons} learner(s), mean score {_f(g.mean_score and 100 * g.mean_score, '.1f')} %, "
                     f"SD {_f(g.sd_score and 100 * g.sd_score, '.1f')}; {alpha}; scores by tenths: {' '.join(map(str, g.histogram))}")
    lines.append("")
    lines.append("facility (fac), corrected point-biserial (rpb) and upper-lower index (D) per language")
    lines.append(f"{'':<10}" + " | ".join(f"{lang:<24}" for lang in a.languages).rstrip())
    lines.append(f"{'question':<10}" + " | ".join(f"{'n':>5}{'fac':>6}{'rpb':>7}{'D':>6}" for _ in a.languages))
    for qid in report.bank.items:
        cells = []
        for lang in a.languages:
            s = a.items.get((qid, lang))
            cells.append(f"{'':<24}" if s is None else f"{s.responses:>5}{s.facility:>6.2f}{_f(s.point_biserial):>7}{_f(s.upper_lower, '+.2f'):>6}")
        lines.append(f"{qid:<10}" + " | ".join(cells).rstrip())
    if report.unscored:
        lines.append("no statistics (not scored automatically): " + "; ".join(f"{qid} ({why})" for qid, why in report.unscored.items()))
    lines.append("")
    return lines


def render_json(report: Report) -> dict:
    a = report.analysis
    return {
        "format": "aistack-bank-item-analysis",
        "version": 1,
        "bank": report.bank.topic_id if report.bank else None,
        "sources": report.sources,
        "persons": report.persons,
        "answers": report.answers,
        "thresholds": asdict(report.thresholds),
        "groups": [asdict(g) for g in a.groups] if a else [],
        "items": [a.items[(q, lang)].as_dict() for q in report.bank.items for lang in a.languages if (q, lang) in a.items] if a else [],
        "flags": [f.as_dict() for f in report.flags],
        "unscored": report.unscored,
    }
