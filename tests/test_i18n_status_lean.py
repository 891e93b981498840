"""`bank i18n status` and `bank i18n todo` read the bank's fields without holding the read bank,
and each bank catalog into its columns (as `bank validate` reads it): the same statuses, to-do
entries and errors as reading the bank and each catalog whole (the former code, kept here),
on catalogs half translated, fuzzy, changed, obsolete, of other shapes or damaged."""

from __future__ import annotations

import gc
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "examples" / "every-kind"


def old_catalog_status(bank_dir: Path, translations: Path):
    """`catalog_status` as it was: the whole bank read and held, each catalog read whole."""
    from aistack_bank.errors import Severity
    from aistack_bank.i18n import SOURCE_LANGUAGE
    from aistack_bank.i18n.catalog import read_catalog
    from aistack_bank.i18n.fields import bank_fields
    from aistack_bank.i18n.status import LanguageStatus, language_status
    from aistack_bank.i18n.update import catalog_paths
    from aistack_bank.load import read_library

    source = read_library(bank_dir)
    diags = [d for d in source.diagnostics if d.severity is Severity.ERROR]
    if diags:
        return [], diags
    fields = bank_fields(source)
    statuses, diags = [], []
    for path in catalog_paths(translations) if translations.is_dir() else []:
        catalog = read_catalog(path)
        if catalog.diagnostics:
            diags += catalog.diagnostics
            continue
        statuses.append(language_status(fields, catalog))
    return [LanguageStatus(language=SOURCE_LANGUAGE, total=len(fields), translated=len(fields), source=True)] + statuses, diags


def old_language_todo(bank_dir: Path, translations: Path, lang: str):
    """`language_todo` (of the bank) as it was: the catalog read whole, then the whole bank."""
    from aistack_bank.errors import Severity
    from aistack_bank.i18n.catalog import read_catalog
    from aistack_bank.i18n.fields import bank_fields
    from aistack_bank.i18n.todo import todo_entries
    from aistack_bank.load import read_library

    catalog = read_catalog(translations / f"{lang}.po")
    if catalog.diagnostics:
        return [], catalog.diagnostics
    source = read_library(bank_dir)
    problems = [d for d in source.diagnostics if d.severity is Severity.ERROR]
    if problems:
        return [], problems
    return todo_entries(bank_fields(source), catalog), []


@pytest.fixture(scope="module")
def example(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("lean-status") / "every-kind"
    shutil.copytree(EXAMPLE / "bank", root / "bank")
    shutil.copytree(EXAMPLE / "translations", root / "translations")
    return root


def _blocks(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n\n")


def _mutated(block: str, how: int) -> str | None:
    """One entry block changed as a translator or `bank i18n update` leaves it (None: dropped)."""
    lines = block.split("\n")
    at = next((i for i, line in enumerate(lines) if line.startswith(("msgctxt", "msgid"))), len(lines))
    msgstr = next((i for i, line in enumerate(lines) if line.startswith("msgstr")), None)
    if how == 1 and msgstr is not None:  # untranslated
        end = msgstr + 1
        while end < len(lines) and lines[end].startswith('"'):
            end += 1
        return "\n".join(lines[:msgstr] + ['msgstr ""'] + lines[end:])
    if how == 2:  # marked fuzzy
        return "\n".join(lines[:at] + ["#, fuzzy"] + lines[at:]) if not any(line.startswith("#,") for line in lines) else block
    if how == 3:  # changed: the English it was made for kept
        return "\n".join(lines[:at] + ['#| msgid "An older English text"'] + lines[at:])
    if how == 4:  # changed and fuzzy, as `bank i18n update` leaves it
        return "\n".join(lines[:at] + ["#, fuzzy", '#| msgid "An older English text"'] + lines[at:]) if not any(line.startswith("#,") for line in lines) else block
    if how == 5:
        return None
    if how == 6:  # obsolete
        return "\n".join(line if line.startswith("#") else "#~ " + line for line in lines)
    if how == 7:  # made for another English, not updated
        return "\n".join(line.replace('msgid "', 'msgid "Other ', 1) if line.startswith("msgid ") else line for line in lines)
    if how == 8:  # a plural entry beside it (a row kept whole)
        return block + '\n\nmsgctxt "extra.plural"\nmsgid "one"\nmsgid_plural "many"\nmsgstr[0] "un"\nmsgstr[1] "des"'
    return block


def _write_mutated(root: Path, lang: str, hows: list[int]) -> None:
    original = _blocks(EXAMPLE / "translations" / f"{lang}.po")
    out = [original[0]]
    for i, block in enumerate(original[1:]):
        changed = _mutated(block, hows[i % len(hows)]) if "msgctxt" in block else block
        if changed is not None:
            out.append(changed)
    (root / "translations" / f"{lang}.po").write_text("\n\n".join(out), encoding="utf-8")


def _same_status(root: Path, monkeypatch, cache: Path) -> None:
    from aistack_bank.i18n.status import catalog_status
    from aistack_bank.i18n.todo import language_todo

    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    old_statuses, old_diags = old_catalog_status(root / "bank", root / "translations")
    for _ in range(2):  # a cold read of the catalogs, then one from the user cache
        statuses, diags = catalog_status(root / "bank", root / "translations")
        assert [s.as_dict() for s in statuses] == [s.as_dict() for s in old_statuses]
        assert [str(d) for d in diags] == [str(d) for d in old_diags]
        for lang in ("fr", "nl"):
            entries, problems = language_todo(root / "bank", root / "translations", lang)
            old_entries, old_problems = old_language_todo(root / "bank", root / "translations", lang)
            assert entries == old_entries
            assert [str(d) for d in problems] == [str(d) for d in old_problems]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(fr=st.lists(st.integers(0, 8), min_size=1, max_size=12), nl=st.lists(st.integers(0, 8), min_size=1, max_size=12))
def test_status_and_todo_as_the_whole_reads_on_varied_catalogs(example, tmp_path_factory, monkeypatch, fr, nl):
    _write_mutated(example, "fr", fr)
    _write_mutated(example, "nl", nl)
    _same_status(example, monkeypatch, tmp_path_factory.mktemp("cache"))


@pytest.mark.parametrize("damage", ["syntax", "duplicate", "language", "bytes", "crlf", "question"])
def test_status_and_todo_as_the_whole_reads_on_damaged_input(example, tmp_path, monkeypatch, damage):
    root = tmp_path / "bank"
    shutil.copytree(example, root)
    for lang in ("fr", "nl"):
        shutil.copy(EXAMPLE / "translations" / f"{lang}.po", root / "translations" / f"{lang}.po")
    fr = root / "translations" / "fr.po"
    if damage == "syntax":
        fr.write_text(fr.read_text(encoding="utf-8").replace('\nmsgid "', '\nmsgid ', 3), encoding="utf-8")
    elif damage == "duplicate":
        blocks = _blocks(fr)
        fr.write_text("\n\n".join(blocks[:4] + [blocks[3]] + blocks[4:]), encoding="utf-8")
    elif damage == "language":
        fr.write_text(fr.read_text(encoding="utf-8").replace('"Language: fr', '"Language: de', 1), encoding="utf-8")
    elif damage == "bytes":
        fr.write_bytes(fr.read_bytes().replace(b'msgstr "', b'msgstr "\xff', 2))
    elif damage == "crlf":
        fr.write_bytes(fr.read_bytes().replace(b"\n", b"\r\n"))
    else:
        question = sorted((root / "bank").glob("*/questions/*.yaml"))[2]
        question.write_text(question.read_text(encoding="utf-8").replace(":", ": [", 1), encoding="utf-8")
    _same_status(root, monkeypatch, tmp_path / "cache")


def test_the_read_bank_is_not_held_while_the_catalogs_are_read(example, tmp_path, monkeypatch):
    """While a catalog is read, no question file's located YAML is alive (the bank's read is
    dropped once its fields are made), and a bank catalog is counted from its columns without
    making one of its entries."""
    from aistack_bank.i18n import catalog as catalog_module
    from aistack_bank.i18n.pofile import ColumnCatalog
    from aistack_bank.i18n.status import catalog_status
    from aistack_bank.i18n.todo import language_todo
    from aistack_bank.yamlsource import YamlDocument

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    for lang in ("fr", "nl"):
        shutil.copy(EXAMPLE / "translations" / f"{lang}.po", example / "translations" / f"{lang}.po")

    def documents() -> int:
        gc.collect()
        return sum(1 for o in gc.get_objects() if isinstance(o, YamlDocument))

    before = documents()
    read = catalog_module.Catalogs.read
    seen: list = []

    def watched(self, path):
        found = read(self, path)
        seen.append((path.name, documents() - before, found.po))
        return found

    monkeypatch.setattr(catalog_module.Catalogs, "read", watched)
    statuses, diags = catalog_status(example / "bank", example / "translations")
    assert not diags and [s.language for s in statuses] == ["en", "fr", "nl"]
    entries, problems = language_todo(example / "bank", example / "translations", "fr")
    assert not problems
    assert [(name, alive) for name, alive, _ in seen] == [("fr.po", 0), ("nl.po", 0), ("fr.po", 0)]
    for name, _, po in seen[:2]:
        assert isinstance(po, ColumnCatalog) and po.packed[1] is not None, name
        assert not po._made, f"{name}: {len(po._made)} entries made"


def test_todo_from_columns_looks_at_each_row_kept_whole():
    """A translated entry that the columns keep whole (here one with the English it was made
    for, ``#|``) is looked at as an entry: `bank i18n todo` lists it as changed, as it does
    from the entries themselves."""
    from aistack_bank.i18n.catalog import Catalog
    from aistack_bank.i18n.fields import TextField
    from aistack_bank.i18n.pofile import ColumnCatalog, LightCatalog, light_catalog, pack_rows, read_light_rows
    from aistack_bank.i18n.status import column_states, field_states, has_columns
    from aistack_bank.i18n.todo import todo_entries

    text = ('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: fr\\n"\n\n'
            '#: bank/t/questions/q1.yaml:3\nmsgctxt "q1.stem"\nmsgid "Now"\nmsgstr "Maintenant"\n\n'
            '#: bank/t/questions/q1.yaml:4\n#| msgid "Before"\nmsgctxt "q1.explanation"\nmsgid "Then"\nmsgstr "Alors"\n\n'
            '#, fuzzy\n#: bank/t/questions/q1.yaml:5\nmsgctxt "q1.option.a"\nmsgid "A"\nmsgstr "A"\n\n'
            '#: bank/t/questions/q1.yaml:6\nmsgctxt "q1.option.b"\nmsgid "B"\nmsgstr ""\n')
    rows, diags = read_light_rows(text, Path("fr.po"))
    assert rows is not None and not diags
    fields = [TextField(key, english, Path("q1.yaml"), 1, question_id="q1")
              for key, english in (("q1.stem", "Now"), ("q1.explanation", "Then"), ("q1.option.a", "A"), ("q1.option.b", "B"), ("q1.option.c", "C"))]
    whole = Catalog(path=Path("fr.po"), language="fr", po=light_catalog(rows), diagnostics=[])
    columns = Catalog(path=Path("fr.po"), language="fr", po=ColumnCatalog(pack_rows(rows)), diagnostics=[])
    columns._text["lines"] = whole._text["lines"] = text.split("\n")
    assert isinstance(whole.po, LightCatalog) and has_columns(columns.po)
    assert column_states(fields, columns.po)[0] == field_states(fields, whole.active()) == ["translated", "translated", "fuzzy", "untranslated", "untranslated"]
    listed = todo_entries(fields, columns)
    assert listed == todo_entries(fields, whole)
    assert [(e.key, e.state, e.previous) for e in listed] == [("q1.explanation", "changed", "Before"), ("q1.option.a", "fuzzy", None),
                                                               ("q1.option.b", "untranslated", None), ("q1.option.c", "untranslated", None)]
