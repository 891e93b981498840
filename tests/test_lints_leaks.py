"""W322 (an answer leaked by another question): the indexed search finds exactly what comparing
every text with every key word by word finds, in the same order."""

from __future__ import annotations

import random
import re

from aistack_bank.rules import lints
from aistack_bank.rules.lints import LEAK_MIN_KEY_WORDS, LEAK_WORDS, LeakText, answer_leaks


def _plain_leaks(keys: dict[str, str], texts: list[LeakText]) -> list[tuple[LeakText, str]]:
    """The rule spelled out: a run of LEAK_WORDS words of another key, or a whole key of
    LEAK_MIN_KEY_WORDS words or more, found anywhere in the text."""
    order = list(keys)
    found = []
    for item in texts:
        words = lints._words(item.text)
        hits = set()
        for qid, key in keys.items():
            key_words = lints._words(key)
            runs = {tuple(key_words[i:i + LEAK_WORDS]) for i in range(len(key_words) - LEAK_WORDS + 1)}
            for i in range(len(words)):
                if tuple(words[i:i + LEAK_WORDS]) in runs and i + LEAK_WORDS <= len(words):
                    hits.add(qid)
                if LEAK_MIN_KEY_WORDS <= len(key_words) and words[i:i + len(key_words)] == key_words:
                    hits.add(qid)
        hits.discard(item.question_id)
        found += [(item, qid) for qid in sorted(hits, key=order.index)]
    return found


def test_the_index_finds_what_the_plain_rule_finds_in_the_same_order():
    rng = random.Random(7)
    vocabulary = ["the", "cache", "holds", "weights", "in", "FP16", "memory", "bound", "kernel", "batch", "2,5", "GB", "×"]
    for _ in range(60):
        keys = {f"q{i:03d}": " ".join(rng.choice(vocabulary) for _ in range(rng.choice([2, 4, 5, 6, 7, 8, 9, 12])))
                for i in range(rng.randint(1, 8))}
        texts = []
        for index in range(12):
            words = [rng.choice(vocabulary) for _ in range(rng.randint(0, 25))]
            if keys and rng.random() < 0.6:  # plant a key, or a part of one
                key_words = rng.choice(list(keys.values())).split()
                start = rng.randint(0, len(key_words) - 1) if rng.random() < 0.3 else 0
                at = rng.randint(0, len(words))
                words[at:at] = key_words[start:]
            texts.append(LeakText(rng.choice([*keys, "q999"]), ("options", index, "feedback"), " ".join(words)))
        assert answer_leaks(keys, texts) == _plain_leaks(keys, texts)


def test_a_short_key_and_a_long_key_are_found_whole_and_by_a_run():
    keys = {"q001": "weights stay in FP16 memory", "q002": "the kernel is bound by memory bandwidth at batch one here"}
    texts = [
        LeakText("q003", ("explanation",), "Because weights stay in FP16 memory, and the kernel is bound by memory bandwidth at batch one."),
        LeakText("q001", ("explanation",), "weights stay in FP16 memory"),  # its own key
        LeakText("q004", ("explanation",), "weights stay in FP16"),  # too short a part
    ]
    assert [(item.question_id, qid) for item, qid in answer_leaks(keys, texts)] == [("q003", "q001"), ("q003", "q002")]


def test_the_lint_reads_the_fields_kept_with_a_record_as_it_reads_the_question(tmp_path):
    """content_lints over records that carry their fields (from the per-file store) reports
    exactly what it reports over records without them."""
    from conftest import REPO

    from aistack_bank.i18n.fields import question_fields
    from aistack_bank.load import read_library

    source = read_library(REPO / "bank")
    topic = source.topics[0]
    leaky = topic.questions[1]
    key = lints._key_text(topic.questions[0].question)
    assert key is not None
    leaky.question = leaky.question.model_copy(update={"explanation": f"As everyone knows, {key}"})
    bare = lints.content_lints(topic, references=False)
    assert any(d.code == "W322" for d in bare)
    for qs in topic.questions:
        if qs.question is not None and qs.doc is not None:
            qs.derived["fields"] = question_fields(qs.question, qs.doc, qs.path)
    assert lints.content_lints(topic, references=False) == bare


# ----------------------------------------------------------------------------- other words

from aistack_bank.rules.lints import KeyInfo, figure_of_key, near_leaks, quantities  # noqa: E402


def _near(keys: dict[str, KeyInfo], *texts: tuple[str, str]) -> list[tuple[str, str]]:
    items = [LeakText(qid, ("explanation",), text) for qid, text in texts]
    return [(item.question_id, qid) for item, qid, _ in near_leaks(keys, items)]


FIGURES = {"q003": KeyInfo("About 112 GB"), "q005": KeyInfo("About 3.5 GB"), "q015": KeyInfo("About 7 ms"),
           "q046": KeyInfo("About 2N operations")}


def test_a_figure_key_is_leaked_by_its_number_with_its_unit_in_any_spacing():
    assert _near(FIGURES, ("q029", "4-bit weights are 3.5 GB, so the bound drops from 7 ms per token.")) == [("q029", "q005"), ("q029", "q015")]
    assert _near(FIGURES, ("q004", "About 112\u00a0GB")) == [("q004", "q003")]
    assert _near(FIGURES, ("q004", "about 112GB in all")) == [("q004", "q003")]
    assert _near(FIGURES, ("q045", "that is about 2N FLOPs per token")) == [("q045", "q046")]


def test_a_figure_with_another_unit_or_number_or_inside_a_larger_one_is_not_a_leak():
    assert _near(FIGURES, ("q029", "3.5 ms per token, 112 MB of SRAM, 7 GB of weights, 1.75 GB, 13.5 GB, 2ND and 12N")) == []
    assert _near(FIGURES, ("q005", "About 3.5 GB")) == []  # its own key


def test_a_sentence_holding_a_number_is_not_a_figure_key():
    assert figure_of_key("About 14 GB") == {("14", "gb")}
    assert figure_of_key("Each weight does about 2 operations per byte loaded from memory") == set()
    assert ("3.5", "gb") in quantities("3,5\u202fGB")


SENTENCES = {
    "q046": KeyInfo("About 2N operations, a multiply and an add for every parameter"),
    "q019": KeyInfo("The off-chip memory traffic for writing and re-reading intermediate results."),
}


def test_a_key_said_again_in_another_order_and_inflection_is_a_leak():
    assert _near(SENTENCES, ("q045", "About 2ND operations, since each parameter takes one multiply and one add per token")) == [("q045", "q046")]
    assert _near(SENTENCES, ("q018", "It cuts the re-reading and writing of intermediate results through off-chip memory traffic.")) == [("q018", "q019")]


def test_a_few_shared_words_far_apart_are_not_a_leak():
    text = ("Each parameter is stored once. Much later in this long explanation of the schedule, the optimizer "
            "does an add to the running mean, and a multiply by the learning rate, for every step of training.")
    assert _near(SENTENCES, ("q045", text)) == []
    assert _near(SENTENCES, ("q017", "Tiling keeps the score matrix in SRAM so it never goes to HBM.")) == []


DECLARED = {
    "q030": KeyInfo("Unstructured pruning can zero many weights with little accuracy loss yet gain little speed",
                    ("unstructured|irregular|scattered + little speed*|little or no speed*|no speed*",)),
    "q016": KeyInfo("Quadratically (∝ n²), since every token's query is scored against every token's key.",
                    ("quadratic* + attention|self-attention",)),
}


def test_a_paraphrase_holding_every_declared_term_of_a_key_is_a_leak():
    assert _near(DECLARED, ("q031", "This is unstructured sparsity; scattered zeros give little or no speedup.")) == [("q031", "q030")]
    assert _near(DECLARED, ("q046", "This transfers the quadratic cost of attention to the whole model.")) == [("q046", "q016")]
    assert _near(DECLARED, ("q031", "Irregular zeros give NO SPEEDUP on dense units.")) == [("q031", "q030")]


def test_a_text_with_only_some_declared_terms_is_not_a_leak():
    assert _near(DECLARED, ("q031", "Scattered zeros need sparse kernels."), ("q014", "The MLP cost grows quadratically with the context.")) == []


# ----------------------------------------------------------------------------- in a bank

def _bank_with(tmp_path, edits: dict[str, tuple[str, str]], groups: str = ""):
    """A copy of the bundled topic with texts replaced (question id → (old, new))."""
    import shutil

    from conftest import REPO, question_file, topic_file

    from aistack_bank.load import read_library

    root = tmp_path / "bank"
    shutil.copytree(REPO / "bank", root)
    for qid, pairs in edits.items():
        path = question_file(tmp_path, qid)
        text = path.read_text(encoding="utf-8")
        for old, new in [pairs] if isinstance(pairs[0], str) else pairs:
            assert old in text, (qid, old)
            text = text.replace(old, new, 1)
        path.write_text(text, encoding="utf-8")
    topic = topic_file(tmp_path)
    text = topic.read_text(encoding="utf-8")
    text = re.sub(r"# Questions a published stem.*?(?=\nquestions:)", "", text, flags=re.S).rstrip("\n") + "\n" + groups
    topic.write_text(text, encoding="utf-8")
    source = read_library(root)
    assert not [d for d in source.diagnostics if d.severity == "error"], source.diagnostics
    return [str(d) for d in lints.content_lints(source.topics[0], references=False)]


def test_a_stem_leak_is_reported_unless_the_topic_groups_the_two_questions(tmp_path):
    leak = {"q008": ("What performance does the Roofline model predict?", "What performance does the Roofline model predict for a 7 ms step?")}
    found = _bank_with(tmp_path / "a", leak)
    assert [line for line in found if "q008" in line and "q015" in line and ":4:" in line], found
    grouped = _bank_with(tmp_path / "b", leak, "groups:\n  - questions: [q008, q015]\n    reason: the stem names the bound\n")
    assert not [line for line in grouped if "q008" in line and "q015" in line], grouped


def test_a_text_repeating_what_its_own_stem_shows_is_not_reported_again(tmp_path):
    found = _bank_with(tmp_path, {
        "q041": ("explanation: >-\n", "explanation: >-\n  A step of about 7 ms is typical.\n"),
        "q042": ("explanation: >-\n", "explanation: >-\n  A step of about 7 ms is typical.\n"),
        "q043": ("explanation: >-\n", "explanation: >-\n  A step of about 7 ms is typical.\n"),
    })
    assert len([line for line in found if "q015" in line and "q04" in line]) == 3, found
    with_stem = _bank_with(tmp_path / "b", {
        "q041": ("explanation: >-\n", "explanation: >-\n  A step of about 7 ms is typical.\n"),
        "q008": [("What performance does the Roofline model predict?", "What performance does the Roofline model predict for a 7 ms step?"),
                 ("explanation: >-\n", "explanation: >-\n  A step of about 7 ms is typical.\n")],
    })
    q008 = [line for line in with_stem if "q008" in line and "q015" in line]
    assert len(q008) == 1 and ":4:" in q008[0], with_stem  # the stem only, none of the texts that repeat it


def test_the_bundled_bank_has_no_answer_leak():
    from conftest import REPO

    from aistack_bank.load import read_library

    source = read_library(REPO / "bank")
    assert [str(d) for topic in source.topics for d in lints.content_lints(topic, references=False)] == []


def test_a_group_names_listed_questions_each_in_one_group(tmp_path):
    import shutil

    from conftest import REPO, topic_file

    from aistack_bank.rules.validate import validate_bank

    shutil.copytree(REPO / "bank", tmp_path / "bank")
    topic = topic_file(tmp_path)
    text = re.sub(r"# Questions a published stem.*?(?=\nquestions:)", "", topic.read_text(encoding="utf-8"), flags=re.S)
    topic.write_text(text + "groups:\n  - questions: [q004, q999]\n    reason: one\n  - questions: [q004, q005]\n    reason: two\n", encoding="utf-8")
    found = [str(d) for d in validate_bank(tmp_path / "bank", run_checks=False).diagnostics if d.code == "E380"]
    assert len(found) == 2, found
    assert re.search(r"topic\.yaml:\d+:\d+: error E380: group 1 names q999, which this topic does not list", found[0]), found
    assert "q004 is already in group 1" in found[1]


def test_stored_leak_findings_are_served_only_for_the_same_keys_and_texts(tmp_path):
    """The findings kept between runs: the same inputs give the stored result (even one the
    rule would not give now, which shows it was served), any changed key, term, text, field
    or question computes afresh; a damaged store is a miss."""
    from aistack_bank.cache.store import Store

    keys = {"q1": KeyInfo("the weight footprint grows with the context length of each request"), "q2": KeyInfo("About 14 GB")}
    texts = [LeakText("q2", ("stem",), "Here the weight footprint grows with the context length of each request, so?"),
             LeakText("q1", ("explanation",), "It needs about 14 GB."), LeakText("q1", ("stem",), "Nothing here.")]
    fresh = lints.leak_findings(keys, texts)
    assert [found for found, _ in fresh] == [("q2", ("stem",), "q1"), ("q1", ("explanation",), "q2")]
    assert lints.leak_findings(keys, texts, memo=True, scope=tmp_path) == fresh
    # plant a different result under the same inputs: served as stored
    store = Store("leaks", tmp_path, keep=1)
    stored_key = next(iter(store._load()))
    planted = [(("q1", ("stem",), "q2"), "its figure")]
    store.put(stored_key, planted)
    store.save()
    assert lints.leak_findings(keys, texts, memo=True, scope=tmp_path) == planted
    for changed_keys, changed_texts in [
        ({**keys, "q2": KeyInfo("About 15 GB")}, texts),
        ({**keys, "q2": KeyInfo("About 14 GB", ("footprint",))}, texts),
        (keys, [texts[0], LeakText("q1", ("explanation",), "It needs about 15 GB."), texts[2]]),
        (keys, [texts[0], LeakText("q1", ("feedback",), texts[1].text), texts[2]]),
        (keys, [texts[0], LeakText("q3", ("explanation",), texts[1].text), texts[2]]),
    ]:
        assert lints.leak_findings(changed_keys, changed_texts, memo=True, scope=tmp_path) == lints.leak_findings(changed_keys, changed_texts)
    assert lints.leak_findings(keys, texts, memo=True, scope=tmp_path) == fresh  # computed again, and stored
    store = Store("leaks", tmp_path, keep=1)
    store.put(next(iter(store._load())), [("not", "findings")])
    store.save()
    assert lints.leak_findings(keys, texts, memo=True, scope=tmp_path) == fresh


def _window(key: list[str], words: list[str]) -> bool:
    """The near-leak rule as it reads: a window of ``words`` at most four longer than ``key`` holds three quarters of its words."""
    need = -(-len(key) * lints.NEAR_SHARE // 1)
    return any(word in set(key) and len(set(key) & set(words[start:start + len(key) + 4])) >= need for start, word in enumerate(words))


def test_near_leaks_by_words_equal_the_window_test_on_every_key():
    """The word index and the count of shared words before the window test only skip work: on
    random keys and texts over a small vocabulary (so keys share words and windows nearly
    match), the keys found by their words are exactly those the window test finds when every
    key is tried on every text."""
    rng = random.Random(11)
    vocabulary = ["weights", "memory", "bandwidth", "kernel", "cache", "tokens", "batch", "tensor", "compute", "layer", "register", "latency"]
    for _ in range(40):
        keys = {f"q{n:03d}": KeyInfo(" ".join(rng.choices(vocabulary, k=rng.randint(3, 7)))) for n in range(1, 13)}
        texts = [LeakText(rng.choice([*keys, "q999"]), ("explanation",), " ".join(rng.choices(vocabulary, k=rng.randint(2, 14)))) for _ in range(30)]
        found = {(t.text, t.question_id, qid) for t, qid, what in near_leaks(keys, texts) if what == "most of its words"}
        expected = set()
        for t in texts:
            words = lints._content(t.text)
            for qid, info in keys.items():
                key = list(dict.fromkeys(lints._content(info.text)))
                if qid != t.question_id and len(key) >= lints.NEAR_MIN_TERMS and not figure_of_key(info.text) and _window(key, words):
                    expected.add((t.text, t.question_id, qid))
        assert found == expected


def test_findings_kept_by_file_equal_the_findings_of_the_whole_topic_after_every_edit(tmp_path):
    """Random edits of a topic's texts and keys (a text changed, a key changed, given or taken
    away, a question added or removed), one after the other: the findings matched again only
    for the files whose texts changed (:func:`leak_findings_by_file`) are, as a set, the
    findings of the whole topic matched afresh, and the texts of an unchanged file are not read."""
    import hashlib

    rng = random.Random(5)
    vocabulary = ["weights", "memory", "bandwidth", "kernel", "cache", "tokens", "batch", "tensor", "compute", "layer", "14 GB", "7 ms"]

    def sentence(low: int, high: int) -> str:
        return " ".join(rng.choices(vocabulary, k=rng.randint(low, high)))

    keys = {f"q{n:02d}": KeyInfo(sentence(1, 9)) for n in range(12)}
    texts = {qid: [sentence(2, 20) for _ in range(3)] for qid in keys}
    read: list[str] = []

    def files():
        def reader(qid):
            read.append(qid)
            return [LeakText(qid, ("options", i, "text"), text) for i, text in enumerate(texts[qid])]
        return [(qid, hashlib.blake2b(repr(texts[qid]).encode()).digest(), lambda qid=qid: reader(qid)) for qid in texts]

    for round_ in range(60):
        change = rng.choice(["text", "text", "text", "key", "no key", "add", "remove", "none"])
        qid = rng.choice(sorted(texts))
        if change == "text":
            texts[qid][rng.randrange(3)] = sentence(2, 20) if rng.random() < 0.7 else keys[rng.choice(sorted(keys))].text + " " + sentence(0, 3)
        elif change == "key":
            keys[qid] = KeyInfo(sentence(1, 9))
        elif change == "no key":
            keys.pop(qid, None)
        elif change == "add":
            new = f"q{round_ + 50}"
            texts[new] = [sentence(2, 20) for _ in range(3)]
            keys[new] = KeyInfo(sentence(1, 9))
        elif change == "remove" and len(texts) > 3:
            del texts[qid]
            keys.pop(qid, None)
        read.clear()
        kept = lints.leak_findings_by_file(keys, files(), scope=tmp_path)
        all_texts = [LeakText(q, ("options", i, "text"), text) for q in texts for i, text in enumerate(texts[q])]
        assert sorted(kept) == sorted(lints.leak_findings(keys, all_texts)), (round_, change)
        if change == "none":
            assert read == []
        elif change == "text":
            assert read in ([], [qid])
