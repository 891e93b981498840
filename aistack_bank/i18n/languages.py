"""Languages: codes, English names, text direction and gettext plural rules.

The plural rules are those of GNU gettext's table of common languages (gettext manual,
"Plural forms", and gettext-tools/src/plural-table.c), with Arabic's six forms as Arabic
catalogs (and Weblate, Launchpad, Pontoon) write them. A catalog may write an equivalent rule
in its own spelling: :func:`same_plural_rule` compares rules by what they compute.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

TWO_FORMS = "nplurals=2; plural=(n != 1);"
"""The rule of English and of most languages; also the default for a language not listed."""

_EAST_SLAVIC = "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);"
_ONE_FORM = "nplurals=1; plural=0;"


@dataclass(frozen=True)
class Language:
    code: str
    name: str
    """English name."""
    plural_forms: str
    rtl: bool = False


_TABLE = [
    Language("en", "English", TWO_FORMS),
    # One form.
    Language("ja", "Japanese", _ONE_FORM),
    Language("ko", "Korean", _ONE_FORM),
    Language("zh", "Chinese", _ONE_FORM),
    Language("zh_CN", "Chinese (China)", _ONE_FORM),
    Language("zh_TW", "Chinese (Taiwan)", _ONE_FORM),
    Language("vi", "Vietnamese", _ONE_FORM),
    Language("th", "Thai", _ONE_FORM),
    Language("id", "Indonesian", _ONE_FORM),
    Language("ms", "Malay", _ONE_FORM),
    # Two forms, singular for one only.
    Language("de", "German", TWO_FORMS),
    Language("nl", "Dutch", TWO_FORMS),
    Language("sv", "Swedish", TWO_FORMS),
    Language("da", "Danish", TWO_FORMS),
    Language("no", "Norwegian", TWO_FORMS),
    Language("nb", "Norwegian Bokmål", TWO_FORMS),
    Language("nn", "Norwegian Nynorsk", TWO_FORMS),
    Language("fo", "Faroese", TWO_FORMS),
    Language("es", "Spanish", TWO_FORMS),
    Language("pt", "Portuguese", TWO_FORMS),
    Language("it", "Italian", TWO_FORMS),
    Language("ca", "Catalan", TWO_FORMS),
    Language("bg", "Bulgarian", TWO_FORMS),
    Language("el", "Greek", TWO_FORMS),
    Language("fi", "Finnish", TWO_FORMS),
    Language("et", "Estonian", TWO_FORMS),
    Language("he", "Hebrew", TWO_FORMS, rtl=True),
    Language("eo", "Esperanto", TWO_FORMS),
    Language("hu", "Hungarian", TWO_FORMS),
    Language("tr", "Turkish", TWO_FORMS),
    Language("hi", "Hindi", TWO_FORMS),
    Language("bn", "Bengali", TWO_FORMS),
    Language("sw", "Swahili", TWO_FORMS),
    Language("ur", "Urdu", TWO_FORMS, rtl=True),
    # Two forms, singular for zero and one.
    Language("fr", "French", "nplurals=2; plural=(n > 1);"),
    Language("pt_BR", "Portuguese (Brazil)", "nplurals=2; plural=(n > 1);"),
    Language("fa", "Persian", "nplurals=2; plural=(n > 1);", rtl=True),
    # Three or more forms.
    Language("lv", "Latvian", "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n != 0 ? 1 : 2);"),
    Language("ga", "Irish", "nplurals=3; plural=n==1 ? 0 : n==2 ? 1 : 2;"),
    Language("ro", "Romanian", "nplurals=3; plural=n==1 ? 0 : (n==0 || (n%100 > 0 && n%100 < 20)) ? 1 : 2;"),
    Language("lt", "Lithuanian", "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && (n%100<10 || n%100>=20) ? 1 : 2);"),
    Language("ru", "Russian", _EAST_SLAVIC),
    Language("uk", "Ukrainian", _EAST_SLAVIC),
    Language("be", "Belarusian", _EAST_SLAVIC),
    Language("sr", "Serbian", _EAST_SLAVIC),
    Language("hr", "Croatian", _EAST_SLAVIC),
    Language("bs", "Bosnian", _EAST_SLAVIC),
    Language("cs", "Czech", "nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;"),
    Language("sk", "Slovak", "nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;"),
    Language("pl", "Polish", "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);"),
    Language("sl", "Slovenian", "nplurals=4; plural=(n%100==1 ? 0 : n%100==2 ? 1 : n%100==3 || n%100==4 ? 2 : 3);"),
    Language("ar", "Arabic", "nplurals=6; plural=(n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5);", rtl=True),
]

LANGUAGES: dict[str, Language] = {lang.code: lang for lang in _TABLE}

RTL_SCRIPTS = {"ar", "he", "fa", "ur", "yi", "ps", "sd", "ug", "ckb", "dv"}
"""Languages written right to left (by the base code), listed in the table or not."""

CODE = re.compile(r"^[a-z]{2,3}(?:_[A-Z]{2}|_[A-Z][a-z]{3})?$")
"""A POSIX-style language code as gettext, Weblate and Poedit name catalogs: `fr`, `pt_BR`, `sr_Latn`."""


def plural_forms(code: str) -> str | None:
    """The Plural-Forms of ``code`` (or of its base language), None when unknown.

    >>> plural_forms("pl")
    'nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);'
    >>> plural_forms("de_AT") == plural_forms("de")
    True
    >>> plural_forms("xx") is None
    True
    """
    lang = LANGUAGES.get(code) or LANGUAGES.get(code.split("_")[0])
    return lang.plural_forms if lang else None


def english_name(code: str) -> str:
    """``code``'s English name, or the code itself."""
    lang = LANGUAGES.get(code) or LANGUAGES.get(code.split("_")[0])
    return lang.name if lang else code


def is_rtl(code: str) -> bool:
    """Whether ``code`` is written right to left.

    >>> is_rtl("ar"), is_rtl("he_IL"), is_rtl("fr")
    (True, True, False)
    """
    return code.split("_")[0] in RTL_SCRIPTS


def check_code(code: str) -> str | None:
    """Why ``code`` is not a usable language code, or None when it is."""
    if code == "en":
        return "en is the source language; it needs no catalog"
    if not CODE.match(code):
        hint = code.replace("-", "_")
        if "_" in hint:
            base, _, region = hint.partition("_")
            hint = f"{base.lower()}_{region.upper()}"
        else:
            hint = hint.lower()
        suggestion = f"; did you mean {hint}?" if CODE.match(hint) and hint != "en" else ""
        return f"{code!r} is not a language code such as fr, pt_BR or zh_CN{suggestion}"
    return None


@lru_cache(maxsize=256)
def _rule(plural_forms_value: str):
    """(nplurals, function of n) of a Plural-Forms value, or None when it does not parse."""
    import gettext

    m = re.match(r"^\s*nplurals\s*=\s*([0-9]+)\s*;\s*plural\s*=\s*(.+?)\s*;?\s*$", plural_forms_value)
    if not m:
        return None
    try:
        return int(m.group(1)), gettext.c2py(m.group(2))
    except (ValueError, SyntaxError, RecursionError):
        return None


def same_plural_rule(a: str, b: str) -> bool:
    """Whether two Plural-Forms values have the same number of forms and pick the same one for
    every n from 0 to 1000 (the same rule, however it is spelled).

    >>> same_plural_rule("nplurals=2; plural=(n != 1);", "nplurals=2; plural=n!=1;")
    True
    >>> same_plural_rule("nplurals=2; plural=(n > 1);", "nplurals=2; plural=(n != 1);")
    False
    """
    ra, rb = _rule(a), _rule(b)
    if ra is None or rb is None or ra[0] != rb[0]:
        return False
    try:
        return all(ra[1](n) == rb[1](n) for n in range(1001))
    except (ZeroDivisionError, RecursionError):
        return False
