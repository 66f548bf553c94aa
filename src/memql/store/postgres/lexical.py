"""The lexical index of the PostgreSQL backend: postings kept from memql's analyzer, ranked by BM25 exactly
as SQLite's FTS5 ranks the same text (same terms, same statistics, same formula; see memql.index.lexical,
which defines both).

Per-tenant document frequencies and totals are kept transactionally (lexical_df, lexical_stats: a tenant's
writers are serialised, so these rows never contend across tenants) and summed over tenants when a query
runs, which gives the whole-store statistics FTS5 uses.

A query term that FTS5 would split into several tokens (a phrase) is searched as its tokens OR-ed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from memql.index.lexical import CONTEXT_WEIGHT, IDF_FLOOR, K1, B, fts_tokens, query_phrases
from memql.index.text import context_text, lexical_text
from memql.lang.encoding import compact_json
from memql.ports.record import Record
from memql.services.tokenize import ANALYZER_VERSION, index_text
from memql.store.postgres.codec import decode


def document(record: Record) -> tuple[dict[str, tuple[int, int]], int]:
    """A record's postings {token: (count in body, count in context)} and its length in tokens."""
    body = fts_tokens(index_text(lexical_text(record)))
    context = fts_tokens(index_text(context_text(record)))
    b, c = Counter(body), Counter(context)
    return {t: (b[t], c[t]) for t in b.keys() | c.keys()}, len(body) + len(context)


def search_terms(text: str) -> list[str]:
    """The tokens of a query, in order: FTS5's phrases, one token each; a token given twice counts twice,
    as FTS5 adds every phrase's part."""
    return [token for phrase in query_phrases(text) for token in phrase]


# --- index maintenance (one statement each; every row is the tenant's own) -----------------------------


def add_ctes(num: str) -> list[str]:
    """CTEs indexing one record (its number given by the SQL expression `num`); parameters %(tenant)s,
    %(len)s (its length) and %(terms)s, %(body)s, %(context)s (its postings, see `add_params`)."""
    return [
        f"d AS (INSERT INTO lexical_docs (num, tenant, len) VALUES ({num}, %(tenant)s, %(len)s))",
        "p AS (INSERT INTO lexical_postings (tenant, term, num, body, context, len) "
        f"SELECT %(tenant)s, t, {num}, b::int, c::int, %(len)s "
        "FROM ROWS FROM (json_array_elements_text(%(terms)s::json), "
        "json_array_elements_text(%(body)s::json), "
        "json_array_elements_text(%(context)s::json)) AS u(t, b, c))",
        "f AS (INSERT INTO lexical_df (term, tenant, docs) SELECT t, %(tenant)s, 1 "
        "FROM json_array_elements_text(%(terms)s::json) t "
        "ON CONFLICT (term, tenant) DO UPDATE SET docs = lexical_df.docs + 1)",
        "s AS (INSERT INTO lexical_stats (tenant, docs, tokens) VALUES (%(tenant)s, 1, %(len)s) "
        "ON CONFLICT (tenant) DO UPDATE "
        "SET docs = lexical_stats.docs + 1, tokens = lexical_stats.tokens + %(len)s)",
    ]


def add_params(tenant: str, postings: dict[str, tuple[int, int]], length: int) -> dict[str, Any]:
    """The postings as JSON arrays the statement unnests (psycopg's text array dumper quotes each element
    by a regex in Python: a tenth of an Encode's client time)."""
    terms = list(postings)
    return {
        "tenant": tenant,
        "len": length,
        "terms": _array(terms),
        "body": _array([postings[t][0] for t in terms]),
        "context": _array([postings[t][1] for t in terms]),
    }


_array = compact_json()


def add_sql(tenant: str, num: int, postings: dict[str, tuple[int, int]], length: int) -> tuple[str, dict]:
    """One statement indexing record `num` (a rebuild, a text change)."""
    sql = "WITH " + ", ".join(add_ctes("%(num)s::bigint")) + " SELECT 1"
    return sql, {**add_params(tenant, postings, length), "num": num}


# the record counter's row, locked before a change is logged: see CHANGE_LOG
LOCK_CHANGES_SQL = "SELECT 1 FROM counters WHERE name = 'record_num' FOR NO KEY UPDATE"

# logging changed records for the in-process index (memql.store.postgres.lexical_index), as the FROM
# clause of an INSERT ... SELECT: the numbers are drawn only once the transaction holds the record
# counter's row (the caller's earlier statement, or the row this statement reads from `c`), so they are
# handed out in commit order
CHANGE_LOG = "INSERT INTO lexical_changes (seq, num) SELECT nextval('lexical_change_seq'), "

REMOVE_SQL = """
WITH x AS (INSERT INTO lexical_changes (seq, num)
           SELECT nextval('lexical_change_seq'), n FROM unnest(%(nums)s::bigint[]) n),
old AS (DELETE FROM lexical_postings WHERE num = ANY(%(nums)s) AND tenant = %(tenant)s RETURNING term),
f AS (UPDATE lexical_df x SET docs = x.docs - o.n
      FROM (SELECT term, count(*) AS n FROM old GROUP BY term) o
      WHERE x.term = o.term AND x.tenant = %(tenant)s),
d AS (DELETE FROM lexical_docs WHERE num = ANY(%(nums)s) AND tenant = %(tenant)s RETURNING len)
UPDATE lexical_stats
SET docs = docs - (SELECT count(*) FROM d), tokens = tokens - (SELECT COALESCE(sum(len), 0) FROM d)
WHERE tenant = %(tenant)s
"""


def remove_sql(tenant: str, nums: Sequence[int]) -> tuple[str, dict]:
    return REMOVE_SQL, {"tenant": tenant, "nums": list(nums)}


# --- BM25 --------------------------------------------------------------------------------------------


def scores_cte(postings: str = "lexical_postings", stats: str | None = None, df: str | None = None) -> str:
    """A CTE `hits(num, score)`: the tenant's documents containing a query term (%(terms)s) with their
    BM25 score, the terms' parts added in the query's order as FTS5 adds its phrases' (so equal documents
    score equally, to the last bit, and the in-process index gives the same sums). `stats`/`df` default
    to the kept whole-store statistics; a point-in-time read passes subqueries over its own rebuilt
    tables."""
    stats = stats or "SELECT sum(docs)::float8 AS n, sum(tokens)::float8 AS tok FROM lexical_stats"
    df = df or (
        "SELECT term, sum(docs)::float8 AS df FROM lexical_df WHERE term = ANY(%(terms)s) GROUP BY term"
    )
    return f"""
st AS ({stats}),
idf AS (SELECT d.term, ln((st.n - d.df + 0.5::float8) / (d.df + 0.5::float8)) AS raw FROM ({df}) d, st),
qt AS (SELECT term, pos FROM unnest(%(terms)s::text[]) WITH ORDINALITY AS u(term, pos)),
hits AS MATERIALIZED (
    SELECT p.num, sum(
        (CASE WHEN i.raw <= 0 THEN {IDF_FLOOR}::float8 ELSE i.raw END)
        * (((p.body + {CONTEXT_WEIGHT}::float8 * p.context) * ({K1}::float8 + 1.0::float8))
           / ((p.body + {CONTEXT_WEIGHT}::float8 * p.context)
              + {K1}::float8 * ((1::float8 - {B}::float8) + ({B}::float8 * p.len) / (st.tok / st.n))))
        ORDER BY qt.pos
    ) AS score
    FROM {postings} p JOIN qt ON qt.term = p.term JOIN idf i ON i.term = p.term CROSS JOIN st
    WHERE p.tenant = %(tenant)s AND p.term = ANY(%(terms)s)
    GROUP BY p.num
)"""


def rebuild(conn: Any) -> None:
    """Refill the lexical tables from the records, unless the current analyzer wrote them (checked again
    under a lock that keeps writers out meanwhile)."""

    def current() -> bool:
        row = conn.execute("SELECT value FROM counters WHERE name = 'lexical_analyzer'").fetchone()
        return row is not None and row["value"] == ANALYZER_VERSION

    if current():
        return
    conn.execute("LOCK TABLE records IN SHARE ROW EXCLUSIVE MODE")
    if current():
        return
    conn.execute("TRUNCATE lexical_postings, lexical_docs, lexical_df, lexical_stats, lexical_changes")
    # every process's in-process index starts over (memql.store.postgres.lexical_index)
    conn.execute("UPDATE counters SET value = value + 1 WHERE name = 'lexical_generation'")
    last = 0
    batch = "SELECT * FROM records WHERE num > %s ORDER BY num LIMIT 5000"
    while rows := conn.execute(batch, (last,)).fetchall():
        for row in rows:
            record = decode(row)
            postings, length = document(record)
            conn.execute(*add_sql(record.tenant, row["num"], postings, length))
        last = rows[-1]["num"]
    conn.execute("UPDATE counters SET value = %s WHERE name = 'lexical_analyzer'", (ANALYZER_VERSION,))
