"""Moodle's own import fixtures (tests/data/moodle-fixtures/: every fixture of Moodle 4.5.6's XML
and GIFT importers, GPL-3, test data only) imported one after another into one bank, which then
validates and reads back through every LMS unchanged (`bank lint`). Of their 41 questions, the 7
cloze questions are refused at their line; the 34 others all come in."""

from __future__ import annotations

from pathlib import Path

import pytest

from aistack_bank.importers import read_questions
from aistack_bank.importers.records import DESCRIPTION
from aistack_bank.load import read_library

from conftest import REPO

FIXTURES = REPO / "tests" / "data" / "moodle-fixtures"
CLOZE = "question type 'cloze' has no kind in the bank"
# file → (format, questions in it, questions imported, (line, reason) of each one skipped)
EXPECTED = {
    "questions.gift.txt": ("gift", 9, 9, []),
    "questions_in_category.gift.txt": ("gift", 4, 4, []),
    "questions_encoding_windows-1252.gift.txt": ("gift", 3, 3, []),
    "nested_categories_with_questions.xml": ("moodle", 5, 5, []),
    "categories_reverse_order.xml": ("moodle", 2, 2, []),
    "category_with_description.xml": ("moodle", 1, 1, []),
    "export_category.xml": ("moodle", 1, 1, []),
    "html_chars_in_idnumbers.xml": ("moodle", 1, 1, []),
    "nested_categories.xml": ("moodle", 1, 1, []),
    "old_format_file.xml": ("moodle", 2, 2, []),
    "error_invalid_grades.xml": ("moodle", 1, 1, []),
    "truefalse.xml": ("moodle", 2, 2, []),
    "multichoice.xml": ("moodle", 1, 1, []),
    "sample_questions_with_old_image_tag.xml": ("moodle", 2, 1, [(16, f"'cloze question with image': {CLOZE}")]),
    "multianswer.xml": ("moodle", 1, 0, [(12, f"'cloze with images': {CLOZE}")]),
    "broken_cloze_questions.xml": ("moodle", 5, 0, [(line, f"{name!r}: {CLOZE}") for line, name in [
        (4, "Multianswer question without subquestions"), (20, "Multichoice subquestion without choices"), (36, "Multichoice subquestion with only one choice"),
        (52, "Multichoice subquestion with no completely correct answer"), (68, "Numerical subquestion with buggy answer")]]),
}


def test_every_fixture_file_is_vendored_and_counted():
    assert sorted(p.name for p in FIXTURES.iterdir() if p.name != "README.md") == sorted(EXPECTED)
    readme = (FIXTURES / "README.md").read_text(encoding="utf-8")
    for name, (_, count, expected, _) in EXPECTED.items():
        assert f"| `{name}` | {count} | {expected} |" in readme, name


@pytest.fixture(scope="module")
def imported(tmp_path_factory):
    """The bank the fixtures make, imported one after another, and the output of each import."""
    from typer.testing import CliRunner

    from aistack_bank.cli import app

    folder = tmp_path_factory.mktemp("fixtures")
    bank, translations = folder / "bank", folder / "translations"
    outputs = {}
    for name, (fmt, *_) in EXPECTED.items():
        encoding = ["--encoding", "cp1252"] if "windows-1252" in name else []
        result = CliRunner().invoke(app, ["import", fmt, str(FIXTURES / name), "--bank", str(bank), "--translations", str(translations), *encoding], catch_exceptions=False)
        assert result.exit_code == 0, (name, result.output)
        outputs[name] = result.output
    return bank, translations, outputs


def test_the_fixtures_import_into_a_bank_that_validates(imported, run_cli):
    bank, translations, outputs = imported
    for name, (fmt, count, expected, skips) in EXPECTED.items():
        out = outputs[name]
        assert f"{expected} question(s) imported, {count - expected} skipped" in out, (name, out)
        for line, reason in skips:
            assert f"{FIXTURES / name}:{line}: skipped {reason}" in out, (name, out)
    code, out = run_cli("validate", "--bank", str(bank), "--translations", str(translations))
    assert code == 0 and " 0 error(s)" in out, out
    # the Windows-1252 file's matching question: its prompts share their one answer, and no distractor
    assert [line.split(": ", 1)[1] for line in out.splitlines() if "W752" in line] == [
        "warning W752: q016: every prompt has the answer 'asdf' and there is no distractor, so a learner has one answer to choose; "
        "add distractors or give the prompts different answers"], out
    questions = [qs.question for qs in read_library(bank).questions]
    counts = [(count, expected, sum(CLOZE in reason for _, reason in skips)) for _, count, expected, skips in EXPECTED.values()]
    total, cloze, taken = sum(c for c, _, _ in counts), sum(z for _, _, z in counts), sum(e for _, e, _ in counts)
    assert (total, cloze, total - cloze, taken, len(questions)) == (41, 7, 34, 34, 34)
    assert sorted(q.stem for q in questions if q.kind == "essay") == ["How are you?", "Testing Kappa Essay Question", "Testing Tau Question", "asdf", "asdfasdf"]


def test_the_imported_bank_reads_back_through_every_lms_unchanged(imported, run_cli):
    bank, translations, _ = imported
    code, out = run_cli("lint", "--bank", str(bank), "--translations", str(translations), "--strict")
    assert code == 0 and "0 warning(s)" in out, out


def test_embedded_images_go_with_a_note_naming_each_and_the_text_reads_as_before(imported):
    """truefalse.xml: each question embeds a logo in its text, an icon in its general feedback
    and a thumb in each answer's feedback. Every one is named with its line; the words around
    it read as Moodle shows them without it (the no-break spaces that framed it go too)."""
    outputs = imported[2]
    questions, _ = read_questions("moodle", FIXTURES / "truefalse.xml")
    false, true = questions
    assert false.stem == "Moodle is an acronym for Modular Object-Oriented Dynamic Learning Education." and false.fields["answer"] is False
    assert true.stem == "Moodle is an acronym for Modular Object-Oriented Dynamic Learning Environment." and true.fields["answer"] is True
    assert false.explanation == "For further information, see the documentation about Moodle."
    assert (false.fields["feedback_true"], false.fields["feedback_false"]) == ("Your answer is incorrect.", "Your answer is correct.")
    assert true.fields["feedback_false"] == "Your\u00a0answer\u00a0is incorrect."  # Moodle's own no-break spaces between words stay
    for image, where, line in [("logo.jpg ('Moodle logo')", "the question text", 18), ("infos.jpg ('Informations')", "the general feedback", 21),
                               ("thumbdown.jpg ('Thumb down')", "the feedback of answer 1", 29), ("thumbup.jpg ('Thumb up')", "the feedback of answer 2", 35),
                               ("logo.jpg ('Moodle logo')", "the question text", 46), ("thumbup.jpg ('thumb up')", "the feedback of answer 1", 58)]:
        assert f"the image {image} in {where} was dropped: the bank holds no images" in outputs["truefalse.xml"]
        assert f"(line {line} of truefalse.xml)" in outputs["truefalse.xml"]
    (greeting,) = read_questions("moodle", FIXTURES / "multichoice.xml")[0]
    assert [(text, feedback) for text, feedback in greeting.options] == [("English", "Sorry, listen again."), ("French", "Yes, well done!"), ("German", "Sorry, listen again."), ("Danish", "Sorry, listen again.")]
    assert greeting.correct == 1 and greeting.stem == "Listen to this greeting:\nWhat language is being spoken?"
    assert greeting.notes[0] == "the file bonjour.mp3 linked from the question text was dropped (the link's text is kept): the bank holds no files (line 18 of multichoice.xml)"
    assert sum("the image flag-" in note for note in greeting.notes) == 4
    (old,) = read_questions("moodle", FIXTURES / "sample_questions_with_old_image_tag.xml")[0]
    assert old.notes == ["the image moodle.png of Moodle 1.9's image field (shown with the question text) was dropped: the bank holds no images (line 42 of sample_questions_with_old_image_tag.xml)"]


def test_the_windows_1252_fixture_reads_whole_with_its_encoding(imported):
    """Moodle refuses this file (GIFT must be UTF-8); with --encoding cp1252 its two essays come
    in with their ö read right, and so does its matching question: its three prompts share one
    answer, and the two that repeat each other ("asdf" -> "asdf") are one pair, with a note at
    the line of the repeat."""
    source = FIXTURES / "questions_encoding_windows-1252.gift.txt"
    assert b"a\xf6df" in source.read_bytes() and b"\r\n" in source.read_bytes()
    questions, skipped = read_questions("gift", source, "cp1252")
    assert [(q.name, q.kind, q.stem) for q in questions] == [("asdf", "essay", "asdf"), ("test daniel", "essay", "asdfasdf"), ("asdf", "matching", "asdf")]
    assert questions[2].fields == {"pairs": [{"id": "a", "prompt": "aödf", "answer": "asdf"}, {"id": "b", "prompt": "asdf", "answer": "asdf"}]} and skipped == []
    out = imported[2][source.name]
    assert "3 question(s) imported, 0 skipped" in out
    assert ("q016-asdf.yaml: subquestion 3 repeats subquestion 2 ('asdf' -> 'asdf'): Moodle asks it twice, the bank once "
            f"(a learner could not tell the two apart), so the two are one pair (line 17 of {source.name})") in out, out
    (matching,) = [q for q in read_library(imported[0]).questions if q.question.kind == "matching" and q.question.stem == "asdf"]
    assert matching.question.offered() == [("a", "asdf")]


def test_grades_moodle_refuses_come_in_as_partial_scoring_with_moodles_grades_noted():
    (question,) = read_questions("moodle", FIXTURES / "error_invalid_grades.xml")[0]
    assert question.name == "Question with invalid grades : x > 1 & x < 2" and question.kind == "multiple-response"
    assert [text for text, _ in question.options] == ["1", "2", "3", "4", "5"] and question.fields == {"correct": ["b", "c", "e"], "scoring": "partial"}
    assert question.notes == ["Moodle's grades (-50 %, 33 %, 33.333 %, -50 %, 33.333 %) are imported as partial scoring: each right option 1/3, each wrong one -1/3"]


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
    """Moodle lets two prompts of a matching question read the same with different answers; a
    learner could not tell them apart, and the bank refuses them (E329). Such a question is
    skipped with the rule it breaks, at its line, and the others are written."""
    source = tmp_path / "pairs.gift"
    source.write_text("::Sky:: The sky is {=blue ~red}\n\n::Pairs:: Match. {\n=one -> first\n=One -> second\n}\n", encoding="utf-8")
    code, out = run_cli("import", "gift", str(source), "--bank", str(tmp_path / "bank"))
    assert code == 0 and "1 question(s) imported, 1 skipped" in out, out
    assert f"{source}:3: skipped 'Pairs': the question would not pass `bank validate`: E329 pair 'b' has the same prompt as pair 'a' ('One')" in out, out
    code, out = run_cli("validate", "--bank", str(tmp_path / "bank"))
    assert code == 0, out


SHARED_XML = """<?xml version="1.0" encoding="UTF-8"?>
<quiz>
  <question type="matching">
    <name><text>Sort</text></name>
    <questiontext format="html"><text>Sort the animals.</text></questiontext>
    <subquestion format="html"><text>Cat</text><answer><text>mammal</text></answer></subquestion>
    <subquestion format="html"><text>Dog</text><answer><text>mammal</text></answer></subquestion>
    <subquestion format="html">
      <text>Dog</text><answer><text>mammal</text></answer></subquestion>
    <subquestion format="html"><text>Eagle</text><answer><text>bird</text></answer></subquestion>
    <subquestion format="html"><text></text><answer><text>bird</text></answer></subquestion>
    <subquestion format="html"><text></text><answer><text>fish</text></answer></subquestion>
  </question>
</quiz>
"""


@pytest.mark.parametrize("fmt, name, text, lines", [
    ("moodle", "sort.xml", SHARED_XML, (8, 11)),
    ("gift", "sort.gift", "::Sort:: Sort the animals. {\n=Cat -> mammal\n=Dog -> mammal\n=Dog -> mammal\n=Eagle -> bird\n= -> bird\n= -> fish\n}\n", (4, 6)),
    ("gift", "commented.gift", "// animals\n::Sort:: Sort the animals. {\n=Cat -> mammal\n// the same again\n=Dog -> mammal\n=Dog -> mammal\n=Eagle -> bird\n= -> bird\n= -> fish\n}\n", (6, 8)),
])
def test_prompts_that_share_an_answer_come_in_sharing_it(run_cli, tmp_path, fmt, name, text, lines):
    """Moodle offers each answer text once: prompts that share one come in as pairs that share
    it; a subquestion that repeats another (prompt and answer) is one pair, and an extra answer
    already offered is not imported again, each with a note at its line. The bank validates."""
    source = tmp_path / name
    source.write_text(text, encoding="utf-8")
    (question,), skipped = read_questions(fmt, source)
    assert skipped == [] and question.fields == {
        "pairs": [{"id": "a", "prompt": "Cat", "answer": "mammal"}, {"id": "b", "prompt": "Dog", "answer": "mammal"}, {"id": "c", "prompt": "Eagle", "answer": "bird"}],
        "distractors": [{"id": "d", "text": "fish"}]}
    assert [n for n in question.notes if "subquestion" in n] == [
        f"subquestion 3 repeats subquestion 2 ('Dog' -> 'mammal'): Moodle asks it twice, the bank once (a learner could not tell the two apart), so the two are one pair (line {lines[0]} of {name})",
        f"the extra answer 'bird' (subquestion 5) is a prompt's answer, which Moodle offers once and so does the bank: it is not imported again (line {lines[1]} of {name})"]
    code, out = run_cli("import", fmt, str(source), "--bank", str(tmp_path / "bank"))
    assert code == 0 and "1 question(s) imported, 0 skipped" in out, out
    code, out = run_cli("validate", "--bank", str(tmp_path / "bank"))
    assert code == 0 and " 0 error(s)" in out, out


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
    <generalfeedback format="html"><text><![CDATA[Blue, white, red.<img src="data:image/png;base64,iVBO" alt="Tricolour">]]></text>
      <file name="unused.pdf" path="/" encoding="base64">JVBERg==</file>
    </generalfeedback>
    <image>old.gif</image>
    <image_base64>R0lGOD==</image_base64>
    <answer fraction="100"><text>true</text><feedback format="html"><text><![CDATA[<img src="@@PLUGINFILE@@/yes.png">Right.]]></text>
      <file name="yes.png" encoding="base64">iVBO</file></feedback></answer>
    <answer fraction="0"><text>false</text><feedback format="html"><text><![CDATA[Wrong. <img src="https://example.org/no.png">]]></text></feedback></answer>
  </question>
</quiz>
"""


def test_embedded_images_and_files_are_dropped_with_a_note_naming_each_and_its_line(tmp_path, run_cli):
    """The bank holds no images or files: each one a Moodle XML question embeds (and each image
    it shows from elsewhere) is named in a note with the text it was in and its line; the text reads as it would without it (the
    no-break spaces that set it off go too), a link's words kept. A type the bank has no kind for is skipped at its line."""
    source = tmp_path / "embedded.xml"
    source.write_text(EMBEDDED, encoding="utf-8")
    questions, skipped = read_questions("moodle", source)
    assert [(s.name, s.line) for s in skipped] == [("Cloze", 3)]
    (flag,) = questions
    assert flag.line == 7 and flag.stem == "This flag is the French one."
    assert flag.fields == {"answer": True, "feedback_true": "Right.", "feedback_false": "Wrong."} and flag.explanation == "Blue, white, red."
    assert flag.notes[:7] == [
        "the image flag fr.png ('French flag') in the question text was dropped: the bank holds no images (say in the text what it shows if the question needs it) (line 11 of embedded.xml)",
        "the file anthem.mp3 linked from the question text was dropped (the link's text is kept): the bank holds no files (line 12 of embedded.xml)",
        "an image ('Tricolour') in the general feedback was dropped: the bank holds no images (say in the text what it shows if the question needs it) (line 14 of embedded.xml)",
        "the file unused.pdf attached to the general feedback was dropped: the bank holds no files (line 15 of embedded.xml)",
        "the image yes.png in the feedback of answer 1 was dropped: the bank holds no images (say in the text what it shows if the question needs it) (line 20 of embedded.xml)",
        "the image https://example.org/no.png in the feedback of answer 2 was dropped: the bank holds no images (say in the text what it shows if the question needs it) (line 21 of embedded.xml)",
        "the image old.gif of Moodle 1.9's image field (shown with the question text) was dropped: the bank holds no images (line 17 of embedded.xml)",
    ]
    code, out = run_cli("import", "moodle", str(source), "--bank", str(tmp_path / "bank"))
    assert code == 0 and f"{source}:3: skipped 'Cloze': question type 'cloze'" in out and "flag fr.png" in out, out
