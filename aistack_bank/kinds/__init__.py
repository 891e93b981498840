"""The question kinds: one module per kind, each declaring its :class:`~._base.Kind` record.

A kind module holds everything about the kind that is not about a format: its model (with the
kind API of :class:`~._base.QuestionBase`: which answers are right, how a response is read and
scored), its translatable fields, its validation rules and the messages for the model's
refusals, its `bank new` template and its schema example. :data:`REGISTRY` lists them, in the
order documentation and statistics list the kinds; the rest of the package asks the registry
or the model instead of naming kinds (format writers excepted: each format names, per kind,
the function that writes it).

This module holds only the kinds' names, so that the command line can name them without
importing pydantic; everything else (the registry, the models, the kind API) is in
:mod:`.registry` and read from here on first use.
"""

from __future__ import annotations

import sys
from importlib import import_module

NAMES = ("single-choice", "multiple-response", "true-false", "numerical", "short-answer", "matching", "ordering", "essay")
"""Every kind's name, in the registry's order (:mod:`.registry` fails to import when they differ)."""

DEFAULT_KIND = NAMES[0]
"""The kind of a new question when none is named (`bank new`)."""


def __getattr__(name: str):
    """The registry's names (``REGISTRY``, the models, ``kind_of``, …), imported on first use."""
    if name.startswith("__"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    registry = sys.modules.get(f"{__name__}.registry") or import_module(f"{__name__}.registry")
    try:
        return getattr(registry, name)
    except AttributeError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
