"""The dependency direction of the package: no cycles, no upward imports.

Every ``from .x import y`` counts, also those inside functions (they are dependencies that
merely load late). docs/architecture.md draws the same rooms.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from conftest import REPO

PACKAGE = REPO / "aistack_bank"


def _module_name(path: Path, package: Path) -> str:
    parts = list(path.with_suffix("").relative_to(package.parent).parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph(package: Path = PACKAGE) -> dict[str, set[str]]:
    """{module: the package's modules it imports} over every .py file of ``package``."""
    modules = {_module_name(path, package): path for path in package.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        base = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    target = ".".join(base[: len(base) - node.level + 1] + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                targets |= {f"{target}.{alias.name}" for alias in node.names} | {target}
            elif isinstance(node, ast.Import):
                targets |= {alias.name for alias in node.names}
        resolved = set()
        for target in targets:
            if not target.startswith(package.name):
                continue
            while target not in modules and "." in target:
                target = target.rsplit(".", 1)[0]
            if target in modules and target != name:
                resolved.add(target)
        graph[name] = resolved
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def _in(room: str, module: str) -> bool:
    return module == room or module.startswith(room + ".")


ROOMS = {
    "bottom": {"errors", "model", "", "kinds", "rules.quantities"},  # "" is the package's __init__ (its version)
    "files": {"safety", "yamlsource", "load", "writing", "parallel", "cache", "cache.store", "cache.questionfiles", "cache.entries"},
    "data": {"site_strings", "options", "exchange", "i18n.languages"},
    "checking": {"rules", "i18n", "cache.catalogs"},
    "exporters": {"exporters"},
    "readers": {"readers"},
    "orchestration": {"build", "cache.validation", "cache.outputs", "project", "lms", "analyze", "importers"},
    "services": {"services"},
    "cli": {"cli", "__main__"},
}
"""Each top-level module or subpackage in one room, and a module of a package in another room where it differs (the longest listed prefix counts); docs/architecture.md has the same table."""

MAY_IMPORT = {
    "bottom": {"bottom"},
    "files": {"bottom", "files"},
    "data": {"bottom", "data"},
    "checking": {"bottom", "files", "data", "checking"},
    "exporters": {"bottom", "data", "exporters"},
    "readers": {"bottom", "readers"},
    "orchestration": {"bottom", "files", "data", "checking", "exporters", "readers", "orchestration"},
    "services": {"bottom", "files", "data", "checking", "exporters", "readers", "orchestration", "services"},
    "cli": set(ROOMS),
}

FORBIDDEN = [
    # (importing module or package, imported module or package, why): arrows within a room
    ("aistack_bank.i18n", "aistack_bank.rules.validate", "validate composes the catalog checks, not the other way"),
    ("aistack_bank.rules.cues", "aistack_bank.rules.validate", "the answer-cue rules are shared by validate, i18n and stats"),
    ("aistack_bank.rules.cues", "aistack_bank.i18n", "the answer-cue rules are shared by validate, i18n and stats"),
    ("aistack_bank.model", "aistack_bank.errors", "the model holds data; the kinds' rules report diagnostics, the model none"),
    ("aistack_bank.kinds", "aistack_bank.model", "the kinds declare the question models; model.py names them again"),
    ("aistack_bank.rules.quantities", "aistack_bank", "the quantity reader imports nothing of the package"),
    ("aistack_bank.errors", "aistack_bank", "the error types import nothing of the package"),
]


def room_of(module: str) -> str | None:
    """The room of the longest listed prefix (`i18n.languages` is data, the rest of `i18n` checking)."""
    parts = module.split(".")[1:] or [""]
    for depth in range(len(parts), 0, -1):
        name = ".".join(parts[:depth])
        room = next((room for room, members in ROOMS.items() if name in members), None)
        if room is not None:
            return room
    return None


def violations(graph: dict[str, set[str]]) -> list[str]:
    problems = []
    for module, targets in sorted(graph.items()):
        room = room_of(module)
        if room is None:
            problems.append(f"{module} is in no room: add it to ROOMS here and in docs/architecture.md")
            continue
        for target in sorted(targets):
            if target == "aistack_bank.cli" and room != "cli":
                problems.append(f"{module} imports {target}: only the CLI prints and exits")
            elif room_of(target) not in MAY_IMPORT[room]:
                problems.append(f"{module} imports {target}: the {room} room may not import the {room_of(target)} room")
            for source_room, target_room, why in FORBIDDEN:
                if _in(source_room, module) and _in(target_room, target) and not _in(source_room, target) and target != "aistack_bank":
                    problems.append(f"{module} imports {target}: {why}")
    return problems


@pytest.fixture(scope="module")
def package_graph() -> dict[str, set[str]]:
    """The package's import graph, read once for the two tests of it (parsing every module of
    the package takes about a second of CPU)."""
    return import_graph()


def test_no_module_imports_upwards(package_graph):
    assert violations(package_graph) == []


def test_no_import_cycles(package_graph):
    assert cycles(package_graph) == []


def test_the_rules_catch_what_they_forbid(tmp_path):
    """The checks above can fail: a package with each forbidden arrow and a cycle is caught."""
    package = tmp_path / "aistack_bank"
    for relative, text in {
        "__init__.py": "",
        "cli.py": "",
        "model.py": "from .errors import BankError\n",
        "errors.py": "",
        "rules/__init__.py": "",
        "rules/validate.py": "from ..i18n.verify import verify_catalogs\n",
        "services.py": "def run():\n    from .cli import app\n",
        "i18n/__init__.py": "",
        "i18n/verify.py": "from ..rules.validate import MAX_LONGEST_SHARE\n",
        "i18n/site.py": "from ..exporters import html_site\n",
        "exporters/__init__.py": "",
        "exporters/html_site.py": "",
        "notes.py": "",
    }.items():
        (package / relative).parent.mkdir(parents=True, exist_ok=True)
        (package / relative).write_text(text, encoding="utf-8")
    graph = import_graph(package)
    found = violations(graph)
    assert any("services imports aistack_bank.cli" in line for line in found)
    assert any("i18n.site imports aistack_bank.exporters.html_site: the checking room may not import the exporters room" in line for line in found)
    assert any("aistack_bank.notes is in no room" in line for line in found)
    assert any("i18n.verify imports aistack_bank.rules.validate" in line for line in found)
    assert any("model imports aistack_bank.errors" in line for line in found)
    assert cycles(graph) == [["aistack_bank.i18n.verify", "aistack_bank.rules.validate"]]


def test_the_loaders_list_of_kinds_is_the_models():
    from aistack_bank import load, model

    assert load.KINDS == model.KINDS


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def private_crossings(package: Path = PACKAGE) -> list[str]:
    """Every use of another module's private name: ``from x import _y``, ``import x._y``,
    ``from x._y import z`` (a private module, from outside its package) and ``x._y`` on a
    module bound by an import. A module whose name starts with ``_`` is private to its package:
    its siblings and their subpackages may import it (not its ``_names``), nobody else."""
    modules = {_module_name(path, package): path for path in package.rglob("*.py")}
    found = []

    def module_allowed(importer: str, target: str) -> str | None:
        """The first private module on ``target``'s path that ``importer`` lies outside of."""
        parts = target.split(".")
        for depth in range(1, len(parts)):
            if _private(parts[depth]):
                owner = ".".join(parts[:depth])
                if not (importer == owner or importer.startswith(owner + ".")):
                    return ".".join(parts[: depth + 1])
        return None

    for name, path in sorted(modules.items()):
        base = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        tree = ast.parse(path.read_text(encoding="utf-8"))
        bound: dict[str, str] = {}  # local name -> module of the package it stands for
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                source = ".".join(base[: len(base) - node.level + 1] + ([node.module] if node.module else [])) if node.level else (node.module or "")
                if not source.startswith(package.name):
                    continue
                where = f"{name} (line {node.lineno})"
                if (private_module := module_allowed(name, source)) is not None:
                    found.append(f"{where} imports from {private_module}, private to its package")
                for alias in node.names:
                    full = f"{source}.{alias.name}"
                    if full in modules:
                        bound[alias.asname or alias.name] = full
                        if (private_module := module_allowed(name, full)) is not None:
                            found.append(f"{where} imports {private_module}, private to its package")
                    elif _private(alias.name) and source != name:
                        found.append(f"{where} imports {alias.name} from {source}")
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.startswith(package.name):
                        if (private_module := module_allowed(name, alias.name)) is not None:
                            found.append(f"{name} (line {node.lineno}) imports {private_module}, private to its package")
                        bound[alias.asname or alias.name] = alias.name
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and _private(node.attr):
                dotted, value = [], node.value
                while isinstance(value, ast.Attribute):
                    dotted.insert(0, value.attr)
                    value = value.value
                if isinstance(value, ast.Name):
                    target = ".".join([value.id, *dotted])
                    module = bound.get(target) or (target if target.startswith(package.name + ".") and target in modules else None)
                    if module is not None and module != name:
                        found.append(f"{name} (line {node.lineno}) uses {node.attr} of {module}")
    return found


def test_no_module_uses_another_modules_private_names():
    assert private_crossings() == []


def test_private_crossings_are_caught(tmp_path):
    """Each way of reaching into another module is found; a package's own private module is not."""
    package = tmp_path / "aistack_bank"
    for relative, text in {
        "__init__.py": "__version__ = '1'\n",
        "build.py": "from . import __version__\nfrom .exporters.html_site import _page\n",
        "guide.py": "from .exporters import html_site\n\ndef f():\n    return html_site._page()\n",
        "lint.py": "from .exporters._qti import render\n",
        "lint2.py": "import aistack_bank.exporters._qti\n",
        "lint3.py": "from .exporters import _qti\n",
        "exporters/__init__.py": "",
        "exporters/html_site.py": "def _page():\n    return 1\n\ndef page():\n    return _page()\n",
        "exporters/_qti.py": "def render():\n    pass\n",
        "exporters/qti21.py": "from ._qti import render\nfrom . import _qti\n",
    }.items():
        (package / relative).parent.mkdir(parents=True, exist_ok=True)
        (package / relative).write_text(text, encoding="utf-8")
    assert private_crossings(package) == [
        "aistack_bank.build (line 2) imports _page from aistack_bank.exporters.html_site",
        "aistack_bank.guide (line 4) uses _page of aistack_bank.exporters.html_site",
        "aistack_bank.lint (line 1) imports from aistack_bank.exporters._qti, private to its package",
        "aistack_bank.lint2 (line 1) imports aistack_bank.exporters._qti, private to its package",
        "aistack_bank.lint3 (line 1) imports aistack_bank.exporters._qti, private to its package",
    ]


ARCHITECTURE = REPO / "docs" / "architecture.md"
TO_BE_WRITTEN = {"aistack_bank/exporters/myformat.py"}
"""What the doc's how-to sections ask the reader to create."""


def stale_paths(text: str, package: Path = PACKAGE) -> list[str]:
    """The modules, packages and folders named in ``text`` (as `x.py`, `x/y.py` or `x/`) that do not
    exist, under the package or the repository (`tests/test_x.py`, `exports/`)."""
    names = re.findall(r"`((?:[\w.-]+/)*[\w.-]+(?:\.py|/))`", text)
    return sorted({name for name in names if not (package / name).exists() and not (package.parent / name).exists()})


def undescribed(text: str, package: Path = PACKAGE) -> list[str]:
    """The packages (`x/`) and root modules (`x.py`) of ``package`` that the layout section of
    ``text`` does not name."""
    layout = text.split("\n## The layout\n", 1)[1].split("\n## ", 1)[0] if "\n## The layout\n" in text else ""
    wanted = [f"{init.parent.relative_to(package).as_posix()}/" for init in package.rglob("__init__.py") if init.parent != package]
    wanted += [path.name for path in package.glob("*.py") if path.name not in {"__init__.py", "__main__.py"}]
    return sorted(name for name in wanted if f"`{name}`" not in layout)


def test_the_architecture_doc_names_what_exists_and_describes_every_package():
    text = ARCHITECTURE.read_text(encoding="utf-8")
    assert stale_paths(text) == sorted(TO_BE_WRITTEN)
    assert undescribed(text) == []


def test_a_stale_or_missing_name_in_the_architecture_doc_is_caught(tmp_path):
    package = tmp_path / "aistack_bank"
    for relative in ("__init__.py", "cli.py", "rules/__init__.py", "rules/validate.py", "cache/__init__.py"):
        (package / relative).parent.mkdir(parents=True, exist_ok=True)
        (package / relative).write_text("", encoding="utf-8")
    text = "# A\n\n## The layout\n\n`cli.py`, `rules/` (`rules/validate.py`)\n\n## Rooms\n\n`cache/` `validate.py` `filecache.py` `rules/cues.py`\n"
    assert stale_paths(text, package) == ["filecache.py", "rules/cues.py", "validate.py"]
    assert undescribed(text, package) == ["cache/"]
