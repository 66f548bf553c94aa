"""How the tiers talk to the store: reads are dry-run Retrieves (no visit, no audit entry), writes are
memql verbs in one workflow per move (validated, transactional, audited). Nothing here speaks SQL."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from memql.engine.result import ExecutionResult
from memql.errors import MemqlError
from memql.lang import build

if TYPE_CHECKING:
    from memql.engine.executor import Executor

READ_LIMIT = 100_000  # a conversation's records of one kind; every tier keeps far fewer
OPEN_END = "9999-12-31T23:59:59Z"  # time windows here are open-ended: "from then on"
DRY_RUN = {"dry_run": True}  # a read that ranks or reloads is not a visit (no heat, no audit entry)


class TiersError(MemqlError, RuntimeError):
    """A tier move the engine refused; `diagnostics` name the field and the rule (nothing was applied)."""

    def __init__(self, what: str, result: ExecutionResult) -> None:
        self.result = result
        self.diagnostics = result.diagnostics
        detail = "; ".join(f"{d.path or '/'}: {d.rule}: {d.message}" for d in result.diagnostics)
        super().__init__(f"tiers: {what} was refused ({detail or 'no diagnostic'})")


class TierRecords:
    """The records of one conversation, read and written through a session's Executor."""

    def __init__(self, executor: Executor, conversation_id: str) -> None:
        self.executor = executor
        self.conversation_id = conversation_id
        self.tag = f"conv:{conversation_id}"

    def facets(self, level: str, tier: str | None = None, **more: Any) -> dict[str, Any]:
        values: dict[str, Any] = {"conversation": self.conversation_id, "level": level, **more}
        if tier is not None:
            values["tier"] = tier
        return values

    def read(
        self,
        facets: dict[str, Any],
        include: tuple[str, ...] = ("id", "text", "facets", "time", "keywords"),
        *,
        time_from: str | None = None,
        limit: int = READ_LIMIT,
    ) -> list[dict[str, Any]]:
        flt: dict[str, Any] = {"has_tags": [self.tag], "facets": facets, "limit": limit}
        if time_from is not None:
            flt["time_range"] = {"start": time_from, "end": OPEN_END}
        result = self.executor.execute(build.retrieve(filter=flt, include=include, meta=DRY_RUN))
        if not result.success:
            raise TiersError("a read", result)
        return list(result.data.get("rows", []))

    def search(self, query: str, facets: dict[str, Any], k: int) -> list[dict[str, Any]]:
        """Hybrid-ranked records of this conversation (a dry run: ranking pages is not a visit)."""
        result = self.executor.execute(
            build.retrieve(
                query,
                filter={"has_tags": [self.tag], "facets": facets},
                k=k,
                include=["id", "text", "facets", "time", "score"],
                meta=DRY_RUN,
            )
        )
        if not result.success:
            raise TiersError("a search", result)
        return list(result.data.get("rows", []))

    def visit(self, ids: list[str]) -> None:
        """A real Retrieve of the records used in a context: their `visits` and last access move (heat)."""
        if ids:
            result = self.executor.execute(build.retrieve(ids=ids, include=["id"], comment="tiers: visit"))
            if not result.success:
                raise TiersError("a visit", result)

    def locked(self, ids: list[str], op: str = "Update") -> set[str]:
        """Those of `ids` under a live lock that refuses `op`: a move leaves them where they are."""
        from memql.cognition.conversation.records import locked_ids

        return locked_ids(self.executor, ids, op)

    def run(self, what: str, steps: list[dict[str, Any]]) -> ExecutionResult:
        """One workflow: all of a move's steps or none of them."""
        result = self.executor.execute(build.workflow(steps) if len(steps) > 1 else steps[0])
        if not result.success:
            raise TiersError(what, result)
        return result

    def encode(
        self,
        text: str,
        level: str,
        tier: str,
        facets: dict[str, Any],
        *,
        kind: str,
        time: str | None = None,
        comment: str,
    ) -> dict[str, Any]:
        return build.encode(
            text,
            type=kind,
            tags=[self.tag],
            facets={**self.facets(level, tier), **facets},
            time=time,
            dedupe=False,
            comment=comment,
        )

    @staticmethod
    def update(ids: list[str], comment: str, **fields: Any) -> dict[str, Any]:
        return build.update(ids, comment=comment, **fields)

    @staticmethod
    def delete(ids: list[str], reason: str) -> dict[str, Any]:
        return build.delete(ids, soft=True, reason=reason, comment=reason)


def step_ids(result: ExecutionResult) -> list[str | None]:
    """The id each step of a workflow (or the single op) produced."""
    return [s.id for s in result.steps] if result.steps else [result.id]
