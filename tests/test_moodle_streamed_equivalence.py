"""The Moodle XML and GIFT files read one question at a time against the whole-file reading
they replaced: the streamed Moodle XML reader (``readers.moodle_xml.Streamed``, under
``read_own``) against the records of the whole parsed tree, `bank lint`'s Moodle model read
streamed against the model as it was (kept here), GIFT's blocks found line by line against the
split text, and `bank lint`'s Moodle and GIFT check, comparing the two files question by
question as both are read, against the check that held each whole parsed file (kept here), on
the bundled exports, planted defects and hostile XML."""

from __future__ import annotations

import functools
import re
from pathlib import PurePosixPath

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from aistack_bank.errors import Location, warning
from aistack_bank.lms import lint as lint_module, models
from aistack_bank.readers import gift as gift_records, moodle_xml
from aistack_bank.readers.xml import parse_own

from conftest import REPO

EXPORTS = REPO / "examples" / "every-kind" / "exports"


def _whole_read_own(raw: bytes) -> moodle_xml.File:
    """``read_own`` as it was: the records of the whole parsed tree."""
    return moodle_xml.records(parse_own(raw), raw)


def _outcome(read, raw: bytes):
    try:
        found = read(raw)
    except Exception as exc:  # (the same refusal or error, where the parser met it)
        return ("raised", type(exc).__name__, str(exc), getattr(exc, "position", None))
    if isinstance(found, models.MoodleFile):
        return ("read", found.categories, found.questions)
    return ("read", found.root, [(type(e).__name__, e) for e in found.entries])


def _files() -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((EXPORTS / "moodle").glob("*.xml"))}


# --- hostile and varied Moodle XML ----------------------------------------------------------

QUESTION = """<question type="{kind}">
  <name><text>{name}</text></name>
  <questiontext format="{fmt}"><text><![CDATA[{text}]]></text></questiontext>
  <idnumber>{idnumber}</idnumber>
  <answer fraction="{fraction}" format="html"><text>{answer}</text><feedback><text>fb</text></feedback><tolerance>0.5</tolerance></answer>
  <subquestion format="html"><text>s</text><answer><text>a</text></answer></subquestion>
  <units><unit><unit_name>m</unit_name><multiplier>1</multiplier></unit></units>
  <tags><tag><text>t1</text></tag></tags>
  <single>true</single><usecase>1</usecase>
</question>"""

CATEGORY = """<question type="category"><category><text>$course$/top/{name}</text></category><idnumber>{idnumber}</idnumber></question>"""

PIECES = [
    lambda n: QUESTION.format(kind="multichoice", name=f"q{n} &amp; x", fmt="html", text="<p>a <question> in CDATA</p>", idnumber=f"q{n}", fraction="33.33333", answer="yes"),
    lambda n: QUESTION.format(kind="numerical", name=f"n{n}", fmt="moodle_auto_format", text="]]><![CDATA[", idnumber=f" n{n} ", fraction="100", answer=" 4 "),
    lambda n: QUESTION.format(kind="matching", name="", fmt="html", text="", idnumber="", fraction="", answer="1.0"),
    lambda n: CATEGORY.format(name=f"A/B{n}//C", idnumber=f"c{n}"),
    lambda n: '<question type="cloze"/>',
    lambda n: "<question/>",
    lambda n: "<!-- <question type=\"multichoice\"> in a comment -->",
    lambda n: "<?pi <question ?>",  # (the text finds one more <question than the root has: no line told)
    lambda n: f'<question type="essay"><question type="multichoice"><name><text>nested {n}</text></name></question></question>',  # (a nested one: no line told)
    lambda n: f'<x:question xmlns:x="urn:x" type="truefalse"><x:name><x:text>prefixed {n}</x:text></x:name></x:question>',
    lambda n: f'<question\ttype="shortanswer"\n><name><text>tab {n}</text></name><graderinfo format="plain"><text>g</text></graderinfo></question>',
    lambda n: f"<other><question type=\"multichoice\"><name><text>inside other {n}</text></name></question></other>",
    lambda n: "\n\n  text between  \n",
    lambda n: f'<questionnaire type="multichoice">{n}</questionnaire>',
]

HEADS = ['<?xml version="1.0" encoding="UTF-8"?>\n', "", '<?xml version="1.0" encoding="ISO-8859-1"?>\n', "<!DOCTYPE quiz>\n",
         '<!DOCTYPE quiz [<!ENTITY e "x">]>\n', '<?xml version="1.0" encoding="no-such-encoding"?>\n', '<!DOCTYPE quiz [<!ELEMENT quiz ANY>]>\n']
ROOTS = [("<quiz>", "</quiz>"), ('<quiz xmlns="urn:q">', "</quiz>"), ("<question>", "</question>"), ("<other>", "</other>")]


def _document(head: int, root: int, pieces: list[int], cut: int | None, newlines: bool) -> bytes:
    start, end = ROOTS[root]
    body = ("\n" if newlines else "").join(PIECES[p](n) for n, p in enumerate(pieces))
    text = HEADS[head] + start + body + end + "\n"
    raw = text.encode("latin-1" if "ISO-8859-1" in HEADS[head] else "utf-8", errors="replace")
    return raw if cut is None else raw[: cut % (len(raw) + 1)]


HOSTILE = [b"", b"<quiz>", b"<quiz></quiz><quiz/>", b"\xff\xfe<\x00q\x00", b"<quiz><question type='a'>&undefined;</question></quiz>",
           b'<?xml version="1.0"?><!DOCTYPE quiz SYSTEM "http://example.com/x.dtd"><quiz/>', b"<quiz><question>\x00</question></quiz>",
           b"<quiz>" + b"<question type='multichoice'><name><text>deep</text></name>" + b"<a>" * 300 + b"</a>" * 300 + b"</question></quiz>",
           b"<quiz><![CDATA[<question>]]><question type='essay'/></quiz>", b"<quiz><!-- <![CDATA[ --><question type='essay'/><!-- ]]> --></quiz>"]


@pytest.mark.parametrize("name", sorted(_files()))
def test_the_exports_read_streamed_are_the_records_of_the_whole_tree(name):
    raw = _files()[name]
    whole, streamed = _outcome(_whole_read_own, raw), _outcome(moodle_xml.read_own, raw)
    assert whole[0] == "read" and whole == streamed
    assert all(e.line > 0 for _, e in streamed[2]) and all(getattr(e, "element", None) is None for _, e in streamed[2])
    stream = moodle_xml.Streamed(raw)
    assert list(stream) == [e for _, e in whole[2]] and stream.lines_told is True


@pytest.mark.parametrize("raw", HOSTILE)
def test_hostile_files_read_streamed_as_whole(raw):
    assert _outcome(moodle_xml.read_own, raw) == _outcome(_whole_read_own, raw)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, len(HEADS) - 1), st.integers(0, len(ROOTS) - 1), st.lists(st.integers(0, len(PIECES) - 1), max_size=8),
       st.none() | st.integers(0, 10_000), st.booleans())
def test_varied_files_read_streamed_as_whole(head, root, pieces, cut, newlines):
    raw = _document(head, root, pieces, cut, newlines)
    assert _outcome(moodle_xml.read_own, raw) == _outcome(_whole_read_own, raw)
    assert _outcome(models.read_moodle_xml, raw) == _outcome(_old_read_moodle_xml, raw)


def test_a_file_whose_lines_cannot_be_told_says_so_once_read():
    raw = _document(0, 0, [0, 7, 1], None, True)  # (a processing instruction holds one more "<question")
    stream = moodle_xml.Streamed(raw)
    assert stream.lines_told is None
    entries = list(stream)
    assert stream.lines_told is False and [e.line for e in entries] == [2, 12]  # (the second at the instruction's line: told as found, then said wrong)
    assert [e.line for e in moodle_xml.read_own(raw).entries] == [0, 0] == [e.line for e in _whole_read_own(raw).entries]


# --- `bank lint`'s Moodle model, as it was ---------------------------------------------------

def _old_read_moodle_xml(data: bytes) -> models.MoodleFile:
    from aistack_bank.lms.models import MoodleCategory, MoodleFile, MoodleQuestion, moodle_split_category_path

    categories, questions, current = [], [], ["$course$", "top"]
    for entry in _whole_read_own(data).entries:
        if isinstance(entry, moodle_xml.Category):
            path = moodle_split_category_path(entry.path.strip())
            categories.append(MoodleCategory(path, (entry.idnumber or "").strip(), entry.line))
            current = path
            continue
        qtype = {"matching": "match", "cloze": "multianswer"}.get(entry.type, entry.type)
        answers, tolerances = [], []
        for answer in entry.answers:
            text = answer.text
            if qtype in ("truefalse", "numerical", "shortanswer"):
                text = text.strip()
            answers.append((text, float(answer.fraction or 0) / 100, answer.feedback.text))
            tolerances.append(float(answer.tolerance or 0))
        if qtype == "truefalse":
            answers = sorted(answers, key=lambda a: a[0] != "true")
        units = [(u.name.strip(), float(u.multiplier or 1)) for u in entry.units]
        settings = entry.settings
        questions.append(MoodleQuestion(
            name=entry.name, idnumber=(entry.idnumber or "").strip(), tags=list(entry.tags), category=current, answers=answers,
            questiontext=entry.questiontext.text, generalfeedback=entry.generalfeedback.text, line=entry.line, qtype=qtype,
            single=(settings.get("single") or "true").strip().lower() in ("true", "1"), tolerances=tolerances if qtype == "numerical" else [],
            units=units, unitgradingtype=int(settings.get("unitgradingtype") or 0),
            showunits=None if "showunits" not in settings else int(settings["showunits"]),
            usecase=(settings.get("usecase") or "0").strip() in ("1", "true"),
            subquestions=[(s.text.text, s.answer.strip()) for s in entry.subquestions],
        ))
    return MoodleFile(categories, questions)


def _old_blocks(text: str) -> list[gift_records.Block]:
    found, lines = [], []
    for number, line in enumerate(text.split("\n"), 1):
        if line.strip():
            lines.append((number, line))
        elif lines:
            found.append(gift_records.Block(lines))
            lines = []
    if lines:
        found.append(gift_records.Block(lines))
    return found


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["\n", "\r", " ", "\t", "a", "//", "::", "{", "}", "\u2028", "é"]), max_size=60).map("".join))
def test_gift_blocks_found_line_by_line_are_the_split_texts(text):
    assert list(gift_records.iter_blocks(text)) == gift_records.blocks(text) == _old_blocks(text)


def test_gift_blocks_of_the_exports():
    for path in sorted((EXPORTS / "gift").glob("*.gift")):
        text = path.read_text(encoding="utf-8")
        assert gift_records.blocks(text) == _old_blocks(text)


# --- `bank lint`'s Moodle and GIFT check, as it was --------------------------------------------

# Each file's read, Moodle XML and GIFT, by the code before, made once per bytes: the planted
# defects' tests check trees of four files of which three are as exported, each some fifteen
# times, and the check before only reads what these reads give (a course copies what it
# imports; nothing changes a read file).
_old_read_once = functools.lru_cache(maxsize=256)(_old_read_moodle_xml)
_old_read_gift_once = functools.lru_cache(maxsize=256)(models.read_gift)


def _old_moodle_and_gift(xml_tree, gift_tree, left_out, moodle, xml_where, gift_where):
    out = []
    xml_order = lint_module._import_order(xml_tree)
    gift_order = lint_module._import_order(gift_tree) if gift_tree is not None else []
    together = [name.with_suffix(".xml") for name in gift_order] == xml_order
    course, gift_course = models.MoodleCourse(), models.MoodleCourse()
    if moodle or together:
        for index, name in enumerate(xml_order):
            parsed = _old_read_once(xml_tree[name])
            if moodle:
                out += _old_moodle_file(course, name, parsed, xml_where)
            if gift_tree is not None and together:
                out += _old_gift_file(gift_course, left_out, gift_order[index], gift_tree, parsed, gift_where)
    if gift_tree is not None and not together:
        for name in gift_order:
            out += _old_gift_file(gift_course, left_out, name, gift_tree, _old_read_once(xml_tree[name.with_suffix(".xml")]), gift_where)
    return out


def _old_moodle_file(course, name, parsed, where):
    out = []
    for category in parsed.categories:
        out += lint_module._plain_field_findings(category.path[-1], "category name", where(name, category.line))
    for q in parsed.questions:
        out += lint_module._plain_field_findings(q.name, f"question name of {q.idnumber}", where(name, q.line))
        if q.qtype == "match":
            choices, _ = q.match_choices()
            merged = [a for a in dict.fromkeys(answer for _, answer in q.subquestions) if a not in choices]
            if merged:
                one = next(c for c in choices if models.php_loose_equal(c, merged[0]))
                out.append(warning("W751", f"question {q.idnumber}: Moodle offers {merged[0]!r} and {one!r} as one answer (PHP compares two numeric texts as numbers); "
                                           "the bank offers them apart: write them so that they differ as words", where(name, q.line)))
        unlisted = q.unlisted_fractions()
        if unlisted:
            out.append(warning("W656", f"question {q.idnumber}: Moodle refuses the question on import (\"Error if grade not listed\"): grade(s) {', '.join(f'{f * 100:g} %' for f in unlisted)} are not in its list", where(name, q.line)))
    try:
        result = course.import_file(parsed)
    except models.MoodleImportAborted as exc:
        out.append(warning("W805", f"importing this file after the others into one course fails: {exc}", where(name, parsed.categories[0].line if parsed.categories else 0)))
        return out
    for idnumber in result.dropped_idnumbers:
        line = next((q.line for q in parsed.questions if q.idnumber == idnumber), 0)
        out.append(warning("W805", f"imported after the other files into one course, question {idnumber} loses its idnumber (already used in its category)", where(name, line)))
    return out


def _old_gift_file(course, left_out, name, gift_tree, xml, where):
    out = []
    gift = _old_read_gift_once(gift_tree[name].decode("utf-8"))
    x_paths = [c.path for c in xml.categories if any(q.category == c.path for q in xml.questions)]
    for index, x_path in enumerate(x_paths):
        g_cat = gift.categories[index] if index < len(gift.categories) else None
        if g_cat is None or g_cat.path != x_path:
            out.append(warning("W806", f"Moodle reads the GIFT category as {g_cat.path[2:] if g_cat else None!r}, the Moodle XML one as {x_path[2:]!r}", where(name, g_cat.line if g_cat else 0)))
    xml_questions = [x for x in xml.questions if x.idnumber not in left_out]
    if len(gift.questions) != len(xml_questions):
        out.append(warning("W806", f"Moodle reads {len(gift.questions)} questions from the GIFT file and {len(xml_questions)} from the Moodle XML one", where(name)))
    for g, x in zip(gift.questions, xml_questions):
        for label, a, b in (("idnumber", g.idnumber, x.idnumber), ("tags", g.tags, x.tags), ("name", g.name, x.name),
                            ("question type", g.qtype, x.qtype), ("single or multiple answer", g.single, x.single),
                            ("question text", g.questiontext, x.questiontext), ("general feedback", g.generalfeedback, x.generalfeedback),
                            ("answers", g.answers, [(t, f, fb) for t, f, fb in x.answers]), ("tolerances", g.tolerances, x.tolerances),
                            ("matching subquestions", g.subquestions, x.subquestions)):
            if a != b:
                out.append(warning("W806", f"question {x.idnumber}: Moodle reads another {label} from GIFT than from Moodle XML (GIFT special characters?): {lint_module._diff(a, b)}", where(name, g.line)))
    try:
        result = course.import_file(gift)
    except models.MoodleImportAborted as exc:
        out.append(warning("W805", f"importing this file after the others into one course fails: {exc}", where(name)))
        return out
    for idnumber in result.dropped_idnumbers:
        out.append(warning("W805", f"imported after the other GIFT files into one course, question {idnumber} loses its idnumber", where(name)))
    return out


def _trees():
    xml = {PurePosixPath(p.name): p.read_bytes() for p in sorted((EXPORTS / "moodle").glob("*.xml"))}
    gift = {PurePosixPath(p.name): p.read_bytes() for p in sorted((EXPORTS / "gift").glob("*.gift"))}
    return xml, gift


def _gift_blocks(data: bytes) -> list[str]:
    return data.decode("utf-8").split("\n\n")


# Planted defects: each turns the exports into files Moodle reads otherwise (or not at all).
def _swap_gift_questions(xml, gift, n):
    blocks = _gift_blocks(gift)
    i = 2 + n % max(1, len(blocks) - 4)
    blocks[i], blocks[i + 1] = blocks[i + 1], blocks[i]
    return xml, "\n\n".join(blocks).encode()


def _drop_gift_question(xml, gift, n):
    blocks = _gift_blocks(gift)
    del blocks[2 + n % max(1, len(blocks) - 3)]
    return xml, "\n\n".join(blocks).encode()


def _add_gift_question(xml, gift, n):
    blocks = _gift_blocks(gift)
    blocks.insert(3, blocks[3 + n % max(1, len(blocks) - 4)])  # (an idnumber used twice: dropped on import)
    return xml, "\n\n".join(blocks).encode()


def _gift_category(xml, gift, n):
    return xml, gift.replace(b"$CATEGORY: $course$/top/", b"$CATEGORY: $course$/top/Other/", 1)


def _gift_answer(xml, gift, n):
    return xml, gift.replace(b"\t=", b"\t~", 1 + n % 3)


def _xml_fraction(xml, gift, n):
    return re.sub(rb'fraction="100"', b'fraction="37"', xml, count=1 + n % 3), gift


def _xml_duplicate_idnumber(xml, gift, n):
    found = re.findall(rb"<idnumber>(q\d+)</idnumber>", xml)
    return (xml.replace(b"<idnumber>" + found[-1] + b"</idnumber>", b"<idnumber>" + found[n % len(found)] + b"</idnumber>") if found else xml), gift


def _xml_category_idnumber(xml, gift, n):
    return re.sub(rb"<idnumber>every-kind-[a-z]+</idnumber>", b"<idnumber>same-everywhere</idnumber>", xml), gift  # (a second file's import aborts)


def _xml_names(xml, gift, n):
    return xml.replace(b"<name>\n      <text><![CDATA[q00", b"<name>\n      <text><![CDATA[&amp; <b>bold</b> " + b"x" * (250 * (n % 2)) + b" q00", 2), gift


def _xml_matching(xml, gift, n):
    return xml.replace(b"<answer>\n        <text><![CDATA[", b"<answer>\n        <text><![CDATA[1.0", 1).replace(b"<answer>\n        <text><![CDATA[", b"<answer>\n        <text><![CDATA[1", 1), gift


def _xml_untold_lines(xml, gift, n):
    xml, gift = _xml_names(xml, gift, n + 1)  # (findings at the questions' lines)
    return xml.replace(b"<quiz>", b"<quiz><?pi <question ?>", 1), gift  # (no line told: every finding at line 0)


def _xml_category_line(xml, gift, n):
    return xml.replace(b"$course$/top/Examples/", b"$course$/top/Examples//", 1), gift


DEFECTS = [_swap_gift_questions, _drop_gift_question, _add_gift_question, _gift_category, _gift_answer, _xml_fraction,
           _xml_duplicate_idnumber, _xml_category_idnumber, _xml_names, _xml_matching, _xml_untold_lines, _xml_category_line]


def _where(n, line=0):
    return Location.of(PurePosixPath("exports") / str(n), line)


def _both(xml, gift, left_out, moodle):
    old = _old_moodle_and_gift(xml, gift, left_out, moodle, _where, _where)
    new = lint_module._moodle_and_gift(xml, gift, left_out, moodle, _where, _where)
    return old, new


@pytest.mark.parametrize("moodle", [True, False])
def test_the_check_of_the_exports_is_the_whole_files_check(moodle):
    xml, gift = _trees()
    for gift_tree, left_out in ((gift, set()), (gift, {"q003", "q010"}), (None, set())):
        old, new = _both(xml, gift_tree, left_out, moodle)
        assert old == new


def test_a_gift_tree_of_other_names_is_checked_file_by_file_as_before():
    xml, gift = _trees()
    del gift[PurePosixPath("every-kind-fr.gift")]
    for moodle in (True, False):
        old, new = _both(xml, gift, set(), moodle)
        assert old == new and any(d.code == "W806" for d in new)


@pytest.mark.parametrize("defect", DEFECTS, ids=lambda d: d.__name__)
def test_planted_defects_are_found_as_the_whole_files_check_found_them(defect):
    xml, gift = _trees()
    found_any = False
    for n, name in enumerate(sorted(xml)):
        planted_xml, planted_gift = dict(xml), dict(gift)
        gift_name = name.with_suffix(".gift")
        planted_xml[name], planted_gift[gift_name] = defect(xml[name], gift[gift_name], n)
        for moodle, left_out in ((True, set()), (False, set()), (True, {"q002"})):
            old, new = _both(planted_xml, planted_gift, left_out, moodle)
            assert old == new, (name, moodle, left_out)
            found_any = found_any or bool(new)
    assert found_any, "the defect was planted where nothing finds it"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, len(DEFECTS) - 1), st.integers(0, 3), st.integers(0, 50)), min_size=1, max_size=4),
       st.booleans(), st.sets(st.sampled_from(["q001", "q004", "q007", "q011"]), max_size=2))
def test_combined_defects_are_found_as_the_whole_files_check_found_them(plants, moodle, left_out):
    xml, gift = _trees()
    names = sorted(xml)
    for defect, which, n in plants:
        name = names[which]
        xml[name], gift[name.with_suffix(".gift")] = DEFECTS[defect](xml[name], gift[name.with_suffix(".gift")], n)
    old, new = _both(xml, gift, set(left_out), moodle)
    assert old == new
