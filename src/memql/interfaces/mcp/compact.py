"""The compact tool set's schemas: few characters in an agent's context, and strict as OpenAI's strict
mode (the Agents SDK's `convert_schemas_to_strict`) requires.

A strict schema closes every object (`additionalProperties: false`), lists every property in
`required` and types an optional one as nullable, and uses only the keywords strict mode accepts. So a
strict client sends `null` for what it leaves out: `drop_nulls` reads such a `null` as "not given"
before the call is validated, wherever the schema made an optional field nullable.

Free-form JSON (any facet key, any structured payload, a whole program) cannot be said strictly; the
compact set advertises the typed part (the four official facets, a typed fact, the common filter
conditions). The server still accepts everything the full set describes (`--tools full`).
"""

from __future__ import annotations

import copy
from typing import Any

# keywords OpenAI's strict mode accepts (format, minLength/maxLength, default, title are left out) and
# worth their characters (size caps and the category pattern are left to the engine's diagnostics)
KEPT = {
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "anyOf",
    "enum",
    "const",
    "description",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minItems",
}
NULL = {"type": "null"}
# marks a property strictify made nullable: dropped again before the schema is served
OPTIONAL = "x-memql-optional"

STRING = {"type": "string"}
FACETS = {
    "type": "object",
    "description": "facets (more keys: --tools full)",
    "properties": {name: STRING for name in ("subject", "time", "location", "topic")},
}
TYPED_FACT = {
    "type": "object",
    "description": "a typed fact; supersedes the current value of (subject, attribute)",
    "properties": {
        "subject": STRING,
        "attribute": STRING,
        "value": {"anyOf": [STRING, {"type": "number"}, {"type": "boolean"}]},
        "valid_from": STRING,
        "source": STRING,
    },
    "required": ["subject", "attribute", "value"],
}
# the filter conditions an agent needs most; the rest (facets, fact, where, namespaces) in the full set
FILTER_KEYS = [
    "has_tags",
    "not_tags",
    "type",
    "subject",
    "time_range",
    "weight_gte",
    "status",
    "memory_type",
    "category",
    "limit",
]
# parameters few calls need; the compact set leaves them out of its schemas (a call may still give them)
HIDDEN = {
    "confidence",
    "source",
    "proposal",
    "dedupe",
    "sensitivity",
    "read_perm_level",
    "write_perm_level",
    "owner",
    "as_of",
    "order_by",
    "until",
    "record_id",  # memory_history's older spelling of ids
}
# a parameter whose full schema is free-form JSON -> its compact, typed stand-in
REPLACED = {"facets": FACETS, "structured": TYPED_FACT}


def compact_filter(full: dict[str, Any]) -> dict[str, Any]:
    """The full filter schema narrowed to FILTER_KEYS (AND of the given conditions)."""
    schema = next(s for s in full.get("anyOf", [full]) if s.get("type") == "object")
    properties = {key: schema["properties"][key] for key in FILTER_KEYS}
    return {"type": "object", "description": "conditions (AND)", "properties": properties}


def compact_input_schema(schema: dict[str, Any], descriptions: dict[str, str]) -> dict[str, Any]:
    """A tool's input schema for the compact set: typed stand-ins for free-form objects, one short
    description per parameter (`descriptions`, else its own top-level one), strict."""
    schema = copy.deepcopy(schema)
    properties = {}
    for name, prop in schema.get("properties", {}).items():
        if name in HIDDEN:
            continue
        if name in REPLACED:
            prop = copy.deepcopy(REPLACED[name])
        elif name == "filter":
            prop = compact_filter(prop)
        prop = _undescribed(prop)
        if name in descriptions:
            prop["description"] = descriptions[name]
        properties[name] = prop
    schema["properties"] = properties
    schema["required"] = [name for name in schema.get("required", []) if name in properties]
    return unmarked(strictify(schema))


def strictify(node: Any) -> Any:
    """`node` with every object closed and fully required (optional properties nullable), and only
    the keywords strict mode accepts."""
    if isinstance(node, list):
        return [strictify(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: value for key, value in node.items() if key in KEPT}
    if "anyOf" in out:
        variants = [strictify(v) for v in out["anyOf"]]
        out["anyOf"] = [v for i, v in enumerate(variants) if v not in variants[:i]]
        if len(out["anyOf"]) == 1 and set(out) <= {"anyOf", "description"}:  # a one-way union: its type
            out = {**out.pop("anyOf")[0], **out}
    if "items" in out:
        out["items"] = strictify(out["items"])
    if out.get("type") == "object" or "properties" in out:
        out["type"] = "object"
        required = set(out.get("required", []))
        properties = {}
        for name, prop in out.get("properties", {}).items():
            prop = strictify(prop)
            if name not in required:
                prop = {**_nullable(prop), OPTIONAL: True}
            properties[name] = prop
        out["properties"] = properties
        out["required"] = list(properties)
        out["additionalProperties"] = False
    return out


SCALARS = ("string", "number", "integer", "boolean", "array")


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    if schema == NULL or NULL in schema.get("anyOf", []):
        variants = [v for v in schema.get("anyOf", []) if v != NULL]
        if len(variants) == 1 and variants[0].get("type") in SCALARS:  # the shorter spelling
            return _nullable({**variants[0], **{k: v for k, v in schema.items() if k != "anyOf"}})
        return schema
    if schema.get("type") in SCALARS:  # {"type": [T, "null"]}, and null among an enum's values
        nullable = {**schema, "type": [schema["type"], "null"]}
        if "enum" in schema:
            nullable["enum"] = [*schema["enum"], None]
        return nullable
    if "anyOf" in schema:
        return {**schema, "anyOf": [*schema["anyOf"], NULL]}
    description = schema.get("description")
    inner = {key: value for key, value in schema.items() if key != "description"}
    return {"anyOf": [inner, NULL], **({"description": description} if description else {})}


def _undescribed(node: Any) -> Any:
    """`node` without descriptions below its top (the nested ones cost more than they tell)."""

    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k not in ("description", "title")}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value

    return {**strip(node), **({"description": node["description"]} if "description" in node else {})}


def null_tree(schema: dict[str, Any]) -> dict[str, Any]:
    """Which properties of `schema` (any input schema) are optional, at every level a strict client
    fills: {name: (optional, subtree)}, for drop_nulls."""
    return optional_paths(strictify(schema))


def optional_paths(schema: dict[str, Any]) -> dict[str, Any]:
    tree: dict[str, Any] = {}
    for name, prop in schema.get("properties", {}).items():
        variants = [prop, *prop.get("anyOf", [])]
        child = next((v for v in variants if v.get("type") == "object"), None)
        tree[name] = (prop.get(OPTIONAL, False), optional_paths(child) if child else {})
    return tree


def drop_nulls(arguments: dict[str, Any], tree: dict[str, Any]) -> dict[str, Any]:
    """`arguments` without the nulls a strict client sends for optional fields it leaves out."""
    kept = {}
    for name, value in arguments.items():
        optional, below = tree.get(name, (False, {}))
        if value is None and optional:
            continue
        kept[name] = drop_nulls(value, below) if isinstance(value, dict) and below else value
    return kept


def unmarked(node: Any) -> Any:
    if isinstance(node, dict):
        return {k: unmarked(v) for k, v in node.items() if k != OPTIONAL}
    if isinstance(node, list):
        return [unmarked(v) for v in node]
    return node
