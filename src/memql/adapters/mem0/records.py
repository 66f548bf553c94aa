"""A memql record as a mem0 memory, and back.

The text is mem0's own (`memory`, what mem0 embeds and searches); every other memql field rides in the
memory's metadata under `memql` (instants as ISO-8601), with the memql id in `memql_id` and the record's
lineage links in `memql_links`. A memory mem0 wrote itself (no `memql_id`) reads as a plain active record
owned by its mem0 `user_id`. Embeddings are derived data and are never stored in metadata.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from memql.engine.context import snapshot
from memql.lang.time import parse_instant
from memql.ports.record import Link, Record
from memql.store.replay import from_snapshot

# derived (re-made from the text) or given by the adapter: never kept in mem0's metadata
_NOT_KEPT = ("text", "tenant", "embedding", "embedding_model", "embedding_dim", "embedding_status")
_NO_TEXT = "memql_no_text"  # the record has no text: mem0's `memory` holds a stand-in


@dataclass
class Stored:
    """One memory as the adapter read it from mem0: its mem0 id, the memql record, what was stored."""

    mem0_id: str
    record: Record
    text: str  # mem0's `memory`
    metadata: dict[str, Any]  # the memql part of mem0's metadata (memql, memql_id, memql_links, …)
    links: list[Link] = field(default_factory=list)  # the record's outgoing lineage links


def _json(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, dict):
        return {k: _json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_json(v) for v in value]
    return value


def mem0_text(record: Record) -> str:
    """What mem0 stores and embeds as the memory: the text, else a stand-in (mem0 needs some text)."""
    if record.text:
        return record.text
    if record.structured:
        return json.dumps(record.structured, ensure_ascii=False, sort_keys=True)
    return record.url or f"memql record {record.id}"


def mem0_metadata(record: Record, links: list[Link]) -> dict[str, Any]:
    """The metadata a record is stored with (compared key by key to decide whether mem0 needs a write)."""
    fields = {k: _json(v) for k, v in snapshot(record).items() if k not in _NOT_KEPT}
    out: dict[str, Any] = {
        "memql_id": record.id,
        "memql": fields,
        "memql_links": [[link.dst, link.relation, _json(link.created_at)] for link in links],
        # flat copies, so mem0's own filters (get_all / search filters=) can select by them
        "memql_status": record.status,
        "memql_tags": list(record.tags),
        _NO_TEXT: not record.text,  # always said: mem0 merges metadata, so a key is never dropped
    }
    return out


def from_mem0(item: dict[str, Any], tenant: str) -> tuple[Record, list[Link]] | None:
    """The record and outgoing links of one mem0 memory written by memql; None for a memory mem0 wrote
    itself (the caller adopts it)."""
    metadata = item.get("metadata") or {}
    memql_id, fields = metadata.get("memql_id"), metadata.get("memql")
    if memql_id is None or not isinstance(fields, dict):
        return None
    text = None if metadata.get(_NO_TEXT) else item.get("memory")
    record = from_snapshot({**fields, "id": str(memql_id), "tenant": tenant, "text": text})
    links = [
        Link(str(memql_id), str(dst), str(relation), _instant(created))
        for dst, relation, created in metadata.get("memql_links") or []
    ]
    return record, links


def adopted(item: dict[str, Any], record_id: str, tenant: str) -> Record:
    """A memory mem0 wrote itself, as a memql record: its text, its times, owned by its mem0 user."""
    created, updated = _instant(item.get("created_at")), _instant(item.get("updated_at"))
    extra = {k: v for k, v in (item.get("metadata") or {}).items() if not k.startswith("memql")}
    return Record(
        id=record_id,
        tenant=tenant,
        owner=item.get("user_id"),
        agent=item.get("agent_id"),
        session=item.get("run_id"),
        text=item.get("memory") or "",
        payload_meta=extra,
        source="mem0",
        created_at=created,
        updated_at=updated or created,
        time=created,
    )


def memql_part(metadata: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in metadata.items() if k.startswith("memql")}


def _instant(value: Any) -> datetime | None:
    if not isinstance(value, str) or not value:
        return None
    return parse_instant(value)[0]
