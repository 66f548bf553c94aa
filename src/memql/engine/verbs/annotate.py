"""Update and Label: change fields in place; change tags and facets."""

from __future__ import annotations

from typing import Any

from memql.engine.access import may_govern
from memql.engine.context import Context
from memql.engine.facts import encode_fact
from memql.engine.governance import check_lock, check_writable, classify, lowered
from memql.engine.interpret import INFERRED_TAGS, infer_tags
from memql.engine.targets import resolve
from memql.engine.verbs.base import Outcome, runner
from memql.engine.verbs.encode import content_hash
from memql.errors import Refusal
from memql.lang.ops import LabelIR, UpdateIR
from memql.lang.time import add_duration, parse_duration
from memql.ports.record import PERMISSION_FIELDS, Record
from memql.services import keywords

# Update.set fields copied onto the record as they are (language name -> record field)
_DIRECT = {
    "time": "time",
    "type": "kind",
    "weight": "weight",
    "auto_frequency": "auto_frequency",
    "expire_at": "expire_at",
    "next_auto_update_at": "next_auto_update_at",
    "read_perm_level": "read_perm_level",
    "write_perm_level": "write_perm_level",
    "read_whitelist": "read_whitelist",
    "read_blacklist": "read_blacklist",
    "write_whitelist": "write_whitelist",
    "write_blacklist": "write_blacklist",
    "tags": "tags",
    "memory_type": "memory_type",
    "category": "category",
    "confidence": "confidence",
    "owner": "owner",
}
GOVERNING = frozenset({*PERMISSION_FIELDS, "owner"})  # who reads and writes the record: its owner's say


@runner("Update")
def run_update(ctx: Context, ir: UpdateIR) -> Outcome:
    given = ir.args.set
    fields = given.model_fields_set
    affected = []
    for record, _ in resolve(ctx, ir.target, write=True):  # type: ignore[arg-type]
        check_writable(ctx, "Update", record)
        appending = fields == {"text"} and record.text is not None and given.text.startswith(record.text)
        check_lock(ctx, "Update", record, appending=appending)
        changes: dict[str, Any] = {_DIRECT[k]: getattr(given, k) for k in fields if k in _DIRECT}
        facets = dict(record.facets)
        if given.facets is not None:
            facets.update(given.facets.model_dump(mode="json", exclude_none=True))
        for key in ("subject", "location", "topic"):
            if key in fields:
                facets[key] = getattr(given, key)
        changes["facets"] = facets
        if "category" in fields or "sensitivity" in fields:
            changes["sensitivity"] = classify(ctx, given.category, given.sensitivity, record, ("args", "set"))
        if "status" in fields:
            changes = {**_decide(ctx, record, given.status), **changes}  # type: ignore[arg-type]
        # read governance: who reads (owner, permission fields) and how protected the record is — lowering
        # its sensitivity or its category's sensitivity floor would show it to lower clearances
        changed = sorted(fields & GOVERNING)
        lowers = []
        if "sensitivity" in changes:
            new_category = given.category if "category" in fields else record.category
            lowers = lowered(ctx, record, new_category, changes["sensitivity"])
        if (changed or lowers) and not may_govern(ctx, record):
            what = [f"change {', '.join(changed)}"] if changed else []
            what += [f"lower its {' or '.join(lowers)}"] if lowers else []
            raise ctx.refuse(
                "permission.owner",
                f"record {record.id} "
                + (f"belongs to {record.owner}" if record.owner else "has no owner")
                + f": only {'its owner or an admin' if record.owner else 'a user or an admin'} may "
                + " or ".join(what),
                "args",
                "set",
            )
        if given.text is not None:
            changes.update(
                text=given.text,
                keywords=keywords(given.text),
                embedding_status="pending",
                content_hash=content_hash(given.text, record.url, record.structured),
            )
        if given.ttl is not None:
            changes["expire_at"] = add_duration(ctx.now, parse_duration(given.ttl))
        if changes.get("expire_at") is not None and record.on_expire is None:
            changes["on_expire"] = ctx.config.default_on_expire
        updated = ctx.update(record, **changes)
        if changes.get("status") == "active" and None not in (updated.subject, updated.attribute):
            _approve_fact(ctx, updated)
        affected.append(record.id)
    return Outcome(affected, {"updated": len(affected)})


def _approve_fact(ctx: Context, record: Record) -> None:
    """An approved typed fact takes its place in its key's history, as its Encode would have; what would
    refuse that Encode (a lock, a fact the approver may not read or write) refuses the approval."""
    try:
        encode_fact(ctx, record)
    except Refusal as refusal:
        message = f"approving record {record.id}: {refusal.message}"
        raise ctx.refuse(refusal.rule, message, "args", "set", "status") from None


def _decide(ctx: Context, record: Record, status: str) -> dict[str, Any]:
    """A user's or an admin's decision on a pending proposal: active approves it (the approver becomes
    its owner, unless it has one), rejected rejects it. No other status moves through Update."""
    if ctx.role not in ("user", "admin"):
        raise ctx.refuse(
            "proposal.approver",
            f"only a user or an admin may decide on proposal {record.id}; this session is an {ctx.role}",
            "args",
            "set",
            "status",
        )
    if record.status != "pending":
        raise ctx.refuse(
            "proposal.transition",
            f"record {record.id} is {record.status}, not a pending proposal: its status cannot be set",
            "args",
            "set",
            "status",
        )
    changes: dict[str, Any] = {"status": status}
    if status == "active" and record.owner is None:
        changes["owner"] = ctx.actor
    return changes


def _unique(tags: list[str]) -> list[str]:
    """Tags without case variants (the first spelling wins)."""
    seen: set[str] = set()
    return [t for t in tags if not (t.casefold() in seen or seen.add(t.casefold()))]  # type: ignore[func-returns-value]


@runner("Label")
def run_label(ctx: Context, ir: LabelIR) -> Outcome:
    args = ir.args
    new_facets = args.facets.model_dump(mode="json", exclude_none=True) if args.facets else {}
    affected = []
    for record, _ in resolve(ctx, ir.target, write=True):  # type: ignore[arg-type]
        check_writable(ctx, "Label", record)
        # under append_only an "add" may only add: not overwrite a facet that has a different value
        adds_only = args.mode == "add" and all(record.facets.get(k, v) == v for k, v in new_facets.items())
        check_lock(ctx, "Label", record, appending=adds_only)
        tags, facets = list(record.tags), dict(record.facets)
        given = list(args.tags or ())
        inferred: dict[str, Any] = {}
        if args.infer:  # read after the checks: a refused record costs no extraction (nor LLM call)
            kept = given if args.mode == "replace" and args.tags is not None else tags + given
            at = record.time or record.created_at or ctx.now
            inferred = infer_tags(ctx, record.text, at, kept)
        if args.mode == "add":
            tags = _unique(tags + given + list(inferred))
            facets.update(new_facets)
        elif args.mode == "replace":
            if args.tags is not None or inferred:
                tags = _unique((given if args.tags is not None else tags) + list(inferred))
            if args.facets is not None:
                facets = new_facets
        else:  # remove: the given tags, and the given facet keys
            gone = {t.casefold() for t in args.tags or ()}
            tags = [t for t in tags if t.casefold() not in gone]
            facets = {k: v for k, v in facets.items() if k not in new_facets}
        if inferred:  # where each inferred tag came from (added to what earlier inferences recorded)
            prior = facets.get(INFERRED_TAGS)
            facets[INFERRED_TAGS] = {**(prior if isinstance(prior, dict) else {}), **inferred}
        ctx.update(record, tags=tags, facets=facets)
        affected.append(record.id)
    return Outcome(affected, {"labelled": len(affected)})
