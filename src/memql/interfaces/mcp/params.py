"""The tools' parameter types: precise JSON Schemas for the agent, taken from the language's own models
where a parameter is a piece of the IR, so the schema an agent reads is the one the engine enforces.

Values pass to the engine as JSON: the engine validates (and normalises: natural-language times,
variant spellings) exactly as it does for `memql exec`, so a tool never accepts what the language would
refuse, nor refuses what it would accept.
"""

from __future__ import annotations

import copy
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, JsonValue, TypeAdapter, WithJsonSchema

from memql.lang.fields import Facets, MemoryType, ReadPerm, Sensitivity, Weight, WeightDelta, WritePerm
from memql.lang.ops.base import OpName
from memql.lang.ops.lifecycle import OnExpire
from memql.lang.ops.read import IncludeField
from memql.lang.ops.restructure import SplitStrategy
from memql.lang.target import Filter, OrderBy


def inline_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The model's JSON Schema with its `$defs` resolved in place: a self-contained schema that can sit
    under a tool parameter (a `$ref` there would point into the tool's schema, not the model's)."""
    schema = TypeAdapter(model).json_schema(by_alias=True, mode="validation")
    defs = schema.pop("$defs", {})

    def resolve(node: Any) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/$defs/"):
                merged = {**copy.deepcopy(defs[ref.removeprefix("#/$defs/")]), **node}
                merged.pop("$ref")
                return resolve(merged)
            return {k: resolve(v) for k, v in node.items()}
        if isinstance(node, list):
            return [resolve(v) for v in node]
        return node

    return resolve(schema)


def _object(model: type[BaseModel], description: str) -> Any:
    """A JSON object parameter advertised with `model`'s schema and validated by the engine."""
    return Annotated[
        dict[str, JsonValue], WithJsonSchema({**inline_schema(model), "description": description})
    ]


Ids = Annotated[
    list[Annotated[str, Field(min_length=1, max_length=256)]],
    Field(min_length=1, max_length=10_000, description='record ids, e.g. ["3"] (Encode returns them)'),
]
RecordId = Annotated[str, Field(min_length=1, max_length=256, description="one record id")]
Text = Annotated[str, Field(min_length=1, max_length=1_000_000)]
Tags = Annotated[list[Annotated[str, Field(min_length=1, max_length=256)]], Field(max_length=1000)]
FacetsParam = _object(
    Facets, "facets: subject, time, location, topic, and any other key holding a JSON value"
)
FilterParam = _object(
    Filter,
    "conditions every record must meet (AND): has_tags, not_tags, type, subject, time_range, weight_gte, "
    "status (default active), memory_type, category, sensitivity, fact, limit, ...",
)
Time = Annotated[
    str,
    Field(
        min_length=1,
        max_length=200,
        description="an ISO-8601 date-time with offset, or a time expression the language resolves "
        "against the server's clock ('tomorrow 9am', 'in 3 days', '下周五')",
    ),
]
Duration = Annotated[
    str, Field(min_length=2, max_length=100, description="ISO-8601 duration, e.g. P7D, PT12H")
]

__all__ = [
    "Duration",
    "FacetsParam",
    "FilterParam",
    "Ids",
    "IncludeField",
    "Literal",
    "MemoryType",
    "OnExpire",
    "OpName",
    "OrderBy",
    "ReadPerm",
    "RecordId",
    "Sensitivity",
    "SplitStrategy",
    "Tags",
    "Text",
    "Time",
    "Weight",
    "WeightDelta",
    "WritePerm",
    "inline_schema",
]
