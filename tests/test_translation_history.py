"""A year of edits through `bank i18n update`: no translator's string is ever lost."""

from __future__ import annotations

import random
from pathlib import Path

import polib
import yaml

from aistack_bank.authoring import render_question_yaml
from aistack_bank.i18n.catalog import read_catalog, render_catalog
from aistack_bank.i18n.update import update_catalogs
from aistack_bank.writing import write_atomic


def _questions(bank: Path) -> dict[str, Path]:
    return {p.name.split("-", 1)[0]: p for p in (bank / "questions").glob("q*.yaml")}


def _load(path: Path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def _save(path: Path, data: dict) -> None:
    write_atomic(path, render_question_yaml(data))


def _topic_ids(bank: Path) -> list[str]:
    return _load(bank / "topic.yaml")["questions"]


def _set_topic_ids(bank: Path, ids: list[str]) -> None:
    topic = bank / "topic.yaml"
    text = topic.read_text(encoding="utf-8")
    head = text[: text.index("\nquestions:\n") + 1]
    topic.write_text(head + "questions:\n" + "".join(f"  - {q}\n" for q in ids), encoding="utf-8")


def test_a_year_of_edits_loses_no_translation(project):
    bank, translations = project / "bank", project / "translations"
    rng = random.Random(2026)
    entered: dict[tuple[str, str], str] = {}  # (lang, msgctxt) -> the translator's latest msgstr
    for lang in ("fr", "nl"):
        for e in polib.pofile(str(translations / f"{lang}.po")):
            entered[(lang, e.msgctxt)] = e.msgstr
    deleted: dict[str, tuple[bytes, str, int]] = {}
    for week in range(52):
        action = rng.choice(["reword", "reword", "reorder", "delete", "readd", "rename", "review", "review"])
        files = _questions(bank)
        qid = rng.choice(sorted(files))
        if action == "reword":
            data = _load(files[qid])
            field = rng.choice(["stem", "explanation", "option"])
            if field == "option":
                option = rng.choice(data["options"])
                option["text"] = option["text"] + f" (rev {week})"
            else:
                data[field] = data[field] + f" (rev {week})"
            _save(files[qid], data)
        elif action == "reorder":
            data = _load(files[qid])
            rng.shuffle(data["options"])
            _save(files[qid], data)
        elif action == "delete" and len(files) > 10:
            ids = _topic_ids(bank)
            deleted[qid] = (files[qid].read_bytes(), files[qid].name, ids.index(qid))
            files[qid].unlink()
            _set_topic_ids(bank, [i for i in ids if i != qid])
        elif action == "readd" and deleted:
            back = rng.choice(sorted(deleted))
            data, name, position = deleted.pop(back)
            (bank / "questions" / name).write_bytes(data)
            ids = _topic_ids(bank)
            ids.insert(min(position, len(ids)), back)
            _set_topic_ids(bank, ids)
        elif action == "rename":
            path = files[qid]
            path.rename(path.with_name(f"{qid}-renamed-in-week-{week}.yaml"))
        elif action == "review":
            for lang in ("fr", "nl"):
                catalog = read_catalog(translations / f"{lang}.po")
                fuzzy = [e for e in catalog.po if "fuzzy" in e.flags]
                for e in fuzzy[:3]:
                    e.msgstr = e.msgstr + f" [revu {week}]"
                    e.flags.remove("fuzzy")
                    e.previous_msgid = None
                    entered[(lang, e.msgctxt)] = e.msgstr
                write_atomic(catalog.path, render_catalog(catalog.po))
        results, diags = update_catalogs(bank, translations)
        assert not diags, [str(d) for d in diags]
        again, _ = update_catalogs(bank, translations, check=True)
        assert not any(changed for _, changed, _ in again), f"week {week}: update is not idempotent"
    files = _questions(bank)
    qid = sorted(files)[0]
    data = _load(files[qid])
    old_stem = data["stem"]
    data["stem"] = old_stem + " (final edit)"
    _save(files[qid], data)
    assert not update_catalogs(bank, translations)[1]
    for lang in ("fr", "nl"):
        po = polib.pofile(str(translations / f"{lang}.po"))
        stem = next(e for e in po if e.msgctxt == f"{qid}.stem")
        assert "fuzzy" in stem.flags and stem.previous_msgid is not None and stem.msgstr == entered[(lang, f"{qid}.stem")]
        present = {(e.msgctxt): e for e in po} | {e.msgctxt: e for e in po.obsolete_entries()}
        for (entry_lang, key), msgstr in entered.items():
            if entry_lang != lang:
                continue
            assert key in present, f"{lang} {key} was lost"
            assert present[key].msgstr == msgstr, f"{lang} {key} changed"
        for e in po:
            if "fuzzy" in e.flags:
                assert e.previous_msgid and e.previous_msgid != e.msgid, e.msgctxt
        assert read_catalog(translations / f"{lang}.po").diagnostics == []
