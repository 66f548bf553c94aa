"""Stores the templates build on: a few records from a few domains, ids shuffled across domains."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from benchmarks.memql_set.builder import Builder
from benchmarks.memql_set.content import DOMAINS, Domain, Note
from benchmarks.memql_set.world import Rec


@dataclass(frozen=True)
class Item:
    dom: Domain
    note: Note
    rec: Rec

    @property
    def id(self) -> str:
        return self.rec.id


def scene(
    b: Builder, sizes: Sequence[int], *, lead_kind: str | None = None, **per_record: Any
) -> list[list[Item]]:
    """Records: sizes[i] notes of the i-th domain, created in a shuffled order. The first domain is the
    scenario's lead domain (of type `lead_kind` when given), the others are random. Returns the items
    grouped by domain, each group in id order."""
    lead = b.lead((lambda d: d.kind == lead_kind) if lead_kind else (lambda d: True))
    doms = [lead, *b.rng.sample([d for d in DOMAINS if d is not lead], len(sizes) - 1)]
    picks = [(d, n) for d, size in zip(doms, sizes, strict=True) for n in b.notes(d, size)]
    b.rng.shuffle(picks)
    made = [Item(d, n, b.add_note(d, n, **per_record)) for d, n in picks]
    return [[it for it in made if it.dom is d] for d in doms]


def ids_of(items: Sequence[Item]) -> list[str]:
    return [it.id for it in items]
