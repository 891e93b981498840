"""Which questions a format can carry: every other kind is left out with a per-question warning."""

from __future__ import annotations

from typing import Mapping

from ..errors import Diagnostic, warning
from ..model import Bank

SINGLE_CHOICE = "single-choice"


def carried(bank: Bank, kinds: frozenset[str]) -> list[int]:
    """Indexes of the questions of ``bank`` whose kind the format carries."""
    return [i for i, q in enumerate(bank.questions) if getattr(q, "kind", None) in kinds]


def left_out(name: str, code: str, banks: Mapping[str, Bank], kinds: frozenset[str]) -> list[Diagnostic]:
    """A warning for each question (of the English bank) whose kind ``name`` cannot carry."""
    if not banks:
        return []
    bank = banks.get("en") or next(iter(banks.values()))
    return [warning(code, f"{name}: {q.id} is a {getattr(q, 'kind', '?')} question, which {name} cannot carry; it is left out of the export")
            for q in bank.questions if getattr(q, "kind", None) not in kinds]
