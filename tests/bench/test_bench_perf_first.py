"""`memql bench perf`, first-query part, at a tiny size: a load, a reopen, the first Retrieve's figures."""

from __future__ import annotations

import pytest

from memql.bench import perf_first


def test_run_reports_the_first_query_after_a_reopen(tmp_path, monkeypatch):
    from memql.store.sqlite import vector_cache

    monkeypatch.setattr(vector_cache, "ANN_MIN_VECTORS", 150)  # a graph is built while loading
    monkeypatch.setattr(vector_cache, "EXACT_SNAPSHOT_MIN", 100)
    report = perf_first.run([120, 240], queries=4, directory=tmp_path, batch=60)
    assert report["backend"] == "sqlite" and report["settings"]["queries"] == 4
    assert set(report["first_query"]) == {"120", "240"}
    for size, block in report["first_query"].items():
        assert block["records"] == int(size) and block["load_s"] > 0 and block["open_s"] >= 0
        assert block["first_ms"] > 0 and block["first_cpu_ms"] >= 0
        assert 0 < block["after_p50_ms"] <= block["after_p95_ms"]
        assert block["building_after_first"] in (True, False)
    # each store left its vectors beside the file (a graph, or the exact vectors a build had not yet
    # merged when the store closed): the reopened store searched from them
    for size in (120, 240):
        assert list((tmp_path / f"first-{size}.db.vectors").glob("*.*"))
    assert not list((tmp_path / "first-120.db.vectors").glob("*.usearch"))  # below it: exact only


def test_bad_arguments_are_refused_before_anything_is_loaded(tmp_path):
    with pytest.raises(ValueError, match="queries at least 2"):
        perf_first.run([10], queries=1, directory=tmp_path)
    with pytest.raises(ValueError, match="postgresql://"):
        perf_first.run([10], backend="mysql://x", directory=tmp_path)
    assert not list(tmp_path.iterdir())


def test_a_bulk_load_into_postgresql_builds_the_vector_index_after_it():
    """`--bulk-load`: the records go in by bulk writes; on PostgreSQL the HNSW index is dropped before the
    load and built after it (index_s), and the searches find the records through it."""
    import psycopg

    from pgtest import server_dsn

    report = perf_first.run([150], queries=4, backend=server_dsn(), bulk_load=True)
    block = report["first_query"]["150"]
    assert report["settings"]["load"] == "bulk" and report["backend"] == "postgresql"
    assert block["records"] == 150 and block["index_s"] is not None and block["index_s"] >= 0
    assert 0 < block["settled_p50_ms"] <= block["settled_p95_ms"] and block["first_ms"] > 0
    with psycopg.connect(server_dsn()) as conn:  # its schema was dropped
        schemas = "SELECT count(*) FROM pg_namespace WHERE nspname LIKE 'memql_first_%%'"
        left = conn.execute(schemas).fetchone()
    assert left[0] == 0


def test_a_bulk_load_into_sqlite_reports_no_index_build(tmp_path):
    report = perf_first.run([120], queries=3, directory=tmp_path, bulk_load=True)
    block = report["first_query"]["120"]
    assert block["index_s"] is None and block["records"] == 120 and block["settled_p95_ms"] > 0
