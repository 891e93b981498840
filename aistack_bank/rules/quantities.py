"""Numbers, units and formula tokens as written in English, French and Dutch text.

Used by the numeric assertion checks (which value does an option show?) and by the
translation checks (does the translation show the same numbers, units and formulas?).

>>> [q.base for q in quantities("About 3.5 GB", "en")]
[3500000000.0]
>>> [q.base for q in quantities("Environ 3,5\u00a0Go", "fr")]
[3500000000.0]
>>> numbers("batch size 1 and FP16 (2 bytes)", "en")
[1.0, 2.0]
>>> formula_tokens("an M × K matrix times 2MNK", ("M", "N", "K"))
['M×K', '2MNK']
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

# unit token → (dimension, factor to base units)
_BYTE_PREFIX = {"": 1.0, "K": 1e3, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15,
                "Ki": 2.0**10, "Mi": 2.0**20, "Gi": 2.0**30, "Ti": 2.0**40}
UNITS: dict[str, tuple[str, float]] = {}
for _p, _f in _BYTE_PREFIX.items():
    for _b in ("B", "o"):  # English/Dutch bytes, French octets
        if _p == "k" and _b == "B":
            continue
        UNITS[f"{_p}{_b}"] = ("bytes", _f)
        UNITS[f"{_p}{_b}/s"] = ("bytes/s", _f)
UNITS.update({"bytes": ("bytes", 1.0), "byte": ("bytes", 1.0), "octets": ("bytes", 1.0), "octet": ("bytes", 1.0)})
for _p, _f in {"": 1.0, "G": 1e9, "T": 1e12, "P": 1e15, "E": 1e18}.items():
    UNITS[f"{_p}FLOPS"] = ("flop/s", _f)
    UNITS[f"{_p}FLOP/s"] = ("flop/s", _f)
    UNITS[f"{_p}OPS"] = ("flop/s", _f)
    UNITS[f"{_p}FLOP"] = ("flop", _f)
    UNITS[f"{_p}FLOPs"] = ("flop", _f)
for _u in ("FLOP/byte", "FLOP/B", "FLOP/octet", "FLOP/o", "FLOPs/byte", "FLOPs/B", "FLOP/bytes"):
    UNITS[_u] = ("flop/byte", 1.0)
UNITS.update({"s": ("s", 1.0), "ms": ("s", 1e-3), "µs": ("s", 1e-6), "μs": ("s", 1e-6),
              "us": ("s", 1e-6), "ns": ("s", 1e-9), "min": ("s", 60.0), "h": ("s", 3600.0),
              "W": ("W", 1.0), "mW": ("W", 1e-3), "kW": ("W", 1e3),
              "%": ("%", 1.0), "bits": ("bits", 1.0), "bit": ("bits", 1.0)})

_SPACES = "\u0020\u00a0\u202f\u2009"
# A number not glued to a preceding letter or digit (so FP16, W4A16, q003 are not numbers):
# its first digit, then the character before that digit looked at (``(?<![\w.,]\d)``, the same
# as ``(?<![\w.,])`` before it), so that each pattern starts with a digit and a search skips to
# the digits instead of trying every position.
_NUMBER = {
    "en": r"\d(?<![\w.,]\d)\d*(?:,\d{3})*(?:\.\d+)?(?![\d])",
    "fr": r"\d(?<![\w.,]\d)\d*(?:[\u00a0\u202f\u2009 ]\d{3})*(?:,\d+)?(?![\d])",
    "nl": r"\d(?<![\w.,]\d)\d*(?:\.\d{3})*(?:,\d+)?(?![\d])",
}
_UNIT_ALTERNATION = "|".join(re.escape(u) for u in sorted(UNITS, key=len, reverse=True))


def _language(lang: str) -> str:
    return lang if lang in _NUMBER else "en"


def parse_number(token: str, lang: str) -> float:
    """A number token as written in ``lang``, as a float.

    >>> parse_number("1,000.5", "en"), parse_number("1\u202f000,5", "fr"), parse_number("1.000,5", "nl")
    (1000.5, 1000.5, 1000.5)
    """
    lang = _language(lang)
    if lang == "en":
        return float(token.replace(",", ""))
    for sp in _SPACES:
        token = token.replace(sp, "")
    if lang == "nl":
        token = token.replace(".", "")
    return float(token.replace(",", "."))


def numbers(text: str, lang: str) -> list[float]:
    """Every standalone number in ``text``, in order."""
    if not _DIGIT.search(text):  # every number pattern starts with \d
        return []
    return [parse_number(m.group(), lang) for m in _NUMBER_RE[_language(lang)].finditer(text)]


@dataclass(frozen=True)
class Quantity:
    """A number with a unit as written in a text, and its value in base units."""

    text: str
    value: float
    unit: str
    dimension: str
    base: float


_QUANTITY = {
    lang: re.compile(rf"({number})(?:[{_SPACES}]|-(?=bits?\b|bytes?\b))?({_UNIT_ALTERNATION})(?![\w/])")
    for lang, number in _NUMBER.items()
}
_NUMBER_RE = {lang: re.compile(number) for lang, number in _NUMBER.items()}


def quantities(text: str, lang: str) -> list[Quantity]:
    """Every ``number unit`` pair in ``text`` (one optional space, no-break spaces included)."""
    if not _DIGIT.search(text):
        return []
    found = []
    for m in _QUANTITY[_language(lang)].finditer(text):
        value = parse_number(m.group(1), lang)
        dimension, factor = UNITS[m.group(2)]
        found.append(Quantity(m.group(), value, m.group(2), dimension, value * factor))
    return found


def quantity_values(text: str, lang: str) -> list[tuple[str, str, float]]:
    """:func:`quantities` of ``text`` as (text, dimension, base) tuples, in order: the values a
    numeric check compares (:func:`~aistack_bank.rules.checks.check_question`), without a
    :class:`Quantity` per match (a frozen dataclass sets each of its five attributes through
    ``object.__setattr__``: some 2 µs a quantity, about three times the match)."""
    if not _DIGIT.search(text):
        return []
    found = []
    for m in _QUANTITY[_language(lang)].finditer(text):
        value = parse_number(m.group(1), lang)
        unit = m.group(2)
        dimension, factor = UNITS[unit]
        found.append((m.group(), dimension, value * factor))
    return found


_UNIT_AFTER = re.compile(rf"(?:[{_SPACES}]|-(?=bits?\b|bytes?\b))?({_UNIT_ALTERNATION})(?![\w/])")
"""What makes a number a quantity: the unit right after it (as in :data:`_QUANTITY`)."""


TOKEN_HINT = re.compile(r"[\d²³⁴·×/^<{%]")
"""A character that every number, quantity, formula token (without ``variables``) and markup
token holds: a text without one has none of them (:func:`numbers`, :func:`quantities`,
:func:`formula_tokens` and :func:`markup_tokens` all find nothing in it)."""


def _these_or_from_0660(pattern: re.Pattern) -> re.Pattern:
    """One class of the characters below U+0660 that ``pattern`` matches and of every character
    from U+0660 on (the first decimal digit after 0-9): a class without a category, which a
    search tests character by character faster than ``\\d``. Written as the negation of the
    other characters below U+0660, which compiles in a millisecond (a range up to U+10FFFF takes
    ten); compiled on first use."""
    ranges, start = [], 0
    for code in [code for code in range(0x660) if pattern.match(chr(code))] + [0x660]:
        if code > start:
            ranges.append(re.escape(chr(start)) if code - 1 == start else f"{re.escape(chr(start))}-{re.escape(chr(code - 1))}")
        start = code + 1
    return re.compile("[^" + "".join(ranges) + "]")


@lru_cache(maxsize=None)
def _hint_class() -> re.Pattern:
    """:func:`_these_or_from_0660` of :data:`TOKEN_HINT`, made on first use."""
    return _these_or_from_0660(TOKEN_HINT)


_NOT_LATIN1_HINTS = bytes(code for code in range(256) if not TOKEN_HINT.match(chr(code)))
"""Every Latin-1 character :data:`TOKEN_HINT` does not find (all but 0-9 ``/ ^ < { %`` and
``² ³ · ×``: no other character below U+0100 is a decimal digit)."""

_HINT_FLAGS = bytes(0 if code in _NOT_LATIN1_HINTS else 1 for code in range(256))
"""For ``bytes.translate``: 1 for each Latin-1 character :data:`TOKEN_HINT` finds, 0 for the
others; an ASCII or Latin-1 text holds one when ``1`` is in its bytes so translated. (A table
without deletions is read as it is; deleting :data:`_NOT_LATIN1_HINTS` made ``translate`` build
a table of its 237 bytes at every call, about three times the cost for a text of a sentence.)"""


def has_token_hint(text: str) -> bool:
    """Whether :data:`TOKEN_HINT` finds a character in ``text`` (the same answer, sooner: an
    ASCII text, nearly every text, or a text of Latin-1 characters only (a French translation,
    with its accents and no-break spaces) holds one when its bytes translated by
    :data:`_HINT_FLAGS` hold a 1 (two passes in C: the pattern's search tested each character
    against its class); for another, most hold no character from U+0660 on, and for them one
    search of :func:`_these_or_from_0660`'s class answers)."""
    if text.isascii():
        return 1 in text.encode("ascii").translate(_HINT_FLAGS)
    try:
        return 1 in text.encode("latin-1").translate(_HINT_FLAGS)
    except UnicodeEncodeError:
        pass
    search = _hint_class().search
    found = search(text)
    while found is not None:
        at = found.start()
        if found.group() < "\u0660" or TOKEN_HINT.match(text, at) is not None:
            return True
        found = search(text, at + 1)
    return False


def english_parity(text: str) -> tuple[tuple[float, ...], tuple[tuple[str, float], ...], tuple[str, ...], tuple[str, ...]]:
    """What the translation parity checks compare of an English text, as tuples (a bank keeps
    one per text for the whole command): its :func:`numbers` and its quantities
    (:func:`numbers_and_quantities`), each sorted, its :func:`formula_tokens`, sorted, and its
    :func:`markup_tokens`, in order."""
    numbers, found = numbers_and_quantities(text, "en")
    numbers.sort()
    found.sort()
    formulas = formula_tokens(text)
    formulas.sort()
    return tuple(numbers), tuple(found), tuple(formulas), tuple(markup_tokens(text))


def parity_sides(texts) -> dict[str, tuple]:
    """:func:`english_parity` of each of ``texts`` in which :data:`TOKEN_HINT` finds a
    character, by text: made once with a question file's fields, so that each language's
    catalog compares its translations with it instead of reading the English again.

    Each text's side (or that it has none) is kept for the texts met since (:data:`_SIDES_KEPT`
    at most): a bank repeats many of its texts (feedbacks, options) from question to question,
    and a side is a function of the text alone (tuples of numbers and strings). A text met
    first is read by :func:`_side_of`."""
    sides = {}
    kept = _sides
    for text in texts:
        side = kept.get(text, _UNSEEN)
        if side is _UNSEEN:
            side = _side_of(text)
            if len(kept) >= _SIDES_KEPT:
                kept.clear()
            if side is None or not _holds_itself(side, text):
                kept[text] = side
        if side is not None:
            sides[text] = side
    return sides


def _holds_itself(side: tuple, text: str) -> bool:
    """Whether a formula or markup token of ``side`` is ``text`` itself (a text that is one whole
    token, its match the text object itself): such a side is not kept, so that a record's pickle
    refers to its text from the side exactly when it did with the side made afresh (a side kept
    from another file would hold that file's text, written out again)."""
    formulas, markup = side[2], side[3]
    if text not in formulas and text not in markup:
        return False
    return any(token is text for token in formulas) or any(token is text for token in markup)


_SIDES_KEPT = 8192
"""Most texts whose sides :func:`parity_sides` keeps (all are let go when there are more: some
2 MB at most, about 270 bytes a text of the bank with its side). On the 10 000-question bank, a worker's files (every other task of 250) find 42 %
of their texts kept (33 % of those with a side); with no bound, 43 %."""
_sides: dict[str, tuple | None] = {}
_UNSEEN = object()


def _side_of(text: str) -> tuple | None:
    """:func:`english_parity` of ``text`` when :data:`TOKEN_HINT` finds a character in it, else None.

    An ASCII text (nearly every one) is read once in C into its characters' classes
    (:data:`_ASCII_CLASSES`), which say whether it has a hint character, and which of the
    scans can find anything in it (:func:`_ascii_parity`)."""
    if text.isascii():
        classes = text.encode("ascii").translate(_ASCII_CLASSES)
        find = classes.find  # (``b"0" in classes`` first asks for an integer, and builds the TypeError it catches)
        if find(b"0") >= 0 or find(b"/") >= 0 or find(b"<") >= 0:
            return _ascii_parity(text, classes)
        return None
    try:
        raw = text.encode("latin-1")
    except UnicodeEncodeError:
        raw = None
    if raw is not None:  # (every other English text of a bank: a "×", "²" or "³" in it)
        if 1 not in raw.translate(_HINT_FLAGS):  # (has_token_hint)
            return None
        return _latin1_parity(text, raw)
    if has_token_hint(text):
        return english_parity(text)
    return None


def _latin1_parity(text: str, raw: bytes, lang: str = "en") -> tuple:
    """:func:`english_parity` (for a translation, :func:`translation_parity` in ``lang``) of a
    text beyond ASCII whose characters are all Latin-1 (``raw``: its bytes in Latin-1, one a
    character; for a translation, also a text whose other characters :func:`_latin1_classed`
    wrote as a space): its numbers, quantities and markup tokens read as an ASCII text's are
    (:func:`_ascii_parity`), from the classes of its bytes (each byte beyond ASCII a space;
    a text without a hint character reads as having none). That reading holds here too: no
    Latin-1 character beyond ASCII is a decimal digit (``\\d`` is 0-9 there as well),
    ``str.isalnum`` is ``\\w`` less ``_`` for every character, and ``<``, ``{`` and ``%`` are
    ASCII. Its formula tokens: :func:`formula_tokens` of the text when it holds ``×``, ``·``,
    ``²`` or ``³`` (token characters beyond ASCII), else :func:`_maybe_formulas` of those
    classes (every token character then ASCII)."""
    classes = raw.translate(_ASCII_CLASSES)
    if "\u00d7" in text or "\u00b7" in text or "\u00b2" in text or "\u00b3" in text:
        formulas = formula_tokens(text)
        formulas.sort()
        return _ascii_parity(text, classes, lang, tuple(formulas))
    return _ascii_parity(text, classes, lang)


_CLASSED_AS_SPACES = ("\u202f", "\u2009", "\u2019")
"""Characters beyond Latin-1 that a French text holds (the narrow no-break and thin spaces that
group a number's digits, the typographic apostrophe), none of them a decimal digit, a formula
character (:data:`_FORMULA_CHARS`) or a markup character: :func:`_latin1_classed` gives each the
class of a space, as :data:`_ASCII_CLASSES` gives every byte beyond ASCII."""


def _latin1_classed(text: str) -> bytes | None:
    """For a text that is not all Latin-1: its Latin-1 bytes with each of
    :data:`_CLASSED_AS_SPACES` written as a no-break space (one byte a character, so each byte's
    class is its character's, as :func:`_ascii_parity` reads them), or None when it holds
    another character beyond Latin-1 (a digit of another script, ``⁴``, ...: read by the scans)."""
    for other in _CLASSED_AS_SPACES:
        if other in text:
            text = text.replace(other, "\u00a0")
    try:
        return text.encode("latin-1")
    except UnicodeEncodeError:
        return None


_ASCII_CLASSES = bytes(ord("0") if chr(code).isdigit() else ord("/") if chr(code) in "/^" else ord("A") if "A" <= chr(code) <= "Z"
                       else ord("(") if chr(code) in "()" else ord("<") if chr(code) in "<{%" else ord(" ") for code in range(128)) + b" " * 128
"""For ``bytes.translate`` of an ASCII text: each digit a ``0``, ``/`` and ``^`` a ``/``, each
capital letter an ``A``, a parenthesis a ``(``, ``<``, ``{`` and ``%`` a ``<``, any other
character a space. Its hint characters (:data:`TOKEN_HINT`) are the ``0``, ``/`` and ``<``."""


def _ascii_parity(text: str, classes: bytes, lang: str = "en", formulas: tuple | None = None) -> tuple:
    """:func:`english_parity` (:func:`translation_parity` of a text written in ``lang``) of an
    ASCII ``text`` with a hint character, whose characters' classes are ``classes``
    (:data:`_ASCII_CLASSES`).

    Its numbers: in an ASCII text ``\\d`` is a digit 0-9 and ``\\w`` a letter, a digit or
    ``_``, so a number (:data:`_NUMBER`, and every language's) starts at the first digit of a
    run of digits (a digit after a digit is glued to it) that follows no letter, digit, ``_``,
    ``.`` or ``,``; and there it always matches (after the optional groups, at worst none, no
    digit follows the run). The runs are found in ``classes`` (a search in C), each number
    matched where it starts, instead of a search of the pattern, which tested every character;
    each number parsed by :func:`parse_number`, its unit looked for as in
    :func:`numbers_and_quantities`. Its formula tokens: :func:`_maybe_formulas`. Its markup
    tokens: only with a ``<``, ``{`` or ``%``. ``formulas``: its formula tokens, when the caller
    has them (:func:`_latin1_parity`)."""
    numbers, units = [], []
    at = classes.find(b"0")
    if at >= 0:
        unit_after = _UNIT_AFTER.match
        end = len(text)
        number_at = _NUMBER_RE[lang].match
        while at >= 0:
            if at and (text[at - 1].isalnum() or text[at - 1] in "_.,"):
                at += 1
                while at < end and classes[at] == 48:  # (the rest of the run: no number starts there)
                    at += 1
                at = classes.find(b"0", at)
                continue
            m = number_at(text, at)
            token = m.group()
            value = float(token) if token.isdecimal() else parse_number(token, lang)  # (digits alone: what parse_number gives, without its replacements)
            numbers.append(value)
            after = m.end()
            u = unit_after(text, after)
            if u is not None:
                dimension, factor = UNITS[u.group(1)]
                units.append((dimension, round(value * factor, 9)))
            at = classes.find(b"0", after)
        numbers.sort()
        units.sort()
    markup = _MARKUP.findall(text) if classes.find(b"<") >= 0 else []
    markup.sort()
    return tuple(numbers), tuple(units), _maybe_formulas(text, classes) if formulas is None else formulas, tuple(markup)


def translation_parity(text: str, lang: str) -> tuple[tuple[float, ...], tuple[tuple[str, float], ...], tuple[str, ...], tuple[str, ...]]:
    """:func:`english_parity` of a text written in ``lang``: its numbers and its quantities
    (:func:`numbers_and_quantities`), each sorted, its :func:`formula_tokens`, sorted, and its
    :func:`markup_tokens` (sorted), as tuples; what the parity checks compare of a translation.

    An ASCII text is read from its characters' classes (:func:`_ascii_parity`), and so is a
    text of Latin-1 characters (a French or Dutch translation, with its accents and no-break
    spaces) or of Latin-1 characters and :data:`_CLASSED_AS_SPACES` (:func:`_latin1_parity`:
    its numbers found from the digits' classes, each matched where it starts, instead of a
    search of the language's number pattern that tested every character). Another is read by
    the scans themselves, but for its formula tokens: when it holds none of ``² ³ ⁴ · ×``,
    every token character is ASCII, and the classes of its UTF-8 bytes (each byte of another
    character a space) tell as an ASCII text's do whether it may hold one."""
    lang = _language(lang)
    if text.isascii():
        classes = text.encode("ascii").translate(_ASCII_CLASSES)
        if not (b"0" in classes or b"/" in classes or b"<" in classes):
            return (), (), (), ()
        return _ascii_parity(text, classes, lang)
    try:
        raw = text.encode("latin-1")
    except UnicodeEncodeError:
        raw = _latin1_classed(text)
    if raw is not None:
        return _latin1_parity(text, raw, lang)
    numbers, found = numbers_and_quantities(text, lang)
    numbers.sort()
    found.sort()
    if "\u00d7" in text or "\u00b7" in text or "\u00b2" in text or "\u00b3" in text or "\u2074" in text:
        formulas = formula_tokens(text)
        formulas.sort()
        formulas = tuple(formulas)
    else:
        formulas = _maybe_formulas(text, text.encode("utf-8", "surrogatepass").translate(_ASCII_CLASSES))
    return tuple(numbers), tuple(found), formulas, tuple(markup_tokens(text))


def _maybe_formulas(text: str, classes: bytes) -> tuple[str, ...]:
    """The :func:`formula_tokens` of ``text``, sorted, as a tuple, where ``text`` holds none of
    ``² ³ ⁴ · ×`` and ``classes`` are :data:`_ASCII_CLASSES` of each of its bytes: none without
    a search when the classes show that none may be kept. Every token
    :data:`_FORMULA_CANDIDATE` finds is a run of token characters (here all ASCII) holding a
    capital letter and a digit or an operator (``/`` or ``^``), and a kept one either starts
    with a digit and holds a capital (so a digit or an operator comes right before its first
    capital, parentheses left out), or holds an operator and a capital (so an operator is right
    beside a capital, or a capital and a digit are beside each other and the text has an
    operator)."""
    joined = classes.replace(b"(", b"") if classes.find(b"(") >= 0 else classes
    find = joined.find  # (not ``in``: see _side_of)
    if find(b"0A") >= 0 or find(b"/A") >= 0 or find(b"A/") >= 0 or (find(b"A0") >= 0 and find(b"/") >= 0):
        formulas = formula_tokens(text)
        formulas.sort()
        return tuple(formulas)
    return ()


def numbers_and_quantities(text: str, lang: str) -> tuple[list[float], list[tuple[str, float]]]:
    """:func:`numbers` of ``text``, and of its :func:`quantities` each as (dimension, base
    rounded to 9 decimals), in one scan.

    A quantity is a number followed by a unit: its number is one that :func:`numbers` finds
    (a shorter start of it is followed by a separator or a digit, never by a unit; a start
    inside it, after a French thousands space, ends where it ends), so each number found is
    looked at once for a unit after it."""
    if not _DIGIT.search(text):
        return [], []
    lang = _language(lang)
    found, units = [], []
    unit_after = _UNIT_AFTER.match
    for m in _NUMBER_RE[lang].finditer(text):
        value = parse_number(m.group(), lang)
        found.append(value)
        u = unit_after(text, m.end())
        if u is not None:
            dimension, factor = UNITS[u.group(1)]
            units.append((dimension, round(value * factor, 9)))
    return found, units


def unit_dimension(unit: str) -> tuple[str, float] | None:
    """The dimension and factor of a unit token, or None if it is not a known unit."""
    return UNITS.get(unit)


_FORMULA_CHARS = "0-9A-Z²³⁴·×/^()"
_SQUEEZE = re.compile(rf"[{_SPACES}]*([×·])[{_SPACES}]*")
# (each starts with a token character, then looks at the character before it, as the numbers do)
_FORMULA_TOKEN = re.compile(rf"[{_FORMULA_CHARS}](?<![\w][{_FORMULA_CHARS}])[{_FORMULA_CHARS}]*(?![\w])")
"""A run of token characters with no letter, digit or ``_`` on either side."""
_FORMULA_CANDIDATE = re.compile(rf"[{_FORMULA_CHARS}](?<![\w][{_FORMULA_CHARS}])(?:(?<=[A-Z])|(?=[{_FORMULA_CHARS}]*[A-Z]))"
                                rf"(?:(?<=[0-9²³⁴·×/^])|(?=[{_FORMULA_CHARS}]*[0-9²³⁴·×/^]))[{_FORMULA_CHARS}]*(?![\w])")
""":data:`_FORMULA_TOKEN` where the token characters from its start hold a capital letter and a digit or an operator."""
_DIGIT = re.compile(r"\d")
_FORMULA_HINT = re.compile(r"[0-9²³⁴·×/^]")
"""What every formula token without ``variables`` holds: a digit it starts with (``str.isdigit``
of a character of :data:`_FORMULA_CHARS`: 0-9, ², ³, ⁴) or an operator."""


def _squeezed(text: str) -> str:
    """``_SQUEEZE.sub(r"\\1", text)`` of a text holding ``×`` or ``·``: each run of spaces
    (:data:`_SPACES`) right before or after one of them left out, by ``str.replace`` until
    nothing changes (the pattern's search tried a class at every character of the text: some
    80 k instructions a text of 150 characters, ten times the replacements). A new string, as
    the substitution gives one (a token that is the whole squeezed text is never the text
    itself), but for a text of that one character, given back as the substitution does."""
    if len(text) < 2:
        return text
    squeezed = text
    while True:
        before = squeezed
        for space in _SPACES:
            if space in squeezed:
                squeezed = (squeezed.replace(space + "\u00d7", "\u00d7").replace("\u00d7" + space, "\u00d7")
                            .replace(space + "\u00b7", "\u00b7").replace("\u00b7" + space, "\u00b7"))
        if squeezed == before:
            break
    return squeezed if squeezed is not text else text[:1] + text[1:]


def formula_tokens(text: str, variables: tuple[str, ...] | None = None) -> list[str]:
    """Formula-like tokens (``2MNK``, ``N/3``, ``N×N``, ``6ND``) in ``text``, in order.

    With ``variables``, only tokens whose letters are all among them are kept, and a token
    must contain one of them. Without, a token must contain a capital letter and start with a
    digit or contain an operator (so ``FP16``, ``GPU`` and ``INT8`` are not formulas).
    Spaces around ``×``, ``·`` and ``/`` are ignored, so ``M × K`` reads as ``M×K``.
    """
    if variables is None and not _FORMULA_HINT.search(text):
        return []  # no token could start with a digit or hold an operator
    squeezed = _squeezed(text) if "×" in text or "·" in text else text
    found = []
    # Without variables, only the tokens with a capital letter and a digit or an operator can
    # be kept: the others are not matched at all (from a place where no run of token
    # characters holds both, no token the full pattern finds could be kept).
    for m in (_FORMULA_TOKEN if variables is not None else _FORMULA_CANDIDATE).finditer(squeezed):
        token = m.group()
        while token and token[-1] == ")" and token.count(")") > token.count("("):
            token = token[:-1]
        while token and token[0] == "(" and token.count("(") > token.count(")"):
            token = token[1:]
        letters = [c for c in token if c.isalpha()]
        if not letters:
            continue
        if variables is not None:
            if all(c in variables for c in letters):
                found.append(token)
        elif token[0].isdigit() or (any(c in token for c in "²³⁴·×/^") and not token[:2].isalpha()):
            # ``MAC×2`` is an acronym times a number, not a formula; ``N×N`` and ``N/3`` are.
            found.append(token)
    return found


MAX_FORMULA_DEPTH = 20
"""Deepest nesting of parentheses in a formula (as in the check language)."""


class FormulaSyntaxError(ValueError):
    pass


def evaluate_formula(token: str, values: dict[str, float]) -> float:
    """Evaluate a formula token; juxtaposition multiplies, ``/ × ·`` bind left to right.

    >>> evaluate_formula("2MNK", {"M": 2, "N": 3, "K": 5})
    60.0
    >>> evaluate_formula("2N²/3", {"N": 3})
    6.0
    """
    pos = 0
    depth = 0
    sup = {"²": 2.0, "³": 3.0, "⁴": 4.0}

    def peek() -> str:
        return token[pos] if pos < len(token) else ""

    def atom() -> float:
        nonlocal pos
        ch = peek()
        if ch.isdigit():
            start = pos
            while peek().isdigit() or peek() == ".":
                pos += 1
            return float(token[start:pos])
        if ch.isalpha():
            pos += 1
            if ch not in values:
                raise FormulaSyntaxError(f"unknown symbol {ch!r}")
            return float(values[ch])
        if ch == "(":
            nonlocal depth
            depth += 1
            if depth > MAX_FORMULA_DEPTH:
                raise FormulaSyntaxError(f"parentheses nested deeper than {MAX_FORMULA_DEPTH} levels")
            pos += 1
            v = expr()
            depth -= 1
            if peek() != ")":
                raise FormulaSyntaxError("missing ')'")
            pos += 1
            return v
        raise FormulaSyntaxError(f"unexpected {ch or 'end'!r}")

    def factor() -> float:
        nonlocal pos
        v = atom()
        while True:
            if peek() in sup:
                v **= sup[peek()]
                pos += 1
            elif peek() == "^":
                pos += 1
                v **= atom()
            else:
                return v

    def term() -> float:
        v = factor()
        while peek() and (peek().isalnum() or peek() == "("):
            v *= factor()
        return v

    def expr() -> float:
        nonlocal pos
        v = term()
        while peek() in ("/", "×", "·"):
            op = peek()
            pos += 1
            rhs = term()
            v = v / rhs if op == "/" else v * rhs
        return v

    result = expr()
    if pos != len(token):
        raise FormulaSyntaxError(f"unexpected {token[pos]!r} in formula {token!r}")
    return result


def formula_values(token: str, samples: list[dict[str, float]]) -> list[float]:
    """``[evaluate_formula(token, values) for values in samples]`` (samples that all name the
    same symbols), the token read once: the same values, and for a token it cannot evaluate
    an exception as that list would raise one (a :class:`FormulaSyntaxError`, a
    ``ZeroDivisionError`` or an ``OverflowError``, each a token the checks pass over).

    The token is parsed into a function of the values (:func:`_formula_program`), which makes
    the same operations in the same order as :func:`evaluate_formula`. Where the parse
    fails with a :class:`FormulaSyntaxError`, the list raises one too, or a numeric error met
    before that place with the first sample: either is passed over. Any other failure of the
    parse (a digit run ``float`` refuses, such as ``2²`` in ``N2²``) is left to
    :func:`evaluate_formula` itself, sample after sample."""
    if not samples:
        return []
    program = _parsed_formula(token, tuple(samples[0]))
    if program is None:  # what evaluate_formula does with it, as it does it
        return [evaluate_formula(token, values) for values in samples]
    if type(program) is tuple:
        raise FormulaSyntaxError(*program)
    return [program(values) for values in samples]


@lru_cache(maxsize=4096)
def _parsed_formula(token: str, names: tuple[str, ...]):
    """:func:`_formula_program` of ``token`` for the symbols ``names``, made once per token and
    symbols (an option's formula is read again by each catalog, and a bank repeats its
    formulas): the function, or the arguments of the :class:`FormulaSyntaxError` its parse
    raised, or None for any other failure of the parse (left to :func:`evaluate_formula`). The
    function reads nothing but the values it is called with."""
    try:
        return _formula_program(token, names)
    except FormulaSyntaxError as exc:
        return exc.args
    except Exception:  # noqa: BLE001 - see formula_values
        return None


_POWERS = {"²": 2.0, "³": 3.0, "⁴": 4.0}


def _formula_program(token: str, names) -> Callable[[dict[str, float]], float]:
    """:func:`evaluate_formula` of ``token`` as a function of the values of ``names`` (the
    symbols the values will give), parsed now: the parse's errors are raised here, the
    arithmetic's (division by zero, a power too large) when the function is called."""
    pos = 0
    depth = 0
    end = len(token)

    def peek() -> str:
        return token[pos] if pos < end else ""

    def atom():
        nonlocal pos, depth
        ch = peek()
        if ch.isdigit():
            start = pos
            while peek().isdigit() or peek() == ".":
                pos += 1
            value = float(token[start:pos])
            return lambda values: value
        if ch.isalpha():
            pos += 1
            if ch not in names:
                raise FormulaSyntaxError(f"unknown symbol {ch!r}")
            return lambda values: float(values[ch])
        if ch == "(":
            depth += 1
            if depth > MAX_FORMULA_DEPTH:
                raise FormulaSyntaxError(f"parentheses nested deeper than {MAX_FORMULA_DEPTH} levels")
            pos += 1
            inner = expr()
            depth -= 1
            if peek() != ")":
                raise FormulaSyntaxError("missing ')'")
            pos += 1
            return inner
        raise FormulaSyntaxError(f"unexpected {ch or 'end'!r}")

    def factor():
        nonlocal pos
        base = atom()
        powers: list = []  # (a power's float, or the function of its atom)
        while True:
            ch = peek()
            if ch in _POWERS:
                powers.append(_POWERS[ch])
                pos += 1
            elif ch == "^":
                pos += 1
                powers.append(atom())
            else:
                break
        if not powers:
            return base

        def power(values):
            v = base(values)
            for p in powers:
                v **= p if type(p) is float else p(values)
            return v
        return power

    def term():
        first = factor()
        rest = []
        while peek() and (peek().isalnum() or peek() == "("):
            rest.append(factor())
        if not rest:
            return first

        def product(values):
            v = first(values)
            for f in rest:
                v *= f(values)
            return v
        return product

    def expr():
        nonlocal pos
        first = term()
        rest = []
        while peek() in ("/", "×", "·"):
            op = peek()
            pos += 1
            rest.append((op == "/", term()))
        if not rest:
            return first

        def chain(values):
            v = first(values)
            for divide, t in rest:
                rhs = t(values)
                v = v / rhs if divide else v * rhs
            return v
        return chain

    program = expr()
    if pos != end:
        raise FormulaSyntaxError(f"unexpected {token[pos]!r} in formula {token!r}")
    return program


def markup_tokens(text: str) -> list[str]:
    """HTML-like tags, ``{placeholders}`` and printf-style ``%s`` markers, sorted."""
    if "<" not in text and "{" not in text and "%" not in text:
        return []
    return sorted(_MARKUP.findall(text))


_MARKUP = re.compile(r"</?[A-Za-z][^<>]*>|\{[^{}\s]*\}|%(?:\([a-z_]+\))?[sd]")
