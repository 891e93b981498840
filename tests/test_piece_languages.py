"""A build's rendering workers are sent, for each piece of a format, only the localized
libraries that piece needs (``Format.part_languages``: a language's file needs that language
alone): every language's file of every format, rendered from its own library alone, is the
file rendered from every language's; and a worker holds each library it was sent once."""

from __future__ import annotations

import pickle

import pytest


def test_a_languages_file_is_rendered_from_its_library_alone():
    """On a bank of every kind in three languages (``qti_kinds_bank.py``), every format."""
    import qti_kinds_bank

    from aistack_bank.exporters import FORMATS
    from aistack_bank.exporters.record import as_library
    from aistack_bank.options import ExportOptions

    libraries = {lang: as_library(bank) for lang, bank in qti_kinds_bank.banks().items()}
    langs = list(libraries)
    assert len(langs) > 1
    options = ExportOptions()
    alone = 0
    for name, export_format in FORMATS.items():
        for part in export_format.parts(langs, len(libraries["en"].topics)):
            needed = export_format.part_languages(part, langs)
            assert needed == ([part] if part in langs else langs), (name, part)
            if needed != langs:
                alone += 1
                files = export_format.part_files({lang: libraries[lang] for lang in needed}, options, part)
                assert files == export_format.part_files(libraries, options, part), (name, part)
    assert alone >= 6 * len(langs)  # most formats write one file per language


def test_a_worker_unpickles_each_library_it_is_sent_once(monkeypatch):
    from aistack_bank import build

    monkeypatch.setattr(build, "_RECEIVED", {})
    loads = []
    real_loads = pickle.loads
    monkeypatch.setattr(pickle, "loads", lambda data: loads.append(data) or real_loads(data))
    payload = ("t1", (("en", pickle.dumps("EN")), ("fr", pickle.dumps("FR")), ("nl", pickle.dumps("NL"))))
    assert build._received(build._part_payload(payload, ["fr"])) == {"fr": "FR"}
    assert build._received(payload) == {"en": "EN", "fr": "FR", "nl": "NL"}
    assert build._received(build._part_payload(payload, ["nl"])) == {"nl": "NL"}
    assert len(loads) == 3
    assert build._received(("t2", (("en", pickle.dumps("EN2")),))) == {"en": "EN2"}  # another build's libraries
    assert len(loads) == 4
