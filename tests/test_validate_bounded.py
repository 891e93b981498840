"""A large bank validated in bounded memory: the question records spilled to a file as they are
read, the catalogs and the template verified a piece at a time in the workers, with the
verdict of the whole reads, whatever the catalogs hold."""

from __future__ import annotations

import os

import random
from pathlib import Path

import pytest

from aistack_bank import parallel
from aistack_bank.cache import questionfiles
from aistack_bank.i18n import stream, verify
from aistack_bank.rules import validate
from aistack_bank.rules.validate import validate_bank
from conftest import keep_only
from inprocess_workers import in_process_workers


def _verdict(monkeypatch, tmp_path, *, bounded: bool, use_cache: bool = False, cache: str = "cache", piece: int = 1500, forked: bool = True):
    """The diagnostics of `bank validate` (as dicts), and which way the catalogs went. With
    ``forked`` false, the calls a bounded run sends to its workers are made in this process
    (tests/inprocess_workers.py): the same calls, pieces and spill file, without the processes."""
    monkeypatch.setattr(parallel, "Workers", REAL_WORKERS if forked else in_process_workers())
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / cache))
    monkeypatch.setenv("AISTACK_BANK_JOBS", "2" if bounded else "1")
    monkeypatch.setattr(validate, "POOL_MIN_CATALOG_BYTES", 0)
    monkeypatch.setattr(parallel, "POOL_MIN_WORK", 0)
    monkeypatch.setattr(questionfiles, "SPILL_MIN_FILES", 0 if bounded else 1 << 30)
    monkeypatch.setattr(verify, "STREAM_MIN_BYTES", 0)
    monkeypatch.setattr(stream, "PIECE_BYTES", piece)  # many pieces, cut at many places
    report = validate_bank(Path("bank"), translations=Path("translations"), use_cache=use_cache)
    return [d.as_dict() for d in report.diagnostics]


REAL_WORKERS = parallel.Workers


def _edit(path: Path, change) -> None:
    lines = path.read_text(encoding="utf-8").split("\n")
    path.write_text("\n".join(change(lines)), encoding="utf-8")


def _msgstr_lines(lines: list[str]) -> list[int]:
    return [i for i, ln in enumerate(lines) if ln.startswith('msgstr "') and ln != 'msgstr ""' and i > 20]


def _break(lines: list[str]) -> list[str]:
    """Numbers changed, entries untranslated, a French typography fault, a fuzzy entry."""
    filled = _msgstr_lines(lines)
    for i in filled[:60:7]:
        lines[i] = lines[i][:-1] + ' 4096 GB"'
    for i in filled[3:60:9]:
        lines[i] = 'msgstr ""'
    i = filled[len(filled) // 2]
    lines[i] = lines[i][:-1] + ' ; et  encore"'
    j = filled[len(filled) // 2 + 3]
    k = max(n for n in range(j) if lines[n].startswith("msgctxt"))
    lines.insert(k, "#, fuzzy")
    return lines


def _blocks(lines: list[str]) -> tuple[list[str], list[list[str]]]:
    """The header block and the entry blocks of a catalog's lines."""
    text = "\n".join(lines).strip("\n")
    blocks = [b.split("\n") for b in text.split("\n\n")]
    return blocks[0], blocks[1:]


def _join(header: list[str], blocks: list[list[str]]) -> list[str]:
    return "\n\n".join("\n".join(b) for b in [header, *blocks]).split("\n") + [""]


def _category(block: list[str]) -> bool:
    return any(line.startswith('msgctxt "category.') for line in block)


CHANGES = {
    "broken": _break,
    "an entry missing": lambda lines: _join(*(lambda h, b: (h, b[:40] + b[41:]))(*_blocks(lines))),
    "an entry the bank does not have": lambda lines: _join(*(lambda h, b: (h, b[:30] + [["msgctxt \"q999.stem\"", "msgid \"Gone.\"", "msgstr \"Parti.\""]] + b[30:]))(*_blocks(lines))),
    "an entry out of order": lambda lines: _join(*(lambda h, b: (h, b[:20] + b[21:] + [b[20]]))(*_blocks(lines))),
    "the parts of the bank in another order": lambda lines: _join(*(lambda h, b: (h, [x for x in b if not _category(x)] + [x for x in b if _category(x)]))(*_blocks(lines))),
    "entries shuffled": lambda lines: _join(*(lambda h, b: (h, random.Random(4).sample(b, len(b))))(*_blocks(lines))),
    "an entry twice": lambda lines: _join(*(lambda h, b: (h, b[:50] + [b[10]] + b[50:]))(*_blocks(lines))),
    "a context with two msgids": lambda lines: _join(*(lambda h, b: (h, b[:50] + [[*b[10][:-2], 'msgid "Other."', 'msgstr "Autre."']] + b[50:]))(*_blocks(lines))),
    "the header last": lambda lines: _join(*(lambda h, b: (b[0], b[1:] + [h]))(*_blocks(lines))),
    "blank lines and a byte-order mark first": lambda lines: ["\ufeff", "", ""] + lines,
    "no final newline, a long msgstr": lambda lines: (lambda ls: ls[:-1] if ls[-1] == "" else ls)(
        [ln if i != _msgstr_lines(lines)[5] else 'msgstr ""\n' + "\n".join(f'"{w} {n} ; x  "' for n, w in enumerate(["mot"] * 30)) for i, ln in enumerate(lines)]),
    "a grammar error": lambda lines: lines[:200] + ['msgstr "stray"'] + lines[200:],
    "an obsolete entry": lambda lines: lines + ['#~ msgctxt "q998.stem"', '#~ msgid "Old."', '#~ msgstr "Vieux."', ""],
}


FORKED = ("broken",)
"""The changes whose bounded runs fork the workers: the calls' arguments and results crossing
the processes, and what a worker has (the spill file, the stores on disk) and has not (the
parent's memos). The other changes are about where the pieces are cut and what they hold,
which is the same work in this process, without forking the pool three times per change."""


@pytest.mark.parametrize("change", list(CHANGES))
def test_a_catalog_verified_a_piece_at_a_time_gives_the_whole_reads_verdict(project, monkeypatch, tmp_path, change):
    keep_only(project)  # a dozen questions: still some thirty pieces of 1 500 bytes per catalog
    _edit(project / "translations" / "fr.po", CHANGES[change])
    _edit(project / "translations" / "nl.po", _break)
    forked = change in FORKED
    whole = _verdict(monkeypatch, tmp_path, bounded=False)
    assert whole  # something to compare
    assert _verdict(monkeypatch, tmp_path, bounded=True, cache="bounded", forked=forked) == whole
    # with the cache: the per-entry memos written in pieces serve the next run, unchanged
    assert _verdict(monkeypatch, tmp_path, bounded=True, use_cache=True, cache="kept", forked=forked) == whole
    _edit(project / "translations" / "nl.po", lambda lines: lines + ["# a comment"])  # the catalog's own verdict misses
    again = _verdict(monkeypatch, tmp_path, bounded=True, use_cache=True, cache="kept", forked=forked)
    assert again == _verdict(monkeypatch, tmp_path, bounded=False, cache="whole-after")


def test_a_stale_template_is_found_a_piece_at_a_time(project, monkeypatch, tmp_path):
    assert not any(d["code"] == "W504" for d in _verdict(monkeypatch, tmp_path, bounded=True, cache="a"))
    _edit(project / "translations" / "aistack.pot", lambda lines: [ln.replace("Question stem.", "Question stem!") if i > 400 else ln for i, ln in enumerate(lines)])
    whole = _verdict(monkeypatch, tmp_path, bounded=False, cache="b")
    assert any(d["code"] == "W504" for d in whole)
    assert _verdict(monkeypatch, tmp_path, bounded=True, cache="c") == whole


def test_the_streamed_way_is_taken_and_holds_no_whole_catalog(project, monkeypatch, tmp_path):
    """With the thresholds reached, the catalogs are verified by the streamed reader (no whole
    read of a catalog in a worker), and the records are read from the spill file."""
    calls = []
    real = verify.verify_streamed
    monkeypatch.setattr(verify, "verify_streamed", lambda *a, **k: calls.append(a[1].name) or real(*a, **k))
    reads = []
    real_read = verify.Catalogs.read
    monkeypatch.setattr(verify.Catalogs, "read", lambda self, path: reads.append(path) or real_read(self, path))
    monkeypatch.setenv("AISTACK_BANK_JOBS", "1")  # in this process, so that the calls are seen
    monkeypatch.setattr(validate, "POOL_MIN_CATALOG_BYTES", 0)
    monkeypatch.setattr(questionfiles, "SPILL_MIN_FILES", 0)
    monkeypatch.setattr(verify, "STREAM_MIN_BYTES", 0)

    monkeypatch.setattr(parallel, "Workers", in_process_workers())  # the workers' calls made here, in order
    # the categories' entries last: the parts of the bank need not come in the bank's order
    _edit(project / "translations" / "nl.po", CHANGES["the parts of the bank in another order"])
    validate_bank(Path("bank"), translations=Path("translations"))
    assert sorted(calls) == ["fr.po", "nl.po"]
    assert [path for path in reads if path.parent.name == "translations"] == []  # (the site's own catalogs are small)
    assert not list(Path(os.environ["XDG_CACHE_HOME"]).glob("**/aistack-bank/files/spill-*"))  # removed when done (this test's cache: another test may leave one in its own)


def test_spilled_records_read_back_as_they_were(project, monkeypatch):
    """A record in the spill file gives the model, document and fields that were read, also
    once it has left the few kept unpickled."""
    from aistack_bank.load import read_library

    whole = read_library(Path("bank")).questions
    monkeypatch.setattr(questionfiles, "SPILL_MIN_FILES", 0)
    monkeypatch.setattr(questionfiles, "RECENT_RECORDS", 3)
    files = questionfiles.QuestionFiles(validate.question_file_rules, use_cache=False, spill=True)
    spilled = read_library(Path("bank"), read_topics=files.read_topics).questions
    assert files.spill is not None and all(qs.spilled is not None for qs in spilled)
    for _ in range(2):
        for a, b in zip(whole, spilled):
            assert b.question == a.question and b.doc.values == a.doc.values and b.doc.text == a.doc.text
    assert len(files.spill.recent) == 3
    files.close()
    assert spilled[0].question == whole[0].question  # readable after the name is gone


def test_records_from_the_store_are_spilled_and_a_small_banks_stay_live(project, monkeypatch, tmp_path):
    """Records served by the topics' stores (their records files) go to the spill file too, read
    back as they were; below the spill threshold a file read in this process keeps its record as
    it was read (nothing spilled, nothing to unpickle)."""
    from aistack_bank.load import read_library

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("AISTACK_BANK_JOBS", "1")
    whole = read_library(Path("bank")).questions
    small = questionfiles.QuestionFiles(validate.question_file_rules, use_cache=True, spill=True)
    live = read_library(Path("bank"), read_topics=small.read_topics).questions  # fills the stores
    assert small.spill is None and all(qs.spilled is None and "_record" not in qs.__dict__ for qs in live)
    monkeypatch.setattr(questionfiles, "SPILL_MIN_FILES", 0)
    files = questionfiles.QuestionFiles(validate.question_file_rules, use_cache=True, spill=True)
    monkeypatch.setattr(questionfiles.QuestionFiles, "_checked", lambda *a, **k: pytest.fail("a stored file read again"))
    spilled = read_library(Path("bank"), read_topics=files.read_topics).questions
    assert files.spill is not None and all(qs.spilled is not None for qs in spilled)
    for a, b in zip(whole, spilled):
        assert b.question == a.question and b.doc.values == a.doc.values and b.doc.text == a.doc.text
    files.close()


def test_a_spilling_run_reads_the_stores_records_file_by_position(project, monkeypatch, tmp_path):
    """With a spill file, the records file of a topic's store is never read whole: each stored
    record is read at its place and copied to the spill file."""
    from aistack_bank.cache import store as store_module
    from aistack_bank.load import read_library

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("AISTACK_BANK_JOBS", "1")
    read_library(Path("bank"), read_topics=questionfiles.QuestionFiles(validate.question_file_rules, use_cache=True).read_topics)
    whole_reads = []
    read = store_module.read_private
    monkeypatch.setattr(store_module, "read_private", lambda path, *a: whole_reads.append(path.suffix) or read(path, *a))
    monkeypatch.setattr(questionfiles, "SPILL_MIN_FILES", 0)
    files = questionfiles.QuestionFiles(validate.question_file_rules, use_cache=True, spill=True)
    spilled = read_library(Path("bank"), read_topics=files.read_topics).questions
    assert all(qs.spilled is not None for qs in spilled) and spilled[0].question is not None
    assert ".pickle" in whole_reads and ".records" not in whole_reads
    files.close()


def test_the_template_is_compared_without_reading_the_records_a_third_time(project, monkeypatch, tmp_path):
    """A worker that verified a catalog a piece at a time tells the template's freshness from
    what it kept of each part's fields: the records are read once per catalog, not once more
    for the template; a stale template is still found."""
    keep_only(project)
    parts_read = []
    real = verify._read_part
    monkeypatch.setattr(verify, "_read_part", lambda fd, chunk: parts_read.append(1) or real(fd, chunk))
    fresh = _verdict(monkeypatch, tmp_path, bounded=True, cache="a", forked=False)
    chunks = len(parts_read) // 2
    assert chunks and len(parts_read) == 2 * chunks and not any(d["code"] == "W504" for d in fresh)
    last = max(i for i, ln in enumerate((project / "translations" / "aistack.pot").read_text(encoding="utf-8").split("\n")) if ln.startswith('msgid "') and ln != 'msgid ""')
    _edit(project / "translations" / "aistack.pot", lambda lines: [ln[:-1] + '!"' if i == last else ln for i, ln in enumerate(lines)])
    parts_read.clear()
    stale = _verdict(monkeypatch, tmp_path, bounded=True, cache="b", forked=False)
    assert len(parts_read) == 2 * chunks and any(d["code"] == "W504" for d in stale)


def _template_cases(rng: random.Random):
    """(fields, their parts, the template's items) with the items changed at random."""
    from aistack_bank.i18n.fields import TextField

    words = ["a", "b", "é", "1.5", "x\ny", "", "12.", "3.4"]
    files = [Path(f"bank/t/q{n}.yaml") for n in range(4)]
    fields = []
    for n in range(rng.randint(0, 14)):
        path = files[min(n // 3, 3)] if rng.random() < 0.8 else rng.choice(files)
        fields.append(TextField(rng.choice(["q1.stem", "q1.options.0", "topic.t.title", "q2.stem"]) + rng.choice(["", "x"]),
                                rng.choice(words) + rng.choice(words), path, rng.randint(1, 12), tuple(rng.sample(words, rng.randint(0, 2)))))
    cuts = sorted(rng.sample(range(len(fields) + 1), rng.randint(0, min(3, len(fields) + 1))))
    parts = [fields[a:b] for a, b in zip([0, *cuts], [*cuts, len(fields)])]
    items = [None] + [(f.key, f.text, "\n".join(f.notes), f"t/{f.path.name}", str(f.line)) for f in fields]
    for _ in range(rng.randint(0, 2)):
        change = rng.randrange(6)
        if change == 0 and len(items) > 1:
            del items[rng.randrange(1, len(items))]
        elif change == 1:
            items.insert(rng.randrange(1, len(items) + 1), ("q1.stem", "a", "", "t/q0.yaml", "1"))
        elif change == 2 and any(items[1:]):
            i = rng.choice([i for i, item in enumerate(items) if i and item is not None])
            j = rng.randrange(5)
            item = list(items[i])
            item[j] = rng.choice([item[j] + "x", item[j][:-1], rng.choice(words), "t/q1.yaml", "1" + item[j]])
            items[i] = tuple(item)
        elif change == 3 and len(items) > 2:
            i, j = rng.sample(range(1, len(items)), 2)
            items[i], items[j] = items[j], items[i]
        elif change == 4:
            items.insert(rng.randrange(len(items) + 1), None)  # a second header
        else:
            items = items[:1] + items[2:] if len(items) > 1 else items
    return fields, parts, items


def test_the_template_compared_by_parts_as_with_the_fields():
    """Randomized: the template's items compared with the parts' kept keys give what the
    comparison with the fields themselves gives (None, a second header, only where it does or
    where it would find the template stale: the caller then compares with the fields)."""
    rng = random.Random(6)
    asked = []

    def ref_of_field(field):
        return f"t/{field.path.name}"

    def ref_of_path(name):
        asked.append(name)
        return f"t/{Path(name).name}"

    for _ in range(1000):
        fields, parts, items = _template_cases(rng)
        cut = rng.randint(0, len(items))
        pieces = [items[:cut], items[cut:]]
        expected = verify._template_compared(iter(pieces), iter(fields), ref_of_field)
        asked.clear()
        found = verify._template_parts_compared(iter(pieces), [verify._part_key(part) for part in parts], ref_of_path)
        if items.count(None) > 1:
            assert found is None or found == expected
        else:
            assert found == expected, (fields, items)
        assert len(asked) == len(set(asked))  # once per file
