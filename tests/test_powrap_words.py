"""The word-at-a-time layout of catalog strings gives the lines of the character-at-a-time one.

`bank i18n update` lays most strings out a word at a time (powrap._wrap_words) and leaves the
others to the character-at-a-time layout (powrap.wrap_by_character), which tests/test_po_msgcat.py
compares with msgcat itself. Here the two are compared on random texts of characters of every
line-break class, escapes, long words, no-break spaces, CJK and zero-width characters, under the
keywords, prefixes, widths and flags a catalog uses.
"""

from __future__ import annotations

import random

from aistack_bank.i18n import powrap


def _alphabet() -> list[str]:
    """A few characters of each line-break class, and those a catalog of prose holds."""
    per_class: dict[int, list[str]] = {}
    for code in list(range(0x20, 0x3100)) + list(range(0xFE30, 0xFF70)) + [0x1F1E6, 0x1F1EB, 0x1F600, 0x1F3FB, 0x20000]:
        ch = chr(code)
        chars = per_class.setdefault(powrap.line_break_class(ch), [])
        if len(chars) < 4:
            chars.append(ch)
    chars = [c for group in per_class.values() for c in group]
    chars += list("abcxyzABC0123456789.,;:?!'\"\\-/()[]{}<>%$#&*@_+=|~^`")
    chars += ["\u00a0", "\u202f", "\u2009", "\u2060", "\u200b", "\u200d", "\u00ad", "\u0301", "\u00e9", "e\u0301",
              "\u6f22", "\u5b57", "\u3002", "\u3001", "\uff08", "\uff09", "\u05d0", "\u05d1", "\u05be", "\u0e01", "\u0e32",
              "\u2014", "\u2013", "\u2026", "\u00ab", "\u00bb", "\u201c", "\u201d", "\u00d7", "\u00b2", "\u20ac",
              "\t", "\n", "\r", "\a", "\u2028", "\u0085", "\U0001f600", "\U0001f1eb\U0001f1f7", "%d", "%s", "%(n)s", "%1$s"]
    return chars


def _texts(rng: random.Random, count: int) -> list[str]:
    alphabet = _alphabet()
    plain = ["word", "Wörd", "à", "l'", "12", "3.5", "2MNK", "{x}", "<b>", "e.g.", "a-b", "x/y", "(see", "it)", "50\u00a0%",
             "«\u202fmot\u202f»", "antidisestablishmentarianism" * 3, "https://example.org/a/very/long/path?query=1&x=2"]
    texts = []
    for k in range(count):
        pool = plain * 4 + (alphabet if k % 3 == 0 else list("-/(),.:;?!'\"\\\u00a0\u202f\u2014\u2026\u00d7%+=[]_"))
        text = rng.choice(["", " ", "  "])
        for _ in range(rng.randrange(0, 45)):
            text += "".join(rng.choices(pool, k=rng.randrange(1, 4))) + rng.choice([" ", " ", " ", "  ", "", "   "])
        texts.append(text)
    return texts


def test_word_layout_is_the_character_layout():
    rng = random.Random(20261201)
    words = 0
    for k, text in enumerate(_texts(rng, 2500)):
        keyword = ("msgid", "msgstr", "msgctxt", "msgstr[1]", "msgid_plural")[k % 5]
        prefix = ("", "", "", "#~ ", "#| ", "#~| ")[k % 6]
        width = (79, 79, 79, 40, 20, 120)[k % 6]
        flags = (), ("fuzzy",), ("c-format",), ("python-format",), ("no-wrap",)
        flag = flags[k % 5]
        do_wrap = "no-wrap" not in flag
        expected = powrap.wrap_by_character(keyword, text, prefix, width, do_wrap, flag)
        assert powrap.wrap(keyword, text, prefix, width, do_wrap, flag) == expected, (keyword, prefix, width, flag, text)
        if "\n" not in text and powrap._plain(text) and not ("format" in "".join(flag) and "%" in text):
            words += 1  # directives kept whole: only the character layout knows them
            assert powrap._wrap_words(keyword, text, prefix, width if do_wrap else 1 << 62) == expected, (keyword, text)
    assert words > 1000  # most texts took the word-at-a-time path


def test_words_too_long_for_a_line_and_escapes():
    cases = [
        "x" * 200,
        "short " + "y" * 100 + " end",
        'He said "' + "quoted " * 20 + '" and a back\\slash\\ ' * 3,
        "\\" * 150,
        '"' * 150 + " " + '"\\' * 40,
        " " * 90 + "word",
        "word" + " " * 90,
        "a\u00a0" * 60,
        "nombre\u202f: " * 20 + "fin\u202f!",
        "-" * 50 + "/" * 50 + "." * 50,
        "(" * 30 + ")" * 30 + " " + "[x]" * 40,
    ]
    for text in cases:
        for keyword, prefix in (("msgid", ""), ("msgstr", "#~ "), ("msgctxt", "#| ")):
            assert powrap._plain(text)
            assert powrap.wrap(keyword, text, prefix) == powrap.wrap_by_character(keyword, text, prefix), text


def test_strings_left_to_the_character_layout():
    """Wide, zero-width and combining characters, line feeds and format directives are laid out a
    character at a time (the word-at-a-time layout counts one column a character)."""
    for text in ["\u6f22\u5b57" * 50, "zero\u200bwidth " * 20, "e\u0301" * 100, "line\nfeed " * 20, "\u05d0\u05d1 " * 40,
                 "tab\there " * 20, "\U0001f600 " * 50]:
        assert not powrap._plain(text) or "\n" in text
        assert powrap.wrap("msgid", text) == powrap.wrap_by_character("msgid", text), text
    directives = "%d of %s files (%5.2f%%) " * 10
    assert powrap.wrap("msgid", directives, flags=("c-format",)) == powrap.wrap_by_character("msgid", directives, flags=("c-format",))
