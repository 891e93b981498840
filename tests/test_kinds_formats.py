"""Each format declares, per question kind, the function that writes it; the rest follows from it.

A kind missing from a format's record is left out of its files with the format's warning, with
no other change; the kind × format table in README.md is generated from the records.
"""

from __future__ import annotations

import dataclasses
import io
import json
import sys
import zipfile

import pytest

from aistack_bank import exporters
from aistack_bank.exporters import FORMATS, canvas_qti12, export_notes
from aistack_bank.exporters.table import END, START, kinds_table, with_table
from aistack_bank.kinds import NAMES
from aistack_bank.options import ExportOptions

import kinds_bank
from conftest import REPO


def test_every_format_names_a_writer_for_each_kind_it_carries():
    for fmt in FORMATS.values():
        assert fmt.writers and set(fmt.writers) <= set(NAMES), fmt.name
        assert all(callable(writer) for writer in fmt.writers.values()), fmt.name
    carriers = {kind: {f.name for f in FORMATS.values() if kind in f.writers} for kind in NAMES}
    for kind in ("single-choice", "multiple-response", "true-false", "numerical", "short-answer", "matching"):
        assert {"moodle-xml", "gift", "qti21", "qti30", "json", "html", "canvas-qti12"} <= carriers[kind], kind
    assert carriers["ordering"] == {"moodle-xml", "qti21", "qti30", "json", "html"}


def test_a_kind_a_format_does_not_declare_is_left_out_with_its_warning(monkeypatch):
    """Take matching out of Canvas's record: its question disappears from the quiz and W651 names it."""
    narrowed = dataclasses.replace(canvas_qti12.FORMAT, writers={k: w for k, w in canvas_qti12.FORMAT.writers.items() if k != "matching"})
    monkeypatch.setattr(canvas_qti12, "FORMAT", narrowed)
    monkeypatch.setitem(exporters.FORMATS, "canvas-qti12", narrowed)
    banks = kinds_bank.banks(("en",))
    matching = kinds_bank.KIND_IDS["matching"]
    tree = narrowed(banks, ExportOptions())
    (package,) = tree.values()
    quiz = "\n".join(zipfile.ZipFile(io.BytesIO(package)).read(name).decode("utf-8") for name in zipfile.ZipFile(io.BytesIO(package)).namelist())
    assert f'ident="{matching}-en"' not in quiz and 'ident="q001-en"' in quiz
    notes = [d for d in export_notes(["canvas-qti12"], banks, ExportOptions()) if d.code == "W651"]
    assert [d.message for d in notes] == [f"canvas-qti12: {matching} is a matching question, which canvas-qti12 cannot carry; it is left out of the export"]


def test_the_readme_table_is_generated_from_the_records():
    text = (REPO / "README.md").read_text(encoding="utf-8")
    assert START in text and END in text
    assert with_table(text) == text, "README.md's kind × format table is stale: run python3 -m aistack_bank.exporters.table"
    table = kinds_table()
    assert table in text
    for fmt in FORMATS.values():
        assert f"`{fmt.name}`" in table.split("\n")[0]
    assert table.count("\n") == len(NAMES) + 1


def test_a_format_that_names_no_warning_of_its_own_warns_with_w669(monkeypatch):
    """No format drops a question silently: without a code of its own, W669 names it."""
    from aistack_bank.exporters import json_bank

    narrowed = dataclasses.replace(json_bank.FORMAT, writers={k: w for k, w in json_bank.FORMAT.writers.items() if k != "true-false"})
    monkeypatch.setattr(json_bank, "FORMAT", narrowed)
    monkeypatch.setitem(exporters.FORMATS, "json", narrowed)
    banks = kinds_bank.banks(("en",))
    ids = [q.id for q in banks["en"].questions if q.kind == "true-false"]
    notes = [d for d in export_notes(["json"], banks, ExportOptions()) if d.code == "W669"]
    assert ids and [d.message for d in notes] == [f"json: {qid} is a true-false question, which json cannot carry; it is left out of the export" for qid in ids]
    document = json.loads(narrowed(banks, ExportOptions())[next(iter(narrowed(banks, ExportOptions())))])
    assert [q["id"] for q in document["questions"]] == [q.id for q in banks["en"].questions if q.kind != "true-false"]


@pytest.mark.parametrize("name", list(FORMATS))
def test_every_format_renders_without_a_kind_it_does_not_declare(name, monkeypatch):
    """Any format, narrowed to carry no matching question, renders the rest and names what it left out."""
    fmt = FORMATS[name]
    narrowed = dataclasses.replace(fmt, writers={k: w for k, w in fmt.writers.items() if k != "matching"})
    for mod in list(sys.modules.values()):
        if getattr(mod, "__name__", "").startswith("aistack_bank.exporters.") and getattr(mod, "FORMAT", None) is fmt:
            monkeypatch.setattr(mod, "FORMAT", narrowed)
    monkeypatch.setitem(exporters.FORMATS, name, narrowed)
    banks = kinds_bank.banks()
    left = [q.id for q in banks["en"].questions if q.kind == "matching"]
    tree = narrowed(banks, ExportOptions())
    assert len(tree) >= 1
    if narrowed.left_out_code is not None:
        notes = [d for d in export_notes([name], banks, ExportOptions()) if d.code == narrowed.left_out_code and "matching question" in d.message]
        assert len(notes) == len(left) >= 1
