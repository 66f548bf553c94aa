"""What two runs of the same program are compared by (tests/ is on the import path)."""

from __future__ import annotations

from typing import Any


def run_free(value: Any) -> Any:
    """A result (its JSON, or a history) without what names or times its run: timings, a workflow's id."""
    if isinstance(value, dict):
        return {k: run_free(v) for k, v in value.items() if k not in ("stats", "workflow_id")}
    if isinstance(value, list):
        return [run_free(v) for v in value]
    return value
