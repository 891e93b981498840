"""`bank init`: a new bank project, ready to validate, translate, build and check in CI.

Everything is prepared in a hidden folder beside the target (the bank, its catalogs made by
the same code as `bank i18n update`, the schemas, the exports of `bank build`), checked, and
only then moved into place: a new folder appears in one rename; into an existing folder (empty,
or with ``force`` not empty) files are added one by one, each atomically, and an existing file
is never overwritten.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import unicodedata
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from ..errors import Diagnostic, InitError, Location, error, warning

MAX_TEXT = 255
"""Longest title or category: Moodle's limit for a category name."""

OWNED = ("bank", "translations", "schema", "exports")
"""Folders that make a bank: `bank init --force` refuses a folder that already has one."""

_FORBIDDEN = re.compile(r"[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]")


@dataclass
class InitReport:
    root: Path
    languages: list[str]
    written: list[Path] = field(default_factory=list)
    kept: list[Path] = field(default_factory=list)
    notes: list[Diagnostic] = field(default_factory=list)


def parse_languages(value: str | None) -> tuple[list[str], list[Diagnostic]]:
    """The codes of ``--languages fr,nl,de`` (deduplicated, in order) and what is wrong with them."""
    from ..i18n.languages import check_code, plural_forms

    codes, diags = [], []
    for code in (value or "").split(","):
        code = code.strip()
        if not code or code in codes:
            continue
        problem = check_code(code)
        if problem:
            diags.append(error("E132", problem, Location("--languages")))
            continue
        if plural_forms(code) is None:
            diags.append(warning("W131", f"no plural rule is known for {code}; its catalogs say nplurals=2; plural=(n != 1); correct the Plural-Forms header if {code} differs", Location("--languages")))
        codes.append(code)
    return codes, diags


def check_text(option: str, text: str) -> tuple[str, list[Diagnostic]]:
    """``text`` in NFC with its edge spaces removed, and why it cannot be used (if so)."""
    text = unicodedata.normalize("NFC", text).strip()
    where = Location(option)
    if not text:
        return text, [error("E133", "the text is empty", where)]
    bad = _FORBIDDEN.search(text)
    if bad:
        return text, [error("E133", f"character U+{ord(bad.group()):04X} at position {bad.start() + 1} is not allowed (no control, line-break or bidirectional-control characters)", where)]
    if len(text) > MAX_TEXT:
        return text, [error("E133", f"{len(text)} characters; the limit is {MAX_TEXT} (Moodle's limit for a category name)", where)]
    return text, []


def default_title(root: Path) -> str:
    """A title from the folder name: `physics-101` → `Physics 101`."""
    words = re.sub(r"[-_.]+", " ", root.resolve().name).strip()
    return (words[:1].upper() + words[1:]) if words else "Practice questions"


def _starter(name: str) -> str:
    return resources.files(__package__).joinpath("starter", name).read_text(encoding="utf-8")


def _topic_yaml(title: str, category_id: str, topic_id: str, qid: str) -> bytes:
    from .authoring import TOPIC_SCHEMA_COMMENT, yaml_text

    summary = f"Practice questions on {title}, each with feedback and an explanation."
    lines = [
        TOPIC_SCHEMA_COMMENT,
        f"id: {topic_id}",
        f"category: {category_id}",
        "title:" + yaml_text(title, 0),
        "summary:" + yaml_text(summary, 0),
        "key_points: []",
        "tags:",
        '  workflow: "how the questions of this bank are written, translated and exported"',
        "questions:",
        f"  - {qid}",
    ]
    return ("\n".join(lines) + "\n").encode("utf-8")


def _fill_site_catalogs(translations: Path, languages: list[str]) -> None:
    """Copy the interface translations this package ships (French, Dutch, …) into new catalogs."""
    from ..i18n.catalog import read_catalog, render_catalog
    from ..i18n.site import SITE_DIR, packaged_site_catalog

    for lang in languages:
        shipped = packaged_site_catalog(lang)
        path = translations / SITE_DIR / f"{lang}.po"
        if shipped is None or not path.exists():
            continue
        known = {e.msgctxt: e for e in shipped.translated_entries() if e.msgctxt}
        po = read_catalog(path).po
        for entry in po:
            source = known.get(entry.msgctxt)
            if source is not None and source.msgid == entry.msgid:
                entry.msgstr = source.msgstr
        for key in ("Last-Translator", "PO-Revision-Date"):
            if shipped.metadata.get(key):
                po.metadata[key] = shipped.metadata[key]
        path.write_bytes(render_catalog(po))


WHEELS = "tools"
"""Where `bank init --requirement` copies a wheel file, so that a clone of the project has it."""


def check_requirement(spec: str | None) -> tuple[str, Path | None, list[Diagnostic]]:
    """The line of requirements.txt for ``--requirement`` (the published package by default), the
    wheel file to copy into the project if ``spec`` is one, and what is wrong with ``spec``."""
    from .. import __version__

    if spec is None:
        return f"aistack-bank=={__version__}", None, []
    spec = spec.strip()
    where = Location("--requirement")
    if not spec or _FORBIDDEN.search(spec):
        return spec, None, [error("E139", "give one requirement on one line: a wheel file, a URL or a version such as aistack-bank==0.1.0", where)]
    if spec.endswith(".whl") and "://" not in spec and "@" not in spec:
        wheel = Path(spec).expanduser().resolve()  # read after the command moved to its staging folder
        if not wheel.is_file():
            return spec, None, [error("E139", f"{spec}: no such wheel file (build one with `python -m build` in a checkout of aistack-bank)", where)]
        if not wheel.name.startswith("aistack_bank-"):
            return spec, None, [error("E139", f"{wheel.name} is not a wheel of aistack-bank (aistack_bank-<version>-py3-none-any.whl)", where)]
        return f"./{WHEELS}/{wheel.name}", wheel, []
    return spec, None, []


def _requirements(line: str, wheel: Path | None) -> bytes:
    if wheel is not None:
        why = f"# The aistack-bank this bank is built with (its wheel is in {WHEELS}/, so a clone installs it as it is):"
    elif line.startswith("aistack-bank=="):
        why = "# The version of aistack-bank this bank is built with: exports depend on it."
    else:
        why = "# Where the aistack-bank this bank is built with comes from (`bank init --requirement`):"
    return f"{why}\n{line}\n".encode("utf-8")


def _prepare(stage: Path, title: str, category: str, languages: list[str], *, project: str = "bank",
             requirement: str = "", wheel: Path | None = None) -> list[Diagnostic]:
    """Write the whole project under ``stage``; return the build's notes."""
    from .. import __version__
    from .authoring import slugify
    from ..build import build
    from ..errors import Severity
    from ..i18n.update import update_catalogs
    from .schemas import render_schemas
    from ..rules.validate import validate_bank
    from ..writing import write_tree

    from .topics import categories_file

    topic_id = topic_id_of(title)
    category_id = slugify(category, words=8)
    if category_id == "question":
        category_id = "general"
    if not category_id[0].isalpha():
        category_id = slugify(f"category {category_id}", words=9)
    bank, translations = stage / "bank", stage / "translations"
    files = {
        "bank/categories.yaml": categories_file([(category_id, category)]),
        f"bank/{topic_id}/topic.yaml": _topic_yaml(title, category_id, topic_id, "q001"),
        f"bank/{topic_id}/questions/q001-where-translations-live.yaml": _starter("q001-where-translations-live.yaml").encode("utf-8"),
        "README.md": _starter("README.md").replace("{title}", title).replace("{version}", __version__).replace("{topic}", topic_id).replace("{project}", project).encode("utf-8"),
        "requirements.txt": _requirements(requirement or f"aistack-bank=={__version__}", wheel),
        "bank/README.md": _starter("bank-README.md").encode("utf-8"),
        ".gitignore": b".bank-cache/\n*.mo\n__pycache__/\n",
        "bank.toml": _starter("bank.toml").encode("utf-8"),
        ".pre-commit-config.yaml": _starter("pre-commit-config.yaml").encode("utf-8"),
        ".github/workflows/bank.yml": _starter("bank.yml").encode("utf-8"),
    }
    if wheel is not None:
        files[f"{WHEELS}/{wheel.name}"] = wheel.read_bytes()
    write_tree(stage, files)
    write_tree(stage / "schema", render_schemas())
    results, diags = update_catalogs(bank, translations, languages=languages, project=project)
    if diags:
        raise InitError(diags)
    _fill_site_catalogs(translations, languages)
    problems = [d for d in validate_bank(bank, translations=translations).diagnostics if d.severity is Severity.ERROR]
    if problems:  # the starter content is tested; this guards against a broken installation
        raise InitError(problems)
    _, notes = build(bank, translations, stage / "exports")
    return notes


def _no_clobber_copy(source: Path, target: Path) -> bool:
    """Copy ``source`` to ``target`` atomically unless ``target`` exists; whether it was copied."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(source.read_bytes())
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o644)
        try:
            os.link(tmp, target)  # fails if target exists: never overwrites, even in a race
        except FileExistsError:
            return False
        return True
    finally:
        os.unlink(tmp)


def topic_id_of(title: str) -> str:
    """The id of the first topic, made from its title (a slug that starts with a letter)."""
    from .authoring import slugify

    topic_id = slugify(title, words=6)
    if topic_id == "question":
        topic_id = "topic"
    if not topic_id[0].isalpha():
        topic_id = slugify(f"topic {topic_id}", words=7)
    return topic_id


def project_slug(root: Path) -> str:
    """The project's short name, from its folder: the name of its template (`<slug>.pot`)."""
    from .authoring import slugify

    slug = slugify(root.resolve().name, words=6)
    return "bank" if slug == "question" else slug


def init_project(root: Path, *, languages: str | None = None, title: str | None = None, category: str | None = None, force: bool = False,
                 requirement: str | None = None) -> InitReport:
    """Create a bank project in ``root``; raise InitError (having written nothing) when refused.

    ``requirement`` is how the project installs this tool (requirements.txt): a version of the
    published package (the default, this version), a URL (VCS or wheel), or a wheel file, which
    is copied into the project's `tools/` so that a clone installs it without any index."""
    codes, diags = parse_languages(languages)
    requirement_line, wheel, more = check_requirement(requirement)
    diags += more
    title, more = check_text("--title", title if title is not None else default_title(root))
    diags += more
    if category is not None or not more:
        category, more = check_text("--category", category if category is not None else title)
        diags += more
    if not any(d.severity.value == "error" and d.location == Location("--title") for d in diags):
        from ..load import reserved_topic_id

        topic_id = topic_id_of(title)
        if reserved_topic_id(topic_id):
            diags.append(error("E133", f"the title {title!r} gives the topic id {topic_id!r}, which is reserved (a folder bank/{topic_id}/ is read "
                               "as the questions folder of the former single-topic layout); choose another title", Location("--title")))
    where = Location.of(root)
    if root.exists() and not root.is_dir():
        diags.append(error("E131", f"{root.as_posix()} exists and is not a folder", where))
    elif root.is_dir():
        entries = sorted(p.name for p in root.iterdir() if p.name != ".git")  # a fresh `git init` is empty
        owned = [name for name in OWNED if name in entries]
        if owned:
            diags.append(error("E134", f"{root.as_posix()} already has {', '.join(n + '/' for n in owned)}: `bank init` starts a new bank and never changes one", where))
        elif entries and not force:
            shown = ", ".join(entries[:3]) + (", …" if len(entries) > 3 else "")
            diags.append(error("E131", f"{root.as_posix()} is not empty ({shown}); use --force to add a bank beside these files (none is overwritten)", where))
    errors = [d for d in diags if d.severity.value == "error"]
    if errors:
        raise InitError(errors)
    report = InitReport(root=root, languages=codes, notes=diags)
    parent = root.resolve().parent
    parent.mkdir(parents=True, exist_ok=True)
    stage = Path(tempfile.mkdtemp(prefix=f".{root.resolve().name}.bank-init-", dir=parent))
    try:
        cwd = os.getcwd()
        os.chdir(stage)  # paths in the catalogs and notes are then the project's own
        try:
            notes = _prepare(Path("."), title, category, codes, project=project_slug(root), requirement=requirement_line, wheel=wheel)
        finally:
            os.chdir(cwd)
        for note in notes:  # shown from where the command ran: course/translations/de.po
            loc = note.location
            moved_to = Location.of(root / loc.path, loc.line, loc.column) if loc is not None else None
            report.notes.append(Diagnostic(note.severity, note.code, note.message, moved_to))
        staged = sorted(p for p in stage.rglob("*") if p.is_file())
        moved = False
        if not root.exists():
            os.chmod(stage, 0o755)
            try:
                os.rename(stage, root.resolve())  # a new folder: all files appear at once
                moved = True
            except OSError:  # created meanwhile: add the files one by one, as into an existing folder
                pass
        if moved:
            report.written = [root / p.relative_to(stage) for p in staged]
        else:  # an existing folder (perhaps the working directory) is kept, never replaced
            for path in staged:
                target = root / path.relative_to(stage)
                (report.written if _no_clobber_copy(path, target) else report.kept).append(target)
    finally:
        if stage.exists():
            shutil.rmtree(stage, ignore_errors=True)
    return report
