"""A record's paths (of the system's class of paths) are pickled as their drive, root and parts
and made again from them without parsing (``cache.questionfiles._path_reduced`` and
``_path_restored``), where ``pathlib``'s reduction gives their class and parts, parsed again when
unpickled (the code before, here ``pickle`` without the records' table): on random relative and
absolute paths (dots, repeated and trailing slashes, spaces, characters beyond ASCII), pure and concrete (a pure path pickled as before), and
on every question file's record of the bundled bank and ``examples/every-kind``, the path made
again is of the same class, compares, hashes, prints and derives (parent, name, suffix, parts,
children, relative paths) as the one ``pathlib`` makes; and the same without ``pathlib``'s way
(made from the parts as ``pathlib`` makes them), as on a Python that has none."""

from __future__ import annotations

import io
import pickle
import random
from pathlib import Path, PurePath, PurePosixPath

import pytest

from aistack_bank.cache import questionfiles
from aistack_bank.load import read_question, read_topic
from aistack_bank.rules.validate import question_file_rules

ROOT = Path(__file__).resolve().parent.parent

_PIECES = ["bank", "questions", "q00001-a.yaml", ".", "..", "", "a b", "é", "日本", "x.tar.gz", ".hidden", "~", "-", "name.", "q"]


def _random_path(rng: random.Random) -> str:
    text = "/".join(rng.choice(_PIECES) for _ in range(rng.randint(0, 6)))
    if rng.random() < 0.3:
        text = "/" + text
    if rng.random() < 0.1:
        text = "//" + text.lstrip("/")
    if rng.random() < 0.2:
        text += "/"
    return text


def _with_table(obj, table=None) -> bytes:
    out = io.BytesIO()
    pickler = pickle.Pickler(out, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = table if table is not None else questionfiles._models_reduced()
    pickler.dump(obj)
    return out.getvalue()


def _same(made: PurePath, before: PurePath) -> None:
    assert type(made) is type(before)
    assert made == before and hash(made) == hash(before)
    assert str(made) == str(before) and repr(made) == repr(before) and made.as_posix() == before.as_posix()
    assert made.parts == before.parts and made.drive == before.drive and made.root == before.root
    assert made.parent == before.parent and made.name == before.name and made.suffix == before.suffix and made.stem == before.stem
    assert made / "x" == before / "x" and made.joinpath("a/b") == before.joinpath("a/b")
    assert made.is_absolute() == before.is_absolute()
    if before.parts:
        assert made.relative_to(before.parts[0]) == before.relative_to(before.parts[0])
    assert pickle.dumps(made, protocol=pickle.HIGHEST_PROTOCOL) == pickle.dumps(before, protocol=pickle.HIGHEST_PROTOCOL)
    assert _with_table(made, questionfiles._MODELS_REDUCED) == _with_table(before, questionfiles._MODELS_REDUCED)


@pytest.mark.parametrize("parsed", [True, False])
def test_random_paths_are_made_again_as_pathlib_makes_them(monkeypatch, parsed):
    table = questionfiles._models_reduced()  # (pickled as here, unpickled where pathlib has no such way)
    if not parsed:
        monkeypatch.setattr(questionfiles, "_PARSED_PARTS", False)
    rng = random.Random(31)
    for _ in range(3000):
        text = _random_path(rng)
        for cls in (Path, PurePath, PurePosixPath):  # (only a concrete path is reduced by the table)
            path = cls(text)
            before = pickle.loads(pickle.dumps(path, protocol=pickle.HIGHEST_PROTOCOL))
            made = pickle.loads(_with_table(path, table))
            _same(made, before)
            _same(made, path)


def test_the_table_reduces_paths_where_pathlib_allows():
    table = questionfiles._models_reduced()
    if questionfiles._PARSED_PARTS:
        assert table[type(Path())] is questionfiles._path_reduced and type(PurePath()) not in table
    else:
        assert type(Path()) not in table


def test_every_record_reads_its_paths_as_before(monkeypatch):
    monkeypatch.chdir(ROOT)
    files = sorted([*ROOT.glob("bank/*/questions/*.yaml"), *ROOT.glob("examples/every-kind/bank/*/questions/*.yaml")])
    assert len(files) > 20
    topics = {}
    for path in files:
        root = path.parent.parent
        if root not in topics:
            topics[root] = read_topic(root)[0]
        qs, _ = read_question(path.relative_to(ROOT), root=root.relative_to(ROOT), project=None)
        question_file_rules(qs, root, topics[root], True)
        qs.summary = None
        blob = questionfiles._dumped(qs)
        record = questionfiles.loads_record(blob)
        head = pickle.loads(blob)
        _same(record.path, qs.path)
        _same(head[1], qs.path)
        assert record.doc.path == qs.doc.path and type(record.doc.path) is type(qs.doc.path)
        for field, before in zip(record.derived.get("fields", ()), qs.derived.get("fields", ())):
            _same(field.path, before.path)
            assert field.path is record.path  # (one path a record, as before)
