"""The check language: a tiny, safe subset of Python expressions for numeric assertion checks.

Scripts come from content files, so they are never given to ``exec`` or ``eval``. They are
parsed with :mod:`ast`, every node is checked against a whitelist, and a small interpreter
evaluates them over floats with limits on size, nesting, exponents and steps. Anything
outside the language raises :class:`~aistack_bank.errors.CheckError` with the script line and
column; the caller turns that into a file location.
"""

from __future__ import annotations

import ast
import math
import operator
from dataclasses import dataclass, field

from ..errors import CheckError

MAX_SOURCE_CHARS = 4000
MAX_STATEMENTS = 50
MAX_DEPTH = 20
MAX_EXPONENT = 1024
MAX_STEPS = 10_000

CONSTANTS: dict[str, float] = {
    "KB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12, "PB": 1e15,
    "KiB": 2.0**10, "MiB": 2.0**20, "GiB": 2.0**30, "TiB": 2.0**40,
    "s": 1.0, "ms": 1e-3, "us": 1e-6, "ns": 1e-9,
    "GFLOPS": 1e9, "TFLOPS": 1e12, "PFLOPS": 1e15, "TOPS": 1e12,
    "thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12,
}


def _close(a: float, b: float, rel: float = 1e-9) -> bool:
    return math.isclose(a, b, rel_tol=rel)


def _round(value: float, digits: float | None = None) -> float:
    """Python's ``round``, with the digits given as a number of the language (``round(x, 2)``)."""
    if digits is None:
        return round(value)
    if digits != int(digits):
        raise ValueError("the number of digits must be a whole number, as in round(x, 2)")
    return round(value, int(digits))


FUNCTIONS = {
    "min": min, "max": max, "abs": abs, "round": _round, "sqrt": math.sqrt, "log2": math.log2,
    "log10": math.log10, "exp": math.exp, "ceil": math.ceil, "floor": math.floor, "close": _close,
}
_FUNCTION_KEYWORDS = {"close": {"rel"}, "round": set()}
USAGE = {
    "min": "min(a, b, …)", "max": "max(a, b, …)", "abs": "abs(x)", "round": "round(x) or round(x, 2)",
    "sqrt": "sqrt(x ≥ 0)", "log2": "log2(x > 0)", "log10": "log10(x > 0)", "exp": "exp(x)",
    "ceil": "ceil(x)", "floor": "floor(x)", "close": "close(a, b) or close(a, b, rel=1e-6)",
}
"""How each function of the language is called, for the messages."""

ALLOWS = ("the check language has numbers, the question's variables, names assigned above, constants such as GB and ms, "
          "+ - * / // % **, comparisons, and/or/not, and the functions " + ", ".join(USAGE[name] for name in USAGE))
"""What a script may use, said by a message refusing something else (E401)."""
ANSWER_FUNCTIONS = {"answer": {"unit", "rel"}, "answer_formula": {"rel"}}

_BINOPS = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod,
    ast.Pow: operator.pow,
}
_CMPOPS = {
    ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
    ast.Gt: operator.gt, ast.GtE: operator.ge,
}


def _refuse(node: ast.AST, message: str, code: str = "E401") -> CheckError:
    err = CheckError(message, code=code)
    err.line = getattr(node, "lineno", 1)
    err.column = getattr(node, "col_offset", 0) + 1
    return err


@dataclass(frozen=True)
class AnswerCall:
    """One ``answer(...)``/``answer_formula(...)`` call met while running a script."""

    function: str
    value: float
    unit: str | None
    rel: float
    line: int


@dataclass
class Program:
    """A parsed and whitelisted script, ready to run."""

    tree: ast.Module


@dataclass
class _State:
    env: dict[str, float]
    steps: int = 0
    calls: list[AnswerCall] = field(default_factory=list)


def compile_script(source: str, variables: tuple[str, ...] = (), *, unit_required: bool = True) -> Program:
    """Parse and whitelist ``source``; raise CheckError (with ``line``/``column``) if refused.

    ``unit_required`` is False for a numerical question, whose answer may be a plain number."""
    if len(source) > MAX_SOURCE_CHARS:
        err = CheckError(f"script is {len(source)} characters; the limit is {MAX_SOURCE_CHARS}", code="E402")
        err.line, err.column = 1, 1
        raise err
    try:
        tree = ast.parse(source, mode="exec")
    except SyntaxError as exc:
        err = CheckError(f"syntax error: {exc.msg}")
        err.line, err.column = exc.lineno or 1, exc.offset or 1
        raise err from None
    except (ValueError, MemoryError, RecursionError) as exc:
        err = CheckError(f"script cannot be parsed: {exc}")
        err.line, err.column = 1, 1
        raise err from None
    if len(tree.body) > MAX_STATEMENTS:
        raise _refuse(tree.body[MAX_STATEMENTS], f"more than {MAX_STATEMENTS} statements", "E402")
    assigned: set[str] = set(variables)
    for stmt in tree.body:
        _check_statement(stmt, assigned, unit_required)
    return Program(tree=tree)


def _check_statement(stmt: ast.stmt, assigned: set[str], unit_required: bool = True) -> None:
    if isinstance(stmt, ast.Assign):
        if len(stmt.targets) != 1 or not isinstance(stmt.targets[0], ast.Name):
            raise _refuse(stmt, "only `name = expression` assignments are allowed")
        name = stmt.targets[0].id
        if name in CONSTANTS or name in FUNCTIONS or name in ANSWER_FUNCTIONS:
            raise _refuse(stmt.targets[0], f"{name!r} is a built-in name and cannot be assigned")
        _check_expr(stmt.value, assigned, 0)
        assigned.add(name)
    elif isinstance(stmt, ast.Assert):
        _check_expr(stmt.test, assigned, 0)
        if stmt.msg is not None and not (isinstance(stmt.msg, ast.Constant) and isinstance(stmt.msg.value, str)):
            raise _refuse(stmt.msg, "an assertion message must be a plain string")
    elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and isinstance(stmt.value.func, ast.Name) and stmt.value.func.id in ANSWER_FUNCTIONS:
        call = stmt.value
        fname = call.func.id
        if len(call.args) != 1:
            raise _refuse(call, f"{fname}() takes exactly one value, then keyword arguments {sorted(ANSWER_FUNCTIONS[fname])}", "E406")
        _check_expr(call.args[0], assigned, 0)
        for kw in call.keywords:
            if kw.arg not in ANSWER_FUNCTIONS[fname]:
                raise _refuse(kw.value if kw.arg is None else kw, f"{fname}() accepts the keywords {sorted(ANSWER_FUNCTIONS[fname])}, not {kw.arg!r}", "E406")
            if kw.arg == "unit":
                if not (isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, str)):
                    raise _refuse(kw.value, "unit must be a string such as \"GB\"", "E406")
            else:
                _check_expr(kw.value, assigned, 0)
        if fname == "answer" and unit_required and "unit" not in {kw.arg for kw in call.keywords}:
            raise _refuse(call, "answer() needs a unit, e.g. answer(value, unit=\"GB\")", "E406")
    else:
        what = type(stmt).__name__
        raise _refuse(stmt, f"{what} statements are not part of the check language; use `name = expression`, `assert`, answer() or answer_formula(); {ALLOWS}")


def _check_expr(node: ast.expr, assigned: set[str], depth: int) -> None:
    if depth > MAX_DEPTH:
        raise _refuse(node, f"expression nested deeper than {MAX_DEPTH} levels", "E402")
    d = depth + 1
    if isinstance(node, ast.Constant):
        if isinstance(node.value, bool) or not isinstance(node.value, (int, float)):
            raise _refuse(node, f"only numbers are allowed here, not {type(node.value).__name__} {node.value!r}; {ALLOWS}")
    elif isinstance(node, ast.Name):
        if node.id not in assigned and node.id not in CONSTANTS:
            raise _refuse(node, f"unknown name {node.id!r} (not assigned above, not a variable, not a constant such as GB or ms)")
    elif isinstance(node, ast.BinOp):
        if type(node.op) not in _BINOPS:
            raise _refuse(node, f"operator {type(node.op).__name__} is not allowed; {ALLOWS}")
        _check_expr(node.left, assigned, d)
        _check_expr(node.right, assigned, d)
    elif isinstance(node, ast.UnaryOp):
        if not isinstance(node.op, (ast.USub, ast.UAdd, ast.Not)):
            raise _refuse(node, f"operator {type(node.op).__name__} is not allowed")
        _check_expr(node.operand, assigned, d)
    elif isinstance(node, ast.BoolOp):
        for value in node.values:
            _check_expr(value, assigned, d)
    elif isinstance(node, ast.Compare):
        for op in node.ops:
            if type(op) not in _CMPOPS:
                raise _refuse(node, f"comparison {type(op).__name__} is not allowed")
        for value in [node.left, *node.comparators]:
            _check_expr(value, assigned, d)
    elif isinstance(node, ast.Call):
        if not isinstance(node.func, ast.Name):
            raise _refuse(node, f"only calls of the built-in functions are allowed (no attribute access); {ALLOWS}")
        name = node.func.id
        if name in ANSWER_FUNCTIONS:
            raise _refuse(node, f"{name}() is a statement of its own, not part of an expression", "E406")
        if name not in FUNCTIONS:
            raise _refuse(node, f"function {name!r} is not allowed; allowed: {', '.join(sorted(FUNCTIONS))} ({'; '.join(USAGE[f] for f in sorted(FUNCTIONS))})")
        for kw in node.keywords:
            if kw.arg not in _FUNCTION_KEYWORDS.get(name, set()):
                raise _refuse(node, f"{name}() takes no keyword {kw.arg!r}; it is called as {USAGE[name]}")
            _check_expr(kw.value, assigned, d)
        for arg in node.args:
            if isinstance(arg, ast.Starred):
                raise _refuse(arg, "star arguments are not allowed")
            _check_expr(arg, assigned, d)
    elif isinstance(node, ast.Attribute):
        raise _refuse(node, f"attribute access (a.b) is not allowed; {ALLOWS}")
    elif isinstance(node, ast.Subscript):
        raise _refuse(node, f"subscripts (a[b]) are not allowed; {ALLOWS}")
    else:
        raise _refuse(node, f"{type(node).__name__} is not part of the check language; {ALLOWS}")


def run_program(program: Program, values: dict[str, float] | None = None) -> list[AnswerCall]:
    """Run ``program`` with its variables bound to ``values``; return its answer calls."""
    state = _State(env=dict(CONSTANTS) | {k: float(v) for k, v in (values or {}).items()})
    for stmt in program.tree.body:
        if isinstance(stmt, ast.Assign):
            state.env[stmt.targets[0].id] = _eval(stmt.value, state)
        elif isinstance(stmt, ast.Assert):
            if not _truthy(_eval(stmt.test, state)):
                detail = _describe(stmt.test, state)
                message = stmt.msg.value if stmt.msg is not None else ast.unparse(stmt.test)
                raise _refuse(stmt, f"assertion failed: {message}{detail}", "E403")
        else:
            call = stmt.value
            kwargs = {kw.arg: kw.value for kw in call.keywords}
            unit = kwargs["unit"].value if "unit" in kwargs else None
            rel = _eval(kwargs["rel"], state) if "rel" in kwargs else (0.05 if call.func.id == "answer" else 1e-9)
            if not 0 <= rel < 1:
                raise _refuse(call, f"rel must be between 0 and 1, got {rel}", "E406")
            state.calls.append(AnswerCall(call.func.id, _eval(call.args[0], state), unit, rel, stmt.lineno))
    return state.calls


def _truthy(value) -> bool:
    return bool(value)


def _describe(test: ast.expr, state: _State) -> str:
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        left, right = _eval(test.left, state), _eval(test.comparators[0], state)
        return f" (left side {_fmt(left)}, right side {_fmt(right)})"
    if isinstance(test, ast.Call) and isinstance(test.func, ast.Name) and test.func.id == "close":
        values = [_fmt(_eval(a, state)) for a in test.args]
        return f" (compared {' and '.join(values)})"
    return ""


def _fmt(value) -> str:
    return f"{value:.6g}" if isinstance(value, float) else str(value)


def _eval(node: ast.expr, state: _State):
    state.steps += 1
    if state.steps > MAX_STEPS:
        raise _refuse(node, f"script took more than {MAX_STEPS} evaluation steps", "E402")
    if isinstance(node, ast.Constant):
        try:
            return float(node.value)
        except OverflowError:
            raise _refuse(node, "number is too large", "E402") from None
    if isinstance(node, ast.Name):
        return state.env[node.id]
    if isinstance(node, ast.BinOp):
        left, right = _eval(node.left, state), _eval(node.right, state)
        if isinstance(node.op, ast.Pow) and abs(right) > MAX_EXPONENT:
            raise _refuse(node, f"exponent {_fmt(right)} is beyond the limit of ±{MAX_EXPONENT}", "E402")
        try:
            result = _BINOPS[type(node.op)](float(left), float(right))
        except ZeroDivisionError:
            raise _refuse(node, "division by zero", "E403") from None
        except OverflowError:
            raise _refuse(node, "result is too large", "E402") from None
        if isinstance(result, complex):
            raise _refuse(node, "result is not a real number", "E403")
        return _finite(node, result)
    if isinstance(node, ast.UnaryOp):
        value = _eval(node.operand, state)
        if isinstance(node.op, ast.Not):
            return not value
        return -value if isinstance(node.op, ast.USub) else +value
    if isinstance(node, ast.BoolOp):
        values = [_eval(v, state) for v in node.values]
        return all(values) if isinstance(node.op, ast.And) else any(values)
    if isinstance(node, ast.Compare):
        left = _eval(node.left, state)
        for op, comparator in zip(node.ops, node.comparators):
            right = _eval(comparator, state)
            if not _CMPOPS[type(op)](left, right):
                return False
            left = right
        return True
    if isinstance(node, ast.Call):
        args = [_eval(a, state) for a in node.args]
        kwargs = {kw.arg: _eval(kw.value, state) for kw in node.keywords}
        try:
            return _finite(node, float(FUNCTIONS[node.func.id](*args, **kwargs)))
        except (TypeError, ValueError, OverflowError) as exc:
            raise _refuse(node, f"{node.func.id}(): {exc}; it is called as {USAGE[node.func.id]}", "E403") from None
    raise _refuse(node, f"{type(node).__name__} is not part of the check language")  # pragma: no cover


def _finite(node: ast.AST, value: float) -> float:
    if isinstance(value, float) and not math.isfinite(value):
        raise _refuse(node, "result is not finite", "E402")
    return value
