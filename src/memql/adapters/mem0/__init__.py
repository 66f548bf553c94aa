"""memql's language on a mem0 store: validated memql programs run against a real mem0 OSS `Memory`.

    from mem0 import Memory as Mem0
    from memql.adapters.mem0 import Mem0Adapter

    adapter = Mem0Adapter(Mem0.from_config(config), scope={"user_id": "alice"}, actor="alice")
    adapter.execute({"op": "Encode", "args": {"payload": {"text": "Standup at 9:30"}, "tags": ["team"]}})
    adapter.execute({"op": "Lock", "target": {"ids": ["1"]}, "args": {"mode": "read_only"}})

mem0 stays the store of record: every program starts from what mem0 holds in the adapter's scope (one
mem0 user, agent or run is one memql tenant) and ends as mem0 calls. What the program does is decided by
memql's own engine — validation, governance (owners, permissions, consent, clearance, locks, expiry on
read, confirmation), every verb's semantics, the summariser — run on a scratch copy of the scope's records
in an in-memory memql store. Only when that run succeeds is its effect carried into mem0: a new record is
`add(infer=False)` with memql's fields in metadata, a changed one `update` (metadata, and the text when it
changed), a removed one `delete`. A refused or invalid program writes nothing to mem0; a mem0 call that
fails half-way is compensated (apply.py). docs/integrations-mem0.md has the verb-by-verb table.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from memql.adapters.mem0.apply import Write, WriteFailed, apply_writes
from memql.adapters.mem0.records import Stored, adopted, from_mem0, mem0_metadata, mem0_text, memql_part
from memql.engine.access import identity
from memql.engine.context import EngineConfig
from memql.engine.result import ExecutionResult
from memql.lang.diagnostics import Diagnostic
from memql.memory import Memory, default_embedder
from memql.ports.clock import Clock, SystemClock
from memql.ports.models import Embedder
from memql.ports.record import Link, Record

SCOPE_KEYS = ("user_id", "agent_id", "run_id")
_DERIVED = ("embedding", "embedding_model", "embedding_dim")  # carried between runs by content hash
_VECTORS_KEPT = 100_000  # embeddings remembered between programs (a 384-d vector is 1.5 kB)
_LIST_LIMIT = 1_000_000  # mem0's get_all is paged by top_k: ask for the whole scope


class Mem0Adapter:
    """Runs memql programs against `mem0` (a `mem0.Memory`) in `scope` ({"user_id": …} and/or agent_id,
    run_id), acting as `actor` with `role`, `consent`, `clearance` exactly as `memql.Memory` does.
    `embedder` is memql's (default: the local model) — the one mem0 should embed with too, through
    `memql serve`'s /v1/embeddings, so that both sides compare the same vectors."""

    def __init__(
        self,
        mem0: Any,
        *,
        scope: Mapping[str, str],
        actor: str | None = None,
        role: str | None = None,
        consent: str | None = None,
        clearance: str | None = None,
        admin: bool = False,
        clock: Clock | None = None,
        embedder: Embedder | str | None = "auto",
        config: EngineConfig | None = None,
        strict: bool = False,
    ) -> None:
        unknown = sorted(set(scope) - set(SCOPE_KEYS))
        if unknown or not any(scope.get(k) for k in SCOPE_KEYS):
            raise ValueError(
                f"scope: give one or more of {', '.join(SCOPE_KEYS)} with a value"
                + (f" (unknown: {', '.join(unknown)})" if unknown else "")
            )
        self.mem0, self.scope = mem0, {k: str(v) for k, v in scope.items() if v}
        self.tenant = "mem0:" + ",".join(f"{k}={self.scope[k]}" for k in SCOPE_KEYS if k in self.scope)
        self.clock: Clock = clock or SystemClock()
        self.embedder = default_embedder(embedder) if isinstance(embedder, str) else embedder
        self._identity = {
            "actor": actor,
            "role": role,
            "consent": consent,
            "clearance": clearance,
            "admin": admin,
            "config": config,
            "strict": strict,
        }
        identity(actor, role=role, consent=consent, clearance=clearance, admin=admin)  # refused here, early
        self._vectors: dict[str, tuple[Any, ...]] = {}  # content hash -> the derived embedding fields

    # --- running programs ------------------------------------------------------------------------

    def execute(self, program: Any, *, dry_run: bool = False) -> ExecutionResult:
        """Run an IR or a workflow (JSON text, a dict/list or a typed model) as `memql.Memory.execute`
        does, on the scope's records in mem0. A dry run, a refusal or an invalid program leaves mem0 as
        it was; a failed mem0 write is compensated and reported as `adapter.write_failed`."""
        try:
            stored = self._read()
        except Exception as exc:  # mem0, its vector store or the embedder: nothing was written
            return _failed(
                _op_name(program), "adapter.read_failed", f"reading the scope from mem0 failed: {exc}"
            )
        with self._scratch(stored) as memory:
            before = self._images(memory)
            result = memory.execute(program, dry_run=dry_run)
            if not result.success or dry_run:
                return result
            after = self._images(memory)
        writes = _writes(stored, before, after)
        try:
            apply_writes(self.mem0, self.scope, writes)
        except WriteFailed as failed:
            undone = "undone" if failed.undone else f"NOT undone for records {', '.join(failed.leftovers)}"
            message = f"{failed} — the {len(writes)} writes of this program were {undone}"
            return _failed(result.op, "adapter.write_failed", message)
        return result

    def snapshot(self) -> Memory:
        """The scope's records as memql sees them, in a new in-memory memql store (a `Memory` acting as
        this adapter's identity; the caller closes it): for reads memql offers and mem0 lacks, and for
        the Text2Mem bench's SQL assertions over the `memory` view."""
        stored = self._read()
        memory = self._open(stored)
        return memory

    def records(self) -> list[Record]:
        """Every record of the scope (every status), as read from mem0, in id order."""
        return sorted((s.record for s in self._read().values()), key=lambda r: int(r.id or 0))

    # --- reading mem0 ----------------------------------------------------------------------------

    def _read(self) -> dict[str, Stored]:
        """The scope's memories by mem0 id. A memory mem0 wrote itself is adopted: given the next memql
        id, written back once (metadata only), so that its id is the same at every later read."""
        listed = self.mem0.get_all(filters=dict(self.scope), top_k=_LIST_LIMIT, show_expired=True)["results"]
        out: dict[str, Stored] = {}
        foreign: list[dict[str, Any]] = []
        for item in listed:
            read = from_mem0(item, self.tenant)
            if read is None:
                foreign.append(item)
                continue
            record, links = read
            out[str(item["id"])] = Stored(
                str(item["id"]), record, str(item.get("memory") or ""), _meta(item), links
            )
        last = max((int(s.record.id or 0) for s in out.values()), default=0)
        for item in sorted(foreign, key=lambda i: (str(i.get("created_at") or ""), str(i["id"]))):
            last += 1
            record = adopted(item, str(last), self.tenant)
            metadata = mem0_metadata(record, [])
            self.mem0.update(str(item["id"]), metadata=metadata)
            out[str(item["id"])] = Stored(str(item["id"]), record, str(item.get("memory") or ""), metadata)
        return out

    def _open(self, stored: dict[str, Stored]) -> Memory:
        """A memql Memory over a new in-memory store holding `stored` (ids, links and numbering kept),
        embedded with memql's model (vectors reused by content hash between runs)."""
        memory = Memory(
            ":memory:", tenant=self.tenant, clock=self.clock, embedder=self.embedder, **self._identity
        )
        records = []
        for item in stored.values():
            record = item.record.copy()
            cached = self._vectors.get(record.content_hash or "")
            if cached is not None and record.text:
                record.embedding, record.embedding_model, record.embedding_dim = cached
                record.embedding_status = "ready"
            else:
                record.embedding_status = "pending" if record.text else "none"
            records.append(record)
        records.sort(key=lambda r: int(r.id or 0))
        links = [(self.tenant, link) for item in stored.values() for link in item.links]
        with memory.store.transaction() as session:  # a copy: written exactly as given, not audited
            session.import_records(records)  # type: ignore[attr-defined]
            session.import_links(links)  # type: ignore[attr-defined]
            last = max((int(r.id or 0) for r in records), default=0)
            session.set_last_record_number(last)  # type: ignore[attr-defined]
        if self.embedder is not None:
            memory.embed_pending()
        return memory

    @contextmanager
    def _scratch(self, stored: dict[str, Stored]) -> Iterator[Memory]:
        """The scratch Memory for one program, dropped after it."""
        memory = self._open(stored)
        try:
            yield memory
        finally:
            memory.close()

    def _images(self, memory: Memory) -> dict[str, tuple[str, dict[str, Any], Record]]:
        """Every record of the scratch store as mem0 would hold it: text and memql metadata, by memql id.
        Also keeps each record's embedding for the next run (it is derived from the text)."""
        with memory.store.transaction() as session:
            records = session.export_records(0, _LIST_LIMIT)  # type: ignore[attr-defined]
            links = session.export_links()  # type: ignore[attr-defined]
        outgoing: dict[str, list[Link]] = {}
        for _tenant, link in links:
            outgoing.setdefault(link.src, []).append(link)
        out = {}
        for record in records:
            if record.embedding is not None and record.content_hash:
                if len(self._vectors) >= _VECTORS_KEPT:  # bounded: drop the oldest remembered
                    del self._vectors[next(iter(self._vectors))]
                self._vectors[record.content_hash] = tuple(getattr(record, f) for f in _DERIVED)
            out[str(record.id)] = (
                mem0_text(record),
                mem0_metadata(record, outgoing.get(str(record.id), [])),
                record,
            )
        return out


def _failed(op: str, rule: str, message: str) -> ExecutionResult:
    return ExecutionResult(
        success=False, op=op, diagnostics=[Diagnostic(path="", rule=rule, severity="error", message=message)]
    )


def _op_name(program: Any) -> str:
    """The verb a program names, for a result that failed before memql read it ("Workflow" for several)."""
    if isinstance(program, dict):
        return "Workflow" if "workflow" in program else str(program.get("op") or "?")
    return "Workflow" if isinstance(program, list) else str(getattr(program, "op", "?"))


def _meta(item: dict[str, Any]) -> dict[str, Any]:
    return memql_part(item.get("metadata") or {})


def _writes(
    stored: dict[str, Stored],
    before: dict[str, tuple[str, dict[str, Any], Record]],
    after: dict[str, tuple[str, dict[str, Any], Record]],
) -> list[Write]:
    """The mem0 calls that turn what mem0 held into what memql's run left: a record new to the scratch
    store is an add, a changed text or metadata an update, a record gone a delete."""
    by_record = {s.record.id: s for s in stored.values()}
    writes: list[Write] = []
    for record_id, (text, metadata, _record) in after.items():
        held = by_record.get(record_id)
        if held is None:
            writes.append(Write("add", record_id, text, metadata))
        elif (text, metadata) != before[record_id][:2]:  # changed by this program
            writes.append(Write("update", record_id, text, metadata, before=held))
    for record_id in before.keys() - after.keys():
        held = by_record.get(record_id)
        if held is not None:
            writes.append(Write("delete", record_id, before=held))
    return writes


def local_mem0_config(
    path: str | os.PathLike[str], *, base_url: str, api_key: str, collection: str = "memql"
) -> dict[str, Any]:
    """A mem0 OSS configuration that needs no server and no LLM: qdrant's local on-disk store under
    `path`, mem0's history database beside it, and mem0's OpenAI embedder pointed at memql's
    /v1/embeddings (`base_url` like http://127.0.0.1:8750/v1, `api_key` a memql API key). The LLM entry
    is required by mem0's config but never called: the adapter adds with infer=False."""
    from memql.services.embedding import MODEL_NAME

    root = os.fspath(path)
    return {
        "embedder": {
            "provider": "openai",
            "config": {
                "model": MODEL_NAME,
                "api_key": api_key,
                "openai_base_url": base_url,
                "embedding_dims": 384,
            },
        },
        "vector_store": {
            "provider": "qdrant",
            "config": {
                "collection_name": collection,
                "path": os.path.join(root, "qdrant"),
                "embedding_model_dims": 384,
                "on_disk": True,
            },
        },
        "llm": {"provider": "openai", "config": {"api_key": "unused: infer=False", "model": "unused"}},
        "history_db_path": os.path.join(root, "history.db"),
    }


__all__ = ["Mem0Adapter", "local_mem0_config"]
