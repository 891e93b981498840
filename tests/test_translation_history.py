"""A year of edits through the catalog merge of `bank i18n update`: no translator's string is ever lost.

The 52 weeks run in memory through the same functions `bank i18n update` calls (fields →
template → :func:`merge_catalog`, then the PO writer and reader), so a year costs seconds; the
final edit then goes through :func:`update_catalogs` on the files, as the command does.
"""

from __future__ import annotations

import random
from pathlib import Path

import polib

from aistack_bank.project.authoring import render_question_yaml
from aistack_bank.i18n.catalog import read_catalog, render_catalog
from aistack_bank.i18n.extract import build_template
from aistack_bank.i18n.fields import bank_fields
from aistack_bank.i18n.pofile import read_po
from aistack_bank.i18n.update import catalog_header, merge_catalog, update_catalogs
from aistack_bank.load import BankSource, LibrarySource, QuestionSource, read_categories, read_library
from aistack_bank.model import SingleChoiceQuestion, Topic
from aistack_bank.writing import write_atomic
from aistack_bank.yamlsource import load_yaml

from conftest import FLAGSHIP

LANGS = ("fr", "nl")


class MemoryBank:
    """The bank as plain data (what the YAML files hold), edited in memory."""

    def __init__(self, root: Path):
        self.root = root
        self.topic = load_yaml(root / "topic.yaml")[0].data
        self.files = {p.name.split("-", 1)[0]: p.name for p in (root / "questions").glob("q*.yaml")}
        self.data = {qid: load_yaml(root / "questions" / name)[0].data for qid, name in self.files.items()}

    def source(self) -> LibrarySource:
        topic = Topic.model_validate(self.topic)
        questions = [QuestionSource(self.root / "questions" / self.files[qid], None, SingleChoiceQuestion.model_validate(self.data[qid])) for qid in sorted(self.files)]
        categories, doc, _ = read_categories(self.root.parent)
        return LibrarySource(root=self.root.parent, categories_doc=doc, categories=categories,
                             topics=[BankSource(root=self.root, topic_doc=None, topic=topic, questions=questions)])

    def save(self) -> None:
        """Write the bank as it now stands (files of deleted questions removed)."""
        folder = self.root / "questions"
        for path in folder.glob("q*.yaml"):
            path.unlink()
        for qid, name in self.files.items():
            write_atomic(folder / name, render_question_yaml(self.data[qid]))
        text = (self.root / "topic.yaml").read_text(encoding="utf-8")
        head = text[: text.index("\nquestions:\n") + 1]
        (self.root / "topic.yaml").write_text(head + "questions:\n" + "".join(f"  - {q}\n" for q in self.topic["questions"]), encoding="utf-8")


def roundtrip(po):
    """The catalog as written and read back by our PO writer and strict reader."""
    parsed, errors = read_po(render_catalog(po).decode("utf-8"), Path("memory.po"))
    assert not errors, [str(e) for e in errors]
    return parsed


def snapshot(po) -> tuple:
    """Everything `bank i18n update` writes about a catalog, comparable without rendering it."""
    entries = tuple(
        (e.msgctxt, e.msgid, e.msgstr, tuple(e.flags), e.previous_msgid, tuple(e.occurrences), e.comment, e.tcomment, e.obsolete)
        for e in po
    )
    obsolete = tuple((e.msgctxt, e.msgid, e.msgstr, tuple(e.flags), e.previous_msgid) for e in po.obsolete_entries())
    return po.header, tuple(sorted(po.metadata.items())), entries, obsolete


def test_a_year_of_edits_loses_no_translation(project):
    bank, translations = project / "bank", project / "translations"
    memory = MemoryBank(bank / FLAGSHIP)
    rng = random.Random(2026)
    catalogs = {lang: read_catalog(translations / f"{lang}.po").po for lang in LANGS}
    entered: dict[tuple[str, str], str] = {(lang, e.msgctxt): e.msgstr for lang in LANGS for e in catalogs[lang]}
    assert entered and all(entered.values())
    deleted: dict[str, tuple[dict, str, int]] = {}
    done = set()
    for week in range(52):
        action = rng.choice(["reword", "reword", "reorder", "delete", "readd", "rename", "review", "review"])
        qid = rng.choice(sorted(memory.files))
        data = memory.data.get(qid)
        if action == "reword":
            field = rng.choice(["stem", "explanation", "option"])
            if field == "option":
                option = rng.choice(data["options"])
                option["text"] = option["text"] + f" (rev {week})"
            else:
                data[field] = data[field] + f" (rev {week})"
        elif action == "reorder":
            rng.shuffle(data["options"])
        elif action == "delete" and len(memory.files) > 10:
            ids = memory.topic["questions"]
            deleted[qid] = (memory.data.pop(qid), memory.files.pop(qid), ids.index(qid))
            ids.remove(qid)
        elif action == "readd" and deleted:
            back = rng.choice(sorted(deleted))
            memory.data[back], memory.files[back], position = deleted.pop(back)
            ids = memory.topic["questions"]
            ids.insert(min(position, len(ids)), back)
        elif action == "rename":
            memory.files[qid] = f"{qid}-renamed-in-week-{week}.yaml"
        elif action == "review":
            for lang in LANGS:
                for e in [e for e in catalogs[lang] if "fuzzy" in e.flags][:3]:
                    e.msgstr = e.msgstr + f" [revu {week}]"
                    e.flags.remove("fuzzy")
                    e.previous_msgid = None
                    entered[(lang, e.msgctxt)] = e.msgstr
        done.add(action)
        template = build_template(bank_fields(memory.source()), project)
        for lang in LANGS:
            merged, _ = merge_catalog(template, catalogs[lang], lang, catalog_header(lang))
            # every quarter the catalog goes through the writer and the reader, as a saved file does
            catalogs[lang] = roundtrip(merged) if week % 13 == 12 else merged
            again, stats = merge_catalog(template, catalogs[lang], lang, catalog_header(lang))
            assert snapshot(again) == snapshot(catalogs[lang]), f"week {week}: update is not idempotent"
            assert (stats.added, stats.fuzzied, stats.revived, stats.obsoleted) == (0, 0, 0, 0)
    assert {"reword", "reorder", "delete", "readd", "rename", "review"} <= done
    assert deleted, "no question was left deleted: the obsolete path is not exercised"
    # the year's state goes to disk, then one last edit through `bank i18n update`'s own function
    memory.save()
    for lang in LANGS:
        write_atomic(translations / f"{lang}.po", render_catalog(catalogs[lang]))
    assert read_library(bank).diagnostics == []
    qid = sorted(memory.files)[0]
    data = memory.data[qid]
    data["stem"] = data["stem"] + " (final edit)"
    memory.save()
    results, diags = update_catalogs(bank, translations)
    assert not diags, [str(d) for d in diags]
    assert not any(changed for _, changed, _ in update_catalogs(bank, translations, compare=True)[0])
    for lang in LANGS:
        po = polib.pofile(str(translations / f"{lang}.po"))
        stem = next(e for e in po if e.msgctxt == f"{qid}.stem")
        assert "fuzzy" in stem.flags and stem.previous_msgid is not None and stem.msgstr == entered[(lang, f"{qid}.stem")]
        present = {e.msgctxt: e for e in po} | {e.msgctxt: e for e in po.obsolete_entries()}
        for key in deleted_keys(deleted):
            assert present[key].obsolete, f"{lang} {key} of a deleted question is not obsolete"
        for (entry_lang, key), msgstr in entered.items():
            if entry_lang != lang:
                continue
            assert key in present, f"{lang} {key} was lost"
            assert present[key].msgstr == msgstr, f"{lang} {key} changed"
        for e in po:
            if "fuzzy" in e.flags:
                assert e.previous_msgid and e.previous_msgid != e.msgid, e.msgctxt
        assert read_catalog(translations / f"{lang}.po").diagnostics == []


def deleted_keys(deleted: dict) -> list[str]:
    return [f"{qid}.stem" for qid in deleted]
