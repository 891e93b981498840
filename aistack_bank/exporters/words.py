"""The few words an exporter itself writes into a question, in the question's language.

QTI has no true-false interaction and no units: a true-false question is a choice between two
labelled choices, and a numerical question's prompt says which unit to answer in (and, where the
language writes a decimal comma, that the answer takes a decimal point); Canvas has no place for
an essay's model answer but its general comment, where a label introduces it. Those labels and
sentences are the exporter's, not the bank's, so they come from this table. A language missing
from it gets the English words, and the export warns naming the question.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Words:
    true: str
    false: str
    unit: str
    """A sentence naming the unit to answer in; ``{unit}`` is the unit as learners type it."""
    point: str
    """A sentence asking for a decimal point (languages that write a decimal comma)."""
    decimal_comma: bool = False
    """Whether the language writes ``3,5`` for three and a half."""
    model_answer: str = "Model answer:"
    """What introduces an essay's model answer where a format shows it after the explanation
    (Canvas's general comment)."""


WORDS: dict[str, Words] = {
    "en": Words("True", "False", "Answer in {unit}.", "Write decimals with a point (3.5).", model_answer="Model answer:"),
    "fr": Words("Vrai", "Faux", "Répondez en {unit}.", "Écrivez les décimales avec un point (3.5).", decimal_comma=True, model_answer="Réponse type\u00a0:"),
    "nl": Words("Waar", "Onwaar", "Antwoord in {unit}.", "Schrijf decimalen met een punt (3.5).", decimal_comma=True, model_answer="Modelantwoord:"),
    "de": Words("Wahr", "Falsch", "Antworten Sie in {unit}.", "Schreiben Sie Dezimalzahlen mit Punkt (3.5).", decimal_comma=True,
                model_answer="Musterantwort:"),
    "es": Words("Verdadero", "Falso", "Responda en {unit}.", "Escriba los decimales con punto (3.5).", decimal_comma=True,
                model_answer="Respuesta modelo:"),
    "it": Words("Vero", "Falso", "Rispondi in {unit}.", "Scrivi i decimali con il punto (3.5).", decimal_comma=True, model_answer="Risposta modello:"),
    "pt": Words("Verdadeiro", "Falso", "Responda em {unit}.", "Escreva os decimais com ponto (3.5).", decimal_comma=True,
                model_answer="Resposta modelo:"),
}


def words(lang: str) -> Words:
    """The words of ``lang`` (its base language for ``pt_BR``), else English."""
    return WORDS.get(lang) or WORDS.get(lang.replace("-", "_").split("_")[0]) or WORDS["en"]


def has_words(lang: str) -> bool:
    return lang in WORDS or lang.replace("-", "_").split("_")[0] in WORDS


def writes_decimal_comma(lang: str) -> bool:
    return words(lang).decimal_comma if has_words(lang) else False
