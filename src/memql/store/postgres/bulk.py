"""Bulk writes on PostgreSQL (memql.engine.bulk): many records, their lexical index rows and audit
entries in a few statements, inside the caller's write transaction (mixed into PostgresSession).

The records take the next numbers of the record counter in one update (the counter row stays locked
until the transaction ends, as for one insert: numbers stay gapless and in commit order); the rows go in
one pipelined `executemany`; the lexical index gets one statement per table (documents, postings, the
per-term document counts summed per batch, the tenant's totals); audit operations take their numbers
from the sequence in one call and go in with their events in two more `executemany`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from psycopg.types.json import Json

from memql.lang.encoding import compact_json
from memql.ports.record import Event, Operation, Record
from memql.store.postgres import codec, lexical, vectors
from memql.store.postgres.codec import escape

_INSERT_RECORDS = (
    f"INSERT INTO records ({codec.SELECT_COLUMNS}) "
    f"VALUES ({', '.join(['%s'] * (len(codec.COLUMNS) + 1))}, %s::vector)"
)
# the per-row values go as JSON arrays, unnested by the server: psycopg's text array dumper quotes each
# element in Python (a regex per element), which cost a bulk write a fifth of its client time
_ADD_DOCS = (
    "INSERT INTO lexical_docs (num, tenant, len) "
    "SELECT n::bigint, %(tenant)s, l::int FROM ROWS FROM (json_array_elements_text(%(nums)s::json), "
    "json_array_elements_text(%(lens)s::json)) AS u(n, l)"
)
_ADD_POSTINGS = (
    "INSERT INTO lexical_postings (tenant, term, num, body, context, len) "
    "SELECT %(tenant)s, t, n::bigint, b::int, c::int, l::int FROM ROWS FROM ("
    "json_array_elements_text(%(terms)s::json), json_array_elements_text(%(nums)s::json), "
    "json_array_elements_text(%(body)s::json), json_array_elements_text(%(context)s::json), "
    "json_array_elements_text(%(lens)s::json)) AS u(t, n, b, c, l)"
)
_ADD_DF = (
    "INSERT INTO lexical_df (term, tenant, docs) "
    "SELECT t, %(tenant)s, d::int FROM ROWS FROM (json_array_elements_text(%(terms)s::json), "
    "json_array_elements_text(%(docs)s::json)) AS u(t, d) "
    "ON CONFLICT (term, tenant) DO UPDATE SET docs = lexical_df.docs + EXCLUDED.docs"
)
_ADD_STATS = (
    "INSERT INTO lexical_stats (tenant, docs, tokens) VALUES (%(tenant)s, %(docs)s, %(tokens)s) "
    "ON CONFLICT (tenant) DO UPDATE "
    "SET docs = lexical_stats.docs + EXCLUDED.docs, tokens = lexical_stats.tokens + EXCLUDED.tokens"
)
_INSERT_OPERATIONS = (
    "INSERT INTO operations (seq, time, tenant, actor, op, ir, affected_ids, trace_id, workflow_id, step) "
    "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)"
)
_INSERT_EVENTS = (
    "INSERT INTO events (op_seq, tenant, record_id, kind, before, after) VALUES (%s, %s, %s, %s, %s, %s)"
)


class PostgresBulk:
    """The batched writes of a PostgreSQL session."""

    # a record inserted with its vector has it searchable at once (insert_many writes `vec`): a bulk write
    # embeds its records before inserting them rather than updating each afterwards (engine/bulk.py)
    inserts_embeddings = True

    conn: Any
    inserted: int
    lexical_written: bool
    newest: int
    _enter: Callable[[str], None]

    def insert_many(self, records: Sequence[Record]) -> list[str]:
        """Insert records numbered in order, with their lexical index entries; their ids."""
        if not records:
            return []
        tenants = list(dict.fromkeys(r.tenant for r in records))
        for tenant in tenants:
            self._enter(tenant)
        last = self.conn.execute(
            "UPDATE counters SET value = value + %s WHERE name = 'record_num' RETURNING value",
            (len(records),),
        ).fetchone()["value"]
        nums = list(range(last - len(records) + 1, last + 1))
        self.conn.execute(lexical.CHANGE_LOG + "n FROM unnest(%s::bigint[]) n", (nums,))  # under the lock
        self.lexical_written = True
        with self.conn.cursor() as cur:
            cur.executemany(
                _INSERT_RECORDS,
                [
                    (num, *codec.encode(record), vectors.column_value(record.embedding))
                    for num, record in zip(nums, records, strict=True)
                ],
            )
        for tenant in tenants:
            self._index(tenant, [(n, r) for n, r in zip(nums, records, strict=True) if r.tenant == tenant])
        self.inserted += len(records)
        self.newest = max(self.newest, nums[-1])
        return [str(num) for num in nums]

    def _index(self, tenant: str, numbered: list[tuple[int, Record]]) -> None:
        doc_nums, doc_lens = [], []
        terms, nums, body, context, lens = [], [], [], [], []
        df: Counter[str] = Counter()
        for num, record in numbered:
            postings, length = lexical.document(record)
            doc_nums.append(num)
            doc_lens.append(length)
            for term, (in_body, in_context) in postings.items():
                terms.append(term)
                nums.append(num)
                body.append(in_body)
                context.append(in_context)
                lens.append(length)
            df.update(postings.keys())
        self.conn.execute(_ADD_DOCS, {"tenant": tenant, "nums": _array(doc_nums), "lens": _array(doc_lens)})
        if terms:
            postings = {"terms": terms, "nums": nums, "body": body, "context": context, "lens": lens}
            self.conn.execute(
                _ADD_POSTINGS, {"tenant": tenant, **{k: _array(v) for k, v in postings.items()}}
            )
            df_params = {"tenant": tenant, "terms": _array(list(df)), "docs": _array(list(df.values()))}
            self.conn.execute(_ADD_DF, df_params)
        self.conn.execute(_ADD_STATS, {"tenant": tenant, "docs": len(doc_nums), "tokens": sum(doc_lens)})

    def log_many(self, entries: Sequence[tuple[Operation, Sequence[Event]]]) -> None:
        """Append audit operations, numbered in order from the sequence, with their events."""
        if not entries:
            return
        for tenant in dict.fromkeys(op.tenant for op, _ in entries):
            self._enter(tenant)
        seqs = [
            row["seq"]
            for row in self.conn.execute(
                "SELECT nextval(pg_get_serial_sequence('operations', 'seq')) AS seq "
                "FROM generate_series(1, %s) ORDER BY 1",
                (len(entries),),
            )
        ]
        with self.conn.cursor() as cur:
            cur.executemany(
                _INSERT_OPERATIONS,
                [
                    (seq, *operation_values(op, codec.dumps_audit))
                    for seq, (op, _events) in zip(seqs, entries, strict=True)
                ],
            )
            events = [
                event_values(seq, op.tenant, e, codec.dumps_audit)
                for seq, (op, events) in zip(seqs, entries, strict=True)
                for e in events
            ]
            if events:
                cur.executemany(_INSERT_EVENTS, events)

    def find_duplicates(
        self, tenant: str, content_hashes: Sequence[str], now: datetime, limit: int
    ) -> dict[str, list[str]]:
        """For each content hash, the oldest `limit` live records holding it (as `find_duplicate`)."""
        self._enter(tenant)
        rows = self.conn.execute(
            "SELECT content_hash, num FROM records WHERE tenant = %s AND content_hash = ANY(%s) "
            "AND status IN ('active', 'pending') AND (expire_at IS NULL OR expire_at > %s) ORDER BY num",
            (tenant, [escape(h) for h in dict.fromkeys(content_hashes)], codec.to_utc(now)),
        ).fetchall()
        out: dict[str, list[str]] = {}
        for row in rows:
            found = out.setdefault(codec.unescape(row["content_hash"]), [])
            if len(found) < limit:
                found.append(str(row["num"]))
        return out

    def embeddings_for_hashes(
        self, tenant: str, content_hashes: Sequence[str], model: str
    ) -> dict[str, bytes]:
        """A stored vector of each content hash by `model`, where one is stored (as `embedding_for_hash`,
        for many at once)."""
        self._enter(tenant)
        rows = self.conn.execute(
            "SELECT DISTINCT ON (content_hash) content_hash, embedding FROM records "
            "WHERE tenant = %s AND content_hash = ANY(%s) AND embedding_model = %s AND embedding IS NOT NULL",
            (tenant, [escape(h) for h in dict.fromkeys(content_hashes)], escape(model)),
        ).fetchall()
        return {codec.unescape(row["content_hash"]): bytes(row["embedding"]) for row in rows}


_array = compact_json()  # a list of index terms or numbers as the JSON array the statements unnest


def event_values(
    op_seq: int, tenant: str, e: Event, dumps: Callable[[Any], str] = codec.dumps
) -> tuple[Any, ...]:
    """An event's columns after its own `seq`: its operation's seq, then what it changed (its JSON by
    `dumps`: a bulk write's is codec.dumps_audit)."""
    return (
        op_seq,
        tenant,
        escape(e.record_id),
        escape(e.kind),
        Json(e.before, dumps=dumps),
        Json(e.after, dumps=dumps),
    )


def operation_values(op: Operation, dumps: Callable[[Any], str] = codec.dumps) -> tuple[Any, ...]:
    """An operation's columns after `seq` (what PostgresSession._log and the bulk writes store)."""
    return (
        codec.to_utc(op.time),
        op.tenant,
        codec.escape_optional(op.actor),
        escape(op.op),
        Json(op.ir, dumps=dumps),
        Json(op.affected_ids, dumps=dumps),
        codec.escape_optional(op.trace_id),
        codec.escape_optional(op.workflow_id),
        op.step,
    )
