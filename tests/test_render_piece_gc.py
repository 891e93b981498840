"""A rendering worker renders each piece with the garbage collector paused (``build._render_sent``:
the bank's libraries it holds would otherwise be walked by every full collection), and the
collector runs again once the piece is done, whether it was rendered or failed."""

from __future__ import annotations

import gc

import pytest

from aistack_bank import build


class _Format:
    def __init__(self, fail: bool) -> None:
        self.fail, self.seen = fail, []

    def part_files(self, libraries, options, part):
        self.seen.append(gc.isenabled())
        if self.fail:
            raise RuntimeError("broken renderer")
        return ["file"]


@pytest.mark.parametrize("fail", [False, True])
def test_a_piece_is_rendered_with_the_collector_paused_and_it_runs_again_after(monkeypatch, fail):
    rendering = _Format(fail)
    monkeypatch.setattr(build, "get_format", lambda name: rendering)
    monkeypatch.setattr(build, "_received", lambda payload: {})
    monkeypatch.setattr(build, "_options_received", lambda sent: None)
    assert gc.isenabled()
    if fail:
        with pytest.raises(RuntimeError, match="broken renderer"):
            build._render_sent(("token", ()), "json", None, {})
    else:
        assert build._render_sent(("token", ()), "json", None, {}) == ["file"]
    assert rendering.seen == [False] and gc.isenabled()


def test_a_collector_already_paused_stays_paused(monkeypatch):
    rendering = _Format(False)
    monkeypatch.setattr(build, "get_format", lambda name: rendering)
    monkeypatch.setattr(build, "_received", lambda payload: {})
    monkeypatch.setattr(build, "_options_received", lambda sent: None)
    gc.disable()
    try:
        build._render_sent(("token", ()), "json", None, {})
        assert not gc.isenabled()
    finally:
        gc.enable()
