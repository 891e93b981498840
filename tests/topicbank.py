"""A test bank of many topics: 3 categories × 4 topics × 5 questions, in English, French and Dutch.

``write_topic_bank(root)`` writes ``root/bank/`` (``categories.yaml`` and one folder per topic)
and ``root/translations/`` (the template, ``fr.po`` and ``nl.po`` made by the code of
`bank i18n update`, every entry translated; the practice site's catalogs filled from the ones
the package ships). The texts are generated from small trilingual tables: plausible, not
course material. The same call always writes the same bytes.
"""

from __future__ import annotations

from pathlib import Path

LANGS = ("fr", "nl")

# category id → title (en, fr, nl)
CATEGORIES = {
    "physics": ("Physics", "Physique", "Natuurkunde"),
    "chemistry": ("Chemistry", "Chimie", "Scheikunde"),
    "biology": ("Biology", "Biologie", "Biologie"),
}

# topic id → (category, title (en, fr, nl), five terms (en, fr, nl))
TOPICS = {
    "mechanics": ("physics", ("Mechanics", "Mécanique", "Mechanica"), [
        ("force", "force", "kracht"), ("mass", "masse", "massa"), ("velocity", "vitesse", "snelheid"),
        ("momentum", "quantité de mouvement", "impuls"), ("friction", "frottement", "wrijving")]),
    "optics": ("physics", ("Optics", "Optique", "Optica"), [
        ("lens", "lentille", "lens"), ("refraction", "réfraction", "breking"), ("mirror", "miroir", "spiegel"),
        ("wavelength", "longueur d'onde", "golflengte"), ("prism", "prisme", "prisma")]),
    "electricity": ("physics", ("Electricity", "Électricité", "Elektriciteit"), [
        ("current", "courant", "stroom"), ("voltage", "tension", "spanning"), ("resistance", "résistance", "weerstand"),
        ("capacitor", "condensateur", "condensator"), ("circuit", "circuit", "schakeling")]),
    "thermodynamics": ("physics", ("Thermodynamics", "Thermodynamique", "Thermodynamica"), [
        ("heat", "chaleur", "warmte"), ("temperature", "température", "temperatuur"), ("entropy", "entropie", "entropie"),
        ("pressure", "pression", "druk"), ("engine", "moteur", "motor")]),
    "atoms": ("chemistry", ("Atoms", "Atomes", "Atomen"), [
        ("proton", "proton", "proton"), ("neutron", "neutron", "neutron"), ("electron", "électron", "elektron"),
        ("isotope", "isotope", "isotoop"), ("nucleus", "noyau", "atoomkern")]),
    "reactions": ("chemistry", ("Reactions", "Réactions", "Reacties"), [
        ("catalyst", "catalyseur", "katalysator"), ("reactant", "réactif", "reagens"), ("product", "produit", "reactieproduct"),
        ("equilibrium", "équilibre", "evenwicht"), ("oxidation", "oxydation", "oxidatie")]),
    "acids-and-bases": ("chemistry", ("Acids and bases", "Acides et bases", "Zuren en basen"), [
        ("acid", "acide", "zuur"), ("base", "base", "base"), ("salt", "sel", "zout"),
        ("buffer", "tampon", "buffer"), ("indicator", "indicateur", "indicator")]),
    "organic-chemistry": ("chemistry", ("Organic chemistry", "Chimie organique", "Organische chemie"), [
        ("alkane", "alcane", "alkaan"), ("alcohol", "alcool", "alcohol"), ("ester", "ester", "ester"),
        ("polymer", "polymère", "polymeer"), ("benzene", "benzène", "benzeen")]),
    "cells": ("biology", ("Cells", "Cellules", "Cellen"), [
        ("membrane", "membrane", "membraan"), ("ribosome", "ribosome", "ribosoom"), ("mitochondrion", "mitochondrie", "mitochondrion"),
        ("cytoplasm", "cytoplasme", "cytoplasma"), ("vacuole", "vacuole", "vacuole")]),
    "genetics": ("biology", ("Genetics", "Génétique", "Genetica"), [
        ("gene", "gène", "gen"), ("allele", "allèle", "allel"), ("chromosome", "chromosome", "chromosoom"),
        ("mutation", "mutation", "mutatie"), ("genome", "génome", "genoom")]),
    "ecology": ("biology", ("Ecology", "Écologie", "Ecologie"), [
        ("habitat", "habitat", "habitat"), ("predator", "prédateur", "roofdier"), ("producer", "producteur", "producent"),
        ("niche", "niche", "niche"), ("biome", "biome", "bioom")]),
    "evolution": ("biology", ("Evolution", "Évolution", "Evolutie"), [
        ("fossil", "fossile", "fossiel"), ("species", "espèce", "soort"), ("adaptation", "adaptation", "aanpassing"),
        ("selection", "sélection", "selectie"), ("ancestor", "ancêtre", "voorouder")]),
}

TEXTS = {
    "stem": ("Which field of {category} studies the {term}?", "Quel domaine de la {category} étudie le concept « {term} » ?", "Welk deel van de {category} bestudeert het begrip ‘{term}’?"),
    "wrong": ("{other} deals with other ideas, such as the {other_term}.", "Le domaine « {other} » traite d'autres notions, comme le concept « {other_term} ».", "‘{other}’ gaat over andere begrippen, zoals ‘{other_term}’."),
    "right": ("Right: the {term} is one of the key ideas of {topic}.", "Exact : le concept « {term} » est une notion clé du domaine « {topic} ».", "Juist: ‘{term}’ is een kernbegrip van ‘{topic}’."),
    "explanation": ("The {term} belongs to {topic}, one of the four fields of {category} in this bank.", "Le concept « {term} » relève du domaine « {topic} », l'un des quatre domaines de la {category} de cette banque.", "Het begrip ‘{term}’ hoort bij ‘{topic}’, een van de vier delen van de {category} in deze bank."),
    "summary": ("Practice questions on {topic}: five of its key ideas.", "Questions d'entraînement sur le domaine « {topic} » : cinq de ses notions clés.", "Oefenvragen over ‘{topic}’: vijf van de kernbegrippen."),
    "key_point": ("{topic} is one of the four fields of {category} covered here.", "Le domaine « {topic} » est l'un des quatre domaines de la {category} traités ici.", "‘{topic}’ is een van de vier delen van de {category} die hier aan bod komen."),
}


def _fill(kind: str, index: int, **values) -> str:
    """The text ``kind`` in language ``index`` (0 en, 1 fr, 2 nl), each value a trilingual tuple."""
    text = TEXTS[kind][index]
    words = {}
    for name, value in values.items():
        word = value[index]
        # a category is a common noun inside a sentence: "of physics", "de la physique"
        words[name] = word[:1].lower() + word[1:] if name == "category" else word
    result = text.format(**words)
    return result[:1].upper() + result[1:]


def _yaml_string(text: str) -> str:
    import json

    return json.dumps(text, ensure_ascii=False)


def questions_of(topic_id: str, first: int) -> list[dict]:
    """The five questions of a topic (ids from ``first``), each text in (en, fr, nl)."""
    category, title, terms = TOPICS[topic_id]
    siblings = [t for t, (c, _, _) in TOPICS.items() if c == category]
    position = siblings.index(topic_id)
    out = []
    for number, term in enumerate(terms):
        qid = f"q{first + number:03d}"
        key = (position + number) % 4
        options = []
        for slot, other_id in enumerate(siblings):
            other = TOPICS[other_id]
            if other_id == topic_id:
                feedback = tuple(_fill("right", i, term=term, topic=title) for i in range(3))
            else:
                feedback = tuple(_fill("wrong", i, other=other[1], other_term=other[2][number]) for i in range(3))
            options.append({"id": "abcd"[slot], "text": other[1], "feedback": feedback})
        # the key moves: rotate so that the own topic sits at ``key``
        order = options[position:] + options[:position]
        order = order[-key:] + order[:-key] if key else order
        for slot, option in enumerate(order):
            option["id"] = "abcd"[slot]
        out.append({
            "id": qid, "slug": term[0].replace(" ", "-"), "term": term,
            "stem": tuple(_fill("stem", i, category=CATEGORIES[category], term=term) for i in range(3)),
            "options": order, "correct": "abcd"[key],
            "explanation": tuple(_fill("explanation", i, term=term, topic=title, category=CATEGORIES[category]) for i in range(3)),
        })
    return out


def render_question(q: dict) -> str:
    lines = ["# yaml-language-server: $schema=../../../schema/question.schema.json", f"id: {q['id']}", "kind: single-choice",
             f"stem: {_yaml_string(q['stem'][0])}", "options:"]
    for option in q["options"]:
        lines += [f"  - id: {option['id']}", f"    text: {_yaml_string(option['text'][0])}", f"    feedback: {_yaml_string(option['feedback'][0])}"]
    lines += [f"correct: {q['correct']}", f"explanation: {_yaml_string(q['explanation'][0])}", "tags: [concepts]", "difficulty: 1"]
    return "\n".join(lines) + "\n"


def topic_texts(topic_id: str) -> dict[str, tuple[str, str, str]]:
    category, title, _ = TOPICS[topic_id]
    return {
        "title": title,
        "summary": tuple(_fill("summary", i, topic=title) for i in range(3)),
        "key_point.k1": tuple(_fill("key_point", i, topic=title, category=CATEGORIES[category]) for i in range(3)),
    }


def render_topic(topic_id: str, ids: list[str]) -> str:
    category = TOPICS[topic_id][0]
    texts = topic_texts(topic_id)
    lines = ["# yaml-language-server: $schema=../../schema/topic.schema.json", f"id: {topic_id}", f"category: {category}",
             f"title: {_yaml_string(texts['title'][0])}", f"summary: {_yaml_string(texts['summary'][0])}",
             "key_points:", f"  - {{id: k1, text: {_yaml_string(texts['key_point.k1'][0])}}}",
             "tags:", '  concepts: "the key ideas of the topic"', "questions:"] + [f"  - {qid}" for qid in ids]
    return "\n".join(lines) + "\n"


def render_categories() -> str:
    lines = ["# yaml-language-server: $schema=../schema/categories.schema.json", "categories:"]
    for category_id, title in CATEGORIES.items():
        lines += [f"  - id: {category_id}", f"    title: {_yaml_string(title[0])}"]
    return "\n".join(lines) + "\n"


def translations_table() -> dict[str, tuple[str, str, str]]:
    """msgctxt → (en, fr, nl) of every text of the bank."""
    table: dict[str, tuple[str, str, str]] = {}
    for category_id, title in CATEGORIES.items():
        table[f"category.{category_id}.title"] = title
    first = 1
    for topic_id in TOPICS:
        for name, texts in topic_texts(topic_id).items():
            table[f"topic.{topic_id}.{name}"] = texts
        for q in questions_of(topic_id, first):
            table[f"{q['id']}.stem"] = q["stem"]
            table[f"{q['id']}.explanation"] = q["explanation"]
            for option in q["options"]:
                table[f"{q['id']}.option.{option['id']}"] = option["text"]
                table[f"{q['id']}.option.{option['id']}.feedback"] = option["feedback"]
        first += 5
    return table


def write_topic_bank(root: Path) -> Path:
    """Write the bank and its translated catalogs under ``root``; return ``root``."""
    from aistack_bank.i18n.catalog import read_catalog, render_catalog
    from aistack_bank.i18n.typography import fix_typography
    from aistack_bank.i18n.update import update_catalogs
    from aistack_bank.project.init import _fill_site_catalogs

    root = Path(root)
    bank = root / "bank"
    bank.mkdir(parents=True)
    (bank / "categories.yaml").write_text(render_categories(), encoding="utf-8")
    first = 1
    for topic_id in TOPICS:
        questions = questions_of(topic_id, first)
        folder = bank / topic_id / "questions"
        folder.mkdir(parents=True)
        (bank / topic_id / "topic.yaml").write_text(render_topic(topic_id, [q["id"] for q in questions]), encoding="utf-8")
        for q in questions:
            (folder / f"{q['id']}-{q['slug']}.yaml").write_text(render_question(q), encoding="utf-8")
        first += 5
    translations = root / "translations"
    translations.mkdir()
    _, problems = update_catalogs(bank, translations, languages=list(LANGS))
    assert not problems, [str(p) for p in problems]
    table = translations_table()
    for index, lang in enumerate(LANGS, start=1):
        path = translations / f"{lang}.po"
        po = read_catalog(path).po
        for entry in po:
            text = table[entry.msgctxt][index]
            entry.msgstr = fix_typography(text) if lang == "fr" else text
        path.write_bytes(render_catalog(po))
    _fill_site_catalogs(translations, list(LANGS))
    return root
