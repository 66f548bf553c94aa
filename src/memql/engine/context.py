"""The execution context of one op: the store session, who and when, and the change log it builds."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from itertools import compress
from operator import is_not, itemgetter
from typing import Any

import numpy as np

from memql.engine.access import admits
from memql.engine.redaction import blank_image, redact_ir
from memql.errors import Refusal
from memql.index.text import path_texts
from memql.lang.categories import check_category
from memql.lang.diagnostics import Diagnostic, join
from memql.lang.fields import SENSITIVITY_ORDER
from memql.lang.ops import Meta
from memql.ports.models import LLM, Embedder
from memql.ports.record import RECORD_FIELDS, Event, Link, Record
from memql.ports.store import Access, StoreSession
from memql.services.extract.base import Extractor


@dataclass(frozen=True)
class EngineConfig:
    """Engine policy; every constant is configurable."""

    default_weight: float = 0.5
    recovery_window: timedelta = timedelta(days=30)  # soft-deleted records can be restored this long
    default_read_limit: int = 100  # reads through a filter with no limit
    default_k: int = 10  # search candidates when overrides.k is absent
    demote_on_expire_delta: float = -0.3  # on_expire "demote" lowers the weight by this much
    archive_weight: float = 0.0  # Demote archive: kept, out of default reads, and at the lowest priority
    default_on_expire: str = "soft_delete"  # when a record gets expire_at without an explicit action
    # search shaping (engine/ranking.py): mild multiplicative factors on the fused score; they reorder
    # near-ties and cannot bury a clearly stronger match. Recency and heat are small on purpose: on LoCoMo
    # (hybrid) 0.1 and 0.05 cost 0.0065 recall@10, these defaults are neutral
    weight_shaping: float = 0.2  # a weight of 1.0 lifts a score by 10%, 0.0 lowers it by 10%; 0.5 is neutral
    recency_shaping: float = 0.03  # a memory from just now gains up to 3% (overrides.recency)
    recency_half_life: timedelta = timedelta(days=30)  # the recency gain halves with each of these of age
    heat_shaping: float = 0.02  # a memory visited often and lately gains up to 2% (overrides.heat)
    heat_visits: float = 5.0  # visits that give half the full heat (saturating: v / (v + heat_visits))
    heat_half_life: timedelta = timedelta(days=7)  # heat halves with each of these since the last visit
    mmr_window: int = 50  # overrides.mmr picks from at least this many of the best candidates
    # registered a2p extension categories -> sensitivity; a name covers its dotted sub-categories
    # (`ext:spotify:music` covers `ext:spotify:music.playlists`). Standard a2p: ones need no entry
    categories: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name, level in self.categories.items():
            if not name.startswith("ext:"):
                raise ValueError(f"only ext: categories are registered, not {name!r}")
            try:
                check_category(name)
            except ValueError as exc:
                raise ValueError(f"category {name!r}: {exc}") from None
            if level not in SENSITIVITY_ORDER:
                raise ValueError(
                    f"category {name!r}: sensitivity must be one of {', '.join(SENSITIVITY_ORDER)}"
                )


def snapshot(record: Record) -> dict[str, Any]:
    """What an insert event keeps: every field with a value (nulls and empty lists/objects are left out
    and restored as defaults on replay), but never the id or the raw embedding. Runs per record written:
    the fields are taken and the nulls (most of a record's) dropped by C-level calls."""
    values = _SNAPSHOT_VALUES(record.__dict__)
    return {
        name: value
        for name, value in compress(zip(_SNAPSHOT_FIELDS, values, strict=True), map(is_not, values, _NONES))
        if value or name == "value" or type(value) not in (list, dict)  # a fact's value may be empty
    }


_NOT_SNAPSHOT = frozenset({"id", "embedding", "path_embeddings"})
_SNAPSHOT_FIELDS = tuple(f for f in RECORD_FIELDS if f not in _NOT_SNAPSHOT)
_SNAPSHOT_VALUES = itemgetter(*_SNAPSHOT_FIELDS)  # a record's __dict__ -> those fields' values, in order
_NONES = (None,) * len(_SNAPSHOT_FIELDS)


@dataclass
class Context:
    session: StoreSession
    tenant: str
    actor: str | None
    admin: bool
    now: datetime
    meta: Meta
    config: EngineConfig
    llm: LLM | None = None
    embedder: Embedder | None = None
    path: str = ""  # JSON pointer of the IR being run (for diagnostics)
    step_ids: list[list[str]] = field(default_factory=list)  # affected ids of earlier workflow steps
    events: list[Event] = field(default_factory=list)
    warnings: list[Diagnostic] = field(default_factory=list)
    redacted: set[str] = field(default_factory=set)
    defer_embedding: bool = False  # Encode skip_embedding: store now, `memql embed --pending` later
    to_embed: dict[str, Record] = field(default_factory=dict)  # pending embeddings of this op
    explanations: dict[str, dict[str, Any]] = field(default_factory=dict)  # score components per record
    explain: bool = (
        False  # whether the op shows them (Retrieve's include "explain"): ranking builds them then
    )
    # the record fields the op reads of a search's results (Retrieve's rows): ranking then reads only
    # those of the records it returns (memql.ports.store.PartialReads); None: whole records
    read_fields: frozenset[str] | None = None
    clearance: str = "restricted"  # the most protected sensitivity this session may read or act on
    role: str = "user"  # user | admin | agent (engine/access.py)
    consent: str | None = None  # an agent's: propose | read | read_write
    op: str = ""  # the verb being run (for diagnostics)
    extractor: Extractor | None = None  # what Encode interpret and Label infer read with (interpret.py)

    def read_access(self) -> Access | None:
        """The read permissions every query of this session applies (None: an admin sees every record)."""
        if self.admin:
            return None
        return Access(actor=self.actor, agent=self.role == "agent", proposals_only=self.consent == "propose")

    def may_read(self, record: Record) -> bool:
        """Within the clearance and the read permissions: what a store query with this session's
        conditions would return."""
        access = self.read_access()
        return self.may_see(record) and (access is None or admits(access, record))

    def visible_sensitivities(self) -> tuple[str, ...] | None:
        """The sensitivity levels within the session's clearance (None: every level)."""
        if self.clearance == SENSITIVITY_ORDER[-1]:
            return None
        return SENSITIVITY_ORDER[: SENSITIVITY_ORDER.index(self.clearance) + 1]

    def may_see(self, record: Record) -> bool:
        levels = self.visible_sensitivities()
        return levels is None or record.sensitivity in levels

    # --- diagnostics -----------------------------------------------------------------------------

    def warn(self, rule: str, message: str, *parts: str | int) -> None:
        self.warnings.append(
            Diagnostic(path=join(self.path, *parts), rule=rule, severity="warning", message=message)
        )

    def refuse(self, rule: str, message: str, *parts: str | int) -> Refusal:
        return Refusal(rule, message, join(self.path, *parts))

    # --- mutations (each one recorded as an event) -----------------------------------------------

    def insert(self, record: Record) -> Record:
        record = record.copy(tenant=self.tenant, created_at=self.now, updated_at=self.now)
        record_id = self.session.insert(record)
        record = record.copy(id=record_id)
        if record.embedding_status == "pending" and self.embedder is not None and not self.defer_embedding:
            self.to_embed[record_id] = record
        self.events.append(Event(record_id=record_id, kind="insert", before={}, after=snapshot(record)))
        return record

    def update(self, record: Record, **changes: Any) -> Record:
        """Apply the changes that differ from the record; returns the updated record."""
        diff = {k: v for k, v in changes.items() if getattr(record, k) != v}
        if not diff:
            return record
        diff["updated_at"] = self.now
        if diff.get("embedding_status") == "pending":  # the text changed: its old vectors no longer apply
            diff["embedding"] = None
            diff["path_embeddings"] = None
        self.session.update(self.tenant, record.id, diff)  # type: ignore[arg-type]
        before = {k: getattr(record, k) for k in diff if k not in _NOT_SNAPSHOT}
        after = {k: v for k, v in diff.items() if k not in _NOT_SNAPSHOT}
        self.events.append(Event(record_id=record.id, kind="update", before=before, after=after))  # type: ignore[arg-type]
        updated = record.copy(**diff)
        if diff.get("embedding_status") == "pending" and self.embedder is not None:
            self.to_embed[updated.id] = updated  # type: ignore[index]
        return updated

    def log_change(self, record: Record, after: dict[str, Any]) -> None:
        """Note a bookkeeping change the session already made (a time-to-live refresh): an update event,
        so that point-in-time reads replay it, without touching updated_at (no content changed)."""
        before = {k: getattr(record, k) for k in after}
        self.events.append(Event(record_id=record.id, kind="update", before=before, after=dict(after)))  # type: ignore[arg-type]

    def embed_queued(self) -> None:
        """Embed this op's pending records in one batch (identical content reuses a stored vector).
        Embeddings are derived data: stored on the record, not in the audit log."""
        if not self.to_embed or self.embedder is None:
            return
        for record_id, changes in self.embeddings(list(self.to_embed.values())).items():
            self.session.update(self.tenant, record_id, changes)
        self.to_embed.clear()

    def embeddings(self, records: list[Record], key: Any = None) -> dict[Any, dict[str, Any]]:
        """The embedding columns of each record that gets a vector, keyed by `key(record)` (its id by
        default): a stored vector of the same content and model when there is one, else the embedder's,
        for all of them in one call. A bulk write computes them before it inserts the records."""
        if self.embedder is None:
            return {}
        key = key or (lambda record: record.id)
        model = self.embedder.model
        cached = self._stored_embeddings([r.content_hash for r in records if r.content_hash], model)
        vectors: dict[Any, bytes] = {}
        by_key: dict[Any, Record] = {}
        todo: list[Record] = []
        for record in records:
            blob = cached.get(record.content_hash) if record.content_hash else None
            if blob is not None:
                vectors[key(record)] = blob
                by_key[key(record)] = record
            elif record.text:
                todo.append(record)
        if todo:
            for record, vector in zip(todo, self.embedder.embed([r.text for r in todo]), strict=True):
                vectors[key(record)] = np.asarray(vector, dtype="<f4").tobytes()
                by_key[key(record)] = record
        paths = self._path_vectors(vectors, by_key)
        return {
            k: {
                "embedding": blob,
                "embedding_model": model,
                "embedding_dim": len(blob) // 4,
                "embedding_status": "ready",
                "path_embeddings": paths.get(k),
            }
            for k, blob in vectors.items()
        }

    def _stored_embeddings(self, hashes: list[str], model: str) -> dict[str, bytes]:
        """A stored vector of each content hash and model, where one is stored: in one query when the
        session can (PostgreSQL: a round trip per record held a bulk write with embeddings to a few
        hundred records a second), else one lookup each."""
        many = getattr(self.session, "embeddings_for_hashes", None)
        if many is not None:
            return many(self.tenant, hashes, model) if hashes else {}
        found = {h: self.session.embedding_for_hash(self.tenant, h, model) for h in dict.fromkeys(hashes)}
        return {h: blob for h, blob in found.items() if blob is not None}

    def _path_vectors(self, embedded: dict[Any, bytes], records: dict[Any, Record]) -> dict[Any, bytes]:
        """One vector per text of the embedded records whose index paths hold several texts (a search
        scores such a record by its best text, as a document store with per-field vectors does)."""
        texts: dict[Any, list[str]] = {}
        for k in embedded:
            found = path_texts(records[k])
            if found:
                texts[k] = found
        if not texts or self.embedder is None:
            return {}
        flat = self.embedder.embed([t for found in texts.values() for t in found])
        out: dict[Any, bytes] = {}
        start = 0
        for k, found in texts.items():
            rows = np.asarray(flat[start : start + len(found)], dtype="<f4")
            start += len(found)
            out[k] = rows.tobytes()
        return out

    def hard_delete(self, records: list[Record]) -> None:
        """Remove the records; their content is also redacted from the audit log (the delete event keeps
        their governance: who may still see that they existed)."""
        self.session.hard_delete(self.tenant, [r.id for r in records])  # type: ignore[misc]
        for r in records:
            self.events.append(Event(record_id=r.id, kind="delete", before=snapshot(r), after={}))  # type: ignore[arg-type]
        self.redact_history(*[r.id for r in records])  # type: ignore[misc]

    def redact_history(self, *record_ids: str) -> None:
        """Remove the records' content from the audit log (engine/redaction.py): their logged events keep
        only their governance fields, and every logged operation that touched one of them keeps its op and
        target ids but no content. This op's own events and IR are redacted when they are logged; a
        dry-run preview (not logged) still shows what would go."""
        if not record_ids:
            return
        self.session.redact(self.tenant, record_ids, blank_image, redact_ir)
        self.redacted.update(record_ids)

    def loggable_events(self) -> list[Event]:
        """This op's events as the audit log keeps them: the content of redacted records blanked."""
        if not self.redacted:
            return self.events
        out = []
        for event in self.events:
            if event.record_id in self.redacted:
                event = Event(
                    record_id=event.record_id,
                    kind=event.kind,
                    before=blank_image(event.before),
                    after=blank_image(event.after),
                )
            out.append(event)
        return out

    def loggable_ir(self, ir: dict[str, Any]) -> dict[str, Any]:
        """This op's canonical IR as the audit log keeps it: without content when the op removed a
        record's content (its IR may quote it: a filter, a search, a comment)."""
        return redact_ir(ir) if self.redacted else ir

    def link(self, src: str, dst: str, relation: str) -> None:
        self.session.add_link(self.tenant, Link(src, dst, relation, self.now))
        self.events.append(
            Event(record_id=src, kind="link", before={}, after={"dst": dst, "relation": relation})
        )

    def unlink(self, src: str, dst: str, relation: str) -> None:
        """Remove a link; logged as a link event whose `before` holds it and `after` is empty."""
        self.session.remove_link(self.tenant, Link(src, dst, relation))
        self.events.append(
            Event(record_id=src, kind="link", before={"dst": dst, "relation": relation}, after={})
        )
