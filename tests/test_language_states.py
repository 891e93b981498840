"""Languages have states: a language in progress is left out of every export with one warning,
unless the project opts into fallback, when every English fallback text is marked as English."""

from __future__ import annotations

import html
import io
import json
import re
import shlex
import shutil
import zipfile
from pathlib import Path

import jsonschema
import polib
import pytest
import yaml

from conftest import REPO, half_german_course


@pytest.fixture(scope="module")
def half_german_template(tmp_path_factory) -> Path:
    """`bank init --languages de,es`, then every other German entry translated: made once per
    module and never changed (each test works on its own copy, ``half_german``)."""
    return half_german_course(tmp_path_factory.mktemp("half-german"))


@pytest.fixture
def half_german(half_german_template, tmp_path, monkeypatch) -> Path:
    """A copy of ``half_german_template`` of the test's own (without the project's cache folder,
    so that each test starts as the first command run on it), the working directory set to it."""
    root = tmp_path / "course"
    shutil.copytree(half_german_template, root, symlinks=True, ignore=shutil.ignore_patterns(".bank-cache"))
    monkeypatch.chdir(root)
    return root


def missing_german(root: Path) -> list[str]:
    return [entry.msgid for entry in polib.pofile(str(root / "translations" / "de.po")) if not entry.msgstr]


def one_warning_each(out: str) -> None:
    assert out.count("translations/de.po: warning W558:") == 1, out
    assert re.search(r"de is \d+\.\d% translated \(ready at 100%\).*`bank i18n todo de`", out), out
    assert out.count("translations/es.po: warning W552:") == 1, out
    assert "E509" not in out and "W501" not in out.split("W558")[0][-200:]


def test_a_language_in_progress_is_left_out_of_build_lint_hooks_and_ci(half_german, run_cli):
    code, out = run_cli("build")
    assert code == 0, out
    one_warning_each(out)
    exported = {p.name for p in (half_german / "exports").rglob("*") if p.is_file()}
    assert not any(re.search(r"-(de|es)\b|/(de|es)/", name) for name in exported), exported
    assert not (half_german / "exports" / "site" / "de").exists()
    code, out = run_cli("lint")
    assert code == 0, out
    one_warning_each(out)
    hooks = yaml.safe_load((half_german / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    commands = [hook["entry"] for repo in hooks["repos"] for hook in repo["hooks"]]
    workflow = yaml.safe_load((half_german / ".github" / "workflows" / "bank.yml").read_text(encoding="utf-8"))
    commands += [step["run"] for step in workflow["jobs"]["bank"]["steps"] if str(step.get("run", "")).startswith("bank ")]
    assert any("build --compare" in c for c in commands) and any(c.startswith("bank validate") for c in commands)
    for command in commands:
        code, out = run_cli(*shlex.split(command)[1:])
        assert code == 0, (command, out)


def test_a_ready_threshold_below_100_exports_the_language_with_marked_fallbacks(half_german, run_cli):
    (half_german / "bank.toml").write_text("[languages]\nready = 50\n", encoding="utf-8")
    code, out = run_cli("build")
    assert code == 0, out
    assert "translations/de.po: warning W559:" in out and "W558" not in out
    assert (half_german / "exports" / "moodle" / "statistics-de-with-en.xml").is_file()  # named for what it holds
    assert not (half_german / "exports" / "moodle" / "statistics-es.xml").exists()  # nothing translated: never


def test_bad_language_settings_are_located(half_german, run_cli):
    (half_german / "bank.toml").write_text("[languages]\nready = 0\n", encoding="utf-8")
    code, out = run_cli("build")
    assert code == 2 and "bank.toml:2:1: error E801" in out and "ready must be a percentage" in out, out


def _marked_everywhere(text: str, escaped: str, where: str) -> None:
    """Each whole occurrence of ``escaped`` in ``text`` opens right after a tag that says lang en."""
    found = 0
    for match in re.finditer(re.escape(escaped), text):
        found += 1
        before = text[:match.start()]
        tag = before[before.rfind("<"):]
        assert re.fullmatch(r'<[^<>]*\blang\\?="en"[^<>]*>', tag), (where, tag, escaped)
    assert found, (where, escaped)


def test_with_fallback_every_fallback_text_is_marked_english_in_every_format_that_can(half_german, run_cli):
    (half_german / "bank.toml").write_text("[languages]\nfallback = true\n", encoding="utf-8")
    code, out = run_cli("build")
    assert code == 0, out
    assert out.count("translations/de.po: warning W559:") == 1 and "W558" not in out, out
    assert out.count("translations/es.po: warning W552:") == 1  # nothing translated: never exported as Spanish
    exports = half_german / "exports"
    assert not list(exports.rglob("*-es.*")) and not (exports / "site" / "es").exists()
    # every German file and the site's German pages are named for what they hold: German and English
    german = sorted(p.relative_to(exports).as_posix() for p in exports.rglob("*") if p.is_file() and "de" in re.split(r"[-/.]", p.relative_to(exports).as_posix()))
    assert german == sorted(["aiken/statistics-de-with-en.txt", "canvas-qti12/statistics-de-with-en.zip", "common-cartridge/statistics-de-with-en.imscc",
                             "gift/statistics-de-with-en.gift", "json/statistics-de-with-en.json", "moodle/statistics-de-with-en.xml",
                             "qti21/statistics-de-with-en.zip", "qti30/statistics-de-with-en.zip", "site/de-with-en/index.html"]), german
    assert 'href="de-with-en/index.html" hreflang="de"' in (exports / "site" / "index.html").read_text(encoding="utf-8")
    assert 'href="%s/de-with-en/index.html" hreflang="de"' % ".." in (exports / "site" / "en" / "index.html").read_text(encoding="utf-8")  # the folder above
    guide = (exports / "README.md").read_text(encoding="utf-8")
    assert "`moodle/statistics-de-with-en.xml`" in guide and "`site/de-with-en/`" in guide and "German — Deutsch (`de`). Their files and site folders are named for what they hold" in guide
    stems = {"title", "summary"}  # the topic's: written as names and headings, not as paragraphs
    po = polib.pofile(str(half_german / "translations" / "de.po"))
    missing = [e.msgid for e in po if not e.msgstr and not any(e.msgctxt.endswith("." + s) for s in stems) and not e.msgctxt.startswith("category.")]
    assert missing
    moodle = (exports / "moodle" / "statistics-de-with-en.xml").read_text(encoding="utf-8")
    gift = (exports / "gift" / "statistics-de-with-en.gift").read_text(encoding="utf-8")
    multilang = (exports / "moodle" / "statistics-multilang.xml").read_text(encoding="utf-8")
    packages = {name: zipfile.ZipFile(io.BytesIO((exports / name / "statistics-de-with-en.zip").read_bytes())) for name in ("qti21", "qti30")}
    items = {name: "".join(z.read(n).decode("utf-8") for n in z.namelist() if n.startswith("items/")) for name, z in packages.items()}
    site = (exports / "site" / "de-with-en" / "index.html").read_text(encoding="utf-8")
    for text in missing:
        escaped = html.escape(text, quote=True)
        _marked_everywhere(moodle, escaped, "moodle-xml")
        _marked_everywhere(gift, re.sub(r"([~=#{}:])", r"\\\1", escaped), "gift")
        for name, body in items.items():
            _marked_everywhere(body, escaped, name)
        # Moodle's multilang filter shows the English block when there is none for German.
        assert f'<span lang="de" class="multilang">{escaped}</span>' not in multilang
        assert f'<span lang="en" class="multilang">{escaped}</span>' in multilang
    data = re.search(r'<script type="application/json" id="bank-data">(.*?)</script>', site, re.S)
    assert data is not None
    assert set(missing) <= set(json.loads(data.group(1))["english"])
    # Canvas QTI 1.2 and Common Cartridge: the HTML of a mattext, escaped once more.
    # JSON: each English text under "de" is listed in `fallback` by its JSON Pointer, and only those
    for name in ("statistics-de-with-en.json", "statistics.json"):
        document = json.loads((exports / "json" / name).read_text(encoding="utf-8"))
        assert document["version"] == "2.5"
        jsonschema.Draft202012Validator(json.loads((REPO / "schema" / "export.schema.json").read_text(encoding="utf-8"))).validate(document)
        pointed = {pointer: _resolve(document, pointer) for pointer in document["fallback"]}
        assert all(pointer.split("/")[-1] == "de" or "/de/" in pointer for pointer in pointed), (name, pointed)
        assert set(missing) <= set(pointed.values()), (name, set(missing) - set(pointed.values()))
        german_texts = [text for pointer, text in _texts_of(document, "de")]
        translated = {e.msgstr for e in po if e.msgstr}
        assert not any(text in translated for text in pointed.values()), name
        assert {pointer for pointer, text in _texts_of(document, "de") if text not in translated and text in {e.msgid for e in po}} <= set(pointed), name
        assert german_texts
    for folder, name in (("canvas-qti12", "statistics-de-with-en.zip"), ("common-cartridge", "statistics-de-with-en.imscc")):
        package = zipfile.ZipFile(io.BytesIO((exports / folder / name).read_bytes()))
        body = "".join(package.read(n).decode("utf-8") for n in package.namelist() if n.endswith(".xml"))
        marked = 0
        for text in missing:
            twice = html.escape(html.escape(text, quote=True), quote=True)
            assert f"&lt;p&gt;{twice}" not in body, (folder, text)
            marked += f"&lt;p lang=&quot;en&quot;&gt;{twice}" in body
        assert marked, folder
    # bank lint reads the marked files as the LMSs do: the marks change nothing they read.
    code, out = run_cli("lint", "--lang", "de")
    assert code == 0 and "W559" in out and "W807" not in out and "W806" not in out, out
    # Translated texts are not marked.
    translated = next(e.msgstr for e in po if e.msgstr and re.search(r"\.(stem|explanation|option\.[a-z]+(\.feedback)?)$", e.msgctxt))
    assert f'<p>{html.escape(translated, quote=True)}</p>' in moodle


def _resolve(document, pointer: str):
    """The value at a JSON Pointer (RFC 6901)."""
    node = document
    for part in pointer.split("/")[1:]:
        part = part.replace("~1", "/").replace("~0", "~")
        node = node[int(part)] if isinstance(node, list) else node[part]
    return node


def _texts_of(document, lang: str):
    """(pointer, text) of every text under the language code ``lang``."""
    def walk(node, path, inside):
        if isinstance(node, dict):
            for key, value in node.items():
                if key != "tags":
                    yield from walk(value, f"{path}/{key}", inside or key == lang)
        elif isinstance(node, list):
            for index, value in enumerate(node):
                yield from walk(value, f"{path}/{index}", inside)
        elif isinstance(node, str) and inside:
            yield path, node

    yield from walk(document, "", False)


def test_status_names_each_languages_state(half_german, run_cli):
    code, out = run_cli("i18n", "status", "--format", "json")
    assert code == 0
    states = {s["language"]: s["state"] for s in json.loads(out)["languages"]}
    assert states == {"en": "source", "de": "in progress", "es": "not started"}
    code, out = run_cli("i18n", "status")
    assert "de: in progress (ready at 100%): left out of the exports; `bank i18n todo de` lists what is missing" in out
    assert "es: not started: left out of the exports" in out
    code, out = run_cli("i18n", "status", "--fail-under", "100")  # the CI gate a team chooses
    assert code == 1 and "below 100%: de 5" in out
    (half_german / "bank.toml").write_text("[languages]\nready = 50\n", encoding="utf-8")
    code, out = run_cli("i18n", "status", "--format", "json")
    assert {s["language"]: s["state"] for s in json.loads(out)["languages"]}["de"] == "ready"


def test_a_bank_of_several_topics_names_every_fallback_file_and_page_and_links_them(tmp_path):
    """With several topics: each topic's files, the whole-bank files and every page of the site
    are named for a language with English fallbacks, and the site's links reach its pages."""
    from pathlib import PurePosixPath
    from types import MappingProxyType

    from aistack_bank.build import render
    from aistack_bank.exporters import FORMATS
    from aistack_bank.options import ExportOptions

    from topics_sample import libraries

    banks = libraries()
    english = MappingProxyType({"fr": (banks["en"].topics[0].questions[0].stem,)})  # French shows one English text
    trees = render(list(FORMATS), banks, ExportOptions(english=english))
    for name, tree in trees.items():
        paths = [PurePosixPath(FORMATS[name].folder) / path for path in tree]
        french = [p.as_posix() for p in paths if tree.language(p.relative_to(FORMATS[name].folder)) == "fr"]
        assert french and all("fr-with-en" in p for p in french), (name, french)
        assert not any(re.search(r"(^|[-/])nl-with-en", p.as_posix()) for p in paths), name
    site = trees["html"]
    pages = {PurePosixPath(path) for path in site}
    assert PurePosixPath("fr-with-en/topics/networks-1/index.html") in pages and PurePosixPath("fr-with-en/index.html") in pages
    for path in pages:
        for href in re.findall(r'href="([^"#:]+\.html)"', site[path].decode("utf-8")):
            target = PurePosixPath(*[part for part in (path.parent / href).parts])
            parts: list[str] = []
            for part in target.parts:
                parts = parts[:-1] if part == ".." else [*parts, part]
            assert PurePosixPath(*parts) in pages, (path, href)


def test_lint_takes_the_fallback_option_of_build(half_german, run_cli):
    code, out = run_cli("lint", "--allow-fallback")
    assert code == 0, out
    assert out.count("translations/de.po: warning W559:") == 1 and "W558" not in out, out
    assert out.count("translations/es.po: warning W552:") == 1  # nothing translated: never linted as Spanish


def test_a_key_point_in_english_is_marked_on_the_page_and_in_the_json(half_german, run_cli):
    topic = half_german / "bank" / "statistics" / "topic.yaml"
    point = "The median is the middle value of the sorted data."
    topic.write_text(topic.read_text(encoding="utf-8").replace("key_points: []\n", f"key_points:\n  - id: k1\n    text: {point}\n"), encoding="utf-8")
    assert run_cli("i18n", "update")[0] == 0
    assert not polib.pofile(str(half_german / "translations" / "de.po")).find("topic.statistics.key_point.k1", by="msgctxt").msgstr
    code, out = run_cli("build", "--allow-fallback")
    assert code == 0, out
    site = (half_german / "exports" / "site" / "de-with-en" / "index.html").read_text(encoding="utf-8")
    assert f'<p class="text" lang="en">{point}</p>' in site
    assert f'<p class="text">{point}</p>' in (half_german / "exports" / "site" / "en" / "index.html").read_text(encoding="utf-8")
    document = json.loads((half_german / "exports" / "json" / "statistics-de-with-en.json").read_text(encoding="utf-8"))
    assert "/topic/key_points/0/de" in document["fallback"] and document["topic"]["key_point_ids"] == ["k1"]
