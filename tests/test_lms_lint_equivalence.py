"""`bank lint`'s faster paths against what they replaced: the QTI response processing read once
per item (``models.QtiProcessing``) against the model that read the item again for each
response (kept here as it was), the index of items' questions against the search through the
bank, the zip members read on demand against the members read all at once, and the checks run
in worker processes against the same checks run one after the other."""

from __future__ import annotations

import functools
import io
import re
import zipfile
from types import SimpleNamespace
from xml.etree.ElementTree import Element

import pytest
from hypothesis import given, settings, strategies as st

from aistack_bank.exporters import FORMATS
from aistack_bank.lms import lint as lint_module, models
from aistack_bank.lms.models import _qti_value, _xsd_fullmatch
from aistack_bank.options import ExportOptions
from aistack_bank.readers import qti as qti_module
from aistack_bank.readers.qti import qti_name
from aistack_bank.readers.xml import local, text_of

import qti_kinds_bank
from conftest import REPO

# The model before names every element of the item again for each response (its QTI 2 name from
# its tag: a function of the tag alone, about a third of this module's time when worked out each
# time): each tag's name is worked out once here, by the same function.
qti_name = functools.lru_cache(maxsize=None)(qti_name)


@functools.lru_cache(maxsize=None)
def _kebab(name: str) -> str:
    """QTI 3's spelling of the QTI 2 attribute ``name``, as :func:`readers.qti.attr` spells it
    (a function of the name alone, the regular expression about a sixth of this module's time
    when applied at each of the model before's some 200 000 reads of an attribute): worked out
    once per name here."""
    return re.sub(r"(?<!^)([A-Z])", r"-\1", name).lower()


def qti_attr(element: Element, name: str) -> str | None:
    """:func:`readers.qti.attr`, each name's QTI 3 spelling worked out once (checked the same as
    it on every element and attribute name of the items below)."""
    return element.get(name, element.get(_kebab(name)))


# --- the model as it was: every call reads the item again -----------------------------------

def old_qti_outcomes(item: Element, response) -> dict[str, object]:
    outcomes: dict[str, object] = {}
    for declaration in [c for c in item if qti_name(c.tag) == "outcomeDeclaration"]:
        default = next((v for v in declaration.iter() if qti_name(v.tag) == "value"), None)
        card = declaration.get("cardinality")
        outcomes[declaration.get("identifier")] = (float(default.text) if default is not None else None) if card == "single" and qti_attr(declaration, "baseType") == "float" else (set() if card == "multiple" else None)
    declaration = next((c for c in item if qti_name(c.tag) == "responseDeclaration" and c.get("identifier") == "RESPONSE"), None)
    base_type = qti_attr(declaration, "baseType") if declaration is not None else "identifier"
    multiple = declaration is not None and declaration.get("cardinality") in ("multiple", "ordered")
    ordered = declaration is not None and declaration.get("cardinality") == "ordered"
    correct = [_qti_value(base_type, v.text) for c in item.iter() if qti_name(c.tag) == "correctResponse" for v in c]
    if response is None or response == [] or response == "":
        given = None
    elif ordered:
        given = tuple(_qti_value(base_type, r) for r in response)
    elif multiple:
        given = {_qti_value(base_type, r) for r in (response if isinstance(response, (list, tuple, set)) else [response])}
    else:
        given = _qti_value(base_type, response)
    variables = {"RESPONSE": given}
    mapping = next((m for m in (declaration.iter() if declaration is not None else []) if qti_name(m.tag) == "mapping"), None)

    def map_response():
        if given is None or mapping is None:
            return 0.0
        entries = []
        for entry in mapping:
            if qti_name(entry.tag) == "mapEntry":
                key = _qti_value(base_type, qti_attr(entry, "mapKey"))
                case = qti_attr(entry, "caseSensitive")
                entries.append((key, float(qti_attr(entry, "mappedValue") or 0), case != "false" if case is not None else local(item.tag) == "assessmentItem"))
        default = float(qti_attr(mapping, "defaultValue") or 0)
        total = 0.0
        for value in given if isinstance(given, set) else {given}:
            found = [mapped for key, mapped, case in entries
                     if key == value or (not case and isinstance(key, str) and isinstance(value, str) and key.casefold() == value.casefold())]
            total += found[0] if found else default
        low, high = qti_attr(mapping, "lowerBound"), qti_attr(mapping, "upperBound")
        if low is not None:
            total = max(total, float(low))
        if high is not None:
            total = min(total, float(high))
        return total

    def value(expr: Element):
        name = qti_name(expr.tag)
        operands = list(expr)
        if name == "variable":
            ident = expr.get("identifier")
            return variables[ident] if ident in variables else outcomes.get(ident)
        if name == "correct":
            return tuple(correct) if ordered else set(correct) if multiple else (correct[0] if correct else None)
        if name == "baseValue":
            return _qti_value(qti_attr(expr, "baseType"), expr.text)
        if name == "multiple":
            members: set = set()
            for sub in operands:
                v = value(sub)
                if isinstance(v, set):
                    members |= v
                elif v is not None:
                    members.add(v)
            return members
        if name == "mapResponse":
            return map_response()
        if name == "isNull":
            v = value(operands[0])
            return v is None or v == set() or v == ""
        if name == "patternMatch":
            v = value(operands[0])
            return None if v is None else _xsd_fullmatch(qti_attr(expr, "pattern") or "", str(v))
        if name == "not":
            v = value(operands[0])
            return None if v is None else not v
        if name == "and":
            values = [value(sub) for sub in operands]
            return None if None in values else all(values)
        if name == "or":
            values = [value(sub) for sub in operands]
            return True if True in values else (None if None in values else False)
        a, b = (value(sub) for sub in operands[:2])
        if a is None or b is None:
            return None
        if name == "match":
            return a == b
        if name == "member":
            return a in b
        if name == "stringMatch":
            sensitive = (qti_attr(expr, "caseSensitive") or "true") == "true"
            return a == b if sensitive else a.casefold() == b.casefold()
        if name in ("gte", "lte", "gt", "lt"):
            return {"gte": a >= b, "lte": a <= b, "gt": a > b, "lt": a < b}[name]
        raise ValueError(f"unsupported expression {name}")

    def run(rules):
        for rule in rules:
            name = qti_name(rule.tag)
            if name == "setOutcomeValue":
                outcomes[rule.get("identifier")] = value(next(iter(rule)))
            elif name == "responseCondition":
                for branch in rule:
                    if qti_name(branch.tag) == "responseElse":
                        run(list(branch))
                        break
                    test, *body = list(branch)
                    if value(test):
                        run(body)
                        break

    processing = next((c for c in item if qti_name(c.tag) == "responseProcessing"), None)
    if processing is not None:
        run(list(processing))
    return outcomes


def old_shown_feedback(item: Element, outcomes: dict[str, object]) -> list[str]:
    shown = []
    for node in [c for c in item if local(c.tag) in ("modalFeedback", "qti-modal-feedback")]:
        value = outcomes.get(node.get("outcomeIdentifier", node.get("outcome-identifier")))
        member = node.get("identifier") in value if isinstance(value, set) else node.get("identifier") == value
        if member == ((node.get("showHide", node.get("show-hide")) or "show") == "show"):
            shown.append(" ".join(text_of(node).split()))
    return shown


# --- the items: every kind in QTI 2.1 and 3.0, and hostile variants of them -----------------

def _package_items(tree, name) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(tree[name])) as archive:
        return {n: archive.read(n) for n in archive.namelist() if n.startswith("items/")}


def _every_item() -> list[bytes]:
    from aistack_bank.build import load_libraries, render

    found = []
    banks = qti_kinds_bank.banks()
    for fmt in ("qti21", "qti30"):
        tree = FORMATS[fmt](banks, ExportOptions())
        for lang in qti_kinds_bank.LANGS:
            found += _package_items(tree, FORMATS[fmt].language_file(banks["en"].topic, lang)).values()
    every = REPO / "examples" / "every-kind"
    libraries, _ = load_libraries(every / "bank", every / "translations", ["en", "fr", "nl"])
    for fmt, tree in render(["qti21", "qti30"], libraries, ExportOptions()).items():
        for name in tree:
            found += _package_items(tree, name).values()
    return found


ITEMS = _every_item()

MUTATIONS = [
    # (what is changed, as both spellings write it)
    (rb'(case-?[sS]ensitive)="true"', rb'\1="false"'),
    (rb'(case-?[sS]ensitive)="false"', rb'\1="true"'),
    (rb' (case-?[sS]ensitive)="[a-z]*"', b""),
    (rb'(lower-?[bB]ound)="[^"]*"', rb'\1="0.25"'),
    (rb'(upper-?[bB]ound)="[^"]*"', rb'\1="0.5"'),
    (rb'(default-?[vV]alue)="[^"]*"', rb'\1="-1"'),
    (rb'(mapped-?[vV]alue)="[^"]*"', rb'\1="0.3"'),
    (rb'(mapped-?[vV]alue)="[^"]*"', rb'\1="x"'),  # no number: raises, as it raised
    (rb'cardinality="single"', rb'cardinality="multiple"'),
    (rb'cardinality="multiple"', rb'cardinality="ordered"'),
    (rb'cardinality="ordered"', rb'cardinality="single"'),
    (rb'(base-?[tT]ype)="identifier"', rb'\1="string"'),
    (rb'(base-?[tT]ype)="float"', rb'\1="integer"'),
    (rb'(show-?[hH]ide)="show"', rb'\1="hide"'),
    (rb'<((?:qti-)?value)>[^<]*</', rb'<\1>1e309</'),
    (rb'<((?:qti-)?value)>[^<]*</', rb'<\1>NaN</'),
]


def _variants(data: bytes) -> list[bytes]:
    out = [data]
    for pattern, replacement in MUTATIONS:
        changed = re.sub(pattern, replacement, data)
        if changed != data:
            out.append(changed)
    return out


def _responses(doc: Element) -> list:
    choices = [c.get("identifier") for c in doc.iter() if qti_name(c.tag) in ("simpleChoice", "simpleAssociableChoice")]
    pairs = [f"{a} {b}" for a in choices[:4] for b in choices[:4] if a != b]
    correct = [v.text for c in doc.iter() if qti_name(c.tag) == "correctResponse" for v in c]
    keys = [e.get("mapKey", e.get("map-key")) for e in doc.iter() if qti_name(e.tag) == "mapEntry"]
    hostile = ["", " ", "3,5", "1e309", "-0", "nan", "ß", "SS", "İ", "i̇", "ǅ", "\u00a0x\u00a0", "a" * 300, "<p>&amp;</p>", "14", "-25.3"]
    out: list = [None, [], "", correct, list(reversed(correct)), correct[:1], *choices, *keys, *pairs, choices, list(reversed(choices)), *hostile]
    out += [[k.upper()] for k in keys if k] + [k.upper() for k in keys if k] + [k.casefold() for k in keys if k]
    return out


def _same(item: Element, response) -> None:
    try:
        expected = old_qti_outcomes(item, response)
    except Exception as exc:  # noqa: BLE001 (the same exception, then)
        with pytest.raises(type(exc), match=re.escape(str(exc))):
            models.QtiProcessing(item).outcomes(response)
        return
    processing = models.QtiProcessing(item)
    for _ in range(2):  # a second run from what the first read
        got = processing.outcomes(response)
        assert repr(got) == repr(expected) and got == expected or _nan_equal(got, expected), (response, got, expected)
        assert processing.shown_feedback(got) == old_shown_feedback(item, expected)
    assert models.qti_outcomes(item, response) == expected or _nan_equal(models.qti_outcomes(item, response), expected)


def _nan_equal(a: dict, b: dict) -> bool:
    return repr(a) == repr(b)


def test_the_items_cover_every_kind_and_both_versions():
    docs = [models.parse_xml(data) for data in ITEMS]
    spelt = {local(name) for doc in docs for e in doc.iter() for name in e.attrib}  # (both spellings)
    asked = {"baseType", "mapKey", "caseSensitive", "mappedValue", "defaultValue", "lowerBound", "upperBound", "pattern",
             *spelt, *(first + "".join(part[:1].upper() + part[1:] for part in rest) for first, *rest in (name.split("-") for name in spelt))}
    assert {"baseType", "base-type", "mapKey", "map-key"} <= asked
    for doc in docs[::7]:
        for element in doc.iter():
            assert all(qti_attr(element, name) == qti_module.attr(element, name) for name in asked)
    interactions = {local(e.tag) for doc in docs for e in doc.iter() if "nteraction" in local(e.tag)}
    assert {"choiceInteraction", "qti-choice-interaction", "textEntryInteraction", "qti-text-entry-interaction", "matchInteraction",
            "qti-match-interaction", "orderInteraction", "qti-order-interaction", "extendedTextInteraction"} <= interactions, interactions


@pytest.mark.parametrize("index", range(len(ITEMS)))
def test_one_read_of_an_item_scores_every_response_as_reading_it_each_time(index):
    for data in _variants(ITEMS[index]):
        item = models.parse_xml(data)
        for response in _responses(item):
            _same(item, response)


@settings(max_examples=300, deadline=None)
@given(index=st.integers(0, len(ITEMS) - 1), mutation=st.integers(0, len(MUTATIONS)),
       response=st.one_of(st.none(), st.text(max_size=12), st.lists(st.text(max_size=8), max_size=4),
                          st.lists(st.sampled_from(["choice-a", "choice-b", "choice-c", "choice-true", "source-a target-a", "a1", "n1"]), max_size=4)))
def test_random_responses_score_alike(index, mutation, response):
    data = ITEMS[index]
    if mutation < len(MUTATIONS):
        data = re.sub(*MUTATIONS[mutation], data)
    _same(models.parse_xml(data), response)


def test_the_comparison_can_fail(monkeypatch):
    """A processing that read the correct response in another order once for all runs would be
    caught (an ordering item's right order no longer scores)."""
    prepare = models.QtiProcessing._prepare

    def reversed_correct(self):
        prepare(self)
        self._correct = self._correct[::-1]

    monkeypatch.setattr(models.QtiProcessing, "_prepare", reversed_correct)
    with pytest.raises(AssertionError):
        for data in ITEMS:
            for response in _responses(models.parse_xml(data)):
                _same(models.parse_xml(data), response)


# --- the questions of the items, the members of a package -----------------------------------

def _old_question_of(bank, identifier: str):
    return next((q for q in bank.questions if identifier in (q.id, f"{q.id}-{bank.lang}")), None)


@settings(max_examples=300, deadline=None)
@given(ids=st.lists(st.sampled_from(["q1", "q2", "q1-en", "q1-en-en", "en", "-en", "", "q2-fr", "q1-"]), max_size=6),
       lang=st.sampled_from(["en", "fr"]), asked=st.sampled_from(["q1", "q2", "q1-en", "q1-en-en", "en", "-en", "", "q2-fr", "q1-", "q3", "q1-fr"]))
def test_the_index_finds_the_question_the_search_found(ids, lang, asked):
    bank = SimpleNamespace(lang=lang, questions=[SimpleNamespace(id=i, n=n) for n, i in enumerate(ids)])
    assert lint_module._questions_by_identifier(bank).get(asked) is _old_question_of(bank, asked)


def test_members_read_on_demand_are_the_members():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in (("items/b.xml", b"<b/>"), ("imsmanifest.xml", b"<m/>"), ("items/a.xml", b"<a/>")):
            archive.writestr(name, data)
    with zipfile.ZipFile(io.BytesIO(buffer.getvalue())) as archive:
        whole = {n: archive.read(n) for n in archive.namelist()}
    members = lint_module._members(buffer.getvalue())
    assert dict(members) == whole and list(members) == list(whole) and len(members) == 3
    assert "items/a.xml" in members and "nothing" not in members
    assert [(m, d) for m, d, _ in lint_module._items(members)] == [(m, d) for m, d in sorted(whole.items()) if m.startswith("items/")]


# --- the checks in worker processes ---------------------------------------------------------

def test_the_checks_give_the_same_findings_in_workers_as_one_after_another(monkeypatch, tmp_path):
    """Every target on the every-kind bank with a defect planted for each check (a French title
    the same as the English, a long Dutch one): the findings, in order, with the pool forced on
    and with it off."""
    import shutil

    from aistack_bank import parallel

    shutil.copytree(REPO / "examples" / "every-kind", tmp_path / "every", ignore=shutil.ignore_patterns("exports"))
    monkeypatch.chdir(tmp_path / "every")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    po = tmp_path / "every" / "translations" / "fr.po"
    text = po.read_text(encoding="utf-8")
    context = next(line for line in text.split("\n") if line.startswith('msgctxt "topic.') and line.endswith('.title"'))
    start = text.index(context)
    english = re.search(r'msgid "(.*)"', text[start:]).group(1)
    stop = text.index("\n", text.index("msgstr", start))
    po.write_text(text[:text.index("msgstr", start)] + f'msgstr "{english}"' + text[stop:], encoding="utf-8")

    def run(jobs: str, least: int):
        monkeypatch.setenv("AISTACK_BANK_JOBS", jobs)
        monkeypatch.setattr(lint_module, "LINT_POOL_MIN", least)
        return lint_module.lint(tmp_path / "every" / "bank", tmp_path / "every" / "translations", list(lint_module.TARGETS))

    forked = []
    original = parallel._Pool
    monkeypatch.setattr(parallel, "_Pool", lambda n: forked.append(n) or original(n))
    serial = run("1", 10**9)
    assert not forked
    pooled = run("2", 0)
    assert forked, "the pool did not start"
    assert any(d.code == "W803" for d in serial), serial
    assert [(d.code, d.message, str(d.location)) for d in pooled] == [(d.code, d.message, str(d.location)) for d in serial]
