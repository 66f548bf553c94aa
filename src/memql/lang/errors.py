"""Turn pydantic validation errors into memql diagnostics: JSON pointer, stable rule id, plain message."""

from __future__ import annotations

import difflib
from functools import cache

from pydantic import BaseModel, ValidationError

from memql.lang.diagnostics import RULES, Diagnostics, join
from memql.lang.placement import models_in, shape_hint, where_it_goes

_BY_TYPE = {
    "missing": "field.required",
    "extra_forbidden": "field.unknown",
    "literal_error": "field.enum",
    "enum": "field.enum",
    "greater_than": "field.range",
    "greater_than_equal": "field.range",
    "less_than": "field.range",
    "less_than_equal": "field.range",
    "finite_number": "json.non_finite",
    "string_pattern_mismatch": "field.invalid",
    "too_short": "field.size",
    "too_long": "field.size",
    "string_too_long": "field.size",
    "union_tag_invalid": "op.unknown",
    "union_tag_not_found": "op.missing",
}


def _rule_for(error_type: str, ctx: dict) -> str:
    if error_type in RULES:
        return error_type  # a PydanticCustomError raised by a memql validator
    if error_type == "string_too_short" or (error_type == "too_short" and ctx.get("min_length") == 1):
        return "field.empty"
    if error_type in _BY_TYPE:
        return _BY_TYPE[error_type]
    if error_type.endswith(("_type", "_parsing")) or error_type in (
        "model_attributes_type",
        "is_instance_of",
    ):
        return "field.type"
    return "field.invalid"


@cache
def vocabulary() -> tuple[str, ...]:
    """Every field name of the language, for "did you mean" suggestions."""
    from memql.lang.ops import VERB_MODELS

    names: set[str] = set()
    seen: set[type] = set()

    def visit(model: type[BaseModel]) -> None:
        if model in seen:
            return
        seen.add(model)
        for name, field in model.model_fields.items():
            names.add(field.alias or name)
            for sub in models_in(field.annotation):
                visit(sub)

    for model in VERB_MODELS.values():
        visit(model)
    return tuple(sorted(names))


def _message(error: dict, rule: str, op: str | None = None) -> str:
    loc = tuple(str(p) for p in error.get("loc") or ())
    ctx = error.get("ctx") or {}
    if ctx.get("field"):
        return str(error.get("msg", "invalid value"))  # a memql validator's own message for that field
    if rule == "field.unknown" and loc:
        name = loc[-1]
        placed = where_it_goes(op, name, loc[:-1])  # a real field in the wrong place: say where it goes
        if placed:
            return f"unknown field {name!r} here: {placed}"
        hint = difflib.get_close_matches(name, vocabulary(), n=1, cutoff=0.75)
        if hint and hint[0] == name:  # a field of another verb, or of another object
            where = f"of {op}" if op and len(loc) == 1 else f"in {'.'.join(loc[:-1])}" if loc[:-1] else "here"
            return f"{name!r} is not a field {where}"
        return f"unknown field {name!r}" + (f"; did you mean {hint[0]!r}?" if hint else "")
    if rule == "field.required" and loc and error.get("type") == "missing":
        return f"{loc[-1]} is required"
    if error.get("type") in ("model_type", "model_attributes_type", "dict_type") and loc:
        return shape_hint(loc[-1], _json_kind(error.get("input")), ctx.get("class_name"))
    return str(error.get("msg", "invalid value"))


def _json_kind(value: object) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    return {str: "a string", list: "a list", type(None): "null"}.get(type(value), type(value).__name__)


def report(
    exc: ValidationError, base: str, diags: Diagnostics, skip: set[str] = frozenset(), op: str | None = None
) -> None:
    """Add one diagnostic per pydantic error, located under `base` (a JSON pointer); `op` is the verb whose
    IR was parsed (its fields' places make the hints of a misplaced field).

    Paths in `skip` already carry an error from an earlier pass; a second one there would only echo it.
    """
    seen = set()
    for error in exc.errors(include_url=False):
        ctx = error.get("ctx") or {}
        rule = _rule_for(error["type"], ctx)
        parts = [p for p in error.get("loc", ()) if not (isinstance(p, str) and p.startswith("function-"))]
        field = ctx.get("field")
        if isinstance(field, str):
            parts.extend(field.split("/"))
        path = join(base, *parts)
        key = (path, rule)
        if key in seen or path in skip:
            continue
        seen.add(key)
        diags.error(path, rule, _message({**error, "loc": parts}, rule, op))
