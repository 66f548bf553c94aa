"""Typed builders for internal callers: one function per verb, returning the IR in wire form.

    >>> from memql.lang import build
    >>> build.update("7", text="Moved to 3pm", comment="fix")
    {'op': 'Update', 'target': {'ids': ['7']}, 'args': {'set': {'text': 'Moved to 3pm'}}, '_comment': 'fix'}

A builder only arranges its parameters into the IR's shape — a plain dict that `Executor.execute`
validates like any other program. It never checks a value and never raises on one: a bad value reaches
the validator, which answers with diagnostics in the ExecutionResult (the Python API's promise for bad
input, DESIGN §3). Parameters left None are left out, so the language's defaults apply.

A verb's target is its first parameter: a target dict (`by_ids`, `by_filter`, `by_search`,
`from_step`, `all_records`) or record ids (one id, or a list). Every builder takes `meta` (the IR's
meta object) and `comment` (its `_comment`, a note for the audit log).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

Program = dict[str, Any]  # an IR or a workflow in wire form (JSON-shaped), not yet validated
Target = dict[str, Any]  # an IR's target in wire form
Ids = str | Iterable[str]
TargetOrIds = Target | Ids


# --- targets ----------------------------------------------------------------------------------------


def listed(values: Any) -> Any:
    """An iterable (not a string or an object) as a list; anything else as given (for the validator)."""
    if isinstance(values, Iterable) and not isinstance(values, str | Mapping | bytes):
        return list(values)
    return values


def id_list(ids: Any) -> Any:
    """One id or an iterable of ids as a list of strings; anything else as given (for the validator)."""
    if isinstance(ids, str):
        return [ids]
    listed_ids = listed(ids)
    return [str(i) for i in listed_ids] if isinstance(listed_ids, list) else ids


def by_ids(ids: Ids) -> Target:
    return {"ids": id_list(ids)}


def by_filter(conditions: Mapping[str, Any] | None = None, /, **more: Any) -> Target:
    """A filter target: `conditions` and/or keyword conditions (has_tags=[...], status="any", limit=...)."""
    return {"filter": {**(conditions or {}), **more}}


def by_search(
    query: str,
    *,
    k: int | None = None,
    order_by: str | None = None,
    overrides: Mapping[str, Any] | None = None,
    limit: int | None = None,
    filter: Mapping[str, Any] | None = None,
) -> Target:
    """A search target: `overrides` (alpha, recency, heat, mmr, ...) with `k` and `order_by` on top;
    `limit` caps the records acted on; `filter` narrows the search."""
    search: dict[str, Any] = {"intent": {"query": query}}
    chosen = {**(overrides or {}), **_present(k=k, order_by=order_by)}
    if chosen:
        search["overrides"] = chosen
    if limit is not None:
        search["limit"] = limit
    target: Target = {"search": search}
    if filter is not None:
        target["filter"] = filter
    return target


def from_step(step: int) -> Target:
    """The records an earlier step of the same workflow affected."""
    return {"from_step": step}


def all_records() -> Target:
    """Every record in scope (a write needs meta.confirmation or meta.dry_run)."""
    return {"all": True}


def read_target(
    query: str | None = None,
    *,
    ids: Ids | None = None,
    filter: Mapping[str, Any] | None = None,
    k: int | None = None,
    order_by: str | None = None,
    overrides: Mapping[str, Any] | None = None,
    limit: int | None = None,
) -> Target:
    """A read's target: `ids` when given, else a search for `query` and/or `filter`, else every record
    the default filter admits."""
    if ids is not None:
        return by_ids(ids)
    target: Target = {}
    if query is not None:
        target.update(by_search(query, k=k, order_by=order_by, overrides=overrides, limit=limit))
    if filter is not None:
        target["filter"] = filter
    return target or {"filter": {}}


# --- the twelve verbs -------------------------------------------------------------------------------


def encode(
    text: str | None = None,
    *,
    url: str | None = None,
    structured: Mapping[str, Any] | None = None,
    payload: Mapping[str, Any] | None = None,
    type: str | None = None,
    tags: Sequence[str] | None = None,
    facets: Mapping[str, Any] | None = None,
    time: str | None = None,
    weight: float | None = None,
    memory_type: str | None = None,
    category: str | None = None,
    sensitivity: str | None = None,
    confidence: float | None = None,
    source: str | None = None,
    dedupe: bool | None = None,
    proposal: bool | None = None,
    skip_embedding: bool | None = None,
    meta: Mapping[str, Any] | None = None,
    comment: str | None = None,
    **fields: Any,
) -> Program:
    """Encode: the payload is `text`, `url` or `structured` (exactly one, as the language requires),
    with any further payload keys from `payload` (context, a2p metadata, ...). `fields` are the other
    record fields (subject, location, expire_at, read_perm_level, ...)."""
    content = {**_present(text=text, url=url, structured=structured), **(payload or {})}
    args = {
        "payload": content,
        "type": type,
        "tags": tags,
        "facets": facets,
        "time": time,
        "weight": weight,
        "memory_type": memory_type,
        "category": category,
        "sensitivity": sensitivity,
        "confidence": confidence,
        "source": source,
        "dedupe": dedupe,
        "proposal": proposal,
        "skip_embedding": skip_embedding,
        **fields,
    }
    return _ir("Encode", None, args, meta, comment)


def retrieve(
    query: str | None = None,
    *,
    ids: Ids | None = None,
    filter: Mapping[str, Any] | None = None,
    target: Target | None = None,
    k: int | None = None,
    limit: int | None = None,
    include: Sequence[str] | None = None,
    as_of: str | None = None,
    order_by: str | None = None,
    overrides: Mapping[str, Any] | None = None,
    facts: str | None = None,
    offset: int | None = None,
    refresh_ttl: bool | None = None,
    meta: Mapping[str, Any] | None = None,
    comment: str | None = None,
) -> Program:
    """Retrieve by `ids`, by a search for `query` (k, order_by, overrides, limit shape it), by `filter`,
    or by a `target` built beforehand; `include` names the fields of each row, `as_of` reads the past,
    `facts` ("current" or "history") joins the typed facts the query names, `offset` skips that many
    ordered results, `refresh_ttl` renews each returned record's time to live."""
    where = (
        target
        if target is not None
        else read_target(
            query, ids=ids, filter=filter, k=k, order_by=order_by, overrides=overrides, limit=limit
        )
    )
    args = {"include": listed(include), "as_of": as_of, "facts": facts}
    args |= {"offset": offset, "refresh_ttl": refresh_ttl}
    return _ir("Retrieve", where, args, meta, comment)


def summarize(
    query: str | None = None,
    *,
    ids: Ids | None = None,
    filter: Mapping[str, Any] | None = None,
    target: Target | None = None,
    focus: str | None = None,
    max_tokens: int | None = None,
    meta: Mapping[str, Any] | None = None,
    comment: str | None = None,
) -> Program:
    where = target if target is not None else read_target(query, ids=ids, filter=filter)
    return _ir("Summarize", where, {"focus": focus, "max_tokens": max_tokens}, meta, comment)


def update(
    target: TargetOrIds, *, meta: Mapping[str, Any] | None = None, comment: str | None = None, **fields: Any
) -> Program:
    """Update: `fields` are the `set` (text, tags, status, memory_type, ...), kept as given."""
    return _ir("Update", _target(target), {"set": fields}, meta, comment)


def label(
    target: TargetOrIds,
    tags: Sequence[str] | None = None,
    *,
    facets: Mapping[str, Any] | None = None,
    mode: str | None = None,
    infer: bool | None = None,
    meta: Mapping[str, Any] | None = None,
    comment: str | None = None,
) -> Program:
    """Label: `infer` also adds tags inferred from each record's text (docs/language.md, Interpretation)."""
    args = {"tags": tags, "facets": facets, "mode": mode, "infer": infer}
    return _ir("Label", _target(target), args, meta, comment)


def promote(
    target: TargetOrIds,
    *,
    weight: float | None = None,
    weight_delta: float | None = None,
    remind: Mapping[str, Any] | None = None,
    reason: str | None = None,
    meta: Mapping[str, Any] | None = None,
    comment: str | None = None,
) -> Program:
    """Promote: `remind` is {"rrule": ..., "until"?: ...}."""
    args = {"weight": weight, "weight_delta": weight_delta, "remind": remind, "reason": reason}
    return _ir("Promote", _target(target), args, meta, comment)


def demote(
    target: TargetOrIds,
    *,
    weight: float | None = None,
    weight_delta: float | None = None,
    archive: bool | None = None,
    reason: str | None = None,
    meta: Mapping[str, Any] | None = None,
    comment: str | None = None,
) -> Program:
    args = {"weight": weight, "weight_delta": weight_delta, "archive": archive, "reason": reason}
    return _ir("Demote", _target(target), args, meta, comment)


def merge(
    target: TargetOrIds,
    *,
    primary_id: str | None = None,
    soft_delete_children: bool | None = None,
    consolidated_from: Sequence[str] | None = None,
    skip_reembedding: bool | None = None,
    strategy: str | None = None,
    meta: Mapping[str, Any] | None = None,
    comment: str | None = None,
) -> Program:
    args = {
        "strategy": strategy,
        "primary_id": primary_id,
        "soft_delete_children": soft_delete_children,
        "skip_reembedding": skip_reembedding,
        "consolidated_from": listed(consolidated_from),
    }
    return _ir("Merge", _target(target), args, meta, comment)


def delete(
    target: TargetOrIds,
    *,
    soft: bool | None = None,
    reason: str | None = None,
    older_than: str | None = None,
    time_range: Mapping[str, Any] | None = None,
    meta: Mapping[str, Any] | None = None,
    comment: str | None = None,
) -> Program:
    """Delete: `soft=False` is a hard delete (it needs meta.confirmation)."""
    args = {"older_than": older_than, "time_range": time_range, "soft": soft, "reason": reason}
    return _ir("Delete", _target(target), args, meta, comment)


def split(
    target: TargetOrIds,
    *,
    strategy: str | None = None,
    params: Mapping[str, Any] | None = None,
    inherit_all: bool | None = None,
    meta: Mapping[str, Any] | None = None,
    comment: str | None = None,
) -> Program:
    """Split: `params` is keyed by strategy ({"by_chunks": {"num_chunks": 3}})."""
    args = {"strategy": strategy, "params": params, "inherit_all": inherit_all}
    return _ir("Split", _target(target), args, meta, comment)


def lock(
    target: TargetOrIds,
    *,
    mode: str | None = None,
    reason: str | None = None,
    policy: Mapping[str, Any] | None = None,
    meta: Mapping[str, Any] | None = None,
    comment: str | None = None,
) -> Program:
    """Lock: `mode` read_only (the default), append_only, or unlock."""
    return _ir("Lock", _target(target), {"mode": mode, "reason": reason, "policy": policy}, meta, comment)


def expire(
    target: TargetOrIds,
    *,
    ttl: str | None = None,
    until: str | None = None,
    on_expire: str | None = None,
    meta: Mapping[str, Any] | None = None,
    comment: str | None = None,
) -> Program:
    """Expire: a horizon (`ttl`, an ISO-8601 duration, or `until`, an instant) and `on_expire`."""
    return _ir("Expire", _target(target), {"ttl": ttl, "until": until, "on_expire": on_expire}, meta, comment)


# --- the system verbs (lang/ops/housekeeping.py) ---------------------------------------------------


def sweep(*, meta: Mapping[str, Any] | None = None, comment: str | None = None) -> Program:
    """Sweep: apply each expired record's on_expire; purge soft deletions past the recovery window."""
    return _ir("Sweep", None, {}, meta, comment)


def remind(
    *, advance: bool | None = None, meta: Mapping[str, Any] | None = None, comment: str | None = None
) -> Program:
    """Remind: the reminders due now; with `advance`, schedule each one's next occurrence."""
    return _ir("Remind", None, {"advance": advance}, meta, comment)


def restore(
    target: TargetOrIds, *, meta: Mapping[str, Any] | None = None, comment: str | None = None
) -> Program:
    """Restore: bring back one soft-deleted record within the recovery window."""
    return _ir("Restore", _target(target), {}, meta, comment)


def workflow(
    steps: Iterable[Program], *, name: str | None = None, meta: Mapping[str, Any] | None = None
) -> Program:
    """A workflow of steps, run in one transaction."""
    program: Program = {}
    if name is not None:
        program["name"] = name
    program["workflow"] = list(steps)
    if meta:
        program["meta"] = dict(meta)
    return program


# --- internals --------------------------------------------------------------------------------------


def _target(target: TargetOrIds) -> Target:
    return dict(target) if isinstance(target, Mapping) else by_ids(target)


def _ir(
    op: str, target: Target | None, args: dict[str, Any], meta: Mapping[str, Any] | None, comment: str | None
) -> Program:
    ir: Program = {"op": op}
    if target is not None:
        ir["target"] = target
    ir["args"] = {k: v for k, v in args.items() if v is not None}
    if meta:
        ir["meta"] = dict(meta)
    if comment is not None:
        ir["_comment"] = comment
    return ir


def _present(**values: Any) -> dict[str, Any]:
    return {k: v for k, v in values.items() if v is not None}


__all__ = [
    "Program",
    "Target",
    "all_records",
    "by_filter",
    "by_ids",
    "by_search",
    "delete",
    "demote",
    "encode",
    "expire",
    "from_step",
    "id_list",
    "label",
    "lock",
    "merge",
    "promote",
    "read_target",
    "remind",
    "restore",
    "retrieve",
    "split",
    "summarize",
    "sweep",
    "update",
    "workflow",
]
