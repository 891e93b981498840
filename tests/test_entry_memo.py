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
