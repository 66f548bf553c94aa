"""Encode: add one record (or return the identical one that exists)."""

from __future__ import annotations

import hashlib
from datetime import datetime
from json.encoder import encode_basestring as _json_string  # type: ignore[attr-defined]
from typing import Any

from memql.engine.access import proposes
from memql.engine.context import Context
from memql.engine.facts import encode_fact
from memql.engine.governance import classify
from memql.engine.interpret import interpret_encode
from memql.engine.targets import canonical_id
from memql.engine.verbs.base import Outcome, runner
from memql.engine.verbs.keyed import put_keyed
from memql.index.text import texts_at_paths
from memql.lang.encoding import compact_json
from memql.lang.facts import FactPayload
from memql.lang.fields import Facets
from memql.lang.ops import EncodeIR
from memql.lang.time import add_duration, format_instant, parse_duration
from memql.ports.record import PERMISSION_FIELDS, Record
from memql.services import keywords

DERIVED_FROM = "derived_from"  # the link an Encode's derived_from makes: new record -> each source
DUPLICATE_CANDIDATES = 20  # live records with the same content an Encode compares, oldest first


# one encoder for every Encode (json.dumps with options builds a new one per call)
_canonical_json = compact_json(sort_keys=True)


def content_hash(text: str | None, url: str | None, structured: dict[str, Any] | None) -> str:
    """Identity of content for de-duplication: whitespace-normalised text, the URL, canonical JSON."""
    # str.split() splits at exactly what `\s` matches: runs of whitespace become one space, ends trimmed
    if url is None and structured is None:  # text alone, as nearly every Encode: the same JSON, spelled out
        spelled = _json_string(" ".join(text.split())) if text else "null"
        body = f'{{"structured":null,"text":{spelled},"url":null}}'
    else:
        body = _canonical_json(
            {"text": " ".join(text.split()) if text else None, "url": url, "structured": structured}
        )
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


def facets_of(args: Any) -> dict[str, Any]:
    """Facets from args.facets plus the top-level subject/location/topic shorthands."""
    facets = _facet_values(args.facets) if args.facets else {}
    for key in ("subject", "location", "topic"):
        value = getattr(args, key, None)
        if value is not None:
            facets[key] = value
    return facets


_TYPED_FACETS = tuple(Facets.model_fields)  # subject, time, location, topic: in their order


def _facet_values(given: Facets) -> dict[str, Any]:
    """`given.model_dump(mode="json", exclude_none=True)`, read straight from its fields when it holds
    only the typed ones (as nearly every Encode's facets do: it runs per record written)."""
    if given.__pydantic_extra__:
        return given.model_dump(mode="json", exclude_none=True)
    values = given.__dict__
    facets = {name: values[name] for name in _TYPED_FACETS if values[name] is not None}
    if "time" in facets:
        facets["time"] = format_instant(facets["time"])
    return facets


@runner("Encode")
def run_encode(ctx: Context, ir: EncodeIR) -> Outcome:
    sources = _derived_sources(ctx, ir)  # checked before anything is written
    outcome = _encode(ctx, ir)
    for affected in outcome.affected_ids if sources else ():
        for source in sources:
            if source != affected:
                ctx.link(affected, source, DERIVED_FROM)
    return outcome


def _derived_sources(ctx: Context, ir: EncodeIR) -> list[str]:
    """The records `derived_from` names: each one must exist and be readable by the session."""
    derived = ir.args.derived_from
    if derived is None:
        return []
    if derived.from_step is not None:
        if derived.from_step >= len(ctx.step_ids):
            raise ctx.refuse(
                "workflow.ref_outside",
                "derived_from.from_step refers to a workflow step, but there is none",
                "args",
                "derived_from",
                "from_step",
            )
        ids = list(ctx.step_ids[derived.from_step])
        where: tuple[str, ...] = ("args", "derived_from", "from_step")
    else:
        ids = list(dict.fromkeys(canonical_id(i) for i in derived.ids or ()))
        where = ("args", "derived_from", "ids")
    found = {i: r for i, r in ctx.session.get(ctx.tenant, ids).items() if ctx.may_read(r)}
    missing = [i for i in ids if i not in found]
    if missing:
        raise ctx.refuse(
            "target.not_found", f"derived_from: no record {missing[0]} this session may read", *where
        )
    return ids


def _encode(ctx: Context, ir: EncodeIR) -> Outcome:
    """A new record; or, for an agent below read_write consent or when `proposal` is asked, a pending
    proposal: no owner until a user approves it, the proposer as `agent`, on expiry status expired."""
    args = ir.args
    record, proposal = encoded_record(ctx, ir)
    if args.payload.fact is not None and not proposal:  # a fact's history decides what a repeat is
        ctx.defer_embedding = bool(args.skip_embedding)
        return encode_fact(ctx, record)
    # a proposed fact stays out of its key's history (pending is not live) until a user approves it:
    # the approval places it (engine/facts.py approve_fact)
    if args.key is not None:  # one live record per (namespace, key): insert or update it
        ctx.defer_embedding = bool(args.skip_embedding)
        given = {_FIELD_OF.get(name, name) for name in args.model_fields_set} & _KEYED_FIELDS
        return put_keyed(ctx, record, args.namespace, args.key, given)  # type: ignore[arg-type]
    if args.dedupe is not False:
        existing = _duplicate(ctx, record)
        if existing is not None:
            return Outcome([existing.id], duplicate_data(existing))  # type: ignore[list-item]
    ctx.defer_embedding = bool(args.skip_embedding)
    record = ctx.insert(record)
    return Outcome([record.id], inserted_data(record.id, proposal))  # type: ignore[list-item, arg-type]


def batchable(ir: EncodeIR) -> bool:
    """Whether an Encode only inserts a record or returns its duplicate, so that a bulk write may insert
    it with others (engine/bulk.py): not a typed fact, a key or a derived record, which read and write
    what earlier steps left."""
    args = ir.args
    return args.payload.fact is None and args.key is None and args.derived_from is None


def duplicate_data(existing: Record) -> dict[str, Any]:
    data: dict[str, Any] = {"id": existing.id, "deduplicated": True}
    if existing.status == "pending":
        data["proposal"] = True
    return data


def inserted_data(record_id: str, proposal: bool) -> dict[str, Any]:
    data: dict[str, Any] = {"id": record_id}
    if proposal:
        data["proposal"] = True
    return data


def encoded_record(ctx: Context, ir: EncodeIR) -> tuple[Record, bool]:
    """The record an Encode stores (a typed fact's record for a fact), and whether it is a proposal;
    refuses what the session may not encode. Nothing is written."""
    args = ir.args
    payload = args.payload
    extras = dict(payload.__pydantic_extra__ or {})
    structured = payload.structured if payload.structured is not None else payload.document
    digest = content_hash(payload.text, payload.url, structured)
    fact = payload.fact
    proposal = proposes(ctx, args.proposal)
    if args.key is not None and ctx.role == "agent" and ctx.consent == "propose":
        # an agent that may only propose has no key to write (docs/engine.md, Who may do what); one with
        # read consent is refused an existing key's update by the Update's consent check (put_keyed)
        raise ctx.refuse(
            "encode.key",
            f"agent {ctx.actor} proposes records (consent {ctx.consent!r}): a proposal has no key",
            "args",
            "key",
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
    facets = facets_of(args)
    derived: dict[str, Any] = {}
    if args.interpret and payload.text is not None:  # fills only what the caller left out
        interpretation = interpret_encode(ctx, args, facets)
        facets.update(interpretation.facets)
        derived = interpretation.fields
    category = args.category if args.category is not None else derived.get("category")
    sensitivity = classify(ctx, category, args.sensitivity or derived.get("sensitivity"), None, ("args",))
    text = payload.text
    index_paths = None if args.index is None else ([] if args.index is False else list(args.index))
    if index_paths is not None:  # the indexes cover the text at these paths of the document
        text = "\n".join(texts_at_paths(structured, index_paths)) or None
        digest = content_hash(text, payload.url, structured)  # the embedding cache keys on the text
    expire_at = args.expire_at
    if args.ttl is not None:
        expire_at = add_duration(ctx.now, parse_duration(args.ttl))
    on_expire = ("none" if proposal else ctx.config.default_on_expire) if expire_at is not None else None
    record = Record(
        owner=None if proposal else ctx.actor,
        agent=ctx.actor if proposal or ctx.role == "agent" else None,
        status="pending" if proposal else "active",
        text=text,
        url=payload.url,
        structured=structured,
        payload_meta=extras,
        ttl=args.ttl,
        index_paths=index_paths,
        kind=args.type,
        tags=list(args.tags or ()),
        facets=facets,
        keywords=keywords(text) if text else [],
        source=args.source if args.source is not None else _str(extras.get("source")),
        content_hash=digest,
        memory_type=args.memory_type or derived.get("memory_type"),
        category=category,
        sensitivity=sensitivity,
        confidence=args.confidence,
        weight=args.weight if args.weight is not None else ctx.config.default_weight,
        expire_at=expire_at,
        on_expire=on_expire,
        auto_frequency=args.auto_frequency,
        next_auto_update_at=args.next_auto_update_at or _next_refresh(ctx, args.auto_frequency),
        **{name: getattr(args, name) for name in PERMISSION_FIELDS},
        embedding_status="pending",
        time=args.time or _instant(derived.get("time")),
    )
    if fact is not None:
        record = _as_fact(ctx, record, fact, args.time)
    return record, proposal


# the Encode args an Encode of an existing key also writes to the record holding it, as record fields
_FIELD_OF = {"type": "kind"}
_KEYED_FIELDS = frozenset(
    {
        "kind",
        "tags",
        "facets",
        "time",
        "weight",
        "memory_type",
        "category",
        "sensitivity",
        "confidence",
        "source",
        *PERMISSION_FIELDS,
    }
)


def _duplicate(ctx: Context, record: Record) -> Record | None:
    """The record an identical Encode returns instead of storing `record`: the oldest live one with the
    same content that the session may read (the id of one it may not would tell it what that record
    says) and that is the same memory in every other respect (`same_memory`). None: store a new one."""
    digest = record.content_hash or ""
    ids = ctx.session.find_duplicate(ctx.tenant, digest, ctx.now, DUPLICATE_CANDIDATES)
    if not ids:  # (most Encodes: nothing to read)
        return None
    found = ctx.session.get(ctx.tenant, ids)
    for candidate in (found[i] for i in ids if i in found):
        if ctx.may_read(candidate) and same_memory(candidate, record):
            return candidate
    return None


def same_memory(existing: Record, new: Record) -> bool:
    """Whether `existing` already is the record an Encode would store as `new`: equal in every field a
    reader can filter on or that governs it, so that returning it discards nothing the Encode said."""
    return _identity(existing) == _identity(new)


def _identity(record: Record) -> tuple[Any, ...]:
    """Content (its hash), facets, tags (a set), type, memory type, category, sensitivity, owner, agent
    and status (a proposal only matches the same agent's pending proposal), every permission field (lists
    as sets), source, payload extras, time and expiry. Weight and confidence are left out: Promote and
    Demote change them, and a re-encoded memory is still the same memory."""
    permissions = tuple(
        frozenset(value or ()) if name.endswith("list") else value
        for name in PERMISSION_FIELDS
        for value in [getattr(record, name)]
    )
    return (
        record.content_hash,
        _canonical(record.facets),
        frozenset(record.tags),
        record.kind,
        record.memory_type,
        record.category,
        record.sensitivity,
        record.owner,
        record.agent,
        record.status,
        permissions,
        record.source,
        _canonical(record.payload_meta),
        record.time,
        record.expire_at,
    )


def _canonical(value: Any) -> str:
    return _canonical_json(value or {})


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


def _instant(value: str | None) -> datetime | None:
    return None if value is None else datetime.fromisoformat(value)


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _next_refresh(ctx: Context, frequency: str | None):
    """auto_frequency as an ISO duration schedules the next refresh from now (RRULEs: see reminders)."""
    if frequency is None or not frequency.startswith("P"):
        return None
    return add_duration(ctx.now, parse_duration(frequency))
