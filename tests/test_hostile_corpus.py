"""The hostile-file corpus: what contributors' editors, merges and copy-paste produce.

Each file gives exactly the expected codes and locations, and nothing raises.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from aistack_bank.i18n.catalog import read_catalog
from aistack_bank.load import read_question
from aistack_bank.yamlsource import load_yaml

CORPUS = Path(__file__).parent / "corpus"

PO_EXPECTED = {
    "broken-escape": ["po/broken-escape/fr.po:12:18: error E501: invalid escape sequence '\\\\q' (use \\\\, \\\", \\n or \\t)"],
    "conflict": [f"po/conflict/fr.po:{line}:1: error E501: merge-conflict marker; resolve the conflict (keep both translators' work) before running the pipeline" for line in (10, 14, 18)],
    "escape-out-of-range": ["po/escape-out-of-range/fr.po:12:17: error E501: escape '\\\\xFFFFFFFF' is out of range (above U+10FFFF)"],
    "escaped-nul": ["po/escaped-nul/fr.po:12:8: error E540: forbidden character U+0000 (control)"],
    "duplicate": ["po/duplicate/fr.po:14:1: error E506: entry 'topic.category' appears twice (first at line 10); keep one"],
    "missing-msgstr": ['po/missing-msgstr/fr.po:11:1: error E501: msgid without msgstr; add msgstr "" if it is not translated yet'],
    "not-utf8": ["po/not-utf8/fr.po:12:13: error E501: catalog is not valid UTF-8; save it as UTF-8"],
    "unterminated": ['po/unterminated/fr.po:12:31: error E501: unterminated string (missing closing ")'],
    "wrong-plural": ["po/wrong-plural/fr.po:1:1: error E505: header Plural-Forms 'nplurals=3; plural=(n==1 ? 0 : 1);' is wrong for fr; use 'nplurals=2; plural=(n > 1);'"],
}

YAML_EXPECTED = {
    "escapes-in-values.yaml": [  # visible only after parsing: located at the value
        "hostile/escapes-in-values.yaml:4:7: error E110: forbidden character U+202E (RIGHT-TO-LEFT OVERRIDE)",
        "hostile/escapes-in-values.yaml:8:15: error E110: forbidden character U+001B (control)",
        "hostile/escapes-in-values.yaml:13:14: error E110: forbidden character U+2028 (LINE SEPARATOR)",
    ],
    "unused-anchor.yaml": ["hostile/unused-anchor.yaml:14:7: error E108: anchor &tags is not allowed; bank files write every value out"],
    "merge-conflict.yaml": [f"hostile/merge-conflict.yaml:{line}:1: error E114: merge-conflict marker; resolve the conflict before validating" for line in (12, 14, 16)],
    "nul-byte.yaml": ["hostile/nul-byte.yaml:4:12: error E110: forbidden character U+0000 (control)"],
    "path-traversal-id.yaml": ["hostile/path-traversal-id.yaml:2:5: error E204: id: string should match pattern '^q[0-9]{3,}$' (got '../../etc/passwd')"],
    "script-and-cdata.yaml": [],  # only text: every exporter escapes it (test_exporters)
}


@pytest.fixture(autouse=True)
def _in_corpus(monkeypatch):
    monkeypatch.chdir(CORPUS)


def test_corpus_is_complete():
    assert sorted(p.name for p in (CORPUS / "po").iterdir()) == sorted(PO_EXPECTED)
    assert sorted(p.name for p in (CORPUS / "hostile").iterdir()) == sorted(YAML_EXPECTED)


@pytest.mark.parametrize("case", sorted(PO_EXPECTED))
def test_hostile_catalog(case):
    catalog = read_catalog(Path("po") / case / "fr.po")
    assert [str(d) for d in catalog.diagnostics] == PO_EXPECTED[case]


@pytest.mark.parametrize("name", sorted(YAML_EXPECTED))
def test_hostile_question_file(name):
    source, diags = read_question(Path("hostile") / name)
    assert [str(d) for d in diags] == YAML_EXPECTED[name]
    assert (source.question is None) == bool(diags)


def test_a_50_mb_file_is_refused_before_it_is_read(tmp_path):
    big = tmp_path / "q999-huge.yaml"
    with open(big, "wb") as fh:
        fh.write(b"stem: ")
        fh.seek(50 * 1024 * 1024)
        fh.write(b"x\n")
    doc, diags = load_yaml(big)
    assert doc is None and [d.code for d in diags] == ["E104"]


def test_a_stale_msgctxt_is_reported(project, run_cli):
    fr = project / "translations" / "fr.po"
    fr.write_text(fr.read_text(encoding="utf-8") + '\nmsgctxt "q999.stem"\nmsgid "Gone?"\nmsgstr "Parti ?"\n', encoding="utf-8")
    code, out = run_cli("validate", "--strict")
    assert code == 1 and "W503: q999.stem is no longer in the bank; run `bank i18n update` to make it obsolete" in out
    assert run_cli("i18n", "update")[0] == 0
    assert '#~ msgctxt "q999.stem"' in fr.read_text(encoding="utf-8")  # kept, as obsolete
