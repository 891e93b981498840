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
    native: str = ""
    """The language's name in that language (its endonym), as CLDR writes it in running text."""


_TABLE = [
    Language("en", "English", TWO_FORMS, native="English"),
    # One form.
    Language("ja", "Japanese", _ONE_FORM, native="日本語"),
    Language("ko", "Korean", _ONE_FORM, native="한국어"),
    Language("zh", "Chinese", _ONE_FORM, native="中文"),
    Language("zh_CN", "Chinese (China)", _ONE_FORM, native="中文（中国）"),
    Language("zh_TW", "Chinese (Taiwan)", _ONE_FORM, native="中文（台灣）"),
    Language("vi", "Vietnamese", _ONE_FORM, native="Tiếng Việt"),
    Language("th", "Thai", _ONE_FORM, native="ไทย"),
    Language("id", "Indonesian", _ONE_FORM, native="Bahasa Indonesia"),
    Language("ms", "Malay", _ONE_FORM, native="Bahasa Melayu"),
    # Two forms, singular for one only.
    Language("de", "German", TWO_FORMS, native="Deutsch"),
    Language("nl", "Dutch", TWO_FORMS, native="Nederlands"),
    Language("sv", "Swedish", TWO_FORMS, native="svenska"),
    Language("da", "Danish", TWO_FORMS, native="dansk"),
    Language("no", "Norwegian", TWO_FORMS, native="norsk"),
    Language("nb", "Norwegian Bokmål", TWO_FORMS, native="norsk bokmål"),
    Language("nn", "Norwegian Nynorsk", TWO_FORMS, native="norsk nynorsk"),
    Language("fo", "Faroese", TWO_FORMS, native="føroyskt"),
    Language("es", "Spanish", TWO_FORMS, native="español"),
    Language("pt", "Portuguese", TWO_FORMS, native="português"),
    Language("it", "Italian", TWO_FORMS, native="italiano"),
    Language("ca", "Catalan", TWO_FORMS, native="català"),
    Language("bg", "Bulgarian", TWO_FORMS, native="български"),
    Language("el", "Greek", TWO_FORMS, native="Ελληνικά"),
    Language("fi", "Finnish", TWO_FORMS, native="suomi"),
    Language("et", "Estonian", TWO_FORMS, native="eesti"),
    Language("he", "Hebrew", TWO_FORMS, rtl=True, native="עברית"),
    Language("eo", "Esperanto", TWO_FORMS, native="esperanto"),
    Language("hu", "Hungarian", TWO_FORMS, native="magyar"),
    Language("tr", "Turkish", TWO_FORMS, native="Türkçe"),
    Language("hi", "Hindi", TWO_FORMS, native="हिन्दी"),
    Language("bn", "Bengali", TWO_FORMS, native="বাংলা"),
    Language("sw", "Swahili", TWO_FORMS, native="Kiswahili"),
    Language("ur", "Urdu", TWO_FORMS, rtl=True, native="اردو"),
    # Two forms, singular for zero and one.
    Language("fr", "French", "nplurals=2; plural=(n > 1);", native="français"),
    Language("pt_BR", "Portuguese (Brazil)", "nplurals=2; plural=(n > 1);", native="português (Brasil)"),
    Language("fa", "Persian", "nplurals=2; plural=(n > 1);", rtl=True, native="فارسی"),
    # Three or more forms.
    Language("lv", "Latvian", "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n != 0 ? 1 : 2);", native="latviešu"),
    Language("ga", "Irish", "nplurals=3; plural=n==1 ? 0 : n==2 ? 1 : 2;", native="Gaeilge"),
    Language("ro", "Romanian", "nplurals=3; plural=n==1 ? 0 : (n==0 || (n%100 > 0 && n%100 < 20)) ? 1 : 2;", native="română"),
    Language("lt", "Lithuanian", "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && (n%100<10 || n%100>=20) ? 1 : 2);", native="lietuvių"),
    Language("ru", "Russian", _EAST_SLAVIC, native="русский"),
    Language("uk", "Ukrainian", _EAST_SLAVIC, native="українська"),
    Language("be", "Belarusian", _EAST_SLAVIC, native="беларуская"),
    Language("sr", "Serbian", _EAST_SLAVIC, native="српски"),
    Language("hr", "Croatian", _EAST_SLAVIC, native="hrvatski"),
    Language("bs", "Bosnian", _EAST_SLAVIC, native="bosanski"),
    Language("cs", "Czech", "nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;", native="čeština"),
    Language("sk", "Slovak", "nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;", native="slovenčina"),
    Language("pl", "Polish", "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);", native="polski"),
    Language("sl", "Slovenian", "nplurals=4; plural=(n%100==1 ? 0 : n%100==2 ? 1 : n%100==3 || n%100==4 ? 2 : 3);", native="slovenščina"),
    Language("ar", "Arabic", "nplurals=6; plural=(n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5);", rtl=True, native="العربية"),
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


def endonym(code: str) -> str:
    """``code``'s name in its own language, as a language menu shows it (first letter
    capitalised, as CLDR's context transforms do for lists and menus); a regional variant not
    listed is its base language's name with the region; an unknown language, the code itself.

    >>> endonym("de"), endonym("pl"), endonym("ar"), endonym("pt_BR"), endonym("de_CH"), endonym("xx")
    ('Deutsch', 'Polski', 'العربية', 'Português (Brasil)', 'Deutsch (CH)', 'xx')
    """
    lang = LANGUAGES.get(code)
    if lang:
        name = lang.native
    else:
        base, _, region = code.partition("_")
        lang = LANGUAGES.get(base)
        if not lang:
            return code
        name = f"{lang.native} ({region})" if region else lang.native
    return name[:1].upper() + name[1:]


def bcp47(code: str) -> str:
    """A catalog code (``pt_BR``) as a BCP 47 tag for HTML's ``lang`` and ``hreflang`` (``pt-BR``)."""
    return code.replace("_", "-")


def moodle_code(code: str) -> str:
    """A catalog code as Moodle names its language packs: lower case, ``_`` between parts.

    Moodle's multilang filter lower-cases a block's ``lang`` and turns ``-`` into ``_`` before it
    compares it with the user's language (``pt_br``), then falls back to the parent pack
    (``pt``); ``{mlang}`` blocks (filter_multilang2) are compared as written, so the pack's
    own spelling is the one that works with both.

    >>> moodle_code("pt_BR"), moodle_code("zh_TW"), moodle_code("fr")
    ('pt_br', 'zh_tw', 'fr')
    """
    return code.replace("-", "_").lower()


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
