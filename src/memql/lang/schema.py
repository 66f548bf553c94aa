"""JSON Schema (Draft 2020-12) generated from the pydantic models: the one source of truth."""

from __future__ import annotations

from typing import Any, Literal, Union

from pydantic import TypeAdapter

from memql.lang.ir import IR, TEXT2MEM_IR, Workflow

DRAFT = "https://json-schema.org/draft/2020-12/schema"
SchemaKind = Literal["program", "ir", "workflow"]


def json_schema(kind: SchemaKind = "program", *, system_verbs: bool = True) -> dict[str, Any]:
    """The schema of one IR, of a workflow, or of either (a program). `system_verbs=False` leaves the
    system verbs (Sweep, Remind, Restore) out of an IR's schema: the twelve Text2Mem verbs only."""
    if not system_verbs and kind != "ir":
        raise ValueError("system_verbs=False applies to kind 'ir'")
    ir: Any = IR if system_verbs else TEXT2MEM_IR
    target: Any = {"ir": ir, "workflow": Workflow, "program": Union[IR, Workflow]}[kind]  # noqa: UP007
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
            "The twelve Text2Mem memory operations as memql emits them"
            + (", and memql's system verbs (Sweep, Remind, Restore)" if system_verbs else "")
            + ". memql also accepts legacy and variant spellings on input and rewrites them to this form "
            "(see `memql validate`)."
        ),
    }
    return {**head, **{k: v for k, v in schema.items() if k not in ("title", "description")}}
