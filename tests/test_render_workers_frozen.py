"""A rendering worker puts the libraries it holds out of the cyclic garbage collector's reach
(``gc.freeze``) once it has unpickled or made them with the collector paused
(:func:`aistack_bank.build._received`, :func:`aistack_bank.build._localize_work`): the
collections after each call no longer walk those few million objects again. A localizing call
freezes the library it keeps with no collection first (its catalog's read is freed as it is
dropped: no cycle is left to collect), and reads its catalog after the English library and the fields unless
they are still being made (:meth:`aistack_bank.build._Awaited.ready`).

Compared with the same calls in the command's own process (nothing frozen): the same notes,
errors, English texts and libraries, whether the English library and the fields were delivered
before the call or while it read its catalog. What is checked of the freeze is what the worker
keeps for its later calls, every object of it out of the collector's reach, whatever the test
process that forked the worker left in reach (``_held``)."""

from __future__ import annotations

import gc
import pickle
import threading
import types
import weakref

import pytest

from conftest import REPO
from aistack_bank import build, parallel
from aistack_bank.i18n import catalog as catalog_module
from aistack_bank.i18n.fields import english_library_and_fields
from aistack_bank.load import read_library
from aistack_bank.project.settings import LanguagePolicy


@pytest.fixture(scope="module")
def read():
    english, fields = english_library_and_fields(read_library(REPO / "bank"))
    return ("t1", pickle.dumps(english, protocol=pickle.HIGHEST_PROTOCOL), build._fields_sent(fields))


def _questions(read: tuple) -> int:
    """How many questions the English library of ``read`` holds."""
    return sum(len(bank.questions) for bank in pickle.loads(read[1]).topics)


def _held() -> tuple[int, int]:
    """In a worker: how many objects the cyclic garbage collector tracks among those the worker
    keeps for its later calls (what ``build._LOCALIZING`` and ``build._RECEIVED`` hold: the
    libraries and the fields; classes, modules and functions aside), and how many of them are
    still in its reach (not frozen): what the worker's own call made and froze. The freeze count
    alone also holds what the worker inherited unfrozen from the test process, which its freeze
    takes along (everything after a pool of ``parallel.run_each`` ended, little once conftest's
    ``pytest_runtest_teardown`` froze it again); the helpers freeze that before their call
    (``gc.freeze``), so that the count of the call's freeze is its own too."""
    kept: dict[int, object] = {}
    stack: list = [*build._LOCALIZING.values(), *build._RECEIVED.values()]
    while stack:
        obj = stack.pop()
        if id(obj) in kept or not gc.is_tracked(obj) or isinstance(obj, (type, types.ModuleType, types.FunctionType)):
            continue
        kept[id(obj)] = obj
        stack.extend(gc.get_referents(obj))
    in_reach = {id(obj) for obj in gc.get_objects()}
    return len(kept), sum(key in in_reach for key in kept)


def _outcome(result) -> tuple:
    notes, problems, missing, localized = result
    return notes, problems, missing, pickle.loads(localized).model_dump_json() if localized is not None else None


class _Cycle:
    def __init__(self) -> None:
        self.me = self
        self.data = list(range(1000))


def _localize_in_worker(read: tuple, lang: str, folder: str, ready: bool) -> tuple:
    build._RECEIVED.clear()
    build._LOCALIZING.clear()
    seen = []
    real_read = catalog_module.Catalogs.read

    def reading(self, path):  # (what the call read, and when: before the English library or after)
        made = real_read(self, path)
        seen.append((weakref.ref(made.po), "t1" in build._LOCALIZING.values()))
        return made

    catalog_module.Catalogs.read = reading
    try:
        awaited = build._Awaited.make(folder, f"tok-{lang}-{ready}")
        assert not awaited.ready()
        if ready:
            awaited.deliver(read)
            assert awaited.ready()
            delivering = None
        else:  # (delivered while the call reads its catalog)
            delivering = threading.Timer(0.3, awaited.deliver, (read,))
            delivering.start()
        gc.freeze()  # (see _held)
        frozen = gc.get_freeze_count()
        result = build._localize_work(awaited, lang, REPO / "translations", LanguagePolicy(), False, "t2", None)
        if delivering is not None:
            delivering.join()
        frozen = gc.get_freeze_count() - frozen
        awaited.remove()
        assert awaited.ready()  # (removed: nothing to wait for)
        collected = all(po() is None for po, _ in seen)  # (the catalog's read, and its cycle, freed)
        return parallel.in_worker(), frozen, _held(), gc.isenabled(), [after for _, after in seen], collected, _outcome(result)
    finally:
        catalog_module.Catalogs.read = real_read


@pytest.mark.parametrize("ready", [True, False], ids=["delivered-first", "delivered-meanwhile"])
def test_a_localizing_worker_freezes_its_libraries_and_frees_its_catalog(read, ready, tmp_path, monkeypatch):
    monkeypatch.setattr(build, "_RECEIVED", {})
    monkeypatch.setattr(build, "_LOCALIZING", {})
    expected = {lang: _outcome(build._localize_sent(read, lang, REPO / "translations", LanguagePolicy(), False, None)) for lang in ("fr", "nl")}
    with parallel.Workers(True) as workers:
        if not workers.started:
            pytest.skip("no worker process here (one core, or no fork)")
        results = workers.run_all([(_localize_in_worker, (read, lang, str(tmp_path), ready)) for lang in ("fr", "nl")])
    for lang, (in_worker, frozen, (held, in_reach), enabled, after, collected, outcome) in zip(("fr", "nl"), results):
        assert in_worker and enabled
        assert held > 30 * _questions(read)  # (the English library, the fields and the library held: many objects per question)
        assert in_reach == 0 and frozen >= held
        assert after[0] == ready  # (read first after the English library when it was there first, else while it was made)
        assert collected
        assert outcome == expected[lang]


def _received_in_worker(payload: tuple) -> tuple:
    build._RECEIVED.clear()
    build._LOCALIZING.clear()
    gc.freeze()  # (see _held)
    frozen = gc.get_freeze_count()
    held = build._received(payload)
    first = gc.get_freeze_count() - frozen
    kept = _held()
    again = build._received(payload)
    second = gc.get_freeze_count() - frozen - first
    return parallel.in_worker(), first, second, kept, gc.isenabled(), {lang: library.model_dump_json() for lang, library in held.items()}, again.keys() == held.keys()


def test_a_rendering_worker_freezes_the_libraries_it_unpickles(read):
    payload = ("t2", (("en", read[1]),))
    expected = {"en": pickle.loads(read[1]).model_dump_json()}
    with parallel.Workers(True) as workers:
        if not workers.started:
            pytest.skip("no worker process here (one core, or no fork)")
        [(in_worker, first, second, (kept, in_reach), enabled, held, same)] = workers.run_all([(_received_in_worker, (payload,))])
    assert in_worker and enabled
    assert kept > 10 * _questions(read) and in_reach == 0  # (the library: many objects per question, all out of reach)
    assert first >= kept and second == 0  # (unpickled once per token, frozen then)
    assert held == expected and same


def _cycles_in_worker(collect: bool) -> tuple:
    cycle = _Cycle()
    ref = weakref.ref(cycle)
    del cycle
    build._kept_out_of_collections(collect=collect)
    gone = ref() is None
    gc.collect()
    return parallel.in_worker(), gone, ref() is None


def test_a_collection_before_the_freeze_frees_the_garbage_cycles():
    with parallel.Workers(True) as workers:
        if not workers.started:
            pytest.skip("no worker process here (one core, or no fork)")
        [collected, frozen] = workers.run_all([(_cycles_in_worker, (True,)), (_cycles_in_worker, (False,))])
    assert collected == (True, True, True)
    assert frozen == (True, False, False)  # (frozen: out of every later collection's reach)


def test_nothing_is_frozen_in_the_command_s_process(read, monkeypatch):
    assert not parallel.in_worker()
    monkeypatch.setattr(build, "_RECEIVED", {})
    monkeypatch.setattr(build, "_LOCALIZING", {})
    frozen = gc.get_freeze_count()
    build._received(("t3", (("en", read[1]),)))
    build._kept_out_of_collections(collect=True)
    assert gc.get_freeze_count() == frozen and gc.isenabled()


@pytest.mark.parametrize("topic", [None, "ai-hardware-software-stack"], ids=["whole", "topic"])
@pytest.mark.parametrize("lang", ["fr", "nl"])
def test_a_localizing_call_leaves_no_cycle_to_collect(read, lang, topic, monkeypatch):
    """The call freezes without collecting first: its catalog's read is freed as it is dropped
    (the active entries' map the catalog holds does not hold the catalog), and nothing else it
    makes is a cycle, so a collection would free nothing."""
    monkeypatch.setattr(build, "_RECEIVED", {})
    monkeypatch.setattr(build, "_LOCALIZING", {})
    seen = []
    real_read = catalog_module.Catalogs.read

    def reading(self, path):
        made = real_read(self, path)
        seen.append((weakref.ref(made.po), weakref.ref(made.po.active())))
        return made

    monkeypatch.setattr(catalog_module.Catalogs, "read", reading)
    expected = _outcome(build._localize_sent(read, lang, REPO / "translations", LanguagePolicy(), False, None, topic))
    seen.clear()
    build._LOCALIZING.clear()
    gc.collect()
    gc.disable()
    try:
        result = _outcome(build._localize_work(read, lang, REPO / "translations", LanguagePolicy(), False, "t5", topic))
        freed = [(po() is None, active() is None) for po, active in seen]
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        garbage = [type(o).__name__ for o in gc.garbage]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    assert result == expected
    assert freed == [(True, True)]  # (with the collector paused: freed as it was dropped)
    assert garbage == []
