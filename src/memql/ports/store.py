"""The Store port: records, lineage links and the audit log, behind one transactional interface.

The engine never writes SQL. It asks a StoreSession (one transaction) for records by id or by a
RecordQuery, and tells it what changed. A backend translates RecordQuery into its own query language and
must pass the shared conformance suite (memql.testing). The record itself: memql.ports.record.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field, fields
from datetime import UTC, datetime
from typing import Any, Literal, NamedTuple, Protocol

from memql.ports.record import Event, Link, Operation, Record

Order = Literal["relevance", "time_desc", "time_asc", "weight_desc", "created_asc"]
Comparison = Literal["eq", "ne", "gt", "gte", "lt", "lte", "contains", "icontains"]


@dataclass(frozen=True)
class StructuredCondition:
    """A condition on a value inside the structured payload, at `path` (object keys from the top).

    eq: the value there equals `value` as JSON (a number equals a number, `true` is not `1`; a list equals
    a list of the same items in order; null matches a missing value too). ne: not eq (so a missing value
    matches). gt, gte, lt, lte: a number compared with a number, or a string with a string (by code
    point); a value of another type does not match. contains: a string value holding `value` (a string)
    as a substring, or a list value with an item equal to `value` (a string, number or boolean). icontains:
    a string value holding `value` as a substring, ASCII letters compared without case (as tags are).

    `column` is the JSON column the path starts in: the structured payload or the record's facets."""

    path: tuple[str, ...]
    op: Comparison
    value: Any
    column: Literal["structured", "facets"] = "structured"


@dataclass(frozen=True)
class ConditionGroup:
    """Conditions combined: `and` (all hold; none given: true), `or` (one holds; none given: false), `not`
    (its one child does not hold). A condition on a missing value that does not hold is false, never
    unknown, so `not` of it holds."""

    kind: Literal["and", "or", "not"]
    children: tuple[StructuredCondition | ConditionGroup, ...]


Condition = StructuredCondition | ConditionGroup


@dataclass(frozen=True)
class Access:
    """Which records a caller other than an admin may read, as one condition that every backend applies
    inside its queries (so a top-k cut never happens before it). memql.engine.access.admits is the reference
    semantics, which every backend's SQL reproduces:

    - a proposal nobody has accepted (`unaccepted_proposal`) is readable by the tenant's users not in its
      read_blacklist, and by the agent that proposed it — by no other agent. Its permission levels apply
      once it is approved.
    - any other record is readable by its owner; by nobody else in its read_blacklist; otherwise by its
      read level (`read_level`): public — everyone; team — users, and agents in the read_whitelist;
      private — nobody else; custom — those in the read_whitelist. Unknown levels admit nobody else.
    - a propose-only agent (`proposals_only`) reads nothing but its own proposals not yet accepted.
    """

    actor: str | None
    agent: bool = False  # the caller is an agent, not a user of the tenant
    proposals_only: bool = False


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
    written_after: str | None = None  # only records written after this record (a higher record number)
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
    # typed facts match only while they hold at this instant; other records are unaffected
    facts_current_at: datetime | None = None

    @property
    def about_facts(self) -> bool:
        """Whether the query asks for typed facts only."""
        return self.facts_only or any(v is not None for v in (self.subject, self.attribute, self.valid_at))

    # key-addressed records: namespaces as memql.ports.record.namespace_path strings
    namespace: str | None = None  # exactly this namespace
    namespace_prefix: str | None = None  # this namespace or one under it ("": any record with a namespace)
    key: str | None = None
    # conditions on payload.structured (or facets) values, all of which hold
    structured: Sequence[StructuredCondition | ConditionGroup] = ()

    order: Order = "time_desc"
    limit: int | None = None
    offset: int = 0  # skip this many of the ordered matches (before the limit)
    # read the records as the audit log says they were at this instant (who may read them — owner, agent,
    # sensitivity, read permissions — as they are now: see governed_as_now)
    as_of: datetime | None = None


class Candidate(NamedTuple):
    """A search match before the search chooses among them: its score and what shapes the score (weight,
    age, heat), without the record. A search ranks many candidates and returns a few, so a store answers
    `find_candidates` and `dense_candidates` without decoding records; the chosen ones are then read by id.
    `visits` and `last_access_us` include the caller's pending visits, as the records' do. Instants are
    microseconds since the Unix epoch (`epoch_us`): a search ages a hundred candidates, and building a
    datetime for each cost more than ranking it."""

    id: str
    score: float
    weight: float
    at_us: int | None  # the record's event time, else its creation time: what recency ages
    visits: int
    last_access_us: int | None

    @classmethod
    def of(cls, record: Record, score: float | None) -> Candidate:
        """A record already read, as a candidate (a store without a leaner path; point-in-time reads)."""
        at = epoch_us(record.time or record.created_at)
        return cls(
            record.id or "", score or 0.0, record.weight, at, record.visits, epoch_us(record.last_access_at)
        )


_QUERY_FIELDS = frozenset(f.name for f in fields(RecordQuery))


def amended(q: RecordQuery, **changes: Any) -> RecordQuery:
    """`dataclasses.replace(q, **changes)` without its per-call look at the fields and a call of __init__
    with every one of them: a search copies its query three or four times, and replace cost ~15 us each."""
    copy = object.__new__(RecordQuery)
    copy.__dict__.update(q.__dict__)
    for name in changes:
        if name not in _QUERY_FIELDS:
            raise TypeError(f"RecordQuery has no field {name!r}")
    copy.__dict__.update(changes)
    return copy


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def epoch_us(value: datetime | None) -> int | None:
    """An instant as whole microseconds since the Unix epoch (UTC); None stays None."""
    if value is None:
        return None
    delta = value.astimezone(UTC) - _EPOCH
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


class StoreSession(Protocol):
    """One transaction on one store. Every method is scoped to the tenant it is given."""

    def insert(self, record: Record) -> str:
        """Store a new record; assigns and returns its id ("1", "2", ... on a fresh store)."""
        ...

    def get(self, tenant: str, ids: Sequence[str]) -> dict[str, Record]: ...

    def find(self, tenant: str, query: RecordQuery) -> list[tuple[Record, float | None]]:
        """Matching records, ordered; the float is the lexical score when query.text_query is set."""
        ...

    def find_candidates(self, tenant: str, query: RecordQuery) -> list[Candidate]:
        """A lexical search's matches as candidates: the same records, scores and order as `find` with
        query.text_query, query.limit and order "relevance" (no point-in-time query: `as_of` is None)."""
        ...

    def namespaces(self, tenant: str, query: RecordQuery) -> list[str]:
        """The distinct namespaces (namespace_path strings) of the records matching the query, sorted;
        computed by the store (the records themselves are not read out). The query's order, limit and
        offset do not apply."""
        ...

    def update(self, tenant: str, record_id: str, changes: dict[str, Any]) -> None: ...

    def pending_embeddings(self, tenant: str, limit: int) -> list[Record]:
        """Live records with text whose embedding is pending, oldest first."""
        ...

    def embedding_for_hash(self, tenant: str, content_hash: str, model: str) -> bytes | None:
        """A stored vector of this model for identical content (the embedding cache)."""
        ...

    def dense(
        self, tenant: str, vector: Sequence[float], q: RecordQuery, k: int, model: str, signed: bool = False
    ) -> list[tuple[Record, float]]:
        """The k records matching q closest to the vector (cosine, best first); filters act before the cut.
        Only positive cosines count unless `signed` (then every vector's cosine, in [-1, 1]). A record with
        path vectors (Record.path_embeddings) scores its best one."""
        ...

    def dense_candidates(
        self, tenant: str, vector: Sequence[float], q: RecordQuery, k: int, model: str, signed: bool = False
    ) -> list[Candidate]:
        """`dense`'s answer as candidates: the same records, cosines and order."""
        ...

    def touch(self, tenant: str, ids: Sequence[str], now: datetime) -> None:
        """A read's heat bookkeeping: one more visit and the last access time, for each record."""
        ...

    def hard_delete(self, tenant: str, ids: Sequence[str]) -> None:
        """Remove the records, their index entries and every link that touches them."""
        ...

    def find_duplicate(self, tenant: str, content_hash: str, now: datetime, limit: int) -> list[str]:
        """The ids of the tenant's live records with this content hash — active or pending, not expired at
        `now` — oldest first, at most `limit`: the candidates an Encode compares field by field."""
        ...

    def redact(
        self,
        tenant: str,
        record_ids: Sequence[str],
        blank_image: Callable[[dict[str, Any]], dict[str, Any]],
        blank_ir: Callable[[dict[str, Any]], dict[str, Any]],
    ) -> None:
        """Rewrite the audit log so that it keeps nothing of these records' content (anonymize, hard
        delete): the before and after images of each of their events through `blank_image`, and the IR of
        every operation that touched one of them — it lists the record in its affected ids, or logged an
        event of it — through `blank_ir`. The engine decides what is kept (memql.engine.redaction)."""
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


class ReadSession(StoreSession, Protocol):
    """A read transaction (Store.read): the reading methods of StoreSession over one consistent state,
    without the write lock. Its write methods refuse; `touch` records the visits in the store's buffer
    (memql.store.visits), and the records it returns count this process's pending visits."""

    def log_read(self, operation: Operation, redacted_ir: dict[str, Any]) -> None:
        """Buffer a read's audit entry (written with the next flush of the buffer); `redacted_ir` is its IR
        as the log keeps it should a record it read be hard-deleted before then."""
        ...


class PartialReads(Protocol):
    """A session that can read records by id with only some of their fields (optional: a search asks
    through `getattr`, and reads whole records from a session without it). Reading and decoding every
    column of the few records a Retrieve returns cost more than ranking its candidates."""

    def get_fields(self, tenant: str, ids: Sequence[str], fields: frozenset[str]) -> dict[str, Record]:
        """`get`, with at least `fields` (Record field names) read as stored; any other field may hold the
        Record's default. For a caller that reads those fields alone and hands the records to no one."""
        ...


class SearchAhead(Protocol):
    """A session that can start a dense search's index lookup before the search is asked for (optional:
    a hybrid search asks through `getattr`). A hybrid search calls `dense_ahead` before its lexical side,
    then `dense_candidates` with the same vector, k and model: a session may look up the vector index
    on another core meanwhile (both sides of a search on a large store took about as long). It changes
    no answer: what the lookup found is checked against the query as the search would have."""

    def dense_ahead(self, tenant: str, vector: Sequence[float], k: int, model: str) -> None: ...


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


class Store(Protocol):
    # How many transactions this store instance runs at once (SQLite: 1, its one connection; PostgreSQL:
    # its pool's size): what a server sizes the threads it hands the store's work to by
    reads_at_once: int

    def transaction(self) -> AbstractContextManager[StoreSession]:
        """A write transaction: commits on normal exit, rolls back on an exception."""
        ...

    def dry_run(self) -> AbstractContextManager[StoreSession]:
        """A transaction that is always rolled back."""
        ...

    def read(self) -> AbstractContextManager[ReadSession]:
        """A read-only transaction over one consistent state that never takes a write lock (SQLite: a
        deferred BEGIN in WAL mode; PostgreSQL: REPEATABLE READ, no lock). Visits and read audit entries
        are buffered and written in batches: when enough are pending, a moment after the first (the
        buffer's interval), before the store's next write transaction or dry run, and on close."""
        ...

    def flush_visits(self) -> None:
        """Write the buffered visits and read audit entries now, in one write transaction."""
        ...

    def close(self) -> None:
        """Flush the buffer (a clean close loses no visit), then close."""
        ...
