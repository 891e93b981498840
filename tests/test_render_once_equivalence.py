"""What the exporters now make once (or more cheaply) is what they made before: each replaced
function's old code is kept here, verbatim, and compared on random hostile texts (markup,
entities, quotes, line breaks, control and non-BMP characters, right-to-left text) and values,
with some texts marked as English fallbacks (``tests/test_qti_text_writer.py``'s banks)."""

from __future__ import annotations

import json
import random

import pytest

from aistack_bank.exporters import html_site
from aistack_bank.exporters.common import english_fallback
from aistack_bank.i18n.languages import bcp47 as _bcp47
from aistack_bank.site_strings import UI_STRINGS

from test_qti_text_writer import hostile, variants


# --- the practice page's data -------------------------------------------------------------


def old_script_json(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    for char, escaped in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"), ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(char, escaped)
    return text


def old_english_data(bank) -> dict:
    from aistack_bank.exporters.common import in_english

    if bank.lang == "en":
        return {}
    shown = sorted({text for text in html_site._strings(html_site._question_data(bank)) if in_english(text, bank.lang)})
    return {"english": shown} if shown else {}


def old_page_data(bank, options, languages=None) -> dict:
    lang = bank.lang
    topic = bank.topic.id
    groups = {"groups": [list(g.questions) for g in bank.topic.groups]} if bank.topic.groups else {}
    return {
        "version": 2,
        "lang": _bcp47(lang),
        "language": lang,
        "topic": topic,
        "storageKey": f"{options.site_id}/{topic}/answers",
        "legacyKeys": {code: f"{options.site_id}/{topic}/{code}" for code in (languages or [lang])},
        "runKey": f"{options.site_id}/{topic}/run/{lang}",
        "practiceCount": html_site.PRACTICE_COUNT,
        "tags": [tag for tag in bank.topic.tags if any(tag in q.tags for q in bank.questions)],
        "ui": {key: html_site._ui_data(options, lang, key) for key in UI_STRINGS if html_site._sent(key, bank)},
        "questions": html_site._question_data(bank),
    } | groups | old_english_data(bank)


FLOATS = [0.0, -0.0, 0.5, -3.25, 1e-4, 1.5e-5, 1e-5, 7e-6, 1e-7, -2.5e-9, 1e-10, 3e-12, 1e-300, 5e-324, 1e15, 1e16, 1.2345e22, -9.87e200,
          1.7976931348623157e308, float("inf"), float("-inf"), float("nan"), 0.1 + 0.2, 1 / 3]


def random_value(rng: random.Random, depth: int = 0):
    roll = rng.random()
    if depth < 4 and roll < 0.2:
        return {hostile(rng): random_value(rng, depth + 1) for _ in range(rng.randint(0, 4))}
    if depth < 4 and roll < 0.35:
        return [random_value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    if roll < 0.45:
        return rng.choice(FLOATS) * rng.choice([1, -1, 3, 0.01])
    if roll < 0.5:
        return rng.choice([0, -1, 7, 2**63, -(2**70), True, False, None])
    if roll < 0.52:
        return "lone \ud800 surrogate" if rng.random() < 0.5 else "\udfff"
    return hostile(rng)


def test_script_json_writes_what_json_dumps_wrote():
    rng = random.Random(12)
    for _ in range(3000):
        value = random_value(rng)
        try:
            expected = old_script_json(value)
        except Exception as error:  # (none expected: json.dumps writes a lone surrogate as it is)
            pytest.fail(f"{value!r}: {error}")
        assert html_site.script_json(value) == expected, value


def test_script_json_of_a_pages_records():
    for seed, bank, english, options in variants(60):
        with english_fallback({bank.lang: english}, [bank.lang]):
            data = html_site.page_data(bank, options, ["en", bank.lang])
            assert html_site.script_json(data) == old_script_json(data), seed


def test_page_data_is_the_old_page_data():
    """The English texts of a page found from its records as made once (none walked when the
    language has no fallback), with and without fallbacks, in English and in other languages."""
    shown = 0
    for seed, bank, english, options in variants(80):
        for marked in (english, frozenset()):
            with english_fallback({bank.lang: marked}, [bank.lang]):
                data = html_site.page_data(bank, options, [bank.lang])
                assert data == old_page_data(bank, options, [bank.lang]), seed
                shown += "english" in data
        with english_fallback({"xx": english}, ["xx"]):  # (another language's fallbacks: none of this page's)
            assert html_site.page_data(bank, options) == old_page_data(bank, options), seed
    assert shown >= 10, shown  # (pages that show English texts were compared)


# --- QTI 2.1 and 3.0: each item's title made once, by the manifest --------------------------


@pytest.mark.parametrize("name", ["qti21", "qti30"])
def test_a_packages_members_are_the_tree_writers_in_any_order(name):
    """Every member of a package (the manifest keeping each title for its item) is what the
    element-tree writer wrote, whether the manifest comes first (as in the zip) or after some
    items; an item of another bank's question of the same id takes nothing kept."""
    from pathlib import PurePosixPath

    import qti_tree_writer as tree
    from aistack_bank.exporters import qti_common
    from aistack_bank.exporters.record import as_library
    from test_qti_text_writer import DIALECTS

    d = DIALECTS[name]
    others = list(variants(40))
    for (seed, bank, english, options), (_, other, _, _) in zip(variants(40), others[1:] + others[:1]):
        rng = random.Random(seed)
        library = as_library(bank)
        with english_fallback({bank.lang: english}, [bank.lang]):
            files = qti_common.package_files(d=d, library=library, options=options)
            names = sorted(files, key=str)
            if rng.random() < 0.5:
                rng.shuffle(names)
            for member in names:
                if member == PurePosixPath("imsmanifest.xml"):
                    expected = tree.render_manifest(d=d, library=library)
                    if rng.random() < 0.5 and other.lang == bank.lang:  # (another question of the same id, then this one)
                        titles = qti_common.Titles()
                        qti_common.render_manifest(d=d, library=library, titles=titles)
                        for index, q in enumerate(other.questions):
                            assert qti_common.render_item(d=d, bank=other, index=index, options=options, titles=titles) == \
                                tree.render_item(d=d, bank=other, index=index, options=options), (seed, q.kind)
                elif member == qti_common.TEST_PATH:
                    expected = tree.render_test(d=d, library=library)
                else:
                    index = next(i for i, q in enumerate(bank.questions) if qti_common.item_path(q) == str(member))
                    expected = tree.render_item(d=d, bank=bank, index=index, options=options)
                assert files[member]() == expected, (seed, str(member))


# --- GIFT and Moodle XML ---------------------------------------------------------------------


def old_gift_escape(text: str) -> str:
    return (text.replace("\\", "\\\\").replace("~", "\\~").replace("=", "\\=").replace("#", "\\#").replace("{", "\\{")
            .replace("}", "\\}").replace(":", "\\:").replace("\n", "\\n").replace("\r", ""))


def old_html_paragraph(text_raw: str) -> str:
    from aistack_bank.exporters.common import in_english

    start = '<p lang="en">' if in_english(text_raw) else "<p>"
    return start + text_raw.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;").replace("'", "&#x27;").replace("\n", "<br/>") + "</p>"


def old_moodle_percent(fraction: float) -> str:
    text = f"{fraction * 100:.5f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def test_gift_paragraph_is_the_paragraph_gift_escaped():
    from aistack_bank.exporters.gift import gift_paragraph

    rng = random.Random(5)
    texts = [hostile(rng) for _ in range(20000)] + ["", "'", "&#x27;", "\r\n", "\\n", "=#", '<p lang="en">']
    marked = frozenset(rng.sample(texts, 2000))
    for english in (frozenset(), marked):
        with english_fallback({"fr": english}, ["fr"]):
            for text in texts:
                assert gift_paragraph(text) == old_gift_escape(old_html_paragraph(text)), repr(text)


def test_moodle_percent_is_the_old_text_again_and_again():
    from aistack_bank.exporters.common import MOODLE_FRACTIONS, moodle_percent

    rng = random.Random(3)
    values = [*MOODLE_FRACTIONS, *[-f for f in MOODLE_FRACTIONS], 0.0, -0.0, -1.0, float("nan"), float("inf"), float("-inf"), 1e-9, -1e-9, 0.333333333]
    values += [rng.uniform(-1, 1) for _ in range(6000)]  # (more than the table keeps: it starts again)
    for _ in range(3):
        for value in values:
            assert moodle_percent(value) == old_moodle_percent(value), value
        rng.shuffle(values)


@pytest.mark.parametrize("name", ["gift", "moodle-xml"])
def test_gift_and_moodle_files_are_the_old_writers(name, monkeypatch):
    """Each file (one language, and every language in one) as the old code wrote it: the old
    escaping put back in the module for the reference (its paragraph escaped for HTML, then for
    GIFT; each tag escaped for each question; each grade's text made each time)."""
    import aistack_bank.exporters.common as common
    from aistack_bank.exporters import get_format
    from aistack_bank.exporters.record import as_library

    fmt = get_format(name)
    module = __import__(f"aistack_bank.exporters.{'gift' if name == 'gift' else 'moodle_xml'}", fromlist=["x"])
    rng = random.Random(9)
    made = []
    for seed, bank, english, options in variants(40):
        options = options.__class__(**{**{f: getattr(options, f) for f in options.__dataclass_fields__}, "multilang": rng.choice(["span", "mlang"])})
        with english_fallback({bank.lang: english}, [bank.lang]):
            new = fmt.render_bank([as_library(fmt.carried_bank(bank))], options)
        made.append((seed, [bank], {bank.lang: english}, options, new))
    for (seed, bank, english, options), (_, other, _, _) in zip(variants(40), list(variants(41))[1:]):
        if other.lang == bank.lang or len(other.questions) != len(bank.questions):
            continue
        pair = sorted([bank, other], key=lambda b: b.lang != "en")
        with english_fallback({bank.lang: english}, [b.lang for b in pair]):
            new = fmt.render_bank([as_library(fmt.carried_bank(b)) for b in pair], options)
        made.append((seed, pair, {bank.lang: english}, options, new))
    assert sum(len(m[1]) > 1 for m in made) >= 5, "too few files of two languages"
    with monkeypatch.context() as patched:
        if name == "gift":
            patched.setattr(module, "gift_paragraph", lambda text: old_gift_escape(old_html_paragraph(text)))
        else:
            patched.setattr(module, "_tag_line", lambda tag, kept: f"      <tag>\n        <text>{common.html_text(tag)}</text>\n      </tag>")
        patched.setattr(module, "moodle_percent", old_moodle_percent)
        for seed, banks, english, options, new in made:
            with english_fallback(english, [b.lang for b in banks]):
                assert new == fmt.render_bank([as_library(fmt.carried_bank(b)) for b in banks], options), seed


def test_a_topic_page_is_the_page_joined_and_encoded_whole(monkeypatch):
    """The page's data put in as bytes between its lines encoded is the page joined as text and
    encoded (the old way, which the page takes when pydantic_core does not write its data); a
    text UTF-8 cannot write is refused alike."""
    script, style = html_site.site_asset("practice.js"), html_site.site_asset("style.css")
    pages = []
    for seed, bank, english, options in variants(40):
        order = sorted({"en", bank.lang})
        with english_fallback({bank.lang: english}, [bank.lang]):
            pages.append((seed, bank, english, options, order, html_site.render_topic_page(bank, order, options, script=script, style=style)))
    broken = next(b for _, b, *_ in pages)
    broken = broken.model_copy(update={"topic": broken.topic.model_copy(update={"title": "T\ud800"})})
    with pytest.raises(UnicodeEncodeError) as new_error:
        html_site.render_topic_page(broken, ["en"], options, script=script, style=style)
    with monkeypatch.context() as patched:
        patched.setattr(html_site, "_script_json_utf8", lambda value: None)
        for seed, bank, english, options, order, page in pages:
            with english_fallback({bank.lang: english}, [bank.lang]):
                assert page == html_site.render_topic_page(bank, order, options, script=script, style=style), seed
        with pytest.raises(UnicodeEncodeError) as old_error:
            html_site.render_topic_page(broken, ["en"], options, script=script, style=style)
    assert str(new_error.value) == str(old_error.value)
