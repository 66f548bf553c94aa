"""RecordQuery -> PostgreSQL SQL, with the same semantics as memql.store.sqlite.query (filters and tenant
scope inside the query; lexical relevance is BM25 computed as FTS5 computes it, see lexical.py)."""

from __future__ import annotations

from typing import Any

from memql.ports.record import NAMESPACE_SEP, PROPOSAL_STATUSES
from memql.ports.store import Access, ConditionGroup, RecordQuery, StructuredCondition
from memql.store.postgres import lexical
from memql.store.postgres.codec import dumps, escape

_WHEN = "COALESCE(r.time, r.created_at)"
_ORDER = {
    "time_desc": f"{_WHEN} DESC, r.num DESC",
    "time_asc": f"{_WHEN} ASC, r.num ASC",
    "weight_desc": f"r.weight DESC, {_WHEN} DESC, r.num DESC",
    "created_asc": "r.num ASC",
}
NOTHING = ("SELECT r.*, NULL::float8 AS score FROM records r WHERE false", {})
INT64_MAX = (1 << 63) - 1


def record_nums(ids) -> list[int]:
    """The record numbers among ids (memql ids are decimal numbers; anything else names no record)."""
    return [int(i) for i in ids if i.isascii() and i.isdigit() and int(i) <= INT64_MAX]


def where(tenant: str, q: RecordQuery) -> tuple[list[str], dict[str, Any]] | None:
    """The conditions of q on `records r` (None: nothing can match)."""
    conds = ["r.tenant = %(tenant)s"]
    params: dict[str, Any] = {"tenant": tenant}
    n = 0

    def param(value: Any) -> str:
        nonlocal n
        n += 1
        params[f"p{n}"] = value
        return f"%(p{n})s"

    if q.ids is not None:
        nums = record_nums(q.ids)
        if not nums:
            return None
        conds.append(f"r.num = ANY({param(nums)}::bigint[])")
    if q.statuses is not None:
        # one status as an equality: `= ANY(array)` keeps PostgreSQL from reading the index in order
        status = (
            f"r.status = {param(q.statuses[0])}"
            if len(q.statuses) == 1
            else f"r.status = ANY({param(list(q.statuses))}::text[])"
        )
        if q.lapsed_at is not None:  # expired in effect, though the sweeper has not run yet
            status = (
                f"({status} OR (r.status IN ('active', 'pending') AND r.expire_at IS NOT NULL "
                f"AND r.expire_at <= {param(q.lapsed_at)}))"
            )
        conds.append(status)
    if q.not_expired_at is not None:
        conds.append(f"(r.expire_at IS NULL OR r.expire_at > {param(q.not_expired_at)})")
    for bound, op in ((q.time_from, ">="), (q.time_to, "<=")):
        if bound is not None:
            conds.append(f"{_WHEN} {op} {param(bound)}")
    if q.created_before is not None:
        conds.append(f"{_WHEN} < {param(q.created_before)}")
    if q.written_after is not None:  # the primary key's range: what was written since, not the whole tenant
        conds.append(f"r.num > {param(int(q.written_after))}")
    # tags compare as SQLite's json_each + lower() does: ASCII case folding only
    for tag in q.has_tags:
        conds.append(
            "EXISTS (SELECT 1 FROM json_array_elements_text(r.tags) v "
            f'WHERE lower(v COLLATE "C") = lower({param(escape(tag))} COLLATE "C"))'
        )
    for tag in q.not_tags:
        conds.append(
            "NOT EXISTS (SELECT 1 FROM json_array_elements_text(r.tags) v "
            f'WHERE lower(v COLLATE "C") = lower({param(escape(tag))} COLLATE "C"))'
        )
    for column, value in (
        ("kind", q.kind),
        ("memory_type", q.memory_type),
        ("category", q.category),
        ("sensitivity", q.sensitivity),
    ):
        if value is not None:
            conds.append(f"r.{column} = {param(escape(value))}")
    if q.sensitivities is not None:
        if not q.sensitivities:
            return None
        conds.append(f"r.sensitivity = ANY({param([escape(s) for s in q.sensitivities])}::text[])")
    if q.about_facts:
        conds.append("r.attribute IS NOT NULL")
    for column, value in (("subject", q.subject), ("attribute", q.attribute)):
        if value is not None:
            conds.append(f"r.{column} = {param(escape(value))}")
    if q.valid_at is not None:
        at = param(q.valid_at)
        conds.append(f"(r.valid_from IS NULL OR r.valid_from <= {at})")
        conds.append(f"(r.valid_to IS NULL OR r.valid_to > {at})")
    if q.facts_current_at is not None:
        now = param(q.facts_current_at)
        conds.append(
            f"(r.attribute IS NULL OR ((r.valid_from IS NULL OR r.valid_from <= {now}) "
            f"AND (r.valid_to IS NULL OR r.valid_to > {now})))"
        )
    if q.access is not None:
        conds.append(access_condition(param, q.access))
    for key, value in q.facet_equals.items():
        conds.append(_facet(param, escape(key), value))
    if q.namespace is not None:
        conds.append(f"r.namespace = {param(escape(q.namespace))}")
    if q.namespace_prefix is not None:
        if q.namespace_prefix:  # the namespace itself, or one that goes on after a separator
            prefix = escape(q.namespace_prefix)
            # the ones below it start with its labels and a separator: a range, which an index serves
            # (within [prefix, prefix + the character after it), less labels that merely go on: "foo\n")
            ns = 'r.namespace COLLATE "C"'
            low, high = param(prefix), param(prefix + chr(ord(NAMESPACE_SEP) + 1))
            below = param(prefix + NAMESPACE_SEP)
            conds.append(f"{ns} >= {low} AND {ns} < {high} AND ({ns} = {low} OR {ns} >= {below})")
        else:
            conds.append("r.namespace IS NOT NULL")
    if q.key is not None:
        conds.append(f"r.key = {param(escape(q.key))}")
    for condition in q.structured:
        conds.append(_structured(param, condition))
    if q.weight_gte is not None:
        conds.append(f"r.weight >= {param(q.weight_gte)}")
    if q.weight_lte is not None:
        conds.append(f"r.weight <= {param(q.weight_lte)}")
    if q.expire_before is not None:
        conds.append(f"r.expire_at IS NOT NULL AND r.expire_at < {param(q.expire_before)}")
    if q.expire_after is not None:
        conds.append(f"r.expire_at IS NOT NULL AND r.expire_at > {param(q.expire_after)}")
    return conds, params


_UNACCEPTED = (
    f"(r.status IN ({', '.join(repr(s) for s in PROPOSAL_STATUSES)}) "
    "OR (r.status = 'expired' AND r.owner IS NULL AND r.agent IS NOT NULL))"
)
_LEVEL = (
    "COALESCE(r.read_perm_level, CASE WHEN json_array_length(r.read_whitelist) > 0 "
    "THEN 'custom' ELSE 'public' END)"
)


def access_condition(param, access: Access) -> str:
    """The records `access` admits (memql.engine.access.admits, as SQL)."""
    if access.actor is None:  # nobody is the owner, proposer or listed
        me = whitelisted = blacklisted = proposer = "false"
    else:
        actor = param(escape(access.actor))
        me, proposer = f"r.owner = {actor}", f"r.agent = {actor}"
        whitelisted, blacklisted = (
            f"EXISTS (SELECT 1 FROM json_array_elements_text(r.{name}) v WHERE v = {actor})"
            for name in ("read_whitelist", "read_blacklist")
        )
    proposal = proposer if access.agent else f"NOT {blacklisted}"
    if access.proposals_only:
        return f"({_UNACCEPTED} AND {proposal})"
    team = whitelisted if access.agent else "true"
    other = (
        f"({me} OR (NOT {blacklisted} AND CASE {_LEVEL} WHEN 'public' THEN true "
        f"WHEN 'team' THEN {team} WHEN 'custom' THEN {whitelisted} ELSE false END))"
    )
    return f"(CASE WHEN {_UNACCEPTED} THEN {proposal} ELSE {other} END)"


def _facet(param, key: str, value: Any) -> str:
    """A top-level facet equal to value, as SQLite's json_extract(...) = ? compares: JSON true/false are
    1/0, numbers compare by value, text by text, objects and arrays by their JSON."""
    v = f"(r.facets::jsonb -> {param(key)})"
    if isinstance(value, dict | list):
        return f"{v} = {param(dumps(value))}::jsonb"
    if isinstance(value, bool):
        value = int(value)
    if isinstance(value, int | float):
        number = f"{param(float(value))}::float8"
        alias = {1: "true", 0: "false"}.get(value) if value in (0, 1) else None
        cond = f"(jsonb_typeof({v}) = 'number' AND ({v})::float8 = {number})"
        if alias:
            cond = f"({cond} OR {v} = '{alias}'::jsonb)"
        return cond
    if value is None:
        return "false"  # json_extract(...) = NULL is never true
    return f"(jsonb_typeof({v}) = 'string' AND ({v} #>> '{{}}') = {param(escape(str(value)))})"


_COMPARE = {"gt": ">", "gte": ">=", "lt": "<", "lte": "<="}


def _structured(param, condition: StructuredCondition | ConditionGroup) -> str:
    """A condition on a structured payload (or facets) value, as memql.store.sqlite.query compares it;
    never NULL, so a NOT of it is exact."""
    if isinstance(condition, ConditionGroup):
        parts = [_structured(param, child) for child in condition.children]
        if condition.kind == "not":
            return f"NOT {parts[0]}"
        if not parts:
            return "true" if condition.kind == "and" else "false"
        return "(" + (" AND " if condition.kind == "and" else " OR ").join(parts) + ")"
    return f"COALESCE({_leaf(param, condition)}, false)"


def _leaf(param, condition: StructuredCondition) -> str:
    column = "r.facets" if condition.column == "facets" else "r.structured"
    v = f"({column}::jsonb #> {param([escape(p) for p in condition.path])}::text[])"
    value = condition.value
    if condition.op in _COMPARE:
        op = _COMPARE[condition.op]
        if isinstance(value, int | float):
            return (
                f"(jsonb_typeof({v}) = 'number' AND ({v} #>> '{{}}')::numeric {op} {param(value)}::numeric)"
            )
        return (
            f"(jsonb_typeof({v}) = 'string' AND ({v} #>> '{{}}') COLLATE \"C\" {op} "
            f'{param(escape(value))} COLLATE "C")'
        )
    if condition.op == "icontains":  # ASCII letters folded, as SQLite's lower() does
        return (
            f"(jsonb_typeof({v}) = 'string' AND strpos(lower(({v} #>> '{{}}') COLLATE \"C\"), "
            f'lower({param(escape(value))} COLLATE "C")) > 0)'
        )
    if condition.op == "contains":
        listed = f"(jsonb_typeof({v}) = 'array' AND {v} @> {param(dumps([value]))}::jsonb)"
        if not isinstance(value, str):
            return listed
        substring = f"(jsonb_typeof({v}) = 'string' AND strpos({v} #>> '{{}}', {param(escape(value))}) > 0)"
        return f"({substring} OR {listed})"
    if value is None:
        equal = f"({v} IS NULL OR jsonb_typeof({v}) = 'null')"
    elif isinstance(value, bool):
        equal = f"COALESCE({v} = {param('true' if value else 'false')}::jsonb, false)"
    elif isinstance(value, int | float):
        equal = (
            f"COALESCE(jsonb_typeof({v}) = 'number' AND ({v} #>> '{{}}')::numeric = {param(value)}::numeric, "
            "false)"
        )
    elif isinstance(value, str):
        equal = f"COALESCE(jsonb_typeof({v}) = 'string' AND ({v} #>> '{{}}') = {param(escape(value))}, false)"
    else:  # a list: the same JSON, item by item in order
        equal = f"COALESCE(jsonb_typeof({v}) = 'array' AND {v} = {param(dumps(value))}::jsonb, false)"
    return f"NOT {equal}" if condition.op == "ne" else equal


def build(
    tenant: str,
    q: RecordQuery,
    *,
    table: str = "records",
    postings: str = "lexical_postings",
    stats: str | None = None,
    df: str | None = None,
    lock: bool = False,
) -> tuple[str, dict[str, Any]]:
    """SELECT r.*, score for the query; the score is BM25 (higher is better) or NULL."""
    conditions = where(tenant, q)
    if conditions is None:
        return NOTHING
    conds, params = conditions
    source, score = f"{table} r WHERE {' AND '.join(conds)}", "NULL::float8"
    if q.text_query is not None:
        terms = lexical.search_terms(q.text_query)
        if not terms:
            return NOTHING
        params["terms"] = terms
        # scored documents first, then each one's record by its primary key (OFFSET 0 keeps that join
        # order and index, the right ones whatever the planner's statistics say: fresh tables have none)
        source = (
            f"hits CROSS JOIN LATERAL (SELECT * FROM {table} r WHERE r.num = hits.num OFFSET 0) r "
            f"WHERE {' AND '.join(conds)}"
        )
        source = (
            "WITH "
            + lexical.scores_cte(postings, stats, df)
            + " SELECT r.*, hits.score AS score FROM "
            + source
        )
        score = None
    if q.order == "relevance":
        order = "score DESC, r.weight DESC, r.num DESC" if q.text_query is not None else _ORDER["weight_desc"]
    else:
        order = _ORDER[q.order]
    select = source if score is None else f"SELECT r.*, {score} AS score FROM {source}"
    sql = f"{select} ORDER BY {order}"
    if q.limit is not None:
        sql += " LIMIT %(limit)s"
        params["limit"] = q.limit
    if q.offset:
        sql += " OFFSET %(offset)s"
        params["offset"] = q.offset
    if lock:
        sql += " FOR UPDATE OF r"
    return sql, params
