"""LangGraph's long-term memory store on memql: `graph.compile(store=MemqlStore(memory))`.

A thin shell over the Python API: each LangGraph op is one memql program run by `Memory.execute`, so it is
validated, governed (tenant, owner, read and write permissions, locks, expiry) and audited like any other.

- PutOp -> Encode with `namespace`, `key`, `payload.document` (a put on an existing key updates the record
  that holds it, with history), `index` and `ttl`; a put of None -> Delete of that key.
- GetOp -> Retrieve by `filter.namespace` + `filter.key` (with `refresh_ttl`).
- SearchOp -> Retrieve by `filter.namespace_prefix` and `filter.where`, with `offset`; with a query and an
  index configured, a dense search (`alpha` 1 by default: the score is the cosine; lower it for hybrid).
- ListNamespacesOp -> Retrieve with `namespaces` (prefix, suffix, max_depth, limit, offset).

The store's `index` config names the fields each put indexes (`fields`, or SQLite's `text_fields`); the
vectors are memql's own embedder's, so an `embed` given here must be the Memory's: build the Memory with
`embedder=as_embedder(embed, dims)`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from langgraph.store.base import (
    NOT_PROVIDED,
    BaseStore,
    GetOp,
    IndexConfig,
    Item,
    ListNamespacesOp,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
    TTLConfig,
)
from langgraph.store.base.embed import ensure_embeddings

from memql.errors import MemqlError, Refusal
from memql.memory import Memory

ITEM_FIELDS = ["id", "namespace", "key", "structured", "created_at", "updated_at"]
# the rule families of an invalid program (the rest are the engine's refusals)
INVALID = ("json.", "field.", "filter.", "encode.", "target.", "op.", "workflow.", "time.", "duration.")
WORKFLOW_STEPS = 100  # the language's limit on a hand-written workflow


class InvalidStoreOp(MemqlError, ValueError):
    """A LangGraph op that memql's language rejects: `rule`, `path` and the message of its diagnostic."""

    def __init__(self, rule: str, message: str, path: str) -> None:
        super().__init__(f"{rule} at {path or '/'}: {message}")
        self.rule, self.path = rule, path


class LangChainEmbedder:
    """memql's Embedder port over a LangChain `Embeddings` (or an embedding function): unit vectors."""

    def __init__(self, embed: Any, dims: int, model: str | None = None) -> None:
        self.embeddings = ensure_embeddings(embed)
        self.dimension = dims
        self.model = model or f"langchain:{type(self.embeddings).__name__}:{dims}"

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return [_unit(v) for v in self.embeddings.embed_documents(list(texts))]


def as_embedder(embed: Any, dims: int, model: str | None = None) -> LangChainEmbedder:
    """An embedder for `Memory(embedder=...)` from what LangGraph's IndexConfig `embed` accepts."""
    return LangChainEmbedder(embed, dims, model)


def _unit(vector: Sequence[float]) -> list[float]:
    norm = math.sqrt(sum(x * x for x in vector))
    return [float(x) / norm for x in vector] if norm > 0 else [float(x) for x in vector]


class MemqlStore(BaseStore):
    """A LangGraph BaseStore whose items are memql records of the Memory's tenant, written as its actor.

    `read_perm_level` (default "private") is what a new item's readers are: only its owner and admins, so
    one user's items stay out of another's reads; "public" shares them with the tenant's users. `alpha`
    is the dense share of a query's ranking (1: the cosine of the query and the item's indexed text).
    """

    supports_ttl = True

    def __init__(
        self,
        memory: Memory,
        *,
        index: IndexConfig | dict[str, Any] | None = None,
        ttl: TTLConfig | None = None,
        read_perm_level: str | None = "private",
        alpha: float = 1.0,
    ) -> None:
        self.memory = memory
        self.index_config = dict(index) if index is not None else None
        if self.index_config is not None:
            embed = self.index_config.get("embed")
            embedder = memory.executor.embedder
            if embedder is None:
                raise ValueError(
                    "an index needs the Memory's embedder: Memory(embedder=as_embedder(embed, dims))"
                )
            if embed is not None and getattr(embedder, "embeddings", None) is not embed:
                raise ValueError(
                    "index.embed must be the Memory's embedder: Memory(embedder=as_embedder(embed, dims))"
                )
            self.embeddings = getattr(embedder, "embeddings", None)
            fields = self.index_config.get("fields", self.index_config.get("text_fields"))
            self.index_fields: list[str] = list(fields) if fields else ["$"]
        self.ttl_config = ttl
        self.read_perm_level = read_perm_level
        self.alpha = alpha

    # --- ops -----------------------------------------------------------------------------------------

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """Run the ops in order; consecutive puts run as one workflow (one transaction)."""
        ops = list(ops)
        results: list[Result] = [None] * len(ops)
        puts: list[int] = []
        for i, op in enumerate(ops):
            if isinstance(op, PutOp):
                puts.append(i)
                if len(puts) == WORKFLOW_STEPS:
                    self._put_all([ops[j] for j in puts])  # type: ignore[misc]
                    puts = []
                continue
            if puts:
                self._put_all([ops[j] for j in puts])  # type: ignore[misc]
                puts = []
            results[i] = self._read(op)
        if puts:
            self._put_all([ops[j] for j in puts])  # type: ignore[misc]
        return results

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        # the Memory's connection belongs to its thread: the ops run here, as InMemoryStore's do
        return self.batch(ops)

    def _read(self, op: Op) -> Result:
        if isinstance(op, GetOp):
            return self._get(op)
        if isinstance(op, SearchOp):
            return self._search(op)
        if isinstance(op, ListNamespacesOp):
            return self._list_namespaces(op)
        raise TypeError(f"unknown store op {type(op).__name__}")

    def _get(self, op: GetOp) -> Item | None:
        args: dict[str, Any] = {"include": ITEM_FIELDS}
        if self._refresh(op.refresh_ttl):
            args["refresh_ttl"] = True
        program = {
            "op": "Retrieve",
            "target": {"filter": {"namespace": list(op.namespace), "key": op.key, "limit": 1}},
            "args": args,
        }
        rows = self._run(program)["rows"]
        return _item(rows[0]) if rows else None

    def _search(self, op: SearchOp) -> list[SearchItem]:
        where = _where(op.filter)
        scope: dict[str, Any] = {"namespace_prefix": list(op.namespace_prefix)}
        if where:
            scope["where"] = where
        args: dict[str, Any] = {"include": [*ITEM_FIELDS, "score"]}
        if op.offset:
            args["offset"] = op.offset
        if self._refresh(op.refresh_ttl):
            args["refresh_ttl"] = True
        if op.query and self.index_config is not None:
            overrides: dict[str, Any] = {"k": op.limit, "alpha": self.alpha, "recency": 0.0, "heat": 0.0}
            if self.alpha == 1.0:  # dense only: the score is the cosine, as LangGraph's stores give it
                overrides["score"] = "cosine"
            target = {"search": {"intent": {"query": op.query}, "overrides": overrides}, "filter": scope}
        else:
            target = {"filter": {**scope, "limit": op.limit}}
        rows = self._run({"op": "Retrieve", "target": target, "args": args})["rows"]
        return [_item(row, search=True) for row in rows]  # type: ignore[misc]

    def _list_namespaces(self, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        listing: dict[str, Any] = {"limit": op.limit, "offset": op.offset}
        if op.match_conditions:
            listing["match"] = [{"type": c.match_type, "path": list(c.path)} for c in op.match_conditions]
        if op.max_depth is not None:
            listing["max_depth"] = op.max_depth
        target = {"filter": {"namespace_prefix": []}}
        program = {"op": "Retrieve", "target": target, "args": {"namespaces": listing}}
        return [tuple(ns) for ns in self._run(program)["namespaces"]]

    def _put_all(self, ops: list[PutOp]) -> None:
        # the last put of a key wins, as in every LangGraph store
        last = {(op.namespace, op.key): op for op in ops}
        steps = [self._put_step(op) for op in last.values()]
        self._run(steps[0] if len(steps) == 1 else {"workflow": steps})

    def _put_step(self, op: PutOp) -> dict[str, Any]:
        if op.value is None:
            target = {"filter": {"namespace": list(op.namespace), "key": op.key, "limit": 1}}
            return {"op": "Delete", "target": target, "args": {"soft": True}}
        args: dict[str, Any] = {
            "payload": {"document": op.value},
            "namespace": list(op.namespace),
            "key": op.key,
        }
        if self.read_perm_level is not None:
            args["read_perm_level"] = self.read_perm_level
        if self.index_config is not None:
            if op.index is False:
                args["index"] = False
            else:
                args["index"] = list(op.index) if op.index is not None else self.index_fields
        ttl = op.ttl
        if ttl is NOT_PROVIDED:
            ttl = (self.ttl_config or {}).get("default_ttl")
        if ttl is not None:
            args["ttl"] = _duration(float(ttl))  # type: ignore[arg-type]
        return {"op": "Encode", "args": args}

    def _refresh(self, asked: bool | None) -> bool:
        if asked is not None:
            return asked
        return bool((self.ttl_config or {}).get("refresh_on_read", True))

    def _run(self, program: Any) -> dict[str, Any]:
        result = self.memory.execute(program)
        if not result.success:
            first = result.diagnostics[0]
            if first.rule == "filter.where":  # LangGraph's stores call this an invalid filter key
                raise InvalidStoreOp(first.rule, f"Invalid filter key or value: {first.message}", first.path)
            if first.rule.startswith(INVALID):
                raise InvalidStoreOp(first.rule, first.message, first.path)
            raise Refusal(first.rule, first.message, first.path)
        return result.data or {}


def _duration(minutes: float) -> str:
    """LangGraph's ttl (minutes) as an ISO duration in seconds (the language's finest unit we need)."""
    seconds = f"{minutes * 60:.3f}".rstrip("0").rstrip(".")  # never in exponent notation
    return f"PT{seconds}S"


LARGEST = 1.7976931348623157e308  # the largest finite double: every stored number lies within +-LARGEST
# a comparison with an infinite bound, said with finite ones (memql's language is JSON, which has no
# Infinity): (op, bound is +inf) -> the same test; None when no finite number passes it
_INFINITE = {
    ("$lt", True): ("$lte", LARGEST),
    ("$lte", True): ("$lte", LARGEST),
    ("$gt", False): ("$gte", -LARGEST),
    ("$gte", False): ("$gte", -LARGEST),
}
NEVER = ("$gt", LARGEST)  # no finite number is greater: the test a finite value never passes


def _where(filter: dict[str, Any] | None) -> dict[str, Any]:
    """LangGraph's filter as memql's `where`. LangGraph compares with Python's operators, so a bound of
    Infinity or NaN is meaningful there: `$lt: inf` holds for every number, anything `== nan` is false and
    `!= nan` true. Those bounds are rewritten as the finite tests they equal."""
    if filter is not None and not isinstance(filter, dict):
        raise InvalidStoreOp(
            "field.type", f"a filter is an object of fields, not {type(filter).__name__}", "/filter"
        )
    where: dict[str, Any] = {}
    extra: list[dict[str, Any]] = []  # a second test of one operator on a field (`$lt: inf, $lte: 5`)
    for field, test in (filter or {}).items():
        if (
            not isinstance(field, str)
            or field.startswith("$")
            or not (isinstance(test, dict) or _non_finite(test))
        ):
            # (as given: the language names what is wrong with it)
            where[field] = test
            continue
        for op, bound in test.items() if isinstance(test, dict) else [("$eq", test)]:
            finite = _finite_test(op, bound)
            if finite is None:
                continue  # every value passes (`$ne: nan`)
            if finite[0] in where.setdefault(field, {}):
                extra.append({field: dict([finite])})
            else:
                where[field][finite[0]] = finite[1]
    if extra:
        where = {"$and": [where, *extra]}
    return where


def _finite_test(op: str, bound: Any) -> tuple[str, Any] | None:
    """(op, bound) with a finite bound; None when every value passes."""
    if not _non_finite(bound):
        return op, bound
    if op in ("$ne", "$nin"):
        return None
    if math.isnan(bound):
        return NEVER
    return _INFINITE.get((op, bound > 0), NEVER)


def _non_finite(value: Any) -> bool:
    return isinstance(value, float) and not math.isfinite(value)


def _item(row: dict[str, Any], search: bool = False) -> Item:
    namespace = tuple(row["namespace"] or ())
    value = row["structured"] or {}
    created, updated = _instant(row["created_at"]), _instant(row["updated_at"])
    if search:
        return SearchItem(namespace, row["key"], value, created, updated, row.get("score"))
    return Item(value=value, key=row["key"], namespace=namespace, created_at=created, updated_at=updated)


def _instant(value: Any) -> datetime:
    return value if isinstance(value, datetime) else datetime.fromisoformat(value)


__all__ = ["InvalidStoreOp", "LangChainEmbedder", "MemqlStore", "as_embedder"]
