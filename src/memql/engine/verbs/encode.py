"""Encode: add one record (or return the identical one that exists)."""

from __future__ import annotations

import hashlib
import json
import re
from datetime import datetime
from typing import Any

from memql.engine.context import Context
from memql.engine.facts import encode_fact
from memql.engine.verbs import Outcome
from memql.lang.facts import FactPayload
from memql.lang.ops import EncodeIR
from memql.lang.time import add_duration, parse_duration
from memql.ports.store import PERMISSION_FIELDS, Record
from memql.services import keywords

_SPACE = re.compile(r"\s+")


def content_hash(text: str | None, url: str | None, structured: dict[str, Any] | None) -> str:
    """Identity of content for de-duplication: whitespace-normalised text, the URL, canonical JSON."""
    body = json.dumps(
        {"text": _SPACE.sub(" ", text).strip() if text else None, "url": url, "structured": structured},
        sort_keys=True,
        ensure_ascii=False,
        separators=(",", ":"),
    )
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


def facets_of(args: Any) -> dict[str, Any]:
    """Facets from args.facets plus the top-level subject/location/topic shorthands."""
    facets = args.facets.model_dump(mode="json", exclude_none=True) if args.facets else {}
    for key in ("subject", "location", "topic"):
        value = getattr(args, key, None)
        if value is not None:
            facets[key] = value
    return facets


def run_encode(ctx: Context, ir: EncodeIR) -> Outcome:
    args = ir.args
    payload = args.payload
    extras = dict(payload.__pydantic_extra__ or {})
    digest = content_hash(payload.text, payload.url, payload.structured)
    fact = payload.fact
    if args.dedupe is not False and fact is None:  # a fact's history decides what a repeat is
        existing = ctx.session.find_duplicate(ctx.tenant, digest, ctx.now)
        if existing is not None:
            return Outcome([existing], {"id": existing, "deduplicated": True})
    text = payload.text
    expire_at = args.expire_at
    record = Record(
        owner=ctx.actor,
        text=text,
        url=payload.url,
        structured=payload.structured,
        payload_meta=extras,
        kind=args.type,
        tags=list(args.tags or ()),
        facets=facets_of(args),
        keywords=keywords(text) if text else [],
        source=args.source if args.source is not None else _str(extras.get("source")),
        content_hash=digest,
        memory_type=args.memory_type,
        category=args.category,
        sensitivity=args.sensitivity or "standard",
        confidence=args.confidence,
        weight=args.weight if args.weight is not None else ctx.config.default_weight,
        expire_at=expire_at,
        on_expire=ctx.config.default_on_expire if expire_at is not None else None,
        auto_frequency=args.auto_frequency,
        next_auto_update_at=args.next_auto_update_at or _next_refresh(ctx, args.auto_frequency),
        **{name: getattr(args, name) for name in PERMISSION_FIELDS},
        embedding_status="pending",
        time=args.time,
    )
    ctx.defer_embedding = bool(args.skip_embedding)
    if fact is not None:
        return encode_fact(ctx, _as_fact(ctx, record, fact, args.time))
    record = ctx.insert(record)
    return Outcome([record.id], {"id": record.id})  # type: ignore[list-item]


def _as_fact(ctx: Context, record: Record, fact: FactPayload, time: datetime | None) -> Record:
    """The record of a typed fact: true from its valid_from, else the episode's time, else now; a
    semantic memory of kind `fact` unless told otherwise; its subject is also its subject facet."""
    return record.copy(
        subject=fact.subject,
        attribute=fact.attribute,
        value=fact.value,
        valid_from=fact.valid_from or time or ctx.now,
        source=fact.source if fact.source is not None else record.source,
        kind=record.kind or "fact",
        memory_type=record.memory_type or "semantic",
        facets={"subject": fact.subject, **record.facets},
    )


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _next_refresh(ctx: Context, frequency: str | None):
    """auto_frequency as an ISO duration schedules the next refresh from now (RRULEs: see reminders)."""
    if frequency is None or not frequency.startswith("P"):
        return None
    return add_duration(ctx.now, parse_duration(frequency))
