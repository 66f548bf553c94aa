"""`memql copy`: a round trip SQLite -> PostgreSQL -> SQLite keeps every field of every record (embeddings
included), every link, the whole audit log and the record counter; the copies then behave alike."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta

import numpy as np
from click.testing import CliRunner

from memql import Memory
from memql.interfaces.cli import main
from memql.ports.clock import FixedClock
from memql.store import open_store
from pgtest import fresh_location

T0 = datetime(2026, 3, 4, 10, 0, tzinfo=UTC)


class Hashed:
    """A deterministic embedder (feature hashing): real vectors without a model."""

    model = "test-hashed"
    dimension = 8

    def embed(self, texts):
        out = []
        for text in texts:
            seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little")
            v = np.random.default_rng(seed).normal(size=self.dimension).astype(np.float32)
            out.append((v / np.linalg.norm(v)).tolist())
        return out


def populate(path: str) -> None:
    clock = FixedClock(T0)
    a = Memory(path, tenant="A", actor="alice", clock=clock, embedder=Hashed())
    b = Memory(a.store, tenant="B", actor="bob", clock=clock, embedder=Hashed())
    assert a.encode("Standup moves to 9:30", tags=["team", "Ops"], facets={"topic": "meetings"}).success
    assert a.encode(structured={"subject": "me", "attribute": "passport", "value": "2031"}).success
    assert a.execute(
        {"op": "Encode", "args": {"payload": {"text": "reply with NUL \x00 and \U0010fffd", "context": "q?"}}}
    ).success
    assert a.encode("机器学习 notes; café naïve", weight=0.9, time="2026-01-02T03:04:05.123456Z").success
    assert a.encode("first part. second part. third part.").success
    clock.advance(timedelta(hours=1))
    assert a.promote("1", delta=0.2, remind="FREQ=WEEKLY", until="2026-12-31T00:00:00Z").success
    assert a.merge(["1", "2"]).success
    assert a.split("5").success
    assert a.lock("4", reason="audit").success
    assert a.expire("3", ttl="P30D").success
    assert b.encode("bob's own note", tags=["x"]).success
    assert b.encode("bob's doomed note").success
    assert b.delete(b.retrieve("doomed").data["rows"][0]["id"], hard=True, confirm=True).success
    assert a.retrieve("standup").success  # visits, last access, an audited read
    a.close()


def state(location: str) -> dict:
    store = open_store(location)
    try:
        with store.dry_run() as s:
            s.export_begin()
            return {
                "records": s.export_records(0, 10_000),
                "links": s.export_links(),
                "log": s.export_log(0, 10_000),
                "last": s.last_record_number(),
            }
    finally:
        store.close()


def test_round_trip_sqlite_postgres_sqlite_is_lossless(tmp_path):
    first, back = str(tmp_path / "first.db"), str(tmp_path / "back.db")
    pg = fresh_location()
    populate(first)
    runner = CliRunner()
    for src, dst in ((first, pg), (pg, back)):
        result = runner.invoke(main, ["copy", src, dst, "--json"])
        assert result.exit_code == 0, result.output
    original, on_pg, returned = state(first), state(pg), state(back)
    assert len(original["records"]) == 7 and original["records"][2].text.startswith("reply with NUL \x00")
    assert any(r.embedding for r in original["records"]) and original["links"] and original["log"]
    assert original["last"] == 8  # the hard-deleted record's number stays taken
    assert on_pg == original
    assert returned == original

    # the copies behave alike: the same search scores, the same next id
    clock = FixedClock(T0 + timedelta(days=1))
    answers = []
    for location in (first, pg, back):
        with Memory(location, tenant="A", actor="alice", clock=clock, embedder=None) as m:
            hits = m.retrieve("notes part standup", include=["id", "score"]).data["rows"]
            answers.append([(h["id"], round(h["score"], 9)) for h in hits])
            assert m.encode("a new note").id == "9"
    assert answers[0] and answers[0] == answers[1] == answers[2]


def test_copy_refuses_a_destination_that_is_not_empty(tmp_path):
    first = str(tmp_path / "first.db")
    populate(first)
    pg = fresh_location()
    runner = CliRunner()
    assert runner.invoke(main, ["copy", first, pg]).exit_code == 0
    result = runner.invoke(main, ["copy", first, pg])
    assert result.exit_code == 1 and "not empty" in result.output
    result = runner.invoke(main, ["copy", first, "postgresql://nobody@/nowhere?host=/nonexistent"])
    assert result.exit_code == 2 and "cannot open" in result.output and "Traceback" not in result.output
    result = runner.invoke(main, ["copy", str(tmp_path / "typo.db"), fresh_location()])
    assert result.exit_code == 2 and "no store at" in result.output and not (tmp_path / "typo.db").exists()
