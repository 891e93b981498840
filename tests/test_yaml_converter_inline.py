"""The converter converts a mapping's or a sequence's scalar children in place, without a call
per child: the same data, positions (in the same order, so a record pickles to the same bytes)
and diagnostics as the converter that called itself for every node, kept below, on random
files (every scalar style, tags, merge keys, anchors and aliases, escapes, forbidden and
decomposed characters, duplicate keys, nesting up to and past the deepest level accepted) and
on every YAML file of the repository."""

from __future__ import annotations

import pickle
import random
from pathlib import Path
from typing import Any

import pytest
from test_yaml_converter import SCALARS, _texts

from aistack_bank import yamlsource
from aistack_bank.errors import Location, error
from aistack_bank.yamlsource import MAX_DEPTH, YamlDocument, _MERGE_TAG, _police, _Refused, _STD_TAGS, _police_all, _tag, resolve_scalar

REPO = Path(__file__).resolve().parent.parent


class _ConverterBefore:
    """The converter as it was: :meth:`convert` called for every node."""

    def __init__(self, doc: YamlDocument, diags: list, police_all: bool) -> None:
        from yaml.nodes import ScalarNode, SequenceNode

        self.doc, self.diags, self.police_all = doc, diags, police_all
        self.values, self.keys = doc.values, doc.keys
        self.seen: set[int] | None = set() if "*" in doc.text else None
        self.scalar, self.sequence = ScalarNode, SequenceNode

    def convert(self, node, path, depth: int) -> Any:
        mark = node.start_mark
        line, col = mark.line + 1, mark.column + 1
        self.values[path] = (line, col)
        seen = self.seen
        if seen is not None:
            if id(node) in seen:
                raise _Refused("E108", "alias (*name) refers to an anchor; write the value out instead", line, col)
            seen.add(id(node))
        if depth > MAX_DEPTH:
            raise _Refused("E113", f"nesting deeper than {MAX_DEPTH} levels", line, col)
        tag = node.tag
        if tag not in _STD_TAGS:
            tag = str(getattr(tag, "value", tag))
            if tag not in _STD_TAGS:
                self.diags.append(error("E108", f"explicit YAML tag {tag!r} is not allowed", Location.of(self.doc.path, line, col)))
                return None
        kind = type(node)
        if kind is self.scalar:
            value, style = node.value, node.style
            if self.police_all or style == '"':
                _police(value, self.doc, self.diags, line, col)
            return value if style else resolve_scalar(value)
        depth += 1
        if kind is self.sequence:
            return [self.convert(item, path + (i,), depth) for i, item in enumerate(node.value)]
        result: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            mark = key_node.start_mark
            kline, kcol = mark.line + 1, mark.column + 1
            if type(key_node) is not self.scalar:
                self.diags.append(error("E112", "mapping keys must be plain words", Location.of(self.doc.path, kline, kcol)))
                continue
            key = key_node.value
            if _tag(key_node) == _MERGE_TAG or key == "<<" and not key_node.style:
                self.diags.append(error("E108", "merge keys (<<) are not allowed", Location.of(self.doc.path, kline, kcol)))
                continue
            if self.police_all or key_node.style == '"':
                _police(key, self.doc, self.diags, kline, kcol)
            key_path = path + (key,)
            if key in result:
                first = self.keys[key_path]
                self.diags.append(error("E106", f"duplicate key {key!r} (first defined at line {first[0]})", Location.of(self.doc.path, kline, kcol)))
                continue
            self.keys[key_path] = (kline, kcol)
            result[key] = self.convert(value_node, key_path, depth)
        return result


def _converted(converter, text: str):
    """(data, values and keys in order, diagnostics, the refusal) of ``text`` composed once."""
    path = Path("q.yaml")
    try:
        root = yamlsource._compose(text)
    except _Refused:
        return None
    if root is None:
        return None
    doc = YamlDocument(path=path, data=None, text=text)
    diags: list = []
    try:
        doc.data = converter(doc, diags, _police_all(text)).convert(root, (), 0)
        refused = None
    except _Refused as exc:
        refused = (exc.code, exc.message, exc.line, exc.column)
    return (repr(doc.data), list(doc.values.items()), list(doc.keys.items()), [str(d) for d in diags], refused,
            pickle.dumps(doc, protocol=pickle.HIGHEST_PROTOCOL) if refused is None else None)


def _more_texts(count: int, seed: int):
    """Files with aliases to scalars and to collections, scalars in sequences at every depth
    (past :data:`~aistack_bank.yamlsource.MAX_DEPTH` too), and "*" in texts without aliases."""
    rng = random.Random(seed)
    for _ in range(count):
        depth = rng.choice([1, 2, MAX_DEPTH - 1, MAX_DEPTH, MAX_DEPTH + 1, MAX_DEPTH + 2])
        leaf = rng.choice(SCALARS).split("\n")[0]
        nested = "[" * depth + f"{leaf}, x" + "]" * depth
        lines = [f"deep: {nested}", f"flow: {{k: {nested}}}"]
        roll = rng.random()
        if roll < 0.3:
            lines += ["a: &s scalar", "b: *s", "c: [*s, 1]"]
        elif roll < 0.5:
            lines += ["a: &l [1, 2]", "b: *l"]
        elif roll < 0.7:
            lines += ["a: **bold** text", "b: [2 * 3, '*']"]
        for i in range(rng.randint(0, 6)):
            value = rng.choice(SCALARS).split("\n")[0]
            lines.append(f"k{i}: {value}" if rng.random() < 0.8 else f"k{i}: [a, {value}]")
        rng.shuffle(lines)
        yield "\n".join(lines) + "\n"


def test_the_converter_converts_as_it_did_on_random_files():
    texts = list(_texts(3000, 11)) + list(_more_texts(1500, 12))
    compared = refused = with_findings = 0
    for text in texts:
        want = _converted(_ConverterBefore, text)
        got = _converted(yamlsource._Converter, text)
        assert got == want, text
        if want is not None:
            compared += 1
            refused += want[4] is not None
            with_findings += bool(want[3])
    assert compared > 2500 and refused > 300 and with_findings > 300, (compared, refused, with_findings)


@pytest.mark.parametrize("folder", ["bank", "tests", "examples", "benchmarks"])
def test_the_converter_converts_every_yaml_file_of_the_repository_as_it_did(folder):
    paths = sorted((REPO / folder).rglob("*.yaml"))
    assert paths or folder == "benchmarks"
    for path in paths:
        text = path.read_bytes().decode("utf-8", "replace")
        assert _converted(yamlsource._Converter, text) == _converted(_ConverterBefore, text), path
