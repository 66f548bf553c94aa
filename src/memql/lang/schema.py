"""JSON Schema (Draft 2020-12) generated from the pydantic models: the one source of truth."""

from __future__ import annotations

from typing import Any, Literal, Union

from pydantic import TypeAdapter

from memql.lang.ir import IR, Workflow

DRAFT = "https://json-schema.org/draft/2020-12/schema"
SchemaKind = Literal["program", "ir", "workflow"]


def json_schema(kind: SchemaKind = "program") -> dict[str, Any]:
    """The schema of one IR, of a workflow, or of either (a program)."""
    target: Any = {"ir": IR, "workflow": Workflow, "program": Union[IR, Workflow]}[kind]  # noqa: UP007
    schema = TypeAdapter(target).json_schema(by_alias=True, mode="validation")
    titles = {
        "ir": "memql IR (Text2Mem IR v1, canonical form)",
        "workflow": "memql workflow",
        "program": "memql program: one IR or a workflow",
    }
    head = {
        "$schema": DRAFT,
        "$id": f"https://memql.dev/schema/{kind}.json",
        "title": titles[kind],
        "description": (
            "The twelve Text2Mem memory operations as memql emits them. memql also accepts legacy "
            "and variant spellings on input and rewrites them to this form (see `memql validate`)."
        ),
    }
    return {**head, **{k: v for k, v in schema.items() if k not in ("title", "description")}}
