"""Retrieve and Summarize: ranked rows with explained scores; a summary stored as a derived record."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from memql.engine.access import public
from memql.engine.context import Context
from memql.engine.targets import resolve
from memql.engine.verbs.base import Outcome, runner
from memql.engine.verbs.encode import content_hash
from memql.engine.verbs.keyed import list_namespaces, refresh_ttl
from memql.engine.verbs.read_facts import join_facts
from memql.lang.categories import stricter
from memql.lang.ops import RetrieveIR, SummarizeIR
from memql.lang.ops.read import DEFAULT_INCLUDE
from memql.ports.models import ChatMessage, ChatRequest
from memql.ports.record import PERMISSION_FIELDS, RECORD_FIELDS, Record, namespace_labels
from memql.services import estimate_tokens, keywords, summarize

RECORD_FIELD_NAMES = frozenset(RECORD_FIELDS[1:])  # but `id`, which every read returns
FACT_FIELDS = ("attribute", "value", "valid_from", "valid_to", "evidence")  # and subject, above


def _lock(record: Record, now: datetime) -> dict[str, Any] | None:
    if not record.locked(now):
        return None
    return {
        "mode": record.lock_mode,
        "reason": record.lock_reason,
        "by": record.lock_by,
        "until": record.lock_until,
        "policy": record.lock_policy,
    }


# each field of a result row (record field names as the language spells them), computed only when asked
_FIELDS: dict[str, Callable[[Record, datetime], Any]] = {
    "type": lambda r, _: r.kind,
    "time": lambda r, _: r.time or r.created_at,
    "subject": lambda r, _: r.subject if r.subject is not None else r.facets.get("subject"),
    "location": lambda r, _: r.facets.get("location"),
    "topic": lambda r, _: r.facets.get("topic"),
    "lock": _lock,
    "namespace": lambda r, _: None if r.namespace is None else list(namespace_labels(r.namespace)),
}
for _name in (
    *("id", "text", "tags", "facets", "source", "weight", "status", "owner", "agent", "structured"),
    *("keywords", "created_at", "updated_at", "expire_at", "on_expire", "memory_type", "category"),
    *("sensitivity", "confidence", "url", "payload_meta", "visits", "last_access_at"),
    *PERMISSION_FIELDS,
    *FACT_FIELDS,
    *("schema_version", "key", "ttl"),
):
    _FIELDS.setdefault(_name, lambda r, _, name=_name: getattr(r, name, None))


# the record fields each include field reads (its entry of _FIELDS; a name of its own otherwise): a search
# for a Retrieve reads only these of the records it returns (tests/engine pin them against whole records)
_READS: dict[str, tuple[str, ...]] = {
    "type": ("kind",),
    "time": ("time", "created_at"),
    "subject": ("subject", "facets"),
    "location": ("facets",),
    "topic": ("facets",),
    "lock": ("lock_mode", "lock_reason", "lock_by", "lock_until", "lock_policy"),
    "explain": ("weight",),
    "score": (),
}


def reads(include: tuple[str, ...] | list[str]) -> frozenset[str]:
    """The record fields that rows of these include fields read."""
    return frozenset(f for name in include for f in _READS.get(name, (name,)) if f in RECORD_FIELD_NAMES)


def row(
    record: Record,
    score: float | None,
    include: tuple[str, ...] | list[str],
    now: datetime,
    explain: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A record as a result row with the requested fields (record field names as the language spells them).
    `explain` is the ranking's account of the score (see engine/ranking.py)."""
    out: dict[str, Any] = {}
    for name in include:
        if name == "score":
            out[name] = score
        elif name == "explain":
            if explain is None and score is not None:
                explain = {"bm25": round(score, 6), "weight": record.weight}
            out[name] = explain
        else:
            field = _FIELDS.get(name)
            out[name] = None if field is None else field(record, now)
    return out


@runner("Retrieve")
def run_retrieve(ctx: Context, ir: RetrieveIR) -> Outcome:
    include = ir.args.include or list(DEFAULT_INCLUDE)
    as_of = ir.args.as_of
    if ir.args.namespaces is not None:  # the distinct namespaces of the target's records, not rows
        return list_namespaces(ctx, ir.target, ir.args.namespaces)  # type: ignore[arg-type]
    ctx.explain = "explain" in include
    if as_of is None and not ir.args.refresh_ttl and ir.args.facts is None:  # rows alone read the records
        ctx.read_fields = reads(include)
    hits = resolve(ctx, ir.target, write=False, as_of=as_of, offset=ir.args.offset or 0)  # type: ignore[arg-type]
    if ir.args.refresh_ttl and as_of is None:  # rows show the renewed expiry
        renewed = refresh_ttl(ctx, [r for r, _ in hits])
        hits = [(record, score) for record, (_, score) in zip(renewed, hits, strict=True)]
    rows = [row(r, s, include, ctx.now, ctx.explanations.get(r.id)) for r, s in hits]  # type: ignore[arg-type]
    if as_of is None:  # heat: a read is a visit (bookkeeping, not an audited change)
        ctx.session.touch(ctx.tenant, [r.id for r, _ in hits], ctx.now)  # type: ignore[misc]
    data: dict[str, Any] = {"rows": rows, "count": len(rows)}
    if as_of is not None:
        data["as_of"] = as_of
    if ir.args.facts is not None:  # beside the hits, the typed facts they and the query are about
        data["facts"] = join_facts(ctx, ir, [r for r, _ in hits], rows, as_of)  # type: ignore[misc]
    return Outcome([r.id for r, _ in hits], data)  # type: ignore[misc]


@runner("Summarize")
def run_summarize(ctx: Context, ir: SummarizeIR) -> Outcome:
    args = ir.args
    sources = [r for r, _ in resolve(ctx, ir.target, write=False)]  # type: ignore[arg-type]
    sources.sort(key=lambda r: (r.time or r.created_at, int(r.id)))  # type: ignore[arg-type, return-value]
    texts = [r.text for r in sources if r.text]
    if not texts:
        ctx.warn("target.empty", "nothing to summarize: the target matched no record with text", "target")
        return Outcome([], {"summary": "", "source_ids": []})
    summary = _llm_summary(ctx, texts, args.max_tokens, args.focus) or summarize(
        texts, args.max_tokens, args.focus
    )
    # a derived record: lineage lives in the `summarizes` links, not in copied tags (which would make
    # later tag-filtered writes touch the summary as if it were one of its sources). It is never more
    # readable than its sources: their strictest sensitivity, and private to the summarizer unless
    # every source is public
    derived = ctx.insert(
        Record(
            text=summary,
            kind="summary",
            owner=ctx.actor,
            agent=ctx.actor if ctx.role == "agent" else None,
            keywords=keywords(summary),
            content_hash=content_hash(summary, None, None),
            facets={"focus": args.focus} if args.focus else {},
            embedding_status="pending",
            weight=ctx.config.default_weight,
            sensitivity=stricter(*(r.sensitivity for r in sources)),
            read_perm_level=None if all(public(r) for r in sources) else "private",
        )
    )
    for r in sources:
        ctx.link(derived.id, r.id, "summarizes")  # type: ignore[arg-type]
    return Outcome(
        [derived.id],
        {
            "id": derived.id,
            "summary": summary,
            "source_ids": [r.id for r in sources],  # type: ignore[list-item]
            "tokens": estimate_tokens(summary),
        },
    )


def _llm_summary(ctx: Context, texts: list[str], max_tokens: int, focus: str | None) -> str | None:
    if ctx.llm is None:
        return None
    instruction = f"Summarize the notes in at most {max_tokens} tokens, in the language of the notes." + (
        f" Focus: {focus}." if focus else ""
    )
    reply = ctx.llm.chat(
        ChatRequest(
            messages=[ChatMessage("system", instruction), ChatMessage("user", "\n\n".join(texts))],
            max_tokens=max_tokens,
        )
    )
    return reply.strip() or None
