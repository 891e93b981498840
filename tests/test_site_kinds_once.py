"""A practice page carries the interface strings of the question kinds it holds: the kinds of
the bank's questions are taken once per page (``html_site._kinds``), not looked for among every
question for each string.

Compared with the code before (each string's kind looked for with ``any`` over the questions)
on every interface string, for the banks of the bundled bank and ``examples/every-kind`` in
each language and for random selections of their questions (kinds left out, a bank of one
question, none); and the whole page data with the code before put back."""

from __future__ import annotations

import random

import pytest

from conftest import REPO
from aistack_bank.build import load_libraries
from aistack_bank.exporters import html_site
from aistack_bank.options import ExportOptions
from aistack_bank.site_strings import UI_STRINGS


def _sent_before(key: str, bank) -> bool:
    from aistack_bank.kinds import NAMES

    kind = key.split(".")[1] if key.count(".") >= 2 else ""
    return kind not in NAMES or any(q.kind == kind for q in bank.questions)


def _banks(root):
    langs = ["en", "fr", "nl"] if (root / "translations" / "nl.po").exists() else ["en", "fr"]
    libraries, _ = load_libraries(root / "bank", root / "translations", langs)
    return [bank for library in libraries.values() for bank in library.topics]


@pytest.mark.parametrize("root", [REPO, REPO / "examples" / "every-kind"], ids=["bundled", "every-kind"])
def test_the_strings_sent_are_those_sent_before(root):
    rng = random.Random(3)
    banks = _banks(root)
    cases = list(banks)
    for bank in banks:
        for _ in range(40):
            kept = tuple(q for q in bank.questions if rng.random() < rng.choice([0.05, 0.3, 0.7]))
            cases.append(bank.model_copy(update={"questions": kept}))
        cases.append(bank.model_copy(update={"questions": ()}))
    if root.name == "every-kind":
        assert any(len({q.kind for q in case.questions}) > 1 for case in cases)
    for case in cases:
        kinds = html_site._kinds(case)
        for key in UI_STRINGS:
            assert html_site._sent(key, case, kinds) == html_site._sent(key, case) == _sent_before(key, case), key


@pytest.mark.parametrize("root", [REPO, REPO / "examples" / "every-kind"], ids=["bundled", "every-kind"])
def test_the_page_data_is_the_same(root, monkeypatch):
    for bank in _banks(root):
        after = html_site.page_data(bank, ExportOptions())
        monkeypatch.setattr(html_site, "_sent", lambda key, bank, kinds=None: _sent_before(key, bank))
        before = html_site.page_data(bank, ExportOptions())
        monkeypatch.undo()
        assert after == before
