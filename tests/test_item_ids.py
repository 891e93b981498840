"""Stable keys for list items: each translation stays on the item it translates.

A short answer's accepted answers and a numerical question's units and near misses carry ids
(`a1`, `u1`, `n1`, …) as matching pairs and options do, and their catalog entries are keyed on
them (`q010.answer.a3`, `q007.unit.u2`), not on their position: deleting or reordering items
leaves each translation on its item, and the deleted item's goes obsolete. `bank migrate` gives
ids to the items of a bank written without them, renaming their catalog entries so that no
translation moves, and a bank without them is refused with the hint to migrate. A topic's key
points are keyed the same way (`topic.every-kind.key_point.k2`).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import polib
import pytest
from ruamel.yaml import YAML

from conftest import REPO

EXAMPLE = REPO / "examples" / "every-kind"
QUESTIONS = Path("bank", "every-kind", "questions")
SHORT = QUESTIONS / "q010-activation-recomputation.yaml"
MATCHING = QUESTIONS / "q011-format-bits.yaml"
GERMAN = {"a1": "Gradienten-Checkpointing", "a2": "Aktivierungs-Checkpointing", "a3": "Neuberechnung der Aktivierungen",
          "a4": "Checkpointing", "a5": "Rematerialisierung", "a6": "Remat"}


@pytest.fixture(scope="module")
def example_template(tmp_path_factory) -> Path:
    """The examples bank with a German catalog beside the French and Dutch, made once per module
    (`bank i18n update --lang de`, the short answer's accepted answers translated, `bank i18n
    update`); read-only: each test works on its own copy (``example``)."""
    from typer.testing import CliRunner

    from aistack_bank.cli import app

    root = tmp_path_factory.mktemp("every-kind-template") / "every-kind"
    for name in ("bank", "translations", "bank.toml"):
        (shutil.copytree if (EXAMPLE / name).is_dir() else shutil.copy)(EXAMPLE / name, root / name)
    runner = CliRunner()
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(root)
        patch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("user-cache")))
        result = runner.invoke(app, ["i18n", "update", "--lang", "de"], catch_exceptions=False)
        assert result.exit_code == 0, result.output
        po = polib.pofile("translations/de.po")
        for entry in po:
            found = re.fullmatch(r"q010\.answer\.(a\d)", entry.msgctxt or "")
            if found:
                entry.msgstr = GERMAN[found.group(1)]
        po.save()
        result = runner.invoke(app, ["i18n", "update"], catch_exceptions=False)  # written as the project writes its catalogs
        assert result.exit_code == 0, result.output
    return root


@pytest.fixture
def example(example_template, tmp_path, monkeypatch) -> Path:
    """A scratch copy of the examples bank, with a German catalog beside the French and Dutch."""
    root = tmp_path / "every-kind"
    shutil.copytree(example_template, root, symlinks=True)
    monkeypatch.chdir(root)
    return root


def _edit(path: Path, change) -> None:
    yaml = YAML(typ="rt", pure=True)
    yaml.width = 4096
    yaml.indent(mapping=2, sequence=4, offset=2)
    data = yaml.load(path)
    change(data)
    with path.open("w", encoding="utf-8") as out:
        yaml.dump(data, out)


def _entries(lang: str, prefix: str) -> dict[str, polib.POEntry]:
    po = polib.pofile(f"translations/{lang}.po")
    return {e.msgctxt: e for e in list(po) + po.obsolete_entries() if e.msgctxt and e.msgctxt.startswith(prefix)}


def test_deleted_and_reordered_answers_keep_their_translations(example, run_cli):
    before = {lang: {key: (e.msgstr, "fuzzy" in e.flags) for key, e in _entries(lang, "q010.answer.").items()} for lang in ("de", "fr", "nl")}
    assert {key: text for key, (text, _) in before["de"].items() if key.count(".") == 2} == {f"q010.answer.{i}": t for i, t in GERMAN.items()}

    def delete_and_reorder(data):
        answers = [a for a in data["answers"] if a["id"] != "a2"]
        data["answers"] = [answers[0]] + answers[:0:-1]  # the full-credit one first, the rest reversed

    _edit(SHORT, delete_and_reorder)
    code, out = run_cli("i18n", "update")
    assert code == 0, out
    for lang in ("de", "fr", "nl"):
        after = _entries(lang, "q010.answer.")
        for key, (text, fuzzy) in before[lang].items():
            if not text and key.startswith("q010.answer.a2"):
                assert key not in after  # nothing translated: nothing kept
                continue
            entry = after[key]
            assert entry.msgstr == text, (lang, key)
            assert ("fuzzy" in entry.flags) == fuzzy, (lang, key)
            assert entry.obsolete == key.startswith("q010.answer.a2"), (lang, key)
        assert not any(e.msgstr == before[lang]["q010.answer.a2"][0] for e in after.values() if not e.obsolete), lang
    code, out = run_cli("validate")
    assert code == 0, out


def test_deleted_and_reordered_matching_pairs_keep_their_translations(example, run_cli):
    before = {lang: {key: e.msgstr for key, e in _entries(lang, "q011.").items()} for lang in ("fr", "nl")}
    assert before["fr"]["q011.pair.b.answer"]

    def delete_and_reorder(data):
        data["pairs"] = [p for p in data["pairs"] if p["id"] != "b"][::-1]

    _edit(MATCHING, delete_and_reorder)
    code, out = run_cli("i18n", "update")
    assert code == 0, out
    for lang in ("fr", "nl"):
        after = _entries(lang, "q011.")
        for key, text in before[lang].items():
            assert after[key].msgstr == text, (lang, key)
            assert "fuzzy" not in after[key].flags, (lang, key)
            assert after[key].obsolete == key.startswith("q011.pair.b."), (lang, key)


def test_deleted_and_reordered_units_and_near_misses_keep_their_translations(example, run_cli):
    numerical = QUESTIONS / "q007-kv-cache-batch-size.yaml"
    before = {lang: {key: e.msgstr for key, e in _entries(lang, "q007.").items() if e.msgstr and (".unit." in key or ".near_miss." in key)}
              for lang in ("fr", "nl")}
    assert before["fr"]["q007.unit.u3"] and before["fr"]["q007.near_miss.n2.feedback"]

    def delete_and_reorder(data):
        data["units"] = [u for u in data["units"] if u["id"] != "u2"]
        data["near_misses"] = [n for n in data["near_misses"] if n["id"] != "n1"][::-1]

    _edit(example / numerical, delete_and_reorder)
    code, out = run_cli("i18n", "update")
    assert code == 0, out
    for lang in ("fr", "nl"):
        after = _entries(lang, "q007.")
        for key, text in before[lang].items():
            assert after[key].msgstr == text and "fuzzy" not in after[key].flags, (lang, key)
            assert after[key].obsolete == (key in ("q007.unit.u2", "q007.near_miss.n1.feedback")), (lang, key)


TOPIC = Path("bank", "every-kind", "topic.yaml")
KEY_POINTS = {
    "k2": ("Training needs far more memory than inference: optimizer state and activations come on top of the weights.",
           {"de": "Training braucht viel mehr Speicher als Inferenz.", "fr": "L'entraînement demande bien plus de mémoire que l'inférence.",
            "nl": "Training vraagt veel meer geheugen dan inferentie."}),
    "k3": ("A KV cache grows with the batch size and the context length.",
           {"de": "Ein KV-Cache wächst mit der Batchgröße und der Kontextlänge.", "fr": "Un cache KV croît avec la taille du lot et la longueur du contexte.",
            "nl": "Een KV-cache groeit met de batchgrootte en de contextlengte."}),
}


def test_deleted_and_reordered_key_points_keep_their_translations(example, run_cli):
    """A topic's key points are keyed by their ids: deleting one and reordering the others
    leaves each translation, in every language, on its key point, fuzzy or not."""
    from ruamel.yaml.comments import CommentedMap

    _edit(example / TOPIC, lambda data: data["key_points"].extend(CommentedMap([("id", kid), ("text", text)]) for kid, (text, _) in KEY_POINTS.items()))
    code, out = run_cli("i18n", "update")
    assert code == 0, out
    for lang in ("de", "fr", "nl"):
        po = polib.pofile(f"translations/{lang}.po")
        for kid, (_, translations) in KEY_POINTS.items():
            entry = po.find(f"topic.every-kind.key_point.{kid}", by="msgctxt")
            entry.msgstr = translations[lang]
            if lang == "fr" and kid == "k3":
                entry.flags.append("fuzzy")  # a translator's open question stays open
        po.save()
    code, out = run_cli("i18n", "update")
    assert code == 0, out
    before = {lang: {key: (e.msgstr, "fuzzy" in e.flags) for key, e in _entries(lang, "topic.every-kind.key_point.").items()} for lang in ("de", "fr", "nl")}
    assert set(before["fr"]) == {"topic.every-kind.key_point.k1", "topic.every-kind.key_point.k2", "topic.every-kind.key_point.k3"}
    assert before["fr"]["topic.every-kind.key_point.k1"][0] and before["fr"]["topic.every-kind.key_point.k3"][1]

    def delete_and_reorder(data):
        data["key_points"] = [p for p in data["key_points"] if p["id"] != "k2"][::-1]  # k3, then k1

    _edit(example / TOPIC, delete_and_reorder)
    code, out = run_cli("i18n", "update")
    assert code == 0, out
    for lang in ("de", "fr", "nl"):
        after = _entries(lang, "topic.every-kind.key_point.")
        for key, (text, fuzzy) in before[lang].items():
            if not text:
                continue
            assert after[key].msgstr == text, (lang, key)
            assert ("fuzzy" in after[key].flags) == fuzzy, (lang, key)
            assert after[key].obsolete == key.endswith(".k2"), (lang, key)
    # an export shows each translation with its key point, in the new order
    code, out = run_cli("export", "json", "--lang", "nl", "--out", "out")
    assert code == 0, out
    import json

    document = json.loads((example / "out" / "every-kind-nl.json").read_text(encoding="utf-8"))
    assert [p["nl"] for p in document["topic"]["key_points"]] == [before["nl"]["topic.every-kind.key_point.k3"][0], before["nl"]["topic.every-kind.key_point.k1"][0]]
    assert document["topic"]["key_point_ids"] == ["k3", "k1"]


def test_a_key_point_without_an_id_or_with_another_s_is_located(example, run_cli):
    path = example / TOPIC
    text = path.read_text(encoding="utf-8")
    assert "key_points:\n  - id: k1\n    text: >-\n" in text
    path.write_text(text.replace("key_points:\n  - id: k1\n", "key_points:\n  - id: k1\n    text: The first.\n  - id: k1\n"), encoding="utf-8")
    code, out = run_cli("validate")
    assert code == 1
    assert f"{TOPIC.as_posix()}:15:9: error E372: key point 2 has the id 'k1' of key point 1" in out, out
    path.write_text(text.replace("key_points:\n  - id: k1\n    text: >-\n", "key_points:\n  - >-\n"), encoding="utf-8")
    code, out = run_cli("validate")
    assert code == 1
    assert f"{TOPIC.as_posix()}:13:5: error E371: key point 1 has no `id:`" in out and "run `bank migrate`" in out, out


def _without_ids(root: Path) -> None:
    """The examples bank as written before list items and key points had ids: no `id:` in the
    accepted answers, units, near misses and key points, their catalog entries keyed by position."""
    for path in (root / QUESTIONS).glob("*.yaml"):
        text = path.read_text(encoding="utf-8")
        path.write_text(re.sub(r"^  - id: [aun]\d+\n    ", "  - ", text, flags=re.M), encoding="utf-8")
    topic = root / TOPIC
    text = topic.read_text(encoding="utf-8")
    topic.write_text(re.sub(r"^  - id: k\d+\n    text: (.*\n(?:      .*\n)*)", lambda m: "  - " + re.sub(r"^  ", "", m.group(1), flags=re.M), text, flags=re.M), encoding="utf-8")
    assert "  - >-\n    Memory and bandwidth" in topic.read_text(encoding="utf-8")
    for path in (root / "translations").glob("*.po*"):
        text = path.read_text(encoding="utf-8")
        text = re.sub(r'(msgctxt "q\d+\.(?:answer|unit|near_miss)\.)[aun](\d+)', r"\1\2", text)
        path.write_text(re.sub(r'(msgctxt "topic\.every-kind\.key_point\.)k(\d+)', r"\1\2", text), encoding="utf-8")


def test_a_bank_without_answer_ids_is_refused_with_the_hint_to_migrate(example, run_cli):
    _without_ids(example)
    catalogs = {p: p.read_bytes() for p in (example / "translations").glob("*.po")}
    code, out = run_cli("validate")
    assert code == 1
    assert f"{SHORT.as_posix()}:8:5: error E371: accepted answer 1 has no `id:`" in out, out
    assert "run `bank migrate`" in out
    code, out = run_cli("i18n", "update")
    assert code == 1 and "E371" in out, out
    assert {p: p.read_bytes() for p in catalogs} == catalogs  # no translation was touched
    code, out = run_cli("build")
    assert code == 1 and "E371" in out, out


def test_migrate_gives_ids_and_keeps_every_translation_on_its_answer(example, run_cli):
    migrated = {p.relative_to(example): p.read_bytes() for p in [*(example / QUESTIONS).glob("*.yaml"), example / TOPIC, *(example / "translations").glob("*.po*")]}
    _without_ids(example)
    po = polib.pofile("translations/fr.po")
    po.find("q009.answer.2", by="msgctxt").flags.append("fuzzy")  # a translator's open question stays open
    po.find("topic.every-kind.key_point.1", by="msgctxt").flags.append("fuzzy")
    po.save()
    code, out = run_cli("migrate")
    assert code == 0, out
    assert "wrote     bank/every-kind/questions/q009-ridge-point.yaml" in out
    assert "wrote     bank/every-kind/questions/q007-kv-cache-batch-size.yaml" in out
    assert "wrote     bank/every-kind/topic.yaml" in out
    assert "27 catalog key(s) renamed" in out, out
    for path, data in migrated.items():
        if path.name == "fr.po":
            entry = polib.pofile(str(path)).find("q009.answer.a2", by="msgctxt")
            assert entry.flags == ["fuzzy"] and entry.msgstr == "coude"
            entry = polib.pofile(str(path)).find("topic.every-kind.key_point.k1", by="msgctxt")
            assert entry.flags == ["fuzzy"] and entry.msgstr.startswith("La mémoire et la bande passante")
            continue
        assert path.read_bytes() == data, path  # the same files as written with ids from the start
    code, out = run_cli("migrate")
    assert code == 1 and "E319" in out and "nothing to do" in out, out
    assert {path: path.read_bytes() for path in migrated if path.name != "fr.po"} == {p: d for p, d in migrated.items() if p.name != "fr.po"}


def test_migrate_keeps_the_ids_an_author_gave(example, run_cli):
    path = example / SHORT
    text = path.read_text(encoding="utf-8")
    # answers 1 and 3 lost their ids, answer 4 holds the id `a3`: each answer gets a free id
    text = text.replace("  - id: a1\n    ", "  - ").replace("  - id: a3\n    ", "  - ").replace("  - id: a4\n", "  - id: a3\n")
    path.write_text(text, encoding="utf-8")
    code, out = run_cli("migrate")
    assert code == 0, out
    ids = [a["id"] for a in YAML(typ="safe").load(path)["answers"]]
    assert ids == ["a1", "a2", "a4", "a3", "a5", "a6"]


def test_duplicate_answer_ids_are_located(example, run_cli):
    path = example / SHORT
    path.write_text(path.read_text(encoding="utf-8").replace("  - id: a3\n", "  - id: a1\n"), encoding="utf-8")
    code, out = run_cli("validate")
    assert code == 1
    assert f"{SHORT.as_posix()}:14:9: error E372: accepted answer 3 has the id 'a1' of accepted answer 1" in out, out


def test_a_unit_s_duplicate_id_and_a_near_miss_without_one_are_located(example, run_cli):
    numerical = QUESTIONS / "q007-kv-cache-batch-size.yaml"
    path = example / numerical
    path.write_text(path.read_text(encoding="utf-8").replace("  - id: u3\n", "  - id: u1\n").replace("  - id: n2\n    ", "  - "), encoding="utf-8")
    code, out = run_cli("validate")
    assert code == 1
    assert f"{numerical.as_posix()}:28:5: error E371: near miss 2 has no `id:`" in out, out
    path.write_text(path.read_text(encoding="utf-8").replace("  - value: 2.147\n", "  - id: n2\n    value: 2.147\n"), encoding="utf-8")
    code, out = run_cli("validate")
    assert code == 1
    assert f"{numerical.as_posix()}:17:9: error E372: unit 3 has the id 'u1' of unit 1" in out, out


def test_one_migration_moves_a_single_topic_bank_and_gives_its_items_ids(example, run_cli):
    """A bank from before topics and before item ids: `bank migrate` does both steps in one run."""
    migrated = {p.relative_to(example): p.read_bytes() for p in [*(example / "bank").rglob("*"), *(example / "translations").glob("*.po*")] if p.is_file()}
    _single_topic(example)
    code, out = run_cli("migrate")
    assert code == 0, out
    assert "moved     bank/topic.yaml -> bank/every-kind/topic.yaml" in out
    for path, data in migrated.items():
        assert path.read_bytes() == data, path


def _single_topic(example: Path) -> None:
    """The examples bank as written before topics and before item ids (one topic: bank/topic.yaml, bank/questions/)."""
    from aistack_bank.i18n.catalog import read_catalog, render_catalog

    _without_ids(example)
    bank = example / "bank"
    topic = (bank / "every-kind" / "topic.yaml").read_text(encoding="utf-8")
    (bank / "topic.yaml").write_text(topic.replace("$schema=../../", "$schema=../").replace("category: examples", "category: Examples"), encoding="utf-8")
    (bank / "every-kind" / "questions").rename(bank / "questions")
    for path in (bank / "questions").iterdir():
        path.write_text(path.read_text(encoding="utf-8").replace("$schema=../../", "$schema=../", 1), encoding="utf-8")
    (bank / "every-kind" / "topic.yaml").unlink()
    (bank / "every-kind").rmdir()
    (bank / "categories.yaml").unlink()
    for path in [example / "translations" / "aistack.pot", *(example / "translations").glob("*.po")]:
        po = read_catalog(path, template=path.suffix == ".pot").po
        for entry in po:
            if entry.msgctxt == "category.examples.title":
                entry.msgctxt = "topic.category"
            elif entry.msgctxt.startswith("topic.every-kind."):
                entry.msgctxt = "topic." + entry.msgctxt[len("topic.every-kind."):]
        path.write_bytes(render_catalog(po))


def test_migrate_moves_a_translation_keyed_by_position_to_an_id_given_by_hand(example, run_cli):
    """Key point 1 lost its id and key point 2 got `roof` by hand while the catalogs were still
    keyed by position: each translation lands on its key point, none is left obsolete."""
    from ruamel.yaml.comments import CommentedMap

    _without_ids(example)
    yaml = YAML()
    yaml.width = 4096
    data = yaml.load(example / TOPIC)
    roof = "The roofline bounds a kernel by its arithmetic intensity."
    data["key_points"].append(CommentedMap([("id", "roof"), ("text", roof)]))
    yaml.dump(data, example / TOPIC)
    po = polib.pofile("translations/fr.po")
    po.append(polib.POEntry(msgctxt="topic.every-kind.key_point.2", msgid=roof, msgstr="Le roofline borne un noyau par son intensité arithmétique."))
    po.save()
    french = {n: po.find(f"topic.every-kind.key_point.{n}", by="msgctxt").msgstr for n in (1, 2)}
    code, out = run_cli("migrate")
    assert code == 0, out
    po = polib.pofile("translations/fr.po")
    assert po.find("topic.every-kind.key_point.k1", by="msgctxt").msgstr == french[1]
    assert po.find("topic.every-kind.key_point.roof", by="msgctxt").msgstr == french[2]
    assert not [e for e in po.obsolete_entries() if "key_point" in (e.msgctxt or "")]


@pytest.mark.parametrize("written", ["42", "null", "[a, b]"])
def test_a_key_point_that_is_not_a_paragraph_is_not_sent_to_migrate(example, run_cli, written):
    path = example / TOPIC
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("key_points:\n", f"key_points:\n  - {written}\n", 1), encoding="utf-8")
    code, out = run_cli("validate")
    assert code == 1 and f"{TOPIC.as_posix()}:13:" in out and "E371" not in out and "Traceback" not in out, out


def test_migrate_of_a_single_topic_bank_whose_key_points_are_not_a_list_is_refused_located(example, run_cli):
    bank = example / "bank"
    topic = (bank / "every-kind" / "topic.yaml").read_text(encoding="utf-8")
    topic = re.sub(r"key_points:\n(?:  .*\n)+", "key_points: 5\n", topic)
    (bank / "topic.yaml").write_text(topic.replace("$schema=../../", "$schema=../").replace("category: examples", "category: Examples"), encoding="utf-8")
    (bank / "every-kind" / "questions").rename(bank / "questions")
    (bank / "every-kind" / "topic.yaml").unlink()
    (bank / "every-kind").rmdir()
    (bank / "categories.yaml").unlink()
    before = {p: p.read_bytes() for p in example.rglob("*") if p.is_file()}
    code, out = run_cli("migrate")
    assert code != 0 and "error E203: key_points: input should be a valid list (got 5)" in out and "put back as it was" in out and "Traceback" not in out, out
    assert {p: p.read_bytes() for p in example.rglob("*") if p.is_file()} == before


def test_migrate_moves_translations_keyed_by_position_when_every_key_point_has_an_id_by_hand(example, run_cli):
    """The author gave every key point its id by hand (`memory`) before migrating: the catalogs,
    still keyed by position, are renamed to those ids, and no translation goes obsolete."""
    path = example / TOPIC
    path.write_text(path.read_text(encoding="utf-8").replace("  - id: k1\n", "  - id: memory\n", 1), encoding="utf-8")
    for catalog in (example / "translations").glob("*.po*"):
        text = catalog.read_text(encoding="utf-8")
        catalog.write_text(re.sub(r'(msgctxt "topic\.every-kind\.key_point\.)k(\d+)', r"\1\2", text), encoding="utf-8")
    french = {e.msgctxt: e.msgstr for e in polib.pofile("translations/fr.po") if "key_point" in (e.msgctxt or "")}
    assert list(french) == ["topic.every-kind.key_point.1"]
    topic = path.read_bytes()
    code, out = run_cli("migrate")
    assert code == 0, out
    assert path.read_bytes() == topic  # nothing to give: only the catalogs change
    po = polib.pofile("translations/fr.po")
    assert po.find("topic.every-kind.key_point.memory", by="msgctxt").msgstr == french["topic.every-kind.key_point.1"]
    assert not [e for e in po.obsolete_entries() if "key_point" in (e.msgctxt or "")]
    code, out = run_cli("migrate")
    assert code == 1 and "E319" in out and "nothing to do" in out, out


def test_a_failed_migration_locates_its_errors_in_the_files_as_they_are_on_disk(example, run_cli):
    """The migration gives the answers ids (six lines more above `difficulty:`), then finds an
    error it does not fix: it puts every file back and reports the error at its line in the file
    as the author has it, not in the text it had rewritten."""
    _without_ids(example)
    path = example / SHORT
    path.write_text(path.read_text(encoding="utf-8").replace("difficulty: 2\n", "difficulty: 7\n"), encoding="utf-8")
    before = {p: p.read_bytes() for p in example.rglob("*") if p.is_file()}
    line = path.read_text(encoding="utf-8").split("\n").index("difficulty: 7") + 1
    code, out = run_cli("migrate")
    assert code == 1 and "put back as it was" in out and "Traceback" not in out, out
    assert f"{SHORT.as_posix()}:{line}:13: error E2" in out, out
    assert {p: p.read_bytes() for p in example.rglob("*") if p.is_file()} == before


def test_a_failed_move_to_topic_folders_locates_its_errors_where_the_files_were(example, run_cli):
    """A single-topic bank moves to bank/every-kind/ and its answers get ids before the error is
    found: it is reported in bank/questions/…, at its line there."""
    _single_topic(example)
    path = example / "bank" / "questions" / SHORT.name
    path.write_text(path.read_text(encoding="utf-8").replace("difficulty: 2\n", "difficulty: 7\n"), encoding="utf-8")
    before = {p: p.read_bytes() for p in example.rglob("*") if p.is_file()}
    line = path.read_text(encoding="utf-8").split("\n").index("difficulty: 7") + 1
    code, out = run_cli("migrate")
    assert code == 1 and "put back as it was" in out and "Traceback" not in out, out
    assert f"bank/questions/{SHORT.name}:{line}:13: error E2" in out, out
    assert {p: p.read_bytes() for p in example.rglob("*") if p.is_file()} == before


def test_a_line_of_a_rewritten_file_is_found_where_it_was():
    from aistack_bank.project.topics import line_before

    before = "id: t\nkey_points:\n  - >-\n    Memory and\n    bandwidth\n  - text: two\n"
    after = "id: t\nkey_points:\n  - id: k1\n    text: >-\n      Memory and\n      bandwidth\n  - id: k2\n    text: two\n"
    assert line_before(before, after, 5, 7) == (4, 5)  # "Memory", two columns further in
    assert line_before(before, after, 6, 9) == (5, 7)
    assert line_before(before, after, 8, 11) == (6, 11)  # "two": "  - text:" and "    text:" indent alike
    assert line_before(before, after, 3, 5) == (3, 1)  # the id the rewrite added: where it was added
    assert line_before(before, after, 1, 1) == (1, 1) and line_before(before, after, 2, 0) == (2, 0)
