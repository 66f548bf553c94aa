"""What a record contributes to the indexes: its lexical text and its context text."""

from __future__ import annotations

from typing import Any

from memql.ports.record import Record


def lexical_text(record: Record) -> str:
    """What the lexical index covers: the text, URL, tags, facet values and structured values."""
    parts: list[str] = [record.text or "", record.url or "", " ".join(record.tags)]
    stack: list[Any] = [record.facets, record.structured or {}]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
        elif isinstance(value, str):
            parts.append(value)
    return "\n".join(p for p in parts if p)


def context_text(record: Record) -> str:
    """Text that situates a memory without being part of it (payload.context, e.g. the turn before a
    conversation turn): searchable at a lower weight than the memory's own text."""
    context = record.payload_meta.get("context")
    return context if isinstance(context, str) else ""
