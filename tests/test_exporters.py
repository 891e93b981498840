"""Exports: deterministic, up to date, valid for their consumers, and safe with hostile text."""

from __future__ import annotations

import io
import json
import re
import zipfile
from pathlib import Path, PurePosixPath

import lxml.html
import pytest
from lxml import etree

from aistack_bank.build import available_languages, load_localized, render
from aistack_bank.exporters import FORMATS, get_format
from aistack_bank.exporters.gift import gift_escape
from aistack_bank.errors import UnknownFormatError
from aistack_bank.model import Bank, Category, KeyPoint, Option, SingleChoiceQuestion, Topic
from aistack_bank.options import ExportOptions

from conftest import QTI_XSD, REPO, bank_figures, keep_only, qti_schema, render_in_fresh_interpreter

SAFE_PARSER = etree.XMLParser(no_network=True, resolve_entities=False)


@pytest.fixture(scope="module")
def banks():
    return load_localized(REPO / "bank", REPO / "translations", available_languages(REPO / "translations"))[0]


@pytest.fixture(scope="module")
def trees(banks):
    return render(list(FORMATS), banks, ExportOptions())


def test_committed_exports_are_up_to_date(run_cli, monkeypatch):
    monkeypatch.chdir(REPO)
    code, out = run_cli("build", "--check")
    assert code == 0, out


def test_rendering_twice_gives_the_same_bytes(banks, trees, tmp_path):
    """A second render in another interpreter (hash seed, time zone, language order) is byte-identical."""
    again = render_in_fresh_interpreter(REPO / "bank", REPO / "translations", list(FORMATS), tmp_path / "again")
    assert set(again) == set(trees)
    for name in trees:
        assert sorted(again[name]) == sorted(trees[name]), name
        for rel, data in trees[name].items():
            assert again[name][rel] == data, f"{name}/{rel} differs between two renders"


def test_unknown_format_is_a_helpful_error(run_cli, project):
    with pytest.raises(UnknownFormatError) as info:
        get_format("pdf")
    assert "known formats: aiken, canvas-qti12, common-cartridge, gift, html, json, moodle-xml, qti21, qti30" in str(info.value)
    code, out = run_cli("export", "pdf")
    assert code == 2 and "unknown format 'pdf'" in out  # a bad FORMAT argument is a usage error, as in `bank import`


# --- Moodle XML ---------------------------------------------------------------------------

def test_moodle_xml_keys_match_the_bank(banks, trees):
    for lang, bank in banks.items():
        root = etree.fromstring(trees["moodle-xml"][PurePosixPath(f"aistack-{lang}.xml")], SAFE_PARSER)
        questions = root.findall("question[@type='multichoice']")
        assert len(questions) == len(bank.questions)
        parent, category = (c.text for c in root.findall("question[@type='category']/category/text"))
        assert parent == f"$course$/top/{bank.category.title.replace('/', '//')}"  # plain text, as Moodle stores it
        assert category == f"{parent}/{bank.topic.title.replace('/', '//')}"  # the topic, nested in its category
        for element, q in zip(questions, bank.questions):
            assert element.findtext("idnumber") == q.id
            assert element.findtext("single") == "true" and element.findtext("shuffleanswers") == "true"
            answers = element.findall("answer")
            assert [a.get("fraction") for a in answers].count("100") == 1
            right = next(a for a in answers if a.get("fraction") == "100")
            assert right.findtext("text") == f"<p>{_html(q.correct_option.text)}</p>"
            assert {a.get("fraction") for a in answers} <= {"100", "0"}
            assert element.find("questiontext").get("format") == "html"


def _html(text):
    from html import escape

    return escape(text, quote=True)


def test_moodle_multilang_follows_the_filter_rules(banks, trees):
    root = etree.fromstring(trees["moodle-xml"][PurePosixPath("aistack-multilang.xml")], SAFE_PARSER)
    texts = []
    for text in root.iter("text"):
        html = text.text or ""
        if html.startswith("$course$/top/"):  # a category path: each name on its own ("//" is "/")
            texts += [part.replace("//", "/") for part in re.split(r"(?<!/)/(?!/)", html)[2:]]
        else:
            texts.append(html)
    for html in texts:
        if "multilang" not in html:
            continue
        html = re.sub(r"^q\d+ ", "", html)
        spans = re.findall(r'<span lang="([a-z_]+)" class="multilang">(.*?)</span>', html)
        assert [lang for lang, _ in spans] == ["en", "fr", "nl"]  # English first, adjacent blocks
        assert all("<span" not in body for _, body in spans)  # nothing nested
        assert re.fullmatch(r'(<p>)?(<span lang="[a-z_]+" class="multilang">[^<]*</span>)+(</p>)?', html.replace("<br>", "")), html[:200]


# --- QTI --------------------------------------------------------------------------------

QTI = QTI_XSD
_schema = qti_schema


@pytest.mark.parametrize("version", sorted(QTI))
def test_qti_packages_validate_against_the_official_schemas(version, banks, trees):
    content_xsd, manifest_xsd = (_schema(p) for p in QTI[version])
    for lang, bank in banks.items():
        archive = zipfile.ZipFile(io.BytesIO(trees[version][PurePosixPath(f"aistack-{lang}.zip")]))
        names = archive.namelist()
        assert names == sorted(names)
        assert all(info.date_time == (1980, 1, 1, 0, 0, 0) for info in archive.infolist())
        manifest = etree.fromstring(archive.read("imsmanifest.xml"), SAFE_PARSER)
        manifest_xsd.assertValid(manifest)
        hrefs = {f.get("href") for f in manifest.iter("{*}file")}
        assert hrefs == set(names) - {"imsmanifest.xml"}  # every file referenced, nothing missing
        keys = {}
        for name in names:
            if name == "imsmanifest.xml":
                continue
            doc = etree.fromstring(archive.read(name), SAFE_PARSER)
            content_xsd.assertValid(doc)
            correct = doc.find(".//{*}correctResponse/{*}value") if version == "qti21" else doc.find(".//{*}qti-correct-response/{*}qti-value")
            if correct is not None:
                keys[doc.get("identifier")] = correct.text
        assert keys == {f"{q.id}-{lang}": f"choice-{q.correct}" for q in bank.questions}


# --- GIFT -------------------------------------------------------------------------------

def parse_gift(text: str) -> list[dict]:
    """A small GIFT reader for multiple-choice questions, following Moodle's escaping rules."""
    questions = []
    text = "\n".join(line for line in text.split("\n") if not line.lstrip().startswith("//"))
    for block in re.split(r"\n\s*\n", text):
        block = block.strip()
        if not block or block.startswith("$CATEGORY:"):
            continue
        m = re.match(r"::((?:\\.|[^:\\])*)::(.*)$", block, re.S)
        assert m, block[:80]
        title, rest = _unescape(m.group(1)), m.group(2)
        open_at = _unescaped_index(rest, "{")
        close_at = _unescaped_rindex(rest, "}")
        stem, body = rest[:open_at].strip(), rest[open_at + 1:close_at]
        general = None
        parts = _split_unescaped(body, "####")
        if len(parts) == 2:
            body, general = parts[0], _unescape(parts[1].strip())
        answers = []
        for piece in re.split(r"(?<!\\)(?=[=~])", body):
            piece = piece.strip()
            if not piece:
                continue
            text_part, *feedback = _split_unescaped(piece[1:], "#")
            answers.append({"correct": piece[0] == "=", "text": _unescape(text_part.strip()), "feedback": _unescape(feedback[0].strip()) if feedback else None})
        questions.append({"title": title, "stem": _unescape(stem), "answers": answers, "general": general})
    return questions


def _unescape(s: str) -> str:
    return re.sub(r"\\(.)", lambda m: "\n" if m.group(1) == "n" else m.group(1), s)


def _unescaped_index(s: str, ch: str) -> int:
    return next(i for i in range(len(s)) if s[i] == ch and (i == 0 or s[i - 1] != "\\" or s[i - 2: i] == "\\\\"))


def _unescaped_rindex(s: str, ch: str) -> int:
    return max(i for i in range(len(s)) if s[i] == ch and (i == 0 or s[i - 1] != "\\"))


def _split_unescaped(s: str, sep: str) -> list[str]:
    parts, start, i = [], 0, 0
    while i < len(s):
        if s[i] == "\\":
            i += 2
            continue
        if s.startswith(sep, i):
            parts.append(s[start:i])
            i += len(sep)
            start = i
            continue
        i += 1
    parts.append(s[start:])
    return parts


def test_gift_round_trips_through_a_parser(banks, trees):
    for lang, bank in banks.items():
        parsed = parse_gift(trees["gift"][PurePosixPath(f"aistack-{lang}.gift")].decode("utf-8"))
        assert [p["title"].split(" ")[0] for p in parsed] == [q.id for q in bank.questions]
        for p, q in zip(parsed, bank.questions):
            assert p["stem"] == f"[html]<p>{_html(q.stem)}</p>"
            assert [a["text"] for a in p["answers"]] == [f"<p>{_html(o.text)}</p>" for o in q.options]
            assert [a["correct"] for a in p["answers"]] == [o.id == q.correct for o in q.options]
            assert p["general"] == f"<p>{_html(q.explanation)}</p>"


# --- JSON -------------------------------------------------------------------------------

def test_json_validates_against_its_committed_schema(banks, trees):
    import jsonschema

    from aistack_bank.exchange import CONTRACT_VERSION

    schema = json.loads((REPO / "schema" / "export.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    for name, data in trees["json"].items():
        document = json.loads(data)
        jsonschema.Draft202012Validator(schema).validate(document)
        assert document["version"] == CONTRACT_VERSION == "2.5"
        assert document["topic"]["category_id"] == banks["en"].category.id
        assert [q["id"] for q in document["questions"]] == [q.id for q in banks["en"].questions]
    everything = json.loads(trees["json"][PurePosixPath("aistack.json")])
    assert everything["languages"] == list(banks)
    for q in everything["questions"]:
        assert set(q["stem"]) == set(banks), q["id"]
    assert [o["id"] for o in q["options"] if o["correct"]] == [q["correct"]]


# --- hostile text through every exporter --------------------------------------------------

HOSTILE = 'Evil <script>alert("x")</script> ]]> & { } ~ = # : \\ \\n %s {0} <!-- --> \u00a0 “quotes”'


def hostile_bank(lang: str = "en") -> Bank:
    topic = Topic(id="hostile-topic", category="cat-with-slashes", title="Title / ]]> <b>x</b> {~=#:}", summary=HOSTILE,
                  key_points=[KeyPoint(id="k1", text=HOSTILE)], tags={"memory": "x"}, questions=["q001", "q002"])
    def q(qid):
        return SingleChoiceQuestion(id=qid, kind="single-choice", stem=HOSTILE, explanation=HOSTILE + " explanation", tags=["memory"], difficulty=2,
                                    options=[Option(id="a", text=HOSTILE + " A", feedback=HOSTILE + " fa"), Option(id="b", text="B = {1} ~ 2 # 3", feedback=None)], correct="b")
    return Bank(topic=topic, category=Category(id="cat-with-slashes", title="Cat/with/slashes"), questions=(q("q001"), q("q002")), lang=lang)


@pytest.mark.parametrize("name", sorted(FORMATS))
def test_hostile_text_survives_every_exporter(name):
    banks = {"en": hostile_bank("en"), "fr": hostile_bank("fr")}
    tree = get_format(name)(banks, ExportOptions())
    assert tree
    checked_pages = 0
    for path, data in tree.items():
        if path.suffix == ".xml":
            root = etree.fromstring(data, SAFE_PARSER)
            texts = " ".join(t.text or "" for t in root.iter("text"))
            assert "<script>" not in texts and "&lt;script&gt;" in texts
            # what Moodle shows: each stem's HTML, parsed, gives back the text (once per language)
            for stem in root.iterfind("question[@type='multichoice']/questiontext/text"):
                shown = lxml.html.fragment_fromstring(stem.text, create_parent="div")
                spans = shown.xpath("//span[@class='multilang']")
                assert [s.text_content() for s in spans] == ([HOSTILE] * len(banks) if path.name == "hostile-topic-multilang.xml" else []), stem.text
                if not spans:
                    assert shown.text_content() == HOSTILE
                assert not shown.xpath("//script")
        elif path.suffix == ".zip":
            archive = zipfile.ZipFile(io.BytesIO(data))
            for member in archive.namelist():
                doc = etree.fromstring(archive.read(member), SAFE_PARSER)
                if member.startswith("items/"):
                    _schema(QTI[name][0]).assertValid(doc)
                    prompt = "".join(doc.find(".//{*}prompt" if name == "qti21" else ".//{*}qti-prompt").itertext())
                    assert prompt == HOSTILE
        elif path.suffix == ".gift":
            parsed = parse_gift(data.decode("utf-8"))
            assert len(parsed) == 2
            for p in parsed:
                assert [a["correct"] for a in p["answers"]] == [False, True]
                if path.name != "hostile-topic-multilang.gift":
                    assert p["stem"] == f"[html]<p>{_html(HOSTILE)}</p>"
                    assert p["answers"][1]["text"] == "<p>B = {1} ~ 2 # 3</p>"
        elif path.suffix == ".json":
            document = json.loads(data)
            lang = document["languages"][0]
            assert document["questions"][0]["stem"][lang] == HOSTILE
        elif path.suffix == ".html":
            checked_pages += _assert_site_page_shows_hostile_text(path, data, banks)
    if name == "html":
        assert checked_pages == len(banks)  # every language's page was read back


def _assert_site_page_shows_hostile_text(path, data: bytes, banks) -> int:
    """Parse a practice-site page as a browser would and find the hostile texts back as text."""
    import lxml.html

    if len(path.parts) == 1:  # the language chooser holds no bank text
        return 0
    bank = banks[path.parts[0]]
    doc = lxml.html.document_fromstring(data.decode("utf-8"))
    assert doc.xpath("//h1")[0].text_content() == bank.topic.title  # the topic view's heading
    assert [li.text_content() for li in doc.xpath('//ol[@id="question-list"]/li')] == [q.stem for q in bank.questions] == [HOSTILE, HOSTILE]
    text = doc.text_content()
    assert HOSTILE in text and bank.topic.summary in text
    # the hostile markup stayed text: no element, attribute or comment came from it
    assert not doc.xpath("//b")  # from the title's <b>x</b>
    assert all(c.text != " " for c in doc.xpath("//comment()"))  # from the text's <!-- -->
    scripts = doc.xpath("//script")
    assert all("alert(" not in (s.text or "") or s.get("type") == "application/json" for s in scripts)
    data_block = doc.xpath('//script[@id="bank-data"]')
    assert len(data_block) == 1
    payload = json.loads(data_block[0].text)

    def strings(value):
        if isinstance(value, str):
            yield value
        elif isinstance(value, dict):
            for v in value.values():
                yield from strings(v)
        elif isinstance(value, list):
            for v in value:
                yield from strings(v)

    assert HOSTILE in set(strings(payload))
    return 1


def test_gift_escape_covers_every_reserved_character():
    assert gift_escape("~=#{}:\\\n") == "\\~\\=\\#\\{\\}\\:\\\\\\n"


def test_cdata_end_marker_is_split():
    from aistack_bank.exporters.common import cdata

    wrapped = cdata("a ]]> b")
    assert etree.fromstring(f"<t>{wrapped}</t>".encode()).text == "a ]]> b"


# --- CLI --------------------------------------------------------------------------------

def test_export_one_format_and_language(project, run_cli):
    keep_only(project)
    code, out = run_cli("export", "gift", "--lang", "nl", "--out", "gift-out")
    assert code == 0, out
    assert sorted(p.name for p in Path("gift-out").iterdir()) == ["aistack-nl.gift"]
    assert "gift" in out and "nl" in out and f"{bank_figures(project)['questions']} questions" in out


def test_export_refuses_an_invalid_bank_and_writes_nothing(project, run_cli):
    keep_only(project)
    path = next((project / "bank" / "ai-hardware-software-stack" / "questions").glob("q001-*.yaml"))
    path.write_text(path.read_text(encoding="utf-8").replace("correct: a", "correct: x"), encoding="utf-8")
    code, out = run_cli("build", "--out", "exports")
    assert code == 1 and "E304" in out and "nothing was exported" in out
    assert not Path("exports").exists()


def test_unknown_language_is_a_usage_error(project, run_cli):
    code, out = run_cli("export", "json", "--lang", "de")
    assert code == 2 and "unknown language 'de'; available: en, fr, nl, all" in out


def test_build_prunes_files_it_no_longer_produces(project, run_cli):
    keep_only(project)  # two builds: twelve questions are enough
    assert run_cli("build", "--out", "exports", "-q")[0] == 0
    (project / "translations" / "nl.po").unlink()
    code, out = run_cli("build", "--out", "exports")
    assert code == 0
    assert not Path("exports/gift/aistack-nl.gift").exists()
    assert Path("exports/gift/aistack-fr.gift").exists()
    report = out.splitlines()
    assert "removed   exports/gift/aistack-nl.gift" in report  # reported as removed, not as a file written with 0 bytes
    assert not [line for line in report if line.startswith("wrote") and "aistack-nl" in line]
