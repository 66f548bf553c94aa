"""`memql bench concurrency` end to end on a tiny store: every round runs from the store as loaded, nothing
fails, the ratios are the acceptance's, and the store it made is kept where --db says (or removed)."""

from __future__ import annotations

import json
import sqlite3

from click.testing import CliRunner

from memql.interfaces.cli import main


def test_readers_alone_and_beside_a_writer(tmp_path):
    folder = tmp_path / "bench"
    args = ["bench", "concurrency", "--records", "60", "--readers", "1", "--seconds", "0.2"]
    result = CliRunner().invoke(main, [*args, "--db", str(folder), "--repeat", "3", "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    rounds = [(r["turn"], r["readers"], r["writer"]) for r in out["rounds"]]
    assert rounds == [(t, 1, w) for t in range(3) for w in (False, True)]  # (a few processes each)
    alone = sorted(r["retrieve_per_s"] for r in out["rounds"] if not r["writer"])
    beside = sorted(r["retrieve_per_s"] for r in out["rounds"] if r["writer"])
    cost = 1 - beside[1] / alone[1]
    assert out["ratios"]["writer_cost_1_readers"] == round(cost, 3)  # the medians'
    writes = sorted(r["encode_per_s"] for r in out["rounds"] if r["writer"])
    assert out["ratios"]["writer_cost_1_readers_per_100_encodes_s"] == round(cost / (writes[1] / 100), 4)
    names = {"writer_cost_1_readers", "writer_cost_1_readers_per_100_encodes_s"}
    assert [set(r) for r in out["ratios_by_turn"]] == [names] * 3 and out["repeat"] == 3
    assert all(r["retrieves"] > 0 and r["failed"] == 0 for r in out["rounds"])
    assert all(r["encode_per_s"] > 0 for r in out["rounds"] if r["writer"])
    assert [r["records_at_start"] for r in out["rounds"]] == [60] * 6  # the writer's records are not kept
    assert set(out["ratios"]) == names and out["backend"] == "sqlite"
    assert (folder / "concurrency-60.db").exists()
    conn = sqlite3.connect(folder / "concurrency-60.db")
    assert (
        conn.execute("SELECT count(*) FROM records").fetchone()[0] == 60
    )  # put back after the writer's round
    conn.close()
    assert not (folder / "as-loaded").exists()  # (its copy, removed)
    again = CliRunner().invoke(main, [*args, "--db", str(folder), "--json"])
    assert again.exit_code == 2 and "exists" in again.output


def test_writers_by_themselves(tmp_path):
    """--writers: each count's processes write at once; their Encodes/s, each one's, a write's times."""
    args = [
        "bench",
        "concurrency",
        "--records",
        "60",
        "--readers",
        "1",
        "--writers",
        "2,1",
        "--seconds",
        "0.3",
        "--writer-pause-ms",
        "1",
    ]
    result = CliRunner().invoke(main, [*args, "--db", str(tmp_path / "bench"), "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert [r["writers"] for r in out["writer_rounds"]] == [1, 2] and out["writer_pause_ms"] == 1
    for r in out["writer_rounds"]:
        assert r["failed"] == 0 and len(r["encode_per_s_each"]) == r["writers"]
        assert all(each > 0 for each in r["encode_per_s_each"])
        # the total and each writer's figure are rounded to 0.1 apiece: each may be 0.05 off
        assert abs(r["encode_per_s"] - sum(r["encode_per_s_each"])) <= 0.05 * (r["writers"] + 1) + 1e-9
        assert 0 < r["write_ms_p50"] <= r["write_ms_p99"] <= r["write_ms_max"]
    one, two = out["writer_rounds"]
    assert out["ratios"]["writers_2_over_1"] == round(two["encode_per_s"] / one["encode_per_s"], 2)
    assert out["ratios"]["write_ms_p99_2_writers"] == two["write_ms_p99"]
    conn = sqlite3.connect(tmp_path / "bench" / "concurrency-60.db")
    assert conn.execute("SELECT count(*) FROM records").fetchone()[0] == 60  # put back after each round
    conn.close()


def test_readers_of_a_postgresql_store_and_no_schema_left_behind():
    import psycopg

    from pgtest import server_dsn

    args = ["bench", "concurrency", "--records", "60", "--readers", "1,2", "--seconds", "0.2"]
    result = CliRunner().invoke(main, [*args, "--db", server_dsn(), "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["backend"] == "postgresql"
    assert [(r["readers"], r["writer"]) for r in out["rounds"]] == [
        (1, False),
        (1, True),
        (2, False),
        (2, True),
    ]
    assert all(r["retrieves"] > 0 and r["failed"] == 0 for r in out["rounds"])
    assert all(r["encode_per_s"] > 0 for r in out["rounds"] if r["writer"])
    assert [r["records_at_start"] for r in out["rounds"]] == [60] * 4  # each round a schema as loaded
    with psycopg.connect(server_dsn()) as conn:
        left = conn.execute("SELECT nspname FROM pg_namespace WHERE nspname LIKE 'memql_concurrency_%'")
        assert left.fetchall() == []


def test_an_unreachable_server_is_a_message_not_a_traceback():
    args = ["bench", "concurrency", "--records", "10", "--readers", "1", "--seconds", "0.2"]
    result = CliRunner().invoke(main, [*args, "--db", "postgresql://nobody@127.0.0.1:1/none"])
    assert result.exit_code == 2 and result.output.startswith("memql: PostgreSQL at ")
    assert "Traceback" not in result.output


def test_bad_reader_counts_are_a_usage_error():
    result = CliRunner().invoke(main, ["bench", "concurrency", "--readers", "0"])
    assert result.exit_code == 2 and "--readers" in result.output
