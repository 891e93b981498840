"""A QTI 1.2 choice item (Canvas's quiz, the cartridge's assessment and question bank) is made
from its template as one format of bytes (``exporters/qti12_common.py``, ``_from_template``:
``layout % pick(values)``, each text escaped once however often the item holds it): every member
of every Canvas and cartridge package, of a topic and of the whole bank, is what the old code
(kept below, verbatim but for reading the template's first two parts) made by joining the
template's pieces and a value escaped for each place in turn. On the bundled bank, on
``examples/every-kind`` and on scrambled banks of every kind with hostile texts and ids
(``%`` among them, which the format doubles in its own pieces, and NULs)."""

from __future__ import annotations

import io
import random
import zipfile

import pytest

from aistack_bank.build import available_languages, load_libraries
from aistack_bank.exporters import canvas_qti12, common_cartridge, qti12_common
from aistack_bank.exporters.common import english_fallback, html_text, paragraph_escaped_body, short
from aistack_bank.exporters.qti12_common import _TEMPLATES, _shape, _template, item_ident
from aistack_bank.exporters.qti_common import slot_texts
from aistack_bank.exporters.record import as_library
from aistack_bank.options import ExportOptions

from conftest import REPO
from test_qti_text_writer import variants


def old_from_template(q, lang: str, canvas: bool, indent: str, suffix: str, shared=None, index: int = -1) -> bytes | None:
    """``qti12_common._from_template`` as it was: the item's pieces and values joined in turn."""
    made = shared.take(index) if shared is not None else None
    if made is not None and made[0] is q:
        _, shape, kept_slots, values, title, prefix = made
        texts = marked = None
    else:
        made = None
        texts, marked, shape = _shape(q, lang)
    key = (canvas, indent, suffix, shape)
    template = _TEMPLATES.get(key, False)
    if template is False:
        if texts is None:
            texts, marked, _ = _shape(q, lang)
        template = _template(q, lang, canvas, indent, suffix, texts, marked)
        if len(_TEMPLATES) >= 1 << 12:
            _TEMPLATES.clear()
        _TEMPLATES[key] = template
    if template is None:
        return None
    slots, utf8 = template[0], template[1]
    if made is None or kept_slots != slots:
        if texts is None:
            texts = slot_texts(q)
        prefix = item_ident(q.id, lang).encode("utf-8")
        title = html_text(short(q.id + " " + q.stem, 120)).encode("utf-8")
        values = [prefix if slot == -1 else (paragraph_escaped_body(texts[slot[0]]) if slot[1] else html_text(texts[slot[0]])).encode("utf-8") for slot in slots]
        if shared is not None and made is None:
            shared.keep(index, (q, shape, slots, values, title, prefix))
    out = [indent.encode("utf-8"), b'<item ident="', prefix, suffix.encode("utf-8"), b'" title="', title, b'">', utf8[0]]
    for value, literal in zip(values, utf8[1:]):
        out.append(value)
        out.append(literal)
    return b"".join(out)


def members(package: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(package)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def packages(library, options: ExportOptions) -> list[bytes]:
    """Every Canvas and cartridge package of ``library``: of each topic, and of the whole bank."""
    out = [common_cartridge.bank_package(library), canvas_qti12.bank_package(library, options)]
    for topic in library.topics:
        bank = library.bank(topic.topic.id)
        out += [common_cartridge.package(bank), canvas_qti12.package(bank, options)]
    return out


def same_as_old(monkeypatch, cases) -> int:
    """Render each case's packages with the new code, then with the old put back; compare them
    member by member and whole. ``cases``: (label, library, options, English fallbacks by language)."""
    made = []
    for label, library, options, english in cases:
        with english_fallback(english, [library.lang]):
            made.append(packages(library, options))
    compared = 0
    with monkeypatch.context() as patched:
        patched.setattr(qti12_common, "_from_template", old_from_template)
        for (label, library, options, english), new in zip(cases, made):
            with english_fallback(english, [library.lang]):
                old = packages(library, options)
            assert len(new) == len(old)
            for new_package, old_package in zip(new, old):
                new_members, old_members = members(new_package), members(old_package)
                assert new_members.keys() == old_members.keys(), label
                for name in new_members:
                    assert new_members[name] == old_members[name], (label, name)
                assert new_package == old_package, label
                compared += len(new_members)
    return compared


@pytest.mark.parametrize("project", ["", "examples/every-kind"])
def test_the_projects_packages_are_the_old_codes(project, monkeypatch):
    root = REPO / project if project else REPO
    libraries, _ = load_libraries(root / "bank", root / "translations", available_languages(root / "translations"), allow_fallback=True)
    assert len(libraries) >= 2
    cases = [(f"{project or 'bank'} {lang}", library, ExportOptions(shuffle=shuffle), {})
             for lang, library in sorted(libraries.items()) for shuffle in (False, True)]
    assert same_as_old(monkeypatch, cases) > 20


PERCENT = ["%", "%s", "%%", "%(x)s", "%d", "100 %", "% of it", "50%\n%", "\0", "a\0b", "\0\0"]
"""Put into texts (and ``%`` into ids)."""


def test_hostile_banks_are_the_old_codes(monkeypatch):
    """Scrambled banks of every kind (hostile texts, English fallbacks, both option sets), with
    ``%`` put into texts and ids (the bytes format doubles every ``%`` of its own pieces) and
    NULs into texts."""
    rng = random.Random(33)
    cases = []
    for seed, bank, english, options in variants(40):
        questions = []
        for q in bank.questions:
            update = {"stem": q.stem + rng.choice(PERCENT)} if rng.random() < 0.5 else {}
            if rng.random() < 0.3:
                update["id"] = q.id + rng.choice(["%", "%s", "%%"])
            if getattr(q, "options", None) and rng.random() < 0.5:
                update["options"] = [o.model_copy(update={"text": o.text + rng.choice(PERCENT),
                                                          "feedback": o.feedback and o.feedback + rng.choice(PERCENT)}) for o in q.options]
            if getattr(q, "explanation", None) and rng.random() < 0.3:
                update["explanation"] = q.explanation + rng.choice(PERCENT)
            questions.append(q.model_copy(update=update))
        topic = bank.topic.model_copy(update={"id": bank.topic.id + rng.choice(["", "%"])}) if rng.random() < 0.3 else bank.topic
        bank = bank.model_copy(update={"questions": questions, "topic": topic})
        cases.append((f"seed {seed}", as_library(bank), options, {bank.lang: english}))
    assert same_as_old(monkeypatch, cases) > 100


def test_percent_in_the_templates_own_pieces_is_the_old_codes(monkeypatch):
    """A true/false item's labels are the template's own text (the language's words): with ``%``
    in them, the format's pieces hold it, doubled, and still write it once."""
    from dataclasses import replace

    from aistack_bank.exporters import words as words_module

    real = words_module.words
    monkeypatch.setattr(qti12_common, "words", lambda lang: replace(real(lang), true="Vrai %s 100 %", false="%(x)s %% %d"))
    _TEMPLATES.clear()
    cases = [(f"seed {seed}", as_library(bank), options, {bank.lang: english}) for seed, bank, english, options in variants(12)]
    assert any(q.kind == "true-false" for _, library, _, _ in cases for topic in library.topics for q in library.bank(topic.topic.id).questions)
    assert same_as_old(monkeypatch, cases) > 20
    _TEMPLATES.clear()
