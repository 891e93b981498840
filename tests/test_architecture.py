"""The dependency direction of the package: no cycles, no upward imports.

Every ``from .x import y`` counts, also those inside functions (they are dependencies that
merely load late). docs/architecture.md draws the same rooms.
"""

from __future__ import annotations

import ast
from pathlib import Path

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
    "bottom": {"errors", "model", "", "kinds", "quantities"},  # "" is the package's __init__ (its version)
    "files": {"safety", "yamlsource", "load", "writing", "parallel", "filecache", "filechecks"},
    "data": {"site_strings", "options", "exchange", "i18n.languages"},
    "checking": {"validate", "cues", "lints", "checks", "checklang", "i18n"},
    "exporters": {"exporters"},
    "readers": {"readers"},
    "orchestration": {"build", "cache", "outputs", "settings", "lms", "analyze", "importers", "authoring", "topics", "scaffold", "stats", "schemas", "guide"},
    "services": {"services"},
    "cli": {"cli", "__main__"},
}
"""Each top-level module or subpackage in one room; docs/architecture.md has the same table."""

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
    ("aistack_bank.i18n", "aistack_bank.validate", "validate composes the catalog checks, not the other way"),
    ("aistack_bank.cues", "aistack_bank.validate", "the answer-cue rules are shared by validate, i18n and stats"),
    ("aistack_bank.cues", "aistack_bank.i18n", "the answer-cue rules are shared by validate, i18n and stats"),
    ("aistack_bank.model", "aistack_bank.errors", "the model holds data; the kinds' rules report diagnostics, the model none"),
    ("aistack_bank.kinds", "aistack_bank.model", "the kinds declare the question models; model.py names them again"),
    ("aistack_bank.quantities", "aistack_bank", "the quantity reader imports nothing of the package"),
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


def test_no_module_imports_upwards():
    assert violations(import_graph()) == []


def test_no_import_cycles():
    assert cycles(import_graph()) == []


def test_the_rules_catch_what_they_forbid(tmp_path):
    """The checks above can fail: a package with each forbidden arrow and a cycle is caught."""
    package = tmp_path / "aistack_bank"
    for relative, text in {
        "__init__.py": "",
        "cli.py": "",
        "model.py": "from .errors import BankError\n",
        "errors.py": "",
        "validate.py": "from .i18n.verify import verify_catalogs\n",
        "services.py": "def run():\n    from .cli import app\n",
        "i18n/__init__.py": "",
        "i18n/verify.py": "from ..validate import MAX_LONGEST_SHARE\n",
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
    assert any("i18n.verify imports aistack_bank.validate" in line for line in found)
    assert any("model imports aistack_bank.errors" in line for line in found)
    assert cycles(graph) == [["aistack_bank.i18n.verify", "aistack_bank.validate"]]


def test_the_loaders_list_of_kinds_is_the_models():
    from aistack_bank import load, model

    assert load.KINDS == model.KINDS
