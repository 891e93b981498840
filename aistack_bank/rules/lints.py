"""Editorial lints: defects a careful reader would not publish, caught before they come back.

* W320: a stem, option, feedback or explanation names an option by its letter or position
  ("option a", "l'option b", "optie c", "the first option"). Every export shuffles the options
  (QTI ``shuffle="true"``, Moodle ``shuffleanswers``, the practice site), so letters and
  positions mean nothing to the learner.
* W321: a text refers to another question ("the previous question", "question 3", "la question
  précédente", "de vorige vraag"). LMS quizzes and the practice site draw questions at random,
  so every question must stand alone.
* W322: an option, feedback or explanation of one question contains the correct option of
  another (normalised text, a run of at least :data:`LEAK_WORDS` words, or the whole key when it
  has at least :data:`LEAK_MIN_KEY_WORDS` words). A learner who meets both questions gets the
  second one's answer for free.

The same rules run on the English (located in the question file) and, for W320 and W321, on
every translation (located in the catalog), with the wording of each language.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from dataclasses import dataclass
from functools import lru_cache
from collections import Counter
from itertools import chain, compress, count, filterfalse, repeat
from operator import attrgetter, itemgetter, methodcaller
from typing import TYPE_CHECKING, NamedTuple

from ..errors import Diagnostic, Location, warning

if TYPE_CHECKING:
    from ..load import BankSource, FileSummary, QuestionSource
    from ..yamlsource import YamlDocument

LETTERS = "a-j"
"""Option ids a question may have: up to ten options in a multiple-response question."""

LEAK_WORDS = 8
"""A run of this many consecutive words of another question's key counts as a leak."""
LEAK_MIN_KEY_WORDS = 5
"""A key of at least this many words that appears whole in another question counts as a leak."""

_ORDINALS = {
    "en": r"first|second|third|fourth|fifth|sixth|last|previous|next|preceding|following",
    "fr": r"premi[eè]re?|deuxi[eè]me|seconde?|troisi[eè]me|quatri[eè]me|cinqui[eè]me|derni[eè]re?|pr[ée]c[ée]dente?|suivante?",
    "nl": r"eerste|tweede|derde|vierde|vijfde|laatste|vorige|volgende|voorgaande",
}

# "option a", "options a, c and d", "answer (b)", "choice b)".
_LETTER_REF = {
    "en": rf"\b(?:options?|answers?|choices?|alternatives?)\s+\(?([{LETTERS}])\)?(?![\w'’-])",
    "fr": rf"\b(?:options?|propositions?|réponses?|choix)\s+\(?([{LETTERS}])\)?(?![\w'’-])",
    "nl": rf"\b(?:opties?|antwoorden?|antwoord|keuzes?|alternatieven?|alternatief)\s+\(?([{LETTERS}])\)?(?![\w'’-])",
}
# "the first option", "la dernière proposition", "de tweede optie", "all of the above".
_POSITION_REF = {
    "en": rf"\b(?:the\s+(?:{_ORDINALS['en']})\s+(?:option|answer|choice)s?|(?:all|none|both)\s+of\s+the\s+(?:above|below)|(?:option|answer)s?\s+(?:above|below))\b",
    "fr": rf"\b(?:(?:la|les|l[’'])\s*(?:{_ORDINALS['fr']})s?\s+(?:option|proposition|réponse)s?|(?:option|proposition|réponse)s?\s+ci-(?:dessus|dessous)|toutes?\s+les\s+(?:options|propositions|réponses)\s+ci-dessus)",
    "nl": rf"\b(?:(?:de|het)\s+(?:{_ORDINALS['nl']})\s+(?:optie|antwoord|keuze)s?|(?:optie|opties|antwoord|antwoorden)\s+hier(?:boven|onder)|alle\s+bovenstaande\s+(?:opties|antwoorden))\b",
}
# Words after "a" that show it is the English article or the French verb, not a letter.
_NOT_A_LETTER_AFTER_A = re.compile(r"\s+(?!and\b|or\b|et\b|ou\b|en\b|of\b|is\b|are\b|was\b|est\b|sont\b|is\b)[^\W\d_]{2,}")

_QUESTION_REF = {
    "en": r"\b(?:(?:the\s+)?(?:previous|preceding|next|following|earlier|last|above|former|other)\s+questions?|questions?\s+(?:above|before|q?\d+)|q\d{3,}\b|(?:in|see|from)\s+question\s+\d+)",
    "fr": r"\b(?:questions?\s+(?:pr[ée]c[ée]dentes?|suivantes?|ant[ée]rieures?|ci-dessus|q?\d+)|(?:pr[ée]c[ée]dente|derni[eè]re)\s+question|q\d{3,}\b)",
    "nl": r"\b(?:(?:vorige|voorgaande|volgende|eerdere|laatste|andere)\s+vra(?:ag|gen)|vra(?:ag|gen)\s+(?:hierboven|q?\d+)|q\d{3,}\b)",
}

_COMPILED = {
    kind: {lang: re.compile(p, re.IGNORECASE) for lang, p in table.items()}
    for kind, table in (("letter", _LETTER_REF), ("position", _POSITION_REF), ("question", _QUESTION_REF))
}


# Words one of which every match of a pattern holds (its letters lower case): a text holding none
# of them (nearly every text) is not scanned with that pattern. Each is looked for in the text
# lowered as the patterns' IGNORECASE compares it (:func:`_folded`); W321's ``q\d{3,}`` needs a
# "q" before a digit (:data:`_Q_DIGIT`).
_NEEDS = {
    "letter": {"en": ("option", "answer", "choice", "alternative"), "fr": ("option", "proposition", "réponse", "choix"),
               "nl": ("optie", "antwoord", "keuze", "alternatie")},
    "position": {"en": ("option", "answer", "choice", "above", "below"), "fr": ("option", "proposition", "réponse"),
                 "nl": ("optie", "antwoord", "keuze")},
    "question": {"en": ("question",), "fr": ("question",), "nl": ("vraag", "vragen")},
}
_Q_DIGIT = re.compile(r"q\d")
# What every match of the position pattern holds besides (:data:`_POSITION_ORDINALS`) or instead
# of (:data:`_POSITION_ALONE`) a word of :data:`_NEEDS`: "the first option" needs an ordinal and
# the word option, "all of the above" and "the option below" need "above" or "below" (French
# "ci-dessus"/"ci-dessous", Dutch "hierboven"/"hieronder", "bovenstaande"). Many texts say
# "option" (a feedback, an explanation), few with an ordinal: most are then not scanned for it.
_POSITION_ORDINALS = {
    "en": ("first", "second", "third", "fourth", "fifth", "sixth", "last", "previous", "next", "preceding", "following"),
    "fr": ("premi", "deuxi", "second", "troisi", "quatri", "cinqui", "derni", "dent", "suivant"),  # (pr[ée]c[ée]dente?: "dent")
    "nl": ("eerste", "tweede", "derde", "vierde", "vijfde", "laatste", "vorige", "volgende", "voorgaande"),
}
_POSITION_ALONE = {"en": ("above", "below"), "fr": ("ci-dess",), "nl": ("hier", "bovenstaande")}
# The only characters an IGNORECASE pattern takes for a letter of these words that str.lower()
# does not lower to it: dotted capital I ("i" and a combining dot), dotless i and long s.
_ODD_FOLD = {0x130: "i", 0x131: "i", 0x17F: "s"}


def _folded(text: str) -> str:
    """``text`` lowered so that a word an IGNORECASE pattern finds in ``text`` is in it as written."""
    if not text.isascii() and ("\u0130" in text or "\u0131" in text or "\u017f" in text):  # (_ODD_FOLD's three: three searches, faster than a class)
        text = text.translate(_ODD_FOLD)
    return text.lower()


_MAY_REFER = {lang: re.compile("|".join(sorted({re.escape(word) for table in _NEEDS.values() for word in table[lang]})) + r"|q\d")
               for lang in _NEEDS["letter"]}
"""Per language, one pattern of every word of :data:`_NEEDS` and :data:`_Q_DIGIT`: a lowered
text it does not find in can match none of the reference patterns (:func:`may_refer`)."""


_ODD_LOWERED = ("\u0307", "\u0131", "\u017f")
"""What the characters :func:`_folded` replaces leave in a text lowered by ``str.lower`` alone:
the combining dot of a dotted capital I lowered ("i" and U+0307), a dotless i, a long s."""
_MAY_REFER_LOWERED = {lang: re.compile(pattern.pattern + "|" + "|".join(_ODD_LOWERED)) for lang, pattern in _MAY_REFER.items()
                      if not any(word.endswith("i") or any(odd in word for odd in _ODD_LOWERED) for table in _NEEDS.values() for word in table[lang])}
"""Per language, :data:`_MAY_REFER` or a character of :data:`_ODD_LOWERED`, for a text lowered
by ``str.lower`` alone (see :func:`may_refer`; only for a language none of whose words ends in
"i" or holds one of those characters)."""


_LATIN1_LOWER = bytes(ord(chr(code).lower()) for code in range(256))
"""For ``bytes.translate`` of a text's Latin-1 bytes: each character lowered as ``str.lower``
lowers it (each of the 256 lowers to one character of them)."""


def _lowered(text: str, split: bool = True) -> str:
    """``text.lower()``, the same string: a text of Latin-1 characters only (nearly every
    translation, French with its accents and no-break spaces) through its bytes and one table
    (:data:`_LATIN1_LOWER`: three passes in C, instead of ``str.lower``'s look-up of each
    character's full lowering when the text is not ASCII); one with narrow no-break spaces
    (French typography's, the only character above U+00FF of most French texts) a part
    between them at a time (``split``), each part as a text; another as ``str.lower`` does.
    ``str.lower`` lowers each character alone, the narrow no-break space to itself; only the
    Greek capital sigma looks at its neighbours, it is no Latin-1 character, and its look stops
    at a narrow no-break space (neither cased nor case-ignorable) as at a text's end."""
    try:
        raw = text.encode("latin-1")
    except UnicodeEncodeError:
        if split and "\u202f" in text:
            return "\u202f".join([_lowered(part, False) for part in text.split("\u202f")])
        return text.lower()
    return raw.translate(_LATIN1_LOWER).decode("latin-1")


def may_refer(text: str, lang: str = "en") -> bool:
    """False when :func:`reference_hits` of ``text`` in ``lang`` finds nothing, whatever its
    other arguments (one search of the lowered text; True: it may find something). No word
    looked for holds a space, so the non-breaking spaces need no replacing first.

    The text is lowered by ``str.lower`` and searched once for a word, a "q" before a digit or
    a character :func:`_folded` would have replaced (:data:`_MAY_REFER_LOWERED`): nothing found,
    the text holds none of those characters, its lowered and folded forms are the same, and
    nothing would be found in the folded one either; a word or a "q" and digit found first, the
    characters it is made of are lowered alike in both (the dotted capital I's "i" can end no
    word: none ends in "i"), so it is in the folded text too; such a character found first, the
    folded text is searched as before."""
    lang = _language(lang)
    lowered = _MAY_REFER_LOWERED.get(lang)
    if lowered is not None:
        found = lowered.search(_lowered(text))
        if found is None:
            return False
        if found.group() not in _ODD_LOWERED:
            return True
    return _may_refer_folded(_folded(text), lang)


def _may_match(kind: str, lang: str, folded: str) -> bool:
    """False when the pattern ``kind`` of ``lang`` cannot match the text lowered as ``folded``."""
    if kind == "letter":  # (every match starts with a word of _NEEDS: tried there alone, not at every place)
        match, find = _LETTER_FOLDED[lang].match, folded.find
        for word in _NEEDS[kind][lang]:
            at = find(word)
            while at >= 0:
                if match(folded, at) is not None:
                    return True
                at = find(word, at + 1)
        return False
    if kind == "position":
        return (_holds_one(folded, _POSITION_ALONE[lang])
                or (_holds_one(folded, _NEEDS[kind][lang]) and _holds_one(folded, _POSITION_ORDINALS[lang])))
    return _holds_one(folded, _NEEDS[kind][lang]) or (kind == "question" and _Q_DIGIT.search(folded) is not None)


def _holds_one(text: str, words: tuple[str, ...]) -> bool:
    """``any(word in text for word in words)``, by a loop (no generator made and resumed, then
    closed when it stops early)."""
    for word in words:
        if word in text:
            return True
    return False


_LETTER_FOLDED = {lang: re.compile(pattern.replace(r"\b", "", 1).replace("(?![\\w'’-])", "(?![a-z])")) for lang, pattern in _LETTER_REF.items()}
"""The letter pattern of each language, case-sensitive, for the text lowered by :func:`_folded`
(which keeps each character in its place): where the case-insensitive pattern matches the text,
this one matches the lowered text (a word of :data:`_NEEDS`, its letters lowered, the same
spaces and brackets, a letter a to j lowered, then no letter a to z: only a character that is a
word character lowers to one). "option" followed by a word ("the wrong option claims") is
then refused without the case-insensitive scan. Each of its matches starts with a word of
:data:`_NEEDS` (``letter``) and it looks at nothing before its start: :func:`_may_match` tries
it where those words are, which finds a match exactly when a search of the text does."""


_REFER_WORDS = {lang: tuple(sorted({word for table in _NEEDS.values() for word in table[lang]})) for lang in _NEEDS["letter"]}
"""Per language, every word of :data:`_NEEDS`: the words of :data:`_MAY_REFER` besides ``q\\d``."""


def _may_refer_folded(folded: str, lang: str) -> bool:
    """Whether :data:`_MAY_REFER` of ``lang`` (a language of the tables) finds a match in the
    lowered text ``folded``: a substring test of each of its words, then :data:`_Q_DIGIT` only in
    a text with a "q" (the same answer as the pattern's search, which tries each word at each
    place one could start: a third cheaper on the bank's texts, nearly all of which hold none)."""
    for word in _REFER_WORDS[lang]:
        if word in folded:
            return True
    return "q" in folded and _Q_DIGIT.search(folded) is not None


@dataclass(frozen=True)
class Hit:
    """One lint finding inside a text: its code, message and character offset."""

    code: str
    message: str
    offset: int


def _language(lang: str) -> str:
    return lang if lang in _LETTER_REF else "en"


def _clean(text: str) -> str:
    return text.replace("\u00a0", " ").replace("\u202f", " ")


def reference_hits(text: str, lang: str = "en", *, own_id: str | None = None, options: bool = True) -> list[Hit]:
    """W320 and W321 findings in one text written in ``lang``.

    ``options`` is False for a question without lettered options (true-false, numerical,
    short-answer, matching): W320 is then not looked for."""
    lang = _language(lang)
    text = _clean(text)
    folded = _folded(text)
    if not _may_refer_folded(folded, lang):
        return []
    letter = options and _may_match("letter", lang, folded)
    position = options and _may_match("position", lang, folded)
    question = _may_match("question", lang, folded)
    if not (letter or position or question):
        return []
    hits = []
    for match in (_COMPILED["letter"][lang].finditer(text) if letter else ()):
        if match.group(1).lower() == "a" and _NOT_A_LETTER_AFTER_A.match(text, match.end()):
            continue  # "an option a learner picks", "la proposition a été"
        hits.append(Hit("W320", f"refers to an option by its letter ({match.group(0)!r}); options are shuffled in every export, so name the idea instead", match.start()))
    for match in (_COMPILED["position"][lang].finditer(text) if position else ()):
        hits.append(Hit("W320", f"refers to an option by its position ({match.group(0)!r}); options are shuffled in every export, so name the idea instead", match.start()))
    for match in (_COMPILED["question"][lang].finditer(text) if question else ()):
        if own_id is not None and match.group(0).lower() == own_id.lower():
            continue
        hits.append(Hit("W321", f"refers to another question ({match.group(0)!r}); questions are drawn at random, so each must stand alone", match.start()))
    return sorted(hits, key=lambda h: h.offset)


# ----------------------------------------------------------------------------- answer leaks

_WORD = re.compile(r"[^\W_]+(?:[.,'’][^\W_]+)*|[²³×÷→≈∝]")
_PLAIN_WORD = re.compile(r"[^\W_]+(?:[.,'’][^\W_]+)*")
""":data:`_WORD` in a text without its symbols (most texts: the same words, found faster)."""
_SYMBOL = re.compile(r"[²³×÷→≈∝]")


def _words(text: str) -> list[str]:
    return _words_of(_normal(text))


def _normal(text: str) -> str:
    """``text`` as the leak rules read it: non-breaking spaces as spaces, in NFKC."""
    return unicodedata.normalize("NFKC", _clean(text))


_ASCII_LOWER_SPACED = bytes((c | 0x20 if chr(c).isupper() else c) if chr(c) in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.,'" else 0x20
                            for c in range(128)) + b" " * 128
"""For ``bytes.translate`` of an ASCII text: its letters lowered (its case folding), and every
character that is neither a letter, a digit nor a joiner of :data:`_PLAIN_WORD` (``.``, ``,``,
``'``) made a space."""
_ASCII_JOINERS_SPACED = _ASCII_LOWER_SPACED.translate(bytes.maketrans(b".,'", b"   "))
""":data:`_ASCII_LOWER_SPACED` with the joiners made spaces too."""
_ASCII_CLASSES = bytes(ord("a") if chr(c).isalnum() else ord(".") if chr(c) in ".,'" else 0x20 for c in range(128)) + b" " * 128
"""For ``bytes.translate`` of an ASCII text: each letter or digit an ``a``, each joiner a ``.``,
anything else a space (where a joiner stands between two letters or digits: ``a.a``)."""
_ASCII_LONE_JOINER = re.compile(r"[.,'](?:(?![a-z0-9])|(?<![a-z0-9].))")
"""A joiner without a letter or digit on one of its sides (a word's end, a double joiner)."""


def _words_of(normal: str) -> list[str]:
    """The words of a text read by :func:`_normal`, case folded.

    An ASCII text (nearly every one; and a text whose case folding is ASCII) is read by
    :func:`_ascii_words`; any other by the pattern, with the symbols when it holds one."""
    if normal.isascii():
        return _ascii_words(normal)
    folded = normal.casefold()
    if folded.isascii():
        return _ascii_words(folded)
    if _SYMBOL.search(folded) is None:
        return _PLAIN_WORD.findall(folded)
    return _WORD.findall(folded)


def _ascii_words(text: str) -> list[str]:
    """:data:`_PLAIN_WORD`'s words of the ASCII ``text`` case folded (lowered), without a pattern
    over its characters: in ASCII, case folding is lowering, and the words are the runs of
    letters and digits joined by single joiners (``.``, ``,``, ``'``) between two of them.

    The text's bytes are translated (in C) to spaces around the words, and split. Where no
    joiner stands between two letters or digits (its classes, :data:`_ASCII_CLASSES`, hold no
    ``a.a``: most texts), every joiner is a space too. Otherwise the lone joiners (at an end,
    or beside a space) are made spaces by replacing each joiner and space pair, when no two
    joiners stand together (``..``: a lone joiner beside another is then not beside a space),
    else by the pattern of the lone joiners."""
    raw = text.encode("ascii")
    classes = raw.translate(_ASCII_CLASSES)
    if classes.find(b"a.a") < 0:  # (bytes.find: ``in`` tries the bytes as an integer first)
        return raw.translate(_ASCII_JOINERS_SPACED).decode("ascii").split()
    spaced = raw.translate(_ASCII_LOWER_SPACED)
    if classes.find(b"..") >= 0:
        return _ASCII_LONE_JOINER.sub(" ", spaced.decode("ascii")).split()
    spaced = spaced.strip(b".,'").replace(b". ", b"  ").replace(b", ", b"  ").replace(b"' ", b"  ").replace(b" .", b"  ").replace(b" ,", b"  ").replace(b" '", b"  ")
    return spaced.decode("ascii").split()


def _read(text: str) -> tuple[str, list[str]]:
    """``text`` read by :func:`_normal`, and its words (an ASCII text is its own NFKC form, and
    holds no non-breaking space: it is taken as it is)."""
    if text.isascii():
        return text, _ascii_words(text)
    normal = _normal(text)
    return normal, _words_of(normal)


def _ngrams(words: list[str], size: int) -> set[tuple[str, ...]]:
    return {tuple(words[i:i + size]) for i in range(len(words) - size + 1)}


class LeakText(NamedTuple):
    """A text that may leak an answer: which question and field it belongs to (a named tuple:
    a bank has ten of them per question, made on every cold run)."""

    question_id: str
    field: tuple
    text: str


def answer_leaks(keys: dict[str, str], texts: list[LeakText]) -> list[tuple[LeakText, str]]:
    """(text, id of the question whose key it contains) for every leak.

    ``keys`` maps question ids to the text of their correct option; each text is compared
    with the keys of the *other* questions. The keys are indexed by their runs of
    :data:`LEAK_WORDS` words, and the shorter keys that count whole (from
    :data:`LEAK_MIN_KEY_WORDS` words on; a longer key found whole also shares a run) by their
    first words, so each text costs two look-ups per word instead of one comparison per key:
    the bank's size does not multiply.
    """
    match = _run_matcher(keys)
    found = []
    for item in texts:
        found += match(item, _words(item.text))
    return found


def _run_matcher(keys: dict[str, str], read=_read):
    """:func:`answer_leaks` of one text (given with its words), with the keys indexed once.

    Each run of a key (and each short key) is also filed under its anchor, the word of it that
    the fewest keys hold: a text can hold the run only if it holds that word, so a text is
    matched only when its words include the anchor of another question's key; most texts hold
    none, and cost one intersection of sets. What a text matches is kept by its text (the same
    text in several questions is matched once). ``read`` gives a text's :func:`_read`."""
    anchors, all_hits = _run_rule(keys, read)
    anchor_words = frozenset(anchors)
    matched: dict[str, list[str]] = {}

    def match(item: LeakText, words: list[str]) -> list[tuple[LeakText, str]]:
        if len(words) < LEAK_MIN_KEY_WORDS:
            return []
        own = item.question_id
        for word in anchor_words.intersection(words):
            qids = anchors[word]
            if len(qids) > 1 or own not in qids:
                break
        else:  # no anchor of another question's key: nothing to match
            return []
        hits = matched.get(item.text)
        if hits is None:
            hits = matched[item.text] = all_hits(words)
        return [(item, qid) for qid in hits if qid != own]

    return match


def _run_rule(keys: dict[str, str], read=_read, met: Counter | None = None):
    """The keys indexed for the rule of runs of words: (the keys by anchor word, see
    :func:`_run_index`; the ids, in the order of ``keys``, of the keys whose runs (or whole
    short key) a text's words hold, its own included). Only a text that holds an anchor of a
    key can hold that key's run: the caller refuses the others. ``met``: see :func:`_run_index`.

    The keys' runs (:func:`_run_runs`) are filed at the first text matched, not before: the
    screen needs only the anchors, and most texts (all, in a bank without a leak) get no
    further than the screen."""
    anchors = _run_anchors([(qid, read(text)[1]) for qid, text in keys.items()], met)
    order = {qid: i for i, qid in enumerate(keys)}
    runs: list[dict] = []  # (by_run, shared_runs, by_start, once filed)

    def all_hits(words: list[str]) -> list[str]:
        if not runs:  # (the keys read again: ``read`` keeps what it read)
            runs.extend(_run_runs([(qid, read(text)[1]) for qid, text in keys.items()]))
        by_run, shared_runs, by_start = runs
        hits: set[str] = set()
        # The text's runs are looked up in the index as they are made (in C, each hashed once,
        # no set of them: a run met twice adds nothing); the runs that start a short key are
        # then matched at their positions alone.
        if by_run and len(words) >= LEAK_WORDS:
            for gram in filter(by_run.__contains__, zip(*map(words.__getitem__, _RUN_SLICES))):
                hits.add(by_run[gram])
                hits.update(shared_runs.get(gram, ()))
        if by_start and len(words) >= LEAK_MIN_KEY_WORDS:
            for i in compress(count(), map(by_start.__contains__, zip(*map(words.__getitem__, _START_SLICES)))):
                for qid, key_words in by_start[tuple(words[i:i + LEAK_MIN_KEY_WORDS])]:
                    if words[i:i + len(key_words)] == key_words:
                        hits.add(qid)
        return sorted(hits, key=order.__getitem__)

    return anchors, all_hits


def _run_index(keys: dict[str, str], read=_read, met: Counter | None = None):
    """The index of :func:`_run_matcher`: (each key's place, the key by each run of
    :data:`LEAK_WORDS` words of a key (the first key that has it), the other keys that have a
    run (the few runs several keys share), the short keys by their first
    :data:`LEAK_MIN_KEY_WORDS` words, the keys by anchor word).

    A key's anchors are the rarest word of each of its runs (and of the key, when short), by a
    rank of the words by how many keys hold them (:func:`_ranked`): ranked once, each key's
    words are their ranks, and its anchors the least ranks of its runs (:func:`_least_of_runs`).
    A key's runs are filed under it together (a dictionary of them, in C), not one by one.

    With ``met`` (how many times the texts to match hold each word), words that as many keys
    hold are ranked by it, the fewest first, rather than in the order of the keys: in a topic of
    a hundred keys most words are held by one key, and the first of a run's in that order is
    often a common word (one that many texts hold), where a name of the question's is not.
    Which word of a run is its anchor changes no finding; fewer texts hold a rarer one."""
    read_keys = [(qid, read(text)[1]) for qid, text in keys.items()]
    return {qid: i for i, qid in enumerate(keys)}, *_run_runs(read_keys), _run_anchors(read_keys, met)


def _run_runs(read_keys: list[tuple[str, list[str]]]):
    """The runs of :func:`_run_index` ((id, words) of each key, in order): (the key by each
    run, the other keys that have a run, the short keys by their first words)."""
    by_run: dict[tuple[str, ...], str] = {}
    shared_runs: dict[tuple[str, ...], list[str]] = {}
    by_start: dict[tuple[str, ...], list[tuple[str, list[str]]]] = {}
    for qid, words in read_keys:
        if len(words) >= LEAK_WORDS:
            grams = _grams(words, LEAK_WORDS)
            if not by_run.keys().isdisjoint(grams):
                for gram in by_run.keys() & grams:
                    shared_runs.setdefault(gram, []).append(qid)
                grams.difference_update(by_run.keys())
            by_run.update(dict.fromkeys(grams, qid))
        elif len(words) >= LEAK_MIN_KEY_WORDS:
            by_start.setdefault(tuple(words[:LEAK_MIN_KEY_WORDS]), []).append((qid, words))
    return by_run, shared_runs, by_start


def _run_anchors(read_keys: list[tuple[str, list[str]]], met: Counter | None = None) -> dict[str, tuple[str, ...]]:
    """The keys by anchor word of :func:`_run_index` ((id, words) of each key, in order)."""
    frequency = Counter(chain.from_iterable(dict.fromkeys(words) for _, words in read_keys))
    if met is not None:  # (equally rare words by how often the texts hold them: _ranked's sort is stable)
        frequency = {word: frequency[word] for word in sorted(frequency, key=met.__getitem__)}
    ranked, rank = _ranked(frequency)
    anchors: dict[str, list[str]] = {}
    for qid, words in read_keys:
        if len(words) >= LEAK_MIN_KEY_WORDS:
            ranks = list(map(rank.__getitem__, words))
            for least in (_least_of_runs(ranks, LEAK_WORDS) if len(words) >= LEAK_WORDS else (min(ranks),)):
                qids = anchors.get(ranked[least])
                if qids is None:
                    anchors[ranked[least]] = [qid]
                else:
                    qids.append(qid)
    return {word: tuple(qids) for word, qids in anchors.items()}  # (tuples: smaller than lists)


def _least_of_runs(ranks: list[int], size: int) -> set[int]:
    """The least of each run of ``size`` consecutive ``ranks`` (at least ``size`` of them).

    The least of the whole list is the least of every run that holds it; the other runs lie
    wholly on one side of it, and are found the same way in that part (when it is that long):
    a few ``min`` of a list, in C, in place of one per run."""
    found: set[int] = set()
    parts = [(0, len(ranks))]
    budget = len(ranks) * size  # (ranks that only rise split one at a time: past what a sliding window reads, its way)
    while parts:
        if budget <= 0:
            for start, end in parts:
                found.update(map(min, zip(*(ranks[k:end] for k in range(start, start + size)))))
            break
        start, end = parts.pop()
        budget -= end - start
        least = min(ranks[start:end]) if start or end < len(ranks) else min(ranks)
        found.add(least)
        at = ranks.index(least, start, end)
        if at - start >= size:
            parts.append((start, at))
        if end - at - 1 >= size:
            parts.append((at + 1, end))
    return found


def _ranked(frequency: dict[str, int]) -> tuple[list[str], dict[str, int]]:
    """The words of ``frequency`` from the fewest keys to the most (words held by as many keys
    in the order of ``frequency``: the first key's words first, each in its order), and each
    word's place in that list. Which of two equally rare words is taken changes no finding
    (any word of a run stands for it, any words of a key beyond the share stand for it);
    sorting by the count alone, stable, is about twenty times cheaper than by (count, word)."""
    ranked = sorted(frequency, key=frequency.__getitem__)
    return ranked, dict(zip(ranked, range(len(ranked))))


def _grams(words: list[str], size: int) -> set[tuple[str, ...]]:
    """Every run of ``size`` consecutive words (as :func:`_ngrams`, built in C)."""
    return set(zip(*map(words.__getitem__, _RUN_SLICES if size == LEAK_WORDS else [slice(k, None) for k in range(size)])))


_RUN_SLICES = tuple(slice(k, None) for k in range(LEAK_WORDS))
"""A list of words from each of its first :data:`LEAK_WORDS` places: zipped, its runs."""
_START_SLICES = tuple(slice(k, None) for k in range(LEAK_MIN_KEY_WORDS))
"""A list of words from each of its first :data:`LEAK_MIN_KEY_WORDS` places: zipped, its runs of that many."""


# ----------------------------------------------------------------------------- near leaks

# Besides runs of words (:func:`answer_leaks`), three rules find a key said again in other words:
# a key that is a figure (its numbers with their units), a key said again with its content words
# in another order or inflection, and the terms an author declares as giving a key away.

_HEDGES = frozenset("about roughly approximately around nearly almost some ~ ≈".split())
_NUMBER_UNIT = re.compile(
    r"(?<![\w.,])(\d+(?:[.,]\d+)?)(?:\s|\u00a0|\u202f)?"
    r"(%|[A-Za-zµμ]+(?:/[A-Za-z]+)?)(?![\w/])")
_FORMULA = re.compile(r"(?<![\w.])(\d*[A-Z]{1,3}[²³]?)(?![\w])")
_DIGIT = re.compile(r"\d")
_DIGIT_CAPITAL = re.compile(r"\d[A-Z]")

STOPWORDS = frozenset("""
a an the of to in on for and or but nor so as at by with from into onto than then that this these
those it its is are was were be been being has have had do does did not no can could may might
must shall should will would each every any all some more most less least only just about roughly
very much many few such other another one its their they them there here which what when where
why how who whom whose while since because if yet also both either neither same own per up down
out over under again further once right this
""".split())
NEAR_SHARE = 0.75
"""A text holding this share of a key's content words, close together, restates it."""
NEAR_MIN_TERMS = 4
"""Keys with fewer content words are matched by their runs and figures only."""


@lru_cache(maxsize=1 << 17)  # a bank's texts reuse few words many times
def _stem(word: str) -> str:
    """A crude English stem, enough to match "fuses", "fused" and "fusing"."""
    if len(word) < 5:  # (too short for a suffix to go, or an "e")
        return word
    if word.endswith(_SUFFIXES):  # one test in C first: most words end in none of them
        for suffix in _SUFFIXES:
            if word.endswith(suffix) and len(word) - len(suffix) >= 4:
                word = word[: -len(suffix)]
                break
    return word[:-1] if word.endswith("e") and len(word) >= 5 else word


_SUFFIXES = ("ically", "ations", "ation", "ingly", "ing", "edly", "ed", "es", "s", "ly")
"""What :func:`_stem` takes off a word, the first that ends it and leaves four letters."""
_STEM_ENDS = (*_SUFFIXES, "e")
"""How a word that :func:`_stem` shortens ends (any other word is its own stem)."""
_SUFFIX_REVERSED = re.compile("^(?:" + "|".join(suffix[::-1] for suffix in _SUFFIXES) + ")(?=.{4})", re.MULTILINE)
"""In reversed words, one a line: the first of :data:`_SUFFIXES` (in their order) that starts
one and leaves four characters of it after (a suffix of a word that ends in several is the
longer first, so this is the longest)."""
_E_REVERSED = re.compile("^e(?=.{4})", re.MULTILINE)
"""In reversed words, one a line: an "e" that starts one of five characters or more."""


def _content_words(words: set[str]) -> list[str]:
    """The words of ``words`` (a set, emptied of the stop words) that are neither a stop word
    nor all digits: those the answer-leak lint files under their stems."""
    words.difference_update(STOPWORDS)
    return list(filterfalse(str.isdigit, words))


def _shortened_stems(words) -> zip:
    """(word, stem) of each of ``words`` that can lose an ending (:data:`_STEM_ENDS`), their
    stems taken together (:func:`_stems`); any other word is its own stem."""
    shortened = list(filter(methodcaller("endswith", _STEM_ENDS), words))
    return zip(shortened, _stems(shortened))


def _stems(words: list[str]) -> list[str]:
    """:func:`_stem` of each of ``words`` (none holding a line end), without a call per word:
    the words are joined a line each and reversed, so that a word's end is a line's start,
    where two patterns (:data:`_SUFFIX_REVERSED`, then :data:`_E_REVERSED`) take off what
    :func:`_stem` takes off its end; the lines reversed back are the stems, in order."""
    if not words:
        return []
    return _E_REVERSED.sub("", _SUFFIX_REVERSED.sub("", "\n".join(words)[::-1]))[::-1].split("\n")


_WORD_STEMS: dict[str, str | None] = {}
"""Each word the answer-leak lint has read in this process with its stem (:func:`_stem`) when it
is a content word (neither a stop word nor all digits; see :func:`_content_words`), else None. A
word's stem is the word's alone, so it is kept from one topic to the next (the topics of a bank
use the same words): emptied before a topic's keys are indexed (:func:`_near_index`) once it
holds more than :data:`_WORD_STEMS_MOST` words."""
_WORD_STEMS_MOST = 1 << 19


def _learn_stems(words: list[str]) -> None:
    """Put each of ``words`` (distinct, none in :data:`_WORD_STEMS`) in :data:`_WORD_STEMS`: the
    content words' stems taken together (:func:`_shortened_stems`), the others None."""
    content = _content_words(set(words))
    stems = dict.fromkeys(words)
    stems.update(zip(content, content))
    stems.update(_shortened_stems(content))
    _WORD_STEMS.update(stems)


def _content_stems(words: list[str]) -> list[str]:
    """:func:`_content_of` ``words``, from :data:`_WORD_STEMS` (the words not there learnt
    first; a stem is never empty, so the None of the other words are what ``filter`` drops)."""
    try:
        return list(filter(None, map(_WORD_STEMS.__getitem__, words)))
    except KeyError:
        _learn_stems(list(filterfalse(_WORD_STEMS.__contains__, set(words))))
        return list(filter(None, map(_WORD_STEMS.__getitem__, words)))


def _content(text: str) -> list[str]:
    return _content_of(_words(text))


def _content_of(words: list[str]) -> list[str]:
    return [_stem(w) for w in words if w not in STOPWORDS and not w.isdigit()]


def _number(text: str) -> str:
    value = text.replace(",", ".")
    return value.rstrip("0").rstrip(".") if "." in value else value


def quantities(text: str) -> set[tuple[str, str]]:
    """The figures of a text: (number, unit) pairs ("3.5 GB", "7 ms") and formula tokens ("2N")."""
    return _figures(_normal(text))


def _figures(normal: str) -> set[tuple[str, str]]:
    """:func:`quantities` of a text read by :func:`_normal`."""
    if _DIGIT.search(normal) is None:  # (both need a digit)
        return set()
    text = normal.replace("μ", "µ")
    found = {(_number(m.group(1)), m.group(2).casefold()) for m in _NUMBER_UNIT.finditer(text)}
    if _DIGIT_CAPITAL.search(text) is not None:  # a formula token with a digit has one before a capital
        found |= {("", m.group(1)) for m in _FORMULA.finditer(text) if any(c.isdigit() for c in m.group(1))}
    return found


def figure_of_key(key: str) -> set[tuple[str, str]]:
    """A key that is a figure ("About 14 GB", "About 2N operations"): its figures, else nothing.
    A sentence that merely contains a number is not a figure."""
    figures = quantities(key)
    if not figures:
        return set()
    rest = [w for w in _words(key) if w not in _HEDGES]
    return figures if len(rest) <= 3 else set()


def _term_pattern(term: str) -> re.Pattern:
    words = []
    for alternative in term.split("|"):
        alternative = alternative.strip()
        body = r"\s+".join(re.escape(w) for w in alternative.rstrip("*").split())
        words.append(body + (r"[\w’'-]*" if alternative.endswith("*") else ""))
    return re.compile(r"(?<![\w])(?:" + "|".join(words) + r")(?![\w])", re.IGNORECASE)


def _term_firsts(term: str) -> tuple[str, ...] | None:
    """The first words of a term's alternatives in lower case, when all are ASCII (else None):
    :func:`_term_pattern` finds the term only in a text that holds one of them, and in an ASCII
    text ignoring case is comparing lower case."""
    firsts = []
    for alternative in term.split("|"):
        words = alternative.strip().rstrip("*").split()
        if not words or not words[0].isascii():
            return None
        firsts.append(words[0].lower())
    return tuple(firsts)


def _prefiltered(entry: str) -> list[tuple[re.Pattern, tuple[str, ...] | None]]:
    """:func:`parse_key_terms` of an entry, each pattern with its :func:`_term_firsts`."""
    return [(_term_pattern(term), _term_firsts(term)) for term in entry.split(" + ") if term.strip()]


def _entry_found(patterns: list[tuple[re.Pattern, tuple[str, ...] | None]], cleaned: str, lowered: str | None) -> bool:
    """Whether every term of a :func:`_prefiltered` entry is in ``cleaned`` (``lowered``: its
    lower case when it is ASCII, else None)."""
    return all((lowered is None or firsts is None or any(first in lowered for first in firsts)) and pattern.search(cleaned)
               for pattern, firsts in patterns)


def parse_key_terms(entry: str) -> list[re.Pattern]:
    """The terms of one `key_terms` entry, each a pattern (see the question's `key_terms`)."""
    return [_term_pattern(term) for term in entry.split(" + ") if term.strip()]


@dataclass(frozen=True)
class KeyInfo:
    """What of one question's key another question could leak."""

    text: str
    terms: tuple[str, ...] = ()


def near_leaks(keys: dict[str, KeyInfo], texts: list[LeakText]) -> list[tuple[LeakText, str, str]]:
    """(text, id, what) for each text that gives another question's key away in other words:
    its figure, most of its content words close together, or an entry of its `key_terms`.

    Keys are indexed by their rarest content words (a text holding :data:`NEAR_SHARE` of a key's
    words holds at least one of them), and by their figures, so a text costs a few look-ups per
    word whatever the size of the bank; the few declared terms are searched in every text."""
    match = _near_matcher(keys)
    found = []
    for item in texts:
        normal = _normal(item.text)
        found += match(item, normal, _words_of(normal))
    return found


def _near_matcher(keys: dict[str, KeyInfo], read=_read):
    """:func:`near_leaks` of one text (given read by :func:`_normal`, and its words), with the
    keys indexed once.

    The words of the texts that stand for an indexed content word are kept as they are met, so a
    text's candidates are one intersection of sets; a text with no candidate, no figure of
    another question's key and no declared terms to search costs nothing more. What a text
    matches is kept by its text (the same text in several questions is matched once). ``read``
    gives a text's :func:`_read`."""
    rule = _near_rule(keys, read)
    figures, by_word, declared, all_hits = rule.figures, rule.by_word, rule.declared, rule.all_hits
    seen: set[str] = set()  # words of the texts met so far
    triggers: dict[str, list[str]] = {}  # those whose stem is indexed: the keys it is filed under
    trigger_words: set[str] = set()
    matched: dict[str, dict[str, str]] = {}

    def others(qids, own: str) -> bool:
        return len(qids) > 1 or (len(qids) == 1 and own not in qids)

    def match(item: LeakText, normal: str, text_words: list[str]) -> list[tuple[LeakText, str, str]]:
        own = item.question_id
        hits = matched.get(item.text)
        if hits is None:
            worth = bool(declared)
            if not worth:
                if not seen.issuperset(text_words):
                    new = set(text_words).difference(seen)
                    seen.update(new)
                    for word in new:
                        if word not in STOPWORDS and not word.isdigit():
                            qids = by_word.get(_stem(word))
                            if qids is not None:
                                triggers[word] = qids
                                trigger_words.add(word)
                for word in trigger_words.intersection(text_words):
                    if others(triggers[word], own):
                        worth = True
                        break
            if not worth and figures:
                for figure in _figures(normal) & figures.keys():
                    if others(figures[figure], own):
                        worth = True
                        break
            if not worth:  # nothing of another question's key can be in this text
                return []
            hits = matched[item.text] = all_hits(item.text, normal, text_words)
        return rule.found(item, hits)

    return match


class _NearRule(NamedTuple):
    """The keys indexed for the near-leak rules (:func:`_near_rule`)."""

    figures: dict
    """The keys that are a figure, by each of their figures."""
    by_word: dict
    """The keys of :data:`NEAR_MIN_TERMS` content words or more, by each of their rarest ones."""
    declared: dict
    """The keys that declare terms, with their entries (:func:`_prefiltered`)."""
    all_hits: object
    """(a text, read by :func:`_normal`, its words) → {id of a key it gives away, its own
    included: how}."""
    found: object
    """(a text's :class:`LeakText`, its ``all_hits``) → its findings, in the order of the keys."""


def _near_rule(keys: dict[str, KeyInfo], read=_read, stems: dict[str, str] | None = None) -> _NearRule:
    """The keys indexed for the near-leak rules: a text gives a key away only if it holds a word
    whose stem is one filed under the key in ``by_word``, one of the key's figures, or when the
    key declares terms; the caller refuses the others. ``stems``: see :func:`_near_index`."""
    order, figures, contents, by_word = _near_index(keys, read, stems)
    declared = {qid: [_prefiltered(entry) for entry in info.terms] for qid, info in keys.items() if info.terms}

    def all_hits(text: str, normal: str, text_words: list[str]) -> dict[str, str]:
        hits: dict[str, str] = {}
        for figure in _figures(normal) & figures.keys():
            for qid in figures[figure]:
                hits.setdefault(qid, "its figure")
        words = _content_stems(text_words)
        present = set(words)
        candidates = {qid for word in present for qid in by_word.get(word, ())}
        for qid in candidates - hits.keys():
            if _close_together(contents[qid], words, present):
                hits[qid] = "most of its words"
        cleaned = _clean(text) if declared else ""
        lowered = cleaned.lower() if cleaned.isascii() else None  # (see _term_firsts)
        for qid, entries in declared.items():
            if qid in hits:
                continue
            for patterns in entries:
                if _entry_found(patterns, cleaned, lowered):
                    hits[qid] = "its key terms"
                    break
        return hits

    def found(item: LeakText, hits: dict[str, str]) -> list[tuple[LeakText, str, str]]:
        own = item.question_id
        return [(item, qid, hits[qid]) for qid in sorted(hits, key=order.__getitem__) if qid != own]

    return _NearRule(figures, by_word, declared, all_hits, found)


def _near_index(keys: dict[str, KeyInfo], read=_read, stems_out: dict[str, str] | None = None):
    """The index of :func:`_near_matcher`: (each key's place, the keys that are a figure by
    each of their figures, each key's distinct content words, the keys of
    :data:`NEAR_MIN_TERMS` content words or more by each of their rarest ones: as many as a
    text may lack and still hold :data:`NEAR_SHARE` of them, and one more).

    The rarest words are taken by their rank (:func:`_ranked`), sorted as integers. A key's
    figures are read only when it has at most three words besides the hedges (as
    :func:`figure_of_key`: a longer key is no figure); its content words are its words' stems
    (:func:`_content_of`), from :data:`_WORD_STEMS`, where the keys' words not yet there are
    put first (:func:`_learn_stems`: only a word that ends as :func:`_stem` may shorten,
    :data:`_STEM_ENDS`, is stemmed, all at once). With ``stems_out``, the stem of each content
    word of the keys is put in it."""
    order = {qid: i for i, qid in enumerate(keys)}
    figures: dict[tuple[str, str], list[str]] = {}
    read_keys: list[tuple[str, list[str]]] = []
    for qid, info in keys.items():
        normal, key_words = read(info.text)
        read_keys.append((qid, key_words))
        if (len(key_words) if _HEDGES.isdisjoint(key_words) else len([w for w in key_words if w not in _HEDGES])) <= 3:
            for figure in _figures(normal):
                figures.setdefault(figure, []).append(qid)
    if len(_WORD_STEMS) > _WORD_STEMS_MOST:
        _WORD_STEMS.clear()
    words = set(chain.from_iterable(key_words for _, key_words in read_keys))
    _learn_stems(list(filterfalse(_WORD_STEMS.__contains__, words)))
    if stems_out is not None:
        stems_out.update((word, stem) for word, stem in zip(words, map(_WORD_STEMS.__getitem__, words)) if stem is not None)
    contents = {qid: list(dict.fromkeys(filter(None, map(_WORD_STEMS.__getitem__, key_words)))) for qid, key_words in read_keys}
    ranked, rank = _ranked(Counter(chain.from_iterable(contents.values())))
    by_word: dict[str, list[str]] = {}
    for qid, words in contents.items():
        if len(words) >= NEAR_MIN_TERMS:
            missing = len(words) - _needed(len(words))
            for least in sorted(map(rank.__getitem__, words))[: int(missing) + 1]:
                by_word.setdefault(ranked[least], []).append(qid)
    return order, figures, contents, by_word


def _needed(count: int) -> int:
    """How many of a key's ``count`` content words make a near leak: :data:`NEAR_SHARE` of them, rounded up."""
    return int(-(-count * NEAR_SHARE // 1))


def _close_together(key: list[str], words: list[str], present: set[str]) -> bool:
    """Whether a window of ``words`` (whose set is ``present``) not much longer than ``key`` holds NEAR_SHARE of its words."""
    need = _needed(len(key))
    if len(present.intersection(key)) < need:  # not that many of its words anywhere in the text: no window holds them
        return False
    wanted = set(key)
    span = len(key) + 4
    for start, word in enumerate(words):
        if word in wanted and len(wanted & set(words[start:start + span])) >= need:
            return True
    return False


# ----------------------------------------------------------------------------- the bank

def _scalar_offset_location(doc: YamlDocument, path: tuple, offset: int) -> Location:
    """Where character ``offset`` of the (folded or plain) scalar at ``path`` is in its file."""
    start = doc.values.get(tuple(path))
    if not start:
        return doc.locate(path)
    line, col = start
    lines = doc.text.split("\n")
    first = lines[line - 1][col - 1:] if line <= len(lines) else ""
    if first[:1] not in ("|", ">"):
        quoted = first[:1] in ("'", '"')
        return Location.of(doc.path, line, col + offset + (1 if quoted else 0))
    remaining = offset
    for number in range(line + 1, len(lines) + 1):
        content = lines[number - 1]
        indent = len(content) - len(content.lstrip(" "))
        body = content[indent:]
        if remaining <= len(body):
            return Location.of(doc.path, number, indent + remaining + 1)
        remaining -= len(body) + 1
    return Location.of(doc.path, line, col)


def question_texts(question) -> list[tuple[tuple, str]]:
    """(YAML path, text) of every learner-facing text of a question of any kind."""
    from ..i18n.fields import question_fields

    return [(field.loc, field.text) for field in question_fields(question, None, None) if field.loc[:1] != ("units",)]


def _key_text(question) -> str | None:
    """The text of a question's key: the answer another question could leak (a question with
    one right option; the model knows which answers are right)."""
    if not (question.PICKS_OPTIONS and question.ONE_KEY):
        return None
    right = question.right_ids()  # (once, not once per option)
    for option in question.choices():  # (the first right one; a loop, not a generator given to next())
        if option.id in right:
            return option.text
    return None


def question_reference_lints(question, doc: YamlDocument, fields=None) -> list[Diagnostic]:
    """W320 and W321 in the English texts of one question (a rule of the file alone); ``fields``:
    its translatable fields when already listed.

    Each text's hits are kept for the texts met since (:func:`_english_hits`): a bank repeats its
    explanations and feedbacks from question to question; what depends on the question (its
    own id, left out of W321) is applied to them here."""
    diags: list[Diagnostic] = []
    texts = question_texts(question) if fields is None else _leak_texts(fields)
    options = question.PICKS_OPTIONS
    own = None
    for path, text in _may_refer_of(texts):
        for hit, token in _english_hits(text, options):
            if token is not None:
                if own is None:
                    own = question.id.lower()
                if token == own:
                    continue
            diags.append(warning(hit.code, f"{question.id}: {hit.message}", _scalar_offset_location(doc, path, hit.offset)))
    return diags


def _english_hits(text: str, options: bool) -> tuple:
    """:func:`reference_hits` of an English ``text`` with no own id, each hit with the lowered
    question it names (for W321, its match of the same pattern in the same cleaned text; None
    for W320): the hits of ``own_id`` are these without the
    W321 hits whose named question lowered is ``own_id`` lowered (the hits stay in their order:
    sorted by offset, a stable sort, before and after leaving some out). Kept by (text, options)
    for the texts met since, :data:`_HITS_KEPT` at most (all let go when there are more)."""
    key = (text, options)
    found = _hits_kept.get(key)
    if found is None:
        hits = reference_hits(text, "en", options=options)
        named = {}
        if any(hit.code == "W321" for hit in hits):
            named = {match.start(): match.group(0).lower() for match in _COMPILED["question"]["en"].finditer(_clean(text))}
        found = tuple((hit, named[hit.offset] if hit.code == "W321" else None) for hit in hits)
        if len(_hits_kept) >= _HITS_KEPT:
            _hits_kept.clear()
        _hits_kept[key] = found
    return found


_HITS_KEPT = 4096
"""Most (text, options) whose English hits :func:`_english_hits` keeps (nearly always none)."""
_hits_kept: dict[tuple[str, bool], tuple] = {}


def _may_refer_of(texts: list[tuple[tuple, str]]) -> list[tuple[tuple, str]]:
    """Those of a question's (place, English text) that :func:`reference_hits` could find
    something in (each that :func:`_may_refer_folded` does not refuse), in their order.

    Read as one text, the texts joined by line breaks and lowered once: each word looked for
    (and a "q" before a digit) is found where it is, and the text it starts in is kept (no word
    holds a line break, so an occurrence lies in one text: found from the texts' lengths, or by
    the line breaks before it when no text holds one). An ASCII text is lowered as it is;
    another as its UTF-8 bytes, whose ASCII letters alone are lowered, when it holds no
    character that lowers or folds (:func:`_folded`) to an ASCII letter
    (:data:`_FOLDS_TO_ASCII`): every word looked for is ASCII, so its letters lowered stand in
    the bytes where the text holds them in either case, and nowhere else. No word holds a
    space: the non-breaking spaces need no replacing. There, the "q" before a digit is looked
    for in the text as written, in either case, each on its own (no other character lowers to
    a "q", a digit lowers to itself and nothing else lowers to a digit; a pattern starting with
    a literal is searched faster than one starting with a class). A text with such a character
    is read by :func:`_may_refer_of_folded`."""
    joined = "\n".join([text for _, text in texts])
    if joined.isascii():
        lowered = joined.lower()
        words, newline, q = _REFER_WORDS["en"], "\n", "q"
    elif not ("\u0130" in joined or "\u0131" in joined or "\u017f" in joined or "\u212a" in joined):  # (_FOLDS_TO_ASCII)
        lowered = joined.encode("utf-8", "surrogatepass").lower()
        words, newline, q = _REFER_WORDS_BYTES_EN, b"\n", b"q"
    else:
        return _may_refer_of_folded(texts, joined)
    found = []
    find = lowered.find
    for word in words:
        at = find(word)
        while at >= 0:
            found.append(at)
            at = find(word, at + 1)
    found_in_joined = ()
    if lowered.find(q) >= 0:  # (not ``in``, which for bytes first asks for an integer and builds the TypeError it catches)
        if newline == "\n":
            found += [match.start() for match in _Q_DIGIT.finditer(lowered)]
        else:  # (the positions in the text as written)
            found_in_joined = [match.start() for match in _Q_DIGIT.finditer(joined)]
            if "Q" in joined:
                found_in_joined += [match.start() for match in _CAPITAL_Q_DIGIT.finditer(joined)]
    if not found and not found_in_joined:
        return []
    if newline == "\n":  # (an ASCII text: the positions in the lowered text are those in the text)
        kept = set(_text_indices(texts, found, len))
    elif lowered.count(newline) == len(texts) - 1:  # no text holds a line break: its index is the number before it
        kept = set(_line_indices(lowered, newline, found))
        kept.update(_text_indices(texts, found_in_joined, len))
    else:
        kept = set(_text_indices(texts, found_in_joined, len))
        kept.update(_text_indices(texts, found, _utf8_length))
    return [item for index, item in enumerate(texts) if index in kept]


def _line_indices(joined, newline, found) -> list[int]:
    """The number of line breaks in ``joined`` before each position of ``found``, in order."""
    indices, line, before = [], 0, 0
    count = joined.count
    for at in sorted(found):
        line += count(newline, before, at)
        before = at
        indices.append(line)
    return indices


def _text_indices(texts: list[tuple[tuple, str]], found, length) -> list[int]:
    """The index of the text each position of ``found`` in the texts joined by line breaks lies
    in, each text ``length(text)`` long there."""
    if not found:
        return []
    starts, start = [], 0
    for _, text in texts:
        starts.append(start)
        start += length(text) + 1
    return [bisect_right(starts, at) - 1 for at in found]


def _utf8_length(text: str) -> int:
    return len(text.encode("utf-8", "surrogatepass"))


_FOLDS_TO_ASCII = "\u0130\u0131\u017f\u212a"
"""The characters beyond ASCII that :func:`_folded` makes (or leaves with) an ASCII letter:
dotted capital I ("i" and a combining dot, the one character whose lowering is longer), dotless
i, long s, the Kelvin sign (a "k"). Each is looked for on its own (a search for one character
beyond Latin-1 in a text of Latin-1 alone answers at once; a class tests every character)."""
_REFER_WORDS_BYTES_EN = tuple(word.encode("ascii") for word in _REFER_WORDS["en"])
_CAPITAL_Q_DIGIT = re.compile(r"Q\d")


def _may_refer_of_folded(texts: list[tuple[tuple, str]], joined: str) -> list[tuple[tuple, str]]:
    """:func:`_may_refer_of` of texts (joined as ``joined``) holding a character of
    :data:`_FOLDS_TO_ASCII`: their joined text cleaned and lowered by :func:`_folded`, searched
    as above when its length did not change, else each text refused on its own, as
    :func:`reference_hits` does."""
    folded = _folded(_clean(joined))
    if len(folded) != len(joined):
        return [item for item in texts if _may_refer_folded(_folded(_clean(item[1])), "en")]
    found = []
    find = folded.find
    for word in _REFER_WORDS["en"]:
        at = find(word)
        while at >= 0:
            found.append(at)
            at = find(word, at + 1)
    if "q" in folded:
        found += [m.start() for m in _Q_DIGIT.finditer(folded)]
    kept = set(_text_indices(texts, found, len))
    return [item for index, item in enumerate(texts) if index in kept]


def key_info(question) -> tuple[str, tuple[str, ...]] | None:
    """(text of its key, its declared key terms): what another question of its topic could leak, or None."""
    key = _key_text(question)
    return None if key is None else (key, tuple(getattr(question, "key_terms", ()) or ()))


def _leak_texts(fields) -> list[tuple[tuple, str]]:
    """(field, text) of each text the leak rule reads among a question's translatable fields."""
    return [(field.loc, field.text) for field in fields if field.loc[:1] != ("units",)]


def file_summary(qs: QuestionSource) -> FileSummary:
    """What the rules across files read of one read question file (see
    :class:`~aistack_bank.load.FileSummary`): its id, its key for the leak rule, its answer-cue
    figures, a digest of what the catalogs' verification reads, which stands for its texts too
    (their fields, places in the model and texts are part of it), and one of its model (what
    the exports are made of)."""
    model_json_of, model_digest_of, question_inputs, question_fields, summary_type, question_cue = _summary_names()
    question, doc = qs.question, qs.doc
    if question is None or doc is None:
        return summary_type(question.id if question is not None else None, False, None, b"", question_cue(question) if question is not None else None, b"")
    fields = qs.derived.get("fields")
    if fields is None:
        fields = question_fields(question, doc, qs.path)
    model = model_digest_of(model_json_of(question))
    inputs = question_inputs(qs, fields, model_digest=model)
    return summary_type(question.id, True, key_info(question), inputs, question_cue(question), inputs, model)


@lru_cache(maxsize=None)
def _summary_names() -> tuple:
    """What :func:`file_summary` calls, imported once (``from`` imports in its body went through
    importlib's Python code on every file)."""
    from ..cache.catalogs import model_digest_of, model_json_of, question_inputs
    from ..i18n.fields import question_fields
    from ..load import FileSummary
    from .cues import question_cue

    return model_json_of, model_digest_of, question_inputs, question_fields, FileSummary, question_cue


def summary_of(qs: QuestionSource) -> FileSummary:
    """The file's summary as its own rules kept it, or made now from its record."""
    return qs.summary if qs.summary is not None else file_summary(qs)


def content_lints(source: BankSource, *, references: bool = True, memo: bool = False) -> list[Diagnostic]:
    """W320, W321 and W322 over the English texts of every question (W322 only, across
    questions, without ``references``: :func:`question_reference_lints` gives the others).

    W322 reads every text, stems included. Two exceptions: the stem of a question the topic
    groups with the leaked one (`groups:` in topic.yaml: a published stem that carries another
    question's answer), and a text that leaks only what its own question's stem already shows
    (it adds nothing to the stem).

    The keys and which texts changed are read from each file's summary
    (:class:`~aistack_bank.load.FileSummary`). With ``memo``, the findings of the latest run
    in this topic are kept (:func:`leak_findings_by_file`): only the texts of the questions
    whose texts changed are matched again, unless a key changed; the warnings are located in
    the files as read now."""
    diags: list[Diagnostic] = []
    keys: dict[str, KeyInfo] = {}
    sources = {}
    files: list[tuple[str, bytes, object]] = []
    for qs in source.questions:
        summary = summary_of(qs)
        if not summary.located:
            continue
        qid = summary.question_id
        sources[qid] = qs
        if summary.key is not None:
            keys[qid] = KeyInfo(*summary.key)
        if references:
            diags += question_reference_lints(qs.question, qs.doc)
        files.append((qid, summary.texts, qs))
    group_of: dict[str, int] = {}
    topic = getattr(source, "topic", None)
    for index, group in enumerate(getattr(topic, "groups", ()) or ()):
        for qid in group.questions:
            group_of.setdefault(qid, index)
    scope = getattr(source, "root", None)
    if memo and scope is not None and len(sources) == len(files):  # (ids unique in the topic)
        found = dict(leak_findings_by_file(keys, [(qid, digest, lambda qid=qid, qs=qs: _question_leak_texts(qid, qs)) for qid, digest, qs in files], scope=scope))
    else:
        found = dict(leak_findings(keys, [text for qid, _, qs in files for text in _question_leak_texts(qid, qs)]))
    stem_leaks = {(qid, other) for qid, field, other in found if field == ("stem",)}
    for (qid, field, other), what in found.items():
        if field == ("stem",) and qid in group_of and group_of.get(other) == group_of[qid]:
            continue  # a published stem the topic declares
        if field != ("stem",) and (qid, other) in stem_leaks:
            continue  # repeats what its own stem shows
        where = sources[qid].doc.locate(field)
        diags.append(warning("W322", f"{qid}: this text gives away the answer of {other} ({keys[other].text!r}: {what}); a learner who sees both gets {other}'s answer", where))
    return diags


def file_leak_texts(qs: QuestionSource) -> tuple[tuple[tuple, str], ...] | None:
    """(field, text) of each text the leak rule reads of a file whose own rules have run (None
    without a model): sent back by the worker that checked it, so that the rule reads them
    without unpickling the file's record (:attr:`~aistack_bank.cache.questionfiles.QuestionFiles.texts`)."""
    fields = qs.derived.get("fields")
    return None if qs.question is None or qs.doc is None or fields is None else tuple(_leak_texts(fields))


def _question_leak_texts(qid: str, qs) -> _LeakTextsOf:
    texts = getattr(qs, "texts", None)  # as the worker that checked the file listed them
    if texts is None:
        fields = qs.derived.get("fields")  # kept with the file's record: the same texts, already listed
        texts = question_texts(qs.question) if fields is None else _leak_texts(fields)
    return _LeakTextsOf(qid, texts)


class _LeakTextsOf:
    """The texts of one question that the answer-leak lint reads: its id and its (field, text)
    pairs, in order (:func:`_question_leak_texts`). Iterated, its :class:`LeakText` list;
    :func:`leak_findings_by_file` reads the pairs as they are, without a LeakText per text."""

    __slots__ = ("question_id", "pairs")

    def __init__(self, question_id: str, pairs) -> None:
        self.question_id = question_id
        self.pairs = pairs

    def __iter__(self):
        # (each a LeakText made in C: its (field, text) pair after the id, as LeakText's own
        # ``__new__`` makes it, without a call of that Python function per text)
        return iter(list(map(tuple.__new__, repeat(LeakText), map((self.question_id,).__add__, self.pairs))))


def leak_findings(keys: dict[str, KeyInfo], texts: list[LeakText], *, memo: bool = False, scope=None) -> list[tuple[tuple[str, tuple, str], str]]:
    """((text's question, field, leaked question), how) for every leak of a key in a text, in
    the order found (runs of words first, then :func:`near_leaks`).

    The findings read only the keys (with their declared terms) and the texts (with their
    question and field), in order: with ``memo`` they are kept in a store under a digest of
    exactly these, so a run in which no key or text changed (an edit elsewhere in a file, a
    catalog edited) finds them without matching the bank again."""
    store = key = None
    if memo and scope is not None:
        import hashlib

        from ..cache.store import Store, key_of

        digest = hashlib.blake2b(digest_size=20)
        for qid, info in keys.items():
            digest.update(repr((qid, info.text, info.terms)).encode("utf-8", "surrogatepass"))
        digest.update(b"\0texts\0")
        for item in texts:
            digest.update(repr((item.question_id, item.field, item.text)).encode("utf-8", "surrogatepass"))
        store = Store("leaks", scope, keep=1)
        key = key_of("leaks", digest.hexdigest())
        stored = store.get(key)
        if _well_formed_findings(stored):
            return stored
    result = _match(keys, texts)
    if store is not None:
        store.put(key, result)
        store.save()
    return result


def _match(keys: dict[str, KeyInfo], texts: list[LeakText]) -> list[tuple[tuple[str, tuple, str], str]]:
    """The findings of :func:`leak_findings`, with the cyclic garbage collector paused: the
    indexes and the texts' words are many small objects that stay until the end (nothing to
    collect), made while the command holds the whole bank, which a collection would walk."""
    import gc

    paused = gc.isenabled()
    gc.disable()
    try:
        return _match_uncollected(keys, texts)
    finally:
        if paused:
            gc.enable()


def _match_files(keys: dict[str, KeyInfo], files: list) -> list[tuple[tuple[str, tuple, str], str]]:
    """:func:`_match` of the texts of ``files`` (each a question's :class:`_LeakTextsOf`, or any
    iterable of LeakTexts), in order: the texts and their questions taken from the questions'
    pairs as they are (the field of a text made into a LeakText only for a text that gives a
    key away), with the cyclic garbage collector paused (as :func:`_match`)."""
    import gc

    paused = gc.isenabled()
    gc.disable()
    try:
        if not all(type(found) is _LeakTextsOf for found in files):
            return _match_uncollected(keys, [text for found in files for text in found])
        pairs = list(chain.from_iterable(map(attrgetter("pairs"), files)))
        questions = list(chain.from_iterable(map(repeat, map(attrgetter("question_id"), files), map(len, map(attrgetter("pairs"), files)))))
        return _matched(keys, questions, list(map(itemgetter(1), pairs)), lambda index: pairs[index][0])
    finally:
        if paused:
            gc.enable()


def _match_uncollected(keys: dict[str, KeyInfo], texts: list[LeakText]) -> list[tuple[tuple[str, tuple, str], str]]:
    return _matched(keys, list(map(itemgetter(0), texts)), list(map(itemgetter(2), texts)), lambda index: texts[index][1])


def _matched(keys: dict[str, KeyInfo], questions: list[str], texts: list[str], field_of) -> list[tuple[tuple[str, tuple, str], str]]:
    """The findings of :func:`leak_findings` of the texts ``texts`` of the questions
    ``questions`` (each text's, in the same order); ``field_of(index)`` gives the field of the
    text at ``index``."""
    if not texts:  # (the keys are indexed only for texts to match)
        return []
    # each text read once for both rules; the findings in the order of answer_leaks then near_leaks
    known: dict[str, tuple[str, list[str]]] = {}  # the keys, read once for both indexes (and as texts)

    def read(text: str) -> tuple[str, list[str]]:
        found = known.get(text)
        if found is None:
            found = known[text] = _read(text)
        return found

    counts = Counter(texts)  # each distinct text in the order met, with how many texts are it
    first = dict(zip(reversed(texts), reversed(questions)))  # (the question of its first)
    distinct = list(zip(counts, map(first.__getitem__, counts), counts.values()))
    del first
    # A topic's texts that are one piece of the screen (a topic of a hundred questions, as a
    # bank of many topics has) are read before the keys are indexed, and the words of the keys'
    # runs ranked by how often they hold them (see _run_index): a key's anchors are then the
    # words of it that the fewest texts hold, so that few texts of other questions get past the
    # screen. (Their reads are kept in ``known`` for the screen; a larger topic is read a piece
    # at a time, and ranks its words by the keys alone.)
    # (``known`` is empty here: each distinct text read by a call of _read, its words counted in C)
    if len(counts) <= _SCAN_PIECE:
        known.update(zip(counts, map(_read, counts)))
        met = Counter(chain.from_iterable(map(itemgetter(1), known.values())))
    else:
        met = None
    anchors, run_hits = _run_rule({qid: info.text for qid, info in keys.items()}, read, met)
    near = _near_rule(keys, read)  # (the keys' words' stems kept in _WORD_STEMS, then the texts' as learnt)
    figures, by_word, declared, near_hits = near.figures, near.by_word, near.declared, near.all_hits
    # The words that may give a key away, each with the one question whose key it stands for
    # (None: several): the keys' anchors (the rule of runs), and the words of the texts whose
    # stem is filed under a key (the near rule), added as they are met. A text is matched only
    # when such a word, or a figure of a key, stands for another question than its own, or when
    # keys declare terms: each a necessary condition of a finding of one rule or the other, and
    # a text is matched by both rules then (what a rule finds in a text that holds none of its
    # necessary words is only the text's own question, which is never reported).
    owner: dict[str, str | None] = {word: qids[0] if len(qids) == 1 else None for word, qids in anchors.items()}
    run_owner = owner.copy()  # (each rule's words apart: a text of one question that only one rule's words let through is matched by that rule alone)
    near_owner: dict[str, str | None] = {}
    seen: set[str] = set()  # words of the texts met so far

    def learn(words) -> None:
        """The owners of ``words`` (words of texts, repeats allowed) not met before, learnt: their
        stems from :data:`_WORD_STEMS` (those not there yet taken together, :func:`_learn_stems`),
        and only a word whose stem is filed under a key is looked at alone."""
        new = set(words)
        new.difference_update(seen)
        seen.update(new)
        unknown = list(filterfalse(_WORD_STEMS.__contains__, new))
        if unknown:
            _learn_stems(unknown)
        filed = list(map(by_word.get, map(_WORD_STEMS.__getitem__, new)))  # (None, a word that is not a content word, is filed under no key)
        for word, qids in compress(zip(new, filed), filed):
            one = near_owner[word] = qids[0] if len(qids) == 1 else None
            owner[word] = one if owner.get(word, one) == one else None

    def scan(part: list) -> dict[str, tuple[list[str], dict[str, str]]]:
        """What each distinct text of ``part`` ((text, its question, how many texts are it))
        gives away, by the rule of runs and the near rule (its own question included), for the
        texts that give another question's key away (or that several questions hold)."""
        matched: dict[str, tuple[list[str], dict[str, str]]] = {}
        owner_words, owner_of = owner.keys(), owner.__getitem__  # (once, not per text; live: what learn adds is in them)
        # (read a piece of texts at a time, and their words' owners learnt together before any
        # of them is screened: a word's owner depends on the keys alone, not on the texts met)
        for at in range(0, len(part), _SCAN_PIECE):
            piece = part[at:at + _SCAN_PIECE]
            if met is None:
                reads = [known.get(text) or _read(text) for text, _, _ in piece]
                learn(chain.from_iterable(map(itemgetter(1), reads)))
            else:  # (every distinct text read into ``known`` for ``met``, its words learnt)
                reads = list(map(known.__getitem__, map(itemgetter(0), piece)))
            for (text, own, count), (normal, words) in zip(piece, reads):
                held = owner_words & words
                if held:
                    owners = set(map(owner_of, held))
                    worth = count > 1 or len(owners) > 1 or own not in owners
                else:
                    worth = False
                if not worth and figures:
                    for figure in _figures(normal) & figures.keys():
                        qids = figures[figure]
                        if count > 1 or len(qids) > 1 or own not in qids:
                            worth = True
                            break
                if not (worth or declared):  # nothing of another question's key can be in this text
                    continue
                if count > 1:  # (each question that holds it is matched: every rule)
                    runs = run_hits(words) if worth and len(words) >= LEAK_MIN_KEY_WORDS else []
                    hits = near_hits(text, normal, words)
                else:
                    # A rule finds another question's key in a text only when the text holds one
                    # of that rule's words of it (or, for the near rule, its figure, or with keys'
                    # declared terms); without, all it could find is the text's own key.
                    runs = run_hits(words) if worth and len(words) >= LEAK_MIN_KEY_WORDS and any(run_owner.get(word, own) != own for word in held) else []
                    if declared or any(near_owner.get(word, own) != own for word in held) or _other_figure(normal, figures, own):
                        hits = near_hits(text, normal, words)
                    else:
                        hits = {}
                if count > 1 or any(qid != own for qid in runs) or any(qid != own for qid in hits):
                    matched[text] = runs, hits
        return matched

    # Each finding is one text against the keys' index, whatever other texts are matched (what
    # the matchers keep as they go only saves work): with many texts, the keys are indexed here
    # and the distinct texts matched a part at a time in processes forked after (on every core),
    # each part's findings by text; taken in the order of the texts, they are the same.
    matched: dict[str, tuple[list[str], dict[str, str]]] = {}
    if met is not None:
        # (a topic whose texts are one piece: the words of every one of them are those counted
        # in ``met``, learnt here at once, from its keys, each word once, rather than from the
        # piece's words with their repeats; a part scanned in a forked process inherits them)
        learn(met)
    for part in _scanned(scan, distinct, len(texts)):
        matched.update(part)
    if not matched:
        return []
    held = [LeakText(questions[index], field_of(index), texts[index]) for index in compress(count(), map(matched.__contains__, texts))]
    found: dict[tuple[str, tuple, str], str] = {}
    for item in held:
        for other in matched[item.text][0]:
            if other != item.question_id:
                found[(item.question_id, item.field, other)] = "its words"
    for item in held:
        for _, other, what in near.found(item, matched[item.text][1]):
            found.setdefault((item.question_id, item.field, other), what)
    return list(found.items())


def _other_figure(normal: str, figures: dict, own: str) -> bool:
    """Whether the text read as ``normal`` holds a figure of ``figures`` (the keys that are a
    figure, by figure) that is that of another question's key than ``own``."""
    if figures:
        for figure in _figures(normal) & figures.keys():
            qids = figures[figure]
            if len(qids) > 1 or own not in qids:
                return True
    return False


_SCAN_PIECE = 2048
"""Distinct texts read together, whose words' owners are learnt at once, by the answer-leak
lint's screen (:func:`_match_uncollected`): the words of at most this many texts are held."""


LEAK_POOL_MIN = 20_000
"""Texts to match for the answer-leak lint from which they are matched in worker processes (a
fork costs about what matching 2 000 to 5 000 texts does)."""


def _scanned(scan, distinct: list, count: int) -> list:
    """``scan`` of ``distinct`` (the distinct texts, with where they are) a part at a time: in
    worker processes forked now (:func:`~aistack_bank.parallel.run_all`, which runs them here
    when there are fewer than :data:`LEAK_POOL_MIN` texts in all, one core, or no fork), or,
    inside a worker process (which may not start its own), here."""
    if count < LEAK_POOL_MIN:
        return [scan(distinct)]  # (without starting workers: a few files, as `bank validate FILE` checks)
    from ..parallel import in_worker, jobs, run_all

    if in_worker():
        return [scan(distinct)]
    pieces = max(1, jobs()) * 2
    size = -(-len(distinct) // pieces)
    return run_all([lambda part=distinct[i:i + size]: scan(part) for i in range(0, len(distinct), size)], work=count, min_work=LEAK_POOL_MIN)


def leak_findings_by_file(keys: dict[str, KeyInfo], files: list, *, scope) -> list[tuple[tuple[str, tuple, str], str]]:
    """The findings of :func:`leak_findings` over the texts of ``files`` ((question id, digest
    of its texts, a function giving its texts: a ``_LeakTextsOf``, or
    the list of its :class:`LeakText`), ids unique), matching again
    only what changed since the latest run in ``scope`` (a topic folder).

    Each finding is a pair of one text and one key of another question, decided by the two
    alone. So when every key (with its declared terms) is that of the latest run, the latest
    findings stand for the texts whose digest did not change (a finding whose key is gone is
    dropped), and only the texts of the other questions are matched, against every key. When a
    key was added or changed, every text is matched again. The texts of a question are read
    (from its record) only when they are matched."""
    from ..cache.store import Store, key_of

    store = Store("leaks", scope, keep=1)
    key = key_of("leak-findings-by-file")
    digests = {qid: digest for qid, digest, _ in files}
    now_keys = {qid: (info.text, info.terms) for qid, info in keys.items()}
    old = store.get(key)
    well_formed = _well_formed_state(old)
    todo = files
    kept: list = []
    if well_formed:
        old_keys, old_digests, old_found = old
        if old_keys == now_keys or all(old_keys.get(qid) == value for qid, value in now_keys.items()):
            todo = [] if old_digests == digests else [entry for entry in files if old_digests.get(entry[0]) != entry[1]]
            again = {qid for qid, _, _ in todo}
            kept = [item for item in old_found if item[0][0] in digests and item[0][0] not in again and item[0][2] in now_keys]
    result = kept + _match_files(keys, [texts() for _, _, texts in todo])
    if not (well_formed and old[0] == now_keys and old[1] == digests and old[2] == result):
        store.put(key, (now_keys, digests, result))
        store.save()
    return result


def _well_formed_state(found) -> bool:
    """Whether a kept state is ({question id: (key text, key terms)}, {question id: digest of
    its texts}, findings), every value of the types named (type by type over all values at
    once: the state holds a value of each per question of the topic)."""
    if not (type(found) is tuple and len(found) == 3 and type(found[0]) is dict and type(found[1]) is dict and _well_formed_findings(found[2])):
        return False
    keys, digests = found[0], found[1]
    values = keys.values()
    return (_only(keys, str) and _only(values, tuple) and set(map(len, values)) <= {2}
            and _only(map(itemgetter(0), values), str) and _only(map(itemgetter(1), values), tuple)
            and _only(digests, str) and _only(digests.values(), bytes))


def _only(items, kind: type) -> bool:
    """Whether every item is of type ``kind`` exactly (not of a subclass)."""
    return set(map(type, items)) <= {kind}


def _well_formed_findings(found) -> bool:
    return type(found) is list and all(
        type(item) is tuple and len(item) == 2 and type(item[1]) is str and type(item[0]) is tuple and len(item[0]) == 3
        and type(item[0][0]) is str and type(item[0][1]) is tuple and type(item[0][2]) is str for item in found)


def catalog_reference_diagnostics(catalog, active: dict, fields, *, memo: bool = False, kept=None, current: list | None = None) -> list[Diagnostic]:
    """W320 and W321 in the translations of one catalog, with that language's wording (with
    ``memo``, each translation's hits from the catalog's memo: :mod:`aistack_bank.cache.entries`;
    with ``kept``, from that memo, which the caller saves: a catalog verified a part at a time;
    ``current``: the current translations of ``fields``, :func:`~aistack_bank.i18n.locations.current_translations`,
    when the caller has them)."""
    from ..cache.entries import EntryMemo
    from ..i18n.locations import current_translations, translation_warnings

    fields = list(fields)
    with_options: set | None = None  # (the questions with an option field: made when a translation may refer, most catalogs never)
    lang = catalog.language.split("_")[0]
    shared = kept is not None
    kept = kept if shared else EntryMemo(catalog.path, catalog.language, enabled=memo, kind="references")

    def hits(field, msgstr: str):
        nonlocal with_options
        if field.question_id is None or not may_refer(msgstr, lang):
            return ()  # (most translations: no word the patterns need, not looked up in the memo either)
        if with_options is None:
            with_options = {field.question_id for field in fields if field.question_id is not None and ".option." in field.key}
        options = field.question_id in with_options
        return kept.values((field.question_id, options, msgstr, lang), lambda: tuple(
            (hit.code, hit.message, hit.offset) for hit in reference_hits(msgstr, lang, own_id=field.question_id, options=options)))

    # (only the translations that may refer to something, in their order: what ``hits`` answers
    # for the others is nothing, so they need neither its call nor the loop's step; without
    # ``current``, the current translations are listed here as translation_warnings lists them)
    current = _referring(current if current is not None else current_translations(active, fields), lang)
    diags = translation_warnings(catalog, active, fields, hits, current)
    if not shared:
        kept.save()
    return diags


_REFERRING_BLOCK = 128
"""How many translations :func:`_referring` lowers and searches as one text."""


def _referring(current: list, lang: str) -> list:
    """Those of ``current`` ((field, entry) pairs) whose field belongs to a question and whose
    msgstr :func:`may_refer` lets through, in their order.

    The msgstrs are read a block of :data:`_REFERRING_BLOCK` at a time, joined by NUL and
    lowered once: ``str.lower`` lowers each character alike whether the texts are joined or not
    (the final sigma's context stops at a NUL as at a text's end), and nothing
    :data:`_MAY_REFER_LOWERED` finds holds a NUL, so the joined text holds a word of the
    language, a "q" before a digit or a character of :data:`_ODD_LOWERED` exactly when one of
    its texts does (each a substring test, which skips over the text in C, instead of the
    pattern's search stopping at each of the words' first letters). Only the texts of a block
    where one is found are asked :func:`may_refer` one by one; in a language whose words the
    lowered search cannot take (:data:`_MAY_REFER_LOWERED`), each text is."""
    language = _language(lang)
    owned = [pair for pair in current if pair[0].question_id is not None]
    if language not in _MAY_REFER_LOWERED:
        return [pair for pair in owned if may_refer(pair[1].msgstr, lang)]
    words, q_digit = _REFER_WORDS[language], _Q_DIGIT.search
    kept = []
    for start in range(0, len(owned), _REFERRING_BLOCK):
        block = owned[start:start + _REFERRING_BLOCK]
        lowered = _lowered("\0".join([entry.msgstr for _, entry in block]))
        if (any(word in lowered for word in words) or ("q" in lowered and q_digit(lowered) is not None)
                or (not lowered.isascii() and any(odd in lowered for odd in _ODD_LOWERED))):
            kept += [pair for pair in block if may_refer(pair[1].msgstr, lang)]
    return kept


def translation_lints(catalog, active: dict, fields, *, memo: bool = False, current: list | None = None, hints: list[bool] | None = None) -> list[Diagnostic]:
    """Every editorial lint of one bank catalog: references, French typography, glossary
    (``current``: the current translations of ``fields``, as
    :func:`~aistack_bank.i18n.locations.current_translations` lists them, when the caller has them;
    ``hints``: whether each of their msgstrs holds a character of
    :data:`~aistack_bank.rules.quantities.TOKEN_HINT`, when the caller asked)."""
    from ..i18n.glossary import catalog_glossary_diagnostics, read_glossary
    from ..i18n.typography import catalog_typography_diagnostics

    glossary, diags = read_glossary(catalog.path.parent)
    diags = list(diags)
    diags += catalog_reference_diagnostics(catalog, active, fields, memo=memo, current=current)
    diags += catalog_typography_diagnostics(catalog, active, fields, current, hints)
    diags += catalog_glossary_diagnostics(glossary, catalog, active, fields, current)
    return diags
