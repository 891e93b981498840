"""`bank build`'s guard against characters no format can carry (E606): one scan of the
localized banks serves every format, with the message the first format gives."""

from __future__ import annotations

import pytest

from conftest import REPO, keep_only


def _libraries():
    from aistack_bank.build import load_libraries

    libraries, _ = load_libraries(REPO / "bank", REPO / "translations", ["en", "fr"])
    return libraries


def _with_text(library, index: int, field: str, text: str):
    bank = library.topics[0]
    questions = list(bank.questions)
    questions[index] = questions[index].model_copy(update={field: text})
    bank = bank.model_copy(update={"questions": tuple(questions)})
    return library.model_copy(update={"topics": (bank, *library.topics[1:])})


def test_the_first_uncarriable_text_is_found_language_by_language_in_bank_order():
    from aistack_bank.build import first_uncarriable

    libraries = _libraries()
    assert first_uncarriable(libraries) is None
    fr = _with_text(_with_text(libraries["fr"], 3, "stem", "A\x1bB"), 1, "explanation", "xx\ufffe")
    q1, q3 = fr.topics[0].questions[1].id, fr.topics[0].questions[3].id
    assert first_uncarriable({"en": libraries["en"], "fr": fr}) == (f"{q1}.explanation", "fr", "\ufffe", 2)
    en = _with_text(libraries["en"], 3, "stem", "A\x1bB")
    assert first_uncarriable({"en": en, "fr": fr}) == (f"{q3}.stem", "en", "\x1b", 1)


def test_build_refuses_with_the_first_formats_message_and_writes_nothing(tmp_path, monkeypatch):
    from aistack_bank import build as build_module
    from aistack_bank.errors import ExportError
    from aistack_bank.exporters import FORMATS

    libraries = _libraries()
    broken = {"en": libraries["en"], "fr": _with_text(libraries["fr"], 2, "stem", "Pourquoi\x00 ?")}
    expected = None
    try:
        build_module.refuse_uncarriable(next(iter(FORMATS)), broken)
    except ExportError as exc:
        expected = exc.message
    assert expected is not None and expected.startswith(f"{next(iter(FORMATS))}: ") and "(fr)" in expected and "U+0000" in expected
    for name in FORMATS:  # every format refuses the same text
        with pytest.raises(ExportError, match=r"\(fr\) holds U\+0000"):
            build_module.refuse_uncarriable(name, broken)
    monkeypatch.setattr(build_module, "load_exported", lambda *args, **kwargs: (broken, [], {}))
    with pytest.raises(ExportError) as info:
        build_module.build(REPO / "bank", REPO / "translations", tmp_path / "exports")
    assert info.value.code == "E606" and info.value.message == expected
    assert not (tmp_path / "exports").exists()


def test_the_scan_is_left_out_only_when_every_format_was_kept_for_the_same_banks(project, tmp_path, monkeypatch):
    """A build whose every format was kept for exactly these localized banks (by an earlier
    build, which scanned them) does not scan again; any change to a text scans again."""
    from pathlib import Path

    from aistack_bank import build as build_module

    keep_only(project)  # seven builds, each of every format: a dozen questions are banks enough
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    scans = []
    real = build_module.first_uncarriable
    monkeypatch.setattr(build_module, "first_uncarriable", lambda libraries: scans.append(1) or real(libraries))

    def run(**kwargs):
        scans.clear()
        build_module.build(Path("bank"), Path("translations"), Path("exports"), **kwargs)
        return len(scans)

    assert run() == 1
    assert run() == 0
    question = sorted(Path("bank").rglob("q*.yaml"))[0]
    question.write_text(question.read_text(encoding="utf-8") + "# a comment: the same banks\n", encoding="utf-8")
    assert run() == 0
    (Path("exports") / "aiken").rename(Path("aiken-moved"))  # files gone, entries kept: rendered again, not scanned
    assert run() == 0
    assert build_module.build(Path("bank"), Path("translations"), Path("exports"), compare=True) and scans == [1]  # --compare keeps nothing
    from aistack_bank.options import ExportOptions

    assert run(options=ExportOptions(shuffle=False)) == 1  # other options: other keys
    assert run(options=ExportOptions(shuffle=False)) == 0
