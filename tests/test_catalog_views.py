"""The catalog checks read each question as plain data (:class:`~aistack_bank.i18n.catalogview.CatalogQuestion`,
from the view its file's rules derived and kept at the head of its record) instead of its model.

Compared with the code before (spelled out here: the length cue, E512/E750/W326 and the numeric
checks run again on the translations, each reading the question's model), on every question of
the bundled bank and of ``examples/every-kind`` (every kind), each read both ways a catalog
worker reads it: from the head of its stored record as :func:`aistack_bank.i18n.verify._read_part`
unpickles it (no model), and as a record of this process (its view made from ``derived``), and
with no view kept (made from its model): the same figures and the same findings, in order, on
random translations (numbers and units changed, options made equal or longer, accepted answers
in the stem, missing, fuzzy, blank or stale entries). Breaking the view (a right option, a
check's script, a unit or a group of texts that must differ taken from another question) makes
this test fail."""

from __future__ import annotations

import os
import pickle
import random
import re
from pathlib import Path

import pytest

from aistack_bank.cache import questionfiles
from aistack_bank.i18n import verify
from aistack_bank.i18n.catalogview import CatalogQuestion, catalog_view
from aistack_bank.i18n.pofile import LightEntry
from aistack_bank.load import QuestionSource, read_topic
from aistack_bank.rules.validate import question_file_rules

REPO = Path(__file__).resolve().parents[1]


# ---------------------------------------------------------------- the code before, spelled out

def _old_translated_options(question, active: dict) -> dict[str, str]:
    texts = {}
    for option in question.options:
        entry = active.get(f"{question.id}.option.{option.id}")
        texts[option.id] = entry.msgstr if entry is not None and entry.msgstr else option.text
    return texts


def _old_cue_stats(questions: list, active: dict):
    from aistack_bank.rules.cues import answer_cue_stats

    return answer_cue_stats([qs.question for qs in questions], lambda question: _old_translated_options(question, active))


def _old_duplicate_texts(questions: list, catalog, active: dict):
    from aistack_bank.errors import error, warning
    from aistack_bank.i18n.fields import question_fields
    from aistack_bank.i18n.status import entry_state
    from aistack_bank.kinds import translation_splits

    for qs in questions:
        question = qs.question
        diags = []
        listed = qs.derived.get("fields")
        english = {field.key: field.text for field in (listed if listed is not None else question_fields(question, None, None))}

        def text_of(key: str) -> str | None:
            entry = active.get(key)
            return entry.msgstr if entry is not None and key in english and entry_state(entry, english[key]) == "translated" else None

        for key, message in _old_translation_duplicates(question, text_of):
            diags.append(error("E512", f"{message} ({catalog.language})", verify.msgstr_location(catalog, active[key])))
        for key, message in translation_splits(question, text_of):
            diags.append(error("E750", f"{message} ({catalog.language})", verify.msgstr_location(catalog, active[key])))
        stem = text_of(f"{question.id}.stem")
        giveaway = _OLD_GIVEAWAYS.get(question.kind)
        if giveaway is not None and stem is not None:
            shown = giveaway(question, stem, text_of)
            if shown is not None:
                diags.append(warning("W326", f"{question.id}.stem ({catalog.language}): the stem contains the accepted answer {shown!r}; a learner can copy it",
                                     verify.msgstr_location(catalog, active[f"{question.id}.stem"])))
        yield question.id, diags


def _old_translation_duplicates(question, text_of) -> list[tuple[str, str]]:
    """``kinds.registry.translation_duplicates`` as it was, reading the kind's record."""
    from aistack_bank.kinds import kind_of

    qid = question.id
    kind = kind_of(question)
    found = []
    for what, items, key_of in kind.duplicates(question):
        seen: dict[str, tuple[str, str]] = {}
        for key, english in items:
            value = text_of(f"{qid}.{key}")
            translated = value is not None
            value = value if translated else english
            spellings = [line.strip() for line in value.split("\n") if line.strip()] if kind.multiline_answers else [value]
            for spelling in spellings:
                norm = key_of(spelling)
                if norm in seen and translated:
                    other_key, other_text = seen[norm]
                    where = "in the same entry" if other_key == key else f"as {qid}.{other_key}"
                    found.append((f"{qid}.{key}", f"{qid}.{key}: the {what} {spelling!r} is the same {where} ({other_text!r}); each must differ in this language too"))
                seen.setdefault(norm, (key, spelling))
    return found


def _old_short_answer_giveaway(question, stem: str, text_of) -> str | None:
    """The short answer's ``translated_giveaway`` as it was (reading the model)."""
    from aistack_bank.kinds import stem_giveaway

    spellings = [line.strip() for a in question.answers if a.credit >= 1
                 for line in (text_of(f"{question.id}.answer.{a.id}") or a.text).split("\n") if line.strip()]
    return stem_giveaway(stem, spellings, question.case_sensitive)


_OLD_GIVEAWAYS = {"short-answer": _old_short_answer_giveaway}
"""The kinds whose translated stem was searched for an answer, and how."""


def _old_translated_unit_diagnostics(question, catalog, active: dict):
    from aistack_bank.errors import error
    from aistack_bank.i18n.status import entry_state
    from aistack_bank.rules.quantities import quantities

    diags = []
    for unit in question.units:
        entry = active.get(f"{question.id}.unit.{unit.id}")
        if entry is None or entry_state(entry, unit.name) != "translated":
            return None
        english = quantities(f"1 {unit.name}", "en")
        translated = quantities(f"1 {entry.msgstr.strip()}", catalog.language)
        if english and (not translated or (translated[0].dimension, round(translated[0].base, 9)) != (english[0].dimension, round(english[0].base, 9))):
            shown = translated[0].unit if translated else entry.msgstr.strip()
            diags.append(error("E409", f"{question.id}.unit.{unit.id} ({catalog.language}): {shown!r} is not the unit {unit.name!r}; a learner typing it would be scored with {unit.name}'s multiplier {unit.multiplier:g}",
                               verify.msgstr_location(catalog, entry)))
    return diags


def _old_translated_checks(questions: list, catalog, active: dict):
    from aistack_bank.errors import error
    from aistack_bank.i18n.status import entry_state
    from aistack_bank.kinds import kind_of
    from aistack_bank.rules.checks import answer_texts, check_question

    for qs in questions:
        question = qs.question
        if question is None or question.check is None:
            continue
        if question.NUMERIC_KEY:
            found = _old_translated_unit_diagnostics(question, catalog, active)
            yield question.id, int(found is not None), found or []
            continue
        target = answer_texts(question)
        if target is None:
            continue
        prefix, several = question.ANSWER_FIELD, kind_of(question).multiline_answers
        options, entries = [], {}
        for option_id, english in target[0]:
            entry = active.get(f"{question.id}.{prefix}.{option_id}")
            if entry is None or entry_state(entry, english) != "translated":
                break
            lines = [line.strip() for line in entry.msgstr.split("\n") if line.strip()] if several else [entry.msgstr]
            options += [(option_id, line) for line in lines]
            entries[option_id] = entry
        else:
            diags = []
            for finding in check_question(question, options, catalog.language):
                entry = entries.get(finding.option_id) if finding.option_id else None
                where = verify.msgstr_location(catalog, entry) if entry is not None else qs.doc.locate_in_scalar(("check", "script"), finding.script_line or 1, finding.script_column or 1)
                diags.append(error(finding.code, f"{question.id} ({catalog.language}): {finding.message}", where))
            yield question.id, 1, diags


# ---------------------------------------------------------------- the questions, read three ways

def _checked(project: Path) -> list[QuestionSource]:
    """Every question file of ``project`` with a model, checked by its own rules as a worker checks it."""
    files = questionfiles.QuestionFiles(question_file_rules, use_cache=False)
    found = []
    cwd = os.getcwd()
    os.chdir(project)
    try:
        for topic_file in sorted(Path("bank").glob("*/topic.yaml")):
            root = topic_file.parent
            topic = read_topic(root, project=None)[0]
            for path in sorted((root / "questions").glob("*.yaml")):
                _, qs = files._checked(path, root, topic, None, stored=True)
                if qs.question is not None:
                    found.append((project, qs))
    finally:
        os.chdir(cwd)
    return found


@pytest.fixture(scope="module")
def checked():
    found = _checked(REPO) + _checked(REPO / "examples" / "every-kind")
    kinds = {qs.question.kind for _, qs in found}
    assert len(kinds) == 8 and any(qs.question.check is not None for _, qs in found)
    return found


def _ways(checked, tmp_path: Path) -> dict[str, list]:
    """The questions as the code before read them (``models``), and as the checks read them now:
    from their records' heads in a spill file (``heads``: :func:`verify._read_part`), as records
    of this process with their views (``derived``), and without a view kept (``made``)."""
    records = [qs for _, qs in checked]
    spill = tmp_path / "spill"
    places, at = [], 0
    with open(spill, "wb") as out:
        for qs in records:
            blob = questionfiles._dumped(qs)
            out.write(blob)
            places.append((qs.question.id, at, len(blob)))
            at += len(blob)
    _, heads = verify._read_part(verify._SpillFile(str(spill)), ([], places))
    assert all(type(qs.question) is CatalogQuestion for qs in heads)
    made = [QuestionSource(path=qs.path, doc=qs.doc, question=qs.question, derived={"fields": qs.derived["fields"]}) for qs in records]
    models = [pickle.loads(pickle.dumps(qs, protocol=pickle.HIGHEST_PROTOCOL)) for qs in records]
    return {"heads": heads, "derived": records, "made": made, "models": models}


_UNITS = ["GB", "Go", "MB", "Mo", "GiB", "TB", "ms", "s", "µs", "tokens", "GB/s", "Go/s", "FLOP", "bits", "octets", "W", "x"]


def _changed(text: str, rng: random.Random) -> str:
    """``text`` with some of its digits changed, or a unit put after a number."""
    text = re.sub(r"\d", lambda m: str(rng.randint(0, 9)) if rng.random() < 0.3 else m.group(), text)
    if rng.random() < 0.2:
        text = re.sub(r"(\d) ?[A-Za-z/]+", lambda m: f"{m.group(1)} {rng.choice(_UNITS)}", text, count=1)
    return text


def _active(fields, real: dict, rng: random.Random, answers: dict, questions) -> dict:
    """A random catalog of the fields: translations kept, changed, made equal, longer, blank,
    fuzzy or for another English; entries missing."""
    missing = rng.choice([0.0, 0.0, 0.02, 0.1])
    pool = [f.text for f in rng.sample(fields, 6)] + ["même texte", "Même texte", "x", "42", "14 Go", "28 GB"]
    active = {}
    for field in fields:
        if rng.random() < missing:
            continue
        english = field.text if rng.random() < 0.95 else field.text + " (old)"
        roll = rng.random()
        if roll < 0.15:
            text = rng.choice(pool)
        elif roll < 0.45:
            text = _changed(field.text, rng)
        elif roll < 0.55:
            text = field.text + " avec un texte bien plus long"
        elif roll < 0.6 and field.key.split(".")[-2:-1] == ["unit"]:
            text = rng.choice(_UNITS)
        elif roll < 0.63:
            text = field.text + "\n" + rng.choice(pool)  # (several spellings of an accepted answer)
        else:
            text = field.text
        if rng.random() < 0.02:
            text = ""
        line = real[field.key].linenum if field.key in real else rng.randint(1, 50)
        active[field.key] = LightEntry((field.key, english, text, None, {}, [], "", "", ["fuzzy"] if rng.random() < 0.03 else [],
                                        None, None, None, False, 0, 0, line))
    for qs in questions:  # an accepted answer in the stem, some of the time
        stem = active.get(f"{qs.question.id}.stem")
        answer = next((active[k] for k in answers.get(qs.question.id, ()) if k in active), None)
        if stem is not None and answer is not None and answer.msgstr and rng.random() < 0.5:
            active[stem.msgctxt] = LightEntry((*stem[:2], f"{stem.msgstr} {answer.msgstr}", *stem[3:]))
    return active


def _compared(ways: dict, catalog, active: dict) -> int:
    """Assert that every way gives what the code before gave on the models; the findings' count."""
    models = ways["models"]
    cues = _old_cue_stats(models, active)
    duplicates = list(_old_duplicate_texts(models, catalog, active))
    checks = list(_old_translated_checks(models, catalog, active))
    for name, questions in ways.items():
        if name == "models":
            continue
        assert verify._cue_stats(questions, active) == cues, name
        assert list(verify._duplicate_texts(questions, catalog, active)) == duplicates, name
        assert list(verify._translated_checks(questions, catalog, active)) == checks, name
        assert [(qid, longest) for qid, longest in verify._cues(questions, lambda q: verify._translated_options(q, active))] == [
            (qs.question.id, bool(cue[1])) for qs in models if (cue := _old_cue(qs.question, active)) is not None], name
    return sum(len(d) for _, d in duplicates) + sum(len(d) for _, _, d in checks)


def _old_cue(question, active):
    from aistack_bank.rules.cues import question_cue

    return question_cue(question, lambda q: _old_translated_options(q, active))


def test_the_checks_read_the_views_as_they_read_the_models(checked, tmp_path):
    from aistack_bank.i18n.catalog import Catalogs

    ways = _ways(checked, tmp_path)
    fields = [field for _, qs in checked for field in qs.derived["fields"]]
    catalog = Catalogs(light=True).read(REPO / "translations" / "fr.po")
    real = catalog.active()
    answers: dict[str, list[str]] = {}
    for field in fields:
        if field.question_id is not None and field.key.startswith(field.question_id + ".answer"):
            answers.setdefault(field.question_id, []).append(field.key)
    rng = random.Random(20261202)
    found = 0
    for _ in range(40):
        active = _active(fields, real, rng, answers, ways["models"])
        found += _compared(ways, catalog, active)
    # the checks found things to compare: duplicates, numeric checks and units broken
    assert found > 100


def test_a_view_is_kept_with_its_record_and_read_back(checked):
    """The view is what the kind API gives of the model, through the record's head and its
    whole read (the record's model and the head's view share the model's texts)."""
    for _, qs in checked:
        blob = questionfiles._dumped(qs)
        head = pickle.loads(blob)
        assert head[0] == questionfiles.RECORD_HEAD and head[2]["catalog"] == catalog_view(qs.question)
        whole = questionfiles.loads_record(blob)
        assert whole.question == qs.question and whole.derived == qs.derived
        assert CatalogQuestion(head[2]["catalog"]) == pickle.loads(pickle.dumps(CatalogQuestion(catalog_view(qs.question))))


_IN_A_WORKER = r"""
import pickle, sys
from aistack_bank.i18n import verify
from aistack_bank.i18n.catalog import Catalogs

spill, places, catalog_path, actives, out = pickle.loads(bytes.fromhex(sys.argv[1]))
_, heads = verify._read_part(verify._SpillFile(spill), ([], places))
catalog = Catalogs(light=True).read(catalog_path)
found = []
for active in pickle.load(open(actives, "rb")):
    found.append((verify._cue_stats(heads, active), list(verify._duplicate_texts(heads, catalog, active)), list(verify._translated_checks(heads, catalog, active))))
imported = sorted(m for m in sys.modules if m.split(".")[0] in ("pydantic", "pydantic_core", "annotated_types")
                  or m == "aistack_bank.model" or (m.startswith("aistack_bank.kinds.") and m.split(".")[2] in verify_kinds))
pickle.dump((found, imported), open(out, "wb"))
"""


def test_a_catalog_worker_checks_the_views_without_any_model(checked, tmp_path):
    """What a catalog worker runs on the views read from the records' heads (the length cue,
    E512/E750/W326, the numeric checks run again) imports no pydantic and no kind's module
    (every kind is among the questions; a short answer's folding and stem search included),
    and finds what the code before found reading the models."""
    import subprocess
    import sys

    from aistack_bank.i18n.catalog import Catalogs
    from aistack_bank.kinds import NAMES

    records = [qs for _, qs in checked]
    spill = tmp_path / "spill"
    places, at = [], 0
    with open(spill, "wb") as out:
        for qs in records:
            blob = questionfiles._dumped(qs)
            out.write(blob)
            places.append((qs.question.id, at, len(blob)))
            at += len(blob)
    models = [pickle.loads(pickle.dumps(qs, protocol=pickle.HIGHEST_PROTOCOL)) for qs in records]
    fields = [field for qs in records for field in qs.derived["fields"]]
    catalog_path = REPO / "translations" / "fr.po"
    catalog = Catalogs(light=True).read(catalog_path)
    answers: dict[str, list[str]] = {}
    for field in fields:
        if field.question_id is not None and field.key.startswith(field.question_id + ".answer"):
            answers.setdefault(field.question_id, []).append(field.key)
    rng = random.Random(20261203)
    actives = [_active(fields, catalog.active(), rng, answers, models) for _ in range(12)]
    for active in actives:  # an accepted answer's spellings, one per line, two of them the same
        for key in [key for keys in answers.values() for key in keys if key in active and rng.random() < 0.3]:
            entry = active[key]
            if entry.msgstr:
                active[key] = LightEntry((*entry[:2], f"{entry.msgstr}\n {entry.msgstr.upper()} ", *entry[3:]))
        for qid, keys in answers.items():  # a stem (its English) holding an accepted answer, its words capitalized
            stem, answer = active.get(f"{qid}.stem"), active.get(keys[0])
            if stem is not None and answer is not None and answer.msgstr and rng.random() < 0.5:
                active[stem.msgctxt] = LightEntry((*stem[:2], f"{stem.msgid} {answer.msgstr.splitlines()[0].title()}", *stem[3:]))
    expected = [(_old_cue_stats(models, active), list(_old_duplicate_texts(models, catalog, active)), list(_old_translated_checks(models, catalog, active)))
                for active in actives]
    assert sum(len(d) for _, duplicates, _ in expected for _, d in duplicates) > 10
    assert any(d.code == "W326" for _, duplicates, _ in expected for _, found in duplicates for d in found)
    assert any("in the same entry" in d.message for _, duplicates, _ in expected for _, found in duplicates for d in found)
    (tmp_path / "actives").write_bytes(pickle.dumps(actives))
    result = tmp_path / "result"
    kinds = repr(tuple(name.replace("-", "_") for name in NAMES))
    args = pickle.dumps((str(spill), places, catalog_path, str(tmp_path / "actives"), str(result))).hex()
    subprocess.run([sys.executable, "-c", f"verify_kinds = {kinds}\n" + _IN_A_WORKER, args], check=True, cwd=REPO,
                   env={**os.environ, "PYTHONPATH": str(REPO)})
    found, imported = pickle.loads(result.read_bytes())
    assert imported == []
    assert found == expected
