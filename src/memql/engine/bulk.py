"""Bulk writes: a workflow's plain Encodes inserted, indexed and audited in batches.

The executor hands each Encode that only inserts a record (or returns its duplicate: `batchable`) to an
EncodeBatch instead of running it alone. The Encode is checked and its record built exactly as its runner
does (consent, sensitivity, proposals, time to live, facets: `encoded_record`), so a refusal still names
its step and field and is raised at that step. Every `size` steps, and before any other step (which may
read what the batch wrote), the batch is written: the duplicates of all its records found with one
query, the new records with their index rows in one multi-row insert, and one audit operation per step
with its insert event in another. It all happens inside the workflow's one transaction, so a refusal or
a failure at any later step leaves nothing written. The outcome is the one the Encodes would have had run
one by one (tests/engine/test_bulk.py compares both paths' records and audit log).
"""

from __future__ import annotations

import gc
import json
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from memql.engine.access import check_consent
from memql.engine.context import Context, snapshot
from memql.engine.result import ExecutionResult
from memql.engine.verbs.encode import (
    DUPLICATE_CANDIDATES,
    duplicate_data,
    encoded_record,
    inserted_data,
    same_memory,
)
from memql.index.text import path_texts
from memql.lang.diagnostics import Diagnostic
from memql.lang.ops import EncodeIR
from memql.ports.record import Event, Operation, Record
from memql.ports.store import StoreSession

DEFAULT_BATCH = 1000  # Encodes written per batch: large enough to amortise, small enough to embed at once


@dataclass
class _Pending:
    step: int
    ctx: Context
    ir: dict[str, Any]  # the canonical IR the audit log keeps
    record: Record
    proposal: bool
    dedupe: bool
    embed: bool


class EncodeBatch:
    """The plain Encodes of one workflow run waiting to be written (see the module's docstring)."""

    def __init__(
        self,
        session: StoreSession,
        *,
        size: int,
        workflow_id: str | None,
        now: datetime,
        on_written: Callable[[int, ExecutionResult], None],
    ) -> None:
        self.session, self.size, self.workflow_id, self.now = session, size, workflow_id, now
        self.on_written = on_written  # hears each step's result, in step order, once it is written
        self.pending: list[_Pending] = []
        self.failed_at: int | None = None  # the first step of a batch whose write failed

    def add(self, ctx: Context, ir: EncodeIR, canonical: dict[str, Any], step: int) -> None:
        """Check the step and build its record now (a refusal names this step); write it later."""
        ctx.op = ir.op
        check_consent(ctx, ir.op)
        record, proposal = encoded_record(ctx, ir)
        embed = ctx.embedder is not None and not ir.args.skip_embedding
        dedupe = ir.args.dedupe is not False
        self.pending.append(_Pending(step, ctx, ctx.loggable_ir(canonical), record, proposal, dedupe, embed))
        if len(self.pending) >= self.size:
            self.flush()

    @property
    def first_pending(self) -> int | None:
        return self.pending[0].step if self.pending else None

    def abandon(self) -> list[ExecutionResult]:
        """The results of the steps still waiting when the workflow fails: rolled back with the rest."""
        if self.pending:
            self.failed_at = self.pending[0].step
        out = [ExecutionResult(success=True, op="Encode") for _ in self.pending]
        self.pending = []
        return out

    def flush(self) -> None:
        """Write the waiting steps: one duplicate lookup, one insert of the new records, one audit write."""
        if not self.pending:
            return
        batch = self.pending  # kept until written: a failed write's steps are the ones abandoned
        tenant = batch[0].ctx.tenant
        existing = self._duplicates(tenant, [p.record.content_hash or "" for p in batch if p.dedupe])
        # an earlier step of this batch is a candidate too: newer than every stored one (a higher number)
        earlier: dict[str, list[Record]] = {}
        fresh: list[Record] = []
        outcome: list[Record | None] = []  # per step: the duplicate it returns, or None (insert)
        for p in batch:
            digest = p.record.content_hash or ""
            found = self._duplicate_of(p, existing.get(digest, []), earlier.get(digest, []))
            outcome.append(found)
            if found is None:
                record = p.record  # built for this step alone: completed in place, as ctx.insert copies it
                record.tenant, record.created_at, record.updated_at = tenant, self.now, self.now
                fresh.append(record)
                earlier.setdefault(digest, []).append(record)  # a later step's candidate, dedupe or not
        # the insert events keep each record as Encode inserts it: before its vector, which is derived data
        images = {id(record): snapshot(record) for record in fresh}
        embedded = self._embed_first(batch, fresh)
        ids = insert_many(self.session, fresh)
        for record, record_id in zip(fresh, ids, strict=True):
            record.id = record_id
        entries: list[tuple[Operation, list[Event]]] = []
        results: list[tuple[int, ExecutionResult]] = []
        for p, found in zip(batch, outcome, strict=True):
            ctx = p.ctx
            if found is not None:
                affected, data, events = [found.id], duplicate_data(found), []
            else:
                record = p.record
                affected, data = [record.id], inserted_data(record.id, p.proposal)  # type: ignore[arg-type]
                events = [Event(record_id=record.id, kind="insert", before={}, after=images[id(record)])]  # type: ignore[arg-type]
                if p.embed and record.embedding_status == "pending" and id(record) not in embedded:
                    ctx.to_embed[record.id] = record  # type: ignore[index]
            entries.append(
                (
                    Operation(
                        time=self.now,
                        tenant=tenant,
                        actor=ctx.actor,
                        op="Encode",
                        ir=p.ir,
                        affected_ids=affected,  # type: ignore[arg-type]
                        trace_id=ctx.meta.trace_id,
                        workflow_id=self.workflow_id,
                        step=p.step if self.workflow_id is not None else None,  # a lone IR has no step
                    ),
                    events,
                )
            )
            results.append(
                (
                    p.step,
                    ExecutionResult(
                        success=True, op="Encode", affected_ids=affected, data=data, warnings=ctx.warnings
                    ),
                )
            )
        log_many(self.session, entries)
        batch[0].ctx.embed_queued()  # the steps share the workflow's queue: one embedder call per batch
        self.pending = []
        for step, result in results:
            self.on_written(step, result)

    def _embed_first(self, batch: list[_Pending], fresh: list[Record]) -> set[int]:
        """Give the new records their vectors before they are inserted, when the session stores a record's
        vector with it (PostgreSQL: writing each vector afterwards cost a lookup and an update per record);
        the record's columns end as if its vector had been written after the insert. Records with several
        index paths (a vector per text) are left to the usual path. The ids (`id()`) of those embedded."""
        if not getattr(self.session, "inserts_embeddings", False):
            return set()
        new = {id(r) for r in fresh}
        wanted = [
            p.record
            for p in batch
            if p.embed
            and id(p.record) in new
            and p.record.embedding_status == "pending"
            and not path_texts(p.record)
        ]
        if not wanted:
            return set()
        changes = batch[0].ctx.embeddings(wanted, key=id)
        for record in wanted:
            for name, value in changes.get(id(record), {}).items():
                setattr(record, name, value)
        return set(changes)

    def _duplicates(self, tenant: str, digests: Sequence[str]) -> dict[str, list[str]]:
        wanted = list(dict.fromkeys(d for d in digests if d))
        if not wanted:
            return {}
        many = getattr(self.session, "find_duplicates", None)
        if many is not None:
            return many(tenant, wanted, self.now, DUPLICATE_CANDIDATES)
        found = {d: self.session.find_duplicate(tenant, d, self.now, DUPLICATE_CANDIDATES) for d in wanted}
        return {d: ids for d, ids in found.items() if ids}

    def _duplicate_of(self, p: _Pending, stored: list[str], earlier: list[Record]) -> Record | None:
        """What Encode's own duplicate check returns (engine/verbs/encode.py `_duplicate`): the oldest of
        the first DUPLICATE_CANDIDATES live records with the same content that the session may read and
        that are the same memory; the stored ones come before this batch's own."""
        if not p.dedupe:
            return None
        live = [r for r in earlier if r.expire_at is None or r.expire_at > self.now]
        room = DUPLICATE_CANDIDATES - len(stored)
        candidates: list[Record] = []
        if stored:
            got = self.session.get(p.ctx.tenant, stored)
            candidates = [got[i] for i in stored if i in got]
        candidates += live[: max(room, 0)]
        for candidate in candidates:
            if p.ctx.may_read(candidate) and same_memory(candidate, p.record):
                return candidate
        return None


@contextmanager
def paused_gc() -> Iterator[None]:
    """Pause Python's cyclic garbage collector for a bulk write: its many short-lived objects would start
    a collection every few hundred steps, each walking the whole heap (a quarter to a third of a bulk
    write's CPU time). Reference counting still frees them; what cycles they leave are collected once
    the collector resumes. Process-wide, as the collector is: nested or threaded uses restore it once."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def read_jsonl(source: str | bytes) -> tuple[list[Any], list[Diagnostic]]:
    """The Encodes of a JSON Lines text, one per non-blank line: an Encode IR (an object with "op"), an
    Encode's args (an object without: {"payload": {"text": ...}, "tags": [...]}) or a bare text (a JSON
    string). A line that is not JSON is a diagnostic naming the step it would have been and its line."""
    text = source.decode("utf-8-sig") if isinstance(source, bytes | bytearray) else source
    items: list[Any] = []
    problems: list[Diagnostic] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except ValueError as exc:
            message = f"line {number} is not JSON: {exc}"
            where = f"/workflow/{len(items)}"
            problems.append(Diagnostic(path=where, rule="json.malformed", severity="error", message=message))
            items.append(None)
            continue
        if isinstance(value, dict) and "op" not in value:
            value = {"op": "Encode", "args": value}
        items.append(value)
    return items, problems


def insert_many(session: StoreSession, records: Sequence[Record]) -> list[str]:
    """Insert records in one batch where the backend can (numbered in order), else one by one."""
    if not records:
        return []
    many = getattr(session, "insert_many", None)
    if many is not None:
        return many(records)
    return [session.insert(record) for record in records]


def log_many(session: StoreSession, entries: Sequence[tuple[Operation, Sequence[Event]]]) -> None:
    """Append audit operations with their events in one batch where the backend can, else one by one."""
    if not entries:
        return
    many = getattr(session, "log_many", None)
    if many is not None:
        many(entries)
        return
    for operation, events in entries:
        session.log(operation, events)
