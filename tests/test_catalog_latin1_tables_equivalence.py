"""Three per-text steps of a catalog worker's checks made cheaper for texts of Latin-1 characters,
compared with the code before (spelled out here) on random and hostile texts.

- ``lints._lowered`` (the references lint's lowering of the joined translations and of each
  one ``may_refer`` reads) is ``str.lower``, through a Latin-1 text's bytes and a table;
  ``may_refer`` and ``_referring`` answer as with ``str.lower``.
- ``quantities.has_token_hint`` tells whether ``TOKEN_HINT`` finds a character, a Latin-1 text
  through its bytes and a table of flags (also the question files' parity sides).
- ``_rules.normalized`` (duplicate texts, in a catalog and in a question file) is NFKC, case
  folded, whitespace runs as one space: ASCII lowered, a Latin-1 text of characters each folded
  to one Latin-1 character through a table.

The texts mix Latin-1's every character with the hostile ones of case folding and
normalization: 'ß', 'İ', 'ı', 'ſ', the Kelvin sign, Greek sigmas (final and not), combining
marks (alone, after a space, after a letter), no-break spaces, fractions, ligatures, superscripts,
full-width letters and the digits of other scripts."""

from __future__ import annotations

import re
import unicodedata
from types import SimpleNamespace

from hypothesis import given, settings
from hypothesis import strategies as st

from aistack_bank.kinds._rules import normalized
from aistack_bank.rules import lints
from aistack_bank.rules.quantities import TOKEN_HINT, has_token_hint

HOSTILE = ["ß", "ẞ", "İ", "ı", "ſ", "\u212a", "Σ", "σ", "ς", "\u0301", "\u0307", "\u0308", " \u0308", "e\u0301", "\u00a0", "\u202f", "\u2009",
           "½", "¼", "ﬁ", "ĳ", "²", "³", "⁴", "·", "×", "µ", "ª", "º", "¨", "´", "¸", "¯", "Ａ", "٣", "०", "๓", "߁", "𝟘", "\u0660", "Ω", "Å",
           "\u2126", "\u212b", "’", "«\u00a0", "\u00a0»", "\t", "\n", "\x00", "\x85", "\u3000", "\U0001F600"]
WORDS = ["option", "OPTION", "Option", "réponse", "RÉPONSE", "proposition", "choix", "CHOIX", "question", "QUESTION", "q12", "Q٣", "optie",
         "antwoord", "keuze", "alternatief", "vraag", "VRAGEN", "answer", "choice", "above", "below", "the first option", "OPTİON", "QUESTİON",
         "ſ", "x / y", "10 %", "a^2", "{x}", "<b>", "3", "é", "É", "À", "ÿ", "Þ", "Ö", "cœur"]

latin1 = st.text(alphabet=st.characters(max_codepoint=255), max_size=40)
pieces = st.lists(st.one_of(st.sampled_from(HOSTILE), st.sampled_from(WORDS), st.characters(max_codepoint=255),
                            st.characters(), st.sampled_from([" ", "  ", "e", "E", "0"])), max_size=12).map("".join)
texts = st.one_of(latin1, pieces, st.text(max_size=30))


# --------------------------------------------------------------------------------------- before

def _may_refer_before(text: str, lang: str = "en") -> bool:
    lang = lints._language(lang)
    lowered = lints._MAY_REFER_LOWERED.get(lang)
    if lowered is not None:
        found = lowered.search(text.lower())
        if found is None:
            return False
        if found.group() not in lints._ODD_LOWERED:
            return True
    return lints._may_refer_folded(lints._folded(text), lang)


def _referring_before(current: list, lang: str) -> list:
    language = lints._language(lang)
    owned = [pair for pair in current if pair[0].question_id is not None]
    if language not in lints._MAY_REFER_LOWERED:
        return [pair for pair in owned if _may_refer_before(pair[1].msgstr, lang)]
    words, q_digit = lints._REFER_WORDS[language], lints._Q_DIGIT.search
    kept = []
    for start in range(0, len(owned), lints._REFERRING_BLOCK):
        block = owned[start:start + lints._REFERRING_BLOCK]
        lowered = "\0".join([entry.msgstr for _, entry in block]).lower()
        if (any(word in lowered for word in words) or ("q" in lowered and q_digit(lowered) is not None)
                or (not lowered.isascii() and any(odd in lowered for odd in lints._ODD_LOWERED))):
            kept += [pair for pair in block if _may_refer_before(pair[1].msgstr, lang)]
    return kept


def _has_token_hint_before(text: str) -> bool:
    return TOKEN_HINT.search(text) is not None


def _normalized_before(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


# ----------------------------------------------------------------------------------------- tests

def test_every_latin1_character_and_pair():
    """Each of the 256 characters alone, and every pair of them (a pair is where NFKC could
    compose or str.lower look at a neighbour)."""
    chars = [chr(code) for code in range(256)]
    for a in chars:
        assert lints._lowered(a) == a.lower()
        assert has_token_hint(a) == _has_token_hint_before(a), repr(a)
        assert normalized(a) == _normalized_before(a), repr(a)
        for b in chars:
            pair = a + b
            assert normalized(pair) == _normalized_before(pair), repr(pair)
            assert lints._lowered(pair) == pair.lower()


@settings(max_examples=max(400, settings.default.max_examples), deadline=None)  # (more with HYPOTHESIS_PROFILE=long)
@given(texts)
def test_same_answers_on_random_texts(text):
    assert lints._lowered(text) == text.lower()
    assert has_token_hint(text) == _has_token_hint_before(text)
    assert normalized(text) == _normalized_before(text)
    for lang in ("en", "fr", "nl", "de"):
        assert lints.may_refer(text, lang) == _may_refer_before(text, lang), lang


SIGMAS = ["ΑΣ\u202fΑ", "ΑΣ’Α", "ΑΣ\u202f’Α", "Σ\u202f", "\u202fΣ", "aΣ\u0301\u202fb", "ΑΣ\u00adΑ", "ΑΣ\u202f\u202fΑ", "Option\u202fB Σ", "é\u202fΣ\u202fé"]


def test_hostile_texts_one_by_one():
    for text in HOSTILE + WORDS + SIGMAS:
        for around in ("{}", "x{}y", " {} ", "É{}é", "{}\u00a0", "q{}"):
            case = around.format(text)
            assert lints._lowered(case) == case.lower()
            assert has_token_hint(case) == _has_token_hint_before(case), repr(case)
            assert normalized(case) == _normalized_before(case), repr(case)
            for lang in ("en", "fr", "nl"):
                assert lints.may_refer(case, lang) == _may_refer_before(case, lang), (case, lang)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(texts, st.booleans()), max_size=300), st.sampled_from(["en", "fr", "nl", "fr_CA", "de"]))
def test_referring_lets_through_the_same_translations(items, lang):
    current = [(SimpleNamespace(question_id=f"q{index}" if owned else None), SimpleNamespace(msgstr=text)) for index, (text, owned) in enumerate(items)]
    assert lints._referring(current, lang) == _referring_before(current, lang)


def test_the_tables_are_what_they_say():
    """The characters the Latin-1 paths leave to the code before are the ones whose fold is not
    one Latin-1 character, and TOKEN_HINT's Latin-1 characters are the digits and marks."""
    from aistack_bank.kinds import _rules
    from aistack_bank.rules import quantities

    assert sorted(set(range(256)) - set(_rules._PLAIN_LATIN1)) == [ord(c) for c in "¨¯´µ¸¼½¾ß"]
    assert "".join(sorted(set(map(chr, range(256))) - set(map(chr, quantities._NOT_LATIN1_HINTS)))) == "%/0123456789<^{²³·×"
    assert re.fullmatch(r"[a-zß-öø-ÿ]+", lints._lowered("ABCXYZÀÖØÞ" + "ß").replace("ß", "")) is not None
