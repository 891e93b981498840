"""`bank build` with unchanged inputs: the outputs on disk stand, read again only when their
size, inode or times say they may have changed, and any change by hand is undone."""

from __future__ import annotations

import os
from pathlib import Path

from aistack_bank import build as build_module
from aistack_bank.cache import validation


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_standing_outputs_are_not_read_until_their_identity_changes(project, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(validation, "RACY_NS", 0)  # files just written count as settled
    reads = []
    real = validation._hash_file
    exports = os.path.abspath("exports")
    monkeypatch.setattr(validation, "_hash_file", lambda digest, name, *rest: (reads.append(Path(os.path.relpath(name))) if name.startswith(exports) else None) or real(digest, name, *rest))

    def run():
        reads.clear()
        written, _ = build_module.build(Path("bank"), Path("translations"), Path("exports"))
        return written

    run()
    built = _files(Path("exports"))
    assert not any(o.changed for o in run()) and len(reads) == len([n for n in built if not n.endswith((".bank-manifest", "README.md"))])  # each output read once
    second = run()
    assert reads == [] and not any(o.changed for o in second)  # identities recorded: nothing read
    target = sorted(Path("exports/gift").glob("*-fr.gift"))[0]
    st = target.stat()
    data = target.read_bytes()
    target.write_bytes(data[:-2] + bytes([data[-2] ^ 1]) + data[-1:])  # same size, same mtime
    os.utime(target, ns=(st.st_atime_ns, st.st_mtime_ns))
    third = run()
    assert [o.path for o in third if o.changed] == [target] and target in reads
    assert _files(Path("exports")) == built
    assert [(o.format, o.language, o.size, o.path) for o in second] == [(o.format, o.language, o.size, o.path) for o in third]


def test_a_build_of_the_same_inputs_reads_no_catalog_and_localizes_nothing(project, tmp_path, monkeypatch):
    from aistack_bank.i18n import catalog, localize

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    calls, validating = [], []
    real_localize, real_read, real_validated = localize.localize, catalog.Catalogs.read, validation.validated_source

    def validated_source(*args):
        validating.append(True)
        try:
            return real_validated(*args)
        finally:
            validating.pop()

    monkeypatch.setattr(validation, "validated_source", validated_source)
    monkeypatch.setattr(localize, "localize", lambda *a, **k: calls.append("localize") or real_localize(*a, **k))
    monkeypatch.setattr(catalog.Catalogs, "read", lambda self, path: (None if validating else calls.append(path.name)) or real_read(self, path))  # catalogs read by the build, not by validation

    def run():
        calls.clear()
        return build_module.build(Path("bank"), Path("translations"), Path("exports"))

    first, notes = run()
    assert "localize" in calls
    built = _files(Path("exports"))
    question = sorted(Path("bank").glob("*/questions/*.yaml"))[0]
    question.write_text(question.read_text(encoding="utf-8") + "# a comment: the same question\n", encoding="utf-8")
    second, second_notes = run()
    assert calls == [] and not any(o.changed for o in second)
    assert second_notes == notes and [(o.format, o.language, o.questions, o.size, o.path) for o in second] == [(o.format, o.language, o.questions, o.size, o.path) for o in first]
    assert _files(Path("exports")) == built

    (Path("exports") / "README.md").unlink()  # the README is kept with the notes: written again as it was
    gone = sorted(Path("exports/gift").glob("*-fr.gift"))[0]
    gone.unlink()  # an output gone: its format is rendered again, from the localized banks
    third, _ = run()
    assert "localize" in calls and sorted(o.path.name for o in third if o.changed) == sorted(["README.md", gone.name]) and _files(Path("exports")) == built

    fr = Path("translations/fr.po")
    fr.write_text(fr.read_text(encoding="utf-8").replace("\nmsgctxt ", "\n# a translator's comment\nmsgctxt ", 1), encoding="utf-8")
    fourth, _ = run()  # a catalog with other bytes: read and localized again (the same files)
    assert "fr.po" in calls and "localize" in calls and not any(o.changed for o in fourth) and _files(Path("exports")) == built
