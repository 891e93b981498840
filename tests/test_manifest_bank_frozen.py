"""A catalog worker reads the whole bank from the spill file once per run
(:func:`aistack_bank.i18n.verify._manifest_bank`) and holds it to the end of the run: in a
worker, the cyclic garbage collector is paused while the bank is read and the objects read are
then frozen (``gc.freeze``), so that no collection walks them again (before, the collections
between and after the parts walked each object twice, a third of the time to read the bank).

Compared with the bank as the parts read it (:func:`~aistack_bank.i18n.verify._read_part`, one
after the other): the same fields and questions, in a worker (of :class:`aistack_bank.parallel.Workers`:
the objects frozen, the collector running again after) and in the command's own process (nothing
frozen, the collector as it was)."""

from __future__ import annotations

import gc
import os
import random

import pytest
from test_record_without_doc import ROOT, _records, _spill

from aistack_bank import parallel
from aistack_bank.cache import questionfiles
from aistack_bank.i18n import verify


@pytest.fixture(scope="module")
def manifest(tmp_path_factory):
    cwd = os.getcwd()
    try:
        os.chdir(ROOT)
        from pathlib import Path

        records = _records(Path("bank"))
    finally:
        os.chdir(cwd)
    path = tmp_path_factory.mktemp("spill") / "spill"
    places = _spill(path, [questionfiles._dumped(qs) for qs in records])
    refs = [(qs.question.id, *place) for qs, place in zip(records, places)]
    rng = random.Random(11)
    cut = sorted(rng.sample(range(1, len(refs)), 4))
    bounds = [0, *cut, len(refs)]
    head = list(records[0].derived["fields"])[:2]
    chunks = [(head if not start else [], refs[start:end]) for start, end in zip(bounds, bounds[1:])]
    return verify._Manifest(str(path), chunks)


def _summary(bank, fields) -> tuple:
    return ([(f.key, f.text, f.line, f.question_id) for f in fields],
            [(str(qs.path), qs.question.id, qs.question, sorted(qs.derived), qs.doc is None) for qs in bank.questions])


def _by_parts(manifest) -> tuple:
    spill = verify._SpillFile(manifest.spill)
    fields, questions = [], []
    for chunk in manifest.chunks:
        part_fields, part_questions = verify._read_part(spill, chunk)
        fields += part_fields
        questions += part_questions
    return _summary(verify._Bank(questions), fields)


def _read_in_worker(manifest) -> tuple:
    frozen = gc.get_freeze_count()
    bank, fields = verify._manifest_bank(manifest, "token-worker")
    return parallel.in_worker(), gc.get_freeze_count() - frozen, gc.isenabled(), _summary(bank, fields)


def test_the_bank_read_in_a_worker_is_frozen_and_the_same(manifest):
    from aistack_bank import parallel

    expected = _by_parts(manifest)
    with parallel.Workers(True) as workers:
        if not workers.started:
            pytest.skip("no worker process here (one core, or no fork)")
        [(in_worker, frozen, enabled, summary)] = workers.run_all([(_read_in_worker, (manifest,))])
    assert in_worker and enabled
    assert frozen > 10 * len(expected[1])  # (the bank's objects, many per question)
    assert summary == expected


def test_the_bank_read_in_the_command_s_process_is_not_frozen(manifest, monkeypatch):
    assert not parallel.in_worker()
    monkeypatch.setattr(verify, "_RECEIVED", [None, None])
    frozen = gc.get_freeze_count()
    bank, fields = verify._manifest_bank(manifest, "token-here")
    assert gc.get_freeze_count() == frozen and gc.isenabled()
    assert _summary(bank, fields) == _by_parts(manifest)
    assert verify._manifest_bank(manifest, "token-here")[1] is fields  # (read once per run)
