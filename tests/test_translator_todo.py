"""A translator's to-do: `bank i18n todo`, what `bank i18n update` made fuzzy or obsolete,
`bank validate --lang`, and warnings collapsed per code and file."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import polib
import pytest
import yaml

from conftest import half_german_course


@pytest.fixture(scope="module")
def course_template(tmp_path_factory) -> Path:
    """`bank init --languages de,es`, every other German entry translated, then `bank i18n
    update`: made once per module (in this process); read-only: each test works on its own copy
    (``course``)."""
    return half_german_course(tmp_path_factory.mktemp("course-template"))


@pytest.fixture
def course(course_template, tmp_path, monkeypatch) -> Path:
    """A scratch copy of the course (``course_template``), with the working directory set to it."""
    root = tmp_path / "course"
    shutil.copytree(course_template, root, symlinks=True)
    monkeypatch.chdir(root)
    return root


def missing(path: Path) -> list[tuple[int, str, str]]:
    """(msgstr line, msgctxt, English) of each untranslated entry, read from the file itself."""
    lines = path.read_text(encoding="utf-8").split("\n")
    found = []
    for entry in polib.pofile(str(path)):
        if entry.msgstr:
            continue
        start = next(i for i, line in enumerate(lines) if line == f'msgctxt "{entry.msgctxt}"')
        msgstr = next(i for i in range(start, len(lines)) if lines[i].startswith("msgstr"))
        found.append((msgstr + 1, entry.msgctxt, entry.msgid))
    return found


def test_the_todo_lists_exactly_the_missing_german_entries_with_their_lines(course, run_cli):
    expected = missing(course / "translations" / "de.po")
    assert expected
    code, out = run_cli("i18n", "todo", "de")
    assert code == 0, out
    listed = re.findall(r"^translations/de\.po:(\d+): untranslated (\S+)\n    (.*)$", out, re.M)
    assert [(int(line), key, text) for line, key, text in listed] == expected
    assert f"de: {len(expected)} entries to do ({len(expected)} untranslated, 0 fuzzy, 0 changed)" in out
    code, out = run_cli("i18n", "todo", "de", "--format", "json")
    data = json.loads(out)
    assert [(e["line"], e["key"], e["english"]) for e in data["entries"]] == expected
    assert all(e["path"] == "translations/de.po" and e["state"] == "untranslated" for e in data["entries"])
    code, out = run_cli("i18n", "todo", "de", "--format", "github")
    notices = [line for line in out.split("\n") if line.startswith("::notice ")]
    assert [re.search(r"line=(\d+)", n).group(1) for n in notices] == [str(line) for line, _, _ in expected]
    code, out = run_cli("i18n", "todo", "es", "--interface")
    assert code == 0 and "translations/site/es.po:" in out


def test_a_changed_english_text_shows_before_and_after_and_update_names_it(course, run_cli):
    (question,) = (course / "bank" / "statistics" / "questions").glob("q001-*.yaml")
    po = polib.pofile(str(course / "translations" / "de.po"))
    translated = next(e for e in po if e.msgstr and e.msgctxt.startswith("q001.option.") and not e.msgctxt.endswith("feedback"))
    data = yaml.safe_load(question.read_text(encoding="utf-8"))
    option = next(o for o in data["options"] if f"q001.option.{o['id']}" == translated.msgctxt)
    text = question.read_text(encoding="utf-8")
    assert text.count(option["text"]) == 1
    question.write_text(text.replace(option["text"], option["text"] + " (revised)"), encoding="utf-8")
    code, out = run_cli("i18n", "update")
    assert code == 0 and f"  now fuzzy:    {translated.msgctxt}" in out and "bank i18n todo de" in out, out
    code, out = run_cli("i18n", "todo", "de")
    assert f"changed {translated.msgctxt}\n    before: {option['text']}\n    after:  {option['text']} (revised)\n" in out, out
    # a text removed from the bank: its translation becomes obsolete, and update names it
    po = polib.pofile(str(course / "translations" / "de.po"))
    po.find("q001.explanation", by="msgctxt").msgstr = "Auf Deutsch: die Erklärung"
    po.save()
    text = question.read_text(encoding="utf-8")
    question.write_text(re.sub(r"explanation: >-\n(  .*\n)+", "", text), encoding="utf-8")
    code, out = run_cli("i18n", "update")
    assert code == 0 and "  now obsolete: q001.explanation" in out, out


def test_a_translation_marked_for_review_is_listed_as_fuzzy_with_its_line(course, run_cli):
    path = course / "translations" / "de.po"
    po = polib.pofile(str(path))
    entry = next(e for e in po if e.msgstr)
    entry.flags.append("fuzzy")  # a translator's open question
    po.save()
    assert run_cli("i18n", "update")[0] == 0
    lines = path.read_text(encoding="utf-8").split("\n")
    start = lines.index(f'msgctxt "{entry.msgctxt}"')
    line = next(i for i in range(start, len(lines)) if lines[i].startswith("msgstr")) + 1
    code, out = run_cli("i18n", "todo", "de")
    assert code == 0 and f"translations/de.po:{line}: fuzzy {entry.msgctxt}\n" in out, out
    assert "1 fuzzy, 0 changed)" in out, out
    data = json.loads(run_cli("i18n", "todo", "de", "--format", "json")[1])
    assert [(e["line"], e["state"]) for e in data["entries"] if e["key"] == entry.msgctxt] == [(line, "fuzzy")]


def test_status_for_github_is_a_markdown_summary_naming_each_state(course, run_cli):
    code, text = run_cli("i18n", "status")
    code, out = run_cli("i18n", "status", "--format", "github")
    assert code == 0 and out != text
    lines = out.split("\n")
    assert lines[0] == "## Translations" and "| language | state | translated | fuzzy | untranslated | obsolete | percent |" in lines
    assert re.search(r"^\| de \| in progress \| \d+ \| 0 \| \d+ \| 0 \| \d+\.\d% \|$", out, re.M), out
    assert re.search(r"^\| es \| not started \| 0 \| 0 \| \d+ \| 0 \| 0\.0% \|$", out, re.M), out
    assert "- `de`: in progress (ready at 100%); `bank i18n todo de` lists what is missing" in lines
    assert all(line.startswith(("#", "|", "- ")) or not line for line in lines), out


def test_todo_of_an_unknown_language_is_a_usage_error(course, run_cli):
    code, out = run_cli("i18n", "todo", "fr")
    assert code == 2 and "translations/fr.po: no such catalog; the languages are: de, es" in out
    code, out = run_cli("i18n", "todo", "en")
    assert code == 2 and "source language" in out


def test_validate_lang_keeps_one_language_and_warnings_collapse_unless_verbose(course, run_cli):
    code, out = run_cli("validate", "--verbose")
    assert code == 0 and "translations/es.po" in out
    every = [line for line in out.split("\n") if "warning W501" in line]
    code, out = run_cli("validate", "--lang", "de")
    assert code == 0 and "translations/es.po" not in out and "translations/site/es.po" not in out
    assert "translations/de.po" in out and "translations/site/de.po" in out
    code, out = run_cli("validate")
    collapsed = [line for line in out.split("\n") if "warning W501" in line]
    assert len(collapsed) == len({line.split(":")[0] for line in every}) == 4
    site = next(line for line in collapsed if line.startswith("translations/site/es.po"))
    others = sum(line.startswith("translations/site/es.po") for line in every) - 1
    assert site.endswith(f"(and {others} more W501 in this file; --verbose lists them)")
    code, out = run_cli("validate", "--format", "json")
    assert len([d for d in json.loads(out)["diagnostics"] if d["code"] == "W501"]) == len(every)
    code, out = run_cli("validate", "--lang", "de-DE")
    assert code == 2 and "--lang" in out


def test_one_question_is_one_question(course, run_cli):
    code, out = run_cli("validate", "--lang", "en")
    assert code == 0 and "1 question;" in out and "1 questions" not in out and "W501" not in out
    code, out = run_cli("build")
    assert code == 0 and "1 question " in out and "1 questions" not in out
    assert "(en): 1 question, generated" in (course / "exports" / "moodle" / "statistics-en.xml").read_text(encoding="utf-8")
    assert "(en): 1 question, generated" in (course / "exports" / "gift" / "statistics-en.gift").read_text(encoding="utf-8")
