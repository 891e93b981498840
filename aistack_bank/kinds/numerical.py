"""numerical: a number, right within a tolerance, with units and near misses."""

from __future__ import annotations

import math
from typing import Annotated, ClassVar, Literal

from pydantic import Field

from ..errors import Diagnostic, error, warning
from ..rules.quantities import numbers, quantities, unit_dimension
from ._base import Check, ItemId, ItemIds, Kind, QuestionBase, ResponseError, Strict, Text, finite, missing_item_id, no_items, within
from ._rules import COMMON_EXAMPLE, item_id_rules, unit_key


class Unit(Strict):
    """A unit the learner may answer in, and what it is worth in the answer's own unit."""

    id: ItemId
    """Stable id of the unit within its question (`u1`, `u2`, …); its translation is keyed on it."""
    name: Annotated[str, Field(min_length=1, max_length=20, pattern=r"^\S(?:.*\S)?$", examples=["GB"])]
    """The unit as learners type it (`GB`); translatable where a language writes it otherwise (`Go`)."""
    multiplier: float = Field(gt=0)
    """What one of this unit is in the answer's unit: with the answer in GB, `MB` has 0.001."""


class NumericRange(Strict):
    """A range of near misses around a value, with partial credit and feedback."""

    id: ItemId
    """Stable id of the range within its question (`n1`, `n2`, …); its feedback's translation is keyed on it."""
    value: float
    """The value the range is centred on (in the answer's unit)."""
    tolerance: float = Field(ge=0)
    """Half-width of the range, absolute, in the answer's unit."""
    credit: float = Field(ge=0, lt=1)
    """The fraction of the marks it earns (0 for a range that only gives feedback)."""
    feedback: Text
    """What the learner who lands in it is told (the likely mistake)."""


class NumericalQuestion(QuestionBase):
    """A question whose answer is a number, right within a tolerance; its `check` is mandatory."""

    kind: Literal["numerical"]
    """The question kind."""
    answer: float
    """The right value, in the first unit of `units` (or unitless)."""
    tolerance: float = Field(ge=0)
    """How far from `answer` a response is still right: absolute, or a fraction of it (see `tolerance_type`)."""
    tolerance_type: Literal["absolute", "relative"] = "absolute"
    """`absolute`: ±`tolerance`; `relative`: ±`tolerance` × |`answer`| (0.05 for 5 %)."""
    units: list[Unit] = Field(default_factory=no_items)
    """Units the learner may answer in; the first, with multiplier 1, is the answer's own unit."""
    near_misses: list[NumericRange] = Field(default_factory=no_items)
    """Ranges for likely mistakes, each with partial credit and feedback."""
    check: Check
    """The assertion check that recomputes the answer (mandatory for numerical questions)."""

    NUMERIC_KEY: ClassVar[bool] = True

    @property
    def absolute_tolerance(self) -> float:
        return self.tolerance if self.tolerance_type == "absolute" else self.tolerance * abs(self.answer)

    def parse_response(self, text: str) -> tuple[float, str | None]:
        """The typed number and, after a space, the chosen unit (``14 GB``)."""
        number, _, unit = text.strip().partition(" ")
        value = finite(number)
        unit = unit.strip() or None
        if unit is not None and not any(u.name == unit for u in self.units):
            raise ResponseError(f"{unit!r} is no unit of {self.id} ({', '.join(u.name for u in self.units) or 'none'})")
        return value, unit

    def encode_response(self, response) -> str:
        value, unit = response
        return f"{value:g}" + (f" {unit}" if unit else "")

    def score(self, response) -> float:
        """1 within the tolerance of the answer (the value times its unit's multiplier), a near
        miss's credit within its range, else 0."""
        value, unit = response
        multiplier = next((u.multiplier for u in self.units if u.name == unit), 1.0)
        value *= multiplier
        if within(value, self.answer, self.absolute_tolerance):
            return 1.0
        return next((near.credit for near in self.near_misses if within(value, near.value, near.tolerance)), 0.0)


def _rules(question: NumericalQuestion, doc) -> list[Diagnostic]:
    numbers_at = [(("answer",), question.answer), (("tolerance",), question.tolerance)]
    numbers_at += [(("units", i, "multiplier"), unit.multiplier) for i, unit in enumerate(question.units)]
    numbers_at += [(("near_misses", i, name), getattr(near, name)) for i, near in enumerate(question.near_misses) for name in ("value", "tolerance")]
    infinite = [error("E210", f"{'.'.join(str(p) for p in path)} is {value}; a learner can only type a finite number, and no format carries this one", doc.locate(path))
                for path, value in numbers_at if not math.isfinite(value)]
    if infinite:
        return infinite  # ranges and comparisons mean nothing with them
    diags = item_id_rules(question.units, "units", "unit", doc) + item_id_rules(question.near_misses, "near_misses", "near miss", doc)
    seen: dict[str, int] = {}
    for index, unit in enumerate(question.units):
        key = unit_key(unit.name)
        if key in seen:
            diags.append(error("E322", f"unit {unit.name!r} is listed twice (also unit {seen[key] + 1}); a learner's unit must name one multiplier", doc.locate(("units", index, "name"))))
        seen.setdefault(key, index)
    if question.units:
        first = question.units[0]
        if not math.isclose(first.multiplier, 1.0, rel_tol=1e-12):
            diags.append(error("E323", f"the first unit {first.name!r} has multiplier {first.multiplier:g}; it is the answer's own unit, so its multiplier must be 1 (put the answer in {first.name}, or list the unit with multiplier 1 first)", doc.locate(("units", 0, "multiplier"))))
        else:
            diags += _unit_multipliers(question, doc)
    low, high = question.answer - question.absolute_tolerance, question.answer + question.absolute_tolerance
    for index, near in enumerate(question.near_misses):
        if near.value - near.tolerance <= high and near.value + near.tolerance >= low:
            diags.append(error("E324", f"near miss {index + 1} ({near.value:g} ± {near.tolerance:g}) overlaps the right range {low:g} to {high:g}: a response there would be marked right; move it or narrow it", doc.locate(("near_misses", index, "value"))))
    diags += _giveaway(question, doc)
    return diags


def _unit_multipliers(question: NumericalQuestion, doc) -> list[Diagnostic]:
    """W327 when a known unit's multiplier disagrees with what it is (MB is 0.001 GB)."""
    base = unit_dimension(question.units[0].name)
    if base is None:
        return []
    diags = []
    for index, unit in enumerate(question.units[1:], 1):
        known = unit_dimension(unit.name)
        if known is None:
            continue
        if known[0] != base[0]:
            diags.append(warning("W327", f"unit {unit.name!r} measures {known[0]}, but the answer's unit {question.units[0].name!r} measures {base[0]}", doc.locate(("units", index, "name"))))
            continue
        expected = known[1] / base[1]
        if not math.isclose(unit.multiplier, expected, rel_tol=1e-9):
            diags.append(warning("W327", f"unit {unit.name!r} has multiplier {unit.multiplier:g}, but one {unit.name} is {expected:g} {question.units[0].name}", doc.locate(("units", index, "multiplier"))))
    return diags


def _giveaway(question: NumericalQuestion, doc) -> list[Diagnostic]:
    """W326 when the stem already shows the answer (with its unit where the unit is known)."""
    value = question.answer
    unit = unit_dimension(question.units[0].name) if question.units else None
    if unit is not None:
        dimension, factor = unit
        shown = any(q.dimension == dimension and math.isclose(q.base, value * factor, rel_tol=1e-9) for q in quantities(question.stem, "en"))
    else:
        trivial = float(value).is_integer() and abs(value) <= 12  # "2 GPUs", "8 bits": too common to mean anything
        shown = not trivial and any(math.isclose(n, value, rel_tol=1e-9) for n in numbers(question.stem, "en"))
    if not shown:
        return []
    return [warning("W326", f"{question.id}: the stem shows the answer {value:g}{' ' + question.units[0].name if question.units else ''}; a learner can copy it without working it out", doc.locate(("stem",)))]


def _fields(question, add, checked, base_notes) -> None:
    for index, unit in enumerate(question.units):
        add(f"unit.{unit.id}", unit.name, ("units", index, "name"), (f"Unit {unit.id} of the answer, as learners of your language type it (French writes Go for GB); its value does not change.",), True)
    for index, near in enumerate(question.near_misses):
        add(f"near_miss.{near.id}.feedback", near.feedback, ("near_misses", index, "feedback"), (f"Feedback for a near miss around {near.value:g}.",) + checked)


def _duplicates(question) -> list:
    return [("unit", [(f"unit.{u.id}", u.name) for u in question.units], unit_key)]


def _model_error(loc: tuple, err_type: str, data) -> tuple[str, str] | None:
    field = loc[-1] if loc else None
    for items, what in (("units", "unit"), ("near_misses", "near miss")):
        missing = missing_item_id(loc, err_type, items, what)
        if missing is not None:
            return missing
    if loc == ("check",) and err_type in ("missing", "none_required", "model_type"):
        return "E207", "a numerical question needs a `check:` whose script recomputes the answer and calls answer(value, unit=...); see “Numeric assertion checks” in bank/README.md"
    if field == "tolerance" and err_type == "greater_than_equal":
        what = "a near miss's tolerance must be 0 or more (the half-width of its range)" if loc[0] == "near_misses" else "the tolerance must be 0 or more (the half-width of the range of right responses)"
        return "E206", f"{what}: write {_abs_of(data, loc)}"
    if field == "credit" and loc[0] == "near_misses" and err_type in ("greater_than_equal", "greater_than", "less_than", "less_than_equal"):
        return "E208", "a near miss's credit must be at least 0 and below 1 (a response worth full marks belongs in the right range)"
    return None


def _abs_of(data, loc: tuple) -> str:
    value = data
    try:
        for part in loc:
            value = value[part]
    except (KeyError, IndexError, TypeError):
        return "a value such as 0.5"
    return f"{-value:g}" if isinstance(value, (int, float)) and not isinstance(value, bool) else "a value such as 0.5"


KIND = Kind(
    name="numerical",
    model=NumericalQuestion,
    example={
        "id": "q004", "kind": "numerical", "stem": "How many gigabytes do the FP16 weights of a 7-billion-parameter model take?",
        "answer": 14, "tolerance": 0.5, "units": [{"id": "u1", "name": "GB", "multiplier": 1}, {"id": "u2", "name": "MB", "multiplier": 0.001}],
        "near_misses": [{"id": "n1", "value": 28, "tolerance": 1, "credit": 0, "feedback": "That is FP32, four bytes per weight."}],
        "check": {"script": 'params = 7 * billion\nanswer(params * 2, unit="GB")\n'},
        "explanation": "Each FP16 weight takes 16 bits, two bytes: 7 billion of them take 14 billion bytes.", **COMMON_EXAMPLE,
    },
    template=(
        'stem: ""\n# The right value, in the first unit below; right within ±tolerance.\nanswer: 0\ntolerance: 0\n'
        "tolerance_type: absolute\n# The first unit is the answer's own (multiplier 1); others give what one of them is in it.\n"
        "# Each unit and near miss keeps its id (u1, n1, …: translations are keyed on it); a new one takes a new id.\n"
        'units:\n  - id: u1\n    name: ""\n    multiplier: 1\n'
        "# Likely mistakes: an id, a value, a tolerance, credit (0 to below 1) and feedback.\nnear_misses: []\n"
        "check:\n  # Mandatory: recompute the answer, e.g. params = 7 * billion, then answer(params * 2, unit=\"GB\").\n"
        '  script: ""\n'
    ),
    fields=_fields,
    rules=_rules,
    duplicates=_duplicates,
    model_error=_model_error,
    item_ids=(ItemIds("units", "unit", "u"), ItemIds("near_misses", "near_miss", "n", (".feedback",))),
)
