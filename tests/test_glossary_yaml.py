"""The glossary is read as every other file: YAML 1.2 through the located loader, real lines."""

from __future__ import annotations

from aistack_bank.i18n.glossary import read_glossary

GLOSSARY = """# terms, with the keys in any order
terms:
  - note: a switch word that YAML 1.1 would turn into false
    en: off
    fr: {use: [désactivé]}
  - {en: [KV cache], fr: {use: [cache KV]}}

  - en: no
    nl: {use: [nee]}
"""


def test_words_yaml_1_1_took_for_booleans_are_terms(tmp_path):
    (tmp_path / "glossary.yaml").write_text(GLOSSARY, encoding="utf-8")
    glossary, diags = read_glossary(tmp_path)
    assert diags == []
    assert [t.english for t in glossary.terms] == [("off",), ("KV cache",), ("no",)]
    assert [c for c, _, _ in glossary.check("Turn it off.", "Mettez-le en marche.", "fr")] == ["W521"]


def test_each_term_is_located_at_its_line_whatever_its_layout(tmp_path):
    (tmp_path / "glossary.yaml").write_text(GLOSSARY, encoding="utf-8")
    glossary, _ = read_glossary(tmp_path)
    assert [t.line for t in glossary.terms] == [4, 6, 8]


def test_a_bad_term_and_bad_yaml_are_located_errors(tmp_path):
    (tmp_path / "glossary.yaml").write_text("terms:\n  - fr: {use: [x]}\n  - en: ok\n    nl: [wrong]\n", encoding="utf-8")
    _, diags = read_glossary(tmp_path)
    assert [(d.code, d.location.line) for d in diags] == [("E520", 2), ("E520", 4)]
    (tmp_path / "glossary.yaml").write_text("terms:\n  - en: [unclosed\n", encoding="utf-8")
    glossary, diags = read_glossary(tmp_path)
    assert glossary is None and [d.code for d in diags] == ["E520"] and diags[0].location.line >= 2
