"""The uncarriable-text scan of a build (:func:`aistack_bank.build.first_uncarriable`) first looks
at each library's JSON, made in C (:func:`aistack_bank.build._none_in_json`), and goes over its
texts one by one only when that JSON may hold an uncarriable character.

Compared with the scan before (spelled out here), on the bundled bank and ``examples/every-kind``
in every language, as they are and with an uncarriable character (each of the kinds
:data:`~aistack_bank.safety.UNCARRIABLE` names: controls, DEL, surrogates, U+FFFE, U+FFFF), a
false alarm (a backslash before ``b``, ``f`` or ``u00``) or a carriable character put at random
in a random string of a random model (a question's text of any kind, a topic's, a tag, an id):
the same answer."""

from __future__ import annotations

import random

import pytest
from pydantic import BaseModel

from conftest import REPO
from aistack_bank import build
from aistack_bank.build import as_libraries, bank_texts, load_libraries
from aistack_bank.safety import UNCARRIABLE


def _first_uncarriable_before(libraries):
    for lang, library in as_libraries(libraries).items():
        if not UNCARRIABLE.search("\n".join(build._library_texts(library))):
            continue
        for key, text in (item for bank in library.topics for item in bank_texts(bank)):
            bad = UNCARRIABLE.search(text)
            if bad:
                return key, lang, bad.group(), bad.start()
    return None


def _strings(value, path=()):
    """(path, string) of every string in ``value`` (models, tuples, lists, dicts' keys and values)."""
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, BaseModel):
        for name, item in value.__dict__.items():
            if name == "kind":  # (a question's kind names its model: not a text)
                continue
            yield from _strings(item, path + (("attr", name),))
    elif isinstance(value, (tuple, list)):
        for index, item in enumerate(value):
            yield from _strings(item, path + (("item", index),))
    elif isinstance(value, dict):
        for index, (key, item) in enumerate(value.items()):
            yield from _strings(key, path + (("key", index),))
            yield from _strings(item, path + (("value", index),))


def _place(value, path) -> tuple:
    """Where the string at ``path`` of ``value`` is, its positions in tuples, lists and dicts
    aside: the type of each model, tuple, list or dict on the way down and the field taken, the
    string's own type last. pydantic's JSON of a string depends on these (each model's and each
    field's serializer), not on which question or which item of a list holds it."""
    place = []
    for how, where in path:
        if how == "attr":
            place.append((type(value).__name__, where))
            value = getattr(value, where)
        elif how == "item":
            place.append((type(value).__name__, how))
            value = value[where]
        else:
            place.append((type(value).__name__, how))
            value = list(value.items())[where][0 if how == "key" else 1]
    return (*place, type(value).__name__)


def _one_string_of_each_place(value) -> list:
    """(path, string) of the first string of each distinct :func:`_place` in ``value``."""
    first: dict[tuple, tuple] = {}
    for path, text in _strings(value):
        first.setdefault(_place(value, path), (path, text))
    return list(first.values())


def _replaced(value, path, new):
    """``value`` with the string at ``path`` replaced by ``new`` (models copied without validation)."""
    if not path:
        return new
    (how, where), rest = path[0], path[1:]
    if how == "attr":
        return value.model_copy(update={where: _replaced(getattr(value, where), rest, new)})
    if how == "item":
        items = list(value)
        items[where] = _replaced(items[where], rest, new)
        return type(value)(items)
    items = list(value.items())
    key, item = items[where]
    items[where] = (_replaced(key, rest, new), item) if how == "key" else (key, _replaced(item, rest, new))
    return dict(items)


CHARACTERS = ["\x00", "\x01", "\x08", "\x0b", "\x0c", "\x0e", "\x1f", "\x7f", "\ud800", "\udbff", "\udc00", "\udfff", "\ufffe", "\uffff",
              "\\b", "\\f", "\\u0001", "\\u001f", "\\u007f", "\t", "\n", "\r", "é", "\u2028", "\U0001f600", "\\", "\"", "\ufffd"]


@pytest.fixture(scope="module", params=[REPO, REPO / "examples" / "every-kind"], ids=["bundled", "every-kind"])
def libraries(request):
    root = request.param
    langs = build.available_languages(root / "translations")
    found, _ = load_libraries(root / "bank", root / "translations", langs, allow_fallback=True)
    return found


def test_the_libraries_as_they_are(libraries):
    assert build.first_uncarriable(libraries) is None is _first_uncarriable_before(libraries)
    assert all(build._none_in_json(library) for library in libraries.values())


@pytest.mark.parametrize("seed", range(60))
def test_a_character_put_anywhere_is_found_as_before(libraries, seed):
    rng = random.Random(seed)
    langs = list(libraries)
    changed = dict(libraries)
    for _ in range(rng.choice([1, 1, 2])):
        lang = rng.choice(langs)
        library = changed[lang]
        path, text = rng.choice(list(_strings(library)))
        at = rng.randint(0, len(text))
        changed[lang] = _replaced(library, path, text[:at] + rng.choice(CHARACTERS) + text[at:])
    assert build.first_uncarriable(changed) == _first_uncarriable_before(changed)


@pytest.mark.parametrize("character", [c for c in CHARACTERS if UNCARRIABLE.search(c)])
def test_each_uncarriable_character_in_each_text_exported_is_found(libraries, character):
    """A string of each place of every library (each text :func:`bank_texts` yields, of every
    kind, among them; a tag's name, a dict's key; :func:`_place`: every model and field down to
    it), one at a time: the JSON never says there is none when there is one. (Every string of a
    place, some 1 100 of a bundled language's 30 places, took 14 s of CPU and met the JSON's
    same serializers again.)"""
    rng = random.Random(ord(character))
    for lang, library in libraries.items():
        for path, text in _one_string_of_each_place(library):
            changed = _replaced(library, path, text + character)
            assert not build._none_in_json(changed)
    lang = rng.choice(list(libraries))
    topics = libraries[lang].topics
    stem = (("attr", "topics"), ("item", len(topics) - 1), ("attr", "questions"), ("item", len(topics[-1].questions) - 1), ("attr", "stem"))
    changed = dict(libraries, **{lang: _replaced(libraries[lang], stem, topics[-1].questions[-1].stem + character)})
    found = build.first_uncarriable(changed)
    assert found is not None and found == _first_uncarriable_before(changed)
