"""RecordQuery -> SQLite SQL. Filters and tenant scope are part of the query, never applied afterwards."""

from __future__ import annotations

from typing import Any

from memql.index.lexical import CONTEXT_WEIGHT
from memql.ports.record import NAMESPACE_SEP, PROPOSAL_STATUSES
from memql.ports.store import Access, ConditionGroup, RecordQuery, StructuredCondition
from memql.services.tokenize import fts_match_expression
from memql.store.sqlite.codec import dumps, to_us

MAX_NUM = 2**63 - 1  # SQLite's largest rowid
AFTER_SEP = chr(ord(NAMESPACE_SEP) + 1)  # the character after the namespace separator

# what a search's candidate needs (memql.ports.store.Candidate, less its score), read by `candidate`
CANDIDATE_COLUMNS = "r.num, r.weight, COALESCE(r.time, r.created_at) AS at, r.visits, r.last_access_at"

# FTS5's best matches alone (a window of them: the match expression, the size), best first; the score
# is build()'s: -bm25, higher is better
FTS5_WINDOW = (
    f"SELECT rowid, -bm25(records_fts, 1.0, {CONTEXT_WEIGHT}) FROM records_fts WHERE records_fts MATCH ? "
    f"ORDER BY bm25(records_fts, 1.0, {CONTEXT_WEIGHT}), rowid DESC LIMIT ?"
)

_ORDER = {
    "time_desc": "COALESCE(r.time, r.created_at) DESC, r.num DESC",
    "time_asc": "COALESCE(r.time, r.created_at) ASC, r.num ASC",
    "weight_desc": "r.weight DESC, COALESCE(r.time, r.created_at) DESC, r.num DESC",
    "created_asc": "r.num ASC",
}


def build(
    tenant: str,
    q: RecordQuery,
    table: str = "records",
    fts: str = "records_fts",
    window: int | None = None,
    columns: str = "r.*",
    nums: list[int] | None = None,
) -> tuple[str, list[Any]]:
    """SELECT r.*, <score> for the query; the score is -bm25 (higher is better) or NULL. `columns`
    replaces r.* (a search's candidates need a few columns, not the records: CANDIDATE_COLUMNS).

    `window` (with a text query): rank the whole lexical index first and check the query's conditions
    only on its `window` best matches (FTS5 ranks far faster alone than joined to the records). Each row
    then also carries `window_hits` (how many matches the window held) and `window_floor` (the lowest
    score in it), so the caller can tell whether a wider window could change the answer.
    """
    # with ids (or a window of lexical hits), `+r.tenant` keeps SQLite on rowid lookups (a plain
    # `r.tenant = ?` lets it scan the tenant's whole index instead: 20 ms against 1 ms for 50 ids at 100k)
    by_num = q.ids is not None or nums is not None or window is not None
    where = ["+r.tenant = ?" if by_num else "r.tenant = ?"]
    params: list[Any] = [tenant]
    join = ""
    head: list[Any] = []  # parameters that come before the WHERE clause
    score = "NULL"
    if q.text_query is not None:
        match = fts_match_expression(q.text_query)
        if match is None:
            return f"SELECT {columns}, NULL AS score FROM records r WHERE 0", []
        bm25 = f"bm25({fts}, 1.0, {CONTEXT_WEIGHT})"
        if window is not None:
            head = [match, window]
            join = (
                f" JOIN (SELECT rowid AS hit, -{bm25} AS hit_score FROM {fts} WHERE {fts} MATCH ? "
                f"ORDER BY {bm25}, rowid DESC LIMIT ?) f ON f.hit = r.num"
            )
            score = "f.hit_score"
        else:
            join = f" JOIN {fts} f ON f.rowid = r.num"
            where.append(f"{fts} MATCH ?")
            params.append(match)
            score = f"-{bm25}"
    by_id = (
        None
        if q.ids is None
        else [int(i) for i in q.ids if i.isascii() and i.isdigit() and int(i) <= MAX_NUM]
    )
    for numbers in (by_id, nums):  # (an id beyond MAX_NUM names no record)
        if numbers is None:
            continue
        if not numbers:
            return f"SELECT {columns}, NULL AS score FROM records r WHERE 0", []
        where.append(f"r.num IN ({','.join('?' * len(numbers))})")
        params.extend(numbers)
    if q.statuses is not None:
        # by namespace or key, `+` keeps SQLite off the (tenant, status, time) index, which it would walk
        # for the order, and on the namespace index (a get at 20k records: 33 ms -> well under 1 ms)
        keyed = q.key is not None or q.namespace is not None or bool(q.namespace_prefix)
        status = f"{'+' if keyed else ''}r.status IN ({','.join('?' * len(q.statuses))})"
        params.extend(q.statuses)
        if q.lapsed_at is not None:  # expired in effect, though the sweeper has not run yet
            lapsed = "r.status IN ('active', 'pending') AND r.expire_at IS NOT NULL AND r.expire_at <= ?"
            status = f"({status} OR ({lapsed}))"
            params.append(to_us(q.lapsed_at))
        where.append(status)
    if q.not_expired_at is not None:
        where.append("(r.expire_at IS NULL OR r.expire_at > ?)")
        params.append(to_us(q.not_expired_at))
    for bound, op in ((q.time_from, ">="), (q.time_to, "<=")):
        if bound is not None:
            where.append(f"COALESCE(r.time, r.created_at) {op} ?")
            params.append(to_us(bound))
    if q.created_before is not None:
        where.append("COALESCE(r.time, r.created_at) < ?")
        params.append(to_us(q.created_before))
    if q.written_after is not None:  # the primary key's range: what was written since, not the whole tenant
        where.append("r.num > ?")
        params.append(int(q.written_after))
    for tag in q.has_tags:
        where.append("EXISTS (SELECT 1 FROM json_each(r.tags) WHERE lower(value) = lower(?))")
        params.append(tag)
    for tag in q.not_tags:
        where.append("NOT EXISTS (SELECT 1 FROM json_each(r.tags) WHERE lower(value) = lower(?))")
        params.append(tag)
    for column, value in (
        ("kind", q.kind),
        ("memory_type", q.memory_type),
        ("category", q.category),
        ("sensitivity", q.sensitivity),
    ):
        if value is not None:
            where.append(f"r.{column} = ?")
            params.append(value)
    if q.sensitivities is not None:
        if not q.sensitivities:
            return f"SELECT {columns}, NULL AS score FROM records r WHERE 0", []
        where.append(f"r.sensitivity IN ({','.join('?' * len(q.sensitivities))})")
        params.extend(q.sensitivities)
    if q.about_facts:
        where.append("r.attribute IS NOT NULL")
    for column, value in (("subject", q.subject), ("attribute", q.attribute)):
        if value is not None:
            where.append(f"r.{column} = ?")
            params.append(value)
    if q.valid_at is not None:
        where.append("(r.valid_from IS NULL OR r.valid_from <= ?) AND (r.valid_to IS NULL OR r.valid_to > ?)")
        params.extend([to_us(q.valid_at)] * 2)
    if q.facts_current_at is not None:
        where.append(
            "(r.attribute IS NULL OR ((r.valid_from IS NULL OR r.valid_from <= ?) "
            "AND (r.valid_to IS NULL OR r.valid_to > ?)))"
        )
        params.extend([to_us(q.facts_current_at)] * 2)
    if q.access is not None:
        condition, values = access_condition(q.access)
        where.append(condition)
        params.extend(values)
    for key, value in q.facet_equals.items():
        path = '$."' + key.replace('"', '""') + '"'
        if isinstance(value, dict | list):
            where.append("json_extract(r.facets, ?) = json(?)")
            params.extend([path, dumps(value)])
        else:
            where.append("json_extract(r.facets, ?) = ?")
            params.extend([path, int(value) if isinstance(value, bool) else _beyond_integers(value)])
    if q.namespace is not None:
        where.append("r.namespace = ?")
        params.append(q.namespace)
    if q.namespace_prefix is not None:
        if q.namespace_prefix:  # the namespace itself, or one that goes on after a separator
            # the ones below it start with its labels and a separator: a range, which an index serves
            # (within [prefix, prefix + the character after it), less labels that merely go on: "foo\n")
            where.append("r.namespace >= ? AND r.namespace < ? AND (r.namespace = ? OR r.namespace >= ?)")
            prefix = q.namespace_prefix
            params.extend([prefix, prefix + AFTER_SEP, prefix, prefix + NAMESPACE_SEP])
        else:
            where.append("r.namespace IS NOT NULL")
    if q.key is not None:
        where.append("r.key = ?")
        params.append(q.key)
    for condition in q.structured:
        sql_condition, values = structured_condition(condition)
        where.append(sql_condition)
        params.extend(values)
    for column, op, value in (("weight", ">=", q.weight_gte), ("weight", "<=", q.weight_lte)):
        if value is not None:
            where.append(f"r.{column} {op} ?")
            params.append(value)
    if q.expire_before is not None:
        where.append("r.expire_at IS NOT NULL AND r.expire_at < ?")
        params.append(to_us(q.expire_before))
    if q.expire_after is not None:
        where.append("r.expire_at IS NOT NULL AND r.expire_at > ?")
        params.append(to_us(q.expire_after))
    if q.order == "relevance":
        order = "score DESC, r.weight DESC, r.num DESC" if q.text_query is not None else _ORDER["weight_desc"]
    else:
        order = _ORDER[q.order]
    conditions = " AND ".join(where)
    sql = f"SELECT {columns}, {score} AS score FROM {table} r{join} WHERE {conditions} ORDER BY {order}"
    if q.limit is not None or q.offset:
        sql += " LIMIT ?"
        params.append(q.limit if q.limit is not None else -1)  # SQLite: -1 is no limit
    if q.offset:
        sql += " OFFSET ?"
        params.append(q.offset)
    if window is not None and head:
        # the window as a materialised CTE, read once for the rows and once for its size and floor
        inner = sql.replace(join, " JOIN hits f ON f.hit = r.num", 1)
        sql = f"WITH hits AS MATERIALIZED ({join[len(' JOIN (') : join.rindex(') f ON')]}) " + inner.replace(
            f"SELECT {columns},",
            f"SELECT {columns}, (SELECT count(*) FROM hits) AS window_hits, "
            "(SELECT min(hit_score) FROM hits) AS window_floor,",
            1,
        )
    return sql, [*head, *params]


_COMPARE = {"gt": ">", "gte": ">=", "lt": "<", "lte": "<="}


def structured_condition(condition: StructuredCondition | ConditionGroup) -> tuple[str, list[Any]]:
    """A condition on a structured payload (or facets) value as SQL (memql.ports.store.StructuredCondition,
    ConditionGroup); never NULL, so a NOT of it is exact."""
    if isinstance(condition, ConditionGroup):
        parts = [structured_condition(child) for child in condition.children]
        values = [v for _, vs in parts for v in vs]
        if condition.kind == "not":
            return f"NOT {parts[0][0]}", values
        if not parts:
            return ("1" if condition.kind == "and" else "0"), []
        joiner = " AND " if condition.kind == "and" else " OR "
        return "(" + joiner.join(sql for sql, _ in parts) + ")", values
    sql, values = _leaf(condition)
    return f"COALESCE({sql}, 0)", values


def _leaf(condition: StructuredCondition) -> tuple[str, list[Any]]:
    column = f"r.{'facets' if condition.column == 'facets' else 'structured'}"
    path = "$" + "".join('."' + part.replace('"', '""') + '"' for part in condition.path)
    kind = f"json_type({column}, ?)"
    at = f"json_extract({column}, ?)"
    value = _beyond_integers(condition.value)
    if condition.op in _COMPARE:
        types = "('integer', 'real')" if isinstance(value, int | float) else "('text')"
        return f"({kind} IN {types} AND {at} {_COMPARE[condition.op]} ?)", [path, path, value]
    if condition.op == "icontains":  # SQLite's lower() folds ASCII letters only, as PostgreSQL's under "C"
        return f"({kind} = 'text' AND instr(lower({at}), lower(?)) > 0)", [path, path, value]
    if condition.op == "contains":
        item = _item_equals(value)
        substring = f"({kind} = 'text' AND instr({at}, ?) > 0)" if isinstance(value, str) else "0"
        listed = f"({kind} = 'array' AND EXISTS (SELECT 1 FROM json_each({column}, ?) j WHERE {item[0]}))"
        return f"({substring} OR {listed})", [
            *([path, path, value] if isinstance(value, str) else []),
            path,
            path,
            *item[1],
        ]
    if value is None:
        equal, values = f"({kind} IS NULL OR {kind} = 'null')", [path, path]
    elif isinstance(value, bool):
        equal, values = f"COALESCE({kind} = ?, 0)", [path, "true" if value else "false"]
    elif isinstance(value, int | float):
        equal, values = f"COALESCE({kind} IN ('integer', 'real') AND {at} = ?, 0)", [path, path, value]
    elif isinstance(value, str):
        equal, values = f"COALESCE({kind} = 'text' AND {at} = ?, 0)", [path, path, value]
    else:  # a list: the same JSON, item by item in order
        equal, values = f"COALESCE({kind} = 'array' AND {at} = json(?), 0)", [path, path, dumps(value)]
    return (f"NOT {equal}" if condition.op == "ne" else equal), values


def _beyond_integers(value: Any) -> Any:
    """An integer beyond SQLite's (64 bits) as a real, which binds, and compares as SQLite compares the
    JSON number it reads (json_extract gives such a literal as a real); any other value as it is."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_NUM:
        return float(value)
    return value


def _item_equals(value: Any) -> tuple[str, list[Any]]:
    """An item of json_each equal to a scalar, as JSON compares it."""
    if isinstance(value, bool):
        return "j.type = ?", ["true" if value else "false"]
    if isinstance(value, int | float):
        return "(j.type IN ('integer', 'real') AND j.value = ?)", [value]
    return "(j.type = 'text' AND j.value = ?)", [value]


_UNACCEPTED = (
    f"(r.status IN ({', '.join(repr(s) for s in PROPOSAL_STATUSES)}) "
    "OR (r.status = 'expired' AND r.owner IS NULL AND r.agent IS NOT NULL))"
)
_LEVEL = (
    "COALESCE(r.read_perm_level, CASE WHEN json_array_length(r.read_whitelist) > 0 "
    "THEN 'custom' ELSE 'public' END)"
)


def access_condition(access: Access) -> tuple[str, list[Any]]:
    """The records `access` admits (memql.engine.access.admits, as SQL)."""
    if access.actor is None:  # nobody is the owner, proposer or listed
        me, params = "0", []
        listed = {"read_whitelist": "0", "read_blacklist": "0"}
        mine_agent = "0"
    else:
        me, params = "r.owner = ?", [access.actor]
        listed = {
            name: f"EXISTS (SELECT 1 FROM json_each(r.{name}) WHERE value = ?)"
            for name in ("read_whitelist", "read_blacklist")
        }
        mine_agent = "r.agent = ?"
    if access.agent:
        proposal, proposal_params = mine_agent, params[:]
    else:
        proposal, proposal_params = f"NOT {listed['read_blacklist']}", params[:]
    if access.proposals_only:
        return f"({_UNACCEPTED} AND {proposal})", proposal_params
    team = listed["read_whitelist"] if access.agent else "1"
    team_params = params[:] if access.agent else []
    other = (
        f"({me} OR (NOT {listed['read_blacklist']} AND CASE {_LEVEL} WHEN 'public' THEN 1 "
        f"WHEN 'team' THEN {team} WHEN 'custom' THEN {listed['read_whitelist']} ELSE 0 END))"
    )
    other_params = [*params, *params, *team_params, *params]
    return f"(CASE WHEN {_UNACCEPTED} THEN {proposal} ELSE {other} END)", [*proposal_params, *other_params]
