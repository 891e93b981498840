"""A bank of 3 categories × 4 topics × 5 questions in English, French and Dutch, built in memory
(each text names its language, so every language's titles and idnumbers differ)."""

from __future__ import annotations

from aistack_bank.model import Bank, Category, KeyPoint, Library, Option, SingleChoiceQuestion, Topic

LANGS = ("en", "fr", "nl")
CATEGORIES = ("networks", "storage", "compilers")
TOPICS_PER_CATEGORY = 4
QUESTIONS_PER_TOPIC = 5
WORD = {"en": "Topic", "fr": "Sujet", "nl": "Onderwerp"}
CATEGORY_WORD = {"en": "Category", "fr": "Catégorie", "nl": "Categorie"}


def topic_ids() -> list[str]:
    return [f"{category}-{n}" for category in CATEGORIES for n in range(1, TOPICS_PER_CATEGORY + 1)]


def library(lang: str) -> Library:
    categories = tuple(Category(id=c, title=f"{CATEGORY_WORD[lang]} {c} / {lang}") for c in CATEGORIES)
    topics = []
    number = 0
    for category in categories:
        for n in range(1, TOPICS_PER_CATEGORY + 1):
            tid = f"{category.id}-{n}"
            questions = []
            for _ in range(QUESTIONS_PER_TOPIC):
                number += 1
                qid = f"q{number:03d}"
                questions.append(SingleChoiceQuestion(
                    id=qid, kind="single-choice", stem=f"Question {qid} of {tid} ({lang})?", explanation=f"Because ({lang}).",
                    tags=["basics"], difficulty=1 + number % 3, correct="b",
                    options=[Option(id="a", text=f"A ({lang})", feedback=f"Not A ({lang})."), Option(id="b", text=f"B ({lang})"), Option(id="c", text=f"C ({lang})")],
                ))
            topic = Topic(id=tid, category=category.id, title=f"{WORD[lang]} {tid} ({lang})", summary=f"What {tid} covers ({lang}).",
                          key_points=[KeyPoint(id="k1", text=f"A key point of {tid} ({lang}).")], tags={"basics": "The basics."}, questions=[q.id for q in questions])
            topics.append(Bank(topic=topic, questions=tuple(questions), category=category, lang=lang))
    return Library(categories=categories, topics=tuple(topics), lang=lang)


def libraries() -> dict[str, Library]:
    return {lang: library(lang) for lang in LANGS}
