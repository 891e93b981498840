"""Which questions a format carries is decided from the kinds of a bank's questions, found once
per bank (``exporters/record.py``: ``_kinds_of``, by the bank's identity): on banks of random
subsets of every kind, asked about again and again (the same bank object, equal banks made
anew, more banks than the table keeps), ``Format.carried_bank`` and ``carried_library`` give
what the old walk over the questions (kept below, verbatim) gave, the bank itself when every
kind is carried."""

from __future__ import annotations

import random

import pytest

import qti_kinds_bank
from aistack_bank.exporters import NAMES, get_format
from aistack_bank.exporters import record
from aistack_bank.model import Library


def old_carried_bank(self, bank):
    writers = self.writers
    if all(q.kind in writers for q in bank.questions):
        return bank
    kept = tuple(q for q in bank.questions if self.carries(q))
    ids = {q.id for q in kept}
    topic = bank.topic.model_copy(update={"questions": [qid for qid in bank.topic.questions if qid in ids]})
    return bank.model_copy(update={"questions": kept, "topic": topic})


@pytest.mark.parametrize("seed", range(4))
def test_carried_banks_are_the_old_walks(seed):
    rng = random.Random(seed)
    banks = qti_kinds_bank.banks()
    formats = [get_format(name) for name in NAMES]
    made = []
    for _ in range(60):
        if made and rng.random() < 0.4:
            bank = rng.choice(made)  # (asked about again)
        else:
            source = banks[rng.choice(sorted(banks))]
            questions = rng.sample(source.questions, rng.randint(0, len(source.questions)))
            bank = source.model_copy(update={"questions": tuple(questions)})
            made.append(bank)
            if rng.random() < 0.2:  # (a bank whose id a dropped bank may have had)
                made.remove(bank)
                del bank
                continue
        for fmt in rng.sample(formats, 4):
            old = old_carried_bank(fmt, bank)
            new = fmt.carried_bank(bank)
            assert (new is bank) == (old is bank)
            assert new == old
            library = Library(lang=bank.lang, categories=(bank.category,), topics=(bank,))
            carried = fmt.carried_library(library)
            assert carried.topics == (old,)
            assert (carried is library) == (old is bank)
    assert len(record._KINDS) <= 16



def test_a_dropped_bank_is_kept_while_its_kinds_are():
    """The table keeps the banks it answers for, so that no other bank can be given a dropped
    one's identity (and its kinds) while they are in it."""
    rng = random.Random(7)
    source = qti_kinds_bank.banks()["en"]
    fmt = get_format("aiken")  # (single choice only: most banks lose questions)
    for _ in range(100):
        dropped = source.model_copy(update={"questions": tuple(q for q in source.questions if q.kind == "single-choice")})
        assert fmt.carried_bank(dropped) is dropped
        del dropped
        bank = source.model_copy(update={"questions": tuple(rng.sample(source.questions, rng.randint(1, len(source.questions))))})
        assert fmt.carried_bank(bank) == old_carried_bank(fmt, bank)
        assert all(id(kept) == key for key, (kept, _) in record._KINDS.items())
