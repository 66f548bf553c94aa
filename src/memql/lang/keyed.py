"""Key-addressed records (memql extension, language 1.x, added with issue 18): the types a document
store's items need — a namespace of labels, a key, conditions on structured values, index paths and a
namespace listing. Used by Encode's args, the target filter and Retrieve's args."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field, JsonValue
from pydantic_core import PydanticCustomError

from memql.lang.fields import StrictModel

SEPARATOR = "\x1f"  # the stores join labels with it (memql.ports.record.NAMESPACE_SEP): no label holds it
OPERATORS = ("$eq", "$ne", "$gt", "$gte", "$lt", "$lte", "$in", "$nin", "$contains", "$icontains")
LOGICAL = (
    "$and",
    "$or",
    "$not",
)  # a where object's own keys: all of, any of, none of (added for mem0's filters)
_ORDERED = ("$gt", "$gte", "$lt", "$lte")
MAX_CONDITIONS = 100  # paths, operators and nested where objects alike
MAX_LISTED = 1000  # the values of one $in / $nin


def _label(value: str) -> str:
    if SEPARATOR in value:
        raise PydanticCustomError("field.invalid", "a namespace label cannot hold U+001F")
    return value


Label = Annotated[str, Field(min_length=1, max_length=256), AfterValidator(_label)]
Namespace = Annotated[list[Label], Field(min_length=1, max_length=64)]
NamespacePrefix = Annotated[list[Label], Field(max_length=64)]  # [] is every namespace
Key = Annotated[str, Field(min_length=1, max_length=1024)]
IndexPath = Annotated[str, Field(min_length=1, max_length=512)]


def _refuse(message: str, **context: Any) -> PydanticCustomError:
    return PydanticCustomError("filter.where", message, context)


def _check_operand(path: str, op: str, operand: Any) -> None:
    if op in _ORDERED:
        if isinstance(operand, bool) or not isinstance(operand, int | float | str):
            raise _refuse("where.{path}.{op} compares a number or a string", path=path, op=op)
    elif op in ("$in", "$nin"):
        if not isinstance(operand, list) or len(operand) > MAX_LISTED:
            raise _refuse(
                "where.{path}.{op} takes a list of at most {n} values", path=path, op=op, n=MAX_LISTED
            )
        if any(isinstance(item, dict) for item in operand):
            raise _refuse("where.{path}.{op} lists values, not objects", path=path, op=op)
    elif op == "$contains":
        if operand is None or not isinstance(operand, str | int | float | bool):
            raise _refuse(
                "where.{path}.$contains takes a string (a substring, or an item of a list) or a number "
                "or boolean (an item of a list)",
                path=path,
            )
    elif op == "$icontains":
        if not isinstance(operand, str):
            raise _refuse("where.{path}.$icontains takes a string", path=path)
    elif isinstance(operand, dict):  # $eq, $ne
        raise _refuse("where.{path}.{op} takes a value, not an object", path=path, op=op)


def _check_where(value: Any, at: str, budget: list[int]) -> None:
    """A where object: paths to conditions, and the logical keys $and / $or (lists of where objects) and
    $not (a where object). `budget` counts conditions across the nesting."""
    if not isinstance(value, dict) or not value:
        raise _refuse("where{at}: a where condition is a non-empty object", at=at)
    for path, condition in value.items():
        budget[0] -= 1
        if budget[0] < 0:
            raise _refuse("where: at most {n} conditions", n=MAX_CONDITIONS)
        if path in ("$and", "$or"):
            if not isinstance(condition, list) or not condition:
                raise _refuse("where{at}.{op} takes a non-empty list of where objects", at=at, op=path)
            for i, inner in enumerate(condition):
                _check_where(inner, f"{at}.{path}[{i}]", budget)
            continue
        if path == "$not":
            _check_where(condition, f"{at}.$not", budget)
            continue
        if path.startswith("$"):
            raise _refuse(
                "where{at}: unknown logical operator '{op}' (use {ops})",
                at=at,
                op=path,
                ops=", ".join(LOGICAL),
            )
        if not path or any(not part for part in path.split(".")):
            raise _refuse("where: {path} is not a dotted path", path=path)
        _check_condition(path, condition, budget)


def _check_condition(path: str, condition: Any, budget: list[int]) -> None:
    if isinstance(condition, dict) and any(k.startswith("$") for k in condition):
        for op, operand in condition.items():
            if op not in OPERATORS:
                raise _refuse(
                    "where.{path}: unknown operator '{op}' (use {ops})",
                    path=path,
                    op=op,
                    ops=", ".join(OPERATORS),
                )
            _check_operand(path, op, operand)
    elif isinstance(condition, dict):
        for key, inner in condition.items():
            if not key:
                raise _refuse("where: {path} is not a dotted path", path=f"{path}.")
            budget[0] -= 1
            if budget[0] < 0:
                raise _refuse("where: at most {n} conditions", n=MAX_CONDITIONS)
            _check_condition(f"{path}.{key}", inner, budget)


def _where(value: dict[str, Any]) -> dict[str, Any]:
    """Each path maps to a value (equality) or an object of operators; an object without `$` keys is a
    condition on each of its keys below the path (so {"a": {"b": 1}} is {"a.b": 1}); $and, $or and $not
    combine where objects."""
    _check_where(value, "", [MAX_CONDITIONS])
    return value


Where = Annotated[dict[str, JsonValue], Field(min_length=1, max_length=100), AfterValidator(_where)]

# a valid where as a tree: a leaf (path, op, value) with op one of eq ne gt gte lt lte contains icontains,
# or a group ("and" | "or" | "not", [children]) — "not" holds one child
Leaf = tuple[tuple[str, ...], str, Any]
Group = tuple[str, list[Any]]


def conditions(where: dict[str, Any]) -> list[Leaf | Group]:
    """A valid `where` as conditions that all hold: leaves (path, op, value) and groups; nested objects
    without operators become conditions on their keys; `$in` is a group of equalities ("or"), `$nin` its
    negation."""
    out: list[Leaf | Group] = []

    def add(path: tuple[str, ...], condition: Any) -> None:
        if isinstance(condition, dict) and any(k.startswith("$") for k in condition):
            for op, operand in condition.items():
                if op == "$in":
                    out.append(("or", [(path, "eq", item) for item in operand]))
                elif op == "$nin":
                    out.append(("not", [("or", [(path, "eq", item) for item in operand])]))
                else:
                    out.append((path, op[1:], operand))
        elif isinstance(condition, dict):
            for key, inner in condition.items():
                add((*path, key), inner)
        else:
            out.append((path, "eq", condition))

    for path, condition in where.items():
        if path in ("$and", "$or"):
            out.append((path[1:], [("and", conditions(inner)) for inner in condition]))
        elif path == "$not":
            out.append(("not", [("and", conditions(condition))]))
        else:
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
