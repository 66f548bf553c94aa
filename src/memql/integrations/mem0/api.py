"""mem0's API on memql: `from memql.integrations.mem0 import Memory` (docs/integrations.md, "mem0's API").

A thin shell over memql's Python API that speaks mem0 OSS's method names, arguments and result shapes; it
needs no mem0 installed. Every call is a memql program (or `memql.Memory.remember`) run by a session of
the scope's principal, so it is validated, governed and audited like any other:

- scopes: a memory's owner is its user (`user_id`; else `agent:<agent_id>`, else `run:<run_id>`), and
  the scope's other principals (`agent:<id>`, `run:<id>`) are its only other readers and writers (read
  and write level `custom`, else `private` / `owner_only`). A call acts as the principal of the scope it
  names, so another user's memories are, to it, not there — inside the store query, on every path — and
  its scope ids and mem0 filters narrow further (`facets_where`);
- a record's facets hold its scope (`user_id`, `agent_id`, `run_id`), `role`, `actor_id` and mem0's
  `metadata`; mem0's filter operators become memql's `where` operators on them;
- `add(infer=True)` is `memql.Memory.remember` (typed facts with supersession: ADD, UPDATE, NONE events);
  `infer=False` stores each message as it is;
- calls by id without a scope (`get`, `update`, `delete`, `history`) and `reset` act as the tenant's
  operator (an admin), as mem0's do for anyone holding the id; give `user_id=` (or another scope id) to
  have them checked as that principal. Locks, expiry and the audit log hold for the operator too.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from memql.engine.interpret import default_extractor
from memql.integrations.mem0.translate import (
    InvalidRequest,
    MemoryNotFound,
    count,
    expiry,
    facets_of,
    history_rows,
    item,
    memory_id_of,
    messages_of,
    metadata_of,
    ok,
    only_scope,
    permissions,
    principal,
    refusal,
    scope_of,
    split_filters,
    where_of,
)
from memql.lang import build
from memql.memory import Memory as MemqlMemory
from memql.memory import default_embedder
from memql.ports.clock import Clock, FixedClock
from memql.ports.store import Store
from memql.store import default_db_path, open_store

PROCEDURAL = "procedural_memory"
EMBEDDERS = ("auto", "minilm", "none")
OPERATOR_ACTOR = "mem0"  # who the unscoped calls act as (an admin of the tenant)
CONFIG_KEYS = ("path", "location", "url", "db_url", "tenant", "embedder", "extractor", "operator", "clock")
_FIELDS = ["id", "text", "structured", "facets", "created_at", "updated_at", "expire_at", "lock"]
_BATCH = 10_000  # records one delete_all step removes
NAMED_FACTS = 30  # facts a query names that lead its results, at most
SESSIONS = 256  # principals' sessions kept open at once (a session is cheap to make again)


class Memory:
    """mem0's `Memory` over a memql store: one tenant, any number of users, agents and runs.

    `location`: a path, a database URL (postgresql://…) or an open Store, default memql's own store;
    `tenant`: the isolation boundary; `embedder`: "auto", "minilm", "none" or an Embedder; `extractor`:
    what `add(infer=True)` reads messages with ("rules" offline, "llm" with `llm`, or an Extractor);
    `operator`: who calls without a scope act as (an admin of the tenant).
    """

    def __init__(
        self,
        location: str | Store | None = None,
        *,
        tenant: str = "default",
        embedder: Any = "auto",
        extractor: Any = "rules",
        llm: Any = None,
        operator: str = OPERATOR_ACTOR,
        clock: Clock | datetime | None = None,
    ) -> None:
        # the options are checked before a store is opened (and left open)
        if isinstance(embedder, str) and embedder not in EMBEDDERS:
            raise InvalidRequest(
                "config.embedder", "embedder", f"one of {', '.join(EMBEDDERS)} or an Embedder"
            )
        self._embedder = default_embedder(embedder) if isinstance(embedder, str) else embedder
        try:  # one extractor for every session, checked now rather than at the first add
            self._extractor = default_extractor(llm, extractor)
        except (ValueError, TypeError) as exc:
            raise InvalidRequest("config.extractor", "extractor", str(exc)) from None
        self._llm = llm
        if isinstance(location, str) or location is None:
            self.store, self._owns_store = open_store(location or default_db_path()), True
        else:  # a Store another part of the program opened (and closes)
            self.store, self._owns_store = location, False
        self.tenant, self.operator = tenant, operator
        self._clock = FixedClock(clock) if isinstance(clock, datetime) else clock
        self._sessions: OrderedDict[tuple[str, bool], MemqlMemory] = OrderedDict()

    @classmethod
    def from_config(cls, config: Mapping[str, Any] | None = None) -> Memory:
        """memql's own options (mem0's provider configs do not apply): `path` (or `location`, `url`,
        `db_url`), `tenant`, `embedder`, `extractor`, `operator`, `clock`."""
        config = dict(config or {})
        for key in config:
            if key not in CONFIG_KEYS:
                raise InvalidRequest(
                    "config.unknown",
                    key,
                    f"memql's Memory takes {', '.join(CONFIG_KEYS)} (mem0's provider "
                    "configs do not apply: memql stores, embeds and extracts itself)",
                )
        places = [config.pop(k) for k in ("path", "location", "url", "db_url") if k in config]
        if len(places) > 1:
            raise InvalidRequest("config.conflict", "path", "give one of path, location, url, db_url")
        return cls(places[0] if places else None, **config)

    # --- sessions ------------------------------------------------------------------------------------

    def _session(self, actor: str, *, admin: bool = False) -> MemqlMemory:
        key = (actor, admin)
        if key in self._sessions:
            self._sessions.move_to_end(key)
        else:
            if len(self._sessions) >= SESSIONS:  # the least recently used goes (it holds no state of its own)
                self._sessions.popitem(last=False)
            self._sessions[key] = MemqlMemory(
                self.store,
                tenant=self.tenant,
                actor=actor,
                admin=admin,
                clock=self._clock,
                embedder=self._embedder,
                extractor=self._extractor,
                llm=self._llm,
            )
        return self._sessions[key]

    def _by_id(self, scope: dict[str, str]) -> MemqlMemory:
        return self._session(principal(scope)) if scope else self._session(self.operator, admin=True)

    # --- writes --------------------------------------------------------------------------------------

    def add(
        self,
        messages: Any,
        *,
        user_id: Any = None,
        agent_id: Any = None,
        run_id: Any = None,
        metadata: Mapping[str, Any] | None = None,
        infer: bool = True,
        memory_type: str | None = None,
        prompt: str | None = None,
        expiration_date: Any = None,
    ) -> dict[str, Any]:
        """Store messages (a string, a {role, content} dict or a list of them) in the scope: with `infer`,
        the facts memql reads in them (a newer value supersedes the old: event UPDATE), a message with
        none kept as said; without, every message as it is. Returns {"results": [{id, memory, event}]}."""
        scope = scope_of(user_id=user_id, agent_id=agent_id, run_id=run_id, required=True)
        turns = messages_of(messages)
        if memory_type is not None and memory_type != PROCEDURAL:
            raise InvalidRequest("memory_type.enum", "memory_type", f"only {PROCEDURAL!r} is a memory type")
        if prompt is not None:
            raise InvalidRequest(
                "prompt.unsupported",
                "prompt",
                "memql's extractors take no custom prompt (give Memory an extractor instead)",
            )
        meta = metadata_of(metadata)
        session = self._session(principal(scope))
        fields = {**permissions(scope), **expiry(expiration_date)}
        if memory_type == PROCEDURAL:  # the steps as one procedural memory (mem0 has an LLM summarise them)
            text = "\n".join(f"{role}: {content}" for role, content, _ in turns)
            facets = facets_of(scope, meta, role="procedure")
            return {"results": [self._stored(session, text, facets, fields, memory_type="procedural")]}
        if not infer:
            steps = [
                build.encode(content, facets=facets_of(scope, meta, role=role, actor_id=name), **fields)
                for role, content, name in turns
            ]
            if not steps:
                return {"results": []}
            program = steps[0] if len(steps) == 1 else {"workflow": steps}
            result = ok(session.execute(program, max_steps=len(steps)))  # (as many as mem0 takes: any)
            outcomes = result.steps if result.steps is not None else [result]
            return {
                "results": [
                    {
                        "id": str(o.data["id"]),
                        "memory": content,
                        "event": "NONE" if o.data.get("deduplicated") else "ADD",
                        "actor_id": name,
                        "role": role,
                    }
                    for o, (role, content, name) in zip(outcomes, turns, strict=True)
                ]
            }
        speaker = scope.get("user_id") or principal(scope)
        said = [(speaker if role == "user" else (name or role), content) for role, content, name in turns]
        remembered = session.remember(said, speaker=speaker, facets=facets_of(scope, meta), **fields)
        if not remembered.success:
            raise refusal(remembered.diagnostics)
        results = []
        for memory in remembered.memories:
            entry: dict[str, Any] = {"id": memory.id, "memory": memory.text, "event": memory.event}
            if memory.superseded:
                entry["previous_memory"] = memory.superseded[0]["text"]
                entry["superseded"] = [s["id"] for s in memory.superseded]
            results.append(entry)
        return {"results": results}

    def _stored(self, session: MemqlMemory, text: str, facets: dict, fields: dict, **more: Any) -> dict:
        result = ok(session.execute(build.encode(text, facets=facets, **fields, **more)))
        event = "NONE" if result.data.get("deduplicated") else "ADD"
        return {"id": str(result.data["id"]), "memory": text, "event": event}

    def update(
        self,
        memory_id: str,
        data: str | None = None,
        *,
        text: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        expiration_date: Any = None,
        **scope_ids: Any,
    ) -> dict[str, str]:
        """Change a memory's text, merge `metadata` into its metadata and/or set its expiration_date (one
        audited Update)."""
        memory_id = memory_id_of(memory_id)
        scope = scope_of(**only_scope(scope_ids, "update"))
        new_text = text if text is not None else data
        if new_text is None and metadata is None and expiration_date is None:
            raise InvalidRequest(
                "update.empty", "data", "give the new text (data=), metadata= or expiration_date="
            )
        session = self._by_id(scope)
        changes: dict[str, Any] = dict(expiry(expiration_date))
        if new_text is not None:
            if not isinstance(new_text, str) or not new_text.strip():
                raise InvalidRequest("update.text", "data", "the new text is a non-blank string")
            changes["text"] = new_text
        if metadata is not None:
            row = self._row(session, memory_id)
            if row is None:
                raise MemoryNotFound(
                    "target.not_found", f"Memory with id {memory_id} not found", "/memory_id"
                )
            merged = {**((row.get("facets") or {}).get("metadata") or {}), **metadata_of(metadata)}
            changes["facets"] = {"metadata": merged}
        ok(session.execute(build.update(build.by_ids(memory_id), **changes)), memory_id)
        return {"message": "Memory updated successfully!"}

    def delete(self, memory_id: str, **scope_ids: Any) -> dict[str, str]:
        """Delete a memory (a soft delete: restorable by memql for its recovery window)."""
        memory_id = memory_id_of(memory_id)
        session = self._by_id(scope_of(**only_scope(scope_ids, "delete")))
        ok(session.delete(memory_id), memory_id)
        return {"message": "Memory deleted successfully!"}

    def delete_all(self, user_id: Any = None, agent_id: Any = None, run_id: Any = None) -> dict[str, str]:
        """Delete every memory of the scope — and only of it: it acts as the scope's principal, on the
        records it may read whose scope ids are the ones given. A lock on one refuses all."""
        scope = scope_of(user_id=user_id, agent_id=agent_id, run_id=run_id, required=True, what="delete_all")
        session = self._session(principal(scope))
        target = {"filter": {"facets_where": where_of(scope, None), "limit": _BATCH}}
        while ok(session.execute(build.delete(target, soft=True))).affected_ids:
            pass
        return {"message": "Memories deleted successfully!"}

    def reset(self) -> None:
        """Delete every memory of the tenant, soft-deleted ones too, as its operator (hard deletes,
        confirmed; the audit log stays). A lock on one refuses it all."""
        session = self._session(self.operator, admin=True)
        target = {"filter": {"status": "any", "limit": _BATCH}}
        program = build.delete(target, soft=False, meta={"confirmation": True})
        while ok(session.execute(program)).affected_ids:
            pass

    # --- reads ---------------------------------------------------------------------------------------

    def get(self, memory_id: str, **scope_ids: Any) -> dict[str, Any] | None:
        """The memory, or None when there is none (or the scope given may not read it)."""
        memory_id = memory_id_of(memory_id)
        session = self._by_id(scope_of(**only_scope(scope_ids, "get")))
        row = self._row(session, memory_id)
        return None if row is None else {**item(row), "score": None}

    def get_all(
        self,
        *,
        user_id: Any = None,
        agent_id: Any = None,
        run_id: Any = None,
        filters: Mapping[str, Any] | None = None,
        limit: int | None = None,
        top_k: int | None = None,
    ) -> dict[str, Any]:
        """The scope's current memories (a superseded fact is history: `history` shows it)."""
        scope, rest = split_filters(user_id, agent_id, run_id, filters, "get_all")
        size = count(limit, top_k, 100)
        session = self._session(principal(scope))
        target = {"filter": {"facets_where": where_of(scope, rest), "current": True, "limit": size}}
        rows = ok(session.execute(build.retrieve(target=target, include=_FIELDS))).data["rows"]
        return {"results": [item(row) for row in rows]}

    def search(
        self,
        query: str,
        *,
        user_id: Any = None,
        agent_id: Any = None,
        run_id: Any = None,
        limit: int | None = None,
        top_k: int | None = None,
        filters: Mapping[str, Any] | None = None,
        threshold: float | None = None,
    ) -> dict[str, Any]:
        """The scope's current memories that best match `query`, best first, each with its `score`: the
        typed facts the query names (memql's Retrieve `facts`: by the words of their attribute, so "where
        do I live?" finds a residence) lead, scored as the best hit; then memql's hybrid search.
        `threshold` leaves out hits scoring below it."""
        if not isinstance(query, str) or not query.strip():
            raise InvalidRequest("query.empty", "query", "the query is a non-blank string")
        if threshold is not None and (isinstance(threshold, bool) or not isinstance(threshold, int | float)):
            raise InvalidRequest("threshold.type", "threshold", "the threshold is a number")
        if threshold is not None and not 0 <= threshold <= 1000:
            raise InvalidRequest("threshold.range", "threshold", "the threshold is at least 0")
        scope, rest = split_filters(user_id, agent_id, run_id, filters, "search")
        size = count(limit, top_k, 100)
        overrides: dict[str, Any] = {"k": size}
        if threshold:
            overrides["min_score"] = float(threshold)
        where = where_of(scope, rest)
        target = {
            "search": {"intent": {"query": query.strip()}, "overrides": overrides},
            "filter": {"facets_where": where, "current": True},
        }
        session = self._session(principal(scope))
        program = build.retrieve(target=target, include=[*_FIELDS, "score"], facts="current")
        found = ok(session.execute(program)).data
        rows = found["rows"]
        hits = {str(r["id"]) for r in rows}
        named = [(f["subject"], f["attribute"]) for f in found.get("facts", []) if str(f["id"]) not in hits]
        leading: list[dict[str, Any]] = []
        if named:  # the named facts of this scope and filters (another scope's are not read)
            keys = [{"subject": s, "attribute": a} for s, a in list(dict.fromkeys(named))[:NAMED_FACTS]]
            scoped = {"facets_where": where, "current": True, "where": {"$or": keys}, "limit": len(keys)}
            leading = ok(session.execute(build.retrieve(filter=scoped, include=_FIELDS))).data["rows"]
        best = max((r["score"] for r in rows if r.get("score") is not None), default=1.0)
        results = [{**item(r), "score": best} for r in leading]
        results += [{**item(r), "score": r.get("score")} for r in rows]
        return {"results": results[:size]}

    def history(self, memory_id: str, **scope_ids: Any) -> list[dict[str, Any]]:
        """What happened to a memory, oldest first, as mem0's history rows (ADD, UPDATE, DELETE); for a
        typed fact, also the values its key held before it (the memory it superseded)."""
        memory_id = memory_id_of(memory_id)
        session = self._by_id(scope_of(**only_scope(scope_ids, "history")))
        return history_rows(session, memory_id)

    def _row(self, session: MemqlMemory, memory_id: Any) -> dict[str, Any] | None:
        rows = ok(session.execute(build.retrieve(ids=str(memory_id), include=_FIELDS))).data["rows"]
        return rows[0] if rows else None

    # --- lifetime ------------------------------------------------------------------------------------

    def close(self) -> None:
        self._sessions.clear()
        if self._owns_store:
            self.store.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
