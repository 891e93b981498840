"""The JSON files' plain data (``exporters/json_bank.py``: ``_plain_document_data``) is checked
against the contract by a validator of the same fields made of typed dicts (``_contract_check``:
no model is made), and a choice question of a file of one language takes its options' texts from
the options themselves, its right options from its key (``_plain_choices``). The old code is kept
here: the models' validator, and the options' texts taken language by language, the right ones
from ``right_ids()``. Compared: the files' bytes on the bundled bank and ``examples/every-kind``
(each language and every language, with and without English fallbacks), on banks of every kind
with hostile texts, and on random choice banks whose ids the contract refuses now and then; the
validators' verdicts on documents of every kind mutated at random (ids, missing and extra
fields, types, floats and whole numbers, bounds); a bank breaking the contract refused with the
models' message."""

from __future__ import annotations

import copy
import random
from pathlib import Path

import pydantic
import pytest

from aistack_bank.exchange import CONTRACT_VERSION, ExportDocument
from aistack_bank.exporters import json_bank
from aistack_bank.exporters.common import english_fallback, json_utf8
from aistack_bank.options import ExportOptions

REPO = Path(__file__).resolve().parent.parent


# --- the old code, verbatim ------------------------------------------------------------------


def old_plain_document_data(banks):
    from pydantic import ValidationError

    first = banks[0]
    langs = [b.lang for b in banks]

    def texts(get) -> dict[str, str]:
        return {b.lang: get(b) for b in banks}

    topic = {key: value for key, value in json_bank._topic_fields(banks, texts).items() if value is not None}
    questions = []
    writers = json_bank.FORMAT.writers
    for index, q in enumerate(first.questions):
        if q.kind not in writers:
            continue
        plain = OLD_PLAIN.get(q.kind)
        if plain is not None:
            questions.append(plain(q, [(b.lang, b.questions[index]) for b in banks]))
        else:
            questions.append(json_bank._ordered(json_bank._question(index, q, banks, texts).model_dump(mode="json", exclude_none=True)))
    data = {"format": "aistack-bank", "version": CONTRACT_VERSION, "languages": langs, "topic": topic, "questions": questions}
    try:
        ExportDocument.__pydantic_validator__.validate_python(data)
    except ValidationError:
        return None
    return json_bank._with_fallbacks(data)


def old_plain_single(q, group: list) -> dict:
    return old_plain_choices(q, group, {"correct": q.correct})


def old_plain_multiple(q, group: list) -> dict:
    return old_plain_choices(q, group, {"correct": list(q.correct), "scoring": q.scoring})


def old_plain_choices(q, group: list, key: dict) -> dict:
    right = set(q.right_ids())
    group_options = [(lang, x.options) for lang, x in group]
    options = []
    for i, o in enumerate(q.options):
        option = {"id": o.id, "text": {lang: choices[i].text for lang, choices in group_options}, "correct": o.id in right}
        if o.feedback is not None:
            option["feedback"] = {lang: choices[i].feedback for lang, choices in group_options}
        options.append(option)
    record = {"id": q.id, "kind": q.kind, "stem": {lang: x.stem for lang, x in group}, "options": options, **key}
    return json_bank._plain_tail(q, group, record)


OLD_PLAIN = {"single-choice": old_plain_single, "multiple-response": old_plain_multiple, "true-false": json_bank._plain_true_false}


def old_render(banks) -> bytes | tuple:
    try:
        data = old_plain_document_data(banks)
        if data is None:
            data = json_bank._document_data(json_bank.build_document(banks))
        return json_utf8(data)
    except (pydantic.ValidationError, UnicodeEncodeError) as error:  # (a lone surrogate: UTF-8 refuses it)
        return "refused", type(error).__name__, str(error)


def new_render(banks) -> bytes | tuple:
    try:
        return json_bank._render(banks, ExportOptions())
    except (pydantic.ValidationError, UnicodeEncodeError) as error:  # (a lone surrogate: UTF-8 refuses it)
        return "refused", type(error).__name__, str(error)


def compare(banks, fallback=None) -> bytes | tuple:
    with english_fallback(fallback or {}, [b.lang for b in banks]):
        old, new = old_render(banks), new_render(banks)
    assert new == old
    return old


# --- the files' bytes ------------------------------------------------------------------------


@pytest.mark.parametrize("root", [REPO, REPO / "examples" / "every-kind"], ids=["bundled", "every-kind"])
def test_a_projects_files_are_the_old_bytes(root):
    from aistack_bank.build import available_languages, load_libraries, topic_banks

    langs = ["en", *sorted(set(available_languages(root / "translations")) - {"en"})]
    libraries, _ = load_libraries(root / "bank", root / "translations", langs, allow_fallback=True)
    fmt = json_bank.FORMAT
    rng = random.Random(3)
    files = 0
    for per_topic in topic_banks({lang: fmt.carried_library(library) for lang, library in libraries.items()}):
        order = [lang for lang in langs if lang in per_topic]
        for selection in [[per_topic[lang]] for lang in order] + [[per_topic[lang] for lang in order]]:
            assert isinstance(compare(selection), bytes)
            marked = {b.lang: frozenset(rng.sample([q.stem for q in b.questions], min(2, len(b.questions)))) for b in selection if b.lang != "en"}
            compare(selection, marked)
            files += 1
    assert files >= 4


def test_hostile_texts_are_the_old_bytes():
    """Banks of every kind, their texts scrambled (lone surrogates, controls, quotes, markup),
    with English fallbacks now and then, alone and beside another language."""
    from test_qti_text_writer import variants

    written = 0
    banks = list(variants(60))
    for (seed, bank, english, _), (_, other, _, _) in zip(banks, banks[1:] + banks[:1]):
        written += isinstance(compare([bank], {bank.lang: english}), bytes)
        if other.lang != bank.lang and len(other.questions) == len(bank.questions) and [q.kind for q in other.questions] == [q.kind for q in bank.questions]:
            pair = sorted([bank, other], key=lambda b: b.lang != "en")
            compare(pair, {bank.lang: english})
    assert written >= 20


@pytest.mark.parametrize("seed", range(4))
def test_random_choice_banks_are_the_old_bytes(seed):
    """Choice and true/false questions of random shapes, ids and translations (a key naming no
    option, ids the contract refuses), in one language, in all three and in one other."""
    import qti_kinds_bank
    from test_qti_item_templates import shaped

    rng = random.Random(seed)
    banks = qti_kinds_bank.banks()
    langs = sorted(banks, key=lambda lang: (lang != "en", lang))
    refused = written = 0
    for _ in range(20):
        localized = {lang: list(banks[lang].questions) for lang in langs}
        picks = [n for n, q in enumerate(banks["en"].questions) if q.kind in ("single-choice", "multiple-response", "true-false")]
        for n in picks:
            english = shaped(banks["en"].questions[n], random.Random(rng.random()))
            if english.kind != "true-false" and rng.random() < 0.9:
                ids = "abcdefgh" if rng.random() < 0.9 else ["a", "b", "A", "d", "bb", "f", "g", "h"]
                english = english.model_copy(update={"options": [o.model_copy(update={"id": ids[k]}) for k, o in enumerate(english.options)],
                                                      "correct": rng.choice(["a", "b", "z"]) if english.kind == "single-choice" else rng.sample(["a", "b", "c", "z"], rng.randint(1, 3))})
            for lang in langs:
                texts = random.Random(rng.random())
                if lang == "en":
                    localized[lang][n] = english
                elif english.kind == "true-false":
                    localized[lang][n] = english.model_copy(update={"stem": english.stem + f" [{lang}]"})
                else:
                    localized[lang][n] = english.model_copy(update={
                        "stem": english.stem + f" [{lang}]",
                        "options": [o.model_copy(update={"text": o.text + lang, "feedback": None if texts.random() < 0.5 else f"fb {lang}\u2028\ud800"})
                                    for o in english.options]})
        made = {lang: banks[lang].model_copy(update={"questions": tuple(localized[lang])}) for lang in langs}
        for selection in ([made["en"]], [made[lang] for lang in langs], [made[rng.choice(langs[1:])]]):
            fallback = {b.lang: frozenset(rng.sample([q.stem for q in b.questions], 1)) for b in selection if b.lang != "en" and rng.random() < 0.3}
            result = compare(selection, fallback)
            refused += isinstance(result, tuple)
            written += isinstance(result, bytes)
    assert refused and written


def test_a_bank_breaking_the_contract_is_refused_with_the_models_message():
    import qti_kinds_bank

    bank = qti_kinds_bank.banks()["en"]
    q = next(q for q in bank.questions if q.kind == "single-choice")
    broken = bank.model_copy(update={"questions": (q.model_copy(update={"options": [o.model_copy(update={"id": o.id * 2}) for o in q.options]}),)})
    assert json_bank._plain_document_data([broken]) is None
    with pytest.raises(pydantic.ValidationError) as raised:
        json_bank._render([broken], ExportOptions())
    with pytest.raises(pydantic.ValidationError) as expected:
        json_bank.build_document([broken])
    assert str(raised.value) == str(expected.value)
    assert "pattern" in str(raised.value)


# --- the validators' verdicts ----------------------------------------------------------------


def _documents() -> list[dict]:
    """Dumped documents of every kind (as :func:`json_bank._document_data` writes them)."""
    import qti_kinds_bank

    banks = qti_kinds_bank.banks()
    langs = sorted(banks, key=lambda lang: (lang != "en", lang))
    return [json_bank._document_data(json_bank.build_document(selection)) for selection in ([banks["en"]], [banks[lang] for lang in langs])]


_REPLACEMENTS = ["", "a", "A", "ab", "q1", "q0001", "q12a", 0, 1, 2, 3, 4, -1, 1.0, 2.5, 0.0, -0.0, 1e-7, float("nan"), float("inf"), True, False,
                 None, [], {}, ["a"], {"en": "x"}, {"en": 1}, {"en": None}, "single-choice", "essay", "partial", "nope", "2", "2.0", b"a", 10**30]


def _mutated(document: dict, rng: random.Random) -> dict:
    data = copy.deepcopy(document)
    for _ in range(rng.randint(1, 3)):
        path, node = [], data
        while isinstance(node, (dict, list)) and node and rng.random() < 0.8:
            key = rng.choice(list(node)) if isinstance(node, dict) else rng.randrange(len(node))
            path.append((node, key))
            node = node[key]
        if not path:
            continue
        parent, key = path[-1]
        action = rng.random()
        if action < 0.55:
            parent[key] = rng.choice(_REPLACEMENTS)
        elif action < 0.7 and isinstance(parent, dict):
            del parent[key]
        elif action < 0.8 and isinstance(parent, dict):
            parent[rng.choice(["extra", "Id", "fallback", "scope", "category_id", "key_point_ids", "feedback", "kind"])] = rng.choice(_REPLACEMENTS)
        elif action < 0.9 and isinstance(parent, list):
            del parent[key]
        else:
            pass  # (unchanged: a valid document among the mutated ones)
    return data


def test_the_contract_check_accepts_what_the_models_accept():
    models = ExportDocument.__pydantic_validator__
    check = json_bank._contract_check()
    assert check is not models  # (the typed dicts' validator is the one used here)
    rng = random.Random(11)
    verdicts = {True: 0, False: 0}
    for document in _documents():
        for _ in range(3000):
            data = _mutated(document, rng)
            try:
                models.validate_python(data)
                accepted = True
            except pydantic.ValidationError:
                accepted = False
            try:
                check.validate_python(data)
                checked = True
            except pydantic.ValidationError:
                checked = False
            assert checked == accepted, data
            verdicts[accepted] += 1
    assert verdicts[True] > 500 and verdicts[False] > 1000, verdicts


def test_a_model_with_a_validator_of_its_own_is_left_to_the_models():
    """A contract model given a validator or a post-init of its own (which reads a model, not a dict) makes the
    typed-dict schema refuse to be made, so the models' validator checks instead."""
    from pydantic import BaseModel, model_validator

    from aistack_bank.exporters.json_bank import _as_typed_dicts

    class Plain(BaseModel):
        a: int

    class Checked(BaseModel):
        a: int

        @model_validator(mode="after")
        def _positive(self):
            assert self.a > 0
            return self

    class Initialized(BaseModel):
        a: int

        def model_post_init(self, context):
            self.a += 1

    assert _as_typed_dicts(Plain.__pydantic_core_schema__)["type"] == "typed-dict"
    for model in (Checked, Initialized):
        with pytest.raises(ValueError):
            _as_typed_dicts(model.__pydantic_core_schema__)
