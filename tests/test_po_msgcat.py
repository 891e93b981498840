"""The catalog writer against GNU gettext: random catalogs rendered by us and by `msgcat`.

Real-world catalogs mix scripts, escapes and header fields written by Weblate, Poedit and
Transifex; every byte our writer lays out differently from msgcat is churn in a translator's
diff. Each example is a whole catalog rendered with `render_catalog`, then given to
`msgcat FILE`, which must give back the very same bytes; our reader must read it back to the
same bytes too.
"""

from __future__ import annotations

import math
import shutil
import subprocess
from pathlib import Path

import polib
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from aistack_bank.i18n.catalog import read_catalog, render_catalog
from aistack_bank.i18n.pofile import read_po

MSGCAT = shutil.which("msgcat")
pytestmark = pytest.mark.skipif(MSGCAT is None and not __import__("os").environ.get("CI"), reason="GNU gettext's msgcat is not installed")

# Pieces of real catalogs: prose with the punctuation that decides GNU's break points, scripts
# whose characters have width 0 or 2, and every escape gettext writes.
WORDS = [
    "the", "question", "bank", "Qu'est-ce", "qu'un", "accélérateur", "GPU", "e.g.", "i.e.", "name.attr", "torch.compile()",
    "https://example.org/a/b?c=d", "a/b", "and/or", "--", "-", "—", "–", "well-known", "x-1", "-v", "1.5", "3,5", "10%%", "$5",
    "(see", "above)", "[1]", "{name}", "%s", "%(count)d", "<b>bold</b>", "&amp;", "Why?", "Yes!", "no;", "so:", "«quoted»",
    "“smart”", "'single'", "...", "…", "x", "averyveryverylongwordwithoutanybreakopportunityatallthatrunspastthemarginforsure",
    "何", "计算机", "ですか。", "「引用」", "한국어", "텍스트", "क्षत्रिय", "हिन्दी", "தமிழ்", "ภาษาไทย", "ខ្មែរ", "می‌خواهم", "کتاب‌ها",
    "עברית", "العربية", "🙂", "👍🏽", "🇫🇷", "q\u0301", "zero\u200bwidth", "nb\u00a0sp", "soft\u00adhyphen", "a\u200db",
]
SEPARATORS = [" ", " ", " ", "  ", "\n", " \n", "\t", '"', "\\", "", "/", "-", ". ", ", ", "\u3000"]


def _lengths(most: int) -> list[int]:
    """256 lengths, shortest first (a drawn length shrinks towards none): none once, then mostly
    a few (a geometric law of mean 6, as a list Hypothesis draws), the last few up to ``most``."""
    return [0] + [min(most, max(1 + int(-5 * math.log(1 - k / 256)), most - 255 + k if k >= 248 else 0)) for k in range(1, 256)]


def _drawn(most: int, pick):
    """A list of up to ``most`` items as one draw of bytes (its first byte the length, one or two
    bytes an item): Hypothesis draws one byte string many times faster than a list of drawn
    items, and drawing took most of this test's time. The bytes shrink towards the shortest
    list of the first word and separator, as a list would."""
    lengths = _lengths(most)
    width = 2 if pick.__code__.co_argcount == 2 else 1
    return st.binary(min_size=1 + width * most, max_size=1 + width * most).map(
        lambda raw: [pick(*raw[i:i + width]) for i in range(1, 1 + width * lengths[raw[0]], width)])


_comment = _drawn(12, lambda word: WORDS[word % len(WORDS)]).map(" ".join)

LANGUAGE_TEAMS = [
    "French <https://hosted.weblate.org/projects/aistack/bank/fr/>",
    "Polish <https://hosted.weblate.org/projects/aistack-bank/question-bank-translations/pl/>",
    "Arabic (https://app.transifex.com/aistack-bank-organisation/teams/123456/ar/)",
    "Dutch",
]
PLURAL_FORMS = {
    2: "nplurals=2; plural=(n > 1);",
    3: "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<12 || n%100>14) ? 1 : 2);",
    6: "nplurals=6; plural=n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5;",
}


# The strategies a catalog is drawn from, built once (one built inside the composite is built and
# validated again at every draw).
_NPLURALS = st.sampled_from(sorted(PLURAL_FORMS))
_comments3 = st.lists(_comment, max_size=3).map("\n".join)
_bool = st.booleans()
_PROJECTS = st.sampled_from(["aistack-bank", "aistack-bank 1.0 with a rather long version string for wrapping tests"])
_TRANSLATORS = st.sampled_from(["Zoë Ünal <zoe@example.org>", "Anonymous <noreply@weblate.org>"])
_TEAMS = st.sampled_from(LANGUAGE_TEAMS)
_LANGUAGES = st.sampled_from(["fr", "pl", "ar", "zh_Hans", "nl"])
_GENERATORS = st.sampled_from(["Weblate 5.8.4", "Poedit 3.5", "Lokalize 23.08.5"])
_ENTRIES = st.integers(0, 12)
# python-brace-format is left out: with a "{name}" directive in the string msgcat 0.21 sometimes
# keeps a too-long word on the previous line, a layout not reproduced here (see powrap).
FLAGS = ["fuzzy", "c-format", "python-format", "no-c-format", "no-python-format"]
REF_FILES = ["bank/questions/q001-a-long-file-name.yaml", "bank/topic.yaml", "src/x.py"]
# An entry is two draws, its shape (one byte: which parts it has) and then the bytes of exactly
# those parts, read below as the strategies above would draw them: a few hundred small draws per
# catalog took most of this test's time. Zero bytes shrink to the simplest entry, as before.
_SHAPE = st.integers(0, 127)
_TEXT, _SHORT, _COMMENT, _COMMENTS, _REFS, _FLAGS = 81, 13, 13, 1 + 2 * 13, 1 + 8 * 3, 1 + 3
_LENGTHS = {most: _lengths(most) for most in (40, 6, 12)}


class _Reader:
    """The parts of one entry, read in order from its drawn bytes."""

    def __init__(self, raw: bytes):
        self.raw, self.at = raw, 0

    def take(self, size: int) -> bytes:
        self.at += size
        return self.raw[self.at - size:self.at]

    def text(self, most: int = 40, nonempty: bool = False) -> str:
        raw = self.take(1 + 2 * most)
        count = max(_LENGTHS[most][raw[0]], 1 if nonempty else 0)
        return "".join(WORDS[raw[i] % len(WORDS)] + SEPARATORS[raw[i + 1] % len(SEPARATORS)] for i in range(1, 1 + 2 * count, 2))

    def comment(self) -> str:
        raw = self.take(_COMMENT)
        return " ".join(WORDS[b % len(WORDS)] for b in raw[1:1 + _LENGTHS[12][raw[0]]])

    def comments(self) -> str:  # up to two comment lines
        count = self.take(1)[0] % 3
        lines = [self.comment() for _ in range(2)]
        return "\n".join(lines[:count])

    def refs(self) -> list[tuple[str, str]]:  # up to eight references, half of them on lines 1-4 (so some repeat)
        raw = self.take(_REFS)
        return [(REF_FILES[raw[i] % 3], str(1 + (raw[i + 1] * 256 + raw[i + 2]) % 9999 if raw[i + 1] & 1 else 1 + raw[i + 2] % 4))
                for i in range(1, 1 + 3 * (raw[0] % 9), 3)]

    def flags(self) -> list[str]:  # up to three distinct flags, in the order drawn
        raw, left, picked = self.take(_FLAGS), list(FLAGS), []
        for b in raw[1:1 + raw[0] % 4]:
            picked.append(left.pop(b % len(left)))
        return picked


def _entry_size(shape: int, nplurals: int) -> int:
    ctxt, previous, previous_ctxt, plural, previous_plural = (shape >> bit & 1 for bit in (2, 3, 4, 5, 6))
    size = _SHORT * ctxt + _TEXT + 2 * _COMMENTS + _REFS + _FLAGS + (_TEXT + _SHORT * previous_ctxt) * previous
    return size + (_TEXT + nplurals * _TEXT + _TEXT * (previous and previous_plural) if plural else _TEXT)


@st.composite
def entries(draw, nplurals: int) -> polib.POEntry:
    shape = draw(_SHAPE)
    size = _entry_size(shape, nplurals)
    read = _Reader(draw(st.binary(min_size=size, max_size=size)))
    ctxt = read.text(6) if shape & 4 else None
    entry = polib.POEntry(
        msgctxt=ctxt, msgid=read.text(nonempty=True), obsolete=shape & 3 == 3,
        tcomment=read.comments(), comment=read.comments(), occurrences=read.refs(), flags=read.flags(),
    )
    if shape & 8:
        entry.previous_msgid = read.text()
        if shape & 16:
            entry.previous_msgctxt = read.text(6)
    if shape & 32:
        entry.msgid_plural = read.text(nonempty=True)
        entry.msgstr_plural = {i: read.text() for i in range(nplurals)}
        if entry.previous_msgid is not None and shape & 64:
            entry.previous_msgid_plural = read.text()
    else:
        entry.msgstr = read.text()
    assert read.at == len(read.raw)
    return entry


@st.composite
def catalogs(draw):
    nplurals = draw(_NPLURALS)
    po = polib.POFile(wrapwidth=79)
    po.header = draw(_comments3)
    po.metadata_is_fuzzy = ["fuzzy"] if draw(_bool) else []
    po.metadata = {
        "Project-Id-Version": draw(_PROJECTS),
        "Report-Msgid-Bugs-To": "",
        "PO-Revision-Date": "2026-11-29 12:00+0000",
        "Last-Translator": draw(_TRANSLATORS),
        "Language-Team": draw(_TEAMS),
        "Language": draw(_LANGUAGES),
        "MIME-Version": "1.0",
        "Content-Type": "text/plain; charset=UTF-8",
        "Content-Transfer-Encoding": "8bit",
        "Plural-Forms": PLURAL_FORMS[nplurals],
        "X-Generator": draw(_GENERATORS),
    }
    seen = set()
    for _ in range(draw(_ENTRIES)):
        entry = draw(entries(nplurals))
        if (entry.msgctxt, entry.msgid) in seen:
            continue
        seen.add((entry.msgctxt, entry.msgid))
        if "c-format" in entry.flags:  # a valid C format string ("%(name)d" is Python only)
            for attr in ("msgid", "msgstr", "msgid_plural", "previous_msgid", "previous_msgid_plural", "msgctxt", "previous_msgctxt"):
                if isinstance(getattr(entry, attr), str):
                    setattr(entry, attr, getattr(entry, attr).replace("%(count)d", "%1$d"))
            entry.msgstr_plural = {i: v.replace("%(count)d", "%1$d") for i, v in entry.msgstr_plural.items()}
        po.append(entry)
    return po


def _msgcat(path: Path) -> bytes:
    result = subprocess.run([MSGCAT, "--force-po", str(path)], capture_output=True, timeout=120)
    assert result.returncode == 0, result.stderr.decode()
    return result.stdout


def _one(msgid: str, msgstr: str = "", flags=(), **fields) -> polib.POFile:
    po = polib.POFile(wrapwidth=79)
    po.metadata = {"Content-Type": "text/plain; charset=UTF-8", **fields}
    po.append(polib.POEntry(msgid=msgid, msgstr=msgstr, flags=list(flags)))
    return po


@pytest.fixture(scope="module")
def scratch_po(tmp_path_factory) -> Path:
    """The file each example of a property test writes its catalog to in turn, for msgcat to read
    (a folder of its own for each of the 300 examples numbered it by listing the test process's
    whole temporary folder, a quarter of the test's CPU time, and more the more tests ran
    before)."""
    return tmp_path_factory.mktemp("po") / "x.po"


@settings(max_examples=settings.default.max_examples * 5)  # ci: 300 catalogs, about 10 s
@given(catalogs())
# Regression cases: a line is not broken inside a format directive; a space before "\n" stays with it; "e.g." and "name.attr" are no break points;
# "?" is; ZWNJ and combining marks take no column; CJK ideographs break between each other.
@example(_one("Use e.g. name.attr or torch.compile() here, then ask: why? Because the compiler " * 2 + " \n"))
@example(_one("کتاب‌ها می‌خواهم " * 12, "क्षत्रिय हिन्दी " * 14))
@example(_one("计算机何" * 30, "ですか。「引用」" * 20))
@example(_one("averyveryverylongword that runs past the margin with % d and %-5.2f or %1$s " * 3, "y", flags=["c-format"]))
@example(_one("averyveryverylongword that runs past the margin with % d and %(count)d " * 3, "y", flags=["python-format"]))
@example(_one("x", "", **{"Language-Team": LANGUAGE_TEAMS[1], "Plural-Forms": PLURAL_FORMS[6]}))
def test_writer_matches_msgcat_byte_for_byte(scratch_po, po):
    ours = render_catalog(po)
    path = scratch_po
    path.write_bytes(ours)
    assert _msgcat(path).decode() == ours.decode()
    again, diags = read_po(ours.decode(), path)
    assert not diags and render_catalog(again) == ours


def test_header_lines_are_wrapped_as_weblate_writes_them(tmp_path):
    """A long Language-Team and Plural-Forms (Weblate, Transifex) round-trip without churn."""
    text = (
        'msgid ""\nmsgstr ""\n"Project-Id-Version: aistack-bank\\n"\n"Language-Team: Polish '
        '<https://hosted.weblate.org/projects/aistack-bank/question-bank-translations/pl/>\\n"\n'
        '"Language: pl\\n"\n"MIME-Version: 1.0\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
        f'"Plural-Forms: {PLURAL_FORMS[3]}\\n"\n"X-Generator: Weblate 5.8.4\\n"\n'
    )
    path = tmp_path / "pl.po"
    path.write_text(text, encoding="utf-8")
    gnu = _msgcat(path)
    assert gnu != text.encode()  # msgcat wraps both long lines
    path.write_bytes(gnu)
    catalog = read_catalog(path, template=True)
    assert render_catalog(catalog.po) == gnu


REPO = Path(__file__).resolve().parents[1]
# the project's catalogs, the example bank's and the golden bank's
BUNDLED = sorted(p.relative_to(REPO).as_posix() for folder in ("translations", "examples/every-kind/translations", "tests/golden/translations")
                 for p in (REPO / folder).rglob("*.po*"))


@pytest.mark.parametrize("name", BUNDLED)
def test_bundled_catalogs_are_msgcat_stable_and_rewritten_identically(name):
    path = REPO / name
    assert _msgcat(path) == path.read_bytes()
    catalog = read_catalog(path, template=path.suffix == ".pot")
    assert not catalog.diagnostics and render_catalog(catalog.po) == path.read_bytes()


def test_weblate_and_poedit_headers_survive_an_update(project, run_cli):
    """A catalog saved by Weblate or Poedit (their header fields, GNU's layout) does not churn."""
    fr = project / "translations" / "fr.po"
    text = fr.read_text(encoding="utf-8")
    text = text.replace('"Language-Team: French\\n"', f'"Language-Team: {LANGUAGE_TEAMS[0]}\\n"')
    text = text.replace('"Plural-Forms: nplurals=2; plural=(n > 1);\\n"', '"Plural-Forms: nplurals=2; plural=(n > 1);\\n"\n"X-Generator: Weblate 5.8.4\\n"\n"X-Poedit-SourceCharset: UTF-8\\n"\n"X-Poedit-Basepath: ../bank\\n"')
    fr.write_text(text, encoding="utf-8")
    saved = _msgcat(fr)  # what the tool writes: GNU's layout, the long Language-Team wrapped
    assert saved.decode() != text
    fr.write_bytes(saved)
    code, out = run_cli("i18n", "update")
    assert code == 0, out
    assert fr.read_bytes() == saved


def _libunistring():
    import ctypes
    import ctypes.util

    try:
        return ctypes.CDLL(ctypes.util.find_library("unistring") or "libunistring.so.2")
    except OSError:
        return None


def test_break_points_and_widths_are_libunistrings():
    """On the alphabet of these catalogs, the break opportunities and columns of the writer are
    those of the libunistring that msgcat links against (called as a black box)."""
    import ctypes
    import random

    from aistack_bank.i18n.powrap import break_opportunities, char_width

    lib = _libunistring()
    if lib is None:
        pytest.skip("libunistring is not installed")
    breaks = lib.u8_possible_linebreaks
    breaks.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_char_p]
    width = lib.uc_width
    width.argtypes = [ctypes.c_uint32, ctypes.c_char_p]
    width.restype = ctypes.c_int

    def theirs(text: str) -> list[int]:
        raw = text.encode()
        out = ctypes.create_string_buffer(len(raw))
        breaks(raw, len(raw), b"UTF-8", out)
        offsets = [len(text[:i].encode()) for i in range(len(text))]
        return [i for i, at in enumerate(offsets) if out.raw[at] == 2]  # UC_BREAK_POSSIBLE

    rng = random.Random(14)
    for _ in range(3000):
        text = "".join(rng.choice(WORDS) + rng.choice(SEPARATORS + [". ", "/"]) for _ in range(rng.randint(1, 8)))
        ours = [i for i, can in enumerate(break_opportunities(text)) if can and text[i - 1] != "\n"]
        assert ours == theirs(text), repr(text)
    for ch in sorted(set("".join(WORDS + SEPARATORS))):
        assert char_width(ch) == max(width(ord(ch), b"UTF-8"), 0), hex(ord(ch))


def _entries(*entries: polib.POEntry) -> polib.POFile:
    po = _one("x", "y")
    for entry in entries:
        po.append(entry)
    return po


# Differences from msgcat that random catalogs found, each now a fixed case.
REGRESSIONS = {
    "header only": _one("x").__class__(wrapwidth=79),
    "fuzzy flag on an untranslated entry": _entries(polib.POEntry(msgid="a", msgstr="", flags=["fuzzy"])),
    "a reference given twice": _entries(polib.POEntry(msgid="a", msgstr="b", occurrences=[("bank/topic.yaml", "1")] * 2)),
    "contradictory format flags": _entries(polib.POEntry(msgid="a", msgstr="b", flags=["c-format", "no-c-format", "fuzzy"])),
    "obsolete entry without a translation": _entries(polib.POEntry(msgid="a", msgstr="", obsolete=True)),
    "obsolete entry with references, flags and a previous msgid": _entries(polib.POEntry(
        msgid="a", msgstr="b", obsolete=True, occurrences=[("f.c", "1")], flags=["c-format", "fuzzy"], previous_msgid="c", tcomment="t", comment="e")),
    "escaped quote after a space at the margin": _one('tab\there "quoted" back\\slash ' * 5),
    "directive with a space flag at the margin": _entries(polib.POEntry(
        msgid="averyveryverylongwordwithoutanybreakopportunityatallthatrunspastthemargin\t10% the ", msgstr="", flags=["c-format"])),
    "a line separator restarts the column count without breaking the line": _one("word " * 10 + "\u2028" + "word " * 20, "word " * 3 + "\u0085" + "word " * 30),
    "a word longer than the line after a line separator": _one("word word\u2028" + WORDS[43] + " word word"),
    "Kannada vowel signs that take a column": _one("\u0c95\u0cbf\u0c9f\u0c95\u0cc6 " * 20),
    "a directive of several size letters": _entries(polib.POEntry(msgid="averyveryverylongwordwithoutanybreakopportunityatall %lld and % the the ", msgstr="", flags=["c-format"])),
    "Hebrew letters around an ideographic space": _one("עברית\u3000עברית " * 8),
    "directives before the point where a format string turns invalid stay whole": _entries(
        polib.POEntry(msgid="c", msgstr="the " * 18 + "a10%% the %1$d %s", flags=["c-format"]),
        polib.POEntry(msgid="python", msgstr="the " * 18 + "a10%% the %(count)d %s", flags=["python-format"]),
        polib.POEntry(msgid="invalid", msgstr="the " * 18 + "a10%% the %y", flags=["c-format"])),
    "invalid python format string protects no directive": _entries(polib.POEntry(
        msgid="the ", msgstr="the the the the the the the the question question question %s %(count)d 10%%  ", flags=["python-format"])),
}
REGRESSIONS["header only"].metadata = {"Content-Type": "text/plain; charset=UTF-8"}


@pytest.mark.parametrize("name", sorted(REGRESSIONS))
def test_writer_regressions_match_msgcat(name, tmp_path):
    ours = render_catalog(REGRESSIONS[name])
    path = tmp_path / "x.po"
    path.write_bytes(ours)
    assert _msgcat(path).decode() == ours.decode()


def test_the_corpus_benchmark_counts_the_catalogs_msgcat_writes_otherwise(tmp_path, capsys):
    """benchmarks/msgcat_rate.py (the corpus rate in docs/performance.md): the project's catalogs
    count as the same, one with a flag GNU drops as different, a broken one as not read."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("msgcat_rate", REPO / "benchmarks" / "msgcat_rate.py")
    rate = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(rate)
    (tmp_path / "site").mkdir()
    for name in ("translations/fr.po", "translations/aistack.pot", "translations/site/nl.po"):
        (tmp_path / name.replace("translations/", "")).write_bytes((REPO / name).read_bytes())
    (tmp_path / "flag.po").write_text('msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n#, fuzzy, custom-flag\nmsgid "a"\nmsgstr "b"\n', encoding="utf-8")
    (tmp_path / "broken.po").write_text('msgid "a"\nmsgstr "b\n', encoding="utf-8")
    assert rate.main([str(tmp_path), "--show", "3"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("5 files, 4 read, 1 differ from msgcat (25.00 %), 1 not read\n  flag.po\n"), out
    assert "+#, fuzzy, custom-flag" in out
