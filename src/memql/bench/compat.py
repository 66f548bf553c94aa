"""`memql bench compat`: how much of the official Text2Mem material memql's language accepts."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memql.bench.corpus import CorpusItem, bench_items, example_items
from memql.lang import validate


@dataclass
class CompatReport:
    total: Counter = field(default_factory=Counter)
    valid: Counter = field(default_factory=Counter)
    warnings: Counter = field(default_factory=Counter)
    failures: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        groups = sorted(self.total)
        return {
            "groups": {g: {"total": self.total[g], "valid": self.valid[g]} for g in groups},
            "total": sum(self.total.values()),
            "valid": sum(self.valid.values()),
            "warnings_by_rule": dict(self.warnings.most_common()),
            "failures": self.failures,
        }


def run(items: Iterable[CorpusItem], strict: bool = False) -> CompatReport:
    report = CompatReport()
    for item in items:
        key = f"{item.source.split('/')[0]}: {item.group}"
        report.total[key] += 1
        result = validate(item.document, strict=strict)
        report.warnings.update(d.rule for d in result.warnings)
        if result.valid:
            report.valid[key] += 1
        else:
            report.failures.append(
                {
                    "source": item.source,
                    "where": item.where,
                    "errors": [f"{d.path or '/'}: {d.message} [{d.rule}]" for d in result.errors],
                }
            )
    return report


def collect(reference: Path | None, data: list[Path]) -> list[CorpusItem]:
    items: list[CorpusItem] = []
    if reference is not None:
        items.extend(example_items(reference))
    for path in data:
        items.extend(bench_items(path))
    return items
