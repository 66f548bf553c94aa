"""Consolidation and reclassification (a2p), each one op of the language.

- Consolidation folds memories into one: a Merge whose primary records, in its payload metadata
  `consolidated_from`, the a2p ids of the memories folded into it — the a2p export shows them as
  `consolidatedFrom`, and an import keeps them.
- Reclassification changes a memory's type or category: an Update, so the audit log keeps the old and
  the new value (`memql history ID` shows the change with the note "reclassify").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from memql.cognition.profile.a2p import a2p_id
from memql.engine.result import ExecutionResult
from memql.engine.targets import canonical_id
from memql.lang import build
from memql.lang.diagnostics import Diagnostic

if TYPE_CHECKING:
    from memql.engine.executor import Executor

CONSOLIDATE_NOTE = "consolidate"
DRY_RUN = {"dry_run": True}  # a look before acting is not a use of the memories (no visit, no log)
RECLASSIFY_NOTE = "reclassify"


def consolidate(
    executor: Executor,
    ids: list[str],
    *,
    primary: str | None = None,
    note: str | None = None,
    dry_run: bool = False,
) -> ExecutionResult:
    """Fold the active memories `ids` into one (the `primary`, else the one Merge picks: the highest
    weight, then the oldest). One Merge op; the children are soft-deleted and linked `merged_into`."""
    if not isinstance(ids, list):  # (None, or not ids at all): the Merge's validation says what is wrong
        return executor.execute(build.merge(ids, primary_id=primary), dry_run=True)
    read = executor.execute(
        build.retrieve(ids=ids, include=["id", "weight", "created_at", "payload_meta"], meta=DRY_RUN)
    )
    if not read.success:
        return read
    rows = {row["id"]: row for row in read.data["rows"]}
    missing = [w for w in read.warnings if w.rule in ("target.not_found", "target.hidden")]
    if missing:  # a consolidation folds live memories; say which ones are not
        return ExecutionResult(
            success=False,
            op="Merge",
            diagnostics=[w.model_copy(update={"severity": "error"}) for w in missing],
        )
    if primary is None and rows:
        primary = min(rows.values(), key=_merge_choice)["id"]
    kept = canonical_id(primary) if primary is not None else None
    children = [a2p_id(row, executor.tenant) for rid, row in rows.items() if rid != kept]
    ir = build.merge(
        list(ids),
        primary_id=primary or None,
        consolidated_from=children,
        comment=CONSOLIDATE_NOTE + (f": {note}" if note else ""),
    )
    return executor.execute(ir, dry_run=dry_run)


def reclassify(
    executor: Executor,
    record_id: str,
    *,
    memory_type: str | None = None,
    category: str | None = None,
    note: str | None = None,
    dry_run: bool = False,
) -> ExecutionResult:
    """Give a memory another type (episodic | semantic | procedural) and/or category: one Update."""
    changes = {k: v for k, v in (("memory_type", memory_type), ("category", category)) if v is not None}
    if not changes:
        return ExecutionResult(
            success=False,
            op="Update",
            diagnostics=[
                Diagnostic(
                    path="/args/set",
                    rule="update.empty",
                    severity="error",
                    message="reclassify needs a memory_type or a category",
                )
            ],
        )
    ir = build.update([record_id], comment=RECLASSIFY_NOTE + (f": {note}" if note else ""), **changes)
    return executor.execute(ir, dry_run=dry_run)


def _merge_choice(row: dict[str, Any]) -> tuple[Any, ...]:
    """Merge's own default primary: the highest weight, then the oldest, then the lowest number."""
    rid = row["id"]
    return (-row["weight"], row["created_at"], int(rid) if rid.isdigit() else 0, rid)
