"""Moodle's own import fixtures (tests/data/moodle-fixtures/, GPL-3, test data only) imported one
after another into one bank, which then validates: every question of a kind the bank has comes
in, essays included. Descriptions are refused with a note."""

from __future__ import annotations

from pathlib import Path

import pytest

from aistack_bank.importers import read_questions
from aistack_bank.importers.records import DESCRIPTION
from aistack_bank.load import read_library

from conftest import REPO

FIXTURES = REPO / "tests" / "data" / "moodle-fixtures"
# file → (format, questions in it, questions imported, the reasons of those skipped)
EXPECTED = {
    "questions.gift.txt": ("gift", 9, 9, []),
    "questions_in_category.gift.txt": ("gift", 4, 4, []),
    "nested_categories_with_questions.xml": ("moodle", 5, 5, []),
    "category_with_description.xml": ("moodle", 1, 1, []),
    "html_chars_in_idnumbers.xml": ("moodle", 1, 1, []),
}


def test_the_fixtures_import_into_a_bank_that_validates(run_cli, tmp_path):
    bank, translations = tmp_path / "bank", tmp_path / "translations"
    imported = total = 0
    for name, (fmt, count, expected, reasons) in EXPECTED.items():
        code, out = run_cli("import", fmt, str(FIXTURES / name), "--bank", str(bank), "--translations", str(translations))
        assert code == 0, out
        assert f"{expected} question(s) imported, {count - expected} skipped" in out, (name, out)
        for reason in reasons:
            assert "skipped" in out and reason in out, (name, out)
        imported, total = imported + expected, total + count
    code, out = run_cli("validate", "--bank", str(bank), "--translations", str(translations))
    assert code == 0, out
    questions = [qs.question for qs in read_library(bank).questions]
    assert len(questions) == imported
    # Every one of the 20 questions of these files, the two essays among them.
    assert (imported, total) == (20, 20)
    assert sorted(q.stem for q in questions if q.kind == "essay") == ["How are you?", "Testing Kappa Essay Question"]


def test_a_missing_word_question_keeps_its_blank_as_moodle_does():
    questions, _ = read_questions("gift", FIXTURES / "questions.gift.txt")
    by_name = {q.name: q for q in questions}
    assert by_name["Q5"].stem == 'What is a number from 1 to 5? _____";' and by_name["Q5"].kind == "numerical"
    assert by_name["Q1"].kind == "true-false" and by_name["Q1"].stem.endswith("_____\";")
    assert any("missing-word" in note for note in by_name["Q5"].notes)


def test_the_short_answer_with_a_catch_all_wildcard_keeps_its_answers():
    """Moodle's fixture ends its short answer with ``=%0%*#Completely wrong``: Moodle's wildcard
    as a catch-all for feedback. Its graded answers come in as they are; the catch-all earns
    nothing, which the bank cannot hold, and is named in a note."""
    questions, _ = read_questions("gift", FIXTURES / "questions.gift.txt")
    q = {q.name: q for q in questions}["Shortanswer"]
    assert q.kind == "short-answer"
    assert q.fields["answers"] == [{"text": "Frog", "feedback": "Good!"}, {"text": "Cat", "credit": 0.5, "feedback": "What is it with Moodlers and cats?"}]
    assert [n for n in q.notes if "'*'" in n] == ["the answer '*' earns nothing (it only gives feedback), which the bank cannot hold; it was not imported"]


@pytest.mark.parametrize("fmt,name,text", [
    ("gift", "d.gift", "// a description\nThis part is about colours.\n\n::Sky:: The sky is {=blue ~red}.\n"),
    ("moodle", "d.xml", '<?xml version="1.0" encoding="UTF-8"?>\n<quiz>\n  <question type="description">\n    <name><text>Intro</text></name>\n'
                        '    <questiontext format="html"><text>This part is about colours.</text></questiontext>\n  </question>\n'
                        '  <question type="truefalse">\n    <name><text>Sky</text></name>\n    <questiontext format="html"><text>The sky is blue.</text></questiontext>\n'
                        '    <answer fraction="100"><text>true</text></answer>\n    <answer fraction="0"><text>false</text></answer>\n  </question>\n</quiz>\n'),
])
def test_a_description_is_refused_with_a_note_and_the_rest_imports(tmp_path: Path, fmt, name, text):
    source = tmp_path / name
    source.write_text(text, encoding="utf-8")
    questions, skipped = read_questions(fmt, source)
    assert [q.name for q in questions] == ["Sky"]
    assert len(skipped) == 1 and skipped[0].reason.endswith(DESCRIPTION)


def test_a_question_the_bank_would_refuse_is_skipped_not_written(run_cli, tmp_path):
    """Moodle lets two prompts of a matching question share one answer (its list of choices
    shows the answer once); the bank's matching gives each prompt its own answer (E328). Such a
    question is skipped with the rule it breaks, at its line, and the others are written."""
    source = tmp_path / "pairs.gift"
    source.write_text("::Sky:: The sky is {=blue ~red}\n\n::Pairs:: Match. {\n=one -> same\n=two -> same\n}\n", encoding="utf-8")
    code, out = run_cli("import", "gift", str(source), "--bank", str(tmp_path / "bank"))
    assert code == 0 and "1 question(s) imported, 1 skipped" in out, out
    assert f"{source}:3: skipped 'Pairs': the question would not pass `bank validate`: E328 pair 'b' has the same answer text as pair 'a'" in out, out
    code, out = run_cli("validate", "--bank", str(tmp_path / "bank"))
    assert code == 0, out


EMBEDDED = """<?xml version="1.0" encoding="UTF-8"?>
<quiz>
  <question type="cloze">
    <name><text>Cloze</text></name>
    <questiontext format="html"><text>Paris is in {1:SHORTANSWER:=France}.</text></questiontext>
  </question>
  <question type="truefalse">
    <name><text>Flag</text></name>
    <questiontext format="html">
      <text><![CDATA[<p>This flag&nbsp;<img src="@@PLUGINFILE@@/flag%20fr.png" alt="French flag"> is <a href="@@PLUGINFILE@@/anthem.mp3">the French one</a>.</p>]]></text>
      <file name="flag fr.png" path="/" encoding="base64">iVBORw0KGgo=</file>
      <file name="anthem.mp3" path="/" encoding="base64">SUQz</file>
    </questiontext>
    <generalfeedback format="html"><text>Blue, white, red.</text>
      <file name="unused.pdf" path="/" encoding="base64">JVBERg==</file>
    </generalfeedback>
    <image>old.gif</image>
    <image_base64>R0lGOD==</image_base64>
    <answer fraction="100"><text>true</text><feedback format="html"><text><![CDATA[<img src="@@PLUGINFILE@@/yes.png">Right.]]></text>
      <file name="yes.png" encoding="base64">iVBO</file></feedback></answer>
    <answer fraction="0"><text>false</text><feedback format="html"><text>Wrong.</text></feedback></answer>
  </question>
</quiz>
"""


def test_embedded_images_and_files_are_dropped_with_a_note_naming_each_and_its_line(tmp_path, run_cli):
    """The bank holds no images or files: each one a Moodle XML question embeds is named in a
    note with the text it was in and its line; the text reads as it would without it (the
    no-break spaces that set it off go too), a link's words kept. A type the bank has no kind for is skipped at its line."""
    source = tmp_path / "embedded.xml"
    source.write_text(EMBEDDED, encoding="utf-8")
    questions, skipped = read_questions("moodle", source)
    assert [(s.name, s.line) for s in skipped] == [("Cloze", 3)]
    (flag,) = questions
    assert flag.line == 7 and flag.stem == "This flag is the French one."
    assert flag.fields == {"answer": True, "feedback_true": "Right.", "feedback_false": "Wrong."} and flag.explanation == "Blue, white, red."
    assert flag.notes[:5] == [
        "the image flag fr.png ('French flag') in the question text was dropped: the bank holds no images (say in the text what it shows if the question needs it) (line 11 of embedded.xml)",
        "the file anthem.mp3 linked from the question text was dropped (the link's text is kept): the bank holds no files (line 12 of embedded.xml)",
        "the file unused.pdf attached to the general feedback was dropped: the bank holds no files (line 15 of embedded.xml)",
        "the image yes.png in the feedback of answer 1 was dropped: the bank holds no images (say in the text what it shows if the question needs it) (line 20 of embedded.xml)",
        "the image old.gif of Moodle 1.9's image field (shown with the question text) was dropped: the bank holds no images (line 17 of embedded.xml)",
    ]
    code, out = run_cli("import", "moodle", str(source), "--bank", str(tmp_path / "bank"))
    assert code == 0 and f"{source}:3: skipped 'Cloze': question type 'cloze'" in out and "flag fr.png" in out, out
