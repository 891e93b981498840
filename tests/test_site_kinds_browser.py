"""Every question kind on the practice site, in Chromium from file://, answered by keyboard only.

A small bank with one question of each kind (tests/test_kinds_model.py's EXAMPLES), in English
and in French (the French built through the same localization as a catalog, with the site's own
French interface catalog), is written to a temporary folder. Each kind is answered right, partly
right and wrong with the keyboard, and the verdict and feedback on screen are checked; the French
page reads a decimal comma. The scoring functions of the page are checked against the shared
semantics, axe-core checks a page with every kind, and answers stored for a question whose kind
changed do not break the page.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from aistack_bank.i18n.fields import question_fields
from aistack_bank.i18n.localize import localize_question
from aistack_bank.exporters import FORMATS
from aistack_bank.kinds import REGISTRY
from aistack_bank.model import Bank, Topic
from banklayout import category

from sitebrowser import browser, session  # noqa: F401  (fixtures)
from sitebrowser import DESKTOP, Session, active_id, axe_check, focus_is_visible, load_options, needs_chromium, squash, tab_to, text, ui, write_site
from test_kinds_model import EXAMPLES, question

pytestmark = needs_chromium

SHOWN = [kind for kind in EXAMPLES if kind in FORMATS["html"].writers]
"""The kinds the practice site shows (the others are left out with a warning)."""
SCORED = [kind for kind in SHOWN if REGISTRY[kind].model.SCORED]
"""The kinds whose answers count in a run's score (an essay is read by its writer, never scored)."""

FRENCH = {
    "q001.stem": "Choisissez un.", "q001.option.a": "Un", "q001.option.b": "Deux", "q001.option.b.feedback": "Non.",
    "q002.option.a": "Un", "q002.option.b": "Deux", "q002.option.c": "Trois",
    "q003.feedback.true": "Ce n'est pas le cas.", "q003.feedback.false": "Exact.",
    "q004.unit.u1": "Go", "q004.unit.u2": "Mo", "q004.near_miss.n1.feedback": "C'est la taille en FP32.",
    "q005.answer.a1": "ONNX\nformat ONNX", "q005.answer.a1.feedback": "Oui.",
    "q006.pair.a.answer": "2 octets", "q006.pair.b.answer": "4 octets", "q006.distractor.c": "3 octets",
}


def kinds_bank() -> Bank:
    qs = tuple(question(kind).model_copy(update={"id": f"q{i:03d}"}) for i, kind in enumerate(SHOWN, 1))
    topic = Topic(id="every-kind", category="tests", title="Every kind", summary="One question of each kind.", tags={"memory": "Memory."},
                  questions=[q.id for q in qs])
    return Bank(topic=topic, questions=qs, category=category(), lang="en")


def french(bank: Bank) -> Bank:
    out = []
    for q in bank.questions:
        keys = {f.key for f in question_fields(q, None, Path())}
        texts = {key: value for key, value in FRENCH.items() if key in keys}
        problems: list = []
        out.append(localize_question(q, texts, problems))
        assert not problems
    return bank.model_copy(update={"questions": tuple(out), "lang": "fr"})


@pytest.fixture(scope="module")
def options():
    return load_options()


@pytest.fixture(scope="module")
def site(tmp_path_factory, options):
    en = kinds_bank()
    return write_site(tmp_path_factory.mktemp("kinds-site"), {"en": en, "fr": french(en)}, options)


@pytest.fixture
def desktop(session):
    """The kept desktop page of this test process, reset (sitebrowser.session)."""
    return session(**DESKTOP)


def open_page(s: Session, site, lang: str = "en"):
    s.page.goto((site / lang / "index.html").as_uri())
    return s.page


def page_questions(page) -> dict:
    return {q["id"]: q for q in page.evaluate("JSON.parse(document.getElementById('bank-data').textContent).questions")}


def start_all(page) -> None:
    tab_to(page, "practice-all")
    page.keyboard.press("Enter")


def on_screen(page) -> str:
    return page.locator("#question").get_attribute("data-qid")


def type_text(page, value: str) -> None:
    assert page.evaluate("document.activeElement.id") == "answer-input"
    page.keyboard.press("Control+A")
    page.keyboard.type(value)


def choose_in_select(page, wanted: str) -> None:
    """Pick the option whose text is ``wanted`` in the focused <select>, with arrow keys only."""
    texts = page.evaluate("Array.from(document.activeElement.options, o => o.text)")
    at = page.evaluate("document.activeElement.selectedIndex")
    target = texts.index(wanted)
    for _ in range(abs(target - at)):
        page.keyboard.press("ArrowDown" if target > at else "ArrowUp")
    assert page.evaluate("document.activeElement.selectedIndex") == target


# How each kind is answered, by keyboard only, for each outcome: a function of (page, question).

def _single(position_of):
    def answer(page, q):
        ids = page.locator("#options .option").evaluate_all("els => els.map(e => e.dataset.option)")
        tab_to_options(page)
        page.keyboard.press("abcdef"[ids.index(position_of(q))])
    return answer


def tab_to_options(page):
    for _ in range(10):
        if page.evaluate("!!document.activeElement.closest('#options')"):
            return
        page.keyboard.press("Tab")
    raise AssertionError("the options cannot be reached with the keyboard")


def tick(ids_to_tick, *, with_button: bool = False):
    def answer(page, q):
        wanted = ids_to_tick(q)
        labels = page.locator("#response .choice").evaluate_all("els => els.map(e => e.dataset.option)")
        for i, option in enumerate(labels):
            assert page.evaluate("document.activeElement.type") == "checkbox"
            assert focus_is_visible(page)
            if option in wanted:
                page.keyboard.press("Space")
            if i + 1 < len(labels):
                page.keyboard.press("Tab")
        if with_button:  # the Check button, reached with Tab
            tab_to(page, "check", limit=5)
            assert focus_is_visible(page)
        page.keyboard.press("Enter")
    return answer


def truth(value: bool):
    def answer(page, q):
        assert page.evaluate("document.activeElement.type") == "radio" and focus_is_visible(page)
        page.keyboard.press("ArrowDown" if not value else "Space")  # the first radio is True
        assert page.evaluate("document.activeElement.value") == str(value).lower()
        page.keyboard.press("Enter")
    return answer


def typed(value: str, unit: str | None = None):
    def answer(page, q):
        assert focus_is_visible(page)
        type_text(page, value)
        if unit is not None:
            page.keyboard.press("Tab")
            assert active_id(page) == "answer-unit"
            choose_in_select(page, unit)
            page.keyboard.press("Shift+Tab")
        page.keyboard.press("Enter")
    return answer


def matched(answer_of):
    def answer(page, q):
        for i, pair in enumerate(q["pairs"]):
            assert active_id(page) == f"match-{i}" and focus_is_visible(page)
            assert page.get_by_role("combobox", name=pair["prompt"], exact=True).get_attribute("id") == f"match-{i}"  # labelled by its prompt
            choose_in_select(page, answer_of(q, pair))
            if i + 1 < len(q["pairs"]):
                page.keyboard.press("Tab")
        page.keyboard.press("Enter")
    return answer


def order_rows(page) -> list[str]:
    return page.locator("#order-list > li").evaluate_all("els => els.map(e => e.dataset.item)")


def ordered(order_of):
    """Move the items into ``order_of(q)`` with their Move-up buttons (Tab to a button, Enter to
    move it; the button keeps the focus), then Tab to Check."""
    def answer(page, q):
        wanted = order_of(q)
        assert active_id(page).startswith("order-up-") and focus_is_visible(page)  # the first item's first button
        for position, item in enumerate(wanted):
            steps = order_rows(page).index(item) - position
            if steps:
                tab_to(page, f"order-up-{item}", limit=4 * len(wanted))
                for _ in range(steps):
                    page.keyboard.press("Enter")
                    assert active_id(page) == f"order-up-{item}" and focus_is_visible(page)
        assert order_rows(page) == wanted
        tab_to(page, "check", limit=4 * len(wanted))
        page.keyboard.press("Enter")
    return answer


def written(value: str, *, submit: str = "button", from_template: bool = True):
    """Type ``value`` in the essay's box (replacing its template; Enter starts a new line), then
    submit with the Submit button reached by Tab, or with Ctrl+Enter in the box."""
    def answer(page, q):
        assert active_id(page) == "answer-input" and focus_is_visible(page)
        if from_template:
            assert page.evaluate("document.activeElement.value") == (q["responseTemplate"] or "")
        page.keyboard.press("Control+A")
        for i, line in enumerate(value.split("\n")):
            if i:
                page.keyboard.press("Enter")
            page.keyboard.type(line)
        assert page.evaluate("document.activeElement.value") == value
        if submit == "button":
            tab_to(page, "check", limit=3)
            assert focus_is_visible(page)
            page.keyboard.press("Enter")
        else:
            page.keyboard.press("Control+Enter")
    return answer


ESSAY_TEXT = "Each token reads every weight once.\nSo decoding waits on memory."


def bare(value: str) -> str:
    """``value`` without the invisible isolates (FSI, PDI) the page puts around the values it fills in."""
    return squash(value.replace("\u2068", "").replace("\u2069", ""))


def verdict_of(page) -> str:
    return bare(text(page, "#verdict"))


def answer_every_question(page, plan: dict) -> dict[str, tuple[str, str]]:
    """Answer the run on screen as ``plan`` says (kind → how); each question's verdict and feedback."""
    questions = page_questions(page)
    seen = {}
    for _ in range(len(questions)):
        qid = on_screen(page)
        q = questions[qid]
        plan[q["kind"]](page, q)
        page.locator("#feedback").wait_for(state="visible")
        assert active_id(page) == "next" and focus_is_visible(page)
        seen[q["kind"]] = (verdict_of(page), bare(page.locator("#feedback").inner_text()))
        page.keyboard.press("Enter")
    return seen


RIGHT = {
    "single-choice": _single(lambda q: q["correct"]),
    "multiple-response": tick(lambda q: set(q["correct"])),
    "true-false": truth(False),
    "numerical": typed("14"),
    "short-answer": typed("onnx"),  # case-insensitive
    "matching": matched(lambda q, pair: pair["answer"]),
    "ordering": ordered(lambda q: [item["id"] for item in q["items"]]),
    "essay": written(ESSAY_TEXT),
}
PARTLY = {
    "multiple-response": tick(lambda q: {"a"}),  # one of two right options: 1/2
    "numerical": typed("28"),  # a near miss with no credit, and its feedback
    "short-answer": typed("ONNX runtime"),  # an answer with half the credit
    "matching": matched(lambda q, pair: q["pairs"][0]["answer"]),  # one pair of two right
}
WRONG = {
    "single-choice": _single(lambda q: next(o["id"] for o in q["options"] if o["id"] != q["correct"])),
    "multiple-response": tick(lambda q: {"a", "b"}, with_button=True),  # +1/2 −1/2 = 0
    "true-false": truth(True),
    "numerical": typed("1", unit="MB"),  # 0.001 GB
    "short-answer": typed("TFLite"),
    "matching": matched(lambda q, pair: "3 bytes"),
    "ordering": ordered(lambda q: [item["id"] for item in reversed(q["items"])]),
    "essay": written("I do not know.", submit="ctrl+enter"),
}


def test_every_kind_right_partly_and_wrong_by_keyboard(desktop, site, options):
    page = open_page(desktop, site)
    u = lambda key, **values: ui(options, "en", key, **values)  # noqa: E731

    start_all(page)
    right = answer_every_question(page, RIGHT)
    assert set(right) == set(SHOWN)
    for kind, (verdict, feedback) in right.items():
        assert verdict == ("✓ " + u("site.feedback.right") if kind in SCORED else "✎ " + u("site.essay.unscored")), (kind, verdict)
        assert "Because." in feedback, kind  # the explanation
    assert "Yes." in right["short-answer"][1]
    assert "Right." in right["true-false"][1]
    # The essay: what was written, line breaks kept, then the model answer and the explanation.
    essay = right["essay"][1]
    assert squash(ESSAY_TEXT) in essay
    assert essay.index(u("site.essay.model")) < essay.index("It reads every weight for each token.") < essay.index("Because.")
    assert page.locator("#results").is_visible()
    assert text(page, "#results-score") == u("site.result.score", score=len(SCORED), total=len(SCORED))
    assert bare(text(page, "#results-unscored")) == u("site.essay.results", count=1)

    tab_to(page, "results-back")
    page.keyboard.press("Enter")
    start_all(page)
    plan = dict(RIGHT, **PARTLY)
    partly = answer_every_question(page, plan)
    assert partly["multiple-response"][0].endswith(u("site.feedback.partial", percent=u("site.stats.accuracy.value", percent=50)))
    assert partly["short-answer"][0].endswith(u("site.feedback.partial", percent=u("site.stats.accuracy.value", percent=50)))
    assert partly["matching"][0].endswith(u("site.feedback.partial", percent=u("site.stats.accuracy.value", percent=50)))
    assert partly["numerical"][0].endswith(u("site.feedback.wrong"))
    assert "That is FP32." in partly["numerical"][1] and u("site.feedback.correct_answer") + " 14 GB" in partly["numerical"][1]
    assert u("site.num.range", low="13.3 GB", high="14.7 GB") in partly["numerical"][1]
    assert "4 bytes" in partly["matching"][1]  # the right answer of the wrong pair
    # Three wholes (single-choice, true-false, ordering), three halves and a near miss with no credit: 4.5 of 7.
    assert bare(text(page, "#results-score")) == u("site.result.score", score="4.5", total=len(SCORED))

    tab_to(page, "results-back")
    page.keyboard.press("Enter")
    start_all(page)
    wrong = answer_every_question(page, WRONG)
    for kind, (verdict, feedback) in wrong.items():
        assert verdict.endswith(u("site.feedback.wrong") if kind in SCORED else u("site.essay.unscored")), (kind, verdict)
    assert "It is not." in wrong["true-false"][1] and u("site.feedback.correct_answer") + " " + u("site.tf.false") in wrong["true-false"][1]
    assert "1 MB" in wrong["numerical"][1]
    assert "No." in wrong["single-choice"][1]
    assert "Shared memory" in wrong["ordering"][1]  # the right order, shown after a wrong one
    assert text(page, "#results-score") == u("site.result.score", score=0, total=len(SCORED))
    # The essay is not missed: "Retry the missed questions" offers the scored ones only.
    assert bare(text(page, "#retry-missed")) == u("site.result.retry", count=len(SCORED))
    desktop.check_clean()


def test_a_missing_or_unreadable_answer_is_refused_in_place(desktop, site, options):
    page = open_page(desktop, site)
    start_all(page)
    questions = page_questions(page)
    expected = {"multiple-response": "site.mr.empty", "true-false": "site.tf.empty", "numerical": "site.num.invalid",
                "short-answer": "site.short.empty", "matching": "site.match.empty", "essay": "site.essay.empty"}
    for _ in range(len(questions)):
        q = questions[on_screen(page)]
        if q["kind"] in expected:  # an ordering question always has an order to check
            focused = active_id(page)
            if q["kind"] == "numerical":
                page.keyboard.type("3,5")  # a comma is not a decimal point on an English page
            # An essay's box still holding its template is refused (Enter there starts a new line).
            page.keyboard.press("Control+Enter" if q["kind"] == "essay" else "Enter")
            assert not page.locator("#feedback").is_visible()
            assert bare(text(page, "#response-error")) == ui(options, "en", expected[q["kind"]], example="3.5"), q["kind"]
            assert page.get_attribute("#response-error", "role") == "alert"
            assert page.evaluate("document.activeElement.getAttribute('aria-invalid')") == "true"
            assert active_id(page) == focused or q["kind"] == "true-false"
        RIGHT[q["kind"]](page, q)
        page.locator("#feedback").wait_for(state="visible")
        assert text(page, "#response-error") == "" if q["kind"] != "single-choice" else True
        page.keyboard.press("Enter")
    desktop.check_clean()


def test_the_french_page_reads_a_decimal_comma_and_french_spellings(desktop, site, options):
    page = open_page(desktop, site, "fr")
    u = lambda key, **values: ui(options, "fr", key, **values)  # noqa: E731
    fr_right = dict(RIGHT)
    fr_right["numerical"] = typed("13,5")  # within 5 % of 14
    fr_right["short-answer"] = typed("Format ONNX")  # the translation's second spelling
    fr_right["matching"] = matched(lambda q, pair: pair["answer"])
    start_all(page)
    hint_seen = {}
    questions = page_questions(page)
    for _ in range(len(questions)):
        q = questions[on_screen(page)]
        if q["kind"] == "numerical":
            hint_seen["numerical"] = bare(text(page, "#response-hint"))
            assert [o.strip() for o in page.locator("#answer-unit option").all_inner_texts()] == ["Go", "Mo"]
        fr_right[q["kind"]](page, q)
        page.locator("#feedback").wait_for(state="visible")
        assert verdict_of(page).endswith(u("site.feedback.right" if q["kind"] in SCORED else "site.essay.unscored")), (q["kind"], verdict_of(page))
        if q["kind"] == "essay":
            assert u("site.essay.model") in page.locator("#feedback").inner_text()
            assert u("site.essay.submit") != ui(options, "en", "site.essay.submit")  # translated
        if q["kind"] == "numerical":
            assert u("site.feedback.your_answer") + " 13,5 Go" in bare(page.locator("#feedback").inner_text())
        if q["kind"] == "true-false":
            assert page.locator("#response .choice").all_inner_texts()[0].startswith(u("site.tf.true"))
        page.keyboard.press("Enter")
    assert "3,5" in hint_seen["numerical"]
    assert page.evaluate("aistackPractice.parseNumber('3,5')") == 3.5
    assert page.evaluate("aistackPractice.parseNumber('3.5')") == 3.5
    assert page.evaluate("aistackPractice.parseNumber('1 000,5')") == 1000.5
    assert page.evaluate("aistackPractice.parseNumber('3,5,1')") is None
    desktop.check_clean()


SCORES = [
    # multiple-response, partial: k right options, +1/k per right pick, −1/k per wrong pick, floored at 0
    ({"kind": "multiple-response", "correct": ["a", "b", "c"], "scoring": "partial"}, ["a"], 1 / 3),
    ({"kind": "multiple-response", "correct": ["a", "b", "c"], "scoring": "partial"}, ["a", "b", "d"], 1 / 3),
    ({"kind": "multiple-response", "correct": ["a", "b", "c"], "scoring": "partial"}, ["a", "b", "c", "d"], 2 / 3),
    ({"kind": "multiple-response", "correct": ["a", "b", "c"], "scoring": "partial"}, ["a", "d", "e"], 0),
    ({"kind": "multiple-response", "correct": ["a", "b", "c"], "scoring": "partial"}, ["c", "b", "a"], 1),
    ({"kind": "multiple-response", "correct": ["a", "b"], "scoring": "all-or-nothing"}, ["a"], 0),
    ({"kind": "multiple-response", "correct": ["a", "b"], "scoring": "all-or-nothing"}, ["a", "b", "c"], 0),
    ({"kind": "multiple-response", "correct": ["a", "b"], "scoring": "all-or-nothing"}, ["b", "a"], 1),
    ({"kind": "true-false", "answer": True}, True, 1),
    ({"kind": "true-false", "answer": True}, False, 0),
    # numerical: the response converted by its unit; the tolerance inclusive; a near miss's credit in its range
    ({"kind": "numerical", "answer": 14, "tolerance": 0.7, "units": [{"name": "GB", "multiplier": 1}, {"name": "MB", "multiplier": 0.001}], "nearMisses": []},
     {"value": 14700, "unit": 1}, 1),
    ({"kind": "numerical", "answer": 14, "tolerance": 0.7, "units": [{"name": "GB", "multiplier": 1}, {"name": "MB", "multiplier": 0.001}], "nearMisses": []},
     {"value": 14.71, "unit": 0}, 0),
    ({"kind": "numerical", "answer": 2, "tolerance": 0, "units": [], "nearMisses": [{"value": 4, "tolerance": 0.5, "credit": 0.5, "feedback": "x"}]},
     {"value": 4.4, "unit": 0}, 0.5),
    ({"kind": "numerical", "answer": 0.1, "tolerance": 0.2, "units": [], "nearMisses": []}, {"value": 0.3, "unit": 0}, 1),
    # short-answer: case-insensitive unless case_sensitive; the best credit among the matches
    ({"kind": "short-answer", "caseSensitive": False, "answers": [{"text": "Adam", "credit": 0.5}, {"text": "adam", "credit": 1}]}, "  ADAM ", 1),
    ({"kind": "short-answer", "caseSensitive": True, "answers": [{"text": "ONNX", "credit": 1}]}, "onnx", 0),
    ({"kind": "short-answer", "caseSensitive": True, "answers": [{"text": "ONNX", "credit": 1}]}, "ONNX", 1),
    # matching: right matches / pairs; an answer shared by two pairs is right for both
    ({"kind": "matching", "pairs": [{"id": "a", "prompt": "FP16", "answer": "2 bytes"}, {"id": "b", "prompt": "BF16", "answer": "2 bytes"},
                                    {"id": "c", "prompt": "FP32", "answer": "4 bytes"}], "distractors": [{"id": "d", "text": "3 bytes"}]},
     {"a": "a", "b": "a", "c": "d"}, 2 / 3),
    ({"kind": "matching", "pairs": [{"id": "a", "prompt": "x", "answer": "1"}, {"id": "b", "prompt": "y", "answer": "2"}], "distractors": []},
     {"a": "b", "b": "a"}, 0),
]


@pytest.fixture
def functions_page(desktop, site):
    """The page of the kept desktop page, for the tests that only call the page's pure functions
    (window.aistackPractice). A browser context of their own cost a second of CPU, five page loads."""
    open_page(desktop, site)
    return desktop


def test_the_scoring_functions_follow_the_shared_semantics(functions_page):
    page = functions_page.page
    got = page.evaluate("cases => cases.map(([q, r]) => aistackPractice.score(q, r).score)", [[q, r] for q, r, _ in SCORES])
    assert got == pytest.approx([expected for _, _, expected in SCORES])
    reads = page.evaluate("""q => ['14', '14000 MB', '14 gb', '3,5', '14 TB', '', '1e3'].map(s => aistackPractice.readNumerical(q, s, 0))""",
                          {"units": [{"name": "GB", "multiplier": 1}, {"name": "MB", "multiplier": 0.001}]})
    assert reads == [
        {"response": {"value": 14, "unit": 0}}, {"response": {"value": 14000, "unit": 1}}, {"response": {"value": 14, "unit": 0}},
        {"error": "number"}, {"error": "unit", "unit": "TB"}, {"error": "number"}, {"response": {"value": 1000, "unit": 0}}]
    assert page.evaluate("['\u0663.\u0665', '\u06f1\u06f2', '3,500', '-2.5e-3', '\u22122'].map(aistackPractice.parseNumber)") == [3.5, 12, None, -0.0025, -2]
    functions_page.check_clean()


def test_the_short_answer_scorer_follows_the_folding_table(functions_page):
    """The cases of tests/data/short-answer-folding.json, through the page's own scorer (the
    bank's scoring runs the same table in test_short_answer_matching.py)."""
    table = json.loads((Path(__file__).parent / "data/short-answer-folding.json").read_text(encoding="utf-8"))["cases"]
    page = functions_page.page
    got = page.evaluate("""cases => cases.map(c => aistackPractice.score({kind: "short-answer", caseSensitive: !!c.case_sensitive,
        foldDiacritics: !!c.fold_diacritics, answers: [{text: c.answer, credit: 1}]}, c.response).score)""", table)
    assert [(c["answer"], c["response"], g) for c, g in zip(table, got)] == [(c["answer"], c["response"], 1 if c["matches"] else 0) for c in table]
    functions_page.check_clean()


def test_axe_finds_nothing_on_any_kind_before_and_after_answering(desktop, site):
    page = open_page(desktop, site)
    start_all(page)
    questions = page_questions(page)
    for _ in range(len(questions)):
        q = questions[on_screen(page)]
        axe_check(page, f"{q['kind']} unanswered")
        RIGHT[q["kind"]](page, q)
        page.locator("#feedback").wait_for(state="visible")
        axe_check(page, f"{q['kind']} answered")
        page.keyboard.press("Enter")
    axe_check(page, "results of every kind")
    desktop.check_clean()


def test_stored_answers_survive_a_question_changing_kind(desktop, site):
    """Answers and a run kept while q003 was single-choice: the page reads them, drops the run, and q003 is answerable."""
    page = open_page(desktop, site)
    page.evaluate("""() => {
      localStorage.setItem('aistack-bank/every-kind/answers', JSON.stringify({version: 1, answers: [
        {question: 'q003', language: 'en', choice: 'b', correct: false, answered_at: '2026-11-01T10:00:00Z', attempt: 'x'},
        {question: 'q004', language: 'en', choice: 'a', correct: true, answered_at: '2026-11-01T10:00:00Z', attempt: 'x'}]}));
      localStorage.setItem('aistack-bank/every-kind/en', JSON.stringify({version: 1, last: {q005: 1, q006: 0}}));
      sessionStorage.setItem('aistack-bank/every-kind/run/en', JSON.stringify({version: 1, id: 'r', title: 'site.practice_all.title',
        ids: ['q003', 'q001'], index: 1, order: ['a', 'b'], results: [{id: 'q003', order: ['a', 'b'], chosenAt: 0}], opener: 'practice-all',
        startedAt: Date.now()}));
      history.replaceState({view: 'quiz', attempt: 'r'}, '');
    }""")
    page.reload()
    assert page.locator("#topic").is_visible() and not page.locator("#resume").is_visible()
    assert text(page, "#stat-answered").startswith("4")
    tab_to(page, "practice-weak")
    page.keyboard.press("Enter")  # q003 and q006 wrong last time, q004 right a day ago: all due
    questions = page_questions(page)
    for _ in range(3):
        q = questions[on_screen(page)]
        assert q["id"] in {"q003", "q004", "q006"}
        RIGHT[q["kind"]](page, q)
        page.locator("#feedback").wait_for(state="visible")
        page.keyboard.press("Enter")
    exported = page.evaluate("JSON.parse(localStorage.getItem('aistack-bank/every-kind/answers')).answers")
    assert sorted((a["question"], a.get("kind"), a["correct"]) for a in exported[-3:]) == [
        ("q003", "true-false", True), ("q004", "numerical", True), ("q006", "matching", True)]
    assert {a["question"]: a["choice"] for a in exported[-3:]}["q003"] == "false"
    assert {a["question"]: a["choice"] for a in exported[-3:]}["q006"] == "a=a;b=b"
    assert json.loads(json.dumps(exported))  # plain JSON
    desktop.check_clean()


def test_a_reload_resumes_an_answered_question_of_every_kind(desktop, site):
    """The run kept in the tab brings each kind back as it was: the response, the marks, the verdict and the feedback."""
    page = open_page(desktop, site)
    start_all(page)
    questions = page_questions(page)
    plan = dict(RIGHT, **PARTLY)
    for _ in range(len(questions)):
        q = questions[on_screen(page)]
        plan[q["kind"]](page, q)
        page.locator("#feedback").wait_for(state="visible")
        before = (verdict_of(page), bare(page.locator("#feedback").inner_text()), page.locator("#response").inner_html() if q["kind"] != "single-choice" else "")
        values = page.evaluate("Array.from(document.querySelectorAll('#response input, #response select, #response textarea'), e => [e.value, e.checked, e.disabled])")
        page.reload()
        assert on_screen(page) == q["id"] and page.locator("#feedback").is_visible()
        assert (verdict_of(page), bare(page.locator("#feedback").inner_text())) == before[:2], q["kind"]
        after = page.evaluate("Array.from(document.querySelectorAll('#response input, #response select, #response textarea'), e => [e.value, e.checked, e.disabled])")
        if q["kind"] == "numerical":  # the number as the page writes it, not necessarily as typed
            assert [v[1:] for v in after] == [v[1:] for v in values] and after[0][0] == "28"
        else:
            assert after == values, q["kind"]
        assert all(disabled for _, _, disabled in after)
        assert active_id(page) != "check"
        tab_to(page, "next")
        page.keyboard.press("Enter")
    assert page.locator("#results").is_visible()
    assert bare(text(page, "#results-score")).endswith(f"4.5 / {len(SCORED)}")
    desktop.check_clean()


def test_an_essay_is_written_by_keyboard_never_scored_and_kept_out_of_the_answers(desktop, site, options):
    """The box is labelled and described; Enter in it starts a new line and Escape does not leave
    the run; once submitted the text is shown as written, with the model answer; the answer is in
    the run's review but not in the stored answers, the score or the answered count."""
    page = open_page(desktop, site)
    u = lambda key, **values: ui(options, "en", key, **values)  # noqa: E731
    start_all(page)
    questions = page_questions(page)
    essay_id = next(q["id"] for q in questions.values() if q["kind"] == "essay")
    for _ in range(len(questions)):
        q = questions[on_screen(page)]
        if q["kind"] == "essay":
            assert page.get_by_role("textbox", name=u("site.essay.label"), exact=True).get_attribute("id") == "answer-input"
            assert page.get_attribute("#answer-input", "aria-describedby") == "response-hint response-error"
            assert bare(text(page, "#response-hint")) == u("site.essay.hint")
            assert bare(text(page, "#keys-hint")) == u("site.essay.keys")
            assert bare(text(page, "#check")) == u("site.essay.submit")
            page.keyboard.press("Escape")  # in the box: the run stays, nothing written is lost
            assert page.locator("#quiz").is_visible() and active_id(page) == "answer-input"
            page.keyboard.press("End")
            page.keyboard.press("Enter")  # a new line, not a submission
            assert not page.locator("#feedback").is_visible()
            assert page.evaluate("document.activeElement.value") == q["responseTemplate"] + "\n"
            written(ESSAY_TEXT, from_template=False)(page, q)
        else:
            RIGHT[q["kind"]](page, q)
        page.locator("#feedback").wait_for(state="visible")
        if q["kind"] == "essay":
            assert page.locator("#feedback .essay-answer").text_content() == ESSAY_TEXT  # line break kept
            assert page.locator("#feedback .model-answer").text_content() == q["modelAnswer"]
            assert page.evaluate("document.getElementById('answer-input').disabled")
        page.keyboard.press("Enter")
    stored = page.evaluate("JSON.parse(localStorage.getItem('aistack-bank/every-kind/answers')).answers")
    assert sorted(a["question"] for a in stored) == sorted(qid for qid, q in questions.items() if q["kind"] in SCORED)
    review = page.locator(f'#results-review li[data-qid="{essay_id}"]')
    assert "is-unscored" in review.get_attribute("class")
    assert u("site.essay.unscored") in bare(review.inner_text()) and questions[essay_id]["modelAnswer"] in review.inner_text()
    assert text(page, "#results-score") == u("site.result.score", score=len(SCORED), total=len(SCORED))
    assert page.locator("#results-perfect").is_visible()  # every scored answer right: the essay does not spoil it
    tab_to(page, "results-back")
    page.keyboard.press("Enter")
    assert bare(text(page, "#stat-answered")) == u("site.stats.answered.value", answered=len(SCORED), total=len(SCORED))  # out of the questions whose answers are kept
    desktop.check_clean()


def test_an_essay_being_written_comes_back_after_a_reload(desktop, site, options):
    """The text being written is kept in the run as it is typed: a reload brings it back in the
    box, the focus in it after the text; once submitted, the answer is kept as other answers are."""
    page = open_page(desktop, site)
    start_all(page)
    questions = page_questions(page)
    while questions[on_screen(page)]["kind"] != "essay":
        q = questions[on_screen(page)]
        RIGHT[q["kind"]](page, q)
        page.locator("#feedback").wait_for(state="visible")
        page.keyboard.press("Enter")
    q = questions[on_screen(page)]
    page.keyboard.press("End")
    page.keyboard.type(" 2 bytes per weight")
    page.keyboard.press("Enter")
    page.keyboard.type("for every token.")
    draft = q["responseTemplate"] + " 2 bytes per weight\nfor every token."
    page.reload()
    assert on_screen(page) == q["id"] and not page.locator("#feedback").is_visible()
    assert active_id(page) == "answer-input" and page.evaluate("document.activeElement.value") == draft
    assert page.evaluate("document.activeElement.selectionStart") == len(draft)  # the caret after the text
    page.keyboard.press("Control+Enter")
    page.locator("#feedback").wait_for(state="visible")
    assert page.locator("#feedback .essay-answer").text_content() == draft
    page.reload()  # submitted: the answer and the feedback come back as for any kind
    assert page.locator("#feedback .essay-answer").text_content() == draft
    assert page.evaluate("document.getElementById('answer-input').value") == draft
    desktop.check_clean()


def test_a_shared_matching_answer_is_listed_once_and_right_for_both_prompts(desktop, options, tmp_path):
    """FP16 and BF16 share "2 bytes": each prompt's list shows every distinct answer once, and
    choosing it for both is right."""
    from test_kinds_shared import question as shared_question

    q = shared_question()
    topic = Topic(id="formats", category="tests", title="Formats", summary="Number formats.", tags={"precision": "Precision."}, questions=[q.id])
    site = write_site(tmp_path, {"en": Bank(topic=topic, questions=(q,), category=category(), lang="en")}, options)
    page = open_page(desktop, site)
    start_all(page)
    lists = page.locator("#question select").evaluate_all("els => els.map(s => Array.from(s.options).slice(1).map(o => o.text))")
    assert len(lists) == 4 and all(sorted(each) == ["1 byte", "2 bytes", "3 bytes", "4 bytes"] for each in lists), lists
    (verdict, _), = answer_every_question(page, {"matching": matched(lambda q, pair: pair["answer"])}).values()
    assert verdict == "✓ " + ui(options, "en", "site.feedback.right")
    desktop.check_clean()
