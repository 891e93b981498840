"""Canvas QTI 1.2, Common Cartridge and Aiken exports; QTI, Aiken and text2qti imports.

Round trips (bank → export → import → the same bank) on the bundled bank and the golden bank,
the package structure Canvas's importer and Common Cartridge consumers rely on, the Canvas
Classic and TAO fixtures, the plain-text syntaxes as their own tools document them, and hostile
archives refused before anything is read or written.
"""

from __future__ import annotations

import io
import os
import re
import stat
import zipfile
from pathlib import Path

import pytest
from lxml import etree

from aistack_bank.build import available_languages, load_localized, render
from aistack_bank.errors import BankError
from aistack_bank.exporters import FORMATS as FORMAT_RECORDS, export_notes
from aistack_bank.exporters.common import deterministic_zip
from aistack_bank.importers import read_questions
from aistack_bank.model import Bank, Option, SingleChoiceQuestion
from aistack_bank.options import ExportOptions

from conftest import REPO

FORMATS = ["canvas-qti12", "common-cartridge", "aiken"]
IMPORTS = REPO / "tests" / "data" / "imports"
QTI12 = "{http://www.imsglobal.org/xsd/ims_qtiasiv1p2}"
SAFE = etree.XMLParser(no_network=True, resolve_entities=False)
SOURCES = {
    "bundled": (REPO / "bank", REPO / "translations"),
    "golden": (REPO / "tests" / "golden" / "bank", REPO / "tests" / "golden" / "translations"),
}


@pytest.fixture(scope="module", params=sorted(SOURCES))
def rendered(request):
    bank, translations = SOURCES[request.param]
    banks = load_localized(bank, translations, available_languages(translations))[0]
    return banks, render(FORMATS, banks, ExportOptions())


def _write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def _expected(bank: Bank, *, feedback: bool = True):
    for q in bank.questions:
        options = [(o.text, o.feedback if feedback else None) for o in q.options]
        yield q, options, [o.id for o in q.options].index(q.correct)


@pytest.mark.parametrize("fmt,suffix", [("canvas-qti12", ".zip"), ("common-cartridge", ".imscc")])
def test_qti_packages_round_trip(rendered, tmp_path, fmt, suffix):
    """Stem, options, key, per-option feedback and explanation come back as written, every language."""
    banks, trees = rendered
    for lang, bank in banks.items():
        data = next(v for k, v in trees[fmt].items() if k.name == f"aistack-{lang}{suffix}")
        path = _write(tmp_path, f"{lang}{suffix}", data)
        questions, skipped = read_questions("qti", path)
        if fmt == "common-cartridge":  # the bank and the assessment hold the same questions
            assert len(skipped) == len(bank.questions) and all("same question" in s.reason for s in skipped)
        else:
            assert skipped == []
        assert len(questions) == len(bank.questions)
        for got, (q, options, correct) in zip(questions, _expected(bank)):
            assert (got.stem, got.options, got.correct, got.explanation) == (q.stem, options, correct, q.explanation), f"{fmt} {lang} {q.id}"


def test_aiken_round_trips_stem_options_and_key(rendered, tmp_path):
    banks, trees = rendered
    from aistack_bank.exporters.aiken import why_not

    for lang, bank in banks.items():
        data = next(v for k, v in trees["aiken"].items() if k.name == f"aistack-{lang}.txt")
        questions, skipped = read_questions("aiken", _write(tmp_path, f"{lang}.txt", data))
        carried = [(q, o, c) for q, o, c in _expected(bank, feedback=False) if why_not(q) is None]
        assert skipped == [] and len(questions) == len(carried)
        for got, (q, options, correct) in zip(questions, carried):
            assert (got.stem, got.options, got.correct) == (q.stem, options, correct)


def test_aiken_lists_every_question_it_cannot_carry_and_says_feedback_is_lost(run_cli, tmp_path):
    bank, translations = SOURCES["golden"]
    code, out = run_cli("export", "aiken", "--bank", str(bank), "--translations", str(translations), "--out", str(tmp_path))
    assert code == 0, out
    assert "W653" in out and "feedback" in out
    banks = load_localized(bank, translations, ["en"])[0]
    multiline = [q.id for q in banks["en"].questions if "\n" in q.stem or any("\n" in o.text for o in q.options)]
    assert multiline, "the golden bank has multi-line stems"
    for qid in multiline:
        assert re.search(rf"W654: aiken: {qid} \(", out), qid
        assert not re.search(rf"(?m)^{re.escape(banks['en'].questions[[q.id for q in banks['en'].questions].index(qid)].stem.splitlines()[0])}$", (tmp_path / "aistack-en.txt").read_text())


def _question(qid: str, stem: str, texts: list[str], correct: int = 0) -> SingleChoiceQuestion:
    return SingleChoiceQuestion(id=qid, kind="single-choice", stem=stem, explanation="Because.", tags=["t"], difficulty=1,
                                options=[Option(id=chr(97 + i), text=t) for i, t in enumerate(texts)], correct=chr(97 + correct))


def test_aiken_leaves_out_what_moodle_would_misread(tmp_path):
    from aistack_bank.exporters import aiken

    banks = load_localized(REPO / "tests" / "golden" / "bank", None, ["en"])[0]
    bank = banks["en"]
    odd = [_question("q901", "A) looks like an option", ["x", "y"]), _question("q902", "ANSWER: looks like the key", ["x", "y"]),
           _question("q903", "Fine stem", ["one\ntwo", "y"]), _question("q904", "Fine stem", ["x", "y"], 1)]
    bank = bank.model_copy(update={"questions": tuple(odd)})
    text = aiken.render(bank).decode()
    assert text == "Fine stem\nA) x\nB) y\nANSWER: B\n"
    notes = aiken.notes({"en": bank}, ExportOptions())
    assert [n.code for n in notes] == ["W653", "W654", "W654", "W654"]
    assert all(qid in str(n) for n, qid in zip(notes[1:], ["q901", "q902", "q903"]))


def test_canvas_package_cross_references_match(rendered):
    """Canvas drops a quiz's settings when assessment_meta.xml and the manifest disagree."""
    banks, trees = rendered
    for rel, data in trees["canvas-qti12"].items():
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            names = set(zf.namelist())
            manifest = etree.fromstring(zf.read("imsmanifest.xml"), SAFE)
            cp = "{http://www.imsglobal.org/xsd/imsccv1p1/imscp_v1p1}"
            qti = [r for r in manifest.iter(f"{cp}resource") if r.get("type") == "imsqti_xmlv1p2"]
            assert len(qti) == 1
            ident = qti[0].get("identifier")
            assert {f"{ident}/{ident}.xml", f"{ident}/assessment_meta.xml", "imsmanifest.xml"} == names
            dep = qti[0].find(f"{cp}dependency").get("identifierref")
            meta_res = next(r for r in manifest.iter(f"{cp}resource") if r.get("identifier") == dep)
            assert meta_res.get("href") == f"{ident}/assessment_meta.xml"
            meta = etree.fromstring(zf.read(f"{ident}/assessment_meta.xml"), SAFE)
            assert meta.get("identifier") == ident
            quiz = etree.fromstring(zf.read(f"{ident}/{ident}.xml"), SAFE)
            assessment = quiz.find(f"{QTI12}assessment")
            assert assessment.get("ident") == ident
            items = list(assessment.iter(f"{QTI12}item"))
            lang = rel.stem.rsplit("-", 1)[1]
            assert len(items) == len(banks[lang].questions)
            assert float(meta.find("{http://canvas.instructure.com/xsd/cccv1p0}points_possible").text) == len(items)
            item_idents = [i.get("ident") for i in items]
            assert len(item_idents) == len(set(item_idents))
            for item in items:
                fields = {f.findtext(f"{QTI12}fieldlabel"): f.findtext(f"{QTI12}fieldentry") for f in item.iter(f"{QTI12}qtimetadatafield")}
                assert fields["question_type"] == "multiple_choice_question" and fields["points_possible"] == "1.0"
                answers = [label.get("ident") for label in item.iter(f"{QTI12}response_label")]
                assert fields["original_answer_ids"].split(",") == answers
                feedback = {f.get("ident") for f in item.iter(f"{QTI12}itemfeedback")}
                links = {d.get("linkrefid") for d in item.iter(f"{QTI12}displayfeedback")}
                assert links == feedback and "general_fb" in feedback
                # Canvas reads an identifier matching /correct|(_C$)/i as the "right answer" comment.
                assert not any(re.search(r"correct|_C$", f, re.I) for f in feedback)


def test_common_cartridge_lists_a_bank_and_an_assessment(rendered):
    banks, trees = rendered
    cc = "{http://www.imsglobal.org/xsd/imsccv1p1/imscp_v1p1}"
    for rel, data in trees["common-cartridge"].items():
        assert rel.suffix == ".imscc"
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            manifest = etree.fromstring(zf.read("imsmanifest.xml"), SAFE)
            assert manifest.findtext(f"{cc}metadata/{cc}schema") == "IMS Common Cartridge"
            assert manifest.findtext(f"{cc}metadata/{cc}schemaversion") == "1.1.0"
            resources = {r.get("type"): r for r in manifest.iter(f"{cc}resource")}
            assert set(resources) == {"imsqti_xmlv1p2/imscc_xmlv1p1/assessment", "imsqti_xmlv1p2/imscc_xmlv1p1/question-bank"}
            refs = {i.get("identifierref") for i in manifest.iter(f"{cc}item") if i.get("identifierref")}
            assert refs == {resources["imsqti_xmlv1p2/imscc_xmlv1p1/assessment"].get("identifier")}
            assessment = etree.fromstring(zf.read(resources["imsqti_xmlv1p2/imscc_xmlv1p1/assessment"].find(f"{cc}file").get("href")), SAFE)
            bank = etree.fromstring(zf.read(resources["imsqti_xmlv1p2/imscc_xmlv1p1/question-bank"].find(f"{cc}file").get("href")), SAFE)
            assert [c.tag for c in assessment] == [f"{QTI12}assessment"] and [c.tag for c in bank] == [f"{QTI12}objectbank"]
            # The CC profile: one section, cc_profile on the assessment and on each item, setvar Set only.
            assert len(assessment.findall(f"{QTI12}assessment/{QTI12}section")) == 1
            for root in (assessment, bank):
                for item in root.iter(f"{QTI12}item"):
                    fields = {f.findtext(f"{QTI12}fieldlabel"): f.findtext(f"{QTI12}fieldentry") for f in item.iter(f"{QTI12}qtimetadatafield")}
                    assert fields["cc_profile"] == "cc.multiple_choice.v0p1"
                    assert {s.get("action") for s in item.iter(f"{QTI12}setvar")} == {"Set"}
            item_ids = [i.get("ident") for i in assessment.iter(f"{QTI12}item")] + [i.get("ident") for i in bank.iter(f"{QTI12}item")]
            assert len(item_ids) == len(set(item_ids))


def test_every_new_export_carries_only_kinds_it_knows():
    """A question of a kind an export cannot carry is left out with a warning naming it."""

    class Other:
        id = "q999"
        kind = "numeric-entry"

    banks = load_localized(REPO / "tests" / "golden" / "bank", None, ["en"])[0]
    bank = banks["en"].model_construct(topic=banks["en"].topic, questions=(*banks["en"].questions, Other()), lang="en")
    with_notes = sorted(name for name, record in FORMAT_RECORDS.items() if record.notes is not None)
    assert with_notes == ["aiken", "canvas-qti12", "common-cartridge", "gift", "moodle-xml", "qti21", "qti30"]
    with_notes = ["aiken", "canvas-qti12", "common-cartridge"]  # the formats that leave a kind out (Moodle XML, GIFT and QTI carry every kind)
    notes = export_notes(with_notes, {"en": bank}, ExportOptions())
    for fmt in with_notes:
        assert any(fmt in str(n) and "q999" in str(n) for n in notes), fmt
    from aistack_bank.exporters import aiken, canvas_qti12, common_cartridge

    assert b"q999" not in canvas_qti12.render_quiz(bank, ExportOptions())
    assert b"q999" not in common_cartridge.render_assessment(bank)
    aiken.render(bank)


# --- fixtures from other tools ----------------------------------------------------------------


@pytest.mark.parametrize("fixture,imported,skipped", [("canvas-classic", 4, 1), ("tao-qti21", 4, 0)])
@pytest.mark.parametrize("zipped", [False, True])
def test_lms_exports_import_into_a_bank_that_validates(run_cli, tmp_path, fixture, imported, skipped, zipped):
    source = IMPORTS / fixture
    if zipped:
        files = {p.relative_to(source).as_posix(): p.read_bytes() for p in sorted(source.rglob("*")) if p.is_file()}
        source = _write(tmp_path, f"{fixture}.zip", deterministic_zip(files))
    bank, tr = tmp_path / "bank", tmp_path / "translations"
    code, out = run_cli("import", "qti", str(source), "--bank", str(bank), "--translations", str(tr))
    assert code == 0, out
    assert f"{imported} question(s) imported, {skipped} skipped" in out
    code, out = run_cli("validate", "--bank", str(bank), "--translations", str(tr))
    assert code == 0, out


def test_canvas_fixture_keeps_answer_feedback_and_reports_what_has_no_place():
    questions, skipped = read_questions("qti", IMPORTS / "canvas-classic")
    first = questions[0]
    assert first.stem == "How many host addresses does a /26 IPv4 subnet offer?"
    assert [o[0] for o in first.options] == ["62", "64", "30", "126"] and first.correct == 0
    assert first.options[1][1].startswith("64 counts") and first.options[0][1] is None
    assert first.explanation.startswith("A /26 leaves 6 host bits")
    assert any("Well done." in n for n in first.notes) and any("Count the host bits" in n for n in first.notes)
    reasons = {s.name.split(": ", 1)[1]: s.reason for s in skipped}
    assert sorted(reasons) == ["Reading"] and "text_only_question" in reasons["Reading"]
    loopback, udp, nat = questions[1:]
    assert nat.kind == "essay" and nat.stem.startswith("Explain")
    assert (loopback.kind, loopback.fields) == ("true-false", {"answer": True})
    assert (udp.kind, [o[0] for o in udp.options], udp.fields) == ("multiple-response", ["DNS", "DHCP", "SSH"], {"correct": ["a", "b"], "scoring": "partial"})


def test_tao_fixture_reads_prompt_body_and_feedback():
    questions, skipped = read_questions("qti", IMPORTS / "tao-qti21")
    gateway, arp, port, private = questions
    assert gateway.stem == "Where does a host send a packet whose destination is outside its own subnet?" and gateway.correct == 1
    assert gateway.explanation.startswith("The gateway is the router")
    assert arp.stem == "ARP runs on an Ethernet LAN.\nWhat does it map?"
    assert arp.options[1] == ("Host names to IPv4 addresses", "That is DNS.") and arp.options[0][1] is None
    assert arp.explanation.startswith("ARP resolves")
    assert not skipped
    assert (port.kind, port.stem, port.fields) == ("short-answer", "HTTPS listens on port _____ by default.", {"answers": [{"text": "443"}], "case_sensitive": True})
    assert (private.kind, [o[0] for o in private.options], private.fields) == (
        "multiple-response", ["10.0.0.0/8", "8.8.8.0/24", "192.168.0.0/16"], {"correct": ["a", "c"], "scoring": "all-or-nothing"})


def test_import_into_an_existing_bank_takes_the_next_free_ids(project, run_cli):
    last = max(int(p.name[1:4]) for p in (project / "bank" / "ai-hardware-software-stack" / "questions").iterdir())
    code, out = run_cli("import", "qti", str(IMPORTS / "tao-qti21"))
    assert code == 0, out
    written = re.findall(r"wrote (\S+)", out)
    assert [Path(w).name[:4] for w in written] == [f"q{last + n:03d}" for n in (1, 2, 3, 4)]
    code, out = run_cli("validate")
    assert code == 0, out


# --- Aiken and text2qti syntax -----------------------------------------------------------------


def test_aiken_reads_as_moodle_does(tmp_path):
    text = "What is 2+2?\nA) 3\nB. 4\nC) 5\nANSWER: B\n\n\nWhich is blue?\r\nA) Sky\r\nB) Grass\r\nANSWER: A\n"
    questions, skipped = read_questions("aiken", _write(tmp_path, "q.txt", text.encode()))
    assert [(q.stem, [o[0] for o in q.options], q.correct) for q in questions] == [("What is 2+2?", ["3", "4", "5"], 1), ("Which is blue?", ["Sky", "Grass"], 0)]
    seven = "Many?\n" + "".join(f"{chr(65 + i)}) {i}\n" for i in range(7)) + "ANSWER: A\n"
    questions, skipped = read_questions("aiken", _write(tmp_path, "s.txt", seven.encode()))
    assert questions == [] and "7 options" in skipped[0].reason and skipped[0].line == 1


@pytest.mark.parametrize("text,line,words", [
    ("Q?\nA) x\nB) y\nANSWER: C\n", 4, "names none"),
    ("Q?\nA) x\nB) y\n", 1, "no ANSWER"),
    ("Q?\nsecond line\nA) x\n", 2, "one line"),
    ("A) x\nANSWER: A\n", 1, "before any question"),
    ("Q?\nA) x\nC) y\nANSWER: A\n", 3, "where B was expected"),
])
def test_aiken_errors_are_located(tmp_path, text, line, words):
    path = _write(tmp_path, "bad.txt", text.encode())
    with pytest.raises(BankError) as info:
        read_questions("aiken", path)
    d = info.value.diagnostic()
    assert d.code == "E724" and d.location.line == line and words in d.message


TEXT2QTI = """\
Quiz title: Addition
Quiz description: Checking addition,
    over two lines.

Title: Sum
Points: 2
1.  What is 2+3? A long stem that
    wraps onto a second line.
... General question feedback.
+   Feedback for correct answer.
-   Feedback for incorrect answer.
a)  6
... Six is one too many.
b)  1
*c) 5
... Right.

2.  Pick both
[*] one
[*] two
[ ] three

3.  Numeric
=   2.2 +- 0.1

4.  Short
*   cat

5.  Essay
____

6.  Upload
^^^^

Text title: Interlude
Text: Some words.

GROUP
pick: 1
7.  In a group?
*a) yes
b)  no
... A wrapped choice feedback
    on two lines.
END_GROUP

```{.python .run}
print("1. generated")
```
"""


def test_text2qti_documented_syntax(tmp_path):
    questions, skipped = read_questions("text2qti", _write(tmp_path, "quiz.txt", TEXT2QTI.encode()))
    first, grouped = questions
    assert first.name == "Sum" and first.category == "Addition"
    assert first.stem == "What is 2+3? A long stem that wraps onto a second line."
    assert first.options == [("6", "Six is one too many."), ("1", None), ("5", "Right.")] and first.correct == 2
    assert first.explanation == "General question feedback."
    assert any("+ Feedback for correct answer." in n for n in first.notes)
    assert grouped.options == [("yes", None), ("no", "A wrapped choice feedback on two lines.")]
    reasons = [s.reason for s in skipped]
    for words in ("multiple-answers", "numerical", "short-answer", "essay", "file-upload", "text region", "code block"):
        assert any(words in r for r in reasons), words
    assert all(s.line for s in skipped)


@pytest.mark.parametrize("text,line,words", [
    ("1. Q\na) x\n*b) y\nnonsense here\n", 4, "does not read"),
    ("stray text\n", 1, "outside any question"),
    ("    indented first\n", 1, "continues nothing"),
    ("1. Q\n*a) x\nb) y\nQuiz title: late\n", 4, "quiz settings come first"),
    ("1. Q\n*a) x\nb) y\n\nTitle: T\nQuiz title: late\n", 6, "quiz settings come first"),
    ("```{.python .run}\nprint(1)\n", 1, "never closed"),
])
def test_text2qti_errors_are_located(tmp_path, text, line, words):
    with pytest.raises(BankError) as info:
        read_questions("text2qti", _write(tmp_path, "bad.txt", text.encode()))
    d = info.value.diagnostic()
    assert d.code == "E725" and d.location.line == line and words in d.message


def test_text2qti_questions_without_one_key_are_skipped(tmp_path):
    text = "1. None right\na) x\nb) y\n\n2. Two right\n*a) x\n*b) y\n\n3. Fine\n*a) x\nb) y\n"
    questions, skipped = read_questions("text2qti", _write(tmp_path, "q.txt", text.encode()))
    assert [q.stem for q in questions] == ["Fine"]
    assert [(s.line, s.reason.split(" ")[0]) for s in skipped] == [(1, "0"), (5, "2")]


# --- hostile packages -----------------------------------------------------------------------------


def _zip(entries) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for info, data in entries:
            zf.writestr(info, data)
    return buffer.getvalue()


MANIFEST = b'<?xml version="1.0"?><manifest xmlns="http://www.imsglobal.org/xsd/imscp_v1p1"><resources><resource identifier="r" type="imsqti_item_xmlv2p1" href="i.xml"><file href="i.xml"/></resource></resources></manifest>'


def _symlink_entry():
    info = zipfile.ZipInfo("link.xml")
    info.create_system = 3
    info.external_attr = (stat.S_IFLNK | 0o777) << 16
    return info, b"/etc/passwd"


@pytest.mark.parametrize("entries,words", [
    ([("imsmanifest.xml", MANIFEST), ("../evil.xml", b"x")], "escapes"),
    ([("imsmanifest.xml", MANIFEST), ("/etc/evil.xml", b"x")], "absolute"),
    ([("imsmanifest.xml", MANIFEST), ("C:/evil.xml", b"x")], "absolute"),
    ([("imsmanifest.xml", MANIFEST), ("a\\..\\..\\evil.xml", b"x")], "backslash"),
    ([("imsmanifest.xml", MANIFEST), _symlink_entry()], "symbolic link"),
    ([("imsmanifest.xml", MANIFEST), ("bomb.xml", b"\0" * (8 << 20))], "zip bomb"),
    ([("imsmanifest.xml", MANIFEST)] + [(f"m{i}.xml", b"") for i in range(5001)], "members"),
])
def test_hostile_archives_are_refused_before_reading(run_cli, tmp_path, entries, words):
    path = _write(tmp_path, "evil.zip", _zip(entries))
    bank = tmp_path / "bank"
    code, out = run_cli("import", "qti", str(path), "--bank", str(bank), "--translations", str(tmp_path / "tr"))
    assert code != 0 and "E721" in out and words in out and str(path) in out, out
    assert not bank.exists() and not (tmp_path / "evil.xml").exists()


def test_total_size_limit_is_checked_from_the_headers(tmp_path, monkeypatch):
    from aistack_bank.importers import _archive

    monkeypatch.setattr(_archive, "MAX_TOTAL_BYTES", 1000)
    path = _write(tmp_path, "big.zip", _zip([("imsmanifest.xml", MANIFEST), ("i.xml", b"<a/>" * 300)]))
    with pytest.raises(BankError, match="expand to more than 1000 bytes") as info:
        read_questions("qti", path)
    assert info.value.code == "E721"


def test_dtd_and_entities_are_refused_with_their_file(tmp_path):
    bomb = b'<?xml version="1.0"?><!DOCTYPE a [<!ENTITY x "xxxxxxxx"><!ENTITY y "&x;&x;&x;&x;">]><assessmentItem>&y;</assessmentItem>'
    path = _write(tmp_path, "dtd.zip", _zip([("imsmanifest.xml", MANIFEST), ("i.xml", bomb)]))
    with pytest.raises(BankError) as info:
        read_questions("qti", path)
    d = info.value.diagnostic()
    assert d.code == "E723" and d.location.path.endswith("dtd.zip/i.xml") and "DTD" in d.message


def test_a_folder_with_a_symlink_is_refused(tmp_path):
    folder = tmp_path / "pkg"
    folder.mkdir()
    (folder / "imsmanifest.xml").write_bytes(MANIFEST)
    os.symlink("/etc/passwd", folder / "i.xml")
    with pytest.raises(BankError, match="symbolic link") as info:
        read_questions("qti", folder)
    assert info.value.code == "E721"


@pytest.mark.parametrize("entries,words", [
    ([("i.xml", b"<a/>")], "no imsmanifest.xml"),
    ([("imsmanifest.xml", MANIFEST)], "does not hold"),
    ([("imsmanifest.xml", MANIFEST.replace(b'href="i.xml"', b'href="../i.xml"'))], "outside the package"),
    ([("imsmanifest.xml", MANIFEST), ("i.xml", b"<broken")], "not well-formed"),
])
def test_broken_packages_are_located_errors(tmp_path, entries, words):
    path = _write(tmp_path, "p.zip", _zip(entries))
    with pytest.raises(BankError, match=words) as info:
        read_questions("qti", path)
    assert info.value.code in ("E722", "E723")
    assert str(path) in str(info.value.diagnostic())


def test_not_a_zip_is_a_clear_error(tmp_path):
    with pytest.raises(BankError, match="not a zip file") as info:
        read_questions("qti", _write(tmp_path, "x.zip", b"plain text"))
    assert info.value.code == "E702"


def test_html_import_keeps_no_break_spaces():
    from aistack_bank.importers._html import html_to_text

    assert html_to_text("<p>Exact\u00a0: oui  \t non</p>") == ("Exact\u00a0: oui non", set())


BLACKBOARD_POOL = b"""<?xml version="1.0" encoding="UTF-8"?>
<questestinterop>
  <assessment title="Pool A">
    <section>
      <item title="Ports" maxattempts="0">
        <itemmetadata><bbmd_questiontype>Multiple Choice</bbmd_questiontype></itemmetadata>
        <presentation>
          <flow class="Block">
            <flow class="QUESTION_BLOCK"><flow class="FORMATTED_TEXT_BLOCK"><material><mat_extension>
              <mat_formattedtext type="HTML">&lt;p&gt;Which port does SSH use?&lt;/p&gt;</mat_formattedtext>
            </mat_extension></material></flow></flow>
            <flow class="RESPONSE_BLOCK"><response_lid ident="response" rcardinality="Single" rtiming="No"><render_choice shuffle="No" minnumber="0" maxnumber="0">
              <flow_label class="Block"><response_label ident="a1" shuffle="Yes" rarea="Ellipse" rrange="Exact"><flow_mat class="FORMATTED_TEXT_BLOCK"><material><mat_extension><mat_formattedtext type="HTML">22</mat_formattedtext></mat_extension></material></flow_mat></response_label></flow_label>
              <flow_label class="Block"><response_label ident="a2" shuffle="Yes" rarea="Ellipse" rrange="Exact"><flow_mat class="FORMATTED_TEXT_BLOCK"><material><mat_extension><mat_formattedtext type="HTML">23</mat_formattedtext></mat_extension></material></flow_mat></response_label></flow_label>
            </render_choice></response_lid></flow>
          </flow>
        </presentation>
        <resprocessing scoremodel="SumOfScores">
          <outcomes><decvar varname="SCORE" vartype="Decimal" defaultval="0" minvalue="0" maxvalue="10.0"/></outcomes>
          <respcondition title="correct"><conditionvar><varequal respident="response" case="No">a1</varequal></conditionvar><setvar variablename="SCORE" action="Set">SCORE.max</setvar><displayfeedback linkrefid="correct" feedbacktype="Response"/></respcondition>
          <respcondition title="incorrect"><conditionvar><other/></conditionvar><setvar variablename="SCORE" action="Set">0</setvar><displayfeedback linkrefid="incorrect" feedbacktype="Response"/></respcondition>
          <respcondition><conditionvar><varequal respident="a2" case="No"/></conditionvar><displayfeedback linkrefid="a2" feedbacktype="Response"/></respcondition>
        </resprocessing>
        <itemfeedback ident="correct" view="All"><flow_mat class="Block"><flow_mat class="FORMATTED_TEXT_BLOCK"><material><mat_extension><mat_formattedtext type="HTML">Yes.</mat_formattedtext></mat_extension></material></flow_mat></flow_mat></itemfeedback>
        <itemfeedback ident="a2" view="All"><flow_mat class="Block"><flow_mat class="FORMATTED_TEXT_BLOCK"><material><mat_extension><mat_formattedtext type="HTML">23 is Telnet.</mat_formattedtext></mat_extension></material></flow_mat></flow_mat></itemfeedback>
        <itemfeedback ident="incorrect" view="All"><flow_mat class="Block"><flow_mat class="FORMATTED_TEXT_BLOCK"><material><mat_extension><mat_formattedtext type="HTML">No.</mat_formattedtext></mat_extension></material></flow_mat></flow_mat></itemfeedback>
      </item>
    </section>
  </assessment>
</questestinterop>
"""


def test_blackboard_pool_reads_its_formatted_text_and_key(tmp_path):
    manifest = (b'<?xml version="1.0"?><manifest identifier="man00001" xmlns:bb="http://www.blackboard.com/content-packaging/"><organizations/><resources>'
                b'<resource bb:file="res00001.dat" bb:title="Pool A" identifier="res00001" type="assessment/x-bb-qti-pool" xml:base="res00001"/></resources></manifest>')
    path = _write(tmp_path, "bb.zip", _zip([("imsmanifest.xml", manifest), ("res00001.dat", BLACKBOARD_POOL)]))
    (question,), skipped = read_questions("qti", path)
    assert skipped == [] and question.stem == "Which port does SSH use?"
    assert question.options == [("22", None), ("23", "23 is Telnet.")] and question.correct == 0
    assert question.explanation == "" and any("'Yes.'" in n for n in question.notes) and any("'No.'" in n for n in question.notes)
