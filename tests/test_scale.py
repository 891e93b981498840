"""The linear forms of rules that used to compare every question with every other one give
exactly the findings of the direct definition (kept here as the oracle)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from aistack_bank.rules.lints import LEAK_MIN_KEY_WORDS, LEAK_WORDS, LeakText, _words, answer_leaks


def _direct(keys: dict[str, str], texts: list[LeakText]) -> list[tuple[LeakText, str]]:
    """The rule as the docs state it: a run of LEAK_WORDS words of another question's key, or
    the whole key when it has at least LEAK_MIN_KEY_WORDS words."""
    def grams(words):
        return {tuple(words[i:i + LEAK_WORDS]) for i in range(len(words) - LEAK_WORDS + 1)}

    def contains(hay, needle):
        return any(hay[i:i + len(needle)] == needle for i in range(len(hay) - len(needle) + 1))

    found = []
    for item in texts:
        words = _words(item.text)
        for qid, key in keys.items():
            kw = _words(key)
            if qid == item.question_id or not kw:
                continue
            if grams(words) & grams(kw) or (len(kw) >= LEAK_MIN_KEY_WORDS and contains(words, kw)):
                found.append((item, qid))
    return found


VOCAB = ["the", "a", "GPU", "memory", "bound", "is", "ms", "2", "×", "tokens", "de", "la"]
sentence = st.lists(st.sampled_from(VOCAB), min_size=0, max_size=14).map(" ".join)


@given(st.dictionaries(st.sampled_from(["q1", "q2", "q3", "q4", "q5"]), sentence, max_size=5),
       st.lists(st.tuples(st.sampled_from(["q1", "q2", "q3", "q9"]), sentence), max_size=8))
def test_indexed_answer_leaks_equal_the_direct_rule(keys, raw_texts):
    texts = [LeakText(qid, ("explanation",), text) for qid, text in raw_texts]
    # a text that quotes a key outright, so every run is exercised
    texts += [LeakText("q9", ("stem",), f"so {key} indeed") for key in keys.values()]
    assert answer_leaks(keys, texts) == _direct(keys, texts)
