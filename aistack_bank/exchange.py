"""The JSON export contract (version 1): a typed model, so its JSON Schema is generated too.

A document holds one topic and its questions; every text is a map from language code to
text, with English always present. The per-language files use the same contract with one
language. Compatible additions raise the minor version; anything else the major version
(the policy is in docs/json-contract.md; tests/test_contract.py enforces it).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

CONTRACT_VERSION = "1.1"

LocalizedText = dict[str, str]


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)


class ExportedOption(_Frozen):
    id: str = Field(pattern=r"^[a-z]$")
    """Stable option id."""
    text: LocalizedText
    """The option text by language."""
    correct: bool
    """Whether this is the right option."""
    feedback: LocalizedText | None = None
    """Feedback shown when this option is chosen, by language."""


class ExportedQuestion(_Frozen):
    id: str = Field(pattern=r"^q[0-9]{3,}$")
    """Stable question id."""
    kind: Literal["single-choice"]
    """Question kind."""
    stem: LocalizedText
    """The question, by language."""
    options: list[ExportedOption] = Field(min_length=2)
    """Options in authoring order (shuffle them for display)."""
    correct: str
    """Id of the right option."""
    explanation: LocalizedText
    """Why the key is right, by language."""
    tags: list[str]
    """Tags from the topic vocabulary."""
    difficulty: int = Field(ge=1, le=3)
    """1 recall, 2 understanding, 3 calculation."""


class ExportedTopic(_Frozen):
    id: str
    """Stable topic id."""
    category: LocalizedText
    """The title of the topic's category."""
    title: LocalizedText
    summary: LocalizedText
    key_points: list[LocalizedText]
    tags: dict[str, str]
    """Tag vocabulary (English descriptions)."""
    category_id: str | None = None
    """The stable id of the topic's category (`bank/categories.yaml`); since 1.1. Topics of one
    category share it, in every file of the bank."""


class ExportDocument(_Frozen):
    """A bank exported for other tools (`exports/json/aistack*.json`)."""

    model_config = ConfigDict(title="aistack-bank JSON export")
    format: Literal["aistack-bank"] = "aistack-bank"
    """Identifies the contract."""
    version: str = CONTRACT_VERSION
    """Contract version, `major.minor`."""
    languages: list[str] = Field(min_length=1)
    """Languages present in every text map, English first."""
    topic: ExportedTopic
    questions: list[ExportedQuestion]
