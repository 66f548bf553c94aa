"""Key-addressed records (memql extension, language 1.x, added with issue 18): the types a document
store's items need — a namespace of labels, a key, conditions on structured values, index paths and a
namespace listing. Used by Encode's args, the target filter and Retrieve's args."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field, JsonValue
from pydantic_core import PydanticCustomError

from memql.lang.fields import StrictModel

SEPARATOR = "\x1f"  # the stores join labels with it (memql.ports.record.NAMESPACE_SEP): no label holds it
OPERATORS = ("$eq", "$ne", "$gt", "$gte", "$lt", "$lte")


def _label(value: str) -> str:
    if SEPARATOR in value:
        raise PydanticCustomError("field.invalid", "a namespace label cannot hold U+001F")
    return value


Label = Annotated[str, Field(min_length=1, max_length=256), AfterValidator(_label)]
Namespace = Annotated[list[Label], Field(min_length=1, max_length=64)]
NamespacePrefix = Annotated[list[Label], Field(max_length=64)]  # [] is every namespace
Key = Annotated[str, Field(min_length=1, max_length=1024)]
IndexPath = Annotated[str, Field(min_length=1, max_length=512)]


def _where(value: dict[str, Any]) -> dict[str, Any]:
    """Each path maps to a value (equality) or an object of operators; an object without `$` keys is a
    condition on each of its keys below the path (so {"a": {"b": 1}} is {"a.b": 1})."""
    for path, condition in value.items():
        if not path or any(not part for part in path.split(".")):
            raise PydanticCustomError("filter.where", "where: {path} is not a dotted path", {"path": path})
        if isinstance(condition, dict) and any(k.startswith("$") for k in condition):
            for op, operand in condition.items():
                if op not in OPERATORS:
                    raise PydanticCustomError(
                        "filter.where",
                        "where.{path}: unknown operator {op!r} (use {ops})",
                        {"path": path, "op": op, "ops": ", ".join(OPERATORS)},
                    )
                ordered = op in ("$gt", "$gte", "$lt", "$lte")
                if ordered and (isinstance(operand, bool) or not isinstance(operand, int | float | str)):
                    raise PydanticCustomError(
                        "filter.where",
                        "where.{path}.{op} compares a number or a string",
                        {"path": path, "op": op},
                    )
                if not ordered and isinstance(operand, dict):
                    raise PydanticCustomError(
                        "filter.where",
                        "where.{path}.{op} takes a value, not an object",
                        {"path": path, "op": op},
                    )
    return value


Where = Annotated[dict[str, JsonValue], Field(min_length=1, max_length=100), AfterValidator(_where)]


def conditions(where: dict[str, Any]) -> list[tuple[tuple[str, ...], str, Any]]:
    """A valid `where` as (path, op, value) conditions, op one of eq ne gt gte lt lte; nested objects
    without operators become conditions on their keys."""
    out: list[tuple[tuple[str, ...], str, Any]] = []

    def add(path: tuple[str, ...], condition: Any) -> None:
        if isinstance(condition, dict) and any(k.startswith("$") for k in condition):
            out.extend((path, op[1:], operand) for op, operand in condition.items())
        elif isinstance(condition, dict):
            for key, inner in condition.items():
                add((*path, key), inner)
        else:
            out.append((path, "eq", condition))

    for path, condition in where.items():
        add(tuple(path.split(".")), condition)
    return out


class NamespaceMatch(StrictModel):
    """Namespaces that start (prefix) or end (suffix) with these labels; `*` matches any one label."""

    type: Literal["prefix", "suffix"]
    path: NamespacePrefix


class NamespaceListing(StrictModel):
    """Retrieve lists the distinct namespaces of the target's records instead of returning rows."""

    match: Annotated[list[NamespaceMatch], Field(max_length=16)] | None = Field(
        None, description="conditions every listed namespace meets"
    )
    max_depth: Annotated[int, Field(ge=1, le=64)] | None = Field(
        None, description="cut longer namespaces to their first max_depth labels (then de-duplicated)"
    )
    limit: Annotated[int, Field(ge=1, le=100_000)] = 100
    offset: Annotated[int, Field(ge=0, le=10_000_000)] = 0


# false: not indexed; a list of paths: the indexes cover the text at those paths of the structured value
IndexArg = Literal[False] | Annotated[list[IndexPath], Field(min_length=1, max_length=100)]
