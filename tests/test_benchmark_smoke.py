"""Smoke test of the benchmark harness: the generator makes valid banks, run.py --quick works.

No timing is asserted: the figures depend on the machine. `python3 benchmarks/run.py` is the
benchmark itself (see benchmarks/README.md).
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
BENCHMARKS = REPO / "benchmarks"


def _load_script(name: str, file: str):
    """A script of benchmarks/ imported as the module ``name`` (once)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / file)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def _load_generator():
    return _load_script("bench_generate", "generate.py")


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> Path:
    generate = _load_generator()
    root = tmp_path_factory.mktemp("bench") / "project"
    # 30 questions in 3 topics: each topic has the 8 questions the answer-cue rules need (W301,
    # W302 are rules of each topic), and in the second one the draw makes the key the longest
    # option in 4 of 10 questions, one more than W302 lets pass
    assert generate.generate_project(root, 30, seed=0, topics=3) == root
    return root


def test_generated_bank_shape(generated):
    questions = sorted((generated / "bank").glob("*/questions/q*.yaml"))
    assert len(questions) == 30
    assert (generated / "bank" / "categories.yaml").is_file()
    assert sorted(p.parent.name for p in (generated / "bank").glob("*/topic.yaml")) == ["topic-001", "topic-002", "topic-003"]
    assert sorted(len(list(p.glob("*.yaml"))) for p in (generated / "bank").glob("*/questions")) == [10, 10, 10]
    for lang in ("fr", "nl"):
        assert (generated / "translations" / f"{lang}.po").is_file()
    assert (generated / "translations" / "aistack.pot").is_file()
    assert any("answer(" in q.read_text(encoding="utf-8") for q in questions), "no numeric check generated"


def test_generated_bank_validates(generated, run_cli):
    code, out = run_cli("-C", generated, "validate")
    assert code == 0, out
    assert "0 error(s), 0 warning(s)" in out, out


def test_generated_catalogs_are_what_update_writes(generated, run_cli):
    # the generator writes the catalogs itself: `bank i18n update` must find nothing to change
    code, out = run_cli("-C", generated, "i18n", "update", "--compare")
    assert code == 0, out
    assert "stale" not in out and out.count("up to date") == 6, out


def _wrap_cases(generate) -> list[str]:
    """Every text of a generated bank in English, French and Dutch, and random texts of the
    characters these banks use and of characters the word-at-a-time layout leaves to the
    character-at-a-time one."""
    import random

    from aistack_bank.i18n.typography import fix_typography

    questions = generate.make_questions(150, seed=5)
    lines = [generate.question_yaml(q)[1] for q in questions]
    english = [msgid for _, msgid, _, _ in generate.catalog_fields(questions, lines, 3)]
    texts = english + [fix_typography(generate.pseudo_translate(t, "fr")) for t in english]
    texts += [generate.pseudo_translate(t, "nl") for t in english]
    rng = random.Random(7)
    words = ["word", "Wörd", "à", "12", "3.5", "2MNK", "{x}", "<b>"]
    marks = ["-", "/", "(", ")", ",", ".", ":", ";", "?", "!", '"', "'", "\\", "\u00a0", "\u202f", "\u00d7", "\u00b2", "%", "+",
             "=", "\u2014", "\u2026", "\u00ab", "\u00bb", "$", "#", "&", "*", "@", "[", "]", "_"]
    foreign = ["\u200b", "\u0301", "\u6f22", "\u05d0", "\n", "\t", "\uff62", "\U0001f600"]  # laid out a character at a time
    for k in range(2000):
        pieces = words * 3 + marks + (foreign if k % 10 == 0 else [])
        text = ""
        for _ in range(rng.randrange(0, 40)):
            text += "".join(rng.choices(pieces, k=rng.randrange(1, 4))) + rng.choice([" ", " ", " ", "  ", ""])
        texts.append(rng.choice(["", " "]) + text)
    return texts


def test_generated_texts_are_laid_out_as_a_character_at_a_time():
    """The catalogs the generator writes (with powrap.wrap, a word at a time where it can) are
    laid out as the character-at-a-time layout that tests/test_po_msgcat.py compares with msgcat."""
    from aistack_bank.i18n import powrap
    from aistack_bank.i18n.pofile import WRAP_WIDTH

    generate = _load_generator()
    for k, text in enumerate(_wrap_cases(generate)):
        keyword = ("msgid", "msgstr[0]")[k % 2]
        assert powrap.wrap(keyword, text, "", WRAP_WIDTH) == powrap.wrap_by_character(keyword, text, "", WRAP_WIDTH), (keyword, text)


def test_generated_catalogs_are_complete(generated, run_cli):
    code, out = run_cli("-C", generated, "i18n", "status", "--fail-under", "100")
    assert code == 0, out


def test_generator_is_deterministic():
    generate = _load_generator()

    def render(n, seed):
        qs = generate.make_questions(n, seed)
        return generate.render_topic(qs), [generate.render_question(q) for q in qs]

    assert render(30, 0) == render(30, 0)
    assert render(30, 0) != render(30, 1)


def test_no_topic_has_the_key_longest_in_more_than_a_third_of_its_questions():
    generate = _load_generator()
    n, topics = 1000, 10

    def longest(questions):
        return [sum(map(generate.key_is_longest, questions[t * n // topics:(t + 1) * n // topics])) for t in range(topics)]

    alone, split = generate.make_questions(n, 0), generate.make_questions(n, 0, topics)
    assert max(longest(alone)) > 100 / 3  # the draw alone puts one topic over the limit
    assert max(longest(split)) <= 100 / 3
    changed = [i for i, (a, b) in enumerate(zip(alone, split)) if a != b]
    assert changed and all(not generate.key_is_longest(split[i]) for i in changed)
    assert [q.id for q in alone] == [q.id for q in split]


def test_pseudo_translation_keeps_numbers():
    from aistack_bank.rules.quantities import formula_tokens, numbers, quantities

    generate = _load_generator()
    text = "About 3.5 GB at 2000 GB/s takes 1.75 ms; 2MNK operations for an M × K matrix in FP16."
    for lang in ("fr", "nl"):
        translated = generate.pseudo_translate(text, lang)
        assert translated != text
        assert sorted(numbers(translated, lang)) == sorted(numbers(text, "en"))
        assert [q.base for q in quantities(translated, lang)] == [q.base for q in quantities(text, "en")]
        assert formula_tokens(translated) == formula_tokens(text)


def _load_run():
    return _load_script("bench_run", "run.py")


def test_every_format_exports_every_language_of_a_generated_bank(generated, run_cli, tmp_path):
    """What the benchmark's `bank export FORMAT --lang all` rows run, for every format (in this
    process: test_run_quick runs one of these rows through the harness, the one command line
    they all share)."""
    from aistack_bank.exporters import FORMATS

    ops = {op.key: op for op in _load_run().make_ops(["bank"], list(FORMATS), None)}
    assert {k for k in ops if k.startswith("export_")} == {f"export_{name}" for name in FORMATS}
    column = _load_run().Column("30", 30, "synthetic", generated)
    for name in FORMATS:
        argv = ops[f"export_{name}"].argv(column)
        assert argv[:5] == ["bank", "export", name, "--lang", "all"], argv
        code, out = run_cli("-C", generated, *argv[1:-1], tmp_path / name)
        assert code == 0, (name, out)
        written = [p for p in (tmp_path / name).rglob("*") if p.is_file()]
        assert written and all(p.stat().st_size for p in written), name


def test_run_quick(tmp_path):
    """The harness end to end at N = 50: every row but the per-format export rows, of which one
    (they differ only in the format's name, and each format's command is run by the test above)."""
    from aistack_bank.exporters import FORMATS

    out = tmp_path / "bench.json"
    exports = [f"export_{name}" for name in FORMATS]
    only = [op.key for op in _load_run().make_ops(["bank"], list(FORMATS), None) if op.key not in exports[1:]]
    result = subprocess.run([sys.executable, str(BENCHMARKS / "run.py"), "--quick", "--json", str(out), "--only", ",".join(only)],
                            cwd=REPO, capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert "operation" in result.stdout and "bank validate (cold)" in result.stdout
    assert "Targets:" in result.stdout
    data = json.loads(out.read_text(encoding="utf-8"))
    for key in ("meta", "columns", "operations", "generation", "results", "targets", "slowest"):
        assert key in data, key
    assert [c["label"] for c in data["columns"]] == ["50"]
    column = data["results"]["50"]
    keys = {op["key"] for op in data["operations"]}
    assert {"help", "validate", "validate_unchanged", "validate_file", "validate_edit_question", "validate_edit_catalog", "build",
            "build_unchanged", "build_edit_question", "i18n_status", "i18n_update", "analyze", "text2qti", exports[0]} == keys
    assert "could not read the exporter registry" not in result.stderr, result.stderr
    assert data["meta"]["formats"] == list(FORMATS)  # the registry, read in a child process
    for key in keys - {"text2qti", "analyze"}:
        assert column[key]["status"] == "ok", (key, column[key])
        assert column[key]["wall_s"] > 0 and column[key]["peak_mb"] > 0
    assert column["text2qti"]["status"] in ("ok", "missing")
    assert column["analyze"] == {"status": "missing", "note": "bundled bank only"}


def test_the_analyze_row_reads_one_learner_per_response(tmp_path):
    from aistack_bank.analyze import analyze

    generate = _load_generator()
    path = generate.write_responses(REPO, tmp_path / "responses.csv", count=2000, seed=3)
    assert path.read_text(encoding="utf-8").count("\n") == 2001
    report = analyze([path], REPO / "bank", REPO / "translations", language="en")
    assert not report.errors, report.errors
    assert report.persons == report.answers == 2000 and report.sources == {"moodle-csv": 1}


def test_the_huge_row_is_judged_on_cold_validation_time_and_memory():
    run = _load_run()
    assert (100000, 1000) in run.parse_args(["--huge"]).sizes and (100000, 1000) not in run.parse_args([]).sizes

    def verdicts(wall: float, peak: float) -> dict[str, str]:
        results = {"100000x1000": {"validate": {"status": "ok", "wall_s": wall, "peak_mb": peak}}}
        return {t["name"]: t["verdict"] for t in run.evaluate_targets(results, ["100000x1000"]) if "N=100000" in t["name"]}

    assert verdicts(59.0, 2000.0) == {"bank validate, N=100000 in 1000 topics, cold": "PASS",
                                      "peak memory, bank validate, N=100000 in 1000 topics, cold": "PASS"}
    assert set(verdicts(61.0, 2100.0).values()) == {"FAIL"}


@pytest.mark.parametrize("topics", [10, 100, 1000, 1001])
def test_generated_ids_sort_in_the_order_they_are_written(topics):
    """The generator writes the catalogs in its topics' order; the bank orders categories and
    topics by id. Past 99 categories or 999 topics, ids of one width sorted apart from that order
    (category-100 after category-10) and the template came out stale (W504)."""
    layout = _load_generator().topic_ids(topics)
    assert layout == sorted(layout)
    categories = list(dict.fromkeys(category for _, category in layout))
    assert categories == sorted(categories)
