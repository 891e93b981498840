"""The format records: every exporter writes the golden and the bundled bank without raising,
and every file it writes carries its language."""

from __future__ import annotations

from pathlib import Path, PurePosixPath

import pytest

from aistack_bank.build import available_languages, load_localized, render
from aistack_bank.exporters import ALL, FORMATS, file_stem
from aistack_bank.options import ExportOptions

REPO = Path(__file__).resolve().parent.parent
BANKS = {"golden": REPO / "tests" / "golden", "bundled": REPO}


@pytest.fixture(scope="module", params=sorted(BANKS))
def banks(request):
    root = BANKS[request.param]
    translations = root / "translations"
    return load_localized(root / "bank", translations, available_languages(translations))[0]


@pytest.mark.parametrize("name", list(FORMATS))
def test_every_format_writes_the_bank_and_names_each_file_language(banks, name):
    tree = render([name], banks, ExportOptions())[name]  # an exception here is a bug, not a user error
    assert tree
    langs = {tree.language(path) for path in tree}
    assert langs - {ALL} == set(banks), (name, langs)
    for path in tree:
        lang = tree.language(path)
        if lang == ALL:
            assert len(banks) > 1 or name == "json" or name == "html", (name, path)
            continue
        assert f"-{lang}." in path.name or path.parts[0] == lang, (name, path)


@pytest.mark.parametrize("name", [n for n, f in FORMATS.items() if f.per_language])
def test_file_names_come_from_the_topic(banks, name):
    topic = next(iter(banks.values())).topic
    tree = FORMATS[name](banks, ExportOptions())
    assert topic.file_stem == "aistack" and file_stem(topic) == "aistack"
    for lang in banks:
        path = FORMATS[name].language_file(topic, lang)
        assert path in tree and tree.language(path) == lang
        assert path.name.startswith("aistack-")


def test_the_stem_defaults_to_the_topic_id(banks):
    renamed = {lang: bank.model_copy(update={"topic": bank.topic.model_copy(update={"file_stem": None})}) for lang, bank in banks.items()}
    topic_id = next(iter(banks.values())).topic.id
    names = sorted(str(p) for p in FORMATS["gift"](renamed, ExportOptions()))
    assert names == sorted([f"{topic_id}-{lang}.gift" for lang in banks] + [f"{topic_id}-multilang.gift"])


def test_an_exporter_bug_is_not_reported_as_a_user_error(banks, monkeypatch):
    from dataclasses import replace

    def broken(banks, options):
        raise KeyError("a bug")

    monkeypatch.setitem(FORMATS, "gift", replace(FORMATS["gift"], render=broken))
    with pytest.raises(KeyError):
        render(["gift"], banks, ExportOptions())


def test_multilingual_files_are_all_languages(banks):
    tree = FORMATS["moodle-xml"](banks, ExportOptions())
    assert tree.language(PurePosixPath("aistack-multilang.xml")) == ALL
    assert FORMATS["json"](banks, ExportOptions()).language(PurePosixPath("aistack.json")) == ALL


def test_a_language_file_is_named_in_one_place():
    """``<stem>-<lang>`` (``<stem>-<lang>-with-en``) is made by ``Format.language_name`` alone:
    the topic's files, the whole-bank files and the exports' README all ask it."""
    import ast

    found = []
    for path in sorted((REPO / "aistack_bank").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format"
                    and isinstance(node.func.value, ast.Attribute) and node.func.value.attr == "per_language"):
                found.append(path.relative_to(REPO).as_posix())
    assert found == ["aistack_bank/exporters/record.py"]
    english = {"de": {"q001.stem": "Which one?"}}
    assert FORMATS["gift"].language_name("bank", "de", english) == "bank-de-with-en.gift" and FORMATS["gift"].language_name("bank", "de") == "bank-de.gift"
