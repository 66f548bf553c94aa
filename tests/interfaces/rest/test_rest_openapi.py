"""The OpenAPI document `memql serve` publishes, walked whole: it validates as OpenAPI 3.1, every `$ref`
and every `discriminator.mapping` target resolves inside it (a dangling mapping is what made generators
such as openapi-typescript fail), and each discriminator agrees with the schemas it maps."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import rest_server
from openapi_spec_validator import validate

MISSING = object()

# the document does not depend on the store behind the server: read it from the SQLite one
pytestmark = pytest.mark.parametrize("server", ["sqlite"], indirect=True)


def walk(node: Any, path: str = "#") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every object in the document with its JSON pointer."""
    if isinstance(node, dict):
        yield path, node
        for key, value in node.items():
            yield from walk(value, f"{path}/{str(key).replace('~', '~0').replace('/', '~1')}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from walk(value, f"{path}/{i}")


def resolve(doc: dict[str, Any], ref: str) -> Any:
    """The node a local reference names, or MISSING (only local refs may appear in this document)."""
    if not ref.startswith("#/"):
        return MISSING
    node: Any = doc
    for part in ref[2:].split("/"):
        part = part.replace("~1", "/").replace("~0", "~")
        if not isinstance(node, dict) or part not in node:
            return MISSING
        node = node[part]
    return node


def references(doc: dict[str, Any]) -> list[tuple[str, str]]:
    found = []
    for path, node in walk(doc):
        if isinstance(node.get("$ref"), str):
            found.append((path, node["$ref"]))
        mapping = (node.get("discriminator") or {}).get("mapping") or {}
        found += [(f"{path}/discriminator/mapping/{key}", ref) for key, ref in mapping.items()]
    return found


def served(server) -> dict[str, Any]:
    r = rest_server.get(f"{server.base}/openapi.json", timeout=60)
    assert r.status_code == 200
    return r.json()


def test_the_served_document_is_openapi_3_1(server):
    doc = served(server)
    assert doc["openapi"].startswith("3.1")
    validate(doc)  # raises on any violation of the OpenAPI 3.1 schema


def test_the_walk_finds_a_dangling_mapping(server):
    # what the document had before: mapping targets left at the language schema's own #/$defs/...
    doc = served(server)
    program = doc["components"]["schemas"]["Program"]["anyOf"][0]
    program["discriminator"]["mapping"]["Retrieve"] = "#/$defs/RetrieveIR"
    dangling = [(path, ref) for path, ref in references(doc) if resolve(doc, ref) is MISSING]
    assert dangling == [
        ("#/components/schemas/Program/anyOf/0/discriminator/mapping/Retrieve", "#/$defs/RetrieveIR")
    ]


def test_every_reference_and_discriminator_mapping_resolves(server):
    doc = served(server)
    found = references(doc)
    mapped = [ref for path, ref in found if "/discriminator/mapping/" in path]
    assert len(found) > 100 and len(mapped) >= 30  # the language's IR schema is in the document, mapped
    dangling = [(path, ref) for path, ref in found if resolve(doc, ref) is MISSING]
    assert dangling == []


def test_each_discriminator_maps_exactly_its_alternatives_by_their_constant(server):
    doc = served(server)
    discriminated = [(path, node) for path, node in walk(doc) if isinstance(node.get("discriminator"), dict)]
    assert {path for path, _ in discriminated} >= {
        "#/components/schemas/Program/anyOf/0",
        "#/components/schemas/IR_Workflow/properties/workflow/items",
    }
    for path, node in discriminated:
        name = node["discriminator"]["propertyName"]
        mapping = node["discriminator"]["mapping"]
        alternatives = [member["$ref"] for member in node.get("oneOf") or node.get("anyOf")]
        assert sorted(mapping.values()) == sorted(alternatives), path
        for value, ref in mapping.items():
            target = resolve(doc, ref)
            assert target["properties"][name]["const"] == value, (path, value)
            assert name in target["required"], (path, value)


def test_retrieve_publishes_its_shorthand_and_the_retrieve_program_forms(server):
    doc = served(server)
    body = doc["paths"]["/v1/retrieve"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert [alt["$ref"] for alt in body["anyOf"]] == [
        "#/components/schemas/RetrieveRequest",
        "#/components/schemas/IR_RetrieveIR",
        "#/components/schemas/RetrieveWorkflow",
    ]
    steps = resolve(doc, "#/components/schemas/RetrieveWorkflow")["properties"]["workflow"]["items"]
    assert steps == {"$ref": "#/components/schemas/IR_RetrieveIR"}
    shorthand = resolve(doc, "#/components/schemas/RetrieveRequest")
    assert shorthand["additionalProperties"] is False and "query" in shorthand["properties"]
