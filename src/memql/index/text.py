"""What a record contributes to the indexes: its lexical text and its context text."""

from __future__ import annotations

import json
import re
from typing import Any

from memql.ports.record import Record


def lexical_text(record: Record) -> str:
    """What the lexical index covers: the text, URL, tags, facet values and structured values; for a
    record whose index paths are given, only its text (the text at those paths, none for [])."""
    if record.index_paths is not None:
        return record.text or ""
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


# a record is scored by at most this many of its texts (the first ones, in path order)
MAX_PATH_VECTORS = 1024


def path_texts(record: Record) -> list[str]:
    """The texts a record with index paths gets one vector each for: those at its paths, when there are
    several and they still are its text (an Update may have set another); [] for any other record (one
    text is the record's own text and its own vector)."""
    if not record.index_paths or record.structured is None or not record.text:
        return []
    found = texts_at_paths(record.structured, record.index_paths)
    if len(found) < 2 or "\n".join(found) != record.text:
        return []
    return found[:MAX_PATH_VECTORS]


_STEP = re.compile(r"([^.\[\]]+)|\[(\*|-?\d+)\]")


def texts_at_paths(value: Any, paths: list[str]) -> list[str]:
    """The texts a structured value holds at each path, in path order: `$` is the whole value; `a.b` an
    object's key inside another; `a[0]`, `a[-1]`, `a[*]` items of a list. A string is itself, any other
    value its compact JSON; a path that names nothing gives nothing."""
    out: list[str] = []
    for path in paths:
        found = [value] if path == "$" else _walk(value, _STEP.findall(path))
        out.extend(v if isinstance(v, str) else _json(v) for v in found if v is not None)
    return out


def _walk(value: Any, steps: list[tuple[str, str]]) -> list[Any]:
    current = [value]
    for key, index in steps:
        following: list[Any] = []
        for item in current:
            if key and isinstance(item, dict) and key in item:
                following.append(item[key])
            elif index == "*" and isinstance(item, list):
                following.extend(item)
            elif index and index != "*" and isinstance(item, list) and -len(item) <= int(index) < len(item):
                following.append(item[int(index)])
        current = following
    return current


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
