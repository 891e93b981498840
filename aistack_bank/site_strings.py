"""The practice site's interface strings, in English: the source of the `site` gettext domain.

The exporter of the practice site shows them (translated when a catalog has them), and
`bank i18n update` writes them to `translations/site/site.pot`, each entry referenced to its
line in this file. Keys are stable; keep every ``{placeholder}`` in the translations.
"""

from __future__ import annotations

import ast
from functools import lru_cache
from pathlib import Path

UI_STRINGS: dict[str, str] = {
    "site.doc_title": "{title}: practice questions",
    "site.skip": "Skip to main content",
    "site.language.nav": "Language",
    "site.language.choose": "Choose your language",
    "site.progress.heading": "Your progress",
    "site.stats.last": "Last-answer accuracy",
    "site.stats.last.detail": "{right} of {count} questions right on your last try",
    "site.stats.alltime": "All-time accuracy",
    "site.stats.alltime.detail": "{right} of {count} answers right since you started",
    "site.stats.accuracy.value": "{percent}%",
    "site.stats.accuracy.none": "No answers yet",
    "site.stats.answered": "Questions answered",
    "site.stats.answered.value": "{answered} / {total}",
    "site.tags.heading": "Progress by tag",
    "site.tags.value": "{right} / {count}",
    "site.tags.note": "Questions of each tag whose last answer was right.",
    "site.export": "Export my answers",
    "site.export.done": "Your answers were saved as {file}. Nothing left this browser.",
    "site.reset": "Reset progress",
    "site.reset.confirm": "Erase your accuracy and your answers in this language?",
    "site.reset.yes": "Yes, reset",
    "site.reset.cancel": "Cancel",
    "site.reset.done": "Your progress has been reset.",
    "site.practice.heading": "Practice",
    "site.resume": "Resume: {title}, question {current} of {total}",
    "site.practice10.title": "Practice 10 questions",
    "site.practice10.desc": "Random questions from this topic · about 5 minutes",
    "site.practice_all.title": "Practice this topic",
    "site.practice_all.desc": "All questions in this topic, in random order",
    "site.weak.title": "Due for review",
    "site.weak.desc": "Spaced practice: what you got wrong comes back soon, what you know comes back later",
    "site.weak.count": "Due now: {count}",
    "site.weak.none": "Nothing is due now. Questions you get wrong come back here at once, the ones you know after a few days.",
    "site.noscript": "Practice needs JavaScript. You can still read the key points and every question below.",
    "site.keypoints.heading": "{title}: key points",
    "site.questions.heading": "All {title} questions ({count})",
    "site.questions.show": "Show the list",
    "site.questions.right": "right last time",
    "site.questions.wrong": "wrong last time",
    "site.questions.due": "due for review",
    "site.other.heading": "Other topics in {category}",
    "site.other.none": "This bank has no other topics yet.",
    "site.home.title": "Practice questions",
    "site.home.link": "All topics",
    "site.category.practice": "Practise all {count} questions of {category}",
    "site.footer": "Works offline. Your progress is saved in this browser only.",
    "site.quiz.progress": "Question {current} of {total}",
    "site.quiz.keys": "Keyboard, in the options: arrow keys to move, 1–{count} or A–{letter} to answer, Escape to leave.",
    "site.quiz.quit": "Back to the topic",
    "site.quiz.next": "Next question",
    "site.quiz.finish": "See your results",
    "site.option.correct": "correct answer",
    "site.option.yours": "your answer",
    "site.feedback.right": "Correct!",
    "site.feedback.wrong": "Not quite.",
    "site.feedback.your_answer": "Your answer:",
    "site.feedback.correct_answer": "Correct answer:",
    "site.feedback.explanation": "Explanation",
    "site.feedback.others": "Why not the other options?",
    "site.feedback.partial": "Partly right: {percent} of the marks.",
    "site.quiz.keys.fields": "Keyboard: Tab moves between the fields, Space ticks a box, Enter checks your answer, Escape leaves.",
    "site.kind.check": "Check",
    "site.mr.hint": "Select every right option, then check your answer.",
    "site.mr.empty": "Select at least one option first.",
    "site.tf.true": "True",
    "site.tf.false": "False",
    "site.tf.empty": "Choose True or False first.",
    "site.num.label": "Your answer",
    "site.num.unit": "Unit",
    "site.num.hint": "Write a number such as {example}.",
    "site.num.hint_units": "Write a number such as {example}, and choose its unit (or type the unit after the number).",
    "site.num.invalid": "That is not a number. Write one such as {example}.",
    "site.num.unit_unknown": "The unit {unit} is not one of this question's: choose one from the list.",
    "site.num.range": "Accepted: from {low} to {high}.",
    "site.short.label": "Your answer",
    "site.short.case": "Capital and small letters count.",
    "site.short.empty": "Type an answer first.",
    "site.match.hint": "Choose the answer that goes with each item. Some answers may go with none.",
    "site.match.choose": "Choose…",
    "site.match.empty": "Choose an answer for every item first.",
    "site.ordering.hint": "Put the items in the right order: move each one up or down with its buttons.",
    "site.ordering.up": "Move up: {item}",
    "site.ordering.down": "Move down: {item}",
    "site.ordering.moved": "{item}: now in position {position} of {count}.",
    "site.essay.label": "Your answer",
    "site.essay.hint": "Write your answer in a few sentences. It is not scored: once you have submitted it, compare it with the model answer.",
    "site.essay.keys": "Keyboard: type your answer, then Tab to Submit (or press Ctrl+Enter); Tab out of the box before pressing Escape to leave.",
    "site.essay.submit": "Submit",
    "site.essay.empty": "Write your answer first.",
    "site.essay.unscored": "Submitted. A written answer is not scored: it does not count in your score.",
    "site.essay.model": "Model answer",
    "site.essay.results": "Written answers, not scored: {count}",
    "site.result.heading": "Practice complete",
    "site.result.score": "Your score: {score} / {total}",
    "site.result.time": "Time taken: {minutes} min {seconds} s",
    "site.result.perfect": "Every answer was right. Well done!",
    "site.result.tags": "By tag",
    "site.result.review": "Review your answers",
    "site.result.weakest": "Practise your weakest tags: {tags}",
    "site.result.retry": "Retry the missed questions ({count})",
    "site.retry.title": "Missed questions",
    "site.weakest.title": "Weakest tags",
}
"""Interface strings of the site: stable key (the gettext msgctxt) → English text.

``{name}`` placeholders are filled in by the exporter or by the page's script and must be
kept unchanged in translations; a translation that drops or adds one is ignored.
"""


@lru_cache(maxsize=1)
def ui_string_lines() -> dict[str, int]:
    """The line of each interface string's key in this file (for the `#:` references)."""
    source = Path(__file__)
    tree = ast.parse(source.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == "UI_STRINGS":
            return {key.value: key.lineno for key in node.value.keys if isinstance(key, ast.Constant)}
    return {}
