"""Property tests over whole projects that mix every question kind, several topics and a
half-translated language: every command runs without a traceback and every output parses.

Each generated project is validated, built in every format, linted for every LMS target, each
export is imported back, and `bank analyze` reads simulated practice-site answers to every
question. The examples are few (each runs the whole pipeline) but every one holds each kind.
"""

from __future__ import annotations

import io
import json
import random
import zipfile
from html.parser import HTMLParser
from pathlib import Path

import polib
import yaml
from hypothesis import HealthCheck, Phase, given, settings, strategies as st
from lxml import etree

from aistack_bank.analyze import analyze
from aistack_bank.build import build
from aistack_bank.errors import BankError, DiagnosticsError, Severity
from aistack_bank.exporters import FORMATS
from aistack_bank.i18n.update import update_catalogs
from aistack_bank.importers import read_questions
from aistack_bank.kinds import NAMES
from aistack_bank.lms.lint import TARGETS, lint
from aistack_bank.rules.validate import validate_bank

from test_analyze_kinds import candidates

WORD = st.text(st.sampled_from(list("abcdefghijklmnopqrstuvwxyzéèçßø<>&{}~=#\\*")), min_size=2, max_size=7)
TEXT = st.lists(WORD, min_size=2, max_size=5).map(" ".join)


def _unique(draw, n: int) -> list[str]:
    return draw(st.lists(TEXT, min_size=n, max_size=n, unique_by=lambda t: " ".join(t.casefold().split())))


@st.composite
def question(draw, qid: str, kind: str) -> dict:
    """A valid question of ``kind``: distinct texts (but the answer two matching prompts may
    share), near misses clear of the right range."""
    texts = _unique(draw, 14)
    q = {"id": qid, "kind": kind, "stem": texts.pop() + "?" if kind != "true-false" else texts.pop() + ".",
         "tags": ["gen"], "difficulty": draw(st.integers(1, 3))}
    if draw(st.booleans()):
        q["explanation"] = texts.pop()
    if kind in ("single-choice", "multiple-response"):
        n = draw(st.integers(3, 6))
        q["options"] = [{"id": chr(97 + i), "text": texts.pop(), **({"feedback": texts.pop()} if draw(st.booleans()) else {})} for i in range(n)]
        if kind == "single-choice":
            q["correct"] = chr(97 + draw(st.integers(0, n - 1)))
        else:
            q["correct"] = sorted(draw(st.sets(st.sampled_from([chr(97 + i) for i in range(n)]), min_size=2, max_size=n - 1)))
            q["scoring"] = draw(st.sampled_from(["partial", "all-or-nothing"]))
    elif kind == "true-false":
        q["answer"] = draw(st.booleans())
        if draw(st.booleans()):
            q |= {"feedback_true": texts.pop(), "feedback_false": texts.pop()}
    elif kind == "numerical":
        answer = draw(st.integers(13, 5000))
        tolerance = draw(st.sampled_from([0, 0.5, 2]))
        units = draw(st.booleans())
        q |= {"answer": answer, "tolerance": tolerance,
              "near_misses": [{"id": f"n{i + 1}", "value": answer * 10 + i, "tolerance": 0, "credit": draw(st.sampled_from([0, 0.5])), "feedback": texts.pop()}
                              for i in range(draw(st.integers(0, 2)))],
              "check": {"script": f'answer({answer} * GB, unit="GB")' if units else f"answer({answer})"}}
        if units:
            q["units"] = [{"id": "u1", "name": "GB", "multiplier": 1}, {"id": "u2", "name": "MB", "multiplier": 0.001}]
    elif kind == "short-answer":
        n = draw(st.integers(1, 3))
        q["answers"] = [{"id": f"a{i + 1}", "text": texts.pop(), **({"credit": 0.5} if i else {})} for i in range(n)]
    elif kind == "essay":
        q |= {key: texts.pop() for key in ("model_answer", "response_template") if draw(st.booleans())}
    elif kind == "ordering":
        q["items"] = [{"id": chr(97 + i), "text": texts.pop()} for i in range(draw(st.integers(3, 6)))]
    elif kind == "matching":
        n = draw(st.integers(2, 4))
        q["pairs"] = [{"id": chr(97 + i), "prompt": texts.pop(), "answer": texts.pop()} for i in range(n)]
        if draw(st.booleans()):  # a later prompt sharing an earlier prompt's answer
            later = draw(st.integers(1, n - 1))
            q["pairs"][later]["answer"] = q["pairs"][draw(st.integers(0, later - 1))]["answer"]
        if draw(st.booleans()):
            q["distractors"] = [{"id": chr(97 + n), "text": texts.pop()}]
    else:
        raise AssertionError(f"no generator for {kind} questions")
    return q


@st.composite
def projects(draw) -> dict:
    """Two or three topics; every kind at least once; which entries of the French catalog are translated."""
    kinds = list(NAMES) + draw(st.lists(st.sampled_from(NAMES), max_size=4))
    draw(st.randoms()).shuffle(kinds)
    topics = draw(st.integers(2, 3))
    questions = [draw(question(f"q{i + 1:03d}", kind)) for i, kind in enumerate(kinds)]
    split = {f"topic-{t}": questions[t::topics] for t in range(topics)}
    return {"topics": split, "translated": draw(st.integers(0, 10**6)), "seed": draw(st.integers(0, 1000))}


def write_project(root: Path, project: dict) -> tuple[Path, Path]:
    bank, translations = root / "bank", root / "translations"
    bank.mkdir(parents=True)
    (bank / "categories.yaml").write_text("categories:\n  - id: gen\n    title: Generated\n", encoding="utf-8")
    for topic_id, questions in project["topics"].items():
        folder = bank / topic_id / "questions"
        folder.mkdir(parents=True)
        topic = {"id": topic_id, "category": "gen", "title": f"Topic {topic_id}", "summary": "Generated questions.",
                 "tags": {"gen": "generated"}, "questions": [q["id"] for q in questions]}
        (bank / topic_id / "topic.yaml").write_text(yaml.safe_dump(topic, allow_unicode=True, sort_keys=False), encoding="utf-8")
        for q in questions:
            (folder / f"{q['id']}-gen.yaml").write_text(yaml.safe_dump(q, allow_unicode=True, sort_keys=False), encoding="utf-8")
    translations.mkdir()
    update_catalogs(bank, translations, languages=["fr"])
    po = polib.pofile(str(translations / "fr.po"))
    chance = random.Random(project["translated"])
    for entry in po:  # about half of the texts translated; units and numbers kept as they are
        if chance.random() < 0.5 and ".unit." not in entry.msgctxt:
            entry.msgstr = "fr " + entry.msgid
    po.save(str(translations / "fr.po"))
    return bank, translations


def parses(name: str, data: bytes) -> None:
    """Every output is well formed for what it is."""
    if name.endswith((".zip", ".imscc")):
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            for member in archive.namelist():
                parses(member, archive.read(member))
    elif name.endswith(".xml"):
        etree.fromstring(data)
    elif name.endswith(".json"):
        json.loads(data)
    elif name.endswith(".html"):
        HTMLParser().feed(data.decode("utf-8"))
    else:
        data.decode("utf-8")


IMPORTERS = {"moodle": "moodle", "gift": "gift", "qti21": "qti", "qti30": "qti", "canvas-qti12": "qti", "common-cartridge": "qti", "aiken": "aiken"}


@settings(max_examples=4, deadline=None, phases=(Phase.explicit, Phase.reuse, Phase.generate), suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture, HealthCheck.data_too_large])
@given(projects())
def test_every_command_runs_on_banks_of_every_kind(tmp_path_factory, project):
    root = tmp_path_factory.mktemp("mixed")
    bank, translations = write_project(root, project)
    total = sum(len(qs) for qs in project["topics"].values())

    report = validate_bank(bank, translations=translations)
    assert [d for d in report.diagnostics if d.severity is Severity.ERROR] == []

    try:
        build(bank, translations, root / "exports", allow_fallback=True)
    except DiagnosticsError as exc:
        raise AssertionError("\n".join(map(str, exc.diagnostics))) from None
    written = [f for f in (root / "exports").rglob("*") if f.is_file() and f.name != "MANIFEST"]
    assert written
    for path in written:
        parses(path.name, path.read_bytes())
    for fmt in FORMATS.values():  # each format wrote every kind it carries
        assert (root / "exports" / fmt.folder).is_dir(), fmt.name

    try:  # a language half translated is refused (as by `bank build` without --allow-fallback), with located errors
        assert isinstance(lint(bank, translations, list(TARGETS), exports=root / "exports"), list)
    except DiagnosticsError as exc:
        assert exc.diagnostics and all(d.location is not None and d.location.path.endswith("fr.po") for d in exc.diagnostics)
    linted = lint(bank, None, list(TARGETS), exports=root / "exports")  # English alone
    # Each QTI item gives its own right response full marks, as the QTI lint runs it.
    assert [d.message for d in linted if d.code == "W808" and " scores " in d.message] == []

    by_folder = {f.folder: f for f in FORMATS.values()}
    for folder, reader in IMPORTERS.items():
        for path in sorted((root / "exports" / folder).glob("topic-*/*-en.*")):
            try:
                read, skipped = read_questions(reader, path)
            except BankError as exc:  # a file with nothing to import (Aiken of a topic without single choice)
                assert exc.location is not None and not any(q["kind"] in FORMATS["aiken"].writers for q in project["topics"][path.parent.name]), exc
                continue
            carried = [q for q in project["topics"][path.parent.name] if q["kind"] in by_folder[folder].writers]
            assert read or skipped or not carried, path
            if folder != "aiken":  # every question the format carries comes back, of its kind (Aiken leaves some out)
                assert [s for s in skipped if not s.reason.startswith("the same question as")] == [], path
                assert sorted(q.kind for q in read) == sorted(q["kind"] for q in carried), path

    rng = random.Random(project["seed"])
    from aistack_bank.analyze.bankinfo import load_bank_info

    info, problems = load_bank_info(bank, translations)
    assert info is not None, problems
    results = root / "results"
    results.mkdir()
    for lang in info.languages:
        for n in range(3):
            answers = [{"question": qid, "language": lang, "choice": rng.choice(candidates(item.questions[lang]))[0], "answered_at": "2026-01-01T00:00:00Z"}
                       for qid, item in info.items.items()]
            data = {"format": "aistack-bank-practice-answers", "version": 1, "bank": info.topic_id, "learner": f"{lang}{n}", "answers": answers}
            (results / f"{lang}-{n}.json").write_text(json.dumps(data), encoding="utf-8")
    analysis = analyze([results], bank, translations)
    assert not analysis.errors, analysis.errors
    # Every question gets statistics, but those graded by a person, which the report names.
    unscored = {qid for qid, item in info.items.items() if not item.scored}
    assert {qid for qid, _ in analysis.analysis.items} | unscored == set(info.items) and len(info.items) == total
    assert set(analysis.unscored) == unscored
