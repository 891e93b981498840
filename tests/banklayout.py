"""A one-topic bank folder in the layout the loader reads, for tests that write their own bank.

``topic_folder(bank, "kinds")`` writes ``bank/categories.yaml`` (one category, ``tests``) and
creates ``bank/kinds/questions/``; the test writes ``topic.yaml`` and the question files there.
"""

from __future__ import annotations

from pathlib import Path

CATEGORY_ID = "tests"
CATEGORY_TITLE = "Tests"


def category():
    """The category of the test banks, as the model holds it."""
    from aistack_bank.model import Category

    return Category(id=CATEGORY_ID, title=CATEGORY_TITLE)


def topic_folder(bank: Path, topic_id: str) -> Path:
    """``bank/<topic_id>/``, with ``bank/categories.yaml`` and an empty ``questions/`` folder."""
    bank.mkdir(parents=True, exist_ok=True)
    (bank / "categories.yaml").write_text(f"categories:\n  - id: {CATEGORY_ID}\n    title: {CATEGORY_TITLE}\n", encoding="utf-8")
    folder = bank / topic_id
    (folder / "questions").mkdir(parents=True, exist_ok=True)
    return folder
