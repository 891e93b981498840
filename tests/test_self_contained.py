"""The project needs nothing beside its own folder, and declares exactly what it imports.

A fresh `git clone` into an empty folder must pass its own tests: no tracked file may reach a
folder outside the repository (a sibling folder of the checkout, a parent of the checkout, a
path on the author's machine).
"""

from __future__ import annotations

import ast
import importlib.metadata
import re
import subprocess
import sys
from pathlib import PurePosixPath

import pytest

from conftest import REPO

# Vendored third-party data and hostile test inputs are scanned by their own rules (or not at all).
HOSTILE_INPUTS = ("tests/corpus/",)
GENERATED = ("exports/",)
RELATIVE = re.compile(r"(?<![\w.$/])((?:\.\./)+)([\w][\w.-]*(?:/[\w][\w.-]*)*)")
MACHINE_PATHS = re.compile(r"(?<![\w.])/(?:work|home|Users|mnt)/[\w.-]+")
PARENT_OF_ROOT = re.compile(r"\b(?:REPO|ROOT|PROJECT|repo_root|project_root)\.parent\b")
FILE_PARENTS = re.compile(r"__file__\)(?:\.resolve\(\))?\.parents\[(\d+)\]")
SIBLING = re.compile(r"""["'/]shared\b""")
NOT_REFERENCES = {
    ("tests/test_hostile_corpus.py", "../../etc/passwd"): "a hostile question id the validator must refuse, quoted in its expected error",
    ("tests/test_hardening2.py", "../fr"): "a hostile language code the catalog finder must refuse",
    ("SECURITY.md", "../translations"): "the target of a hostile symbolic link inside exports/, described in the threat model",
    ("tests/test_lms_packages.py", "../evil.xml"): "a hostile zip member name the package reader must refuse",
    ("tests/test_lms_packages.py", "../i.xml"): "a hostile manifest reference the package reader must refuse",
    ("tests/test_hardening3.py", "../evil.txt"): "a hostile target in a planted import journal the recovery must refuse",
}


def tracked_files() -> list[str]:
    """The files a clone gets: `git ls-files`, or every file when this is not a git checkout."""
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True, timeout=120).stdout
        names = [n for n in out.decode("utf-8").split("\0") if n]
    except (OSError, subprocess.CalledProcessError):
        names = []
    if not names:
        skip = {".git", ".venv", "__pycache__", ".bank-cache", ".pytest_cache", ".hypothesis"}
        names = [p.relative_to(REPO).as_posix() for p in REPO.rglob("*") if p.is_file() and not skip & set(p.relative_to(REPO).parts)]
    return sorted(n for n in names if (REPO / n).is_file())


def _folders() -> list[PurePosixPath]:
    folders = {PurePosixPath(".")}
    for name in tracked_files():
        folders.update(PurePosixPath(name).parents)
    return sorted(folders)


def _inside(base: PurePosixPath, relative: str) -> PurePosixPath | None:
    """``base/relative`` normalised inside the repository, or None if it climbs out."""
    parts: list[str] = [p for p in base.parts if p != "."]
    for part in relative.split("/"):
        if part == "..":
            if not parts:
                return None
            parts.pop()
        elif part and part != ".":
            parts.append(part)
    return PurePosixPath(*parts) if parts else PurePosixPath(".")


def outside_references(name: str, text: str, existing: set[str], folders: list[PurePosixPath]) -> list[str]:
    """Every reference in ``text`` (the file ``name``) that leads out of the repository."""
    found = []
    here = PurePosixPath(name).parent
    depth = len(here.parts) if str(here) != "." else 0
    for number, line in enumerate(text.split("\n"), 1):
        where = f"{name}:{number}"
        for match in RELATIVE.finditer(line):
            ref = match.group(0)
            if (name, ref) in NOT_REFERENCES:
                continue
            if name.endswith(".xsd") and f'schemaLocation="{ref}' not in line.replace(" = ", "=").replace('= "', '="'):
                continue  # only imports are references in a schema (XPath `../@x`, stylesheet PIs are not)
            target = _inside(here, ref)
            if target is not None and (str(target) in existing or any(str(target).startswith(str(f) + "/") or str(f) == str(target) for f in folders)):
                continue
            # a path written relative to another folder of the repository (a YAML header quoted in a test)
            if any((t := _inside(f, ref)) is not None and str(t) in existing for f in folders):
                continue
            found.append(f"{where}: {ref!r} leads outside the repository")
        if name.endswith((".xsd", ".xml")):
            continue
        for pattern in (MACHINE_PATHS, PARENT_OF_ROOT, SIBLING):
            for match in pattern.finditer(line):
                found.append(f"{where}: {match.group(0)!r} refers outside the repository")
        for match in FILE_PARENTS.finditer(line):
            if int(match.group(1)) > depth:
                found.append(f"{where}: parents[{match.group(1)}] of a file at depth {depth} climbs out of the repository")
    return found


def test_no_tracked_file_refers_outside_the_repository():
    names = tracked_files()
    assert "pyproject.toml" in names and ".ci/run" in names and "tests/conftest.py" in names
    existing = set(names)
    folders = _folders()
    problems = []
    for name in names:
        if name.startswith(HOSTILE_INPUTS + GENERATED) or name == "tests/test_self_contained.py":
            continue
        try:
            text = (REPO / name).read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue  # binary files hold no paths
        problems += outside_references(name, text, existing, folders)
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize("name,text", [
    # the cases are spelt in pieces so that this file does not itself quote a path out of the checkout
    ("tests/conftest.py", 'SHARED = REPO.parent / "' + 'shared"\n'),
    ("tests/conftest.py", 'SCHEMAS = Path("..' + '/shared/schemas/qti")\n'),
    ("tests/conftest.py", "ROOT = Path(__file__).resolve().parents[2]\n"),
    (".ci/run", "cp -r ../data tests/\n"),
    ("pyproject.toml", 'cache = "/work/shared/cache"\n'),
    ("README.md", "See [the formats](../FORMATS.md).\n"),
])
def test_the_scan_finds_references_outside(name, text):
    names = tracked_files()
    assert outside_references(name, text, set(names), _folders())


def test_the_scan_accepts_references_inside():
    names = tracked_files()
    text = "# yaml-language-server: $schema=../../schema/question.schema.json\nREPO = Path(__file__).resolve().parents[1]\n"
    assert outside_references("bank/questions/q001-x.yaml", text, set(names), _folders()) == []
    assert outside_references("tests/conftest.py", text, set(names), _folders()) == []


# --- dependencies -----------------------------------------------------------------------------

def _runtime_requirements() -> list:
    import tomllib

    from packaging.requirements import Requirement

    data = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    return [Requirement(text) for text in data["project"]["dependencies"]]


def _imported_top_level_modules() -> set[str]:
    modules = set()
    for path in (REPO / "aistack_bank").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                modules.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                modules.add(node.module.split(".")[0])
    return modules - set(sys.stdlib_module_names) - {"aistack_bank", "__future__"}


@pytest.mark.skipif(sys.version_info < (3, 11), reason="tomllib")
def test_runtime_dependencies_are_exactly_what_the_package_imports():
    distributions = importlib.metadata.packages_distributions()
    requirements = _runtime_requirements()
    declared = {r.name.lower() for r in requirements}
    # a requirement for other Pythons only (tomli before 3.11) is not installed here
    installed = {r.name.lower() for r in requirements if r.marker is None or r.marker.evaluate()}
    imported = {}
    for module in _imported_top_level_modules():
        dists = {d.lower() for d in distributions.get(module, [module])}
        imported[module] = dists
    # every import is declared (directly, or as a requirement of a declared distribution)
    provided = set(declared)
    for dist in installed:
        for req in importlib.metadata.requires(dist) or []:
            if "extra ==" not in req:
                provided.add(re.split(r"[<>=!~;\[ (]", req, maxsplit=1)[0].strip().lower().replace("_", "-"))
    normalise = lambda name: name.lower().replace("_", "-")  # noqa: E731
    undeclared = {m: d for m, d in imported.items() if not {normalise(x) for x in d} & {normalise(p) for p in provided}}
    assert undeclared == {}
    # every declared runtime dependency is imported by the package (test-only tools go in the test extra)
    used = {normalise(d) for dists in imported.values() for d in dists}
    assert {normalise(d) for d in declared} - used == set()


# --- licence ----------------------------------------------------------------------------------

PERMISSIVE = {"MIT", "BSD-2-Clause", "BSD-3-Clause", "Apache-2.0", "PSF-2.0", "ISC"}
PERMISSIVE_CLASSIFIERS = {
    "License :: OSI Approved :: MIT License": "MIT",
    "License :: OSI Approved :: BSD License": "BSD-3-Clause",
    "License :: OSI Approved :: Apache Software License": "Apache-2.0",
    "License :: OSI Approved :: Python Software Foundation License": "PSF-2.0",
    "License :: OSI Approved :: ISC License (ISCL)": "ISC",
}
COPYLEFT = re.compile(r"\b(?:A?L?GPL|General Public License|Free Software Foundation|Mozilla Public License)\b")


def _dependency_licence(dist: str) -> str | None:
    """The SPDX licence an installed distribution declares (expression, or its licence classifier)."""
    meta = importlib.metadata.metadata(dist)
    if meta.get("License-Expression"):
        return meta["License-Expression"]
    found = {PERMISSIVE_CLASSIFIERS.get(c) for c in meta.get_all("Classifier") or [] if c.startswith("License ::")}
    return found.pop() if len(found) == 1 else None


def test_the_package_is_under_one_permissive_licence():
    import tomllib

    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]
    licence = (REPO / "LICENSE").read_text(encoding="utf-8")
    assert licence.startswith("MIT License\n") and "Third-party" not in licence
    assert not COPYLEFT.search(licence)
    notices = [f"{n}:{i}" for n in tracked_files() if n.startswith("aistack_bank/") and n.endswith((".py", ".js", ".css", ".html", ".md"))
               for i, line in enumerate((REPO / n).read_text(encoding="utf-8").splitlines(), 1) if COPYLEFT.search(line)]
    assert notices == []


@pytest.mark.skipif(sys.version_info < (3, 11), reason="tomllib")
def test_runtime_dependencies_are_permissive_and_listed_with_the_test_data_licences():
    """THIRD-PARTY.md lists every runtime dependency with its licence, and every folder of
    vendored test data that carries a licence of its own."""
    listed = (REPO / "THIRD-PARTY.md").read_text(encoding="utf-8")
    dependencies = listed.split("## Test data")[0]
    table = dict(re.findall(r"^\| ([\w.-]+)(?: \([^)]*\))? \| ([\w.-]+) \|", dependencies, re.M))
    requirements = _runtime_requirements()
    assert set(table) - {"dependency", "---"} == {r.name for r in requirements}
    for requirement in requirements:
        assert table[requirement.name] in PERMISSIVE, requirement.name
        if requirement.marker is None or requirement.marker.evaluate():
            assert _dependency_licence(requirement.name) == table[requirement.name], requirement.name
    # a folder with a licence file, or whose README speaks of a licence, holds another project's files
    with_licence = {str(PurePosixPath(n).parent) for n in tracked_files() if n.startswith("tests/data/") and (
        PurePosixPath(n).name.upper().startswith("LICENSE")
        or (PurePosixPath(n).name == "README.md" and re.search(r"licen[cs]e", (REPO / n).read_text(encoding="utf-8"), re.I)))}
    assert with_licence and not [folder for folder in with_licence if f"`{folder}/`" not in listed]
