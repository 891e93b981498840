"""The examples bank (examples/every-kind/): every kind twice, in English, French and Dutch, built in CI.

It is the place authors copy from, so it must stay clean: it validates with --strict, its numeric
checks reproduce the numerical keys, its catalogs are current and complete, and its committed
exports are what `bank -C examples/every-kind build` writes.
"""

from __future__ import annotations

import math
from collections import Counter

import polib
import pytest

from aistack_bank.rules.checklang import compile_script, run_program
from aistack_bank.load import read_bank
from aistack_bank.model import KINDS
from aistack_bank.rules.quantities import unit_dimension
from conftest import REPO

EXAMPLES = REPO / "examples" / "every-kind"
LANGUAGES = ("fr", "nl")


@pytest.fixture(scope="module")
def questions():
    source = read_bank(EXAMPLES / "bank" / "every-kind")
    assert source.topic is not None
    loaded = [qs.question for qs in source.questions]
    assert None not in loaded, "a question of the examples bank does not load"
    assert [q.id for q in loaded] == source.topic.questions, "the topic lists the questions in file order"
    return loaded


@pytest.fixture(scope="module")
def catalogs():
    return {language: {entry.msgctxt: entry.msgstr for entry in polib.pofile(str(EXAMPLES / "translations" / f"{language}.po"))} for language in LANGUAGES}


def test_every_kind_has_a_question_and_the_first_six_two(questions):
    counts = Counter(q.kind for q in questions)
    assert set(counts) == set(KINDS)
    assert min(counts[kind] for kind in KINDS[:6]) >= 2, counts


def test_both_scoring_policies_and_every_numerical_feature_are_shown(questions):
    assert {q.scoring for q in questions if q.kind == "multiple-response"} == {"partial", "all-or-nothing"}
    numerical = [q for q in questions if q.kind == "numerical"]
    assert any(len(q.units) > 1 for q in numerical) and any(q.near_misses for q in numerical)
    assert any(a.credit < 1 for q in questions if q.kind == "short-answer" for a in q.answers)
    assert all(q.distractors for q in questions if q.kind == "matching")


def _computed_key(question) -> float:
    """The value the question's check computes, in the question's first unit."""
    calls = run_program(compile_script(question.check.script))
    assert len(calls) == 1 and calls[0].function == "answer", question.id
    call = calls[0]
    dimension = unit_dimension(call.unit)[0]
    own = unit_dimension(question.units[0].name)
    assert own is not None and own[0] == dimension, f"{question.id}: the check's unit and the key's unit measure different things"
    return call.value / own[1]


def test_each_numerical_check_recomputes_the_key_within_its_tolerance(questions):
    for question in (q for q in questions if q.kind == "numerical"):
        computed = _computed_key(question)
        assert abs(computed - question.answer) <= question.absolute_tolerance, (question.id, computed, question.answer)
        for near in question.near_misses:  # a near miss never contains the right value
            assert abs(computed - near.value) > near.tolerance, (question.id, near.value)


def test_each_unit_multiplier_is_what_the_unit_is_worth(questions):
    for question in (q for q in questions if q.kind == "numerical"):
        base = unit_dimension(question.units[0].name)
        for unit in question.units:
            dimension, factor = unit_dimension(unit.name)
            assert dimension == base[0] and math.isclose(unit.multiplier, factor / base[1], rel_tol=1e-9), (question.id, unit.name)


@pytest.mark.parametrize("language", LANGUAGES)
def test_translated_units_name_the_same_quantity(questions, catalogs, language):
    """`Go` for `GB` in French: a translated unit keeps its value, or its multiplier would lie."""
    for question in (q for q in questions if q.kind == "numerical"):
        for unit in question.units:
            translated = catalogs[language][f"{question.id}.unit.{unit.id}"]
            assert unit_dimension(translated) == unit_dimension(unit.name), (language, question.id, unit.name, translated)


def test_the_bank_validates_clean_in_every_language(run_cli):
    code, out = run_cli("-C", str(EXAMPLES), "validate", "--strict", "--no-cache")
    assert code == 0, out
    assert "0 error(s), 0 warning(s)" in out


def test_catalogs_are_current_complete_and_typographically_clean(run_cli):
    code, out = run_cli("-C", str(EXAMPLES), "i18n", "update", "--compare")
    assert code == 0, out
    code, out = run_cli("-C", str(EXAMPLES), "i18n", "status", "--fail-under", "100")
    assert code == 0, out
    code, out = run_cli("-C", str(EXAMPLES), "i18n", "fix-typography", "--lang", "fr", "--compare")
    assert code == 0, out


def test_committed_exports_are_up_to_date(run_cli):
    code, out = run_cli("-C", str(EXAMPLES), "build", "--compare")
    assert code == 0, out


@pytest.mark.parametrize("name", ["glossary.yaml", "site/site.pot", "site/fr.po", "site/nl.po"])
def test_shared_translation_files_are_the_main_banks(name):
    """The glossary and the practice site's interface catalogs are the main bank's: one set of
    terms and one interface translation for both projects."""
    ours, main = EXAMPLES / "translations" / name, REPO / "translations" / name
    assert ours.read_bytes() == main.read_bytes(), f"{ours.relative_to(REPO)} differs from {main.relative_to(REPO)}: copy it over"
