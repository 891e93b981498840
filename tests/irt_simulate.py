"""Synthetic learners for item analysis: responses from a two-parameter logistic (2PL) IRT model.

Every simulated learner has an ability θ ~ N(0, 1) and answers every question of the bank in one
language. Question i is answered right with probability 1 / (1 + exp(-a_i (θ - b_i))); a wrong
answer picks one of the wrong options at random. Four defects are planted, each in a question
drawn (seeded) from the bank:

- ``miskey``: the learners' right answer is another option than the bank's key (in every language);
- ``dead``: one distractor is never chosen;
- ``negative``: a < 0, so stronger learners get it wrong more often;
- ``french``: much harder in French only (b raised by 1.3).

Writers turn the responses into each results format (Moodle Responses CSV, QTI assessmentResult
2.1/3.0, the practice site's answers file). Run as a script to write the small fixtures:
``python3 tests/irt_simulate.py --fixtures tests/data/analyze``.
"""

from __future__ import annotations

import csv
import io
import json
import math
import random
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


@dataclass
class Simulation:
    languages: tuple[str, ...]
    questions: list[str]
    keys: dict[str, str]
    options: dict[str, tuple[str, ...]]
    planted: dict[str, str]
    dead_option: str
    # language -> one dict per learner: question -> chosen option id
    responses: dict[str, list[dict[str, str]]] = field(default_factory=dict)


def bank_info(repo: Path = REPO):
    from aistack_bank.analyze.bankinfo import load_bank_info

    info, diags = load_bank_info(repo / "bank", repo / "translations")
    assert info is not None, diags
    return info


def simulate(info, *, persons: int = 400, languages: tuple[str, ...] = ("en", "fr", "nl"), seed: int = 20261130) -> Simulation:
    rng = random.Random(seed)
    qids = list(info.items)
    chosen = rng.sample(qids, 4)
    planted = dict(zip(("miskey", "dead", "negative", "french"), chosen))
    a = {q: rng.uniform(0.9, 2.0) for q in qids}
    b = {q: rng.uniform(-0.8, 0.8) for q in qids}
    a[planted["miskey"]], b[planted["miskey"]] = 1.5, -0.3
    a[planted["negative"]], b[planted["negative"]] = -0.7, 1.5
    a[planted["french"]], b[planted["french"]] = 1.4, -0.5
    keys = {q: info.items[q].key for q in qids}
    options = {q: info.items[q].options for q in qids}
    true_key = dict(keys)
    mk = planted["miskey"]
    true_key[mk] = next(o for o in options[mk] if o != keys[mk])
    dq = planted["dead"]
    dead_option = next(o for o in reversed(options[dq]) if o != keys[dq])
    sim = Simulation(tuple(languages), qids, keys, options, planted, dead_option)
    for lang in languages:
        people = []
        for _ in range(persons):
            theta = rng.gauss(0.0, 1.0)
            answers = {}
            for q in qids:
                bq = b[q] + (1.3 if lang == "fr" and q == planted["french"] else 0.0)
                p = 1.0 / (1.0 + math.exp(-a[q] * (theta - bq)))
                if rng.random() < p:
                    answers[q] = true_key[q]
                else:
                    wrong = [o for o in options[q] if o != true_key[q] and not (q == dq and o == dead_option)]
                    answers[q] = rng.choice(wrong)
            people.append(answers)
        sim.responses[lang] = people
    return sim


# --- writers ------------------------------------------------------------------------------------

MOODLE_FIXED = ["Last name", "First name", "Email address", "Status", "Started", "Completed", "Duration", "Grade/100.00"]


def moodle_csv(info, lang: str, people: list[dict[str, str | None]], *, question_text: bool = False, seed: int = 7,
               bom: bool = True, extra_rows: list[list[str]] | None = None) -> bytes:
    """A Moodle 4.5 quiz Responses report: slots shuffled, options by their text in ``lang``."""
    qids = list(people[0]) if people else list(info.items)
    slots = qids[:]
    random.Random(seed).shuffle(slots)
    header = list(MOODLE_FIXED)
    for n in range(1, len(slots) + 1):
        if question_text:
            header.append(f"Question {n}")
        header.append(f"Response {n}")
        if question_text:
            header.append(f"Right answer {n}")
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    for i, answers in enumerate(people):
        right = sum(answers.get(q) == info.items[q].key for q in slots)
        row = [f"Learner{i:04d}", "Sim", f"learner{i:04d}@example.org", "Finished", "30 November 2026  5:00 PM",
               "30 November 2026  5:20 PM", "20 mins", f"{100 * right / len(slots):.2f}"]
        for q in slots:
            texts = info.items[q].option_texts[lang]
            if question_text:
                row.append(info.items[q].stems[lang] + "   : " + "   ; ".join(texts[o] for o in info.items[q].options))
            choice = answers.get(q)
            row.append("-" if choice is None else texts[choice])
            if question_text:
                row.append(texts[info.items[q].key])
        w.writerow(row)
    for extra in extra_rows or []:
        w.writerow(extra)
    data = buf.getvalue().encode("utf-8")
    return (b"\xef\xbb\xbf" + data) if bom else data


def site_answers(info, lang: str, answers: dict[str, str], learner: str) -> bytes:
    """The practice site's "Export my answers" file for one learner."""
    records = []
    for i, (q, choice) in enumerate(answers.items()):
        records.append({"question": q, "language": lang, "choice": choice, "correct": choice == info.items[q].key,
                        "answered_at": f"2026-11-30T17:{i // 60:02d}:{i % 60:02d}Z", "attempt": f"run-{learner}"})
    doc = {"format": "aistack-bank-practice-answers", "version": 1, "bank": info.topic_id,
           "exported_at": "2026-11-30T18:00:00Z", "learner": learner, "answers": records}
    return (json.dumps(doc, ensure_ascii=False, indent=1) + "\n").encode("utf-8")


def qti_result(info, answers: dict[str, str | None], learner: str, *, version: str = "2.1", lang_suffix: str | None = None) -> bytes:
    """An assessmentResult (QTI 2.1 or 3.0) of one candidate; item ids optionally with ``-<lang>``."""
    ns = {"2.1": "http://www.imsglobal.org/xsd/imsqti_result_v2p1", "3.0": "http://www.imsglobal.org/xsd/imsqti_result_v3p0"}[version]
    out = ['<?xml version="1.0" encoding="UTF-8"?>', f'<assessmentResult xmlns="{ns}">',
           f'  <context sourcedId="{learner}"/>',
           '  <testResult identifier="ai-hardware-software-stack" datestamp="2026-11-30T17:00:00Z">',
           '    <outcomeVariable identifier="SCORE" cardinality="single" baseType="float"><value>0</value></outcomeVariable>',
           "  </testResult>"]
    for n, (q, choice) in enumerate(answers.items(), 1):
        ident = f"{q}-{lang_suffix}" if lang_suffix else q
        out.append(f'  <itemResult identifier="{ident}" sequenceIndex="{n}" datestamp="2026-11-30T17:00:00Z" sessionStatus="final">')
        out.append('    <responseVariable identifier="RESPONSE" cardinality="single" baseType="identifier">')
        out.append(f'      <correctResponse><value>choice_{info.items[q].key}</value></correctResponse>')
        out.append("      <candidateResponse>" + (f"<value>choice_{choice}</value>" if choice else "") + "</candidateResponse>")
        out.append("    </responseVariable>")
        out.append("  </itemResult>")
    out.append("</assessmentResult>")
    return ("\n".join(out) + "\n").encode("utf-8")


def write_fixtures(folder: Path) -> None:
    """The small committed fixtures of tests/data/analyze (6 learners, the first 8 questions)."""
    info = bank_info()
    sim = simulate(info, persons=6, seed=5)
    first = list(info.items)[:8]
    folder.mkdir(parents=True, exist_ok=True)

    def cut(people):
        return [{q: p[q] for q in first} for p in people]

    fr = cut(sim.responses["fr"])
    fr[1][first[2]] = None  # one unanswered question
    (folder / "moodle-responses-fr.csv").write_bytes(moodle_csv(info, "fr", fr, question_text=True))
    (folder / "moodle-responses-en.csv").write_bytes(moodle_csv(info, "en", cut(sim.responses["en"]), seed=3,
                                                                extra_rows=[["Learner9", "Sim", "x@example.org", "In progress", "", "-", "", "-"] + ["-"] * 8]))
    (folder / "qti21-result-nl.xml").write_bytes(qti_result(info, cut(sim.responses["nl"])[0], "nl-learner-0", version="2.1", lang_suffix="nl"))
    (folder / "qti30-result.xml").write_bytes(qti_result(info, cut(sim.responses["en"])[1], "en-learner-1", version="3.0"))
    (folder / "site-answers.json").write_bytes(site_answers(info, "nl", cut(sim.responses["nl"])[2], "b7f3c2e0-site"))


if __name__ == "__main__":
    import sys

    sys.path.insert(0, str(REPO))
    if sys.argv[1:2] == ["--fixtures"]:
        write_fixtures(Path(sys.argv[2]))
