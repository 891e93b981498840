"""Every question kind in Moodle XML: written as Moodle's importer reads it, and read back.

The reader of our files is :mod:`aistack_bank.lms.models` (``qformat_xml``'s import code, line
by line); the grading models below follow Moodle 4.5's ``qtype_multichoice`` (grade = clamp of
the picked fractions), ``qtype_numerical`` (first answer whose range holds the response, after
``apply_units``) and ``qtype_shortanswer`` (first matching answer, ``*`` a wildcard).
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path, PurePosixPath

import pytest

from aistack_bank.errors import BankError
from aistack_bank.exporters import moodle_xml
from aistack_bank.exporters.common import MOODLE_FRACTIONS, moodle_fraction
from aistack_bank.importers import import_file, read_questions
from aistack_bank.lms import lint as lms_lint
from aistack_bank.lms import models
from aistack_bank.load import read_library
from aistack_bank.model import Bank
from aistack_bank.options import ExportOptions

import kinds_bank
from banklayout import category

REPO = Path(__file__).resolve().parents[1]
IMPORTS = REPO / "tests" / "data" / "imports"
LISTED = set(MOODLE_FRACTIONS) | {-f for f in MOODLE_FRACTIONS} | {-1.0}


@pytest.fixture(scope="module")
def banks():
    return kinds_bank.banks()


def tree(banks, options=ExportOptions()):
    return moodle_xml.export(banks, options)


def parsed(banks, lang="en") -> dict[str, models.MoodleQuestion]:
    data = tree(banks)[PurePosixPath(f"every-kind-{lang}.xml")]
    return {q.idnumber: q for q in models.read_moodle_xml(data).questions}


# --- Moodle's grades ------------------------------------------------------------------------

def test_one_kth_is_a_listed_grade_for_every_option_count_the_model_allows():
    for k in range(1, 11):
        nearest, exact = moodle_fraction(1 / k)
        assert exact and nearest in LISTED and abs(nearest - 1 / k) < 1e-5, k


def _mr_bank(k: int, n: int, scoring: str) -> Bank:
    from pydantic import TypeAdapter

    from aistack_bank.model import Question, Topic

    q = TypeAdapter(Question).validate_python({
        "id": "q001", "kind": "multiple-response", "stem": "Pick.", "tags": ["memory"], "difficulty": 1, "scoring": scoring,
        "options": [{"id": chr(97 + i), "text": f"Option {i}"} for i in range(n)], "correct": [chr(97 + i) for i in range(k)]})
    return Bank(topic=Topic(**kinds_bank.TOPIC, questions=["q001"]), questions=(q,), category=category())


@pytest.mark.parametrize("scoring", ["partial", "all-or-nothing"])
def test_every_grade_written_is_in_moodles_list(banks, scoring):
    files = [data for data in tree(banks).values()]
    files += [data for k in range(1, 11) for data in tree({"en": _mr_bank(k, 10, scoring)}).values()]
    for data in files:
        for q in models.read_moodle_xml(data).questions:
            assert q.unlisted_fractions() == [], (q.idnumber, q.answers)
            # written with Moodle's seven decimals: exactly a listed value, not merely within its 1e-5
            assert all(any(abs(f - g) < 1e-9 for g in LISTED) for _, f, _ in q.answers), q.answers


def _moodle_multichoice_grade(fractions: list[float], picked: set[int]) -> float:
    """qtype_multichoice_multi_question::grade_response: the picked fractions summed, clamped to [0, 1]."""
    return min(1.0, max(0.0, sum(fractions[i] for i in picked)))


def _bank_grade(k: int, right: set[int], picked: set[int], scoring: str) -> float:
    if scoring == "all-or-nothing":
        return 1.0 if picked == right else 0.0
    return max(0.0, (len(picked & right) - len(picked - right)) / k)


@pytest.mark.parametrize("k,n", [(1, 2), (2, 3), (2, 4), (3, 5), (4, 6), (5, 10), (7, 9)])
def test_moodle_grades_multiple_response_as_the_bank_does(k, n):
    """Partial: equal for every set of picks. All-or-nothing: equal except when the learner picks
    only some of the right options and no wrong one (what the W655 warning says)."""
    right = set(range(k))
    for scoring in ("partial", "all-or-nothing"):
        (q,) = models.read_moodle_xml(tree({"en": _mr_bank(k, n, scoring)})[PurePosixPath("every-kind-en.xml")]).questions
        assert q.qtype == "multichoice" and not q.single
        fractions = [f for _, f, _ in q.answers]
        for size in range(n + 1):
            for picked in map(set, itertools.combinations(range(n), size)):
                moodle, bank = _moodle_multichoice_grade(fractions, picked), _bank_grade(k, right, picked, scoring)
                if scoring == "all-or-nothing" and picked and picked < right:
                    assert moodle == pytest.approx(len(picked) / k, abs=1e-5)
                else:
                    assert moodle == pytest.approx(bank, abs=1e-5), (scoring, picked)


def test_all_or_nothing_is_warned_naming_the_question(banks):
    notes = moodle_xml.FORMAT.notes(banks, ExportOptions())
    assert [(n.code, "q007" in n.message) for n in notes] == [("W655", True)]


def test_an_unlisted_credit_is_snapped_and_warned(banks):
    q = banks["en"].question("q009")
    odd = q.model_copy(update={"near_misses": [q.near_misses[0].model_copy(update={"credit": 0.45})]})
    bank = banks["en"].model_copy(update={"questions": tuple(odd if x.id == "q009" else x for x in banks["en"].questions)})
    notes = moodle_xml.FORMAT.notes({"en": bank}, ExportOptions())
    assert any(n.code == "W656" and "q009" in n.message and "0.45 as 0.5" in n.message for n in notes)
    (moodle,) = [x for x in models.read_moodle_xml(tree({"en": bank})[PurePosixPath("every-kind-en.xml")]).questions if x.idnumber == "q009"]
    assert [f for _, f, _ in moodle.answers] == [1.0, 0.5]


# --- each kind as Moodle reads it ------------------------------------------------------------

def test_each_kind_lands_as_the_right_qtype(banks):
    qs = parsed(banks)
    assert {qid: q.qtype for qid, q in qs.items()} == {
        "q001": "multichoice", "q002": "multichoice", "q003": "truefalse", "q004": "numerical", "q005": "shortanswer",
        "q006": "match", "q007": "multichoice", "q008": "truefalse", "q009": "numerical", "q010": "shortanswer"}
    assert qs["q001"].single and not qs["q002"].single and not qs["q007"].single
    assert [f for _, f, _ in qs["q002"].answers] == [0.5, -0.5, 0.5]
    assert [f for _, f, _ in qs["q007"].answers] == [0.5, 0.5, -1.0, -1.0]


def test_true_false_answers_are_true_and_false_with_their_feedback(banks):
    qs = parsed(banks)
    assert qs["q003"].answers == [("true", 0.0, "<p>It is not.</p>"), ("false", 1.0, "<p>Right.</p>")]
    assert qs["q008"].answers == [("true", 1.0, ""), ("false", 0.0, "")]


def _moodle_numerical_grade(q: models.MoodleQuestion, response: str) -> float:
    """qtype_numerical: apply_units (a lone comma is the decimal point, spaces dropped, the unit
    divides), then the first answer whose range holds the value; no unit penalty with
    unitgradingtype 0."""
    text = response.replace(" ", "")
    if "." not in text and text.count(",") == 1:
        text = text.replace(",", ".")
    number, unit = re.fullmatch(r"([+-]?[0-9.]+(?:[eE][+-]?[0-9]+)?)(.*)", text).groups()
    value = float(number)
    if unit:
        multipliers = dict(q.units)
        if unit not in multipliers:
            return 0.0
        value /= multipliers[unit]
    for (answer, fraction, _), tolerance in zip(q.answers, q.tolerances):
        if answer == "*" or abs(value - float(answer)) <= tolerance + 1e-12 * max(1, abs(float(answer))):
            return fraction
    return 0.0


def test_numerical_units_tolerance_and_near_misses_grade_as_the_bank(banks):
    qs = parsed(banks)
    q = qs["q004"]
    assert q.answers[0][:2] == ("14", 1.0) and q.tolerances == [0.7, 1.0]
    assert q.units == [("GB", 1.0), ("MB", 1000.0)] and q.unitgradingtype == 0 and q.showunits == 0
    assert q.answers[1] == ("28", 0.0, "<p>That is FP32.</p>")
    for response, grade in [("14", 1), ("14.6", 1), ("14,6", 1), ("13.3 GB", 1), ("14000 MB", 1), ("14800MB", 0), ("28", 0), ("15", 0)]:
        assert _moodle_numerical_grade(q, response) == grade, response
    q = qs["q009"]
    assert q.units == [] and q.showunits == 3 and q.unitgradingtype == 0  # T4: no unit penalty without units
    assert [_moodle_numerical_grade(q, r) for r in ("4", "32", "5")] == [1.0, 0.5, 0.0]


def _moodle_shortanswer_grade(q: models.MoodleQuestion, response: str) -> float:
    """qtype_shortanswer::compare_string_with_wildcard on each answer in order."""
    for answer, fraction, _ in q.answers:
        bits = re.split(r"(?<!\\)\*+", answer)
        pattern = ".*".join(re.escape(bit.replace("\\*", "*")) for bit in bits)
        if re.fullmatch(pattern, response.strip(), 0 if q.usecase else re.I):
            return fraction
    return 0.0


def test_short_answers_keep_case_credit_and_a_literal_asterisk(banks):
    qs = parsed(banks)
    assert not qs["q005"].usecase and qs["q010"].usecase
    # with the spelling Moodle would not credit otherwise (the bank compares hyphen and space alike)
    assert [(t, f) for t, f, _ in qs["q005"].answers] == [("ONNX", 1.0), ("onnx runtime", 0.5), ("onnx-runtime", 0.5)]
    assert [_moodle_shortanswer_grade(qs["q005"], r) for r in ("onnx", "ONNX Runtime", "onnxruntime")] == [1.0, 0.5, 0.0]
    assert [(t, f) for t, f, _ in qs["q010"].answers] == [("\\*p", 1.0), ("*ptr", 0.5)]
    assert [_moodle_shortanswer_grade(qs["q010"], r) for r in ("*p", "xp", "*P", "int *ptr", "ptr", "*Ptr")] == [1.0, 0.0, 0.0, 0.5, 0.5, 0.0]


@pytest.mark.parametrize("answers, fold_diacritics, responses", [
    ([{"text": "point d\u2019\u00e9quilibre"}, {"text": "ridge-point", "credit": 0.5}], True,
     ["point d'equilibre", "Point d\u2019\u00c9quilibre", "point d'\u00e9quilibre", "ridge point", "ridge-point", "RIDGE POINT", "ridge", "point"]),
    ([{"text": "*point", "credit": 0.5}, {"text": "ridge point"}, {"text": "ridge*", "credit": 0.25}], False,
     ["ridge point", "Ridge Point", "balance point", "ridge", "ridges", "knee", "point"]),
])
def test_moodle_credits_the_common_spellings_as_the_bank_does(answers, fold_diacritics, responses):
    """Moodle compares exactly (and takes the first matching answer): the export writes the
    spellings the bank's folding accepts that a learner commonly types, in order of credit."""
    from pydantic import TypeAdapter

    from aistack_bank.model import Question, Topic

    q = TypeAdapter(Question).validate_python({"id": "q001", "kind": "short-answer", "stem": "Name it.", "tags": ["memory"], "difficulty": 1,
                                               "answers": [{"id": f"a{n}", **answer} for n, answer in enumerate(answers, 1)], "fold_diacritics": fold_diacritics})
    bank = Bank(topic=Topic(**kinds_bank.TOPIC, questions=["q001"]), questions=(q,), category=category())
    (data,) = tree({"en": bank}).values()
    (moodle_q,) = models.read_moodle_xml(data).questions
    assert [_moodle_shortanswer_grade(moodle_q, r) for r in responses] == [q.score(r) for r in responses]


def test_matching_has_a_subquestion_per_pair_and_an_empty_one_per_distractor(banks):
    assert parsed(banks)["q006"].subquestions == [("<p>FP16</p>", "2 bytes"), ("<p>FP32</p>", "4 bytes"), ("", "3 bytes")]


def test_names_and_idnumbers_are_unique_and_every_file_imports_into_one_course(banks):
    course = models.MoodleCourse()
    for name, data in sorted(tree(banks).items(), key=lambda item: str(item[0])):
        moodle_file = models.read_moodle_xml(data)
        ids = [q.idnumber for q in moodle_file.questions]
        names = [q.name for q in moodle_file.questions]
        assert len(set(ids)) == len(ids) == 10 and len(set(names)) == len(names), name
        result = course.import_file(moodle_file)
        assert result.dropped_idnumbers == [] and result.cut_names == [], name


def test_the_lint_models_find_nothing_to_report_for_any_kind(banks):
    trees = {"moodle-xml": tree(banks)}
    from aistack_bank.exporters import gift

    trees["gift"] = gift.export(banks, ExportOptions())
    locate = lambda lang, qid, field: None  # noqa: E731 (titles are short: never used)
    where = lambda name, line=0: f"{name}:{line}"  # noqa: E731
    assert lms_lint._moodle(banks, trees["moodle-xml"], locate, where) == []
    assert lms_lint._gift(banks, trees["moodle-xml"], trees["gift"], where) == []


# --- several languages -----------------------------------------------------------------------

def test_a_multilingual_file_accepts_every_languages_spellings_and_units(banks):
    data = tree(banks)[PurePosixPath("every-kind-multilang.xml")]
    qs = {q.idnumber: q for q in models.read_moodle_xml(data).questions}
    assert [(t, f) for t, f, _ in qs["q005"].answers] == [
        ("ONNX", 1.0), ("onnx runtime", 0.5), ("onnx-runtime", 0.5), ("format ONNX", 1.0), ("format-ONNX", 1.0), ("moteur onnx", 0.5), ("moteur-onnx", 0.5)]
    assert qs["q004"].units == [("GB", 1.0), ("MB", 1000.0), ("Go", 1.0), ("Mo", 1000.0)]
    assert _moodle_numerical_grade(qs["q004"], "14 000 Mo") == 1.0
    # the answers of a matching question are plain text: multilang spans, one per language
    assert qs["q006"].subquestions[0][1] == '<span lang="en" class="multilang">2 bytes</span><span lang="fr" class="multilang">2 octets</span><span lang="nl" class="multilang">2 bytes</span>'
    assert models.moodle_param_text(qs["q006"].subquestions[0][1]) == qs["q006"].subquestions[0][1]


def test_each_language_file_carries_its_own_texts(banks):
    fr = parsed(banks, "fr")
    assert [t for t, _, _ in fr["q005"].answers] == ["ONNX", "format ONNX", "format-ONNX", "moteur onnx", "moteur-onnx"]
    assert fr["q004"].units == [("Go", 1.0), ("Mo", 1000.0)]
    assert fr["q006"].subquestions[-1] == ("", "3 octets")


def test_the_bundled_bank_export_is_unchanged_by_the_kinds():
    """The bundled bank is all single choice: its Moodle XML is what was committed."""
    from aistack_bank.build import load_localized

    english, _ = load_localized(REPO / "bank", None, ["en"])
    written = moodle_xml.export(english, ExportOptions(shuffle=True))
    committed = (REPO / "exports" / "moodle" / "aistack-en.xml").read_bytes()
    assert written[PurePosixPath("aistack-en.xml")] == committed


# --- round trip ------------------------------------------------------------------------------

def same_question(original, imported, *, tolerance_only_absolute=True):
    """The imported question says what the original says, in the bank's terms."""
    assert imported.kind == original.kind and imported.stem == original.stem
    assert imported.explanation == original.explanation
    assert imported.difficulty == original.difficulty and set(original.tags) <= set(imported.tags)
    kind = original.kind
    if kind in ("single-choice", "multiple-response"):
        assert [(o.text, o.feedback) for o in imported.options] == [(o.text, o.feedback) for o in original.options]
        assert imported.correct == original.correct
    if kind == "multiple-response":
        assert imported.scoring == original.scoring
    if kind == "true-false":
        assert (imported.answer, imported.feedback_true, imported.feedback_false) == (original.answer, original.feedback_true, original.feedback_false)
    if kind == "numerical":
        assert imported.answer == original.answer
        assert imported.absolute_tolerance == pytest.approx(original.absolute_tolerance)
        assert [(u.name, u.multiplier) for u in imported.units] == [(u.name, pytest.approx(u.multiplier)) for u in original.units]
        assert [(n.value, n.tolerance, n.credit, n.feedback) for n in imported.near_misses] == [
            (n.value, n.tolerance, pytest.approx(n.credit, abs=1e-5), n.feedback) for n in original.near_misses]
        assert imported.check is not None and imported.check.script == f"answer({original.answer:g})"
    if kind == "short-answer":
        assert [(a.text, a.credit, a.feedback) for a in imported.answers] == [(a.text, pytest.approx(a.credit, abs=1e-5), a.feedback) for a in original.answers]
        assert imported.case_sensitive == original.case_sensitive
    if kind == "matching":
        assert [(p.id, p.prompt, p.answer) for p in imported.pairs] == [(p.id, p.prompt, p.answer) for p in original.pairs]
        assert [(d.id, d.text) for d in imported.distractors] == [(d.id, d.text) for d in original.distractors]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_round_trip_through_moodle_xml_keeps_every_kind(banks, tmp_path, lang):
    source = tmp_path / f"every-kind-{lang}.xml"
    source.write_bytes(tree(banks)[PurePosixPath(source.name)])
    report = import_file("moodle", source, tmp_path / "bank", None)
    assert report.skipped == [] and len(report.written) == 10
    imported = read_library(tmp_path / "bank")
    assert [d for d in imported.diagnostics if d.severity.value == "error"] == []
    by_id = {qs.question.id: qs.question for qs in imported.questions}
    assert imported.topics[0].topic.questions == [q.id for q in banks[lang].questions]
    for original in banks[lang].questions:
        same_question(original, by_id[original.id])


def test_an_imported_numerical_question_has_a_check_restating_its_value(banks, tmp_path):
    source = tmp_path / "every-kind-en.xml"
    source.write_bytes(tree(banks)[PurePosixPath(source.name)])
    report = import_file("moodle", source, tmp_path / "bank", None)
    (path,) = [p for p in report.written if p.name.startswith("q004")]
    text = path.read_text(encoding="utf-8")
    assert "# Imported: this check only restates the value from the file. Replace it with the" in text
    assert "check:\n  script: answer(14)\n" in text
    assert "tolerance: 0.7\n" in text and "  - id: u2\n    name: MB\n    multiplier: 0.001\n" in text


# --- files Moodle itself exports -------------------------------------------------------------

def test_a_moodle_export_with_nested_categories_and_its_quirks_imports(tmp_path):
    questions, skipped = read_questions("moodle", IMPORTS / "moodle" / "moodle-4.5-every-type.xml")
    by_name = {q.name: q for q in questions}
    assert {s.name for s in skipped} == {"Wildcard only"}
    assert all("wildcard" in s.reason for s in skipped)
    essay = by_name["Essay on caches"]
    assert essay.kind == "essay" and essay.stem == "Explain how a cache works." and essay.fields == {}
    assert by_name["Capital of France"].category == "$course$/top/Geography/Europe"
    mr = by_name["Prime numbers"]
    assert mr.kind == "multiple-response" and mr.fields == {"correct": ["a", "c"], "scoring": "partial"}
    assert mr.options[0] == ("2", "Yes, the only even prime.") and mr.explanation == "2 and 3 are prime; 4 and 9 are not."
    tf = by_name["Sky colour"]
    assert tf.kind == "true-false" and tf.fields == {"answer": True, "feedback_true": "Right: Rayleigh scattering.", "feedback_false": "Look up."}
    num = by_name["Cable length"]
    assert num.kind == "numerical" and num.explanation == ""
    assert num.fields["answer"] == 1.5 and num.fields["tolerance"] == 0.01
    assert num.fields["units"] == [{"name": "m", "multiplier": 1.0}, {"name": "cm", "multiplier": 0.01}]
    assert num.fields["near_misses"] == [{"value": 150.0, "tolerance": 1.0, "credit": 0.5, "feedback": "You gave centimetres without the unit."}]
    assert any("any other answer" in n for n in num.notes) and any("graded the unit" in n for n in num.notes)
    sa = by_name["Capital of France"]
    assert sa.kind == "short-answer" and sa.fields == {"answers": [{"text": "Paris", "feedback": "Yes."}, {"text": "Lutèce", "credit": 0.5}]}
    assert any("repeats" in n for n in sa.notes)
    m = by_name["Units of memory"]
    assert m.kind == "matching" and m.fields["pairs"][0] == {"id": "a", "prompt": "KB", "answer": "1024 bytes"}
    assert m.fields["distractors"] == [{"id": "d", "text": "1000 bits"}]
    assert by_name["Old true/false"].fields["answer"] is False and any("true first" in n for n in by_name["Old true/false"].notes)
    report = import_file("moodle", IMPORTS / "moodle" / "moodle-4.5-every-type.xml", tmp_path / "bank", None)
    imported = read_library(tmp_path / "bank")
    assert [d for d in imported.diagnostics if d.severity.value == "error"] == [] and len(imported.questions) == len(questions)
    assert imported.topics[0].topic.title == "Geography"
    assert any("no general feedback" in n for n in report.notes)


def test_an_unreadable_number_skips_the_question_with_the_reason(tmp_path):
    source = tmp_path / "q.xml"
    source.write_text("""<?xml version="1.0" encoding="UTF-8"?>
<quiz><question type="numerical"><name><text>n</text></name><questiontext format="html"><text>How many?</text></questiontext>
<answer fraction="100"><text>about four</text><tolerance>0</tolerance></answer></question></quiz>""", encoding="utf-8")
    questions, skipped = read_questions("moodle", source)
    assert questions == [] and [(s.name, s.reason) for s in skipped] == [("n", "the answer 'about four' is not a number")]


def test_encoding_is_refused_for_moodle_xml(tmp_path):
    from aistack_bank.errors import UsageError

    with pytest.raises(UsageError, match="--encoding applies to gift"):
        read_questions("moodle", IMPORTS / "moodle" / "moodle-4.5-every-type.xml", "cp1252")


def test_malformed_xml_is_still_refused_at_its_line(tmp_path):
    source = tmp_path / "bad.xml"
    source.write_text("<quiz>\n<question type='truefalse'>\n</quiz>\n", encoding="utf-8")
    with pytest.raises(BankError) as caught:
        read_questions("moodle", source)
    assert caught.value.code == "E702" and caught.value.location.line == 3


@pytest.mark.parametrize("fmt, name, text", [
    ("moodle", "wild.xml", """<?xml version="1.0" encoding="UTF-8"?>
<quiz>
  <question type="shortanswer">
    <name><text>Animal</text></name>
    <questiontext format="html"><text>Which is the best animal?</text></questiontext>
    <usecase>0</usecase>
    <answer fraction="100" format="moodle_auto_format"><text>Frog*</text><feedback format="html"><text>Good!</text></feedback></answer>
    <answer fraction="50" format="moodle_auto_format"><text>C\\*t</text><feedback format="html"><text></text></feedback></answer>
    <answer fraction="0" format="moodle_auto_format"><text>*</text><feedback format="html"><text>Completely wrong</text></feedback></answer>
  </question>
</quiz>
"""),
    ("gift", "wild.gift", "::Animal::Which is the best animal?{\n  =Frog*#Good!\n  =%50%C\\\\*t\n  =%0%*#Completely wrong\n}\n"),
])
def test_a_moodle_wildcard_answer_comes_in_as_it_is(tmp_path, fmt, name, text):
    """The bank writes short answers in Moodle's syntax: ``Frog*`` stays a wildcard, ``C\\*t`` a
    star; the catch-all ``*`` at 0 % (feedback only) is left out with a note."""
    source = tmp_path / name
    source.write_text(text, encoding="utf-8")
    (q,), skipped = read_questions(fmt, source)
    assert skipped == []
    assert q.fields["answers"] == [{"text": "Frog*", "feedback": "Good!"}, {"text": "C\\*t", "credit": 0.5}]
    assert any("'*' earns nothing" in note for note in q.notes)
