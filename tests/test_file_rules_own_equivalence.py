"""``question_file_rules`` runs a file's own rules (``validate._own_rules``) with its topic's tags
kept as a set for the latest topic (``validate._vocabulary``), without a topic source made per
file: the same diagnostics as ``question_rules`` of a topic holding that one file, as before.

Compared on every question file of the bundled bank and ``examples/every-kind``, as they are
and copied with faults put in (a file name without a slug, another id's name, no explanation,
tags outside the vocabulary, an option id used twice, two options with the same text), with
their topic, another topic with other tags given in between, and no topic. It fails with the
tags' set kept for a topic other than the one given."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import yaml

from aistack_bank.load import BankSource, read_bank, read_question
from aistack_bank.rules import validate
from aistack_bank.rules.validate import question_file_rules, question_rules

ROOT = Path(__file__).resolve().parent.parent


def _before(qs, root, topic):
    return question_rules(BankSource(root=root, topic=topic, questions=[qs]))


def _own(diagnostics):
    own = {"E301", "E309", "E310", "W310", "E303", "E304", "E305"}
    return [d for d in diagnostics if d.code in own or d.code.startswith("E3")]


def _faulty(path: Path, folder: Path, rng: random.Random) -> Path:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    name = path.name
    roll = rng.randrange(6)
    if roll == 0:
        name = "NoSlug.yaml"
    elif roll == 1:
        name = "q99999-" + name.split("-", 1)[-1]
    elif roll == 2:
        data.pop("explanation", None)
    elif roll == 3:
        data["tags"] = list(data.get("tags") or []) + ["not-a-tag", "zz-other"]
    elif roll == 4 and isinstance(data.get("options"), list) and len(data["options"]) > 1 and isinstance(data["options"][0], dict):
        data["options"][1]["id"] = data["options"][0].get("id")
    elif isinstance(data.get("options"), list) and len(data["options"]) > 1 and isinstance(data["options"][0], dict):
        data["options"][1]["text"] = data["options"][0].get("text")
    target = folder / name
    target.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return target


def test_every_file_of_both_banks_as_is_and_with_faults(tmp_path):
    rng = random.Random(5)
    topics = sorted(ROOT.glob("bank/*/topic.yaml")) + sorted(ROOT.glob("examples/every-kind/bank/*/topic.yaml"))
    assert len(topics) >= 2
    read = [read_bank(path.parent, files=[]) for path in topics]
    count = codes = 0
    for index, path in enumerate(topics):
        root, topic = path.parent, read[index].topic
        other = read[(index + 1) % len(read)].topic
        copy = tmp_path / f"t{index}" / root.name
        (copy / "questions").mkdir(parents=True)
        shutil.copy(path, copy / "topic.yaml")
        files = sorted((root / "questions").glob("*.yaml"))
        cases = [(file, root) for file in files] + [(_faulty(file, copy / "questions", rng), copy) for file in files]
        for file, where in cases:
            for given in (topic, other, None, topic):
                qs, _ = read_question(file, root=where)
                if qs.question is None:
                    continue
                expected = _before(qs, where, given)
                qs2, _ = read_question(file, root=where)
                found = _own(question_file_rules(qs2, where, given, False))
                assert found == _own(expected) == [d for d in expected], (file, [d.code for d in found], [d.code for d in expected])
                count += 1
                codes += len(found)
    assert count > 400 and codes > 50


def test_the_vocabulary_follows_the_topic_given():
    topics = sorted(ROOT.glob("bank/*/topic.yaml")) + sorted(ROOT.glob("examples/every-kind/bank/*/topic.yaml"))
    first, second = (read_bank(path.parent, files=[]).topic for path in topics[:2])
    for topic in (first, second, first, None, second, second):
        assert validate._vocabulary(topic) == (None if topic is None else set(topic.tags))
