"""A bank of many topics in categories: layout, validation, translations, commands, migration."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import polib
import pytest

from conftest import FLAGSHIP, REPO
from topicbank import CATEGORIES, TOPICS, write_topic_bank

from aistack_bank.i18n.catalog import read_catalog
from aistack_bank.load import english_library, read_library
from aistack_bank.rules.validate import validate_bank


@pytest.fixture(scope="module")
def topic_bank_template(tmp_path_factory) -> Path:
    return write_topic_bank(tmp_path_factory.mktemp("topics") / "template")


@pytest.fixture
def topics(topic_bank_template, tmp_path, monkeypatch) -> Path:
    """A scratch copy of the 3 × 4 × 5 bank, with the working directory set to it."""
    root = tmp_path / "project"
    shutil.copytree(topic_bank_template, root)
    monkeypatch.chdir(root)
    return root


def codes_at(report) -> list[tuple[str, str]]:
    return [(d.code, str(d.location)) for d in report.diagnostics]


def status_of(root: Path) -> dict:
    from aistack_bank.services import translation_status

    return {s.language: (s.translated, s.fuzzy, s.untranslated, s.obsolete) for s in translation_status(root / "bank", root / "translations").targets}


def msgstrs(path: Path) -> dict[str, str]:
    return {e.msgctxt: e.msgstr for e in polib.pofile(str(path)) if not e.obsolete}


def set_line(path: Path, old: str, new: str) -> int:
    """Replace the one line ``old`` of ``path`` by ``new``; return its line number."""
    lines = path.read_text(encoding="utf-8").split("\n")
    index = lines.index(old)
    lines[index] = new
    path.write_text("\n".join(lines), encoding="utf-8")
    return index + 1


# --- the generated bank ----------------------------------------------------------------------

def test_the_generated_bank_validates_clean_and_is_fully_translated(topics, run_cli):
    report = validate_bank(Path("bank"), translations=Path("translations"))
    assert report.diagnostics == [], [str(d) for d in report.diagnostics]
    assert report.cues.questions == 60
    total = 3 + 12 * 3 + 60 * 10  # category titles; topic title, summary, key point; stem, 4 options + feedback, explanation
    assert status_of(topics) == {"fr": (total, 0, 0, 0), "nl": (total, 0, 0, 0)}


def test_the_library_in_every_language(topics):
    from aistack_bank.build import load_libraries

    libraries, notes = load_libraries(Path("bank"), Path("translations"), ["en", "fr", "nl"])
    assert notes == []
    en, fr, nl = libraries["en"], libraries["fr"], libraries["nl"]
    assert [c.id for c in en.categories] == list(CATEGORIES)
    by_category = [sorted(t for t, (c, _, _) in TOPICS.items() if c == category) for category in CATEGORIES]
    assert [b.topic.id for b in en.topics] == [t for ids in by_category for t in ids]  # by category order, then by id
    assert [b.topic.id for b in en.topics_in("chemistry")] == ["acids-and-bases", "atoms", "organic-chemistry", "reactions"]
    assert en.bank("optics").category.title == "Physics"
    assert fr.bank("optics").category.title == "Physique" and nl.bank("optics").category.title == "Natuurkunde"
    assert fr.category("biology").title == "Biologie" and fr.bank("optics").topic.title == "Optique"
    assert fr.bank("optics").questions[0].stem == "Quel domaine de la physique étudie le concept «\u00a0lentille\u00a0»\u00a0?"
    assert nl.bank("cells").topic.title == "Cellen" and nl.topic_of("q041").topic.id == "cells"
    assert len(en.questions) == 60 and len(set(q.id for q in en.questions)) == 60


def test_the_bank_builds_each_topic_in_its_folder(topics, run_cli):
    code, out = run_cli("build", "--quiet")
    assert code == 0, out
    for topic_id in TOPICS:
        moodle = sorted(p.name for p in (topics / "exports" / "moodle" / topic_id).iterdir())
        assert moodle == [f"{topic_id}-en.xml", f"{topic_id}-fr.xml", f"{topic_id}-multilang.xml", f"{topic_id}-nl.xml"]
    document = json.loads((topics / "exports" / "json" / "optics" / "optics.json").read_text(encoding="utf-8"))
    assert document["topic"]["category"] == {"en": "Physics", "fr": "Physique", "nl": "Natuurkunde"}
    assert [q["id"] for q in document["questions"]] == ["q006", "q007", "q008", "q009", "q010"]


def test_export_of_one_topic(topics, run_cli):
    code, out = run_cli("export", "json", "--topic", "genetics", "--out", "one")
    assert code == 0, out
    assert sorted(p.name for p in (topics / "one").iterdir()) == ["genetics-en.json", "genetics-fr.json", "genetics-nl.json", "genetics.json"]
    document = json.loads((topics / "one" / "genetics.json").read_text(encoding="utf-8"))
    assert document["topic"]["id"] == "genetics" and len(document["questions"]) == 5
    code, out = run_cli("export", "json", "--topic", "astronomy", "--out", "none")
    assert code == 2 and "--topic 'astronomy': no such topic; the topics are: electricity, mechanics, optics, thermodynamics, acids-and-bases" in out
    assert not (topics / "none").exists()


def test_stats_per_topic_and_category(topics, run_cli):
    code, out = run_cli("stats")
    assert code == 0, out
    assert "category chemistry (Chemistry): 4 topic(s), 20 question(s)" in out
    assert "  topic organic-chemistry: 5 question(s), 0 with numeric checks" in out
    code, out = run_cli("stats", "--format", "json")
    figures = json.loads(out)
    assert figures["by_category"]["biology"] == {"title": "Biology", "topics": ["cells", "ecology", "evolution", "genetics"], "questions": 20}
    assert figures["by_topic"]["atoms"] == {"title": "Atoms", "category": "chemistry", "questions": 5, "checked": 0}


# --- every rule across topics, located -------------------------------------------------------

def test_a_question_listed_in_two_topics(topics):
    line = set_line(topics / "bank" / "optics" / "topic.yaml", "  - q010", "  - q010\n  - q001")
    report = validate_bank(Path("bank"))
    first = (topics / "bank" / "mechanics" / "topic.yaml").read_text(encoding="utf-8").split("\n").index("  - q001") + 1
    assert codes_at(report) == [("E313", f"bank/optics/topic.yaml:{line + 1}:5")]
    assert f"q001 is also listed in bank/mechanics/topic.yaml:{first}:5" in report.diagnostics[0].message


def test_a_question_listed_in_no_topic(topics):
    set_line(topics / "bank" / "atoms" / "topic.yaml", "  - q024", "")
    report = validate_bank(Path("bank"))
    (path,) = (topics / "bank" / "atoms" / "questions").glob("q024-*.yaml")
    assert codes_at(report) == [("E307", f"bank/atoms/questions/{path.name}:2:5")]
    assert "not listed in the `questions:` of bank/atoms/topic.yaml (nor of any other topic)" in report.diagnostics[0].message


def test_a_question_listed_by_another_topic_than_its_folder(topics):
    set_line(topics / "bank" / "atoms" / "topic.yaml", "  - q024", "")
    line = set_line(topics / "bank" / "cells" / "topic.yaml", "  - q045", "  - q045\n  - q024")
    report = validate_bank(Path("bank"))
    assert codes_at(report) == [("E318", f"bank/cells/topic.yaml:{line + 1}:5")]
    assert "its file is in bank/atoms/questions/; move the file into bank/cells/questions/" in report.diagnostics[0].message


def test_an_unknown_category(topics):
    line = set_line(topics / "bank" / "ecology" / "topic.yaml", "category: biology", "category: geology")
    report = validate_bank(Path("bank"))
    assert codes_at(report) == [("E314", f"bank/ecology/topic.yaml:{line}:11")]
    assert "known: physics, chemistry, biology" in report.diagnostics[0].message


def test_a_duplicate_topic_id_and_a_folder_named_otherwise(topics):
    shutil.copytree(topics / "bank" / "optics", topics / "bank" / "optics-copy")
    for path in (topics / "bank" / "optics-copy" / "questions").iterdir():
        path.unlink()
    for qid in ("q006", "q007", "q008", "q009", "q010"):
        set_line(topics / "bank" / "optics-copy" / "topic.yaml", f"  - {qid}", "")
    set_line(topics / "bank" / "optics-copy" / "topic.yaml", "questions:", "questions: []")
    report = validate_bank(Path("bank"))
    assert codes_at(report) == [("E315", "bank/optics-copy/topic.yaml:2:5"), ("E317", "bank/optics-copy/topic.yaml:2:5")]
    assert "is also the id of bank/optics/topic.yaml" in report.diagnostics[0].message
    assert "rename the folder to optics/" in next(d.message for d in report.diagnostics if d.code == "E317")


def test_a_duplicate_category_id_and_a_category_without_topics(topics):
    path = topics / "bank" / "categories.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "  - id: physics\n    title: \"Physics again\"\n  - id: geology\n    title: \"Geology\"\n", encoding="utf-8")
    report = validate_bank(Path("bank"))
    assert codes_at(report) == [("E316", "bank/categories.yaml:9:9"), ("W303", "bank/categories.yaml:11:9")]
    assert "first at line 3" in report.diagnostics[0].message


def test_a_missing_categories_file_and_the_old_layout(topics, run_cli):
    (topics / "bank" / "categories.yaml").unlink()
    code, out = run_cli("validate", "--no-translations")
    assert code == 1 and "bank/categories.yaml: error E319: no categories.yaml in bank" in out
    old = topics / "old"
    (old / "bank" / "questions").mkdir(parents=True)
    (old / "bank" / "topic.yaml").write_text("id: x\n", encoding="utf-8")
    code, out = run_cli("validate", "--no-translations", "old/bank")
    assert code == 1 and "old/bank/topic.yaml: error E312: " in out and "run `bank migrate` to move it" in out


def test_ids_are_unique_across_the_bank(topics):
    (source,) = (topics / "bank" / "optics" / "questions").glob("q006-*.yaml")
    text = source.read_text(encoding="utf-8").replace("id: q006", "id: q001")
    (topics / "bank" / "optics" / "questions" / "q001-lens.yaml").write_text(text, encoding="utf-8")
    source.unlink()
    set_line(topics / "bank" / "optics" / "topic.yaml", "  - q006", "  - q001")
    report = validate_bank(Path("bank"))
    found = codes_at(report)
    assert found == [("E302", "bank/optics/questions/q001-lens.yaml:2:5"), ("E313", "bank/optics/topic.yaml:11:5")]


def test_validate_one_topic_folder_and_one_file(topics, run_cli):
    set_line(topics / "bank" / "ecology" / "topic.yaml", "category: biology", "category: geology")
    (q,) = (topics / "bank" / "cells" / "questions").glob("q041-*.yaml")
    q.write_text(q.read_text(encoding="utf-8").replace("correct: ", "correct: z\n# was: "), encoding="utf-8")
    code, out = run_cli("validate", "bank/ecology/")
    assert code == 1 and "bank/ecology/topic.yaml:3:11: error E314" in out and "E304" not in out
    code, out = run_cli("validate", "bank/optics")
    assert code == 0 and "0 error(s)" in out and "5 questions" in out
    code, out = run_cli("validate", f"bank/cells/questions/{q.name}")
    assert code == 1 and f"bank/cells/questions/{q.name}:" in out and "error E304" in out and "E314" not in out


# --- translations follow texts, not files ----------------------------------------------------

def test_moving_a_question_to_another_topic_keeps_every_translation(topics, run_cli):
    before = {lang: msgstrs(topics / "translations" / f"{lang}.po") for lang in ("fr", "nl")}
    (path,) = (topics / "bank" / "optics" / "questions").glob("q008-*.yaml")
    path.rename(topics / "bank" / "mechanics" / "questions" / path.name)  # what `git mv` does
    set_line(topics / "bank" / "optics" / "topic.yaml", "  - q008", "")
    set_line(topics / "bank" / "mechanics" / "topic.yaml", "  - q005", "  - q005\n  - q008")
    code, out = run_cli("i18n", "update")
    assert code == 0, out
    assert status_of(topics) == {"fr": (639, 0, 0, 0), "nl": (639, 0, 0, 0)}
    for lang in ("fr", "nl"):
        assert msgstrs(topics / "translations" / f"{lang}.po") == before[lang]
        entry = next(e for e in polib.pofile(str(topics / "translations" / f"{lang}.po")) if e.msgctxt == "q008.stem")
        assert entry.occurrences == [(f"bank/mechanics/questions/{path.name}", "4")]
    report = validate_bank(Path("bank"), translations=Path("translations"))
    assert report.errors == [], [str(d) for d in report.errors]


def test_renaming_a_topic_keeps_every_translation(topics, run_cli):
    before = {lang: msgstrs(topics / "translations" / f"{lang}.po") for lang in ("fr", "nl")}
    code, out = run_cli("topic", "rename", "optics", "light-and-optics")
    assert code == 0, out
    assert "moved     bank/optics -> bank/light-and-optics" in out
    assert not (topics / "bank" / "optics").exists()
    assert "id: light-and-optics\n" in (topics / "bank" / "light-and-optics" / "topic.yaml").read_text(encoding="utf-8")
    assert status_of(topics) == {"fr": (639, 0, 0, 0), "nl": (639, 0, 0, 0)}
    for lang in ("fr", "nl"):
        after = msgstrs(topics / "translations" / f"{lang}.po")
        renamed = {key.replace("topic.optics.", "topic.light-and-optics."): text for key, text in before[lang].items()}
        assert after == renamed
    assert validate_bank(Path("bank"), translations=Path("translations")).diagnostics == []
    code, out = run_cli("topic", "rename", "optics", "x")
    assert code == 2 and "no topic 'optics'; the topics are: acids-and-bases, atoms, cells, ecology, electricity, evolution, genetics, light-and-optics, mechanics" in out


def test_a_refused_rename_touches_nothing(topics, run_cli):
    (topics / "bank" / "genetics" / "topic.yaml").write_text("id: genetics\n", encoding="utf-8")  # a broken topic elsewhere
    before = {p: p.read_bytes() for p in topics.rglob("*") if p.is_file()}
    code, out = run_cli("topic", "rename", "optics", "light")
    assert code == 1 and "every file was put back as it was" in out
    assert {p: p.read_bytes() for p in topics.rglob("*") if p.is_file()} == before


# --- commands that create --------------------------------------------------------------------

def test_new_question_needs_a_topic_when_there_are_several(topics, run_cli):
    code, out = run_cli("new", "--slug", "hooke-law")
    assert code == 2 and "several topics; choose one with --topic: acids-and-bases, atoms, cells" in out
    code, out = run_cli("new", "--slug", "hooke-law", "--topic", "mechanics")
    assert code == 0 and out.strip() == "bank/mechanics/questions/q061-hooke-law.yaml"
    assert "  - q061" in (topics / "bank" / "mechanics" / "topic.yaml").read_text(encoding="utf-8")
    code, out = run_cli("new", "--slug", "x", "--topic", "astronomy")
    assert code == 2 and "--topic 'astronomy': no such topic" in out


def test_new_topic_in_a_new_category(topics, run_cli):
    code, out = run_cli("topic", "new", "stars", "--category", "astronomy")
    assert code == 2 and "'astronomy' is not in categories.yaml (known: physics, chemistry, biology); give --category-title" in out
    code, out = run_cli("topic", "new", "stars", "--category", "astronomy", "--category-title", "Astronomy", "--title", "Stars")
    assert code == 0, out
    source = read_library(Path("bank"))
    assert [(c.id, c.title) for c in source.categories][-1] == ("astronomy", "Astronomy")
    assert "id: stars\ncategory: astronomy\ntitle: Stars\n" in (topics / "bank" / "stars" / "topic.yaml").read_text(encoding="utf-8")
    assert "#   - id: k1\n#     text: What a learner should take away.\nkey_points: []\n" in (topics / "bank" / "stars" / "topic.yaml").read_text(encoding="utf-8")
    assert (topics / "bank" / "stars" / "questions").is_dir()
    code, out = run_cli("new", "--slug", "red-giants", "--topic", "stars")
    assert code == 0 and out.strip() == "bank/stars/questions/q061-red-giants.yaml"
    # the new texts are to be written: validation points at each of them, nothing else
    report = validate_bank(Path("bank"))
    assert report.errors and {d.code for d in report.errors} == {"E205"}
    assert all(d.location.path.startswith("bank/stars/") for d in report.diagnostics), [str(d) for d in report.diagnostics]
    code, out = run_cli("topic", "new", "stars", "--category", "physics")
    assert code == 1 and "bank/stars already exists" in out


# --- migration -------------------------------------------------------------------------------

def single_topic_copy(root: Path) -> Path:
    """The bundled bank as it was before topics: bank/topic.yaml + bank/questions/ and catalogs
    keyed topic.title, topic.category, … (what the bundled bank held until its migration)."""
    import re

    from aistack_bank.i18n.catalog import render_catalog

    bank = root / "bank"
    bank.mkdir(parents=True)
    topic = (REPO / "bank" / FLAGSHIP / "topic.yaml").read_text(encoding="utf-8")
    up = "../"  # one folder up; the modelines lose one level
    topic = topic.replace("$schema=" + up * 2, "$schema=" + up).replace("category: computer-systems", "category: Computer systems")
    # key points as plain paragraphs, keyed by position (before key points had ids)
    topic = re.sub(r"^  - id: k\d+\n    text: (.*\n(?:      .*\n)*)", lambda m: "  - " + re.sub(r"^  ", "", m.group(1), flags=re.M), topic, flags=re.M)
    assert "id: k1" not in topic and "  - >-\n    Most of the computation" in topic
    (bank / "topic.yaml").write_text(topic, encoding="utf-8")
    (bank / "questions").mkdir()
    for path in (REPO / "bank" / FLAGSHIP / "questions").iterdir():
        text = path.read_text(encoding="utf-8").replace("$schema=" + up * 3, "$schema=" + up * 2)
        (bank / "questions" / path.name).write_text(text, encoding="utf-8")
    shutil.copy(REPO / "bank" / "README.md", bank / "README.md")
    shutil.copytree(REPO / "translations", root / "translations")
    glossary = root / "translations" / "glossary.yaml"
    glossary.write_text(re.sub(rf"topic\.{FLAGSHIP}\.key_point\.k(\d)", r"topic.key_point.\1", glossary.read_text(encoding="utf-8")), encoding="utf-8")
    for path in [root / "translations" / "aistack.pot", *(root / "translations").glob("*.po")]:
        po = read_catalog(path, template=path.suffix == ".pot").po
        for entry in po:
            if entry.msgctxt == "category.computer-systems.title":
                entry.msgctxt = "topic.category"
            elif entry.msgctxt.startswith(f"topic.{FLAGSHIP}."):
                entry.msgctxt = "topic." + re.sub(r"^key_point\.k", "key_point.", entry.msgctxt[len(f"topic.{FLAGSHIP}."):])
            entry.occurrences = [(re.sub(rf"^bank/{FLAGSHIP}/", "bank/", file), line) for file, line in entry.occurrences]
        path.write_bytes(render_catalog(po))
    return root


@pytest.fixture(scope="module")
def single_topic_template(tmp_path_factory) -> Path:
    """:func:`single_topic_copy`, made once per module; read-only: each test works on its own copy."""
    return single_topic_copy(tmp_path_factory.mktemp("single-topic") / "old")


@pytest.fixture
def single_topic(single_topic_template, tmp_path) -> Path:
    """A scratch copy of the bundled bank as it was before topics (:func:`single_topic_copy`)."""
    root = tmp_path / "old"
    shutil.copytree(single_topic_template, root, symlinks=True)
    return root


def test_migration_of_the_single_topic_bank(single_topic, run_cli, monkeypatch):
    root = single_topic
    monkeypatch.chdir(root)
    assert "topic.category" in (root / "translations" / "fr.po").read_text(encoding="utf-8")
    code, out = run_cli("validate", "--no-translations")
    assert code == 1 and "bank/topic.yaml: error E312" in out
    code, out = run_cli("migrate")
    assert code == 0, out
    assert "moved     bank/topic.yaml -> bank/ai-hardware-software-stack/topic.yaml" in out
    assert not (root / "bank" / "topic.yaml").exists() and not (root / "bank" / "questions").exists()
    # the result is the bundled bank, byte for byte: content, catalogs, keys and translations
    for path in sorted((REPO / "bank").rglob("*")):
        if path.is_file():
            assert (root / "bank" / path.relative_to(REPO / "bank")).read_bytes() == path.read_bytes(), path
    for name in ("aistack.pot", "fr.po", "nl.po", "glossary.yaml"):
        assert (root / "translations" / name).read_bytes() == (REPO / "translations" / name).read_bytes(), name
    statuses = status_of(root)
    assert all(fuzzy == untranslated == obsolete == 0 for _, fuzzy, untranslated, obsolete in statuses.values()) and set(statuses) == {"fr", "nl"}
    # a second run is refused, located, and changes nothing
    before = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}
    code, out = run_cli("migrate")
    assert code == 1 and "bank/categories.yaml: error E319: the bank is already migrated" in out
    assert {p: p.read_bytes() for p in root.rglob("*") if p.is_file()} == before


@pytest.mark.parametrize("breakage, message", [
    (lambda root: (root / "bank" / "topic.yaml").write_text((root / "bank" / "topic.yaml").read_text(encoding="utf-8").replace("category: Computer systems\n", ""), encoding="utf-8"),
     "bank/topic.yaml:2:1: error E319: the topic has no one-line `category:` text"),
    (lambda root: (root / "bank" / FLAGSHIP).mkdir(),
     f"bank/{FLAGSHIP}: error E319: bank/{FLAGSHIP} already exists; move it away first"),
    (lambda root: shutil.rmtree(root / "bank" / "questions"),
     "bank/questions: error E319: no questions/ folder beside topic.yaml"),
    (lambda root: (root / "translations" / "fr.po").write_text('msgid "broken\n', encoding="utf-8"),
     "translations/fr.po:1"),
])
def test_a_migration_in_an_unexpected_state_is_refused_and_touches_nothing(single_topic, run_cli, monkeypatch, breakage, message):
    root = single_topic
    monkeypatch.chdir(root)
    breakage(root)
    before = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}
    folders = sorted(p for p in root.rglob("*") if p.is_dir())
    code, out = run_cli("migrate")
    assert code == 1 and message in out, out
    assert {p: p.read_bytes() for p in root.rglob("*") if p.is_file()} == before
    assert sorted(p for p in root.rglob("*") if p.is_dir()) == folders


def test_the_bundled_bank_is_migrated_and_fully_translated():
    source = read_library(REPO / "bank")
    assert source.diagnostics == []
    library = english_library(source)
    assert [b.topic.id for b in library.topics] == [FLAGSHIP] and library.bank(FLAGSHIP).category.id == "computer-systems"
    fr = read_catalog(REPO / "translations" / "fr.po").active()
    assert fr["category.computer-systems.title"].msgstr == "Systèmes informatiques"
    assert fr[f"topic.{FLAGSHIP}.title"].msgstr == "Pile matérielle et logicielle de l'IA"


def test_a_topic_folder_without_its_topic_file(topics):
    (topics / "bank" / "stars" / "questions").mkdir(parents=True)
    report = validate_bank(Path("bank"))
    assert codes_at(report) == [("E311", "bank/stars/topic.yaml")]


def test_import_into_one_topic_of_several(topics, run_cli, tmp_path):
    gift = tmp_path / "extra.gift"
    gift.write_text("::Lever:: Which simple machine is a lever? {=A rigid bar on a pivot#Yes.\n~A slope#No.\n####A lever turns about a pivot.}\n", encoding="utf-8")
    code, out = run_cli("import", "gift", gift)
    assert code == 2 and "several topics; choose one with --topic" in out
    code, out = run_cli("import", "gift", gift, "--topic", "mechanics")
    assert code == 0 and "wrote bank/mechanics/questions/q061-lever.yaml" in out, out
    assert "  - q061" in (topics / "bank" / "mechanics" / "topic.yaml").read_text(encoding="utf-8")
