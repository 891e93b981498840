"""QTI 2.1 and 3.0 export of every question kind: each item and manifest valid against the
official XSDs, the kind's interaction and response declaration, the exporter's own words in the
question's language, and the warnings for what QTI cannot carry (units, a decimal comma).

The scoring of each item is run by a real QTI player in tests/test_qti_player.py."""

from __future__ import annotations

import io
import zipfile

import pytest
from lxml import etree

from aistack_bank.exporters import FORMATS, export_notes
from aistack_bank.options import ExportOptions

import qti_kinds_bank
import qti_kinds_bank as kinds_bank
from conftest import QTI_XSD, qti_schema

SAFE = etree.XMLParser(no_network=True, resolve_entities=False)


@pytest.fixture(scope="module")
def banks():
    return kinds_bank.banks()


def members(fmt: str, banks, lang: str) -> dict[str, bytes]:
    tree = FORMATS[fmt](banks, ExportOptions())
    data = tree[FORMATS[fmt].language_file(banks["en"].topic, lang)]
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        return {name: zf.read(name) for name in zf.namelist()}


def local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


@pytest.mark.parametrize("fmt", ["qti21", "qti30"])
@pytest.mark.parametrize("lang", kinds_bank.LANGS)
def test_every_item_test_and_manifest_is_valid(fmt, lang, banks):
    files = members(fmt, banks, lang)
    items, manifest = QTI_XSD[fmt]
    assert sorted(n for n in files if n.startswith("items/")) == [f"items/{q.id}.xml" for q in banks["en"].questions]
    for name, data in files.items():
        schema = qti_schema(manifest if name == "imsmanifest.xml" else items)
        doc = etree.fromstring(data, SAFE)
        assert schema.validate(doc), (name, [f"{e.line}: {e.message}" for e in schema.error_log][:5])


def test_the_schemas_would_refuse_a_broken_item(banks):
    """The check above can fail: a mapping without its entries' keys is refused."""
    data = members("qti30", banks, "en")["items/q002.xml"].replace(b'map-key="choice-a" ', b"")
    assert not qti_schema(QTI_XSD["qti30"][0]).validate(etree.fromstring(data, SAFE))


def interaction(fmt: str, banks, lang: str, qid: str):
    doc = etree.fromstring(members(fmt, banks, lang)[f"items/{qid}.xml"], SAFE)
    declaration = next(e for e in doc.iter() if local(e.tag) in ("responseDeclaration", "qti-response-declaration"))
    body = next(e for e in doc.iter() if local(e.tag) in ("itemBody", "qti-item-body"))
    found = next(e for e in body.iter() if local(e.tag).endswith(("Interaction", "-interaction")))
    return doc, declaration, found


@pytest.mark.parametrize("qid, cardinality, base_type, name, attributes", [
    ("q001", "single", "identifier", "choiceInteraction", {"maxChoices": "1"}),
    ("q002", "multiple", "identifier", "choiceInteraction", {"maxChoices": "0"}),
    ("q004", "single", "identifier", "choiceInteraction", {"maxChoices": "1"}),
    ("q006", "single", "float", "textEntryInteraction", {}),
    ("q008", "single", "string", "textEntryInteraction", {}),
    ("q010", "multiple", "directedPair", "matchInteraction", {"maxAssociations": "2"}),
])
def test_each_kind_has_its_interaction(banks, qid, cardinality, base_type, name, attributes):
    _, declaration, found = interaction("qti21", banks, "en", qid)
    assert (declaration.get("cardinality"), declaration.get("baseType"), local(found.tag)) == (cardinality, base_type, name)
    assert {key: found.get(key) for key in attributes} == attributes


def test_partial_multiple_response_maps_each_option_and_all_or_nothing_matches_the_set(banks):
    _, partial, _ = interaction("qti21", banks, "en", "q002")
    mapping = next(e for e in partial if local(e.tag) == "mapping")
    assert (mapping.get("lowerBound"), mapping.get("upperBound")) == ("0", "1")
    assert {e.get("mapKey"): float(e.get("mappedValue")) for e in mapping} == {"choice-a": 0.5, "choice-b": -0.5, "choice-c": 0.5}
    doc, strict, _ = interaction("qti21", banks, "en", "q003")
    assert not [e for e in strict if local(e.tag) == "mapping"]
    assert [e.text for e in strict.iter() if local(e.tag) == "value"] == ["choice-a", "choice-c"]
    assert any(local(e.tag) == "correct" for e in doc.iter())


def test_short_answers_map_each_spelling_with_its_credit_and_case(banks):
    _, declaration, _ = interaction("qti30", banks, "fr", "q008")
    entries = [(e.get("map-key"), e.get("mapped-value"), e.get("case-sensitive")) for e in declaration.iter() if local(e.tag) == "qti-map-entry"]
    assert entries == [("ONNX", "1", "false"), ("format ONNX", "1", "false"), ("onnx runtime [fr]", "0.5", "false")]
    _, declaration, _ = interaction("qti21", banks, "en", "q009")
    assert {e.get("caseSensitive") for e in declaration.iter() if local(e.tag) == "mapEntry"} == {"true"}


@pytest.mark.parametrize("fmt, lang", [("qti21", "en"), ("qti30", "fr")])
def test_matching_offers_each_answer_once_with_distractors_as_extra_targets(banks, fmt, lang):
    """q011's BF16 and FP16 share "2 bytes": one target, which two prompts may take (matchMax
    2), in the key of both; each prompt's match earns a quarter."""
    _, declaration, found = interaction(fmt, banks, lang, "q011")
    sources, targets = [[(c.get("identifier"), c.text, c.get("matchMax") or c.get("match-max")) for c in s] for s in found
                        if local(s.tag) in ("simpleMatchSet", "qti-simple-match-set")]
    tag = "" if lang == "en" else f" [{lang}]"
    assert sources == [("source-a", "BF16" + tag, "1"), ("source-b", "INT8" + tag, "1"), ("source-c", "FP64" + tag, "1"), ("source-d", "FP16" + tag, "1")]
    assert targets == [("target-a", "2 bytes" + tag, "2"), ("target-b", "1 byte" + tag, "1"), ("target-c", "8 bytes" + tag, "1")]
    assert found.get("maxAssociations", found.get("max-associations")) == "4"
    key = [v.text for v in declaration.iter() if local(v.tag) in ("value", "qti-value")]
    assert key == ["source-a target-a", "source-b target-b", "source-c target-c", "source-d target-a"]
    entries = [(e.get("mapKey") or e.get("map-key"), e.get("mappedValue") or e.get("mapped-value")) for e in declaration.iter() if local(e.tag) in ("mapEntry", "qti-map-entry")]
    assert entries == [(k, "0.25") for k in key]
    _, _, found = interaction("qti21", banks, "en", "q010")
    assert [c.text for c in found[2]] == ["2 bytes", "4 bytes", "3 bytes"]


@pytest.mark.parametrize("lang, labels", [("en", ["True", "False"]), ("fr", ["Vrai", "Faux"]), ("nl", ["Waar", "Onwaar"])])
def test_true_false_labels_are_in_the_question_language(banks, lang, labels):
    for fmt in ("qti21", "qti30"):
        _, _, found = interaction(fmt, banks, lang, "q004")
        assert [c.text for c in found if local(c.tag) in ("simpleChoice", "qti-simple-choice")] == labels


def test_a_numerical_prompt_names_the_unit_and_in_french_asks_for_a_point(banks):
    text = lambda lang: "".join(etree.fromstring(members("qti30", banks, lang)["items/q006.xml"], SAFE).itertext())  # noqa: E731
    assert "Answer in GB." in text("en") and "point" not in text("en")
    assert "Répondez en Go. Écrivez les décimales avec un point (3.5)." in text("fr")
    assert "Antwoord in GB [nl]." in text("nl")


@pytest.mark.parametrize("fmt", ["qti21", "qti30"])
def test_the_export_warns_naming_each_question_it_changes(banks, fmt):
    notes = [(d.code, d.message) for d in export_notes([fmt], banks, ExportOptions())]
    assert ("W660", f"{fmt}: q006 has units, which {fmt} cannot read: the prompt asks for GB; other units (MB) are not accepted") in notes
    assert sorted((code, message.split(":")[1].strip()) for code, message in notes if code == "W661") == [
        ("W661", "q006 (fr) takes a number, which %s reads with a decimal point only; a learner's decimal comma (3,5) is not accepted (the prompt asks for a point)" % fmt),
        ("W661", "q006 (nl) takes a number, which %s reads with a decimal point only; a learner's decimal comma (3,5) is not accepted (the prompt asks for a point)" % fmt),
        ("W661", "q007 (fr) takes a number, which %s reads with a decimal point only; a learner's decimal comma (3,5) is not accepted (the prompt asks for a point)" % fmt),
        ("W661", "q007 (nl) takes a number, which %s reads with a decimal point only; a learner's decimal comma (3,5) is not accepted (the prompt asks for a point)" % fmt),
    ]


def test_a_language_without_words_gets_english_labels_and_a_warning(banks):
    de_less = {"en": banks["en"], "sw": banks["nl"].model_copy(update={"lang": "sw"})}
    notes = [(d.code, d.message) for d in export_notes(["qti30"], de_less, ExportOptions())]
    assert ("W662", "qti30: q004 (sw): no True/False labels for sw; the English words are used") in notes
    _, _, found = interaction("qti30", de_less, "sw", "q004")
    assert [c.text for c in found if local(c.tag) == "qti-simple-choice"] == ["True", "False"]


def test_two_prompts_with_one_answer_share_one_target():
    """Two prompts with one answer: one target, taken twice (matchMax 2)."""
    from aistack_bank.exporters.qti_common import match_targets

    q = qti_kinds_bank.questions()[10].model_copy(update={"pairs": [
        qti_kinds_bank.questions()[10].pairs[0], qti_kinds_bank.questions()[10].pairs[0].model_copy(update={"id": "b", "prompt": "FP16"})]})
    assert match_targets(q) == [("target-a", "2 bytes", 2)]


def test_every_question_has_scoring_cases():
    assert {qid for _, qid, *_ in qti_kinds_bank.SCORING_CASES} == {q["id"] for q in qti_kinds_bank.QUESTIONS}


@pytest.mark.parametrize("fmt", ["qti21", "qti30"])
def test_the_lms_model_scores_each_answer_as_the_player_does(banks, fmt):
    """The same responses as tests/test_qti_player.py, through the response-processing model of
    `bank lint --target qti` (aistack_bank.lms.models), on the 2.1 and the 3.0 items: a second
    engine that runs without a browser."""
    from aistack_bank.lms import models

    files = {lang: members(fmt, banks, lang) for lang in kinds_bank.LANGS}
    for lang, qid, response, expected, feedback in qti_kinds_bank.SCORING_CASES:
        doc = models.parse_xml(files[lang][f"items/{qid}.xml"])
        outcomes = models.qti_outcomes(doc, response)
        assert outcomes["SCORE"] == pytest.approx(expected), (lang, qid, response)
        if response != "14,5":  # the model reads a float response that is no number as no answer
            assert outcomes["FEEDBACK"] == feedback, (lang, qid, response)


def test_lint_runs_every_kinds_key_through_the_model(tmp_path, monkeypatch, banks):
    """`bank lint --target qti` scores the right answer of every kind's item: nothing to report
    for the exports; a key the processing does not give full marks is reported."""
    from aistack_bank.lms import lint as lint_module

    tree = {fmt: FORMATS[fmt](banks, ExportOptions()) for fmt in ("qti21", "qti30")}
    where = lambda name, line=0: name  # noqa: E731
    assert [d for d in lint_module._qti(banks, tree["qti21"], where) if "scores" in d.message] == []
    broken = banks["en"].model_copy(update={"questions": tuple(
        q.model_copy(update={"answer": 15.0}) if q.id == "q006" else q for q in banks["en"].questions)})
    found = [d.message for d in lint_module._qti({"en": broken}, tree["qti21"], where) if "scores" in d.message]
    assert found == ["question q006: its right answer scores 0.0"]


def test_the_build_guard_reads_every_kinds_texts(banks):
    """`bank build` refuses a character XML cannot carry in any text of any kind (E606)."""
    from aistack_bank.build import refuse_uncarriable
    from aistack_bank.errors import ExportError

    refuse_uncarriable("qti30", banks)
    matching = banks["fr"].question("q010")
    bad = matching.model_copy(update={"pairs": [matching.pairs[0].model_copy(update={"answer": "2\x0bbytes"}), *matching.pairs[1:]]})
    broken = banks["fr"].model_copy(update={"questions": tuple(bad if q.id == "q010" else q for q in banks["fr"].questions)})
    with pytest.raises(ExportError, match=r"q010\.pair\.a\.answer \(fr\)"):
        refuse_uncarriable("qti30", {"fr": broken})
