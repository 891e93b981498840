"""`categories.yaml` read without pydantic when its model takes it as it is, with the same results.

:func:`aistack_bank.load.plain_categories` answers for the plain case (a mapping of
`categories:` alone, a non-empty list of `id:` slugs and non-blank `title:` strings) and leaves
everything else to the model. Random documents, many of them valid and many wrong in one place,
are read by it, by the model, and by a copy of the former reader (which validated every file with
the model): the same categories, the same diagnostics, located the same.
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from aistack_bank.load import CategoryEntry, category_models, model_errors, plain_categories, read_categories
from aistack_bank.yamlsource import load_yaml

from conftest import REPO


def former_read_categories(path: Path, project: Path):
    """The reader of `categories.yaml` as it was: every file validated by the model."""
    from pydantic import TypeAdapter, ValidationError

    from aistack_bank.model import Categories, Category

    doc, diags = load_yaml(path, root=project)
    if doc is None:
        return [], None, diags
    try:
        return list(TypeAdapter(Categories).validate_python(doc.data).categories), doc, diags
    except ValidationError as exc:
        diags = diags + model_errors(exc, doc, strip_union_tag=False)
    kept = []
    items = doc.data.get("categories") if isinstance(doc.data, dict) else None
    if isinstance(items, list):
        for item in items:
            try:
                kept.append(Category.model_validate(item))
            except ValidationError:
                pass
    return kept, doc, diags


IDS = ["computer-systems", "a", "ab-c1", "x9-y-z", "Computer", "bad id", "-a", "a-", "a--b", "1a", "a\n", "é", "a_b", "", " a", "ab\u0660"]
TITLES = ["Computer systems", "T", "  padded  ", "Two\nlines", "", "   ", "\t\n", "Ünïcödé ✓", "x\u2028y", "\u00a0", "\u200b", "\ud800", "a: b", "#not a comment"]
ODD = [None, True, 0, 1, 2.5, -3, [], {}, ["a"], {"id": "a"}, "text"]


def _value(rng: random.Random, pool: list):
    return rng.choice(pool) if rng.random() < 0.85 else rng.choice(ODD)


def _category(rng: random.Random):
    if rng.random() < 0.05:
        return rng.choice(ODD)
    item = {}
    for key in rng.sample(["id", "title"], 2) if rng.random() < 0.9 else rng.sample(["id", "title"], rng.randint(0, 1)):
        item[key] = _value(rng, IDS if key == "id" else TITLES) if rng.random() < 0.5 else (rng.choice(IDS[:4]) if key == "id" else rng.choice(TITLES[:3]))
    if rng.random() < 0.08:
        item[rng.choice(["titel", "name", "ids", 1, True, "Title"])] = rng.choice(TITLES)
    return item


def _document(rng: random.Random):
    roll = rng.random()
    if roll < 0.05:
        return rng.choice(ODD)
    items = [_category(rng) for _ in range(rng.randint(0, 4))]
    if rng.random() < 0.6:  # mostly valid entries: the plain path's case
        items = [{"id": rng.choice(IDS[:4]), "title": rng.choice(TITLES[:3] + TITLES[7:9])} for _ in range(rng.randint(1, 4))]
    data = {"categories": items if rng.random() < 0.92 else rng.choice(ODD)}
    if rng.random() < 0.06:
        data[rng.choice(["category", "topics", 0, "Categories"])] = rng.choice(ODD)
    if rng.random() < 0.04:
        del data["categories"]
    return data


def _entries(categories) -> list[tuple[str, str]]:
    return [(c.id, c.title) for c in categories]


def test_the_plain_reading_answers_only_what_the_model_takes_and_as_the_model_reads_it():
    from pydantic import TypeAdapter, ValidationError

    from aistack_bank.model import Categories

    adapter = TypeAdapter(Categories)
    rng = random.Random(20261202)
    plain_count = refused = 0
    for _ in range(2000):
        data = _document(rng)
        try:
            model = _entries(adapter.validate_python(data).categories)
        except ValidationError:
            model = None
        plain = plain_categories(data)
        if plain is not None:
            plain_count += 1
            assert model is not None and _entries(plain) == model, data
            assert all(type(c) is CategoryEntry and type(c.id) is str and type(c.title) is str for c in plain)
        refused += model is None
    assert plain_count > 700 and refused > 300  # both cases drawn often enough to count


def test_categories_files_read_as_the_former_reader_read_them(tmp_path):
    rng = random.Random(7)
    path = tmp_path / "bank" / "categories.yaml"
    path.parent.mkdir()
    for index in range(150):
        data = _document(rng)
        try:
            text = yaml.safe_dump(data, allow_unicode=rng.random() < 0.5, sort_keys=rng.random() < 0.5, default_flow_style=rng.random() < 0.2)
        except yaml.YAMLError:
            continue
        path.write_text(text, encoding="utf-8")
        kept, doc, diags = read_categories(path.parent, project=tmp_path)
        former_kept, former_doc, former_diags = former_read_categories(path, tmp_path)
        assert _entries(kept) == _entries(former_kept), text
        assert [str(d) for d in diags] == [str(d) for d in former_diags], text
        assert (doc is None) == (former_doc is None) and (doc is None or doc.data == former_doc.data)
        assert category_models(kept) == former_kept, text  # the models a library is built of


def test_a_valid_categories_file_is_read_without_pydantic():
    code = ("import sys; from pathlib import Path; from aistack_bank.load import read_categories; "
            "kept, doc, diags = read_categories(Path('bank')); "
            "assert kept and not diags, diags; assert 'pydantic' not in sys.modules, 'pydantic imported'")
    result = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("text", [
    "categories:\n  - id: computer-systems\n    title: Computer systems\n",
    "categories:\n  - {id: a, title: A}\n  - {id: a, title: 'Two\\nlines'}\n",
])
def test_the_rules_and_the_catalogs_read_the_entries_as_the_models(tmp_path, text):
    from aistack_bank.i18n.fields import category_fields

    path = tmp_path / "bank" / "categories.yaml"
    path.parent.mkdir()
    path.write_text(text, encoding="utf-8")
    kept, doc, _ = read_categories(path.parent, project=tmp_path)
    former, _, _ = former_read_categories(path, tmp_path)
    assert category_fields(kept, doc, path) == category_fields(former, doc, path)
