"""Golden files: every exporter's output for the kitchen-sink bank in tests/golden/, byte for byte.

The bank under tests/golden/bank/ (English) and tests/golden/translations/ (French, Dutch)
holds what the exporters must escape or carry: options without feedback, 2 and 6 options,
multi-line text, formulas, markup-like text (< & ]]> {} ~=#: backslash), right-to-left and CJK
text, an emoji, a tab, placeholders. `bank build` renders it, and the result must equal
tests/golden/exports/. Zip packages are stored unpacked (each member as a file under
``<name>.zip/``, plus ``<name>.zip.listing`` with every member's header fields) so that a
change shows as a readable diff; compressed bytes, which depend on the zlib version, are not
compared, everything else is.

When an exporter changes on purpose, re-accept the output with

    python3 -m pytest tests/test_golden.py --accept-golden

and review `git diff tests/golden/exports/` before committing it (tests/README.md).
"""

from __future__ import annotations

import difflib
import io
import shutil
import zipfile
from pathlib import Path

import pytest

from aistack_bank.build import build

from conftest import REPO

GOLDEN = REPO / "tests" / "golden"
EXPECTED = GOLDEN / "exports"


def expand(folder: Path) -> dict[str, bytes]:
    """The files under ``folder`` by relative path, each zip replaced by its listing and members."""
    tree: dict[str, bytes] = {}
    for path in sorted(folder.rglob("*")):
        if not path.is_file():
            continue
        rel = path.relative_to(folder).as_posix()
        if path.suffix not in (".zip", ".imscc"):  # packages, stored unpacked
            tree[rel] = path.read_bytes()
            continue
        with zipfile.ZipFile(io.BytesIO(path.read_bytes())) as archive:
            listing = []
            for info in archive.infolist():
                listing.append(
                    f"{info.filename}\tdate={'-'.join(map(str, info.date_time))}\tmethod={info.compress_type}"
                    f"\tmode={info.external_attr >> 16:o}\tsystem={info.create_system}\tcrc={info.CRC:08x}\tsize={info.file_size}"
                )
                tree[f"{rel}/{info.filename}"] = archive.read(info)
            tree[f"{rel}.listing"] = ("\n".join(listing) + "\n").encode("utf-8")
    return tree


def read_expected() -> dict[str, bytes]:
    if not EXPECTED.is_dir():
        return {}
    return {p.relative_to(EXPECTED).as_posix(): p.read_bytes() for p in sorted(EXPECTED.rglob("*")) if p.is_file()}


def accept(actual: dict[str, bytes]) -> None:
    """Replace tests/golden/exports/ with ``actual`` (stale files go too)."""
    if EXPECTED.exists():
        shutil.rmtree(EXPECTED)
    for rel, data in actual.items():
        path = EXPECTED / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def _diff(rel: str, expected: bytes, actual: bytes) -> str:
    try:
        a, b = expected.decode("utf-8").splitlines(keepends=True), actual.decode("utf-8").splitlines(keepends=True)
    except UnicodeDecodeError:
        return f"{rel}: binary content differs ({len(expected)} → {len(actual)} bytes)"
    return "".join(difflib.unified_diff(a, b, f"golden/{rel}", f"now/{rel}", n=2))[:3000]


@pytest.fixture(scope="module")
def golden(tmp_path_factory) -> Path:
    """The golden bank with the practice site's interface catalogs of translations/site/.

    The interface strings belong to the exporter, not to the bank: taking the project's current
    catalogs keeps the golden bank in step when the site gains or rewords a string.
    """
    root = tmp_path_factory.mktemp("golden") / "project"
    shutil.copytree(GOLDEN / "bank", root / "bank", ignore=shutil.ignore_patterns(".bank-cache"))
    shutil.copytree(GOLDEN / "translations", root / "translations")
    shutil.copytree(REPO / "translations" / "site", root / "translations" / "site")
    return root


@pytest.fixture(scope="module")
def actual(golden) -> dict[str, bytes]:
    out = golden / "exports"
    outputs, notes = build(golden / "bank", golden / "translations", out)
    # Aiken says what it loses: the feedback (W653) and each multi-line question (W654).
    assert [n for n in notes if n.code not in ("W653", "W654")] == [] and outputs
    return expand(out)


def test_the_golden_bank_is_clean(golden, run_cli, monkeypatch):
    monkeypatch.chdir(golden)
    code, out = run_cli("validate", "--strict", "--no-cache")
    assert code == 0, out
    assert out.strip().endswith("0 error(s), 0 warning(s).")
    code, out = run_cli("i18n", "status", "--fail-under", "100")
    assert code == 0, out


def test_the_golden_bank_covers_what_it_claims():
    from aistack_bank.build import available_languages, load_localized

    banks = load_localized(GOLDEN / "bank", GOLDEN / "translations", available_languages(GOLDEN / "translations"))[0]
    assert not (GOLDEN / "translations" / "site").exists()  # the interface catalogs come from translations/site/
    assert set(banks) >= {"en", "fr", "nl"}
    for bank in banks.values():
        counts = {len(q.options) for q in bank.questions}
        assert {2, 6} <= counts
        assert any(o.feedback is None for q in bank.questions for o in q.options)
        assert any(o.feedback is not None for q in bank.questions for o in q.options)
        texts = [t for q in bank.questions for t in (q.stem, q.explanation, *(o.text for o in q.options), *(o.feedback or "" for o in q.options))]
        texts += [bank.topic.title, bank.category.title, bank.topic.summary, *(p.text for p in bank.topic.key_points)]
        everything = "\n".join(texts)
        for needle in ["<", ">", "&", '"', "'", "]]>", "{", "}", "~", "=", "#", ":", "\\", "//", "\t", "%s", "{0}", "$course$", "</script>", "<!--", "🚀", "³", "×"]:
            assert needle in everything, (bank.lang, needle)
        assert any("\n" in t for t in texts)  # multi-line text
        assert any("\u0600" <= c <= "\u06ff" for c in everything) and any("\u0590" <= c <= "\u05ff" for c in everything)  # Arabic, Hebrew
        assert any("\u4e00" <= c <= "\u9fff" for c in everything)  # CJK
        assert any(q.check is not None for q in bank.questions)


def test_every_exporter_matches_its_golden_files(actual, request):
    if request.config.getoption("--accept-golden"):
        accept(actual)
        pytest.skip(f"accepted {len(actual)} golden files into {EXPECTED.relative_to(REPO)}; review `git diff` before committing")
    expected = read_expected()
    assert expected, "no golden files: run `python3 -m pytest tests/test_golden.py --accept-golden`"
    missing, extra = sorted(set(expected) - set(actual)), sorted(set(actual) - set(expected))
    changed = [rel for rel in sorted(set(expected) & set(actual)) if expected[rel] != actual[rel]]
    report = [f"no longer produced: {rel}" for rel in missing] + [f"new: {rel}" for rel in extra]
    report += [_diff(rel, expected[rel], actual[rel]) for rel in changed[:5]]
    if changed[5:]:
        report.append(f"... and {len(changed) - 5} more changed files")
    assert not (missing or extra or changed), (
        "exports differ from tests/golden/exports/; if the change is intended, run "
        "`python3 -m pytest tests/test_golden.py --accept-golden` and review the diff\n" + "\n".join(report)
    )


def test_every_format_and_language_has_golden_files():
    expected = read_expected()
    folders = {rel.split("/", 1)[0] for rel in expected if "/" in rel}
    assert "README.md" in expected  # the guide `bank build` writes beside the formats
    assert folders == {"moodle", "gift", "qti21", "qti30", "json", "site", "canvas-qti12", "common-cartridge", "aiken"}
    for lang in ("en", "fr", "nl"):
        assert f"moodle/aistack-{lang}.xml" in expected and f"gift/aistack-{lang}.gift" in expected
        assert f"qti21/aistack-{lang}.zip.listing" in expected and f"qti30/aistack-{lang}.zip.listing" in expected
        assert f"json/aistack-{lang}.json" in expected and f"site/{lang}/index.html" in expected
        assert f"canvas-qti12/aistack-{lang}.zip.listing" in expected and f"common-cartridge/aistack-{lang}.imscc.listing" in expected
        assert f"aiken/aistack-{lang}.txt" in expected
