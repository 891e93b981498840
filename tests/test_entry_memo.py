"""The catalog entry memo serves a finding only for exactly the values it was computed from,
never with a location, and recomputes whatever it cannot trust."""

from __future__ import annotations

from pathlib import Path

from aistack_bank.errors import Location, Severity, error, warning
from aistack_bank.cache.entries import EntryMemo, located


def _run(path: Path, parts_list, compute, *, enabled=True, language="fr", kind="entries"):
    memo = EntryMemo(path, language, enabled=enabled, kind=kind)
    found = [memo.findings(parts, lambda parts=parts: compute(parts)) if kind == "entries" else memo.values(parts, lambda parts=parts: compute(parts))
             for parts in parts_list]
    memo.save()
    return found


def test_findings_are_served_for_the_same_values_only(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    catalog = tmp_path / "fr.po"
    calls = []

    def compute(parts):
        calls.append(parts)
        return [error("E502", f"{parts[0]}: numbers differ", Location.of(catalog, 12, 1))] if "7" in parts[1] else []

    first = _run(catalog, [("q1.stem", "7 GB"), ("q2.stem", "fine")], compute)
    assert first == [((Severity.ERROR, "E502", "q1.stem: numbers differ"),), ()]  # no location kept
    assert len(calls) == 2
    assert _run(catalog, [("q1.stem", "7 GB"), ("q2.stem", "fine")], compute) == first
    assert len(calls) == 2  # both served
    assert _run(catalog, [("q1.stem", "8 GB"), ("q2.stem", "fine")], compute)[0] == ()
    assert calls[-1] == ("q1.stem", "8 GB") and len(calls) == 3
    assert _run(catalog, [("q1.stem", "7 GB")], compute, language="nl")[0] == first[0]
    assert len(calls) == 4  # another language is another memo
    _run(catalog, [("q1.stem", "7 GB")], compute, enabled=False)
    _run(catalog, [("q1.stem", "7 GB")], compute, enabled=False)
    assert len(calls) == 6  # disabled: always computed
    assert located(first[0], Location.of(catalog, 40, 1)) == [error("E502", "q1.stem: numbers differ", Location.of(catalog, 40, 1))]


def test_a_damaged_or_foreign_value_is_computed_again(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    catalog = tmp_path / "fr.po"
    calls = []

    def compute(parts):
        calls.append(parts)
        return [warning("W501", "q1.stem is not translated")]

    _run(catalog, [("q1.stem", "")], compute)
    memo = EntryMemo(catalog, "fr", enabled=True)
    digest = next(iter(memo._old))
    for bad in [(("W501", "q1.stem is not translated", 3),), ("W501",), [(Severity.WARNING, "W501", "x")], None]:
        memo._store.put(memo._key, {digest: bad})
        memo._store.save()
        assert _run(catalog, [("q1.stem", "")], compute) == [((Severity.WARNING, "W501", "q1.stem is not translated"),)]
    assert len(calls) == 5
    # hits (code, message, offset) are another kind of memo, checked for their own shape
    hits = _run(catalog, [("q1", True, "voir l'option c", "fr")], lambda parts: (("W320", "refers to an option", 5),), kind="references")
    assert hits == [(("W320", "refers to an option", 5),)]
    assert _run(catalog, [("q1", True, "voir l'option c", "fr")], lambda parts: 1 / 0, kind="references") == hits


def _run_lookup(path: Path, parts_list, compute, *, enabled=True, language="fr"):
    """:func:`_run` through :meth:`EntryMemo.lookup` and :meth:`EntryMemo.missed` (what
    ``verify._entry_findings`` calls) instead of :meth:`EntryMemo.findings`."""
    from aistack_bank.cache.entries import strip

    memo = EntryMemo(path, language, enabled=enabled)
    found = []
    for parts in parts_list:
        digest, kept = memo.lookup(parts)
        found.append(kept if kept is not None else memo.missed(digest, strip(compute(parts))))
    memo.save()
    return found


def test_lookup_and_missed_keep_and_serve_what_findings_does(tmp_path, monkeypatch):
    import random

    from aistack_bank.cache.store import Store, key_of

    rng = random.Random(16)
    catalog = tmp_path / "fr.po"

    def compute(parts):
        return [error("E502", f"{parts}: numbers differ", Location.of(catalog, 3, 1))] if "7" in parts else []

    def stored(cache):
        monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
        return Store("catalog-entries", catalog).get(key_of("catalog-entries", "fr", "entry-values"))

    # (as many entries as kept, one of them new: kept only when the new one is told as computed)
    runs = [["1\0fine", "2\0fine"], ["1\0fine", "3\0fine"], ["1\0fine", "3\0fine"]]
    runs += [[f"{rng.randrange(12)}\0{rng.choice(['7 GB', '8 GB', 'fine'])}" for _ in range(rng.randrange(1, 30))] for _ in range(12)]
    for enabled in (True, False):
        for runner, cache in ((_run, tmp_path / "a"), (_run_lookup, tmp_path / "b")):
            monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
            for parts_list in runs:
                calls = []

                def counted(parts):
                    calls.append(parts)
                    return compute(parts)

                found = runner(catalog, parts_list, counted, enabled=enabled)
                runner_calls = getattr(runner, "calls", {})
                runner_calls.setdefault(enabled, []).append((found, calls))
                runner.calls = runner_calls
        assert _run.calls[enabled] == _run_lookup.calls[enabled]  # the same findings, computed for the same parts
        assert stored(tmp_path / "a") == stored(tmp_path / "b")  # and the same memo kept
    # a kept value that is not well formed is computed again, as findings does
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "c"))
    memo = EntryMemo(catalog, "fr", enabled=True)
    digest, kept = memo.lookup("x")
    assert kept is None
    memo._old[digest] = "damaged"
    assert memo.lookup("x") == (digest, None)
