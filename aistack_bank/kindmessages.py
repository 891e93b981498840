"""Clear messages for the model's refusals that concern a question kind.

The model (pydantic) refuses a negative tolerance, a numerical question without a check, an
empty list of correct options, …, with generic messages; the loader (`load.model_errors`) asks
:func:`model_error` for a message that says what to write instead, with its own code. This
module imports nothing of the package, so the loader can use it.
"""

from __future__ import annotations


def model_error(loc: tuple, err_type: str, data) -> tuple[str, str] | None:
    """(code, message) for a model refusal that concerns a question kind, or None.

    ``loc`` is the field path within the question (union tag removed), ``data`` the file's
    mapping."""
    kind = data.get("kind") if isinstance(data, dict) else None
    field = loc[-1] if loc else None
    if kind == "numerical" and loc == ("check",) and err_type in ("missing", "none_required", "model_type"):
        return "E207", "a numerical question needs a `check:` whose script recomputes the answer and calls answer(value, unit=...); see “Numeric assertion checks” in bank/README.md"
    if field == "tolerance" and err_type == "greater_than_equal":
        what = "a near miss's tolerance must be 0 or more (the half-width of its range)" if loc[0] == "near_misses" else "the tolerance must be 0 or more (the half-width of the range of right responses)"
        return "E206", f"{what}: write {_abs_of(data, loc)}"
    if field == "credit" and err_type in ("greater_than_equal", "greater_than", "less_than", "less_than_equal"):
        if loc[0] == "near_misses":
            return "E208", "a near miss's credit must be at least 0 and below 1 (a response worth full marks belongs in the right range)"
        return "E208", "an accepted answer's credit must be above 0 and at most 1 (1 is full marks)"
    if kind == "multiple-response" and loc == ("correct",) and err_type == "too_short":
        return "E209", "a multiple-response question needs at least one correct option: list their ids in `correct`, e.g. `correct: [a, c]`"
    if kind == "short-answer" and loc == ("answers",) and err_type == "too_short":
        return "E209", "a short-answer question needs at least one accepted answer with full credit"
    if kind == "matching" and loc == ("pairs",) and err_type in ("too_short", "too_long"):
        if err_type == "too_short":
            return "E209", "a matching question needs 2 to 12 pairs (for one pair, ask a single-choice question)"
        return "E209", "a matching question has at most 12 pairs; split it into two questions"
    return None


def _abs_of(data, loc: tuple) -> str:
    value = data
    try:
        for part in loc:
            value = value[part]
    except (KeyError, IndexError, TypeError):
        return "a value such as 0.5"
    return f"{-value:g}" if isinstance(value, (int, float)) and not isinstance(value, bool) else "a value such as 0.5"

