"""The terminology glossary (``translations/glossary.yaml``): one translation per term.

Each entry names an English term and, per language, the translations to ``use`` (any one of
them must appear when the English contains the term) and the variants to ``avoid`` (none of
them may appear in a translation whose English contains the term)::

    terms:
      - en: [KV cache, KV-cache]
        note: the cache of keys and values kept during decoding
        fr: {use: [cache KV], avoid: [KV cache, cache clé-valeur]}
        nl: {use: [KV-cache], avoid: [KV cache]}

Matching ignores case and treats no-break spaces as spaces. A form matches at the start of a
word and may carry an ending (``lot`` → *lots*, ``gewicht`` → *gewichten*), unless it ends with
``$`` (``edge$`` matches *edge* only); a leading ``*`` lets it match inside a word, for Dutch
compounds (``*gewicht`` → *modelgewichten*). In English terms a space also matches a hyphen
(``KV cache`` matches *KV-cache*); in translations it does not, so ``avoid: [KV cache$]``
leaves *KV-cache* alone.

Three more keys cover a word that translates two English terms and the published pages:

* ``names`` (of the term): product names that contain the term and are not translated
  (``ONNX Runtime``); they are left out of both texts before matching.
* ``unless`` (of the term): English terms whose own translation is an ``avoid`` form
  (``accuracy`` avoids *précision* unless the English also says ``precision``); when the
  English has one of them, the ``avoid`` forms are not reported (``use`` still is).
* ``published`` (per language): catalog keys (``q028.stem``) whose wording a published page
  fixes; neither ``use`` nor ``avoid`` applies to them.

Accepted answers of short-answer questions are not checked: they list what learners type.

``bank validate`` reports W521 when a translation lacks every ``use`` form, W522 when it
contains an ``avoid`` form, and E520 when the glossary itself cannot be read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

GLOSSARY_NAME = "glossary.yaml"


@dataclass(frozen=True)
class Rule:
    use: tuple[str, ...] = ()
    avoid: tuple[str, ...] = ()
    published: tuple[str, ...] = ()


@dataclass(frozen=True)
class Term:
    english: tuple[str, ...]
    note: str = ""
    rules: dict[str, Rule] = field(default_factory=dict)
    line: int = 0
    names: tuple[str, ...] = ()
    unless: tuple[str, ...] = ()


def _form_pattern(form: str, *, english: bool = False) -> re.Pattern:
    """A form as a pattern: starts a word (or anywhere with a leading ``*``), ``$`` ends it."""
    exact = form.endswith("$")
    infix = form.startswith("*")
    form = form.strip("*$ ")
    if english:  # English writes "KV cache" and "KV-cache" alike
        body = r"[\s\u00a0\u202f-]+".join(re.escape(part) for part in re.split(r"[\s-]+", form))
    else:
        body = r"[\s\u00a0\u202f]+".join(re.escape(part) for part in form.split())
    start = "" if infix else r"(?<![\w])"
    end = r"(?![\w])" if exact else ""
    return re.compile(rf"{start}{body}{end}", re.IGNORECASE)


ENGLISH_MEMO_TEXTS = 20_000
"""English texts whose terms :meth:`Glossary.check` keeps (each catalog of a process checks the
same English texts again); past this many, it finds them anew for each text."""


@dataclass
class Glossary:
    path: Path
    terms: list[Term]
    _compiled: dict = field(default_factory=dict)
    _in_english: dict = field(default_factory=dict)

    def _patterns(self, forms: tuple[str, ...], english: bool = False) -> list[re.Pattern]:
        key = (forms, english)
        if key not in self._compiled:
            self._compiled[key] = [_form_pattern(f, english=english) for f in forms]
        return self._compiled[key]

    def _mentioned(self, forms: tuple[str, ...]) -> re.Pattern:
        """One search for the first word of each English form, without the forms' word
        boundaries: a text it does not find cannot hold the term. (Leaving product names out
        turns their letters into spaces, which never makes a word appear; the letters a form
        matches in the masked text are the same at the same places in the text.)"""
        key = (forms, "mentioned")
        if key not in self._compiled:
            firsts = {re.split(r"[\s-]+", form.strip("*$ "))[0] for form in forms}
            self._compiled[key] = re.compile("|".join(sorted(map(re.escape, firsts))) if forms else "(?!)", re.IGNORECASE)
        return self._compiled[key]

    def _ascii_firsts(self, forms: tuple[str, ...]) -> tuple[str, ...] | None:
        """The first words :meth:`_mentioned` searches for, in lower case, when all are ASCII
        (else None): in an ASCII text, ignoring case is comparing lower case, so a text whose
        lower case holds none of them is one the search does not find."""
        key = (forms, "ascii")
        if key not in self._compiled:
            firsts = {re.split(r"[\s-]+", form.strip("*$ "))[0] for form in forms}
            self._compiled[key] = tuple(sorted(first.lower() for first in firsts)) if all(first.isascii() for first in firsts) else None
        return self._compiled[key]

    def _first_words(self) -> tuple[dict[str, tuple[int, ...]], frozenset[int]]:
        """({first word in lower case: the indexes of the terms :meth:`_ascii_firsts` gives it},
        the indexes of the terms it gives None: searched for with :meth:`_mentioned`)."""
        key = ("first words", None)  # (the terms are fixed once read)
        if key not in self._compiled:
            by_first: dict[str, list[int]] = {}
            searched = set()
            for index, term in enumerate(self.terms):
                firsts = self._ascii_firsts(term.english)
                if firsts is None:
                    searched.add(index)
                    continue
                for first in firsts:
                    by_first.setdefault(first, []).append(index)
            self._compiled[key] = ({first: tuple(indexes) for first, indexes in by_first.items()}, frozenset(searched))
        return self._compiled[key]

    def english_terms(self, english: str) -> tuple[tuple[Term, bool], ...]:
        """The terms ``english`` holds (after leaving their product names out), in the glossary's
        order, each with whether it also holds one of the term's ``unless`` terms: what
        :meth:`check` finds in the English, the same for every language (kept for the first
        :data:`ENGLISH_MEMO_TEXTS` texts)."""
        found = self._in_english.get(english)
        if found is not None:
            return found
        held = []
        if english.isascii():
            lowered = english.lower()
            by_first, searched = self._first_words()
            # the terms one of whose ASCII first words the lower case holds, with those searched
            # for with case ignored, in the glossary's order
            candidates = sorted({index for first, indexes in by_first.items() if first in lowered for index in indexes}.union(searched))
        else:
            candidates = range(len(self.terms))
            searched = None
        for index in candidates:
            term = self.terms[index]
            if (searched is None or index in searched) and not self._mentioned(term.english).search(english):
                continue
            source = english
            for name_pattern in self._patterns(term.names, english=True):  # same length: offsets stay
                source = name_pattern.sub(lambda m: " " * len(m.group(0)), source)
            if not any(p.search(source) for p in self._patterns(term.english, english=True)):
                continue
            held.append((term, any(p.search(source) for p in self._patterns(term.unless, english=True))))
        found = tuple(held)
        if len(self._in_english) < ENGLISH_MEMO_TEXTS:
            self._in_english[english] = found
        return found

    def check(self, english: str, translation: str, language: str, key: str | None = None) -> list[tuple[str, str, int]]:
        """(code, message, offset in translation) for every glossary breach (``key``: the
        catalog key of the text, for the rules' ``published`` exceptions)."""
        lang = language.split("_")[0]
        found = []
        plain = translation.replace("\u00a0", " ").replace("\u202f", " ")
        for term, shared in self.english_terms(english):
            rule = term.rules.get(language) or term.rules.get(lang)
            if rule is None or (key is not None and key in rule.published):
                continue
            text = plain
            for name_pattern in self._patterns(term.names, english=True):  # same length: offsets stay
                text = name_pattern.sub(lambda m: " " * len(m.group(0)), text)
            name = term.english[0].rstrip("$")
            for form, pattern in zip(() if shared else rule.avoid, self._patterns(rule.avoid)):
                match = pattern.search(text)
                if match:
                    want = " or ".join(repr(u.rstrip("$")) for u in rule.use) or "another wording"
                    found.append(("W522", f"{name!r} is translated with the avoided variant {match.group(0)!r}; the glossary asks for {want}", match.start()))
            if rule.use and not any(p.search(text) for p in self._patterns(rule.use)):
                found.append(("W521", f"the English has {name!r}, but the translation has none of {', '.join(repr(u.rstrip('$')) for u in rule.use)} (glossary)", 0))
        return found


_READ: dict[tuple[str, str], tuple] = {}
"""Glossaries already read in this process, by path and content (each catalog's lints ask again)."""


def read_glossary(translations: Path):
    """(glossary or None, diagnostics); no file means no glossary and no diagnostic."""
    from ..errors import Location, error

    path = translations / GLOSSARY_NAME
    if not path.is_file():
        return None, []
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeError) as exc:
        return None, [error("E520", f"cannot read the glossary: {exc}", Location.of(path))]
    key = (path.as_posix(), text)
    if key not in _READ:
        _READ.clear()
        _READ[key] = _parse_glossary(path, text)
    glossary, diags = _READ[key]
    return glossary, list(diags)


def _parse_glossary(path: Path, text: str):
    """The glossary, read as every other file of the project (YAML 1.2 through the located
    loader: ``no`` and ``off`` are words, not booleans), each term located at its line."""
    from ..errors import Location, Severity, error
    from ..yamlsource import parse_yaml

    where = Location.of(path)
    doc, found = parse_yaml(text, path)
    refused = [d for d in found if d.severity is Severity.ERROR]
    if doc is None or refused:
        first = refused[0] if refused else None
        return None, [error("E520", f"the glossary is not valid YAML: {first.message if first else 'nothing in it'}", first.location if first else where)]
    data = doc.data
    if not isinstance(data, dict) or not isinstance(data.get("terms"), list):
        return None, [error("E520", "the glossary must be a mapping with a `terms:` list", doc.locate(("terms",)) if isinstance(data, dict) else where)]
    terms, diags = [], []
    for index, raw in enumerate(data["terms"]):
        loc = doc.locate(("terms", index, "en") if isinstance(raw, dict) and "en" in raw else ("terms", index))
        line = loc.line
        if not isinstance(raw, dict) or "en" not in raw:
            diags.append(error("E520", f"term {index + 1}: needs `en:` (a term or a list of terms)", loc))
            continue
        english = raw["en"] if isinstance(raw["en"], list) else [raw["en"]]
        if not english or not all(isinstance(e, str) and e.strip() for e in english):
            diags.append(error("E520", f"term {index + 1}: `en:` must be a non-empty string or list of strings", loc))
            continue
        rules = {}
        for lang, spec in raw.items():
            if lang in ("en", "note", "names", "unless"):
                continue
            if not isinstance(spec, dict) or set(spec) - {"use", "avoid", "published"}:
                diags.append(error("E520", f"term {english[0]!r}, {lang}: expected a mapping with `use:`, `avoid:` and/or `published:`", doc.locate(("terms", index, lang))))
                continue
            use, avoid, published = ([value] if isinstance(value, str) else value
                                     for value in (spec.get("use", []), spec.get("avoid", []), spec.get("published", [])))
            if not all(isinstance(u, str) and u.strip() for u in list(use) + list(avoid) + list(published)):
                diags.append(error("E520", f"term {english[0]!r}, {lang}: `use`, `avoid` and `published` must be strings", doc.locate(("terms", index, lang))))
                continue
            rules[lang] = Rule(tuple(use), tuple(avoid), tuple(published))
        extra = {}
        for name in ("names", "unless"):
            value = raw.get(name, [])
            value = [value] if isinstance(value, str) else value
            if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
                diags.append(error("E520", f"term {english[0]!r}: `{name}` must be a string or a list of strings", doc.locate(("terms", index, name))))
                value = []
            extra[name] = tuple(value)
        terms.append(Term(tuple(english), str(raw.get("note", "")), rules, line, **extra))
    return Glossary(path, terms), diags


def catalog_glossary_diagnostics(glossary: Glossary | None, catalog, active: dict, fields, current: list | None = None) -> list:
    """W521/W522 for every translated, non-fuzzy entry of one catalog, except a short-answer
    question's accepted answers: they list what learners type (an English name, a spelling
    variant), while the glossary governs the texts learners read (``current``: the current
    translations of ``fields``, :func:`.locations.current_translations`, when the caller has them)."""
    from .locations import translation_warnings

    if glossary is None:
        return []
    if current is not None:
        current = [(field, entry) for field, entry in current if not _accepted_answer(field)]
    return translation_warnings(catalog, active, [field for field in fields if not _accepted_answer(field)] if current is None else (),
                                lambda field, msgstr: glossary.check(field.text, msgstr, catalog.language, field.key), current)


def _accepted_answer(field) -> bool:
    """Whether ``field`` is the text of a short answer's accepted answer (``("answers", 2, "text")``)."""
    return len(field.loc) == 3 and field.loc[0] == "answers" and field.loc[2] == "text"
