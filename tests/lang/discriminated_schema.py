"""The program schema with each `oneOf` over the operations turned into the `if op == X then X's schema`
it amounts to: a validator accepts exactly the same documents, checking one branch per IR instead of
fifteen (jsonschema must try every `oneOf` branch to show that exactly one matches; over the 3,000-IR
corpus that was ~95 % of the test's time).

The rewrite holds only where every branch requires `op` and fixes it to its own discriminator key (so no
document can match two branches, and a document matches the `oneOf` iff it matches its op's branch);
`discriminated` asserts that of each `oneOf` it rewrites, so a schema that stops being so fails loudly
rather than being checked more loosely."""

from __future__ import annotations

import copy
from typing import Any


def discriminated(schema: dict[str, Any]) -> dict[str, Any]:
    """A copy of `schema` whose discriminated `oneOf`s are `if`/`then` chains on `op` (see the module)."""
    defs = schema["$defs"]
    rewritten = 0

    def rewrite(node: Any) -> Any:
        nonlocal rewritten
        if isinstance(node, list):
            return [rewrite(item) for item in node]
        if not isinstance(node, dict):
            return node
        if "oneOf" in node and "discriminator" in node:
            mapping: dict[str, str] = node["discriminator"]["mapping"]
            assert node["discriminator"]["propertyName"] == "op"
            assert sorted(branch["$ref"] for branch in node["oneOf"]) == sorted(mapping.values())
            for op, ref in mapping.items():
                branch = defs[ref.removeprefix("#/$defs/")]
                assert branch["type"] == "object" and "op" in branch["required"], ref
                assert branch["properties"]["op"]["const"] == op, ref
            rewritten += 1
            rest = {k: rewrite(v) for k, v in node.items() if k not in ("oneOf", "discriminator")}
            assert not {"type", "required", "properties", "allOf"} & set(rest), sorted(rest)
            return {
                **rest,
                "type": "object",
                "required": ["op"],
                "properties": {"op": {"enum": list(mapping)}},
                "allOf": [
                    {"if": {"properties": {"op": {"const": op}}}, "then": {"$ref": ref}}
                    for op, ref in mapping.items()
                ],
            }
        return {k: rewrite(v) for k, v in node.items()}

    result = rewrite(copy.deepcopy(schema))
    assert rewritten, "no discriminated oneOf in the schema: validate against it as it is"
    return result
