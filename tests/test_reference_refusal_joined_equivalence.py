"""W320/W321 of a question file (``lints.question_reference_lints``) refuse its texts once for
the question (``_may_refer_of``: the texts joined by line breaks, cleaned and lowered once, each
word looked for where it is), not once per text.

Compared with the refusal before, kept here (each text cleaned, lowered and refused on its own,
as ``reference_hits`` does first), on 40 000 random lists of texts built of the words looked
for in every case, "q" before and after digits, line breaks, non-breaking spaces and the
characters whose lowering is odd (dotted and dotless i, long s, capital sigma, the Kelvin sign);
and the diagnostics of ``question_reference_lints`` with the loop before on every question file
of the bundled bank and ``examples/every-kind``, and on variants of them with a reference put in
a random text. It fails when a text's start is counted without its line break."""

from __future__ import annotations

import random
from pathlib import Path

from aistack_bank.rules import lints
from aistack_bank.rules.lints import _clean, _folded, _may_refer_folded, _may_refer_of, question_reference_lints, reference_hits
from aistack_bank.errors import warning

ROOT = Path(__file__).resolve().parent.parent


def may_refer_of_before(texts):
    return [item for item in texts if _may_refer_folded(_folded(_clean(item[1])), "en")]


def question_reference_lints_before(question, doc, fields):
    diags = []
    for path, text in lints._leak_texts(fields):
        for hit in reference_hits(text, "en", own_id=question.id, options=question.PICKS_OPTIONS):
            diags.append(warning(hit.code, f"{question.id}: {hit.message}", lints._scalar_offset_location(doc, path, hit.offset)))
    return diags


PIECES = ["option", "Option", "OPTION", "opt", "ion", "answer", "Answers", "choice", "CHOICE", "alternative", "above", "Below", "question", "Question",
          "q", "Q", "q1", "Q12", "q003", "1", "42", " ", " ", "\u00a0", "\u202f", "\n", "\n\n", "a", "b", "(c)", ",", ".", "the first", "İ", "ı", "ſ",
          "Σ", "ΑΣ", "\u212a", "ß", "é", "x", "zzz", "Opt\u0130on", "quest\u0131on", "an", "swer"]


def _text(rng: random.Random) -> str:
    return "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 8)))


def test_random_lists_of_texts():
    rng = random.Random(20261203)
    for _ in range(40_000):
        texts = [((f"t{i}",), _text(rng)) for i in range(rng.randint(0, 7))]
        assert _may_refer_of(texts) == may_refer_of_before(texts), texts


def _question_files():
    from aistack_bank.i18n.fields import question_fields
    from aistack_bank.load import read_question

    for path in sorted(ROOT.glob("bank/*/questions/*.yaml")) + sorted(ROOT.glob("examples/every-kind/bank/*/questions/*.yaml")):
        qs, _ = read_question(path, root=path.parent.parent)
        if qs.question is not None and qs.doc is not None:
            yield qs, question_fields(qs.question, qs.doc, qs.path)


def test_every_question_file_of_both_banks_and_variants_with_a_reference():
    rng = random.Random(33)
    files = found = 0
    for qs, fields in _question_files():
        files += 1
        got = question_reference_lints(qs.question, qs.doc, fields)
        assert got == question_reference_lints_before(qs.question, qs.doc, fields), qs.path
        found += len(got)
        # the same fields with a reference put in one of them (the text alone: its line stays)
        index = rng.randrange(len(fields))
        field = fields[index]
        text = rng.choice(["See option b.", "As in question 3, ", "The first option is wrong: ", "q0042 says "]) + field.text
        changed = list(fields)
        changed[index] = type(field)(field.key, text, field.path, field.line, field.notes, field.question_id, field.key_bearing, field.loc)
        got = question_reference_lints(qs.question, qs.doc, changed)
        assert got == question_reference_lints_before(qs.question, qs.doc, changed), (qs.path, text)
        found += len(got)
    assert files > 50 and found > 50
