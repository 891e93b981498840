"""The glossary's French terms: one word per concept, product names, a word shared by two
English terms, and the wording a published page fixes."""

from __future__ import annotations

import re

import pytest

from aistack_bank.i18n.glossary import read_glossary

from conftest import REPO


@pytest.fixture(scope="module")
def glossary():
    found, diags = read_glossary(REPO / "translations")
    assert diags == [] and found is not None
    return found


def codes(glossary, english: str, french: str, key: str | None = None) -> list[str]:
    return [code for code, _, _ in glossary.check(english, french, "fr", key)]


@pytest.mark.parametrize("english,good,bad", [
    ("They may change accuracy.", "Elles peuvent changer l'exactitude.", "Elles peuvent changer la précision."),
    ("Inference runtimes fuse operators.", "Les environnements d'exécution fusionnent les opérateurs.", "Les runtimes fusionnent les opérateurs."),
    ("since momentum optimizers need it", "car les optimiseurs à momentum en ont besoin", "car les optimiseurs à moment en ont besoin"),
    ("Each request waits longer.", "Chaque demande attend plus longtemps.", "Chaque requête attend plus longtemps."),
    ("gradient checkpointing stores some activations", "le recalcul des activations en conserve certaines", "le point de contrôle des gradients en conserve certaines"),
])
def test_one_french_word_per_concept(glossary, english, good, bad):
    assert codes(glossary, english, good) == []
    assert "W522" in codes(glossary, english, bad)


def test_a_product_name_holding_the_term_is_left_alone(glossary):
    assert codes(glossary, "Models run in ONNX Runtime.", "Les modèles tournent dans ONNX Runtime.") == []
    assert codes(glossary, "ONNX Runtime is one runtime.", "ONNX Runtime est un runtime.") == ["W522", "W521"]


def test_a_word_that_translates_another_english_term_is_allowed_with_it(glossary):
    english = "Low precision can lose accuracy."
    assert codes(glossary, english, "La basse précision peut faire perdre de l'exactitude.") == []
    assert codes(glossary, english, "La basse précision peut faire perdre de la précision.") == ["W521"]  # accuracy still needs its word
    assert codes(glossary, "The attention query of each request", "La requête d'attention de chaque demande") == []


def test_a_published_stem_keeps_its_wording_and_nothing_else_does(glossary):
    english = "In LLM quantization, accuracy easily drops when a few channels have large outliers. What is a common remedy?"
    french = "Dans la quantification des grands modèles de langage, la précision chute facilement lorsque quelques canaux présentent de fortes valeurs aberrantes. Quelle parade est courante ?"
    assert codes(glossary, english, french, "q028.stem") == []
    assert "W522" in codes(glossary, english, french, "q028.option.a")


def test_the_bundled_french_follows_the_glossary():
    from aistack_bank.rules.validate import validate_bank

    report = validate_bank(REPO / "bank", translations=REPO / "translations", run_checks=False)
    assert [str(d) for d in report.diagnostics if d.code in ("W521", "W522", "E520")] == []


def test_a_glossary_key_of_the_wrong_type_is_a_located_error(tmp_path):
    (tmp_path / "glossary.yaml").write_text("terms:\n  - en: [runtime]\n    names: 3\n    fr: {use: [x], published: [1]}\n", encoding="utf-8")
    found, diags = read_glossary(tmp_path)
    messages = [str(d) for d in diags]
    assert any(re.search(r"glossary\.yaml:4:9: error E520: term 'runtime', fr: `use`, `avoid` and `published` must be strings", m) for m in messages), messages
    assert any(re.search(r"glossary\.yaml:3:12: error E520: term 'runtime': `names` must be a string or a list of strings", m) for m in messages), messages


def test_accepted_answers_are_what_learners_type_and_escape_the_glossary(tmp_path):
    """A short answer's accepted spellings ("ridge-point", an English name) are not prose: the
    glossary leaves them alone, and still checks the feedback next to them."""
    import shutil

    import polib

    from aistack_bank.rules.validate import validate_bank

    shutil.copytree(REPO / "examples" / "every-kind", tmp_path / "ex")
    path = tmp_path / "ex" / "translations" / "nl.po"
    po = polib.pofile(str(path))
    assert "knikpunt" not in next(e for e in po if e.msgctxt == "q009.answer.a4").msgstr  # ridge-point
    feedback = next(e for e in po if e.msgctxt == "q009.answer.a2.feedback")
    assert "ridge point" in feedback.msgid
    feedback.msgstr = "Dat beschrijft de vorm; het roofline-model noemt het ridge point."
    po.save(str(path))
    found = [str(d) for d in validate_bank(tmp_path / "ex" / "bank", translations=tmp_path / "ex" / "translations", run_checks=False).diagnostics
             if d.code == "W521"]
    assert len(found) == 1 and "q009.answer.a2.feedback:" in found[0], found
