"""The twelve verbs, one module per family. Each run_<verb>(ctx, ir) returns an Outcome or raises Refusal."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Outcome:
    affected_ids: list[str] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)


def clamp(value: float) -> float:
    return min(1.0, max(0.0, round(value, 6)))
