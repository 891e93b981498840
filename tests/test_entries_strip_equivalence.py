"""An entry's diagnostics as the entry memo keeps them (``cache.entries.strip``): an empty list of
diagnostics (nearly every entry's) is answered without the generator the others are read by.

Compared with ``strip`` as it was (spelled out here) on random lists of diagnostics (empty or
not, errors and warnings, any code and message, with or without a location, the same
diagnostic repeated), on other iterables of them (a tuple, a generator) and through
``verify._entry_findings`` with the memo off, cold and warm: the same findings, in the same
order, of the same types."""

from __future__ import annotations

from pathlib import Path

import polib
from hypothesis import given, settings
from hypothesis import strategies as st

from aistack_bank.cache.entries import EntryMemo, strip
from aistack_bank.errors import Diagnostic, Location, Severity
from aistack_bank.i18n import verify
from aistack_bank.i18n.catalog import new_catalog, read_catalog, render_catalog
from aistack_bank.i18n.fields import TextField


def _strip_before(diags):
    """strip as it was: every list read by a generator."""
    return tuple((d.severity, d.code, d.message) for d in diags)


_TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=30)
_LOCATION = st.none() | st.builds(Location, _TEXT, st.integers(0, 10_000), st.integers(0, 200))
_DIAGNOSTIC = st.builds(Diagnostic, st.sampled_from(list(Severity)), st.from_regex(r"[EW][0-9]{3}", fullmatch=True) | _TEXT, _TEXT, _LOCATION)


@settings(max_examples=100, deadline=None)
@given(st.lists(_DIAGNOSTIC, max_size=6), st.integers(0, 3))
def test_strip_is_as_before(diags, repeat):
    diags = diags + diags[:1] * repeat
    new, old = strip(diags), _strip_before(diags)
    assert type(new) is tuple and new == old
    assert all(type(item) is tuple and len(item) == 3 for item in new)
    assert strip(tuple(diags)) == old
    assert strip(d for d in diags) == old  # (a generator is never empty to `not`: read as before)


def test_no_diagnostics_no_findings():
    assert strip([]) == () == _strip_before([])
    assert type(strip([])) is tuple
    assert strip(iter([])) == ()


def _catalog(folder: Path):
    fields = [TextField("q0001.stem", "The GPU has 14 GB of memory.", Path("bank/t/q.yaml"), 3, key_bearing=True),
              TextField("q0001.option.a", "It uses 2 ms.", Path("bank/t/q.yaml"), 5),
              TextField("q0001.option.b", "Twelve", Path("bank/t/q.yaml"), 6),
              TextField("q0002.stem", "What is 3.5 GB?", Path("bank/t/r.yaml"), 3, key_bearing=True),
              TextField("q0002.option.a", "A formula N×N", Path("bank/t/r.yaml"), 5)]
    po = new_catalog("fr", "test")
    translations = ["Le GPU a 14\u00a0Go de mémoire.", "Il prend 3\u00a0ms.", "Douze", "", "Une formule N×N"]
    for field, msgstr in zip(fields, translations):
        po.append(polib.POEntry(msgctxt=field.key, msgid=field.text, msgstr=msgstr, occurrences=[(str(field.path), str(field.line))]))
    path = folder / "fr.po"
    path.write_bytes(render_catalog(po))
    return fields, read_catalog(path, light=True)


def _all_findings(fields, catalog, memo):
    active = catalog.active()
    return [[(d.severity, d.code, d.message, d.location) for d in verify._entry_findings(memo, field, active[field.key], "fr", catalog, None, None, {})]
            for field in fields]


def test_entry_findings_through_the_memo(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    fields, catalog = _catalog(tmp_path)
    off = _all_findings(fields, catalog, EntryMemo(catalog.path, "fr", enabled=False))
    cold_memo = EntryMemo(catalog.path, "fr", enabled=True)
    cold = _all_findings(fields, catalog, cold_memo)
    cold_memo.save()
    warm = _all_findings(fields, catalog, EntryMemo(catalog.path, "fr", enabled=True))
    assert off == cold == warm
    codes = [[found[1] for found in entry] for entry in off]
    assert codes == [[], ["E502"], [], ["W501"], []]  # (a wrong number, an untranslated entry; the others clean)
