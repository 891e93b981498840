"""A large build sends its staged pieces to the workers longest first, so that the last to end
are short, and takes them back in their own order: the same files, written in the same order,
as a build that sends them in their order."""

from __future__ import annotations

import random
from pathlib import Path

from conftest import keep_only


def test_the_results_come_back_in_the_pieces_order_whatever_order_they_were_sent_in():
    from aistack_bank.build import _in_order

    rng = random.Random(3)
    for size in [0, 1, 2, 5, 30]:
        for _ in range(20):
            order = list(range(size))
            rng.shuffle(order)
            taken = []

            def results():
                for index in order:  # each result as the worker gives it back, in the order sent
                    taken.append(index)
                    yield f"piece {index}"

            out = []
            for got in _in_order(results(), order):
                wanted = len(out)
                out.append(got)
                # yielded as soon as it and those before it have come, not later
                assert len(taken) == max(order.index(j) for j in range(wanted + 1)) + 1
            assert out == [f"piece {index}" for index in range(size)]


def test_the_longest_pieces_go_first_and_every_format_is_ranked():
    from aistack_bank.build import _LONGEST_FIRST, _longest_first
    from aistack_bank.exporters import FORMATS

    langs = ["en", "fr", "nl"]
    pieces = [(name, part, index == len(parts) - 1) for name in FORMATS for parts in [FORMATS[name].parts(langs, 1)] for index, part in enumerate(parts)]
    assert {(name, "all" if part in ("all", None) else "language") for name, part, _ in pieces} == set(_LONGEST_FIRST)  # every piece is ranked
    order = _longest_first(pieces)
    assert sorted(order) == list(range(len(pieces)))
    sent = [pieces[index][:2] for index in order]
    assert [name for name, _ in sent[-3:]] == ["aiken"] * 3
    assert sent.index(("json", "all")) < sent.index(("json", "en")) < sent.index(("json", "fr")) < sent.index(("json", "nl"))
    assert sent[0] == ("html", None) and sent.index(("qti21", "nl")) < sent.index(("moodle-xml", "all")) < sent.index(("canvas-qti12", "en")) < sent.index(("gift", "en"))


def test_a_staged_build_sends_its_pieces_longest_first_and_writes_the_serial_builds_bytes(project, monkeypatch, tmp_path):
    from aistack_bank import build, parallel

    keep_only(project)
    monkeypatch.setenv("AISTACK_BANK_JOBS", "1")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "serial-cache"))
    build.build(Path("bank"), Path("translations"), Path("serial"))
    serial = {str(p.relative_to("serial")): p.read_bytes() for p in sorted(Path("serial").rglob("*")) if p.is_file()}

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("AISTACK_BANK_JOBS", "2")
    monkeypatch.setattr(build, "PARALLEL_MIN_TEXTS", 0)
    sent, written = [], []
    real_each, real_write = parallel.Workers.run_each, build.write_outputs

    def each(self, calls):
        calls = list(calls)
        sent.extend(args[1] for function, args in calls if function.__name__ == "_render_sent")
        return real_each(self, calls)

    def write(trees, folders, *args, **kwargs):
        written.extend(folders)
        return real_write(trees, folders, *args, **kwargs)

    monkeypatch.setattr(parallel.Workers, "run_each", each)
    monkeypatch.setattr(build, "write_outputs", write)
    build.build(Path("bank"), Path("translations"), Path("pooled"))
    assert {str(p.relative_to("pooled")): p.read_bytes() for p in sorted(Path("pooled").rglob("*")) if p.is_file()} == serial
    assert sent[0] == "html" and sent[1] == "common-cartridge" and sent[-1] == "aiken" and sent != sorted(sent, key=list(build.FORMATS).index)
    assert list(dict.fromkeys(written)) == list(build.FORMATS)  # each format written in its own order, as before
