"""Findings about questions, as diagnostics at the question's YAML line (and catalog line)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import Diagnostic, warning
from .bankinfo import BankInfo
from .stats import Analysis, ItemStats, two_proportion_test


@dataclass(frozen=True)
class Thresholds:
    """Every threshold of the flags; `bank analyze` options change them."""

    min_responses: int = 30  # per question and language, before any flag about it
    too_easy: float = 0.95  # facility above this
    too_hard: float = 0.20  # facility below this
    dead_distractor: float = 0.05  # share below this
    near_zero: float = 0.10  # corrected point-biserial below this (and ≥ 0)
    language_alpha: float = 0.05  # family-wise error rate of the language tests (Holm)
    language_min_difference: float = 0.10  # and at least this difference of facility
    language_min_responses: int = 50  # per language, before comparing languages


@dataclass(frozen=True)
class Flag:
    question: str
    code: str
    languages: tuple[str, ...]
    message: str
    diagnostics: tuple[Diagnostic, ...] = field(default=(), compare=False)

    def as_dict(self) -> dict:
        return {"question": self.question, "code": self.code, "languages": list(self.languages), "message": self.message,
                "locations": [str(d.location) for d in self.diagnostics if d.location]}


def _pct(x: float) -> str:
    return f"{100 * x:.0f} %"


def _item_flags(s: ItemStats, t: Thresholds) -> list[tuple[str, str, str | None]]:
    """(code, detail, option) for one question in one language."""
    found: list[tuple[str, str, str | None]] = []
    keys = [o for o in s.options if o.key]
    wrong = [o for o in s.options if not o.key]
    if s.group >= 1 and keys and wrong:  # options to compare: a kind with lettered options
        key = min(keys, key=lambda o: (o.upper_share or 0, o.option))
        rival = max(wrong, key=lambda o: (o.upper_share or 0, -ord(o.option[0])))
        if (rival.upper_share or 0) > (key.upper_share or 0):
            found.append(("W911", f"the upper {s.group} learners chose {rival.option} ({_pct(rival.upper_share)}) more than the key {key.option} ({_pct(key.upper_share)})", rival.option))
            return found  # a wrong key explains low facility and discrimination
    for o in s.options:
        if not o.key and o.share < t.dead_distractor:
            found.append(("W912", f"option {o.option} chosen by {o.count} of {s.responses} ({_pct(o.share)})", o.option))
    r = s.point_biserial
    if r is not None and r < 0:
        found.append(("W913", f"point-biserial {r:.2f}, upper–lower {s.upper_lower:+.2f}" if s.upper_lower is not None else f"point-biserial {r:.2f}", None))
    elif r is not None and r < t.near_zero:
        found.append(("W914", f"point-biserial {r:.2f} (below {t.near_zero:g})", None))
    if s.facility > t.too_easy:
        found.append(("W915", f"facility {s.facility:.2f} (above {t.too_easy:g})", None))
    elif s.facility < t.too_hard:
        found.append(("W916", f"facility {s.facility:.2f} (below {t.too_hard:g})", None))
    return found


_TITLES = {
    "W911": "possible miskey",
    "W912": "a distractor almost nobody chooses",
    "W913": "negative discrimination",
    "W914": "near-zero discrimination",
    "W915": "too easy",
    "W916": "too hard",
    "W917": "facility differs between languages",
}


def find_flags(analysis: Analysis, bank: BankInfo, t: Thresholds) -> list[Flag]:
    flags: list[Flag] = []
    for qid, item in bank.items.items():
        per_code: dict[tuple[str, str | None], list[tuple[str, str]]] = {}
        for lang in analysis.languages:
            s = analysis.items.get((qid, lang))
            if s is None or s.responses < t.min_responses:
                continue
            for code, detail, option in _item_flags(s, t):
                per_code.setdefault((code, option), []).append((lang, detail))
        for (code, option), found in sorted(per_code.items(), key=lambda kv: (kv[0][0], kv[0][1] or "")):
            langs = tuple(lang for lang, _ in found)
            message = f"{qid}: {_TITLES[code]}: " + "; ".join(f"{lang}: {detail}" for lang, detail in found)
            where = item.key_location if code == "W911" else item.option_locations.get(option, item.location) if option else item.location
            flags.append(Flag(qid, code, langs, message, (warning(code, message, where),)))
    flags += language_flags(analysis, bank, t)
    return sorted(flags, key=lambda f: (list(bank.items).index(f.question), f.code))


def language_flags(analysis: Analysis, bank: BankInfo, t: Thresholds) -> list[Flag]:
    """Two-proportion tests of facility for every pair of languages, Holm-corrected over all of them."""
    tests = []
    for qid in bank.items:
        langs = [lang for lang in analysis.languages if (s := analysis.items.get((qid, lang))) and s.responses >= t.language_min_responses]
        for i, a in enumerate(langs):
            for b in langs[i + 1:]:
                sa, sb = analysis.items[(qid, a)], analysis.items[(qid, b)]
                z, p = two_proportion_test(sa.correct, sa.responses, sb.correct, sb.responses)
                tests.append((p, qid, a, b, z, sa.facility - sb.facility))
    tests.sort(key=lambda x: (x[0], x[1], x[2], x[3]))
    significant = []
    m = len(tests)
    for rank, (p, qid, a, b, z, diff) in enumerate(tests):
        if p * (m - rank) > t.language_alpha:
            break  # Holm: stop at the first test that fails
        if abs(diff) >= t.language_min_difference:
            significant.append((qid, a, b, z, p, diff))
    flags = []
    for qid in bank.items:
        pairs = [x for x in significant if x[0] == qid]
        if not pairs:
            continue
        count: dict[str, int] = {}
        for _, a, b, *_ in pairs:
            count[a] = count.get(a, 0) + 1
            count[b] = count.get(b, 0) + 1
        # the language in most flagged pairs; among equals a translation rather than English, and
        # the one where the question is harder (translation problems rarely make questions easier)
        odd = max(count, key=lambda lang: (count[lang], lang != "en", -analysis.items[(qid, lang)].facility, lang))
        s = analysis.items[(qid, odd)]
        others = []
        for _, a, b, z, p, diff in pairs:
            other = b if a == odd else a
            o = analysis.items[(qid, other)]
            others.append(f"{other} {o.facility:.2f} (n={o.responses}; z={abs(z):.1f}, p={p:.1g})")
        word = "harder" if all(analysis.items[(qid, odd)].facility < analysis.items[(qid, (b if a == odd else a))].facility for _, a, b, *_ in pairs) else "easier" if all(analysis.items[(qid, odd)].facility > analysis.items[(qid, (b if a == odd else a))].facility for _, a, b, *_ in pairs) else "different"
        message = f"{qid}: {_TITLES['W917']}: {odd} {s.facility:.2f} (n={s.responses}) against " + ", ".join(others) + f"; the question is {word} in {odd}"
        item = bank.items[qid]
        diags = [warning("W917", message, item.location)]
        if odd in item.stem_entries:
            diags.append(warning("W917", f"{qid}: the {odd} translation may change the question: facility {s.facility:.2f} in {odd} against " + ", ".join(others), item.stem_entries[odd]))
        flags.append(Flag(qid, "W917", (odd,), message, tuple(diags)))
    return flags
