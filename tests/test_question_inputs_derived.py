"""A question file's catalog digest (:func:`aistack_bank.cache.catalogs.question_inputs`, the
summary's ``catalog`` and ``texts``) digests its fields as the model's digest, the file's path
and the fields' lines (the fields are a function of these) instead of writing out every field's
values after the model's JSON.

Compared with the digest before, kept here: on every question file of the bundled bank and of
``examples/every-kind``, and on about 1 200 random variants of them (a character added, removed
or changed, a line break added, a comment, the file under another name, the check script
moved), two files' digests are apart exactly when they were before; equal for equal values in
other objects; the fields of other files, or without a model, digested whole as before. It
fails when the lines or the path are left out of the digest (a moved field, a renamed file,
would keep a catalog's verdict computed for the other)."""

from __future__ import annotations

import hashlib
import random
from pathlib import Path
from types import SimpleNamespace

from aistack_bank.cache.catalogs import _digest_fields, check_inputs, model_digest_of, model_json_of, question_inputs
from aistack_bank.i18n.fields import question_fields
from aistack_bank.load import read_question

ROOT = Path(__file__).resolve().parent.parent


def question_inputs_before(qs, fields, model_json=None) -> bytes:
    digest = hashlib.blake2b(digest_size=20)
    _digest_fields(digest, fields)
    digest.update(b"\0model\0")
    if qs.question is not None and qs.doc is not None:
        digest.update(model_json if model_json is not None else model_json_of(qs.question))
        if qs.question.check is not None:
            digest.update(check_inputs(qs).encode("utf-8", "surrogateescape"))
    return digest.digest()


def _files() -> list[Path]:
    return sorted([*ROOT.glob("bank/*/questions/*.yaml"), *ROOT.glob("examples/every-kind/bank/*/questions/*.yaml")])


def _read(path: Path):
    qs, _ = read_question(path, root=path.parent.parent, project=path.parent.parent.parent.parent)
    if qs.question is None or qs.doc is None:
        return None
    fields = question_fields(qs.question, qs.doc, qs.path)
    dumped = model_json_of(qs.question)
    return question_inputs_before(qs, fields, dumped), question_inputs(qs, fields, dumped), qs, fields, dumped


def _variant(text: str, rng: random.Random) -> str:
    lines = text.split("\n")
    at = rng.randrange(len(lines))
    line = lines[at]
    how = rng.randrange(7)
    if how == 0:
        lines.insert(at, "")
    elif how == 1:
        lines.insert(at, "# a comment")
    elif how == 2 and line:
        i = rng.randrange(len(line))
        lines[at] = line[:i] + rng.choice("aZ9 .,×é") + line[i:]
    elif how == 3 and line:
        i = rng.randrange(len(line))
        lines[at] = line[:i] + line[i + 1:]
    elif how == 4 and line:
        i = rng.randrange(len(line))
        lines[at] = line[:i] + rng.choice("bQ3-") + line[i + 1:]
    elif how == 5:
        lines[at] = line + "  "
    else:
        lines.append("# the end")
    return "\n".join(lines)


def test_the_derived_digest_tells_files_apart_exactly_as_before(tmp_path):
    rng = random.Random(20261202)
    files = _files()
    assert len(files) > 50
    compared = apart = same = 0
    for n, path in enumerate(files):
        base = _read(path)
        assert base is not None, path
        assert base[1] == question_inputs(base[2], base[3]) == question_inputs(base[2], base[3], model_digest=model_digest_of(base[4]))
        text = path.read_text(encoding="utf-8")
        folder = tmp_path / f"t{n}" / "topic" / "questions"
        folder.mkdir(parents=True)
        original_here = folder / path.name  # the original in the same folder (the path is part of both digests)
        original_here.write_text(text, encoding="utf-8")
        original = _read(original_here)
        for k in range(24):
            # the same text under another name, or a variant in the original's place
            variant = original_here if k % 6 else folder / path.name.replace(".yaml", "-x.yaml")
            changed = text if k % 6 == 0 else _variant(text, rng)
            if k % 12 == 1:  # the check script (or the end) moved a line down
                changed = changed.replace("\ncheck:", "\n# moved\ncheck:", 1)
            variant.write_text(changed, encoding="utf-8")
            other = _read(variant)
            if other is None:
                continue
            before_apart = original[0] != other[0]
            now_apart = original[1] != other[1]
            assert before_apart == now_apart, (path, changed)
            compared += 1
            apart += now_apart
            same += not now_apart
    assert compared > 1100 and apart > 600 and same > 200, (compared, apart, same)


def test_equal_values_in_other_objects_give_the_same_digest(tmp_path):
    for path in _files()[:20]:
        first, second = _read(path), _read(path)
        assert first[1] == second[1] and first[3] is not second[3]
        copy = tmp_path / path.name
        copy.write_bytes(path.read_bytes())
        moved = _read(copy)
        assert moved[0] != first[0] and moved[1] != first[1]  # another path, as before


def test_fields_of_other_files_or_without_a_model_are_digested_whole():
    base = _read(_files()[0])
    qs, fields = base[2], base[3]
    elsewhere = [field.__class__(field.key, field.text, Path("elsewhere.yaml"), field.line, field.notes, field.question_id, field.key_bearing, field.loc)
                 if i == 0 else field for i, field in enumerate(fields)]
    assert question_inputs(qs, elsewhere) == question_inputs_before(qs, elsewhere)
    modelless = SimpleNamespace(question=None, doc=None, path=qs.path)
    assert question_inputs(modelless, fields) == question_inputs_before(modelless, fields)
    docless = SimpleNamespace(question=qs.question, doc=None, path=qs.path)
    assert question_inputs(docless, fields) == question_inputs_before(docless, fields)
