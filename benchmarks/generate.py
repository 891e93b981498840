"""Synthetic but valid question banks for the benchmarks.

``generate_project(root, n, seed)`` writes a complete project under ``root``:

* ``bank/categories.yaml`` and, per topic, ``bank/<topic-id>/topic.yaml`` and
  ``bank/<topic-id>/questions/q…-<slug>.yaml``: ``n`` single-choice questions (split evenly over
  ``topics`` topics, ten topics per category) with
  four options, per-option feedback, an explanation, tags from the topic vocabulary and a
  difficulty; about a third carry a numeric check (memory in GB, decode time in ms, or a
  FLOP-count formula) whose options show distinct values;
* ``translations/aistack.pot``, ``fr.po`` and ``nl.po`` (and any other catalog ``update``
  writes, such as the practice site's ``translations/site/*.po``): what
  ``bank i18n update --lang fr --lang nl`` writes in the project, with every ``msgstr`` filled
  with a deterministic pseudo-translation (numbers, units and formulas kept, decimal comma and,
  for French, ``Go``/``To`` and no-break spaces), laid out as
  :func:`aistack_bank.i18n.catalog.render_catalog` lays it out. The bank's catalogs are written
  straight from the questions, a block per entry (at N = 100 000 they hold a million entries
  each: reading and rewriting them through polib took most of an hour); their headers and the
  practice site's catalogs come from that command and :func:`fill_catalog` run in a
  one-question project. ``bank i18n update --compare`` finds nothing to change
  (tests/test_benchmark_smoke.py).

The result passes ``bank validate`` with no error and no warning and
``bank i18n status --fail-under 100``. The same ``n`` and ``seed`` give byte-identical files.

Command line::

    python benchmarks/generate.py OUT_DIR -n 1000 [--topics 10] [--seed 0] [--validate]
"""

from __future__ import annotations

import argparse
import random
import re
import shutil
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

# --------------------------------------------------------------------------------------------
# Vocabulary
# --------------------------------------------------------------------------------------------

TAGS: dict[str, str] = {
    "training": "training workloads and what they need",
    "inference": "inference workloads and serving",
    "memory": "memory capacity, footprints and bandwidth",
    "precision": "number formats (FP32, FP16, BF16, INT8, INT4)",
    "quantization": "PTQ, QAT, calibration, outliers, weight-only quantization",
    "arithmetic-intensity": "operations per byte, compute- versus memory-bound work",
    "roofline": "the roofline model",
    "batching": "batch size and its effects",
    "llm-inference": "prefill, decode, KV cache, speculative decoding",
    "attention": "self-attention and its implementations",
    "kernels": "operator fusion, tiling, element-wise kernels, im2col",
    "compilers": "AI compilers, computational graphs, ONNX",
    "runtimes": "inference runtimes such as TensorRT and ONNX Runtime",
    "compression": "pruning, sparsity, distillation",
    "parallelism": "data, tensor and pipeline parallelism, collectives",
    "accelerators": "GPUs, NPUs, systolic arrays, on-chip memory, dataflows",
    "edge": "on-device inference",
    "metrics": "TOPS, MFU and other performance figures",
    "numerics": "numerical stability",
    "software-stack": "the layers of the AI software stack",
}
TAG_NAMES = list(TAGS)

# Concepts by tag: (noun phrase, what it is about). Lowercase so they can start a clause.
CONCEPTS: dict[str, list[str]] = {
    "training": ["the backward pass", "gradient accumulation", "the optimizer state", "mixed-precision training", "a training step"],
    "inference": ["an inference server", "request batching", "the serving latency", "a deployed model", "the forward pass"],
    "memory": ["the weight footprint", "off-chip memory traffic", "the activation memory", "HBM bandwidth", "the memory hierarchy"],
    "precision": ["FP16 storage", "BF16 arithmetic", "the FP32 master copy", "INT8 weights", "the dynamic range"],
    "quantization": ["post-training quantization", "the calibration set", "per-channel scales", "outlier channels", "weight-only quantization"],
    "arithmetic-intensity": ["the arithmetic intensity", "the ratio of operations to bytes", "a memory-bound kernel", "data reuse", "the operand traffic"],
    "roofline": ["the roofline ridge point", "the bandwidth roof", "the compute roof", "attainable performance", "a roofline plot"],
    "batching": ["a larger batch", "continuous batching", "the batch dimension", "a batch of one", "dynamic batching"],
    "llm-inference": ["the KV cache", "the prefill phase", "the decode phase", "speculative decoding", "the context length"],
    "attention": ["self-attention", "the attention score matrix", "FlashAttention", "grouped-query attention", "the softmax over scores"],
    "kernels": ["operator fusion", "loop tiling", "an element-wise kernel", "the im2col transform", "a fused kernel"],
    "compilers": ["an AI compiler", "the computational graph", "graph lowering", "the ONNX format", "constant folding"],
    "runtimes": ["an inference runtime", "the TensorRT engine", "the execution provider", "kernel autotuning", "the runtime scheduler"],
    "compression": ["magnitude pruning", "structured sparsity", "knowledge distillation", "a student model", "low-rank factorization"],
    "parallelism": ["data parallelism", "tensor parallelism", "pipeline parallelism", "the all-reduce collective", "micro-batching"],
    "accelerators": ["a systolic array", "on-chip SRAM", "a weight-stationary dataflow", "the tensor cores", "an NPU"],
    "edge": ["on-device inference", "an edge accelerator", "the power budget", "a mobile NPU", "local processing"],
    "metrics": ["the TOPS figure", "model FLOP utilization", "the tokens per second", "the energy per inference", "the peak throughput"],
    "numerics": ["loss scaling", "the accumulator width", "a numerically stable softmax", "underflow in gradients", "rounding error"],
    "software-stack": ["the framework layer", "the kernel library", "the driver layer", "the graph runtime", "the hardware abstraction"],
}

# True claims name the question's own system ({n}) after their first word and then at least once
# every six words, so that even after the longest concept (six words) no run of eight words of
# one question's key (the W322 answer-leak rule) recurs in another question, as in a real bank;
# the wrong options may repeat, they are nobody's key. Each key also names four
# parts of that system of its own (:func:`_parts`), so that another question with the same claim
# shares less than three quarters of its content words (W322's "most of its words").
VERBS_TRUE = [
    "reduces {n}'s traffic to off-chip memory when {n}'s operands are reused",
    "keeps {n}'s accelerator busy by raising {n}'s work done per byte moved",
    "trades {n}'s extra computation for much less data movement",
    "follows {n}'s bandwidth more than the number of {n}'s compute units",
    "lets {n}'s scheduler overlap communication with useful computation",
    "keeps {n}'s numerical error small enough for the task",
    "moves {n}'s bottleneck from memory towards compute",
    "needs {n}'s memory that grows with the sequence length",
    "saves {n}'s energy because each value crosses {n}'s memory bus fewer times",
    "raises {n}'s throughput at the price of {n}'s longer wait for each request",
]
VERBS_FALSE = [
    "removes every memory access from the kernel",
    "always makes the model more accurate as well as faster",
    "only matters for training and never for inference",
    "makes the cost independent of the input size",
    "doubles the peak throughput of any accelerator",
    "works only when the weights are stored in FP32",
    "turns a memory-bound kernel into a compute-bound one at no cost",
    "needs no calibration data and no tuning at all",
    "has the same cost for a batch of one and for a large batch",
    "is handled entirely by the operating system",
    "replaces the need for any on-chip memory",
    "guarantees linear speedup with the number of devices",
]
MISCONCEPTIONS = [
    "confuses the peak figure with what a real workload attains",
    "forgets that data still has to travel between memory and the compute units",
    "assumes that a lower precision never changes the result",
    "mixes up the training and the inference requirements",
    "ignores the cost of moving activations between devices",
    "treats a bandwidth limit as if it were a compute limit",
    "overlooks the extra memory needed for intermediate values",
    "assumes the scheduler can hide every delay",
]
REASONS = [
    "the work per byte moved decides whether the kernel waits on memory or on compute",
    "every value read from memory is used several times before it is evicted",
    "the cost follows the amount of data that crosses the memory bus",
    "fewer round trips to memory mean less time and less energy",
    "the bottleneck is the slowest resource, not the fastest one",
    "the accelerator only reaches its peak when its operands arrive fast enough",
]
SETTINGS = ["deployment", "cluster", "prototype", "service", "workload", "pipeline", "design", "benchmark"]
SYLLABLES = ["ka", "ro", "mi", "ta", "ve", "lo", "su", "ne", "pa", "di", "zo", "ri", "fe", "mu", "to", "la",
             "be", "no", "si", "gu", "da", "ke", "po", "vi"]

# Numeric question parameters.
PARAM_COUNTS = [1, 3, 7, 8, 13, 14, 30, 34, 70, 180]
FORMATS = [("INT4", 0.5), ("INT8", 1), ("FP16", 2), ("BF16", 2), ("FP32", 4)]
BYTE_MULTIPLIERS = [0.5, 1, 2, 4, 8, 16]
BANDWIDTHS = [500, 1000, 2000, 4000]
TOKEN_TIMES = [2, 4, 5, 7, 8, 10, 14, 20, 35]
FORMULAS = [
    # (stem fragment, variables, check script, correct option, wrong options, explanation)
    ("multiplying an M × K matrix by a K × N matrix, counting one multiply and one add per product term",
     ["M", "N", "K"], "multiplies = M * N * K\nadds = M * N * K\nanswer_formula(multiplies + adds)\n",
     "2MNK", ["MNK", "4MNK", "2MN"]),
    ("multiplying two N × N matrices, counting one multiply and one add per product term",
     ["N"], "answer_formula(2 * N ** 3)\n", "2N³", ["N³", "2N²", "3N²"]),
    ("a matrix-vector product of an M × K matrix with a K-vector, counting multiplies and adds",
     ["M", "K"], "answer_formula(2 * M * K)\n", "2MK", ["MK", "4MK", "2M"]),
    ("a forward pass of a model with N parameters over D tokens, at about two operations per parameter and token",
     ["N", "D"], "answer_formula(2 * N * D)\n", "2ND", ["ND", "6ND", "2N"]),
]


def _fmt(value: float) -> str:
    """A number as English text: no exponent, no thousands separator, no trailing zeros."""
    text = f"{value:.6f}".rstrip("0").rstrip(".")
    return text or "0"


def _name(index: int, seed: int) -> str:
    """A unique pseudo-word for ``index`` (so every stem differs, as real banks do)."""
    k = len(SYLLABLES)
    x = index * 7919 + seed * 104729 + 12345
    parts = []
    for _ in range(4):
        parts.append(SYLLABLES[x % k])
        x //= k
    x = index
    while x:  # a suffix that makes the name injective in index
        parts.append(SYLLABLES[x % k])
        x //= k
    return "".join(parts).capitalize()


def _parts(index: int, seed: int) -> str:
    """Four pseudo-words of question ``index``'s own: with the name, five of a key's content
    words are its own, and the other words of the longest claim are twelve (12 / 17 < 3/4)."""
    a, b, c, d = (_name(index, seed + k).lower() for k in (1, 2, 3, 4))
    return f"{a}, {b}, {c} and {d}"


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


# --------------------------------------------------------------------------------------------
# Questions
# --------------------------------------------------------------------------------------------


@dataclass
class Option:
    id: str
    text: str
    feedback: str


@dataclass
class Question:
    id: str
    slug: str
    stem: str
    options: list[Option]
    correct: str
    explanation: str
    tags: list[str]
    difficulty: int
    translator_note: str | None = None
    check_script: str | None = None
    check_variables: list[str] = field(default_factory=list)


PADS = (", in most practical settings", ", in most practical settings and on most current hardware")


def _place(rng: random.Random, correct: tuple[str, str], wrong: list[tuple[str, str]], position: int,
           longest_ok: bool = True) -> tuple[list[Option], str]:
    """Options a–d with the key at ``position``. When the key is strictly the longest text, the
    longest distractor is padded (``PADS[0]``); without ``longest_ok``, enough that the key is
    not strictly the longest any more."""
    texts = list(wrong)
    rng.shuffle(texts)
    texts.insert(position, correct)
    key_len = len(correct[0])
    if all(key_len > len(t) for i, (t, _) in enumerate(texts) if i != position):
        # Pad the longest distractor so the key does not stand out by its length.
        j = max((i for i in range(len(texts)) if i != position), key=lambda i: len(texts[i][0]))
        t, f = texts[j]
        for pad in PADS if not longest_ok else PADS[:1]:
            padded = t.rstrip(".") + pad + ("." if t.endswith(".") else "")
            if len(padded) >= key_len:
                break
        texts[j] = (padded, f)
    options = [Option(chr(ord("a") + i), t, f) for i, (t, f) in enumerate(texts)]
    return options, options[position].id


def _memory_question(rng: random.Random, qid: str, name: str, position: int, longest_ok: bool = True) -> Question:
    params = rng.choice(PARAM_COUNTS)
    fmt, bpp = rng.choice(FORMATS)
    others = [m for m in BYTE_MULTIPLIERS if m != bpp]
    wrong_m = rng.sample(others, 3)
    total = params * bpp
    stem = (f"The {name} model has {params} billion parameters and keeps its weights in {fmt} "
            f"({_fmt(bpp)} bytes per parameter). Roughly how much memory do the weights take?")
    # A key longer than a bare figure, with two words of its own (the name and the name reversed),
    # so that neither another question's equal figure nor its other words give it away.
    correct = (f"About {_fmt(total)} GB for the {name} {name[::-1].lower()} weights", f"Right: {params} billion parameters × {_fmt(bpp)} bytes = {_fmt(total)} GB.")
    wrong = []
    for m in wrong_m:
        wrong.append((f"About {_fmt(params * m)} GB for the {name} {name[::-1].lower()} weights",
                      f"This uses {_fmt(m)} {'byte' if m == 1 else 'bytes'} per parameter, which does not match {fmt}."))
    options, key = _place(rng, correct, wrong, position, longest_ok)
    explanation = (f"Weight memory is the number of parameters times the bytes per parameter: "
                   f"{params} billion × {_fmt(bpp)} bytes = {_fmt(total)} GB. "
                   f"The most tempting wrong option uses the size of another number format; "
                   f"only {fmt} matches the stated storage.")
    script = f"params = {params} * billion\nbytes_per_param = {_fmt(bpp)}\nanswer(params * bytes_per_param, unit=\"GB\", rel=0.05)\n"
    return Question(qid, f"weight-memory-{name.lower()}", stem, options, key, explanation,
                    sorted({"memory", "precision", rng.choice(TAG_NAMES)}), 1,
                    translator_note=f"Keep \"{fmt}\" as it is.", check_script=script)


def _decode_question(rng: random.Random, qid: str, name: str, position: int, longest_ok: bool = True) -> Question:
    bw = rng.choice(BANDWIDTHS)
    t = rng.choice(TOKEN_TIMES)
    weights = t * bw / 1000
    stem = (f"Each decoding step of the {name} service reads all {_fmt(weights)} GB of weights from memory, "
            f"which delivers {bw} GB/s. If reading the weights dominates, roughly how long does one token take?")
    correct = (f"About {_fmt(t)} ms per {name} token", f"Right: {_fmt(weights)} GB at {bw} GB/s take {_fmt(t)} ms.")
    wrong = [
        (f"About {_fmt(t * 2)} ms per {name} token", "This assumes the weights are read twice for every token."),
        (f"About {_fmt(t / 2)} ms per {name} token", "This halves the traffic, as if only half of the weights were read."),
        (f"About {_fmt(t * 4)} ms per {name} token", "This uses a quarter of the stated bandwidth."),
    ]
    options, key = _place(rng, correct, wrong, position, longest_ok)
    explanation = (f"At batch size one, decoding is memory-bound: every token reads all the weights, "
                   f"so the time is {_fmt(weights)} GB divided by {bw} GB/s, that is {_fmt(t)} ms. "
                   f"The compute units wait on memory, so more compute would not help.")
    script = (f"weight_bytes = {_fmt(weights)} * GB\nbandwidth = {bw} * GB / s\n"
              f"answer(weight_bytes / bandwidth, unit=\"ms\", rel=0.05)\n")
    return Question(qid, f"decode-time-{name.lower()}", stem, options, key, explanation,
                    sorted({"llm-inference", "memory", rng.choice(TAG_NAMES)}), 3, check_script=script)


def _formula_question(rng: random.Random, qid: str, name: str, position: int, longest_ok: bool = True) -> Question:
    fragment, variables, script, right, wrong_f = rng.choice(FORMULAS)
    stem = f"In the {name} kernel, how many operations does {fragment} take?"
    correct = (f"{right} operations in the {name} {name[::-1].lower()} kernel", f"Right: this counts every multiply and every add once.")
    wrong = [
        (f"{wrong_f[0]} operations in the {name} {name[::-1].lower()} kernel", "This counts the multiplies but forgets the adds."),
        (f"{wrong_f[1]} operations in the {name} {name[::-1].lower()} kernel", "This counts every product term twice over."),
        (f"{wrong_f[2]} operations in the {name} {name[::-1].lower()} kernel", "This drops one of the dimensions of the product."),
    ]
    options, key = _place(rng, correct, wrong, position, longest_ok)
    explanation = (f"Each product term needs one multiply and one add, so the count is {right}. "
                   f"The most tempting wrong option counts only the multiplies.")
    return Question(qid, f"operation-count-{name.lower()}", stem, options, key, explanation,
                    sorted({"arithmetic-intensity", "kernels"}), 2, check_script=script, check_variables=list(variables))


def _concept_question(rng: random.Random, qid: str, name: str, position: int, parts: str, longest_ok: bool = True) -> Question:
    tag = rng.choice(TAG_NAMES)
    concept = rng.choice(CONCEPTS[tag])
    setting = rng.choice(SETTINGS)
    stem = f"In the {name} {setting}, which statement about {concept} is correct?"
    if rng.random() < 0.3:
        batch = rng.choice([1, 8, 16, 64, 256])
        stem = f"In the {name} {setting}, which runs at batch size {batch}, which statement about {concept} is correct?"
    true_claim = rng.choice(VERBS_TRUE).format(n=name)
    false_claims = rng.sample(VERBS_FALSE, 3)
    reason = rng.choice(REASONS)
    correct = (f"For {parts}, {concept} {true_claim}.", _sentence(f"right: {reason}."))
    wrong = [(f"For {parts}, {concept} {claim}.", _sentence(f"this {rng.choice(MISCONCEPTIONS)}.")) for claim in false_claims]
    options, key = _place(rng, correct, wrong, position, longest_ok)
    explanation = (_sentence(f"{concept} {true_claim}, because {reason}. ")
                   + _sentence(f"the most tempting wrong option claims that it {false_claims[0]}, which {rng.choice(MISCONCEPTIONS)}."))
    tags = sorted({tag, rng.choice(TAG_NAMES)})
    slug = re.sub(r"[^a-z0-9]+", "-", f"{concept} {name}".lower()).strip("-")
    return Question(qid, slug, stem, options, key, explanation, tags, rng.choice([1, 2]))


def make_questions(n: int, seed: int = 0, topics: int = 1) -> list[Question]:
    """The ``n`` questions of the synthetic bank, deterministic in ``n`` and ``seed``.

    With ``topics``, the questions of each topic (split as :func:`generate_project` splits them)
    have the key strictly the longest option in at most a third of them (W302 is a rule of
    each topic): past that share, a distractor is padded to the key's length."""
    rng = random.Random(f"aistack-bench:{seed}")
    width = max(3, len(str(n)))
    positions: list[int] = []
    questions = []
    topic = longest = 0
    end = n // topics
    for i in range(1, n + 1):
        if i > end:
            topic += 1
            longest = 0
            end = (topic + 1) * n // topics
        longest_ok = longest < (end - topic * n // topics) // 3
        if not positions:  # keys spread evenly over a–d, in shuffled blocks of four
            positions = [0, 1, 2, 3]
            rng.shuffle(positions)
        position = positions.pop()
        qid = f"q{i:0{width}d}"
        name = _name(i, seed)
        roll = rng.random()
        if roll < 0.20:
            q = _memory_question(rng, qid, name, position, longest_ok)
        elif roll < 0.30:
            q = _decode_question(rng, qid, name, position, longest_ok)
        elif roll < 0.38:
            q = _formula_question(rng, qid, name, position, longest_ok)
        else:
            q = _concept_question(rng, qid, name, position, _parts(i, seed), longest_ok)
        if key_is_longest(q):
            if not longest_ok:
                raise RuntimeError(f"{qid}: the key is still the longest option")
            longest += 1
        questions.append(q)
    return questions


def key_is_longest(q: Question) -> bool:
    """Whether the key is strictly longer than every other option (what W302 counts)."""
    key = next(len(o.text) for o in q.options if o.id == q.correct)
    return all(key > len(o.text) for o in q.options if o.id != q.correct)


# --------------------------------------------------------------------------------------------
# YAML writing
# --------------------------------------------------------------------------------------------

_PLAIN_OK = re.compile(r"^[A-Za-z][A-Za-z0-9 .,()×'-]*$")
_RESERVED = {"true", "false", "null", "yes", "no", "on", "off", "~"}


def _scalar(key: str, text: str, indent: str) -> list[str]:
    """``key: text`` as a plain scalar when that is safe and short, else a folded ``>-`` block."""
    if "\n" in text or "  " in text or text != text.strip():
        raise ValueError(f"text not writable as a folded scalar: {text!r}")
    head = f"{indent}{key}: "
    if len(head) + len(text) <= 96 and _PLAIN_OK.match(text) and text.lower() not in _RESERVED and not text.endswith((".", ",")) :
        return [head + text]
    lines = textwrap.wrap(text, width=96 - len(indent) - 2, break_long_words=False, break_on_hyphens=False)
    return [f"{indent}{key}: >-"] + [f"{indent}  {line}" for line in lines]


def render_question(q: Question) -> str:
    return question_yaml(q)[0]


def question_yaml(q: Question) -> tuple[str, tuple[int, ...]]:
    """The question file's text and the line of each of its translatable fields, in catalog
    order (stem, each option's text and feedback, explanation): the ``#:`` references."""
    out = ["# yaml-language-server: $schema=../../../schema/question.schema.json", f"id: {q.id}", "kind: single-choice"]
    lines = [len(out) + 1]
    out += _scalar("stem", q.stem, "")
    out.append("options:")
    for o in q.options:
        out.append(f"  - id: {o.id}")
        lines.append(len(out) + 1)
        out += _scalar("text", o.text, "    ")
        lines.append(len(out) + 1)
        out += _scalar("feedback", o.feedback, "    ")
    out.append(f"correct: {q.correct}")
    lines.append(len(out) + 1)
    out += _scalar("explanation", q.explanation, "")
    out.append(f"tags: [{', '.join(q.tags)}]")
    out.append(f"difficulty: {q.difficulty}")
    if q.translator_note:
        out += _scalar("translator_note", q.translator_note, "")
    if q.check_script:
        out.append("check:")
        if q.check_variables:
            out.append(f"  variables: [{', '.join(q.check_variables)}]")
        out.append("  script: |")
        out += [f"    {line}" for line in q.check_script.rstrip("\n").split("\n")]
    return "\n".join(out) + "\n", tuple(lines)


TOPIC_TITLE = "AI Hardware & Software Stack (synthetic benchmark bank)"
TOPIC_SUMMARY = (
    "Synthetic questions for benchmarking the pipeline: memory footprints, decode times, "
    "operation counts and statements about the AI hardware and software stack."
)
TOPIC_KEY_POINTS = [
    "Most of the computation in neural networks is large matrix multiply-accumulate, so AI "
    "hardware lines up many multiply-accumulate units and reuses data to reduce memory traffic.",
    "Arithmetic intensity and the roofline model show whether a workload is limited by compute "
    "or by memory bandwidth; a ridge point of 100 operations per byte is common.",
]


TOPICS_PER_CATEGORY = 10


def topic_ids(topics: int) -> list[tuple[str, str]]:
    """(topic id, category id) of each topic: one topic keeps the historical id."""
    if topics == 1:
        return [("ai-stack-benchmark", "computer-systems")]
    # ids as wide as the largest number, so that they sort in the order they are written in
    # (the bank orders categories and topics by id; the catalogs are written in this order)
    categories = -(-topics // TOPICS_PER_CATEGORY)
    topic_width, category_width = max(3, len(str(topics))), max(2, len(str(categories)))
    return [(f"topic-{i + 1:0{topic_width}d}", f"category-{i // TOPICS_PER_CATEGORY + 1:0{category_width}d}") for i in range(topics)]


def _category_title(category: str) -> str:
    return "Computer systems" if category == "computer-systems" else f"Computer systems, part {int(category.rsplit('-', 1)[1])}"


def render_categories(topics: int) -> str:
    ids = sorted({category for _, category in topic_ids(topics)})
    out = ["# yaml-language-server: $schema=../schema/categories.schema.json", "categories:"]
    for category in ids:
        out += [f"  - id: {category}", f"    title: {_category_title(category)}"]
    return "\n".join(out) + "\n"


def render_topic(questions: list[Question], topic_id: str = "ai-stack-benchmark", category: str = "computer-systems", number: int = 0) -> str:
    return topic_yaml(questions, topic_id, category, number)[0]


def topic_yaml(questions: list[Question], topic_id: str = "ai-stack-benchmark", category: str = "computer-systems",
               number: int = 0) -> tuple[str, list[tuple[str, str, int]]]:
    """The topic file's text and its translatable fields: (field, text, line) of the title, the
    summary and each key point, in catalog order."""
    out = ["# yaml-language-server: $schema=../../schema/topic.schema.json", f"id: {topic_id}", f"category: {category}"]
    title = TOPIC_TITLE + (f", part {number}" if number else "")
    fields = [("title", title, len(out) + 1)]
    out += _scalar("title", title, "")
    fields.append(("summary", TOPIC_SUMMARY, len(out) + 1))
    out += _scalar("summary", TOPIC_SUMMARY, "")
    out.append("key_points:")
    for k, point in enumerate(TOPIC_KEY_POINTS, 1):
        lines = textwrap.wrap(point, width=90, break_long_words=False, break_on_hyphens=False)
        out.append(f"  - id: k{k}")
        fields.append((f"key_point.k{k}", point, len(out) + 1))
        out += ["    text: >-"] + [f"      {line}" for line in lines]
    out.append("tags:")
    out += [f'  {tag}: "{meaning}"' for tag, meaning in TAGS.items()]
    out.append("questions:")
    out += [f"  - {q.id}" for q in questions]
    return "\n".join(out) + "\n", fields


# --------------------------------------------------------------------------------------------
# Pseudo-translation
# --------------------------------------------------------------------------------------------

WORDS = {
    "fr": {
        "the": "le", "a": "un", "an": "un", "of": "de", "and": "et", "is": "est", "in": "dans",
        "with": "avec", "to": "à", "for": "pour", "on": "sur", "about": "environ", "roughly": "environ",
        "how": "comment", "much": "beaucoup", "memory": "mémoire", "model": "modèle", "which": "quel",
        "statement": "affirmation", "correct": "correcte", "right": "juste", "this": "ceci",
        "weights": "poids", "parameters": "paramètres", "bytes": "octets", "billion": "milliards",
        "per": "par", "takes": "prend", "take": "prennent", "operations": "opérations", "each": "chaque",
        "time": "temps", "token": "jeton", "only": "seulement", "not": "pas", "more": "plus",
        "that": "que", "it": "il", "at": "à", "by": "par", "from": "depuis", "every": "chaque",
    },
    "nl": {
        "the": "de", "a": "een", "an": "een", "of": "van", "and": "en", "is": "is", "in": "in",
        "with": "met", "to": "naar", "for": "voor", "on": "op", "about": "ongeveer", "roughly": "ongeveer",
        "how": "hoe", "much": "veel", "memory": "geheugen", "model": "model", "which": "welke",
        "statement": "bewering", "correct": "juist", "right": "juist", "this": "dit",
        "weights": "gewichten", "parameters": "parameters", "bytes": "bytes", "billion": "miljard",
        "per": "per", "takes": "kost", "take": "kosten", "operations": "bewerkingen", "each": "elke",
        "time": "tijd", "token": "token", "only": "alleen", "not": "niet", "more": "meer",
        "that": "dat", "it": "het", "at": "bij", "by": "door", "from": "uit", "every": "elke",
    },
}
FR_UNITS = {"GB": "Go", "TB": "To", "MB": "Mo", "KB": "Ko", "GB/s": "Go/s", "TB/s": "To/s", "bytes": "octets", "byte": "octet"}
_ACCENT = {"fr": str.maketrans({"a": "à", "e": "é", "i": "î", "o": "ô", "u": "û"})}
_PROTECTED_CACHE: set[str] | None = None


def _protected() -> set[str]:
    """Unit words a translation must keep (``ms``, ``s``, ``bits``…): from the package's table."""
    global _PROTECTED_CACHE
    if _PROTECTED_CACHE is None:
        try:
            from aistack_bank.rules.quantities import UNITS
            _PROTECTED_CACHE = set(UNITS)
        except ImportError:  # the generator also works without the package importable
            _PROTECTED_CACHE = set()
        _PROTECTED_CACHE |= {"s", "ms", "us", "ns", "min", "h", "W", "bits", "bit", "bytes", "byte", "o"}
    return _PROTECTED_CACHE


_TOKEN = re.compile(
    r"(?P<keep>\{[^{}\s]*\}|</?[A-Za-z][^<>]*>|%(?:\([a-z_]+\))?[sd])"
    r"|(?P<num>(?<![\w.,])\d+(?:\.\d+)?(?![\d]))(?P<unit>[ ](?:GB/s|TB/s|GB|TB|MB|KB|bytes|byte)(?![\w/]))?"
    r"|(?P<word>(?<![\w])[A-Za-z][a-z]*(?![\w]))"
)


def _number(token: str, lang: str) -> str:
    whole, _, frac = token.partition(".")
    if len(whole) >= 4:
        sep = "\u202f" if lang == "fr" else "."
        groups = []
        while len(whole) > 3:
            groups.insert(0, whole[-3:])
            whole = whole[:-3]
        whole = sep.join([whole] + groups)
    return whole + ("," + frac if frac else "")


def _word(word: str, lang: str) -> str:
    if word in _protected():
        return word
    lower = word.lower()
    table = WORDS[lang]
    if lower in table:
        out = table[lower]
    elif len(lower) <= 2:
        out = lower
    elif lang == "fr":
        i = next((k for k, c in enumerate(lower) if c in "aeiou"), None)
        out = lower if i is None else lower[:i] + lower[i].translate(_ACCENT["fr"]) + lower[i + 1:]
    else:  # nl: double the first vowel
        i = next((k for k, c in enumerate(lower) if c in "aeiou"), None)
        out = lower if i is None else lower[:i + 1] + lower[i] + lower[i + 1:]
    return out[:1].upper() + out[1:] if word[:1].isupper() else out


def pseudo_translate(text: str, lang: str) -> str:
    """A deterministic stand-in translation that keeps every number, unit and formula.

    Words are replaced (a few by a small dictionary, the rest by an accent or a doubled vowel);
    acronyms, formula tokens and units are kept; numbers take the language's decimal comma and
    thousands separator; French writes ``Go``/``To`` with a no-break space.

    >>> pseudo_translate("About 3.5 GB at 2000 GB/s", "fr")
    'Environ 3,5\\xa0Go à 2\\u202f000\\xa0Go/s'
    >>> pseudo_translate("About 3.5 GB in 2MNK operations", "nl")
    'Ongeveer 3,5 GB in 2MNK bewerkingen'
    >>> pseudo_translate("All {title} questions ({count}) in <b>bold</b> %s", "fr")
    'Àll {title} qûestions ({count}) dans <b>bôld</b> %s'
    """
    return _TOKEN.sub(_replacer(lang), text)


_REPLACERS: dict[str, Callable[[re.Match], str]] = {}


def _replacer(lang: str) -> Callable[[re.Match], str]:
    """The replacement of each token of :data:`_TOKEN` in ``lang`` (words translated once each)."""
    replace = _REPLACERS.get(lang)
    if replace is not None:
        return replace
    words: dict[str, str] = {}

    def replace(m: re.Match) -> str:
        word = m.group("word")
        if word is not None:
            out = words.get(word)
            if out is None:
                if len(words) > 1 << 20:
                    words.clear()
                out = words[word] = _word(word, lang)
            return out
        if m.group("keep") is not None:  # placeholders and markup stay as they are
            return m.group("keep")
        num = _number(m.group("num"), lang)
        unit = m.group("unit")
        if not unit:
            return num
        unit = unit.strip()
        if lang == "fr":
            return num + "\u00a0" + FR_UNITS.get(unit, unit)
        return num + " " + unit

    _REPLACERS[lang] = replace
    return replace


# --------------------------------------------------------------------------------------------
# Catalogs
# --------------------------------------------------------------------------------------------

# The notes for translators of each field, as `bank i18n update` writes them (``#.`` lines);
# tests/test_benchmark_smoke.py checks that `bank i18n update --compare` finds the generated
# catalogs current.
CATEGORY_NOTE = "Title of a category of topics."
TOPIC_NOTES = {"title": "Topic title.", "summary": "Topic summary shown under the title.",
               "key_point": "A key point of the topic, one paragraph."}
STEM_NOTE = "Question stem."
EXPLANATION_NOTE = "Explanation shown after answering."


def catalog_fields(questions: list[Question], lines: list[tuple[int, ...]], topics: int) -> Iterator[tuple[str, str, str, tuple[str, ...]]]:
    """(msgctxt, msgid, reference, notes) of every translatable text of the bank, in the
    order of its catalogs: the categories, then each topic's own texts and its questions'.
    ``lines[i]`` are the field lines of ``questions[i]`` (:func:`question_yaml`)."""
    from aistack_bank.i18n.fields import KEEP_NUMBERS

    n = len(questions)
    layout = topic_ids(topics)
    for index, category in enumerate(sorted({category for _, category in layout})):
        yield f"category.{category}.title", _category_title(category), f"bank/categories.yaml:{4 + 2 * index}", (CATEGORY_NOTE,)
    for index, (topic_id, category) in enumerate(layout):
        for name, text, line in topic_yaml([], topic_id, category, index + 1 if topics > 1 else 0)[1]:
            yield f"topic.{topic_id}.{name}", text, f"bank/{topic_id}/topic.yaml:{line}", (TOPIC_NOTES[name.split(".")[0]],)
        for i in range(index * n // topics, (index + 1) * n // topics):
            q = questions[i]
            at = iter(lines[i])
            path = f"bank/{topic_id}/questions/{q.id}-{q.slug}.yaml:"
            base = (q.translator_note,) if q.translator_note else ()
            checked = base + (KEEP_NUMBERS,) if q.check_script else base
            yield f"{q.id}.stem", q.stem, path + str(next(at)), (STEM_NOTE,) + checked
            for o in q.options:
                role = "the correct option" if o.id == q.correct else "a wrong option"
                yield f"{q.id}.option.{o.id}", o.text, path + str(next(at)), (f"Option {o.id} ({role}).",) + checked
                yield (f"{q.id}.option.{o.id}.feedback", o.feedback, path + str(next(at)),
                       (f"Feedback shown when option {o.id} ({role}) is chosen.",) + base)
            yield f"{q.id}.explanation", q.explanation, path + str(next(at)), (EXPLANATION_NOTE,) + checked


def write_catalog(path: Path, header: str, fields: Iterable[tuple[str, str, str, tuple[str, ...]]], lang: str | None) -> int:
    """Write the template (``lang`` None) or the ``lang`` catalog of ``fields`` after ``header``
    (its first block, as `bank i18n update` writes it), every msgstr the pseudo-translation of
    its msgid, laid out as :func:`aistack_bank.i18n.catalog.render_catalog` lays it out.
    Returns the number of entries."""
    from functools import partial

    from aistack_bank.i18n.pofile import WRAP_WIDTH
    from aistack_bank.i18n.powrap import wrap as lay_out
    from aistack_bank.i18n.typography import fix_typography

    wrap = partial(lay_out, prefix="", page_width=WRAP_WIDTH)
    count = 0
    with path.open("w", encoding="utf-8", newline="\n") as f:
        f.write(header)
        blocks: list[str] = []
        for msgctxt, msgid, reference, notes in fields:
            lines = [f"#. {note}" for note in notes]
            lines.append(f"#: {reference}")
            lines += wrap("msgctxt", msgctxt)
            lines += wrap("msgid", msgid)
            if lang is None:
                lines.append('msgstr ""')
            else:
                msgstr = pseudo_translate(msgid, lang)
                lines += wrap("msgstr", fix_typography(msgstr) if lang == "fr" else msgstr)
            blocks.append("\n".join(lines))
            count += 1
            if len(blocks) >= 4096:
                f.write("\n\n" + "\n\n".join(blocks))
                blocks.clear()
        if blocks:
            f.write("\n\n" + "\n\n".join(blocks))
        f.write("\n")
    return count


# --------------------------------------------------------------------------------------------
# Project
# --------------------------------------------------------------------------------------------


def bank_command() -> list[str]:
    """The `bank` console script of this interpreter (no pyenv shim), or `python -m aistack_bank`."""
    candidate = Path(sys.executable).parent / "bank"
    if candidate.is_file():
        return [str(candidate)]
    found = shutil.which("bank")
    if found:
        return [found]
    return [sys.executable, "-m", "aistack_bank"]


def fill_catalog(path: Path, lang: str) -> int:
    """Give every active entry of ``path`` its pseudo-translation; return how many were filled."""
    import polib

    from aistack_bank.i18n.catalog import WRAP_WIDTH, render_catalog
    from aistack_bank.i18n.typography import fix_typography

    po = polib.pofile(str(path), wrapwidth=WRAP_WIDTH)
    count = 0
    for entry in po:
        if entry.obsolete:
            continue
        if entry.msgid_plural:
            forms = len(entry.msgstr_plural) or 2
            entry.msgstr_plural = {i: pseudo_translate(entry.msgid if i == 0 else entry.msgid_plural, lang) for i in range(forms)}
        else:
            entry.msgstr = pseudo_translate(entry.msgid, lang)
        if lang == "fr":  # the no-break spaces French typography (W520) asks for
            entry.msgstr = fix_typography(entry.msgstr)
            entry.msgstr_plural = {i: fix_typography(t) for i, t in entry.msgstr_plural.items()}
        entry.flags = [f for f in entry.flags if f != "fuzzy"]
        entry.previous_msgid = None
        count += 1
    po.metadata["PO-Revision-Date"] = "2026-01-01 00:00+0000"
    po.metadata["Last-Translator"] = "aistack-bank benchmark generator"
    path.write_bytes(render_catalog(po))
    return count


def generate_project(root: Path, n: int, seed: int = 0, topics: int = 1) -> Path:
    """Write a synthetic project of ``n`` questions in ``topics`` topics (English, French, Dutch) under ``root``.

    ``bank/``, ``translations/`` and ``exports/`` under ``root`` are replaced; nothing else in
    ``root`` is touched. Returns ``root``.

    The catalogs are what ``bank i18n update --lang fr --lang nl`` would write for this bank,
    filled by :func:`fill_catalog`, but written straight from the questions
    (:func:`write_catalog`): their headers and the practice site's catalogs are taken from
    that command run on a one-question project (:func:`catalog_headers`).
    """
    if n < 1:
        raise ValueError("n must be at least 1")
    if not 1 <= topics <= n:
        raise ValueError("topics must be between 1 and n")
    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    for sub in ("bank", "translations", "exports", ".bank-cache"):
        if (root / sub).is_dir():
            shutil.rmtree(root / sub)
    questions = make_questions(n, seed, topics)
    lines = write_bank(root / "bank", questions, topics)
    headers, site = catalog_headers(seed)
    translations = root / "translations"
    for relative, data in site.items():
        (translations / relative).parent.mkdir(parents=True, exist_ok=True)
        (translations / relative).write_bytes(data)
    jobs = [(translations / "fr.po", headers["fr.po"], "fr"), (translations / "nl.po", headers["nl.po"], "nl"),
            (translations / "aistack.pot", headers["aistack.pot"], None)]
    _write_catalogs(jobs, (questions, lines, topics))
    return root


def write_bank(bank: Path, questions: list[Question], topics: int) -> list[tuple[int, ...]]:
    """Write ``bank/`` (categories, topics, question files); return each question's field lines."""
    n = len(questions)
    bank.mkdir(parents=True)
    (bank / "categories.yaml").write_text(render_categories(topics), encoding="utf-8")
    lines = []
    for index, (topic_id, category) in enumerate(topic_ids(topics)):
        part = questions[index * n // topics:(index + 1) * n // topics]
        folder = bank / topic_id / "questions"
        folder.mkdir(parents=True)
        (folder.parent / "topic.yaml").write_text(render_topic(part, topic_id, category, index + 1 if topics > 1 else 0), encoding="utf-8")
        for q in part:
            text, at = question_yaml(q)
            (folder / f"{q.id}-{q.slug}.yaml").write_bytes(text.encode("utf-8"))
            lines.append(at)
    return lines


def catalog_headers(seed: int = 0) -> tuple[dict[str, str], dict[Path, bytes]]:
    """The first block of ``aistack.pot``, ``fr.po`` and ``nl.po``, and every file of
    ``translations/site/`` (the practice site's catalogs, filled), as
    ``bank i18n update --lang fr --lang nl`` and :func:`fill_catalog` write them in a project of
    one question (none of them depends on the bank's questions)."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="bench-headers-") as tmp:
        root = Path(tmp)
        write_bank(root / "bank", make_questions(1, seed), 1)
        translations = root / "translations"
        translations.mkdir()
        subprocess.run([*bank_command(), "i18n", "update", "--lang", "fr", "--lang", "nl"], cwd=root, check=True,
                       stdout=subprocess.DEVNULL)
        for path in sorted(translations.rglob("*.po")):
            fill_catalog(path, path.stem)
        headers = {}
        for name in ("aistack.pot", "fr.po", "nl.po"):
            head = (translations / name).read_text(encoding="utf-8").split("\n\n", 1)[0]
            if 'msgid ""' not in head or "msgctxt" in head:
                raise RuntimeError(f"unexpected first block in {name}: {head[:200]!r}")
            headers[name] = head
        site = {path.relative_to(translations): path.read_bytes()
                for path in sorted(translations.rglob("*")) if path.is_file() and path.parent != translations}
    return headers, site


_BANK: tuple | None = None
"""(questions, field lines, topics) for the catalog workers (inherited through ``fork``)."""


def _write_one(path: Path, header: str, lang: str | None) -> int:
    questions, lines, topics = _BANK
    return write_catalog(path, header, catalog_fields(questions, lines, topics), lang)


def _write_catalogs(jobs: list[tuple[Path, str, str | None]], bank: tuple) -> None:
    """Write the catalogs, two at a time where ``fork`` is available (they are independent)."""
    import multiprocessing as mp

    global _BANK
    _BANK = bank
    try:
        if "fork" in mp.get_all_start_methods():
            with mp.get_context("fork").Pool(2) as pool:
                pool.starmap(_write_one, jobs, chunksize=1)
        else:
            for job in jobs:
                _write_one(*job)
    finally:
        _BANK = None


RESPONSES = 1_000_000
"""Responses in the results file that `bank analyze` is timed on."""


def write_responses(project: Path, out: Path, count: int = RESPONSES, seed: int = 0) -> Path:
    """A Moodle quiz Responses report of ``count`` finished attempts of one question each (one
    `Response 1` column, one response per row: as many learners as responses, the worst case for
    what `bank analyze` keeps per learner), the options chosen at random by their English text.
    The question is the scored one with lettered options whose English options are nearest 24
    characters long on average (about 12 MB for the bundled bank). Written once: an existing
    ``out`` is kept."""
    if out.is_file():
        return out
    import csv

    from aistack_bank.analyze.bankinfo import load_bank_info

    info, problems = load_bank_info(project / "bank", project / "translations")
    if info is None:
        raise SystemExit(f"cannot read the bank of {project}: {problems[:3]}")
    item = min((i for i in info.items.values() if i.scored and i.options),
               key=lambda i: abs(24 - sum(len(i.option_texts["en"][o]) for o in i.options) / len(i.options)))
    texts = [item.option_texts["en"][o] for o in item.options]
    rng = random.Random(seed)
    out.parent.mkdir(parents=True, exist_ok=True)
    partial = out.with_name(out.name + ".partial")
    with partial.open("w", encoding="utf-8", newline="") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(["Response 1"])
        for start in range(0, count, 10_000):
            writer.writerows([rng.choice(texts)] for _ in range(min(10_000, count - start)))
    partial.replace(out)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Write a synthetic aistack-bank project for benchmarks.")
    parser.add_argument("out", type=Path, help="project folder to (re)create bank/ and translations/ in")
    parser.add_argument("-n", type=int, default=1000, help="number of questions (default 1000)")
    parser.add_argument("--topics", type=int, default=1, help="number of topics, ten per category (default 1)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument("--validate", action="store_true", help="run `bank validate` and `bank i18n status --fail-under 100` afterwards")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    root = generate_project(args.out, args.n, args.seed, args.topics)
    print(f"wrote {args.n} questions in {args.topics} topic(s) to {root} in {time.perf_counter() - start:.1f} s")
    if args.validate:
        for cmd in (["validate"], ["i18n", "status", "--fail-under", "100"]):
            result = subprocess.run([*bank_command(), *cmd], cwd=root)
            if result.returncode:
                return result.returncode
    return 0


if __name__ == "__main__":
    sys.exit(main())
