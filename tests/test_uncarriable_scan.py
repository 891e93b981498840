"""The uncarriable-text scan (E606) first checks each language's texts at once, taken from the
questions' kinds without making their translatable fields: it must find what the scan text by
text found, and report the same first text, on every kind of question."""

from __future__ import annotations

import copy
import random

from pydantic import BaseModel

from conftest import REPO

BAD = ["\x00", "\x08", "\x0b", "\x0c", "\x0e", "\x1b", "\x1f", "\x7f", "\ud800", "\udfff", "\ufffe", "\uffff"]
GOOD = ["\t", "\n", "\r", " ", "é", "\u05d0", "\U0001f600", "\\u0000", "\x80", "\ufffd"]


def _old_first_uncarriable(libraries):
    """The scan as it was: every text of :func:`~aistack_bank.build.bank_texts`, one by one."""
    from aistack_bank.build import as_libraries, bank_texts
    from aistack_bank.safety import UNCARRIABLE

    for lang, library in as_libraries(libraries).items():
        for key, text in (item for bank in library.topics for item in bank_texts(bank)):
            bad = UNCARRIABLE.search(text)
            if bad:
                return key, lang, bad.group(), bad.start()
    return None


def _libraries():
    from aistack_bank.build import load_libraries

    root = REPO / "examples" / "every-kind"
    libraries, _ = load_libraries(root / "bank", root / "translations", ["en", "fr", "nl"])
    return libraries


def _places(model, out):
    """Every (model, field name, index or None) holding a text, nested models included (not a
    question's kind: the scan asks it which texts the question has)."""
    for name in type(model).model_fields:
        if name == "kind":
            continue
        value = getattr(model, name)
        if isinstance(value, str):
            out.append((model, name, None))
        elif isinstance(value, BaseModel):
            _places(value, out)
        elif isinstance(value, (list, tuple)):
            for index, item in enumerate(value):
                if isinstance(item, str):
                    out.append((model, name, index))
                elif isinstance(item, BaseModel):
                    _places(item, out)
        elif isinstance(value, dict):
            for key, item in value.items():
                if isinstance(item, str):
                    out.append((model, name, key))
    return out


def _spoil(rng, text: str) -> str:
    where = rng.randrange(len(text) + 1)
    return text[:where] + rng.choice(BAD if rng.random() < 0.8 else GOOD) + text[where:]


def _set(model, name, index, text) -> None:
    if index is None:
        object.__setattr__(model, name, text)
        return
    value = getattr(model, name)
    if isinstance(value, dict):
        object.__setattr__(model, name, {**value, index: text})
    else:
        object.__setattr__(model, name, type(value)(text if i == index else item for i, item in enumerate(value)))


def test_the_scan_finds_what_the_text_by_text_scan_found():
    from aistack_bank.build import first_uncarriable

    base = _libraries()
    kinds = {q.kind for library in base.values() for bank in library.topics for q in bank.questions}
    assert len(kinds) >= 8  # every kind of question is in the sample
    assert first_uncarriable(base) is None and _old_first_uncarriable(base) is None
    rng = random.Random(7)
    found = 0
    for _ in range(150):
        libraries = copy.deepcopy(base)
        places = [place for library in libraries.values() for place in _places(library, [])]
        for _ in range(rng.choice([1, 1, 2, 3])):
            model, name, index = rng.choice(places)
            value = getattr(model, name)
            _set(model, name, index, _spoil(rng, value if index is None else value[index]))
        expected = _old_first_uncarriable(libraries)
        found += expected is not None
        assert first_uncarriable(libraries) == expected
    assert found >= 60  # most runs put in a character the scan must find


def test_every_text_of_every_kind_is_scanned():
    """A bad character in any text a format writes, of any kind, is found (and the same one)."""
    from aistack_bank.build import first_uncarriable

    base = _libraries()
    en = base["en"]
    texts = _places(en, [])
    assert len(texts) > 100
    for position in range(len(texts)):
        library = copy.deepcopy(en)
        model, name, index = _places(library, [])[position]
        value = getattr(model, name)
        _set(model, name, index, (value if index is None else value[index]) + "\x1f")
        assert first_uncarriable({"en": library}) == _old_first_uncarriable({"en": library})
