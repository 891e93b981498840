"""The validation cache never changes a verdict: after every kind of change to the bank and its
catalogs (edit, rename, delete, add, touch, undo), `bank validate` with its cache prints exactly
what a run without any cache prints."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from conftest import keep_only, question_file, topic_dir, topic_file


@pytest.fixture
def project(project) -> Path:
    """conftest's scratch copy of the bank cut down to conftest.SAMPLE, every question these tests
    edit among them. Each step runs `bank validate` or `bank build` with and without cache: on a
    quarter of the bank the caches meet the same kinds of files, stores and memos in a quarter of
    the time."""
    return keep_only(project)


_REFERENCES: dict[tuple, tuple[int, str]] = {}


def _inputs() -> str:
    """A digest of every file a run without cache reads: the bank, the catalogs and the project's
    settings file (paths and bytes; the working directory is the project)."""
    import hashlib

    digest = hashlib.sha256()
    for path in sorted([*Path("bank").rglob("*"), *Path("translations").rglob("*"), *Path(".").glob("*.toml")]):
        if path.is_file():
            digest.update(path.as_posix().encode("utf-8", "surrogateescape") + b"\0" + path.read_bytes() + b"\0")
        else:
            digest.update(path.as_posix().encode("utf-8", "surrogateescape") + b"/\0")
    return digest.hexdigest()


def _reference(run_cli, *args: str) -> tuple[int, str]:
    """`bank validate ARGS --no-cache`, run serially: what every cached run is compared with.
    Steps that undo an edit come back to the inputs of an earlier step, and the serial and pool
    variants of a test (and the damaged stores' cases) go through the same inputs: their
    reference is computed once per test process (a run without cache reads nothing but those
    files, named relative to the working directory, the project, as they are printed). A test
    that changes the package's rules for its next steps calls _rules_changed() first."""
    key = (tuple(_RULES), args, _inputs())
    if key not in _REFERENCES:
        jobs = os.environ.get("AISTACK_BANK_JOBS")
        os.environ["AISTACK_BANK_JOBS"] = "1"
        try:
            _REFERENCES[key] = run_cli("validate", *args, "--no-cache")
        finally:
            if jobs is None:
                del os.environ["AISTACK_BANK_JOBS"]
            else:
                os.environ["AISTACK_BANK_JOBS"] = jobs
    return _REFERENCES[key]


_RULES: list[str] = []
"""Empty while the package's rules are its own; else what the running test changed them to."""


def _rules_changed(how: str) -> None:
    """The package's rules change for the test's next steps: its references from now on are
    kept apart from those of the package's own rules (and dropped after it)."""
    _RULES[:] = [how]


@pytest.fixture(autouse=True)
def _references():
    yield
    if _RULES:
        for key in [key for key in _REFERENCES if key[0] == tuple(_RULES)]:
            del _REFERENCES[key]
        _RULES.clear()


def _same_verdict(run_cli) -> tuple[int, str]:
    cached = run_cli("validate")
    fresh = _reference(run_cli)
    assert cached == fresh, f"cached:\n{cached[1]}\nwithout cache:\n{fresh[1]}"
    again = run_cli("validate")  # now certainly served from the cache
    assert again == fresh
    return fresh


def _replace(path: Path, old: str, new: str, count: int = 1) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, (path, old)
    path.write_text(text.replace(old, new, count), encoding="utf-8")


def _first_translation(po: Path) -> tuple[str, str]:
    """The first non-empty msgstr line of a catalog's first real entry, and a broken copy."""
    lines = po.read_text(encoding="utf-8").split("\n")
    line = next(ln for i, ln in enumerate(lines) if ln.startswith('msgstr "') and ln != 'msgstr ""' and i > 5)
    return line, line[:-1] + ' 12345 GB"'


@pytest.fixture(params=["serial", "pool"])
def jobs(request, monkeypatch):
    """Run serially, or with the catalogs verified in a process pool even for a small bank."""
    from aistack_bank import parallel

    if request.param == "pool":
        monkeypatch.setenv("AISTACK_BANK_JOBS", "2")
        monkeypatch.setattr(parallel, "POOL_MIN_WORK", 0)
    else:
        monkeypatch.setenv("AISTACK_BANK_JOBS", "1")
    return request.param


def test_every_change_gives_the_verdict_of_a_run_without_cache(project, run_cli, monkeypatch, jobs):
    monkeypatch.setenv("XDG_CACHE_HOME", str(project / "user-cache"))
    code, out = _same_verdict(run_cli)
    assert code == 0, out
    q001 = question_file(project, "q001")
    original = q001.read_bytes()
    fr = project / "translations" / "fr.po"
    fr_original = fr.read_bytes()

    steps = []

    def step(name, expect_error):
        code, out = _same_verdict(run_cli)
        assert expect_error is None or (code != 0) == expect_error, (name, out)
        steps.append((name, code, out))

    _replace(q001, "correct: a", "correct: x")
    step("edit a question (broken)", True)
    q001.write_bytes(original)
    step("undo the edit (the earlier verdict is valid again)", False)

    renamed = q001.with_name("q001-renamed-without-reason.yaml")
    q001.rename(renamed)
    step("rename a question file (slug only)", False)
    wrong = renamed.with_name("q777-" + renamed.name.split("-", 1)[1])
    renamed.rename(wrong)
    step("rename a question file (id no longer matches)", True)
    wrong.rename(q001)
    step("rename it back", False)

    stamp = q001.stat().st_mtime_ns + 5_000_000_000
    os.utime(q001, ns=(stamp, stamp))
    step("touch a question file", False)

    copy = q001.with_name("q998-copy-of-one.yaml")
    shutil.copy(q001, copy)
    step("add a question file (duplicate id)", True)
    copy.unlink()
    step("delete the added file", False)

    line, broken = _first_translation(fr)
    _replace(fr, line, broken)
    step("edit a catalog entry (a number the English lacks)", True)
    fr.write_bytes(fr_original)
    step("undo the catalog edit", False)
    os.utime(fr, ns=(stamp, stamp))
    step("touch a catalog", False)

    nl = project / "translations" / "nl.po"
    nl_original = nl.read_bytes()
    nl.unlink()
    step("delete a catalog", None)
    nl.write_bytes(nl_original)
    step("restore it", False)

    glossary = project / "translations" / "glossary.yaml"
    glossary.write_text("terms: 3\n", encoding="utf-8")
    step("break the glossary", True)

    # one change and its undo in the same second as the run before: content, not time, decides
    q001.write_bytes(original.replace(b"correct: a", b"correct: b"))
    os.utime(q001, ns=(stamp, stamp))
    step("edit without changing size class or mtime", True)

    assert len({out for _, _, out in steps}) > 3  # the steps really produced different verdicts


@pytest.mark.parametrize("edit", ["question", "catalog"])
def test_a_verdict_cached_for_other_content_is_never_served(project, run_cli, monkeypatch, edit):
    """Validate the broken bank, fix it, break it again: each run sees its own content."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(project / "user-cache"))
    target = question_file(project, "q001") if edit == "question" else project / "translations" / "fr.po"
    good = target.read_bytes()
    if edit == "question":
        bad = good.replace(b"correct: a", b"correct: x", 1)
    else:
        line, broken = _first_translation(target)
        bad = good.replace(line.encode(), broken.encode(), 1)
    for content, failing in [(bad, True), (good, False), (bad, True), (good, False)]:
        target.write_bytes(content)
        code, _ = _same_verdict(run_cli)
        assert (code != 0) == failing


def _tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_build_reuses_only_a_passing_verdict_for_exactly_its_inputs(project, run_cli, monkeypatch):
    """`bank build` skips validating again when `bank validate` passed these very bytes; it
    writes the same files as a build without any cache and refuses a bank broken since."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(project / "cold-cache"))
    code, out = run_cli("build", "--out", "cold")
    assert code == 0, out
    monkeypatch.setenv("XDG_CACHE_HOME", str(project / "user-cache"))
    assert run_cli("validate")[0] == 0
    code, out = run_cli("build", "--out", "warm")
    assert code == 0, out
    assert _tree(project / "warm") == _tree(project / "cold")

    q001 = question_file(project, "q001")
    _replace(q001, "correct: a", "correct: x")
    code, out = run_cli("build", "--out", "broken")
    assert code != 0 and "E304" in out, out
    assert not (project / "broken").exists() or not any((project / "broken").rglob("*.xml"))

    fr = project / "translations" / "fr.po"
    _replace(q001, "correct: x", "correct: a")
    assert run_cli("validate")[0] == 0
    line, broken = _first_translation(fr)
    _replace(fr, line, broken)
    code, out = run_cli("build", "--out", "broken-fr")
    assert code != 0, out


# ----------------------------------------------------------------------------- per-file stores

def _store_verdict(run_cli, cache: Path) -> tuple[int, str]:
    """`bank validate` served by the per-file stores (the whole-bank verdict is removed first),
    compared with a run that uses no cache at all: the same diagnostics, in the same order,
    at the same locations, and the same figures."""
    shutil.rmtree(cache / "aistack-bank" / "validate", ignore_errors=True)
    stored = run_cli("validate", "--format", "json")
    fresh = _reference(run_cli, "--format", "json")
    assert stored == fresh, f"from the stores:\n{stored[1]}\nwithout cache:\n{fresh[1]}"
    return fresh


def _codes(out: str) -> set[str]:
    import json

    return {d["code"] for d in json.loads(out)["diagnostics"]}


def test_the_per_file_stores_give_the_verdict_of_a_run_without_cache(project, run_cli, monkeypatch, file_jobs):
    """Edits, renames, deletes and touches of question files, catalogs, the template, the
    glossary and the topic's tags, and a new package version, applied one after the other:
    after each, what the per-file stores serve equals a run without any cache."""
    cache = project / "user-cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    code, out = _store_verdict(run_cli, cache)
    assert code == 0, out
    q004 = question_file(project, "q004")  # it has a numeric check
    q004_original = q004.read_bytes()
    topic = topic_file(project)
    topic_original = topic.read_bytes()
    fr = project / "translations" / "fr.po"
    fr_original = fr.read_bytes()
    pot = project / "translations" / "aistack.pot"
    pot_original = pot.read_bytes()
    glossary = project / "translations" / "glossary.yaml"
    glossary_original = glossary.read_bytes()
    seen: list[set[str]] = []

    def step(name: str, expect: str | None = None, absent: str | None = None) -> None:
        code, out = _store_verdict(run_cli, cache)
        codes = _codes(out)
        assert expect is None or expect in codes, (name, out)
        assert absent is None or absent not in codes, (name, out)
        seen.append(codes)

    q004.write_bytes(q004_original + b"# a comment: new bytes, the same question\n")
    step("comment added to a question file", absent="E508")
    q001 = question_file(project, "q001")  # no numeric check
    q001_original = q001.read_bytes()
    _replace(q001, "forward passes on fixed weights", "forward passes on frozen weights")
    step("English option text changed: the catalogs' entries are for another text", expect="E508")
    q001.write_bytes(q001_original)
    step("undone", absent="E508")
    _replace(q004, "text: About 7 GB", "text: About 8 GB")
    step("English option text of a checked question changed", expect="E508")
    q004.write_bytes(q004_original)
    step("undone", absent="E508")
    _replace(q004, "params = 7e9", "params = 9e9")
    step("numeric check changed: the key no longer shows its value", expect="E404")
    _replace(q004, "    params = 9e9\n", "\n\n    params = 7e9\n")
    step("the check's script fixed and moved down two lines", absent="E404")
    q004.write_bytes(q004_original)
    step("undone", absent="E404")

    _replace(topic, "  precision: ", "  number-formats: ")
    step("a tag removed from the topic's vocabulary", expect="E309")
    topic.write_bytes(topic_original)
    step("vocabulary restored", absent="E309")

    categories = project / "bank" / "categories.yaml"
    categories_original = categories.read_bytes()
    _replace(categories, "title: Computer systems", "title: Computer engineering")
    step("category title changed: its catalog entries are for another text", expect="E508")
    categories.write_bytes(categories_original)
    step("category title restored", absent="E508")

    # q001 moves to a second topic of the same category whose vocabulary lacks one of its tags
    other = topic_dir(project, "ai-serving")
    (other / "questions").mkdir(parents=True)
    q001 = question_file(project, "q001")
    q001_moved = other / "questions" / q001.name
    q001.rename(q001_moved)
    _replace(topic, "  - q001\n", "")
    (other / "topic.yaml").write_text(
        "id: ai-serving\ncategory: computer-systems\ntitle: Serving models\n"
        "summary: Serving trained models to users.\nkey_points:\n  - id: k1\n    text: Serving runs inference on fixed weights.\n"
        "tags:\n  training: training workloads\nquestions:\n  - q001\n", encoding="utf-8")
    step("question moved to a second topic whose vocabulary lacks its tag", expect="E309")
    _replace(other / "topic.yaml", "  training: training workloads\n", "  training: training workloads\n  inference: inference workloads\n")
    step("the second topic's vocabulary completed", absent="E309")
    _replace(other / "topic.yaml", "questions:\n  - q001\n", "questions: []\n")
    step("the second topic no longer lists it", expect="E307")
    q001_moved.rename(q001)
    topic.write_bytes(topic_original)
    shutil.rmtree(other)
    step("moved back", absent="E307")

    moved = q004.with_name("q004-renamed.yaml")
    q004.rename(moved)
    step("question file renamed (same bytes, another path)")
    moved.rename(q004)
    stamp = q004.stat().st_mtime_ns + 7_000_000_000
    os.utime(q004, ns=(stamp, stamp))
    step("renamed back and touched")
    q004.unlink()
    step("question file deleted", expect="E306")
    q004.write_bytes(q004_original)
    step("restored", absent="E306")

    _replace(fr, 'msgstr "Environ 7\u00a0Go"', 'msgstr "Environ 70\u00a0Go"')
    step("catalog entry edited (a number)", expect="E502")
    _replace(fr, 'msgstr "Environ 70\u00a0Go"', 'msgstr "Environ 7\u00a0Go"')
    os.utime(fr, ns=(stamp, stamp))
    step("catalog entry restored and the catalog touched", absent="E502")
    _replace(fr, 'msgctxt "q004.option.a"', '#, fuzzy\nmsgctxt "q004.option.a"')
    step("catalog entry marked fuzzy", expect="W502")
    fr.write_bytes(fr_original)
    # Each entry's findings are kept without their line (the entry memo): one entry edited,
    # then moved, then every line moved down; each verdict at the lines of a fresh run.
    _replace(fr, 'msgstr "Environ 28\u00a0Go"', 'msgstr "Environ 29\u00a0Go, voir l\'option c"')
    step("one entry's msgstr edited (a number, and an option named by its letter)", expect="E502")
    assert "W320" in seen[-1]
    blocks = fr.read_text(encoding="utf-8").rstrip("\n").split("\n\n")
    moved = next(b for b in blocks if 'msgctxt "q004.option.b"\n' in b)
    fr.write_text("\n\n".join([b for b in blocks if b is not moved] + [moved]) + "\n", encoding="utf-8")
    step("that entry moved to the end of the catalog", expect="W320")
    fr.write_text("# A translator's comment.\n" + fr.read_text(encoding="utf-8"), encoding="utf-8")
    step("a comment line added at the top: every entry one line down", expect="E502")
    _replace(fr, 'msgstr "Environ 29\u00a0Go, voir l\'option c"', 'msgstr "Environ 28\u00a0Go"')
    step("the entry fixed where it now is", absent="W320")
    fr.write_bytes(fr_original)
    step("catalog restored", absent="E502")
    pot.write_bytes(pot_original.replace(b"About 7 GB", b"About 6 GB", 1))
    step("template out of date", expect="W504")
    pot.write_bytes(pot_original)
    glossary.write_bytes(glossary_original.replace("avoid: [moteur d'exécution]".encode(), b"avoid: [runtime]", 1))
    step("glossary changed: a French term now to be avoided")
    glossary.write_bytes(glossary_original)
    step("glossary restored")

    # A later version of the package with another rule: nothing stored by this one may be served.
    from aistack_bank.cache import validation as verdict_cache
    from aistack_bank.cache import store as filecache
    from aistack_bank.rules import validate

    monkeypatch.setattr(filecache, "package_digest", lambda: "a later version")
    monkeypatch.setattr(verdict_cache, "_package_digest", lambda: "a later version")
    monkeypatch.setattr(validate, "slug_of", lambda name: None)
    _rules_changed("every file name refused")  # the same files now give another verdict
    step("package version changed (with a rule that now refuses every file name)", expect="E310")
    assert len({frozenset(codes) for codes in seen}) >= 6  # the steps really changed the verdict


def test_leak_findings_kept_between_runs_follow_every_edit(project, run_cli, monkeypatch):
    """The answer-leak rule matches again only the texts of the files whose texts changed (the
    rest of its findings kept from the latest run): a text edited to give another question's key
    away, the edit undone and redone, the leaking file renamed, the leaked key changed and
    restored, the leaking file deleted and restored; after each, what the stores serve equals a
    run without any cache, at the same locations."""
    cache = project / "user-cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    code, out = _store_verdict(run_cli, cache)
    assert code == 0, out
    q002, q003 = question_file(project, "q002"), question_file(project, "q003")
    q002_original, q003_original = q002.read_bytes(), q003.read_bytes()
    key = "Each step keeps the gradients of all earlier steps, since momentum optimizers need that history."
    leaking = q003_original.replace(b"explanation: >-\n  ", f"explanation: >-\n  {key}\n  ".encode(), 1)
    assert leaking != q003_original

    def step(name: str, expect: str | None = None, absent: str | None = None) -> str:
        code, out = _store_verdict(run_cli, cache)
        codes = _codes(out)
        assert expect is None or expect in codes, (name, out)
        assert absent is None or absent not in codes, (name, out)
        return out

    q003.write_bytes(leaking)
    assert "gives away the answer of q002" in step("a text of q003 now holds q002's key", expect="W322")
    q003.write_bytes(q003_original)
    step("undone", absent="W322")
    q003.write_bytes(leaking)
    step("redone", expect="W322")
    q003.write_bytes(leaking.replace(b"moments, so 4", b"moments, so 4", 1) + b"# a comment\n")
    step("the leaking file edited elsewhere", expect="W322")
    renamed = q003.with_name("q003-renamed.yaml")
    q003.rename(renamed)
    assert "q003-renamed.yaml" in step("the leaking file renamed", expect="W322")
    renamed.rename(q003)
    _replace(q002, "Each step keeps the gradients of all earlier steps, since momentum optimizers need that",
             "Every update holds the slopes of all earlier steps, as some optimizers might want that")
    step("the leaked key changed", absent="W322")
    q002.write_bytes(q002_original)
    step("the leaked key restored", expect="W322")
    q003.unlink()
    step("the leaking file deleted", expect="E306", absent="W322")
    q003.write_bytes(leaking)
    step("restored", expect="W322")
    q003.write_bytes(q003_original)
    step("and undone", absent="W322")


@pytest.mark.parametrize("damage", ["garbage", "truncated", "wrong entries", "unwritable"])
def test_a_damaged_store_never_breaks_validation(project, run_cli, monkeypatch, damage):
    """Corrupt, truncated or unwritable stores: the command works as without a cache."""
    import pickle

    from aistack_bank.cache import store as filecache

    cache = project / "user-cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    _replace(project / "translations" / "fr.po", 'msgstr "Environ 7\u00a0Go"', 'msgstr "Environ 70\u00a0Go"')
    fresh = run_cli("validate", "--format", "json", "--no-cache")
    assert fresh[0] != 0
    assert _store_verdict(run_cli, cache) == fresh  # fills the stores
    stores = sorted((cache / "aistack-bank" / "files").glob("*.pickle"))
    assert len(stores) >= 2
    for store in stores:
        raw = store.read_bytes()
        if damage == "garbage":
            store.write_bytes(b"\x80\x05garbage" + raw[:100])
        elif damage == "truncated":
            store.write_bytes(raw[: len(raw) // 2])
        elif damage == "wrong entries":
            data = pickle.loads(raw)
            data["entries"] = {key: pickle.dumps(("not", "a", "verdict")) if i % 2 else b"\x80\x05bad" for i, key in enumerate(data["entries"])}
            store.write_bytes(pickle.dumps(data))
    if damage == "unwritable":
        shutil.rmtree(cache / "aistack-bank")
        (cache / "aistack-bank").write_text("a file where the cache folder should be\n")
    assert filecache.cache_dir() == cache / "aistack-bank"
    for _ in range(2):
        assert _store_verdict(run_cli, cache) == fresh


def test_a_build_reuses_only_outputs_whose_inputs_and_bytes_are_unchanged(project, run_cli, monkeypatch):
    """Unchanged outputs stand for rendering only while the bank, catalogs and options are the
    same and the file on disk is what was written: each build equals a build without cache."""
    cache = project / "user-cache"

    def both(name: str) -> None:
        monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
        code, out = run_cli("build", "--out", "exports", "-q", "--allow-fallback")
        assert code == 0, (name, out)
        monkeypatch.setenv("XDG_CACHE_HOME", str(project / f"none-{name}"))
        code, out = run_cli("build", "--out", f"fresh-{name}", "-q", "--allow-fallback")
        assert code == 0, (name, out)
        assert _tree(project / "exports") == _tree(project / f"fresh-{name}"), name
        names.append(name)

    names: list[str] = []

    both("first")
    both("nothing-changed")
    gift = next((project / "exports").rglob("*-en.gift"))
    gift.write_text("edited by hand\n", encoding="utf-8")
    both("an-output-edited-by-hand")
    gift.unlink()
    both("an-output-deleted")
    q001 = question_file(project, "q001")
    _replace(q001, "forward passes on fixed weights", "forward passes on frozen weights")
    assert run_cli("i18n", "update")[0] == 0  # the translation becomes fuzzy: English is shown
    both("a-question-edited")
    fr = project / "translations" / "fr.po"
    _replace(fr, 'msgstr "Environ 7\u00a0Go"', 'msgstr "Environ\u00a07\u00a0Go"')
    both("a-translation-edited")
    _replace(project / "bank" / "categories.yaml", "title: Computer systems", "title: Computer engineering")
    assert run_cli("i18n", "update")[0] == 0
    both("a-category-title-edited")
    assert "Computer engineering" in next((project / "exports").rglob("*-en.gift")).read_text(encoding="utf-8")


def test_output_keys_are_the_same_in_every_process(project):
    """The output memo's keys do not depend on the process (string hashing is randomised per
    process, so a key made from a pickled set would never be found again by the next build)."""
    import pickle
    import subprocess
    import sys

    from conftest import REPO as repo
    from aistack_bank.exporters import FORMATS

    env = dict(os.environ, XDG_CACHE_HOME=str(project / "user-cache"), PYTHONPATH=str(repo))
    for seed in ("1", "2"):
        done = subprocess.run([sys.executable, "-m", "aistack_bank", "build", "--out", "exports", "-q"], cwd=project,
                              env=dict(env, PYTHONHASHSEED=seed), capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
    [store] = (project / "user-cache" / "aistack-bank" / "files").glob("outputs-*.pickle")
    assert len(pickle.loads(store.read_bytes())["entries"]) == len(FORMATS) + 1  # each format's files, and the build's notes and README
