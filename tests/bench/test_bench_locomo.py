"""`memql bench locomo` on a hand-written two-conversation fixture in LoCoMo's format, and a smoke run on
the shared development data (skipped when it is absent)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner

from memql import Memory
from memql.bench import locomo
from memql.bench.corpus import default_shared_dir
from memql.interfaces.cli import bench_locomo, main  # noqa: F401  (importing registers the command)

MINI = Path(__file__).parent / "fixtures" / "locomo-mini.json"
SHARED = default_shared_dir() / "data" / "locomo-dev.json"
KNOWN = {"D1:1", "D1:2", "D1:3", "D1:4", "D2:1", "D2:2", "D11:26"}


@pytest.mark.parametrize(
    ("raw", "ids", "missing"),
    [
        ("D1:3", ["D1:3"], 0),
        ("d1:3", ["D1:3"], 0),
        (" D1 : 3. ", ["D1:3"], 0),
        ("D1:3 D1:4", ["D1:3", "D1:4"], 0),
        ("D1:3; D2:1,", ["D1:3", "D2:1"], 0),
        ("D1:3D2:2", ["D1:3", "D2:2"], 0),
        ("D:11:26", ["D11:26"], 0),
        ("D01:03", ["D1:3"], 0),
        ("D13", ["D1:3"], 0),  # a missing colon: only D1:3 exists
        ("D112", [], 1),  # D1:12 and D11:2 both absent: unmappable
        ("D", [], 1),
        ("D9:9", [], 1),
        ("D1:3 D9:9", ["D1:3"], 1),
        ("", [], 1),
    ],
)
def test_evidence_normalisation(raw, ids, missing):
    assert locomo.normalize_evidence(raw, KNOWN) == (ids, missing)


def test_turn_ids_are_canonical():
    assert locomo.canonical_dia_id(" d01 : 3 ") == "D1:3"
    assert locomo.canonical_dia_id("D:1:3") == "D1:3"
    assert locomo.canonical_dia_id("turn-7") == "turn-7"


def test_session_dates():
    assert locomo.parse_session_date("1:56 pm on 8 May, 2023") == datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    assert locomo.parse_session_date("12:09 am on 13 September, 2023") == datetime(
        2023, 9, 13, 0, 9, tzinfo=UTC
    )
    assert locomo.parse_session_date("12:30 pm on 1 Jan 2024") == datetime(2024, 1, 1, 12, 30, tzinfo=UTC)
    assert locomo.parse_session_date("sometime in spring") is None
    assert locomo.parse_session_date("10:00 am on 31 February, 2023") is None


def test_load_normalises_and_keeps_every_question():
    conversations, stats = locomo.load(MINI)
    assert [c.sample_id for c in conversations] == ["mini-1", "mini-2"]
    first = conversations[0]
    assert first.speakers == ("Ada", "Bram")
    assert [t.dia_id for t in first.turns] == ["D1:1", "D1:2", "D1:3", "D1:4", "D2:1", "D2:2", "D2:3"]
    assert len(first.questions) == 8 and len(conversations[1].questions) == 2  # none dropped
    evidence = {q.question: (q.evidence, q.unmappable) for q in first.questions}
    assert evidence["Where did Ada run a half marathon?"] == (("D2:2",), 0)
    assert evidence["What hobby did Bram take up and how did it go?"] == (("D1:4", "D2:1"), 0)
    assert evidence["What does Pixel like to do?"] == (("D1:3",), 0)
    assert evidence["What did Bram cook for dinner?"] == ((), 1)
    assert evidence["What came out of the kiln?"] == (("D2:1",), 1)
    assert evidence["Is Ada an outdoors person?"] == ((), 0)
    assert stats.items == 10
    assert stats.fixed == 4  # "d2:2.", "D1:4 D2:1", "D:2:2", "D13"
    assert stats.unmappable == 2  # "D9:9", "D"
    assert locomo.load(MINI, limit=1)[1].items == 8


def test_ingest_carries_dia_ids_dates_speakers_and_captions():
    conversations, _ = locomo.load(MINI)
    turns = conversations[0].turns
    assert turns[0].time == datetime(2024, 3, 3, 14, 5, tzinfo=UTC)
    assert turns[1].time == datetime(2024, 3, 3, 14, 5, 1, tzinfo=UTC)  # order kept: one second per turn
    assert turns[4].time == datetime(2024, 4, 21, 0, 10, tzinfo=UTC)  # 12:10 am
    assert locomo.turn_text(turns, 2) == (
        "Ada: Pretty well, she sleeps most of the day. "
        "[shares a photo: a photo of a grey dog lying on a couch]"
    )  # the turn's memory says who spoke
    with Memory(":memory:", tenant="t", actor="a", clock=datetime(2024, 6, 1, tzinfo=UTC)) as m:
        result = m.execute([locomo.encode_ir(t, locomo.turn_text(turns, i)) for i, t in enumerate(turns)])
        assert result.success and len(result.affected_ids) == len(turns)
        found = m.execute(
            {
                "op": "Retrieve",
                "target": {"filter": {"type": "turn", "limit": 50}},
                "args": {"include": ["id", "text", "facets", "time"]},
            }
        )
    rows = sorted(found.data["rows"], key=lambda r: int(r["id"]))
    assert [r["facets"]["dia_id"] for r in rows] == [t.dia_id for t in turns]
    assert rows[0]["facets"] == {"dia_id": "D1:1", "speaker": "Ada", "session": 1}
    assert "[shares a photo: a photo of a grey dog lying on a couch]" in rows[2]["text"]
    assert str(rows[5]["time"]).startswith("2024-04-21")


def test_recall_on_known_retrievals():
    q = locomo.Question("q", 1, ("D1:1", "D1:2"), unmappable=1)
    ranked = ["D1:2", "D5:5", "D1:1"]
    assert locomo.recall_at(q, ranked, 1) == pytest.approx(1 / 3)
    assert locomo.recall_at(q, ranked, 2) == pytest.approx(1 / 3)
    assert locomo.recall_at(q, ranked, 3) == pytest.approx(2 / 3)
    assert locomo.recall_at(q, [], 10) == 0
    assert locomo.recall_at(locomo.Question("none", 3, ()), ranked, 5) is None
    results = [
        locomo.Result(q, "c", ranked, 1.0),
        locomo.Result(locomo.Question("single", 4, ("D2:2",)), "c", ["D2:2"], 1.0),
        locomo.Result(locomo.Question("none", 3, ()), "c", ["D2:2"], 1.0),  # no evidence: not in the mean
        locomo.Result(locomo.Question("adv", 5, ("D3:3",)), "c", [], 1.0),  # category 5: not in 1-4
    ]
    assert locomo.summarize(results, [1, 3]) == {"1": pytest.approx((1 / 3 + 1) / 2, abs=1e-4), "3": 0.8333}
    assert locomo.summarize(results, [1], (5,)) == {"1": 0.0}


def test_run_on_the_fixture_reports_recall_per_category():
    conversations, _ = locomo.load(MINI)
    results, timing = locomo.evaluate(conversations, [1, 5])
    by_question = {r.question.question: r for r in results}
    assert len(results) == 10 and timing["records"] == 9
    assert by_question["Where did Ada run a half marathon?"].ranked[0] == "D2:2"
    assert by_question["What came out of the kiln?"].recall(1) == 0.5  # "D" is a miss
    assert len(by_question["Did Chen adopt a greyhound?"].ranked) <= 2  # its own conversation only

    report = locomo.run(MINI, [1, 5, 10, 20])
    assert set(report["recall"]) == {"1", "5", "10", "20"}
    assert set(report["by_category"]) == {"1", "2", "3", "4", "5"}
    assert sum(block["n"] for block in report["by_category"].values()) == report["questions"] == 10
    assert report["headline_questions"] == 8 and report["no_evidence"] == 1
    assert (report["evidence_fixed"], report["evidence_unmappable"]) == (4, 2)
    assert report["evidence_changes"]["D:2:2"] == ["D2:2"] and report["evidence_changes"]["D"] == ["?"]
    values = [report["recall"][k] for k in ("1", "5", "10", "20")]
    assert values == sorted(values) and values[0] > 0 and values[-1] <= 1
    assert report["ingest_records_per_s"] > 0
    assert 0 < report["query_ms"]["p50"] <= report["query_ms"]["p95"]
    assert report["mode"] == "flat"
    with pytest.raises(ValueError):
        locomo.run(MINI, mode="tiers")


def test_cli_json_shape():
    result = CliRunner().invoke(
        main, ["bench", "locomo", "--data", str(MINI), "--k", "1,10", "--limit-conversations", "1", "--json"]
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert set(report) >= {
        "recall",
        "by_category",
        "questions",
        "evidence_fixed",
        "evidence_unmappable",
        "ingest_records_per_s",
        "query_ms",
        "mode",
    }
    assert set(report["recall"]) == {"1", "10"} and report["questions"] == 8
    assert set(report["by_category"]["4"]) >= {"n", "recall"}
    assert set(report["query_ms"]) == {"p50", "p95"}
    bad = CliRunner().invoke(main, ["bench", "locomo", "--data", str(MINI), "--k", "0,x"])
    assert bad.exit_code == 2


def test_cli_passes_ranking_overrides_to_every_retrieve():
    args = ["bench", "locomo", "--data", str(MINI), "--k", "1,10", "--limit-conversations", "1", "--json"]
    result = CliRunner().invoke(main, [*args, "--recency", "0", "--heat", "0", "--mmr", "0.7"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["overrides"] == {"recency": 0.0, "heat": 0.0, "mmr": 0.7}
    assert "overrides" not in json.loads(CliRunner().invoke(main, args).stdout)
    bad = CliRunner().invoke(main, [*args, "--mmr", "1.5"])
    assert bad.exit_code == 2


@pytest.mark.shared_data
@pytest.mark.skipif(not SHARED.is_file(), reason="../shared/data/locomo-dev.json is absent")
def test_shared_data_runs_with_sane_numbers():
    data = json.loads(SHARED.read_text(encoding="utf-8"))
    report = locomo.run(SHARED)
    assert report["questions"] == sum(len(item["qa"]) for item in data)
    values = [report["recall"][k] for k in ("1", "5", "10", "20")]
    assert values[0] > 0 and values == sorted(values) and values[-1] <= 1
    for block in report["by_category"].values():
        assert all(0 <= v <= 1 for v in block["recall"].values())
    assert report["evidence_unmappable"] >= 0 and report["evidence_fixed"] >= 0
    assert report["ingest_records_per_s"] > 0 and 0 < report["query_ms"]["p50"] <= report["query_ms"]["p95"]


def test_postgresql_gives_the_same_rankings_as_sqlite_and_leaves_no_schema_behind():
    from pgtest import server_dsn

    conversations, _ = locomo.load(MINI)
    on_sqlite, _ = locomo.evaluate(conversations, [1, 5])
    on_postgres, timing = locomo.evaluate(conversations, [1, 5], db=server_dsn())
    assert [r.ranked for r in on_postgres] == [r.ranked for r in on_sqlite]
    assert timing["records"] == 9
    import psycopg

    with psycopg.connect(server_dsn()) as conn:
        schemas = conn.execute(
            "SELECT nspname FROM pg_namespace WHERE nspname LIKE 'memql_locomo_%'"
        ).fetchall()
    assert schemas == []


def test_a_db_that_is_not_postgresql_is_refused():
    conversations, _ = locomo.load(MINI)
    with pytest.raises(ValueError, match="postgresql://"):
        locomo.evaluate(conversations, [1], db="other.db")
