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
    monkeypatch.setattr(validation, "_hash_file", lambda digest, name: (reads.append(Path(os.path.relpath(name))) if name.startswith(exports) else None) or real(digest, name))

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
