"""The owners of a catalog's field keys looked up in the kept string of pairs
(`i18n/verify._KeptOwners`) give what the map of every key gave (a copy of the old way,
`dict(zip(keys, owners))`), for keys of the bank, keys it does not have, a key's prefix or
suffix, keys that are parts of others, and after enough lookups to make the map."""

from __future__ import annotations

import random

from aistack_bank.i18n.verify import _KeptOwners


def _pairs(keys: list[str], owners: list[str]) -> str:
    """As `_Owners.save` keeps them."""
    return "\0" + "\0".join(f"{key}\1{owner}" for key, owner in zip(keys, owners)) + "\0"


def test_kept_owners_give_what_the_map_of_every_key_gave():
    rng = random.Random(6)
    parts = ["q1", "q10", "q100", "topic", "category", "a", "b", "stem", "option", "x.y", "1", "", "é"]
    for _ in range(300):
        keys: list[str] = []
        while len(keys) < rng.randint(0, 40):
            key = ".".join(rng.choice(parts) for _ in range(rng.randint(1, 4)))
            if key not in keys:
                keys.append(key)
        owners = [rng.choice([key.split(".")[0], ".".join(key.split(".")[:2]), "q" + str(rng.randint(0, 99))]) for key in keys]
        old = dict(zip(keys, owners))  # (the map every key was made into)
        kept = _KeptOwners(_pairs(keys, owners))
        asked = keys + [key[:n] for key in keys for n in (1, len(key) - 1) if key] + [key + ".stem" for key in keys] + ["", "nothing", "q1.stem\1x", "a\0b"]
        rng.shuffle(asked)
        for key in asked[: rng.randint(0, len(asked))]:
            assert kept.get(key, key) == old.get(key, key)
            assert (key in kept) == (key in old)
