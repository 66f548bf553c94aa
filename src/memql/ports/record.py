"""The memory record and the audit log's entries: the data that crosses the Store port (DESIGN §4).

Pure data and the constants that describe it; the rules about who may read or change a record live in
memql.engine.access, the replay of the audit log in memql.store.replay, index text in memql.index.text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, fields, replace
from datetime import datetime
from typing import Any, Literal

Status = Literal["active", "archived", "deleted", "expired", "pending", "rejected"]
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
    # a key-addressed record (a document store's item, e.g. LangGraph's): (tenant, namespace, key) names
    # one live record. `namespace` is its labels joined by NAMESPACE_SEP (namespace_path), so a prefix of
    # labels is a prefix of the string that stops at a separator
    namespace: str | None = None
    key: str | None = None
    ttl: str | None = None  # an ISO duration: a read that asks to refresh it moves expire_at to now + ttl
    # what of the structured payload the indexes cover (its text is then the text at these paths): None
    # all of it, [] nothing (memql.index.text.texts_at_paths reads the paths)
    index_paths: list[str] | None = None
    # a record with index paths whose text is several texts (memql.index.text.texts_at_paths): one unit
    # vector per text, of the embedding's model, concatenated (float32 little-endian, n x embedding_dim).
    # A dense search scores the record by its best one; `embedding` (the texts joined) is then not searched
    path_embeddings: bytes | None = None

    def copy(self, **changes: Any) -> Record:
        """`dataclasses.replace`, by copying the instance's fields (a Record has no __post_init__ and every
        field is an init field): replace's keyword call of __init__ with ~60 fields cost 40 µs a copy."""
        if not changes.keys() <= _FIELD_NAMES or len(self.__dict__) != len(_FIELD_NAMES):
            return replace(self, **changes)  # its TypeError for an unknown field; no attribute beyond them
        new = object.__new__(Record)
        new.__dict__.update(self.__dict__)
        new.__dict__.update(changes)
        return new

    def locked(self, now: datetime) -> bool:
        return self.lock_mode is not None and (self.lock_until is None or self.lock_until > now)

    def expired(self, now: datetime) -> bool:
        return self.expire_at is not None and self.expire_at <= now


NAMESPACE_SEP = "\x1f"  # the unit separator: a control character, which no namespace label may hold


def namespace_path(labels: Sequence[str]) -> str:
    """A namespace's labels as the one string the stores keep and match by prefix."""
    return NAMESPACE_SEP.join(labels)


def namespace_labels(path: str) -> tuple[str, ...]:
    return tuple(path.split(NAMESPACE_SEP)) if path else ()


RECORD_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(Record))
_FIELD_NAMES = frozenset(RECORD_FIELDS)
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
        "index_paths",
    }
)
# fields the engine never changes through `update` (identity and bookkeeping)
IMMUTABLE_FIELDS = frozenset({"id", "tenant", "created_at", "schema_version"})


PROPOSAL_STATUSES = ("pending", "rejected")  # a proposal before, or instead of, its approval


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
