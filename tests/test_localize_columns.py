"""A localizing worker reads its catalog's columns (``Catalogs(light=True, columns=True)``): each
field's state and its translation are taken from them (:func:`~aistack_bank.i18n.status.column_states`)
without making the catalog's entries, and each question is localized from one dump of it
(:func:`~aistack_bank.i18n.localize.localize_question`), not two.

Compared with the code before (spelled out here: the catalog's light entries, each field's state
taken from its entry, each question dumped twice and its fields grouped one by one), on the
bundled bank and ``examples/every-kind``: catalogs as they are, with random entries untranslated,
fuzzy (alone or among other flags), blank, very long, made for another English text, missing,
kept whole (a previous msgid, an obsolete entry, a plural), with half of their entries
untranslated, and spoiled (a line that is not PO); each read fresh, read again from the kept
read, and read after an edit of one entry; strict, with fallback and in progress: the same
notes, errors, English texts, library and status. ``localize_question`` and the fields by
question are compared on random translations and random orders of the fields."""

from __future__ import annotations

import pickle
import random
import shutil

import polib
import pytest

from conftest import REPO
from aistack_bank import build
from aistack_bank.errors import Diagnostic, Location, error, warning
from aistack_bank.i18n.catalog import Catalogs, render_catalog
from aistack_bank.i18n.fields import category_key, english_library_and_fields, question_fields, topic_key
from aistack_bank.i18n.localize import _category_key, _topic_key, field_rule_error, fields_by_question, localize_question
from aistack_bank.i18n.status import column_states, field_states, has_columns, language_status
from aistack_bank.load import read_library
from aistack_bank.project.settings import LanguagePolicy


# ---------------------------------------------------------------- the code before, spelled out

def _validated_before(model, update, key_of, problems):
    from pydantic import ValidationError

    try:
        return type(model).model_validate({**model.model_dump(), **update})
    except ValidationError as exc:
        for err in exc.errors():
            problems.append((key_of(err["loc"]), err["type"], err["msg"]))
        return None


def _question_key_before(fields):
    by_loc = {field.loc: field.key for field in fields}

    def key_of(loc):
        for end in range(len(loc), 0, -1):
            if tuple(loc[:end]) in by_loc:
                return by_loc[tuple(loc[:end])]
        question_id = fields[0].question_id
        return f"{question_id}.{loc[0]}" if loc else question_id

    return key_of


def _set_before(data, loc, value):
    for part in loc[:-1]:
        data = data[part]
    data[loc[-1]] = value


def _localize_question_before(question, texts, problems, fields=None):
    from pathlib import Path

    from aistack_bank.kinds import kind_of

    if not fields:
        fields = question_fields(question, None, Path())
    data = question.model_dump()
    changed = False
    for field in fields:
        if field.key in texts:
            _set_before(data, field.loc, texts[field.key])
            changed = True
    if not changed:
        return question
    split = kind_of(question).split_translation
    if split is not None:
        split(data)
    return _validated_before(question, data, _question_key_before(fields), problems)


def _apply_category_before(category, texts, problems):
    return _validated_before(category, {"title": texts.get(category_key(category.id), category.title)}, _category_key(category.id), problems)


def _apply_texts_before(bank, texts, language, *, category=None, fields=None):
    problems = []
    entry = bank.topic
    tid = entry.id
    topic = _validated_before(entry, {
        "title": texts.get(topic_key(tid, "title"), entry.title),
        "summary": texts.get(topic_key(tid, "summary"), entry.summary),
        "key_points": [{"id": p.id, "text": texts.get(topic_key(tid, f"key_point.{p.id}"), p.text)} for p in entry.key_points],
    }, _topic_key(tid, [p.id for p in entry.key_points]), problems)
    if category is None:
        category = _apply_category_before(bank.category, texts, problems)
    fields = fields or {}
    questions = [_localize_question_before(question, texts, problems, fields.get(question.id)) for question in bank.questions]
    if problems:
        return None, problems
    return bank.model_copy(update={"topic": topic, "category": category, "questions": tuple(questions), "lang": language}), []


def _apply_library_before(library, texts, language, *, fields=None):
    problems = []
    categories = {category.id: _apply_category_before(category, texts, problems) for category in library.categories}
    topics = []
    for bank in library.topics:
        localized, more = _apply_texts_before(bank, texts, language, category=categories.get(bank.category.id) or bank.category, fields=fields)
        problems += more
        topics.append(localized)
    if problems:
        return None, problems
    return library.model_copy(update={"categories": tuple(categories[c.id] for c in library.categories), "topics": tuple(topics), "lang": language}), []


def _by_question_before(fields):
    by_question: dict[str, list] = {}
    for field in fields:
        if field.question_id is not None:
            by_question.setdefault(field.question_id, []).append(field)
    return by_question


def _localize_before(catalog, english, fields, *, allow_fallback, untranslated, active, states):
    texts: dict[str, str] = {}
    diags: list[Diagnostic] = []
    for field, state in zip(fields, states):
        entry = active.get(field.key)
        if state == "translated":
            texts[field.key] = entry.msgstr
            continue
        untranslated.append(field.text)
        where = Location.of(catalog.path, entry.linenum or 0, 1 if entry.linenum else 0) if entry is not None else Location.of(catalog.path)
        what = "is not translated" if state == "untranslated" else "is fuzzy or out of date with the English"
        if allow_fallback:
            diags.append(warning("W501" if state == "untranslated" else "W502", f"{field.key} {what}; exported in English", where))
        else:
            code = "E504" if state == "fuzzy" else "E509"
            diags.append(error(code, f"{field.key} {what} (use --allow-fallback to export it in English)", where))
    localized, problems = _apply_library_before(english, texts, catalog.language, fields=_by_question_before(fields))
    if problems:
        from aistack_bank.i18n.locations import msgstr_location

        for key, kind, message in problems:
            entry = active.get(key)
            where = msgstr_location(catalog, entry) if entry is not None else Location.of(catalog.path)
            diags.append(field_rule_error(key, kind, message, where))
    if any(d.severity.value == "error" for d in diags):
        return None, diags
    return localized, diags


def _one_language_before(lang, translations, catalogs, fields, english, decide, policy):
    """build._one_language as it was: the catalog's light entries, each field's state from its entry."""
    from aistack_bank.errors import Severity

    notes = []
    catalog = catalogs.read(translations / f"{lang}.po")
    if catalog.diagnostics:
        return notes, list(catalog.diagnostics), None, None
    active = catalog.active()
    states = field_states(fields, active)
    status = language_status(fields, catalog, states)
    state = decide(lang, status)
    if state == "unstarted":
        notes.append(warning("W552", f"nothing in {lang} is translated yet; {lang} is left out of the exports until its translation starts", Location.of(catalog.path)))
        return notes, [], None, None
    if state == "in progress":
        notes.append(warning("W558", f"{lang} is {status.percent:.1f}% translated (ready at {policy.ready:g}%); it is left out of the exports until it is ready. "
                                     f"`bank i18n todo {lang}` lists what is missing; `fallback = true` under [languages] in bank.toml exports it with English for the missing texts",
                             Location.of(catalog.path)))
        return notes, [], None, None
    untranslated: list[str] = []
    localized, diags = _localize_before(catalog, english, fields, allow_fallback=state == "fallback", untranslated=untranslated, active=active, states=states)
    problems = [d for d in diags if d.severity is Severity.ERROR]
    missing = None
    if state == "fallback":
        missing = frozenset(untranslated)
        if missing:
            count = status.total - status.translated
            notes.append(warning("W559", f"{lang} is {status.percent:.1f}% translated: {count} text{'' if count == 1 else 's'} {'is' if count == 1 else 'are'} exported in English, "
                                         f"marked as English where the format can say so (`bank i18n todo {lang}` lists them)", Location.of(catalog.path)))
        notes += [d for d in diags if d.severity is Severity.WARNING and d.code not in ("W501", "W502")]
    else:
        notes += [d for d in diags if d.severity is Severity.WARNING]
    catalogs.forget(catalog.path)
    return notes, problems, missing, localized


# ---------------------------------------------------------------- catalogs spoiled at random

WAYS = ["untranslated", "fuzzy", "fuzzy-among", "other-flag", "blank", "long", "other-english", "missing", "no-notes", "previous", "obsolete", "plural"]
WHOLE = ("previous", "obsolete", "plural")
"""The ways that make the file one not of the common shape: read as light entries, not columns."""


def _spoil(path, how: str, rng: random.Random) -> None:
    if how == "broken":
        text = path.read_text(encoding="utf-8").splitlines(keepends=True)
        text.insert(rng.randrange(len(text) // 2, len(text)), "this is not PO\n")
        path.write_text("".join(text), encoding="utf-8")
        return
    po = polib.pofile(str(path))
    entries = [e for e in po if e.msgstr and not e.obsolete and e.msgid]
    emptied: list[str] = []
    if how == "half":
        for entry in rng.sample(entries, len(entries) // 2):
            entry.msgstr = ""
        for entry in rng.sample(entries, 30):
            entry.flags.append("fuzzy")
    else:
        for entry in rng.sample(entries, rng.randint(1, min(40, len(entries)))):
            what = rng.choice([way for way in WAYS if (how == "random" and way not in WHOLE) or way == how])
            if what == "untranslated":
                entry.msgstr = ""
            elif what == "fuzzy":
                entry.flags.append("fuzzy")
            elif what == "fuzzy-among":
                entry.flags += rng.choice([["python-format", "fuzzy"], ["no-wrap"], ["fuzzyish"], ["c-format"]])
            elif what == "other-flag":
                entry.flags.append(rng.choice(["python-format", "no-wrap", "fuzzy-not"]))
            elif what == "blank":
                entry.msgstr = rng.choice(["   ", "\n", " \t "])
            elif what == "long":
                entry.msgstr = "x" * 20_000
            elif what == "other-english":
                entry.msgid = entry.msgid + " (before)"
            elif what == "missing":
                po.remove(entry)
            elif what == "no-notes":  # (notes of one empty line: a row the columns keep whole)
                entry.comment = ""
                emptied.append(entry.msgctxt)
                if rng.random() < 0.5:
                    entry.flags.append("fuzzy")
            elif what == "previous":
                entry.previous_msgid = entry.msgid + " (earlier)"
                entry.flags.append("fuzzy")
            elif what == "obsolete":
                entry.obsolete = True
            else:
                po.append(polib.POEntry(msgctxt=entry.msgctxt + ".plural", msgid="one", msgid_plural="many", msgstr_plural={0: "un", 1: "beaucoup"}))
    lines = render_catalog(po).decode("utf-8").split("\n")  # (as msgcat writes it: of the common shape, read as columns)
    for context in emptied:
        at = lines.index('msgctxt "' + context + '"')
        while at and lines[at - 1]:
            at -= 1
        lines.insert(at, "#.")
    path.write_text("\n".join(lines), encoding="utf-8")


def _edit_one(path, rng: random.Random) -> None:
    """One translation of the file changed in place (emptied, changed or made blank): the read
    after it is the kept read with that block read again."""
    lines = path.read_text(encoding="utf-8").split("\n")
    single = [i for i, line in enumerate(lines) if line.startswith('msgstr "') and line != 'msgstr ""' and i + 1 < len(lines) and not lines[i + 1].startswith('"')]
    at = rng.choice(single)
    lines[at] = rng.choice(['msgstr ""', lines[at][:-1] + ' (modifié)"', 'msgstr "  "'])
    path.write_text("\n".join(lines), encoding="utf-8")


class _ReadOnce:
    """The catalogs of the code before, each file read on the first call only: at each step of
    the test, the runs of a language's localizing before (the policies, with fallback or
    not, the fields as made or as sent) share one fresh read of its file."""

    def __init__(self, catalogs: Catalogs) -> None:
        self._catalogs = catalogs

    def read(self, path):
        return self._catalogs.read(path)

    def forget(self, path) -> None:
        pass


class _KeptRead(Catalogs):
    """The catalogs of the code now, each file's read (the code under test's, with the user
    cache: cold at the first step, kept at the second, patched after the edit) made on the
    first call and kept though :func:`build._one_language` lets it go when done: its runs
    at a step localize from one read, as the languages of a build each do from theirs (and
    a run that changed what it was given would make the next differ from the code before)."""

    def forget(self, path) -> None:
        pass


POLICIES = [(LanguagePolicy(), False), (LanguagePolicy(), True), (LanguagePolicy(ready=50.0), False), (LanguagePolicy(ready=50.0), True)]


def _policies(how: str | None) -> list:
    """The policies and fallbacks a case localizes with: the four for the catalogs as made, spoiled
    at random, half emptied or broken; for those spoiled one way, the first and the last (each
    policy and each fallback once). With the four for every case, the cases reach the same lines
    and branches of the package and of the code before (`coverage run --branch`, round 22)."""
    return POLICIES if how not in WAYS else POLICIES[::3]


def _outcome(result):
    notes, problems, missing, localized = result
    return ([d.as_dict() for d in notes], [d.as_dict() for d in problems], missing,
            (type(localized), localized.model_dump_json(), pickle.dumps(localized, protocol=pickle.HIGHEST_PROTOCOL)) if localized is not None else None)


@pytest.mark.parametrize("root", [REPO, REPO / "examples" / "every-kind"], ids=["bundled", "every-kind"])
@pytest.mark.parametrize("how,seed", [(None, None), ("random", 1), ("random", 2), ("random", 3), ("half", 4), ("broken", 6),
                                      *[(way, 10 + i) for i, way in enumerate(WAYS)]])
def test_the_columns_localize_as_the_entries_did(root, how, seed, tmp_path):
    translations = tmp_path / "translations"
    shutil.copytree(root / "translations", translations)
    paths = sorted(translations.glob("*.po"))
    rng = random.Random(seed)
    if how is not None:
        for index, path in enumerate(paths):
            _spoil(path, how if how != "broken" or index == 0 else "random", rng)
    english, fields = english_library_and_fields(read_library(root / "bank"))
    sent = build._fields_received(build._fields_sent(fields))
    seen = set()
    columns_read = 0
    for read in ("fresh", "kept", "edited"):
        if read == "edited":
            for path in paths:
                _edit_one(path, rng)
        before_reads = {}  # the code before's read of each file, once at each step (it reads what it is given, never changes it)
        after_reads = {}  # the code now's, likewise: one read of each file at each step (cold, kept, edited), shared by its runs
        for policy, fallback in _policies(how):
            for lang in [p.stem for p in paths]:
                decide = build._exported_decision(policy, fallback)
                for given in (fields, sent):
                    catalogs = after_reads.setdefault(lang, _KeptRead(light=True, columns=True))
                    catalog = catalogs.read(translations / f"{lang}.po")
                    columns_read += has_columns(catalog.po)
                    after = build._one_language(lang, translations, catalogs, given, None, english, decide, policy)
                    before_catalogs = before_reads.setdefault(lang, _ReadOnce(Catalogs(light=True, use_cache=False)))
                    before = _one_language_before(lang, translations, before_catalogs, given, english, decide, policy)
                    assert _outcome(after) == _outcome(before)
                    seen |= {d.code for d in after[0] + after[1]} | ({"missing"} if after[2] else set()) | ({"localized"} if after[3] is not None else set())
        for lang in [p.stem for p in paths]:  # (what follows does not depend on the policy: once at each step)
            columns = Catalogs(light=True, columns=True).read(translations / f"{lang}.po")
            light = before_reads[lang].read(translations / f"{lang}.po")  # (a fresh read of this step's file)
            assert [d.as_dict() for d in columns.diagnostics] == [d.as_dict() for d in light.diagnostics]
            if not light.diagnostics and has_columns(columns.po):
                states, texts = column_states(fields, columns.po)
                active = light.active()
                assert states == field_states(fields, active)
                assert texts == {f.key: active[f.key].msgstr for f, s in zip(fields, states) if s == "translated"}
                assert language_status(fields, columns, states) == language_status(fields, light)
    assert bool(columns_read) == (how not in WHOLE)  # (the catalogs of the common shape are read as columns)
    if how is None:
        assert "localized" in seen
    if how == "half":
        assert {"W558", "W559", "missing"} <= seen
    if how == "broken":
        assert any(code.startswith("E") for code in seen)


def _random_text(rng: random.Random, english: str) -> str:
    return rng.choice([english + " (fr)", "", "   ", "\n", "a\nb", " x \n\n y ", "x" * 300, english, "é" * 3, "1\n  \n2"])


@pytest.mark.parametrize("root", [REPO, REPO / "examples" / "every-kind"], ids=["bundled", "every-kind"])
@pytest.mark.parametrize("seed", range(4))
def test_one_dump_localizes_a_question_as_two_did(root, seed):
    rng = random.Random(seed)
    source = read_library(root / "bank")
    english, fields = english_library_and_fields(source)
    by_question = fields_by_question(fields)
    assert by_question == _by_question_before(fields)
    for _ in range(5):
        shuffled = list(fields)
        rng.shuffle(shuffled[: len(shuffled) // 2])
        shuffled = shuffled[rng.randrange(len(shuffled)):] + shuffled[:len(shuffled) // 3]
        assert {k: [f.key for f in v] for k, v in fields_by_question(shuffled).items()} == {k: [f.key for f in v] for k, v in _by_question_before(shuffled).items()}
        assert list(fields_by_question(shuffled)) == list(_by_question_before(shuffled))
    for question in english.questions:
        own = by_question.get(question.id, [])
        for _ in range(6):
            texts = {f.key: _random_text(rng, f.text) for f in own if rng.random() < 0.6}
            if rng.random() < 0.2:
                texts["unrelated.key"] = "x"
            for given in (own, None):
                after_problems: list = []
                before_problems: list = []
                after = localize_question(question, texts, after_problems, given)
                before = _localize_question_before(question, texts, before_problems, given)
                assert after_problems == before_problems
                assert (after is question) == (before is question)
                if before is None:
                    assert after is None
                else:
                    assert type(after) is type(before) and after == before
                    assert pickle.dumps(after, protocol=pickle.HIGHEST_PROTOCOL) == pickle.dumps(before, protocol=pickle.HIGHEST_PROTOCOL)


def test_a_split_that_drops_a_key_gets_the_question_s_own_back(monkeypatch):
    """A kind's ``split_translation`` that drops a key of the data: the question's own value
    comes back, as when the data was merged with a second dump (and the same as the code before)."""
    import dataclasses

    from aistack_bank.i18n import localize as module
    from aistack_bank.kinds import kind_of

    english, fields = english_library_and_fields(read_library(REPO / "examples" / "every-kind" / "bank"))
    by_question = fields_by_question(fields)
    question = next(q for q in english.questions if q.explanation is not None and kind_of(q).split_translation is not None)
    original = kind_of(question).split_translation

    def dropping(data):
        original(data)
        del data["explanation"]

    changed = dataclasses.replace(kind_of(question), split_translation=dropping)
    monkeypatch.setattr(module, "_KINDS", [lambda q: changed])
    monkeypatch.setattr("aistack_bank.kinds.kind_of", lambda q: changed)
    texts = {f.key: f.text + " (fr)" for f in by_question[question.id]}
    problems: list = []
    after = localize_question(question, texts, problems, by_question[question.id])
    before = _localize_question_before(question, texts, [], by_question[question.id])
    assert after is not None and after == before and after.explanation == question.explanation and not problems
