"""After one question file is edited, `bank build` pays for what the edit changed: an edit that
leaves every model as it was (a comment) renders nothing and unpickles no record, and the
output memo's key follows the English library exactly."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from conftest import keep_only, question_file, topic_file


@pytest.fixture
def project(project) -> Path:
    return keep_only(project)


def _read(root: Path):
    from aistack_bank.cache.questionfiles import QuestionFiles
    from aistack_bank.load import read_library
    from aistack_bank.rules.validate import question_file_rules

    return read_library(root / "bank", read_topics=QuestionFiles(question_file_rules, use_cache=False).read_topics)


def _library_json(source) -> str:
    from aistack_bank.load import english_library

    return english_library(source).model_dump_json()


def test_the_english_digest_changes_exactly_when_the_english_library_does(project):
    from aistack_bank.cache.outputs import english_digest

    seen: dict[str, str] = {}  # digest -> the library's JSON

    def check(step: str) -> None:
        source = _read(project)
        digest, library = english_digest(source), _library_json(source)
        for qs in source.questions:  # the same digest from the records, without the summaries' model digests
            qs.summary = qs.summary._replace(model=b"")
        assert english_digest(source) == digest, step
        assert seen.setdefault(digest, library) == library, step  # one digest, one library
        assert sum(1 for value in seen.values() if value == library) == 1, step  # one library, one digest

    check("as bundled")
    q001 = question_file(project, "q001")
    q001.write_text(q001.read_text(encoding="utf-8") + "# a comment\n", encoding="utf-8")
    check("a comment")
    assert len(seen) == 1
    q001.write_text(q001.read_text(encoding="utf-8").replace("forward passes on fixed weights", "forward passes on frozen weights"), encoding="utf-8")
    check("a stem edited")
    topic = topic_file(project)
    text = topic.read_text(encoding="utf-8")
    lines = text.split("\n")
    listed = [i for i, line in enumerate(lines) if line.startswith("  - q0")]
    lines[listed[0]], lines[listed[1]] = lines[listed[1]], lines[listed[0]]
    topic.write_text("\n".join(lines), encoding="utf-8")
    check("two questions swapped in the topic")
    categories = project / "bank" / "categories.yaml"
    categories.write_text(categories.read_text(encoding="utf-8").replace("title: Computer systems", "title: Computer engineering"), encoding="utf-8")
    check("a category title edited")
    assert len(seen) == 4


def test_a_build_after_a_comment_is_added_renders_nothing_and_reads_no_model(project, run_cli, monkeypatch):
    from aistack_bank import build, load

    assert run_cli("build", "-q")[0] == 0
    before = {path: path.read_bytes() for path in (project / "exports").rglob("*") if path.is_file()}
    q001 = question_file(project, "q001")
    q001.write_text(q001.read_text(encoding="utf-8") + "# a comment\n", encoding="utf-8")

    def refused(*args, **kwargs):
        raise AssertionError("the English library was made: some output was to be rendered")

    with monkeypatch.context() as patched:
        patched.setattr(load, "english_library", refused)
        patched.setattr(build, "render_each", refused)
        code, out = run_cli("build")
    assert code == 0, out
    assert {path: path.read_bytes() for path in (project / "exports").rglob("*") if path.is_file()} == before
    q001.write_text(q001.read_text(encoding="utf-8").replace("forward passes on fixed weights", "forward passes on frozen weights"), encoding="utf-8")
    assert run_cli("i18n", "update")[0] == 0  # (the catalogs follow the new stem)
    with monkeypatch.context() as patched, pytest.raises(AssertionError, match="English library was made"):  # a model changed: made again
        patched.setattr(load, "english_library", refused)
        run_cli("build", "--allow-fallback")


def test_a_spilling_run_copies_a_stored_record_to_the_spill_file_only_when_a_worker_is_to_read_it(project, monkeypatch):
    """With a spill file (a large bank), the records the topics' stores hold stay in their
    records files, read there by position when used; one is copied to the spill file only when
    asked where it is there (what the catalogs' workers are sent)."""
    from aistack_bank.cache import questionfiles
    from aistack_bank.load import read_library
    from aistack_bank.rules.validate import question_file_rules

    monkeypatch.setenv("AISTACK_BANK_JOBS", "1")
    whole = read_library(Path("bank")).questions
    read_library(Path("bank"), read_topics=questionfiles.QuestionFiles(question_file_rules, use_cache=True).read_topics)  # fills the stores
    monkeypatch.setattr(questionfiles, "SPILL_MIN_FILES", 0)
    files = questionfiles.QuestionFiles(question_file_rules, use_cache=True, spill=True)
    read = read_library(Path("bank"), read_topics=files.read_topics).questions

    def spilled() -> int:
        return os.fstat(files.spill.fd).st_size

    assert files.spill is not None and spilled() == 0 and len(read) == len(whole) == 12
    for a, b in zip(whole, read):  # from the records files
        assert b.question == a.question and b.doc.values == a.doc.values and b.derived["fields"]
    assert spilled() == 0
    assert all(qs.spilled is not None for qs in read) and spilled() > 0
    files.spill.recent.clear()
    for a, b in zip(whole, read):  # from the spill file
        assert b.question == a.question and b.doc.values == a.doc.values and b.doc.text == a.doc.text
    files.close()


def _well_formed_state_as_before(found) -> bool:
    """The check of a kept leak state as it was written before it checked each type over all
    values at once (:func:`aistack_bank.rules.lints._well_formed_state`)."""
    from aistack_bank.rules.lints import _well_formed_findings

    return (type(found) is tuple and len(found) == 3 and type(found[0]) is dict and type(found[1]) is dict
            and _well_formed_findings(found[2])
            and all(type(k) is str and type(v) is tuple and len(v) == 2 and type(v[0]) is str and type(v[1]) is tuple for k, v in found[0].items())
            and all(type(k) is str and type(v) is bytes for k, v in found[1].items()))


class _Str(str):
    pass


def test_the_kept_leak_state_is_checked_as_before():
    """Random states, most of them well formed, each with one value of a wrong type or shape
    in some: the check says what the former check said."""
    import random

    from aistack_bank.rules.lints import _well_formed_state

    rng = random.Random(33)
    wrong = [None, 1, b"x", "x", _Str("x"), (), ("a",), ("a", (), "c"), ["a", ()], ("a", []), (b"a", ()), (_Str("a"), ()), {}, [], ("a", ("t",))]
    answers = {True: 0, False: 0}
    for _ in range(3000):
        keys = {f"q{i}": (f"key {i}", tuple(f"t{j}" for j in range(rng.randrange(3)))) for i in range(rng.randrange(6))}
        digests = {f"q{i}": bytes([i]) * 4 for i in range(rng.randrange(6))}
        findings = [((f"q{i}", ("stem",), f"q{i + 1}"), "its words") for i in range(rng.randrange(3))]
        state = [keys, digests, findings]
        if rng.random() < 0.7:
            part = rng.randrange(4)
            if part == 0 and keys:
                keys[rng.choice(list(keys))] = rng.choice(wrong)
            elif part == 1 and digests:
                digests[rng.choice(list(digests))] = rng.choice(wrong)
            elif part == 2:
                (keys if rng.random() < 0.5 else digests)[rng.choice([1, b"q", _Str("q9"), ("q",)])] = rng.choice([("a", ()), b"d"])
            else:
                state = rng.choice([state[:2], state + [None], [rng.choice(wrong), digests, findings], [keys, rng.choice(wrong), findings]])
        found = tuple(state) if rng.random() < 0.95 else state
        expected = _well_formed_state_as_before(found)
        assert _well_formed_state(found) is expected, found
        answers[expected] += 1
    assert min(answers.values()) > 300  # both answers drawn often


def _question_files_as_before(root: Path) -> list[Path]:
    """The question files of a topic folder as they were listed before the listing made the
    paths (:func:`aistack_bank.load.question_files`)."""
    import os

    folder = root / "questions"
    if not folder.is_dir():
        return []
    names = sorted(name for name in os.listdir(folder) if name.endswith((".yaml", ".yml")) and not name.startswith(".")
                   and Path(name).suffix in (".yaml", ".yml"))
    return [folder / name for name in names]


def test_the_question_files_are_listed_as_before(tmp_path):
    import random

    from aistack_bank.load import question_files

    rng = random.Random(33)
    parts = ["q001", "q", ".", "..", "-", "a b", "é", "Q", "yaml", "yml", ".yaml", ".yml", ".YAML", ".bak", "~", ".tmp", "x"]
    for trial in range(40):
        root = tmp_path / f"t{trial}"
        (root / "questions").mkdir(parents=True)
        for _ in range(rng.randrange(25)):
            name = "".join(rng.choice(parts) for _ in range(rng.randrange(1, 5)))
            if name in (".", "..") or "/" in name:
                continue
            path = root / "questions" / name
            if path.exists():
                continue
            if rng.random() < 0.1:
                path.mkdir()
            else:
                path.write_text("id: q\n", encoding="utf-8")
        assert question_files(root) == _question_files_as_before(root)
        assert all(type(path) is type(root) for path in question_files(root))
    assert question_files(tmp_path / "none") == []


def test_the_model_is_made_without_reading_its_source_and_the_schemas_still_describe_every_field():
    """Importing the model (every command that reads the bank) reads no docstring from the
    source of its classes; `bank schema` gives the fields their docstrings as descriptions (the
    committed schemas are compared byte for byte by tests/test_schema_and_cli.py)."""
    import json
    import subprocess
    import sys

    from conftest import REPO

    code = ("from pydantic._internal import _fields\n"
            "def refused(*a, **k): raise AssertionError('a class source read')\n"
            "_fields.extract_docstrings_from_cls = refused\n"
            "import aistack_bank.model, aistack_bank.exchange, aistack_bank.rules.validate\n"
            "from aistack_bank.load import question_from_data\n"
            "print(question_from_data({'id': 'q1', 'kind': 'true_false'}, __import__('pathlib').Path('q1-x.yaml'))[1] != [])\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "True", done.stderr
    topic = json.loads((REPO / "schema" / "topic.schema.json").read_text(encoding="utf-8"))  # (as `bank schema` writes it)
    assert all("description" in field for field in topic["properties"].values())


def _digest_tree_as_before(digest, root: Path, memo) -> None:
    """The input digest's walk of one folder as it was written before it joined the parts and
    took the listing's paths (:func:`aistack_bank.cache.validation._digest_tree`), with the
    folders walked digested after the files (a folder without files can change a verdict), and a
    link to a folder walked as a folder where the bank is read through one (a topic folder, its
    questions/, the catalogs' site/)."""
    import os

    digest.update(f"\0root {root.as_posix()}\0".encode())
    if not root.exists():
        return
    entries: list[tuple[str, bool]] = []

    def read_through(path: str, depth: int) -> bool:
        name = os.path.basename(path)
        if depth == 1:
            return name == "site" or (name[:1] not in (".", "_") and (os.path.isfile(os.path.join(path, "topic.yaml"))
                                                                      or os.path.isdir(os.path.join(path, "questions"))))
        return depth == 2 and name == "questions"

    def walk(top: str, depth: int) -> None:
        folders = []
        try:
            with os.scandir(top) as listing:
                for entry in listing:
                    try:
                        is_dir = entry.is_dir()
                    except OSError:
                        is_dir = False
                    try:
                        link = entry.is_symlink()
                    except OSError:
                        link = False
                    if not is_dir:
                        entries.append((os.path.join(top, entry.name), link))
                    elif not link or read_through(os.path.join(top, entry.name), depth + 1):
                        folders.append(os.path.join(top, entry.name))
        except OSError as exc:
            digest.update(f"unlistable {exc.filename} {exc.errno}".encode())
            return
        walked.extend(folders)
        for folder in sorted(folders):
            walk(folder, depth + 1)

    walked: list[str] = []
    walk(os.fspath(root), 0)
    entries.sort()
    for name, link in entries:
        digest.update(name.encode("utf-8", "surrogateescape") + b"\0")
        if link:
            try:
                digest.update(b"link " + os.readlink(name).encode("utf-8", "surrogateescape") + b"\0")
            except OSError:
                digest.update(b"link ?\0")
        digest.update(memo.digest(name))
        digest.update(b"\0")
    for folder in sorted(walked):
        digest.update(b"folder " + folder.encode("utf-8", "surrogateescape") + b"\0")


def test_the_input_digest_walks_a_folder_as_before(tmp_path):
    """Random trees of files, folders, links to files and to folders and dangling links, given
    as relative and absolute paths: the same digest as the former walk."""
    import hashlib
    import os
    import random

    from aistack_bank.cache.validation import StatMemo, _digest_tree

    rng = random.Random(33)
    for trial in range(30):
        root = tmp_path / f"t{trial}"
        root.mkdir()
        folders = [root]
        made: list[Path] = []
        for _ in range(rng.randrange(1, 30)):
            parent = rng.choice(folders)
            name = rng.choice(["a", "b", "q001-x.yaml", "é", "z z", ".hidden", "fr.po"]) + str(rng.randrange(5))
            path = parent / name
            if path.exists() or path.is_symlink():
                continue
            what = rng.random()
            if what < 0.2:
                path.mkdir()
                folders.append(path)
            elif what < 0.3 and made:
                path.symlink_to(rng.choice(made))
            elif what < 0.35:
                path.symlink_to(rng.choice(folders))
            elif what < 0.4:
                path.symlink_to(root / "nowhere")
            else:
                path.write_bytes(bytes(rng.randrange(256) for _ in range(rng.randrange(40))))
                made.append(path)
        for given in (root, Path(os.path.relpath(root))):
            old, new = hashlib.blake2b(), hashlib.blake2b()
            _digest_tree_as_before(old, given, StatMemo([given]))
            _digest_tree(new, given, StatMemo([given]))
            assert new.hexdigest() == old.hexdigest(), trial


def test_the_topic_file_is_read_again_only_when_its_bytes_change(project, run_cli, monkeypatch):
    """`bank validate` takes the topic file's read from its store while its bytes are those of a
    stored read (a question file edited), reads it when they are new, and prints what a run
    without cache prints after each edit."""
    from aistack_bank import load

    reads: list[Path] = []
    read_topic = load.read_topic
    monkeypatch.setattr(load, "read_topic", lambda root, **kw: reads.append(root) or read_topic(root, **kw))
    topic, q001 = topic_file(project), question_file(project, "q001")
    text = topic.read_text(encoding="utf-8")
    steps = [("as bundled", text, True), ("a question listed twice", text.replace("  - q002\n", "  - q002\n  - q002\n"), True),
             ("as bundled again", text, False)]  # (the store keeps two reads)
    for number, (step, content, read) in enumerate(steps):
        topic.write_text(content, encoding="utf-8")
        expected = run_cli("validate", "--no-cache")
        reads.clear()
        assert run_cli("validate") == expected, step
        assert bool(reads) == read, step
        q001.write_text(q001.read_text(encoding="utf-8") + f"# edit {number}\n", encoding="utf-8")  # validated again, the topic file as it was
        expected = run_cli("validate", "--no-cache")
        reads.clear()
        assert run_cli("validate") == expected, step
        assert not reads, step
