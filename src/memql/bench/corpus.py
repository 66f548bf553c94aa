"""Readers for the Text2Mem data: official example files and Text2Mem Bench JSONL samples."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class CorpusItem:
    """One IR document found in the data, with where it came from."""

    source: str  # file name
    where: str  # "steps/2/ir", "line 14 schema_list 0", ...
    group: str  # "example", "prerequisites", "schema_list", "schema_list (workflow)"
    document: Any


def default_shared_dir() -> Path:
    """../shared beside the project checkout, or $MEMQL_SHARED."""
    env = os.environ.get("MEMQL_SHARED")
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[3].parent / "shared"


def example_items(reference_dir: Path) -> Iterator[CorpusItem]:
    """Every official example: single IR files, and each step of the workflow files."""
    for path in sorted(reference_dir.rglob("*.json")):
        if path.name.startswith("text2mem-ir"):
            continue  # the JSON Schema itself
        doc = json.loads(path.read_text(encoding="utf-8"))
        rel = str(path.relative_to(reference_dir))
        if isinstance(doc, dict) and isinstance(doc.get("steps"), list):
            for i, step in enumerate(doc["steps"]):
                yield CorpusItem(rel, f"steps/{i}/ir", "example step", step.get("ir"))
            yield CorpusItem(rel, "whole file", "example workflow", doc)
        else:
            yield CorpusItem(rel, "whole file", "example", doc)


def bench_samples(path: Path) -> Iterator[dict]:
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                yield json.loads(line)


def bench_items(path: Path) -> Iterator[CorpusItem]:
    """Every prerequisites and schema_list IR of a bench JSONL file, and each schema_list as a workflow."""
    for n, sample in enumerate(bench_samples(path), start=1):
        sid = sample.get("id", f"line {n}")
        for group in ("prerequisites", "schema_list"):
            for i, ir in enumerate(sample.get(group) or []):
                yield CorpusItem(path.name, f"{sid} {group}[{i}]", group, ir)
        if sample.get("schema_list"):
            yield CorpusItem(path.name, f"{sid} schema_list", "schema_list (workflow)", sample["schema_list"])
