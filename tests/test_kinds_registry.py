"""The kinds are declared once (kinds/): the registry, the limits others read, the kind API."""

from __future__ import annotations

import pytest

from aistack_bank import load, model
from aistack_bank.importers import _kinds as importer_limits
from aistack_bank.kinds import REGISTRY, ResponseError, limits
from test_kinds_model import question


def test_the_registry_is_the_one_list_of_kinds():
    assert tuple(REGISTRY) == model.KINDS == load.KINDS
    for name, kind in REGISTRY.items():
        assert kind.model.model_fields["kind"].annotation.__args__ == (name,)


def test_the_importers_read_the_limits_from_the_model():
    assert (importer_limits.MIN_CHOICES, importer_limits.MAX_CHOICES) == limits(model.SingleChoiceQuestion, "options") == (2, 6)
    assert (importer_limits.MIN_OPTIONS, importer_limits.MAX_OPTIONS) == limits(model.MultipleResponseQuestion, "options") == (2, 10)
    assert importer_limits.MAX_SHORT_ANSWERS == limits(model.ShortAnswerQuestion, "answers")[1] == 20
    assert (importer_limits.MIN_PAIRS, importer_limits.MAX_PAIRS) == limits(model.MatchingQuestion, "pairs") == (2, 12)
    assert (importer_limits.MIN_ITEMS, importer_limits.MAX_ITEMS) == limits(REGISTRY["ordering"].model, "items") == (3, 10)


@pytest.mark.parametrize("kind,response,marks", [
    ("single-choice", "a", 1.0), ("single-choice", "b", 0.0),
    ("multiple-response", "a,c", 1.0), ("multiple-response", "c", 0.5), ("multiple-response", "a,b", 0.0), ("multiple-response", "a,b,c", 0.5),
    ("multiple-response", "", 0.0), ("true-false", "false", 1.0), ("true-false", "true", 0.0),
    ("numerical", "14 GB", 1.0), ("numerical", "14000 MB", 1.0), ("numerical", "14.6", 1.0), ("numerical", "28", 0.0), ("numerical", "1", 0.0),
    ("short-answer", "onnx", 1.0), ("short-answer", "  ONNX ", 1.0), ("short-answer", "ONNX  Runtime", 0.5), ("short-answer", "torch", 0.0),
    ("matching", "a=a;b=b", 1.0), ("matching", "a=a", 0.5), ("matching", "a=b;b=a", 0.0), ("matching", "a=c;b=b", 0.5), ("matching", "", 0.0),
    ("ordering", "a,b,c", 1.0), ("ordering", "a,c,b", 0.0), ("ordering", "c,b,a", 0.0),
])
def test_each_kind_scores_a_response_as_the_exports_do(kind, response, marks):
    q = question(kind)
    assert q.score(q.parse_response(response)) == pytest.approx(marks)


@pytest.mark.parametrize("kind,response", [
    ("single-choice", "z"), ("multiple-response", "a,a"), ("multiple-response", "a,z"), ("true-false", "yes"),
    ("numerical", "many"), ("numerical", "14 TB"), ("numerical", "inf"), ("matching", "a=z"), ("matching", "c=a"), ("matching", "a"),
    ("ordering", "a,b"), ("ordering", "a,b,b"), ("ordering", "a,b,c,d"), ("ordering", ""),
])
def test_a_response_that_is_none_of_the_question_is_refused(kind, response):
    q = question(kind)
    with pytest.raises(ResponseError):
        q.parse_response(response)


def test_right_ids_are_the_right_options_that_exist_once_each():
    mr = question("multiple-response")
    assert mr.right_ids() == tuple(dict.fromkeys(mr.correct))
    assert question("single-choice").right_ids() == (question("single-choice").correct,)
    assert question("true-false").right_ids() == () and question("matching").choices() == ()


FORMAT_CODE = ("aistack_bank/exporters/", "aistack_bank/importers/", "aistack_bank/lms/", "aistack_bank/exchange.py")
"""Format writers and readers: each names the kinds of its format (Moodle's qtypes, QTI's
interactions, the JSON contract's records of each kind)."""
NOT_FORMAT_CODE = ("aistack_bank/exporters/__init__.py", "aistack_bank/exporters/record.py", "aistack_bank/exporters/common.py",
                   "aistack_bank/exporters/table.py", "aistack_bank/exporters/guide.py", "aistack_bank/exporters/words.py",
                   "aistack_bank/importers/__init__.py", "aistack_bank/importers/write.py", "aistack_bank/lms/__init__.py")
"""What the formats share (the record, the tables, the writer of imported questions): no format's, so no kind's either."""


def kind_branches(path) -> list[int]:
    """Lines of ``path`` that name a kind (``q.kind == "numerical"``, ``kind in ("single-choice", …)``,
    ``{"essay": …}``) or give a question without a kind one (``getattr(q, "kind", "single-choice")``):
    a decision about a kind taken outside its module. Docstrings do not count."""
    import ast

    from aistack_bank.kinds import NAMES

    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                  and node.body and isinstance(node.body[0], ast.Expr)}
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and node.value in NAMES and id(node) not in docstrings:
            found.add(node.lineno)
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr" and len(node.args) == 3
              and isinstance(node.args[1], ast.Constant) and node.args[1].value == "kind"):
            found.add(node.lineno)
    return sorted(found)


def test_no_module_but_the_kinds_and_the_formats_decides_by_kind_name():
    from conftest import REPO

    found = []
    for path in sorted((REPO / "aistack_bank").rglob("*.py")):
        relative = path.relative_to(REPO).as_posix()
        if relative.startswith("aistack_bank/kinds/") or relative.startswith(FORMAT_CODE) and relative not in NOT_FORMAT_CODE:
            continue
        found += [f"{relative}:{line}" for line in kind_branches(path)]
    assert found == []


def test_the_kind_branch_finder_finds_a_branch(tmp_path):
    path = tmp_path / "m.py"
    path.write_text('"""About "essay"."""\nif q.kind == "numerical":\n    pass\nif kind in ("matching", "x"):\n    pass\nif q.kind == other:\n    pass\n'
                    'TABLE = {"essay": 1}\nkind = getattr(q, "kind", DEFAULT)\ndef f():\n    "ordering"\n', encoding="utf-8")
    assert kind_branches(path) == [2, 4, 8, 9]


def kind_comparisons(path) -> list[int]:
    """Lines of ``path`` that compare something with a kind's name (``q.kind == "numerical"``,
    ``kind in ("single-choice", …)``): a chain of kinds instead of a per-kind table."""
    import ast

    from aistack_bank.kinds import NAMES

    def names(node) -> bool:
        if isinstance(node, ast.Constant):
            return node.value in NAMES
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            return any(names(e) for e in node.elts)
        return False

    tree = ast.parse(path.read_text(encoding="utf-8"))
    return sorted({node.lineno for node in ast.walk(tree) if isinstance(node, ast.Compare) and any(names(n) for n in [node.left, *node.comparators])})


def test_the_exporters_name_a_kind_only_as_the_key_of_a_per_kind_table():
    """A format's writer, and what it says it loses, is found by the question's kind in a table
    (``WRITERS``, ``ITEM_PARTS``, ``SCORING_NOTES``, …), never by comparing kinds."""
    from conftest import REPO

    found = [f"{path.relative_to(REPO).as_posix()}:{line}" for path in sorted((REPO / "aistack_bank" / "exporters").rglob("*.py"))
             for line in kind_comparisons(path)]
    assert found == []


def test_the_comparison_finder_finds_a_chain(tmp_path):
    path = tmp_path / "m.py"
    path.write_text('if q.kind == "numerical":\n    pass\nif kind in ("matching", "x"):\n    pass\nif q.kind == other:\n    pass\nT = {"essay": 1}\n', encoding="utf-8")
    assert kind_comparisons(path) == [1, 3]
