"""Encode: add one record (or return the identical one that exists)."""

from __future__ import annotations

import hashlib
import json
import re
from datetime import datetime
from typing import Any

from memql.engine.access import proposes
from memql.engine.context import Context
from memql.engine.facts import encode_fact
from memql.engine.governance import classify
from memql.engine.verbs.base import Outcome, runner
from memql.lang.facts import FactPayload
from memql.lang.ops import EncodeIR
from memql.lang.time import add_duration, parse_duration
from memql.ports.record import PERMISSION_FIELDS, Record
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


@runner("Encode")
def run_encode(ctx: Context, ir: EncodeIR) -> Outcome:
    """A new record; or, for an agent below read_write consent or when `proposal` is asked, a pending
    proposal: no owner until a user approves it, the proposer as `agent`, on expiry status expired."""
    args = ir.args
    payload = args.payload
    extras = dict(payload.__pydantic_extra__ or {})
    digest = content_hash(payload.text, payload.url, payload.structured)
    fact = payload.fact
    proposal = proposes(ctx, args.proposal)
    if proposal and fact is not None:  # approving would have to rewrite the fact's history: not yet
        raise ctx.refuse(
            "proposal.fact",
            "a typed fact cannot be proposed; propose it as text, or encode it with read_write consent",
            "args",
            "payload",
            "structured",
        )
    if proposal:
        given = [name for name in PERMISSION_FIELDS if getattr(args, name) is not None]
        if given:  # who reads and writes it is for its owner to say: whoever approves it
            raise ctx.refuse(
                "permission.owner",
                f"a proposal has no owner yet: {', '.join(given)} are set when it is approved",
                "args",
                given[0],
            )
    sensitivity = classify(ctx, args.category, args.sensitivity, None, ("args",))
    if args.dedupe is not False and fact is None:  # a fact's history decides what a repeat is
        existing = _duplicate(ctx, digest)
        if existing is not None:
            return Outcome([existing], {"id": existing, "deduplicated": True})
    text = payload.text
    expire_at = args.expire_at
    on_expire = ("none" if proposal else ctx.config.default_on_expire) if expire_at is not None else None
    record = Record(
        owner=None if proposal else ctx.actor,
        agent=ctx.actor if proposal or ctx.role == "agent" else None,
        status="pending" if proposal else "active",
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
        sensitivity=sensitivity,
        confidence=args.confidence,
        weight=args.weight if args.weight is not None else ctx.config.default_weight,
        expire_at=expire_at,
        on_expire=on_expire,
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
    data: dict[str, Any] = {"id": record.id}
    if proposal:
        data["proposal"] = True
    return Outcome([record.id], data)  # type: ignore[list-item]


def _duplicate(ctx: Context, digest: str) -> str | None:
    """The identical record to return instead of a new one — only one the session may read: answering
    with the id of a record it may not see would tell it what that record says."""
    existing = ctx.session.find_duplicate(ctx.tenant, digest, ctx.now)
    if existing is None:
        return None
    record = ctx.session.get(ctx.tenant, [existing]).get(existing)
    return existing if record is not None and ctx.may_read(record) else None


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
