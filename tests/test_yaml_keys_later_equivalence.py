"""A document ``parse_yaml`` reads by the quick reader's pass is made without its keys' table
(``yamlsource._quick(..., keys=False)``): the table is read again from the text when it is first
read (``YamlDocument.__getattr__`` through ``yamlsource._keys_again``).

Compared with ``parse_yaml`` as it was (kept here: the document made with the table the quick
reader gives), on the quick reader's random question-file texts (half mutated), hostile ones
(keys of any characters, long, repeated, nested; tabs, comments and blank lines that leave the
text to the line reader or libyaml), every YAML file of the repository and every question file
of the bundled bank and ``examples/every-kind``: the same data, values and keys (their order
too), the attributes in the same order once the keys are read, the same pickle, copy and deep
copy, the same locations of every key, the same record; and the table read once."""

from __future__ import annotations

import copy
import pickle
import random
import subprocess
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from aistack_bank import yamlsource
from aistack_bank.cache import questionfiles
from aistack_bank.load import read_question, read_topic
from aistack_bank.rules.validate import question_file_rules
from aistack_bank.yamlsource import YamlDocument, _police_all, _quick, check_source, from_text, parse_yaml

from test_yaml_quick_equivalence import _documents

ROOT = Path(__file__).resolve().parent.parent
PATH = Path("bank/t/questions/q00001-x.yaml")


def _parse_before(text: str, path: Path):
    """``parse_yaml`` as it was: a text the quick reader reads made with its keys' table."""
    quick = None if _police_all(text) else _quick(text, screened=True)
    if quick is not None:
        doc = YamlDocument(path=path, data=quick[0], text=text, values=quick[1], keys=quick[2])
        doc._from_text = quick
        return doc, []
    return parse_yaml(text, path)


def _shape(doc) -> str:
    # repr tells True from 1 and 1.0, and lists the tables in their order
    return repr((doc.path, doc.text, doc.data, list(doc.values.items()), list(doc.keys.items()), doc._lines))


def _key_places(doc) -> list:
    return [(doc.locate(path, key=True), doc.locate(path[:-1], key=True)) for path in [*doc.keys, ("nowhere",), ("options", 99, "text")]]


def _compare(text: str, path: Path = PATH) -> bool:
    """Whether ``parse_yaml`` left the keys' table of ``text`` to be read later (and everything
    is as before; asserted)."""
    before, before_diags = _parse_before(text, path)
    doc, diags = parse_yaml(text, path)
    assert repr(diags) == repr(before_diags), text
    assert (doc is None) == (before is None), text
    if doc is None:
        return False
    later = "keys" not in doc.__dict__
    if later:  # (only a text the pass reads: nothing else of it left out)
        assert from_text(doc) and doc._from_text[2] is None, text
        assert list(doc.__dict__) == [name for name in before.__dict__ if name != "keys"], text
        assert doc.data is doc._from_text[0] and doc.values is doc._from_text[1], text
        # copied and pickled before the table is read: each copy reads it from its text
        for other in (copy.copy(doc), copy.deepcopy(doc), pickle.loads(pickle.dumps(doc))):
            assert "keys" not in other.__dict__ and from_text(other), text
            assert _shape(other) == _shape(before) and list(other.__dict__) == list(before.__dict__), text
        assert "keys" not in doc.__dict__, text
    assert _shape(doc) == _shape(before), text
    keys = doc.keys
    assert doc.keys is keys and doc.__dict__["keys"] is keys, text  # (read once, and kept)
    assert list(doc.__dict__) == list(before.__dict__), text  # (in its place among the attributes)
    assert from_text(doc) == from_text(before), text
    assert pickle.dumps(doc, protocol=pickle.HIGHEST_PROTOCOL) == pickle.dumps(before, protocol=pickle.HIGHEST_PROTOCOL), text
    assert _key_places(doc) == _key_places(before), text
    return later


def test_random_texts_as_before():
    rng = random.Random(23)
    later = total = 0
    for text in _documents(rng, 2000):
        total += 1
        later += _compare(text)
    assert later > total // 40, (later, total)  # (both ways are compared: 149 of 4 000 read by the pass)
    assert total - later > total // 4, (later, total)


def test_repository_yaml_as_before():
    files = subprocess.run(["git", "ls-files", "*.yaml", "*.yml"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    later = 0
    for name in files:
        text, _ = check_source((ROOT / name).read_bytes(), ROOT / name)
        if text is not None:
            later += _compare(text, ROOT / name)
    assert later > len(files) // 2


_KEY = st.text(alphabet=st.sampled_from("abcAZ_-09é: #\t'\"[]{}&*!|>"), min_size=1, max_size=12) | st.sampled_from(["k" * 1024, "k" * 1025, "id", "kind"])
_VALUE = st.text(alphabet=st.sampled_from("ab 1:#-'\"[],\t\n×é"), max_size=10)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.lists(st.tuples(st.integers(0, 3), st.booleans(), _KEY, _VALUE), min_size=1, max_size=8))
def test_hostile_keys_as_before(lines):
    out = []
    for depth, dash, key, value in lines:
        out.append("  " * depth + ("- " if dash else "") + key + ":" + ((" " + value.replace("\n", " ")) if value.strip() else ""))
    text = "\n".join(out) + "\n"
    _compare(text)
    _compare("# yaml-language-server: $schema=x.json\nid: q1\n" + text)


def test_changed_documents_read_their_keys():
    text = "id: q1\nstem: >-\n  a\n  b\noptions:\n- id: a\n  text: x\n- id: b\n  text: y\n"
    before, _ = _parse_before(text, PATH)
    for change in ("data", "values", "copy"):
        doc, _ = parse_yaml(text, PATH)
        assert "keys" not in doc.__dict__
        if change == "data":
            doc.data = {"given": 1}
        elif change == "values":
            doc.values = {}
        else:
            doc = copy.deepcopy(doc)
        assert list(doc.keys.items()) == list(before.keys.items())
        assert from_text(doc) is (change == "copy")
    given, _ = parse_yaml(text, PATH)
    given.keys = {("x",): (9, 9)}  # (a table given before it was read: kept)
    assert given.keys == {("x",): (9, 9)} and not from_text(given)


def test_question_files_and_records_as_before():
    files = sorted([*ROOT.glob("bank/*/questions/*.yaml"), *ROOT.glob("examples/every-kind/bank/*/questions/*.yaml")])
    topics, later = {}, 0
    for path in files:
        root = path.parent.parent
        if root not in topics:
            topics[root] = read_topic(root)[0]
        qs, _ = read_question(path, root=root, project=root.parent.parent)
        question_file_rules(qs, root, topics[root], True)
        qs.summary = None
        doc = qs.doc
        if doc is None:
            continue
        if "keys" in doc.__dict__:  # (made with its table, as before: read by the line reader or libyaml)
            continue
        later += 1  # (the rules of a file without a finding read no key's place)
        blob = questionfiles._dumped(qs)
        before, _ = _parse_before(doc.text, doc.path)
        qs.doc = before
        try:
            assert questionfiles._dumped(qs) == blob, path
        finally:
            qs.doc = doc
        def tables(doc):  # (its lines split or not: the numeric check splits them)
            return repr((doc.path, doc.text, doc.data, list(doc.values.items()), list(doc.keys.items())))
        assert tables(questionfiles.loads_record(blob).doc) == tables(before) == tables(doc), path
        assert _compare(doc.text, doc.path) == (yamlsource._quick_lines(doc.text) is not None), path
    assert later > len(files) // 2, (later, len(files))
