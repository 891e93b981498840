#!/usr/bin/env python3
"""Benchmark harness of aistack-bank: wall time and peak memory of every `bank` command.

Each measured command runs in its own child process (so imports and memory are honest): wall
time is taken around the child, peak memory is the child's own ``ru_maxrss`` as returned by
``os.wait4`` for that child alone. See benchmarks/README.md for what is measured and how to
read the output.

    python3 benchmarks/run.py                       # bundled bank, N = 50, 1000, 10000
    python3 benchmarks/run.py --sizes 50,1000,10000,50000   # or --large
    python3 benchmarks/run.py --quick --json /tmp/bench.json  # smoke test: N = 50, one run
"""

from __future__ import annotations

import argparse
import datetime as _dt
import itertools
import json
import os
import platform
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))

from generate import RESPONSES, bank_command, write_responses  # noqa: E402  (the generator lives beside this file)

DEFAULT_SIZES = [(50, 1), (1000, 1), (10000, 1), (10000, 100)]
"""(questions, topics) of each synthetic bank: written ``N`` for one topic, ``NxT`` for T topics."""
LARGE_SIZE = 50000
HUGE_SIZE = (100000, 1000)
"""The row of ``--huge``: 100 000 questions in 1 000 topics, for cold validation's growth and memory."""
HUGE_LABEL = "100000x1000"
HUGE_VALIDATE_S, HUGE_PEAK_MB = 60.0, 2048.0
SINGLE_RUN_FROM = 10000
"""From this N on, every operation runs once (the median of one run)."""
FALLBACK_FORMATS = ["moodle-xml", "qti21", "qti30", "gift", "json"]
CACHE_DIRS = (".bank-cache",)
"""Application caches removed before every "cold" run (in the project, bank/ and translations/)."""


# --------------------------------------------------------------------------------------------
# Running one child and measuring it
# --------------------------------------------------------------------------------------------


@dataclass
class Run:
    wall_s: float
    maxrss_mb: float
    returncode: int | None
    timed_out: bool = False
    output_tail: str = ""
    cpu_s: float = 0.0
    """User plus system time of the command and the worker processes it waited for: on a busy
    machine a fairer figure of the work done than the wall time."""


WRAPPER = r"""
import json, os, signal, sys, time
timeout, out, argv = float(sys.argv[1]), sys.argv[2], sys.argv[3:]
killed = []
start = time.perf_counter()
pid = os.fork()
if pid == 0:
    try:
        os.setsid()
        fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(fd, 1)
        os.dup2(fd, 2)
        os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
        os.execvp(argv[0], argv)
    except BaseException as exc:
        os.write(2, ("cannot run %s: %s\n" % (argv[0], exc)).encode())
    os._exit(127)

def kill(signum, frame):
    killed.append(signum)
    try:
        os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    if signum != signal.SIGALRM:
        os._exit(130)

signal.signal(signal.SIGALRM, kill)
signal.signal(signal.SIGTERM, kill)
signal.signal(signal.SIGINT, kill)
signal.setitimer(signal.ITIMER_REAL, timeout)
_, status, usage = os.wait4(pid, 0)
wall = time.perf_counter() - start
signal.setitimer(signal.ITIMER_REAL, 0)
print(json.dumps({"wall_s": wall, "cpu_s": usage.ru_utime + usage.ru_stime, "maxrss": usage.ru_maxrss, "returncode": os.waitstatus_to_exitcode(status), "timed_out": bool(killed)}))
"""
"""The tiny process each measured command runs under: it forks and execs the command, times it,
kills its process group on timeout, and reports the command's own ``ru_maxrss`` (from
``wait4``). On Linux a child's ``ru_maxrss`` starts at the resident size of the process that
forked it, so the command must not be forked from this (large) harness directly: the wrapper
runs with ``-I -S`` and is about 5 MB, below any command measured."""


def run_child(argv: list[str], cwd: Path, timeout: float, env: dict[str, str] | None = None) -> Run:
    """Run ``argv`` in ``cwd`` under :data:`WRAPPER`: wall time, own peak RSS, exit code.

    Output goes to a temporary file, never a pipe, so a chatty command cannot block; a timeout
    kills the command and everything it started (it runs in a session of its own).
    """
    with tempfile.TemporaryDirectory(prefix="bench-run-") as tmp:
        log = Path(tmp) / "output.txt"
        wrapper = [sys.executable, "-I", "-S", "-c", WRAPPER, repr(float(timeout)), str(log), *argv]
        try:
            done = subprocess.run(wrapper, cwd=cwd, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                                  timeout=timeout + 60)
            report = json.loads(done.stdout.strip().splitlines()[-1])
        except (subprocess.TimeoutExpired, ValueError, IndexError) as exc:
            raise RuntimeError(f"benchmark wrapper failed for {argv}: {exc}") from exc
        try:
            tail = log.read_bytes()[-4000:].decode("utf-8", "replace")
        except OSError:
            tail = ""
    # Linux reports ru_maxrss in KiB, macOS in bytes; MB here means MiB.
    rss_mb = report["maxrss"] / (1024 * 1024 if sys.platform == "darwin" else 1024)
    return Run(report["wall_s"], rss_mb, report["returncode"], report["timed_out"], tail, report.get("cpu_s", 0.0))


# --------------------------------------------------------------------------------------------
# Operations
# --------------------------------------------------------------------------------------------


@dataclass
class Op:
    key: str
    label: str
    argv: Callable[["Column"], list[str]]
    prepare: Callable[["Column"], None] = lambda col: None
    cwd: Callable[["Column"], Path] = lambda col: col.root
    priority: int = 5
    """Lower runs first within a column, so the targeted figures are measured before a budget runs out."""
    missing: str = "text2qti not installed"
    """Why the operation has no command (an empty ``argv``) in a column."""
    warm_after: str | None = None
    """Key of the operation whose runs leave the state this one needs; when that operation was
    not measured (``--only``), one untimed run of this command comes first."""


@dataclass
class Column:
    label: str
    n: int
    kind: str  # "bundled" | "synthetic"
    root: Path
    quiz: Path | None = None
    topics: int = 1


USER_CACHE: list[Path] = []
"""The ``XDG_CACHE_HOME`` the commands run with (a scratch folder of the run): the tool keeps its
validation cache in the user cache folder, so a cold run must clear it too."""


def clear_caches(col: Column) -> None:
    for base in (col.root, col.root / "bank", col.root / "translations"):
        for name in CACHE_DIRS:
            if (base / name).is_dir():
                shutil.rmtree(base / name, ignore_errors=True)
    for folder in USER_CACHE:
        shutil.rmtree(folder, ignore_errors=True)


_EDITS = itertools.count(time.time_ns() // 1000)
"""Numbers of the edits: new in every run, so that an edit of a project kept by an earlier run
(``--reuse``) never writes the bytes that project already has."""
_EDIT_MARK = re.compile(r"\n# benchmark edit \d+\n?$")


def _first_question(col: Column) -> Path:
    return sorted((col.root / "bank").glob("*/questions/q*.yaml"))[0]


def edit_question(col: Column) -> None:
    """A new comment at the end of the first question file: new content, same questions."""
    path = _first_question(col)
    text = _EDIT_MARK.sub("\n", path.read_text(encoding="utf-8"))
    path.write_text(text.rstrip("\n") + f"\n# benchmark edit {next(_EDITS)}\n", encoding="utf-8")


def edit_catalog(col: Column) -> None:
    """A new translator comment on the first entry of the first catalog (fr.po)."""
    path = min(p for p in (col.root / "translations").glob("*.po"))
    text = re.sub(r"^# benchmark edit \d+\n", "", path.read_text(encoding="utf-8"), flags=re.M)
    head, sep, rest = text.partition("\nmsgctxt ")
    path.write_text(f"{head}\n# benchmark edit {next(_EDITS)}{sep}{rest}" if sep else text, encoding="utf-8")


def exporter_formats() -> list[str]:
    """The formats of the registry ``aistack_bank.exporters.FORMATS``, asked in a child process."""
    code = "import json; from aistack_bank.exporters import FORMATS; print(json.dumps(list(FORMATS)))"
    try:
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True).stdout
        formats = json.loads(out.strip().splitlines()[-1])
        if formats and all(isinstance(f, str) for f in formats):
            return formats
    except (subprocess.SubprocessError, ValueError, IndexError, OSError):
        pass
    print(f"warning: could not read the exporter registry; using {', '.join(FALLBACK_FORMATS)}", file=sys.stderr)
    return list(FALLBACK_FORMATS)


def text2qti_command() -> list[str] | None:
    import importlib.util

    if importlib.util.find_spec("text2qti") is None:
        return None
    script = Path(sys.executable).parent / "text2qti"
    if script.is_file():
        return [str(script)]
    found = shutil.which("text2qti")
    return [found] if found else [sys.executable, "-m", "text2qti"]


RESULTS = Path("bench-results") / "responses.csv"
"""The results file of the analyze operation, in the project (generated once, untimed)."""


def make_ops(bank: list[str], formats: list[str], text2qti: list[str] | None) -> list[Op]:
    def cold(extra: Callable[[Column], None] | None = None) -> Callable[[Column], None]:
        def prepare(col: Column) -> None:
            clear_caches(col)
            if extra:
                extra(col)
        return prepare

    def remove(rel: str) -> Callable[[Column], None]:
        return lambda col: shutil.rmtree(col.root / rel, ignore_errors=True)

    ops = [
        Op("help", "bank --help", lambda c: [*bank, "--help"], priority=0),
        Op("validate", "bank validate (cold)", lambda c: [*bank, "validate"], cold(), priority=1),
        Op("validate_unchanged", "bank validate (unchanged)", lambda c: [*bank, "validate"], priority=2, warm_after="validate"),
        Op("validate_file", "bank validate FILE (FILE edited)", lambda c: [*bank, "validate", str(_first_question(c).relative_to(c.root))],
           edit_question, priority=2),
        Op("validate_edit_question", "bank validate (1 question edited)", lambda c: [*bank, "validate"], edit_question, priority=2,
           warm_after="validate"),
        Op("validate_edit_catalog", "bank validate (1 catalog entry edited)", lambda c: [*bank, "validate"], edit_catalog, priority=2,
           warm_after="validate"),
        Op("build", "bank build", lambda c: [*bank, "build"], cold(remove("exports")), priority=3),
        Op("build_unchanged", "bank build (unchanged)", lambda c: [*bank, "build"], priority=3, warm_after="build"),
        Op("build_edit_question", "bank build (1 question edited)", lambda c: [*bank, "build"], edit_question, priority=3,
           warm_after="build"),
        Op("i18n_status", "bank i18n status", lambda c: [*bank, "i18n", "status"], cold(), priority=4),
        Op("i18n_update", "bank i18n update", lambda c: [*bank, "i18n", "update"], cold(), priority=5),
    ]
    for fmt in formats:
        out = f"bench-out/{fmt}"
        ops.append(Op(f"export_{fmt}", f"bank export {fmt}",
                      lambda c, fmt=fmt, out=out: [*bank, "export", fmt, "--lang", "all", "--out", out],
                      cold(remove(out)), priority=6))
    ops.append(Op("analyze", f"bank analyze ({RESPONSES:,} responses)".replace(",", " "),
                  lambda c: [*bank, "analyze", str(RESULTS), "--lang", "en"] if c.kind == "bundled" else [],
                  lambda c: write_responses(c.root, c.root / RESULTS) and None, priority=6,
                  missing="bundled bank only"))
    ops.append(Op("text2qti", "text2qti (reference, en)",
                  (lambda c: [*text2qti, c.quiz.name]) if text2qti else (lambda c: []),
                  lambda c: (c.quiz.with_suffix(".zip").unlink(missing_ok=True) if c.quiz else None),
                  cwd=lambda c: c.quiz.parent if c.quiz else c.root, priority=7))
    return ops


# --------------------------------------------------------------------------------------------
# text2qti input
# --------------------------------------------------------------------------------------------

_MD_SPECIAL = re.compile(r"([\\`*_\[\]$<>#|])")


def _md(text: str) -> str:
    """One line of Markdown showing ``text`` literally (text2qti renders every text as Markdown)."""
    return _MD_SPECIAL.sub(r"\\\1", " ".join(text.split()))


def write_text2qti_quiz(bank_dir: Path, target: Path) -> int:
    """text2qti's plain-text quiz of the English bank at ``bank_dir``: stem, options, key, feedback.

    Same content as the bank's own exports (stem, four options with per-option feedback and the
    explanation as general feedback), in the format of text2qti's README.
    """
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    topics = [yaml.load(path.read_text(encoding="utf-8"), Loader=loader) for path in sorted(bank_dir.glob("*/topic.yaml"))]
    files = {p.name.split("-", 1)[0]: p for p in bank_dir.glob("*/questions/*.yaml")}
    lines = [f"Quiz title: {' '.join(str(topics[0]['title']).split())}", "Quiz description: Benchmark reference.", ""]
    count = 0
    for number, qid in enumerate((qid for topic in topics for qid in topic["questions"]), 1):
        q = yaml.load(files[qid].read_text(encoding="utf-8"), Loader=loader)
        lines.append(f"Title: {qid}")
        lines.append(f"{number}.  {_md(q['stem'])}")
        lines.append(f"... {_md(q['explanation'])}")
        for option in q["options"]:
            mark = "*" if option["id"] == q["correct"] else ""
            lines.append(f"{mark}{option['id']}) {_md(option['text'])}")
            if option.get("feedback"):
                lines.append(f"... {_md(option['feedback'])}")
        lines.append("")
        count += 1
    target.write_text("\n".join(lines), encoding="utf-8")
    return count


# --------------------------------------------------------------------------------------------
# The run
# --------------------------------------------------------------------------------------------


@dataclass
class Budget:
    seconds: float
    start: float = field(default_factory=time.perf_counter)

    def remaining(self) -> float:
        return float("inf") if self.seconds <= 0 else self.seconds - (time.perf_counter() - self.start)


def measure(op: Op, col: Column, repeats: int, timeout: float, budget: Budget, env: dict[str, str], repeat_time: float) -> dict:
    """Run ``op`` up to ``repeats`` times (fewer once ``repeat_time`` seconds are spent)."""
    argv = op.argv(col)
    if not argv:
        return {"status": "missing", "note": op.missing}
    runs: list[Run] = []
    spent = 0.0
    by_budget = False
    for _ in range(repeats):
        left = budget.remaining()
        if left < 1.0:
            break
        op.prepare(col)
        by_budget = left < timeout
        run = run_child(argv, op.cwd(col), min(timeout, left), env)
        runs.append(run)
        spent += run.wall_s
        if run.timed_out or run.returncode != 0 or spent >= repeat_time:
            break
    if not runs:
        return {"status": "skipped", "note": "time budget exhausted"}
    record = {
        "runs": [{"wall_s": round(r.wall_s, 4), "cpu_s": round(r.cpu_s, 4), "maxrss_mb": round(r.maxrss_mb, 1), "returncode": r.returncode, "timed_out": r.timed_out} for r in runs],
        "repeats": len(runs),
        "peak_mb": round(max(r.maxrss_mb for r in runs), 1),
    }
    last = runs[-1]
    if last.timed_out:
        limited_by = "time budget" if by_budget else f"--timeout {timeout:g}"
        record.update(status="timeout", wall_s=round(last.wall_s, 3), note=f"killed after {last.wall_s:.3g} s ({limited_by})")
    elif last.returncode != 0:
        first = next((ln.strip() for ln in last.output_tail.splitlines() if re.search(r"\b(error [EW]\d+|Error|bank: )", ln)), "")
        record.update(status="error", wall_s=round(last.wall_s, 3), note=f"exit {last.returncode}" + (f": {first[:300]}" if first else ""),
                      output_tail=last.output_tail[-1500:])
    else:
        record.update(status="ok", wall_s=round(statistics.median(r.wall_s for r in runs), 4), cpu_s=round(statistics.median(r.cpu_s for r in runs), 4))
    return record


STAMP = ".bench-stamp.json"


def _stamp(n: int, seed: int, topics: int = 1) -> dict:
    import hashlib

    return {"n": n, "topics": topics, "seed": seed, "generator": hashlib.sha256((HERE / "generate.py").read_bytes()).hexdigest()}


def _stamp_matches(root: Path, n: int, seed: int, topics: int = 1) -> bool:
    try:
        return json.loads((root / STAMP).read_text(encoding="utf-8")) == _stamp(n, seed, topics)
    except (OSError, ValueError):
        return False


def prepare_columns(args, work: Path, budget: Budget) -> tuple[list[Column], dict]:
    """Copy the bundled bank and generate every synthetic size (before anything is timed).

    Generation runs in child processes, at most as many at once as there are CPUs, largest
    first; it is never timed, and nothing is measured while it runs.
    """
    columns: list[Column] = []
    generation: dict[str, dict] = {}
    if args.bundled:
        root = work / "bundled"
        shutil.rmtree(root, ignore_errors=True)
        root.mkdir(parents=True)
        shutil.copytree(REPO / "bank", root / "bank")
        shutil.copytree(REPO / "translations", root / "translations")
        n = sum(1 for _ in (root / "bank").glob("*/questions/*.yaml"))
        columns.append(Column("bundled", n, "bundled", root))
    pending = []
    for n, topics in args.sizes:
        label = size_label(n, topics)
        root = work / (f"n{n}-seed{args.seed}" if topics == 1 else f"n{n}-t{topics}-seed{args.seed}")
        columns.append(Column(label, n, "synthetic", root, topics=topics))
        if args.reuse and _stamp_matches(root, n, args.seed, topics):
            generation[label] = {"status": "ok", "seconds": 0.0, "note": "reused"}
            print(f"reusing N={label} in {root}", flush=True)
            continue
        pending.append((n, topics, root))
    pending.sort(key=lambda item: (-item[0], -item[1]))
    running: list[tuple[int, subprocess.Popen, float]] = []
    slots = max(1, min(2, os.cpu_count() or 1))
    while pending or running:
        while pending and len(running) < slots:
            n, topics, root = pending.pop(0)
            print(f"generating N={size_label(n, topics)} (seed {args.seed}) in {root} …", flush=True)
            cmd = [sys.executable, str(HERE / "generate.py"), str(root), "-n", str(n), "--topics", str(topics), "--seed", str(args.seed)]
            proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True)
            running.append((size_label(n, topics), proc, time.perf_counter(), root, n, topics))
        time.sleep(0.2)
        for item in list(running):
            n, proc, began, root, size, topics = item
            elapsed = time.perf_counter() - began
            if proc.poll() is None and (elapsed > args.gen_timeout or budget.remaining() < 0):
                try:
                    os.killpg(proc.pid, signal.SIGKILL)  # the generator, its workers and its `bank i18n update`
                except ProcessLookupError:
                    pass
                proc.wait()
                why = "time budget exhausted" if budget.remaining() < 0 else f"over --gen-timeout {args.gen_timeout:g} s"
                generation[n] = {"status": "timeout", "seconds": round(elapsed, 1), "note": f"generation stopped: {why}"}
            elif proc.poll() is not None:
                err = proc.stderr.read() if proc.stderr else ""
                generation[n] = ({"status": "ok", "seconds": round(elapsed, 1)} if proc.returncode == 0 else
                                 {"status": "error", "seconds": round(elapsed, 1), "note": f"generator exit {proc.returncode}", "stderr": err[-1500:]})
                if proc.returncode == 0:
                    (root / STAMP).write_text(json.dumps(_stamp(size, args.seed, topics)), encoding="utf-8")
            else:
                continue
            if proc.stderr:
                proc.stderr.close()
            running.remove(item)
            print(f"  N={n}: {generation[n]['status']} in {generation[n]['seconds']:.0f} s", flush=True)
    for col in columns:
        if (col.root / "bank" / "categories.yaml").is_file() and generation.get(col.label, {}).get("status", "ok") == "ok":
            col.quiz = col.root / "text2qti" / "quiz.txt"
            col.quiz.parent.mkdir(exist_ok=True)
            write_text2qti_quiz(col.root / "bank", col.quiz)
    return columns, generation


# --------------------------------------------------------------------------------------------
# Targets, table, JSON
# --------------------------------------------------------------------------------------------

GB_MB = 1024.0
PEAK_LIMIT_MB = 500.0


def _value(results: dict, label: str, op: str, what: str = "wall_s") -> float | None:
    rec = results.get(label, {}).get(op, {})
    if rec.get("status") != "ok":
        return None
    return rec.get(what)


def evaluate_targets(results: dict, labels: list[str]) -> list[dict]:
    targets = []

    def add(name: str, value: float | None, limit: float, unit: str, why_missing: str = "") -> None:
        verdict = "n/a" if value is None else ("PASS" if value <= limit else "FAIL")
        targets.append({"name": name, "limit": limit, "unit": unit, "value": None if value is None else round(value, 3),
                         "verdict": verdict, **({"note": why_missing} if value is None and why_missing else {})})

    def note(label: str, op: str) -> str:
        rec = results.get(label, {}).get(op)
        if rec is None:
            return "not measured"
        return rec.get("note") or rec.get("status", "")

    add("bank --help (bundled bank)", _value(results, "bundled", "help"), 0.20, "s", note("bundled", "help"))
    add("bank validate FILE after editing it, bundled bank", _value(results, "bundled", "validate_file"), 0.40, "s", note("bundled", "validate_file"))
    add("bank validate, bundled bank, no cache", _value(results, "bundled", "validate"), 0.60, "s", note("bundled", "validate"))
    add("bank build, bundled bank, cold", _value(results, "bundled", "build"), 1.0, "s", note("bundled", "build"))
    add("bank build, bundled bank, nothing changed", _value(results, "bundled", "build_unchanged"), 0.4, "s", note("bundled", "build_unchanged"))
    responses = f"{RESPONSES:,}".replace(",", " ")
    add(f"bank analyze, {responses} responses (Moodle CSV), bundled bank", _value(results, "bundled", "analyze"),
        10.0, "s", note("bundled", "analyze"))
    add(f"peak memory, bank analyze of {responses} responses", _value(results, "bundled", "analyze", "peak_mb"),
        200.0, "MB", note("bundled", "analyze"))
    big = "10000"
    add("bank validate, N=10000, 3 languages, cold", _value(results, big, "validate"), 5.0, "s", note(big, "validate"))
    add("bank validate, N=10000, one question edited", _value(results, big, "validate_edit_question"), 1.0, "s", note(big, "validate_edit_question"))
    add("bank validate, N=10000, one catalog entry edited", _value(results, big, "validate_edit_catalog"), 1.0, "s", note(big, "validate_edit_catalog"))
    add("bank validate, N=10000, nothing changed", _value(results, big, "validate_unchanged"), 0.3, "s", note(big, "validate_unchanged"))
    peer = _value(results, big, "text2qti")  # the peer writing one English QTI file of the same questions, in the same run
    add("bank build, N=10000, cold, every format and language, " + ("within text2qti's time for one English QTI file" if peer is not None else "(text2qti not measured: 20 s)"),
        _value(results, big, "build"), peer if peer is not None else 20.0, "s", note(big, "build"))
    add("bank build, N=10000, one question edited", _value(results, big, "build_edit_question"), 3.0, "s", note(big, "build_edit_question"))
    recs = {k: r for k, r in results.get(big, {}).items() if k not in ("text2qti", "analyze") and isinstance(r, dict)}
    peaks = [r["peak_mb"] for r in recs.values() if r.get("peak_mb")]
    done = sum(1 for r in recs.values() if r.get("status") == "ok")
    peak = max(peaks) if peaks else None
    if peak is not None and (peak > PEAK_LIMIT_MB or done == len(recs)):
        add("peak memory, N=10000 (any bank command)", peak, PEAK_LIMIT_MB, "MB")
    else:
        add("peak memory, N=10000 (any bank command)", None, PEAK_LIMIT_MB, "MB",
            f"{done} of {len(recs)} commands completed, {peak:.0f} MB so far" if peak is not None else note(big, "validate"))
    many = "10000x100"
    add("bank validate, N=10000 in 100 topics, cold", _value(results, many, "validate"), 5.0, "s", note(many, "validate"))
    add("bank build, N=10000 in 100 topics, cold", _value(results, many, "build"), 20.0, "s", note(many, "build"))
    add("bank validate, N=100000 in 1000 topics, cold", _value(results, HUGE_LABEL, "validate"), HUGE_VALIDATE_S, "s", note(HUGE_LABEL, "validate"))
    add("peak memory, bank validate, N=100000 in 1000 topics, cold", _value(results, HUGE_LABEL, "validate", "peak_mb"),
        HUGE_PEAK_MB, "MB", note(HUGE_LABEL, "validate"))
    for op, name in (("validate", "bank validate"), ("build", "bank build")):
        a, b = _value(results, "1000", op), _value(results, big, op)
        add(f"{name} growth, time(10000)/time(1000)", (b / a) if a and b else None, 11.0, "×",
            "needs N=1000 and N=10000" if not (a and b) else "")
    return targets


def cell(rec: dict | None) -> str:
    if rec is None:
        return "-"
    status = rec.get("status")
    if status == "ok":
        return f"{rec['wall_s']:.2f} s / {rec['peak_mb']:.0f} MB"
    if status == "missing":
        return rec.get("note", "missing")
    if status == "timeout":
        return f"timeout ({rec['wall_s']:.3g} s)"
    if status == "error":
        return f"exit {rec['runs'][-1]['returncode']} after {rec['wall_s']:.1f} s"
    if status == "skipped":
        return "skipped (budget)"
    return status or "-"


def render_table(ops: list[Op], columns: list[Column], results: dict) -> str:
    heads = ["operation"] + [f"{c.label} (N={c.n})" if c.kind == "bundled" else f"N={c.n}" for c in columns]
    rows = [[op.label] + [cell(results.get(c.label, {}).get(op.key)) for c in columns] for op in ops]
    widths = [max(len(r[i]) for r in [heads] + rows) for i in range(len(heads))]
    line = "  ".join("-" * w for w in widths)
    out = ["  ".join(h.ljust(w) if i == 0 else h.rjust(w) for i, (h, w) in enumerate(zip(heads, widths))), line]
    for r in rows:
        out.append("  ".join(v.ljust(w) if i == 0 else v.rjust(w) for i, (v, w) in enumerate(zip(r, widths))))
    return "\n".join(out)


def render_targets(targets: list[dict]) -> str:
    out = []
    width = max(len(t["name"]) for t in targets)
    for t in targets:
        unit = t["unit"]
        limit = f"≤ {t['limit']:g} {unit}"
        value = "-" if t["value"] is None else (f"{t['value']:.2f} {unit}" if unit != "MB" else f"{t['value']:.0f} MB")
        extra = f"  ({t['note']})" if t.get("note") else ""
        out.append(f"  {t['verdict']:<4}  {t['name']:<{width}}  {limit:>10}  measured {value}{extra}")
    return "\n".join(out)


def slowest(results: dict, ops: list[Op], count: int = 5) -> list[dict]:
    labels = {op.key: op.label for op in ops}
    found = []
    for col, recs in results.items():
        for key, rec in recs.items():
            if rec.get("status") in ("ok", "timeout", "error") and "wall_s" in rec:
                found.append({"column": col, "operation": labels.get(key, key), "wall_s": rec["wall_s"], "status": rec["status"]})
    return sorted(found, key=lambda r: -r["wall_s"])[:count]


# --------------------------------------------------------------------------------------------
# Main
# --------------------------------------------------------------------------------------------


def size_label(n: int, topics: int) -> str:
    """A column's label: ``1000`` for one topic, ``10000x100`` for 100 topics."""
    return str(n) if topics == 1 else f"{n}x{topics}"


def parse_sizes(text: str) -> list[tuple[int, int]]:
    """``50,1000,10000x100`` → [(50, 1), (1000, 1), (10000, 100)]."""
    sizes = []
    for item in (x.strip() for x in text.split(",")):
        if item:
            n, _, topics = item.partition("x")
            sizes.append((int(n), int(topics or 1)))
    return sizes


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description="Time every bank command on synthetic banks and the bundled bank.")
    p.add_argument("--sizes", type=parse_sizes, default=None,
                   help="comma list of synthetic bank sizes, N (one topic) or NxT (N questions in T topics); "
                        "default 50,1000,10000,10000x100")
    p.add_argument("--large", action="store_true", help=f"also N={LARGE_SIZE}")
    p.add_argument("--huge", action="store_true", help=f"also N={HUGE_LABEL} ({HUGE_SIZE[0]} questions in {HUGE_SIZE[1]} topics; "
                                                      "measure it with --only validate: generating it takes a few minutes)")
    p.add_argument("--repeat", type=int, default=None,
                   help=f"runs per operation below N={SINGLE_RUN_FROM} (default 5 up to N=100, 3 above); one run from N={SINGLE_RUN_FROM} on")
    p.add_argument("--repeat-time", type=float, default=10.0,
                   help="stop repeating an operation once its runs took this many seconds in all (default 10)")
    p.add_argument("--timeout", type=float, default=300.0, help="per-run timeout in seconds (default 300)")
    p.add_argument("--budget", type=float, default=600.0,
                   help="wall-clock budget of the whole run in seconds, generation included; what does not fit "
                        "is shown as 'skipped (budget)' (default 600; 0 = unlimited)")
    p.add_argument("--gen-timeout", type=float, default=1200.0, help="give up generating one size after this many seconds (default 1200)")
    p.add_argument("--seed", type=int, default=0, help="generator seed (default 0)")
    p.add_argument("--json", type=Path, default=HERE / "results" / "latest.json", help="where to write the JSON results")
    p.add_argument("--keep", action="store_true", help="keep the generated projects under benchmarks/work/")
    p.add_argument("--reuse", action="store_true",
                   help="with --keep: reuse a project kept by an earlier run with the same N, seed and generator "
                        "instead of generating it again (the bundled bank is always copied afresh)")
    p.add_argument("--quick", action="store_true", help="N=50 only, one run each, no bundled bank (smoke test)")
    p.add_argument("--no-bundled", dest="bundled", action="store_false", help="skip the bundled bank")
    p.add_argument("--only", type=lambda s: [x.strip() for x in s.split(",") if x.strip()], default=None,
                   help="comma list of operation keys to measure (help, validate, validate_unchanged, build, i18n_status, "
                        "i18n_update, export_FORMAT, analyze, text2qti)")
    args = p.parse_args(argv)
    if args.quick:
        args.sizes, args.repeat, args.bundled = [(50, 1)], 1, False
    if args.sizes is None:
        args.sizes = list(DEFAULT_SIZES)
    if args.large and (LARGE_SIZE, 1) not in args.sizes:
        args.sizes.append((LARGE_SIZE, 1))
    if args.huge and HUGE_SIZE not in args.sizes:
        args.sizes.append(HUGE_SIZE)
    args.sizes = sorted(set(args.sizes))
    if args.reuse:
        args.keep = True
    if any(n < 1 or not 1 <= t <= n for n, t in args.sizes):
        p.error("--sizes must be positive, with between 1 and N topics")
    return args


def _load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "n/a"


def repeats_for(n: int, args) -> int:
    if n >= SINGLE_RUN_FROM:
        return 1
    if args.repeat is not None:
        return max(1, args.repeat)
    return 5 if n <= 100 else 3


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    budget = Budget(args.budget)
    started = budget.start
    load_before = _load()
    bank = bank_command()
    text2qti = text2qti_command()
    if args.keep:
        work = HERE / "work"
        work.mkdir(exist_ok=True)
        ignore = work / ".gitignore"
        if not ignore.exists():
            ignore.write_text("# generated benchmark projects (python3 benchmarks/run.py --keep)\n*\n", encoding="utf-8")
    else:
        work = Path(tempfile.mkdtemp(prefix="aistack-bench-"))
    USER_CACHE[:] = [work / "user-cache"]
    env = dict(os.environ, COLUMNS="100", NO_COLOR="1", PYTHONUNBUFFERED="1", XDG_CACHE_HOME=str(USER_CACHE[0]))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    try:
        formats = exporter_formats()
        ops = make_ops(bank, formats, text2qti)
        if args.only:
            unknown = sorted(set(args.only) - {op.key for op in ops})
            if unknown:
                print(f"run.py: unknown operation(s) {', '.join(unknown)}; known: {', '.join(op.key for op in ops)}", file=sys.stderr)
                return 2
            ops = [op for op in ops if op.key in args.only]
        # One untimed start so byte-code compilation does not land in the first figure.
        run_child([*bank, "--help"], REPO, 120, env)
        if text2qti:
            run_child([*text2qti, "--version"], REPO, 120, env)
        generation_from = time.perf_counter()
        columns, generation = prepare_columns(args, work, budget)
        measured_from = time.perf_counter()
        generation_wall = measured_from - generation_from
        results: dict[str, dict] = {c.label: {} for c in columns}
        ready = [c for c in columns if c.quiz is not None]
        for col in columns:
            if col.quiz is None:
                for op in ops:
                    results[col.label][op.key] = {"status": "skipped", "note": generation.get(col.label, {}).get("note", "not generated")}
        # Two passes: the targeted commands in every column first, then the others, so a time
        # budget that runs out leaves the figures with targets measured.
        passes = [[op for op in ops if op.priority <= 3], [op for op in ops if op.priority > 3]]
        for number, group in enumerate(passes, 1):
            for col in ready:
                repeats = repeats_for(col.n, args)
                print(f"pass {number}: {col.label} (N={col.n}, up to {repeats} run(s) per operation)", flush=True)
                for op in group:
                    if op.warm_after and op.warm_after not in results[col.label] and budget.remaining() > 1:
                        run_child(op.argv(col), op.cwd(col), min(args.timeout, budget.remaining()), env)  # untimed
                    rec = measure(op, col, repeats, args.timeout, budget, env, args.repeat_time)
                    results[col.label][op.key] = rec
                    print(f"  {op.label:<32} {cell(rec)}", flush=True)
        targets = evaluate_targets(results, [c.label for c in columns])
        table = render_table(ops, columns, results)
        worst = slowest(results, ops)
        print()
        print(table)
        print()
        print("Targets:")
        print(render_targets(targets))
        print()
        print("Slowest:")
        for w in worst:
            print(f"  {w['wall_s']:8.2f} s  {w['operation']} (N={w['column']}){'' if w['status'] == 'ok' else ' ' + w['status']}")
        elapsed = time.perf_counter() - measured_from
        total = time.perf_counter() - started
        print(f"\ntotal {total:.0f} s: generation {generation_wall:.0f} s (not timed), measurements {elapsed:.0f} s "
              f"(budget {'unlimited' if args.budget <= 0 else f'{args.budget:.0f} s'}); load average {load_before} → {_load()}")
        document = {
            "version": 1,
            "meta": {
                "date": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
                "python": sys.version.split()[0],
                "platform": platform.platform(),
                "cpus": os.cpu_count(),
                "bank_command": bank,
                "text2qti": text2qti,
                "formats": formats,
                "sizes": [size_label(n, t) for n, t in args.sizes],
                "seed": args.seed,
                "timeout_s": args.timeout,
                "budget_s": args.budget,
                "total_s": round(time.perf_counter() - started, 1),
                "generation_s": round(generation_wall, 1),
                "measure_s": round(elapsed, 1),
                "load_average_before": load_before,
                "load_average_after": _load(),
                "work": str(work) if args.keep else None,
            },
            "columns": [{"label": c.label, "n": c.n, "topics": c.topics, "kind": c.kind, "repeats": repeats_for(c.n, args)} for c in columns],
            "operations": [{"key": op.key, "label": op.label} for op in ops],
            "generation": generation,
            "results": results,
            "targets": targets,
            "slowest": worst,
            "table": table,
        }
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote {args.json}")
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
