"""Dense retrieval on PostgreSQL with pgvector: tenant, filters, model and dimension inside one query.

Vectors of every dimension share one `vector` column; each indexed dimension has a partial HNSW index on
the expression ``vec::vector(dim)`` (WHERE embedding_dim = dim), so models of different sizes live side by
side (schema.INDEXED_DIMENSIONS, plus PostgresStore.ensure_vector_index). Stored vectors are unit length,
so the inner product is the cosine.

An HNSW scan runs with pgvector's iterative scan (``hnsw.iterative_scan = strict_order``): the index keeps
yielding neighbours until k rows pass the filters, so a filter never loses matches to a top-k cut. When
the scan stops short (``hnsw.max_scan_tuples``: a filter few neighbours satisfy) the matching records are
ranked exactly instead, as the SQLite backend does. A dimension without an index is always ranked
exactly. As in SQLite, only vectors pointing the query's way (cosine > 0) count as evidence, unless the
search is signed (then every cosine, in [-1, 1]).

A record with several index paths has one vector per text (`path_vecs`, a vector[]) and no `vec`: the same
statement ranks those records exactly by their best vector (records_with_path_vectors finds them; in a
store without any, that branch reads nothing) beside the indexed ranking of the others.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from memql.ports.store import RecordQuery
from memql.store.postgres import codec, query

MAX_DIMENSION = 16_000  # pgvector's limit for the `vector` type
EF_SEARCH = 100
RECORD_COLUMNS = ", ".join(f"r.{name}" for name in ("num", *codec.COLUMNS))  # what codec.decode reads


def vector_text(values: Sequence[float] | np.ndarray) -> str:
    """pgvector's text form; float32 values print exactly (shortest round-trip repr)."""
    return "[" + ",".join(repr(float(v)) for v in np.asarray(values, dtype=np.float32)) + "]"


def column_value(blob: bytes | None) -> str | None:
    """The `vec` column for an embedding's bytes (None when absent or beyond pgvector's dimensions)."""
    if blob is None or len(blob) % 4 or not 0 < len(blob) // 4 <= MAX_DIMENSION:
        return None
    return vector_text(np.frombuffer(blob, dtype="<f4"))


def searchable(blob: bytes | None, paths: bytes | None) -> str | None:
    """The `vec` column: the embedding's, unless the record has path vectors (then they are searched)."""
    return None if paths is not None else column_value(blob)


def path_values(paths: bytes | None, dim: int | None) -> str | None:
    """The `path_vecs` column (pgvector's array text) for a record's path vectors."""
    if paths is None or not dim or not 0 < dim <= MAX_DIMENSION or len(paths) % (4 * dim):
        return None
    rows = np.frombuffer(paths, dtype="<f4").reshape(-1, dim)
    return "{" + ",".join(f'"{vector_text(row)}"' for row in rows) + "}"


def ranked_rows(
    conn: Any,
    tenant: str,
    vector: Sequence[float],
    q: RecordQuery,
    k: int,
    model: str,
    indexed: bool,
    iterative: bool = True,
    signed: bool = False,
    columns: str = RECORD_COLUMNS,
) -> list[dict[str, Any]]:
    """The rows of the k records matching q closest to the vector (cosine, best first) with their cosines
    (`score`), not decoded: `columns` of each (a search's candidates need a few; never `vec`, whose text
    form -- 384 floats printed by the server and sent, per row -- cost most of a dense search at a
    million records)."""
    dim = len(vector)
    conditions = query.where(tenant, q)
    if conditions is None or k <= 0 or not 0 < dim <= MAX_DIMENSION:
        return []
    conds, params = conditions
    conds += [f"r.embedding_dim = {int(dim)}", "r.embedding_model = %(model)s"]
    params.update(model=codec.escape(model), q=vector_text(vector), k=k)
    filters = " AND ".join(conds)
    paths = _path_ranked(filters, dim, signed, columns)
    filters += " AND r.vec IS NOT NULL"
    if indexed:
        # the index's own expression, so that the planner can walk the HNSW graph
        distance = f"(r.vec::vector({int(dim)}) <#> %(q)s::vector({int(dim)}))"
        # pgvector allows 1..1000; an iterative scan goes on past ef_search when more rows are needed.
        # Both settings in one statement: on busy cores each round trip waits for the server's process
        settings = "set_config('hnsw.ef_search', %s, true)"
        if iterative:  # pgvector >= 0.8; before it, a scan that stops short is ranked exactly below
            settings += ", set_config('hnsw.iterative_scan', 'strict_order', true)"
        conn.execute(f"SELECT {settings}", (str(min(1000, max(EF_SEARCH, k))),))
        rows = _ranked(conn, distance, filters, paths, params, signed, columns)
        if sum(not row["by_path"] for row in rows) == k:  # the index's side is complete
            return rows[:k]
    distance = "(r.vec <#> %(q)s::vector)"  # not the index's expression: an exact ranking
    return _ranked(conn, distance, filters, paths, params, signed, columns)[:k]


def _path_ranked(filters: str, dim: int, signed: bool, columns: str) -> str:
    """The k best records with path vectors, by their best path vector (exact)."""
    best = f"(SELECT max(-(v::vector({dim}) <#> %(q)s::vector({dim}))) FROM unnest(r.path_vecs) v)"
    positive = "" if signed else " WHERE score > 0"
    return (
        f"SELECT * FROM (SELECT {columns}, {best} AS score, TRUE AS by_path FROM records r WHERE {filters} "
        f"AND r.path_vecs IS NOT NULL) p{positive} ORDER BY score DESC, num ASC LIMIT %(k)s"
    )


def _ranked(
    conn: Any, distance: str, filters: str, paths: str, params: dict, signed: bool, columns: str
) -> list[dict[str, Any]]:
    """Each side's k best (records by `distance`, records with path vectors by their best), merged: up to
    2k rows, best first, each marked `by_path`."""
    if not signed:
        filters += f" AND {distance} < 0"
    sql = (
        f"SELECT * FROM ((SELECT {columns}, -{distance} AS score, FALSE AS by_path "
        f"FROM records r WHERE {filters} "
        f"ORDER BY {distance} LIMIT %(k)s) UNION ALL ({paths})) hits ORDER BY score DESC, num ASC"
    )
    return conn.execute(sql, params).fetchall()
