"""`memql bench serve` end to end on a tiny store: a real `memql serve --workers 2` on 127.0.0.1, every
round runs with no failed request, its Encodes land in the store, the read-only round writes nothing, and
the CPU bound, the ratio and raw SQLite's floor are reported."""

from __future__ import annotations

import json

from click.testing import CliRunner

from memql import Memory
from memql.bench.perf import TENANT
from memql.interfaces.cli import main

RECORDS = 80


def test_two_workers_under_one_and_four_clients(tmp_path):
    folder = tmp_path / "bench"
    args = ["bench", "serve", "--records", str(RECORDS), "--workers", "2", "--clients", "1,4"]
    args += ["--seconds", "0.5", "--write-share", "0.5", "--db", str(folder), "--json"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    rounds = [(r["workers"], r["clients"], r["write_share"]) for r in out["rounds"]]
    assert rounds == [(2, 1, 0.5), (2, 4, 0.5), (2, 4, 0.0)]  # the last: read-only, for the ratio
    assert all(r["failed"] == 0 and r["retrieve_per_s"] > 0 for r in out["rounds"])
    assert all(r["encode_per_s"] > 0 for r in out["rounds"][:2]) and out["rounds"][2]["encode_per_s"] == 0
    assert out["cpu_ms_per_retrieve"] > 0 and out["raw_sqlite_queries_per_s"] > 0
    # the baseline counts every thread, as the server's figure does (the batched visit and audit writes
    # run in a timer thread): never less than the calling thread's own time over the same Retrieves
    assert 0 < out["cpu_ms_per_retrieve_calling_thread"] <= out["cpu_ms_per_retrieve"]
    assert out["cpu_bound_retrieve_per_s"] > 0
    assert set(out["rest_over_cpu_bound"]) == {"workers_2_clients_4"} and out["backend"] == "sqlite"
    encoded = sum(r["encodes"] for r in out["rounds"])
    with Memory(str(folder / f"serve-{RECORDS}.db"), tenant=TENANT, actor=TENANT, embedder=None) as m:
        stored = m.retrieve(filter={"limit": 1000}, include=["id"]).data["count"]
    assert stored == RECORDS + encoded


def test_a_postgresql_store_served_by_two_workers_and_no_schema_left_behind():
    import psycopg

    from pgtest import server_dsn

    args = ["bench", "serve", "--records", str(RECORDS), "--workers", "2", "--clients", "2"]
    result = CliRunner().invoke(main, [*args, "--seconds", "0.5", "--db", server_dsn(), "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["backend"] == "postgresql"
    assert [(r["clients"], r["write_share"]) for r in out["rounds"]] == [(2, 0.1), (2, 0.0)]
    assert all(r["failed"] == 0 and r["retrieve_per_s"] > 0 for r in out["rounds"])
    assert out["cpu_ms_per_retrieve"] > 0 and out["raw_sqlite_queries_per_s"] > 0
    with psycopg.connect(server_dsn()) as conn:
        left = conn.execute("SELECT nspname FROM pg_namespace WHERE nspname LIKE 'memql_serve_%'")
        assert left.fetchall() == []


def test_bad_client_counts_are_a_usage_error():
    result = CliRunner().invoke(main, ["bench", "serve", "--clients", "0"])
    assert result.exit_code == 2 and "--clients" in result.output
