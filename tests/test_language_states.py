"""Languages have states: a language in progress is left out of every export with one warning,
unless the project opts into fallback, when every English fallback text is marked as English."""

from __future__ import annotations

import html
import io
import json
import re
import shlex
import zipfile
from pathlib import Path

import polib
import pytest
import yaml


@pytest.fixture
def half_german(tmp_path, monkeypatch, run_cli) -> Path:
    """`bank init --languages de,es`, then every other German entry translated."""
    monkeypatch.chdir(tmp_path)
    code, out = run_cli("init", "course", "--languages", "de,es", "--title", "Statistics", "--category", "Mathematics")
    assert code == 0, out
    root = tmp_path / "course"
    monkeypatch.chdir(root)
    po = polib.pofile(str(root / "translations" / "de.po"))
    for index, entry in enumerate(po):
        if index % 2 == 0:
            entry.msgstr = "Auf Deutsch: " + entry.msgid
    po.save()
    code, out = run_cli("i18n", "update")  # the catalog as the tool writes it (as msgmerge would)
    assert code == 0, out
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
    assert (half_german / "exports" / "moodle" / "statistics-de.xml").is_file()
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
    stems = {"title", "summary"}  # the topic's: written as names and headings, not as paragraphs
    po = polib.pofile(str(half_german / "translations" / "de.po"))
    missing = [e.msgid for e in po if not e.msgstr and not any(e.msgctxt.endswith("." + s) for s in stems) and not e.msgctxt.startswith("category.")]
    assert missing
    moodle = (exports / "moodle" / "statistics-de.xml").read_text(encoding="utf-8")
    gift = (exports / "gift" / "statistics-de.gift").read_text(encoding="utf-8")
    multilang = (exports / "moodle" / "statistics-multilang.xml").read_text(encoding="utf-8")
    packages = {name: zipfile.ZipFile(io.BytesIO((exports / name / "statistics-de.zip").read_bytes())) for name in ("qti21", "qti30")}
    items = {name: "".join(z.read(n).decode("utf-8") for n in z.namelist() if n.startswith("items/")) for name, z in packages.items()}
    site = (exports / "site" / "de" / "index.html").read_text(encoding="utf-8")
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
    for folder, name in (("canvas-qti12", "statistics-de.zip"), ("common-cartridge", "statistics-de.imscc")):
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
