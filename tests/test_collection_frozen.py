"""The test process freezes what its collection leaves (conftest's ``pytest_collection_finish``):
garbage cycles are collected first, what lives is then out of the garbage collector's reach."""

from __future__ import annotations

import gc
import weakref
from pathlib import Path


class _Node:
    pass


def _conftest_plugin(config):
    here = Path(__file__).with_name("conftest.py").resolve()
    return next(p for p in config.pluginmanager.get_plugins() if Path(getattr(p, "__file__", "") or ".").resolve() == here)


def test_the_collection_end_collects_the_garbage_and_freezes_what_lives(request):
    kept = _Node()
    kept.self = kept  # a cycle that lives
    dropped = _Node()
    dropped.self = dropped  # a cycle that is garbage
    gone = weakref.ref(dropped)
    del dropped
    before = gc.get_freeze_count()
    _conftest_plugin(request.config).pytest_collection_finish(request.session)
    assert gone() is None
    assert gc.get_freeze_count() > before
    assert not any(o is kept for o in gc.get_objects())
