"""`memql bench perf` at a tiny size: the report's shape, positive numbers, agreement with raw SQLite."""

from __future__ import annotations

import json
import tempfile

from click.testing import CliRunner

from memql.bench import perf
from memql.interfaces.cli import main


def test_corpus_is_deterministic_and_distinct():
    first, again = perf.corpus(300, seed=3), perf.corpus(300, seed=3)
    assert first == again
    assert len({n.text for n in first}) == 300
    chinese = sum(any("\u4e00" <= ch <= "\u9fff" for ch in n.text) for n in first)
    assert 0.1 < chinese / 300 < 0.3
    assert all(1 <= len(n.tags) <= 3 for n in first)


def test_percentile_interpolates():
    assert perf.percentile([1, 2, 3, 4], 50) == 2.5
    assert perf.percentile([5.0], 95) == 5.0


def test_run_reports_positive_numbers(tmp_path):
    report = perf.run([100, 200], queries=12, encode_ops=50, seed=1, directory=tmp_path, bulk_ops=120)
    assert set(report) >= {"encode", "retrieve", "machine", "elapsed_s"}
    for key in ("per_op", "batched", "bulk"):
        row = report["encode"][key]
        assert row["memql_ops_s"] > 0 and row["raw_ops_s"] > 0 and row["ratio"] > 0
    assert report["encode"]["batched"]["ops"] == 100
    assert (report["encode"]["bulk"]["ops"], report["encode"]["bulk"]["per_transaction"]) == (120, 120)
    assert set(report["retrieve"]) == {"100", "200"}
    for block in report["retrieve"].values():
        assert block["load_s"]["memql"] > 0 and block["load_s"]["raw"] > 0
        for kind in ("search", "filter"):
            r = block[kind]
            for name in (
                "memql_p50_ms",
                "memql_p95_ms",
                "raw_p50_ms",
                "raw_p95_ms",
                "ratio_p50",
                "ratio_p95",
            ):
                assert r[name] > 0, (kind, name)
            assert r["memql_p95_ms"] >= r["memql_p50_ms"]
            assert r["mean_hits"] > 0
        # the baseline's SELECTs answer the same rows as memql's reads
        assert block["filter"]["same_top"] == 1.0
        assert block["search"]["same_top"] >= 0.9
    assert report["machine"]["cpus"] >= 1 and report["machine"]["sqlite"]


BULK = ("--bulk-ops", "30")


def test_cli_json_and_temp_dir_cleanup(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    result = CliRunner().invoke(
        main,
        [
            "bench",
            "perf",
            "--sizes",
            "150",
            "--queries",
            "5",
            "--encode-ops",
            "20",
            *BULK,
            "--no-dense",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert list(out["retrieve"]) == ["150"]
    assert out["encode"]["per_op"]["ops"] == 20 and out["encode"]["bulk"]["ops"] == 30
    assert "retrieve_hybrid" not in out
    assert list(tmp_path.iterdir()) == []  # the temporary stores are gone


def test_cli_rejects_bad_sizes():
    result = CliRunner().invoke(main, ["bench", "perf", "--sizes", "ten", "--json"])
    assert result.exit_code == 2


def test_an_unreachable_postgresql_server_is_a_message_not_a_traceback():
    args = ["bench", "perf", "--sizes", "10", "--encode-ops", "1", "--bulk-ops", "0", "--no-dense"]
    result = CliRunner().invoke(main, [*args, "--db", "postgresql://nobody@127.0.0.1:1/none"])
    assert result.exit_code == 2 and "\nmemql: PostgreSQL at " in result.output  # (after the progress)
    assert "Traceback" not in result.output


def test_memql_on_postgresql_beside_raw_sqlite_leaves_no_schema_behind(tmp_path):
    import psycopg

    from pgtest import server_dsn

    result = CliRunner().invoke(
        main,
        [
            "bench",
            "perf",
            "--sizes",
            "150",
            "--queries",
            "8",
            "--encode-ops",
            "30",
            "--bulk-ops",
            "40",
            "--db",
            server_dsn(),
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["backend"] == "postgresql" and "retrieve_hybrid" not in report
    block = report["retrieve"]["150"]
    assert block["search"]["same_top"] >= 0.9 and block["filter"]["same_top"] == 1.0
    assert report["encode"]["per_op"]["memql_ops_s"] > 0
    assert report["encode"]["bulk"]["ops"] == 40 and report["encode"]["bulk"]["memql_ops_s"] > 0
    with psycopg.connect(server_dsn()) as conn:
        left = conn.execute("SELECT nspname FROM pg_namespace WHERE nspname LIKE 'memql_perf_%'").fetchall()
    assert left == []
