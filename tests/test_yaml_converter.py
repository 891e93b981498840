"""The located YAML reader's shortcuts never change what it reads or reports.

`parse_yaml` composes with a resolver that gives each node only what the converter reads of its
tag, converts with fewer calls per node, and applies the character rules to the values that are
not double-quoted only when the whole text breaks them. On random files made of what those
shortcuts concern (tags, merge keys, anchors and aliases, escapes, forbidden and decomposed
characters raw and escaped, every scalar style, nesting, duplicate keys), and on every YAML
file of the repository, it gives the data, positions and diagnostics of the reader spelled out
below: PyYAML's own resolver, and the character rules on every value (the code before the
shortcuts)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import yaml

from aistack_bank import yamlsource
from aistack_bank.errors import Location, error
from aistack_bank.yamlsource import MAX_DEPTH, YamlDocument, _anchors, _police, _Refused, _STD_TAGS, _yaml_error, parse_yaml, resolve_scalar

REPO = Path(__file__).resolve().parent.parent


def _convert_spelled_out(node, path, doc, diags, seen, depth):
    line, col = node.start_mark.line + 1, node.start_mark.column + 1
    doc.values[path] = (line, col)
    if id(node) in seen:
        raise _Refused("E108", "alias (*name) refers to an anchor; write the value out instead", line, col)
    seen.add(id(node))
    if depth > MAX_DEPTH:
        raise _Refused("E113", f"nesting deeper than {MAX_DEPTH} levels", line, col)
    tag = str(getattr(node.tag, "value", node.tag))
    if tag not in _STD_TAGS:
        diags.append(error("E108", f"explicit YAML tag {tag!r} is not allowed", Location.of(doc.path, line, col)))
        return None
    kind = type(node).__name__
    if kind == "ScalarNode":
        _police(node.value, doc, diags, line, col)
        return node.value if node.style not in (None, "") else resolve_scalar(node.value)
    if kind == "SequenceNode":
        return [_convert_spelled_out(item, path + (i,), doc, diags, seen, depth + 1) for i, item in enumerate(node.value)]
    result = {}
    for key_node, value_node in node.value:
        kline, kcol = key_node.start_mark.line + 1, key_node.start_mark.column + 1
        if type(key_node).__name__ != "ScalarNode":
            diags.append(error("E112", "mapping keys must be plain words", Location.of(doc.path, kline, kcol)))
            continue
        if str(key_node.tag) == "tag:yaml.org,2002:merge" or key_node.value == "<<" and not key_node.style:
            diags.append(error("E108", "merge keys (<<) are not allowed", Location.of(doc.path, kline, kcol)))
            continue
        key = key_node.value
        _police(key, doc, diags, kline, kcol)
        if key in result:
            first = doc.keys[path + (key,)]
            diags.append(error("E106", f"duplicate key {key!r} (first defined at line {first[0]})", Location.of(doc.path, kline, kcol)))
            continue
        doc.keys[path + (key,)] = (kline, kcol)
        result[key] = _convert_spelled_out(value_node, path + (key,), doc, diags, seen, depth + 1)
    return result


def _parse_spelled_out(text: str, path: Path):
    try:
        try:
            root = yaml.compose(text, Loader=yaml.CSafeLoader)
        except yaml.MarkedYAMLError as exc:
            raise _yaml_error(exc) from None
        except yaml.YAMLError as exc:
            raise _Refused("E105", str(exc).strip(), 1, 1) from None
    except _Refused as exc:
        return None, [error(exc.code, exc.message, Location.of(path, exc.line, exc.column))]
    if root is None:
        return None, [error("E103", "file holds no YAML document (only comments?)", Location.of(path))]
    doc = YamlDocument(path=path, data=None, text=text)
    diags = []
    try:
        doc.data = _convert_spelled_out(root, (), doc, diags, set(), 0)
    except _Refused as exc:
        return None, diags + [error(exc.code, exc.message, Location.of(path, exc.line, exc.column))]
    if "&" in text:
        diags += _anchors(text, path)
    if not isinstance(doc.data, dict):
        diags.append(error("E112", "the file must hold one YAML mapping (key: value lines) at the top level", doc.locate(())))
    return (None if any(d.severity.value == "error" for d in diags) else doc), diags


def _read(doc):
    return None if doc is None else (repr(doc.data), doc.values, doc.keys)


SCALARS = [
    "plain words", "12", "0x1F", "0o17", "1.5", ".inf", "-.inf", ".nan", "~", "null", "true", "False", "yes", "off", "",
    "<<", "=", "2001-12-14", "1_000", "'single ''quoted'''", '"double"', '"esc \\0 nul"', '"bidi \\u202E x"', '"tab\\tok"',
    '"e\\u0301"', '"\\u2028 sep"', '"\\x85"', '"\\ud800"', '"\\uFDD0"', "caf\u00e9", "cafe\u0301", "\u0301lead", "raw\u2028sep",
    "raw\ufdd0nonchar", "raw\u202ebidi", "nbsp\u00a0here", "'e\u0301'", '"e\u0301"', "!!str 12", "!!int 3", "!foo bar", "! 12",
    "!!merge x", "!!binary aGk=", "&a anchored", "*a", "[a, b, 'c']", "{x: 1, y: [2]}", "[<<, =]", ">-\n  folded\n  text\u00e9",
    "|\n  literal \\0\n  e\u0301 line", ">\n  a\n\n  b", '"multi\n  line \\\n  joined"', "'multi\n  line'", "plain\n  continued",
]
KEYS = ["a", "b", "id", "<<", "'<<'", '"q\\u202Ekey"', "caf\u00e9", "cafe\u0301", "? complex", "[k]", "=", "!!str k", "a"]


def _node(rng: random.Random, indent: int, depth: int) -> list[str]:
    pad = " " * indent
    lines = []
    for _ in range(rng.randint(1, 4)):
        key = rng.choice(KEYS)
        roll = rng.random()
        if roll < 0.15 and depth < 3:
            lines.append(f"{pad}{key}:")
            lines += _node(rng, indent + 2, depth + 1)
        elif roll < 0.25 and depth < 3:
            lines.append(f"{pad}{key}:")
            for _ in range(rng.randint(1, 3)):
                if rng.random() < 0.5:
                    first = rng.choice(SCALARS).split("\n")[0]
                    lines.append(f"{pad}  - {first}")
                else:
                    sub = _node(rng, indent + 4, depth + 1)
                    lines.append(f"{pad}  - {sub[0].lstrip()}")
                    lines += sub[1:]
        else:
            value = rng.choice(SCALARS).replace("\n", "\n" + pad)
            lines.append(f"{pad}{key}: {value}")
    return lines


def _texts(count: int, seed: int):
    rng = random.Random(seed)
    for _ in range(count):
        yield "\n".join(_node(rng, 0, 0)) + "\n"


def test_the_reader_reads_and_reports_what_the_spelled_out_reader_does():
    texts = list(_texts(3000, 5))
    texts += ["x: " + "[" * 40 + "]" * 40 + "\n", "a: &x [1]\nb: *x\n", "- not a mapping\n", "# only a comment\n", "a: b: c\n"]
    outcomes = {"clean": 0, "converted with findings": 0, "not composed": 0}
    for text in texts:
        got_doc, got = parse_yaml(text, Path("q.yaml"))
        want_doc, want = _parse_spelled_out(text, Path("q.yaml"))
        assert ([str(d) for d in got], _read(got_doc)) == ([str(d) for d in want], _read(want_doc)), text
        outcomes["clean" if not want else "not composed" if {d.code for d in want} <= {"E105", "E107"} else "converted with findings"] += 1
    assert min(outcomes.values()) > 200, outcomes  # the comparison met every outcome


@pytest.mark.parametrize("folder", ["bank", "tests", "examples"])
def test_every_yaml_file_of_the_repository_is_read_as_before(folder):
    paths = sorted((REPO / folder).rglob("*.yaml"))
    assert paths
    for path in paths:
        text = path.read_bytes().decode("utf-8", "replace")
        got_doc, got = parse_yaml(text, path)
        want_doc, want = _parse_spelled_out(text, path)
        assert ([str(d) for d in got], _read(got_doc)) == ([str(d) for d in want], _read(want_doc)), path


def test_only_merge_and_value_are_implicit_tags_outside_the_standard_ones():
    """The composer's resolver gives a tag of its own only to what PyYAML's resolver gives a
    tag the converter refuses; a PyYAML that resolved more would fail here."""
    refused = {tag for resolvers in yaml.resolver.Resolver.yaml_implicit_resolvers.values() for tag, _ in resolvers} - _STD_TAGS
    assert refused == set(yamlsource.UNSAFE_IMPLICIT_TAGS.values())
    resolver = yaml.resolver.Resolver()
    for value, tag in yamlsource.UNSAFE_IMPLICIT_TAGS.items():
        assert resolver.resolve(yaml.nodes.ScalarNode, value, (True, False)) == tag
    for resolvers in yaml.resolver.Resolver.yaml_implicit_resolvers.values():
        for tag, pattern in resolvers:
            if tag not in _STD_TAGS:  # what it matches is exactly the scalars listed with its tag
                assert {v for v, t in yamlsource.UNSAFE_IMPLICIT_TAGS.items() if t == tag} == {
                    m for m in ("<<", "=", "!", "&", "*", "<", "==", "<<<", "!!", "") if pattern.match(m)}
