"""The Store port: records, lineage links and the audit log, behind one transactional interface.

The engine never writes SQL. It asks a StoreSession (one transaction) for records by id or by a
RecordQuery, and tells it what changed. A backend translates RecordQuery into its own query language and
must pass the shared conformance suite.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field, fields, replace
from datetime import datetime
from typing import Any, Literal, Protocol

from memql.lang.time import format_instant, parse_instant

Status = Literal["active", "archived", "deleted", "expired", "pending", "rejected"]
Order = Literal["relevance", "time_desc", "time_asc", "weight_desc", "created_asc"]
# The shape of a record. Every record carries the version it was written at; a store's migrations upgrade
# its rows, and `upgrade_snapshot` upgrades the images the audit log kept (replayed by point-in-time reads).
#   1: the record before typed facts
#   2: typed facts: subject, attribute, value, valid_from, valid_to, evidence
SCHEMA_VERSION = 2


@dataclass
class Record:
    """One memory. Instants are timezone-aware UTC datetimes; JSON-valued fields are plain Python values."""

    id: str | None = None
    tenant: str = "default"
    owner: str | None = None
    agent: str | None = None
    session: str | None = None
    # content
    text: str | None = None
    url: str | None = None
    structured: dict[str, Any] | None = None
    payload_meta: dict[str, Any] = field(default_factory=dict)
    kind: str | None = None  # the Text2Mem `type`
    tags: list[str] = field(default_factory=list)
    facets: dict[str, Any] = field(default_factory=dict)
    keywords: list[str] = field(default_factory=list)
    source: str | None = None
    content_hash: str | None = None
    # a2p
    memory_type: str | None = None
    category: str | None = None
    sensitivity: str = "standard"
    confidence: float | None = None
    # governance
    weight: float = 0.5
    status: Status = "active"
    lock_mode: str | None = None
    lock_reason: str | None = None
    lock_policy: dict[str, Any] | None = None
    lock_until: datetime | None = None
    lock_by: str | None = None
    expire_at: datetime | None = None
    on_expire: str | None = None
    remind_rrule: str | None = None
    remind_until: datetime | None = None
    next_remind_at: datetime | None = None
    auto_frequency: str | None = None
    next_auto_update_at: datetime | None = None
    read_perm_level: str | None = None
    write_perm_level: str | None = None
    read_whitelist: list[str] | None = None
    read_blacklist: list[str] | None = None
    write_whitelist: list[str] | None = None
    write_blacklist: list[str] | None = None
    # heat
    visits: int = 0
    last_access_at: datetime | None = None
    interactions: int = 0
    tier: str | None = None
    # embedding (filled by the retrieval layer)
    embedding: bytes | None = None
    embedding_model: str | None = None
    embedding_dim: int | None = None
    embedding_status: str = "none"  # none | pending | ready
    # time
    time: datetime | None = None  # when the remembered thing happened
    # a typed fact (SGAM): (tenant, subject, attribute) -> value, true in world time [valid_from, valid_to)
    # (valid_to None: still true). Supersession is kept as links (relation "supersedes", new -> old)
    subject: str | None = None
    attribute: str | None = None
    value: Any = None  # any JSON value but null
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    # the assertions the value rests on, [{"valid_from": ISO, "source": str | None}, ...] by valid_from: the
    # first one starts the window; later repeats are kept so that a value arriving later can split it
    evidence: list[dict[str, Any]] | None = None
    created_at: datetime | None = None
    updated_at: datetime | None = None
    deleted_at: datetime | None = None
    schema_version: int = SCHEMA_VERSION

    def copy(self, **changes: Any) -> Record:
        return replace(self, **changes)

    def locked(self, now: datetime) -> bool:
        return self.lock_mode is not None and (self.lock_until is None or self.lock_until > now)

    def expired(self, now: datetime) -> bool:
        return self.expire_at is not None and self.expire_at <= now


RECORD_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(Record))
PERMISSION_FIELDS = (
    "read_perm_level",
    "write_perm_level",
    "read_whitelist",
    "read_blacklist",
    "write_whitelist",
    "write_blacklist",
)
INSTANT_FIELDS = frozenset(
    {
        "lock_until",
        "expire_at",
        "remind_until",
        "next_remind_at",
        "next_auto_update_at",
        "last_access_at",
        "time",
        "created_at",
        "updated_at",
        "deleted_at",
        "valid_from",
        "valid_to",
    }
)
JSON_FIELDS = frozenset(
    {
        "structured",
        "payload_meta",
        "tags",
        "facets",
        "keywords",
        "lock_policy",
        "read_whitelist",
        "read_blacklist",
        "write_whitelist",
        "write_blacklist",
        "value",
        "evidence",
    }
)
# fields the engine never changes through `update` (identity and bookkeeping)
IMMUTABLE_FIELDS = frozenset({"id", "tenant", "created_at", "schema_version"})


def _upgrade_1_to_2(snapshot: dict[str, Any]) -> dict[str, Any]:
    return snapshot  # the fact fields are new and empty on a record written before them


# version -> the function that lifts a snapshot of that version to the next one
RECORD_UPGRADES: dict[int, Any] = {1: _upgrade_1_to_2}


def upgrade_snapshot(snapshot: dict[str, Any]) -> dict[str, Any]:
    """A record image from the audit log (written at any record schema) in the current shape. A snapshot
    without a version predates versioning and is version 1."""
    version = snapshot.get("schema_version", 1)
    while version < SCHEMA_VERSION:
        snapshot = RECORD_UPGRADES[version](dict(snapshot))
        version += 1
    if version > SCHEMA_VERSION:
        raise ValueError(f"a record of schema {version} is newer than this memql ({SCHEMA_VERSION})")
    return {**snapshot, "schema_version": version}


def from_snapshot(snapshot: dict[str, Any]) -> Record:
    """A Record from the JSON form the audit log keeps (instants as ISO strings), in the current shape
    whatever record schema wrote it."""
    values = {k: v for k, v in upgrade_snapshot(snapshot).items() if k in RECORD_FIELDS}
    for name in INSTANT_FIELDS & values.keys():
        if isinstance(values[name], str):
            values[name] = parse_instant(values[name])[0]
    return Record(**values)


def replay(events: Iterable[Event]) -> dict[str, Record]:
    """The records as a tenant's audit log (its events in order) leaves them, by id: what a point-in-time
    read queries on every backend."""
    states: dict[str, dict[str, Any]] = {}
    for event in events:
        if event.kind == "insert":
            states[event.record_id] = dict(event.after)
        elif event.kind == "update" and event.record_id in states:
            states[event.record_id].update(event.after)
        elif event.kind == "delete":
            states.pop(event.record_id, None)
    return {record_id: from_snapshot({**image, "id": record_id}) for record_id, image in states.items()}


def json_default(value: Any) -> Any:
    """How memql writes non-JSON values: instants as canonical UTC strings; raw embeddings never."""
    if isinstance(value, datetime):
        return format_instant(value)
    if isinstance(value, bytes):
        return None  # embeddings are never copied into JSON (audit log, snapshots, results)
    raise TypeError(f"{type(value).__name__} is not JSON")


REDACTED = "[redacted]"


def redacted(value: Any) -> Any:
    """A value blanked for the audit log, keeping its JSON type (text -> marker, object -> {}, list -> [])."""
    if isinstance(value, str):
        return REDACTED if value else value
    if isinstance(value, dict):
        return {}
    if isinstance(value, list):
        return []
    return None


def lexical_text(record: Record) -> str:
    """What the lexical index covers: the text, URL, tags, facet values and structured values."""
    parts: list[str] = [record.text or "", record.url or "", " ".join(record.tags)]
    stack: list[Any] = [record.facets, record.structured or {}]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
        elif isinstance(value, str):
            parts.append(value)
    return "\n".join(p for p in parts if p)


def context_text(record: Record) -> str:
    """Text that situates a memory without being part of it (payload.context, e.g. the turn before a
    conversation turn): searchable at a lower weight than the memory's own text."""
    context = record.payload_meta.get("context")
    return context if isinstance(context, str) else ""


PROPOSAL_STATUSES = ("pending", "rejected")  # a proposal before, or instead of, its approval


def unaccepted_proposal(record: Record) -> bool:
    """A proposal nobody has accepted: pending or rejected, or expired while it had no owner yet (an
    approved proposal has an owner: its approver)."""
    return record.status in PROPOSAL_STATUSES or (
        record.status == "expired" and record.owner is None and record.agent is not None
    )


def read_level(record: Record) -> str:
    """The record's effective read level: its own, else custom when it has a read whitelist, else public."""
    if record.read_perm_level is not None:
        return record.read_perm_level
    return "custom" if record.read_whitelist else "public"


READ_GOVERNANCE = ("owner", "agent", "sensitivity", "read_perm_level", "read_whitelist", "read_blacklist")


def governed_as_now(past: Record, now: Record | None) -> Record:
    """A record as it was, with who may read it as it is now: a point-in-time read must not show what a
    record said before its permissions were tightened. A record that is gone keeps its past ones (its
    content was redacted from the audit log when it went)."""
    if now is None:
        return past
    return past.copy(**{name: getattr(now, name) for name in READ_GOVERNANCE})


@dataclass(frozen=True)
class Access:
    """Which records a caller other than an admin may read, as one condition that every backend applies
    inside its queries (so a top-k cut never happens before it). `admits` is the reference semantics:

    - a proposal nobody has accepted (see `unaccepted_proposal`) is readable by the tenant's users not in
      its read_blacklist, and by the agent that proposed it — by no other agent. Its permission levels
      apply once it is approved.
    - any other record is readable by its owner; by nobody else in its read_blacklist; otherwise by its
      read level (`read_level`): public — everyone; team — users, and agents in the read_whitelist;
      private — nobody else; custom — those in the read_whitelist. Unknown levels admit nobody else.
    - a propose-only agent (`proposals_only`) reads nothing but its own proposals not yet accepted.
    """

    actor: str | None
    agent: bool = False  # the caller is an agent, not a user of the tenant
    proposals_only: bool = False

    def admits(self, record: Record) -> bool:
        me = self.actor
        listed = me is not None
        if unaccepted_proposal(record):
            if self.agent:
                return listed and record.agent == me
            return not (listed and me in (record.read_blacklist or ()))
        if self.proposals_only:
            return False
        if listed and record.owner == me:
            return True
        if listed and me in (record.read_blacklist or ()):
            return False
        level = read_level(record)
        whitelisted = listed and me in (record.read_whitelist or ())
        if level == "public":
            return True
        if level == "team":
            return whitelisted or not self.agent
        if level == "custom":
            return whitelisted
        return False


@dataclass
class RecordQuery:
    """A backend-neutral selection of one tenant's records. Every condition given must hold."""

    ids: Sequence[str] | None = None
    statuses: Sequence[str] | None = ("active",)  # None: any status
    not_expired_at: datetime | None = None  # lazy expiry: hide records whose expire_at <= this instant
    lapsed_at: datetime | None = None  # also match active records whose expire_at <= this (status "expired")
    time_from: datetime | None = None  # event time (created_at when the record has none), inclusive
    time_to: datetime | None = None
    created_before: datetime | None = None
    has_tags: Sequence[str] = ()
    not_tags: Sequence[str] = ()
    kind: str | None = None
    facet_equals: dict[str, Any] = field(default_factory=dict)
    weight_gte: float | None = None
    weight_lte: float | None = None
    expire_before: datetime | None = None
    expire_after: datetime | None = None
    memory_type: str | None = None
    category: str | None = None
    sensitivity: str | None = None
    sensitivities: Sequence[str] | None = None  # the levels the reader may see (its clearance); None: any
    access: Access | None = None  # the reader's permissions, consent and proposals; None: an admin's view
    text_query: str | None = None  # lexical (BM25) relevance; only matching records are returned
    # typed facts: with any of these set, only facts (records with an attribute) match
    subject: str | None = None
    attribute: str | None = None
    valid_at: datetime | None = None  # world time: valid_from <= valid_at < valid_to (valid_to None: open)
    facts_only: bool = False

    @property
    def about_facts(self) -> bool:
        """Whether the query asks for typed facts only."""
        return self.facts_only or any(v is not None for v in (self.subject, self.attribute, self.valid_at))

    order: Order = "time_desc"
    limit: int | None = None
    # read the records as the audit log says they were at this instant (who may read them — owner, agent,
    # sensitivity, read permissions — as they are now: see governed_as_now)
    as_of: datetime | None = None


@dataclass(frozen=True)
class Link:
    src: str
    dst: str
    relation: str  # merged_into, split_from, summarizes, supersedes, derived_from ...
    created_at: datetime | None = None


@dataclass
class Operation:
    """One executed IR in the audit log."""

    time: datetime
    tenant: str
    actor: str | None
    op: str
    ir: dict[str, Any]
    affected_ids: list[str]
    trace_id: str | None = None
    workflow_id: str | None = None
    step: int | None = None
    seq: int | None = None


@dataclass
class Event:
    """One record's change within an operation: the fields that changed, before and after."""

    record_id: str
    kind: Literal["insert", "update", "delete", "link"]
    before: dict[str, Any]
    after: dict[str, Any]
    seq: int | None = None
    operation: Operation | None = None


class StoreSession(Protocol):
    """One transaction on one store. Every method is scoped to the tenant it is given."""

    def insert(self, record: Record) -> str:
        """Store a new record; assigns and returns its id ("1", "2", ... on a fresh store)."""
        ...

    def get(self, tenant: str, ids: Sequence[str]) -> dict[str, Record]: ...

    def find(self, tenant: str, query: RecordQuery) -> list[tuple[Record, float | None]]:
        """Matching records, ordered; the float is the lexical score when query.text_query is set."""
        ...

    def update(self, tenant: str, record_id: str, changes: dict[str, Any]) -> None: ...

    def pending_embeddings(self, tenant: str, limit: int) -> list[Record]:
        """Live records with text whose embedding is pending, oldest first."""
        ...

    def embedding_for_hash(self, tenant: str, content_hash: str, model: str) -> bytes | None:
        """A stored vector of this model for identical content (the embedding cache)."""
        ...

    def dense(
        self, tenant: str, vector: Sequence[float], q: RecordQuery, k: int, model: str
    ) -> list[tuple[Record, float]]:
        """The k records matching q closest to the vector (cosine, best first); filters act before the cut."""
        ...

    def touch(self, tenant: str, ids: Sequence[str], now: datetime) -> None:
        """A read's heat bookkeeping: one more visit and the last access time, for each record."""
        ...

    def hard_delete(self, tenant: str, ids: Sequence[str]) -> None:
        """Remove the records, their index entries and every link that touches them."""
        ...

    def find_duplicate(self, tenant: str, content_hash: str, now: datetime) -> str | None:
        """An active, unexpired record of the tenant with this content hash."""
        ...

    def redact(self, tenant: str, record_id: str, fields: Sequence[str]) -> None:
        """Blank these fields (see `redacted`) in the record's audit events (anonymize, hard delete)."""
        ...

    def add_link(self, tenant: str, link: Link) -> None: ...

    def remove_link(self, tenant: str, link: Link) -> None:
        """Remove the link (src, dst, relation), if the tenant has it."""
        ...

    def links(self, tenant: str, ids: Sequence[str]) -> list[Link]: ...

    def log(self, operation: Operation, events: Sequence[Event]) -> int:
        """Append an operation and its per-record events to the audit log; returns its sequence number."""
        ...

    def history(self, tenant: str, record_id: str) -> list[Event]: ...

    def scratch(self) -> AbstractContextManager[None]:
        """Run a part of the transaction and undo it afterwards (a dry-run step inside a workflow)."""
        ...


class PortableSession(Protocol):
    """Moving a whole store between backends (`memql copy`): every tenant, record ids, audit sequence
    numbers and embeddings kept. A session of either store: the source's exports, the destination's
    imports (into an empty store; imports bypass the engine and write exactly what they are given)."""

    def export_begin(self) -> None:
        """Make the rest of this transaction read one consistent state of the store (call first)."""
        ...

    def export_records(self, after: int, limit: int) -> list[Record]:
        """Up to `limit` records numbered above `after`, in number order, of every tenant and status."""
        ...

    def export_links(self) -> list[tuple[str, Link]]:
        """Every link, with its tenant."""
        ...

    def export_log(self, after: int, limit: int) -> list[tuple[Operation, list[Event]]]:
        """Up to `limit` operations with a sequence number above `after`, in order, with their events."""
        ...

    def last_record_number(self) -> int:
        """The highest record number ever given (new records are numbered after it)."""
        ...

    def is_empty(self) -> bool:
        """No records and no audit log."""
        ...

    def import_records(self, records: Sequence[Record]) -> None: ...

    def import_links(self, links: Sequence[tuple[str, Link]]) -> None: ...

    def import_log(self, entries: Sequence[tuple[Operation, Sequence[Event]]]) -> None: ...

    def set_last_record_number(self, number: int) -> None:
        """New records are numbered after `number` (never lowers what the store has given)."""
        ...


@dataclass(frozen=True)
class ApiKey:
    """A REST API key: the tenant and the identity (memql.engine.access) a request with it acts as. The
    secret itself is never stored: only its SHA-256 (`secret_hash`); `id` is its public prefix."""

    id: str
    secret_hash: str
    tenant: str
    actor: str
    role: str
    consent: str | None = None
    clearance: str | None = None
    name: str | None = None
    created_at: datetime | None = None
    revoked_at: datetime | None = None


class KeySession(Protocol):
    """API keys (memql.interfaces.apikeys), store-wide: a key names its tenant, so looking one up cannot
    be scoped to a tenant first."""

    def add_api_key(self, key: ApiKey) -> None: ...

    def api_key_by_hash(self, secret_hash: str) -> ApiKey | None:
        """The key whose secret has this SHA-256 (revoked or not)."""
        ...

    def api_keys(self) -> list[ApiKey]:
        """Every key of every tenant, oldest first."""
        ...

    def revoke_api_key(self, key_id: str, at: datetime) -> ApiKey | None:
        """Revoke the key (a revoked key keeps its first revocation time); the key, or None if unknown."""
        ...


class Store(Protocol):
    def transaction(self) -> AbstractContextManager[StoreSession]:
        """A write transaction: commits on normal exit, rolls back on an exception."""
        ...

    def dry_run(self) -> AbstractContextManager[StoreSession]:
        """A transaction that is always rolled back."""
        ...

    def close(self) -> None: ...
