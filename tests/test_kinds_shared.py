"""A matching question whose prompts share one answer, through the model and the formats that
write it by text: Moodle XML and GIFT (as Moodle's importers read them and as Moodle offers the
answers), JSON, and back in through the bank's importers. QTI 2.1/3.0 and Canvas QTI 1.2 are
tested on tests/qti_kinds_bank.py's q011 (tests/test_qti_kinds.py, test_qti12_kinds.py,
test_qti_import_kinds.py, test_qti_player.py); the practice site in test_site_kinds_data.py."""

from __future__ import annotations

import json
from pathlib import Path, PurePosixPath

import pytest
from pydantic import TypeAdapter

from aistack_bank.exporters import FORMATS
from aistack_bank.i18n.localize import localize_question
from aistack_bank.importers import read_questions
from aistack_bank.lms import models
from aistack_bank.model import Bank, Question, Topic
from aistack_bank.options import ExportOptions

from banklayout import category

SHARED = {
    "id": "q001", "kind": "matching", "stem": "Match each format with the bytes one value takes.",
    "pairs": [{"id": "a", "prompt": "FP16", "answer": "2 bytes"}, {"id": "b", "prompt": "FP32", "answer": "4 bytes"},
              {"id": "c", "prompt": "BF16", "answer": "2 bytes"}, {"id": "d", "prompt": "INT8", "answer": "1 byte"}],
    "distractors": [{"id": "e", "text": "3 bytes"}],
    "explanation": "A byte has 8 bits.", "tags": ["precision"], "difficulty": 1,
}
FR = {"q001.pair.a.answer": "2 octets", "q001.pair.b.answer": "4 octets", "q001.pair.c.answer": "2 octets", "q001.pair.d.answer": "1 octet",
      "q001.distractor.e": "3 octets"}


def question():
    return TypeAdapter(Question).validate_python(SHARED)


@pytest.fixture(scope="module")
def banks() -> dict[str, Bank]:
    q = question()
    topic = Topic(id="formats", category="tests", title="Formats", summary="Number formats.", tags={"precision": "Precision."}, questions=[q.id])
    problems: list = []
    french = localize_question(q, FR, problems)
    assert problems == []
    return {"en": Bank(topic=topic, questions=(q,), category=category(), lang="en"),
            "fr": Bank(topic=topic.model_copy(update={"title": "Formats (fr)"}), questions=(french,), category=category(), lang="fr")}


def test_the_model_offers_a_shared_answer_once_and_scores_it_right_for_each_prompt():
    q = question()
    assert q.offered() == [("a", "2 bytes"), ("b", "4 bytes"), ("d", "1 byte"), ("e", "3 bytes")]
    assert [q.right_answer_id(p.id) for p in q.pairs] == ["a", "b", "a", "d"]
    assert q.score(q.parse_response("a=a;b=b;c=a;d=d")) == 1
    assert q.score(q.parse_response("a=c;b=b;c=c;d=d")) == 1  # the shared answer named by either pair
    assert q.score(q.parse_response("a=a;b=b;c=e;d=a")) == 0.5
    assert q.encode_response(q.parse_response("a=a;c=a")) == "a=a;b=;c=a;d="


def moodle_question(banks, fmt: str, lang: str) -> models.MoodleQuestion:
    tree = FORMATS[fmt](banks, ExportOptions())
    data = tree[PurePosixPath(f"formats-{lang}.{'xml' if fmt == 'moodle-xml' else 'gift'}")]
    (moodle_q,) = (models.read_moodle_xml(data) if fmt == "moodle-xml" else models.read_gift(data.decode("utf-8"))).questions
    return moodle_q


@pytest.mark.parametrize("fmt", ["moodle-xml", "gift"])
@pytest.mark.parametrize("lang, two, four, one, three", [("en", "2 bytes", "4 bytes", "1 byte", "3 bytes"), ("fr", "2 octets", "4 octets", "1 octet", "3 octets")])
def test_moodle_offers_the_shared_answer_once_right_for_both_its_prompts(banks, fmt, lang, two, four, one, three):
    """Each pair is a subquestion with its answer's text, the distractor one with no text; Moodle
    offers each text once (qtype_match::initialise_question_instance) and the shared one is
    right for both its prompts."""
    moodle_q = moodle_question(banks, fmt, lang)
    assert moodle_q.qtype == "match"
    assert [answer for _, answer in moodle_q.subquestions] == [two, four, two, one, three] and moodle_q.subquestions[-1][0] == ""
    choices, right = moodle_q.match_choices()
    assert choices == [two, four, one, three] == [text for _, text in banks[lang].questions[0].offered()]
    assert right == {0: 0, 1: 1, 2: 0, 3: 2}


@pytest.mark.parametrize("fmt, suffix", [("moodle-xml", "xml"), ("gift", "gift")])
def test_a_shared_answer_comes_back_shared_through_the_importers(banks, fmt, suffix, tmp_path):
    tree = FORMATS[fmt](banks, ExportOptions())
    source = tmp_path / f"formats.{suffix}"
    source.write_bytes(tree[PurePosixPath(f"formats-en.{suffix}")])
    (imported,), skipped = read_questions("moodle" if fmt == "moodle-xml" else "gift", source)
    assert skipped == [] and not [n for n in imported.notes if "subquestion" in n]
    assert imported.fields == {"pairs": SHARED["pairs"], "distractors": SHARED["distractors"]}


def test_json_gives_each_pair_its_answer_by_language_and_the_contract_says_equal_texts_are_one(banks):
    tree = FORMATS["json"](banks, ExportOptions())
    (document,) = [json.loads(data) for path, data in tree.items() if str(path).endswith("formats.json")]
    (q,) = document["questions"]
    assert [p["answer"] for p in q["pairs"]] == [{"en": "2 bytes", "fr": "2 octets"}, {"en": "4 bytes", "fr": "4 octets"},
                                                 {"en": "2 bytes", "fr": "2 octets"}, {"en": "1 byte", "fr": "1 octet"}]
    contract = (Path(__file__).resolve().parents[1] / "docs" / "json-contract.md").read_text(encoding="utf-8")
    assert "pairs whose `answer` texts are equal in a language share one answer there" in contract


def test_moodle_takes_two_numeric_answers_of_one_value_for_one_and_lint_says_so(tmp_path, run_cli):
    """PHP's loose == compares two numeric strings as numbers: Moodle offers "1.0" and "1" as one
    answer, so the bank's two answers would be one in Moodle (W751 names the question)."""
    assert models.php_loose_equal("1.0", "1") and models.php_loose_equal(" 1e1", "10") and not models.php_loose_equal("1 byte", "1")
    moodle_q = models.MoodleQuestion(name="", idnumber="", tags=[], category=[], qtype="match", subquestions=[("x", "1.0"), ("y", "1"), ("z", "2")])
    assert moodle_q.match_choices() == (["1.0", "2"], {0: 0, 1: 0, 2: 1})
    from banklayout import CATEGORY_ID, topic_folder

    folder = topic_folder(tmp_path / "bank", "formats")
    (folder / "topic.yaml").write_text(f"id: formats\ncategory: {CATEGORY_ID}\ntitle: Formats\nsummary: Number formats.\ntags:\n  precision: Precision.\nquestions: [q001]\n", encoding="utf-8")
    (folder / "questions" / "q001-halves.yaml").write_text(
        "id: q001\nkind: matching\nstem: Match each fraction with its value.\npairs:\n  - id: a\n    prompt: 2/2\n    answer: '1.0'\n"
        "  - id: b\n    prompt: 3/3\n    answer: '1'\n  - id: c\n    prompt: 4/2\n    answer: '2'\nexplanation: Divide.\ntags: [precision]\ndifficulty: 1\n", encoding="utf-8")
    code, out = run_cli("lint", "--bank", str(tmp_path / "bank"), "--translations", str(tmp_path / "translations"), "--target", "moodle")
    assert "formats-en.xml:22: warning W751: question q001: Moodle offers '1' and '1.0' as one answer" in out, out


def test_analyze_reads_a_qti_response_naming_the_shared_target_as_the_right_answer_of_both_prompts():
    """QTI results name the shared answer's one target (``target-a``); `bank analyze` reads it as
    the answer the model offers, right for both its prompts."""
    from aistack_bank.analyze.readers import _qti_response
    from aistack_bank.exporters.qti_common import match_targets

    q = question()
    assert [(identifier, uses) for identifier, _, uses in match_targets(q)] == [("target-a", 2), ("target-b", 1), ("target-d", 1), ("target-e", 1)]
    response = _qti_response(q, ["source-a target-a", "source-c target-a", "source-d target-e"])
    assert response == "a=a;c=a;d=e"
    assert q.score(q.parse_response(response)) == 0.5


def test_a_qti_matching_item_repeating_a_prompt_with_its_answer_comes_in_as_one_pair():
    """A QTI or Canvas item whose two prompts read the same with the same answer: one pair, with
    a note; the answer a third prompt shares stays shared, and an answer offered twice is one."""
    from aistack_bank.importers.qti import _matching

    imported = _matching("Sort", "Sort the animals.", "", [("Cat", "mammal"), ("Dog", "mammal"), ("Dog", "mammal"), ("Eagle", "bird")], ["fish", "fish", "bird"])
    assert imported.fields == {"pairs": [{"id": "a", "prompt": "Cat", "answer": "mammal"}, {"id": "b", "prompt": "Dog", "answer": "mammal"},
                                         {"id": "c", "prompt": "Eagle", "answer": "bird"}], "distractors": [{"id": "d", "text": "fish"}]}
    assert imported.notes == ["prompt 3 repeats prompt 2 ('Dog' -> 'mammal'): the bank asks it once (a learner could not tell the two apart), so the two are one pair"]


def test_an_extra_answer_given_twice_is_imported_once_with_a_note():
    from aistack_bank.importers._kinds import matching

    fields, notes = matching([("Cat", "mammal"), ("Eagle", "bird"), ("", "fish"), ("", "fish")], lambda index: f" (line {index + 10} of f.xml)")
    assert fields["distractors"] == [{"id": "c", "text": "fish"}]
    assert notes == ["the extra answer 'fish' (subquestion 4) is an earlier extra answer, which Moodle offers once and so does the bank: it is not imported again (line 13 of f.xml)"]


@pytest.mark.parametrize("fmt", ["moodle-xml", "gift"])
def test_the_multilang_file_offers_the_shared_answer_once_as_its_translations_agree(banks, fmt):
    """In the multilingual file each answer is one text of every language's spans: the two pairs
    sharing "2 bytes" / "2 octets" (which E750 keeps alike) still hold one text, offered once."""
    moodle_q = moodle_question(banks, fmt, "multilang")
    choices, right = moodle_q.match_choices()
    assert len(choices) == 4 and right == {0: 0, 1: 1, 2: 0, 3: 2}
    assert 'lang="fr" class="multilang">2 octets<' in choices[0]
