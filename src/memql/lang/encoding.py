"""How memql writes values that are not JSON (audit log, snapshots, results, reports)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from memql.lang.time.instants import format_instant


def json_default(value: Any) -> Any:
    """How memql writes non-JSON values: instants as canonical UTC strings; raw embeddings never."""
    if isinstance(value, datetime):
        return format_instant(value)
    if isinstance(value, bytes):
        return None  # embeddings are never copied into JSON (audit log, snapshots, results)
    raise TypeError(f"{type(value).__name__} is not JSON")
